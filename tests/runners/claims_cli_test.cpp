// tests/runners/claims_cli_test.cpp: a backend that claims part of the language
// ("supports", runners/PROTOCOL.md "What a backend claims") on the command line:
// `concord corpus` skips and counts what it does not claim, `concord run --target`
// exits 4 on it, `concord fuzz` does not compare it there and counts it, and refuses a
// profile it claims nothing of. The backend is the oracle declared as claiming
// version 1 without features, so every difference would be the claims' doing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "generators/generate.hpp"
#include "oracle/program_json.hpp"
#include "runners/campaign/campaign.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/supports.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

class Claims : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("concord_claims_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "corpus");
    for (const char* c : {"hand/drops", "hand/one_for_one_restart", "hand_v2/call_reply_resume"})
      for (const char* ext : {".case.json", ".conc"}) {
        fs::path from = fs::path(build_paths::source_dir) / "corpus" / (std::string(c) + ext);
        fs::copy_file(from, dir_ / "corpus" / from.filename());
      }
    std::ofstream(dir_ / "backends.json")
        << R"({"backends":{"partial":{"command":[")" << build_paths::concord_binary
        << R"(","backend","oracle"],"supports":{"versions":[1],"features":[]}},"full":{"command":[")"
        << build_paths::concord_binary << R"(","backend","oracle"]}}})";
  }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult concord(std::vector<std::string> args) {
    args.insert(args.begin(), build_paths::concord_binary);
    args.push_back("--backends");
    args.push_back((dir_ / "backends.json").string());
    return run_command(Command{args, {}, dir_.string(), {}}, "", 300);
  }
  std::string at(const std::string& f) const { return (dir_ / "corpus" / f).string(); }

  fs::path dir_;
};

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

}  // namespace

TEST_F(Claims, CorpusSkipsAndCountsTheCasesATargetDoesNotClaim) {
  CommandResult r = concord({"corpus", at(""), "--target", "partial"});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "SKIP  one_for_one_restart on partial: not claimed (it uses supervisors)\n")) << r.out;
  EXPECT_TRUE(has(r.out, "SKIP  call_reply_resume on partial: not claimed (it uses version 2, calls)\n")) << r.out;
  EXPECT_TRUE(has(r.out, "1 passed, 0 failed, 2 skipped (not claimed by partial)\n")) << r.out;
  // A case no target claims: nothing run, exit 4 (a ctest test of it is skipped).
  CommandResult one = concord({"corpus", at("call_reply_resume.case.json"), "--target", "partial"});
  EXPECT_EQ(one.status.code, 4) << one.out << one.err;
  // With a target that claims everything, each case runs where it is claimed.
  CommandResult two = concord({"corpus", at(""), "--target", "partial,full"});
  EXPECT_EQ(two.status.code, 0) << two.out << two.err;
  EXPECT_TRUE(has(two.out, "3 passed, 0 failed, 0 skipped (not claimed by partial: 2 cases)\n")) << two.out;
}

TEST_F(Claims, RunOnATargetThatDoesNotClaimTheProgramSaysSoAndExits4) {
  CommandResult r = concord({"run", at("call_reply_resume.conc"), "--target", "partial"});
  EXPECT_EQ(r.status.code, 4) << r.out << r.err;
  EXPECT_TRUE(has(r.err,
                  "not run: partial does not claim this program: it uses version 2, calls (partial claims "
                  "version 1, no features)"))
      << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(concord({"run", at("drops.conc"), "--target", "partial"}).status.code, 0);
  CommandResult list = concord({"run", at("one_for_one_restart.conc"), "--target", "partial,full"});
  EXPECT_EQ(list.status.code, 0) << list.out << list.err;
  EXPECT_TRUE(has(list.out, "not claimed partial does not claim this program: it uses supervisors")) << list.out;
  EXPECT_TRUE(has(list.out, "agree   full\n")) << list.out;
}

TEST_F(Claims, FuzzRefusesAProfileNoTargetClaims) {
  CommandResult r = concord({"fuzz", "--profile", "v2", "--cases", "5", "--target", "partial", "--no-report"});
  EXPECT_EQ(r.status.code, 2) << r.out << r.err;
  EXPECT_TRUE(has(r.err,
                  "--profile: profile v2: no chosen target claims any of its programs (the first 5 of this "
                  "campaign looked at); partial claims version 1, no features, and case 0 uses version 2"))
      << r.err;
}

TEST_F(Claims, FuzzDoesNotCompareATargetOnWhatItDoesNotClaimAndCountsIt) {
  constexpr uint64_t kSeed = 5, kCases = 24;
  Supports v1;
  v1.everything = v1.version2 = false;
  uint64_t expected = 0;  // the campaign's programs that use a supervisor
  for (uint64_t i = 0; i < kCases; i++)
    expected += !unclaimed(v1, gen::generate_program(case_seed(kSeed, i), gen::profile_named("default"))).empty();
  ASSERT_GT(expected, 0u);
  ASSERT_LT(expected, kCases);
  CommandResult r =
      concord({"fuzz", "--seed", std::to_string(kSeed), "--cases", std::to_string(kCases), "--target", "partial",
               "--jobs", "1", "--no-shrink", "--quiet", "--corpus", "found", "--report", "report"});
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_TRUE(has(r.out, "not claimed by partial: " + std::to_string(expected) + " of 24 programs")) << r.out;
  std::ifstream in(dir_ / "report" / "summary.json");
  ojson summary = ojson::parse(in);
  EXPECT_EQ(summary["not_claimed"]["partial"], expected) << summary["not_claimed"].dump();
}
