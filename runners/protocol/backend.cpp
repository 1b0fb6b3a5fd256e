// runners/protocol/backend.cpp: driving one protocol backend, and the failure-path rules of
// runners/PROTOCOL.md ("What the harness does when a backend misbehaves").
#include "backend.hpp"

#include <signal.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/memory.hpp"
#include "oracle/printable.hpp"
#include "runners/protocol/answer_bound.hpp"

namespace concord {
namespace {

constexpr const char* kCodes[] = {"INVALID_PROGRAM", "BAD_REQUEST", "UNSUPPORTED", "MEMORY",
                                  "INTERNAL",        "TIMEOUT",     "CRASH",       "BAD_OUTPUT"};
constexpr const char* kIndefinite[] = {"MEMORY", "TIMEOUT", "CRASH"};
constexpr double kWarmUpSeconds = 20;  // at least, for a backend to start and answer a trivial program

// A short, quoted excerpt of what a backend printed, for messages.
std::string snippet(const std::string& text) {
  constexpr size_t kMax = 200;
  ojson s = text.size() > kMax ? text.substr(0, kMax) + "..." : text;
  return printable(s.dump(-1, ' ', false, ojson::error_handler_t::replace));
}

std::string seconds(double s) {
  std::ostringstream o;
  o << s << " s";
  return o.str();
}

// The end of a stderr capture, for a one-line message.
std::string stderr_tail(const std::string& text) {
  constexpr size_t kMax = 1000;
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  std::string t = text.substr(0, end + 1);
  return printable(t.size() > kMax ? "..." + t.substr(t.size() - kMax) : t);
}

bool integer_equals(const ojson& j, int64_t v) {
  if (j.is_number_unsigned()) return v >= 0 && j.get<uint64_t>() == static_cast<uint64_t>(v);
  return j.is_number_integer() && j.get<int64_t>() == v;
}

bool same_run(const ojson& r, const RunSettings& s) {
  if (!r.is_object() || r.size() != 3 || !r.contains("seed") || !r.contains("turns") || !r.contains("max_processes"))
    return false;
  const ojson& seed = r["seed"];
  bool seed_ok = seed.is_number_unsigned() ? seed.get<uint64_t>() == s.seed
                                           : seed.is_number_integer() && seed.get<int64_t>() >= 0 &&
                                                 static_cast<uint64_t>(seed.get<int64_t>()) == s.seed;
  return seed_ok && integer_equals(r["turns"], s.turns) && integer_equals(r["max_processes"], s.max_processes);
}

ojson run_json(const RunSettings& s) {
  ojson j;
  j["seed"] = s.seed;
  j["turns"] = s.turns;
  j["max_processes"] = s.max_processes;
  return j;
}

// SPEC's values are 64-bit signed integers (§3), but nlohmann compares an unsigned
// number with a signed one after a cast (a target's 2^63 equals the oracle's -2^63)
// and a float with an integer after rounding: a number of an answer that is no int64
// becomes its text, a string, which equals no value of the oracle's and shows what
// the target said. run.seed, unsigned by the protocol, is left alone. A loop, not a
// recursion: a hostile answer may nest as deep as its line is long.
void numbers_past_int64_as_text(ojson& top) {
  std::vector<ojson*> todo{&top};
  while (!todo.empty()) {
    ojson& j = *todo.back();
    todo.pop_back();
    if (j.is_object() || j.is_array()) {
      for (ojson& v : j) todo.push_back(&v);
    } else if ((j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) ||
               j.is_number_float()) {
      j = j.dump();
    }
  }
}

// Parses one line as the answer to `run`; returns why it is bad output, or "".
std::string parse_answer(const std::string& line, const RunSettings& run, RunMode mode, Answer& a) {
  try {
    a.json = ojson::parse(line);
  } catch (const ojson::exception&) {  // also a number no double holds (1e400)
    return "not JSON: " + snippet(line);
  }
  a.line = line;
  const ojson& j = a.json;
  if (!j.is_object() || !j.contains("ok") || !j["ok"].is_boolean())
    return "not a result or an error object (no boolean \"ok\"): " + snippet(line);
  if (j["ok"].get<bool>()) {
    if (!j.contains("run")) return "a result without \"run\": " + snippet(line);
    if (!same_run(j["run"], run))
      return "a result for run " + j["run"].dump() + " where " + run_json(run).dump() + " was asked (out of order?)";
    // A free run answers a trace (SPEC §25.6), marked so; a conducted one a result.
    bool trace = j.contains("mode") && j["mode"] == "free";
    if (trace != (mode == RunMode::Free))
      return mode == RunMode::Free ? "a result where a free run's trace (\"mode\":\"free\") was asked"
                                   : "a free run's trace where a conducted result was asked";
    for (auto it = a.json.begin(); it != a.json.end(); ++it)
      if (it.key() != "run") numbers_past_int64_as_text(it.value());
    return "";
  }
  if (j.size() != 3 || !j.contains("code") || !j["code"].is_string() || !j.contains("message") ||
      !j["message"].is_string())
    return "not an error object {\"ok\":false,\"code\":...,\"message\":...}: " + snippet(line);
  if (!is_error_code(j["code"].get<std::string>()))
    return "unknown error code " + j["code"].dump() + " (SPEC §10 has a closed list)";
  return "";
}

// "; stderr tail: ..." of what a live process wrote on stderr so far, or "".
std::string with_stderr_tail(const AnswerSource& proc) {
  std::string tail = stderr_tail(proc.stderr_text());
  return tail.empty() ? "" : "; stderr tail: " + tail;
}

struct Ending {
  std::optional<ExitStatus> status;  // nullopt: had to be killed
  std::string text;                  // "exited with 1; stderr tail: ..."
};

// After stdout closed: collect the rest of stderr and the exit status, briefly.
Ending ended(AnswerSource& proc) {
  Deadline d = deadline_after(1.0);
  Ending e;
  e.status = proc.wait_ended(d);
  e.text = e.status ? e.status->describe() : "closed its stdout but did not exit (" + proc.kill().describe() + ")";
  std::string tail = stderr_tail(proc.stderr_text());
  e.text += tail.empty() ? "; stderr empty" : "; stderr tail: " + tail;
  return e;
}

}  // namespace

std::string Answer::code() const {
  if (ok() || !json.is_object() || !json.contains("code") || !json["code"].is_string()) return "";
  return json["code"].get<std::string>();
}

bool is_error_code(const std::string& code) {
  return std::any_of(std::begin(kCodes), std::end(kCodes), [&](const char* c) { return code == c; });
}

bool is_definite(const std::string& code) {
  return std::none_of(std::begin(kIndefinite), std::end(kIndefinite), [&](const char* c) { return code == c; });
}

Answer harness_error(const std::string& code, const std::string& message) {
  Answer a;
  a.line = error_line(code, message);
  a.line.pop_back();  // the '\n'
  a.json = ojson::parse(a.line);
  return a;
}

std::string request_line(const ojson& program, const std::vector<RunSettings>& runs, RunMode mode) {
  ojson r;
  r["concord_protocol"] = 1;
  if (mode == RunMode::Free) r["mode"] = "free";
  r["program"] = program;
  r["runs"] = ojson::array();
  for (const RunSettings& s : runs) r["runs"].push_back(run_json(s));
  return r.dump(-1, ' ', false, ojson::error_handler_t::replace) + "\n";
}

bool collect_answers(Subprocess& proc, const std::string& who, const std::vector<RunSettings>& runs, double run_timeout,
                     Deadline request_deadline, const std::vector<size_t>& max_bytes,
                     const std::function<void(size_t, Answer)>& on_answer, RunMode mode) {
  SubprocessAnswers answers(proc);
  return collect_answers(answers, who, runs, run_timeout, request_deadline, max_bytes, on_answer, mode);
}

bool collect_answers(AnswerSource& proc, const std::string& who, const std::vector<RunSettings>& runs,
                     double run_timeout, Deadline request_deadline, const std::vector<size_t>& max_bytes,
                     const std::function<void(size_t, Answer)>& on_answer, RunMode mode) {
  auto fail_from = [&](size_t from, const std::string& code, const std::string& message) {
    for (size_t k = from; k < runs.size(); k++) on_answer(k, harness_error(code, message));
  };
  for (size_t i = 0; i < runs.size(); i++) {
    std::string run = "run " + std::to_string(i);
    Deadline run_deadline = deadline_after(run_timeout);
    bool request_first = request_deadline < run_deadline;
    std::string line;
    size_t bound = i < max_bytes.size() ? max_bytes[i] : kErrorLineBound;
    size_t max_line = std::min(bound, answer_parse_limit());  // read no more than we can afford to parse
    switch (proc.read_line(line, std::min(run_deadline, request_deadline), max_line)) {
      case Subprocess::Io::kOk: {
        Answer a;
        std::string problem = parse_answer(line, runs[i], mode, a);
        if (problem.empty()) {
          on_answer(i, std::move(a));
          continue;
        }
        on_answer(i, harness_error("BAD_OUTPUT", who + ": " + run + ": " + problem + with_stderr_tail(proc)));
        fail_from(i + 1, "BAD_OUTPUT", who + ": not answered: " + run + " was bad output");
        return false;
      }
      case Subprocess::Io::kTimeout:
        on_answer(i, harness_error("TIMEOUT", who + ": no answer for " + run + " within " +
                                                  (request_first ? "the request timeout" : seconds(run_timeout)) +
                                                  with_stderr_tail(proc)));
        fail_from(i + 1, "TIMEOUT", who + ": not answered: " + run + " timed out");
        return false;
      case Subprocess::Io::kTooLong:
        if (max_line < bound) {  // it may be correct, but too long for the harness to compare
          on_answer(i,
                    harness_error("MEMORY", who + ": " + run + " (seed " + std::to_string(runs[i].seed) + ", turns " +
                                                std::to_string(runs[i].turns) + "): an answer line longer than " +
                                                size_text(static_cast<int64_t>(max_line)) +
                                                ", the most the harness reads and parses (a sixteenth of the "
                                                "oracle's memory limit; $" +
                                                kOracleMemoryVariable + " raises it)" + with_stderr_tail(proc)));
          fail_from(i + 1, "MEMORY", who + ": not answered: " + run + " was too long");
          return false;
        }
        on_answer(i, harness_error("BAD_OUTPUT", who + ": " + run + ": a line longer than " + std::to_string(max_line) +
                                                     " bytes, the most this run can produce (PROTOCOL.md)" +
                                                     with_stderr_tail(proc)));
        fail_from(i + 1, "BAD_OUTPUT", who + ": not answered: " + run + " was bad output");
        return false;
      case Subprocess::Io::kEof: {
        Ending e = ended(proc);
        size_t from = i;
        if (!line.empty())  // a partial line: bad output for this run, then it ended
          on_answer(from++, harness_error("BAD_OUTPUT", who + ": " + run + ": output ended inside a line (" + e.text +
                                                            "): " + snippet(line)));
        bool cpu_limit = e.status && e.status->signaled && e.status->code == SIGXCPU;
        fail_from(from, cpu_limit ? "TIMEOUT" : "CRASH", who + ": " + e.text);
        return false;
      }
    }
  }
  return true;
}

Backend::Backend(BackendSpec spec) : spec_(std::move(spec)) {}

Backend::~Backend() {
  close(0.5);  // a well-behaved backend exits at EOF and cleans up after itself
}

pid_t Backend::pid() const { return proc_ ? proc_->pid() : -1; }

void Backend::stop() {
  if (proc_) proc_->kill();
  proc_.reset();
  tmp_.reset();  // after the process: whatever it left in its TMPDIR goes too
}

bool Backend::start(std::vector<Answer>& out, size_t runs) {
  try {
    std::string tag = spec_.name;
    for (char& c : tag)
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    tmp_ = std::make_unique<TempDir>("concord-" + tag);
    Command cmd{spec_.command, spec_.env, "", spec_.limits};
    cmd.env.emplace_back("TMPDIR", tmp_->path());
    proc_ = std::make_unique<Subprocess>(cmd);
    starts_++;
    return true;
  } catch (const std::exception& e) {
    stop();
    for (size_t i = 0; i < runs; i++) out.push_back(harness_error("CRASH", spec_.name + ": " + e.what()));
    return false;
  }
}

bool Backend::warm_up() {
  static const ojson kTrivial =
      ojson::parse(R"({"concord":1,"kinds":[{"name":"K","params":[],"state":[],"init":[],"handlers":[]}],)"
                   R"("system":[{"process":{"name":"a","kind":"K","args":[]}}],"given":[]})");
  static const RunSettings kRun{0, 0, 1};
  static const std::string kExpected = [] {
    Program p = program_from_json(kTrivial);
    check(p);
    std::string line = result_line(run(p, kRun));
    line.pop_back();
    return line;
  }();
  // Start-up may take long on a loaded machine, whatever a request is allowed.
  std::vector<Answer> got = request(
      kTrivial, {kRun},
      RequestLimits{std::max(spec_.run_timeout, kWarmUpSeconds), std::max(spec_.request_timeout, kWarmUpSeconds)});
  return got.size() == 1 && got[0].line == kExpected;
}

std::vector<Answer> Backend::request(const ojson& program, const std::vector<RunSettings>& runs, RequestLimits limits,
                                     RunMode mode) {
  if (runs.empty()) return {};
  return send_line(request_line(program, runs, mode), runs, answer_bytes_bounds(program, runs, mode), limits, mode);
}

bool Backend::launch() {
  std::vector<Answer> unused;
  return proc_ || start(unused, 0);
}

std::optional<ExitStatus> Backend::close(double seconds) {
  if (!proc_) return std::nullopt;
  proc_->close_stdin();
  Deadline d = deadline_after(seconds);
  proc_->drain_stderr(d);
  std::optional<ExitStatus> status = proc_->wait_until(d);
  stop();
  return status;
}

std::vector<Answer> Backend::send_line(const std::string& line, const std::vector<RunSettings>& runs,
                                       const std::vector<size_t>& bounds, RequestLimits limits, RunMode mode) {
  std::vector<Answer> out;
  if (proc_ && proc_->output_pending()) stop();  // it printed between requests, or died: start afresh
  if (!proc_ && limits.run_timeout > 0 && !warming_) {
    warming_ = true;
    warm_up();
    warming_ = false;
  }
  if (!proc_ && !start(out, runs.size())) return out;
  double run_timeout = limits.run_timeout > 0 ? limits.run_timeout : spec_.run_timeout;
  Deadline request_deadline =
      deadline_after(limits.request_timeout > 0 ? limits.request_timeout : spec_.request_timeout);
  Deadline first = std::min(request_deadline, deadline_after(run_timeout));
  if (proc_->write(line, first) == Subprocess::Io::kTimeout) {
    for (size_t i = 0; i < runs.size(); i++)
      out.push_back(harness_error("TIMEOUT", spec_.name + ": did not read its request in time"));
    stop();
    return out;
  }
  // A failed write (kEof) means it is gone: reading tells how it ended.
  bool healthy = collect_answers(
      *proc_, spec_.name, runs, run_timeout, request_deadline, bounds,
      [&](size_t, Answer a) { out.push_back(std::move(a)); }, mode);
  if (!healthy) stop();
  return out;
}

}  // namespace concord
