// tests/targets/node_kill_test.cpp: the interpreter of a persistent target (the BEAM
// node of the erlang target, the node process of the js target) killed by hand
// (`kill -9`) in the middle of a campaign against it is no finding
// (runners/campaign/failure.hpp: a SIGKILL comes from outside the target). The campaign goes
// on with a fresh interpreter and ends with exit 0, nothing stored, no signature.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "runners/process/subprocess.hpp"
#include "runners/protocol/load.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;
namespace fs = std::filesystem;

namespace {

// The processes named `comm` among the descendants of `root`, from /proc.
std::vector<pid_t> descendants_named(pid_t root, const std::string& comm) {
  std::map<pid_t, pid_t> parent;
  std::map<pid_t, std::string> name;
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::ifstream in(e.path() / "stat");
    std::string stat;
    if (!std::getline(in, stat)) continue;
    size_t open = stat.find('('), close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 1));
    char state;
    long ppid;
    if (!(rest >> state >> ppid) || state == 'Z') continue;
    pid_t pid = static_cast<pid_t>(std::stol(stat.substr(0, open)));
    parent[pid] = static_cast<pid_t>(ppid);
    name[pid] = stat.substr(open + 1, close - open - 1);
  }
  std::vector<pid_t> out;
  for (const auto& [pid, n] : name) {
    if (n != comm) continue;
    for (pid_t p = parent[pid]; p > 1; p = parent.count(p) ? parent[p] : 0)
      if (p == root) {
        out.push_back(pid);
        break;
      }
  }
  return out;
}

// Waits (at most `seconds`) for a process named `comm` under `root`.
pid_t wait_for(pid_t root, const std::string& comm, double seconds, pid_t other_than = -1) {
  Deadline d = deadline_after(seconds);
  while (Clock::now() < d) {
    for (pid_t p : descendants_named(root, comm))
      if (p != other_than) return p;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return -1;
}

}  // namespace

struct Interpreter {
  std::string target;  // the campaign's target
  std::string comm;    // the process to kill, under the campaign
};

void PrintTo(const Interpreter& i, std::ostream* os) { *os << i.target << " (" << i.comm << ")"; }

class NodeKill : public testing::TestWithParam<Interpreter> {};

TEST_P(NodeKill, KilledByHandMidCampaignIsNoFinding) {
  const Interpreter& it = GetParam();
  TempDir dir("concord-kill");
  Subprocess fuzz(
      Command{{build_paths::concord_binary, "fuzz", "--seed", "1", "--time", "20s", "--jobs", "1", "--target",
               it.target, "--corpus", dir.path() + "/found", "--report", dir.path() + "/report", "--quiet",
               // no node of its own for a fresh-backend check: the worker's node is the only one to kill
               "--fresh-every", "0"},
              {},
              "",
              {}});
  // Twice: kill the node once it has worked a moment, then its replacement.
  pid_t killed = -1;
  for (int i = 0; i < 2; i++) {
    pid_t victim = wait_for(fuzz.pid(), it.comm, 30, killed);
    ASSERT_GT(victim, 0) << "no " << it.comm << " under the campaign (kill " << i + 1 << ")";
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    ASSERT_EQ(::kill(victim, SIGKILL), 0);
    killed = victim;
  }
  // The campaign goes on with a fresh node (counting programs would depend on the
  // machine's load: under the sanitizers on a loaded machine 10 s gave 4).
  EXPECT_GT(wait_for(fuzz.pid(), it.comm, 15, killed), 0) << "no fresh " << it.comm << " after the second kill";
  std::string out;
  fuzz.read_to_eof(out, deadline_after(120));
  std::optional<ExitStatus> status = fuzz.wait_until(deadline_after(10));
  ASSERT_TRUE(status) << out;
  EXPECT_FALSE(status->signaled);
  EXPECT_EQ(status->code, 0) << out << fuzz.stderr_text();
  EXPECT_EQ(out.find("NEW"), std::string::npos) << out;
  EXPECT_EQ(out.find("FLAKY"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir.path() + "/found")) << out;
  ojson sum = ojson::parse(read_file(dir.path() + "/report/summary.json"));
  EXPECT_TRUE(sum["signatures"].empty()) << sum.dump(2);
  EXPECT_GE(sum["programs"].get<uint64_t>(), 1u) << out;
}

INSTANTIATE_TEST_SUITE_P(Targets, NodeKill,
                         testing::Values(Interpreter{"erlang", "beam.smp"}, Interpreter{"js", "node"}),
                         [](const testing::TestParamInfo<Interpreter>& i) { return i.param.target; });
