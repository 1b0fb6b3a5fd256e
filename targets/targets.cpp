// targets/targets.cpp: the list of built-in targets.
#include "targets/targets.hpp"

#include "targets/c/launcher/c_launcher.hpp"
#include "targets/erlang/launcher/erlang_launcher.hpp"
#include "targets/js/launcher/js_launcher.hpp"

namespace concord {

const std::vector<TargetEntry>& target_list() {
  static const std::vector<TargetEntry> all = {
      {"c", "emitted C compiled against the C runtime (targets/c)", serve_c},
      {"erlang", "gen_servers under OTP supervisors on a BEAM node (targets/erlang)", serve_erlang},
      {"js", "emitted JavaScript on a node process, one vm context per program (targets/js)", serve_js},
  };
  return all;
}

const TargetEntry* find_target(const std::string& name) {
  for (const TargetEntry& t : target_list())
    if (name == t.name) return &t;
  return nullptr;
}

const std::vector<std::string>& builtin_targets() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const TargetEntry& t : target_list()) out.push_back(t.name);
    return out;
  }();
  return names;
}

}  // namespace concord
