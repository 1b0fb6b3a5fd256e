// runners/process/reaper.hpp: the small process that stands between the harness and every
// command it starts, so that the command's whole process tree ends with it. The
// harness forks; the fork makes itself a child subreaper (PR_SET_CHILD_SUBREAPER),
// forks again, and the second fork execs the command in a process group of its
// own. The reaper then only waits: when the command exits, or when the harness
// sends SIGTERM (or dies: PR_SET_PDEATHSIG), it kills the command's group and every
// descendant left (orphans, a child that called setsid, a daemon: all of them are
// re-parented to the reaper, which kills its children until none is left) and
// exits with the command's own status (the same exit code, or the same signal).
// So the harness sees the command's exit at once, even when a descendant still
// holds its stdout, and nothing the command started outlives it.
//
// Everything here runs in a fork of a multi-threaded process: async-signal-safe
// calls only (no allocation, no locks, no stdio).
#pragma once

#include <sys/types.h>

namespace concord {

// Called in the harness's fork, before exec. Returns in the command's process
// (which then sets its own limits and execs); never returns in the reaper. The
// reaper writes the command's pid (a pid_t, -1 when the fork failed) to `pid_fd`
// and then closes every descriptor it holds (0, 1 and 2 included), so that only
// the command holds the pipes.
void split_reaper(int pid_fd);

// SIGKILLs the process group `pgid` and then every child of the calling process,
// reaping them, until it has none: the children of a killed child are re-parented
// to a subreaper, so this ends its whole tree. `status` of `watched` is stored
// in `*watched_status` when it is reaped here. Async-signal-safe.
void kill_all_children(pid_t pgid, pid_t watched, int* watched_status, bool* watched_reaped);

// Puts `sig` back to its default action and unblocks it, so that raising it next
// ends the process as that signal would (the reaper passing on its command's
// signal, the cleanup handler passing on the one it caught). Async-signal-safe.
void restore_default_signal(int sig);

}  // namespace concord
