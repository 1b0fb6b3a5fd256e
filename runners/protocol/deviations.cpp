// runners/protocol/deviations.cpp: reading declared deviations and matching divergences to them.
#include "deviations.hpp"

#include <algorithm>
#include <set>

#include "oracle/error.hpp"

namespace concord {
namespace {

std::string text_at(const ojson& d, const char* key, const std::string& at) {
  if (!d.contains(key)) throw InputError(at, std::string("a deviation needs \"") + key + "\"");
  if (!d[key].is_string() || d[key].get<std::string>().empty())
    throw InputError(at + "/" + key, "expected a non-empty string");
  return d[key].get<std::string>();
}

bool good_id(const std::string& id) {
  return !id.empty() && id.size() <= 64 && std::all_of(id.begin(), id.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

// A deviation is one known departure from one rule, so it names a few difference
// kinds of a result's fields; a backend's declarations together cannot cover most
// of what a campaign sees (issue 40: a declaration of every kind silenced a whole
// campaign). Far above the built-in targets' (one kind each, six in all).
constexpr size_t kMostKindsPerDeviation = 4, kMostKindsPerBackend = 16;

// Why `kind` is no kind a deviation can explain, or "": the whole result (or no
// difference of value), and errors and failures, which are never explained.
std::string unexplainable(const std::string& kind) {
  if (kind == "result" || kind == "bytes") return "is the whole result, not one of its fields";
  for (const char* p : {"error/", "oracle-error/", "crash"})
    if (kind.rfind(p, 0) == 0) return "is an error or a failure: never explained by a deviation";
  if (kind == "hang" || kind == "memory" || kind == "bad-output")
    return "is an error or a failure: never explained by a deviation";
  return "";
}

}  // namespace

std::vector<Deviation> parse_deviations(const ojson& j, const std::string& where) {
  if (!j.is_array()) throw InputError(where, "expected an array of deviations");
  std::vector<Deviation> out;
  std::set<std::string> ids;
  for (size_t i = 0; i < j.size(); i++) {
    const ojson& d = j[i];
    std::string at = where + "/" + std::to_string(i);
    if (!d.is_object()) throw InputError(at, "a deviation is an object");
    for (auto it = d.begin(); it != d.end(); ++it)
      if (!std::set<std::string>{"id", "rule", "signatures", "first_difference", "about", "experiment", "source"}.count(
              it.key()))
        throw InputError(at + "/" + it.key(), "unknown key '" + it.key() + "'");
    Deviation dev;
    dev.id = text_at(d, "id", at);
    if (!good_id(dev.id)) throw InputError(at + "/id", "expected 1..64 of a-z 0-9 _ -");
    if (!ids.insert(dev.id).second) throw InputError(at + "/id", "'" + dev.id + "' is declared twice");
    dev.rule = text_at(d, "rule", at);
    dev.about = text_at(d, "about", at);
    dev.experiment = text_at(d, "experiment", at);
    dev.source = text_at(d, "source", at);
    if (!d.contains("signatures") || !d["signatures"].is_array() || d["signatures"].empty())
      throw InputError(at + "/signatures", "expected a non-empty array of difference kinds");
    for (size_t k = 0; k < d["signatures"].size(); k++) {
      const ojson& s = d["signatures"][k];
      if (!s.is_string() || s.get<std::string>().empty() ||
          s.get<std::string>().find_first_of(" :") != std::string::npos)
        throw InputError(at + "/signatures/" + std::to_string(k),
                         "deviation '" + dev.id +
                             "': expected a difference kind such as \"journal/decision/action\" (no target, no blank)");
      if (std::string why = unexplainable(s.get<std::string>()); !why.empty())
        throw InputError(at + "/signatures/" + std::to_string(k),
                         "deviation '" + dev.id + "': \"" + s.get<std::string>() + "\" " + why);
      dev.signatures.push_back(s.get<std::string>());
    }
    if (dev.signatures.size() > kMostKindsPerDeviation)
      throw InputError(at + "/signatures", "deviation '" + dev.id + "' lists " + std::to_string(dev.signatures.size()) +
                                               " difference kinds, more than " +
                                               std::to_string(kMostKindsPerDeviation) +
                                               ": a deviation is one known departure from one rule; declare each "
                                               "departure on its own");
    if (d.contains("first_difference")) {
      const ojson& f = d["first_difference"];
      std::string fat = at + "/first_difference";
      if (!f.is_object() || f.empty()) throw InputError(fat, "expected {\"oracle\":VALUE,\"target\":VALUE}");
      for (auto it = f.begin(); it != f.end(); ++it) {
        if (it.key() == "oracle")
          dev.oracle_value = it.value();
        else if (it.key() == "target")
          dev.target_value = it.value();
        else
          throw InputError(fat + "/" + it.key(), "unknown key '" + it.key() + "' (oracle, target)");
      }
    }
    out.push_back(std::move(dev));
  }
  std::set<std::string> kinds;
  for (const Deviation& d : out) kinds.insert(d.signatures.begin(), d.signatures.end());
  if (kinds.size() > kMostKindsPerBackend)
    throw InputError(where, "the deviations declare " + std::to_string(kinds.size()) +
                                " difference kinds in all, more than " + std::to_string(kMostKindsPerBackend) +
                                ": they would explain most of what a campaign can find, and silence it");
  return out;
}

std::vector<Deviation> parse_deviations_file(const std::string& text, const std::string& origin) {
  ojson j;
  try {
    j = ojson::parse(text);
  } catch (const ojson::parse_error& e) {
    throw InputError(origin, std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || j.size() != 1 || !j.contains("deviations"))
    throw InputError(origin, "expected {\"deviations\":[...]}");
  return parse_deviations(j["deviations"], origin + ": /deviations");
}

}  // namespace concord
