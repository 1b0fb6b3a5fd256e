// runners/campaign/divergence.hpp: what a fuzzing campaign and the shrinker call a
// divergence: a target whose answer to a run differs from the oracle's, named by
// the first difference (compare.hpp), and the signature that buckets divergences
// which are most likely one bug: per target involved, the SPEC rule behind the
// first causal difference (attribution.hpp: "c:§6.5 fifo"), or, when the target
// failed, the failure ("c:crash:SIGSEGV", "c:hang"). The field path of the first
// difference (an event kind and field, a decision action, a failure code, the
// outcome: "c:journal/deliver/args") is kept as the signature's *detail*: it is
// what declared deviations match, and what signatures were before issue 17 (a
// corpus may still hold them: they are recognised as known, legacy_signature()).
// Neither names indices, values or process names, which change as a case shrinks.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "oracle/program.hpp"
#include "oracle/state.hpp"
#include "runners/campaign/failure.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/triage/attribution.hpp"

namespace concord {

// The oracle's answer, in-process, as a backend would give it; `size`, when given,
// receives what the run held (runners/campaign/failure.hpp).
Answer oracle_answer(const Program& p, const RunSettings& r, RunSize* size = nullptr);

struct Divergence {
  std::string target;
  size_t run = 0;           // the first run where the target differs
  std::string kind;         // what differs first, e.g. "journal/deliver/to", "outcome", "crash:SIGSEGV"
  std::string report;       // the first difference in words (indented lines), compare_answers' report
  std::string deviation;    // the ids of the target's declared deviations that explain it ("a + b"), or ""
  std::string stderr_tail;  // for a failure (crash, hang...): the end of what the target wrote on stderr
  std::string rule;         // the SPEC rule behind it (attribution.hpp), e.g. "§6.5 fifo"; "" for a failure
  std::string dialect;      // the oracle's alternative whose replay gave the target's answers (triage/replay.hpp),
                            // "" when the rule comes from the fallback analysis (or for a failure)
};

// "journal/deliver/to" for a difference at /journal/12/to where event 12 is a
// delivery; "decisions/restart/action", "failures/DIV_ZERO/code", "alive/state",
// "outcome"; "/absent" or "/extra" when one side has an element the other lacks;
// where the oracle has a result and the target a harness's error, what happened
// (failure.hpp answer_failure: "crash:SIGSEGV", "hang", "memory", "bad-output");
// "error/CODE" for another error of the target, "oracle-error/CODE" the other way;
// "bytes" for the same value in another form.
std::string difference_kind(const Answer& oracle, const Answer& got);

// Every target's answers to the same runs (`runs` of `p`), against the oracle's.
// At most one divergence per target: its first run that differs in a way its
// declared deviations do not explain (the oracle run in their dialect,
// deviations.hpp), or its first failure (failure.hpp, judged with the oracle's run
// sizes `sizes` when given); when every differing run is explained, the first of
// them, naming the deviations of all (Divergence::deviation). Targets that gave no
// verdict on some run (TIMEOUT, CRASH, MEMORY that are no failure of theirs) are
// listed in `no_verdict`.
struct TargetAnswers {
  std::string target;
  std::vector<Answer> answers;
  const std::vector<Deviation>* deviations = nullptr;  // the target's declared deviations, if any
};
std::vector<Divergence> find_divergences(const Program& p, const std::vector<RunSettings>& runs,
                                         const std::vector<Answer>& oracle, const std::vector<TargetAnswers>& targets,
                                         std::vector<std::string>* no_verdict = nullptr,
                                         const std::vector<RunSize>* sizes = nullptr);

// Whether every divergence is explained by a declared deviation (and there is one):
// a "known deviation", shown and counted, not failing.
bool all_explained(const std::vector<Divergence>& ds);

// A target's answer to run `s` of program `p`: one request to its backend.
using AskAnswer = std::function<Answer(const Program& p, const RunSettings& s)>;
AskAnswer answering(Backend& b, RequestLimits limits = {});

// The attribution's questions (AskTarget) put to backend `b`, or to `ask`: its
// result, nullopt for an error answer.
AskTarget asking(Backend& b, RequestLimits limits = {});
AskTarget asking(const AskAnswer& ask);

// Sets the rule of every divergence that is no failure: the rule of the oracle's
// alternative whose replay gives the target's answers to every run (`runs`) of `p`
// (runners/triage/replay.hpp, Divergence::dialect), else, as the fallback, the SPEC
// rule behind the first causal difference of its run (attribution.hpp); ask_of(target),
// when given, asks that target more (AskTarget).
void attribute_divergences(const Program& p, const std::vector<RunSettings>& runs, const std::vector<Answer>& oracle,
                           const std::vector<TargetAnswers>& targets, std::vector<Divergence>& ds,
                           const std::function<AskTarget(const std::string& target)>& ask_of = {});

// What a divergence contributes to its signature: its rule, or for a failure (or
// a divergence never attributed) its kind.
std::string bucket_of(const Divergence& d);

// "c:§6.5 fifo, erlang:crash:SIGSEGV": target:bucket_of for every divergence, by
// target name, joined by ", ". "" when there are none.
std::string signature_of(const std::vector<Divergence>& ds);
// "c:journal/deliver/to erlang:outcome": target:kind for every divergence, by
// target name: the signature's detail (and the signature before issue 17).
std::string detail_of(const std::vector<Divergence>& ds);

// The targets a signature names, in order (either form: a part starts at a word
// holding a ':', so "c:§6.5 fifo, js:§8.2 draw" and "c:journal/deliver/to
// erlang:outcome" both name c and js or erlang).
std::vector<std::string> signature_targets(const std::string& signature);
// The kind (rule, failure or field path) a signature gives `target`, or "" when the
// target is not in it.
std::string signature_kind(const std::string& signature, const std::string& target);
// Whether signature `candidate` names the same targets as `signature`, each with
// the same kind or a rule that narrows it (attribution.hpp refines): what a
// shrunk candidate must show to be kept.
bool signature_refines(const std::string& candidate, const std::string& signature);
// Whether a kind is a SPEC rule ("§6.5 fifo"), as opposed to a failure or a field path.
bool is_rule(const std::string& kind);
// Whether a signature is of the form before issue 17: some target's kind is a field
// path (neither a rule nor a failure). Such a signature is matched against detail_of().
bool legacy_signature(const std::string& signature);

}  // namespace concord
