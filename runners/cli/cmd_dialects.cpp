// runners/cli/cmd_dialects.cpp: `concord dialects`: the oracle's catalogue of
// alternative rules (oracle/dialect.hpp), which declared deviations name, attribution
// by replay tries (runners/triage/replay.hpp), and `concord run FILE --dialect ID` runs.
#include <iostream>

#include "oracle/dialect.hpp"
#include "oracle/error.hpp"
#include "runners/cli/cli.hpp"
#include "runners/protocol/load.hpp"

namespace concord {

int cmd_dialects(int argc, char** argv) {
  Args a = parse_args(argc, argv, {}, {"--json"});
  if (!a.positional.empty()) throw InputError("", "usage: concord dialects [--json] (see concord --help)");
  if (a.flag("--json")) {
    ojson out = ojson::array();
    for (const Alternative& x : alternatives())
      out.push_back(ojson{{"id", x.id},
                          {"scope", scope_text(x.scope)},
                          {"replaces", x.rule},
                          {"bucket", x.bucket},
                          {"instead", x.instead},
                          {"freedom", x.freedom}});
    std::cout << out.dump(2) << "\n";
    return kOk;
  }
  for (const Alternative& x : alternatives()) {
    std::cout << x.id << "\n  in:       " << scope_text(x.scope) << "\n  replaces: SPEC " << x.rule
              << "\n  instead:  " << x.instead << "\n  bucket:   " << x.bucket << "\n";
    if (*x.freedom) std::cout << "  freedom:  " << x.freedom << "\n";
  }
  return kOk;
}

}  // namespace concord
