// tests/runners/bent_oracles.hpp: backends whose differences from the oracle are
// known by construction, for tests of campaigns, reports and triage: the oracle
// itself (`honest`), and the oracle with its answer lines bent by a sed
// expression. Each comes as a BackendSpec (for the library) and as a --backend
// option (for the command line). No compiler or BEAM is involved.
#pragma once

#include <string>

#include "runners/protocol/backend.hpp"
#include "targets/common/build_paths.hpp"

namespace concord::test_backends {

// Says turn_limit where the oracle says quiescent: every program that ends by itself.
inline const std::string kSaysTurnLimit = "s/\"outcome\":\"quiescent\"/\"outcome\":\"turn_limit\"/";
// The second "ready":1 of a line becomes 7 (the second "ready":2 becomes 9):
// a delivery's ready count, at a known event of a known program.
inline const std::string kSecondReady1Is7 = "s/\"ready\":1/\"ready\":7/2";
inline const std::string kSecondReady2Is9 = "s/\"ready\":2/\"ready\":9/2";

inline BackendSpec shell_backend(const std::string& name, const std::string& shell) {
  BackendSpec s;
  s.name = name;
  s.command = {"sh", "-c", shell};
  s.env = {{"CONCORD", build_paths::concord_binary}};
  return s;
}

inline BackendSpec honest() { return shell_backend("honest", "exec \"$CONCORD\" backend oracle"); }

inline BackendSpec bent(const std::string& name, const std::string& sed) {
  return shell_backend(name, "\"$CONCORD\" backend oracle | sed -u '" + sed + "'");
}

// NAME=sh -c '"concord" backend oracle | sed -u "SED"': split like a shell would
// by --backend (runners/protocol/backends.hpp), then run by sh.
inline std::string bent_option(const std::string& name, const std::string& sed) {
  std::string quoted;
  for (char c : sed) quoted += c == '"' ? std::string("\\\"") : std::string(1, c);
  return name + "=sh -c '\"" + build_paths::concord_binary + "\" backend oracle | sed -u \"" + quoted + "\"'";
}

inline std::string honest_option() { return std::string("honest=") + build_paths::concord_binary + " backend oracle"; }

}  // namespace concord::test_backends
