// targets/elixir/launcher/elixir_launcher.hpp: the `elixir` target behind the protocol
// (`concord backend elixir`): the program printed as Elixir modules
// (emitter/emit_elixir.hpp) and sent, with the request's runs, to a persistent BEAM
// node with Elixir loaded, which compiles them in memory (Code.compile_string/2),
// runs each seed under the conductor shared with the erlang target and purges them.
// The node is the erlang target's (erlang_runtime_config) with the elixir target's emitter,
// code paths and concord_target module (runtime/concord_elixir.erl).
#pragma once

#include <string>
#include <vector>

#include "targets/erlang/launcher/erlang_launcher.hpp"
#include "targets/launch.hpp"

namespace concord {

// Elixir's own ebin (where Elixir.Code.beam is), found from the `elixir` launcher:
// $CONCORD_ELIXIR, else `elixir` in PATH, its symbolic links followed, then
// ../lib/elixir/ebin beside its bin directory (Debian: /usr/lib/elixir/lib/elixir/ebin).
// Throws std::runtime_error naming what is missing.
std::string find_elixir_ebin();

// The configuration of `concord backend elixir`: $CONCORD_ERL (as for erlang), the
// shared runtime's ebin ($CONCORD_ERLANG_EBIN, default `erlang_ebin`), the elixir
// runtime's ($CONCORD_ELIXIR_EBIN, default `elixir_ebin`) and Elixir's.
ErlangTargetConfig elixir_config_from_env(const std::string& erlang_ebin, const std::string& elixir_ebin);

// The elixir runtime's sources (runtime/*.erl, *.ex: in the source tree, or installed
// under share/concord/targets/elixir/runtime), which `concord mutants` builds with a
// planted fault switched on and `concord export --as exunit` bundles.
std::string elixir_runtime_dir();

// `concord backend elixir`: serves the protocol on stdin/stdout until EOF.
int serve_elixir(const LaunchOptions& o);

// targets/elixir/deviations.json, built in (targets/targets.cpp gives it to the registry).
const char* elixir_deviations();

}  // namespace concord
