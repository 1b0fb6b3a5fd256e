// tests/runners/answer_memory_test.cpp: what an answer line costs the harness is
// bounded by the oracle's memory limit, not by the line (issue 40, defect 4): a
// backend printing a 60 MB result for a run whose answer may be that long (an
// endless run: the bound is the limit itself) used to be read whole and parsed
// into a JSON tree about 14 times its size. Now a line is read and parsed only up
// to a sixteenth of the limit; past it the answer is MEMORY (no verdict, or a
// failure on a small run), naming the backend, the run and the limit.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "oracle/memory.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/protocol/answer_bound.hpp"
#include "runners/protocol/backend.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/oracle/checked_program.hpp"
#include "tests/runners/rss_anon.hpp"

using namespace concord;
using concord::testing_rss::peak_mib;
using concord::testing_rss::reset_peak;

namespace {

constexpr int64_t kLimit = int64_t{64} << 20;

BackendSpec huge(size_t bytes) {
  BackendSpec s;
  s.name = "huge";
  s.command = {"python3", std::string(build_paths::source_dir) + "/tests/runners/faulty_backend.py",
               "huge:" + std::to_string(bytes), build_paths::concord_binary};
  s.run_timeout = 60;
  s.request_timeout = 120;
  return s;
}

}  // namespace

TEST(AnswerMemory, AHugeAnswerCostsABoundedBufferAndIsMemoryNamingBackendRunAndLimit) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer's allocator changes what is resident; the normal build runs this test";
#endif
  set_oracle_memory_limit(kLimit);
  Program ping = checked(
      "kind P(peer: addr) { on ping() { send ping() to peer; } }\n"
      "process a = P(@b);\nprocess b = P(@a);\ngiven ping() to @a;\n");
  RunSettings endless{3, 1000000000, 10};
  ASSERT_EQ(answer_bytes_bound(ping, endless), static_cast<size_t>(kLimit)) << "a line this long may be correct";
  Backend b(huge(60u << 20));
  ASSERT_TRUE(b.request(program_to_json(ping), {RunSettings{0, 0, 1}}).size() ==
              1);  // started: python's memory is its own
  reset_peak();
  double base = peak_mib();
  std::vector<Answer> got = b.request(program_to_json(ping), {endless});
  double grown = peak_mib() - base;
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].code(), "MEMORY") << got[0].line.substr(0, 300);
  std::string message = got[0].json.value("message", "");
  EXPECT_NE(message.find("huge: run 0"), std::string::npos) << message;
  EXPECT_NE(message.find("4 MiB"), std::string::npos) << message;
  EXPECT_NE(message.find("CONCORD_ORACLE_MEMORY"), std::string::npos) << message;
  // A sixteenth of the limit read, nothing parsed: far below the limit, where the
  // line and its tree took more than ten times it.
  EXPECT_LT(grown, 24) << "MiB more at the peak, for a limit of " << (kLimit >> 20) << " MiB";
}

// The oracle's own line is held to the same limit: it is parsed too.
TEST(AnswerMemory, TheOraclesResultPastTheLimitIsNotParsed) {
  set_oracle_memory_limit(kLimit);
  Program ping = checked(
      "kind P(peer: addr) { on ping() { send ping() to peer; } }\n"
      "process a = P(@b);\nprocess b = P(@a);\ngiven ping() to @a;\n");
  Answer small = oracle_answer(ping, RunSettings{0, 1000, 10});
  EXPECT_TRUE(small.ok()) << small.line.substr(0, 200);
  Answer big = oracle_answer(ping, RunSettings{0, 100000, 10});  // about 9 MB of journal
  EXPECT_EQ(big.code(), "MEMORY") << big.line.substr(0, 200);
  EXPECT_NE(big.json.value("message", "").find("4 MiB"), std::string::npos) << big.line;
}
