// runners/triage/turn_rule.hpp: the SPEC rules of the statements a turn ran, for a
// failure that has no journal to attribute (issue 17): a target that answers an
// error or crashes on a run, but agrees with the oracle on the same run one turn
// shorter (runners/campaign/failing_turn.hpp), failed inside that turn, in code
// of the statements it ran. Two faults that fail at one place in a runtime (one
// helper, one line) are then two buckets when their turns run other statements.
//   send                      §6.5 send        link, unlink       §16.2 link
//   spawn                     §6.6 spawn       monitor, demonitor §16.2 monitor
//   stop, fail                §6.4 exit        exit               §16.2 exit
//   ignore                    §19.1 ignore     trap_exit          §16.2 trap_exit
//   call                      §18.1 call       reply              §18.1 reply
//   terminate_child...        §20 <op>
// Assignments, ifs and repeats are where the others are; a turn that ran only
// those computed values: §5 <the operators of its expressions>.
#pragma once

#include <cstdint>
#include <string>

#include "oracle/program_json.hpp"

namespace concord {

// The bodies that ran in turn `turn` of the oracle's `journal` (a handler for each
// delivery or call made, the rest of the caller's handler for a resume, a kind's
// init for each worker started) and the rules of their statements, sorted and
// joined by " + " ("§16.2 link", "§6.5 send + §6.6 spawn"); "" when the journal shows
// no body run in that turn (only supervisors acted).
std::string turn_rule(const ojson& prog, const ojson& journal, int64_t turn);

}  // namespace concord
