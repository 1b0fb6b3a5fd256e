// targets/targets.hpp: the one list of built-in targets besides the oracle. Each is
// a folder of targets/ (emitter, runtime, launcher, README with its mapping table and
// declared deviations); adding a target adds its folder and one line to the list in
// targets.cpp.
#pragma once

#include <string>
#include <vector>

#include "targets/launch.hpp"

namespace concord {

struct TargetEntry {
  const char* name;                         // `--target NAME`, `concord backend NAME`
  const char* about;                        // one line for --help
  int (*serve)(const LaunchOptions& opts);  // serves the protocol on stdin/stdout until EOF
};

// In registry order; `--target all` runs them all.
const std::vector<TargetEntry>& target_list();
const TargetEntry* find_target(const std::string& name);
const std::vector<std::string>& builtin_targets();  // the names, in order

}  // namespace concord
