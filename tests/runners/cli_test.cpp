// tests/runners/cli_test.cpp: the concord command as a user runs it: exit codes
// (0 ok, 1 disagree, 2 bad input), located messages, reproducible output.
#include <gtest/gtest.h>

#include <boost/process.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace bp = boost::process;
namespace fs = std::filesystem;

namespace {

struct Outcome {
  int code;
  std::string out, err;
};

Outcome concord(const std::vector<std::string>& args) {
  bp::ipstream out, err;
  bp::child c(CONCORD_BINARY, bp::args(args), bp::std_out > out, bp::std_err > err, bp::std_in < bp::null);
  std::stringstream o, e;
  std::string line;
  while (std::getline(out, line)) o << line << "\n";
  while (std::getline(err, line)) e << line << "\n";
  c.wait();
  return {c.exit_code(), o.str(), e.str()};
}

class Cli : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("concord_cli_" + std::to_string(::getpid()) + "_" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& content) {
    fs::path p = dir_ / name;
    std::ofstream(p) << content;
    return p.string();
  }
  fs::path dir_;
};

const char* kPing = R"(
kind P(peer: addr) {
    state n: int = 0;
    on ping() { n = n + 1; send ping() to peer; }
}
process a = P(@b);
process b = P(@a);
given ping() to @a;
)";

}  // namespace

TEST_F(Cli, HelpListsTheExitCodes) {
  Outcome o = concord({"--help"});
  EXPECT_EQ(o.code, 0);
  EXPECT_NE(o.out.find("2  bad input"), std::string::npos);
  EXPECT_NE(o.out.find("1  results disagree"), std::string::npos);
}

TEST_F(Cli, CheckPrintsTheProgramBack) {
  std::string f = write("p.conc", kPing);
  Outcome o = concord({"check", f});
  ASSERT_EQ(o.code, 0) << o.err;
  std::string again = write("again.conc", o.out);
  Outcome o2 = concord({"check", again});
  EXPECT_EQ(o2.out, o.out);  // the printer's output is a fixed point
  Outcome j = concord({"check", f, "--json"});
  ASSERT_EQ(j.code, 0);
  Outcome fromj = concord({"check", write("p.json", j.out)});
  EXPECT_EQ(fromj.out, o.out);
}

TEST_F(Cli, RunIsDeterministicAndHonoursSettings) {
  std::string f = write("p.conc", kPing);
  Outcome a = concord({"run", f, "--seed", "0xff", "--turns", "7"});
  Outcome b = concord({"run", f, "--seed=255", "--turns=7"});
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out.find(R"("run":{"seed":255,"turns":7,"max_processes":10000},"outcome":"turn_limit","turns":7,)"),
            std::string::npos)
      << a.out;
  EXPECT_EQ(a.out.back(), '\n');
  EXPECT_EQ(std::count(a.out.begin(), a.out.end(), '\n'), 1);
}

TEST_F(Cli, BadInputExitsTwoWithAPlace) {
  Outcome o = concord({"run", write("bad.conc", "kind P() {\n  on t() { x = 1; }\n}\n")});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("bad.conc:2:12: unknown state field 'x'"), std::string::npos) << o.err;

  o = concord({"check", write("bad.json", R"({"concord":1,"kinds":[],"system":[],"given":[],"x":0})")});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("bad.json: /x: unknown key 'x'"), std::string::npos) << o.err;

  o = concord({"check", (dir_ / "missing.conc").string()});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("cannot open file"), std::string::npos);

  EXPECT_EQ(concord({"run", write("p.conc", kPing), "--seed", "-1"}).code, 2);
  EXPECT_EQ(concord({"run", write("p.conc", kPing), "--turns", "1000000001"}).code, 2);
  EXPECT_EQ(concord({"run", write("p.conc", kPing), "--max-processes", "0"}).code, 2);
  EXPECT_EQ(concord({"run", write("p.conc", kPing), "--bogus"}).code, 2);
  EXPECT_EQ(concord({"frobnicate"}).code, 2);
}

TEST_F(Cli, CorpusReportsDisagreementWithExitOne) {
  write("p.conc", kPing);
  // Expected result deliberately wrong in one field: turns.
  Outcome real = concord({"run", (dir_ / "p.conc").string(), "--turns", "3"});
  ASSERT_EQ(real.code, 0);
  std::string wrong = real.out;
  const std::string from = R"("turns":3,"journal")";
  wrong.replace(wrong.find(from), from.size(), R"("turns":4,"journal")");
  write("p.case.json",
        R"({"concord_case":1,"name":"p","about":"x","source":"p.conc","runs":[{"seed":0,"turns":3,"expect":)" + wrong +
            "}]}");
  Outcome o = concord({"corpus", dir_.string()});
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("first difference at /turns"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("0 passed, 1 failed"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("reproduce: concord run"), std::string::npos) << o.out;
}

TEST_F(Cli, RunOnACaseFileReproducesItsExpectedResult) {
  std::string path = std::string(CONCORD_SOURCE_DIR) + "/corpus/hand/one_for_one_restart.case.json";
  Outcome o = concord({"run", path});
  ASSERT_EQ(o.code, 0) << o.err;
  std::ifstream in(path);
  nlohmann::json c = nlohmann::json::parse(in);
  EXPECT_EQ(nlohmann::json::parse(o.out), c["runs"][0]["expect"]);
  // Options override the case's settings.
  Outcome limited = concord({"run", path, "--turns", "0"});
  EXPECT_EQ(nlohmann::json::parse(limited.out)["outcome"], "turn_limit");
}

TEST_F(Cli, CorpusOnEveryTargetAgreesWithTheHandDerivedResults) {
  Outcome o = concord({"corpus", std::string(CONCORD_SOURCE_DIR) + "/corpus", "--target", "all"});
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("cases on oracle, c, erlang, js, elixir\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find(" 0 failed"), std::string::npos) << o.out;
}
