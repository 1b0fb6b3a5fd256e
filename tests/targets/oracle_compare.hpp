// tests/targets/oracle_compare.hpp: a target's answers to programs, run by run,
// against the oracle's lines, for the targets' version 2 tests.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "oracle/text.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/protocol/backend.hpp"
#include "tests/targets/v2_programs.hpp"

namespace concord {

// What the comparisons of one test came to.
struct Tally {
  int compared = 0, refused = 0, divergent = 0;
  std::map<std::string, int> explained;  // runs per declared deviation

  std::string explained_text() const {
    std::string out;
    for (const auto& [id, n] : explained) out += (out.empty() ? "" : ", ") + id + " " + std::to_string(n);
    return out.empty() ? "none" : out;
  }
};

// Runs p on `b` (the target `target`) and compares every run with the oracle's
// line. A program the target does not support must be answered UNSUPPORTED on every
// run; a difference that one of `declared` explains is counted under its id; any
// other fails the test, once per program.
inline void compare_with_oracle(Backend& b, const std::string& target, const Program& p,
                                const std::vector<RunSettings>& runs, bool supported, Tally& t,
                                const std::vector<Deviation>& declared = {}) {
  std::vector<Answer> got = b.request(program_to_json(p), runs);
  ASSERT_EQ(got.size(), runs.size());
  if (!supported) {
    t.refused++;
    for (const Answer& a : got) EXPECT_EQ(a.code(), "UNSUPPORTED") << target << ": " << a.line;
    return;
  }
  t.compared++;
  for (size_t i = 0; i < runs.size(); i++) {
    Answer want = oracle_answer(p, runs[i]);
    if (got[i].line == want.line) continue;
    if (std::vector<const Deviation*> ex = explaining(declared, p, runs[i], got[i]); !ex.empty()) {
      t.explained[deviation_ids(ex)]++;
      continue;
    }
    t.divergent++;
    ADD_FAILURE() << print_program(p) << "\nseed " << runs[i].seed << ", turns " << runs[i].turns << ", max_processes "
                  << runs[i].max_processes << "\n  oracle: " << want.line << "\n  " << target << ": " << got[i].line;
    return;
  }
}

}  // namespace concord
