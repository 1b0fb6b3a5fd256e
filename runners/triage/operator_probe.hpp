// runners/triage/operator_probe.hpp: which operators (§5) a divergence can be blamed
// on, asked of the target (issue 39). The fallback analysis (attribution.hpp) names
// the operators that *could* have computed a differing value: every operator whose
// result fed it, through the state fields, arguments and conditions it came from.
// Most of those only carry a value that already differs (a `ready` counted
// otherwise, a spawn refused, a message on one side only), so one bug spread over
// every operator its programs used. An operator is to blame only when its operands
// are equal on both sides and its result is not: the probe records every operator
// application (operator and operand values) of the oracle's run of the case and
// asks the target to compute exactly those, each on state fields holding the
// operands, in a program of its own. The ones whose result differs are the
// operators to blame; when none does, every value the oracle's run computed the
// target computes alike, and the difference comes from somewhere else.
#pragma once

#include <optional>
#include <set>
#include <string>

#include "oracle/dialect.hpp"
#include "oracle/program.hpp"
#include "oracle/state.hpp"
#include "runners/triage/attribution.hpp"  // AskTarget

namespace concord {

// The operators ("lt", "shl") of the oracle's run of `p` (`run`) that the target
// computes otherwise on the same operands than the oracle in dialect `as` (SPEC by
// default); empty: none does; nullopt when the probe cannot tell (the oracle's run
// applied too many, or the target gave no result).
std::optional<std::set<std::string>> operators_computed_otherwise(const Program& p, const RunSettings& run,
                                                                  const AskTarget& ask, const Dialect& as = {});

// A fallback rule `rule` that blames operators (§5 ...), checked by the probe: the
// operators of the case's run the target computes otherwise ("§5 lt" for "§5 lt rem
// shl"); when it computes every one alike, the origin of the differing value, from
// the first difference of the two results (`oracle`, `got`):
//   deliver, another number ready       §8.2 draw (the scheduler counted otherwise)
//   an exit with a runtime code on one  its code's rule: §6.6 limit (SYSTEM_LIMIT),
//     side only, from there on             §6.6 noproc (NOPROC), §6.5 match (NO_HANDLER)
// and nullopt when the probe cannot tell or no origin shows (the rule stands).
std::optional<std::string> probed_value_rule(const Program& p, const ojson& oracle, const ojson& got,
                                             const std::string& rule, const AskTarget& ask);

}  // namespace concord
