// oracle/interpreter.hpp: the oracle's entry points. run() executes a checked
// program for one run setting (SPEC §8) and returns the final world, whose journal
// result_json() serialises canonically (SPEC §9).
#pragma once

#include <memory>
#include <string>

#include "program_json.hpp"
#include "state.hpp"

namespace concord {

struct RunResult {
  std::unique_ptr<World> world;
  std::string outcome;  // "quiescent", "turn_limit" or (version 2) "deadlock"
  int64_t turns = 0;
};

// Throws InputError (code BAD_REQUEST) when the settings are out of range.
void check_settings(const RunSettings& r);
RunResult run(const Program& p, const RunSettings& r);

ojson result_to_json(const RunResult& r);
std::string result_line(const RunResult& r);  // canonical, newline-terminated
std::string error_line(const std::string& code, const std::string& message);

}  // namespace concord
