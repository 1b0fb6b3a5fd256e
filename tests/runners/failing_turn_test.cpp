// tests/runners/failing_turn_test.cpp: where an error or a crash happened (issue 17):
// the statements a turn ran (runners/triage/turn_rule.hpp), read off hand-written
// programs whose turns are worked out in their comments, and the bisection of
// runners/campaign/failing_turn.hpp against fake targets that fail from a turn
// we choose, agreeing with the oracle before it or not.
#include <gtest/gtest.h>

#include "oracle/check.hpp"
#include "oracle/program_json.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/campaign/failing_turn.hpp"
#include "runners/protocol/load.hpp"
#include "runners/triage/turn_rule.hpp"
#include "targets/common/build_paths.hpp"

namespace concord {
namespace {

Case hand(const std::string& name) {
  return load_case(std::string(build_paths::source_dir) + "/corpus/hand/" + name + ".case.json");
}

// restarted_keeps_links, shrunk (seed 5): b links to main and stops, is restarted,
// again; main's one handler unlinks b. Turn 0 the starts; turns 1 and 2 b's `go`
// (link, stop; its restart runs K's init again: a send); turn 3 main's `go`.
const char* kLinks = R"({"concord": 2, "kinds": [
  {"name": "Pinger", "params": [], "state": [],
   "init": [{"do": "send", "tag": "go", "args": [], "to": {"op": "self"}}],
   "handlers": [{"tag": "go", "params": [], "body": [{"do": "unlink", "to": {"op": "addr", "value": "b"}}]}]},
  {"name": "K", "params": [], "state": [],
   "init": [{"do": "send", "tag": "go", "args": [], "to": {"op": "self"}}],
   "handlers": [{"tag": "go", "params": [],
                 "body": [{"do": "link", "to": {"op": "addr", "value": "main"}}, {"do": "stop"}]}]}],
 "system": [{"supervisor": {"name": "top", "strategy": "one_for_all", "intensity": 3,
   "children": [{"restart": "permanent", "process": {"name": "b", "kind": "K", "args": []}}]}},
  {"process": {"name": "main", "kind": "Pinger", "args": []}}], "given": []})";

ojson journal_of(const Program& p, const RunSettings& r) { return oracle_answer(p, r).json["journal"]; }

TEST(TurnRule, TheStatementsOfTheBodiesATurnRan) {
  // restart_fresh_state.conc: turn 1 obs's hello (sends under ifs), turns 2 and 3 w's
  // bump (n = n + 1), turn 4 w's crash (fail BOOM) and w's init again on its restart
  // (boots = boots + 1; a send).
  Case c = hand("restart_fresh_state");
  ojson prog = program_to_json(c.program);
  ojson j = journal_of(c.program, RunSettings{1, 1000, 100});
  EXPECT_EQ(turn_rule(prog, j, 1), "§6.5 send");
  EXPECT_EQ(turn_rule(prog, j, 2), "§5 add");
  EXPECT_EQ(turn_rule(prog, j, 4), "§6.4 exit + §6.5 send");
  EXPECT_EQ(turn_rule(prog, j, 0), "§6.5 send") << "the inits of the starts";
  EXPECT_EQ(turn_rule(prog, j, 99), "") << "a turn the run never had";

  Program links = program_from_json(ojson::parse(kLinks));
  check(links);
  ojson lp = program_to_json(links);
  ojson lj = journal_of(links, RunSettings{2, 4, 1});
  EXPECT_EQ(turn_rule(lp, lj, 3), "§16.2 link");
  EXPECT_EQ(turn_rule(lp, lj, 1), "§16.2 link + §6.4 exit + §6.5 send");
}

// A fake target: the oracle's answers, but from turn limit `from` on the answer
// `failing`, and at limit `bent_at` (when >= 0) the oracle's answer with w's n
// off by one (n = n + 1 computed otherwise: §5 add). Counts its requests.
struct Fake {
  int64_t from;
  Answer failing;
  int64_t bent_at = -1;
  int requests = 0;
  Answer operator()(const Program& p, const RunSettings& s) {
    requests++;
    if (s.turns >= from) return failing;
    Answer a = oracle_answer(p, s);
    if (s.turns == bent_at)
      for (ojson& proc : a.json["alive"])
        if (proc["name"] == "w") proc["state"]["n"] = proc["state"]["n"].get<int64_t>() + 1;
    return a;
  }
};

TEST(FailingTurn, AnErrorInsideATurnIsTheStatementsOfThatTurn) {
  Case c = hand("restart_fresh_state");
  RunSettings r{1, 1000, 100};
  Answer oracle = oracle_answer(c.program, r);
  Answer internal = harness_error("INTERNAL", "w.js: TypeError: x is null");
  Fake fake{4, internal};
  Located l = locate_failure(c.program, r, oracle, internal, "error/INTERNAL",
                             [&](const Program& p, const RunSettings& s) { return fake(p, s); });
  EXPECT_EQ(l.turn, 4);
  EXPECT_EQ(l.rule, "§10 error INTERNAL in §6.4 exit + §6.5 send");
  EXPECT_NE(l.said.find("from turn limit 4"), std::string::npos) << l.said;
  EXPECT_LE(fake.requests, 11) << "a bisection of 0..1000";
  // The same through bucket_of_answer, as `concord corpus` and `buckets --again` ask.
  Fake again{4, internal};
  EXPECT_EQ(bucket_of_answer(c.program, r, oracle, internal,
                             [&](const Program& p, const RunSettings& s) { return again(p, s); }),
            l.rule);
  EXPECT_EQ(bucket_of_answer(c.program, r, oracle, internal, {}), "§10 error INTERNAL") << "not asked";

  // An error that says where the runtime met it (PROTOCOL.md) is bucketed there.
  Answer placed = harness_error("INTERNAL", "w.js: TypeError: x is null [at w.js TypeError: x is null]");
  Fake at{4, placed};
  Located p = locate_failure(c.program, r, oracle, placed, "error/INTERNAL",
                             [&](const Program& q, const RunSettings& s) { return at(q, s); });
  EXPECT_EQ(p.turn, 4);
  EXPECT_EQ(p.rule, "§10 error INTERNAL at w.js TypeError: x is null");
  EXPECT_NE(p.said.find("turn 4 ran §6.4 exit + §6.5 send"), std::string::npos) << p.said;
}

TEST(FailingTurn, ACrashAfterAnEarlierDifferenceIsThatDifference) {
  Case c = hand("restart_fresh_state");
  RunSettings r{1, 1000, 100};
  Answer oracle = oracle_answer(c.program, r);
  Answer crash = harness_error("CRASH", "mine: killed by signal 11 (SIGSEGV)");
  Fake fake{4, crash, 3};
  Located l = locate_failure(c.program, r, oracle, crash, "crash:SIGSEGV",
                             [&](const Program& p, const RunSettings& s) { return fake(p, s); });
  EXPECT_EQ(l.turn, 4);
  EXPECT_EQ(l.rule, "§5 add") << "w's n, computed otherwise before the crash";
}

TEST(FailingTurn, WhatCannotBeLocatedKeepsItsBucket) {
  Case c = hand("restart_fresh_state");
  RunSettings r{1, 1000, 100};
  Answer oracle = oracle_answer(c.program, r);
  Answer crash = harness_error("CRASH", "mine: killed by signal 11 (SIGSEGV)");
  auto ask = [](Fake& f) { return [&f](const Program& p, const RunSettings& s) { return f(p, s); }; };
  Fake always{0, crash};  // before any turn: the program, not a turn
  Located l = locate_failure(c.program, r, oracle, crash, "crash:SIGSEGV", ask(always));
  EXPECT_EQ(l.turn, 0);
  EXPECT_EQ(l.rule, "");
  Fake hangs{4, harness_error("TIMEOUT", "mine: no answer in 10 s")};  // probes fail otherwise
  EXPECT_EQ(locate_failure(c.program, r, oracle, crash, "crash:SIGSEGV", ask(hangs)).rule, "");
  Fake unused{4, crash};
  EXPECT_EQ(locate_failure(c.program, r, oracle, crash, "hang", ask(unused)).rule, "") << "a hang is not located";
  EXPECT_EQ(unused.requests, 0);
  EXPECT_FALSE(locatable("memory"));
  EXPECT_FALSE(locatable("bad-output"));
  EXPECT_TRUE(locatable("crash:exit"));
}

}  // namespace
}  // namespace concord
