// tests/targets/erlang_backend.hpp: the one `concord backend erlang` process a test
// binary shares across its tests (so one BEAM node serves them all, as in a
// campaign), and the configuration of an in-process node for the tests that watch it.
#pragma once

#include <string>
#include <vector>

#include "runners/protocol/backend.hpp"
#include "targets/common/build_paths.hpp"
#include "targets/erlang/launcher/erlang_launcher.hpp"
#include "tests/targets/framed_ask.hpp"

namespace concord {

inline Backend& erlang_backend() {
  static Backend b([] {
    BackendSpec s;
    s.name = "erlang";
    s.command = {build_paths::concord_binary, "backend", "erlang"};
    s.run_timeout = 60;  // the first run includes starting the node and compiling the module
    s.request_timeout = 300;
    return s;
  }());
  return b;
}

// The configuration of `concord backend erlang` in this build ($CONCORD_ERL and
// $CONCORD_ERLANG_EBIN still apply), with short timeouts for the fault tests.
inline ErlangTargetConfig erlang_test_config(double run_timeout = 20) {
  ErlangTargetConfig cfg = erlang_config_from_env(build_paths::erlang_ebin);
  cfg.run_timeout = run_timeout;
  cfg.request_timeout = 4 * run_timeout;
  return cfg;
}

}  // namespace concord
