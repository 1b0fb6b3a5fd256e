// runners/rename_key.hpp: a program up to renaming (issue 17, "one bug, one
// bucket"): two shrunk programs that differ only in the names of their kinds,
// processes, supervisors, fields, parameters, tags and failure codes are one
// finding. The key is the program's canonical JSON form with every name replaced
// by its order of first appearance (n0, n1, ...), one map for all of them, so
// that a name used in several roles stays one name.
#pragma once

#include <string>

#include "oracle/program.hpp"

namespace concord {

std::string rename_key(const Program& p);

}  // namespace concord
