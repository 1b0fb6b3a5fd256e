// tests/runners/run_targets_test.cpp: `concord run FILE --target ...` and
// `concord backend c|erlang` as a user runs them: one target prints its line; `all`
// compares every target with the oracle, names the first difference and exits 1.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runners/process/subprocess.hpp"
#include "runners/protocol/backend.hpp"
#include "targets/common/build_paths.hpp"

namespace fs = std::filesystem;
using namespace concord;

namespace {

const char* kPing = R"(
kind P(peer: addr) {
    state n: int = 0;
    on ping() { n = n + 1; if (n < 4) { send ping() to peer; } }
}
process a = P(@b);
process b = P(@a);
given ping() to @a;
)";

class RunTargets : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>("concord-run-targets");
    file_ = dir_->path() + "/ping.conc";
    std::ofstream(file_) << kPing;
  }
  CommandResult concord(std::vector<std::string> args, std::vector<std::pair<std::string, std::string>> env = {},
                        const std::string& input = "") {
    args.insert(args.begin(), build_paths::concord_binary);
    return run_command(Command{args, env, "", {}}, input, 60);
  }
  // A backend that is the oracle with its output passed through a sed script.
  std::string filtered(const std::string& sed) {
    return std::string("sh -c '\"") + build_paths::concord_binary + "\" backend oracle | sed -u \"" + sed + "\"'";
  }
  std::unique_ptr<TempDir> dir_;
  std::string file_;
};

}  // namespace

TEST_F(RunTargets, OneTargetPrintsItsLineLikeTheInProcessOracle) {
  CommandResult plain = concord({"run", file_, "--seed", "3"});
  CommandResult via = concord({"run", file_, "--seed", "3", "--target", "oracle"});
  ASSERT_EQ(plain.status.code, 0) << plain.err;
  EXPECT_EQ(via.status.code, 0) << via.err;
  EXPECT_EQ(via.out, plain.out);
}

TEST_F(RunTargets, AllNamesTheFirstDifferenceOfALyingBackendAndExits1) {
  CommandResult r = concord({"run", file_, "--target", "all", "--backend",
                             "lying=" + filtered("s/\\\"tag\\\":\\\"ping\\\"/\\\"tag\\\":\\\"pong\\\"/2")});
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("agree   oracle\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("DIFFER  lying\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("field tag)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("oracle: \"ping\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lying: \"pong\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("reproduce: concord run " + file_ + " --seed 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--target lying --backend"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("disagreed: lying"), std::string::npos) << r.out;
}

TEST_F(RunTargets, AllReportsADifferenceOfFormAlone) {
  CommandResult r = concord(
      {"run", file_, "--target", "all", "--backend", "spaced=" + filtered("s/,\\\"turns\\\":/, \\\"turns\\\":/")});
  EXPECT_EQ(r.status.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("DIFFER  spaced\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("same JSON value, different bytes"), std::string::npos) << r.out;
}

TEST_F(RunTargets, ACrashingBackendGivesNoVerdictAndExits3) {
  CommandResult r = concord({"run", file_, "--target", "all", "--backend", "dead=sh -c 'exit 7'"});
  EXPECT_EQ(r.status.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("UNKNOWN dead\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exited with 7"), std::string::npos) << r.out;
}

TEST_F(RunTargets, BadTargetsAndOptionsAreBadInput) {
  EXPECT_EQ(concord({"run", file_, "--target", "nope"}).status.code, 2);
  EXPECT_EQ(concord({"run", file_, "--backend", "x=true"}).status.code, 2);
  EXPECT_EQ(concord({"run", file_, "--target", "all", "--backend", "x='unterminated"}).status.code, 2);
  EXPECT_EQ(concord({"run", file_, "--target", "oracle", "--timeout", "soon"}).status.code, 2);
}

TEST_F(RunTargets, TheCBackendReportsACompilerFailurePerRun) {
  std::string request = request_line(ojson::parse(concord({"check", file_, "--json"}).out), {{0, 10, 10}, {1, 10, 10}});
  CommandResult r = concord({"backend", "c"}, {{"CONCORD_CC", "false"}}, request);
  EXPECT_EQ(r.status.code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) {
    n++;
    EXPECT_EQ(ojson::parse(line)["code"], "INTERNAL") << line;
    EXPECT_NE(line.find("cc failed"), std::string::npos) << line;
  }
  EXPECT_EQ(n, 2);
}

TEST_F(RunTargets, TheCTargetAgreesWithTheOracle) {
  CommandResult plain = concord({"run", file_, "--seed", "5"});
  CommandResult c = concord({"run", file_, "--seed", "5", "--target", "c"});
  EXPECT_EQ(c.status.code, 0) << c.out << c.err;
  EXPECT_EQ(c.out, plain.out);
}

TEST_F(RunTargets, TheErlangTargetAgreesWithTheOracle) {
  CommandResult plain = concord({"run", file_, "--seed", "5"});
  CommandResult erlang = concord({"run", file_, "--seed", "5", "--target", "erlang"});
  EXPECT_EQ(erlang.status.code, 0) << erlang.out << erlang.err;
  EXPECT_EQ(erlang.out, plain.out);
}

TEST_F(RunTargets, AllRunsEveryBuiltInTarget) {
  CommandResult r = concord({"run", file_, "--seed", "5", "--target", "all"});
  EXPECT_EQ(r.status.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("agreed with the oracle: oracle, c, erlang, js, elixir\n"), std::string::npos) << r.out;
}
