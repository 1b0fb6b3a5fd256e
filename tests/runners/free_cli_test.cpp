// tests/runners/free_cli_test.cpp: free runs (SPEC §25) on the command line, as a user
// meets them: `check-trace` and its exit codes (0 admissible, 1 not, 2 not a trace),
// `run --mode free`, `corpus --mode free` on a free case, `fuzz --mode free` and
// its report folder, `triage` of a free case. The oracle serves free runs with its
// conducted runs as traces (§25.1), so none of this needs a BEAM node; the erlang
// target's free mode is tested under the erlang label (free_corpus_erlang,
// free_campaign_erlang in tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/runners/run_concord.hpp"

namespace fs = std::filesystem;

namespace {

using concord::test::Outcome;
using concord::test::run_concord;

const char* kFeed = R"(
kind Log() {
    state got: int = 0;
    on put(x: int) { got = got * 10 + x; }
}
kind Feeder(log: addr) {
    on go() { send put(1) to log; send put(2) to log; }
}
process log = Log();
process a = Feeder(@log);
given go() to @a;
)";

class FreeCli : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("concord_free_cli_" + std::to_string(::getpid()) + "_" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    prog_ = write("feed.conc", kFeed);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& content) {
    fs::path p = dir_ / name;
    std::ofstream(p) << content;
    return p.string();
  }
  // The oracle's trace of kFeed, parsed.
  nlohmann::ordered_json trace() {
    Outcome o = run_concord({"run", prog_, "--mode", "free"});
    EXPECT_EQ(o.code, 0) << o.err;
    return nlohmann::ordered_json::parse(o.out);
  }
  fs::path dir_;
  std::string prog_;
};

TEST_F(FreeCli, CheckTraceSaysAdmissibleAndExitsZero) {
  std::string t = write("t.json", trace().dump() + "\n");
  Outcome o = run_concord({"check-trace", prog_, t});
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find(t + ":1: admissible (2 incarnations, 3 turns, 3 messages handled, 0 dropped)"),
            std::string::npos)
      << o.out;
}

TEST_F(FreeCli, CheckTraceNamesTheGuaranteeAndThePlaceAndExitsOne) {
  nlohmann::ordered_json j = trace();
  auto& log = j["workers"][0];
  ASSERT_EQ(log["name"], "log");
  std::swap(log["events"][0], log["events"][1]);  // a's two messages, handled in the other order
  log["state"]["got"] = 21;
  std::string t = write("t.json", j.dump() + "\n" + trace().dump() + "\n");  // two traces: the second is fine
  Outcome o = run_concord({"check-trace", prog_, t});
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_NE(o.out.find(t + ":1: NOT ADMISSIBLE"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("G4 pair order: log#1 handled a#1's 1st message to it (effect 1, put) after a#1's 2nd message"),
            std::string::npos)
      << o.out;
  EXPECT_NE(o.out.find(t + ":2: admissible"), std::string::npos) << o.out;
}

TEST_F(FreeCli, AMalformedTraceOrAnErrorAnswerIsBadInputWithItsPlace) {
  nlohmann::ordered_json j = trace();
  j["workers"][1]["events"][1]["n"] = 5;
  Outcome o = run_concord({"check-trace", prog_, write("t.json", j.dump() + "\n")});
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("t.json:1: /workers/1/events/1/n: effect number 5 where 1 is next"), std::string::npos) << o.err;
  o = run_concord({"check-trace", prog_,
                   write("e.json", R"({"ok":false,"code":"TIMEOUT","message":"slow"})"
                                   "\n")});
  EXPECT_EQ(o.code, 2) << o.out << o.err;
  EXPECT_NE(o.err.find("an error answer, not a trace: TIMEOUT: slow"), std::string::npos) << o.err;
  o = run_concord({"check-trace", prog_, write("n.json", "{\"ok\":tru")});
  EXPECT_EQ(o.code, 2) << o.err;
}

TEST_F(FreeCli, RunModeFreeOnATargetCountsVerdictsAndDistinctTraces) {
  Outcome o = run_concord(
      {"run", prog_, "--mode", "free", "--target", "oracle", "--runs", "4", "--keep", (dir_ / "kept").string()});
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("oracle: 4 free run(s): 4 admissible, 0 not admissible; 1 distinct trace(s)"), std::string::npos)
      << o.out;
  EXPECT_TRUE(fs::exists(dir_ / "kept" / "oracle-run-4.trace.json"));
  // A target without free runs answers UNSUPPORTED: no verdict on it, said so.
  o = run_concord({"run", prog_, "--mode", "free", "--target", "js", "--runs", "2"});
  EXPECT_NE(o.out.find("UNSUPPORTED"), std::string::npos) << o.out;
  EXPECT_EQ(o.code, 1) << o.out;  // UNSUPPORTED is a definite answer
}

TEST_F(FreeCli, AFreeCampaignOnTheOracleFindsNothingAndWritesItsReport) {
  fs::path report = dir_ / "report";
  Outcome o =
      run_concord({"fuzz", "--mode", "free", "--target", "oracle", "--cases", "12", "--jobs", "2", "--seed", "5",
                   "--runs", "2", "--corpus", (dir_ / "corpus").string(), "--report", report.string(), "--quiet"});
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("oracle: 24 free runs, 24 admissible, 0 not admissible"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("nothing found: no file written"), std::string::npos) << o.out;
  auto summary = nlohmann::json::parse(std::ifstream(report / "summary.json"));
  EXPECT_EQ(summary["mode"], "free");
  EXPECT_EQ(summary["programs"], 12);
  EXPECT_TRUE(summary["findings"].empty());
  EXPECT_TRUE(fs::exists(report / "index.html"));
  EXPECT_FALSE(fs::exists(dir_ / "corpus"));
}

TEST_F(FreeCli, AFreeCaseIsCheckedByCorpusAndShownByTriage) {
  nlohmann::ordered_json prog = nlohmann::ordered_json::parse(run_concord({"check", prog_, "--json"}).out);
  nlohmann::ordered_json witness = trace();
  std::swap(witness["workers"][0]["events"][0], witness["workers"][0]["events"][1]);
  witness["workers"][0]["state"]["got"] = 21;
  nlohmann::ordered_json c = {{"concord_free_case", 1},
                              {"name", "feed_swapped"},
                              {"about", "log handled a's messages in the other order"},
                              {"signature", "mine:free:G4 pair order"},
                              {"violation", "G4 pair order: ..."},
                              {"status", "regression"},
                              {"program", prog},
                              {"run", {{"seed", 0}, {"turns", 100}, {"max_processes", 10}}},
                              {"free_runs", 3},
                              {"witness", witness}};
  fs::create_directories(dir_ / "corpus");
  std::string file = write("corpus/feed_swapped.free.json", c.dump(2));
  Outcome o = run_concord({"corpus", (dir_ / "corpus").string(), "--mode", "free", "--target", "oracle", "--verbose"});
  EXPECT_EQ(o.code, 0) << o.out << o.err;  // the oracle's free runs of it are admissible: the regression holds there
  EXPECT_NE(o.out.find("ok    feed_swapped  (oracle 3 runs, 1 distinct trace)"), std::string::npos) << o.out;
  o = run_concord({"triage", file, "--html", (dir_ / "t.html").string()});
  EXPECT_EQ(o.code, 2) << o.out;  // no target named: the kept witness only, and says so
  EXPECT_NE(o.out.find("G4 pair order: log#1 handled a#1's 1st message"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find(">>   1. deliver put(2) from a#1 (its effect 2)"), std::string::npos) << o.out;
  std::ifstream page(dir_ / "t.html");
  std::string html((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
  EXPECT_NE(html.find("side by side"), std::string::npos);
}

}  // namespace
