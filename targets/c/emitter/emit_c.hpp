// targets/c/emitter/emit_c.hpp: prints a checked program as one C file for the
// `c` target's runtime (targets/c/runtime/concord_rt.h). The file compiles
// warning-free with -Wall -Wextra under gcc, clang and tcc; every name, tag and
// string of the program reaches it as an escaped C string literal, never as code.
#pragma once

#include <string>

#include "oracle/program.hpp"

namespace concord {

// `p` must have passed check() (it uses the resolved slots and signatures).
std::string emit_c(const Program& p);

}  // namespace concord
