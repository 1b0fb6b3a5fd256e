// tests/targets/js_v2_test.cpp: version 2 (SPEC §14-§23) on the js target, against
// the oracle. Programs: every version 2 program of the oracle's hand-derived tests
// (tests/oracle/{links,calls,starts}_test.cpp, whose journals were derived from the
// SPEC and checked against OTP 25), and generated programs of the `v2` profile. A
// program the emitter refused (Unsupported) would be counted, never compared; each
// test asserts a floor of compared programs, so it cannot pass by refusing.
#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <vector>

#include "generators/generate.hpp"
#include "generators/profile.hpp"
#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/program_json.hpp"
#include "oracle/text.hpp"
#include "targets/common/unsupported.hpp"
#include "targets/js/emitter/emit_js.hpp"
#include "tests/targets/js_backend.hpp"
#include "tests/targets/oracle_compare.hpp"

using namespace concord;

namespace {

bool supported(const Program& p) {
  try {
    emit_js(p);
    return true;
  } catch (const Unsupported&) {
    return false;
  }
}

// Runs p on the js backend and compares every run with the oracle; a refused
// program (none today) must be answered UNSUPPORTED.
void compare(const Program& p, const std::vector<RunSettings>& runs, Tally& t) {
  compare_with_oracle(js_backend(), "js", p, runs, supported(p), t);
}

std::vector<RunSettings> runs_of(std::initializer_list<uint64_t> seeds, int64_t turns, int64_t max_processes) {
  std::vector<RunSettings> out;
  for (uint64_t s : seeds) out.push_back(RunSettings{s, turns, max_processes});
  return out;
}

}  // namespace

// Floor: every valid version 2 program of the oracle tests, two requests each.
TEST(JsVersion2, TheOracleTestsProgramsGiveTheOraclesLines) {
  Tally t;
  for (const char* file : {"links_test.cpp", "calls_test.cpp", "starts_test.cpp"}) {
    std::vector<std::string> programs = version_2_programs(file);
    ASSERT_FALSE(programs.empty()) << file;
    for (const std::string& text : programs) {
      Program p;
      try {
        p = parse_program(text);
        check(p);
      } catch (const InputError&) {
        continue;  // a reader or check test's invalid program
      }
      compare(p, runs_of({0, 1, 2, 3, 7}, 1000, 10000), t);
      compare(p, runs_of({5}, 3, 2), t);  // turn and process limits
    }
  }
  std::cout << "oracle tests' programs: " << t.compared << " compared, " << t.refused << " refused, " << t.divergent
            << " divergent (two requests each)\n";
  EXPECT_EQ(t.divergent, 0);
  EXPECT_GE(t.compared, JS_V2_ORACLE_FLOOR);
}

// Programs of the `v2` profile, each on the runs a campaign gives it (generate_runs).
TEST(JsVersion2, GeneratedProgramsOfTheV2ProfileFourRuns) {
  const gen::Profile& profile = gen::profile_named("v2");
  Tally t;
  for (uint64_t seed = 1; seed <= 150; seed++) {
    Program p = gen::generate_program(seed, profile);
    ASSERT_EQ(p.version, 2);
    compare(p, gen::generate_runs(seed, profile, 4), t);
  }
  std::cout << "generated v2 programs (4 runs): " << t.compared << " compared, " << t.refused << " refused, "
            << t.divergent << " divergent\n";
  EXPECT_EQ(t.divergent, 0);
  EXPECT_GE(t.compared, JS_V2_FOUR_RUNS_FLOOR);
}

// More programs of the `v2` profile, three runs each.
TEST(JsVersion2, GeneratedProgramsOfTheV2Profile) {
  const gen::Profile& profile = gen::profile_named("v2");
  Tally t;
  for (uint64_t seed = 1000; seed < 1100; seed++)
    compare(gen::generate_program(seed, profile), gen::generate_runs(seed, profile, 3), t);
  std::cout << "generated v2 programs: " << t.compared << " compared, " << t.refused << " refused, " << t.divergent
            << " divergent\n";
  EXPECT_EQ(t.divergent, 0);
  EXPECT_GE(t.compared, JS_V2_GENERATED_FLOOR);
}

// Every version 2 construct is emitted: nothing is refused any more, the program
// marked `concord 2` with version 1 statements only (refused as a whole before)
// included.
TEST(JsVersion2, EmitsEveryConstruct) {
  Program plain =
      parse_program("concord 2;\nkind W() { on go() { stop BOOM; } }\nprocess w = W();\ngiven go() to @w;\n");
  check(plain);
  EXPECT_TRUE(supported(plain));
  Program significant = parse_program(
      "concord 2;\nkind W() {}\n"
      "supervisor sup one_for_one intensity 1 auto_shutdown any_significant { transient significant process t = W(); "
      "}\n");
  check(significant);
  EXPECT_TRUE(supported(significant));
}

// §18.1: a handler goes on after a call where it waited, inside repeats and ifs,
// with its loop counters and arguments (kept by the generator), while messages to
// it wait in its mailbox (§18.3).
TEST(JsVersion2, CallsInsideRepeatsAndIfsResumeWhereTheyWaited) {
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
  Tally t;
  compare(p, runs_of({0, 1, 2, 3, 4, 5}, 1000, 10000), t);
  EXPECT_EQ(t.compared, 1);
  EXPECT_EQ(t.divergent, 0);
  // Not trivially equal: both go(...) ran to their end, through 18 resumptions.
  ojson r = result_to_json(run(p, RunSettings{0, 1000, 10000}));
  int resumes = 0;
  for (const ojson& e : r["journal"]) resumes += e["ev"] == "resume";
  EXPECT_EQ(resumes, 18);
}
