// oracle/free/check_trace.hpp: is a free run's trace admissible (SPEC §25.8)? The
// one entry point of the free-run semantics: `concord check-trace`, free campaigns
// and their shrinker, and the tests all ask it.
#pragma once

#include <string>
#include <vector>

#include "oracle/free/violation.hpp"
#include "oracle/program.hpp"
#include "oracle/program_json.hpp"

namespace concord {

struct TraceVerdict {
  bool admissible = true;
  // The guarantees broken, the first first (the one a report names): those of the
  // first check that found any (§25.8's order: each incarnation's replay, the
  // supervisors, messages, pair order, spawned names, limits, causality), at most
  // kMaxViolations of them.
  std::vector<Violation> violations;
  // What was checked, for a person: incarnations, turns, messages delivered.
  int64_t incarnations = 0, turns = 0, delivered = 0, dropped = 0;
  // Checks that could not be decided within their budget (§25.8), in words; an
  // admissible verdict with notes is admissible as far as it was decided.
  std::vector<std::string> undecided;
};

constexpr size_t kMaxViolations = 20;

// For a checked program. Throws InputError when the trace is not well formed
// (SPEC §25.6; the place is a JSON pointer into it), std::runtime_error when it is
// too costly to replay (more statements than the oracle's step limit).
TraceVerdict check_trace(const Program& p, const ojson& trace);

// The first violation in one line: "G4 pair order: c#1 handled ...".
std::string violation_line(const Violation& v);

}  // namespace concord
