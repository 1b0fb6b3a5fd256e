// oracle/check.hpp: validation and type checking (SPEC §4; version 2: §14.3, rules
// V1-V13). check() either throws an InputError naming the place and the broken
// rule, or fills every resolved field of the program (slots, signatures, name ids)
// and sets `checked`.
#pragma once

#include "program.hpp"

namespace concord {

void check(Program& p);

// SPEC §2 name forms.
bool is_kind_name(const std::string& s);
bool is_lower_name(const std::string& s, int version = 1);  // processes, supervisors, fields, params, tags
bool is_code_name(const std::string& s);
// A runtime failure code of the version (§2; version 2: V2): no `fail` may name one.
bool is_runtime_code(const std::string& s, int version);
// A reason literal's word (§15): normal, shutdown, killed, noproc, or a code.
bool is_reason_literal(const std::string& s);
// "k-N" for a kind K of the program: returns the kind index, or -1.
int spawned_name_kind(const Program& p, const std::string& s);

}  // namespace concord
