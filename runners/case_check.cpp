// runners/case_check.cpp: a case's expected results against a target's answers.
#include "case_check.hpp"

#include "runners/diff.hpp"
#include "runners/divergence.hpp"
#include "runners/failure.hpp"

namespace concord {

Answer expected_answer(const ojson& expect) {
  Answer a;
  a.json = expect;
  a.line = expect.dump();
  return a;
}

CaseVerdict check_case_answers(const Case& c, const std::string& target, const std::vector<Answer>& got) {
  CaseVerdict v;
  std::string kind = c.status == "known-divergence" ? signature_kind(c.signature, target) : "";
  for (size_t i = 0; i < c.runs.size(); i++) {
    if (i >= got.size()) {
      v = CaseVerdict{false, false, "  no answer for this run\n", i};
      return v;
    }
    std::optional<Difference> d = first_difference(c.runs[i].expect, got[i].json);
    if (!d) continue;
    if (!kind.empty()) {  // the first differing run of a known divergence: is it still the same one?
      std::string now = difference_kind(expected_answer(c.runs[i].expect), got[i]);
      if (now == kind) return v;
      return CaseVerdict{false, false,
                         "  known divergence changed: the signature says " + target + ":" + kind + ", now " + now +
                             "\n      " + describe(*d, "expected", target),
                         i};
    }
    // A failure the case records for this target (its signature's kind, e.g.
    // crash:SIGSEGV) that happens again is the recorded bug, not an unknown.
    bool indefinite =
        !got[i].ok() && !is_definite(got[i].code()) && answer_failure(got[i]) != signature_kind(c.signature, target);
    return CaseVerdict{false, indefinite, "  " + describe(*d, "expected", target), i};
  }
  if (!kind.empty())
    return CaseVerdict{false, false,
                       "  known divergence no longer reproduces: " + target +
                           " now agrees on every run (fixed? make "
                           "the case's status \"regression\")\n",
                       0};
  return v;
}

}  // namespace concord
