// runners/triage/replay.cpp: attribution by replay (replay.hpp).
#include "replay.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/limits.hpp"
#include "runners/protocol/deviations.hpp"
#include "runners/shrink/shrink_passes.hpp"
#include "runners/triage/operator_probe.hpp"

namespace concord {
namespace {

struct Candidate {
  Alt alt;
  int64_t changes;
};

constexpr size_t kMostQuestions = 6;   // asks of the target per divergence
constexpr size_t kMostVariants = 400;  // variants looked at for one that tells the candidates apart

bool one_rule(const std::vector<Candidate>& cs) {
  return std::all_of(cs.begin(), cs.end(), [&](const Candidate& c) {
    return std::string(alternative(c.alt).bucket) == alternative(cs[0].alt).bucket;
  });
}

AltSet only(Alt a) {
  AltSet one;
  one.set(static_cast<size_t>(a));
  return one;
}

// One question: when the candidates disagree on variant `json` run `r`, the target
// is asked it, and those that do not give its answer drop out.
void ask_about(const ojson& json, const RunSettings& r, std::vector<Candidate>& cs, const AskTarget& ask, Replay& out) {
  Program v;
  try {
    v = program_from_json(json);  // as a backend reads it
    check(v);
  } catch (const InputError&) {
    return;
  }
  std::map<std::string, int> results;
  for (const Candidate& c : cs) {
    DialectResult d = run_in_dialect(v, r, only(c.alt));
    if (!d.result.is_null()) results[d.result.dump()]++;
  }
  if (results.size() < 2) return;  // they agree here: no question tells them apart
  std::optional<ojson> answer = ask(v, r);
  out.questions++;
  if (!answer) return;
  std::vector<Candidate> kept;
  for (const Candidate& c : cs)
    if (agrees_up_to_freedom(run_in_dialect(v, r, only(c.alt)), *answer)) kept.push_back(c);
  if (kept.empty()) return;  // none foresaw it: this variant tells nothing
  out.left_out += cs.size() - kept.size();
  cs = std::move(kept);
}

// Asks the target about variants of `p` where the candidates disagree: its given
// messages sent by a process (a mailbox taking the newest first, or given messages
// sent in another order?), then the shrinker's candidates. Stops when the
// candidates left name one rule, or after the budgets.
void tell_apart(const Program& p, const RunSettings& run, std::vector<Candidate>& cs, const AskTarget& ask,
                Replay& out) {
  if (!p.given.empty() && run.max_processes < kMaxProcesses) {
    RunSettings room = run;
    room.max_processes++;
    ask_about(given_sent_by_a_process(program_to_json(p)), room, cs, ask, out);
  }
  size_t variants = 0;
  for (const ShrinkPass& pass : shrink_passes()) {
    for (size_t n = 0; !one_rule(cs) && out.questions < kMostQuestions && variants < kMostVariants; n++) {
      ShrinkState s{p, {run}};
      if (!pass.make(s, n)) break;
      variants++;
      ask_about(program_to_json(s.program), s.runs.empty() ? run : s.runs[0], cs, ask, out);
    }
    if (one_rule(cs) || out.questions >= kMostQuestions || variants >= kMostVariants) return;
  }
}

// An alternative of §5 computes some operators otherwise; the probe asks the
// target for exactly the operator applications of the case's run
// (operator_probe.hpp), a more direct witness: an alternative that does not
// compute them all as the target does (`-1 % 3 < 0` with `<` unsigned reproduced by
// `%` floored) leaves the case to the fallback, which names the probed operators.
bool operators_agree(const Program& p, const RunSettings& run, Alt alt, const AskTarget& ask) {
  if (std::string(alternative(alt).bucket).rfind("§5 ", 0) != 0 || !ask) return true;
  std::optional<std::set<std::string>> unlike = operators_computed_otherwise(p, run, ask, Dialect().with(alt));
  return !unlike || unlike->empty();
}

}  // namespace

std::optional<Replay> replay_attribution(const Program& p, const std::vector<RunSettings>& runs,
                                         const std::vector<Answer>& got, const AskTarget& ask) {
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
  std::vector<Candidate> cs;
  for (const Alternative& a : alternatives()) {
    if (a.scope != AltScope::Everywhere) continue;  // a construct's own dialect is a declaration's, not a bug
    int64_t changes = 0;
    bool reproduces = true;
    for (size_t i : order) {
      DialectResult r = run_in_dialect(p, runs[i], only(a.alt));
      if (!agrees_up_to_freedom(r, got[i].json)) {
        reproduces = false;
        break;
      }
      changes += r.changes;
    }
    if (reproduces && changes > 0) cs.push_back(Candidate{a.alt, changes});  // changes 0: SPEC's own answer
  }
  if (cs.empty()) return std::nullopt;
  Replay out{cs[0].alt, 0, cs.size()};
  if (!one_rule(cs) && ask) tell_apart(p, runs[order[0]], cs, ask, out);
  // The least changing, then the catalogue's order (cs is in it).
  const Candidate& best = *std::min_element(
      cs.begin(), cs.end(), [](const Candidate& a, const Candidate& b) { return a.changes < b.changes; });
  out.alt = best.alt;
  out.changes = best.changes;
  if (!operators_agree(p, runs[order[0]], best.alt, ask)) return std::nullopt;
  return out;
}

std::string replay_text(const Replay& r) {
  const Alternative& a = alternative(r.alt);
  std::string out = std::string("behaves as the oracle would if SPEC ") + a.rule + " were " + a.id + ": " + a.instead +
                    " (concord run CASE --dialect " + a.id + ")";
  if (r.candidates > 1)
    out += "; " + std::to_string(r.candidates - 1) + " other alternative" + (r.candidates > 2 ? "s" : "") +
           " gave its answers too" +
           (r.left_out ? ", " + std::to_string(r.left_out) + " ruled out by its answers to " +
                             std::to_string(r.questions) + " variants"
                       : std::string(", each changing as much or more"));
  return out;
}

}  // namespace concord
