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
                         "expected a difference kind such as \"journal/decision/action\" (no target, no blank)");
      dev.signatures.push_back(s.get<std::string>());
    }
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
