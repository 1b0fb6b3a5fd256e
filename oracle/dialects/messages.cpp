// oracle/dialects/messages.cpp: plausible wrong implementations of the rules of
// values, messages, names and the scheduler (SPEC §2, §5, §6, §8, §9), each an alternative the oracle can run
// (oracle/dialect.hpp), scope Everywhere: what attribution by replay tries (issue 39). Each entry is consulted where
// its rule is decided, in the oracle file that cites the rule.
#include "oracle/dialect.hpp"

namespace concord {

const std::vector<Alternative>& message_alternatives() {
  static const std::vector<Alternative> all = {};
  return all;
}

}  // namespace concord
