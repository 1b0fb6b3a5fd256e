// oracle/text.hpp: the text syntax of programs (`.conc`, SPEC §12; version 2:
// §23.1): a parser that reports errors at line:column, and a printer whose output
// parses back to the same program.
#pragma once

#include <string>

#include "program.hpp"

namespace concord {

// Throws InputError at "line:column".
Program parse_program(const std::string& text);
std::string print_program(const Program& p);
std::string print_expr(const Expr& e);

// The keywords of a version (§12.1; version 2 adds §23.1's).
bool is_keyword(const std::string& word, int version = 1);

}  // namespace concord
