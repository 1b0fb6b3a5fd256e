// tests/oracle/profiles_test.cpp: the named generator profiles
// (generators/profile.hpp) and deterministic generation (generators/generate.hpp):
// under every profile, generated programs pass check() and stay within the
// profile's bounds; over a fixed sample of seeds run on the oracle, each profile
// reaches everything it is meant to (runners/coverage.hpp: no blind spots but the
// ones the profile waives; the default profile waives none); the same seed gives
// the same program in every process (a fingerprint pinned per GENERATOR_VERSION).
// Reproduce a property failure with the RC_PARAMS="reproduce=..." line it prints:
//   RC_PARAMS="reproduce=..." build/tests/oracle_profiles_test --gtest_filter='*ProgramsAreValid/arith'
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "generators/generate.hpp"
#include "generators/profile.hpp"
#include "generators/programs.hpp"
#include "generators/settings.hpp"
#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/limits.hpp"
#include "oracle/program_json.hpp"
#include "oracle/text.hpp"
#include "runners/coverage.hpp"
#include "tests/oracle/check_error.hpp"

namespace concord {
namespace {

// A blind spot the profile says it may miss ("category:name"; a trailing '*'
// matches a prefix).
bool waived(const gen::Profile& p, const std::string& spot) {
  for (const std::string& w : p.may_miss) {
    if (!w.empty() && w.back() == '*' ? spot.compare(0, w.size() - 1, w, 0, w.size() - 1) == 0 : spot == w) return true;
  }
  return false;
}

// FNV-1a, 64 bits: a fingerprint that does not depend on the standard library.
uint64_t fnv1a(uint64_t h, const std::string& s) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// ============================================================================
// The named profiles
// ============================================================================

TEST(Profiles, HaveTheirNamesDefaultFirst) {
  EXPECT_EQ(gen::profile_names(),
            (std::vector<std::string>{"default", "supervision", "spawn-heavy", "arith", "dynamic-supervision", "v2"}));
  for (const std::string& n : gen::profile_names()) EXPECT_EQ(gen::profile_named(n).name, n);
  EXPECT_EQ(&gen::profile_named("default"), &gen::default_profile());
}

TEST(Profiles, AnUnknownNameThrowsNamingTheKnownOnes) {
  try {
    gen::profile_named("supervisor");
    FAIL() << "no error for an unknown profile";
  } catch (const InputError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("'supervisor'"), std::string::npos) << what;
    for (const std::string& n : gen::profile_names()) EXPECT_NE(what.find(n), std::string::npos) << what;
  }
  EXPECT_THROW(gen::profile_named(""), InputError);
  EXPECT_THROW(gen::profile_named("Default"), InputError);
}

// The generators rely on these: pools large enough, bodies long enough for a
// failing handler (a prefix, a send, a fail), ranges the spec accepts.
TEST(Profiles, StayWithinWhatTheGeneratorsAndTheSpecAllow) {
  for (const std::string& n : gen::profile_names()) {
    const gen::Profile& p = gen::profile_named(n);
    SCOPED_TRACE(n);
    EXPECT_FALSE(p.intent.empty());
    EXPECT_GE(p.size, 0);
    EXPECT_LE(p.size, 100);
    EXPECT_GE(p.max_kinds, 1);
    EXPECT_LE(static_cast<size_t>(p.max_kinds), gen::kind_pool().size());
    EXPECT_GE(p.max_params, 0);
    EXPECT_LE(p.max_params, 4);  // 2 * max_params kind variables, the rest of var_pool for handlers
    EXPECT_LE(static_cast<size_t>(p.max_handlers), gen::tag_pool().size());
    EXPECT_GE(p.max_body_length, 3);
    EXPECT_GE(p.max_nested_length, 1);
    EXPECT_GE(p.max_stmt_depth, 1);
    EXPECT_LE(p.max_stmt_depth, 4);  // with the repeat counts below: bodies stay light (§4.8)
    EXPECT_LE(p.max_repeat_count, 5);
    EXPECT_GE(p.max_expr_depth, 1);
    EXPECT_LE(p.max_expr_depth, 16);
    EXPECT_GE(p.max_roots, 1);
    EXPECT_GE(p.max_supervisor_depth, 1);
    EXPECT_LE(p.max_supervisor_depth, 8);
    EXPECT_GE(p.max_given, 1);
    EXPECT_GE(p.max_intensity, 0);
    EXPECT_GE(p.min_turns, 0);
    EXPECT_LE(p.min_turns, p.max_turns);
    EXPECT_LE(p.max_turns, 10000);  // runs stay fast
    EXPECT_GE(p.min_processes, 1);
    EXPECT_LE(p.min_processes, p.max_processes);
    EXPECT_LE(p.max_processes, kMaxProcesses);
    for (const auto& [what, w] : p.weights()) EXPECT_GE(w, 0) << what;
    // Every choice keeps an option: these pairs are the only choices without a fallback.
    EXPECT_GT(p.w_plain_handler + p.w_failing_handler, 0);
    EXPECT_GT(p.w_leaf, 0);
    EXPECT_GT(p.w_int_literal, 0);
    EXPECT_GT(p.w_self, 0);
    EXPECT_GT(p.w_zero + p.w_small + p.w_edge_value + p.w_any_value, 0);
    EXPECT_GT(p.w_any_op, 0);
    EXPECT_GT(p.w_shift_operand + p.w_shift_edge, 0);
    EXPECT_GT(p.w_divisor_operand + p.w_divisor_zero + p.w_divisor_minus_one, 0);
    EXPECT_GT(p.w_given_to_process + p.w_given_to_any_name, 0);
    EXPECT_GT(p.w_send_any, 0);
    EXPECT_GT(p.w_given_own_handler + p.w_given_any_signature, 0);
    EXPECT_GT(p.w_root_process, 0);  // (a supervisor root alone could not name a process)
    EXPECT_GT(p.w_child_process, 0);
    EXPECT_GT(p.w_intensity_zero + p.w_intensity_positive, 0);
    for (const std::string& w : p.may_miss) {
      std::string category = w.substr(0, w.find(':'));
      EXPECT_NE(std::find(Coverage::categories().begin(), Coverage::categories().end(), category),
                Coverage::categories().end())
          << "may_miss names no coverage category: " << w;
    }
  }
  EXPECT_TRUE(gen::default_profile().may_miss.empty()) << "the default profile reaches everything";
}

// One instance per profile ('-' is not allowed in a test name).
class ByProfile : public ::testing::TestWithParam<std::string> {
 protected:
  const gen::Profile& profile() const { return gen::profile_named(GetParam()); }
};

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (c == '-') c = '_';
  return s;
}

// ============================================================================
// Generated programs, under each profile
// ============================================================================

TEST_P(ByProfile, ProgramsAreValid) {
  const gen::Profile& prof = profile();
  EXPECT_TRUE(rc::check("programs of profile " + prof.name + " pass check()", [&prof] {
    Program p = *gen::program(prof);
    std::string err = check_error(p);
    if (!err.empty()) RC_FAIL("check() rejects a generated program: " + err);
  }));
}

// A profile's programs are of its language version (SPEC §14): version 1 unless the
// profile says 2, so that campaigns of the version 1 profiles run on every target.
TEST_P(ByProfile, ProgramsAreOfTheProfilesVersion) {
  const gen::Profile& prof = profile();
  EXPECT_TRUE(prof.version == 1 || prof.version == 2);
  for (uint64_t seed = 1; seed <= 20; seed++) EXPECT_EQ(gen::generate_program(seed, prof).version, prof.version);
}

TEST_P(ByProfile, RunSettingsAreInTheProfilesRanges) {
  const gen::Profile& prof = profile();
  EXPECT_TRUE(rc::check("run settings of profile " + prof.name, [&prof] {
    RunSettings s = *gen::run_settings(prof);
    RC_ASSERT(s.turns >= prof.min_turns);
    RC_ASSERT(s.turns <= prof.max_turns);
    RC_ASSERT(s.max_processes >= prof.min_processes);
    RC_ASSERT(s.max_processes <= prof.max_processes);
  }));
}

// ============================================================================
// Deterministic generation
// ============================================================================

TEST_P(ByProfile, TheSameSeedGivesTheSameProgram) {
  const gen::Profile& prof = profile();
  std::set<std::string> distinct;
  for (uint64_t seed : {0ULL, 1ULL, 2ULL, 12345ULL, 0xffffffffffffffffULL}) {
    Program a = gen::generate_program(seed, prof), b = gen::generate_program(seed, prof);
    EXPECT_TRUE(a.checked);
    EXPECT_EQ(program_to_json(a).dump(), program_to_json(b).dump()) << "seed " << seed;
    distinct.insert(program_to_json(a).dump());
    // A copy of the profile (not the named one itself) makes the same program.
    gen::Profile copy = prof;
    EXPECT_EQ(program_to_json(gen::generate_program(seed, copy)).dump(), program_to_json(a).dump());
  }
  EXPECT_GE(distinct.size(), 4u) << "different seeds should give different programs";
}

TEST_P(ByProfile, RunsAreDistinctInRangeAndStable) {
  const gen::Profile& prof = profile();
  for (uint64_t seed : {0ULL, 7ULL, 0xffffffffffffffffULL}) {
    std::vector<RunSettings> runs = gen::generate_runs(seed, prof, 8);
    ASSERT_EQ(runs.size(), 8u);
    std::set<uint64_t> seeds;
    for (const RunSettings& r : runs) {
      seeds.insert(r.seed);
      EXPECT_GE(r.turns, prof.min_turns);
      EXPECT_LE(r.turns, prof.max_turns);
      EXPECT_GE(r.max_processes, prof.min_processes);
      EXPECT_LE(r.max_processes, prof.max_processes);
      check_settings(r);
    }
    EXPECT_EQ(seeds.size(), runs.size()) << "run seeds are distinct";
    std::vector<RunSettings> fewer = gen::generate_runs(seed, prof, 3), again = gen::generate_runs(seed, prof, 8);
    for (size_t i = 0; i < runs.size(); i++) {
      EXPECT_EQ(again[i].seed, runs[i].seed);
      EXPECT_EQ(again[i].turns, runs[i].turns);
      EXPECT_EQ(again[i].max_processes, runs[i].max_processes);
      if (i < fewer.size()) {
        EXPECT_EQ(fewer[i].seed, runs[i].seed) << "a shorter list is a prefix";
      }
    }
  }
  EXPECT_TRUE(gen::generate_runs(1, prof, 0).empty());
}

// The programs and runs of a few seeds under every profile, fingerprinted. The
// fingerprint of each GENERATOR_VERSION was recorded by another process (when the
// version was made), so equality shows that generation depends on nothing but the
// seed and the profile. When the generators change what a seed produces this test
// fails: bump GENERATOR_VERSION (generate.hpp) and record the new fingerprint.
TEST(Generate, ProgramsOfASeedArePinnedPerGeneratorVersion) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const std::string& n : gen::profile_names())
    for (uint64_t seed = 0; seed < 8; seed++) {
      const gen::Profile& prof = gen::profile_named(n);
      h = fnv1a(h, program_to_json(gen::generate_program(seed, prof)).dump());
      for (const RunSettings& r : gen::generate_runs(seed, prof, 2))
        h = fnv1a(h, std::to_string(r.seed) + "/" + std::to_string(r.turns) + "/" + std::to_string(r.max_processes));
    }
  struct Pinned {
    int version;
    uint64_t fingerprint;
  };
  const Pinned pinned[] = {{1, 0x7e3c95fd1f710ef1ULL}, {2, 0xfda4c340fb5dfeeeULL}};
  bool found = false;
  for (const Pinned& p : pinned)
    if (p.version == gen::GENERATOR_VERSION) {
      found = true;
      EXPECT_EQ(h, p.fingerprint) << std::hex << "fingerprint 0x" << h << ": the generators changed what a seed "
                                  << "produces; bump GENERATOR_VERSION in generators/generate.hpp and pin {" << std::dec
                                  << gen::GENERATOR_VERSION + 1 << ", 0x" << std::hex << h << "ULL}";
    }
  EXPECT_TRUE(found) << std::hex << "no fingerprint pinned for GENERATOR_VERSION " << std::dec << gen::GENERATOR_VERSION
                     << ": add {" << gen::GENERATOR_VERSION << ", 0x" << std::hex << h << "ULL}";
}

// ============================================================================
// Coverage: what each profile reaches on the oracle
// ============================================================================

// kPrograms programs of a profile (seeds 1..kPrograms), kRuns runs each. To
// measure a profile over more programs (nothing is asserted then but the output):
//   CONCORD_COVERAGE_PROGRAMS=5000 build/tests/oracle_profiles_test --gtest_filter='*Reaches*'
constexpr int kPrograms = 300, kRuns = 3;

int programs_to_measure() {
  const char* n = std::getenv("CONCORD_COVERAGE_PROGRAMS");
  return n ? std::atoi(n) : kPrograms;
}

Coverage coverage_of(const gen::Profile& prof, int programs) {
  Coverage cov;
  for (uint64_t seed = 1; seed <= static_cast<uint64_t>(programs); seed++) {
    Program p = gen::generate_program(seed, prof);
    cov.add_program(p);
    for (const RunSettings& r : gen::generate_runs(seed, prof, kRuns)) cov.add_result(result_to_json(run(p, r)));
  }
  return cov;
}

TEST_P(ByProfile, ReachesWhatItIsMeantTo) {
  const gen::Profile& prof = profile();
  int programs = programs_to_measure();
  Coverage cov = coverage_of(prof, programs);
  std::cout << "profile " << prof.name << " (" << prof.intent << "):\n" << cov.to_text();
  if (programs != kPrograms) return;  // a measurement
  std::vector<std::string> missed;
  for (const std::string& s : cov.blind_spots())
    if (!waived(prof, s)) missed.push_back(s);
  std::string list;
  for (const std::string& s : missed) list += " " + s;
  EXPECT_TRUE(missed.empty()) << kPrograms << " programs of profile " << prof.name << " never show:" << list;
  EXPECT_EQ(cov.programs, static_cast<uint64_t>(kPrograms));
  EXPECT_EQ(cov.results, static_cast<uint64_t>(kPrograms * kRuns));
}

INSTANTIATE_TEST_SUITE_P(Profiles, ByProfile, ::testing::ValuesIn(gen::profile_names()), test_name);

}  // namespace
}  // namespace concord
