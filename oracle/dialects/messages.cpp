// oracle/dialects/messages.cpp: plausible wrong implementations of the rules of
// values, messages, names and the scheduler (SPEC §2, §5, §6, §8, §9), each an
// alternative the oracle can run (oracle/dialect.hpp), scope Everywhere: what
// attribution by replay tries (issue 39). Each is consulted where its rule is
// decided: eval.hpp through dialect_values.cpp (§5), processes.cpp (§6.5, §6.7),
// exec.cpp (§6.5, §6.6, §2), run.cpp (§8.2, §9.1).
#include "oracle/dialect.hpp"

namespace concord {

const std::vector<Alternative>& message_alternatives() {
  constexpr AltScope E = AltScope::Everywhere;
  static const std::vector<Alternative> all = {
      {Alt::MulSaturates, "mul-saturates", E, "§5 [*]", "§5 mul",
       "`*` saturates at the int64 bounds instead of wrapping modulo 2^64", ""},
      {Alt::AddSubSaturate, "add-sub-saturate", E, "§5 [+ -]", "§5 add sub",
       "`+` and `-` saturate at the int64 bounds instead of wrapping", ""},
      {Alt::ArithInDoubles, "arith-in-doubles", E, "§5 [+ - * / % neg]", "§5 value",
       "arithmetic is done on doubles: each result of + - * / % and negation is the exact one rounded to 53 "
       "bits, saturated at the int64 bounds (no wrapping)",
       ""},
      {Alt::ArithIn32Bits, "arith-in-32-bits", E, "§5 [+ - * neg << ~]", "§5 value",
       "ints are 32 bits: each result of + - * << negation and ~ wraps modulo 2^32 (sign-extended)", ""},
      {Alt::DivFloors, "div-floors", E, "§5 [/]", "§5 div", "`/` rounds toward minus infinity, not toward zero", ""},
      {Alt::DivByZeroIsZero, "div-by-zero-is-zero", E, "§5 [/ %]", "§5 div rem",
       "division and remainder by zero give 0 instead of failing the process with DIV_ZERO", ""},
      {Alt::RemFloored, "rem-floored", E, "§5 [%]", "§5 rem",
       "`%` takes the sign of the divisor (floored), not of the dividend", ""},
      {Alt::ShiftCountUnmasked, "shift-count-unmasked", E, "§5 [<< >>]", "§5 shl shr",
       "a shift by a count outside 0..63 shifts every bit out (0, or -1 for >> of a negative), not by count "
       "mod 64",
       ""},
      {Alt::ShrLogical, "shr-logical", E, "§5 [>>]", "§5 shr", "`>>` shifts zeros in (logical), not the sign", ""},
      {Alt::CompareUnsigned, "compare-unsigned", E, "§5 [< <= > >=]", "§5 lt le gt ge",
       "comparisons compare the two's complement patterns as unsigned", ""},
      {Alt::BitwiseIn32Bits, "bitwise-in-32-bits", E, "§5 [& | ^]", "§5 band bor bxor",
       "`&`, `|` and `^` work on the low 32 bits of their operands, giving a signed 32-bit result", ""},
      {Alt::MailboxLifo, "mailbox-lifo", E, "§6.5 [FIFO]", "§6.5 fifo",
       "a message to a non-empty mailbox goes to its front: the newest is taken first", ""},
      {Alt::GivenReversed, "given-reversed", E, "§8.2 [start]", "§8.2 given",
       "the given messages are sent at turn 0 last first", ""},
      {Alt::ReadyDescending, "ready-descending", E, "§8.2 step 3", "§8.2 draw",
       "the ready processes are counted in descending id order: index k picks the k-th from the highest id", ""},
      {Alt::DrawOffByOne, "draw-off-by-one", E, "§8.2 step 4", "§8.2 draw",
       "the scheduler takes the ready process after index draw mod n (wrapping) when n > 1", ""},
      {Alt::DrawInDouble, "draw-in-double", E, "§8.2 step 4, §8.3", "§8.2 draw",
       "the 64-bit draw is rounded to a double (53 bits) before draw mod n", ""},
      {Alt::DrawLow32Bits, "draw-low-32-bits", E, "§8.2 step 4, §8.3", "§8.2 draw",
       "only the low 32 bits of the draw are used: (draw mod 2^32) mod n", ""},
      {Alt::DrawStateUnmasked, "draw-state-unmasked", E, "§8.3", "§8.3 generator",
       "the generator's state is not reduced modulo 2^64 (an unbounded integer, as in Erlang): each draw is mixed "
       "from a state that outgrows 64 bits",
       ""},
      {Alt::TurnLimitOneLate, "turn-limit-one-late", E, "§8.2 step 1", "§8.2 run",
       "the turn limit is checked after the turn: a run cut by it has L + 1 turns", ""},
      {Alt::DropUnjournaled, "drop-unjournaled", E, "§6.5 [drop]", "§6.5 drop",
       "a message to a name with no live process vanishes without a drop event", ""},
      {Alt::DeadNameKeepsMessages, "dead-name-keeps-messages", E, "§6.5 [drop]", "§6.5 drop",
       "a message to a process that has exited is kept (no drop event) and delivered once it is restarted", ""},
      {Alt::SendsLostOnFailure, "sends-lost-on-failure", E, "§6.4 [sends before a failure]",
       "§6.4 sends before a failure",
       "what a handler sent (and dropped) before it failed is thrown away: its messages vanish, its drop events "
       "too",
       ""},
      {Alt::NoHandlerIgnored, "no-handler-ignored", E, "§6.5 [NO_HANDLER]", "§6.5 match",
       "a message with no handler is delivered and discarded; the receiver lives on", ""},
      {Alt::ProcessLimitOneLate, "process-limit-one-late", E, "§6.6 [SYSTEM_LIMIT]", "§6.6 limit",
       "a spawn fails with SYSTEM_LIMIT only above P live processes, not at P", ""},
      {Alt::LimitCountsDead, "limit-counts-dead", E, "§6.6 [SYSTEM_LIMIT]", "§6.6 limit",
       "the process limit counts every worker created so far (each name once), dead ones included, not the live ones",
       ""},
      {Alt::InitSendsAsSpawner, "init-sends-as-spawner", E, "§6.6 [init], §6.5", "§6.6 spawn",
       "what a spawned process's init sends names the spawner as its sender", ""},
      {Alt::SpawnNumberPerProgram, "spawn-number-per-program", E, "§2 [spawned names]", "§2 spawned names, number",
       "a spawned name's number counts the spawns of the whole run, not of its kind", ""},
      {Alt::SpawnNumberFromZero, "spawn-number-from-zero", E, "§2 [spawned names]", "§2 spawned names, number",
       "spawned names count from 0: the first worker is worker-0", ""},
      {Alt::SpawnDigitsReversed, "spawn-digits-reversed", E, "§2 [spawned names], §9.2", "§2 spawned names, decimal",
       "a spawned name's number is written backwards in the result: worker-21 for the 12th", ""},
      {Alt::RestartKeepsMailbox, "restart-keeps-mailbox", E, "§6.7, §7.3 [fresh mailbox]", "§6.4 exit",
       "a process that exits keeps its mailbox: its restart is delivered the old messages", ""},
      {Alt::RestartKeepsState, "restart-keeps-state", E, "§6.7 [fresh state]", "§6.7 start",
       "a restarted process keeps the state of its last incarnation (its initialisers are not run again; init "
       "is)",
       ""},
      {Alt::RestartUnbindsName, "restart-unbinds-name", E, "§2 [a restarted process keeps its name]", "§2 names",
       "a restarted process is no longer found by its name: sends and calls to it find no live process", ""},
      {Alt::FinalStateBeforeLastTurn, "final-state-before-last-turn", E, "§9.1 [alive]", "§9.1 alive",
       "each live process's final state is shown as it was before its last handler ran", ""},
      {Alt::ShutdownIsFailure, "shutdown-is-failure", E, "§9.1 [failures], §15", "§9.1 failures",
       "an exit with reason shutdown gets a failures record, as an abnormal one", ""},
      {Alt::ChildrenNewestFirst, "children-newest-first", E, "§7.7 [child lists]", "§7.7 child lists",
       "a supervisor's children are listed newest first in the result", ""},
      {Alt::ReadyCountedAfterPop, "ready-counted-after-pop", E, "§8.2 step 5 [ready]", "§8.2 draw",
       "a deliver event's ready is counted after the message is taken: a receiver whose last message it was is "
       "not counted (the draw itself counts it)",
       ""},
      {Alt::LimitCountsSupervisors, "limit-counts-supervisors", E, "§6.6 [SYSTEM_LIMIT]", "§6.6 limit",
       "the process limit counts live supervisors as well as live workers", ""},
      {Alt::SpawnUnderIsPermanent, "spawn-under-is-permanent", E, "§6.6 [spawn under], §7.6", "§6.6 spawn",
       "a child spawned under a supervisor is permanent whatever restart type the spawn names", ""},
  };
  return all;
}

}  // namespace concord
