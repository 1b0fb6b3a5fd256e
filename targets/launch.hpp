// targets/launch.hpp: what `concord backend NAME` hands a built-in target's
// launcher: the options of that command line. Each target folder has one launcher
// (launcher/NAME_launcher.cpp) that serves the backend protocol on stdin/stdout.
#pragma once

#include <optional>

namespace concord {

struct LaunchOptions {
  std::optional<double> run_timeout;  // --timeout: seconds per run, the target's own default otherwise
  std::optional<int> threads;         // --threads: free runs' threads (the c target), twice the cores otherwise
};

}  // namespace concord
