// runners/shrink/shrink_passes.hpp: the shrinker's passes, each a generator of candidates
// (smaller variants of a case) in a fixed order. A pass only transforms: it never
// runs the interestingness test and never checks validity (the driver,
// shrink.cpp, does both); a candidate that breaks a rule of SPEC §4 is simply
// thrown away there, so a pass may propose one.
#pragma once

#include <cstddef>
#include <vector>

#include "oracle/program.hpp"
#include "oracle/state.hpp"

namespace concord {

// A case as the passes see it: the program checked (types and slots resolved),
// and its runs.
struct ShrinkState {
  Program program;
  std::vector<RunSettings> runs;
};

// Turns `s`, a copy of the current case, into the pass's n-th candidate (n from 0).
// Returns false, leaving `s` unspecified, when the pass has fewer than n+1.
// The candidates of one case are the same on every call, and none equals the case.
using PassFn = bool (*)(ShrinkState& s, size_t n);

struct ShrinkPass {
  const char* name;
  PassFn make;
};

// The pass `names` (shrink_rename.cpp): its n-th candidate renames one kind,
// declared process or supervisor, tag or variable to a shorter readable name
// (kinds A, B, ...; processes and supervisors a, b, ...; tags m, n, ...; variables
// x, y, ...), with every use of it.
bool rename_name(ShrinkState& s, size_t n);
// How far along those sequences the program's names are, summed (a name of none
// counts 1000): the driver's last tie-break, so that b becomes a once a is free.
size_t name_rank(const Program& p);

// Every pass, coarse to fine: the order in which the driver runs them.
const std::vector<ShrinkPass>& shrink_passes();

}  // namespace concord
