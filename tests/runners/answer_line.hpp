// tests/runners/answer_line.hpp: an Answer as a backend would give it, from the
// line it printed, for tests that compare answers by hand.
#pragma once

#include <string>

#include "runners/protocol/backend.hpp"

namespace concord {

inline Answer answer(const std::string& line) {
  Answer a;
  a.line = line;
  a.json = ojson::parse(line);
  return a;
}

}  // namespace concord
