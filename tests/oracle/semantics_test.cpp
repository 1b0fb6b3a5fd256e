// tests/oracle/semantics_test.cpp: one small program per rule of SPEC §5–§8,
// each expectation derived by hand from the spec (the reasoning is beside it).
#include <gtest/gtest.h>

#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/text.hpp"

using namespace concord;

namespace {

ojson run_text(const std::string& src, uint64_t seed = 0, int64_t turns = 100, int64_t procs = 100) {
  Program p = parse_program(src);
  check(p);
  return result_to_json(run(p, RunSettings{seed, turns, procs}));
}

// The journal's events of one kind, as compact strings without the "ev" key.
std::vector<std::string> events(const ojson& r, const std::string& ev) {
  std::vector<std::string> out;
  for (const auto& e : r["journal"]) {
    if (e["ev"] != ev) continue;
    ojson copy = e;
    copy.erase("ev");
    out.push_back(copy.dump());
  }
  return out;
}

ojson state_of(const ojson& r, const std::string& name) {
  for (const auto& a : r["alive"])
    if (a["name"] == name) return a["state"];
  return nullptr;
}

const char* kEcho = R"(
kind Echo() {
    state last: int = 0;
    on put(v: int) { last = v; }
}
)";

}  // namespace

TEST(Scheduler, TurnLimitIsCheckedBeforeReadiness) {
  // §8.2 step 1 comes first: with L = 0 the outcome is turn_limit although e is ready.
  ojson r = run_text(std::string(kEcho) + "process e = Echo();\ngiven put(1) to @e;\n", 0, 0);
  EXPECT_EQ(r["outcome"], "turn_limit");
  EXPECT_EQ(r["turns"], 0);
  // With L = 1, one delivery, then turns == L: turn_limit again, not quiescent.
  r = run_text(std::string(kEcho) + "process e = Echo();\ngiven put(1) to @e;\n", 0, 1);
  EXPECT_EQ(r["outcome"], "turn_limit");
  r = run_text(std::string(kEcho) + "process e = Echo();\ngiven put(1) to @e;\n", 0, 2);
  EXPECT_EQ(r["outcome"], "quiescent");
  EXPECT_EQ(r["turns"], 1);
}

TEST(Scheduler, MailboxesAreFifo) {
  ojson r = run_text(std::string(kEcho) + "process e = Echo();\ngiven put(1) to @e;\ngiven put(2) to @e;\ngiven put(3) to @e;\n");
  std::vector<std::string> d = events(r, "deliver");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0], R"({"turn":1,"ready":1,"to":"e","from":null,"tag":"put","args":[1]})");
  EXPECT_EQ(d[2], R"({"turn":3,"ready":1,"to":"e","from":null,"tag":"put","args":[3]})");
  EXPECT_EQ(state_of(r, "e")["last"], 3);
}

TEST(Scheduler, TheDrawPicksAmongReadyProcessesInIdOrder) {
  // Two ready processes; seed 0's first draw 0xe220a8397b1dcdaf is odd, so index 1: b.
  ojson r = run_text(std::string(kEcho) + "process a = Echo();\nprocess b = Echo();\n"
                     "given put(1) to @a;\ngiven put(2) to @b;\n", 0, 1);
  EXPECT_EQ(events(r, "deliver")[0], R"({"turn":1,"ready":2,"to":"b","from":null,"tag":"put","args":[2]})");
}

TEST(Messages, SendsBeforeAFailureAreDelivered) {
  ojson r = run_text(std::string(kEcho) + R"(
kind Boom() { on go() { send put(7) to @e; fail OOPS; send put(8) to @e; } }
process e = Echo();
process b = Boom();
given go() to @b;
)");
  EXPECT_EQ(state_of(r, "e")["last"], 7);
  EXPECT_EQ(r["failures"].dump(), R"([{"process":"b","code":"OOPS","turn":1}])");
  EXPECT_EQ(r["turns"], 2);  // go, then put(7); put(8) was never sent
}

TEST(Messages, NoHandlerOnUnknownTagArityOrType) {
  auto code_for = [&](const std::string& msg) {
    ojson r = run_text(std::string(kEcho) + "process e = Echo();\ngiven " + msg + " to @e;\n");
    EXPECT_EQ(events(r, "deliver").size(), 1u);  // delivered, then failed
    return r["failures"].empty() ? std::string("none") : r["failures"][0]["code"].get<std::string>();
  };
  EXPECT_EQ(code_for("put(1)"), "none");
  EXPECT_EQ(code_for("get(1)"), "NO_HANDLER");
  EXPECT_EQ(code_for("put(1, 2)"), "NO_HANDLER");
  EXPECT_EQ(code_for("put(@e)"), "NO_HANDLER");
}

TEST(Messages, SendsToDeadOrUnbornNamesAreDropped) {
  ojson r = run_text(std::string(kEcho) + R"(
kind Quit() { on go() { stop; } }
kind Poke() { on go() { send put(1) to @q; } }
process q = Quit();
process p = Poke();
given put(5) to @echo-1;
given go() to @q;
)", 0);
  // Given to echo-1: nobody has that name at start -> dropped at turn 0.
  std::vector<std::string> drops = events(r, "drop");
  ASSERT_GE(drops.size(), 1u);
  EXPECT_EQ(drops[0], R"({"turn":0,"from":null,"to":"echo-1","tag":"put","args":[5]})");
}

TEST(Arithmetic, DivisionByZeroFailsTheProcess) {
  ojson r = run_text("kind D() {\n state x: int = 1;\n on go(a: int) { x = 10 / a; }\n on mod(a: int) { x = 10 % a; }\n}\n"
                     "process d = D();\nprocess e = D();\ngiven go(0) to @d;\ngiven mod(0) to @e;\n", 0);
  ASSERT_EQ(r["failures"].size(), 2u);
  EXPECT_EQ(r["failures"][0]["code"], "DIV_ZERO");
  EXPECT_EQ(r["failures"][1]["code"], "DIV_ZERO");
  EXPECT_TRUE(r["alive"].empty());
}

TEST(Spawn, NamesCountPerKindAndIdsFollowCreation) {
  ojson r = run_text(R"(
kind A() {}
kind B() {}
kind S() { on go() { spawn A(); spawn B(); spawn A(); } }
process s = S();
given go() to @s;
)");
  std::vector<std::string> starts = events(r, "start");
  ASSERT_EQ(starts.size(), 4u);
  EXPECT_EQ(starts[1], R"({"turn":1,"name":"a-1","kind":"A"})");
  EXPECT_EQ(starts[2], R"({"turn":1,"name":"b-1","kind":"B"})");
  EXPECT_EQ(starts[3], R"({"turn":1,"name":"a-2","kind":"A"})");
  EXPECT_EQ(r["processes"][3].dump(), R"({"id":3,"name":"a-2","kind":"A"})");
}

TEST(Spawn, ChildInitRunsBeforeTheSpawnersNextStatement) {
  // The child's init sends "hello" to s before s's own send "after" to itself.
  ojson r = run_text(R"(
kind C(parent: addr) { init { send hello() to parent; } }
kind S() {
    state n: int = 0;
    on go() { spawn C(self); send after() to self; }
    on hello() { n = n * 10 + 1; }
    on after() { n = n * 10 + 2; }
}
process s = S();
given go() to @s;
)");
  EXPECT_EQ(state_of(r, "s")["n"], 12);
}

TEST(Spawn, SystemLimitFailsTheSpawnerAndConsumesNoNumber) {
  // Limit 2: s and the first spawn fill it; the second spawn fails with SYSTEM_LIMIT.
  ojson r = run_text(R"(
kind A() {}
kind S() { on go() { spawn A(); spawn A(); } }
process s = S();
given go() to @s;
)", 0, 100, 2);
  EXPECT_EQ(r["failures"].dump(), R"([{"process":"s","code":"SYSTEM_LIMIT","turn":1}])");
  EXPECT_EQ(r["processes"].size(), 2u);
  EXPECT_EQ(r["processes"][1]["name"], "a-1");
}

TEST(Spawn, UnderADeadSupervisorIsNoproc) {
  // Turn 1: only w is ready; it tells s to go, then fails, so sup (intensity 0)
  // gives up. Turn 2: s spawns under the dead sup and fails with NOPROC.
  ojson r = run_text(R"(
kind W() { on die() { send go() to @s; fail X; } }
kind S() { on go() { spawn W() under sup permanent; } }
supervisor sup one_for_one intensity 0 { permanent process w = W(); }
process s = S();
given die() to @w;
)", 1);
  EXPECT_EQ(r["turns"], 2);
  bool found = false;
  for (const auto& f : r["failures"]) found = found || (f["process"] == "s" && f["code"] == "NOPROC");
  EXPECT_TRUE(found) << r["failures"].dump();
}

TEST(Supervision, TransientKeptTemporaryRemovedPermanentRestarted) {
  ojson r = run_text(R"(
kind W() { on quit() { stop; } }
supervisor sup one_for_one intensity 5 {
    permanent process p = W();
    transient process t = W();
    temporary process m = W();
}
given quit() to @p;
given quit() to @t;
given quit() to @m;
)");
  std::vector<std::string> d;
  for (const auto& x : r["decisions"]) d.push_back(x["process"].get<std::string>() + ":" + x["action"].get<std::string>());
  std::sort(d.begin(), d.end());
  EXPECT_EQ(d, (std::vector<std::string>{"m:remove", "p:restart", "t:keep"}));
  EXPECT_EQ(r["supervisors"][0]["children"].dump(),
            R"([{"name":"p","running":true},{"name":"t","running":false}])");
}

TEST(Supervision, IntensityExceededGivesUpAndEscalates) {
  // inner allows 0 restarts: w's failure makes inner give up; outer restarts inner
  // (permanent), which restarts w fresh.
  ojson r = run_text(R"(
kind W() { on die() { fail X; } }
supervisor outer one_for_one intensity 1 {
    permanent supervisor inner one_for_one intensity 0 { permanent process w = W(); }
}
given die() to @w;
)");
  std::vector<std::string> tail;
  for (size_t i = 3; i < r["journal"].size(); i++) {
    ojson e = r["journal"][i];
    tail.push_back(e.dump());
  }
  ASSERT_EQ(tail.size(), 7u);
  EXPECT_EQ(tail[0], R"({"ev":"deliver","turn":1,"ready":1,"to":"w","from":null,"tag":"die","args":[]})");
  EXPECT_EQ(tail[1], R"({"ev":"exit","turn":1,"name":"w","reason":"X"})");
  EXPECT_EQ(tail[2], R"({"ev":"decision","turn":1,"supervisor":"inner","process":"w","action":"give_up"})");
  EXPECT_EQ(tail[3], R"({"ev":"exit","turn":1,"name":"inner","reason":"shutdown"})");
  EXPECT_EQ(tail[4], R"({"ev":"decision","turn":1,"supervisor":"outer","process":"inner","action":"restart"})");
  EXPECT_EQ(tail[5], R"({"ev":"start","turn":1,"name":"inner","kind":"supervisor"})");
  EXPECT_EQ(tail[6], R"({"ev":"start","turn":1,"name":"w","kind":"W"})");
}
