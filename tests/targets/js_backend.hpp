// tests/targets/js_backend.hpp: the one `concord backend js` process a test binary
// shares across its tests (so one node serves them all, as in a campaign), and an
// in-process FramedRuntime running the js target for the tests that watch its node.
#pragma once

#include <string>
#include <vector>

#include "runners/protocol/backend.hpp"
#include "targets/common/build_paths.hpp"
#include "targets/js/launcher/js_launcher.hpp"
#include "tests/targets/framed_ask.hpp"

namespace concord {

inline Backend& js_backend() {
  static Backend b([] {
    BackendSpec s;
    s.name = "js";
    s.command = {build_paths::concord_binary, "backend", "js"};
    s.run_timeout = 60;
    s.request_timeout = 300;
    return s;
  }());
  return b;
}

// The configuration of `concord backend js` in this build ($CONCORD_NODE and
// $CONCORD_JS_RUNTIME still apply), with short timeouts for the fault tests.
inline JsTargetConfig js_test_config(double run_timeout = 20) {
  JsTargetConfig cfg = js_config_from_env(build_paths::js_runtime);
  cfg.run_timeout = run_timeout;
  cfg.request_timeout = 4 * run_timeout;
  return cfg;
}

}  // namespace concord
