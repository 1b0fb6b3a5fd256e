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

// The same module for the erlang target's free runs (SPEC §25; targets/erlang/README.md
// "Free runs"): the same contract, the workers' glue concord_free_worker, supervisors
// started by and hooked into concord_free_sup, no conductor.
std::string emit_erlang_free(const Program& p);

}  // namespace concord
