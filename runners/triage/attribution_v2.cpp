// runners/triage/attribution_v2.cpp: the SPEC rule behind a first difference that version
// 2 made (§14-§22): its events (signal, call, resume, api, auto_shutdown decisions,
// exits for its reasons, failed starts) and its result fields. The table is in
// attribution.hpp; what version 1 has too (messages, supervision) stays there.
#include "attribution_v2.hpp"

#include "runners/triage/attribution_json.hpp"

#include <set>

namespace concord {
namespace {

using attribution_json::at;
using attribution_json::each_program_statement;
using attribution_json::str;

// Whether `e` comes later in the same turn in `journal`, from event `i` on.
bool later_in_turn(const ojson& journal, size_t i, const ojson& e) {
  if (!e.is_object() || !journal.is_array()) return false;
  for (size_t j = i; j < journal.size() && journal[j]["turn"] == e["turn"]; j++)
    if (journal[j] == e) return true;
  return false;
}

// Both sides have both events, in another order.
bool reordered(const ojson& oj, const ojson& tj, size_t i) {
  return later_in_turn(oj, i, at(tj, i)) && later_in_turn(tj, i, at(oj, i));
}

bool program_has(const ojson& prog, const std::set<std::string>& what) {
  bool found = false;
  each_program_statement(prog, [&](const ojson& s) { found = found || what.count(str(s, "do")); });
  return found;
}

// §16.3: the clause of a signal's effect that applies, as the oracle applied it
// (the receiver trapping or not, the reason normal or not, kill, from itself).
std::string signal_clause(const ojson& s) {
  std::string kind = str(s, "kind"), reason = str(s, "reason"), effect = str(s, "effect");
  if (kind == "call") return "§18.2 failed call";
  if (kind == "down") return "§16.3 down signal";
  std::string r = "§16.3 " + kind + " signal";
  if (kind == "exit" && reason == "kill") return r + " kill";
  if (kind == "exit" && s["from"] == s["to"]) return r + " to itself";
  if (effect == "message") return r + " trapped";
  return r + (reason == "normal" ? " normal" : " abnormal");
}

// The signal that made process `name` exit just before event `i` (its effect
// `exit`), if any.
const ojson* signal_before(const ojson& journal, const ojson& name, size_t i) {
  if (i == 0 || !journal.is_array() || i > journal.size()) return nullptr;
  const ojson& p = journal[i - 1];
  return str(p, "ev") == "signal" && p["to"] == name && str(p, "effect") == "exit" ? &p : nullptr;
}

// Whether an api event's request changed its child list: `running` and
// `not_found` say it did nothing (§20).
bool changed_children(const ojson& api) {
  std::string result = str(api, "result");
  return result != "running" && result != "not_found";
}

// The api request before event `i` on supervisor `sup` and child `child` that
// changed something (the last such), if any: a child list that another request
// left otherwise.
const ojson* api_before(const ojson& journal, const ojson& sup, const ojson& child, size_t i) {
  const ojson* found = nullptr;
  for (size_t j = 0; j < i && j < journal.size(); j++)
    if (str(journal[j], "ev") == "api" && journal[j]["supervisor"] == sup && journal[j]["child"] == child &&
        changed_children(journal[j]))
      found = &journal[j];
  return found;
}

// Whether `name` started and exited in one start before event `i` (its start
// failed or was ignored, §19.1): its `start` event directly followed, in its turn,
// by events of its init and its `exit`, with no delivery to it.
bool start_failed_before(const ojson& journal, const ojson& name, size_t i) {
  for (size_t j = 0; j < i && j < journal.size(); j++) {
    if (str(journal[j], "ev") != "start" || journal[j]["name"] != name) continue;
    for (size_t k = j + 1; k < i && k < journal.size() && journal[k]["turn"] == journal[j]["turn"]; k++) {
      std::string ev = str(journal[k], "ev");
      if (ev == "exit" && journal[k]["name"] == name) return true;
      if ((ev == "deliver" || ev == "call") && journal[k]["to"] == name) break;
    }
  }
  return false;
}

// The exit reasons that only version 2's statements make, by the statement.
std::optional<std::string> reason_rule(const ojson& prog, const std::string& reason) {
  if (reason == "CALLING_SELF") return "§18.1 calling self";
  if (reason == "BAD_REPLY") return "§18.1 BAD_REPLY";
  if (reason == "NOPROC") {
    // link to nobody (not trapping), call to nobody, the API to no supervisor, spawn
    // under none: the statement the program has (the first in this order).
    if (program_has(prog, {"link"})) return "§16.2 link";
    if (program_has(prog, {"call"})) return "§18.1 call";
    if (program_has(prog, {"terminate_child", "restart_child", "delete_child"})) return "§20 noproc";
  }
  return std::nullopt;
}

// A signal that one side never applies: the link or monitor held, the exit signal
// sent, on one side only (§16.2); a call signal: the failed call (§18.2).
std::string missing_signal_rule(const ojson& s) {
  std::string kind = str(s, "kind");
  if (kind == "call") return "§18.2 failed call";
  if (kind == "exit") return "§16.2 exit";
  return kind == "link" ? "§16.2 link" : "§16.2 monitor";
}

}  // namespace

bool is_version_2(const ojson& prog) { return prog.value("concord", 1) == 2; }

std::optional<std::string> version2_event_rule(const ojson& prog, const ojson& oj, const ojson& tj, size_t i) {
  const ojson& o = at(oj, i);
  const ojson& t = at(tj, i);
  std::string ev = str(o, "ev"), other = str(t, "ev");
  // Signals (§16.3, §17.1 step 3).
  if (ev == "signal" && other == "signal") {
    bool same = o["kind"] == t["kind"] && o["from"] == t["from"] && o["to"] == t["to"];
    if (same && o["reason"] == t["reason"]) return signal_clause(o);  // another effect
    if (same) return "§15 reasons";
    // One side queued another signal first: the order of §17.1 step 3, also when the
    // other then never shows it (its receiver had exited by then: discarded).
    if (later_in_turn(tj, i, o) || later_in_turn(oj, i, t)) return "§17.1 signal order";
    return missing_signal_rule(o);
  }
  if ((ev == "signal") != (other == "signal")) {
    const ojson& s = ev == "signal" ? o : t;
    const ojson& xj = ev == "signal" ? tj : oj;  // the side without it here
    if (reordered(oj, tj, i))
      return other == "decision" || ev == "decision" ? "§17.2 settle order" : "§17.1 signal order";
    // The same signal later on the other side: what came before it there is extra.
    if (!later_in_turn(xj, i, s)) return missing_signal_rule(s);
  }
  // Decisions of §21, and a supervisor reacting before a signal took effect (§17.2).
  if (str(o, "action") == "auto_shutdown" || str(t, "action") == "auto_shutdown") return "§21 auto_shutdown";
  if (ev == "decision" && other == "decision" && o["supervisor"] != t["supervisor"] && reordered(oj, tj, i))
    return "§17.2 settle order";
  // Calls (§18).
  if ((ev == "call") != (other == "call") && (ev == "deliver" || other == "deliver")) return "§18.1 call";
  if (ev == "resume" && other == "resume") return o["to"] == t["to"] ? "§18.1 reply" : "§18.3 ready";
  if ((ev == "resume") != (other == "resume")) return "§18.3 ready";
  // The supervisor API (§20): another result, or a request on one side only. The
  // same request with another result, or a request on one side where the other
  // shows what it did (a restart's start): the child list an earlier request about
  // the same child left otherwise, if there was one.
  if (ev == "api" || other == "api") {
    const ojson& a = ev == "api" ? o : t;
    bool same_request = ev == "api" && other == "api" && o["op"] == t["op"] && o["supervisor"] == t["supervisor"] &&
                        o["child"] == t["child"];
    if (same_request || (ev != other && o.is_object() && t.is_object()))
      if (const ojson* before = api_before(ev == "api" ? oj : tj, a["supervisor"], a["child"], i))
        return "§20 " + str(*before, "op");
    return "§20 " + str(a, "op");
  }
  // Exits for a reason that a signal gave (the signal's clause), or that only version
  // 2's statements make.
  if (ev == "exit" && other == "exit" && o["name"] == t["name"] && o["reason"] != t["reason"]) {
    if (const ojson* s = signal_before(oj, o["name"], i)) return signal_clause(*s);
    if (const ojson* s = signal_before(tj, t["name"], i)) return signal_clause(*s);
  }
  for (const ojson* e : {&o, &t})
    if (str(*e, "ev") == "exit")
      if (std::optional<std::string> r = reason_rule(prog, str(*e, "reason"))) return r;
  // A spawned name that reuses the name of a process whose start failed (§19.4: the
  // name is consumed all the same).
  if (ev == "start" && other == "start" && o["kind"] == t["kind"] && o["name"] != t["name"] &&
      (start_failed_before(oj, t["name"], i) || start_failed_before(tj, o["name"], i)))
    return "§19.4 spawn";
  return std::nullopt;
}

// The children whose entries differ between two results' supervisors: listed on
// one side only, or running on one side only ("supervisor/child").
std::set<std::string> differing_children(const ojson& a, const ojson& b) {
  auto entries = [](const ojson& sups) {
    std::set<std::pair<std::string, std::string>> out;  // {"sup/child", running}
    if (!sups.is_array()) return out;
    for (const ojson& s : sups)
      if (s.is_object() && s.contains("children") && s["children"].is_array())
        for (const ojson& c : s["children"])
          out.insert({str(s, "name") + "/" + str(c, "name"), c.is_object() ? c.value("running", ojson()).dump() : ""});
    return out;
  };
  std::set<std::pair<std::string, std::string>> x = entries(a), y = entries(b);
  std::set<std::string> out;
  for (const auto& e : x)
    if (!y.count(e)) out.insert(e.first);
  for (const auto& e : y)
    if (!x.count(e)) out.insert(e.first);
  return out;
}

std::optional<std::pair<std::string, std::string>> version2_field_rule(const ojson& oracle, const ojson& got) {
  const ojson& journal = oracle["journal"];
  if (oracle["outcome"] != got.value("outcome", ojson()) &&
      (str(oracle, "outcome") == "deadlock" || str(got, "outcome") == "deadlock"))
    return std::pair{std::string("§18.3 deadlock"), std::string("outcome")};
  if (oracle["failures"] != got.value("failures", ojson()))
    return std::pair{std::string("§22 failures"), std::string("failures")};
  if (oracle["supervisors"] != got.value("supervisors", ojson())) {
    // A child list that an API request left otherwise: the rule of the last request
    // that changed something about a child whose entry differs, else of the last
    // request.
    std::set<std::string> differ = differing_children(oracle["supervisors"], got.value("supervisors", ojson()));
    std::string last, last_about;
    for (const ojson& e : journal)
      if (str(e, "ev") == "api") {
        last = str(e, "op");
        if (changed_children(e) && differ.count(str(e, "supervisor") + "/" + str(e, "child"))) last_about = last;
      }
    if (!last_about.empty()) return std::pair{"§20 " + last_about, std::string("supervisors")};
    if (!last.empty()) return std::pair{"§20 " + last, std::string("supervisors")};
  }
  return std::nullopt;
}

}  // namespace concord
