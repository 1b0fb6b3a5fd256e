// tests/oracle/check_error.hpp: check() on a copy of a program, as the property
// tests use it: "" when the program is valid, else the error with the program as
// text, so that a failing property shows what it generated.
#pragma once

#include <string>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/text.hpp"

namespace concord {

inline std::string check_error(const Program& p) {
  Program q = p;
  try {
    check(q);
    return "";
  } catch (const InputError& e) {
    return std::string(e.what()) + "\nprogram:\n" + print_program(p);
  }
}

}  // namespace concord
