// tests/runners/attribution_test.cpp: the SPEC rule behind a first difference
// (runners/attribution.hpp) on hand-written corpus cases whose expected results are
// bent by hand, one bug each, the rule expected from SPEC.md; and programs up to
// renaming (runners/rename_key.hpp).
#include <gtest/gtest.h>

#include "oracle/program_json.hpp"
#include "runners/attribution.hpp"
#include "runners/load.hpp"
#include "runners/rename_key.hpp"

namespace concord {
namespace {

Case hand(const std::string& name) {
  return load_case(std::string(CONCORD_SOURCE_DIR) + "/corpus/hand/" + name + ".case.json");
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

TEST(Attribution, RestartsInAnotherOrderAreTheStrategy) {
  Case c = hand("one_for_all_restart");
  ojson got = c.runs[0].expect;
  std::swap(got["journal"][10], got["journal"][12]);  // start c, b, a instead of a, b, c
  EXPECT_EQ(rule(c, got), "§7.3 one_for_all");
  ojson got2 = c.runs[0].expect;
  std::swap(got2["journal"][8], got2["journal"][9]);  // terminate a before c
  EXPECT_EQ(rule(c, got2), "§7.3 one_for_all");
}

TEST(Attribution, AnErrorAnswerIsItsCode) {
  Case c = hand("fifo_mailbox");
  EXPECT_EQ(rule(c, ojson::parse(R"({"ok":false,"code":"INTERNAL","message":"x"})")), "§10 error INTERNAL");
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

}  // namespace
}  // namespace concord
