// oracle/dialect.hpp: dialects of the oracle (issues 38, 39). A dialect is SPEC with
// some rules replaced by *alternatives*: each a precise other way to implement one
// rule, for one construct, that the oracle itself can run. A target's declared
// deviation names one (runners/protocol/deviations.hpp): a divergence is a known
// deviation only when the oracle run in the dialect gives the target's result, up to
// the freedom the alternative declares. Triage names a divergence's rule by the
// alternative whose run reproduces the target's (runners/triage/replay.hpp).
//
// The plain dialect (no alternative) is SPEC: every run a target answers is compared
// with it, and nothing here changes it. An alternative is consulted at the one place
// its rule is decided (the function of rules.hpp that cites the rule), only for the
// construct its scope names, and records that it was *taken* when it changed what
// the rule did, so that a replay says which alternatives made the difference.
#pragma once

#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace concord {

struct SupervisorDecl;

// The alternatives the oracle knows, by area; each area's entries are in its file
// under oracle/dialects/, in this order (dialect.cpp checks it).
enum class Alt : uint8_t {
  // Elixir's DynamicSupervisor (targets/elixir/README.md), scope DynamicSupervisors:
  // oracle/dialects/elixir.cpp.
  DynsupTerminatesInMapOrder,  // §7.4 step 2, §7.5 [R7, R11]
  DynsupRemovesTransient,      // §7.2 [R2]
  DynsupRestartMovesLast,      // §7.3, §7.7 [R14]
  DynsupKeepsNoStoppedChild,   // §19.3 [R37], §19.4 [R38], §20 [R40]
  DynsupApiNotFound,           // §20 [R40, R42]
  DynsupRestartChildNotFound,  // §20 [R39, R41]

  // Plausible wrong implementations, scope Everywhere, for attribution by replay
  // (issue 39). Values, messages, names and the scheduler (§2, §5, §6, §8, §9):
  // oracle/dialects/messages.cpp.
  MulSaturates,              // §5 *
  AddSubSaturate,            // §5 + -
  ArithInDoubles,            // §5 every result
  ArithIn32Bits,             // §5 every result
  DivFloors,                 // §5 /
  DivByZeroIsZero,           // §5 / %
  RemFloored,                // §5 %
  ShiftCountUnmasked,        // §5 << >>
  ShrLogical,                // §5 >>
  CompareUnsigned,           // §5 < <= > >=
  BitwiseIn32Bits,           // §5 & | ^
  MailboxLifo,               // §6.5 fifo
  GivenReversed,             // §8.2 given
  ReadyDescending,           // §8.2 draw
  DrawOffByOne,              // §8.2 draw
  DrawInDouble,              // §8.2 draw
  DrawLow32Bits,             // §8.2 draw
  DrawStateUnmasked,         // §8.3
  TurnLimitOneLate,          // §8.2 run
  DropUnjournaled,           // §6.5 drop
  DeadNameKeepsMessages,     // §6.5 drop
  SendsLostOnFailure,        // §6.4 sends before a failure
  NoHandlerIgnored,          // §6.5 match
  ProcessLimitOneLate,       // §6.6 limit
  LimitCountsDead,           // §6.6 limit
  InitSendsAsSpawner,        // §6.6 spawn
  SpawnNumberPerProgram,     // §2 spawned names
  SpawnNumberFromZero,       // §2 spawned names
  SpawnDigitsReversed,       // §2 spawned names
  RestartKeepsMailbox,       // §6.7 fresh mailbox
  RestartKeepsState,         // §6.7 fresh state
  RestartUnbindsName,        // §2 a restarted process keeps its name
  FinalStateBeforeLastTurn,  // §9.1 alive
  ShutdownIsFailure,         // §9.1 failures
  ChildrenNewestFirst,       // §7.7 child lists
  ReadyCountedAfterPop,      // §8.2 ready
  LimitCountsSupervisors,    // §6.6 limit
  SpawnUnderIsPermanent,     // §6.6 spawn

  // Supervision (§7): oracle/dialects/supervision.cpp.
  TransientRestartedOnNormal,  // §7.2
  TransientRemovedOnNormal,    // §7.2
  TemporaryRestarted,          // §7.2
  PermanentAsTransient,        // §7.2
  ShutdownIsAbnormal,          // §7.2, §15
  IntensityOneLate,            // §7.4
  IntensityOneEarly,           // §7.4
  IntensityPerChild,           // §7.4
  GiveUpIsAbnormal,            // §7.4
  GiveUpUnreported,            // §7.4
  RestartInReverseOrder,       // §7.3 start order
  RestartMovesLast,            // §7.3 start order
  TerminateInStartOrder,       // §7.5 termination order
  OneForAllKeepsTemporaries,   // §7.3 one_for_all
  OneForAllRestartsOne,        // §7.3 one_for_all
  RestForOneRestartsAll,       // §7.3 rest_for_one
  RestForOneRestartsOne,       // §7.3 rest_for_one
  DecisionAfterRestart,        // §7.2 decision order

  // Links, monitors and exit signals (§15-§17): oracle/dialects/signals.cpp.
  NormalLinkExitKills,       // §16.3 link
  TrapIgnoresNormalLink,     // §16.3 link
  TrapIgnoredByLinks,        // §16.3 link
  ExitNormalKills,           // §16.3 exit
  KillTrappable,             // §16.3 exit: kill
  KilledLinkIsKill,          // §16.3 link
  LinkSignalsDescending,     // §17.1 signal order
  DownsBeforeLinks,          // §17.1 signal order
  DemonitorRemovesAll,       // §16.2 demonitor
  MonitorOfDeadIsSilent,     // §16.2 monitor
  LinkToDeadIsSilent,        // §16.2 link
  LinkToDeadFails,           // §16.2 link
  MonitorTwiceOnce,          // §16.2 monitor
  UnlinkOneSided,            // §16.2 unlink
  RestartKeepsLinks,         // §16.5
  RestartKeepsTrap,          // §16.1
  TrapExitAnyInt,            // §16.2 trap_exit
  SelfExitTrappedIsMessage,  // §16.3 exit signal to itself
  KillShownKilled,           // §22 signal event

  // Calls, starts, the supervisor API, significant children (§18-§21):
  // oracle/dialects/calls.cpp.
  FailedCallKeepsReason,         // §18.2
  CallToDeadWaits,               // §18.1 call
  CallingSelfWaits,              // §18.1 calling self
  UnansweredCallStays,           // §18.1 reply
  FailedStartExitsNormal,        // §19.1
  IgnoreIsFailure,               // §19.1
  FailedStartGivesBackName,      // §19.4
  FailedRestartGivesUp,          // §19.3
  TerminateChildKeepsTemporary,  // §20 terminate_child
  RestartChildOfRunning,         // §20 restart_child
  DeleteChildOfRunning,          // §20 delete_child
  AllSignificantAsAny,           // §21
  AnySignificantAsAll,           // §21
  TerminateChildIsExit,          // §21, §20
  RestartChildCounted,           // §20 restart_child
  CallToDeadUnjournaled,         // §18.1 call
  IgnoredTemporaryKept,          // §19.2, §19.4 ignored child
  DeleteChildKeepsEntry,         // §20 delete_child

  kCount
};
constexpr size_t kAlternatives = static_cast<size_t>(Alt::kCount);
using AltSet = std::bitset<kAlternatives>;

// What an alternative applies to.
enum class AltScope : uint8_t {
  Everywhere,
  DynamicSupervisors,  // a supervisor with no declared children, one_for_one, auto_shutdown never
};

struct Alternative {
  Alt alt;
  const char* id;  // [a-z0-9-]+, what a declaration and a triage page name
  AltScope scope;
  const char* rule;     // the SPEC rule it replaces: "§7.2 [R2]"
  const char* bucket;   // that rule as a signature names it (runners/triage/attribution.hpp): "§7.2 restart type"
  const char* instead;  // what it does instead, one sentence
  const char* freedom;  // what it leaves open ("" for nothing): compared up to it
};

const std::vector<Alternative>& alternatives();  // the catalogue, in Alt order
// Each area's entries (oracle/dialects/*.cpp), in Alt order.
const std::vector<Alternative>& elixir_alternatives();
const std::vector<Alternative>& message_alternatives();
const std::vector<Alternative>& supervision_alternatives();
const std::vector<Alternative>& signal_alternatives();
const std::vector<Alternative>& call_alternatives();
const Alternative& alternative(Alt a);
std::optional<Alt> alternative_named(std::string_view id);
const char* scope_text(AltScope s);

// The construct of AltScope::DynamicSupervisors: what the elixir target runs as a
// DynamicSupervisor (a supervisor whose children can only be spawned under it).
bool is_dynamic_supervisor(const SupervisorDecl& s);

// Whether alternative `a` of w's dialect applies (to supervisor `slot` for a
// supervisor's scope; -1 for none), and took(): it changed what its rule did.
// Declared in rules.hpp's terms: World is state.hpp's.
struct World;
bool alt_on(const World& w, Alt a, int32_t slot = -1);
void took(World& w, Alt a);
// alt_on(), and took() when it is: for a branch that the alternative always changes.
bool took_if(World& w, Alt a, int32_t slot = -1);

// A set of alternatives the oracle runs with; empty: SPEC.
struct Dialect {
  AltSet on;
  bool empty() const { return on.none(); }
  bool has(Alt a) const { return on.test(static_cast<size_t>(a)); }
  Dialect& with(Alt a) {
    on.set(static_cast<size_t>(a));
    return *this;
  }
};
std::string dialect_text(const AltSet& s);  // "a + b", or "SPEC" when empty
// The dialect of "id,id...": throws InputError at `where` naming an id the catalogue lacks.
Dialect dialect_named(const std::string& ids, const std::string& where);

// A part of a run's journal whose order the dialect leaves free: events [begin, end)
// are compared as a multiset.
struct UnorderedSpan {
  size_t begin, end;
};

}  // namespace concord
