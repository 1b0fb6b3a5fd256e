// tests/runners/cleanup_test.cpp: nothing temporary outlives concord
// (runners/process/cleanup.hpp): SIGTERM, SIGHUP or SIGINT to `concord run --target c`
// while it compiles and runs, SIGTERM while the js or elixir target's interpreter
// runs, and a second Ctrl-C in a campaign, leave no
// temporary folder and no half-written file; and what a killed concord left is
// swept by the next one on the host, nothing else.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "runners/process/cleanup.hpp"
#include "runners/process/subprocess.hpp"
#include "targets/common/build_paths.hpp"

namespace fs = std::filesystem;
using namespace concord;

namespace {

class Cleanup : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("concord_cleanup_" + std::to_string(::getpid()) + "_" +
                                        testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "tmp");
    fs::create_directories(dir_ / "corpus");
    std::ofstream(dir_ / "endless.conc") << "kind P() { state n: int = 0; on go() { n = n + 1; send go() to self; } }\n"
                                            "process a = P();\ngiven go() to @a;\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A concord command with TMPDIR in the test's folder. The c target compiles with
  // a compiler process (CONCORD_CC), which writes prog.c and prog in a folder of its
  // own, the folder the audit found left behind (libtcc compiles in memory).
  Command command(std::vector<std::string> args) {
    args.insert(args.begin(), build_paths::concord_binary);
    return Command{args, {{"TMPDIR", (dir_ / "tmp").string()}, {"CONCORD_CC", "cc"}}, dir_.string(), {}};
  }

  // Waits until some file whose name is `name` exists anywhere under the test's
  // TMPDIR; with `prefix`, a folder whose name starts with `name` inside another:
  // the target's interpreter's, inside its backend's TMPDIR (runners/protocol/backend.hpp).
  bool appears(const std::string& name, double seconds, bool prefix = false) {
    auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < until) {
      std::error_code ec;
      for (auto it = fs::recursive_directory_iterator(dir_ / "tmp", ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::string n = it->path().filename().string();
        if (!prefix && n == name) return true;
        if (prefix && n.rfind(name, 0) == 0 && it.depth() == 1) return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
  }

  std::vector<std::string> left_in(const fs::path& d) {
    std::vector<std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(d)) out.push_back(e.path().string());
    return out;
  }

  // `concord run --target T` on an endless run, once T's temporary folder holds
  // `marker` (a name, or with `prefix` the start of one): then `sig`.
  void signal_run_target(const std::string& target, int sig, const std::string& marker, bool prefix = false) {
    Subprocess p(command({"run", "endless.conc", "--target", target, "--turns", "1000000000", "--timeout", "60"}));
    p.close_stdin();
    ASSERT_TRUE(appears(marker, 60, prefix)) << "the " << target << " target never started";
    if (prefix) std::this_thread::sleep_for(std::chrono::milliseconds(300));  // its interpreter is running
    ::kill(p.pid(), sig);
    std::optional<ExitStatus> st = p.wait_until(deadline_after(10));
    ASSERT_TRUE(st) << "concord did not end at the signal";
    EXPECT_TRUE(st->signaled && st->code == sig) << st->describe();
    EXPECT_EQ(left_in(dir_ / "tmp"), std::vector<std::string>{}) << target << ", signal " << sig;
  }

  fs::path dir_;
};

pid_t a_dead_pid() {
  pid_t p = ::fork();
  if (p == 0) ::_exit(0);
  ::waitpid(p, nullptr, 0);
  return p;
}

}  // namespace

TEST_F(Cleanup, SigtermToRunOnTheCTargetLeavesNoTemporaryFolder) { signal_run_target("c", SIGTERM, "prog"); }
TEST_F(Cleanup, SighupToRunOnTheCTargetLeavesNoTemporaryFolder) { signal_run_target("c", SIGHUP, "prog"); }
TEST_F(Cleanup, SigintToRunOnTheCTargetLeavesNoTemporaryFolder) { signal_run_target("c", SIGINT, "prog"); }
// The persistent interpreters: node (js), and the BEAM with Elixir (elixir; erlang's
// is the same ErlangTarget), each in a TMPDIR folder of its own.
TEST_F(Cleanup, SigtermToRunOnTheJsTargetLeavesNoTemporaryFolder) {
  signal_run_target("js", SIGTERM, "concord-js-", true);
}
TEST_F(Cleanup, SigtermToRunOnTheElixirTargetLeavesNoTemporaryFolder) {
  signal_run_target("elixir", SIGTERM, "concord-elixir-", true);
}

TEST_F(Cleanup, ASecondCtrlCInACampaignLeavesNoTemporaryFile) {
  Subprocess p(command({"fuzz", "--time", "120", "--seed", "5", "--jobs", "1", "--target", "c", "--corpus",
                        (dir_ / "corpus").string(), "--no-report", "--quiet"}));
  p.close_stdin();
  ASSERT_TRUE(appears("prog", 60)) << "the campaign never compiled a program";
  ::kill(p.pid(), SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  ::kill(p.pid(), SIGINT);
  std::optional<ExitStatus> st = p.wait_until(deadline_after(10));
  ASSERT_TRUE(st) << "the second Ctrl-C did not end the campaign";
  EXPECT_EQ(left_in(dir_ / "tmp"), std::vector<std::string>{});
  for (const std::string& f : left_in(dir_ / "corpus")) EXPECT_EQ(f.find(".tmp."), std::string::npos) << f;
}

TEST_F(Cleanup, TheSweepRemovesWhatDeadConcordsOfThisHostLeftAndNothingElse) {
  std::string tag = cleanup::temp_tag();  // "<host>-<pid>"
  std::string host = tag.substr(0, tag.rfind('-'));
  std::string dead = std::to_string(a_dead_pid()), alive = std::to_string(::getpid());
  fs::path d = dir_ / "tmp";
  auto folder = [&](const std::string& name) {
    fs::create_directories(d / name / "concord-c-inner");
    std::ofstream(d / name / "concord-c-inner" / "prog.c") << "int main;";
  };
  auto file = [&](const std::string& name) { std::ofstream(d / name) << "{\"half"; };
  folder("concord-c-" + host + "-" + dead + "-a1b2c3");        // a killed backend's: goes
  file("div_0123.case.json.tmp." + host + "-" + dead + "-7");  // a killed campaign's: goes
  folder(".concord.tmp." + host + "-" + dead + "-2");          // a killed report writer's: goes
  folder("concord-c-" + host + "-" + alive + "-d4e5f6");       // a live process's: stays
  file("x.case.json.tmp." + host + "-" + alive + "-1");        // stays
  folder("concord-c-elsewhere-" + dead + "-a1b2c3");           // another host's: stays
  file("notes-" + host + "-" + dead + "-1.txt");               // not a concord name: stays
  file("div_0123.case.json");                                  // a real case: stays
  EXPECT_EQ(cleanup::sweep(d.string()), 3);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(d)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  std::vector<std::string> want = {
      "concord-c-" + host + "-" + alive + "-d4e5f6", "concord-c-elsewhere-" + dead + "-a1b2c3", "div_0123.case.json",
      "notes-" + host + "-" + dead + "-1.txt", "x.case.json.tmp." + host + "-" + alive + "-1"};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(names, want);
}

TEST_F(Cleanup, EveryConcordCommandSweepsItsTemporaryFolderAtStart) {
  std::string tag = cleanup::temp_tag();
  std::string host = tag.substr(0, tag.rfind('-'));
  fs::path stale = dir_ / "tmp" / ("concord-erlang-" + host + "-" + std::to_string(a_dead_pid()) + "-zz9zz9");
  fs::create_directories(stale);
  CommandResult r = run_command(command({"check", "endless.conc"}), "", 20);
  EXPECT_EQ(r.status.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(stale));
}
