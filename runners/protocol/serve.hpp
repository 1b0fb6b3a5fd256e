// runners/protocol/serve.hpp: the backend side of the protocol (runners/PROTOCOL.md): read
// request lines, check the envelope, the runs and the program, and let a target
// answer each run with exactly one line. `concord backend oracle|c` are built on it.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "oracle/program.hpp"
#include "oracle/state.hpp"
#include "runners/protocol/run_mode.hpp"

namespace concord {

struct RunRequest {
  RunSettings settings;
  std::string bad;  // non-empty: why this run is a BAD_REQUEST (then `settings` is meaningless)
};

// Hands one line (canonical, '\n'-terminated) to the harness; one call per run, in order.
using Emit = std::function<void(const std::string& line)>;
// Answers every run of a checked program. A throw answers the runs left with INTERNAL
// (std::bad_alloc: MEMORY).
using Answerer = std::function<void(const Program&, const std::vector<RunRequest>&, const Emit&)>;

// Serves requests from `in` until EOF, writing and flushing each line to `out`.
// A request with "mode":"free" (SPEC §25) goes to `free`; a backend without one
// answers its runs UNSUPPORTED.
void serve(std::istream& in, std::ostream& out, const Answerer& answer, const Answerer& free = {});

// The oracle in-process: result_line() per good run, BAD_REQUEST per bad one.
void answer_with_oracle(const Program& p, const std::vector<RunRequest>& runs, const Emit& emit);
// Free runs on the oracle: each run's conducted schedule written as a trace (SPEC §25.1).
void answer_free_with_oracle(const Program& p, const std::vector<RunRequest>& runs, const Emit& emit);

}  // namespace concord
