// tests/runners/subprocess_test.cpp: the subprocess layer: exit codes and signals,
// deadlines, group kills, rlimits, environment and directory, no deadlock when a
// child talks before it reads, no pipe leaking into other children, no large buffer
// kept after a large line, TempDir.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "runners/process/heap.hpp"
#include "runners/process/subprocess.hpp"
#include "tests/runners/rss_anon.hpp"

namespace fs = std::filesystem;
using namespace concord;

namespace {

Command sh(const std::string& script) { return Command{{"/bin/sh", "-c", script}, {}, "", {}}; }

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// This process's resident anonymous memory in MiB, after the free heap went back.
double live_mib() {
  release_free_heap();
  return testing_rss::rss_anon_mib();
}

}  // namespace

TEST(RunCommand, ReportsExitCodeStdoutAndStderr) {
  CommandResult r = run_command(sh("echo out; echo err >&2; exit 3"), "", 5);
  EXPECT_FALSE(r.timed_out);
  EXPECT_FALSE(r.status.signaled);
  EXPECT_EQ(r.status.code, 3);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_EQ(r.status.describe(), "exited with 3");
}

TEST(RunCommand, ReportsTheSignal) {
  CommandResult r = run_command(sh("kill -TERM $$"), "", 5);
  EXPECT_TRUE(r.status.signaled);
  EXPECT_EQ(r.status.code, 15);
  EXPECT_EQ(r.status.describe(), "killed by signal 15 (SIGTERM)");
}

TEST(RunCommand, FeedsStdinAndSetsEnvironmentAndDirectory) {
  Command c = sh("cat; echo \"$CONCORD_X\"; pwd");
  c.env = {{"CONCORD_X", "forty two"}};
  c.dir = "/";
  CommandResult r = run_command(c, "in\n", 5);
  EXPECT_EQ(r.out, "in\nforty two\n/\n");
}

TEST(RunCommand, TimesOutAndKillsTheWholeGroup) {
  auto t = Clock::now();
  CommandResult r = run_command(sh("sleep 30 & sleep 30"), "", 0.3);
  EXPECT_TRUE(r.timed_out);
  EXPECT_TRUE(r.status.signaled);
  EXPECT_LT(since(t), 2.0);  // the background sleep held stdout open: only the group kill ends it
}

TEST(RunCommand, AppliesResourceLimitsBeforeExec) {
  Command c = sh("ulimit -c; ulimit -t; ulimit -v");
  c.limits.cpu_seconds = 7;
  c.limits.address_space_bytes = int64_t{1} << 30;
  CommandResult r = run_command(c, "", 5);
  EXPECT_EQ(r.out, "0\n7\n1048576\n");
}

TEST(RunCommand, AMissingCommandThrows) {
  EXPECT_THROW(run_command(Command{{"concord-no-such-command"}, {}, "", {}}, "", 5), SubprocessError);
  EXPECT_THROW(run_command(Command{{"/bin/true"}, {}, "/no/such/dir", {}}, "", 5), SubprocessError);
}

TEST(Subprocess, ReadLineHonoursItsDeadline) {
  Subprocess p(sh("echo first; sleep 30"));
  std::string line;
  EXPECT_EQ(p.read_line(line, deadline_after(5)), Subprocess::Io::kOk);
  EXPECT_EQ(line, "first");
  auto t = Clock::now();
  EXPECT_EQ(p.read_line(line, deadline_after(0.2)), Subprocess::Io::kTimeout);
  EXPECT_LT(since(t), 1.0);
  EXPECT_TRUE(p.kill().signaled);
}

TEST(Subprocess, APartialLineComesBackAtEof) {
  Subprocess p(sh("printf 'one\\ntw'"));
  std::string line;
  EXPECT_EQ(p.read_line(line, deadline_after(5)), Subprocess::Io::kOk);
  EXPECT_EQ(line, "one");
  EXPECT_EQ(p.read_line(line, deadline_after(5)), Subprocess::Io::kEof);
  EXPECT_EQ(line, "tw");
  auto s = p.wait_until(deadline_after(5));
  ASSERT_TRUE(s);
  EXPECT_EQ(s->code, 0);
}

// A backend lives for a whole campaign and once in a while answers with a result of
// megabytes (a 10,000-process run): its buffer must not keep that much.
TEST(Subprocess, ALargeLineReadLeavesNoLargeBufferBehind) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer keeps freed blocks in quarantine: the memory measured is not the buffer's; "
                  "the normal build runs this test";
#endif
  double before = live_mib();
  Subprocess p(sh("head -c 64000000 /dev/zero | tr '\\0' x; echo; echo small; sleep 30"));
  std::string line;
  ASSERT_EQ(p.read_line(line, deadline_after(20)), Subprocess::Io::kOk);
  EXPECT_EQ(line.size(), 64000000u);
  std::string().swap(line);
  ASSERT_EQ(p.read_line(line, deadline_after(5)), Subprocess::Io::kOk);
  EXPECT_EQ(line, "small");
  double after = live_mib();
  EXPECT_LT(after - before, 16) << "before " << before << " MiB, after " << after << " MiB";
  EXPECT_TRUE(p.kill().signaled);
}

TEST(Subprocess, AChildThatTalksBeforeReadingDoesNotDeadlock) {
  // 1 MB to stderr before reading 1 MB of stdin: both pipes would fill up.
  Subprocess p(sh("head -c 1000000 /dev/zero >&2; wc -c"));
  std::string big(1000000, 'x');
  EXPECT_EQ(p.write(big, deadline_after(10)), Subprocess::Io::kOk);
  p.close_stdin();
  std::string line;
  EXPECT_EQ(p.read_line(line, deadline_after(10)), Subprocess::Io::kOk);
  EXPECT_EQ(std::stol(line), 1000000);
  p.drain_stderr(deadline_after(5));
  EXPECT_NE(p.stderr_text().find("bytes of stderr omitted"), std::string::npos);  // bounded
}

TEST(Subprocess, OtherChildrenDoNotHoldItsPipes) {
  Subprocess a(sh("read x; exit 0"));
  Subprocess b(sh("sleep 30"));  // started while a's pipes are open
  EXPECT_EQ(a.write("go\n", deadline_after(5)), Subprocess::Io::kOk);
  std::string line;
  auto t = Clock::now();
  EXPECT_EQ(a.read_line(line, deadline_after(5)), Subprocess::Io::kEof);  // b must not keep it open
  EXPECT_LT(since(t), 2.0);
}

TEST(Subprocess, WritingToADeadChildIsEofNotSigpipe) {
  Subprocess p(sh("exit 0"));
  p.wait_until(deadline_after(5));
  EXPECT_EQ(p.write(std::string(1 << 20, 'x'), deadline_after(5)), Subprocess::Io::kEof);
}

TEST(TempDir, IsRemovedWithItsContentsEvenOnExceptions) {
  std::string path;
  try {
    TempDir t("concord-test");
    path = t.path();
    fs::create_directories(path + "/a/b");
    std::ofstream(path + "/a/b/f") << "x";
    throw std::runtime_error("boom");
  } catch (const std::runtime_error&) {
  }
  ASSERT_FALSE(path.empty());
  EXPECT_FALSE(fs::exists(path));
  TempDir moved("concord-test");
  std::string p2 = moved.path();
  {
    TempDir other = std::move(moved);
    EXPECT_EQ(other.path(), p2);
  }
  EXPECT_FALSE(fs::exists(p2));
}

TEST(Subprocess, ItsExitIsSeenWhileAGrandchildHoldsItsStdout) {
  // The reaper (runners/process/reaper.hpp) ends the command's tree when the command ends,
  // so the pipe closes at once instead of when the grandchild's sleep is over.
  Subprocess p(sh("sleep 30 & echo started; exit 4"));
  std::string line;
  EXPECT_EQ(p.read_line(line, deadline_after(5)), Subprocess::Io::kOk);
  EXPECT_EQ(line, "started");
  auto t = Clock::now();
  EXPECT_EQ(p.read_line(line, deadline_after(10)), Subprocess::Io::kEof);
  EXPECT_LT(since(t), 2.0);
  std::optional<ExitStatus> st = p.wait_until(deadline_after(5));
  ASSERT_TRUE(st);
  EXPECT_EQ(st->describe(), "exited with 4") << "the reaper exits as the command did";
}

TEST(Subprocess, TheCommandLeadsItsOwnProcessGroupAndDiesOfItsOwnSignal) {
  Subprocess p(sh("echo $$ $(cut -d' ' -f5 /proc/$$/stat); kill -TERM $$"));  // its pid and its group
  std::string line;
  ASSERT_EQ(p.read_line(line, deadline_after(5)), Subprocess::Io::kOk);
  std::string pid = std::to_string(p.pid());
  EXPECT_EQ(line, pid + " " + pid) << "pid() is the command's, and its group's id";
  std::optional<ExitStatus> st = p.wait_until(deadline_after(5));
  ASSERT_TRUE(st);
  EXPECT_EQ(st->describe(), "killed by signal 15 (SIGTERM)");
}

TEST(TempDir, ItsNameCarriesTheHostAndThePid) {
  TempDir t("concord-test");
  std::string name = fs::path(t.path()).filename().string();
  std::string tag = "-" + std::to_string(::getpid()) + "-";
  EXPECT_EQ(name.rfind("concord-test-", 0), 0u) << name;
  EXPECT_NE(name.find(tag), std::string::npos) << name;
  EXPECT_EQ(name.size() - (name.find(tag) + tag.size()), 6u) << name;
}
