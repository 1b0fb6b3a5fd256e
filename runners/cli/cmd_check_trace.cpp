// runners/cli/cmd_check_trace.cpp: `concord check-trace PROGRAM TRACE`: is each
// trace of TRACE (one JSON line per free run, SPEC §25.6; `-` reads stdin)
// admissible for PROGRAM (SPEC §25.8)? Prints a verdict per trace and, for one that
// is not, the guarantee it breaks in words with the places of the events involved.
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "oracle/error.hpp"
#include "oracle/free/check_trace.hpp"
#include "oracle/json_text.hpp"
#include "oracle/limits.hpp"
#include "oracle/printable.hpp"
#include "runners/cli/cli.hpp"
#include "runners/free/free_case.hpp"
#include "runners/protocol/load.hpp"

namespace concord {
namespace {

// The text of TRACE: a file (bounded like every input, SPEC §11), or stdin.
std::string trace_text(const std::string& path) {
  if (path != "-") return read_file(path);
  std::string text, line;
  while (std::getline(std::cin, line)) {
    text += line + "\n";
    if (text.size() > kMaxInputBytes * 64)
      throw InputError("-", "more than " + std::to_string(kMaxInputBytes * 64) + " bytes of traces on stdin");
  }
  return text;
}

}  // namespace

int cmd_check_trace(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {"--all"});
  if (a.positional.size() != 2)
    throw InputError("", "usage: concord check-trace PROGRAM TRACE [--all] (see concord --help)");
  const std::string& file = a.positional[0];
  const std::string& trace_file = a.positional[1];
  Program p = is_free_case_file(file) ? load_free_case(file).checked
              : is_case_file(file)     ? load_case(file).program
                                       : load_program(file);
  std::string text = trace_text(trace_file);
  int status = kOk;
  size_t count = 0, line_no = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    line_no++;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string where = trace_file + ":" + std::to_string(line_no);
    ojson j;
    try {
      j = parse_json_text(line);
    } catch (const InputError& e) {
      throw InputError(where, e.what());
    }
    if (j.is_object() && j.value("ok", true) == false)
      throw InputError(where, "an error answer, not a trace: " + printable(j.value("code", std::string("?"))) + ": " +
                                  printable(j.value("message", std::string())));
    TraceVerdict v;
    try {
      v = check_trace(p, j);
    } catch (const InputError& e) {
      throw InputError(where + ": " + e.where, e.what_is_wrong);
    }
    count++;
    std::string figures = " (" + std::to_string(v.incarnations) + " incarnations, " + std::to_string(v.turns) +
                          " turns, " + std::to_string(v.delivered) + " messages handled, " +
                          std::to_string(v.dropped) + " dropped)";
    if (v.admissible) {
      std::cout << where << ": admissible" << figures << "\n";
      for (const std::string& u : v.undecided) std::cout << "  not decided: " << u << "\n";
      continue;
    }
    status = kDisagree;
    std::cout << where << ": NOT ADMISSIBLE" << figures << "\n";
    size_t shown = a.flag("--all") ? v.violations.size() : 1;
    for (size_t k = 0; k < shown && k < v.violations.size(); k++) {
      const Violation& x = v.violations[k];
      std::cout << "  " << printable(violation_line(x)) << "\n";
      for (const std::string& place : x.places)
        if (!place.empty()) std::cout << "    at " << trace_file << ":" << line_no << ": " << printable(place) << "\n";
    }
    if (shown < v.violations.size())
      std::cout << "  (" << v.violations.size() - shown << " more; --all shows them)\n";
  }
  if (count == 0) throw InputError(trace_file, "no trace in it");
  return status;
}

}  // namespace concord
