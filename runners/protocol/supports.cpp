// runners/protocol/supports.cpp: reading a backend's "supports", and what a program
// uses beyond it.
#include "supports.hpp"

#include "oracle/error.hpp"

namespace concord {
namespace {

// The features that only a version 2 program can use.
bool version2_only(Feature f) { return f != Feature::Supervisors; }

void parse_versions(const ojson& v, const std::string& at, Supports& s) {
  if (!v.is_array() || v.empty()) throw InputError(at, "expected a non-empty array of versions, e.g. [1] or [1, 2]");
  s.version1 = s.version2 = false;
  for (size_t i = 0; i < v.size(); i++) {
    std::string vat = at + "/" + std::to_string(i);
    if (!v[i].is_number_integer() || (v[i] != 1 && v[i] != 2))
      throw InputError(vat, "the language has versions 1 and 2 (SPEC §14), not " + v[i].dump());
    bool& claimed = v[i] == 1 ? s.version1 : s.version2;
    if (claimed) throw InputError(vat, "version " + v[i].dump() + " is listed twice");
    claimed = true;
  }
}

void parse_features(const ojson& v, const std::string& at, Supports& s) {
  if (!v.is_array()) throw InputError(at, "expected an array of feature names (" + feature_names() + "), maybe empty");
  for (size_t i = 0; i < v.size(); i++) {
    std::string fat = at + "/" + std::to_string(i);
    Feature f;
    if (!v[i].is_string() || !parse_feature(v[i].get<std::string>(), f))
      throw InputError(fat, "unknown feature " + v[i].dump() + " (known: " + feature_names() + ")");
    if (s.features.has(f)) throw InputError(fat, "feature " + v[i].dump() + " is listed twice");
    s.features.add(f);
  }
}

// A claim no program can use is a mistake in the declaration: say so.
void check_consistent(const Supports& s, const std::string& where) {
  for (Feature f : all_features()) {
    if (!s.features.has(f)) continue;
    std::string name = feature_name(f);
    if (version2_only(f) && !s.version2)
      throw InputError(where + "/features", name + " is a feature of version 2 (SPEC " + feature_section(f) +
                                                "), and \"versions\" does not claim version 2");
    if ((f == Feature::SupervisorApi || f == Feature::Significant) && !s.features.has(Feature::Supervisors))
      throw InputError(where + "/features",
                       name + " needs \"supervisors\" (every program that uses it declares a supervisor)");
  }
}

}  // namespace

Supports parse_supports(const ojson& j, const std::string& where) {
  if (!j.is_object()) throw InputError(where, "expected {\"versions\":[...],\"features\":[...]}");
  Supports s;
  s.everything = false;
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string at = where + "/" + it.key();
    if (it.key() == "versions")
      parse_versions(it.value(), at, s);
    else if (it.key() == "features")
      parse_features(it.value(), at, s);
    else
      throw InputError(at, "unknown key '" + it.key() + "' (known: versions, features)");
  }
  if (!j.contains("versions")) throw InputError(where, "no \"versions\": the language versions claimed, e.g. [1]");
  if (!j.contains("features"))
    throw InputError(where, "no \"features\": the features claimed (" + feature_names() + "), [] for none");
  check_consistent(s, where);
  return s;
}

std::vector<std::string> unclaimed(const Supports& s, const Program& p) {
  std::vector<std::string> out;
  if (s.everything) return out;
  if (!(p.version == 1 ? s.version1 : s.version2)) out.push_back("version " + std::to_string(p.version));
  FeatureSet used = program_features(p);
  for (Feature f : all_features())
    if (used.has(f) && !s.features.has(f)) out.push_back(feature_name(f));
  return out;
}

std::string joined(const std::vector<std::string>& what) {
  std::string out;
  for (const std::string& w : what) out += (out.empty() ? "" : ", ") + w;
  return out;
}

std::string describe(const Supports& s) {
  if (s.everything) return "everything";
  std::string out = s.version1 && s.version2 ? "versions 1 and 2" : s.version1 ? "version 1" : "version 2";
  std::vector<std::string> fs;
  for (Feature f : all_features())
    if (s.features.has(f)) fs.push_back(feature_name(f));
  return out + (fs.empty() ? ", no features" : " with " + joined(fs));
}

}  // namespace concord
