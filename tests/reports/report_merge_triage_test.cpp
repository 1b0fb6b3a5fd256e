// tests/reports/report_merge_triage_test.cpp: `concord report merge` copies each
// signature's triage page from its shard's folder (issue 40, defect 5). A page a
// shard's summary.json names outside that folder (absolute, `..`, a symbolic link
// out) was copied into the merged report, whatever file it was; now the shard is
// refused (exit 2, its summary.json and the field named) and nothing is written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runners/process/subprocess.hpp"
#include "targets/common/build_paths.hpp"
#include "tests/reports/sample_summary.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

CommandResult merge(const std::string& into, const std::string& shard) {
  return run_command(Command{{build_paths::concord_binary, "report", "merge", "--into", into, shard}, {}, "", {}}, "",
                     60);
}

}  // namespace

TEST(ReportMergeTriage, APageOutsideTheShardsFolderIsRefused) {
  TempDir dir("concord-report-triage");
  std::string d = dir.path();
  std::ofstream(d + "/secret.txt") << "root:x:0:0\n";
  fs::create_directories(d + "/link/triage");
  fs::create_symlink(d + "/secret.txt", d + "/link/triage/div_1.html");
  for (const auto& [shard, page] : std::vector<std::pair<std::string, std::string>>{
           {"abs", d + "/secret.txt"}, {"up", "../secret.txt"}, {"link", "triage/div_1.html"}}) {
    ojson s = test::sample_summary(0, 10, 1, 1);
    s["signatures"][0]["triage"] = page;
    test::write_summary(d + "/" + shard, s);
    CommandResult r = merge(d + "/out", d + "/" + shard);
    EXPECT_EQ(r.status.code, 2) << shard << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(shard + "/summary.json: /signatures/0/triage"), std::string::npos) << shard << "\n" << r.err;
    EXPECT_FALSE(fs::exists(d + "/out")) << shard;
  }
}

// A page inside the shard's folder is still copied.
TEST(ReportMergeTriage, APageInsideTheShardsFolderIsCopied) {
  TempDir dir("concord-report-triage");
  std::string d = dir.path();
  ojson s = test::sample_summary(0, 10, 1, 1);
  s["signatures"][0]["triage"] = "triage/div_1.html";
  test::write_summary(d + "/s0", s);
  fs::create_directories(d + "/s0/triage");
  std::ofstream(d + "/s0/triage/div_1.html") << "<p>page</p>\n";
  CommandResult r = merge(d + "/out", d + "/s0");
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_TRUE(fs::exists(d + "/out/triage/div_1.html"));
}
