// oracle/splitmix.hpp: the run's generator, SplitMix64 (SPEC §8.3). Each
// scheduling choice takes exactly one draw; nothing else draws.
#pragma once

#include <cstdint>

namespace concord {

struct SplitMix64 {
  uint64_t state;  // starts as the run's seed

  uint64_t next() {
    state += 0x9e3779b97f4a7c15ULL;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
};

}  // namespace concord
