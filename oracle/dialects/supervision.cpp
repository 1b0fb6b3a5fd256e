// oracle/dialects/supervision.cpp: plausible wrong implementations of the rules of
// supervision (SPEC §7), each an alternative the oracle can run (oracle/dialect.hpp),
// scope Everywhere: what attribution by replay tries (issue 39). Each is consulted
// where its rule is decided, in oracle/supervision.cpp.
#include "oracle/dialect.hpp"

namespace concord {

const std::vector<Alternative>& supervision_alternatives() {
  constexpr AltScope E = AltScope::Everywhere;
  static const std::vector<Alternative> all = {
      {Alt::TransientRestartedOnNormal, "transient-restarted-on-normal", E, "§7.2 [R2]", "§7.2 restart type",
       "a transient child that exits normal or shutdown is restarted, not kept", ""},
      {Alt::TransientRemovedOnNormal, "transient-removed-on-normal", E, "§7.2 [R2]", "§7.2 restart type",
       "a transient child that exits normal or shutdown is removed, as a temporary one, not kept", ""},
      {Alt::TemporaryRestarted, "temporary-restarted", E, "§7.2 [R3]", "§7.2 restart type",
       "a temporary child that exits abnormally is restarted, as a transient one, not removed", ""},
      {Alt::PermanentAsTransient, "permanent-as-transient", E, "§7.2 [R1]", "§7.2 restart type",
       "a permanent child that exits normal or shutdown is kept, not restarted", ""},
      {Alt::ShutdownIsAbnormal, "shutdown-is-abnormal", E, "§7.2 [R2], §15", "§7.2 restart type",
       "a child's own exit with reason shutdown counts as abnormal: a transient one is restarted", ""},
      {Alt::IntensityOneLate, "intensity-one-late", E, "§7.4 [R7]", "§7.4 intensity",
       "a supervisor gives up one restart late: when its restarts exceed MaxR + 1", ""},
      {Alt::IntensityOneEarly, "intensity-one-early", E, "§7.4 [R7]", "§7.4 intensity",
       "a supervisor gives up one restart early: when its restarts reach MaxR", ""},
      {Alt::IntensityPerChild, "intensity-per-child", E, "§7.4 [R8]", "§7.4 intensity",
       "a one_for_all or rest_for_one restart counts once per child it starts again, not once", ""},
      {Alt::GiveUpIsAbnormal, "give-up-is-abnormal", E, "§7.4 [R10]", "§7.4 intensity",
       "a supervisor that gives up is, to its own supervisor, a child that exited abnormally: restarted when "
       "transient",
       ""},
      {Alt::GiveUpUnreported, "give-up-unreported", E, "§7.4 step 3", "§7.4 give up",
       "a supervisor that gives up never tells its own supervisor, which lists it as running and decides "
       "nothing",
       ""},
      {Alt::RestartInReverseOrder, "restart-in-reverse-order", E, "§7.3 [R5, R6]", "§7.3 start order",
       "one_for_all and rest_for_one start the children again newest first", ""},
      {Alt::RestartMovesLast, "restart-moves-last", E, "§7.3, §7.7 [R14]", "§7.3 start order",
       "a child restarted alone moves to the end of the child list", ""},
      {Alt::TerminateInStartOrder, "terminate-in-start-order", E, "§7.5 [R7, R11]", "§7.5 termination order",
       "a supervisor terminates its children oldest first, not in reverse start order", ""},
      {Alt::OneForAllKeepsTemporaries, "one-for-all-keeps-temporaries", E, "§7.3 [R5]", "§7.3 one_for_all which",
       "one_for_all and rest_for_one start temporary siblings again instead of removing them", ""},
      {Alt::OneForAllRestartsOne, "one-for-all-restarts-one", E, "§7.3 [R5]", "§7.3 one_for_all which",
       "one_for_all restarts the failed child only, as one_for_one", ""},
      {Alt::RestForOneRestartsAll, "rest-for-one-restarts-all", E, "§7.3 [R6]", "§7.3 rest_for_one which",
       "rest_for_one restarts the children before the failed one too, as one_for_all", ""},
      {Alt::RestForOneRestartsOne, "rest-for-one-restarts-one", E, "§7.3 [R6]", "§7.3 rest_for_one which",
       "rest_for_one restarts the failed child only, as one_for_one", ""},
      {Alt::DecisionAfterRestart, "decision-after-restart", E, "§7.2, §9.2", "§7.2 decision order",
       "a restart decision is journaled after the restart's own events (the starts and terminations)", ""},
  };
  return all;
}

}  // namespace concord
