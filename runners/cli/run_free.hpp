// runners/cli/run_free.hpp: free runs from the command line (SPEC §25): `concord run
// --mode free`, and what free campaigns share with it.
#pragma once

#include <string>

#include "oracle/interpreter.hpp"
#include "oracle/program.hpp"
#include "runners/cli/cli.hpp"

namespace concord {

// A trace without what does not make it another run: its `run` (the unused seed),
// its incarnations in (name, inc) order. Two free runs with equal identities took
// the same path.
std::string trace_identity(const ojson& trace);

// `concord run FILE --mode free [--target T] [--runs N] [--keep DIR]`.
int run_free(const Args& a, const std::string& file, const Program& p, const RunSettings& r);

}  // namespace concord
