// targets/js/emitter/emit_js.hpp: prints a checked program as the body of the
// function the js target's host compiles in a fresh vm context (targets/js/README.md,
// "The emitted program"): handlers and inits become functions over the process
// object, kinds, supervisors, roots and given messages become tables. Every name, tag
// and code of the program reaches it inside an escaped string literal, never as code.
#pragma once

#include <string>

#include "oracle/program.hpp"

namespace concord {

// `p` must have passed check() (it uses the resolved slots and indexes); throws
// std::logic_error otherwise. ES2022, for Node 18 and later.
std::string emit_js(const Program& p);

}  // namespace concord
