// tests/targets/kill_node.hpp: SIGKILL to a target's interpreter (a BEAM, a node)
// from outside, as the kernel's OOM killer or a user would, and waiting until the
// target can see it. The interpreter is a child of its reaper (runners/process/reaper.hpp),
// which is our child: the reaper exits as the interpreter did once it has reaped it
// and every other descendant, and that exit is what the target observes.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

namespace concord {

// The parent of `pid` (from /proc/<pid>/stat), or -1.
inline pid_t parent_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!std::getline(in, stat)) return -1;
  size_t close = stat.rfind(')');  // the command's name may contain one
  if (close == std::string::npos || close + 4 >= stat.size()) return -1;
  return static_cast<pid_t>(std::stol(stat.substr(close + 4)));  // ") S <ppid> ..."
}

// SIGKILLs the group of the interpreter `pid` and waits until its reaper, our child,
// has exited, without reaping it (the target does that). A zombie in /proc is not
// enough: the kernel reports a process's exit only once all its threads are gone,
// and the BEAM has many.
inline void kill_and_wait(pid_t pid) {
  pid_t reaper = parent_of(pid);
  ASSERT_GT(reaper, 0) << "no process " << pid;
  ASSERT_EQ(::kill(-pid, SIGKILL), 0);
  for (int i = 0; i < 1000; i++) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(reaper), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == reaper)
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  FAIL() << "process " << pid << " (reaper " << reaper << ") still running 5 s after SIGKILL";
}

}  // namespace concord
