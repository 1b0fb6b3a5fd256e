// runners/cli/cmd_backend_check.cpp: `concord backend-check NAME`: a protocol self-test
// of one backend (runners/protocol/backend_check.hpp), a line per check as it ends.
#include <iostream>

#include "oracle/error.hpp"
#include "runners/cli/cli.hpp"
#include "runners/protocol/backend_check.hpp"

namespace concord {

int cmd_backend_check(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--backend", "--backends", "--timeout"}, {});
  if (a.positional.size() != 1 || a.positional[0] == "all" || a.positional[0].find(',') != std::string::npos)
    throw InputError("",
                     "usage: concord backend-check NAME [--backend NAME=COMMAND]... [--backends FILE] "
                     "(one backend; see concord --help)");
  Targets t = choose_targets(a, a.positional[0]);
  const BackendSpec& spec = *t.chosen[0];
  std::cout << "concord backend-check " << spec.name << " (claims " << describe(spec.supports) << ")\n" << std::flush;
  int failed = 0, passed = 0, skipped = 0;
  check_backend(spec, [&](const CheckResult& r) {
    std::cout << check_line(r) << "\n" << std::flush;
    (r.status == CheckResult::Status::kFail ? failed : r.status == CheckResult::Status::kPass ? passed : skipped)++;
  });
  std::cout << spec.name << ": " << passed << " passed, " << failed << " failed"
            << (skipped ? ", " + std::to_string(skipped) + " skipped" : "") << "\n";
  return failed ? kDisagree : kOk;
}

}  // namespace concord
