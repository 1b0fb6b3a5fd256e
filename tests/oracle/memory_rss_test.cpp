// tests/oracle/memory_rss_test.cpp: the oracle's memory limit (SPEC §11) bounds what
// the process really holds (issue 40: RSS reached 1.19 GB under a 1 GiB limit):
// whatever a run grows (its journal, a mailbox flooded with messages that carry
// arguments, processes), the peak resident memory of answering it stays under the
// limit.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "oracle/interpreter.hpp"
#include "oracle/memory.hpp"
#include "tests/oracle/checked_program.hpp"
#include "tests/runners/rss_anon.hpp"

using namespace concord;
using concord::testing_rss::peak_mib;
using concord::testing_rss::reset_peak;

namespace {

constexpr int64_t kLimit = int64_t{128} << 20;

// The peak memory of answering `text`'s endless run under kLimit, in MiB above the start.
double peak_of(const std::string& text, std::string& line) {
  set_oracle_memory_limit(kLimit);
  Program p = checked(text);
  reset_peak();
  double base = peak_mib();
  line = answer_line(p, RunSettings{1, 1000000000, 10000000});
  return peak_mib() - base;
}

void expect_under_the_limit(const char* what, const std::string& text) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer's allocator changes what is resident; the normal build runs this test";
#endif
  std::string line;
  double peak = peak_of(text, line);
  EXPECT_NE(line.find("\"MEMORY\""), std::string::npos) << what << ": " << line.substr(0, 200);
  EXPECT_LT(peak, static_cast<double>(kLimit >> 20)) << what << ": MiB at the peak, limit " << (kLimit >> 20) << " MiB";
}

}  // namespace

TEST(OracleMemoryRss, AGrowingJournalStaysUnderTheLimit) {
  expect_under_the_limit("journal",
                         "kind P() { on go(a: int) { send go(a) to self; } }\nprocess a = P();\n"
                         "given go(1) to @a;\n");
}

TEST(OracleMemoryRss, AFloodedMailboxStaysUnderTheLimit) {
  expect_under_the_limit("mailbox",
                         "kind P() { on go(a: int) { repeat 1000 { send go(a) to self; } } }\nprocess a = P();\n"
                         "given go(1) to @a;\n");
}

TEST(OracleMemoryRss, ManySpawnedProcessesStayUnderTheLimit) {
  expect_under_the_limit("spawns",
                         "kind C(n: int) { state x: int = 0; on go() { } }\n"
                         "kind P() { on go() { repeat 100 { spawn C(1); } send go() to self; } }\n"
                         "process a = P();\ngiven go() to @a;\n");
}
