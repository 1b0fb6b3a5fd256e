// runners/shrink/shrink.hpp: the shrinker, a C-Reduce/C-Vise-style reducer of test cases
// (a program and its runs), generic over an interestingness test. Passes
// (shrink_passes.hpp) propose smaller candidates; the driver tests them, keeps the
// first interesting one and runs every pass again until a whole round keeps nothing.
//
// The result depends only on the start and the test, never on `jobs` or timing
// (short of max_seconds): candidates are tested in batches, and of a batch the
// first interesting one in enumeration order wins, as if tested one by one.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "oracle/program_json.hpp"
#include "oracle/state.hpp"

namespace concord {

struct ShrinkCase {
  ojson program;  // JSON form of a program (program_to_json)
  std::vector<RunSettings> runs;
};

// Decides whether a candidate is still interesting (shows the same divergence).
// Called only with candidates that parse and pass check(). Must be callable from
// the worker thread it was made for.
using InterestingFn = std::function<bool(const ShrinkCase&)>;

struct ShrinkOptions {
  int jobs = 1;                                        // worker threads testing candidates in parallel
  std::function<InterestingFn(int worker)> make_test;  // one test per worker, made on its thread and kept
  double max_seconds = 0;  // 0: no limit; else stop after that (keeping the best so far), between batches
  std::function<void(const std::string&)> log;  // optional progress lines (pass name, size); may be empty
};

struct ShrinkStats {
  size_t size_before = 0, size_after = 0;            // program_size
  size_t processes_before = 0, processes_after = 0;  // process_count
  size_t runs_before = 0, runs_after = 0;
  size_t tests = 0;     // calls of the test, the check of the start included
  size_t accepted = 0;  // candidates kept
  size_t invalid = 0;   // candidates never tested: invalid programs, or not smaller than the current case
  double seconds = 0;   // wall time
  bool timed_out = false;
};

struct ShrinkResult {
  ShrinkCase shrunk;  // program in canonical JSON form
  ShrinkStats stats;
};

// Throws std::invalid_argument when the start is not interesting (make_test(0) says
// no) or has no runs, and InputError when its program is invalid. Exceptions of the
// test itself propagate.
ShrinkResult shrink(const ShrinkCase& start, const ShrinkOptions& opt);

// Nodes: declarations (roots and children), kinds, fields, parameters (of kinds and
// handlers), handlers, statements, expressions, given messages.
size_t program_size(const Program& p);
// Declared processes plus spawn statements: how many processes the program makes.
size_t process_count(const Program& p);

}  // namespace concord
