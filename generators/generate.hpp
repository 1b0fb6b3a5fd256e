// generators/generate.hpp: deterministic generation outside RapidCheck properties,
// for fuzzing campaigns and corpus files: the program of a seed under a profile,
// and the run settings to run it with. The same seed and profile give the same
// program in every process (the generators draw from rc::Random alone), as long as
// GENERATOR_VERSION and the RapidCheck build stay the same.
//
// Also the generators of whole programs and run settings as functions compiled
// once (generators/generate.cpp): instantiating the generator templates costs a
// compiler about a minute and a half, so code that only needs a program, a
// RapidCheck property over programs or a campaign includes this light header, not
// programs.hpp.
#pragma once

#include <rapidcheck/Gen.h>

#include <cstdint>
#include <ostream>
#include <vector>

#include "generators/profile.hpp"
#include "oracle/program.hpp"
#include "oracle/state.hpp"

namespace concord::gen {

// Bump whenever the generators change what a seed produces (any change to a
// generator, a pool or a named profile); corpus files record it, so a case can
// say which generator made it. tests/oracle/profiles_test.cpp pins a fingerprint
// of the programs of a few seeds per version and fails when they change.
constexpr int GENERATOR_VERSION = 3;                  // 3: v2 programs have a server (v2_server.hpp)
constexpr int kGeneratorVersion = GENERATOR_VERSION;  // the same, in the codebase's constant style

/// gen::program(p) of programs.hpp (default: the default profile).
rc::Gen<Program> any_program(const Profile& p);
rc::Gen<Program> any_program();
/// gen::run_settings() of settings.hpp.
rc::Gen<RunSettings> any_run_settings();

/// The profile a seed's program is drawn from: `p`, or, for about one seed in
/// p.scale_one_in, the "scale" profile (profile.hpp), whose runs it then gets too.
const Profile& profile_of_seed(uint64_t seed, const Profile& p);

/// The program of `seed` under profile `p` (profile_of_seed), at the profile's size, checked (its
/// resolved fields are filled; check() accepts every generated program). Safe to
/// call from several threads: RapidCheck keeps the state of `*gen` inside
/// rc::gen::exec in process-wide stacks, so generation takes a lock.
Program generate_program(uint64_t seed, const Profile& p);

/// `count` run settings for the program of `seed` (at most the max_runs of its
/// profile_of_seed): distinct seeds drawn from a SplitMix64 started at `seed`, each
/// run's turn and process limits drawn from the same stream within that profile's
/// ranges. Run i depends only on `seed`, `p` and i: a longer list starts with the
/// shorter one.
std::vector<RunSettings> generate_runs(uint64_t seed, const Profile& p, int count);

}  // namespace concord::gen

namespace concord {
// RapidCheck prints counterexamples with showValue (found by ADL): programs as text.
void showValue(const Program& p, std::ostream& os);
void showValue(const RunSettings& r, std::ostream& os);
}  // namespace concord
