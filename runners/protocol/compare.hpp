// runners/protocol/compare.hpp: one target's answer against the reference answer (the
// oracle's): by value first (diff.hpp: the first differing JSON pointer), then byte
// for byte, since SPEC §9.3 makes the serialisation itself part of the contract.
#pragma once

#include <string>

#include "runners/protocol/backend.hpp"

namespace concord {

enum class Verdict {
  kAgree,
  kDiffer,     // a definite divergence
  kNoVerdict,  // the target, or the reference, gave an indefinite error (TIMEOUT, CRASH, MEMORY)
};

struct Comparison {
  Verdict verdict = Verdict::kAgree;
  std::string report;  // for kDiffer / kNoVerdict: indented lines, each ending in '\n'
};

Comparison compare_answers(const std::string& ref_name, const Answer& ref, const std::string& name, const Answer& got);

// "journal event 12 (deliver), field reason" for /journal/12/reason; "" when the
// pointer is not inside the journal.
std::string locate(const std::string& pointer, const ojson& result);

}  // namespace concord
