// tests/runners/attribution_questions_test.cpp: the questions the attribution asks a
// target when its results alone fit two rules (runners/triage/attribution.hpp). Each
// test has two fake targets with different bugs that give the same results for the
// case: unasked, the attribution cannot tell them apart (not sure); asked, each gets
// its own rule. The targets are the oracle run on a bent program or with its result
// bent, so that what each bug does is written here, not taken from concord.
#include <gtest/gtest.h>

#include <functional>
#include <optional>

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

// A target whose `>>` is wrong where it decides an `if`: every such condition false.
ojson shr_conditions_false(const Program& p, const RunSettings& s) {
  ojson j = program_to_json(p);
  for (ojson& k : j["kinds"]) {
    conditions_false(k["init"], "shr");
    for (ojson& h : k["handlers"]) conditions_false(h["body"], "shr");
  }
  Program q = program_from_json(j);
  check(q);
  return oracle_answer(q, s).json;
}

// A target that journals no drop.
ojson drops_unjournaled(const Program& p, const RunSettings& s) {
  ojson r = oracle_answer(p, s).json;
  ojson kept = ojson::array();
  for (const ojson& e : r["journal"])
    if (e["ev"] != "drop") kept.push_back(e);
  r["journal"] = kept;
  return r;
}

AskTarget asking(std::function<ojson(const Program&, const RunSettings&)> target) {
  return [target](const Program& q, const RunSettings& s) -> std::optional<ojson> { return target(q, s); };
}

TEST(AttributionQuestions, AMissingDropUnderAConditionIsTheConditionOrTheDropsJournal) {
  Program p = checked(kDropUnderIf);
  RunSettings s{1, 1000, 10000};
  ojson oracle = oracle_answer(p, s).json;
  ojson condition_bug = shr_conditions_false(p, s), journal_bug = drops_unjournaled(p, s);
  ASSERT_EQ(condition_bug["journal"], journal_bug["journal"]) << "the two bugs should look alike";
  ASSERT_EQ(condition_bug["journal"].size() + 1, oracle["journal"].size());

  Attribution unasked = attribute(p, oracle, condition_bug);
  EXPECT_EQ(unasked.rule, "§6.5 drop");
  EXPECT_FALSE(unasked.sure);

  Attribution a = attribute(p, oracle, condition_bug, asking(shr_conditions_false));
  EXPECT_EQ(a.rule, "§5 shr");
  EXPECT_TRUE(a.sure);
  Attribution b = attribute(p, oracle, journal_bug, asking(drops_unjournaled));
  EXPECT_EQ(b.rule, "§6.5 drop");
  EXPECT_TRUE(b.sure);
}

// Run cut after turn 1: the target delivered inc where the oracle delivered go. Late
// (a mailbox taking the newest first) or never sent (the condition)? Asked for the
// longer run alone (no variant answered), each target shows which.
TEST(AttributionQuestions, ARunCutByTheTurnLimitIsAskedForMoreTurns) {
  Program p = checked(kSendUnderIf);
  RunSettings s{1, 1, 10000};
  ojson oracle = oracle_answer(p, s).json;
  ASSERT_EQ(oracle["outcome"], "turn_limit");
  ASSERT_EQ(oracle["journal"][2]["tag"], "go");
  // Newest first: w's mailbox holds go, then inc; it takes inc, then go.
  auto newest_first = [&](const Program&, const RunSettings& r) {
    ojson out = oracle_answer(p, r).json;
    ojson& j = out["journal"];
    ojson go = j[2];
    for (const char* f : {"from", "tag", "args"}) j[2][f] = j[3][f];
    if (j.size() > 3)
      for (const char* f : {"from", "tag", "args"}) j[3][f] = go[f];
    return out;
  };
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
  auto only_this = [&](std::function<ojson(const Program&, const RunSettings&)> t) -> AskTarget {
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
  Attribution b = attribute(p, oracle, mailbox_bug, only_this([&](const Program& q, const RunSettings& r) {
                              ojson out = newest_first(q, r);
                              return out;
                            }));
  EXPECT_EQ(b.rule, "§6.5 fifo");
  EXPECT_TRUE(b.sure);
}

}  // namespace
}  // namespace concord
