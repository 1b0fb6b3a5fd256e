// runners/cli/cmd_backend.cpp: `concord backend oracle|NAME`: the oracle and the
// built-in targets (targets/targets.hpp) serving the backend protocol
// (runners/PROTOCOL.md) on stdin/stdout.
#include <iostream>

#include "oracle/dialect.hpp"
#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "runners/cli/cli.hpp"
#include "runners/protocol/serve.hpp"
#include "targets/targets.hpp"

namespace concord {

// `concord backend NAME`: serve the protocol on stdin/stdout until EOF.
int cmd_backend(int argc, char** argv) {
  Args a = parse_args(argc, argv, {"--timeout", "--threads", "--dialect"}, {});
  std::string names = "oracle";
  for (const std::string& n : builtin_targets()) names += "|" + n;
  const TargetEntry* target = a.positional.size() == 1 ? find_target(a.positional[0]) : nullptr;
  if (a.positional.size() != 1 || (a.positional[0] != "oracle" && !target))
    throw InputError("", "usage: concord backend " + names + " (see concord --help)");
  if (!target && a.option("--dialect")) {  // the oracle in a dialect: what a declared deviation claims
    Dialect d = dialect_named(*a.option("--dialect"), "--dialect");
    serve(std::cin, std::cout, [&](const Program& p, const std::vector<RunRequest>& runs, const Emit& emit) {
      for (const RunRequest& r : runs)
        emit(r.bad.empty() ? answer_line(p, r.settings, {}, d) : error_line("BAD_REQUEST", r.bad));
    });
    return kOk;
  }
  if (a.option("--dialect")) throw InputError("--dialect", "the oracle's option: concord backend oracle --dialect ID");
  if (!target) {
    serve(std::cin, std::cout, answer_with_oracle, answer_free_with_oracle);
    return kOk;
  }
  LaunchOptions opts;
  if (const std::string* t = a.option("--timeout")) opts.run_timeout = parse_seconds(*t, "--timeout");
  if (const std::string* t = a.option("--threads")) {
    int64_t n = parse_i64(*t, "--threads");
    if (n < 1 || n > 256) throw InputError("--threads", "1..256, not " + *t);
    opts.threads = static_cast<int>(n);
  }
  return target->serve(opts) == 0 ? kOk : kInternal;
}

}  // namespace concord
