// tests/targets/c_backend.hpp: the one `concord backend c` process a test binary
// shares across its tests, so each program is compiled once per binary.
#pragma once

#include "runners/protocol/backend.hpp"
#include "targets/common/build_paths.hpp"

namespace concord {

inline Backend& c_backend() {
  static Backend b([] {
    BackendSpec s;
    s.name = "c";
    s.command = {build_paths::concord_binary, "backend", "c"};
    s.run_timeout = 60;  // the first run of a program includes compiling it (slow under the sanitizers)
    s.request_timeout = 300;
    return s;
  }());
  return b;
}

}  // namespace concord
