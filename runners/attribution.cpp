// runners/attribution.cpp: the SPEC rule behind the first causal difference of two
// results (the table is in attribution.hpp).
#include "attribution.hpp"

#include "runners/divergence.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace concord {
namespace {

const ojson kNull;

const ojson& at(const ojson& a, size_t i) { return a.is_array() && i < a.size() ? a[i] : kNull; }

std::string str(const ojson& e, const char* key) {
  return e.is_object() && e.contains(key) && e[key].is_string() ? e[key].get<std::string>() : "";
}

// --- the operators that compute a value (§5), read from the program's JSON form ---

void operators_in(const ojson& expr, std::set<std::string>& ops) {
  if (!expr.is_object()) return;
  std::string op = str(expr, "op");
  if (!op.empty() && op != "int" && op != "addr" && op != "self" && op != "var") ops.insert(op);
  for (const char* k : {"lhs", "rhs", "arg"})
    if (expr.contains(k)) operators_in(expr[k], ops);
}

// The variables an expression reads.
void variables_in(const ojson& expr, std::set<std::string>& vars) {
  if (!expr.is_object()) return;
  if (str(expr, "op") == "var") vars.insert(str(expr, "name"));
  for (const char* k : {"lhs", "rhs", "arg"})
    if (expr.contains(k)) variables_in(expr[k], vars);
}

// Every statement of the program (handlers, init bodies, branches, repeat bodies).
template <class F>
void each_statement(const ojson& stmts, F&& f) {
  if (!stmts.is_array()) return;
  for (const ojson& s : stmts) {
    f(s);
    for (const char* k : {"then", "else", "body"})
      if (s.contains(k)) each_statement(s[k], f);
  }
}

template <class F>
void each_program_statement(const ojson& prog, F&& f) {
  for (const ojson& k : prog.value("kinds", ojson::array())) {
    each_statement(k.value("init", ojson::array()), f);
    for (const ojson& h : k.value("handlers", ojson::array())) each_statement(h.value("body", ojson::array()), f);
  }
}

std::string rule_of_ops(const std::set<std::string>& ops) {
  std::string r = "§5";
  for (const std::string& o : ops) r += " " + o;
  return ops.empty() ? "§5 value" : r;
}

void field_operators(const ojson& prog, const std::string& field, std::set<std::string>& ops,
                     std::set<std::string>& seen);

// The operators of `expr` and, through the state fields it reads, of what was
// assigned to them (a value computed wrongly and kept in a field shows later).
void value_operators(const ojson& prog, const ojson& expr, std::set<std::string>& ops, std::set<std::string>& seen) {
  operators_in(expr, ops);
  std::set<std::string> vars;
  variables_in(expr, vars);
  for (const std::string& v : vars) field_operators(prog, v, ops, seen);
}

void field_operators(const ojson& prog, const std::string& field, std::set<std::string>& ops,
                     std::set<std::string>& seen) {
  if (!seen.insert(field).second) return;
  each_program_statement(prog, [&](const ojson& s) {
    if (str(s, "do") == "assign" && str(s, "field") == field)
      value_operators(prog, s.value("value", ojson()), ops, seen);
  });
  for (const ojson& k : prog.value("kinds", ojson::array()))
    for (const ojson& f : k.value("state", ojson::array()))
      if (str(f, "name") == field) value_operators(prog, f.value("init", ojson()), ops, seen);
}

// The operators of every send of `tag` (its arguments).
std::string send_values(const ojson& prog, const std::string& tag) {
  std::set<std::string> ops, seen;
  each_program_statement(prog, [&](const ojson& s) {
    if (str(s, "do") == "send" && str(s, "tag") == tag)
      for (const ojson& a : s.value("args", ojson::array())) value_operators(prog, a, ops, seen);
  });
  return rule_of_ops(ops);
}

// The operators of every assignment to `field` and of its initialisers.
std::string field_values(const ojson& prog, const std::string& field) {
  std::set<std::string> ops, seen;
  field_operators(prog, field, ops, seen);
  return rule_of_ops(ops);
}

// The operators of every division and remainder (what can fail with DIV_ZERO).
std::string division_values(const ojson& prog) {
  std::set<std::string> ops;
  std::function<void(const ojson&)> walk = [&](const ojson& e) {
    if (!e.is_object()) return;
    std::string op = str(e, "op");
    if (op == "div" || op == "rem") operators_in(e, ops);
    for (auto it = e.begin(); it != e.end(); ++it)
      if (it.value().is_object()) walk(it.value());
  };
  each_program_statement(prog, [&](const ojson& s) {
    for (auto it = s.begin(); it != s.end(); ++it) {
      if (it.value().is_object()) walk(it.value());
      if (it.key() == "args" && it.value().is_array())
        for (const ojson& a : it.value()) walk(a);
    }
  });
  return rule_of_ops(ops);
}

// --- the journal ----------------------------------------------------------------

// The strategy of a supervisor, by name, from the program's system tree.
std::string strategy_of(const ojson& decls, const std::string& sup) {
  if (!decls.is_array()) return "";
  for (const ojson& d : decls) {
    const ojson& s = d.contains("supervisor") ? d["supervisor"] : kNull;
    if (!s.is_object()) continue;
    if (str(s, "name") == sup) return str(s, "strategy");
    std::string r = strategy_of(s.value("children", ojson::array()), sup);
    if (!r.empty()) return r;
  }
  return "";
}

// The decision that the events before `i` are the reaction to, if any: the last
// decision at the same turn.
const ojson* reaction_decision(const ojson& journal, size_t i) {
  const ojson& e = at(journal, i);
  for (size_t j = i; j-- > 0;) {
    const ojson& p = journal[j];
    if (p.value("turn", -1) != e.value("turn", -2)) return nullptr;
    if (str(p, "ev") == "decision") return &p;
  }
  return nullptr;
}

// A delivered message that is one of the program's given messages (§8.2 start).
bool is_given(const ojson& prog, const ojson& deliver) {
  if (!deliver.is_object() || !deliver.value("from", ojson()).is_null()) return false;
  for (const ojson& g : prog.value("given", ojson::array())) {
    if (str(g, "to") != str(deliver, "to") || str(g, "tag") != str(deliver, "tag")) continue;
    ojson args = ojson::array();
    for (const ojson& a : g.value("args", ojson::array())) args.push_back(a.value("value", ojson()));
    if (args == deliver["args"]) return true;
  }
  return false;
}

bool sends_tag(const ojson& prog, const std::string& tag) {
  bool found = false;
  each_program_statement(prog,
                         [&](const ojson& s) { found = found || (str(s, "do") == "send" && str(s, "tag") == tag); });
  return found;
}

bool same_message(const ojson& a, const ojson& b) {
  if (!a.is_object() || !b.is_object()) return false;
  return a.value("from", ojson()) == b.value("from", ojson()) && str(a, "tag") == str(b, "tag") &&
         a.value("args", ojson()) == b.value("args", ojson());
}

// Whether the sender of a message an event shows failed in the same turn (the
// sends a handler made before it failed stand, §6.4).
bool sender_failed(const ojson& journal, const ojson& e) {
  if (!e.is_object()) return false;
  for (const ojson& x : journal)
    if (str(x, "ev") == "exit" && x["name"] == e["from"] && x["turn"] == e["turn"] && str(x, "reason") != "normal" &&
        str(x, "reason") != "shutdown")
      return true;
  return false;
}

bool later_in_turn(const ojson& journal, size_t i, const ojson& e) {
  if (!e.is_object()) return false;
  for (size_t j = i + 1; j < journal.size() && journal[j]["turn"] == e["turn"]; j++)
    if (journal[j] == e) return true;
  return false;
}

// In a supervisor's reaction, at event `i`: the same events in another order (the
// order of the restarts or terminations), or an event one side has and the other
// lacks (which children they concern).
std::string reaction_kind(const ojson& oj, const ojson& tj, size_t i) {
  return later_in_turn(oj, i, at(tj, i)) && later_in_turn(tj, i, at(oj, i)) ? " order" : " which";
}

// A message event (drop, deliver) of the oracle's with no event of the same kind
// and message on the target's side from `i` on.
bool missing_on_target(const ojson& o, const ojson& tj, size_t i) {
  for (size_t j = i; j < tj.size(); j++)
    if (str(tj[j], "ev") == str(o, "ev") && tj[j]["to"] == o["to"] && same_message(tj[j], o)) return false;
  return true;
}

// The oracle's event `i` (or, when the oracle has none there, the target's),
// attributed.
// `later` is the oracle's journal of the same run with a higher turn limit (the
// same events first): what the oracle would deliver after a turn limit cut it.
std::string event_rule(const ojson& prog, const ojson& oj, const ojson& tj, const ojson& later, size_t i) {
  const ojson& o = at(oj, i);
  const ojson& t = at(tj, i);
  const ojson& e = o.is_null() ? t : o;
  std::string ev = str(e, "ev");
  std::string other = str(o.is_null() ? o : t, "ev");
  bool message_o = ev == "deliver" || ev == "drop", message_t = other == "deliver" || other == "drop";
  if (ev == "drop" && !o.is_null() && missing_on_target(o, tj.is_array() ? tj : ojson::array(), i))
    return sender_failed(oj, o) ? "§6.4 sends before a failure" : "§6.5 drop";
  if (message_o && message_t && is_given(prog, o) && is_given(prog, t) && !same_message(o, t)) return "§8.2 given";
  if (ev == "drop" && other == "drop" && o["from"] == t["from"] && o["tag"] == t["tag"] && o["to"] == t["to"])
    return send_values(prog, str(o, "tag"));
  if (ev == "deliver" && other == "deliver") {
    if (o["to"] != t["to"] || o["ready"] != t["ready"] || same_message(o, t)) return "§8.2 draw";
    // Another message than the oracle's: one that was in the mailbox too (given to
    // that process, delivered there later by the oracle, or of a tag its sender
    // sends) came out in another order; otherwise its values differ, or it was
    // never sent.
    bool given_o = is_given(prog, o), given_t = is_given(prog, t);
    if (given_o && given_t) return "§8.2 given";
    if (given_t) return "§6.5 fifo";
    for (size_t j = i + 1; j < later.size(); j++)
      if (str(later[j], "ev") == "deliver" && later[j]["to"] == t["to"] && same_message(later[j], t))
        return "§6.5 fifo";
    if (o["from"] == t["from"] && o["tag"] == t["tag"]) return send_values(prog, str(o, "tag"));
    if (!t["from"].is_null() && sends_tag(prog, str(t, "tag"))) return "§6.5 fifo";
    return "§6.5 send";
  }
  if (ev == "deliver") return "§6.5 send";  // delivered on one side only: never enqueued on the other
  if (ev == "drop") return "§6.5 drop";
  if (ev == "decision" || other == "decision") {
    // Whether to restart at all is the restart type; whether a restart is allowed,
    // the intensity.
    std::string oa = str(o, "action"), ta = str(t, "action");
    bool restarts_o = oa == "restart" || oa == "give_up", restarts_t = ta == "restart" || ta == "give_up";
    if (restarts_o && restarts_t) return "§7.4 intensity";
    return "§7.2 restart type";
  }
  if (ev == "exit") {
    std::string reason = str(e, "reason");
    if (reason == "DIV_ZERO") return division_values(prog);
    if (reason == "NO_HANDLER") return "§6.5 match";
    if (reason == "SYSTEM_LIMIT") return "§6.6 limit";
    if (reason == "NOPROC") return "§6.6 noproc";
    if (reason == "shutdown") {
      const ojson* d = reaction_decision(o.is_null() ? tj : oj, i);
      if (!d) return "§7.5 termination";
      if (str(*d, "action") == "give_up") return "§7.4 intensity";
      return "§7.3 " + strategy_of(prog.value("system", ojson::array()), str(*d, "supervisor")) +
             reaction_kind(oj, tj, i);
    }
    return "§6.4 exit";
  }
  if (ev == "start") {
    if (e.value("turn", 0) == 0) return "§8.2 start";
    const ojson* d = reaction_decision(o.is_null() ? tj : oj, i);
    if (d)
      return "§7.3 " + strategy_of(prog.value("system", ojson::array()), str(*d, "supervisor")) +
             reaction_kind(oj, tj, i);
    return "§6.6 spawn";
  }
  return "§9.2 " + ev;
}

std::string path_of(const std::string& field, size_t i, const ojson& o, const ojson& t) {
  std::string p = field + "[" + std::to_string(i) + "]";
  if (o.is_object() && t.is_object())
    for (auto it = o.begin(); it != o.end(); ++it)
      if (!t.contains(it.key()) || t[it.key()] != it.value()) return p + "." + it.key();
  return p + (o.is_null() ? " (extra)" : t.is_null() ? " (absent)" : "");
}

}  // namespace

Attribution attribute(const Program& p, const ojson& oracle, const ojson& got) {
  if (!got.value("ok", false) || !oracle.value("ok", false))
    return {"§10 error " + str(got.value("ok", false) ? oracle : got, "code"), "error"};
  ojson prog = program_to_json(p);
  const ojson& oj = oracle["journal"];
  const ojson& tj = got.contains("journal") ? got["journal"] : kNull;
  size_t n = std::max(oj.size(), tj.is_array() ? tj.size() : 0);
  for (size_t i = 0; i < n; i++)
    if (at(oj, i) != at(tj, i)) {
      const ojson& run = oracle["run"];
      RunSettings longer{run.value("seed", uint64_t{0}), run.value("turns", int64_t{0}) + 1000,
                         run.value("max_processes", int64_t{1})};
      Answer later = oracle_answer(p, longer);
      return {event_rule(prog, oj, tj, later.ok() ? later.json["journal"] : oj, i),
              path_of("journal", i, at(oj, i), at(tj, i))};
    }
  // The journals agree: what follows from them but is not in them.
  const ojson& oa = oracle["alive"];
  const ojson& ta = got.value("alive", ojson::array());
  for (size_t i = 0; i < std::max(oa.size(), ta.size()); i++) {
    const ojson& o = at(oa, i);
    const ojson& t = at(ta, i);
    if (o == t) continue;
    if (o.is_object() && t.is_object() && o["name"] == t["name"] && o["state"].is_object())
      for (auto it = o["state"].begin(); it != o["state"].end(); ++it)
        if (!t["state"].contains(it.key()) || t["state"][it.key()] != it.value())
          return {field_values(prog, it.key()), "alive[" + std::to_string(i) + "].state." + it.key()};
    return {"§9.1 alive", "alive[" + std::to_string(i) + "]"};
  }
  for (const char* f : {"outcome", "turns"})
    if (oracle[f] != got.value(f, ojson())) return {"§8.2 run", f};
  for (const char* f : {"failures", "decisions", "processes", "supervisors", "run"})
    if (oracle[f] != got.value(f, ojson())) return {std::string("§9.1 ") + f, f};
  return {"§9.3 bytes", "bytes"};
}

std::string rule_signature(const std::string& target, const Attribution& a) { return target + ":" + a.rule; }

}  // namespace concord
