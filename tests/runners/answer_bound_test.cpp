// tests/runners/answer_bound_test.cpp: the longest answer a run can have
// (runners/protocol/answer_bound.hpp, PROTOCOL.md "How long an answer may be"): never below
// the oracle's own line, whatever the program and settings; about a MiB for a
// small program; the oracle's memory limit for an endless one; an error line's worth for
// a program that is not valid.
#include <gtest/gtest.h>

#include "generators/generate.hpp"
#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/memory.hpp"
#include "oracle/text.hpp"
#include "runners/protocol/answer_bound.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/oracle/checked_program.hpp"

using namespace concord;

namespace {

void expect_above_the_oracle(const Program& p, const RunSettings& r, const std::string& what) {
  std::string line;
  try {
    line = result_line(run(p, r));
  } catch (const OutOfMemory&) {
    return;  // no result to compare: the bound is the limit anyway
  }
  EXPECT_GE(answer_bytes_bound(p, r), line.size()) << what;
}

}  // namespace

TEST(AnswerBound, NeverBelowTheOraclesLine) {
  for (const std::string& f : find_cases(std::string(build_paths::source_dir) + "/corpus")) {
    Case c = load_case(f);
    for (const CaseRun& r : c.runs) {
      expect_above_the_oracle(c.program, r.settings, f);
      RunSettings longer = r.settings;
      longer.turns = 5000;
      expect_above_the_oracle(c.program, longer, f + " with 5000 turns");
    }
  }
  for (const char* profile : {"default", "supervision", "spawn-heavy", "arith", "v2"})
    for (uint64_t seed = 1; seed <= 60; seed++) {
      const gen::Profile& pr = gen::profile_named(profile);
      Program p = gen::generate_program(seed, pr);
      for (RunSettings r : gen::generate_runs(seed, pr, 3)) {
        expect_above_the_oracle(p, r, std::string(profile) + " seed " + std::to_string(seed));
        r.turns *= 20;
        expect_above_the_oracle(p, r, std::string(profile) + " seed " + std::to_string(seed) + ", 20x the turns");
      }
    }
}

// A program that makes the most of each turn: spawns under a supervisor whose
// children all fail and restart, with inits that send. Its lines come close to the
// bound's assumptions, and still stay below it.
TEST(AnswerBound, HoldsForAProgramThatStormsItsSupervisors) {
  Program p = checked(R"(
kind Noisy(peer: addr) {
    init { repeat 3 { send hello(1, 2, 3) to peer; } send hello(1, 2, 3) to @nobody_here; }
    on hello(a: int, b: int, c: int) { fail BOOM; }
}
kind Spawner() {
    on go() {
        repeat 4 { spawn Noisy(@c) under root transient; }
        send go() to self;
        send hello(1, 2, 3) to @noisy-1;
    }
}
supervisor root one_for_all intensity 1000 {
    permanent process c = Noisy(@s);
    permanent supervisor inner rest_for_one intensity 1000 { transient process d = Noisy(@c); }
}
process s = Spawner();
process nobody_here = Spawner();
given go() to @s;
)");
  for (int64_t turns : {0, 1, 10, 60, 100}) expect_above_the_oracle(p, RunSettings{7, turns, 100000}, "storm");
}

// Version 2 (SPEC §16–§21): exits that spread along links and monitors, exit
// signals, calls, the supervisor API restarting and terminating a subtree, and
// failing starts, every turn.
TEST(AnswerBound, HoldsForAVersion2ProgramThatStormsItsLinksAndSupervisors) {
  Program p = checked(R"(concord 2;
kind Noisy(peer: addr) {
    init { trap_exit(1); link(peer); monitor(peer); repeat 3 { monitor(@c); } send hello(1) to peer; }
    on hello(a: int) { exit(peer, BOOM); fail BOOM; }
    on ping(x: int) { reply x; }
    on exit(from: addr, why: reason) { send hello(2) to from; link(from); }
    on down(who: addr, why: reason) { monitor(who); exit(who, kill); }
}
kind Flaky() { init { fail NOPE; } }
kind Spawner() {
    state n: int = 0;
    on go() {
        repeat 4 { spawn Noisy(@c) under root transient; }
        spawn Flaky() under root temporary;
        n = restart_child(root, @c);
        terminate_child(root, supervisor inner);
        restart_child(root, supervisor inner);
        n = call ping(n) to @d;
        send go() to self;
        send hello(1) to @noisy-1;
    }
}
supervisor root one_for_all intensity 1000 {
    permanent process c = Noisy(@s);
    permanent supervisor inner rest_for_one intensity 1000 { transient process d = Noisy(@c); }
}
process s = Spawner();
given go() to @s;
)");
  for (int64_t turns : {0, 1, 10, 60, 100}) expect_above_the_oracle(p, RunSettings{7, turns, 100000}, "storm v2");
}

TEST(AnswerBound, SmallForSmallRunsAtMostTheMemoryLimit) {
  Program ping = checked(
      "kind P(peer: addr) { on ping() { send ping() to peer; } }\n"
      "process a = P(@b);\nprocess b = P(@a);\ngiven ping() to @a;\n");
  EXPECT_EQ(answer_bytes_bound(ping, RunSettings{0, 10, 10}), kErrorLineBound);
  EXPECT_LT(answer_bytes_bound(ping, RunSettings{0, 1000, 10}), size_t{2} << 20);
  EXPECT_EQ(answer_bytes_bound(ping, RunSettings{0, 1000000000, 10}), static_cast<size_t>(oracle_memory_limit()));
  size_t middle = answer_bytes_bound(ping, RunSettings{0, 100000, 10});
  EXPECT_GT(middle, kErrorLineBound);
  EXPECT_LT(middle, size_t{512} << 20);
  Program ping2 = checked(
      "concord 2;\nkind P(peer: addr) { init { link(peer); } on ping() { send ping() to peer; } }\n"
      "process a = P(@b);\nprocess b = P(@a);\ngiven ping() to @a;\n");
  EXPECT_EQ(answer_bytes_bound(ping2, RunSettings{0, 10, 10}), kErrorLineBound) << "version 2: small too";
  EXPECT_LT(answer_bytes_bound(ping2, RunSettings{0, 1000, 10}), size_t{4} << 20);
  ojson bad = ojson::parse(R"({"concord":1,"kinds":[],"system":[],"given":[{"to":"x","tag":"t","args":[]}]})");
  EXPECT_EQ(answer_bytes_bounds(bad, {RunSettings{0, 1000000000, 10}}), std::vector<size_t>{kErrorLineBound});
}
