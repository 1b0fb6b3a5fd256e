// oracle/program_json.hpp: the JSON form of programs (SPEC §13), read strictly
// (unknown keys, wrong types and out-of-range values are located errors) and
// written canonically.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "program.hpp"

namespace concord {

using ojson = nlohmann::ordered_json;

// Throws InputError naming the JSON pointer of the offending value.
Program program_from_json(const ojson& j);
// Parses text first; a syntax error is an InputError at "line:column".
Program program_from_json_text(const std::string& text);

// An integer of JSON input (SPEC §13), else an InputError at `ptr` saying why.
int64_t json_int64(const ojson& j, const std::string& ptr);
uint64_t json_uint64(const ojson& j, const std::string& ptr);

ojson program_to_json(const Program& p);
ojson expr_to_json(const Expr& e);

}  // namespace concord
