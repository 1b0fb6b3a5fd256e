// targets/targets.cpp: the list of built-in targets.
#include "targets/targets.hpp"

#include <algorithm>
#include <stdexcept>

#include "generators/profile.hpp"
#include "oracle/error.hpp"
#include "targets/c/launcher/c_launcher.hpp"
#include "targets/elixir/launcher/elixir_launcher.hpp"
#include "targets/erlang/launcher/erlang_launcher.hpp"
#include "targets/js/launcher/js_launcher.hpp"

namespace concord {

const std::vector<TargetEntry>& target_list() {
  static const std::vector<TargetEntry> all = {
      {"c", "emitted C compiled against the C runtime (targets/c)", serve_c, nullptr, true, {}, 2},
      {"erlang",
       "gen_servers under OTP supervisors on a BEAM node (targets/erlang)",
       serve_erlang,
       nullptr,
       true,
       {},
       2},
      {"js",
       "emitted JavaScript on a node process, one vm context per program (targets/js)",
       serve_js,
       nullptr,
       true,
       {},
       2},
      // Not in the default campaign of version 1 (Elixir's compiler costs about 4
      // times the erlang target's per program, README "Two commands"), but in the
      // campaigns of the profile full of DynamicSupervisors and of version 2's.
      {"elixir",
       "GenServers under Supervisors and DynamicSupervisors on a BEAM node (targets/elixir)",
       serve_elixir,
       elixir_deviations(),
       false,
       {"dynamic-supervision", "v2", "links", "calls"},
       2},
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

std::vector<std::string> default_campaign_targets(const std::string& profile) {
  int version = gen::profile_named(profile).version;
  std::vector<std::string> out;
  for (const TargetEntry& t : target_list())
    if ((t.in_default_campaign ||
         std::find(t.campaign_profiles.begin(), t.campaign_profiles.end(), profile) != t.campaign_profiles.end()) &&
        t.version >= version)
      out.push_back(t.name);
  return out;
}

std::vector<Deviation> builtin_deviations(const TargetEntry& t) {
  if (!t.deviations) return {};
  try {
    return parse_deviations_file(t.deviations, std::string("targets/") + t.name + "/deviations.json");
  } catch (const InputError& e) {
    throw std::logic_error(std::string("this build's declared deviations are malformed: ") + e.what());
  }
}

}  // namespace concord
