// targets/targets.hpp: the one list of built-in targets besides the oracle. Each is
// a folder of targets/ (emitter, runtime, launcher, README with its mapping table and
// declared deviations); adding a target adds its folder and one line to the list in
// targets.cpp.
#pragma once

#include <string>
#include <vector>

#include "runners/protocol/deviations.hpp"
#include "targets/launch.hpp"

namespace concord {

struct TargetEntry {
  const char* name;                                 // `--target NAME`, `concord backend NAME`
  const char* about;                                // one line for --help
  int (*serve)(const LaunchOptions& opts);          // serves the protocol on stdin/stdout until EOF
  const char* deviations = nullptr;                 // its deviations.json, built in; nullptr: it declares none
  bool in_default_campaign = true;                  // run by `concord fuzz` without --target (`all` runs every target)
  std::vector<std::string> campaign_profiles = {};  // generator profiles whose campaigns run it without --target too
  int version = 1;  // the highest language version it implements (SPEC §14); above it, it answers UNSUPPORTED
};

// In registry order; `--target all` runs them all.
const std::vector<TargetEntry>& target_list();
const TargetEntry* find_target(const std::string& name);
const std::vector<std::string>& builtin_targets();  // the names, in order
// The targets `concord fuzz --profile P` compares when no --target is given: those
// in the default campaign, and those whose campaign profile is P; of these, only
// the ones that implement the language version of P's programs (a target would
// answer UNSUPPORTED to every program otherwise, a divergence each time).
std::vector<std::string> default_campaign_targets(const std::string& profile);
// A built-in target's declared deviations (runners/protocol/deviations.hpp), parsed from its
// deviations.json; a malformed file is a bug of this build (std::logic_error).
std::vector<Deviation> builtin_deviations(const TargetEntry& t);

}  // namespace concord
