// runners/process/subprocess.hpp: child processes for the harness (Boost.Process v1 behind a
// pimpl): each in its own process group, with rlimits set before exec, stdin
// written and stdout read line by line against deadlines, stderr kept bounded;
// plus a one-shot run_command() and a RAII temporary directory.
//
// Rules every Subprocess follows: the command runs under a reaper (reaper.hpp), in a
// process group of its own; its RLIMIT_CORE is 0; when the harness dies the reaper
// ends it (PR_SET_PDEATHSIG); it inherits none of the harness's other pipes (they
// are close-on-exec). Its exit is the reaper's exit, seen at once even when a
// descendant keeps its stdout open. Killing ends the command's whole tree (its
// group, and every descendant, also one in a session of its own) with SIGKILL, and
// the reaper is always reaped: destroying a Subprocess leaves nothing running.
// The harness ignores SIGPIPE (a dead child's stdin is an error code, not a signal);
// children get the default disposition back.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace concord {

using Clock = std::chrono::steady_clock;
using Deadline = Clock::time_point;
Deadline deadline_after(double seconds);

struct Limits {
  int64_t cpu_seconds = 0;          // RLIMIT_CPU (soft; hard = soft + 1); 0: unchanged
  int64_t address_space_bytes = 0;  // RLIMIT_AS; 0: unchanged (ASan needs it unlimited)
};

struct Command {
  std::vector<std::string> argv;                         // argv[0] is looked up in PATH unless it has a '/'
  std::vector<std::pair<std::string, std::string>> env;  // set on top of the harness's environment
  std::string dir;                                       // working directory; empty: the harness's
  Limits limits;
};

struct ExitStatus {
  bool signaled = false;
  int code = 0;                  // the exit code, or the signal number when signaled
  std::string describe() const;  // "exited with 1", "killed by signal 9 (SIGKILL)"
};

// The command could not be started (not found, not executable, bad directory).
struct SubprocessError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Subprocess {
 public:
  enum class Io {
    kOk,       // done: written, or one complete line read
    kEof,      // the pipe is closed (the child exited or closed it)
    kTimeout,  // the deadline passed first
    kTooLong,  // read_line: more than max_line bytes without a newline
  };

  explicit Subprocess(const Command& cmd);  // throws SubprocessError
  // A child that is a forked copy of the harness running `body` (its return value
  // is the exit code) instead of exec'ing cmd.argv (whose argv[0] must still name
  // an executable; it is never run). The same pipes, group, limits and death
  // signal; the child's stdio streams are reset to the pipes, and every other
  // descriptor is closed before `body` runs. For a single-threaded harness only.
  Subprocess(const Command& cmd, std::function<int()> body);
  ~Subprocess();  // kill() unless already reaped
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // Writes all of `data` (copied) to the child's stdin; stdout and stderr keep being
  // read meanwhile, so a child that talks before reading cannot deadlock us.
  Io write(std::string_view data, Deadline d);
  void close_stdin();
  // One line without its '\n'. At kEof, `line` holds the bytes after the last
  // newline (empty when the output ended cleanly).
  Io read_line(std::string& line, Deadline d, size_t max_line = size_t{256} << 20);
  // Everything until EOF (bounded by max_bytes; the rest is read and dropped).
  Io read_to_eof(std::string& all, Deadline d, size_t max_bytes = size_t{64} << 20);
  // Without blocking: has the child printed anything not read yet, or closed stdout?
  bool output_pending();
  // Reads stderr until it closes or `d`.
  void drain_stderr(Deadline d);
  // The first 8 KiB and the last 64 KiB of stderr so far, with a marker between.
  std::string stderr_text() const;

  // Waits (until `d`) for the child to exit by itself; then SIGKILLs what is left of
  // its group and reaps it. nullopt: still running at `d`.
  std::optional<ExitStatus> wait_until(Deadline d);
  ExitStatus kill();  // SIGKILL to the command's tree, reap (idempotent)

  pid_t pid() const;  // the command's pid, also its process group id

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct CommandResult {
  ExitStatus status;  // when timed out: the SIGKILL that ended it
  bool timed_out = false;
  std::string out, err;  // err: as Subprocess::stderr_text()
};

// Runs a command to completion: stdin_text on its stdin, then EOF. Throws
// SubprocessError when it cannot start.
CommandResult run_command(const Command& cmd, const std::string& stdin_text, double timeout_seconds);

// A fresh directory $TMPDIR/<prefix>-<host>-<pid>-XXXXXX (TMPDIR unset: /tmp),
// removed with all its contents when the object dies, also during stack unwinding
// and at a fatal signal (cleanup.hpp); the next concord on this host removes it if
// this process died without a chance to. Never throws on removal.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "concord");  // throws std::runtime_error
  ~TempDir();
  TempDir(TempDir&& o) noexcept : path_(std::exchange(o.path_, {})), slot_(std::exchange(o.slot_, -1)) {}
  TempDir& operator=(TempDir&& o) noexcept;
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  void remove() noexcept;
  std::string path_;
  int slot_ = -1;  // its entry in cleanup.hpp's list
};

}  // namespace concord
