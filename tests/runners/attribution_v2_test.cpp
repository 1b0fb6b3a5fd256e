// tests/runners/attribution_v2_test.cpp: the SPEC rule behind a first difference
// that version 2 makes (runners/triage/attribution_v2.hpp), on the planted faults'
// programs (tests/targets/faults/) and small programs whose oracle result is bent
// by hand the way a bug would bend it, the rule expected from SPEC.md §16-§22.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "runners/campaign/divergence.hpp"
#include "runners/protocol/load.hpp"
#include "runners/triage/attribution.hpp"
#include "targets/common/build_paths.hpp"

namespace concord {
namespace {

Program fault_program(const std::string& name) {
  std::string path = std::string(build_paths::source_dir) + "/tests/targets/faults/" + name + ".conc";
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return program_from_source(text.str(), path);
}

ojson expect(const Program& p) { return oracle_answer(p, RunSettings{0, 100, 10000}).json; }

std::string rule(const Program& p, const ojson& got) { return attribute(p, expect(p), got).rule; }

// The index of the first event of `ev` (and, when given, of key == value).
size_t find(const ojson& r, const std::string& ev, const char* key = nullptr, const std::string& value = "") {
  const ojson& j = r["journal"];
  for (size_t i = 0; i < j.size(); i++)
    if (j[i]["ev"] == ev && (!key || j[i][key] == value)) return i;
  ADD_FAILURE() << "no " << ev << " event";
  return 0;
}

// §16.3: a non-trapping process ignores a link signal with reason normal.
TEST(AttributionV2, ANormalLinkSignalThatKillsIsItsClause) {
  Program p = fault_program("normal_exit_spreads");
  ojson got = expect(p);
  size_t i = find(got, "signal");
  got["journal"][i]["effect"] = "exit";
  got["journal"].push_back({{"ev", "exit"}, {"turn", 1}, {"name", "b"}, {"reason", "normal"}});
  Attribution a = attribute(p, expect(p), got);
  EXPECT_EQ(a.rule, "§16.3 link signal normal");
  EXPECT_EQ(a.detail, "journal[" + std::to_string(i) + "].effect");
}

// §16.3 [R17]: a trapping process gets exit(X, normal) as a message: another clause.
TEST(AttributionV2, ATrappedLinkSignalIgnoredIsTheTrappingClause) {
  Program p = fault_program("trap_ignores_normal_link");
  ojson got = expect(p);
  size_t i = find(got, "signal");
  got["journal"][i]["effect"] = "ignore";
  got["journal"].erase(i + 1);
  EXPECT_EQ(rule(p, got), "§16.3 link signal trapped");
}

// §17.1 step 3: link signals by ascending id.
TEST(AttributionV2, LinkSignalsInAnotherOrderAreTheExitsOrder) {
  Program p = fault_program("link_signals_descending");
  ojson got = expect(p);
  size_t i = find(got, "signal");  // signal to b, exit b, signal to c, exit c
  ojson& j = got["journal"];
  std::swap(j[i], j[i + 2]);
  std::swap(j[i + 1], j[i + 3]);
  EXPECT_EQ(rule(p, got), "§17.1 signal order");
}

// §17.1 step 3 [R27]: link signals, then down signals.
TEST(AttributionV2, ADownBeforeALinkSignalIsTheExitsOrder) {
  Program p = fault_program("downs_before_links");
  ojson got = expect(p);
  size_t i = find(got, "signal", "kind", "link");
  ojson& j = got["journal"];
  ASSERT_EQ(j[i + 2]["kind"], "down");
  ojson down = j[i + 2];
  j.erase(i + 2);
  j.insert(j.begin() + static_cast<std::ptrdiff_t>(i), down);
  EXPECT_EQ(rule(p, got), "§17.1 signal order");
}

// §18.2: the caller of a callee that exits fails with code(R), not R.
TEST(AttributionV2, ACallerEndedWithItsCalleesReasonIsAFailedCall) {
  Program p = fault_program("failed_call_keeps_reason");
  ojson got = expect(p);
  size_t i = find(got, "exit", "name", "c");
  got["journal"][i]["reason"] = "normal";
  got["failures"] = ojson::array();
  EXPECT_EQ(rule(p, got), "§18.2 failed call");
}

// §21: all_significant shuts down only when no other significant child runs.
TEST(AttributionV2, AnAutoShutdownDecisionIsSection21) {
  Program p = fault_program("all_significant_as_any");
  ojson got = expect(p);
  got["journal"][find(got, "decision")]["action"] = "auto_shutdown";
  EXPECT_EQ(rule(p, got), "§21 auto_shutdown");
}

// §20: terminate_child removes a temporary child; the child list is the request's.
// The attribution of p's result with `w` kept in its first supervisor's child list,
// not running, as terminate_child_keeps_temporary keeps it.
Attribution with_w_kept(const Program& p) {
  ojson got = expect(p);
  got["supervisors"][0]["children"].push_back({{"name", "w"}, {"running", false}});
  return attribute(p, expect(p), got);
}

TEST(AttributionV2, AChildListAnApiRequestLeftIsTheRequestsRule) {
  Attribution a = with_w_kept(fault_program("terminate_child_keeps_temporary"));
  EXPECT_EQ(a.rule, "§20 terminate_child");
  EXPECT_EQ(a.detail, "supervisors");
}

// §19.4: a spawn whose start failed consumes the name all the same.
TEST(AttributionV2, ANameReusedAfterAFailedStartIsTheSpawnOfSection19) {
  Program p = fault_program("failed_spawn_gives_back_number");
  ojson got = expect(p);
  size_t i = find(got, "start", "name", "f-2");
  got["journal"][i]["name"] = "f-1";
  got["journal"][i + 1]["name"] = "f-1";
  EXPECT_EQ(rule(p, got), "§19.4 spawn");
}

Program source(const std::string& text) { return program_from_source(text, "v2.conc"); }

// §20: of several requests, the one about the child whose entry differs, even when
// a request about another child came after it (the shrunk case of
// terminate_child_keeps_temporary kept a later delete_child only to keep its bucket).
TEST(AttributionV2, AChildListIsTheRuleOfTheRequestAboutTheDifferingChild) {
  Program p = source(R"(concord 2;
kind K() {
    on go() {
        terminate_child(sup, @w);
        delete_child(sup, @v);
        restart_child(other, @u);
    }
}
process a = K();
supervisor sup one_for_one intensity 1 {
    temporary process w = K();
    permanent process v = K();
}
supervisor other one_for_one intensity 1 {
    permanent process u = K();
}
given go() to @a;
)");
  ASSERT_EQ(expect(p)["supervisors"][0]["name"], "sup");
  Attribution a = with_w_kept(p);
  EXPECT_EQ(a.rule, "§20 terminate_child");
  EXPECT_EQ(a.detail, "supervisors");
}

// §18.1: calling oneself fails with CALLING_SELF.
TEST(AttributionV2, CallingItselfIsSection18) {
  Program p = source("concord 2;\nkind A() { on go() { call go() to self; } }\nprocess a = A();\ngiven go() to @a;\n");
  ojson got = expect(p);
  size_t i = find(got, "exit");
  ASSERT_EQ(got["journal"][i]["reason"], "CALLING_SELF");
  got["journal"].erase(i);
  got["failures"] = ojson::array();
  EXPECT_EQ(rule(p, got), "§18.1 calling self");
}

// §18.3: a caller nobody answers waits for ever: deadlock.
TEST(AttributionV2, AnOutcomeThatIsNotDeadlockIsSection18) {
  Program p = source(
      "concord 2;\nkind E() { on ask() { } }\nkind C() { on go() { call ask() to @e; } }\n"
      "process e = E();\nprocess c = C();\ngiven go() to @c;\n");
  ojson got = expect(p);
  ASSERT_EQ(got["outcome"], "deadlock");
  got["outcome"] = "quiescent";
  EXPECT_EQ(rule(p, got), "§18.3 deadlock");
}

// §20: another result of a request is the request's rule.
TEST(AttributionV2, AnotherApiResultIsTheRequestsRule) {
  Program p = source(
      "concord 2;\nkind W() { }\nkind K() { on go() { restart_child(sup, @w); } }\n"
      "supervisor sup one_for_one intensity 1 { permanent process w = W(); }\n"
      "process k = K();\ngiven go() to @k;\n");
  ojson got = expect(p);
  size_t i = find(got, "api");
  ASSERT_EQ(got["journal"][i]["result"], "running");
  got["journal"][i]["result"] = "ok";
  EXPECT_EQ(rule(p, got), "§20 restart_child");
}

// §22: with equal journals, a failures list without a killed process.
TEST(AttributionV2, FailuresWithEqualJournalsAreSection22) {
  Program p = fault_program("failed_call_keeps_reason");
  ojson got = expect(p);
  got["failures"] = ojson::array();
  EXPECT_EQ(rule(p, got), "§22 failures");
}

// §2: spawned names; the digits written backwards, or another number.
TEST(AttributionV2, SpawnedNamesAreSection2) {
  Program p =
      source("kind W() { }\nkind S() { on go() { repeat 12 { spawn W(); } } }\nprocess s = S();\ngiven go() to @s;\n");
  ojson got = expect(p);
  size_t i = find(got, "start", "name", "w-12");
  got["journal"][i]["name"] = "w-21";
  EXPECT_EQ(rule(p, got), "§2 spawned names, decimal");
  got["journal"][i]["name"] = "w-13";
  EXPECT_EQ(rule(p, got), "§2 spawned names, number");
}

// §7.2: a decision journaled after the restart it decided (a version 1 program).
TEST(AttributionV2, ADecisionAfterItsRestartIsTheDecisionsOrder) {
  Program p = source(
      "kind W() { on go() { fail BOOM; } }\nsupervisor sup one_for_one intensity 1 { permanent process w = W(); }\n"
      "given go() to @w;\n");
  ojson got = expect(p);
  size_t i = find(got, "decision");
  ASSERT_EQ(got["journal"][i + 1]["ev"], "start");
  std::swap(got["journal"][i], got["journal"][i + 1]);
  EXPECT_EQ(rule(p, got), "§7.2 decision order");
}

// §20: pinger terminates the temporary echo_2 (its entry goes) and asks to restart
// it: not_found. A target that kept the entry restarts it: the request on the
// oracle's side, a start on the target's. The child list the terminate_child
// left, not the restart_child, is what differs.
TEST(AttributionV2, ARestartOfAChildAnEarlierRequestLeftIsThatRequestsRule) {
  Program p = source(R"(concord 2;
kind T() {
    init {
        send tick() to self;
    }
    on tick() {
        terminate_child(mid, @echo_2);
        restart_child(mid, @echo_2);
    }
}
supervisor mid one_for_all intensity 0 {
    temporary process pinger = T();
    temporary process echo_2 = T();
}
)");
  ojson oracle = oracle_answer(p, RunSettings{2, 1, 1}).json;
  ojson got = oracle;
  ojson& j = got["journal"];
  size_t i = find(got, "api", "op", "restart_child");
  ASSERT_EQ(j[i]["result"], "not_found");
  j[i]["result"] = "ok";
  j.insert(j.begin() + static_cast<std::ptrdiff_t>(i),
           ojson::parse(R"({"ev":"start","turn":1,"name":"echo_2","kind":"T"})"));
  EXPECT_EQ(attribute(p, oracle, got).rule, "§20 terminate_child");
}

// §16.5 [R23/restarted_has_no_links]: b linked to the old w; w is restarted; b
// fails. A target that kept the link on b's side sends the new w a link signal the
// oracle's b never sends: b had no link at its exit, the old w had one to b.
TEST(AttributionV2, ALinkSignalToARestartedProcessIsSection16_5) {
  Program p = fault_program("restarted_keeps_links");
  ojson got = expect(p);
  size_t i = got["journal"].size();
  got["journal"].push_back(
      ojson::parse(R"({"ev":"signal","turn":3,"kind":"link","from":"b","to":"w","reason":"BOOM","effect":"exit"})"));
  got["journal"].push_back(ojson::parse(R"({"ev":"exit","turn":3,"name":"w","reason":"BOOM"})"));
  Attribution a = attribute(p, expect(p), got);
  EXPECT_EQ(a.rule, "§16.5 restarted");
  EXPECT_EQ(a.detail, "journal[" + std::to_string(i) + "] (extra)");
}

// §16.5 the other way: w1 is linked to the old a, which fails and is restarted; w1
// links to the new a (its pong), which fails too. A target that kept the old link on
// w1's side took the new link for it and made none on a's side: the new a's link
// signal to w1 is missing (it was read as §16.2 link). The old a's, with no earlier
// incarnation, missing is the link statement's.
TEST(AttributionV2, ALinkSignalMissingWhereAnEarlierIncarnationHadTheLinkIsSection16_5) {
  Program p = source(R"(concord 2;
kind SpawnMe() {
    init {
        send pong() to self;
        trap_exit(1);
        monitor(@b);
        link(@a);
    }
    on pong() {
        link(@a);
    }
}
supervisor root rest_for_one intensity 1 {
    permanent process a = SpawnMe();
    permanent process b = SpawnMe();
}
process w1 = SpawnMe();
)");
  ojson oracle = oracle_answer(p, RunSettings{3, 6, 1}).json;
  const ojson& j = oracle["journal"];
  std::vector<size_t> to_w1;  // a's link signals to w1: the old a's, then the new a's
  for (size_t i = 0; i < j.size(); i++)
    if (j[i]["ev"] == "signal" && j[i]["kind"] == "link" && j[i]["from"] == "a" && j[i]["to"] == "w1")
      to_w1.push_back(i);
  ASSERT_EQ(to_w1.size(), 2u);
  ojson got = oracle;
  got["journal"].erase(got["journal"].begin() + static_cast<std::ptrdiff_t>(to_w1[1]));
  EXPECT_EQ(attribute(p, oracle, got).rule, "§16.5 restarted");
  ojson got2 = oracle;
  got2["journal"].erase(got2["journal"].begin() + static_cast<std::ptrdiff_t>(to_w1[0]), got2["journal"].end());
  EXPECT_EQ(attribute(p, oracle, got2).rule, "§16.2 link");
}

// The same, but b links to the new w again before it fails: the link is the new
// incarnation's, which the journal does not show (no event for a link made). The
// oracle's result is bent to lack the signal (as when its receiver is gone by the
// time it would take effect): a signal on one side only, not a restart's.
TEST(AttributionV2, ALinkMadeWithTheNewIncarnationIsNotSection16_5) {
  Program p = source(R"(concord 2;
kind W() {
    on kick() {
        send bang() to @b;
        stop;
    }
}
kind B() {
    on go() {
        link(@w);
        send kick() to @w;
    }
    on bang() {
        link(@w);
        fail BOOM;
    }
}
supervisor sup one_for_one intensity 2 {
    permanent process w = W();
}
process b = B();
given go() to @b;
)");
  ojson got = expect(p);
  ojson oracle = got;
  size_t i = find(got, "signal", "from", "b");
  ASSERT_EQ(got["journal"][i]["to"], "w");
  oracle["journal"].erase(oracle["journal"].begin() + static_cast<std::ptrdiff_t>(i), oracle["journal"].end());
  EXPECT_EQ(attribute(p, oracle, got).rule, "§16.2 link");
}

// §20: main asks to delete itself (running: nothing changes), then pinger asks to
// restart main (running). A target that restarts a running child answers ok after
// a start: the restart_child's own rule, not the delete_child's, which left the
// child list as it was.
TEST(AttributionV2, AnEarlierRequestThatChangedNothingIsNotTheRule) {
  Program p = source(R"(concord 2;
kind Worker() {
    init {
        send go() to self;
    }
    on go() {
        restart_child(top, @main);
    }
}
kind Echo() {
    init {
        send pong() to self;
    }
    on pong() {
        delete_child(top, self);
        terminate_child(top, @b);
    }
}
supervisor top rest_for_one intensity 0 {
    permanent process b = Echo();
    permanent process main = Echo();
}
process pinger = Worker();
)");
  ojson oracle = oracle_answer(p, RunSettings{0, 2, 1}).json;
  ojson got = oracle;
  ojson& j = got["journal"];
  size_t i = find(got, "api", "op", "restart_child");
  ASSERT_EQ(j[i]["result"], "running");
  ASSERT_EQ(j[find(got, "api", "op", "delete_child")]["result"], "running");
  j[i]["result"] = "ok";
  j.insert(j.begin() + static_cast<std::ptrdiff_t>(i),
           ojson::parse(R"({"ev":"start","turn":2,"name":"main","kind":"Echo"})"));
  EXPECT_EQ(attribute(p, oracle, got).rule, "§20 restart_child");
}

// main_r1 exits twice (NOPROC at its start, then shutdown when its supervisor gives
// up); its link signal to the trapping x, taken as a message by the oracle, kills x
// on a target that ignores the trap flag: the same signal with another effect, the
// trapping clause of §16.3, not a link kept through a restart.
TEST(AttributionV2, TheSameSignalWithAnotherEffectIsNotSection16_5) {
  Program p = source(R"(concord 2;
kind Pinger() {
    init {
        link(@b_r1);
        link(@x);
    }
}
kind Echo() {
    init {
        trap_exit(1);
    }
}
process x = Echo();
supervisor repeat_ rest_for_one intensity 1 {
    permanent process a_r1 = Echo();
    temporary process b_r1 = Echo();
    permanent process main_r1 = Pinger();
}
given nobody(@x, 0) to @a_r1;
)");
  ojson oracle = oracle_answer(p, RunSettings{0, 1, 1}).json;
  ojson got = oracle;
  ojson& j = got["journal"];
  size_t i = j.size();
  for (size_t k = 0; k < j.size(); k++)
    if (j[k]["ev"] == "signal" && j[k]["to"] == "x" && j[k]["reason"] == "shutdown") i = k;
  ASSERT_LT(i, j.size());
  ASSERT_EQ(j[i]["effect"], "message");
  j[i]["effect"] = "exit";
  j.erase(j.begin() + static_cast<std::ptrdiff_t>(i) + 1, j.end());
  j.push_back(ojson{{"ev", "exit"}, {"turn", j[i]["turn"]}, {"name", "x"}, {"reason", "shutdown"}});
  EXPECT_EQ(attribute(p, oracle, got).rule, "§16.3 link signal trapped");
}

}  // namespace
}  // namespace concord
