// runners/cli/run_free.hpp: free runs from the command line (SPEC §25): `concord run
// --mode free`, and what free campaigns share with it.
#pragma once

#include <string>

#include "oracle/interpreter.hpp"
#include "oracle/program.hpp"
#include "runners/cli/cli.hpp"

namespace concord {

// `concord run FILE --mode free [--target T] [--runs N] [--keep DIR]`.
int run_free(const Args& a, const std::string& file, const Program& p, const RunSettings& r);

}  // namespace concord
