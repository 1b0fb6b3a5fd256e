// runners/protocol/serve.cpp: one request line in, one answer line per run out. Order of
// checks: the line is JSON with a "runs" array (else one BAD_REQUEST line, as the
// number of runs is unknown); the envelope (else BAD_REQUEST per run); the program
// (else INVALID_PROGRAM per run); then each run on its own (BAD_REQUEST for that run).
#include "serve.hpp"

#include <iostream>
#include <new>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/free/from_run.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/json_text.hpp"
#include "oracle/memory.hpp"

namespace concord {
namespace {

RunRequest parse_run(const ojson& j) {
  RunRequest r;
  if (!j.is_object()) {
    r.bad = "a run is an object {\"seed\":S,\"turns\":L,\"max_processes\":P}";
    return r;
  }
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "seed" && it.key() != "turns" && it.key() != "max_processes") {
      r.bad = "unknown key '" + printable(it.key()) + "' in a run";
      return r;
    }
  if (!j.contains("seed") || !j.contains("turns") || !j.contains("max_processes")) {
    r.bad = "a run needs \"seed\", \"turns\" and \"max_processes\"";
    return r;
  }
  const ojson& seed = j["seed"];
  if (seed.is_number_unsigned())
    r.settings.seed = seed.get<uint64_t>();
  else
    r.bad = "seed must be an integer in 0..2^64-1";
  for (const char* key : {"turns", "max_processes"}) {
    const ojson& v = j[key];
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t{INT64_MAX})) {
      if (r.bad.empty()) r.bad = std::string(key) + " must be an integer";
      continue;
    }
    (std::string(key) == "turns" ? r.settings.turns : r.settings.max_processes) = v.get<int64_t>();
  }
  if (r.bad.empty()) {
    try {
      check_settings(r.settings);
    } catch (const InputError& e) {
      r.bad = e.what();
    }
  }
  return r;
}

std::string envelope_problem(const ojson& req) {
  for (auto it = req.begin(); it != req.end(); ++it)
    if (it.key() != "concord_protocol" && it.key() != "program" && it.key() != "runs" && it.key() != "mode")
      return "unknown key '" + printable(it.key()) + "' in the request";
  RunMode mode;
  if (req.contains("mode") && !(req["mode"].is_string() && parse_mode(req["mode"].get<std::string>(), mode)))
    return "\"mode\" is \"conducted\" or \"free\" (got " + printable(req["mode"].dump()) + ")";
  if (!req.contains("concord_protocol") || req["concord_protocol"] != 1)
    return "this backend speaks concord_protocol 1 (got " +
           (req.contains("concord_protocol") ? printable(req["concord_protocol"].dump()) : std::string("none")) + ")";
  if (!req.contains("program")) return "the request has no \"program\"";
  return "";
}

void handle(const std::string& line, const Emit& emit, const Answerer& conducted, const Answerer& free) {
  ojson req;
  try {
    req = parse_json_text(line);
  } catch (const InputError& e) {  // not JSON, or JSON concord cannot read (a duplicate key, 1e400)
    emit(error_line("BAD_REQUEST", std::string("the request cannot be read: ") + e.what()));
    return;
  }
  if (!req.is_object() || !req.contains("runs") || !req["runs"].is_array()) {
    emit(error_line("BAD_REQUEST", "a request is an object with a \"runs\" array"));
    return;
  }
  size_t n = req["runs"].size();
  auto all = [&](const std::string& code, const std::string& message) {
    for (size_t i = 0; i < n; i++) emit(error_line(code, message));
  };
  if (std::string p = envelope_problem(req); !p.empty()) return all("BAD_REQUEST", p);
  RunMode mode = RunMode::Conducted;
  if (req.contains("mode")) parse_mode(req["mode"].get<std::string>(), mode);
  if (mode == RunMode::Free && !free)
    return all("UNSUPPORTED", "free runs (\"mode\":\"free\", SPEC §25): this backend runs conducted runs only");
  const Answerer& answer = mode == RunMode::Free ? free : conducted;
  Program program;
  try {
    program = program_from_json(req["program"]);
    check(program);
  } catch (const InputError& e) {
    return all("INVALID_PROGRAM", std::string("program: ") + e.what());
  }
  std::vector<RunRequest> runs;
  for (const ojson& r : req["runs"]) runs.push_back(parse_run(r));
  size_t done = 0;
  Emit counted = [&](const std::string& l) {
    if (done++ < n) emit(l);
  };
  std::string code, message;
  try {
    answer(program, runs, counted);
  } catch (const std::bad_alloc& e) {
    code = "MEMORY", message = dynamic_cast<const OutOfMemory*>(&e) ? e.what() : "out of memory";
  } catch (const std::exception& e) {
    code = "INTERNAL", message = e.what();
  }
  if (done < n && code.empty()) code = "INTERNAL", message = "the target answered fewer runs than asked";
  for (; done < n; done++) emit(error_line(code, message));
}

}  // namespace

void serve(std::istream& in, std::ostream& out, const Answerer& answer, const Answerer& free) {
  Emit emit = [&](const std::string& l) { out << l << std::flush; };
  std::string line;
  while (std::getline(in, line)) handle(line, emit, answer, free);
}

namespace {

// One line per run: `line(p, settings)` for a good run, BAD_REQUEST for a bad one.
void answer_each(const Program& p, const std::vector<RunRequest>& runs, const Emit& emit,
                 std::string (*line)(const Program&, const RunSettings&)) {
  for (const RunRequest& r : runs) emit(r.bad.empty() ? line(p, r.settings) : error_line("BAD_REQUEST", r.bad));
}

std::string oracle_line(const Program& p, const RunSettings& r) { return answer_line(p, r); }

}  // namespace

void answer_with_oracle(const Program& p, const std::vector<RunRequest>& runs, const Emit& emit) {
  answer_each(p, runs, emit, oracle_line);
}

void answer_free_with_oracle(const Program& p, const std::vector<RunRequest>& runs, const Emit& emit) {
  answer_each(p, runs, emit, trace_line);
}

}  // namespace concord
