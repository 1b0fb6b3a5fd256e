// tests/oracle/profiles_test.cpp: the named generator profiles
// (generators/profile.hpp) and deterministic generation (generators/generate.hpp):
// under every profile, generated programs pass check() and stay within the
// profile's bounds; over a fixed sample of seeds run on the oracle, each profile
// reaches everything it is meant to (runners/campaign/coverage.hpp: no blind spots but the
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
#include "runners/campaign/coverage.hpp"
#include "runners/campaign/failure.hpp"
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
  EXPECT_EQ(gen::profile_names(), (std::vector<std::string>{"default", "supervision", "spawn-heavy", "arith",
                                                            "dynamic-supervision", "scale", "v2", "links", "calls"}));
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
    const gen::Profile& drawn = gen::profile_of_seed(seed, prof);  // a scale program gets at most max_runs
    ASSERT_EQ(runs.size(), drawn.max_runs > 0 ? std::min<size_t>(8, static_cast<size_t>(drawn.max_runs)) : 8u);
    std::set<uint64_t> seeds;
    for (const RunSettings& r : runs) {
      seeds.insert(r.seed);
      EXPECT_GE(r.turns, drawn.min_turns);
      EXPECT_LE(r.turns, drawn.max_turns);
      EXPECT_GE(r.max_processes, drawn.min_processes);
      EXPECT_LE(r.max_processes, drawn.max_processes);
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

// The programs and runs of a few seeds under each profile, fingerprinted. The
// fingerprint of each profile at each GENERATOR_VERSION was recorded by another
// process (when the version or the profile was made), so equality shows that
// generation depends on nothing but the seed and the profile. When the generators
// change what a seed produces this test fails: bump GENERATOR_VERSION (generate.hpp)
// and record the new fingerprints. A new profile only adds its own line.
uint64_t profile_fingerprint(const std::string& name, uint64_t h = 0xcbf29ce484222325ULL) {
  const gen::Profile& prof = gen::profile_named(name);
  for (uint64_t seed = 0; seed < 8; seed++) {
    h = fnv1a(h, program_to_json(gen::generate_program(seed, prof)).dump());
    for (const RunSettings& r : gen::generate_runs(seed, prof, 2))
      h = fnv1a(h, std::to_string(r.seed) + "/" + std::to_string(r.turns) + "/" + std::to_string(r.max_processes));
  }
  return h;
}

TEST(Generate, ProgramsOfASeedArePinnedPerGeneratorVersion) {
  struct Pinned {
    int version;
    const char* profile;
    uint64_t fingerprint;
  };
  const Pinned pinned[] = {
      // Version 1's four first profiles hash, chained in this order, to 0x7e3c95fd1f710ef1,
      // the single fingerprint version 1 was first pinned with.
      {1, "default", 0x3c2ff2d05f1e5ad3ULL},
      {1, "supervision", 0xfe42506e1aadda1eULL},
      {1, "spawn-heavy", 0x13f22aeb3273c177ULL},
      {1, "arith", 0xb6612060b30b0496ULL},
      {1, "dynamic-supervision", 0x61d68ccc82dd43bcULL},
      // Version 2: the default profile mixes in scale programs (profile.hpp), the scale
      // profile is new; the other profiles give what they gave at version 1.
      {2, "default", 0x30460e5697a44beeULL},
      {2, "supervision", 0xfe42506e1aadda1eULL},
      {2, "spawn-heavy", 0x13f22aeb3273c177ULL},
      {2, "arith", 0xb6612060b30b0496ULL},
      {2, "dynamic-supervision", 0x61d68ccc82dd43bcULL},
      {2, "scale", 0xfb616e93e17f5328ULL},
      {2, "v2", 0x57cb90291555edfdULL},  // version 2 programs (v2.hpp)
      // Version 3: v2 programs get a server their calls reach (v2_server.hpp); the
      // other profiles give what they gave at version 2.
      {3, "default", 0x30460e5697a44beeULL},
      {3, "supervision", 0xfe42506e1aadda1eULL},
      {3, "spawn-heavy", 0x13f22aeb3273c177ULL},
      {3, "arith", 0xb6612060b30b0496ULL},
      {3, "dynamic-supervision", 0x61d68ccc82dd43bcULL},
      {3, "scale", 0xfb616e93e17f5328ULL},
      {3, "v2", 0x2d24a9bd99c0ba46ULL},
      {3, "links", 0x4d9be71250117173ULL},  // new profiles of version 2 (issues 15, 16)
      {3, "calls", 0x2adc02bda9773491ULL},
  };
  for (const std::string& n : gen::profile_names()) {
    uint64_t h = profile_fingerprint(n);
    bool found = false;
    for (const Pinned& p : pinned)
      if (p.version == gen::GENERATOR_VERSION && n == p.profile) {
        found = true;
        EXPECT_EQ(h, p.fingerprint) << std::hex << "profile " << n << ", fingerprint 0x" << h
                                    << ": the generators changed what a seed produces; bump GENERATOR_VERSION in "
                                    << "generators/generate.hpp and pin the new fingerprints";
      }
    EXPECT_TRUE(found) << std::hex << "no fingerprint pinned for profile " << n << " at GENERATOR_VERSION " << std::dec
                       << gen::GENERATOR_VERSION << ": add {" << gen::GENERATOR_VERSION << ", \"" << n << "\", 0x"
                       << std::hex << h << "ULL}";
  }
}

// ============================================================================
// Coverage: what each profile reaches on the oracle
// ============================================================================

// kPrograms programs of a profile (seeds 1..kPrograms; a scale profile's are a
// hundred times larger, so kScalePrograms of them; a version 2 profile has twice
// the categories, several of them a few per hundred programs (a call that ends in a
// deadlock, a callee that stops with normal), so kV2Programs), kRuns runs each (or
// the profile's max_runs). To measure a profile over more programs (nothing is
// asserted then but the output):
//   CONCORD_COVERAGE_PROGRAMS=5000 build/tests/oracle_profiles_test --gtest_filter='*Reaches*'
constexpr int kPrograms = 300, kScalePrograms = 12, kV2Programs = 1000, kRuns = 3;

int programs_to_measure(const gen::Profile& prof) {
  const char* n = std::getenv("CONCORD_COVERAGE_PROGRAMS");
  return n ? std::atoi(n) : prof.scale ? kScalePrograms : prof.version >= 2 ? kV2Programs : kPrograms;
}

Coverage coverage_of(const gen::Profile& prof, int programs, uint64_t& runs) {
  Coverage cov;
  runs = 0;
  for (uint64_t seed = 1; seed <= static_cast<uint64_t>(programs); seed++) {
    Program p = gen::generate_program(seed, prof);
    cov.add_program(p);
    for (const RunSettings& r : gen::generate_runs(seed, prof, kRuns)) {
      RunResult result = run(p, r);
      RunSize size = run_size(*result.world);
      cov.add_result(result_to_json(result), &size);
      runs++;
    }
  }
  return cov;
}

TEST_P(ByProfile, ReachesWhatItIsMeantTo) {
  const gen::Profile& prof = profile();
  int programs = programs_to_measure(prof);
  uint64_t runs = 0;
  Coverage cov = coverage_of(prof, programs, runs);
  std::cout << "profile " << prof.name << " (" << prof.intent << "):\n" << cov.to_text();
  if (std::getenv("CONCORD_COVERAGE_PROGRAMS")) return;  // a measurement
  std::vector<std::string> missed;
  for (const std::string& s : cov.blind_spots())
    if (!waived(prof, s)) missed.push_back(s);
  std::string list;
  for (const std::string& s : missed) list += " " + s;
  EXPECT_TRUE(missed.empty()) << programs << " programs of profile " << prof.name << " never show:" << list;
  EXPECT_EQ(cov.programs, static_cast<uint64_t>(programs));
  EXPECT_EQ(cov.results, runs);
  uint64_t asked = 0;  // kRuns, or the max_runs of the profile the seed's program is drawn from
  for (uint64_t seed = 1; seed <= static_cast<uint64_t>(programs); seed++) {
    const gen::Profile& drawn = gen::profile_of_seed(seed, prof);
    asked += static_cast<uint64_t>(drawn.max_runs > 0 ? std::min(kRuns, drawn.max_runs) : kRuns);
  }
  EXPECT_EQ(runs, asked);
}

// The default profile mixes scale programs in (profile.hpp scale_one_in): about one
// seed in scale_one_in gives the scale profile's program and its runs (at most
// max_runs), and the choice is the seed's alone.
TEST(Profiles, TheDefaultMixesScaleProgramsInAtItsRate) {
  const gen::Profile& d = gen::default_profile();
  const gen::Profile& scale = gen::profile_named("scale");
  ASSERT_GT(d.scale_one_in, 1);
  int mixed = 0, seeds = 4000;
  for (uint64_t seed = 0; seed < static_cast<uint64_t>(seeds); seed++) {
    const gen::Profile& p = gen::profile_of_seed(seed, d);
    ASSERT_TRUE(&p == &d || &p == &scale) << seed;
    if (&p != &scale) continue;
    mixed++;
    if (mixed <= 3) {
      EXPECT_EQ(gen::generate_runs(seed, d, 8).size(), static_cast<size_t>(scale.max_runs)) << seed;
      EXPECT_EQ(program_to_json(gen::generate_program(seed, d)), program_to_json(gen::generate_program(seed, scale)));
    }
  }
  double expected = static_cast<double>(seeds) / d.scale_one_in;
  EXPECT_GT(mixed, expected * 0.7);
  EXPECT_LT(mixed, expected * 1.3);
  for (const std::string& n : gen::profile_names()) {
    if (n == "default") continue;
    EXPECT_EQ(&gen::profile_of_seed(12345, gen::profile_named(n)), &gen::profile_named(n)) << n;
  }
}

INSTANTIATE_TEST_SUITE_P(Profiles, ByProfile, ::testing::ValuesIn(gen::profile_names()), test_name);

}  // namespace
}  // namespace concord
