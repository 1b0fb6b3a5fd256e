// runners/campaign/case_check.cpp: a case's expected results against a target's answers.
#include "case_check.hpp"

#include "runners/campaign/divergence.hpp"
#include "runners/campaign/failing_turn.hpp"
#include "runners/campaign/failure.hpp"
#include "runners/protocol/compare.hpp"
#include "runners/protocol/diff.hpp"
#include "runners/triage/attribution.hpp"

namespace concord {

Answer expected_answer(const ojson& expect) {
  Answer a;
  a.json = expect;
  a.line = expect.dump();
  return a;
}

namespace {

CaseVerdict failed(std::string message, size_t run, bool indefinite = false) {
  CaseVerdict v;
  v.pass = false;
  v.no_verdict = indefinite;
  v.message = std::move(message);
  v.run = run;
  return v;
}

}  // namespace

CaseVerdict check_case_answers(const Case& c, const std::string& target, const std::vector<Answer>& got,
                               const std::vector<Deviation>& deviations, const AskAnswer& ask) {
  CaseVerdict v;
  std::string kind = c.status == "known-divergence" ? signature_kind(c.signature, target) : "";
  for (size_t i = 0; i < c.runs.size(); i++) {
    if (i >= got.size()) return failed("  no answer for this run\n", i);
    std::optional<Difference> d = first_causal_difference(c.runs[i].expect, got[i].json);
    if (!d) continue;
    if (!kind.empty()) {  // the first differing run of a known divergence: is it still the same one?
      // By the form the signature has: a SPEC rule, or (failures, and signatures
      // written before they named rules) the kind.
      // A failure recorded before failures were located (failing_turn.hpp) is its kind.
      Answer expected = expected_answer(c.runs[i].expect);
      std::string raw = difference_kind(expected, got[i]);
      if (raw == kind) return v;
      std::string now = is_rule(kind) || is_failure_kind(kind)
                            ? bucket_of_answer(c.program, c.runs[i].settings, expected, got[i], ask)
                            : raw;
      if (now == kind) return v;
      return failed("  known divergence changed: the signature says " + target + ":" + kind + ", now " + now +
                        "\n      " + difference_words("expected", expected_answer(c.runs[i].expect), target, got[i]),
                    i);
    }
    if (std::vector<const Deviation*> ex = explaining(deviations, c.program, c.runs[i].settings, got[i]); !ex.empty()) {
      if (v.deviation.empty()) {
        v.deviation = deviation_ids(ex);
        v.deviation_run = i;
      }
      continue;
    }
    // A failure the case records for this target (its signature's kind, e.g.
    // crash:SIGSEGV, or where it was located) that happens again is the recorded
    // bug, not an unknown.
    std::string recorded = signature_kind(c.signature, target);
    bool indefinite =
        !got[i].ok() && !is_definite(got[i].code()) && answer_failure(got[i]) != recorded &&
        (recorded.empty() ||
         bucket_of_answer(c.program, c.runs[i].settings, expected_answer(c.runs[i].expect), got[i], ask) != recorded);
    // An error answer by its code and message, a difference where it starts (issue 37).
    return failed("  " + difference_words("expected", expected_answer(c.runs[i].expect), target, got[i]), i,
                  indefinite);
  }
  if (!kind.empty())
    return failed("  known divergence no longer reproduces: " + target +
                      " now agrees on every run (fixed? make the case's status \"regression\")\n",
                  0);
  return v;
}

}  // namespace concord
