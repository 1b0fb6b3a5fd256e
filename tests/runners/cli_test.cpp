// tests/runners/cli_test.cpp: the concord command as a user runs it: exit codes
// (0 ok, 1 disagree, 2 bad input), located messages, reproducible output.
#include <gtest/gtest.h>

#include <boost/process.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "targets/common/build_paths.hpp"
#include "tests/runners/run_concord.hpp"

namespace fs = std::filesystem;

namespace {

using concord::test::Outcome;
using concord::test::run_concord;

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
  Outcome o = run_concord({"--help"});
  EXPECT_EQ(o.code, 0);
  EXPECT_NE(o.out.find("2  bad input"), std::string::npos);
  EXPECT_NE(o.out.find("1  results disagree"), std::string::npos);
}

// Issue 37: the version names every language version concord implements.
TEST_F(Cli, VersionNamesTheLanguageVersions) {
  Outcome o = run_concord({"--version"});
  EXPECT_EQ(o.code, 0);
  EXPECT_NE(o.out.find("language versions 1 and 2"), std::string::npos) << o.out;
}

TEST_F(Cli, CheckPrintsTheProgramBack) {
  std::string f = write("p.conc", kPing);
  Outcome o = run_concord({"check", f});
  ASSERT_EQ(o.code, 0) << o.err;
  std::string again = write("again.conc", o.out);
  Outcome o2 = run_concord({"check", again});
  EXPECT_EQ(o2.out, o.out);  // the printer's output is a fixed point
  Outcome j = run_concord({"check", f, "--json"});
  ASSERT_EQ(j.code, 0);
  Outcome fromj = run_concord({"check", write("p.json", j.out)});
  EXPECT_EQ(fromj.out, o.out);
}

TEST_F(Cli, RunIsDeterministicAndHonoursSettings) {
  std::string f = write("p.conc", kPing);
  Outcome a = run_concord({"run", f, "--seed", "0xff", "--turns", "7"});
  Outcome b = run_concord({"run", f, "--seed=255", "--turns=7"});
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out.find(R"("run":{"seed":255,"turns":7,"max_processes":10000},"outcome":"turn_limit","turns":7,)"),
            std::string::npos)
      << a.out;
  EXPECT_EQ(a.out.back(), '\n');
  EXPECT_EQ(std::count(a.out.begin(), a.out.end(), '\n'), 1);
}

TEST_F(Cli, BadInputExitsTwoWithAPlace) {
  Outcome o = run_concord({"run", write("bad.conc", "kind P() {\n  on t() { x = 1; }\n}\n")});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("bad.conc:2:12: unknown state field 'x'"), std::string::npos) << o.err;

  o = run_concord({"check", write("bad.json", R"({"concord":1,"kinds":[],"system":[],"given":[],"x":0})")});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("bad.json: /x: unknown key 'x'"), std::string::npos) << o.err;

  o = run_concord({"check", (dir_ / "missing.conc").string()});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("cannot open file"), std::string::npos);

  EXPECT_EQ(run_concord({"run", write("p.conc", kPing), "--seed", "-1"}).code, 2);
  EXPECT_EQ(run_concord({"run", write("p.conc", kPing), "--turns", "1000000001"}).code, 2);
  EXPECT_EQ(run_concord({"run", write("p.conc", kPing), "--max-processes", "0"}).code, 2);
  EXPECT_EQ(run_concord({"run", write("p.conc", kPing), "--bogus"}).code, 2);
  EXPECT_EQ(run_concord({"frobnicate"}).code, 2);
}

TEST_F(Cli, CorpusReportsDisagreementWithExitOne) {
  write("p.conc", kPing);
  // Expected result deliberately wrong in one field: turns.
  Outcome real = run_concord({"run", (dir_ / "p.conc").string(), "--turns", "3"});
  ASSERT_EQ(real.code, 0);
  std::string wrong = real.out;
  const std::string from = R"("turns":3,"journal")";
  wrong.replace(wrong.find(from), from.size(), R"("turns":4,"journal")");
  write("p.case.json",
        R"({"concord_case":1,"name":"p","about":"x","source":"p.conc","runs":[{"seed":0,"turns":3,"expect":)" + wrong +
            "}]}");
  Outcome o = run_concord({"corpus", dir_.string()});
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_NE(o.out.find("first difference at /turns"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("0 passed, 1 failed"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("reproduce: concord run"), std::string::npos) << o.out;
}

TEST_F(Cli, RunOnACaseFileReproducesItsExpectedResult) {
  std::string path = std::string(concord::build_paths::source_dir) + "/corpus/hand/one_for_one_restart.case.json";
  Outcome o = run_concord({"run", path});
  ASSERT_EQ(o.code, 0) << o.err;
  std::ifstream in(path);
  nlohmann::json c = nlohmann::json::parse(in);
  EXPECT_EQ(nlohmann::json::parse(o.out), c["runs"][0]["expect"]);
  // Options override the case's settings.
  Outcome limited = run_concord({"run", path, "--turns", "0"});
  EXPECT_EQ(nlohmann::json::parse(limited.out)["outcome"], "turn_limit");
}

TEST_F(Cli, CorpusOnEveryTargetAgreesWithTheHandDerivedResults) {
  Outcome o = run_concord({"corpus", std::string(concord::build_paths::source_dir) + "/corpus", "--target", "all"});
  EXPECT_EQ(o.code, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("cases on oracle, c, erlang, js, elixir\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find(" 0 failed"), std::string::npos) << o.out;
}

// --- hardening (issue 12): the oracle's memory limit, unreadable numbers, escaped messages

namespace {

const char* kLoop = "kind P() { on go() { send go() to self; } }\nprocess a = P();\ngiven go() to @a;\n";

std::string request_for(const std::string& program_json, const std::string& runs) {
  return R"({"concord_protocol":1,"program":)" + program_json + R"(,"runs":)" + runs + "}\n";
}

}  // namespace

TEST_F(Cli, ARunPastTheOracleMemoryLimitAnswersMemory) {
  // The audit's loop: 10^9 turns of a process that sends itself a message. It used to
  // take 19 GB and die of std::bad_alloc; now it stops at the limit, here 32 MiB.
  std::string f = write("loop.conc", kLoop);
  auto t0 = std::chrono::steady_clock::now();
  Outcome o = run_concord({"run", f, "--turns", "1000000000"}, "", {{"CONCORD_ORACLE_MEMORY", "32M"}});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(o.code, 3) << o.err;
  nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["code"], "MEMORY");
  EXPECT_NE(j["message"].get<std::string>().find("memory limit of 32 MiB"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("concord: oracle: MEMORY"), std::string::npos) << o.err;
  EXPECT_LT(seconds, 10.0);
  // The backend answers MEMORY for that run and serves the next one.
  std::string program = run_concord({"check", f, "--json"}).out;
  nlohmann::json compact = nlohmann::json::parse(program);
  Outcome b = run_concord({"backend", "oracle"},
                          request_for(compact.dump(), R"([{"seed":0,"turns":1000000000,"max_processes":5},)"
                                                      R"({"seed":0,"turns":3,"max_processes":5}])"),
                          {{"CONCORD_ORACLE_MEMORY", "32M"}});
  EXPECT_EQ(b.code, 0) << b.err;
  std::istringstream lines(b.out);
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  EXPECT_EQ(nlohmann::json::parse(first)["code"], "MEMORY") << first;
  EXPECT_EQ(nlohmann::json::parse(second)["turns"], 3) << second;
  // A malformed limit is bad input.
  Outcome bad = run_concord({"run", f}, "", {{"CONCORD_ORACLE_MEMORY", "lots"}});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("$CONCORD_ORACLE_MEMORY"), std::string::npos) << bad.err;
}

TEST_F(Cli, AnUnreadableNumberInACaseFileIsBadInputWithItsPlace) {
  std::string program = run_concord({"check", write("p.conc", kPing), "--json"}).out;
  std::string expect = run_concord({"run", (dir_ / "p.conc").string(), "--turns", "3"}).out;
  for (const std::string& seed : {std::string("1e400"), std::string(150, '9')}) {
    std::string f =
        write("big.case.json", R"({"concord_case":1,"name":"big","program":)" + program + R"(,"runs":[{"seed":)" +
                                   seed + R"(,"turns":3,"expect":)" + expect + "}]}");
    for (const char* cmd : {"check", "run"}) {
      Outcome o = run_concord({cmd, f});
      EXPECT_EQ(o.code, 2) << cmd << " " << seed.substr(0, 8) << ": " << o.err;
      EXPECT_NE(o.err.find(f + ": /runs/0/seed: "), std::string::npos) << cmd << ": " << o.err;
      EXPECT_EQ(o.err.find("internal error"), std::string::npos) << o.err;
    }
    Outcome c = run_concord({"corpus", f});
    EXPECT_EQ(c.code, 2) << c.out << c.err;
    EXPECT_NE(c.out.find("/runs/0/seed: "), std::string::npos) << c.out;
  }
  // The same number in a plain program is located too.
  Outcome o = run_concord({"check", write("big.json", R"({"concord":1,"kinds":[],"system":[],"given":[],"x":1e400})")});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("big.json: /x: number out of range"), std::string::npos) << o.err;
}

TEST_F(Cli, TheOracleBackendAnswersOneBadRequestForJsonItCannotRead) {
  std::string program = nlohmann::json::parse(run_concord({"check", write("p.conc", kPing), "--json"}).out).dump();
  std::string good = request_for(program, R"([{"seed":0,"turns":3,"max_processes":5}])");
  for (const auto& [from, to, place] :
       {std::tuple<std::string, std::string, std::string>{R"("seed":0)", R"("seed":1e400)", "/runs/0/seed"},
        {R"("turns":3)", R"("turns":3,"turns":4)", "/runs/0/turns"},
        {R"("concord_protocol":1)", R"("concord_protocol":1,"concord_protocol":1)", "/concord_protocol"}}) {
    std::string bad = good;
    bad.replace(bad.find(from), from.size(), to);
    Outcome o = run_concord({"backend", "oracle"}, bad + good);
    EXPECT_EQ(o.code, 0) << o.err;
    std::istringstream lines(o.out);
    std::string first, second, third;
    std::getline(lines, first);
    std::getline(lines, second);
    EXPECT_FALSE(std::getline(lines, third)) << "one line for the unreadable request, one for the good one";
    nlohmann::json j = nlohmann::json::parse(first);
    EXPECT_EQ(j["code"], "BAD_REQUEST") << first;
    EXPECT_NE(j["message"].get<std::string>().find(place + ": "), std::string::npos) << first;
    EXPECT_EQ(nlohmann::json::parse(second)["ok"], true) << second;
  }
  // 1.0 and 1e1 are integers (SPEC §13): the request is served.
  std::string exact = good;
  exact.replace(exact.find(R"("turns":3)"), 9, R"("turns":3.0)");
  exact.replace(exact.find(R"("max_processes":5)"), 17, R"("max_processes":5e0)");
  Outcome o = run_concord({"backend", "oracle"}, exact);
  EXPECT_NE(o.out.find(R"("run":{"seed":0,"turns":3,"max_processes":5})"), std::string::npos) << o.out;
}

TEST_F(Cli, ACaseWhoseSourceIsMissingNamesTheCaseAndThePlace) {
  std::string f = write("lost.case.json",
                        R"({"concord_case":1,"name":"lost","source":"gone.conc","runs":[{"seed":0,"expect":{}}]})");
  Outcome o = run_concord({"run", f});
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find(f + ": /source: the program file 'gone.conc' ("), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("does not exist"), std::string::npos) << o.err;
}

TEST_F(Cli, MessagesQuoteInputEscaped) {
  // A newline and a RIGHT-TO-LEFT OVERRIDE in an option, a file name, a kind name:
  // each message stays one line and shows them as escapes.
  Outcome opt = run_concord({"run", write("p.conc", kPing), "--bo\ngus\u202e"});
  EXPECT_EQ(opt.code, 2);
  EXPECT_EQ(std::count(opt.err.begin(), opt.err.end(), '\n'), 1) << opt.err;
  EXPECT_NE(opt.err.find("--bo\\ngus\\u{202e}"), std::string::npos) << opt.err;
  Outcome file = run_concord({"check", (dir_ / "no\nsuch\u202e.conc").string()});
  EXPECT_EQ(file.code, 2);
  EXPECT_EQ(std::count(file.err.begin(), file.err.end(), '\n'), 1) << file.err;
  EXPECT_NE(file.err.find("no\\nsuch\\u{202e}.conc"), std::string::npos) << file.err;
  Outcome kind = run_concord(
      {"check",
       write(
           "k.json",
           R"({"concord":1,"kinds":[{"name":"Bad\n\u202eKind","params":[],"state":[],"init":[],"handlers":[]}],"system":[],"given":[]})")});
  EXPECT_EQ(kind.code, 2);
  EXPECT_EQ(std::count(kind.err.begin(), kind.err.end(), '\n'), 1) << kind.err;
  EXPECT_NE(kind.err.find("Bad\\n\\u{202e}Kind"), std::string::npos) << kind.err;
  // A backend's message, relayed by `concord run --target`.
  std::string liar = write(
      "liar.sh",
      "#!/bin/sh\nread r\nprintf '%s\\n' '{\"ok\":false,\"code\":\"UNSUPPORTED\",\"message\":\"a\\nb\\u202ec\"}'\n");
  fs::permissions(liar, fs::perms::owner_all);
  Outcome relayed = run_concord({"run", (dir_ / "p.conc").string(), "--target", "liar", "--backend", "liar=" + liar});
  EXPECT_EQ(relayed.code, 1);
  EXPECT_NE(relayed.err.find("UNSUPPORTED: a\\nb\\u{202e}c"), std::string::npos) << relayed.err;
}
