// runners/campaign/failing_turn.cpp: the turn a failure happens in, and its bucket
// (failing_turn.hpp).
#include "failing_turn.hpp"

#include "runners/campaign/failure.hpp"
#include "runners/protocol/diff.hpp"
#include "runners/triage/attribution.hpp"
#include "runners/triage/replay.hpp"
#include "runners/triage/turn_rule.hpp"

namespace concord {
namespace {

// The failure's name in a located bucket: the crash's kind, or the error's §10 rule
// without its place in the runtime (the statements say where).
std::string failure_word(const std::string& kind) {
  return kind.rfind("error/", 0) == 0 ? "§10 error " + kind.substr(6) : kind;
}

enum class Probe { kPasses, kFails, kOther };

}  // namespace

bool locatable(const std::string& kind) {
  return kind.rfind("error/", 0) == 0 || kind == "crash:exit" || kind.rfind("crash:SIG", 0) == 0;
}

Located locate_failure(const Program& p, const RunSettings& r, const Answer& oracle, const Answer& got,
                       const std::string& kind, const AskAnswer& ask) {
  Located out;
  if (!locatable(kind) || !oracle.ok() || got.ok() || r.turns < 1) return out;
  Answer last_pass;
  auto probe = [&](int64_t turns) {
    RunSettings s = r;
    s.turns = turns;
    Answer a = ask(p, s);
    if (a.ok()) {
      last_pass = std::move(a);
      return Probe::kPasses;
    }
    return a.code() == got.code() && answer_failure(a) == answer_failure(got) ? Probe::kFails : Probe::kOther;
  };
  // Bisection: limit `hi` fails (the run as asked), `lo` passes (-1: none yet).
  int64_t lo = -1, hi = r.turns;
  Answer pass_at_lo;
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    Probe at = probe(mid);
    if (at == Probe::kOther) return out;
    if (at == Probe::kFails) {
      hi = mid;
    } else {
      lo = mid;
      pass_at_lo = last_pass;
    }
  }
  out.turn = hi;
  if (lo < 0) return out;  // fails at limit 0: before any turn

  RunSettings before = r;
  before.turns = lo;
  Answer expected = oracle_answer(p, before);
  std::string from = "  it fails from turn limit " + std::to_string(hi) + " (of " + std::to_string(r.turns) +
                     "); with limit " + std::to_string(lo) + " it ";
  if (first_difference(expected.json, pass_at_lo.json)) {
    Attribution a = attribute(p, expected.json, pass_at_lo.json, asking(ask));
    out.rule = a.rule;
    out.said = from + "differs from the oracle first at " + a.detail + " (" + a.rule + ")\n";
    return out;
  }
  RunSettings upto = r;
  upto.turns = hi;
  Answer at_turn = oracle_answer(p, upto);
  std::string where = turn_rule(program_to_json(p), at_turn.json.value("journal", ojson::array()), hi);
  std::string ran =
      from + "agrees with the oracle: turn " + std::to_string(hi) + " ran " + (where.empty() ? "no body" : where);
  // An error that says where the runtime met it is bucketed there: a more exact place
  // than the statements of the turn (a bug past a size, a chunk of the journal
  // filled, fails in whatever turn crosses it).
  if (std::string site = attribute(p, oracle.json, got.json).rule; site.find(" at ") != std::string::npos) {
    out.rule = site;
    out.said = ran + "; the error is bucketed where the target met it\n";
  } else if (!where.empty()) {
    out.rule = failure_word(kind) + " in " + where;
    out.said = ran + "\n";
  }
  return out;
}

std::string bucket_of_answer(const Program& p, const RunSettings& r, const Answer& oracle, const Answer& got,
                             const AskAnswer& ask) {
  std::string kind = difference_kind(oracle, got);
  if (oracle.ok() && got.ok())  // attribution by replay first (runners/triage/replay.hpp)
    if (std::optional<Replay> rp = replay_attribution(p, {r}, {got}, ask ? asking(ask) : AskTarget{}))
      return alternative(rp->alt).bucket;
  if (ask)
    if (Located l = locate_failure(p, r, oracle, got, kind, ask); !l.rule.empty()) return l.rule;
  if (is_failure_kind(kind) || !oracle.ok()) return kind;
  return attribute(p, oracle.json, got.json, ask ? asking(ask) : AskTarget{}).rule;
}

}  // namespace concord
