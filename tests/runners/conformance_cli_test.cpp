// tests/runners/conformance_cli_test.cpp: `concord conformance`, the scoreboard, as a
// runtime author runs it. The backends are the oracle (which must score 100%), the
// oracle declared as claiming version 1 without features (what it does not claim is
// skipped, never judged), and tests/runners/faulty_backend.py, which relays to the
// oracle but crashes on every program with a spawn statement (each such program is a
// failure, bucketed, with its case and triage page). The hand cases are three, of
// known content: drops (version 1, no feature), one_for_one_restart (version 1,
// supervisors), call_reply_resume (version 2, calls).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "oracle/program_json.hpp"
#include "runners/process/subprocess.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

class Conformance : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("concord_conformance_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "corpus");
    for (const char* c : {"hand/drops", "hand/one_for_one_restart", "hand_v2/call_reply_resume"})
      for (const char* ext : {".case.json", ".conc"}) {
        fs::path from = fs::path(build_paths::source_dir) / "corpus" / (std::string(c) + ext);
        fs::copy_file(from, dir_ / "corpus" / from.filename());
      }
    std::string concord = build_paths::concord_binary;
    std::string faulty = std::string(build_paths::source_dir) + "/tests/runners/faulty_backend.py";
    std::ofstream(dir_ / "backends.json")
        << R"({"backends":{"partial":{"command":[")" << concord
        << R"(","backend","oracle"],"supports":{"versions":[1],"features":[]}},"full":{"command":[")" << concord
        << R"(","backend","oracle"]},"crashy":{"command":["python3",")" << faulty << R"(","crash",")" << concord
        << R"("]}}})";
  }
  void TearDown() override { fs::remove_all(dir_); }

  CommandResult concord(std::vector<std::string> args) {
    args.insert(args.begin(), build_paths::concord_binary);
    args.insert(args.begin() + 1, "conformance");
    args.push_back("--backends");
    args.push_back((dir_ / "backends.json").string());
    return run_command(Command{args, {}, dir_.string(), {}}, "", 600);
  }
  static const ojson& target(const ojson& j, const std::string& name) {
    for (const ojson& t : j["targets"])
      if (t["target"] == name) return t;
    throw std::runtime_error("no target " + name);
  }
  static const ojson& row(const ojson& t, const std::string& what) {
    for (const ojson& r : t["rows"])
      if (r["what"] == what) return r;
    throw std::runtime_error("no row " + what);
  }
  static ojson tally(int pass, int fail, int skip) {
    return ojson{{"pass", pass}, {"fail", fail}, {"skip", skip}, {"deviation", 0}};
  }

  fs::path dir_;
};

}  // namespace

TEST_F(Conformance, WhatATargetDoesNotClaimIsSkippedAndTheRestJudgedByRow) {
  CommandResult r = concord({"--target", "partial,full", "--corpus", "corpus", "--programs", "0", "--json"});
  ASSERT_EQ(r.status.code, 0) << r.out << r.err;
  ojson j = ojson::parse(r.out);
  EXPECT_EQ(j["hand_cases"], 3);
  const ojson& partial = target(j, "partial");
  EXPECT_EQ(partial["claims"], "version 1, no features");
  EXPECT_EQ(partial["total"]["hand"], tally(1, 0, 2));  // drops alone is claimed
  EXPECT_EQ(row(partial, "version 1")["hand"], tally(1, 0, 1));
  EXPECT_EQ(row(partial, "version 2")["hand"], tally(0, 0, 1));
  EXPECT_EQ(row(partial, "supervisors")["hand"], tally(0, 0, 1));
  EXPECT_EQ(row(partial, "calls")["hand"], tally(0, 0, 1));
  EXPECT_EQ(row(partial, "links")["hand"], tally(0, 0, 0));
  const ojson& full = target(j, "full");
  EXPECT_EQ(full["total"]["hand"], tally(3, 0, 0));
  EXPECT_EQ(row(full, "version 2")["hand"], tally(1, 0, 0));
  EXPECT_EQ(row(full, "calls")["hand"], tally(1, 0, 0));
  EXPECT_TRUE(full["failures"].empty());
}

TEST_F(Conformance, GeneratedProgramsAreACampaignsAndEachFailureHasItsBucketCaseAndPage) {
  fs::path out = dir_ / "board";
  CommandResult r = concord({"--target", "crashy", "--no-corpus", "--profile", "spawn-heavy", "--programs", "2",
                             "--runs", "2", "--out", out.string()});
  ASSERT_EQ(r.status.code, 1) << r.out << r.err;  // something failed
  ojson j = ojson::parse(std::ifstream(out / "conformance.json"));
  const ojson& crashy = target(j, "crashy");
  EXPECT_EQ(j["generated_programs"], 2);
  int failed = crashy["total"]["generated"]["fail"].get<int>();
  EXPECT_GT(failed, 0) << r.out;
  ASSERT_EQ(crashy["failures"].size(), static_cast<size_t>(failed));
  for (const ojson& f : crashy["failures"]) {
    EXPECT_EQ(f["bucket"].get<std::string>().rfind("crash", 0), 0u) << f.dump();
    // The case is the campaign's: `concord fuzz --seed 1 --profile spawn-heavy ... --case i`.
    EXPECT_NE(f["reproduce"].get<std::string>().find("concord fuzz --seed 1 --profile spawn-heavy "
                                                     "--seeds-per-program 2 --case "),
              std::string::npos);
    ASSERT_TRUE(fs::exists(f["case"].get<std::string>())) << f.dump();
    ASSERT_FALSE(f["triage"].get<std::string>().empty()) << f.dump();
    EXPECT_TRUE(fs::exists(out / f["triage"].get<std::string>()));
  }
  for (const char* file : {"index.html", "conformance.md"}) EXPECT_TRUE(fs::exists(out / file)) << file;
  // The terminal names the bucket and the page.
  EXPECT_NE(r.out.find("FAIL spawn-heavy #"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("triage: triage/"), std::string::npos) << r.out;
}

TEST_F(Conformance, BadInputIsRefusedBeforeAnythingRuns) {
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"--target", "full", "--profile", "nosuch"},
                                             {"--target", "full", "--corpus", "no/such/folder"},
                                             {"--target", "full", "--runs", "0"},
                                             {"--target", "full", "--json", "--markdown"},
                                             {"--target", "full", "--no-corpus", "--programs", "0"},
                                             {"--target", "nosuch"}}) {
    CommandResult r = concord(args);
    EXPECT_EQ(r.status.code, 2) << args[2] << ": " << r.out << r.err;
    EXPECT_EQ(r.out, "");
  }
}
