// tests/runners/attribution_test.cpp: the SPEC rule behind a first difference
// (runners/triage/attribution.hpp) on hand-written corpus cases whose expected results are
// bent by hand, one bug each, the rule expected from SPEC.md; and programs up to
// renaming (runners/triage/rename_key.hpp).
#include <gtest/gtest.h>

#include "oracle/dialect.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/program_json.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/protocol/load.hpp"
#include "runners/triage/attribution.hpp"
#include "runners/triage/rename_key.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/oracle/checked_program.hpp"

namespace concord {
namespace {

Case hand(const std::string& name) {
  return load_case(std::string(build_paths::source_dir) + "/corpus/hand/" + name + ".case.json");
}

std::string rule(const Case& c, const ojson& got) { return attribute(c.program, c.runs[0].expect, got).rule; }

TEST(Attribution, EqualResultsAreBytesOnly) {
  Case c = hand("fifo_mailbox");
  EXPECT_EQ(rule(c, c.runs[0].expect), "§9.3 bytes");
}

// fifo_mailbox: r gets push(1), push(2), push(3) from s (journal 3..5), then push(9) from itself.
TEST(Attribution, TwoMessagesOfOneSenderSwappedIsTheMailboxOrder) {
  Case c = hand("fifo_mailbox");
  ojson got = c.runs[0].expect;
  std::swap(got["journal"][3]["args"], got["journal"][4]["args"]);
  Attribution a = attribute(c.program, c.runs[0].expect, got);
  EXPECT_EQ(a.rule, "§6.5 fifo");
  EXPECT_EQ(a.detail, "journal[3].args");
}

TEST(Attribution, AnotherReceiverIsTheSchedulersDraw) {
  Case c = hand("seed_order_a");
  ojson got = c.runs[0].expect;
  for (ojson& e : got["journal"])
    if (e["ev"] == "deliver" && e["turn"] == 1) e["to"] = e["to"] == "a" ? "b" : "a";
  EXPECT_EQ(rule(c, got), "§8.2 draw");
  // The draw chose another receiver, whose own given message came out: two given
  // messages, but not one mailbox's.
  const ojson& j = c.runs[0].expect["journal"];
  size_t first = 0;
  while (j[first]["ev"] != "deliver") first++;
  size_t elsewhere = first + 1;
  while (j[elsewhere]["ev"] != "deliver" || j[elsewhere]["to"] == j[first]["to"]) elsewhere++;
  ojson drawn = c.runs[0].expect;
  drawn["journal"][first] = j[elsewhere];
  drawn["journal"][first]["turn"] = j[first]["turn"];
  drawn["journal"][first]["ready"] = j[first]["ready"];
  EXPECT_EQ(rule(c, drawn), "§8.2 draw");
}

TEST(Attribution, ASentValueComputedOtherwiseIsItsOperators) {
  Case c = hand("fifo_mailbox");
  ojson got = c.runs[0].expect;
  got["journal"][6]["args"][0] = 8;  // push(9) from r: a literal, no operator
  EXPECT_EQ(rule(c, got), "§5 value");
  Case d = hand("div_zero");  // rem(x, y) is sent with x, y: no operator either
  ojson got2 = d.runs[0].expect;
  got2["journal"][4]["args"][0] = 6;
  EXPECT_EQ(rule(d, got2), "§5 value");
}

TEST(Attribution, AStateComputedOtherwiseIsItsOperators) {
  Case c = hand("fifo_mailbox");
  ojson got = c.runs[0].expect;
  got["alive"][1]["state"]["v"] = 1238;  // v = v * 10 + x
  Attribution a = attribute(c.program, c.runs[0].expect, got);
  EXPECT_EQ(a.rule, "§5 add mul");
  EXPECT_EQ(a.detail, "alive[1].state.v");
}

TEST(Attribution, ADivisionThatDoesNotFailIsTheDivisionsOperators) {
  Case c = hand("div_zero");
  ojson got = c.runs[0].expect;
  got["journal"][3]["reason"] = "normal";
  EXPECT_EQ(rule(c, got), "§5 div rem");
}

TEST(Attribution, AMissingDropIsTheDropRule) {
  Case c = hand("drops");
  ojson got = c.runs[0].expect;
  got["journal"].erase(3);  // the given hi(7) to worker-1
  EXPECT_EQ(rule(c, got), "§6.5 drop");
}

TEST(Attribution, GivingUpOrNotIsTheIntensity) {
  Case c = hand("give_up_maxr0");
  ojson got = c.runs[0].expect;
  got["journal"][6]["action"] = "restart";
  EXPECT_EQ(rule(c, got), "§7.4 intensity");
}

TEST(Attribution, KeepingInsteadOfRestartingIsTheRestartType) {
  Case c = hand("one_for_all_restart");
  ojson got = c.runs[0].expect;
  got["journal"][7]["action"] = "keep";
  EXPECT_EQ(rule(c, got), "§7.2 restart type");
}

TEST(Attribution, RestartsInAnotherOrderAreTheStrategyTerminationsTheTerminationOrder) {
  Case c = hand("one_for_all_restart");
  ojson got = c.runs[0].expect;
  std::swap(got["journal"][10], got["journal"][12]);  // start c, b, a instead of a, b, c
  EXPECT_EQ(rule(c, got), "§7.3 start order");
  ojson got2 = c.runs[0].expect;
  std::swap(got2["journal"][8], got2["journal"][9]);  // terminate a before c: §7.5's reverse start order
  EXPECT_EQ(rule(c, got2), "§7.5 termination order");
}

TEST(Attribution, RestartingOtherChildrenIsTheStrategysChoice) {
  Case c = hand("one_for_all_restart");
  ojson got = c.runs[0].expect;
  got["journal"].erase(8);  // c is not terminated
  EXPECT_EQ(rule(c, got), "§7.3 one_for_all which");
}

// main spawns transient Node_2s under root, each spawning a temporary one; node_2-4
// fails at the process limit and one_for_all restarts main and the transient
// node_2-1, node_2-4 and node_2-6 (§7.3: temporaries are removed). A target that
// restarts the temporary node_2-2 as well starts it where the oracle starts
// node_2-4: a child restarted on one side only, not a numbering of spawned names
// (one_for_all_keeps_temporaries, seed 4, read as §2 spawned names).
TEST(Attribution, ATemporaryRestartedWithItsSiblingsIsTheStrategysChoice) {
  Program p = checked(R"(
kind Int() {
    init { send inc() to self; }
    on inc() { spawn Node_2() under root transient; }
}
kind Node_2() {
    init { send msg_16() to self; }
    on msg_16() { spawn Int(); spawn Node_2() under root temporary; }
}
supervisor root one_for_all intensity 1 { transient process main = Int(); }
)");
  ojson oracle = oracle_answer(p, RunSettings{0, 11, 10}).json;
  ojson got = oracle;
  ojson& j = got["journal"];
  ASSERT_GE(j.size(), 29u);
  ASSERT_EQ(j[19]["ev"], "decision");
  ASSERT_EQ(j[28]["name"], "node_2-4");
  ASSERT_EQ(j[6]["name"], "node_2-2");  // spawned temporary at turn 2
  j.erase(j.begin() + 28, j.end());
  j.push_back(ojson{{"ev", "start"}, {"turn", 7}, {"name", "node_2-2"}, {"kind", "Node_2"}});
  EXPECT_EQ(attribute(p, oracle, got).rule, "§7.3 one_for_all which");
}

// a stops when -1 / ini is 0 (SPEC §5: the quotient truncated toward zero). A
// division that floors gives -1: a lives on, and the first difference is its exit
// missing, not the exit rule (div_floors, seed 5, read as §6.4 exit). The target is
// the oracle's run of the program without the stop.
TEST(Attribution, AStopOnOneSideOnlyUnderAnIfIsItsCondition) {
  const char* source = R"(
kind Echo(ini: int) {
    init { send go() to self; }
    on go() { if -1 / ini { } else { stop; } }
}
process a = Echo(2);
)";
  Program p = checked(source);
  std::string kept = source;
  kept.replace(kept.find("stop;"), 5, "");
  RunSettings s{0, 1, 1};
  Answer oracle = oracle_answer(p, s), got = oracle_answer(checked(kept), s);
  ASSERT_TRUE(oracle.ok() && got.ok());
  ASSERT_NE(oracle.json["journal"], got.json["journal"]);
  EXPECT_EQ(attribute(p, oracle.json, got.json).rule, "§5 div");
}

// user_fail_send_before: s sends note(42) to k, then fails; the note is delivered at turn 2.
TEST(Attribution, AMessageDroppedInsteadOfDeliveredWentElsewhere) {
  Case c = hand("user_fail_send_before");
  ojson got = c.runs[0].expect;
  got["journal"][7]["to"] = "gone";  // as if k had died: a drop of the same message
  got["journal"][7].erase("ready");
  got["journal"][7]["ev"] = "drop";
  EXPECT_EQ(rule(c, got), "§6.5 send");  // a drop against a delivery: the message went elsewhere
}

// s sends hi() to d and fails in the same handler; when d has stopped before, the
// send is a drop: losing it with the failure breaks §6.4 (the sends stand).
TEST(Attribution, ADropLostWithItsFailingSenderIsTheExitRule) {
  Program p = program_from_source(
      "kind S() { on go(t: addr) { send hi() to t; fail BOOM; } }\nkind D() { on die() { stop; } }\n"
      "process s = S();\nprocess d = D();\ngiven die() to @d;\ngiven go(@d) to @s;\n",
      "lost.conc");
  for (uint64_t seed = 0; seed < 64; seed++) {
    Answer oracle = oracle_answer(p, RunSettings{seed, 100, 10});
    ojson got = oracle.json;
    for (size_t i = 0; i < got["journal"].size(); i++)
      if (got["journal"][i]["ev"] == "drop") {
        got["journal"].erase(i);
        EXPECT_EQ(attribute(p, oracle.json, got).rule, "§6.4 sends before a failure") << "seed " << seed;
        return;
      }
  }
  FAIL() << "no seed below 64 makes d stop first";
}

// a sends tick() to itself (inc) and, in tick, the same tick() to @self-2 before it
// fails. A target that loses the second copy with the failure still shows the first:
// one copy of the message never left, the failure rule (sends_lost_on_fail, seed 4
// read as §6.5 send because the first copy counted as the message sent elsewhere).
TEST(Attribution, ALostCopyOfAMessageItsSenderAlsoSentBeforeIsTheExitRule) {
  const char* source = R"(
kind Self() {
    init { send inc() to @a; send go() to self; }
    on go() { spawn Self(); }
    on tick() { send tick() to @self-2; fail OOPS; }
    on inc() { send tick() to self; }
}
process a = Self();
)";
  Program p = checked(source);
  // The target: the same program whose failing handler's send never leaves.
  std::string lost = source;
  lost.replace(lost.find("send tick() to @self-2; "), 24, "");
  RunSettings s{0, 10, 5};
  Answer oracle = oracle_answer(p, s), got = oracle_answer(checked(lost), s);
  ASSERT_TRUE(oracle.ok() && got.ok());
  ASSERT_NE(oracle.json["journal"], got.json["journal"]);
  EXPECT_EQ(attribute(p, oracle.json, got.json).rule, "§6.4 sends before a failure");
}

// a drops go(self) to a name nobody has twice in pong, then fails; its restart drops
// the same message again at turn 4. A target that loses the second drop of turn 1
// shows as many copies in its whole journal as the oracle had by then: only the
// turns up to the drop's own count (sends_lost_on_fail, seed 4 read as §6.5 drop).
TEST(Attribution, ADropLostWithItsFailingSenderButSentAgainLaterIsTheExitRule) {
  Program p = checked(R"(
kind Kind() {
    init { send pong() to self; }
    on pong() {
        repeat 2 { spawn Kind(); send go(self) to @kind-99; }
        fail BOOM;
    }
}
supervisor root one_for_all intensity 1 { transient process a = Kind(); }
)");
  Answer oracle = oracle_answer(p, RunSettings{2624393351538956136u, 1001, 3});
  ASSERT_TRUE(oracle.ok());
  ojson got = oracle.json;
  ojson& j = got["journal"];
  size_t second = 0, drops = 0;
  for (size_t i = 0; i < j.size() && j[i]["turn"] <= 1; i++)
    if (j[i]["ev"] == "drop" && ++drops == 2) second = i;
  ASSERT_EQ(drops, 2u);
  size_t later = 0;
  for (size_t i = second + 1; i < j.size(); i++) later += j[i]["ev"] == "drop" && j[i]["from"] == "a";
  ASSERT_GE(later, 1u) << "the restarted a drops the same message again";
  j.erase(second);
  EXPECT_EQ(attribute(p, oracle.json, got).rule, "§6.4 sends before a failure");
}

// a spawns pinger-1 and pinger-2 under top (rest_for_one); pinger-1 fails at the
// process limit, top restarts pinger-1, then pinger-2 (§7.3). Restarted the other way
// round, the spawned names at the restart look swapped: the strategy's order, not
// their numbering (§2).
TEST(Attribution, SpawnedChildrenRestartedInAnotherOrderAreTheStrategysOrder) {
  Program p = checked(R"(
kind Pinger() {
    init {
        send go() to self;
    }
    on go() {
        repeat 2 {
            spawn Pinger() under top transient;
        }
    }
}

process a = Pinger();

supervisor top rest_for_one intensity 1 {}
)");
  ojson oracle = oracle_answer(p, RunSettings{0, 3, 2}).json;
  ojson got = oracle;
  size_t first = 0;
  for (size_t i = 0; i + 1 < got["journal"].size() && !first; i++)
    if (got["journal"][i]["ev"] == "decision" && got["journal"][i + 2]["ev"] == "start") first = i + 2;
  ASSERT_GT(first, 0u);
  ASSERT_EQ(oracle["journal"][first]["name"], "pinger-1");
  ASSERT_EQ(oracle["journal"][first + 1]["name"], "pinger-2");
  std::swap(got["journal"][first], got["journal"][first + 1]);
  EXPECT_EQ(attribute(p, oracle, got).rule, "§7.3 start order");
}

TEST(Attribution, AnErrorAnswerIsItsCode) {
  Case c = hand("fifo_mailbox");
  EXPECT_EQ(rule(c, ojson::parse(R"({"ok":false,"code":"INTERNAL","message":"x"})")), "§10 error INTERNAL");
}

// runners/PROTOCOL.md: an INTERNAL message may end with " [at WHERE]".
TEST(Attribution, AnInternalErrorIsAlsoWhereTheBackendMetIt) {
  Case c = hand("fifo_mailbox");
  auto internal = [&](const std::string& message) {
    return rule(c, ojson{{"ok", false}, {"code", "INTERNAL"}, {"message", message}});
  };
  EXPECT_EQ(internal("js: TypeError: Cannot read properties of undefined (reading 'x') [at links.js TypeError: "
                     "Cannot read properties of undefined (reading 'x')]"),
            "§10 error INTERNAL at links.js TypeError: Cannot read properties of undefined (reading 'x')");
  EXPECT_EQ(internal("erlang: the conductor crashed: {badarg,[...]} [at concord_conductor:settle/2]"),
            "§10 error INTERNAL at concord_conductor:settle/2");
  EXPECT_EQ(internal("erlang: the conductor crashed: [at x] is no place when more follows"), "§10 error INTERNAL");
  EXPECT_EQ(internal("js: " + std::string(200, 'x') + " [at " + std::string(95, 'y') + "]"), "§10 error INTERNAL");
  EXPECT_EQ(rule(c, ojson::parse(R"({"ok":false,"code":"UNSUPPORTED","message":"[at x]"})")), "§10 error UNSUPPORTED");
}

// restart_fresh_state: w fails at turn 4 with one bump() still queued, which the
// oracle discards with the exit (§6.4). A target that keeps the mailbox for w's next
// incarnation delivers that bump too: before obs's hello at turn 5, or after it
// (the two sides then saw another number of ready processes at turn 5, and the
// message itself is one the oracle delivers once later).
TEST(Attribution, AMessageKeptForTheNextIncarnationIsTheExitRule) {
  Case c = hand("restart_fresh_state");
  const ojson& expect = c.runs[0].expect;
  const ojson& hello = expect["journal"][10];
  const ojson& bump = expect["journal"][11];
  ASSERT_EQ(hello["tag"], "hello");
  ASSERT_EQ(bump["tag"], "bump");
  auto kept = [&](std::vector<ojson> from_turn_5, int ready_at_5) {
    ojson got = expect;
    got["journal"].erase(got["journal"].begin() + 10, got["journal"].end());
    int64_t turn = 5;
    for (ojson& e : from_turn_5) {
      e["turn"] = turn;
      e["ready"] = turn++ == 5 ? ready_at_5 : 1;
      got["journal"].push_back(e);
    }
    got["turns"] = 7;
    got["alive"][1]["state"]["n"] = 2;
    return got;
  };
  EXPECT_EQ(rule(c, kept({bump, hello, bump}, 2)), "§6.4 exit");
  EXPECT_EQ(rule(c, kept({hello, bump, bump}, 2)), "§6.4 exit");
  // Or the kept bump is never delivered, but made w ready at turn 5 (the run cut there).
  ojson cut = kept({hello}, 2);
  cut["outcome"] = "turn_limit";
  cut["turns"] = 5;
  EXPECT_EQ(rule(c, cut), "§6.4 exit");
  // An extra message that no exit discarded (a second hello from w to obs), with as
  // many processes ready as the oracle's, is not that.
  EXPECT_NE(rule(c, kept({hello, bump, hello}, 1)), "§6.4 exit");
}

// A target that keeps a restarted process's mailbox, where the message kept is one
// the process also sends itself again and again: a's tick handler sends
// tick(a, ticker-9) to itself each turn. The given tick(@a) (one argument) has no
// handler: a fails at turn 2 with tick(a, ticker-9) queued, which the oracle
// discards (§6.4); the restarted a's init sends tick(a, a). The target delivers the
// kept tick(a, ticker-9) first, although the oracle delivers as many of those
// later: not one waiting in the oracle's mailbox then, so kept.
TEST(Attribution, AKeptMessageThatIsAlsoSentAgainIsTheExitRule) {
  Program p = checked(R"(
kind Ticker() {
    init {
        send tick(self, self) to self;
    }
    on tick(n: addr, count: addr) {
        send tick(self, @ticker-9) to self;
    }
}

supervisor root rest_for_one intensity 1 {
    transient process a = Ticker();
}

given tick(@a) to @a;
)");
  ojson oracle = oracle_answer(p, RunSettings{0, 5, 1}).json;
  ojson got = oracle;
  ojson& j = got["journal"];
  ASSERT_EQ(j[6]["ev"], "start");
  ASSERT_EQ(j[7]["args"], ojson::parse(R"(["a","a"])"));
  ASSERT_EQ(j[8]["args"], ojson::parse(R"(["a","ticker-9"])"));
  std::swap(j[7]["args"], j[8]["args"]);
  EXPECT_EQ(attribute(p, oracle, got).rule, "§6.4 exit");
}

// Two messages given to processes that never start, both dropped at turn 0 (§6.5) in
// the order given (§8.2). Dropped the other way round, they are the given order,
// though they are equal messages but for their receivers.
TEST(Attribution, GivenMessagesDroppedInAnotherOrderAreTheGivenOrder) {
  Program p = checked("kind Self() {\n}\nkind Kind() {\n}\ngiven tick() to @self-1;\ngiven tick() to @kind-2;\n");
  ojson oracle = oracle_answer(p, RunSettings{0, 0, 1}).json;
  ojson got = oracle;
  ASSERT_EQ(got["journal"].size(), 2u);
  ASSERT_EQ(got["journal"][0]["ev"], "drop");
  std::swap(got["journal"][0], got["journal"][1]);
  EXPECT_EQ(attribute(p, oracle, got).rule, "§8.2 given");
}

// 1 / -2 is 0 (division truncates, §5): main's init sends nothing. A target whose
// division floors (-1: true) sends go to a process that never starts, and journals
// its drop: the operator of the send's condition.
TEST(Attribution, ADropOnTheTargetsSideOnlyIsItsConditionsOperators) {
  Program p = checked(R"(
kind Kind() {
}

kind SpawnMe(peer: addr) {
    init {
        if 1 / -2 {
            send go() to peer;
        }
    }
}

process main = SpawnMe(@kind-3);
)");
  ojson oracle = oracle_answer(p, RunSettings{0, 0, 1}).json;
  ojson got = oracle;
  ASSERT_EQ(got["journal"].size(), 1u);
  got["journal"].push_back(ojson::parse(R"({"ev":"drop","turn":0,"from":"main","to":"kind-3","tag":"go","args":[]})"));
  EXPECT_EQ(attribute(p, oracle, got).rule, "§5 div");
}

// The same with the same message also sent unconditionally, first: the journal shows
// its drop as often as the unconditional sends run (`repeat n`: n times), and the
// extra one can only be the guarded send's. When the journal shows fewer, an
// unconditional send may be the extra one: no condition is to blame, the drop rule.
TEST(Attribution, AnExtraDropBeyondTheUnconditionalSendsIsItsConditionsOperators) {
  struct Row {
    std::string first;
    size_t oracle_drops;  // the oracle's result bent to show this many
    std::string rule;
  };
  for (const Row& r : {Row{"send go() to peer;", 1, "§5 div"}, Row{"repeat 2 { send go() to peer; }", 2, "§5 div"},
                       Row{"repeat 2 { send go() to peer; }", 1, "§6.5 drop"}}) {
    Program p = checked(R"(
kind Kind() {
}

kind SpawnMe(peer: addr) {
    init {
        )" + r.first + R"(
        if 1 / -2 {
            send go() to peer;
        }
    }
}

process main = SpawnMe(@kind-3);
)");
    ojson oracle = oracle_answer(p, RunSettings{0, 0, 1}).json;
    ojson& oj = oracle["journal"];
    ASSERT_GE(oj.size(), 2u);
    ojson drop = oj[1];
    oj.erase(oj.begin() + 1, oj.end());
    for (size_t k = 0; k < r.oracle_drops; k++) oj.push_back(drop);
    ojson got = oracle;
    got["journal"].push_back(drop);
    EXPECT_EQ(attribute(p, oracle, got).rule, r.rule) << r.first << ", " << r.oracle_drops;
  }
}

// a's init sends pong(0) and pong(-1) to itself; pong(0) makes it fail (no
// handler), pong(-1) is discarded with the exit (§6.4) and a is restarted, and its
// init sends both again. A target that kept the old mailbox delivers pong(-1)
// first: the same message as the new incarnation's second, but the old mailbox's
// head, not another value of `~`.
TEST(Attribution, AKeptHeadDeliveredBeforeTheNewIncarnationsOwnIsTheExitRule) {
  Program p = checked(R"(
kind K() {
    init {
        send pong(0) to self;
        send pong(~0) to self;
    }
}

supervisor root rest_for_one intensity 1 {
    permanent process a = K();
}
)");
  ojson oracle = oracle_answer(p, RunSettings{0, 2, 1}).json;
  ojson got = oracle;
  ojson& j = got["journal"];
  ASSERT_GE(j.size(), 7u);
  ASSERT_EQ(j[6]["ev"], "deliver");
  ASSERT_EQ(j[6]["args"], ojson::parse("[0]"));
  j[6]["args"] = ojson::parse("[-1]");
  EXPECT_EQ(attribute(p, oracle, got).rule, "§6.4 exit");
  // The same delivery with a value no exit discarded is a value computed otherwise.
  j[6]["args"] = ojson::parse("[-2]");
  EXPECT_EQ(attribute(p, oracle, got).rule, "§5 bnot");
}

TEST(Attribution, AMessageKeptThroughTwoExitsIsTheExitRule) {
  // a sends itself to_(1), to_(1), to_(0) and fails on the first (no handler), twice.
  // A target that keeps the mailbox gives to_(1) (kept) after the first restart, as the
  // oracle gives its own; after the second it gives to_(0), kept since the first exit
  // (it was read as §5 ne: the last exit discarded to_(1) first).
  Program p = checked(R"(
kind Self(selfie: int) {
    init {
        repeat 2 {
            send to_(self != @b) to self;
        }
        send to_(selfie) to self;
    }
}

supervisor top one_for_all intensity 2 {
    transient process a = Self(0);
}

process b = Self(0);
)");
  ojson oracle = oracle_answer(p, RunSettings{0, 4, 1}).json;
  ojson got = oracle;
  ojson& j = got["journal"];
  ASSERT_GE(j.size(), 14u);
  ASSERT_EQ(j[9]["args"], ojson::parse("[1]"));   // after the first restart
  ASSERT_EQ(j[13]["args"], ojson::parse("[1]"));  // after the second
  j[13]["args"] = ojson::parse("[0]");
  EXPECT_EQ(attribute(p, oracle, got).rule, "§6.4 exit");
  j[13]["args"] = ojson::parse("[7]");  // no exit discarded it: the value
  EXPECT_EQ(attribute(p, oracle, got).rule, "§5 ne");
}

TEST(Attribution, AKeptMessageShiftsTheRestartedProcesssOwnMessagesIsTheExitRule) {
  // b's init sends to_() to itself; each to_() sends to_() and reset(). a fails at
  // turn 1 and one_for_all shuts b down with its to_() waiting. The oracle's new b
  // takes its own to_() (turn 2), the to_() that one sent (turn 3), then reset()
  // (turn 4). A target that keeps b's mailbox takes the kept to_() first, and every
  // own message one turn later: to_() again at turn 4 (restart_keeps_mailbox, seed
  // 4, read as §6.5 fifo: the kept to_() and the own one look alike, and each of
  // the two deliveries before took one of them).
  Program p = checked(R"(
kind Int() {
    init { send to_() to self; }
    on to_() { send to_() to self; send reset() to self; }
}
kind Self() {
}
supervisor root one_for_all intensity 1 {
    permanent process a = Self();
    permanent process b = Int();
}
given msg_16(@a) to @a;
)");
  ojson oracle = oracle_answer(p, RunSettings{4, 4, 1}).json;
  ojson got = oracle;
  ojson& j = got["journal"];
  ASSERT_GE(j.size(), 12u);
  ASSERT_EQ(j[6]["name"], "b");  // b shut down at turn 1
  ASSERT_EQ(j[11]["tag"], "reset");
  ASSERT_EQ(j[11]["turn"], 4);
  j[11]["tag"] = "to_";
  j.erase(j.begin() + 12, j.end());  // to_() has a handler: nothing fails
  EXPECT_EQ(attribute(p, oracle, got).rule, "§6.4 exit");
}

// pinger sends itself go(0, 1) and go(0, 1 == 0). A mailbox that gives the newest
// first delivers go(0, 0): a message waiting in the oracle's mailbox too, while
// the oracle's go(0, 1) is sent as it is (literals): the mailbox's order, not `==`.
// When the target's message is waiting nowhere (the second send computed 1 == 1
// as 0), it is the value.
TEST(Attribution, AnotherWaitingMessageWhereTheOraclesIsLiteralIsTheMailboxOrder) {
  Program p = checked(R"(
kind Int() {
    init {
        send go(0, 1) to self;
        send go(0, 1 == 0) to self;
    }
}

process pinger = Int();
)");
  ojson oracle = oracle_answer(p, RunSettings{0, 1, 1}).json;
  ojson got = oracle;
  ASSERT_EQ(got["journal"][1]["args"], ojson::parse("[0, 1]"));
  got["journal"][1]["args"] = ojson::parse("[0, 0]");
  EXPECT_EQ(attribute(p, oracle, got).rule, "§6.5 fifo");

  Program q = checked(R"(
kind Int() {
    init {
        send go(0, 1) to self;
        send go(0, 1 == 1) to self;
    }
    on go(a: int, b: int) {
    }
}

process pinger = Int();
)");
  oracle = oracle_answer(q, RunSettings{0, 2, 1}).json;
  got = oracle;
  ASSERT_EQ(got["journal"][2]["args"], ojson::parse("[0, 1]"));
  got["journal"][2]["args"] = ojson::parse("[0, 0]");
  EXPECT_EQ(attribute(q, oracle, got).rule, "§5 eq");
}

// main's reset handler sends inc(0) to w1 and fails; restarted, main's init sends
// reset to w1. The oracle's w1 takes inc(0) first (§6.4: what a handler sent before
// failing stays sent). A target that lost inc(0) with the failure delivers reset:
// the oracle's run without that send. The same target journal where the handler
// does not fail is no such loss (the mailbox's order, unsure).
TEST(Attribution, AMessageOnlyAFailingHandlerSentIsLostWithTheFailure) {
  auto program = [](const std::string& ending, bool with_send) {
    return checked(R"(
kind Worker() {
    init {
        send reset() to @w1;
    }
    on reset() {
        )" + std::string(with_send ? "send inc(0) to @w1;" : "") +
                   ending + R"(
    }
}

kind Pinger() {
}

supervisor top rest_for_one intensity 1 {
    transient process main = Worker();
}

process w1 = Pinger();

given reset() to @main;
)");
  };
  RunSettings s{0, 2, 1};
  for (bool fails : {true, false}) {
    std::string ending = fails ? "fail BOOM;" : "";
    Program p = program(ending, true);
    ojson oracle = oracle_answer(p, s).json;
    ojson got = oracle_answer(program(ending, false), s).json;
    ASSERT_NE(oracle["journal"], got["journal"]);
    Attribution a = attribute(p, oracle, got);
    if (fails) {
      EXPECT_EQ(a.rule, "§6.4 sends before a failure");
      EXPECT_TRUE(a.sure);
    } else {
      EXPECT_NE(a.rule, "§6.4 sends before a failure");
    }
  }
}

// b's acc is -1 / 3 = 0 (division truncates, §5), so b's handler spawns kind-1
// under its `else`. A target whose division floors (-1) spawns nothing there; main
// spawns later and gets the same name, kind-1: another spawn, not b's late.
TEST(Attribution, ASpawnMissingIsItsConditionWhenItsNameComesBackLater) {
  auto program = [](int n) {
    return checked(R"(
kind Kind(n: int) {
    state acc: int = n / 3;
    on msg_16() {
        if acc {
        } else {
            spawn Kind(0);
        }
    }
}

process b = Kind()" +
                   std::to_string(n) + R"();

process main = Kind(0);

given msg_16() to @b;
given msg_16() to @main;
)");
  };
  RunSettings s{16733904982992100761u, 10, 3};
  Program p = program(-1);
  ojson oracle = oracle_answer(p, s).json;
  ojson got = oracle_answer(program(-3), s).json;  // b's acc -1, as the floored -1 / 3
  ASSERT_EQ(oracle["journal"][3]["name"], "kind-1");
  ASSERT_NE(got["journal"][3], oracle["journal"][3]);
  bool later = false;  // the name comes back, from main's spawn
  for (const ojson& e : got["journal"]) later = later || (e["ev"] == "start" && e["name"] == "kind-1");
  ASSERT_TRUE(later);
  EXPECT_EQ(attribute(p, oracle, got).rule, "§5 div");
}

// w1 fails at turn 1 (no handler for ping); one_for_all terminates the temporary
// pinger and restarts w1 only (§7.3: a temporary child is not restarted). A target
// that restarts pinger too shows its start at the end of turn 1, where the oracle's
// next event is turn 2's delivery: the target's start is the event the oracle lacks,
// not a counterpart of that delivery. The run is cut at turn 1, so the target is
// asked for a longer one, as a campaign asks it.
TEST(Attribution, AnEventInAnEarlierTurnIsTheOneTheOtherSideLacks) {
  Program p = checked(R"(
kind Int() {
}

kind Self() {
    init {
        send ping(self) to self;
    }
}

supervisor s1 one_for_all intensity 1 {
    transient process w1 = Self();
    temporary process pinger = Int();
}
)");
  auto restarts_temporary = [&](const Program& q, const RunSettings& s) -> std::optional<ojson> {
    ojson r = oracle_answer(q, s).json;
    ojson& j = r["journal"];
    for (size_t k = 0; k < j.size(); k++)
      if (j[k]["ev"] == "start" && j[k]["name"] == "w1" && j[k]["turn"] == 1) {
        j.insert(j.begin() + static_cast<std::ptrdiff_t>(k) + 1,
                 ojson::parse(R"({"ev":"start","turn":1,"name":"pinger","kind":"Int"})"));
        break;
      }
    return r;
  };
  RunSettings s{0, 1, 1};
  ojson oracle = oracle_answer(p, s).json;
  ojson got = *restarts_temporary(p, s);
  ASSERT_NE(got["journal"], oracle["journal"]);
  EXPECT_EQ(attribute(p, oracle, got, restarts_temporary).rule, "§7.3 one_for_all which");
}

// A target with a planted value fault (div_floors, rem_sign_of_divisor) is the oracle
// on the program with the faulty operation written out (`faulty`): the cases below
// are shrunk cases of a campaign, each read as another rule before.
// Asked about a variant of the program (attribution.hpp's questions), the target is
// the oracle on it with its divisions of two literals floored.
void floor_literal_divisions(ojson& e) {
  if (e.is_array() || e.is_object())
    for (auto& item : e.items()) floor_literal_divisions(item.value());
  if (!e.is_object() || e.value("op", "") != "div" || e["lhs"].value("op", "") != "int" ||
      e["rhs"].value("op", "") != "int")
    return;
  int64_t a = e["lhs"]["value"].get<int64_t>(), b = e["rhs"]["value"].get<int64_t>();
  if (b == 0 || (a == INT64_MIN && b == -1)) return;
  int64_t q = a / b - ((a % b != 0 && (a < 0) != (b < 0)) ? 1 : 0);
  e = ojson{{"op", "int"}, {"value", q}};
}

// Asked about a program of its own (the operator probe, operator_probe.hpp), the
// target is the oracle in the dialect of its fault (`fault`).
Attribution floored(const std::string& source, const std::string& faulty, const RunSettings& s,
                    const char* fault = "div-floors") {
  Program p = checked(source);
  Program f = checked(faulty);
  AskTarget ask = [&](const Program& q, const RunSettings& qs) -> std::optional<ojson> {
    ojson j = program_to_json(q);
    if (j == program_to_json(p)) return oracle_answer(f, qs).json;
    if (j["kinds"][0].value("name", "").rfind("Probe", 0) == 0)
      return result_to_json(run(q, qs, {}, nullptr, dialect_named(fault, "test")));
    floor_literal_divisions(j);
    Program v = program_from_json(j);
    check(v);
    return oracle_answer(v, qs).json;
  };
  ojson got = oracle_answer(f, s).json;
  ojson oracle = oracle_answer(p, s).json;
  EXPECT_NE(got["journal"], oracle["journal"]);
  return attribute(p, oracle, got, ask);
}

TEST(Attribution, AMessageOnlyAConditionalSendOfTheBodiesThatRanCouldSendIsItsCondition) {
  // msg is also sent unconditionally, but by a handler that never ran: the message
  // delivered can only come from init's `if` (it was read as §6.5 send).
  std::string text = R"(
kind Self() {
    init {
        if -1 / 2 {
            send msg(self) to self;
        }
    }
    on reset() {
        send msg(self) to self;
    }
}
process main = Self();
)";
  std::string floors = text;
  floors.replace(floors.find("-1 / 2"), 6, "-1");
  EXPECT_EQ(floored(text, floors, RunSettings{0, 1, 1}).rule, "§5 div");
}

TEST(Attribution, AFailWhereTheOracleStopsUnderAConditionIsTheCondition) {
  // z is 1 / -2: 0, or -1 floored; the handler fails under `if z`, then stops. Both
  // sides exit in turn 1, for other reasons (div_floors, seed 6: it was read as §6.4
  // exit, the bucket of a restarted process that keeps its mailbox).
  std::string text = R"(
kind K() {
    state z: int = 0;
    init {
        z = 1 / -2;
    }
    on inc() {
        if z {
            fail OOPS;
        }
        stop;
    }
}
process w = K();
given inc() to @w;
)";
  std::string floors = text;
  floors.replace(floors.find("1 / -2"), 6, "-1");
  EXPECT_EQ(floored(text, floors, RunSettings{0, 1, 1}).rule, "§5 div");
}

TEST(Attribution, AnExtraCopyOfAMessageSentUnderAConditionIsItsCondition) {
  // The init sends inc unconditionally, to_'s handler again when 1 / -2 is not 0: the
  // oracle's journal shows inc once, so "never sent" cannot be read from it; the
  // target delivers a second copy, which only the guarded send can have sent (div_floors
  // on the held-out seed 7 read as §6.5 send).
  std::string text = R"(
kind K() {
    init {
        send inc() to self;
        send to_() to self;
    }
    on inc() {
    }
    on to_() {
        if 1 / -2 {
            send inc() to self;
        }
    }
}
process a = K();
)";
  std::string floors = text;
  floors.replace(floors.find("1 / -2"), 6, "-1");
  EXPECT_EQ(floored(text, floors, RunSettings{0, 3, 1}).rule, "§5 div");
}

TEST(Attribution, AMessageTheOracleHadNotSentByTheTurnBeforeIsItsCondition) {
  // The receiver exits at once (no handler): "never sent" cannot be read from the end
  // of the run, but the oracle's mailbox at the turn before holds no inc (it was read
  // as §6.5 fifo).
  std::string text = R"(
kind K() {
    init {
        if 1 / -3 {
            send inc(0) to self;
        }
        send ping(0, self, self) to self;
    }
}
process a = K();
)";
  std::string floors = text;
  floors.replace(floors.find("1 / -3"), 6, "-1");
  EXPECT_EQ(floored(text, floors, RunSettings{0, 1, 1}).rule, "§5 div");
}

TEST(Attribution, ADropOfARestartedSenderIsItsConditionNotTheEarlierFailure) {
  // w1 fails, is restarted in the same turn, and its new init drops a message to the
  // dead a under an `else`: the failure was the earlier incarnation's (it was read as
  // §6.4 sends before a failure).
  std::string text = R"(
kind SpawnMe() {
    init {
        send ping() to self;
        if 1 / -3 {
        } else {
            send ping() to @a;
        }
    }
}
process a = SpawnMe();
supervisor root one_for_one intensity 1 {
    permanent process w1 = SpawnMe();
}
)";
  std::string floors = text;
  floors.replace(floors.find("1 / -3"), 6, "-1");
  EXPECT_EQ(floored(text, floors, RunSettings{2, 3, 1}).rule, "§5 div");
}

TEST(Attribution, AnotherNumberOfReadyProcessesIsTheConditionOfASendThatMayReachOne) {
  // worker-1's init sends itself reset when -1 / 2 is true (floored: -1); the run is
  // cut and worker-1 exits before it would be delivered, but it makes worker-1 ready
  // one turn: 3 processes ready against the oracle's 2 (it was read as §8.2 draw).
  std::string text = R"(
kind Worker(tos: int) {
    init {
        if (tos ^ tos * 3) < 1 {
            send reset() to self;
            send to_() to self;
        }
        repeat 2 {
            send tick() to self;
            send ping(self) to @worker-2;
        }
        if tos / 2 {
            send reset() to self;
        }
    }
    on tick() {}
    on to_() {
        spawn Worker(-1) under root transient;
    }
    on reset() {}
}
process a = Worker(0);
supervisor root one_for_all intensity 0 {}
process b = Worker(0);
)";
  std::string floors = text;
  floors.replace(floors.find("tos / 2"), 7, "(tos - 1) / 2");  // floor(tos / 2) for tos 0 and -1
  Attribution a = floored(text, floors, RunSettings{5, 6, 4});
  EXPECT_EQ(a.rule.rfind("§5 ", 0), 0u) << a.rule;
  EXPECT_NE(a.rule.find(" div"), std::string::npos) << a.rule;
  EXPECT_EQ(a.detail, "journal[14].ready");
}

TEST(Attribution, AMessageAskedAboutInTheBodiesItsSenderRanIsItsCondition) {
  // b's init sends reset when -13 % 3 < 1; a remainder with the divisor's sign (2)
  // sends none, and b gets stop_'s reset first, as a LIFO mailbox would give it. The
  // question (b's send out of its `if`) is asked although pong, which b never ran,
  // sends reset too (it was read as §6.5 fifo).
  std::string text = R"(
kind Pinger(q: int) {
    state z9_: int = q;
    init {
        if z9_ % 3 < 1 {
            send reset(self, 0) to @b;
        }
    }
    on pong() {
        send reset(self, 0) to self;
    }
}
process b = Pinger(-13);
process stop_ = Pinger(0);
)";
  std::string faulty = text;
  faulty.replace(faulty.find("z9_ % 3"), 7, "(z9_ % 3 + 3) % 3");  // the divisor's sign, for -13 and 0
  EXPECT_EQ(floored(text, faulty, RunSettings{0, 1, 1}, "rem-floored").rule, "§5 rem");  // `<` computes alike
}

TEST(Attribution, AMessageDeliveredLaterMayBeAnotherSendsWhenItsOwnIsUnderAnIf) {
  // A shift count not masked (1 << 64 is 0, the planted fault shift_count_unmasked):
  // init sends nothing, the given msg_16 comes first, and msg_16's handler sends the
  // same message later. Delivered later, it does not show that init's send ran: the
  // question (init's send out of its `if`) is asked (it was read as §6.5 fifo, sure).
  std::string text = R"(
kind K() {
    init {
        if 1 << 64 {
            send msg_16() to self;
        }
    }
    on msg_16() {
        send msg_16() to self;
    }
}
process main = K();
given msg_16() to @main;
)";
  std::string faulty = text;
  faulty.replace(faulty.find("1 << 64"), 7, "0");
  EXPECT_EQ(floored(text, faulty, RunSettings{0, 1, 1}, "shift-count-unmasked").rule, "§5 shl");
}

TEST(Attribution, AValuePassedThroughParametersIsAlsoItsArgumentsOperators) {
  // mul_saturates: the product is computed wrongly in the spawn's argument and shows
  // in the message the spawned process sends itself, `peer / 1` (it was read as §5 div:
  // the parameter's argument was not followed, and the shrinker kept the division).
  std::string text = R"(
kind K(peer: int) {
    init {
        send tick(peer / 1) to self;
    }
    on tick(z: int) {
        spawn K(z * z);
    }
}
process main = K(98234922526);
)";
  std::string saturates = text;  // 98234922526 * 98234922526, and every product after it, saturated
  saturates.replace(saturates.find("z * z"), 5, "9223372036854775807");
  EXPECT_EQ(floored(text, saturates, RunSettings{0, 3, 8}, "mul-saturates").rule, "§5 mul");  // `/` computes alike
}

TEST(Attribution, SignatureIsTargetAndRule) {
  EXPECT_EQ(rule_signature("c", {"§6.5 fifo", "journal[3].args"}), "c:§6.5 fifo");
}

TEST(RenameKey, NamesDoNotMatterStructureDoes) {
  Program a = program_from_source(
      "kind Cell() { state n: int = 0; on bump(x: int) { n = n + x; } }\nprocess a = Cell();\ngiven bump(1) to @a;\n",
      "a.conc");
  Program b = program_from_source(
      "kind Acc() { state v: int = 0; on add(y: int) { v = v + y; } }\nprocess z = Acc();\ngiven add(1) to @z;\n",
      "b.conc");
  Program c = program_from_source(
      "kind Acc() { state v: int = 0; on add(y: int) { v = v * y; } }\nprocess z = Acc();\ngiven add(1) to @z;\n",
      "c.conc");
  EXPECT_EQ(rename_key(a), rename_key(b));
  EXPECT_NE(rename_key(b), rename_key(c));
}

// A field of the target's result of another type than §9.1's (a number past int64
// arrives as its text, runners/protocol/backend.cpp) is read by no rule: it is its own
// bucket, at its place, not an error of the harness.
TEST(Attribution, AFieldOfAnotherTypeIsTheResultsTypesAtItsPlace) {
  Case c = hand("fifo_mailbox");
  ojson got = c.runs[0].expect;
  got["journal"][3]["turn"] = "18446744073709551615";
  Attribution a = attribute(c.program, c.runs[0].expect, got);
  EXPECT_EQ(a.rule, "§9.1 types");
  EXPECT_EQ(a.detail, "journal[3].turn");
}

}  // namespace
}  // namespace concord
