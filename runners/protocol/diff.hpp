// runners/protocol/diff.hpp: the first difference between two results, as a JSON pointer
// and the two values there; for a journal, the event index is part of the pointer.
#pragma once

#include <optional>
#include <string>

#include "oracle/program_json.hpp"

namespace concord {

struct Difference {
  std::string pointer;  // e.g. /journal/12/reason
  ojson left, right;    // the values there (null when absent on one side)
  bool left_missing = false, right_missing = false;
};

std::optional<Difference> first_difference(const ojson& left, const ojson& right);
std::string describe(const Difference& d, const std::string& left_name, const std::string& right_name);

}  // namespace concord
