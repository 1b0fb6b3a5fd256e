// targets/common/framed_runtime.hpp: a target's persistent interpreter process (a
// node, a BEAM, ...) fed one frame per request: the emitted program and the
// request's runs. The process is a harness-supervised subprocess like any backend,
// but a long-lived one: started at the first request that has a good run, reused,
// and replaced after it died, hung, printed garbage or printed between requests, and
// after `requests_per_process` requests (below). Its
// faults become TIMEOUT, CRASH, BAD_OUTPUT or MEMORY lines through collect_answers()
// (runners/protocol/backend.hpp), costing the request they happen in and nothing more.
//
// A frame is a 4-byte big-endian length N and N bytes: a line of `SEED TURNS MAX`
// runs separated by `;` (after `free `, for free runs: SPEC §25), a '\n', then the
// program's source. The interpreter answers one line per run, a result (a trace)
// or an error object.
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "oracle/program.hpp"
#include "oracle/state.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/serve.hpp"

namespace concord {

struct FramedRuntimeConfig {
  std::string target;                               // "js": the prefix of the runtime's own error messages
  std::string who;                                  // "node": names the process in harness messages
  std::function<std::string(const Program&)> emit;  // the program's source; a throw answers INTERNAL per run
  // The program's source for free runs (SPEC §25), whose frames say `free`; none:
  // the target answers free runs UNSUPPORTED.
  std::function<std::string(const Program&)> emit_free;
  // The command that starts the interpreter, given its fresh temporary directory (its
  // TMPDIR and working directory). Throws std::runtime_error when something it needs
  // is missing; the message names it.
  std::function<Command(const std::string& tmpdir)> command;
  std::string start_hint;  // added to the message when the command cannot be started: what names it
  // Text of the interpreter's stderr that says it died for want of memory: its runs
  // are then MEMORY, not CRASH.
  std::vector<std::string> memory_markers;
  double run_timeout = 30;  // per run; run 0 includes loading the program
  double request_timeout = 240;
  // The line the interpreter prints once it is up (its runtime loaded), before its
  // first frame; "" waits for nothing. Its boot is then not part of the first run's
  // timeout: a node that takes seconds to start on a busy machine is not a run that
  // hung. Not printed within boot_timeout, or something else printed: it cannot be
  // started (CRASH, with what it printed and how it ended).
  std::string ready_line;
  double boot_timeout = 120;
  // After this many frames the interpreter is ended (its stdin closed) and the next
  // request starts a fresh one, as AFL's persistent mode does: a long-lived node's
  // memory grows with no live data behind it (an elixir node ~60 MiB/h over a calls
  // campaign, its erlang:memory() flat: allocator fragmentation; bench/soak.py). A
  // fresh node costs at most ~1.5 s (elixir's), under 0.1 % of 2,000 programs. 0: never.
  int requests_per_process = 2000;
};

// One frame for `source` and `runs` (throws std::length_error past 4 GiB).
std::string runtime_frame(const std::string& source, const std::vector<RunSettings>& runs,
                          RunMode mode = RunMode::Conducted);

class FramedRuntime {
 public:
  explicit FramedRuntime(FramedRuntimeConfig cfg);
  ~FramedRuntime();  // closes the interpreter's stdin, gives it a moment to end, kills the rest
  FramedRuntime(const FramedRuntime&) = delete;
  FramedRuntime& operator=(const FramedRuntime&) = delete;

  // An Answerer (runners/protocol/serve.hpp): BAD_REQUEST runs are answered in place, the
  // others by the interpreter in one frame. An emit failure answers INTERNAL per run;
  // an interpreter that cannot be started, CRASH naming what is missing.
  void answer(const Program& p, const std::vector<RunRequest>& runs, const Emit& emit,
              RunMode mode = RunMode::Conducted);

  // The live interpreter's pid (its process group), or -1 before the first request
  // and after a fault.
  pid_t pid() const;
  const FramedRuntimeConfig& config() const { return cfg_; }

 private:
  void start();  // throws SubprocessError or std::runtime_error
  void stop();
  void retire();  // closes the interpreter's stdin, gives it a moment to end, then stop()
  // Sends `frame` and reads one answer per run of `good`, each at most max_bytes[k]
  // (runners/protocol/answer_bound.hpp), handed to on_answer(k, line).
  void run_frame(const std::string& frame, const std::vector<RunSettings>& good, const std::vector<size_t>& max_bytes,
                 RunMode mode, const std::function<void(size_t, const std::string&)>& on_answer);

  FramedRuntimeConfig cfg_;
  std::unique_ptr<TempDir> tmp_;  // the interpreter's TMPDIR and working directory
  std::unique_ptr<Subprocess> proc_;
  int frames_ = 0;  // frames the live interpreter has been sent
};

}  // namespace concord
