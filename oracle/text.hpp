// oracle/text.hpp: the text syntax of programs (`.conc`, SPEC §12): a parser that
// reports errors at line:column, and a printer whose output parses back to the
// same program.
#pragma once

#include <string>

#include "program.hpp"

namespace concord {

// Throws InputError at "line:column".
Program parse_program(const std::string& text);
std::string print_program(const Program& p);
std::string print_expr(const Expr& e);

bool is_keyword(const std::string& word);

}  // namespace concord
