// runners/triage/replay.cpp: attribution by replay (replay.hpp).
#include "replay.hpp"

#include "runners/protocol/deviations.hpp"

namespace concord {

std::optional<Replay> replay_attribution(const Program& p, const std::vector<RunSettings>& runs,
                                         const std::vector<Answer>& got) {
  if (runs.empty() || got.size() < runs.size()) return std::nullopt;
  for (size_t i = 0; i < runs.size(); i++)
    if (!got[i].ok()) return std::nullopt;
  // The runs in the order they are tried: a run the target differs on first (SPEC
  // itself gives the others, so most alternatives are ruled out by one oracle run).
  std::vector<size_t> order;
  for (size_t i = 0; i < runs.size(); i++) {
    DialectResult spec = run_in_dialect(p, runs[i], AltSet());
    if (agrees_up_to_freedom(spec, got[i].json))
      order.push_back(i);
    else
      order.insert(order.begin(), i);
  }
  std::optional<Replay> best;
  size_t candidates = 0;
  for (const Alternative& a : alternatives()) {
    if (a.scope != AltScope::Everywhere) continue;  // a construct's own dialect is a declaration's, not a bug
    AltSet one;
    one.set(static_cast<size_t>(a.alt));
    int64_t changes = 0;
    bool reproduces = true;
    for (size_t i : order) {
      DialectResult r = run_in_dialect(p, runs[i], one);
      if (!agrees_up_to_freedom(r, got[i].json)) {
        reproduces = false;
        break;
      }
      changes += r.changes;
    }
    if (!reproduces || changes == 0) continue;  // SPEC's own answer: not this alternative's doing
    candidates++;
    if (!best || changes < best->changes) best = Replay{a.alt, changes, 0};
  }
  if (best) best->candidates = candidates;
  return best;
}

std::string replay_text(const Replay& r) {
  const Alternative& a = alternative(r.alt);
  std::string out = std::string("behaves as the oracle would if SPEC ") + a.rule + " were " + a.id + ": " + a.instead +
                    " (concord run CASE --dialect " + a.id + ")";
  if (r.candidates > 1)
    out += "; " + std::to_string(r.candidates - 1) + " other alternative" + (r.candidates > 2 ? "s" : "") +
           " gave it too, each changing more";
  return out;
}

}  // namespace concord
