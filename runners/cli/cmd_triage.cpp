// runners/cli/cmd_triage.cpp: `concord triage CASE`: one case on the oracle and
// every target, what differs and where, in the terminal and (--html) as a page.
#include <iostream>

#include "oracle/error.hpp"
#include "reports/triage_page.hpp"
#include "runners/campaign/corpus_store.hpp"
#include "runners/cli/cli.hpp"

namespace concord {

int cmd_triage(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--target", "--backend", "--backends", "--timeout", "--html"}, {});
  std::string file = one_file(a, "triage");
  if (!is_case_file(file)) throw InputError(file, "not a case file (*.case.json): triage needs a case's runs");
  Case c = load_case(file);
  Targets t = choose_targets(a, a.option("--target") ? *a.option("--target") : "all");
  Triage tr = triage_case(file, c, compared_targets(t), t.declared);
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
  return differ ? kDisagree : unknown ? kInternal : kOk;
}

}  // namespace concord
