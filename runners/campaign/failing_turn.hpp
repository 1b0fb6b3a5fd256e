// runners/campaign/failing_turn.hpp: the bucket of a target's error or crash (issue 17).
// Such an answer has no journal to attribute: bucketed by what it was alone
// ("crash:SIGSEGV", "§10 error INTERNAL at links.js ..."), two bugs that end at
// one place of a runtime share a bucket. The run says more when it is cut
// shorter: a run's first L turns are the same whatever its turn limit (SPEC §8.2),
// so the target is asked the same run with lower limits until the first limit L
// it fails at is found (a bisection: about log2 of the run's limit requests).
// With that, where:
//   its answer at L - 1 differs from the oracle's  the rule of that difference
//     (the failure is a consequence:             (attribution.hpp), as for any
//     the bug is what went wrong first)            divergence: "§20 restart_child"
//   the same answer at L - 1                       an error that says where the
//     (it failed inside turn L)                    runtime met it: that place
//                                                  ("§10 error INTERNAL at links.js
//                                                  ..."; a bug past a size fails in
//                                                  whatever turn crosses it); else the
//                                                  failure in the statements turn L
//                                                  ran (turn_rule.hpp):
//                                                  "crash:SIGSEGV in §16.2 link",
//                                                  "§10 error INTERNAL in §6.6 spawn"
// A failure at limit 0 (the starts, or before the program ran: it does not
// compile, the backend fails on every request), or a probe that fails otherwise
// (a hang, another error), keeps its bucket: nothing is told apart.
#pragma once

#include <cstdint>
#include <string>

#include "oracle/program.hpp"
#include "oracle/state.hpp"
#include "runners/campaign/divergence.hpp"

namespace concord {

// Whether a divergence of this kind (divergence.hpp) is located: an error answer
// ("error/INTERNAL") or a crash ("crash:SIGSEGV", "crash:exit"); a hang, memory or
// bad output is not.
bool locatable(const std::string& kind);

struct Located {
  int64_t turn = -1;  // the first turn limit the target fails at; -1: not found
  std::string rule;   // the bucket (above); "" when the failure is not located
  std::string said;   // how it was located, an indented line for a divergence's report
};

// `got` is the target's answer to run `r` of `p`, an error or a crash of kind
// `kind` where the oracle's answer `oracle` is a result; `ask` asks it more.
Located locate_failure(const Program& p, const RunSettings& r, const Answer& oracle, const Answer& got,
                       const std::string& kind, const AskAnswer& ask);

// What the target's answer `got` to run `r` of `p` shows against the oracle's
// (`oracle`, a result): a failure or error located (above) when `ask` is given and
// it can be, else the kind of the first difference, or its rule (attribution.hpp).
std::string bucket_of_answer(const Program& p, const RunSettings& r, const Answer& oracle, const Answer& got,
                             const AskAnswer& ask);

}  // namespace concord
