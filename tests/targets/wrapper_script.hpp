// tests/targets/wrapper_script.hpp: an interpreter command wrapped in a shell script
// (a slow boot, words printed before the interpreter's own), for the launcher's
// start-up tests. The launcher puts its flags after the command's first word, so a
// wrapper is one executable file, not `sh -c`.
#pragma once

#include <sys/stat.h>

#include <fstream>
#include <string>

#include "runners/process/subprocess.hpp"

namespace concord {

// An executable `DIR/NAME` that runs `body` (sh), in which "$@" are the arguments the
// launcher gave.
inline std::string wrapper_script(const TempDir& dir, const std::string& name, const std::string& body) {
  std::string path = dir.path() + "/" + name;
  std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
  ::chmod(path.c_str(), 0755);
  return path;
}

}  // namespace concord
