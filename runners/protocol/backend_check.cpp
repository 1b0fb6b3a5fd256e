// runners/protocol/backend_check.cpp: the checks of `concord backend-check`
// (backend_check.hpp), each a request, the answers it must get, and what came back.
#include "backend_check.hpp"

#include <cstdint>

#include "oracle/interpreter.hpp"
#include "oracle/printable.hpp"
#include "runners/protocol/answer_bound.hpp"
#include "runners/protocol/backend_check_programs.hpp"
#include "runners/protocol/diff.hpp"

namespace concord {
namespace {

using Status = CheckResult::Status;
constexpr double kEofSeconds = 5;  // more than the harness's 0.5 s: a loaded machine is slow to exit too

std::string oracle_line(const Program& p, const RunSettings& r) {
  std::string line = answer_line(p, r);
  line.pop_back();  // the '\n'
  return line;
}

std::string shortened(const std::string& text) {
  constexpr size_t kMax = 160;
  return printable(text.size() > kMax ? text.substr(0, kMax) + "..." : text);
}

// An answer in a few words: "BAD_REQUEST (message...)", or a result.
std::string words(const Answer& a) {
  if (!a.ok()) return a.code() + " (" + shortened(a.json.value("message", std::string())) + ")";
  return "a result (outcome " + a.json.value("outcome", std::string("?")) + ")";
}

// Is `got` the oracle's answer `expected` (a result byte for byte, an error by code)?
// "" when it is, else what it is instead.
std::string against_oracle(const std::string& expected, const Answer& got) {
  if (got.line == expected) return "";
  ojson want = ojson::parse(expected);
  if (!want.value("ok", false)) {
    std::string code = want.value("code", std::string());
    return got.code() == code ? "" : words(got) + " where the oracle answers " + code;
  }
  if (!got.ok()) return words(got) + " where the oracle has a result";
  if (std::optional<Difference> d = first_difference(want, got.json))
    return "a result that differs from the oracle's at " + d->pointer + ": expected " +
           shortened(d->left_missing ? "nothing" : d->left.dump()) + ", got " +
           shortened(d->right_missing ? "nothing" : d->right.dump());
  return "the oracle's result, not byte for byte (SPEC §9.3): " + shortened(got.line);
}

CheckResult result(const std::string& id, const std::string& sent, const std::string& expected,
                   const std::string& problem, const std::string& fine) {
  return CheckResult{problem.empty() ? Status::kPass : Status::kFail, id, sent, expected,
                     problem.empty() ? fine : problem};
}

class Checker {
 public:
  explicit Checker(const BackendSpec& spec)
      : spec_(spec), backend_(spec), version_(spec.supports.everything || spec.supports.version1 ? 1 : 2) {}

  CheckResult runs() {
    Program p = check_programs::workers(version_);
    std::vector<RunSettings> runs = {{0, 100, 10}, {1, 3, 10}, {7, 0, 1}, {UINT64_MAX, 50, 4}};
    std::vector<Answer> got = backend_.request(program_to_json(p), runs);
    std::string problem;
    for (size_t i = 0; i < runs.size() && problem.empty(); i++)
      if (std::string d = against_oracle(oracle_line(p, runs[i]), got[i]); !d.empty())
        problem = "run " + std::to_string(i) + ": " + d;
    return result("runs", "a version " + std::to_string(version_) + " program of workers with 4 runs",
                  "4 answers in order, each the oracle's", problem, "4 answers, each the oracle's");
  }

  CheckResult not_json() {
    std::vector<Answer> got =
        backend_.send_line("this is not a request {\n", {RunSettings{0, 0, 1}}, {kErrorLineBound});
    std::string problem = got[0].code() == "BAD_REQUEST" ? serves_next() : words(got[0]);
    return result("not-json", "a line that is not JSON", "one BAD_REQUEST line, then the next request served", problem,
                  "BAD_REQUEST, then the next request served");
  }

  CheckResult invalid_program() {
    ojson program = check_programs::not_a_program(version_);
    std::vector<RunSettings> runs = {{0, 10, 5}, {1, 10, 5}};
    std::vector<Answer> got = backend_.send_line(request_line(program, runs), runs, answer_bytes_bounds(program, runs));
    std::string problem;
    for (size_t i = 0; i < got.size() && problem.empty(); i++)
      if (got[i].code() != "INVALID_PROGRAM") problem = "run " + std::to_string(i) + ": " + words(got[i]);
    if (problem.empty()) problem = serves_next();
    return result("invalid-program", "a program that is not one (a kind without \"handlers\"), 2 runs",
                  "INVALID_PROGRAM for each run, then the next request served", problem,
                  "INVALID_PROGRAM twice, then the next request served");
  }

  CheckResult unknown_setting() {
    Program p = check_programs::trivial(version_);
    std::vector<RunSettings> runs = {{1, 10, 5}, {2, 10, 5}};
    ojson req;
    req["concord_protocol"] = 1;
    req["program"] = program_to_json(p);
    req["runs"] = ojson::array({ojson{{"seed", 1}, {"turns", 10}, {"max_processes", 5}, {"speed", 3}},
                                ojson{{"seed", 2}, {"turns", 10}, {"max_processes", 5}}});
    std::vector<Answer> got = backend_.send_line(req.dump() + "\n", runs, answer_bytes_bounds(req["program"], runs));
    std::string problem = got[0].code() == "BAD_REQUEST" ? "" : "run 0: " + words(got[0]);
    if (problem.empty())
      if (std::string d = against_oracle(oracle_line(p, runs[1]), got[1]); !d.empty()) problem = "run 1: " + d;
    return result("unknown-setting", "a run with the unknown key \"speed\", then a good run",
                  "BAD_REQUEST for the first run only, the oracle's result for the second", problem,
                  "BAD_REQUEST, then the oracle's result");
  }

  CheckResult not_claimed() {
    std::string sent = "a version 2 program that uses every feature, 2 runs";
    std::string expected = "each run the oracle's answer, or UNSUPPORTED";
    if (!spec_.supports.everything)
      return CheckResult{Status::kSkip, "not-claimed", sent, expected,
                         "not sent: " + spec_.name + " claims " + describe(spec_.supports) +
                             ", and concord never sends it a program that uses more"};
    Program p = check_programs::every_feature();
    std::vector<RunSettings> runs = {{0, 100, 20}, {5, 100, 20}};
    std::vector<Answer> got = backend_.request(program_to_json(p), runs);
    std::string problem;
    int unsupported = 0;
    for (size_t i = 0; i < runs.size() && problem.empty(); i++) {
      if (got[i].code() == "UNSUPPORTED") {
        unsupported++;
        continue;
      }
      if (std::string d = against_oracle(oracle_line(p, runs[i]), got[i]); !d.empty())
        problem = "run " + std::to_string(i) + ": " + d;
    }
    return result("not-claimed", sent, expected, problem,
                  unsupported == 0 ? "the oracle's answers" : std::to_string(unsupported) + " UNSUPPORTED");
  }

  CheckResult huge() {
    constexpr int kProcesses = 2000, kGiven = 20000;
    Program p = check_programs::huge(version_, kProcesses, kGiven);
    RunSettings run{3, 500, 10000};
    std::vector<Answer> got = backend_.request(program_to_json(p), {run});
    std::string code = got[0].code();
    std::string problem = code == "MEMORY" || code == "UNSUPPORTED" ? "" : against_oracle(oracle_line(p, run), got[0]);
    return result("huge", std::to_string(kProcesses) + " processes and " + std::to_string(kGiven) + " given messages",
                  "the oracle's result, or MEMORY or UNSUPPORTED, in time", problem,
                  code.empty() ? "the oracle's result" : code);
  }

  CheckResult eof() {
    const char* sent = "stdin closed";
    const char* expected = "exit with status 0 within 5 s";
    // A process to close: the last check may have ended it.
    if (!backend_.launch()) return result("eof", sent, expected, "no process: it cannot be started", "");
    std::optional<ExitStatus> status = backend_.close(kEofSeconds);
    std::string problem = !status                                 ? "still running after 5 s (then killed)"
                          : status->signaled || status->code != 0 ? status->describe()
                                                                  : "";
    return result("eof", sent, expected, problem, "exited with 0");
  }

 private:
  // After a request it must refuse, the backend still serves: the trivial program
  // gets the oracle's answer, from the same process.
  std::string serves_next() {
    int starts = backend_.starts();
    Program p = check_programs::trivial(version_);
    RunSettings run{0, 0, 1};
    std::string d = against_oracle(oracle_line(p, run), backend_.request(program_to_json(p), {run})[0]);
    if (!d.empty()) return "then, for the trivial program: " + d;
    if (backend_.starts() != starts) return "then it printed more lines or exited (it had to be restarted)";
    return "";
  }

  const BackendSpec& spec_;
  Backend backend_;
  int version_;  // of the programs sent: one the backend claims
};

}  // namespace

std::vector<CheckResult> check_backend(const BackendSpec& spec,
                                       const std::function<void(const CheckResult&)>& on_result) {
  Checker c(spec);
  std::vector<std::function<CheckResult()>> checks = {[&] { return c.runs(); },
                                                      [&] { return c.not_json(); },
                                                      [&] { return c.invalid_program(); },
                                                      [&] { return c.unknown_setting(); },
                                                      [&] { return c.not_claimed(); },
                                                      [&] { return c.huge(); },
                                                      [&] { return c.eof(); }};
  std::vector<CheckResult> out;
  for (const auto& check : checks) {
    out.push_back(check());
    if (on_result) on_result(out.back());
  }
  return out;
}

std::string check_line(const CheckResult& r) {
  const char* word = r.status == Status::kPass ? "PASS" : r.status == Status::kFail ? "FAIL" : "SKIP";
  return std::string(word) + "  " + r.id + ": " + r.sent + ": expected " + r.expected + "; got " + r.got;
}

}  // namespace concord
