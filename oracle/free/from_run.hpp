// oracle/free/from_run.hpp: a conducted run written as a free run's trace (SPEC
// §25.1: a conducted run is one free run among many, so its trace is admissible).
// It is what `concord backend oracle` answers a free request with, a trace any
// runtime's can be compared with by eye, and the checker's test: every run of §8,
// of every corpus program and of generated ones, read as a trace must be admissible.
#pragma once

#include <string>

#include "oracle/program.hpp"
#include "oracle/state.hpp"

namespace concord {

// The trace line (with its '\n') of the conducted run of `p` with `r`; or, past the
// oracle's limits (SPEC §11), the MEMORY or TIMEOUT error line, as answer_line().
std::string trace_line(const Program& p, const RunSettings& r);

}  // namespace concord
