// runners/triage/attribution.hpp: which SPEC rule is behind the first difference between
// the oracle's result and a target's (issue 17, "one bug, one bucket"). Since issue 39
// this is the fallback: a divergence is first attributed by replay (replay.hpp), to
// the rule of the oracle's alternative that gives the target's answers; this analysis
// names the rule only when no alternative does. Today's
// signature kind (divergence.hpp) names the first differing *field in key order*:
// one bug shows as many kinds (a LIFO mailbox gave deliver/args, deliver/from,
// deliver/tag, outcome, turns...). Here the first difference is taken in causal
// order (the journal first, event by event; the fields derived from it after) and
// the event there is attributed to the rule that produced it, from the oracle's
// journal and the program (values: the operators of the expressions that computed
// them, through the state fields they read). Where the two events are of two turns,
// the earlier one is the event the other side lacks (it has no more in that turn).
// Causes before symptoms:
//   a message (delivery or drop) one side never sent, shown by a run that ended
//     quiescent with its receiver alive (or, for a drop, in a turn both reached):
//     sent from inside `if`s only (of  §5 <operators of their conditions> (§6.2 if without)
//       the bodies its sender ran)
//     its sender failed since           §6.4 sends before a failure
//   only drops missing, nothing else    §6.5 drop (§6.4 sends before a failure when each
//                                          was sent by a handler that then failed)
//   two given messages in another order §8.2 given when the oracle, sending the given
//                                          messages in the target's order, gives the
//                                          target's journal and a drop or a mailbox that
//                                          kept its order rules out the mailbox, else §6.5 fifo
//   deliver, `to` differs, as many ready §8.2 draw; another number ready: the first
//                                          message on one side only, as above; when the
//                                          journals show none (the run cut, the receiver
//                                          exiting): §5 <operators of the conditions of
//                                          the sends that may reach a process ready on
//                                          one side only, in the oracle's world>
//   deliver, another message of the mailbox (given there, delivered there later by
//     the oracle; of the same sender and tag with another address, or one it sends
//     with literal arguments)           §6.5 fifo
//   deliver, same sender and tag, the oracle's sent as it is (literals) and the
//     target's waiting in the oracle's mailbox too
//                                       §6.5 fifo
//   deliver, same sender and tag, other values
//                                       §5 <operators of the sends of that tag>
//   deliver, a message the oracle discarded with its receiver's exit and that
//     is not in its mailbox in the oracle's run to the turn before (looked for
//     first, and, when the two sides saw another number of ready processes, in
//     the target's first delivery the oracle never shows), or the first message
//     that exit discarded, delivered first to the new incarnation where the
//     oracle delivers another (the new one sent itself the same again)
//                                       §6.4 exit
//   deliver, another message, the oracle's sent only by handler runs that failed
//     in their turn, and the oracle's run without that send is the target's
//                                       §6.4 sends before a failure
//   deliver, a message the oracle had not sent by the turn before (not waiting in its
//     receiver's mailbox then, not in its journal, no exit between), or on the
//     target's side only one copy more than the oracle ever delivers
//                                       its send's conditions (as above; the copies
//                                          the sender's unguarded sends explain are
//                                          counted when each body it ran ran once)
//   deliver, any other message          §6.5 send
//   drops of one sender, tag and receiver, other values
//                                       §5 <operators of the sends of that tag>
//   a drop on the target's side only    its send's conditions (as for messages)
//   start or exit shutdown after a restart decision
//                                       §7.3 start order (the same starts in another order:
//                                          one clause, rest_for_one's is "the same" as
//                                          one_for_all's, OTP's start_children for both) or
//                                          §7.3 <strategy> which (an event on one side only);
//                                          terminations in another order: §7.5 termination order
//   start at turn 0                     §8.2 start; later, not after a decision: its
//                                          spawn's conditions (as for messages) or §6.6 spawn
//   start, same kind, two names k-N     §2 spawned names, decimal (the number's digits
//                                          backwards) or number (another count)
//   exit DIV_ZERO / NO_HANDLER / SYSTEM_LIMIT / NOPROC
//                                       §5 <operators of / and %> / §6.5 match / §6.6 limit / §6.6 noproc
//   exit shutdown                       §7.4 intensity after a give_up, else §7.3 as above, or §7.5
//   exit normal or a user code          §6.4 exit; on one side only, or for another
//                                          reason on each, where every stop (fail) of
//                                          the body that ran is inside `if`s: their
//                                          conditions (as for messages)
//   decision, restart against give_up   §7.4 intensity; any other pair of actions (or a
//                                          decision on one side only): §7.2 restart type;
//                                          the same decision elsewhere in its reaction:
//                                          §7.2 decision order
//   equal journals: alive state         §5 <operators of the assignments to that field>
//   equal journals, other fields        §8.2 run (outcome, turns), §9.1 (the rest)
// A version 2 program (attribution_v2.hpp) is asked these first:
//   a link or down signal that only the  §16.5 restarted, when the oracle's sender had no
//     target applies                       such link (its receiver no such monitor) at its
//                                          exit but an earlier incarnation of one of them
//                                          had (attribution_links.hpp: the oracle's run
//                                          shows each worker's links as it exits)
//   signal, same signal, another effect §16.3 <kind> signal <clause>, the clause the oracle
//                                          applied: trapped (a message), normal (ignored),
//                                          abnormal (an exit), kill, to itself; down: §16.3
//                                          down signal; call: §18.2 failed call
//   signal, same signal, another reason §15 reasons
//   signals (or a signal and an exit)   §17.1 signal order (links by ascending id, then
//     in another order                     downs and calls by monitor); against a
//                                          decision: §17.2 settle order
//   a signal on one side only           §16.2 link / monitor / exit (the link or monitor
//                                          held, the exit sent, on one side only); call:
//                                          §18.2 failed call
//   decision auto_shutdown on a side    §21 auto_shutdown
//   decisions of two supervisors swapped §17.2 settle order
//   call against deliver                §18.1 call
//   resume, same caller, another value  §18.1 reply; another caller or on one side only:
//                                          §18.3 ready
//   api, another result, or a request   §20 <the op of an earlier request on that child
//     against what it did (a start)        that changed something: not running, not_found>,
//                                          else §20 <op>; on one side only: §20 <op>
//   exit, same process, another reason  the clause of the signal that ended it (above)
//   exit CALLING_SELF / BAD_REPLY       §18.1 calling self / §18.1 BAD_REPLY
//   exit NOPROC                         §16.2 link, §18.1 call or §20 noproc (the first of
//                                          these statements the program has), else §6.6 noproc
//   start, a name whose start failed    §19.4 spawn (a failed or ignored start consumes
//     before on the other side             its name)
//   equal journals: outcome deadlock    §18.3 deadlock
//   equal journals: failures            §22 failures
//   equal journals: supervisors, with   §20 <op of the last request>
//     API requests in the journal
// Some results fit two rules (a run cut by the turn limit hides whether a message
// was late or never sent; given messages delivered newest first are a mailbox
// taking the newest first too): the rule is then not `sure`, and the campaign
// looks for a run of the case that is (divergence.hpp attribute_divergences).
// The attribution reads the two results and the program, reruns the oracle on
// variants of it, and, given a way to (AskTarget), asks the target two more
// questions where its results alone fit two rules:
//   its run was cut by the turn limit  the same run with 1000 more turns (its events
//                                       the same first): whether a message it did not
//                                       deliver was late or never sent
//   only drops missing, one of them    the program with the sends of that drop's tag
//     sent under an `if`                taken out of their `if`s: a target that then
//                                       journals the drops journals drops, so a
//                                       condition came out otherwise (§5 <its
//                                       operators>); one that still journals none,
//                                       §6.5 drop
//   only drops missing, from senders   the program without the sender's `fail`s, its
//     that failed after                 bodies ended at the send: agrees, §6.4 sends
//                                       before a failure; journals no drop, §6.5 drop
//                                       (asked only when the sender then no longer fails)
//   given messages out of order, the   the given messages sent by a process of their
//     target's order explaining all     own instead: agrees, §8.2 given; takes its
//                                       messages out of order too, §6.5 fifo
//   deliver, same sender and tag,      the program with one of the sender kind's sends
//     other values, the kind sending    of that tag left (the first the oracle still
//     that tag more than once           delivers at the difference): delivers the
//                                       oracle's message or another tag, §6.5 fifo; the
//                                       same send's with other values, §5 <operators of
//                                       that send's arguments>
//   exit DIV_ZERO on the oracle's side  the program with each such `if` of the body that
//     only, a division of the body      ran replaced by its dividing branch: fails as
//     that ran inside an `if`           the oracle, §5 <operators of the conditions>;
//                                       does not, §5 <operators of / and %>
// The oracle itself is untouched.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "oracle/program.hpp"
#include "oracle/program_json.hpp"
#include "oracle/state.hpp"

namespace concord {

struct Attribution {
  std::string rule;    // "§6.5 fifo", "§5 * +": section and what of it
  std::string detail;  // where: "journal[3].args", the field path of the first causal difference
  bool sure = true;    // false: another rule explains these two results as well (a run cut short hides the
                       // difference between a late message and one never sent): another run may tell
};

// A question to the target: its result for program `p` (the case's or a variant of
// it) and run `s`, or nullopt when it gives none (an error answer, no backend).
using AskTarget = std::function<std::optional<ojson>(const Program& p, const RunSettings& s)>;

// Both results are answers to the same run (canonical result objects; an error
// answer on either side is attributed to "§10 error CODE", an INTERNAL one whose
// message ends with "[at WHERE]" to "§10 error INTERNAL at WHERE", PROTOCOL.md).
// `ask`, when given, is the target that answered `got` (the questions above).
Attribution attribute(const Program& p, const ojson& oracle, const ojson& got, const AskTarget& ask = {});

// `prog` (JSON form) with its given messages sent instead, in the same order, by a
// process of their own started last (its init runs after the others', as the given
// messages are sent after them, §8.2): a question that tells a mailbox taking the
// newest first from given messages sent in another order. Runs need one more
// process of room.
ojson given_sent_by_a_process(const ojson& prog);

// "c:§6.5 fifo": the target and the rule.
std::string rule_signature(const std::string& target, const Attribution& a);

// Whether rule `candidate` is `rule` or narrows it: a value computed otherwise
// (§5) by some of the same operators. Which operator of an expression is wrong
// cannot be told from the results; a shrunk program has only the operators that
// its divergence needs, so the shrinker keeps a candidate whose operators are a
// part of the case's (§5 mul add -> §5 mul), and the case's rule is the shrunk one's.
// Likewise a failure located in a turn (runners/campaign/failing_turn.hpp) by some
// of the same statements: "crash:SIGSEGV in §6.5 send + §6.6 spawn" -> "crash:SIGSEGV
// in §6.6 spawn".
bool refines(const std::string& candidate, const std::string& rule);

}  // namespace concord
