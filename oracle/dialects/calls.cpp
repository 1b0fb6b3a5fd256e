// oracle/dialects/calls.cpp: plausible wrong implementations of the rules of calls,
// starts, the supervisor API and significant children (SPEC §18-§21), each an
// alternative the oracle can run (oracle/dialect.hpp), scope Everywhere: what
// attribution by replay tries (issue 39). Each is consulted where its rule is
// decided: oracle/signals.cpp and exec.cpp (§18), processes.cpp (§19.1), exec.cpp
// (§19.4), supervision.cpp (§19.3, §20, §21).
#include "oracle/dialect.hpp"

namespace concord {

const std::vector<Alternative>& call_alternatives() {
  constexpr AltScope E = AltScope::Everywhere;
  static const std::vector<Alternative> all = {
      {Alt::FailedCallKeepsReason, "failed-call-keeps-reason", E, "§18.2 [R30]", "§18.2 failed call",
       "a caller whose callee exits before replying exits with the callee's reason R, not code(R)", ""},
      {Alt::CallToDeadWaits, "call-to-dead-waits", E, "§18.1 [R31]", "§18.1 call",
       "a call to a name with no live process waits for ever instead of failing with NOPROC", ""},
      {Alt::CallingSelfWaits, "calling-self-waits", E, "§18.1 [R31/self]", "§18.1 calling self",
       "a call to the caller itself waits for ever instead of failing with CALLING_SELF", ""},
      {Alt::UnansweredCallStays, "unanswered-call-stays", E, "§18.1 [R29/no_reply]", "§18.1 reply",
       "a call handler that ends without replying leaves its caller to the process's next reply, even in a "
       "handler reached by send",
       ""},
      {Alt::FailedStartExitsNormal, "failed-start-exits-normal", E, "§19.1 [R34]", "§19.1 start",
       "a start that fails exits with reason normal: the failure's reason is lost", ""},
      {Alt::IgnoreIsFailure, "ignore-is-failure", E, "§19.1 [R34/ignore, R37, R38]", "§19.1 ignore",
       "init's ignore is taken as a failed start", ""},
      {Alt::FailedStartGivesBackName, "failed-start-gives-back-name", E, "§19.4 [R38]", "§19.4 spawn",
       "a spawn whose start fails or is ignored gives its number back: the next spawn of the kind reuses the name", ""},
      {Alt::FailedRestartGivesUp, "failed-restart-gives-up", E, "§19.3 [R35]", "§19.3 retry",
       "a restart that fails makes the supervisor give up at once, instead of being tried again", ""},
      {Alt::TerminateChildKeepsTemporary, "terminate-child-keeps-temporary", E, "§20 [R40]", "§20 terminate_child",
       "terminate_child keeps a temporary child in the list, not running, instead of removing it", ""},
      {Alt::RestartChildOfRunning, "restart-child-of-running", E, "§20 [R41]", "§20 restart_child",
       "restart_child of a running child ends it (shutdown) and starts it again, answering ok, instead of "
       "answering running",
       ""},
      {Alt::DeleteChildOfRunning, "delete-child-of-running", E, "§20 [R42]", "§20 delete_child",
       "delete_child of a running child removes it from the list (it runs on, unsupervised), answering ok, "
       "instead of answering running",
       ""},
      {Alt::AllSignificantAsAny, "all-significant-as-any", E, "§21 [R47]", "§21 auto_shutdown",
       "auto_shutdown all_significant shuts the supervisor down at the first significant child's exit", ""},
      {Alt::AnySignificantAsAll, "any-significant-as-all", E, "§21 [R46]", "§21 auto_shutdown",
       "auto_shutdown any_significant waits until no significant child runs, as all_significant", ""},
      {Alt::TerminateChildIsExit, "terminate-child-is-exit", E, "§20 [R48/terminate_child], §21", "§21 auto_shutdown",
       "terminate_child of a running significant child is taken as its exit: auto_shutdown (or keep or remove, "
       "with a decision) follows",
       ""},
      {Alt::RestartChildCounted, "restart-child-counted", E, "§20 [R41]", "§20 restart_child",
       "restart_child of a child that is not running is a restart: a restart decision is journaled and it counts "
       "toward the supervisor's intensity",
       ""},
      {Alt::CallToDeadUnjournaled, "call-to-dead-unjournaled", E, "§18.1 [R31/dead, R31/unknown], §22", "§18.1 call",
       "a call to a name with no live process fails the caller with NOPROC without journaling its call signal", ""},
      {Alt::IgnoredTemporaryKept, "ignored-temporary-kept", E, "§19.2 [R34/ignore], §19.4 [R38]", "§19.2 ignored child",
       "a temporary child whose start is ignored stays in its supervisor's list, not running, as a permanent or "
       "transient one does, instead of being removed",
       ""},
      {Alt::DeleteChildKeepsEntry, "delete-child-keeps-entry", E, "§20 [R42]", "§20 delete_child",
       "delete_child of a child that is not running answers ok but keeps its entry, not running: a later "
       "restart_child starts it",
       ""},
  };
  return all;
}

}  // namespace concord
