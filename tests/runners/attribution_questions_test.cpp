// tests/runners/attribution_questions_test.cpp: the questions the attribution asks a
// target when its results alone fit two rules (runners/triage/attribution.hpp). Each
// test has two fake targets with different bugs that give the same results for the
// case: unasked, the attribution cannot tell them apart (not sure); asked, each gets
// its own rule. The targets are the oracle run on a bent program or with its result
// bent, so that what each bug does is written here, not taken from concord.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <vector>

#include "oracle/program_json.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/triage/attribution.hpp"
#include "tests/oracle/checked_program.hpp"

namespace concord {
namespace {

// A drop sent under a condition: 1 >> 64 is 1 (the count is taken mod 64, §5), so
// b's init sends ping, and main, not started yet, cannot take it: a drop (§6.5).
const char* kDropUnderIf = R"(
kind Echo() {
}

kind K() {
    init {
        if 1 >> 64 {
            send ping(self) to @main;
        }
    }
}

process b = K();
process main = Echo();
)";

// b's init sends go to w under a condition; the given inc comes after it (§8.2).
const char* kSendUnderIf = R"(
kind W() {
    on go() {
    }
    on inc(x: addr) {
    }
}

kind N(x: int) {
    init {
        if x >> 64 {
            send go() to @w;
        }
    }
}

process w = W();
process b = N(1);
given inc(@b) to @w;
)";

// Two messages given to w: delivered a, then b (§8.2, §6.5).
const char* kTwoGiven = R"(
kind W() {
    on a() {
    }
    on b() {
    }
}

process w = W();
given a() to @w;
given b() to @w;
)";

// w's handler sends x to worker-9, never spawned (a drop, §6.5), then fails (§6.4: what
// it sent before stays sent).
const char* kSendThenFail = R"(
kind Worker() {
    init {
        send inc() to self;
    }
    on inc() {
        send x() to @worker-9;
        fail E1;
    }
}

process w = Worker();
)";

// Like kSendThenFail, but w's handler fails by dividing by zero after its send: there
// is no `fail` to take out.
const char* kSendThenDivide = R"(
kind Worker() {
    init {
        send inc() to self;
    }
    on inc() {
        send x() to @worker-9;
        if 1 / 0 {
        }
    }
}

process w = Worker();
)";

// b's init sends go(b, b) to a, and go(b, b, b) to itself when 1 << x is not 0
// (x = -1: 1 << 63, §5); the given inc comes after them in b's mailbox (§8.2).
const char* kSendUnderShl = R"(
kind A() {
}

kind N(x: int, peer: addr) {
    init {
        send go(self, self) to peer;
        if 1 << x {
            send go(self, self, self) to self;
        }
    }
}

process a = A();
process b = N(-1, @a);
given inc(@a) to @b;
)";

// a's init sends itself reset twice, each with a computed value: 1 < 2 (1), then
// 0 * 5 (0); a has no handler for it (SPEC §6.3).
const char* kTwoComputedSends = R"(
kind Echo() {
    init {
        send reset(1 < 2) to self;
        send reset(0 * 5) to self;
    }
}

process a = Echo();
)";

// n's go handler divides by zero when 1 >> 64 is not 0 (it is 1: the count is taken
// mod 64, §5): n fails with DIV_ZERO (§6.4).
const char* kDivisionUnderIf = R"(
kind N() {
    init {
        send go() to self;
    }
    on go() {
        if 1 >> 64 {
            if 1 / 0 {
            }
        }
    }
}

process n = N();
)";

// Statements with each `if` whose condition has `op` replaced by its else branch.
void conditions_false(ojson& stmts, const std::string& op) {
  ojson out = ojson::array();
  for (ojson& st : stmts) {
    if (st["do"] == "if" && st["cond"].dump().find("\"" + op + "\"") != std::string::npos) {
      for (ojson& x : st["else"]) out.push_back(x);
      continue;
    }
    for (const char* block : {"then", "else", "body"})
      if (st.contains(block)) conditions_false(st[block], op);
    out.push_back(st);
  }
  stmts = out;
}

// A target whose operator `op` is wrong where it decides an `if`: every such
// condition false.
ojson op_conditions_false(const std::string& op, const Program& p, const RunSettings& s) {
  ojson j = program_to_json(p);
  for (ojson& k : j["kinds"]) {
    conditions_false(k["init"], op);
    for (ojson& h : k["handlers"]) conditions_false(h["body"], op);
  }
  Program q = program_from_json(j);
  check(q);
  return oracle_answer(q, s).json;
}

ojson shr_conditions_false(const Program& p, const RunSettings& s) { return op_conditions_false("shr", p, s); }
ojson shl_conditions_false(const Program& p, const RunSettings& s) { return op_conditions_false("shl", p, s); }

// A target that journals no drop.
ojson drops_unjournaled(const Program& p, const RunSettings& s) {
  ojson r = oracle_answer(p, s).json;
  ojson kept = ojson::array();
  for (const ojson& e : r["journal"])
    if (e["ev"] != "drop") kept.push_back(e);
  r["journal"] = kept;
  return r;
}

// Expressions with every `op` subexpression replaced by 0.
void op_zero(ojson& e, const std::string& op) {
  if (!e.is_object()) return;
  if (e.value("op", "") == op) {
    e = ojson{{"op", "int"}, {"value", 0}};
    return;
  }
  for (const char* k : {"lhs", "rhs", "arg"})
    if (e.contains(k)) op_zero(e[k], op);
}

// A target whose `<` gives 0 in every argument of a send.
ojson lt_zero_in_sends(const Program& p, const RunSettings& s) {
  ojson j = program_to_json(p);
  for (ojson& k : j["kinds"])
    for (ojson& st : k["init"])
      if (st["do"] == "send")
        for (ojson& a : st["args"]) op_zero(a, "lt");
  Program q = program_from_json(j);
  check(q);
  return oracle_answer(q, s).json;
}

// A target whose mailboxes take the newest message first, for programs whose only
// messages are those a process's init sends (in its mailbox before its first
// delivery): the init's sends in reverse order.
ojson init_sends_reversed(const Program& p, const RunSettings& s) {
  ojson j = program_to_json(p);
  for (ojson& k : j["kinds"]) std::reverse(k["init"].begin(), k["init"].end());
  Program q = program_from_json(j);
  check(q);
  return oracle_answer(q, s).json;
}

// Statements with every division by zero replaced by 0 (a target whose `/` gives 0 for it).
void division_zero(ojson& stmts) {
  std::function<void(ojson&)> expr = [&](ojson& e) {
    if (!e.is_object()) return;
    if (e.value("op", "") == "div" && e["rhs"] == ojson{{"op", "int"}, {"value", 0}}) {
      e = ojson{{"op", "int"}, {"value", 0}};
      return;
    }
    for (const char* k : {"lhs", "rhs", "arg"})
      if (e.contains(k)) expr(e[k]);
  };
  for (ojson& st : stmts) {
    if (st.contains("cond")) expr(st["cond"]);
    for (const char* block : {"then", "else", "body"})
      if (st.contains(block)) division_zero(st[block]);
  }
}

ojson division_by_zero_gives_zero(const Program& p, const RunSettings& s) {
  ojson j = program_to_json(p);
  for (ojson& k : j["kinds"])
    for (ojson& h : k["handlers"]) division_zero(h["body"]);
  Program q = program_from_json(j);
  check(q);
  return oracle_answer(q, s).json;
}

// A fake target: its result for a program and a run.
using Target = std::function<ojson(const Program&, const RunSettings&)>;

AskTarget asking(Target target) {
  return [target](const Program& q, const RunSettings& s) -> std::optional<ojson> { return target(q, s); };
}

// A target that sends the given messages in reverse order.
ojson given_reversed(const Program& p, const RunSettings& s) {
  ojson j = program_to_json(p);
  std::reverse(j["given"].begin(), j["given"].end());
  Program q = program_from_json(j);
  check(q);
  return oracle_answer(q, s).json;
}

// A target whose mailboxes take the newest message first, for messages given or
// sent from a process's init (all in the mailbox before the first delivery, in the
// programs here): each receiver's deliveries of those, in reverse order.
ojson newest_first(const Program& p, const RunSettings& s) {
  ojson r = oracle_answer(p, s).json;
  std::map<std::string, std::vector<size_t>> at;  // receiver -> its deliveries
  for (size_t j = 0; j < r["journal"].size(); j++)
    if (r["journal"][j]["ev"] == "deliver") at[r["journal"][j]["to"]].push_back(j);
  for (auto& [to, js] : at) {
    ojson journal = r["journal"];
    for (size_t k = 0; k < js.size(); k++)
      for (const char* f : {"from", "tag", "args"}) r["journal"][js[k]][f] = journal[js[js.size() - 1 - k]][f];
  }
  return r;
}

// A target that loses what a handler sent before it failed: the drops of a process
// that exits later in the same turn.
ojson sends_lost_on_fail(const Program& p, const RunSettings& s) {
  ojson r = oracle_answer(p, s).json;
  const ojson& j = r["journal"];
  ojson kept = ojson::array();
  for (size_t k = 0; k < j.size(); k++) {
    bool lost = false;
    for (size_t m = k + 1; m < j.size() && j[k]["ev"] == "drop"; m++)
      lost = lost || (j[m]["ev"] == "exit" && j[m]["name"] == j[k]["from"] && j[m]["turn"] == j[k]["turn"]);
    if (!lost) kept.push_back(j[k]);
  }
  r["journal"] = kept;
  return r;
}

struct Bug {
  Target target;
  std::string rule;  // what asking it should give
};

// Two bugs give the same journal for p's run s: unasked, the attribution says
// `unasked` and is not sure; asked, each bug gets its own rule, sure.
void expect_told_apart(const char* text, const RunSettings& s, const std::string& unasked, const Bug& a, const Bug& b) {
  Program p = checked(text);
  ojson oracle = oracle_answer(p, s).json;
  ojson got_a = a.target(p, s), got_b = b.target(p, s);
  ASSERT_EQ(got_a["journal"], got_b["journal"]) << "the two bugs should look alike";
  ASSERT_NE(got_a["journal"], oracle["journal"]);
  Attribution u = attribute(p, oracle, got_a);
  EXPECT_EQ(u.rule, unasked);
  EXPECT_FALSE(u.sure);
  for (const auto& [bug, got] : {std::pair{&a, got_a}, std::pair{&b, got_b}}) {
    Attribution asked = attribute(p, oracle, got, asking(bug->target));
    EXPECT_EQ(asked.rule, bug->rule);
    EXPECT_TRUE(asked.sure) << bug->rule;
  }
}

TEST(AttributionQuestions, DropsMissingFromAFailedHandlerAreTheFailureOrTheDropsJournal) {
  expect_told_apart(kSendThenFail, {1, 1000, 10000}, "§6.4 sends before a failure",
                    {sends_lost_on_fail, "§6.4 sends before a failure"}, {drops_unjournaled, "§6.5 drop"});
}

TEST(AttributionQuestions, DropsMissingFromAHandlerThatDividesByZeroAreTheFailureOrTheDropsJournal) {
  expect_told_apart(kSendThenDivide, {1, 1000, 10000}, "§6.4 sends before a failure",
                    {sends_lost_on_fail, "§6.4 sends before a failure"}, {drops_unjournaled, "§6.5 drop"});
}

// A target whose `<<` is wrong where it decides an `if` delivers inc first: a
// condition, or b's mailbox out of order? Asked with the send out of its `if`, it
// agrees: the condition. The question is about the send of go with three
// arguments; the unguarded send of go with two is another message.
TEST(AttributionQuestions, AMessageMissingUnderAConditionIsAskedAboutTheSendOfItsArity) {
  Program p = checked(kSendUnderShl);
  RunSettings s{0, 1, 1};
  ojson oracle = oracle_answer(p, s).json;
  ojson got = shl_conditions_false(p, s);
  ASSERT_EQ(oracle["journal"][2]["args"].size(), 3u);
  ASSERT_EQ(got["journal"][2]["tag"], "inc");
  Attribution unasked = attribute(p, oracle, got);
  EXPECT_EQ(unasked.rule, "§6.5 fifo");
  EXPECT_FALSE(unasked.sure);
  Attribution asked = attribute(p, oracle, got, asking(shl_conditions_false));
  EXPECT_EQ(asked.rule, "§5 shl");
  EXPECT_TRUE(asked.sure);
}

// b (tos 10) sends itself reset, then tick: 10 * (2^63 - 2) wraps to -20 (§5); a
// (tos 0) sends tick only. A target whose `*` is wrong where it decides the `if`
// delivers tick to b first, and b exits (no handler) in both runs: late or never
// sent cannot be told by more turns. Asked with the send out of its `if` (then a
// sends reset too, which changes the oracle's run after b's delivery, not before),
// the target agrees: the condition.
TEST(AttributionQuestions, AConditionAskedAboutChangesTheRunOnlyAfterTheDifference) {
  Program p = checked(R"(
kind Worker(tos: int) {
    init {
        if tos * 9223372036854775806 < 0 {
            send reset() to self;
        }
        send tick(self, self) to self;
    }
}

process a = Worker(0);
process b = Worker(10);
)");
  RunSettings s{0, 1, 1};
  ojson oracle = oracle_answer(p, s).json;
  ojson got = op_conditions_false("mul", p, s);
  ASSERT_EQ(oracle["journal"][2]["tag"], "reset");
  ASSERT_EQ(got["journal"][2]["tag"], "tick");
  Attribution unasked = attribute(p, oracle, got);
  EXPECT_EQ(unasked.rule, "§6.5 fifo");
  EXPECT_FALSE(unasked.sure);
  Target mul_false = [](const Program& q, const RunSettings& r) { return op_conditions_false("mul", q, r); };
  Attribution asked = attribute(p, oracle, got, asking(mul_false));
  EXPECT_EQ(asked.rule, "§5 lt mul");
  EXPECT_TRUE(asked.sure);
  // (A mailbox taking the newest first would still deliver tick to b first in the
  // variant, a difference at b's delivery: not the condition. newest_first above
  // only reorders deliveries the oracle makes, so it cannot stand for it here.)
}

TEST(AttributionQuestions, GivenMessagesOutOfOrderAreTheGivenOrderOrTheMailbox) {
  expect_told_apart(kTwoGiven, {1, 1000, 10000}, "§6.5 fifo", {given_reversed, "§8.2 given"},
                    {newest_first, "§6.5 fifo"});
}

// a takes reset(0) first: its `<` computed 0, or its mailbox took the newest first?
// (mailbox_lifo on the held-out seed 7 read as §5 lt, and as §5 eq neg.) Asked with
// one of the two sends left, the mailbox holds one reset: the mailbox bug agrees,
// the operator bug still sends reset(0), and only that send's operators are named.
TEST(AttributionQuestions, AnotherValueOfOneSendersTagIsItsOperatorsOrTheMailbox) {
  expect_told_apart(kTwoComputedSends, {0, 1, 1}, "§5 lt mul", {lt_zero_in_sends, "§5 lt"},
                    {init_sends_reversed, "§6.5 fifo"});
}

// n does not fail: its `>>` took the other branch, or its division by zero gave no
// failure? (shift_count_unmasked on the held-out seed 7 read as §5 div.) Asked with
// the outer `if` replaced by its branch, the shift bug fails as the oracle does.
TEST(AttributionQuestions, AFailedDivisionMissingUnderAConditionIsTheConditionOrTheDivision) {
  expect_told_apart(kDivisionUnderIf, {0, 1000, 10}, "§5 div", {shr_conditions_false, "§5 shr"},
                    {division_by_zero_gives_zero, "§5 div"});
}

TEST(AttributionQuestions, AMissingDropUnderAConditionIsTheConditionOrTheDropsJournal) {
  expect_told_apart(kDropUnderIf, {1, 1000, 10000}, "§6.5 drop", {shr_conditions_false, "§5 shr"},
                    {drops_unjournaled, "§6.5 drop"});
}

// Run cut after turn 1: the target delivered inc where the oracle delivered go. Late
// (a mailbox taking the newest first: w's holds go, then inc) or never sent (the
// condition)? Asked for the longer run alone (no variant answered), each target
// shows which.
TEST(AttributionQuestions, ARunCutByTheTurnLimitIsAskedForMoreTurns) {
  Program p = checked(kSendUnderIf);
  RunSettings s{1, 1, 10000};
  ojson oracle = oracle_answer(p, s).json;
  ASSERT_EQ(oracle["outcome"], "turn_limit");
  ASSERT_EQ(oracle["journal"][2]["tag"], "go");
  ojson longer = oracle_answer(p, RunSettings{1, 2, 10000}).json;
  ASSERT_EQ(longer["journal"].size(), 4u);
  ojson mailbox_bug = newest_first(p, RunSettings{1, 2, 10000});
  mailbox_bug["journal"].erase(3);  // cut after turn 1
  mailbox_bug["run"] = oracle["run"];
  mailbox_bug["outcome"] = "turn_limit";
  mailbox_bug["turns"] = 1;
  ojson condition_bug = shr_conditions_false(p, s);
  ASSERT_EQ(condition_bug["journal"], mailbox_bug["journal"]) << "the two bugs should look alike";

  // Only the case's program is answered: the longer run is the one question.
  auto only_this = [&](Target t) -> AskTarget {
    return [&p, t](const Program& q, const RunSettings& r) -> std::optional<ojson> {
      if (program_to_json(q) != program_to_json(p)) return std::nullopt;
      return t(q, r);
    };
  };
  Attribution unasked = attribute(p, oracle, condition_bug);
  EXPECT_EQ(unasked.rule, "§6.5 fifo");
  EXPECT_FALSE(unasked.sure);
  Attribution a = attribute(p, oracle, condition_bug, only_this(shr_conditions_false));
  EXPECT_EQ(a.rule, "§5 shr");
  Attribution b = attribute(p, oracle, mailbox_bug, only_this(newest_first));
  EXPECT_EQ(b.rule, "§6.5 fifo");
  EXPECT_TRUE(b.sure);
}

}  // namespace
}  // namespace concord
