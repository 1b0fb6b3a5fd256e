// targets/common/framed_runtime.cpp: a persistent interpreter fed one frame per
// request (framed_runtime.hpp).
#include "framed_runtime.hpp"

#include <cstdint>
#include <new>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "oracle/interpreter.hpp"
#include "runners/protocol/answer_bound.hpp"
#include "runners/protocol/backend.hpp"
#include "targets/common/unsupported.hpp"

namespace concord {
namespace {

std::string seconds(double s) {
  std::ostringstream o;
  o << s << " s";
  return o.str();
}

}  // namespace

std::string runtime_frame(const std::string& source, const std::vector<RunSettings>& runs, RunMode mode) {
  std::string payload = mode == RunMode::Free ? "free " : "";
  for (const RunSettings& s : runs)
    payload += (&s == runs.data() ? "" : ";") + std::to_string(s.seed) + " " + std::to_string(s.turns) + " " +
               std::to_string(s.max_processes);
  payload += "\n";
  payload += source;
  if (payload.size() > UINT32_MAX) throw std::length_error("the program does not fit in a frame (4 GiB)");
  auto n = static_cast<uint32_t>(payload.size());
  std::string f = {static_cast<char>(n >> 24), static_cast<char>(n >> 16), static_cast<char>(n >> 8),
                   static_cast<char>(n)};
  return f + payload;
}

FramedRuntime::FramedRuntime(FramedRuntimeConfig cfg) : cfg_(std::move(cfg)) {}

FramedRuntime::~FramedRuntime() { retire(); }

void FramedRuntime::retire() {
  if (!proc_) return;
  proc_->close_stdin();  // the interpreter ends at end of input
  Deadline d = deadline_after(0.5);
  proc_->drain_stderr(d);
  proc_->wait_until(d);
  stop();
}

pid_t FramedRuntime::pid() const { return proc_ ? proc_->pid() : -1; }

void FramedRuntime::start() {
  tmp_ = std::make_unique<TempDir>("concord-" + cfg_.target);
  frames_ = 0;
  try {
    proc_ = std::make_unique<Subprocess>(cfg_.command(tmp_->path()));
  } catch (const SubprocessError& e) {
    throw SubprocessError(std::string(e.what()) + (cfg_.start_hint.empty() ? "" : " (" + cfg_.start_hint + ")"));
  }
  if (cfg_.ready_line.empty()) return;
  std::string line;
  std::string why;
  switch (proc_->read_line(line, deadline_after(cfg_.boot_timeout), 4096)) {
    case Subprocess::Io::kOk:
      if (line == cfg_.ready_line) return;
      why = "printed \"" + line.substr(0, 200) + "\" where it says \"" + cfg_.ready_line + "\"";
      break;
    case Subprocess::Io::kTimeout: why = "was not ready within " + seconds(cfg_.boot_timeout); break;
    case Subprocess::Io::kTooLong: why = "printed a line of more than 4096 bytes where it says it is ready"; break;
    case Subprocess::Io::kEof: {
      std::optional<ExitStatus> st = proc_->wait_until(deadline_after(1));
      why = "ended before it was ready" + (st ? " (" + st->describe() + ")" : std::string());
      break;
    }
  }
  proc_->drain_stderr(deadline_after(0.2));
  std::string err = proc_->stderr_text();
  if (err.size() > 2000) err = err.substr(0, 2000) + "...";
  stop();
  throw std::runtime_error(why + (err.empty() ? "" : "; its stderr: " + err));
}

void FramedRuntime::stop() {
  if (proc_) proc_->kill();
  proc_.reset();
  tmp_.reset();  // after the process: whatever it left there goes too
}

void FramedRuntime::run_frame(const std::string& f, const std::vector<RunSettings>& good,
                              const std::vector<size_t>& max_bytes, RunMode mode,
                              const std::function<void(size_t, const std::string&)>& on_answer) {
  // An interpreter that printed between requests, or died, is replaced.
  if (proc_ && (proc_->wait_until(Clock::now()) || proc_->output_pending())) stop();
  if (proc_ && cfg_.requests_per_process > 0 && frames_ >= cfg_.requests_per_process) retire();
  if (!proc_) start();
  frames_++;
  Deadline request_deadline = deadline_after(cfg_.request_timeout);
  Deadline first = std::min(request_deadline, deadline_after(cfg_.run_timeout));
  if (proc_->write(f, first) == Subprocess::Io::kTimeout) {
    for (size_t k = 0; k < good.size(); k++)
      on_answer(
          k, harness_error("TIMEOUT", cfg_.who + ": did not read its frame within " + seconds(cfg_.run_timeout)).line);
    stop();
    return;
  }
  // A failed write (kEof) means the interpreter is gone: reading tells how it ended.
  bool healthy =
      collect_answers(*proc_, cfg_.who, good, cfg_.run_timeout, request_deadline, max_bytes, [&](size_t k, Answer a) {
        if (a.code() == "CRASH")
          for (const std::string& marker : cfg_.memory_markers)
            if (proc_->stderr_text().find(marker) != std::string::npos) {
              a = harness_error("MEMORY", a.json["message"].get<std::string>());
              break;
            }
        on_answer(k, a.line);
      }, mode);
  if (!healthy) stop();
}

void FramedRuntime::answer(const Program& p, const std::vector<RunRequest>& runs, const Emit& emit, RunMode mode) {
  std::vector<RunSettings> good;
  std::vector<size_t> index;  // good run -> its place in `runs`
  for (size_t i = 0; i < runs.size(); i++)
    if (runs[i].bad.empty()) {
      good.push_back(runs[i].settings);
      index.push_back(i);
    }
  size_t next = 0;  // the next run of `runs` to answer
  auto answer_bad_until = [&](size_t end) {
    for (; next < end; next++) emit(error_line("BAD_REQUEST", runs[next].bad));
  };
  auto fail_rest = [&](const std::string& code, const std::string& message) {
    for (; next < runs.size(); next++)
      emit(runs[next].bad.empty() ? error_line(code, message) : error_line("BAD_REQUEST", runs[next].bad));
  };
  if (good.empty()) return answer_bad_until(runs.size());  // no interpreter needed

  const auto& emit_source = mode == RunMode::Free ? cfg_.emit_free : cfg_.emit;
  if (!emit_source)
    return fail_rest("UNSUPPORTED", cfg_.target + ": free runs (SPEC §25) are not implemented by this target");
  std::string f;
  try {
    f = runtime_frame(emit_source(p), good, mode);
  } catch (const std::bad_alloc&) {
    throw;                          // serve() answers MEMORY
  } catch (const Unsupported& e) {  // e.g. a version 2 program: not implemented yet (SPEC §10)
    return fail_rest("UNSUPPORTED", e.what());
  } catch (const std::exception& e) {
    return fail_rest("INTERNAL", "emit_" + cfg_.target + ": " + e.what());
  }
  try {
    std::vector<size_t> bounds;  // an answer longer than its run can produce is BAD_OUTPUT, read no further
    for (const RunSettings& s : good) bounds.push_back(answer_bytes_bound(p, s, mode));
    run_frame(f, good, bounds, mode, [&](size_t k, const std::string& line) {
      answer_bad_until(index[k]);
      emit(line + "\n");
      next++;
    });
  } catch (const std::bad_alloc&) {
    stop();
    throw;
  } catch (const std::exception& e) {  // the interpreter could not be started
    stop();
    fail_rest("CRASH", cfg_.target + ": cannot start the " + cfg_.who + ": " + e.what());
  }
  answer_bad_until(runs.size());
}

}  // namespace concord
