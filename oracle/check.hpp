// oracle/check.hpp: validation and type checking (SPEC §4). check() either throws
// an InputError naming the place and the broken rule, or fills every resolved
// field of the program (slots, signatures, name ids) and sets `checked`.
#pragma once

#include "program.hpp"

namespace concord {

void check(Program& p);

// SPEC §2 name forms.
bool is_kind_name(const std::string& s);
bool is_lower_name(const std::string& s);  // processes, supervisors, fields, params, tags
bool is_code_name(const std::string& s);
// "k-N" for a kind K of the program: returns the kind index, or -1.
int spawned_name_kind(const Program& p, const std::string& s);

}  // namespace concord
