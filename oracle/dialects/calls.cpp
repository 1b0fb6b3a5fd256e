// oracle/dialects/calls.cpp: plausible wrong implementations of the rules of
// calls, starts, the supervisor API and significant children (SPEC §18-§21), each an alternative the oracle can run
// (oracle/dialect.hpp), scope Everywhere: what attribution by replay tries (issue 39). Each entry is consulted where
// its rule is decided, in the oracle file that cites the rule.
#include "oracle/dialect.hpp"

namespace concord {

const std::vector<Alternative>& call_alternatives() {
  static const std::vector<Alternative> all = {};
  return all;
}

}  // namespace concord
