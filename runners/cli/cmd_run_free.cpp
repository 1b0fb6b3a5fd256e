// runners/cli/cmd_run_free.cpp: `concord run FILE --mode free`: free runs (SPEC
// §25). On the oracle, the conducted run written as a trace; on targets, N free runs
// each, every trace checked (as `concord check-trace` does), with the verdicts and
// how many distinct traces each target gave: the freedom it actually took.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "oracle/error.hpp"
#include "oracle/free/check_trace.hpp"
#include "oracle/free/from_run.hpp"
#include "oracle/free/trace.hpp"
#include "oracle/printable.hpp"
#include "runners/cli/cli.hpp"
#include "runners/cli/run_free.hpp"
#include "runners/process/files.hpp"
#include "runners/protocol/backend.hpp"

namespace concord {

int run_free(const Args& a, const std::string& file, const Program& p, const RunSettings& r) {
  int64_t runs = 1;
  if (const std::string* s = a.option("--runs")) runs = parse_i64(*s, "--runs");
  if (runs < 1 || runs > 100000) throw InputError("--runs", "the number of free runs is 1..100000");
  const std::string* keep = a.option("--keep");
  if (!a.option("--target")) {  // the oracle: its conducted run, as a trace
    std::string line = trace_line(p, r);
    std::cout << line;
    return line.rfind("{\"ok\":true", 0) == 0 ? kOk : kInternal;
  }
  Targets t = choose_targets(a, *a.option("--target"));
  std::string repro = "concord run " + shell_quote(file) + " --mode free --runs " + std::to_string(runs) +
                      " --turns " + std::to_string(r.turns) + " --max-processes " + std::to_string(r.max_processes);
  ojson program = program_to_json(p);
  std::vector<RunSettings> settings(static_cast<size_t>(runs), r);
  int status = kOk;
  for (const BackendSpec* spec : t.chosen) {
    Backend backend(*spec);
    std::vector<Answer> answers = backend.request(program, settings, {}, RunMode::Free);
    std::set<std::string> distinct;
    int64_t admissible = 0, not_admissible = 0, errors = 0;
    std::map<std::string, int64_t> error_codes;
    for (size_t k = 0; k < answers.size(); k++) {
      const Answer& ans = answers[k];
      std::string label = spec->name + ": free run " + std::to_string(k + 1);
      if (!ans.ok()) {
        errors++;
        error_codes[ans.code()]++;
        if (error_codes[ans.code()] == 1)
          std::cout << label << ": " << ans.code() << ": " << printable(ans.json.value("message", "")) << "\n";
        continue;
      }
      distinct.insert(trace_identity(ans.json));
      std::string kept;
      if (keep) {
        std::filesystem::create_directories(*keep);
        kept = (std::filesystem::path(*keep) / (spec->name + "-run-" + std::to_string(k + 1) + ".trace.json")).string();
        write_file_atomic(kept, ans.line + "\n");
      }
      TraceVerdict v;
      try {
        v = check_trace(p, ans.json);
      } catch (const InputError& e) {
        not_admissible++;
        std::cout << label << ": MALFORMED TRACE: " << e.what() << "\n";
        continue;
      }
      if (v.admissible) {
        admissible++;
        continue;
      }
      not_admissible++;
      std::cout << label << ": NOT ADMISSIBLE: " << printable(violation_line(v.violations[0])) << "\n";
      if (!kept.empty()) std::cout << "  the trace: concord check-trace " << shell_quote(file) << " " << kept << "\n";
    }
    std::cout << spec->name << ": " << runs << " free run(s): " << admissible << " admissible, " << not_admissible
              << " not admissible";
    for (const auto& [code, n] : error_codes) std::cout << ", " << n << " " << code;
    std::cout << "; " << distinct.size() << " distinct trace(s)\n";
    if (not_admissible > 0) {
      status = kDisagree;
      std::cout << "  reproduce: " << repro << " --target " << spec->name << t.declared << "\n";
    } else if (errors > 0 && status == kOk) {
      bool definite = false;
      for (const auto& [code, n] : error_codes) definite = definite || is_definite(code);
      status = definite ? kDisagree : kInternal;
    }
  }
  return status;
}

}  // namespace concord
