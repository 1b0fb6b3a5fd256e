// tests/runners/usage_errors_test.cpp: a command asked for something it cannot do
// says so and exits non-zero, rather than doing part of it or nothing and exiting 0
// (issue 40, defects 7 and 12).
#include <gtest/gtest.h>

#include <filesystem>

#include "runners/process/subprocess.hpp"
#include "tests/runners/run_concord.hpp"

using concord::test::run_concord;

namespace {

const std::string kProgram = std::string(concord::build_paths::source_dir) + "/corpus/hand/one_for_one_restart.conc";

// `--target A,B` is a list: every name in it runs, none is dropped. Here `bad` is a
// backend that dies at once: its run has no verdict (3), which `run` used to hide by
// running the first name only (0).
TEST(UsageErrors, RunOnATargetListRunsEveryTargetInIt) {
  auto o = run_concord({"run", kProgram, "--target", "oracle,bad", "--backend", "bad=false"});
  EXPECT_NE(o.code, 0) << o.out << o.err;
  EXPECT_NE((o.out + o.err).find("bad"), std::string::npos) << o.out << o.err;
  EXPECT_NE(o.out.find("agree   oracle"), std::string::npos) << o.out;
}

TEST(UsageErrors, AnUnknownTargetInAListIsBadInputNamingItAndTheKnownOnes) {
  auto o = run_concord({"run", kProgram, "--target", "oracle,nope"});
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("unknown target 'nope'"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("known: oracle, c,"), std::string::npos) << o.err;
}

// `buckets --again` measures what an earlier `buckets` stored: with nothing stored
// there is nothing to measure, not a table of zeros.
TEST(UsageErrors, BucketsAgainOnAnEmptyWorkFolderIsAnError) {
  concord::TempDir work("concord-usage-test");
  auto o = run_concord({"buckets", "--again", "--work", work.path(), "--only", "mailbox_lifo"});
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("nothing to measure"), std::string::npos) << o.err;
  EXPECT_EQ(o.out.find("| fault |"), std::string::npos) << o.out;
  EXPECT_TRUE(std::filesystem::is_empty(work.path())) << "--again writes nothing where it found nothing";
  auto missing = run_concord({"buckets", "--again", "--work", work.path() + "/none"});
  EXPECT_EQ(missing.code, 2) << missing.out << missing.err;
}

}  // namespace
