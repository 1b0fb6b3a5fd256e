// runners/protocol/backend.hpp: the harness side of the backend protocol (runners/PROTOCOL.md):
// one long-lived backend process, started lazily, sent one request per call, read
// back one answer per run. Every fault of the backend becomes an answer (TIMEOUT,
// CRASH, BAD_OUTPUT), never an exception; the faulty process is killed, reaped and
// started afresh on the next request.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "oracle/program_json.hpp"
#include "oracle/state.hpp"
#include "runners/process/subprocess.hpp"
#include "runners/protocol/deviations.hpp"
#include "runners/protocol/run_mode.hpp"
#include "runners/protocol/supports.hpp"

namespace concord {

struct BackendSpec {
  std::string name;
  std::vector<std::string> command;  // argv; argv[0] looked up in PATH
  double run_timeout = 10;           // seconds from the previous answer (or the request) to this run's line
  double request_timeout = 60;       // seconds for the whole request
  std::vector<std::pair<std::string, std::string>> env;  // added to the harness's environment
  Limits limits;                                         // rlimits of the backend process (RLIMIT_CORE is always 0)
  std::vector<Deviation> deviations;                     // its declared deviations from SPEC (deviations.hpp)
  Supports supports;                                     // what it claims to implement (supports.hpp)
  bool timeouts_given = false;  // set by the user (--timeout, a backends file): a campaign keeps them as they are
};

// One run's answer: what the backend printed, byte for byte, or the harness's own
// error line for a fault.
struct Answer {
  std::string line;  // without the '\n'
  ojson json;        // `line` parsed: a result (ok true) or an error object (ok false)
  bool ok() const { return json.is_object() && json.value("ok", false); }
  std::string code() const;  // the error code; "" for a result
};

bool is_error_code(const std::string& code);  // the closed list of SPEC §10
bool is_definite(const std::string& code);    // definite: a divergence; indefinite: a harness fault
Answer harness_error(const std::string& code, const std::string& message);

// The request line (with its '\n') for a program in JSON form (SPEC §13).
std::string request_line(const ojson& program, const std::vector<RunSettings>& runs, RunMode mode = RunMode::Conducted);

// Where collect_answers reads a program's answers from: a Subprocess (SubprocessAnswers),
// or a program the c target's fork server runs (targets/c/launcher/fork_server.hpp).
class AnswerSource {
 public:
  virtual ~AnswerSource() = default;
  virtual Subprocess::Io read_line(std::string& line, Deadline d, size_t max_line) = 0;
  virtual std::string stderr_text() const = 0;  // as Subprocess::stderr_text()
  // After read_line said kEof: collects the rest of stderr and the exit status until
  // `d`; nullopt: still running then.
  virtual std::optional<ExitStatus> wait_ended(Deadline d) = 0;
  virtual ExitStatus kill() = 0;  // SIGKILL, reap
};

class SubprocessAnswers : public AnswerSource {
 public:
  explicit SubprocessAnswers(Subprocess& p) : p_(p) {}
  Subprocess::Io read_line(std::string& line, Deadline d, size_t max_line) override {
    return p_.read_line(line, d, max_line);
  }
  std::string stderr_text() const override { return p_.stderr_text(); }
  std::optional<ExitStatus> wait_ended(Deadline d) override {
    p_.drain_stderr(d);
    return p_.wait_until(d);
  }
  ExitStatus kill() override { return p_.kill(); }

 private:
  Subprocess& p_;
};

// Reads one line per run from `proc` and turns each into an Answer, handed to
// `on_answer(index, answer)` as soon as it is read, in run order. Deadlines: run i by
// min(previous answer + run_timeout, request_deadline). A line longer than
// max_bytes[i] (answer_bound.hpp) is BAD_OUTPUT, read no further. Returns false when
// the process broke the protocol, died or hung: it must then be killed (not done
// here). `who` names the process in messages ("lying", "c: compiled program").
// In free mode a result must be a trace ("mode":"free", SPEC §25.6), else it must not be.
bool collect_answers(AnswerSource& proc, const std::string& who, const std::vector<RunSettings>& runs,
                     double run_timeout, Deadline request_deadline, const std::vector<size_t>& max_bytes,
                     const std::function<void(size_t, Answer)>& on_answer, RunMode mode = RunMode::Conducted);
bool collect_answers(Subprocess& proc, const std::string& who, const std::vector<RunSettings>& runs, double run_timeout,
                     Deadline request_deadline, const std::vector<size_t>& max_bytes,
                     const std::function<void(size_t, Answer)>& on_answer, RunMode mode = RunMode::Conducted);

// Timeouts of one request in place of the spec's (0: the spec's).
struct RequestLimits {
  double run_timeout = 0;
  double request_timeout = 0;
};

class Backend {
 public:
  explicit Backend(BackendSpec spec);
  ~Backend();  // closes stdin, gives the backend a moment to exit, then kills the rest
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  // Exactly one answer per run, in order. Never throws for a fault of the backend.
  // With limits, a backend process that is not running yet is started and warmed
  // up first (warm_up()), so that its start-up does not count against them.
  // Free mode (SPEC §25): the runs are free runs, each answered by a trace.
  std::vector<Answer> request(const ojson& program, const std::vector<RunSettings>& runs, RequestLimits limits = {},
                              RunMode mode = RunMode::Conducted);

  // Sends `line` (with its '\n') as it is, a malformed one too, and reads one answer
  // per run of `runs`, each at most the bound of the same index (answer_bound.hpp):
  // request() on a line of its own making; `concord backend-check` on the lines a
  // harness never writes.
  std::vector<Answer> send_line(const std::string& line, const std::vector<RunSettings>& runs,
                                const std::vector<size_t>& bounds, RequestLimits limits = {},
                                RunMode mode = RunMode::Conducted);
  // Starts the backend process if none runs, without a request: false when it
  // cannot be started.
  bool launch();
  // Closes the backend's stdin and waits up to `seconds` for it to exit: its exit
  // status, or nullopt when it was still running (then killed) or none was running.
  std::optional<ExitStatus> close(double seconds);

  // Starts the backend process if none runs and has it answer a trivial program
  // (one process, nothing sent, turn limit 0) within the spec's timeouts (20 s at
  // least, whatever they are: a start on a loaded machine may be slow): a BEAM
  // node boots, a compiler warms up. True when it answered as the oracle does: the
  // backend works at all (the health check a campaign makes before it believes
  // that a target crashed or hung on a program).
  bool warm_up();
  // Kills the backend process (if any): the next request starts a fresh one.
  void restart() { stop(); }

  const BackendSpec& spec() const { return spec_; }
  int starts() const { return starts_; }  // processes started so far: 1 + restarts
  pid_t pid() const;                      // the live backend process (its group id), or -1

 private:
  bool start(std::vector<Answer>& fail_all, size_t runs);
  void stop();

  BackendSpec spec_;
  std::unique_ptr<TempDir> tmp_;  // the backend's TMPDIR, removed after it dies
  std::unique_ptr<Subprocess> proc_;
  int starts_ = 0;
  bool warming_ = false;  // inside warm_up(): its own request must not warm up again
};

}  // namespace concord
