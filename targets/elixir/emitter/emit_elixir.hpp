// targets/elixir/emitter/emit_elixir.hpp: prints a checked program as Elixir 1.14
// source of the contract in targets/elixir/README.md: Concord.Prog (the program's
// tables, and how it starts and asks its processes), one `use GenServer` module
// per kind (Concord.Prog.K<k>) and one `use Supervisor` or `use DynamicSupervisor`
// module per supervisor (Concord.Prog.S<index>), run by targets/elixir/runtime on
// the shared conductor. Every name, tag and code of the program reaches the source
// only inside a string literal, escaped; modules, functions and variables are
// named by indexes.
#pragma once

#include <string>

#include "oracle/dialect.hpp"
#include "oracle/program.hpp"

namespace concord {

// `p` must have passed check() (it uses the resolved slots and indexes); throws
// std::logic_error otherwise.
std::string emit_elixir(const Program& p);

// The same modules for the elixir target's free runs (SPEC §25; targets/elixir/README.md
// "Free runs"): the workers' glue :concord_free_worker, supervisors hooked into the
// free runtime (concord_free_sup; a DynamicSupervisor, concord_free_dynsup), no
// conductor; Concord.Prog also answers what the free runtime asks of it.
std::string emit_elixir_free(const Program& p);

// A supervisor that Elixir runs as a DynamicSupervisor: is_dynamic_supervisor() of
// oracle/dialect.hpp (no declared children, one_for_one, auto_shutdown never, as an
// Elixir programmer would write it: its children can only be spawned under it), the
// construct the oracle's DynamicSupervisor dialect is about.

// The string literal of `s` in Elixir source: printable ASCII as itself but `"`,
// `\` and `#` (which could open an interpolation), everything else as \xHH.
std::string elixir_string(const std::string& s);

}  // namespace concord
