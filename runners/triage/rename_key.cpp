// runners/triage/rename_key.cpp: a program's JSON form with its names numbered.
#include "rename_key.hpp"

#include <map>

#include "oracle/program_json.hpp"

namespace concord {
namespace {

// Keys whose string values are words of the language, not names.
bool is_keyword_key(const std::string& key) {
  return key == "op" || key == "do" || key == "type" || key == "strategy" || key == "restart";
}

void rename(ojson& j, const std::string& key, std::map<std::string, std::string>& names) {
  if (j.is_string()) {
    if (is_keyword_key(key)) return;
    std::string s = j.get<std::string>();
    auto it = names.find(s);
    if (it == names.end()) it = names.emplace(s, "n" + std::to_string(names.size())).first;
    j = it->second;
  } else if (j.is_array()) {
    for (ojson& e : j) rename(e, key, names);
  } else if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) rename(it.value(), it.key(), names);
  }
}

}  // namespace

std::string rename_key(const Program& p) {
  ojson j = program_to_json(p);
  std::map<std::string, std::string> names;
  rename(j, "", names);
  return j.dump();
}

std::string RenamedBuckets::join(const std::string& signature, const Program& p) {
  return bucket_of_key_.emplace(rename_key(p), signature).first->second;
}

}  // namespace concord
