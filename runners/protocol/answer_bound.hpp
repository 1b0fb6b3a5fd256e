// runners/protocol/answer_bound.hpp: the longest answer line a run can have
// (runners/PROTOCOL.md, "How long an answer may be"). The harness reads no more of
// a line than this, so a backend that prints without end costs a bounded buffer,
// and the line is BAD_OUTPUT. The bound follows from the program and the run's
// limits, generously: every event a turn could journal, times the longest text an
// event can have; and it is at most the oracle's memory limit (oracle/memory.hpp),
// since no result the oracle writes is longer.
#pragma once

#include <cstddef>
#include <vector>

#include "oracle/program.hpp"
#include "oracle/program_json.hpp"
#include "oracle/state.hpp"
#include "runners/protocol/run_mode.hpp"

namespace concord {

constexpr size_t kErrorLineBound = size_t{1} << 20;  // the least bound: room for any error line

// The longest answer line the harness reads into memory and parses, whatever the
// bound above: a sixteenth of the oracle's memory limit (64 MiB by default), at
// least kErrorLineBound. Parsed, a line takes about 14 times its size (a JSON tree
// of small nodes), so one answer costs about the limit, not 14 times the line. A
// longer line is MEMORY (no verdict; a failure on a small run): $CONCORD_ORACLE_MEMORY
// raises it.
size_t answer_parse_limit();

// For a checked program.
size_t answer_bytes_bound(const Program& p, const RunSettings& r);
// A free run's trace (SPEC §25.6).
size_t trace_bytes_bound(const Program& p, const RunSettings& r);
size_t answer_bytes_bound(const Program& p, const RunSettings& r, RunMode mode);
// For a program as the harness sends it: one that does not pass check() has only
// error lines for answers (INVALID_PROGRAM), so kErrorLineBound.
std::vector<size_t> answer_bytes_bounds(const ojson& program, const std::vector<RunSettings>& runs,
                                        RunMode mode = RunMode::Conducted);

}  // namespace concord
