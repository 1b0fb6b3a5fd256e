// tests/reports/report_merge_figures_test.cpp: the figures of a summary.json
// (issue 40, defect 11). A shard with absurd figures (9223372036854775807
// programs, a negative time) was merged, and shards whose counts add up beyond
// any campaign made a merged summary of 9223372036854775822 programs. Now the
// reader refuses a count above 2^53 or a time that is negative or absurd (exit 2,
// the file and the field named), a merge refuses a sum beyond that bound, and
// what a merge writes is read back by the same reader.
#include <gtest/gtest.h>

#include <filesystem>

#include "oracle/error.hpp"
#include "runners/process/subprocess.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/reports/sample_summary.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

CommandResult merge(const std::string& into, const std::vector<std::string>& shards) {
  std::vector<std::string> argv{build_paths::concord_binary, "report", "merge", "--into", into};
  argv.insert(argv.end(), shards.begin(), shards.end());
  return run_command(Command{argv, {}, "", {}}, "", 60);
}

}  // namespace

TEST(ReportMergeFigures, AShardWithAbsurdFiguresIsRefused) {
  TempDir dir("concord-report-figures");
  std::string d = dir.path();
  test::write_summary(d + "/good", test::sample_summary(0, 10, 1, 1));
  std::vector<std::pair<std::string, ojson>> bad;
  ojson s = test::sample_summary(1, 10, 1, 1);
  s["programs"] = uint64_t{9223372036854775807u};
  s["shards"][0]["programs"] = uint64_t{9223372036854775807u};
  bad.emplace_back("/programs", s);
  s = test::sample_summary(1, 10, 1, 1);
  s["seconds"] = -3.5;
  bad.emplace_back("/seconds", s);
  s = test::sample_summary(1, 10, 1, 1);
  s["signatures"][0]["hits"] = uint64_t{1} << 60;
  bad.emplace_back("/signatures/0/hits", s);
  for (const auto& [field, summary] : bad) {
    test::write_summary(d + "/bad", summary);
    CommandResult r = merge(d + "/out", {d + "/good", d + "/bad"});
    EXPECT_EQ(r.status.code, 2) << field << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("bad/summary.json: " + field), std::string::npos) << field << "\n" << r.err;
    EXPECT_FALSE(fs::exists(d + "/out")) << field;
  }
}

// Each shard within bounds, their sum beyond: the merge refuses rather than write it.
TEST(ReportMergeFigures, SumsBeyondTheBoundAreRefused) {
  TempDir dir("concord-report-figures");
  std::string d = dir.path();
  const uint64_t big = uint64_t{5} << 50;  // 5.6e15: each below 2^53, both above
  for (uint64_t i : {0, 1}) {
    ojson s = test::sample_summary(i, 10, 1, 1);
    s["programs"] = big;
    s["shards"][0]["programs"] = big;
    test::write_summary(d + "/s" + std::to_string(i), s);
  }
  CommandResult r = merge(d + "/out", {d + "/s0", d + "/s1"});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("programs"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(d + "/out"));
}

// The summary a merge writes is one its reader takes, with the sums.
TEST(ReportMergeFigures, TheReaderTakesWhatAMergeWrites) {
  TempDir dir("concord-report-figures");
  std::string d = dir.path();
  test::write_summary(d + "/s0", test::sample_summary(0, 10, 4, 2));
  test::write_summary(d + "/s1", test::sample_summary(1, 7, 1, 3));
  CommandResult r = merge(d + "/out", {d + "/s0", d + "/s1"});
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  ojson m = read_report(d + "/out");
  EXPECT_EQ(m["programs"], 17u);
  EXPECT_EQ(m["runs"], 136u);
  EXPECT_EQ(m["signatures"][0]["hits"], 5u);
}
