// runners/campaign/case_check.hpp: the verdict on one target's answers to a corpus case's
// runs, by the case's status (corpus/README.md): for a "regression" every answer
// must equal the expected result; for a "known-divergence" the targets its
// signature names must still differ first where it says (so that a fix is
// noticed: the case then fails and asks to become a regression), and every other
// target must agree. A "regression" run whose answer differs from its expected
// result as a declared deviation of the target explains (runners/protocol/deviations.hpp)
// passes, labelled: a known deviation.
#pragma once

#include <string>
#include <vector>

#include "runners/campaign/divergence.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/protocol/load.hpp"
#include "runners/triage/attribution.hpp"

namespace concord {

struct CaseVerdict {
  bool pass = true;
  bool no_verdict = false;  // failed on an indefinite error (TIMEOUT, CRASH, MEMORY)
  std::string message;      // why it failed: indented lines ending in '\n'
  size_t run = 0;           // the run it is about
  std::string deviation;    // when it passed by a declared deviation: its id (the first such run's)
  size_t deviation_run = 0;
};

// `ask`: the target that answered, for the attribution's questions (attribution.hpp)
// and to locate a failure (failing_turn.hpp).
CaseVerdict check_case_answers(const Case& c, const std::string& target, const std::vector<Answer>& got,
                               const std::vector<Deviation>& deviations = {}, const AskAnswer& ask = {});

// An expected result as an answer, for comparisons.
Answer expected_answer(const ojson& expect);

}  // namespace concord
