// tests/targets/erlang_v2_test.cpp: version 2 (SPEC §14-§23) on the erlang target,
// against the oracle. Two sources of programs: every version 2 program of the
// oracle's hand-derived tests (tests/oracle/{links,calls,starts}_test.cpp, whose
// journals were derived from the SPEC and checked against OTP 25), and programs of
// the `v2` generator profile. A program the emitter refused (Unsupported) would be
// counted, never compared; each test asserts a floor of compared programs, so it
// cannot pass by refusing.
#include <gtest/gtest.h>

#include <cstdlib>
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
#include "targets/erlang/emitter/emit_erlang.hpp"
#include "tests/targets/erlang_backend.hpp"
#include "tests/targets/oracle_compare.hpp"

using namespace concord;

namespace {

bool supported(const Program& p) {
  try {
    emit_erlang(p);
    return true;
  } catch (const Unsupported&) {
    return false;
  }
}

// Runs p on the erlang backend and compares every run with the oracle.
void compare(const Program& p, const std::vector<RunSettings>& runs, Tally& t) {
  compare_with_oracle(erlang_backend(), "erlang", p, runs, supported(p), t);
}

std::vector<RunSettings> three_seeds() {
  std::vector<RunSettings> runs(3);
  for (size_t i = 0; i < runs.size(); i++) runs[i].seed = i;
  return runs;
}

}  // namespace

// Floor: every valid version 2 program of the oracle tests (65 of them).
TEST(ErlangVersion2, TheOracleTestsProgramsGiveTheOraclesLines) {
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
      compare(p, three_seeds(), t);
    }
  }
  std::cout << "oracle tests' programs: " << t.compared << " compared (3 seeds each), " << t.refused << " refused, "
            << t.divergent << " divergent\n";
  EXPECT_EQ(t.divergent, 0);
  EXPECT_GE(t.compared, 65);
}

TEST(ErlangVersion2, GeneratedProgramsGiveTheOraclesLines) {
  const gen::Profile& profile = gen::profile_named("v2");
  Tally t;
  // CONCORD_V2_PROGRAMS=N (and CONCORD_V2_FIRST=S, the first program seed) runs N
  // programs instead: a longer comparison by hand.
  const char* n = std::getenv("CONCORD_V2_PROGRAMS");
  const char* first = std::getenv("CONCORD_V2_FIRST");
  uint64_t programs = n ? std::strtoull(n, nullptr, 10) : 120, from = first ? std::strtoull(first, nullptr, 10) : 1;
  for (uint64_t seed = from; seed < from + programs; seed++) {
    Program p = gen::generate_program(seed, profile);
    compare(p, gen::generate_runs(seed, profile, 3), t);
  }
  std::cout << "generated v2 programs: " << t.compared << " compared (3 runs each), " << t.refused << " refused, "
            << t.divergent << " divergent\n";
  EXPECT_EQ(t.divergent, 0);
  EXPECT_GE(t.compared, static_cast<int>(programs));  // every one
}
