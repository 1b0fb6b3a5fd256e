// tests/oracle/result_test.cpp: the two writers of a result agree: the direct
// canonical writer (result_line) and the JSON tree (result_to_json) dumped
// compactly, over every corpus program at several seeds and turn limits.
#include <gtest/gtest.h>

#include "oracle/interpreter.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;

TEST(Result, LineWriterEqualsTheJsonTreeOnTheCorpus) {
  std::vector<std::string> files = find_cases(std::string(build_paths::source_dir) + "/corpus");
  ASSERT_GE(files.size(), 30u);
  int compared = 0;
  for (const std::string& f : files) {
    Case c = load_case(f);
    for (uint64_t seed : {0ULL, 1ULL, 0xffffffffffffffffULL})
      for (int64_t turns : {0, 3, 1000}) {
        RunResult r = run(c.program, RunSettings{seed, turns, 5});
        ASSERT_EQ(result_line(r), result_to_json(r).dump() + "\n") << f << " seed " << seed << " turns " << turns;
        compared++;
      }
  }
  EXPECT_EQ(compared, static_cast<int>(files.size()) * 9);
}

TEST(Result, ErrorLineIsCanonical) {
  EXPECT_EQ(error_line("BAD_REQUEST", "turn limit \"x\"\n"),
            "{\"ok\":false,\"code\":\"BAD_REQUEST\",\"message\":\"turn limit \\\"x\\\"\\n\"}\n");
}
