// generators/settings.hpp: random run settings (SPEC §8.2): any 64-bit seed, and
// a turn limit and a process limit in the profile's ranges (the default profile:
// 0..200 and 1..50), small enough that a run of a generated program takes well
// under a millisecond and that SYSTEM_LIMIT occurs.
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>

#include "generators/basics.hpp"
#include "generators/generate.hpp"  // showValue(RunSettings)
#include "generators/profile.hpp"
#include "oracle/state.hpp"

namespace concord::gen {

/// Any seed: small ones, the edges 0 and 2^64-1, or anywhere in the range.
/// Shrinks toward 0.
inline rc::Gen<uint64_t> seed() {
  return weighted<uint64_t>({{1, rc::gen::element<uint64_t>(0, std::numeric_limits<uint64_t>::max())},
                             {2, rc::gen::scale(0.1, rc::gen::arbitrary<uint64_t>())},
                             {5, rc::gen::resize(rc::kNominalSize, rc::gen::arbitrary<uint64_t>())}});
}

/// A turn limit in the profile's min_turns..max_turns. Shrinks toward the minimum.
inline rc::Gen<int64_t> turn_limit(const Profile& pr = default_profile()) {
  return rc::gen::inRange<int64_t>(pr.min_turns, pr.max_turns + 1);
}

/// A process limit in the profile's min_processes..max_processes. Shrinks toward
/// the minimum.
inline rc::Gen<int64_t> process_limit(const Profile& pr = default_profile()) {
  return rc::gen::inRange<int64_t>(pr.min_processes, pr.max_processes + 1);
}

/// Run settings, the three parts independent, limits in the profile's ranges.
/// Shrinks each part.
inline rc::Gen<RunSettings> run_settings(const Profile& pr = default_profile()) {
  return rc::gen::apply(
      [](uint64_t s, int64_t t, int64_t p) {
        return RunSettings{s, t, p};
      },
      seed(), turn_limit(pr), process_limit(pr));
}

}  // namespace concord::gen

