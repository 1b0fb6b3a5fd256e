// tests/runners/backend_test.cpp: the harness side of the protocol against fake
// backends, small shell scripts written by each test. Each misbehaves on its first
// start only and then execs `concord backend oracle`, so one test shows the fault
// recorded with the right code for the right runs, the process group killed, and a
// fresh backend answering the next request. Every test must end within seconds and
// leave no child process and no temporary directory behind.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "runners/protocol/answer_bound.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"

namespace fs = std::filesystem;
using namespace concord;

namespace {

const char* kPing = R"(
kind P(peer: addr) {
    state n: int = 0;
    on ping() { n = n + 1; if (n < 5) { send ping() to peer; } }
}
supervisor root one_for_one intensity 2 {
    permanent process a = P(@b);
    permanent process b = P(@a);
}
given ping() to @a;
)";

const std::vector<RunSettings> kRuns = {{1, 100, 10}, {2, 3, 10}, {0xffffffffffffffffULL, 100, 10}};

// Is any process of group `pgid` alive (not a zombie)? Reads /proc/*/stat.
bool group_alive(pid_t pgid) {
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::ifstream in(e.path() / "stat");
    std::string stat;
    if (!std::getline(in, stat)) continue;
    size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 1));
    char state;
    long ppid, pgrp;
    if (rest >> state >> ppid >> pgrp && pgrp == pgid && state != 'Z' && state != 'X') return true;
  }
  return false;
}

bool group_dies_soon(pid_t pgid) {
  for (int i = 0; i < 100; i++) {
    if (!group_alive(pgid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

class FakeBackend : public testing::Test {
 protected:
  void SetUp() override {
    started_ = Clock::now();
    dir_ = fs::temp_directory_path() / ("concord_backend_test_" + std::to_string(::getpid()) + "_" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tmp");
    const char* old = std::getenv("TMPDIR");
    old_tmpdir_ = old ? old : "";
    ::setenv("TMPDIR", (dir_ / "tmp").c_str(), 1);  // the harness's temp dirs go here
    program_ = program_to_json(program_from_source(kPing, "ping.conc"));
    Program p = program_from_source(kPing, "ping.conc");
    for (const RunSettings& r : kRuns) {
      std::string line = result_line(run(p, r));
      line.pop_back();
      oracle_.push_back(line);
    }
  }

  void TearDown() override {
    double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    EXPECT_LT(seconds, 4.0) << "the harness must not wait for a misbehaving backend";
    int status;
    errno = 0;
    EXPECT_EQ(::waitpid(-1, &status, WNOHANG), -1) << "a child process was left unreaped";
    EXPECT_EQ(errno, ECHILD);
    EXPECT_TRUE(fs::is_empty(dir_ / "tmp")) << "a temporary directory was left behind";
    if (old_tmpdir_.empty())
      ::unsetenv("TMPDIR");
    else
      ::setenv("TMPDIR", old_tmpdir_.c_str(), 1);
    fs::remove_all(dir_);
  }

  // A backend that runs `misbehave` on its first start (recording its pid, which is
  // its process group), and is `concord backend oracle` afterwards.
  BackendSpec fake(const std::string& misbehave, double run_timeout = 1.0) {
    std::string name = testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::path script = dir_ / (name + ".sh");
    std::ofstream(script) << "#!/bin/sh\n"
                          << "CONCORD='" << build_paths::concord_binary << "'\n"
                          << "if [ -e '" << (dir_ / "started").string()
                          << "' ]; then exec \"$CONCORD\" backend oracle; fi\n"
                          << "echo $$ > '" << (dir_ / "started").string() << "'\n"
                          << misbehave << "\n";
    fs::permissions(script, fs::perms::owner_all);
    BackendSpec s;
    s.name = name;
    s.command = {script.string()};
    s.run_timeout = run_timeout;
    s.request_timeout = 10 * run_timeout;
    return s;
  }

  pid_t first_pid() {
    std::ifstream in(dir_ / "started");
    pid_t pid = -1;
    in >> pid;
    return pid;
  }

  // The fault's process group is gone, and a fresh backend answers like the oracle.
  void expect_recovery(Backend& b) {
    EXPECT_TRUE(group_dies_soon(first_pid())) << "the misbehaving backend's process group survived";
    std::vector<Answer> again = b.request(program_, kRuns);
    ASSERT_EQ(again.size(), kRuns.size());
    for (size_t i = 0; i < kRuns.size(); i++) EXPECT_EQ(again[i].line, oracle_[i]) << "run " << i;
    EXPECT_EQ(b.starts(), 2);
  }

  static void expect_codes(const std::vector<Answer>& got, const std::vector<std::string>& codes) {
    ASSERT_EQ(got.size(), codes.size());
    for (size_t i = 0; i < codes.size(); i++) EXPECT_EQ(got[i].code(), codes[i]) << "run " << i << ": " << got[i].line;
  }

  fs::path dir_;
  std::string old_tmpdir_;
  Clock::time_point started_;
  ojson program_;
  std::vector<std::string> oracle_;  // the oracle's line per run of kRuns
};

}  // namespace

TEST_F(FakeBackend, AGoodBackendAnswersEveryRunLikeTheOracleAndStaysUp) {
  Backend b(fake("exec \"$CONCORD\" backend oracle"));
  for (int round = 0; round < 2; round++) {
    std::vector<Answer> got = b.request(program_, kRuns);
    ASSERT_EQ(got.size(), kRuns.size());
    for (size_t i = 0; i < kRuns.size(); i++) {
      EXPECT_EQ(got[i].line, oracle_[i]);
      EXPECT_TRUE(got[i].ok());
    }
  }
  EXPECT_EQ(b.starts(), 1);
}

TEST_F(FakeBackend, ExitingAtOnceIsACrashWithItsStatusAndStderr) {
  Backend b(fake("echo 'cannot find my runtime' >&2; exit 1"));
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"CRASH", "CRASH", "CRASH"});
  std::string msg = got[0].json["message"];
  EXPECT_NE(msg.find("exited with 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("cannot find my runtime"), std::string::npos) << msg;
  EXPECT_EQ(msg.rfind(b.spec().name + ": ", 0), 0u) << msg;
  expect_recovery(b);
}

TEST_F(FakeBackend, HangingIsATimeoutAndItsWholeGroupIsKilled) {
  Backend b(fake("read request; sleep 30"));  // sleep is a child of the script: a group kill is needed
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"TIMEOUT", "TIMEOUT", "TIMEOUT"});
  expect_recovery(b);
}

TEST_F(FakeBackend, HalfALineThenExitIsBadOutputThenCrash) {
  Backend b(fake("read request; printf '{\"ok\":tr'; exit 0"));
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"BAD_OUTPUT", "CRASH", "CRASH"});
  std::string msg = got[0].json["message"];
  EXPECT_NE(msg.find("inside a line"), std::string::npos) << msg;
  EXPECT_NE(got[1].json["message"].get<std::string>().find("exited with 0"), std::string::npos);
  expect_recovery(b);
}

TEST_F(FakeBackend, NonJsonIsBadOutput) {
  Backend b(fake("read request; echo 'hello, harness'; sleep 30"));
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"BAD_OUTPUT", "BAD_OUTPUT", "BAD_OUTPUT"});
  EXPECT_NE(got[0].json["message"].get<std::string>().find("not JSON"), std::string::npos);
  expect_recovery(b);
}

TEST_F(FakeBackend, JsonThatIsNotAResultIsBadOutput) {
  Backend b(fake("read request; echo '{\"hello\":1}'; sleep 30"));
  expect_codes(b.request(program_, kRuns), {"BAD_OUTPUT", "BAD_OUTPUT", "BAD_OUTPUT"});
  expect_recovery(b);
}

TEST_F(FakeBackend, AnErrorWithAnUnknownCodeIsBadOutput) {
  Backend b(fake("read request; echo '{\"ok\":false,\"code\":\"OOPS\",\"message\":\"\"}'; sleep 30"));
  expect_codes(b.request(program_, kRuns), {"BAD_OUTPUT", "BAD_OUTPUT", "BAD_OUTPUT"});
  expect_recovery(b);
}

TEST_F(FakeBackend, AResultForAnotherRunIsBadOutput) {
  // The answer to the second run, given first: lines out of order.
  Backend b(fake("read request; printf '%s\\n' \"$request\" | \"$CONCORD\" backend oracle | sed -n 2p; sleep 30"));
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"BAD_OUTPUT", "BAD_OUTPUT", "BAD_OUTPUT"});
  EXPECT_NE(got[0].json["message"].get<std::string>().find("out of order"), std::string::npos) << got[0].line;
  expect_recovery(b);
}

TEST_F(FakeBackend, KillingItselfIsACrashNamingTheSignal) {
  Backend b(fake("read request; kill -9 $$"));
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"CRASH", "CRASH", "CRASH"});
  EXPECT_NE(got[0].json["message"].get<std::string>().find("killed by signal 9"), std::string::npos) << got[0].line;
  expect_recovery(b);
}

TEST_F(FakeBackend, FewerLinesThanRunsThenHangingKeepsTheAnswersGiven) {
  Backend b(fake("read request; printf '%s\\n' \"$request\" | \"$CONCORD\" backend oracle | head -n 1; sleep 30"));
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"", "TIMEOUT", "TIMEOUT"});
  EXPECT_EQ(got[0].line, oracle_[0]);
  expect_recovery(b);
}

TEST_F(FakeBackend, TheRequestTimeoutBoundsASlowBackend) {
  // The third answer comes 5 s late: within its run timeout (10 s), but the request
  // timeout (1 s) runs out first.
  BackendSpec s = fake(
      "read request; i=0; printf '%s\\n' \"$request\" | \"$CONCORD\" backend oracle |"
      " while read -r l; do i=$((i+1)); if [ $i -eq 3 ]; then sleep 5; fi; printf '%s\\n' \"$l\"; done",
      10);
  s.request_timeout = 1;
  Backend b(s);
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"", "", "TIMEOUT"});
  EXPECT_NE(got[2].json["message"].get<std::string>().find("request timeout"), std::string::npos) << got[2].line;
  expect_recovery(b);
}

TEST_F(FakeBackend, ACommandThatCannotStartIsACrash) {
  BackendSpec s;
  s.name = "missing";
  s.command = {(dir_ / "no-such-backend").string()};
  Backend b(s);
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"CRASH", "CRASH", "CRASH"});
  EXPECT_EQ(b.starts(), 0);
}

TEST_F(FakeBackend, TheOracleBackendAnswersInvalidProgramsAndBadRunsPerRun) {
  BackendSpec s;
  s.name = "oracle";
  s.command = {build_paths::concord_binary, "backend", "oracle"};
  Backend b(s);
  ojson bad = program_;
  bad["system"][0]["supervisor"]["children"][0]["process"]["kind"] = "Nope";
  std::vector<Answer> got = b.request(bad, kRuns);
  expect_codes(got, {"INVALID_PROGRAM", "INVALID_PROGRAM", "INVALID_PROGRAM"});
  EXPECT_NE(got[0].json["message"].get<std::string>().find("/system/0"), std::string::npos) << got[0].line;
  std::vector<RunSettings> runs = kRuns;
  runs[1].turns = -1;
  runs[2].max_processes = 0;
  got = b.request(program_, runs);
  expect_codes(got, {"", "BAD_REQUEST", "BAD_REQUEST"});
  EXPECT_EQ(got[0].line, oracle_[0]);
  EXPECT_EQ(b.starts(), 1);  // errors in requests are answers, not faults
}

TEST_F(FakeBackend, TheOracleBackendEqualsConcordRunForEachRun) {
  fs::path file = dir_ / "ping.conc";
  std::ofstream(file) << kPing;
  BackendSpec s;
  s.name = "oracle";
  s.command = {build_paths::concord_binary, "backend", "oracle"};
  Backend b(s);
  std::vector<Answer> got = b.request(program_, kRuns);
  ASSERT_EQ(got.size(), kRuns.size());
  for (size_t i = 0; i < kRuns.size(); i++) {
    CommandResult r = run_command(
        Command{{build_paths::concord_binary, "run", file.string(), "--seed", std::to_string(kRuns[i].seed), "--turns",
                 std::to_string(kRuns[i].turns), "--max-processes", std::to_string(kRuns[i].max_processes)},
                {},
                "",
                {}},
        "", 10);
    ASSERT_EQ(r.status.code, 0) << r.err;
    EXPECT_EQ(got[i].line + "\n", r.out) << "run " << i;
  }
}

// --- the backend's whole process tree (runners/process/reaper.hpp) and the size of an answer

namespace {

bool process_alive(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return false;
  size_t close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z' && stat[close + 2] != 'X';
}

bool dies_soon(pid_t pid) {
  for (int i = 0; i < 100; i++) {
    if (!process_alive(pid)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

pid_t pid_in(const fs::path& file) {
  for (int i = 0; i < 200 && !fs::exists(file); i++) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::ifstream in(file);
  pid_t pid = -1;
  in >> pid;
  return pid;
}

}  // namespace

TEST_F(FakeBackend, ExitingWhileAChildHoldsStdoutIsACrashAtOnce) {
  // The child keeps the backend's stdout open for 60 s; the backend's own exit is
  // what counts, and the child goes with it. The run timeout (30 s) is far above
  // the bound below, so a loaded machine cannot blur at once with at the timeout.
  fs::path child = dir_ / "child.pid";
  Backend b(fake("read request; sh -c 'echo $$ > " + child.string() + "; exec sleep 60' & sleep 0.2; exit 3", 30.0));
  auto t0 = Clock::now();
  std::vector<Answer> got = b.request(program_, kRuns);
  double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  expect_codes(got, {"CRASH", "CRASH", "CRASH"});
  EXPECT_NE(got[0].json["message"].get<std::string>().find("exited with 3"), std::string::npos) << got[0].line;
  EXPECT_LT(seconds, 4.0) << "the exit must be seen at once, not at the run timeout (30 s)";
  pid_t pid = pid_in(child);
  ASSERT_GT(pid, 0);
  EXPECT_TRUE(dies_soon(pid)) << "the child that held stdout outlived its backend";
  expect_recovery(b);
}

TEST_F(FakeBackend, AChildInASessionOfItsOwnDiesWithTheBackend) {
  // setsid: a new session and process group, out of reach of a group kill.
  fs::path child = dir_ / "child.pid";
  Backend b(fake("read request; setsid sh -c 'echo $$ > " + child.string() +
                 "; exec sleep 30' < /dev/null > /dev/null 2>&1 & sleep 0.2; exit 0"));
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"CRASH", "CRASH", "CRASH"});
  pid_t pid = pid_in(child);
  ASSERT_GT(pid, 0);
  EXPECT_TRUE(dies_soon(pid)) << "a process the backend started in its own session outlived it";
  expect_recovery(b);
}

TEST_F(FakeBackend, AHangingBackendsDetachedChildDiesWhenItIsKilled) {
  // The backend hangs (TIMEOUT) after starting a daemon-like grandchild: the kill
  // that ends the backend ends the grandchild too.
  fs::path child = dir_ / "child.pid";
  Backend b(fake("read request; (setsid sh -c 'echo $$ > " + child.string() +
                 "; exec sleep 30' < /dev/null > /dev/null 2>&1 &); sleep 30"));
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"TIMEOUT", "TIMEOUT", "TIMEOUT"});
  pid_t pid = pid_in(child);
  ASSERT_GT(pid, 0);
  EXPECT_TRUE(dies_soon(pid)) << "an orphaned grandchild outlived the killed backend";
  expect_recovery(b);
}

TEST_F(FakeBackend, AnAnswerLongerThanTheRunCanProduceIsBadOutputReadNoFurther) {
  // 300 MB without a newline, for runs whose answers fit in about a MiB: the
  // harness stops reading at the bound, so its memory stays far below the line's size.
  Backend b(fake("read request; head -c 300000000 /dev/zero | tr '\\0' x; echo; sleep 30", 5.0));
  Program checked = program_from_json(program_);
  check(checked);
  size_t bound = answer_bytes_bound(checked, kRuns[0]);
  ASSERT_LT(bound, size_t{4} << 20);
  auto t0 = Clock::now();
  std::vector<Answer> got = b.request(program_, kRuns);
  double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  expect_codes(got, {"BAD_OUTPUT", "BAD_OUTPUT", "BAD_OUTPUT"});
  std::string msg = got[0].json["message"];
  EXPECT_NE(msg.find("a line longer than " + std::to_string(bound) + " bytes, the most this run can produce"),
            std::string::npos)
      << msg;
  EXPECT_LT(seconds, 2.0);
  struct rusage ru {};
  ::getrusage(RUSAGE_SELF, &ru);
  EXPECT_LT(ru.ru_maxrss, 100 * 1024) << "KiB: the harness read far more than the bound";
  expect_recovery(b);
}

TEST_F(FakeBackend, ANumberNoDoubleHoldsIsBadOutputNotAnInternalError) {
  Backend b(fake("read request; echo '{\"ok\":true,\"run\":1e400}'; sleep 30"));
  std::vector<Answer> got = b.request(program_, kRuns);
  expect_codes(got, {"BAD_OUTPUT", "BAD_OUTPUT", "BAD_OUTPUT"});
  EXPECT_NE(got[0].json["message"].get<std::string>().find("not JSON"), std::string::npos) << got[0].line;
  expect_recovery(b);
}

// nlohmann compares an unsigned number with a signed one after a cast: a target's
// 2^64 - 1 would equal the oracle's -1. A number of an answer past int64 (§3) is kept
// as its text, so that it equals no value of the oracle's.
TEST_F(FakeBackend, ANumberPastInt64DiffersFromTheValueItWrapsTo) {
  Backend b(fake("exec \"$CONCORD\" backend oracle | sed -u 's/\"x\":-1/\"x\":18446744073709551615/'"));
  Program p = program_from_source("kind K() { state x: int = -1; }\nprocess k = K();\n", "k.conc");
  std::vector<Answer> got = b.request(program_to_json(p), {RunSettings{0, 1, 1}});
  ASSERT_EQ(got.size(), 1u);
  ASSERT_TRUE(got[0].ok()) << got[0].line;
  const ojson& x = got[0].json["alive"][0]["state"]["x"];
  EXPECT_EQ(x, ojson("18446744073709551615")) << got[0].line;
  ojson oracle = result_to_json(run(p, RunSettings{0, 1, 1}));
  EXPECT_EQ(oracle["alive"][0]["state"]["x"], ojson(-1));
  EXPECT_NE(got[0].json, oracle);
  EXPECT_EQ(got[0].json["run"]["seed"], ojson(0));  // the run is the protocol's, unsigned: kept
}
