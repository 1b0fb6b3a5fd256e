// oracle/operator_log.hpp: the operator evaluations of a run, for triage's operator
// probe (runners/triage/operator_probe.hpp): which operators a divergence can be
// blamed on (§5) is a question of the values they were applied to. Observation
// only: no rule reads it, and it is null but while triage records one oracle run
// on its own thread.
#pragma once

#include <vector>

#include "program.hpp"

namespace concord {

struct OperatorUse {
  Op op;
  int64_t a, b;  // the operands (b 0 for a unary operator)
  bool ints;     // both int (== and != also compare addrs, whose values are name ids)
};

inline thread_local std::vector<OperatorUse>* operator_log = nullptr;
// Applications recorded at most (one more shows the run made more): a run of
// millions is no question for a target.
inline constexpr size_t kOperatorLogCap = size_t{1} << 20;

}  // namespace concord
