// tests/targets/c_v2_test.cpp: version 2 of the language (SPEC §14-§23) on the c
// target. Every version 2 program of the oracle's hand-derived tests
// (tests/oracle/links_test.cpp, calls_test.cpp, starts_test.cpp: each journal there
// is derived from the SPEC by hand and checked against OTP's experiments) and
// generated programs of the `v2` profile give byte for byte the oracle's result lines
// through `concord backend c`, compiled in memory by libtcc and by `cc` (both paths
// of targets/c/launcher).
#include <gtest/gtest.h>

#include "generators/generate.hpp"
#include "generators/profile.hpp"
#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/program_json.hpp"
#include "oracle/text.hpp"
#include "runners/protocol/backend.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/targets/c_backend.hpp"
#include "tests/targets/v2_programs.hpp"

using namespace concord;

namespace {

// The same backend compiling every program with the system compiler, a process per
// program against libconcord_rt.a (CONCORD_CC turns the in-memory path off): the
// build's `cc -O1` (with the sanitizers in a sanitizer build, as its runtime is).
Backend& c_backend_cc() {
  static Backend b([] {
    BackendSpec s;
    s.name = "c-cc";
    s.command = {build_paths::concord_binary, "backend", "c"};
    s.env = {{"CONCORD_CC", CONCORD_DEFAULT_CC}};
    s.run_timeout = 60;
    s.request_timeout = 300;
    return s;
  }());
  return b;
}

// The programs of the oracle's version 2 tests that are valid programs on their own
// (a few are fragments the tests complete, or invalid on purpose).
std::vector<std::pair<std::string, Program>> oracle_test_programs() {
  std::vector<std::pair<std::string, Program>> out;
  for (const char* file : {"links_test.cpp", "calls_test.cpp", "starts_test.cpp"}) {
    std::vector<std::string> sources = version_2_programs(file);
    EXPECT_FALSE(sources.empty()) << file;
    for (size_t n = 0; n < sources.size(); n++) {
      try {
        Program p = parse_program(sources[n]);
        check(p);
        out.emplace_back(std::string(file) + " #" + std::to_string(n + 1), std::move(p));
      } catch (const std::exception&) {
      }
    }
  }
  return out;
}

// Runs p on the backend and compares every run with the oracle; returns the runs compared.
int compare(Backend& b, const std::string& what, const Program& p, const std::vector<RunSettings>& runs) {
  std::vector<Answer> got = b.request(program_to_json(p), runs);
  EXPECT_EQ(got.size(), runs.size()) << what;
  for (size_t i = 0; i < runs.size() && i < got.size(); i++) {
    std::string want = oracle_line(p, runs[i]);
    EXPECT_EQ(got[i].line, want) << what << ", seed " << runs[i].seed << ", max_processes " << runs[i].max_processes
                                 << "\n"
                                 << print_program(p);
  }
  return static_cast<int>(runs.size());
}

std::vector<RunSettings> settings(std::initializer_list<uint64_t> seeds, int64_t turns, int64_t max_processes) {
  std::vector<RunSettings> out;
  for (uint64_t s : seeds) out.push_back(RunSettings{s, turns, max_processes});
  return out;
}

}  // namespace

TEST(CTargetV2, TheOracleTestsProgramsInMemory) {
  auto programs = oracle_test_programs();
  EXPECT_GE(programs.size(), 60u);  // 65 when written: the tests' programs must still be found
  int runs = 0;
  for (const auto& [what, p] : programs) {
    runs += compare(c_backend(), what, p, settings({0, 1, 2, 3, 7}, 1000, 10000));
    runs += compare(c_backend(), what, p, settings({5}, 3, 2));  // turn and process limits
  }
  EXPECT_GE(runs, 360);
}

TEST(CTargetV2, TheOracleTestsProgramsWithCc) {
  for (const auto& [what, p] : oracle_test_programs()) compare(c_backend_cc(), what, p, settings({0, 3}, 1000, 10000));
}

// §18.1: a handler goes on after a call where it waited, inside repeats and ifs, with
// its loop counters and arguments (the emitted resumable handler's c->loops and the
// runtime's copy of c->args), while messages to it wait in its mailbox (§18.3).
TEST(CTargetV2, CallsInsideRepeatsAndIfsResumeWhereTheyWaited) {
  Program p = parse_program(R"(concord 2;
kind S() {
    state n: int = 0;
    on add(v: int) { n = n + 1; reply v + n; send tick() to @c; }
    on tick() { n = n * 2; }
    on done(k: int) { n = n + k; }
}
kind C() {
    state x: int = 1;
    state y: int = 0;
    state k: int = 0;
    on go(a: int) {
        repeat 3 {
            k = k + a;
            repeat 2 {
                x = call add(x + a) to @s;
                repeat 2 { k = k + 1; }
            }
            if x > 3 { y = call add(y) to @s; } else { send tick() to @s; }
        }
        send done(k) to @s;
    }
    on tick() { y = y + 1000; }
}
process s = S();
process c = C();
given go(5) to @c;
given go(7) to @c;
given tick() to @c;
)");
  check(p);
  std::vector<RunSettings> runs = settings({0, 1, 2, 3, 4, 5}, 1000, 10000);
  compare(c_backend(), "calls in repeats", p, runs);
  compare(c_backend_cc(), "calls in repeats (cc)", p, runs);
  // Not trivially equal: both go(...) ran to their end, through 18 resumptions.
  ojson r = result_to_json(run(p, runs[0]));
  int resumes = 0;
  for (const ojson& e : r["journal"]) resumes += e["ev"] == "resume";
  EXPECT_EQ(resumes, 18);
  EXPECT_EQ(r["alive"].size(), 2u);
}

// Programs of the v2 profile, each on the runs a campaign gives it (generate_runs).
TEST(CTargetV2, GeneratedProgramsOfTheV2Profile) {
  const gen::Profile& v2 = gen::profile_named("v2");
  int runs = 0;
  for (uint64_t seed = 1000; seed < 1150; seed++) {
    Program p = gen::generate_program(seed, v2);
    ASSERT_EQ(p.version, 2);
    runs += compare(c_backend(), "v2 program of seed " + std::to_string(seed), p, gen::generate_runs(seed, v2, 4));
  }
  EXPECT_EQ(runs, 600);
}
