// runners/cli/cmd_triage.cpp: `concord triage CASE`: one case on the oracle and
// every target, what differs and where, in the terminal and (--html) as a page.
#include <filesystem>
#include <iostream>

#include "oracle/error.hpp"
#include "oracle/free/check_trace.hpp"
#include "oracle/printable.hpp"
#include "reports/free_triage.hpp"
#include "reports/triage_page.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/cli/cli.hpp"
#include "runners/free/free_case.hpp"

namespace concord {
namespace {

// A free case (*.free.json): its free runs again on each target (the case's number of
// them), the first trace that breaks a guarantee shown; with no target named (or
// none breaking one), the witness kept in the case.
int triage_free(const Args& a, const std::string& file) {
  FreeCase c = load_free_case(file);
  FreeTriage tr;
  tr.program = &c.checked;
  tr.title = c.signature + " (" + c.name + ")";
  bool broken = false, unknown = false;
  if (const std::string* target = a.option("--target")) {
    Targets t = choose_targets(a, *target);
    for (const BackendSpec* spec : t.chosen) {
      Backend b(*spec);
      std::vector<Answer> got = b.request(
          c.program, std::vector<RunSettings>(static_cast<size_t>(c.free_runs), c.settings), {}, RunMode::Free);
      int admissible = 0;
      for (const Answer& ans : got) {
        if (!ans.ok()) {
          std::cout << spec->name << ": " << ans.code() << ": " << printable(ans.json.value("message", "")) << "\n";
          unknown = unknown || !is_definite(ans.code());
          broken = broken || (is_definite(ans.code()) && ans.code() != "UNSUPPORTED");
          continue;
        }
        TraceVerdict v = check_trace(c.checked, ans.json);
        if (v.admissible) {
          admissible++;
          continue;
        }
        if (!broken) {
          tr.trace = ans.json;
          tr.verdict = v;
          tr.note = "a trace of " + spec->name + " now";
        }
        broken = true;
      }
      std::cout << spec->name << ": " << admissible << " of " << got.size() << " free runs admissible\n";
    }
  }
  if (tr.trace.is_null()) {
    if (c.witness.is_null()) {
      std::cout << "no trace to show: the case keeps no witness, and no target named broke a guarantee\n";
      return broken ? kDisagree : unknown ? kInternal : kOk;
    }
    tr.trace = c.witness;
    tr.verdict = check_trace(c.checked, c.witness);
    tr.note = "the witness kept when the case was stored" +
              std::string(a.option("--target") ? "; the targets named broke no guarantee now" : "");
  }
  tr.commands = {"concord check-trace " + shell_quote(file) + " TRACE",
                 "concord run " + shell_quote(file) + " --mode free --runs " + std::to_string(c.free_runs) +
                     " --target TARGET --keep DIR"};
  std::cout << free_triage_text(tr);
  if (const std::string* out = a.option("--html")) {
    write_file_atomic(*out, free_triage_html(tr));
    std::cout << "\npage written: " << *out << "\n";
  }
  if (!a.option("--target")) {
    std::cout << "(no --target: this is the trace the case keeps; name a target to see whether it still breaks "
                 "a guarantee)\n";
    return kBadInput;
  }
  return broken ? kDisagree : unknown ? kInternal : kOk;
}

}  // namespace

int cmd_triage(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--target", "--backend", "--backends", "--timeout", "--html"}, {});
  std::string file = one_file(a, "triage");
  if (is_free_case_file(file)) return triage_free(a, file);
  if (!is_case_file(file))
    throw InputError(file, "not a case file (*.case.json, or a free case *.free.json): triage needs a case's runs");
  Case c = load_case(file);
  Targets t = choose_targets(a, a.option("--target") ? *a.option("--target") : "all");
  Triage tr = triage_case(file, c, compared_targets(t), t.declared);
  if (const std::string* out = a.option("--html")) tr.page_dir = std::filesystem::path(*out).parent_path().string();
  std::cout << triage_text(tr);
  if (const std::string* out = a.option("--html")) {
    write_file_atomic(*out, triage_html(tr));
    std::cout << "\npage written: " << *out << "\n";
  }
  bool differ = false, unknown = false;
  for (const TargetTriage& tt : tr.targets) {
    differ = differ || (tt.state == TargetTriage::State::kDiffer && tt.deviation.empty());  // a known deviation passes
    unknown = unknown || tt.state == TargetTriage::State::kNoVerdict;
  }
  // A target the case's signature names that did not run here: nothing checked
  // whether it still differs, so never "fixed" (an "is it fixed?" step in CI).
  if (!differ && !tr.not_run.empty()) {
    std::string names;
    for (const std::string& n : tr.not_run) names += (names.empty() ? "" : ", ") + n;
    std::cerr << "concord triage: " << printable(file) << ": its recorded signature names " << printable(names)
              << ", not run here, so nothing checked whether it still differs: declare it with --backend "
                 "NAME=COMMAND (and name it in --target)\n";
    return kBadInput;
  }
  return differ ? kDisagree : unknown ? kInternal : kOk;
}

}  // namespace concord
