// targets/erlang/emitter/emit_erlang.hpp: prints a checked program as the Erlang
// module `concord_prog` of the contract in targets/erlang/README.md: its workers are
// gen_servers and its supervisors OTP supervisors, run by targets/erlang/runtime.
// Every name, tag and code of the program reaches the module only inside a binary
// literal, never as an atom, a variable or code.
#pragma once

#include <string>

#include "oracle/program.hpp"

namespace concord {

// `p` must have passed check() (it uses the resolved slots and indexes); throws
// std::logic_error otherwise.
std::string emit_erlang(const Program& p);

// The arithmetic prelude every emitted module ends with (SPEC §5 on int64: w/1, add/2,
// sub/2, mul/2, dv/2, rm/2, shl/2, shr/2, band_/2, bor_/2, bxor_/2, lt/2, le/2, gt/2,
// ge/2, eq/2, ne/2, neg/1, not_/1, bnot_/1, and rep/3 for `repeat`): function
// definitions only, so a test can compile it into a module of its own.
const std::string& erlang_prelude();

}  // namespace concord
