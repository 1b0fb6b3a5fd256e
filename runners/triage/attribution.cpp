// runners/triage/attribution.cpp: the SPEC rule behind the first causal difference of two
// results (the table is in attribution.hpp).
#include "attribution.hpp"

#include "oracle/check.hpp"
#include "oracle/interpreter.hpp"
#include "runners/campaign/divergence.hpp"
#include "runners/protocol/diff.hpp"
#include "runners/triage/attribution_json.hpp"
#include "runners/triage/attribution_links.hpp"
#include "runners/triage/attribution_v2.hpp"
#include "runners/triage/operator_probe.hpp"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace concord {
namespace {

const ojson kNull;

using attribution_json::at;
using attribution_json::each_kind_statement;
using attribution_json::each_program_statement;
using attribution_json::kind_at;
using attribution_json::operators_in;
using attribution_json::rule_of_ops;
using attribution_json::str;

// --- the operators that compute a value (§5), read from the program's JSON form ---

// The variables an expression reads.
void variables_in(const ojson& expr, std::set<std::string>& vars) {
  if (!expr.is_object()) return;
  if (str(expr, "op") == "var") vars.insert(str(expr, "name"));
  for (const char* k : {"lhs", "rhs", "arg"})
    if (expr.contains(k)) variables_in(expr[k], vars);
}

// Every statement with the conditions of the `if`s around it.
template <class F>
void each_guarded_statement(const ojson& stmts, std::vector<const ojson*>& conds, F&& f) {
  if (!stmts.is_array()) return;
  for (const ojson& s : stmts) {
    f(s, conds);
    if (str(s, "do") == "if") {
      conds.push_back(&s["cond"]);
      each_guarded_statement(s.value("then", ojson::array()), conds, f);
      each_guarded_statement(s.value("else", ojson::array()), conds, f);
      conds.pop_back();
    }
    if (s.contains("body")) each_guarded_statement(s["body"], conds, f);
  }
}

// Each body of kind `k` (its init, then its handlers' bodies), or only those named
// in `bodies` ("": the init, else handler tags).
template <class Kind, class F>
void each_body(Kind& k, const std::set<std::string>* bodies, F&& f) {
  if (k.contains("init") && (!bodies || bodies->count(""))) f(k["init"]);
  if (k.contains("handlers"))
    for (auto& h : k["handlers"])
      if (h.contains("body") && (!bodies || bodies->count(str(h, "tag")))) f(h["body"]);
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

// f on the argument expression at `index` of every declared process of `kind` in the
// system tree `decls`.
template <class F>
void each_declared_arg(const ojson& decls, const std::string& kind, size_t index, F&& f) {
  if (!decls.is_array()) return;
  for (const ojson& d : decls) {
    if (d.contains("process") && str(d["process"], "kind") == kind && d["process"].contains("args"))
      if (const ojson& a = at(d["process"]["args"], index); !a.is_null()) f(a);
    if (d.contains("supervisor")) each_declared_arg(d["supervisor"].value("children", ojson::array()), kind, index, f);
  }
}

// The operators of what is bound to a parameter named `name` (§3: a kind's parameter
// gets a spawn's or a declaration's argument, a handler's parameter a send's or a
// call's): a value computed wrongly and passed on shows in the process or handler
// that received it.
void param_operators(const ojson& prog, const std::string& name, std::set<std::string>& ops,
                     std::set<std::string>& seen) {
  auto args_at = [&](size_t i, const char* what, const char* key, const std::string& value) {
    each_program_statement(prog, [&](const ojson& s) {
      if (str(s, "do") != what || str(s, key) != value || !s.contains("args")) return;
      if (const ojson& a = at(s["args"], i); !a.is_null()) value_operators(prog, a, ops, seen);
    });
  };
  for (const ojson& k : prog.value("kinds", ojson::array())) {
    const ojson& params = k.value("params", ojson::array());
    for (size_t i = 0; i < params.size(); ++i) {
      if (str(params[i], "name") != name) continue;
      args_at(i, "spawn", "kind", str(k, "name"));
      each_declared_arg(prog.value("system", ojson::array()), str(k, "name"), i,
                        [&](const ojson& a) { value_operators(prog, a, ops, seen); });
    }
    for (const ojson& h : k.value("handlers", ojson::array())) {
      const ojson& hparams = h.value("params", ojson::array());
      for (size_t i = 0; i < hparams.size(); ++i) {
        if (str(hparams[i], "name") != name) continue;
        args_at(i, "send", "tag", str(h, "tag"));
        args_at(i, "call", "tag", str(h, "tag"));
      }
    }
  }
}

// The operators of what a variable named `field` holds: a state field's assignments
// and initialiser, or a parameter's arguments (names are matched in every kind).
void field_operators(const ojson& prog, const std::string& field, std::set<std::string>& ops,
                     std::set<std::string>& seen) {
  if (!seen.insert(field).second) return;
  param_operators(prog, field, ops, seen);
  // What was assigned, and the conditions under which (which assignment happened).
  for (const ojson& k : prog.value("kinds", ojson::array())) {
    std::vector<const ojson*> conds;
    auto look = [&](const ojson& s, const std::vector<const ojson*>& cs) {
      if (str(s, "do") != "assign" || str(s, "field") != field) return;
      value_operators(prog, s.value("value", ojson()), ops, seen);
      for (const ojson* c : cs) value_operators(prog, *c, ops, seen);
    };
    each_guarded_statement(k.value("init", ojson::array()), conds, look);
    for (const ojson& h : k.value("handlers", ojson::array()))
      each_guarded_statement(h.value("body", ojson::array()), conds, look);
  }
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

// Whether event `e` is the exit of `name` with a failure (not normal, not shutdown).
bool failure_of(const ojson& e, const ojson& name) {
  return str(e, "ev") == "exit" && e["name"] == name && str(e, "reason") != "normal" && str(e, "reason") != "shutdown";
}

// Whether the sender of the message of event `i` (a drop: journaled by the body that
// sent it) failed after it in the same turn (the sends a handler made before it
// failed stand, §6.4). An exit before it in that turn is an earlier incarnation's.
bool sender_failed(const ojson& journal, size_t i) {
  if (!journal.is_array() || i >= journal.size()) return false;
  const ojson& e = journal[i];
  for (size_t j = i + 1; j < journal.size() && journal[j].value("turn", ojson()) == e.value("turn", ojson()); j++)
    if (failure_of(journal[j], e.value("from", ojson()))) return true;
  return false;
}

bool later_in_turn(const ojson& journal, size_t i, const ojson& e) {
  if (!e.is_object()) return false;
  for (size_t j = i + 1; j < journal.size() && journal[j]["turn"] == e["turn"]; j++)
    if (journal[j] == e) return true;
  return false;
}

// Whether statement `st` (a send from `from`) may send to `to`: a send whose
// receiver is `self` or a name reaches only that name (a null `to`: any); one
// with another number of arguments than `args` (when given) sends another message.
bool may_send_to(const ojson& st, const ojson& from, const ojson& to, const ojson& args = ojson()) {
  if (str(st, "do") != "send") return true;
  if (args.is_array() && st.value("args", ojson::array()).size() != args.size()) return false;
  if (to.is_null()) return true;
  const ojson& r = st.value("to", ojson());
  std::string op = str(r, "op");
  if (op == "self") return from == to;
  if (op == "addr") return r.value("value", ojson()) == to;
  return true;
}

// The operators of the conditions of the `if`s around every send of `tag` (or
// spawn of kind `tag`) in kind `kind` (and of what the fields they read were assigned), when every such send is
// inside an `if`: the message was sent on one side and not on the other because a
// condition came out otherwise. Nothing when one of them is sent unconditionally
// (or the kind has none), unless the journal already shows that send's message
// `accounted` times from this run of the body: with as many unconditional sends
// (a `repeat n` sends n times), this one came from a guarded send.
// `bodies`: the tags of the handlers that may have run it ("": the init body); nullptr: every body.
std::optional<std::string> guard_rule(const ojson& prog, const std::string& kind, const std::string& tag,
                                      const char* what_do = "send", const std::set<std::string>* bodies = nullptr,
                                      const ojson& from = ojson(), const ojson& to = ojson(),
                                      const ojson& args = ojson(), int accounted = 0) {
  std::set<std::string> ops;
  auto may_reach = [&](const ojson& st) { return may_send_to(st, from, to, args); };
  bool any = false;
  int64_t unguarded = 0;
  int64_t times = 1;  // the product of the counts of the `repeat`s around the statement walked
  std::vector<const ojson*> conds;
  std::function<void(const ojson&)> walk = [&](const ojson& stmts) {
    if (!stmts.is_array()) return;
    for (const ojson& st : stmts) {
      std::string what = str(st, "do");
      if (what == what_do && str(st, what == "spawn" ? "kind" : "tag") == tag && may_reach(st)) {
        any = true;
        // The conditions around it, and what its receiver was computed from (a
        // field assigned under conditions): nothing to blame when it has neither.
        std::set<std::string> mine, seen;
        for (const ojson* c : conds) value_operators(prog, *c, mine, seen);
        if (what == "send") value_operators(prog, st.value("to", ojson()), mine, seen);
        if (mine.empty()) unguarded += times;
        ops.insert(mine.begin(), mine.end());
      }
      if (what == "if") {
        conds.push_back(&st["cond"]);
        walk(st.value("then", ojson::array()));
        walk(st.value("else", ojson::array()));
        conds.pop_back();
      }
      if (what == "repeat") {
        int64_t outer = times;
        times = std::min<int64_t>(times * std::max<int64_t>(st.value("count", int64_t{0}), 0), int64_t{1} << 40);
        walk(st.value("body", ojson::array()));
        times = outer;
      }
    }
  };
  for (const ojson& k : prog.value("kinds", ojson::array())) {
    if (str(k, "name") != kind) continue;
    each_body(k, bodies, walk);
  }
  if (!any || unguarded > accounted) return std::nullopt;
  return ops.empty() ? std::string("§6.2 if") : rule_of_ops(ops);
}

// The guard rule of the send behind a message event (nothing for a given message).
// The body that ran when event `i` happened, for its sender `from`: the handler of
// the last delivery to it in that turn, else its init (started, or restarted after
// that delivery, in that turn).
std::string running_body(const ojson& journal, const ojson& from, size_t i) {
  const ojson& e = at(journal, i);
  for (size_t j = std::min(i, journal.is_array() ? journal.size() : 0); j-- > 0;) {
    const ojson& x = journal[j];
    if (x.value("turn", -1) != e.value("turn", -2)) break;
    if (str(x, "ev") == "start" && x.value("name", ojson()) == from) return "";  // restarted since
    if (str(x, "ev") == "deliver") return x["to"] == from ? str(x, "tag") : "";
  }
  return "";
}

// The same drops as `e` that the journal shows before event `i` from the same run
// of its sender's body (back to the delivery that began it, or the sender's start).
int same_drops_before(const ojson& journal, const ojson& e, size_t i) {
  int n = 0;
  for (size_t j = std::min(i, journal.is_array() ? journal.size() : 0); j-- > 0;) {
    const ojson& x = journal[j];
    if (x.value("turn", -1) != e.value("turn", -2) || str(x, "ev") == "deliver") break;
    if (str(x, "ev") == "start" && x["name"] == e["from"]) break;
    n += x == e;
  }
  return n;
}

// The bodies process `from` ran before event `i`: its init at each start ("") and the
// handler of each message delivered (or call made) to it. A message it sent before
// `i` was sent by one of them.
std::set<std::string> bodies_run(const ojson& journal, const ojson& from, size_t i) {
  std::set<std::string> bodies;
  for (size_t j = 0; j < i && j < journal.size(); j++) {
    const ojson& x = journal[j];
    std::string ev = str(x, "ev");
    if (ev == "start" && x.value("name", ojson()) == from) bodies.insert("");
    if ((ev == "deliver" || ev == "call") && x.value("to", ojson()) == from) bodies.insert(str(x, "tag"));
  }
  return bodies;
}

// The copies of delivery `e` before event `i`, when each body its sender ran before
// `i` ran once (a start, or one delivery of each tag): each copy came of one send,
// and an unguarded send of those bodies sent one. 0 when a body ran more often.
int same_deliveries_before(const ojson& journal, const ojson& e, size_t i) {
  std::map<std::string, int> runs;
  int n = 0;
  for (size_t j = 0; j < i && j < journal.size(); j++) {
    const ojson& x = journal[j];
    std::string ev = str(x, "ev");
    if (ev == "start" && x.value("name", ojson()) == e["from"] && ++runs[""] > 1) return 0;
    if ((ev == "deliver" || ev == "call") && x.value("to", ojson()) == e["from"] && ++runs[str(x, "tag")] > 1) return 0;
    if (ev == "deliver" && x["to"] == e["to"] && same_message(x, e)) n++;
  }
  return n;
}

std::optional<std::string> guard_of(const ojson& prog, const ojson& journal, const ojson& e, size_t i) {
  if (!e.is_object() || e.value("from", ojson()).is_null()) return std::nullopt;
  // A drop is journaled by the body that sent it; a delivery later, from any body its
  // sender ran before.
  bool drop = str(e, "ev") == "drop";
  std::set<std::string> bodies =
      drop ? std::set<std::string>{running_body(journal, e["from"], i)} : bodies_run(journal, e["from"], i);
  return guard_rule(prog, kind_at(journal, e["from"], i), str(e, "tag"), "send", &bodies, e["from"], e["to"],
                    e.value("args", ojson()),
                    drop ? same_drops_before(journal, e, i) : same_deliveries_before(journal, e, i));
}

// Whether a journal shows the message of event `e` (delivered or dropped) anywhere.
bool shows(const ojson& journal, const ojson& e) {
  if (!journal.is_array()) return false;
  for (const ojson& x : journal) {
    std::string ev = str(x, "ev");
    if ((ev == "deliver" || ev == "drop") && x["to"] == e["to"] && same_message(x, e)) return true;
  }
  return false;
}

// How many times a journal shows event `e` itself (in its turn, with its values).
size_t copies_of(const ojson& journal, const ojson& e) {
  return journal.is_array() ? static_cast<size_t>(std::count(journal.begin(), journal.end(), e)) : 0;
}

// Whether the target's journal shows the message of the oracle's event `i` fewer
// times than the oracle's journal had by then: one copy of it never left its
// sender. A process may send one message from two places (a's `tick` to itself,
// then to self-2), or again after a restart: that the target shows one copy does
// not make the other sent. A delivery: the same sender, tag and values to any
// receiver (sent elsewhere is another fault), in the target's whole journal (it may
// deliver later). A drop (`drop`): the same drop, in the turns up to its own (a drop
// is journaled in the turn of its send; a later one is another send's).
bool fewer_copies(const ojson& oj, size_t i, const ojson& tj, bool drop = false) {
  if (!tj.is_array() || i >= oj.size()) return false;
  const ojson& e = oj[i];
  auto copies = [&](const ojson& journal, size_t end) {
    size_t n = 0;
    for (size_t j = 0; j < end && j < journal.size(); j++) {
      const ojson& x = journal[j];
      if (drop && x.value("turn", int64_t{0}) > e.value("turn", int64_t{0})) break;
      std::string ev = str(x, "ev");
      bool copy = drop ? ev == "drop" && x["to"] == e["to"] : ev == "deliver" || ev == "drop";
      n += copy && same_message(x, e);
    }
    return n;
  };
  return copies(tj, tj.size()) < copies(oj, drop ? oj.size() : i + 1);
}

// Whether process `name` failed (exited with a failure code) before event `i`: a
// message of its that one side never shows was lost with the failure (§6.4).
bool failed_before(const ojson& journal, const ojson& name, size_t i) {
  for (size_t j = 0; j < i && j < journal.size(); j++)
    if (failure_of(journal[j], name)) return true;
  return false;
}

// Whether the target's journal is the oracle's without any of its drops: the
// target journals no drop at all, and nothing else differs.
bool only_drops_missing(const ojson& oj, const ojson& tj) {
  if (!tj.is_array()) return false;
  ojson without = ojson::array();
  for (const ojson& e : oj)
    if (str(e, "ev") != "drop") without.push_back(e);
  return without == tj;
}

// Whether the target's journal is the oracle's for the same program with its
// given messages sent in the order the target shows them (§8.2 start): per
// receiver, the given messages' slots filled in the order the target delivers
// them; those dropped at turn 0 in the order it drops them.
bool given_order_explains(const ojson& prog, const ojson& run, const ojson& tj) {
  const ojson& given = prog.value("given", ojson::array());
  if (!tj.is_array() || given.size() < 2) return false;
  auto message_of = [](const ojson& g) {
    ojson args = ojson::array();
    for (const ojson& a : g.value("args", ojson::array())) args.push_back(a.value("value", ojson()));
    return ojson{{"from", nullptr}, {"to", g.value("to", ojson())}, {"tag", g.value("tag", ojson())}, {"args", args}};
  };
  std::map<std::string, std::vector<size_t>> slots;  // group -> given indexes, in the program's order
  std::vector<size_t> seen_at(given.size(), SIZE_MAX);
  std::vector<std::string> group(given.size());
  for (size_t g = 0; g < given.size(); g++) {
    ojson m = message_of(given[g]);
    group[g] = str(m, "to");
    for (size_t j = 0; j < tj.size(); j++) {
      std::string ev = str(tj[j], "ev");
      if ((ev == "deliver" || ev == "drop") && tj[j]["to"] == m["to"] && same_message(tj[j], m)) {
        bool taken = false;  // two equal given messages: the second takes the next event
        for (size_t h = 0; h < g; h++) taken = taken || seen_at[h] == j;
        if (taken) continue;
        seen_at[g] = j;
        if (ev == "drop") group[g] = "";  // dropped at turn 0: one group, in journal order
        break;
      }
    }
    slots[group[g]].push_back(g);
  }
  ojson reordered = prog;
  bool moved = false;
  for (auto& [name, idx] : slots) {
    std::vector<size_t> order = idx;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return seen_at[a] < seen_at[b]; });
    for (size_t k = 0; k < idx.size(); k++) {
      reordered["given"][idx[k]] = given[order[k]];
      moved = moved || idx[k] != order[k];
    }
  }
  if (!moved) return false;
  try {
    Program q = program_from_json(reordered);
    check(q);
    RunSettings r{run.value("seed", uint64_t{0}), run.value("turns", int64_t{0}),
                  run.value("max_processes", int64_t{1})};
    Answer a = oracle_answer(q, r);
    return a.ok() && a.json["journal"] == tj;
  } catch (const std::exception&) {
    return false;
  }
}

// In a supervisor's reaction, at event `i`: the same events in another order (the
// order of the restarts or terminations), or an event one side has and the other
// lacks (which children they concern).
std::string reaction_kind(const ojson& oj, const ojson& tj, size_t i) {
  return later_in_turn(oj, i, at(tj, i)) && later_in_turn(tj, i, at(oj, i)) ? " order" : " which";
}

// Whether the start at `i` on one side starts again a process started in an earlier
// turn (a restart, not a spawn) that the other side does not start in that turn: a
// child one side restarts and the other does not (one_for_all restarting a
// temporary sibling: node_2-2 again, where the oracle starts the next transient
// one, node_2-4, which is not a numbering of spawned names).
bool restart_on_one_side(const ojson& oj, const ojson& tj, size_t i) {
  auto restarts = [i](const ojson& mine, const ojson& theirs) {
    const ojson& s = at(mine, i);
    if (str(s, "ev") != "start") return false;
    const ojson turn = s.value("turn", ojson());
    bool earlier = false, other_starts = false;
    for (size_t j = 0; j < i; j++)
      earlier = earlier || (str(mine[j], "ev") == "start" && mine[j]["name"] == s["name"] && mine[j]["turn"] != turn);
    if (theirs.is_array())
      for (const ojson& x : theirs)
        other_starts = other_starts || (str(x, "ev") == "start" && x["name"] == s["name"] && x["turn"] == turn);
    return earlier && !other_starts;
  };
  return restarts(oj, tj) || restarts(tj, oj);
}

// A message event (drop, deliver) of the oracle's with no event of the same kind
// and message on the target's side from `i` on.
bool missing_on_target(const ojson& o, const ojson& tj, size_t i) {
  for (size_t j = i; j < tj.size(); j++)
    if (str(tj[j], "ev") == str(o, "ev") && tj[j]["to"] == o["to"] && same_message(tj[j], o)) return false;
  return true;
}

// How many sends of `tag` kind `kind` has.
int sends_of(const ojson& prog, const std::string& kind, const std::string& tag) {
  int n = 0;
  for (const ojson& k : prog.value("kinds", ojson::array())) {
    if (str(k, "name") != kind) continue;
    auto count = [&](const ojson& st) { n += str(st, "do") == "send" && str(st, "tag") == tag; };
    each_kind_statement(k, count);
  }
  return n;
}

// Whether a value is an address: operators compute ints only (§5), so an address
// that differs is another message, not a value computed otherwise.
bool any_address_differs(const ojson& a, const ojson& b) {
  if (!a.is_array() || !b.is_array() || a.size() != b.size()) return true;
  for (size_t k = 0; k < a.size(); k++)
    if (a[k] != b[k] && (a[k].is_string() || b[k].is_string())) return true;
  return false;
}

// Whether a send of `tag` in kind `kind` has only literal arguments (ints, addresses,
// self) whose values are `args`, sent by `sender`: the message is one the program
// sends as it is, not a value computed otherwise.
bool literal_send(const ojson& prog, const std::string& kind, const std::string& tag, const ojson& sender,
                  const ojson& args) {
  bool found = false;
  for (const ojson& k : prog.value("kinds", ojson::array())) {
    if (str(k, "name") != kind) continue;
    auto look = [&](const ojson& st) {
      if (str(st, "do") != "send" || str(st, "tag") != tag) return;
      const ojson& as = st.value("args", ojson::array());
      if (!args.is_array() || as.size() != args.size()) return;
      for (size_t a = 0; a < as.size(); a++) {
        std::string op = str(as[a], "op");
        ojson v = op == "int" || op == "addr" ? as[a].value("value", ojson()) : op == "self" ? sender : ojson();
        if (v.is_null() || v != args[a]) return;
      }
      found = true;
    };
    each_kind_statement(k, look);
  }
  return found;
}

// Whether a journal shows a mailbox keeping its order around given messages: a
// message from a process delivered to a receiver of given messages before one of them
// (it was in the mailbox before the givens, sent at turn 0, and came out first).
bool mailbox_kept_order(const ojson& prog, const ojson& tj) {
  if (!tj.is_array()) return false;
  std::set<std::string> sent_first;  // receivers that got a message from a process first
  for (const ojson& e : tj) {
    if (str(e, "ev") != "deliver") continue;
    std::string to = str(e, "to");
    if (is_given(prog, e)) {
      if (sent_first.count(to)) return true;
    } else if (!e.value("from", ojson()).is_null()) {
      sent_first.insert(to);
    }
  }
  return false;
}

// The guard rule of the spawn behind start event `e` (at `i` of `journal`) when
// `other`, the other side's journal, never starts that process in that turn (a
// spawned name started in a later turn is another spawn that got the same number).
std::optional<std::string> spawn_guard(const ojson& prog, const ojson& e, const ojson& journal, size_t i,
                                       const ojson& other) {
  if (!other.is_array()) return std::nullopt;
  for (const ojson& x : other)
    if (str(x, "ev") == "start" && x["name"] == e["name"] && x["kind"] == e["kind"] &&
        x.value("turn", int64_t{-1}) == e.value("turn", int64_t{-2}))
      return std::nullopt;
  for (size_t j = i; j-- > 0;) {
    const ojson& x = journal[j];
    if (x.value("turn", -1) != e.value("turn", -2)) break;
    if (str(x, "ev") == "deliver") {  // the handler that spawned it: its spawns only
      std::set<std::string> body = {str(x, "tag")};
      return guard_rule(prog, kind_at(journal, x["to"], j), str(e, "kind"), "spawn", &body);
    }
  }
  return std::nullopt;
}

// The guard rule of the `stop` (a normal exit) or `fail` behind exit event `e` (at
// `i` of `journal`) when `other`, the other side's journal, has no exit of that
// process in that turn, or one with another reason: each such statement of the body
// that ran (running_body) is inside an `if` whose condition came out otherwise
// (`if -1 / ini { } else { stop; }` with a division that floors: the process lives
// on, and the difference is the missing exit; `if q { fail E; } stop;`: it fails
// where the other side stops).
std::optional<std::string> exit_guard(const ojson& prog, const ojson& e, const ojson& journal, size_t i,
                                      const ojson& other) {
  if (!other.is_array()) return std::nullopt;
  for (const ojson& x : other)
    if (str(x, "ev") == "exit" && x["name"] == e["name"] && x["turn"] == e["turn"] && x["reason"] == e["reason"])
      return std::nullopt;
  std::string what = str(e, "reason") == "normal" ? "stop" : "fail";
  std::set<std::string> body = {running_body(journal, e["name"], i)};
  return guard_rule(prog, kind_at(journal, e["name"], i), "", what.c_str(), &body);
}

// Whether statement `st` divides (div or rem, §5) in an expression of its own (not in
// the statements it holds).
bool divides(const ojson& st) {
  std::function<bool(const ojson&)> in = [&](const ojson& e) {
    if (!e.is_object()) return false;
    std::string op = str(e, "op");
    if (op == "div" || op == "rem") return true;
    for (const char* k : {"lhs", "rhs", "arg"})
      if (e.contains(k) && in(e[k])) return true;
    return false;
  };
  for (auto it = st.begin(); it != st.end(); ++it) {
    if (it.key() == "then" || it.key() == "else" || it.key() == "body") continue;
    if (in(it.value())) return true;
    if (it.value().is_array())
      for (const ojson& a : it.value())
        if (in(a)) return true;
  }
  return false;
}

// The operators of the conditions of the `if`s around a division in the body of
// the process that exits at `i` that ran then; nullopt when no division there is in an `if`.
std::optional<std::string> division_guard(const ojson& prog, const ojson& journal, size_t i) {
  const ojson& e = journal[i];
  std::set<std::string> bodies = {running_body(journal, e["name"], i)}, ops, seen;
  bool any = false;
  std::vector<const ojson*> conds;
  for (const ojson& k : prog.value("kinds", ojson::array()))
    if (str(k, "name") == kind_at(journal, e["name"], i))
      each_body(k, &bodies, [&](const ojson& body) {
        each_guarded_statement(body, conds, [&](const ojson& st, const std::vector<const ojson*>& cs) {
          if (!divides(st) || cs.empty()) return;
          any = true;
          for (const ojson* c : cs) value_operators(prog, *c, ops, seen);
        });
      });
  if (!any) return std::nullopt;
  return ops.empty() ? std::string("§6.2 if") : rule_of_ops(ops);
}

// Two starts of the same kind under two spawned names `k-N` (§2): the number's
// digits written backwards (the number right, its decimal form not), or another
// number (the spawns counted otherwise).
std::optional<std::string> spawned_name_rule(const ojson& o, const ojson& t) {
  if (str(o, "ev") != "start" || str(t, "ev") != "start" || o["kind"] != t["kind"] || o["name"] == t["name"])
    return std::nullopt;
  std::string a = str(o, "name"), b = str(t, "name");
  size_t da = a.rfind('-'), db = b.rfind('-');
  if (da == std::string::npos || db == std::string::npos || a.substr(0, da) != b.substr(0, db)) return std::nullopt;
  std::string na = a.substr(da + 1), nb = b.substr(db + 1);
  if (na.size() > 1 && std::string(na.rbegin(), na.rend()) == nb) return "§2 spawned names, decimal";
  return "§2 spawned names, number";
}

// Whether one side never sent the message of event `e` (to its receiver): its run
// ended with every mailbox empty (quiescent), the receiver alive at the end and
// never exiting from event `i` on (so nothing was discarded with it), and its
// journal never shows the message. A run cut by the turn limit proves nothing.
bool never_sent(const ojson& result, const ojson& journal, const ojson& e, size_t i) {
  if (!e.is_object() || result.value("outcome", std::string()) != "quiescent" || shows(journal, e)) return false;
  for (size_t j = i; j < journal.size(); j++)
    if (str(journal[j], "ev") == "exit" && journal[j]["name"] == e["to"]) return false;
  for (const ojson& a : result.value("alive", ojson::array()))
    if (a.value("name", ojson()) == e["to"]) return true;
  return false;
}

// Whether the target's delivery at `i` is a copy of a message more than `result` (the
// oracle's, run to quiescence, `journal` its journal) ever delivers, its receiver
// alive at the end: one copy never sent on the oracle's side (never_sent, for a
// message it sends more than once).
bool extra_copy(const ojson& result, const ojson& journal, const ojson& tj, size_t i) {
  const ojson& t = at(tj, i);
  if (str(t, "ev") != "deliver" || result.value("outcome", std::string()) != "quiescent") return false;
  auto copies = [&](const ojson& j, size_t n) {
    size_t c = 0;
    for (size_t k = 0; k < n && k < j.size(); k++)
      c += str(j[k], "ev") == "deliver" && j[k]["to"] == t["to"] && same_message(j[k], t);
    return c;
  };
  if (copies(tj, i + 1) <= copies(journal, journal.size())) return false;
  for (const ojson& a : result.value("alive", ojson::array()))
    if (a.value("name", ojson()) == t["to"]) return true;
  return false;
}

// The first delivery from event `i` on that one side has and the other never shows,
// attributed as a message sent on one side only: lost with its failing sender
// (§6.4), or its send's condition came out otherwise; nothing when there is none.
std::optional<std::string> one_sided_message(const ojson& prog, const ojson& oracle, const ojson& target,
                                             const ojson& later, size_t i) {
  const ojson& oj = oracle["journal"];
  const ojson& lj = later["journal"];
  const ojson& tj = target["journal"];
  for (size_t j = i; j < oj.size() || j < tj.size(); j++) {
    const ojson& o = at(oj, j);
    if (str(o, "ev") == "deliver" && !o["from"].is_null() && !shows(tj, o)) {
      if (failed_before(oj, o["from"], j) && fewer_copies(oj, j, tj)) return "§6.4 sends before a failure";
      if (std::optional<std::string> g = guard_of(prog, oj, o, j)) return g;
      return "§6.5 send";
    }
    const ojson& t = at(tj, j);
    if (str(t, "ev") == "deliver" && !t["from"].is_null() && !shows(lj, t)) {
      if (std::optional<std::string> g = guard_of(prog, tj, t, j)) return g;
      return "§6.5 send";
    }
  }
  return std::nullopt;
}

// A message as a journal shows it (from, tag, args).
ojson message_json(const World& w, const Message& m) {
  return ojson{{"from", m.from < 0 ? ojson(nullptr) : ojson(w.names[static_cast<size_t>(m.from)])},
               {"tag", w.prog.sigs[static_cast<size_t>(m.sig)].tag},
               {"args", message_args_json(w, m.sig, m.args)}};
}

// The messages each exit of a worker discarded in the oracle's run `s` (§6.4), by
// the name and turn of the exit. The journal shows no send; the oracle's run shows
// the mailbox as the exit discards it (World::discarding, for triage only).
using Discarded = std::map<std::pair<std::string, int64_t>, std::vector<ojson>>;
Discarded discarded_messages(const Program& p, const RunSettings& s) {
  Discarded out;
  try {
    run(p, s, [&](const World& w, const Process& proc) {
      std::vector<ojson>& messages = out[{w.names[static_cast<size_t>(proc.name)], w.turn}];
      Mailbox box = proc.mailbox;
      while (!box.empty()) messages.push_back(message_json(w, box.pop_front()));
    });
  } catch (const std::bad_alloc&) {
    // past the memory limit: what the exits until then discarded
  }
  return out;
}

// Whether the target's delivery `tj[j]` is a message that sat in its receiver's
// mailbox when the receiver exited at an event `x` < `i` (before the first
// difference, so on both sides): the oracle discarded it with the exit (§6.4), the
// target kept it for the next incarnation. The oracle's run shows it discarded
// there; and the target's delivery at `i` is of a message not waiting in the
// oracle's mailbox then (kept_message asks), or a later one (`j` > `i`) is one the
// target delivers more often after the exit than the oracle ever does (a message
// sent again and again is not told from a kept copy by what waits at `i`).
// `discarded` is computed once, when first needed.
bool discarded_with_exit(const ojson& oj, const ojson& tj, const ojson& lj, size_t j, size_t i,
                         const std::function<const Discarded&()>& discarded) {
  const ojson& d = tj[j];
  auto copies = [&](const ojson& journal, size_t from, size_t to) {
    int n = 0;
    for (size_t k = from; k < to && k < journal.size(); k++)
      n += str(journal[k], "ev") == "deliver" && journal[k]["to"] == d["to"] && same_message(journal[k], d);
    return n;
  };
  for (size_t x = 0; x < i && x < oj.size(); x++) {
    const ojson& e = oj[x];
    if (str(e, "ev") != "exit" || e["name"] != d["to"]) continue;
    if (j > i && copies(tj, x + 1, j + 1) <= copies(lj, x + 1, lj.size())) continue;
    auto it = discarded().find({str(e, "name"), e.value("turn", int64_t{0})});
    if (it != discarded().end())
      for (const ojson& m : it->second)
        if (same_message(m, d)) return true;
  }
  return false;
}

// Whether the target's extra ready processes at event `i` (a delivery on both sides,
// the target's with more processes ready) are as many processes that are alive
// again after an exit that discarded messages (before `i`), with an empty mailbox
// in the oracle's run to the turn before: the target kept those messages, and they
// made it ready.
bool ready_with_kept(const ojson& oj, const ojson& tj, size_t i, const Discarded& discarded, const World* before) {
  int64_t extra = tj[i].value("ready", int64_t{0}) - oj[i].value("ready", int64_t{0});
  if (extra <= 0 || !before) return false;
  std::set<std::string> kept;
  for (size_t x = 0; x < i; x++)
    if (str(oj[x], "ev") == "exit") {
      auto it = discarded.find({str(oj[x], "name"), oj[x].value("turn", int64_t{0})});
      if (it != discarded.end() && !it->second.empty()) kept.insert(str(oj[x], "name"));
    }
  int64_t idle = 0;
  for (const Process& proc : before->procs)
    idle +=
        proc.alive && proc.mailbox.empty() && !proc.wait && kept.count(before->names[static_cast<size_t>(proc.name)]);
  return idle >= extra;
}

// Whether the target's delivery at `i` is, of another message than the oracle's
// delivery to the same receiver there, the head of the mailbox the target would
// hold had it kept its mailbox through each exit of that receiver before `i`. That
// mailbox is followed as a queue: each incarnation's own messages (the oracle's
// deliveries to it, in their order) join it behind what the earlier incarnations
// kept, each exit adds what it discarded, and each delivery the journals show
// (equal before `i`) takes the queue's head, which must be that message, else the
// target did not keep them. A message kept shifts every later one: the
// incarnation's own first message waits behind it (a restarted b whose init sends
// to_() to itself takes the kept to_() first, and its own when the oracle delivers
// what to_() sent next).
bool first_kept(const ojson& oj, const ojson& tj, size_t i, const Discarded& discarded) {
  const ojson& d = tj[i];
  const ojson& o = at(oj, i);
  if (str(o, "ev") != "deliver" || o["to"] != d["to"] || same_message(o, d)) return false;
  std::deque<ojson> queue;
  for (size_t x = 0; x < i && x < oj.size(); x++) {
    const ojson& e = oj[x];
    if (str(e, "ev") == "deliver" && e["to"] == d["to"]) {
      queue.push_back(e);
      if (!same_message(queue.front(), e)) return false;
      queue.pop_front();
    } else if (str(e, "ev") == "exit" && e["name"] == d["to"]) {
      auto it = discarded.find({str(e, "name"), e.value("turn", int64_t{0})});
      if (it != discarded.end()) queue.insert(queue.end(), it->second.begin(), it->second.end());
    }
  }
  queue.push_back(o);
  return same_message(queue.front(), d);
}

// Whether message `d` (a delivery) waits in its receiver's mailbox in `w`.
bool waiting_in(const World& w, const ojson& d) {
  for (const Process& proc : w.procs) {
    if (!proc.alive || w.names[static_cast<size_t>(proc.name)] != d["to"]) continue;
    for (Mailbox box = proc.mailbox; !box.empty();)
      if (same_message(message_json(w, box.pop_front()), d)) return true;
  }
  return false;
}

// The oracle's run of `p` with settings `s` cut at the end of turn `turn`; nullopt
// past the memory limit by then (nothing to compare with).
std::optional<RunResult> run_to_turn(const Program& p, const RunSettings& s, int64_t turn) {
  try {
    return run(p, RunSettings{s.seed, turn, s.max_processes});
  } catch (const std::bad_alloc&) {
    return std::nullopt;
  }
}

// Whether the message of delivery `d` waits in its receiver's mailbox at the end of
// the turn before `d`'s, in the oracle's run of `p` with the case's settings `s`.
bool waits_before(const Program& p, const RunSettings& s, const ojson& d) {
  int64_t turn = d.value("turn", int64_t{0});
  std::optional<RunResult> r = turn >= 1 ? run_to_turn(p, s, turn - 1) : std::nullopt;
  return r && waiting_in(*r->world, d);
}

// Whether the oracle had not sent the message of the target's delivery `d` (at `i`,
// the journals equal before) by the end of the turn before: it does not wait in its
// receiver's mailbox there, the oracle's journal shows it nowhere before `i`, and the
// receiver did not exit before (which discards its mailbox). A run that ends, or a
// receiver that exits, right after cannot hide that.
bool unsent_before(const Program& p, const RunSettings& s, const ojson& oj, const ojson& d, size_t i) {
  int64_t turn = d.value("turn", int64_t{0});
  if (turn < 1 || d.value("from", ojson()).is_null()) return false;
  for (size_t j = 0; j < i && j < oj.size(); j++) {
    const ojson& x = oj[j];
    std::string ev = str(x, "ev");
    if ((ev == "deliver" || ev == "drop") && x.value("to", ojson()) == d["to"] && same_message(x, d)) return false;
    if (ev == "exit" && x.value("name", ojson()) == d["to"]) return false;
  }
  std::optional<RunResult> r = run_to_turn(p, s, turn - 1);
  return r && !waiting_in(*r->world, d);
}

// A message the oracle discarded with its receiver's exit, delivered by the target
// to the next incarnation: the target's delivery at `i`, or, when the two
// deliveries there saw another number of ready processes (the kept message made its
// receiver ready), one of the target's next deliveries (a restarted process is ready
// at once, and is drawn soon), or, delivered or not, kept messages that explain the
// processes ready on the target's side only.
std::optional<std::string> kept_message(const Program& p, const RunSettings& s, const ojson& oj, const ojson& tj,
                                        const ojson& lj, size_t i) {
  const ojson& o = at(oj, i);
  if (str(at(tj, i), "ev") != "deliver") return std::nullopt;
  std::set<std::string> exited;
  for (size_t x = 0; x < i && x < oj.size(); x++)
    if (str(oj[x], "ev") == "exit") exited.insert(str(oj[x], "name"));
  bool more_ready = str(o, "ev") == "deliver" && o["ready"] != tj[i]["ready"];
  size_t last = more_ready ? std::min(tj.size(), i + 64) : i + 1;
  std::optional<Discarded> discarded;
  auto of_exits = [&]() -> const Discarded& {
    if (!discarded) discarded = discarded_messages(p, s);
    return *discarded;
  };
  // The oracle's world at the end of the turn before `i`'s: a message waiting
  // there in the receiver's mailbox is one of this incarnation's, taken in another
  // order or by another draw, not one kept.
  std::optional<RunResult> before_run;
  const World* before = nullptr;
  auto world_before = [&]() -> const World* {
    int64_t turn = tj[i].value("turn", int64_t{0});
    if (!before_run && turn >= 1 && (before_run = run_to_turn(p, s, turn - 1))) before = before_run->world.get();
    return before;
  };
  for (size_t j = i; j < last; j++)
    if (str(tj[j], "ev") == "deliver" && exited.count(str(tj[j], "to")) &&
        discarded_with_exit(oj, tj, lj, j, i, of_exits) && world_before() && !waiting_in(*world_before(), tj[j]))
      return "§6.4 exit";
  if (more_ready && ready_with_kept(oj, tj, i, of_exits(), world_before())) return "§6.4 exit";
  if (first_kept(oj, tj, i, of_exits())) return "§6.4 exit";
  return std::nullopt;
}

// Another number of processes ready at delivery `i`, the journals equal before it (a
// version 1 program): some mailbox holds a message on one side only. The bodies that
// ran before `i` ran alike on both sides (the same deliveries, starts and exits), and
// a send outside every `if`, to a receiver not computed, runs alike in a body that
// ran alike: the message was sent by a send under an `if` (or to a receiver computed
// otherwise) whose condition came out otherwise, a run cut or the receiver's exit
// hiding the message itself. It is for a process alive with an empty mailbox in the
// oracle's world at the end of the turn before (the target has more ready), or
// ready there (fewer): the operators of the conditions of every send that may reach
// one of them from the bodies that ran. Nothing when none may, or when a process
// failed or one of them exited before (sends lost with a failure, §6.4; a mailbox
// kept through an exit, kept_message).
std::optional<std::string> ready_guard(const Program& p, const RunSettings& s, const ojson& prog, const ojson& oj,
                                       const ojson& tj, size_t i) {
  const ojson& o = at(oj, i);
  const ojson& t = at(tj, i);
  int64_t ro = o.value("ready", int64_t{-1}), rt = t.value("ready", int64_t{-1});
  int64_t turn = o.value("turn", int64_t{0});
  if (str(o, "ev") != "deliver" || str(t, "ev") != "deliver" || ro < 0 || rt < 0 || ro == rt || turn < 1)
    return std::nullopt;
  std::optional<RunResult> r = run_to_turn(p, s, turn - 1);
  if (!r) return std::nullopt;
  const World& w = *r->world;
  std::set<std::string> candidates;
  for (const Process& proc : w.procs)
    if (proc.alive && proc.mailbox.empty() == (rt > ro)) candidates.insert(w.names[static_cast<size_t>(proc.name)]);
  std::set<std::string> senders;
  for (size_t j = 0; j < i && j < oj.size(); j++) {
    const ojson& x = oj[j];
    if (str(x, "ev") == "start" && str(x, "kind") != "supervisor") senders.insert(str(x, "name"));
    if (str(x, "ev") == "exit" && (failure_of(x, x.value("name", ojson())) || candidates.count(str(x, "name"))))
      return std::nullopt;
  }
  std::set<std::string> ops;
  for (const std::string& sender : senders) {
    std::set<std::string> bodies = bodies_run(oj, ojson(sender), i);
    std::string kind = kind_at(oj, ojson(sender), i);
    for (const ojson& k : prog.value("kinds", ojson::array())) {
      if (str(k, "name") != kind) continue;
      std::vector<const ojson*> conds;
      auto look = [&](const ojson& st, const std::vector<const ojson*>& around) {
        if (str(st, "do") != "send") return;
        bool reaches = false;
        for (const std::string& c : candidates) reaches = reaches || may_send_to(st, ojson(sender), ojson(c));
        if (!reaches) return;
        std::set<std::string> seen;
        for (const ojson* c : around) value_operators(prog, *c, ops, seen);
        value_operators(prog, st.value("to", ojson()), ops, seen);
      };
      each_body(k, &bodies, [&](const ojson& body) { each_guarded_statement(body, conds, look); });
    }
  }
  if (ops.empty()) return std::nullopt;
  return rule_of_ops(ops);
}

// Another number of processes ready at event `i`, a turn on both sides in the same
// turn (deliver, call or resume; version 2), explained by who is ready while it
// waits in a call (§18.3: once its reply has come, whatever its mailbox holds): the
// target has as many more ready as the oracle's world at the end of the turn before
// has callers waiting with a message and no reply, or as many fewer as it has
// callers whose reply has come. Whatever the target then does with such a caller
// (what it resumes with, which message it takes), this count comes first.
std::optional<std::string> waiting_ready(const Program& p, const RunSettings& s, const ojson& oj, const ojson& tj,
                                         size_t i) {
  const ojson& o = at(oj, i);
  const ojson& t = at(tj, i);
  if (!o.is_object() || !t.is_object() || !o.contains("ready") || !t.contains("ready")) return std::nullopt;
  int64_t ro = o.value("ready", int64_t{-1}), rt = t.value("ready", int64_t{-1});
  int64_t turn = o.value("turn", int64_t{0});
  if (ro < 0 || rt < 0 || ro == rt || turn < 1 || t.value("turn", int64_t{0}) != turn) return std::nullopt;
  std::optional<RunResult> r = run_to_turn(p, s, turn - 1);
  if (!r) return std::nullopt;
  int64_t with_mail = 0, replied = 0;
  for (const Process& proc : r->world->procs) {
    if (!proc.alive || !proc.wait) continue;
    if (proc.wait->replied)
      replied++;
    else if (!proc.mailbox.empty())
      with_mail++;
  }
  if ((rt > ro && rt - ro == with_mail) || (ro > rt && ro - rt == replied)) return "§18.3 ready";
  return std::nullopt;
}

// The oracle's event `i` (or, when the oracle has none there, the target's),
// attributed. `later` is the oracle's result for the same run with a higher turn
// limit (the same events first): what the oracle would do after a turn limit cut it.
// `sure` is cleared when another rule explains the same journals as well (a run
// cut by the turn limit hides whether a message was late or never sent; only drops
// missing may be a condition too): attribute() then looks at the other runs.
std::string event_rule(const Program& p, const RunSettings& settings, const ojson& prog, const ojson& run,
                       const ojson& oracle, const ojson& target, const ojson& later, size_t i, bool& sure) {
  sure = true;
  const ojson& oj = oracle["journal"];
  const ojson& lj = later["journal"];
  const ojson& tj = target.contains("journal") ? target["journal"] : kNull;
  if (is_version_2(prog))
    if (std::optional<std::string> r = version2_event_rule(prog, oj, tj, i)) return *r;
  // The target's event in an earlier turn than the oracle's: the oracle has no more
  // events in that turn, so the target's is one it lacks (not a counterpart).
  const ojson& t = at(tj, i);
  bool t_earlier =
      t.is_object() && at(oj, i).is_object() && t.value("turn", int64_t{0}) < at(oj, i).value("turn", int64_t{0});
  const ojson& o = t_earlier ? kNull : at(oj, i);
  const ojson& e = o.is_null() ? t : o;
  std::string ev = str(e, "ev");
  std::string other = str(o.is_null() ? o : t, "ev");
  bool message_o = ev == "deliver" || ev == "drop", message_t = other == "deliver" || other == "drop";
  // The same drop from a process but for its values (or, when its kind sends that
  // tag more than once, maybe another of its sends first: not sure).
  if (ev == "drop" && other == "drop" && !o["from"].is_null() && o["from"] == t["from"] && o["tag"] == t["tag"] &&
      o["to"] == t["to"]) {
    sure = sends_of(prog, kind_at(oj, o["from"], i), str(o, "tag")) < 2;
    return send_values(prog, str(o, "tag"));
  }
  if (ev == "drop" && !o.is_null() &&
      (missing_on_target(o, tj.is_array() ? tj : ojson::array(), i) || fewer_copies(oj, i, tj, true))) {
    // Only drops are missing and nothing else differs: their journaling, the
    // simplest cause, unless each was sent by a handler that then failed (§6.4). Not
    // sure when a failing sender or a condition may explain one of them.
    if (only_drops_missing(oj, tj)) {
      bool all_failing = true;
      for (size_t j = 0; j < oj.size(); j++)
        if (str(oj[j], "ev") == "drop") {
          if (sender_failed(oj, j) || guard_of(prog, oj, oj[j], j)) sure = false;
          all_failing = all_failing && sender_failed(oj, j);
        }
      return all_failing ? "§6.4 sends before a failure" : "§6.5 drop";
    }
    if (sender_failed(oj, i)) return "§6.4 sends before a failure";
    // Never sent there (a drop is journaled in the turn of its send): its condition.
    if (o.value("turn", int64_t{0}) <= target.value("turns", int64_t{-1}))
      if (std::optional<std::string> g = guard_of(prog, oj, o, i)) return *g;
    return "§6.5 drop";
  }
  // A drop on the target's side that the oracle never journals, or journals fewer
  // times (in a turn both reached): never sent on the oracle's side, so its
  // condition came out otherwise (guard_of: unless an unconditional send explains it).
  if (str(t, "ev") == "drop" && (!shows(lj, t) || copies_of(tj, t) > copies_of(lj, t)) &&
      t.value("turn", int64_t{0}) <= later.value("turns", int64_t{-1}))
    if (std::optional<std::string> g = guard_of(prog, tj, t, i)) return *g;
  // Two given messages in another order: the order they were sent in at turn 0 when
  // sending them in the target's order explains its whole journal, else a mailbox's
  // order.
  // When the given messages are delivered, not dropped, a mailbox that takes the
  // newest first (§6.5) explains the same journal, unless the journal shows a
  // mailbox keeping its order: then the simpler cause, what was seen (messages out
  // of one mailbox's order), not sure.
  // Two deliveries to two receivers are the draw's, given messages or not (a mailbox's
  // order or the order given messages were sent in shows within one mailbox).
  bool one_receiver = !(ev == "deliver" && other == "deliver" && o["to"] != t["to"]);
  // (Two message events there: same_message ignores the receiver.)
  if (message_o && message_t && one_receiver && is_given(prog, o) && is_given(prog, t) &&
      !(same_message(o, t) && o["to"] == t["to"])) {
    if (given_order_explains(prog, run, tj) && (ev == "drop" || other == "drop" || mailbox_kept_order(prog, tj)))
      return "§8.2 given";
    sure = !given_order_explains(prog, run, tj);
    return "§6.5 fifo";
  }
  if (ev == "deliver" && other == "deliver") {
    // As many processes ready but another chosen: the draw. Another number of ready
    // processes: some mailbox holds a message on one side only; the first such.
    if (o["ready"] != t["ready"]) {
      if (std::optional<std::string> r = one_sided_message(prog, oracle, target, later, i)) return *r;
      if (!is_version_2(prog))
        if (std::optional<std::string> r = ready_guard(p, settings, prog, oj, tj, i)) return *r;
    }
    if (o["to"] != t["to"] || o["ready"] != t["ready"] || same_message(o, t)) return "§8.2 draw";
    // Another message than the oracle's. The oracle's was never sent on the target's
    // side (never_sent): the condition of its send. Else one that was in the
    // oracle's mailbox too (given to that process, or delivered there later by the
    // oracle) came out in another order; or the oracle's was sent with other values. The target's is one the
    // oracle discarded with its receiver's exit (§6.4), or one the oracle never
    // sent (the condition of its send); or one of a tag its sender sends came out
    // in another order; otherwise it was never sent.
    bool in_later = false;
    for (size_t j = i + 1; j < lj.size(); j++)
      if (str(lj[j], "ev") == "deliver" && lj[j]["to"] == t["to"] && same_message(lj[j], t)) in_later = true;
    bool o_never = never_sent(target, tj, o, i);
    if (!o_never && (is_given(prog, t) || in_later)) {
      // The target delivered the oracle's message later: it was sent; unless its send
      // is under an `if` and another send of its kind may have sent the one delivered.
      sure =
          shows(tj, o) && (sends_of(prog, kind_at(oj, o["from"], i), str(o, "tag")) < 2 || !guard_of(prog, oj, o, i));
      return "§6.5 fifo";
    }
    if (o["from"] == t["from"] && o["tag"] == t["tag"]) {
      // Another message of the same send (an address differs: operators compute no
      // address), or one the program sends as it is: the mailbox's order.
      if (any_address_differs(o["args"], t["args"]) ||
          literal_send(prog, kind_at(oj, t["from"], i), str(t, "tag"), t["from"], t["args"]))
        return "§6.5 fifo";
      // The oracle's message is one the program sends as it is (no value of it can
      // come out otherwise), and the target's waits in the oracle's mailbox too: the
      // mailbox's order. (A shrunk program's values are small: one send's value is
      // often another's.)
      if (literal_send(prog, kind_at(oj, o["from"], i), str(o, "tag"), o["from"], o["args"]) &&
          waits_before(p, settings, t))
        return "§6.5 fifo";
      sure = sends_of(prog, kind_at(oj, o["from"], i), str(o, "tag")) < 2;
      return send_values(prog, str(o, "tag"));
    }
    if (o_never) {
      if (failed_before(oj, o["from"], i) && fewer_copies(oj, i, tj)) return "§6.4 sends before a failure";
      if (std::optional<std::string> g = guard_of(prog, oj, o, i)) return *g;
    }
    if (is_given(prog, t) || in_later) return "§6.5 fifo";
    // (A message the oracle discarded with its receiver's exit was looked for
    // before, in the oracle's own run: kept_message.)
    if (never_sent(later, lj, t, i) || unsent_before(p, settings, oj, t, i))
      if (std::optional<std::string> g = guard_of(prog, tj, t, i)) return *g;
    sure = false;
    if (!t["from"].is_null() && sends_tag(prog, str(t, "tag"))) return "§6.5 fifo";
    return "§6.5 send";
  }
  if (ev == "deliver") {  // delivered on one side only
    if (!o.is_null() && never_sent(target, tj, o, i) && failed_before(oj, o["from"], i) && fewer_copies(oj, i, tj))
      return "§6.4 sends before a failure";
    if (o.is_null() ? never_sent(later, lj, t, i) || extra_copy(later, lj, tj, i) : never_sent(target, tj, o, i))
      if (std::optional<std::string> g = guard_of(prog, o.is_null() ? tj : oj, e, i)) return *g;
    return "§6.5 send";  // never enqueued on the other side
  }
  if (ev == "drop") return "§6.5 drop";
  if (ev == "decision" || other == "decision") {
    // The same decision elsewhere in the same reaction: it is journaled when the
    // supervisor decides, before what the decision does (§7.2).
    if ((ev != "decision" || other != "decision") && reaction_kind(oj, tj, i) == " order") return "§7.2 decision order";
    // Whether to restart at all is the restart type; whether a restart is allowed,
    // the intensity.
    std::string oa = str(o, "action"), ta = str(t, "action");
    bool restarts_o = oa == "restart" || oa == "give_up", restarts_t = ta == "restart" || ta == "give_up";
    if (restarts_o && restarts_t) return "§7.4 intensity";
    return "§7.2 restart type";
  }
  if (ev == "exit") {
    std::string reason = str(e, "reason");
    if (reason == "DIV_ZERO") {
      // The oracle's side alone fails so, dividing inside an `if`: that `if`'s
      // condition may have come out otherwise (division_question asks).
      if (!o.is_null() && !(str(t, "ev") == "exit" && t["name"] == o["name"] && str(t, "reason") == reason) &&
          division_guard(prog, oj, i))
        sure = false;
      return division_values(prog);
    }
    if (reason == "NO_HANDLER") return "§6.5 match";
    if (reason == "SYSTEM_LIMIT") return "§6.6 limit";
    if (reason == "NOPROC") return "§6.6 noproc";
    if (reason == "shutdown") {
      // The same terminations in another order: the order of §7.5 (reverse start
      // order), whichever decision they follow.
      if (str(o, "ev") == "exit" && str(t, "ev") == "exit" && reaction_kind(oj, tj, i) == " order")
        return "§7.5 termination order";
      const ojson* d = reaction_decision(o.is_null() ? tj : oj, i);
      if (!d) return "§7.5 termination";
      if (str(*d, "action") == "give_up") return "§7.4 intensity";
      // Terminated before the starts or after them: the order of §7.3's restart
      // (terminate, then start), one clause for both strategies.
      std::string kind = reaction_kind(oj, tj, i);
      if (kind == " order") return "§7.3 start order";
      return "§7.3 " + strategy_of(prog.value("system", ojson::array()), str(*d, "supervisor")) + kind;
    }
    if (std::optional<std::string> g = o.is_null() ? exit_guard(prog, t, tj, i, oj) : exit_guard(prog, o, oj, i, tj))
      return *g;
    // Both exit, for other reasons: the side whose reason comes of guarded statements.
    if (!o.is_null() && !t.is_null() && str(o, "ev") == "exit" && str(t, "ev") == "exit")
      if (std::optional<std::string> g = exit_guard(prog, t, tj, i, oj)) return *g;
    return "§6.4 exit";
  }
  if (ev == "start") {
    if (e.value("turn", 0) == 0) return "§8.2 start";
    // After a restart decision the same starts in another order are §7.3's start
    // order (one clause for one_for_all and rest_for_one: "the same"), even when the
    // names are spawned ones (k-1, k-2 swapped are not a numbering); other names
    // there may be the numbering (§2).
    const ojson* d = reaction_decision(o.is_null() ? tj : oj, i);
    std::string strategy = d ? "§7.3 " + strategy_of(prog.value("system", ojson::array()), str(*d, "supervisor")) : "";
    if (d && reaction_kind(oj, tj, i) == " order") return "§7.3 start order";
    if (d && restart_on_one_side(oj, tj, i)) return strategy + " which";
    if (std::optional<std::string> r = spawned_name_rule(o, t)) return *r;
    if (d) return strategy + reaction_kind(oj, tj, i);
    // A process started on one side and never on the other, spawned from inside an
    // `if`: its conditions came out otherwise.
    if (str(o, "ev") == "start" && o.value("turn", int64_t{0}) <= target.value("turns", int64_t{-1}))
      if (std::optional<std::string> g = spawn_guard(prog, o, oj, i, tj)) return *g;
    if (str(t, "ev") == "start")
      if (std::optional<std::string> g = spawn_guard(prog, t, tj, i, lj)) return *g;
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

// Whether `longer` (the target's answer with more turns) extends `got`: the same
// events first.
bool extends(const ojson& longer, const ojson& got) {
  if (!longer.value("ok", false) || !longer.contains("journal") || !got.contains("journal")) return false;
  const ojson& lj = longer["journal"];
  const ojson& gj = got["journal"];
  if (lj.size() < gj.size()) return false;
  for (size_t j = 0; j < gj.size(); j++)
    if (lj[j] != gj[j]) return false;
  return true;
}

// A send of the message of event `e` (its tag, and a receiver that may be its).
using SendOf = std::function<bool(const ojson& st)>;
SendOf send_of(const ojson& e) {
  return [tag = str(e, "tag"), from = e["from"], to = e["to"], args = e.value("args", ojson())](const ojson& st) {
    return str(st, "do") == "send" && str(st, "tag") == tag && may_send_to(st, from, to, args);
  };
}

// How many statements of `stmts`, at any depth, `is` holds.
int count_sends(const ojson& stmts, const SendOf& is) {
  int n = 0;
  if (!stmts.is_array()) return n;
  for (const ojson& st : stmts) {
    n += is(st);
    for (const char* block : {"then", "else", "body"})
      if (st.contains(block)) n += count_sends(st[block], is);
  }
  return n;
}

// `stmts` with each `if` around a send `is` holds replaced by the branch it is in.
void hoist_sends(ojson& stmts, const SendOf& is) {
  if (!stmts.is_array()) return;
  ojson out = ojson::array();
  for (ojson& st : stmts) {
    bool in_then = count_sends(st.value("then", ojson()), is) > 0;
    if (str(st, "do") == "if" && (in_then || count_sends(st.value("else", ojson()), is) > 0)) {
      ojson branch = in_then ? st["then"] : st["else"];
      hoist_sends(branch, is);
      for (ojson& x : branch) out.push_back(std::move(x));
      continue;
    }
    if (st.contains("body")) hoist_sends(st["body"], is);
    out.push_back(std::move(st));
  }
  stmts = std::move(out);
}

// What the target answers to a variant of the program, against the oracle's
// answer to it, at the oracle's event `i` of the case (a message, maybe missing on
// the target's side):
enum class VariantAnswer {
  kAgrees,            // the oracle ran the variant as it ran the case (wholly, or up to `i` when the
                      // variant changes what follows), and the target's journal is the oracle's
  kDropsUnjournaled,  // the variant has drops, the target journals none of them and differs in nothing else
  kOther,             // anything else: the variant tells nothing (it changed the oracle's run, the
                      // target gave no answer, or it differs otherwise)
};

// The journals of the oracle and of the target for program `variant` (JSON form),
// run as the case's run was (with `more_processes` more allowed); nullopt when the
// variant is no program or either gives no result.
std::optional<std::pair<ojson, ojson>> journals_of(const ojson& variant, const ojson& oracle, const AskTarget& ask,
                                                   int64_t more_processes = 0) {
  std::optional<Program> q;
  try {
    q = program_from_json(variant);
    check(*q);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const ojson& run = oracle["run"];
  RunSettings s{run.value("seed", uint64_t{0}), run.value("turns", int64_t{0}),
                run.value("max_processes", int64_t{1}) + more_processes};
  Answer vo = oracle_answer(*q, s);
  std::optional<ojson> vt = ask(*q, s);
  if (!vo.ok() || !vt || !vt->value("ok", false) || !vt->contains("journal")) return std::nullopt;
  return std::pair{vo.json["journal"], (*vt)["journal"]};
}

// Whether two journals have the same first `n` events (both at least that long).
bool same_first(const ojson& a, const ojson& b, size_t n) {
  if (a.size() < n || b.size() < n) return false;
  for (size_t j = 0; j < n; j++)
    if (a[j] != b[j]) return false;
  return true;
}

// `change` makes the variant from the program's JSON form (false: no variant, or
// the same program). `after_i_changes`: the variant changes the oracle's run after
// `i` (a failure taken out), else it must not change it at all: a variant that
// changes what the oracle does before a difference shows (a message sent that sits
// in a mailbox) would ask another question.
// `asks`, when given, tells from the oracle's journal of the variant whether the
// variant asks the question at all (the change did what it was meant to).
VariantAnswer ask_variant(const ojson& prog, const ojson& oracle, size_t i, const AskTarget& ask,
                          const std::function<bool(ojson&)>& change, bool after_i_changes,
                          const std::function<bool(const ojson& voj)>& asks = {}) {
  ojson variant = prog;
  if (!change(variant) || variant == prog) return VariantAnswer::kOther;
  std::optional<std::pair<ojson, ojson>> js = journals_of(variant, oracle, ask);
  if (!js) return VariantAnswer::kOther;
  const ojson& oj = oracle["journal"];
  const auto& [voj, vtj] = *js;
  if (asks && !asks(voj)) return VariantAnswer::kOther;
  bool oracle_same = after_i_changes ? same_first(voj, oj, i + 1) : voj == oj;
  if (oracle_same && vtj == voj) return VariantAnswer::kAgrees;
  size_t drops = 0, journaled = 0;
  for (const ojson& e : voj)
    if (str(e, "ev") == "drop") {
      drops++;
      journaled += !missing_on_target(e, vtj, 0);
    }
  if (drops > 0 && journaled == 0 && only_drops_missing(voj, vtj)) return VariantAnswer::kDropsUnjournaled;
  return VariantAnswer::kOther;
}

// The kind of the sender of the oracle's message at `i`, changed by `f` (each body, or
// each of `bodies`: "" its init, else handler tags).
std::function<bool(ojson&)> in_sender(const ojson& oracle, size_t i, const std::function<void(ojson& body)>& f,
                                      std::optional<std::set<std::string>> bodies = std::nullopt) {
  const ojson& oj = oracle["journal"];
  std::string kind = kind_at(oj, oj[i]["from"], i);
  return [kind, f, bodies](ojson& prog) {
    bool found = false;
    for (ojson& k : prog["kinds"]) {
      if (str(k, "name") != kind) continue;
      found = true;
      each_body(k, bodies ? &*bodies : nullptr, f);
    }
    return found;
  };
}

// Statements without their `fail`s, at any depth.
void drop_fails(ojson& stmts) {
  if (!stmts.is_array()) return;
  ojson out = ojson::array();
  for (ojson& st : stmts) {
    if (str(st, "do") == "fail") continue;
    for (const char* block : {"then", "else", "body"})
      if (st.contains(block)) drop_fails(st[block]);
    out.push_back(std::move(st));
  }
  stmts = std::move(out);
}

// The oracle's message at `i` was sent under a condition, and the mailbox's order
// or the journaling of drops explains the results as well (event_rule not sure):
// the target is asked again with the one send of that tag out of its `if`s in the
// sender's kind (the oracle must run it as the case up to `i`: the conditions it
// took were true there, and the target meets the same mailboxes and drops). The
// target then agrees: the condition came out otherwise. It journals no drop: §6.5
// drop.
std::optional<std::string> guard_question(const ojson& prog, const ojson& oracle, size_t i, const AskTarget& ask) {
  const ojson& oj = oracle["journal"];
  std::optional<std::string> guard = guard_of(prog, oj, oj[i], i);
  if (!guard) return std::nullopt;
  // One send that may be this message's in the bodies its sender ran before: the
  // oracle took the branch it is in, and the variant that always takes it runs as
  // the case did (more sends would leave that open).
  SendOf is = send_of(oj[i]);
  int sends = 0;
  ojson counted = prog;
  in_sender(
      oracle, i, [&](ojson& body) { sends += count_sends(body, is); }, bodies_run(oj, oj[i]["from"], i))(counted);
  if (sends != 1) return std::nullopt;
  // The variant may change the oracle's run after `i` (another process of the kind
  // now sends it too, as b's restart would): up to `i` it must run as the case.
  switch (ask_variant(prog, oracle, i, ask, in_sender(oracle, i, [&](ojson& body) { hoist_sends(body, is); }), true)) {
    case VariantAnswer::kAgrees: return guard;
    case VariantAnswer::kDropsUnjournaled: return "§6.5 drop";
    case VariantAnswer::kOther: return std::nullopt;
  }
  return std::nullopt;
}

// `stmts` without the sends `is` holds, at any depth.
void remove_sends(ojson& stmts, const SendOf& is) {
  if (!stmts.is_array()) return;
  ojson out = ojson::array();
  for (ojson& st : stmts) {
    if (is(st)) continue;
    for (const char* block : {"then", "else", "body"})
      if (st.contains(block)) remove_sends(st[block], is);
    out.push_back(std::move(st));
  }
  stmts = std::move(out);
}

// The oracle's message at `i`, delivered where the target delivers another, sent
// only by handler runs that failed in their turn (§6.4: what a handler sent before
// failing stays sent): late (a mailbox out of order) or lost with the failure? The
// oracle runs the program without that send: when that is the target's journal,
// the target lost it, §6.4 sends before a failure. No target question: the oracle
// alone tells, since the target's journal is already there.
std::optional<std::string> lost_with_failure(const ojson& prog, const ojson& oracle, const ojson& got, size_t i) {
  const ojson& oj = oracle["journal"];
  const ojson& o = at(oj, i);  // (the oracle may have no event there)
  if (str(o, "ev") != "deliver" || o["from"].is_null() || !got.contains("journal")) return std::nullopt;
  SendOf is = send_of(o);
  std::string kind = kind_at(oj, o["from"], i);
  std::set<std::string> tags;  // the handlers with such a send
  for (const ojson& k : prog.value("kinds", ojson::array())) {
    if (str(k, "name") != kind) continue;
    if (count_sends(k.value("init", ojson::array()), is) > 0) return std::nullopt;
    for (const ojson& h : k.value("handlers", ojson::array()))
      if (count_sends(h.value("body", ojson::array()), is) > 0) tags.insert(str(h, "tag"));
  }
  // Every run of those handlers before `i` ended in a failure in its turn, and one did.
  bool any = false;
  for (size_t j = 0; j < i; j++) {
    if (str(oj[j], "ev") != "deliver" || oj[j]["to"] != o["from"] || !tags.count(str(oj[j], "tag"))) continue;
    any = true;
    bool failed = false;
    for (size_t k = j + 1; k < oj.size() && oj[k].value("turn", -1) == oj[j].value("turn", -2) && !failed; k++)
      failed = failure_of(oj[k], o["from"]);
    if (!failed) return std::nullopt;
  }
  if (!any) return std::nullopt;
  ojson variant = prog;
  for (ojson& k : variant["kinds"])
    if (str(k, "name") == kind)
      for (ojson& h : k["handlers"]) remove_sends(h["body"], is);
  try {
    Program q = program_from_json(variant);
    check(q);
    const ojson& run = oracle["run"];
    Answer vo = oracle_answer(q, RunSettings{run.value("seed", uint64_t{0}), run.value("turns", int64_t{0}),
                                             run.value("max_processes", int64_t{1})});
    if (vo.ok() && vo.json["journal"] == got["journal"]) return "§6.4 sends before a failure";
  } catch (const std::exception&) {
    // no program without it (a handler left empty is still one): nothing to tell
  }
  return std::nullopt;
}

// A name for something new in `prog` (a kind, a process): `base` and digits, unused.
std::string unused_name(const ojson& prog, const std::string& base) {
  std::string text = prog.dump();
  for (int n = 0;; n++) {
    std::string name = base + std::to_string(n);
    if (text.find("\"" + name + "\"") == std::string::npos) return name;
  }
}

}  // namespace

ojson given_sent_by_a_process(const ojson& prog) {
  ojson variant = prog;
  std::string kind = unused_name(prog, "Giver"), name = unused_name(prog, "giver");
  ojson sends = ojson::array();
  for (const ojson& g : prog.value("given", ojson::array()))
    sends.push_back(ojson{{"do", "send"},
                          {"tag", g["tag"]},
                          {"args", g.value("args", ojson::array())},
                          {"to", ojson{{"op", "addr"}, {"value", g["to"]}}}});
  variant["kinds"].push_back(ojson{{"name", kind},
                                   {"params", ojson::array()},
                                   {"state", ojson::array()},
                                   {"init", sends},
                                   {"handlers", ojson::array()}});
  variant["system"].push_back(ojson{{"process", ojson{{"name", name}, {"kind", kind}, {"args", ojson::array()}}}});
  variant["given"] = ojson::array();
  return variant;
}

namespace {

// Given messages out of the oracle's order, the target's journal also that of the
// given messages sent in its order (event_rule not sure: given in another order,
// or a mailbox taking the newest first?). The target is asked again with the given
// messages sent instead, in the same order, by a process of their own started
// last (its init runs after the others', as the given messages are sent after
// them, §8.2). The target agrees with the oracle on the whole variant: its
// mailboxes keep their order, the given messages were given in another. It takes
// the messages of that process out of order too: §6.5 fifo.
std::optional<std::string> given_question(const ojson& prog, const ojson& oracle, const AskTarget& ask) {
  if (prog.value("given", ojson::array()).empty()) return std::nullopt;
  ojson variant = given_sent_by_a_process(prog);
  const ojson name = variant["system"].back()["process"]["name"];  // the giver
  std::optional<std::pair<ojson, ojson>> js = journals_of(variant, oracle, ask, 1);  // room for the giver
  if (!js) return std::nullopt;
  const auto& [voj, vtj] = *js;
  if (voj == vtj) return "§8.2 given";
  for (size_t j = 0; j < voj.size() && j < vtj.size(); j++) {
    if (voj[j] == vtj[j]) continue;
    bool out_of_order = str(voj[j], "ev") == "deliver" && str(vtj[j], "ev") == "deliver" &&
                        voj[j]["to"] == vtj[j]["to"] && voj[j]["from"] == name && vtj[j]["from"] == name;
    return out_of_order ? std::optional<std::string>("§6.5 fifo") : std::nullopt;
  }
  return std::nullopt;
}

// `stmts` ending with the top-level statement that holds a send `is` holds: what
// follows it, where a handler fails after that send, is taken out.
void end_at_send(ojson& stmts, const SendOf& is) {
  if (!stmts.is_array()) return;
  for (size_t k = 0; k < stmts.size(); k++)
    if (count_sends(ojson::array({stmts[k]}), is) > 0) {
      stmts.erase(stmts.begin() + static_cast<std::ptrdiff_t>(k) + 1, stmts.end());
      return;
    }
}

// `stmts` without the sends `is` holds, at any depth, but the `keep`th of them
// (counted on from `seen`, across calls), copied to `kept`; `in_repeat` is set when
// one sits in a repeat's body (it sends several messages: one send is not one message).
void keep_one_send(ojson& stmts, const SendOf& is, int keep, int& seen, ojson& kept, bool& in_repeat,
                   bool repeated = false) {
  if (!stmts.is_array()) return;
  ojson out = ojson::array();
  for (ojson& st : stmts) {
    if (is(st)) {
      in_repeat = in_repeat || repeated;
      if (seen++ != keep) continue;
      kept = st;
    }
    for (const char* block : {"then", "else"})
      if (st.contains(block)) keep_one_send(st[block], is, keep, seen, kept, in_repeat, repeated);
    if (st.contains("body")) keep_one_send(st["body"], is, keep, seen, kept, in_repeat, true);
    out.push_back(std::move(st));
  }
  stmts = std::move(out);
}

// The oracle's process fails dividing by zero at `i` (§5) where the target's does
// not, and the division is inside an `if`: the division (it gave the target no
// failure) or the condition (the target took the other branch)? The target is asked
// again with each such `if` in the body that ran replaced by the branch that
// divides: it then fails as the oracle does, the condition; it does not, the division.
std::optional<std::string> division_question(const ojson& prog, const ojson& oracle, size_t i, const AskTarget& ask) {
  const ojson& oj = oracle["journal"];
  std::optional<std::string> guard = division_guard(prog, oj, i);
  if (!guard) return std::nullopt;
  std::set<std::string> bodies = {running_body(oj, oj[i]["name"], i)};
  std::string kind = kind_at(oj, oj[i]["name"], i);
  auto change = [&](ojson& variant) {
    bool found = false;
    for (ojson& k : variant["kinds"])
      if (str(k, "name") == kind) {
        found = true;
        each_body(k, &bodies, [](ojson& body) { hoist_sends(body, divides); });
      }
    return found;
  };
  ojson variant = prog;
  if (!change(variant) || variant == prog) return std::nullopt;
  std::optional<std::pair<ojson, ojson>> js = journals_of(variant, oracle, ask);
  if (!js) return std::nullopt;
  const auto& [voj, vtj] = *js;
  // The oracle runs the variant as the case up to its failure, and so does the target
  // before it: failing there too, the target took the other branch; not failing, its
  // division gave no failure.
  if (!same_first(voj, oj, i + 1) || !same_first(vtj, voj, i)) return std::nullopt;
  return same_first(vtj, voj, i + 1) ? *guard : division_values(prog);
}

// The oracle's message at `i` and the target's there come from one sender with one
// tag and other values, and its kind has several sends of that tag: values computed
// otherwise (§5) or another send's message first, the mailbox out of its
// order (§6.5)? A mailbox holding one message of that tag tells them apart: the
// target is asked again with one of those sends left (each in turn, the first whose
// variant the oracle runs as the case up to `i`). It then delivers the oracle's
// message, or another message first (another tag): the mailbox's order; the same
// send's message with other values: the values, the operators of that send's
// arguments.
std::optional<std::string> values_question(const ojson& prog, const ojson& oracle, size_t i, const AskTarget& ask) {
  const ojson& oj = oracle["journal"];
  SendOf is = send_of(oj[i]);
  for (int keep = 0; keep < 8; keep++) {
    int seen = 0;
    bool in_repeat = false;
    ojson variant = prog, kept;
    if (!in_sender(oracle, i, [&](ojson& body) { keep_one_send(body, is, keep, seen, kept, in_repeat); })(variant) ||
        in_repeat || keep >= seen)
      return std::nullopt;
    std::optional<std::pair<ojson, ojson>> js = journals_of(variant, oracle, ask);
    if (!js) continue;
    const auto& [voj, vtj] = *js;
    if (!same_first(voj, oj, i + 1)) continue;  // that send was not the oracle's message
    if (!same_first(vtj, voj, i)) return std::nullopt;
    if (same_first(vtj, voj, i + 1)) return "§6.5 fifo";
    const ojson& o = voj[i];
    const ojson& t = vtj[i];
    if (str(t, "ev") != "deliver") return std::nullopt;
    bool same_send = o["from"] == t["from"] && o["to"] == t["to"] && o["tag"] == t["tag"];
    if (!same_send) return "§6.5 fifo";
    std::set<std::string> ops, seen_vars;
    for (const ojson& a : kept.value("args", ojson::array())) value_operators(prog, a, ops, seen_vars);
    return rule_of_ops(ops);
  }
  return std::nullopt;
}

// Only drops missing, sent by handlers that failed after: the sends lost with the
// failure (§6.4) or drops not journaled? The target is asked again with the
// sender's `fail`s taken out, and its bodies ended at the send (a failure may be a
// division by zero after it). It then agrees: the failure lost them. It journals no
// drop: §6.5 drop. A variant whose sender still fails at that turn asks nothing.
std::optional<std::string> failure_question(const ojson& prog, const ojson& oracle, size_t i, const AskTarget& ask) {
  const ojson& oj = oracle["journal"];
  SendOf is = send_of(oj[i]);
  auto change = in_sender(oracle, i, [&](ojson& body) {
    drop_fails(body);
    end_at_send(body, is);
  });
  auto asks = [i](const ojson& voj) { return voj.size() > i && !sender_failed(voj, i); };
  switch (ask_variant(prog, oracle, i, ask, change, true, asks)) {
    case VariantAnswer::kAgrees: return "§6.4 sends before a failure";
    case VariantAnswer::kDropsUnjournaled: return "§6.5 drop";
    case VariantAnswer::kOther: return std::nullopt;
  }
  return std::nullopt;
}

// An error answer's rule: its code, and for INTERNAL where the backend met its bug
// when the message ends by naming it ("... [at WHERE]", runners/PROTOCOL.md): two
// bugs that throw in two places are two buckets, one bug one whatever the program.
std::string error_rule(const ojson& answer) {
  std::string code = str(answer, "code"), message = str(answer, "message");
  std::string rule = "§10 error " + code;
  size_t at = message.rfind(" [at ");
  if (code == "INTERNAL" && at != std::string::npos && message.back() == ']' && message.size() - at <= 100)
    rule += " at " + message.substr(at + 5, message.size() - at - 6);
  return rule;
}

Attribution attribute_run(const Program& p, const ojson& oracle, const ojson& got, const AskTarget& ask,
                          bool may_ask_longer) {
  if (!got.value("ok", false) || !oracle.value("ok", false))
    return {error_rule(got.value("ok", false) ? oracle : got), "error"};
  ojson prog = program_to_json(p);
  const ojson& oj = oracle["journal"];
  const ojson& tj = got.contains("journal") ? got["journal"] : kNull;
  size_t n = std::max(oj.size(), tj.is_array() ? tj.size() : 0);
  for (size_t i = 0; i < n; i++)
    if (at(oj, i) != at(tj, i)) {
      const ojson& run = oracle["run"];
      RunSettings settings{run.value("seed", uint64_t{0}), run.value("turns", int64_t{0}),
                           run.value("max_processes", int64_t{1})};
      RunSettings longer = settings;
      longer.turns += 1000;
      Answer later = oracle_answer(p, longer);
      std::string detail = path_of("journal", i, at(oj, i), at(tj, i));
      // A target run cut by the turn limit is asked for the longer run too: what it
      // did after the cut tells a late message from one never sent. The two longer
      // runs (the same events first) are attributed instead, when they differ.
      if (ask && may_ask_longer && str(got, "outcome") == "turn_limit" && later.ok())
        if (std::optional<ojson> l = ask(p, longer);
            l && extends(*l, got) && (*l)["journal"] != later.json["journal"]) {
          Attribution a = attribute_run(p, later.json, *l, ask, false);
          a.detail = detail;
          return a;
        }
      // Who is ready while waiting in a call first: kept messages (§6.4) would
      // explain a ready count of that size too.
      if (tj.is_array() && is_version_2(prog))
        if (std::optional<std::string> r = waiting_ready(p, settings, oj, tj, i)) return {*r, detail};
      if (tj.is_array())
        if (std::optional<std::string> r =
                kept_message(p, settings, oj, tj, later.ok() ? later.json["journal"] : oj, i))
          return {*r, detail};
      if (is_version_2(prog))
        if (std::optional<std::string> r = restarted_link(p, settings, oj, tj, i)) return {*r, detail};
      bool sure = true;
      std::string rule = event_rule(p, settings, prog, run, oracle, got, later.ok() ? later.json : oracle, i, sure);
      // Two rules fit: the target is asked a question that tells them apart.
      bool message = str(at(oj, i), "ev") == "deliver" || str(at(oj, i), "ev") == "drop";
      std::optional<std::string> asked;
      if (!sure && rule == "§6.5 fifo") asked = lost_with_failure(prog, oracle, got, i);
      if (!sure && ask && message && (rule == "§6.5 drop" || rule == "§6.5 fifo") && !asked)
        asked = guard_question(prog, oracle, i, ask);
      if (!sure && ask && message && rule == "§6.4 sends before a failure")
        asked = failure_question(prog, oracle, i, ask);
      if (!sure && ask && rule == "§6.5 fifo" && !asked && is_given(prog, at(oj, i)) && is_given(prog, at(tj, i)))
        asked = given_question(prog, oracle, ask);
      if (!sure && ask && str(at(oj, i), "ev") == "deliver" && str(at(tj, i), "ev") == "deliver" &&
          !at(oj, i)["from"].is_null() && at(oj, i)["from"] == at(tj, i)["from"] &&
          at(oj, i)["tag"] == at(tj, i)["tag"] && rule == send_values(prog, str(at(oj, i), "tag")))
        asked = values_question(prog, oracle, i, ask);
      if (!sure && ask && str(at(oj, i), "ev") == "exit" && str(at(oj, i), "reason") == "DIV_ZERO")
        asked = division_question(prog, oracle, i, ask);
      if (asked) {
        rule = *asked;
        sure = true;
      }
      return {rule, detail, sure};
    }
  // The journals agree: what follows from them but is not in them.
  if (is_version_2(prog))
    if (std::optional<std::pair<std::string, std::string>> r = version2_field_rule(oracle, got))
      return {r->first, r->second};
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

}  // namespace

Attribution attribute(const Program& p, const ojson& oracle, const ojson& got, const AskTarget& ask) {
  try {
    Attribution a = attribute_run(p, oracle, got, ask, true);
    // Operators blamed for carrying a value: the ones the target computes otherwise, or
    // the value's origin (operator_probe.hpp).
    if (std::optional<std::string> r = probed_value_rule(p, oracle, got, a.rule, ask)) {
      a.rule = *r;
      a.sure = true;
    }
    return a;
  } catch (const ojson::type_error&) {
    // A field of the target's result of another type than §9.1's (a number past int64
    // is its text, backend.cpp): the rules read none such; where it differs is all.
    std::optional<Difference> d = first_causal_difference(oracle, got);
    std::string path;  // "/journal/3/turn" as "journal[3].turn"
    for (const std::string& t : pointer_tokens(d ? d->pointer : ""))
      if (!t.empty()) path += t.find_first_not_of("0123456789") == std::string::npos ? "[" + t + "]" : "." + t;
    return {"§9.1 types", path.empty() ? path : path.substr(path[0] == '.')};
  }
}

std::string rule_signature(const std::string& target, const Attribution& a) { return target + ":" + a.rule; }

namespace {

std::set<std::string> operators_of(const std::string& rule) {
  std::set<std::string> out;
  std::istringstream in(rule);
  std::string w;
  in >> w;  // "§5"
  while (in >> w) out.insert(w);
  return out;
}

// "crash:SIGSEGV in §6.5 send + §6.6 spawn": the failure, and the rules of the
// statements; nullopt for another rule.
std::optional<std::pair<std::string, std::set<std::string>>> failure_in(const std::string& rule) {
  size_t in = rule.find(" in §");
  if (in == std::string::npos) return std::nullopt;
  std::set<std::string> rules;
  for (size_t from = in + 4;;) {
    size_t plus = rule.find(" + ", from);
    rules.insert(rule.substr(from, plus == std::string::npos ? std::string::npos : plus - from));
    if (plus == std::string::npos) break;
    from = plus + 3;
  }
  return std::make_pair(rule.substr(0, in), rules);
}

}  // namespace

bool refines(const std::string& candidate, const std::string& rule) {
  if (candidate == rule) return true;
  auto c_in = failure_in(candidate), r_in = failure_in(rule);
  if (c_in && r_in)  // each of the candidate's statements one of the rule's (or its operators, narrowed)
    return c_in->first == r_in->first && std::all_of(c_in->second.begin(), c_in->second.end(), [&](const auto& c) {
             return std::any_of(r_in->second.begin(), r_in->second.end(), [&](const auto& r) { return refines(c, r); });
           });
  if (candidate.rfind("§5 ", 0) != 0 || rule.rfind("§5 ", 0) != 0 || candidate == "§5 value" || rule == "§5 value")
    return false;
  std::set<std::string> c = operators_of(candidate), r = operators_of(rule);
  return !c.empty() && std::includes(r.begin(), r.end(), c.begin(), c.end());
}

}  // namespace concord
