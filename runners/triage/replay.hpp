// runners/triage/replay.hpp: attribution by replay (issue 39). The oracle's dialects
// (oracle/dialect.hpp) include, for each SPEC rule, plausible wrong implementations
// of it (a LIFO mailbox, one_for_all restarting in reverse, shift counts unmasked,
// drops unjournaled...). A divergence's rule is the rule of the alternative whose
// oracle run gives the target's answers to the case: on every run, exactly (or up
// to the freedom it states), and changing something. When several do, the one that
// changed least (fewest times its rule came out otherwise), then the catalogue's
// order. When none does, attribution.hpp's analysis of the first difference is the
// fallback (divergence.hpp attribute_divergences marks which).
//
// Two alternatives of different rules can give the same answers on a case (a
// program whose `%` of a negative and whose shift past 63 feed the same condition;
// given messages to one process, reversed, and a LIFO mailbox). Given a way to ask the
// target (AskTarget), the replay then asks it a few questions: variants of the
// program (the shrinker's candidates) on which the alternatives still in the race
// disagree; those whose result is not the target's answer drop out.
//
// This says, with proof, "the target behaves as the oracle would if <rule> were
// <alternative>": `concord run CASE --dialect ID` shows the replay.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oracle/dialect.hpp"
#include "oracle/program.hpp"
#include "oracle/state.hpp"
#include "runners/protocol/backend.hpp"
#include "runners/triage/attribution.hpp"  // AskTarget

namespace concord {

struct Replay {
  Alt alt;                // the alternative that reproduces the target's answers
  int64_t changes = 0;    // how often it changed its rule's outcome, over the runs
  size_t candidates = 0;  // how many alternatives reproduced them (the least changing is `alt`)
  size_t questions = 0;   // variants the target was asked to tell alternatives of other rules apart
  size_t left_out = 0;    // alternatives its answers to them ruled out
};

// The alternative (scope Everywhere, one at a time) whose oracle run gives `got`,
// the target's answers to `runs` of `p`, on every run; nullopt when none does, or
// when an answer is not a result (errors and failures are never a dialect's).
std::optional<Replay> replay_attribution(const Program& p, const std::vector<RunSettings>& runs,
                                         const std::vector<Answer>& got, const AskTarget& ask = {});

// "c:§6.5 fifo" style words for a replay: "behaves as the oracle would if §6.5
// [FIFO] were mailbox-lifo (...)", one line.
std::string replay_text(const Replay& r);

}  // namespace concord
