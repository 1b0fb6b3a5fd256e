// oracle/dialects/signals.cpp: plausible wrong implementations of the rules of
// links, monitors and exit signals (SPEC §15-§17), each an alternative the oracle can
// run (oracle/dialect.hpp), scope Everywhere: what attribution by replay tries
// (issue 39). Each is consulted where its rule is decided: oracle/signals.cpp (§16.1,
// §16.3), exec.cpp (§16.2), processes.cpp (§17.1).
#include "oracle/dialect.hpp"

namespace concord {

const std::vector<Alternative>& signal_alternatives() {
  constexpr AltScope E = AltScope::Everywhere;
  static const std::vector<Alternative> all = {
      {Alt::NormalLinkExitKills, "normal-link-exit-kills", E, "§16.3 [R16]", "§16.3 link signal",
       "a link signal with reason normal ends a process that does not trap exits (with reason normal)", ""},
      {Alt::TrapIgnoresNormalLink, "trap-ignores-normal-link", E, "§16.3 [R17]", "§16.3 link signal",
       "a process that traps exits ignores a link signal with reason normal (no exit message)", ""},
      {Alt::TrapIgnoredByLinks, "trap-ignored-by-links", E, "§16.3 [R17]", "§16.3 link signal",
       "a link signal takes no account of the trap flag: an abnormal reason ends a trapping process, normal is "
       "ignored",
       ""},
      {Alt::ExitNormalKills, "exit-normal-kills", E, "§16.3 [R19]", "§16.3 exit signal",
       "exit(e, normal) ends a process that does not trap exits", ""},
      {Alt::KillTrappable, "kill-trappable", E, "§16.3 [R18]", "§16.3 exit signal",
       "exit(e, kill) to a process that traps exits is the message exit(X, killed), not its end", ""},
      {Alt::KilledLinkIsKill, "killed-link-is-kill", E, "§16.3 [R17, R18]", "§16.3 link signal",
       "a link signal with reason killed ends a process that traps exits, as exit(e, kill) would", ""},
      {Alt::LinkSignalsDescending, "link-signals-descending", E, "§17.1 step 3", "§17.1 signal order",
       "an exit's link signals are queued by descending id", ""},
      {Alt::DownsBeforeLinks, "downs-before-links", E, "§17.1 step 3", "§17.1 signal order",
       "an exit's down and call signals are queued before its link signals", ""},
      {Alt::DemonitorRemovesAll, "demonitor-removes-all", E, "§16.2 [R26]", "§16.2 monitor",
       "demonitor(e) removes every monitor the process holds on e, not one", ""},
      {Alt::MonitorOfDeadIsSilent, "monitor-of-dead-is-silent", E, "§16.2 [R25]", "§16.2 monitor",
       "monitor(e) of a name with no live process does nothing (no down(e, noproc))", ""},
      {Alt::LinkToDeadIsSilent, "link-to-dead-is-silent", E, "§16.2 [R20]", "§16.2 link",
       "link(e) to a name with no live process does nothing: no NOPROC failure, no exit message", ""},
      {Alt::LinkToDeadFails, "link-to-dead-fails", E, "§16.2 [R20]", "§16.2 link",
       "link(e) to a name with no live process fails with NOPROC even when the process traps exits", ""},
      {Alt::MonitorTwiceOnce, "monitor-twice-once", E, "§16.2 [one more monitor]", "§16.2 monitor",
       "a second monitor(e) while one is held on e adds none: one down message, one demonitor removes it", ""},
      {Alt::UnlinkOneSided, "unlink-one-sided", E, "§16.2 [R21]", "§16.2 link",
       "unlink(e) removes the link on the caller's side only: e's exit still reaches the caller", ""},
      {Alt::RestartKeepsLinks, "restart-keeps-links", E, "§16.1, §16.5", "§16.5 restarted",
       "an exit removes its links on its own side only: the processes linked to it keep theirs, and their "
       "exit reaches its next incarnation",
       ""},
      {Alt::RestartKeepsTrap, "restart-keeps-trap", E, "§16.1 [trap flag]", "§16.1 trap flag",
       "a restarted worker traps exits when its last incarnation did: the trap flag is not reset", ""},
      {Alt::TrapExitAnyInt, "trap-exit-any-int", E, "§16.2 [trap_exit]", "§16.2 trap_exit",
       "trap_exit(e) turns trapping on whatever int e is, 0 included (the argument taken as a boolean that is "
       "never false)",
       ""},
      {Alt::SelfExitTrappedIsMessage, "self-exit-trapped-is-message", E, "§16.3 [R19/self_trapping]",
       "§16.3 exit signal to itself",
       "exit(self, R) in a worker that traps exits and has no supervisor is the message exit(self, R) at once, as "
       "for a supervised one, instead of ending the worker with R when its handler ends",
       ""},
      {Alt::KillShownKilled, "kill-shown-killed", E, "§22 [signal]", "§22 signal event",
       "the signal event of exit(e, kill) shows the reason killed (how e dies), not kill (what was sent)", ""},
  };
  return all;
}

}  // namespace concord
