// tests/targets/erlang_backend.hpp: the one `concord backend erlang` process a test
// binary shares across its tests (so one BEAM node serves them all, as in a
// campaign), and an in-process ErlangTarget for the tests that watch its node.
#pragma once

#include <string>
#include <vector>

#include "runners/protocol/backend.hpp"
#include "targets/erlang/launcher/erlang_launcher.hpp"

namespace concord {

inline Backend& erlang_backend() {
  static Backend b([] {
    BackendSpec s;
    s.name = "erlang";
    s.command = {CONCORD_BINARY, "backend", "erlang"};
    s.run_timeout = 60;  // the first run includes starting the node and compiling the module
    s.request_timeout = 300;
    return s;
  }());
  return b;
}

// The configuration of `concord backend erlang` in this build ($CONCORD_ERL and
// $CONCORD_ERLANG_EBIN still apply), with short timeouts for the fault tests.
inline ErlangTargetConfig erlang_test_config(double run_timeout = 20) {
  ErlangTargetConfig cfg = erlang_config_from_env(CONCORD_ERLANG_EBIN);
  cfg.run_timeout = run_timeout;
  cfg.request_timeout = 4 * run_timeout;
  return cfg;
}

// The lines (without '\n') an ErlangTarget answers for `runs`, all well-formed.
inline std::vector<std::string> ask(ErlangTarget& t, const Program& p, const std::vector<RunSettings>& runs) {
  std::vector<RunRequest> requests;
  for (const RunSettings& r : runs) requests.push_back(RunRequest{r, ""});
  std::vector<std::string> lines;
  t.answer(p, requests, [&](const std::string& l) { lines.push_back(l.substr(0, l.size() - 1)); });
  return lines;
}

}  // namespace concord
