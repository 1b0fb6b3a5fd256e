// reports/free_triage.hpp: a free run's trace shown for a person (SPEC §25): each
// incarnation's observed inputs and effects side by side, one column each, the
// events a violation names marked; as text (concord triage) and as a page (a free
// campaign's report, concord triage --html).
#pragma once

#include <string>
#include <vector>

#include "oracle/free/check_trace.hpp"
#include "oracle/program.hpp"
#include "oracle/program_json.hpp"

namespace concord {

struct FreeTriage {
  std::string title;               // "erlang:free:G4 pair order"
  const Program* program = nullptr;
  ojson trace;                     // the trace shown (the witness)
  TraceVerdict verdict;            // its verdict (check_trace)
  std::vector<std::string> commands;  // how to see it again (run, check-trace)
  std::string note;                // e.g. "the trace kept when the case was stored"
};

// One line per event, incarnations one after the other, marked events with ">>".
std::string free_triage_text(const FreeTriage& t);
// A page: the violation, the incarnations side by side, the program, the trace.
std::string free_triage_html(const FreeTriage& t);

// One event of a trace as a person reads it: "deliver bump(b) from a#1 (its effect 1)".
std::string trace_event_words(const ojson& event);

}  // namespace concord
