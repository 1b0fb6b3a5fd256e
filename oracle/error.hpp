// oracle/error.hpp: the one error type of bad input. Readers and the checker throw
// it with the place (a JSON pointer or line:column) and what is wrong; the CLI
// catches it in one place and exits with code 2. Both parts are made printable
// (printable.hpp) here, once: they quote the input.
#pragma once

#include <stdexcept>
#include <string>

#include "printable.hpp"

namespace concord {

struct InputError : std::runtime_error {
  std::string where;  // JSON pointer ("/kinds/0/name") or "line:column"
  std::string what_is_wrong;
  InputError(const std::string& w, const std::string& msg)
      : std::runtime_error(w.empty() ? printable(msg) : printable(w) + ": " + printable(msg)),
        where(printable(w)),
        what_is_wrong(printable(msg)) {}
};

}  // namespace concord
