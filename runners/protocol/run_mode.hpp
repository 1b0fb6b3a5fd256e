// runners/protocol/run_mode.hpp: how a backend is asked to run a program
// (runners/PROTOCOL.md, "Free runs"): conducted, the seeded schedule of SPEC §8
// whose answer is a result; or free, no schedule, whose answer is a trace (SPEC §25).
#pragma once

#include <string>

namespace concord {

enum class RunMode { Conducted, Free };

inline const char* mode_name(RunMode m) { return m == RunMode::Free ? "free" : "conducted"; }

// "conducted" or "free"; anything else is nullopt-like: returns false.
inline bool parse_mode(const std::string& s, RunMode& out) {
  if (s == "conducted")
    out = RunMode::Conducted;
  else if (s == "free")
    out = RunMode::Free;
  else
    return false;
  return true;
}

}  // namespace concord
