// generators/generate.hpp: deterministic generation outside RapidCheck properties,
// for fuzzing campaigns and corpus files: the program of a seed under a profile,
// and the run settings to run it with. The same seed and profile give the same
// program in every process (the generators draw from rc::Random alone), as long as
// GENERATOR_VERSION and the RapidCheck build stay the same.
#pragma once

#include <cstdint>
#include <mutex>
#include <set>
#include <vector>

#include "generators/profile.hpp"
#include "generators/programs.hpp"
#include "oracle/check.hpp"
#include "oracle/splitmix.hpp"
#include "oracle/state.hpp"

namespace concord::gen {

// Bump whenever the generators change what a seed produces (any change to a
// generator, a pool or a named profile); corpus files record it, so a case can
// say which generator made it. tests/oracle/profiles_test.cpp pins a fingerprint
// of the programs of a few seeds per version and fails when they change.
constexpr int GENERATOR_VERSION = 1;
constexpr int kGeneratorVersion = GENERATOR_VERSION;  // the same, in the codebase's constant style

/// The program of `seed` under profile `p`, at the profile's size, checked (its
/// resolved fields are filled; check() accepts every generated program). Safe to
/// call from several threads: RapidCheck keeps the state of `*gen` inside
/// rc::gen::exec in process-wide stacks, so generation takes a lock.
inline Program generate_program(uint64_t seed, const Profile& p) {
  static std::mutex rapidcheck_state;
  Program prog;
  {
    std::lock_guard<std::mutex> lock(rapidcheck_state);
    prog = program(p)(rc::Random(seed), p.size).value();
  }
  check(prog);
  return prog;
}

/// `count` run settings for the program of `seed`: distinct seeds drawn from a
/// SplitMix64 started at `seed`, each run's turn and process limits drawn from the
/// same stream within the profile's ranges. Run i depends only on `seed`, `p` and
/// i: a longer list starts with the shorter one.
inline std::vector<RunSettings> generate_runs(uint64_t seed, const Profile& p, int count) {
  SplitMix64 g{seed};
  auto in_range = [&g](int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(g.next() % static_cast<uint64_t>(hi - lo + 1));
  };
  std::vector<RunSettings> out;
  std::set<uint64_t> seen;
  while (static_cast<int>(out.size()) < count) {
    RunSettings r;
    r.seed = g.next();
    r.turns = in_range(p.min_turns, p.max_turns);
    r.max_processes = in_range(p.min_processes, p.max_processes);
    if (seen.insert(r.seed).second) out.push_back(r);
  }
  return out;
}

}  // namespace concord::gen
