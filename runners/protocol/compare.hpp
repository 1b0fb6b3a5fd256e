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

// One answer against another in words, without the verdict: for two results, the
// first causal difference (diff.hpp) and where in the journal it is; where either is
// an error, each side by what it is ("a result (quiescent after 5 turns)", "error
// UNSUPPORTED: <its message, bounded>"). Lines ending in '\n', the first unindented,
// the others by two spaces. "" when the two are the same value.
std::string difference_words(const std::string& ref_name, const Answer& ref, const std::string& name,
                             const Answer& got);

// A target's message as a report shows it: its first kMessageShown bytes, cut on a
// UTF-8 character's boundary, and "... (N bytes)" when it was cut. A runtime's
// message of megabytes (a whole program quoted back) stays a line of a log.
inline constexpr size_t kMessageShown = 400;
std::string bounded_message(const std::string& message);

// "journal event 12 (deliver), field reason" for /journal/12/reason; "" when the
// pointer is not inside the journal.
std::string locate(const std::string& pointer, const ojson& result);

}  // namespace concord
