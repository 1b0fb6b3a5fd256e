// oracle/error.hpp: the one error type of bad input. Readers and the checker throw
// it with the place (a JSON pointer or line:column) and what is wrong; the CLI
// catches it in one place and exits with code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace concord {

struct InputError : std::runtime_error {
  std::string where;  // JSON pointer ("/kinds/0/name") or "line:column"
  std::string what_is_wrong;
  InputError(std::string w, std::string msg)
      : std::runtime_error(w.empty() ? msg : w + ": " + msg),
        where(std::move(w)),
        what_is_wrong(std::move(msg)) {}
};

}  // namespace concord
