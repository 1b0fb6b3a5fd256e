// runners/triage/attribution_links.hpp: whether a link or down signal that only the
// target applies is one that a restart should have removed (SPEC §16.5: a restarted
// process keeps nothing of §16). The journal cannot tell: it shows no link being
// made, so a link made with the new incarnation looks the same as one kept from
// the old. The oracle's own run can: at each exit it sees the worker's links and
// monitors (World::discarding).
#pragma once

#include <optional>
#include <string>

#include "oracle/interpreter.hpp"
#include "oracle/program_json.hpp"

namespace concord {

// "§16.5 restarted" when the target's event `i` of its journal `tj` is a link or
// down signal from X to Y that the oracle's journal `oj` (equal before `i`) lacks,
// the oracle's X had no such link (Y held no monitor on it) when it exited, and an
// earlier incarnation of X or Y had: the target kept it through a restart. Or the
// oracle's event `i` is a link signal that the target lacks in that turn, and an
// earlier incarnation of X or Y had the link too: what the target kept of
// the old one stood in the way of the new (a link made again that it took for one
// it already had).
// `s` are the run's settings, for the oracle's run again.
std::optional<std::string> restarted_link(const Program& p, const RunSettings& s, const ojson& oj, const ojson& tj,
                                          size_t i);

}  // namespace concord
