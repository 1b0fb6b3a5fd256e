// oracle/interpreter.hpp: the oracle's entry points. run() executes a checked
// program for one run setting (SPEC §8) and returns the final world, whose journal
// result_json() serialises canonically (SPEC §9).
#pragma once

#include <functional>
#include <memory>
#include <new>
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
// Throws OutOfMemory (a std::bad_alloc) past the memory limit (memory.hpp, SPEC §11).
// `discarding`, when given, sees each worker as it exits (World::discarding);
// `observer`, each step a trace records (World::observer, oracle/observer.hpp);
// `dialect`, the alternatives the run follows instead of SPEC's rules (dialect.hpp).
RunResult run(const Program& p, const RunSettings& r,
              const std::function<void(const World&, const Process&)>& discarding = {}, RunObserver* observer = nullptr,
              const Dialect& dialect = {});

ojson result_to_json(const RunResult& r);
// A message's arguments (signature `sig`) as a result shows them (§9.2, §22): ints
// as numbers, addrs and reasons as their names. Triage writes the messages of a
// mailbox with it.
ojson message_args_json(const World& w, int32_t sig, const std::vector<Value>& args);
std::string result_line(const RunResult& r);  // canonical, newline-terminated
std::string error_line(const std::string& code, const std::string& message);
// The MEMORY line (SPEC §10) for a run that ran out of memory: OutOfMemory says
// which limit it passed, any other std::bad_alloc only "out of memory".
std::string memory_error_line(const std::bad_alloc& e);
// The oracle's answer to a run: result_line(run(p, r)), or the error line of a run
// past the oracle's limits (SPEC §11): MEMORY, or TIMEOUT for the step limit.
// `finished`, when given, sees the final world of a run that completed (the
// harness measures the run's size there).
// `dialect`: the oracle in that dialect (dialect.hpp).
std::string answer_line(const Program& p, const RunSettings& r, const std::function<void(const World&)>& finished = {},
                        const Dialect& dialect = {});

}  // namespace concord
