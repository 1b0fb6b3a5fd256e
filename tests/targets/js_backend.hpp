// tests/targets/js_backend.hpp: the one `concord backend js` process a test binary
// shares across its tests (so one node serves them all, as in a campaign), and an
// in-process FramedRuntime running the js target for the tests that watch its node.
#pragma once

#include <string>
#include <vector>

#include "runners/protocol/backend.hpp"
#include "targets/js/launcher/js_launcher.hpp"

namespace concord {

inline Backend& js_backend() {
  static Backend b([] {
    BackendSpec s;
    s.name = "js";
    s.command = {CONCORD_BINARY, "backend", "js"};
    s.run_timeout = 60;
    s.request_timeout = 300;
    return s;
  }());
  return b;
}

// The configuration of `concord backend js` in this build ($CONCORD_NODE and
// $CONCORD_JS_RUNTIME still apply), with short timeouts for the fault tests.
inline JsTargetConfig js_test_config(double run_timeout = 20) {
  JsTargetConfig cfg = js_config_from_env(CONCORD_JS_RUNTIME);
  cfg.run_timeout = run_timeout;
  cfg.request_timeout = 4 * run_timeout;
  return cfg;
}

// The lines (without '\n') a FramedRuntime answers for `runs`, all well-formed.
inline std::vector<std::string> ask(FramedRuntime& t, const Program& p, const std::vector<RunSettings>& runs) {
  std::vector<RunRequest> requests;
  for (const RunSettings& r : runs) requests.push_back(RunRequest{r, ""});
  std::vector<std::string> lines;
  t.answer(p, requests, [&](const std::string& l) { lines.push_back(l.substr(0, l.size() - 1)); });
  return lines;
}

}  // namespace concord
