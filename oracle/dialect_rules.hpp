// oracle/dialect_rules.hpp: the alternatives of oracle/dialect.hpp that replace a
// whole computation rather than one branch of a rule: a value (§5), the scheduler's
// pick (§8.2), what a result shows (§2 names, §7.7 child lists, §9.1 final states).
// Each returns what SPEC's rule gives when no alternative of the run's dialect
// applies; the oracle calls them only when the dialect is not empty.
#pragma once

#include <cstdint>
#include <optional>

#include "program.hpp"
#include "state.hpp"

namespace concord {

// §5: op applied to a (and b) in the run's dialect; nullopt when no alternative
// applies to op (SPEC's evaluator decides, DIV_ZERO included).
std::optional<Value> value_in_dialect(World& w, Op op, Value a, Value b);

// §8.2 steps 3-4: the rank among the ready processes (ascending ids) of the one
// the draw x picks out of `ready`.
int64_t pick_in_dialect(World& w, uint64_t x, int64_t ready);
// §8.3: the draw the generator makes in the run's dialect, SPEC's being `x`.
uint64_t draw_in_dialect(World& w, uint64_t x);

// At the end of a run: what the result shows otherwise (spawned names' digits,
// child lists, final states).
void finish_in_dialect(World& w);

}  // namespace concord
