// runners/divergence.hpp: what a fuzzing campaign and the shrinker call a
// divergence: a target whose answer to a run differs from the oracle's, named by
// the first difference (compare.hpp), and the signature that buckets divergences
// which are most likely one bug: the targets involved and what differs first (an
// event kind and field, a decision action, a failure code, the outcome, an error
// code), never indices, values or process names, which change as a case shrinks.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "oracle/program.hpp"
#include "oracle/state.hpp"
#include "runners/backend.hpp"
#include "runners/failure.hpp"

namespace concord {

// The oracle's answer, in-process, as a backend would give it; `size`, when given,
// receives what the run held (runners/failure.hpp).
Answer oracle_answer(const Program& p, const RunSettings& r, RunSize* size = nullptr);

struct Divergence {
  std::string target;
  size_t run = 0;           // the first run where the target differs
  std::string kind;         // what differs first, e.g. "journal/deliver/to", "outcome", "crash:SIGSEGV"
  std::string report;       // the first difference in words (indented lines), compare_answers' report
  std::string deviation;    // the id of the target's declared deviation that explains it, or ""
  std::string stderr_tail;  // for a failure (crash, hang...): the end of what the target wrote on stderr
};

// "journal/deliver/to" for a difference at /journal/12/to where event 12 is a
// delivery; "decisions/restart/action", "failures/DIV_ZERO/code", "alive/state",
// "outcome"; "/absent" or "/extra" when one side has an element the other lacks;
// where the oracle has a result and the target a harness's error, what happened
// (failure.hpp answer_failure: "crash:SIGSEGV", "hang", "memory", "bad-output");
// "error/CODE" for another error of the target, "oracle-error/CODE" the other way;
// "bytes" for the same value in another form.
std::string difference_kind(const Answer& oracle, const Answer& got);

// Every target's answers to the same runs, against the oracle's. At most one
// divergence per target (its first differing run, or its first failure:
// failure.hpp, judged with the oracle's run sizes `sizes` when given). Targets
// that gave no verdict on some run (TIMEOUT, CRASH, MEMORY that are no failure of
// theirs) are listed in `no_verdict`.
struct TargetAnswers {
  std::string target;
  std::vector<Answer> answers;
  const std::vector<Deviation>* deviations = nullptr;  // the target's declared deviations, if any
};
std::vector<Divergence> find_divergences(const std::vector<Answer>& oracle, const std::vector<TargetAnswers>& targets,
                                         std::vector<std::string>* no_verdict = nullptr,
                                         const std::vector<RunSize>* sizes = nullptr);

// The declaration in `declared` that explains how `got` first differs from
// `oracle` (answers to the same run), or nullptr: the difference's kind is one of
// its signatures and, when it gives them, the values there are its values. Errors
// are never explained.
const Deviation* explaining(const std::vector<Deviation>& declared, const Answer& oracle, const Answer& got);

// Whether every divergence is explained by a declared deviation (and there is one):
// a "known deviation", shown and counted, not failing.
bool all_explained(const std::vector<Divergence>& ds);

// "c:journal/deliver/to erlang:outcome": target:kind for every divergence, by
// target name. "" when there are none.
std::string signature_of(const std::vector<Divergence>& ds);

// The targets a signature names, in order.
std::vector<std::string> signature_targets(const std::string& signature);
// The kind a signature gives `target`, or "" when the target is not in it.
std::string signature_kind(const std::string& signature, const std::string& target);

}  // namespace concord
