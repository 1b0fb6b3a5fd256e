// tests/oracle/checked_program.hpp: a program from its text, read and checked
// (SPEC §4), as the tests that start from source want it.
#pragma once

#include <string>

#include "oracle/check.hpp"
#include "oracle/text.hpp"

namespace concord {

inline Program checked(const std::string& text) {
  Program p = parse_program(text);
  check(p);
  return p;
}

}  // namespace concord
