// oracle/result.cpp: a run's result in its canonical serialisation (SPEC §9).
// Keys are inserted in the spec's order into ordered_json, whose compact dump()
// is the canonical form (no spaces, minimal escapes, \u00XX in lower case).
#include "interpreter.hpp"
#include "rules.hpp"

namespace concord {
namespace {

const char* action_name(Action a) {
  switch (a) {
    case Action::Restart: return "restart";
    case Action::Keep: return "keep";
    case Action::Remove: return "remove";
    case Action::GiveUp: return "give_up";
  }
  return "?";
}

ojson value_json(const World& w, Value v, Type t) {
  if (t == Type::Addr) return w.names[static_cast<size_t>(v)];
  return v;
}

ojson args_json(const World& w, const Event& e) {
  ojson a = ojson::array();
  const Signature& sig = w.prog.sigs[e.sig];
  for (size_t i = 0; i < e.args.size(); i++) a.push_back(value_json(w, e.args[i], sig.types[i]));
  return a;
}

ojson name_or_null(const World& w, int32_t id) { return id < 0 ? ojson(nullptr) : ojson(w.names[id]); }

ojson event_json(const World& w, const Event& e) {
  ojson j;
  switch (e.kind) {
    case EventKind::Start:
      j["ev"] = "start";
      j["turn"] = e.turn;
      j["name"] = w.names[e.name];
      j["kind"] = e.sig < 0 ? std::string("supervisor") : w.prog.kinds[e.sig].name;
      break;
    case EventKind::Deliver:
      j["ev"] = "deliver";
      j["turn"] = e.turn;
      j["ready"] = e.ready;
      j["to"] = w.names[e.name];
      j["from"] = name_or_null(w, e.other);
      j["tag"] = w.prog.sigs[e.sig].tag;
      j["args"] = args_json(w, e);
      break;
    case EventKind::Drop:
      j["ev"] = "drop";
      j["turn"] = e.turn;
      j["from"] = name_or_null(w, e.other);
      j["to"] = w.names[e.name];
      j["tag"] = w.prog.sigs[e.sig].tag;
      j["args"] = args_json(w, e);
      break;
    case EventKind::Exit:
      j["ev"] = "exit";
      j["turn"] = e.turn;
      j["name"] = w.names[e.name];
      j["reason"] = e.reason;
      break;
    case EventKind::Decision:
      j["ev"] = "decision";
      j["turn"] = e.turn;
      j["supervisor"] = w.names[e.other];
      j["process"] = w.names[e.name];
      j["action"] = action_name(e.action);
      break;
  }
  return j;
}

ojson state_json(const World& w, const Process& p) {
  ojson s = ojson::object();
  const Kind& k = w.prog.kinds[p.kind];
  for (size_t i = 0; i < k.state.size(); i++) s[k.state[i].name] = value_json(w, p.state[i], k.state[i].type);
  return s;
}

}  // namespace

ojson result_to_json(const RunResult& r) {
  const World& w = *r.world;
  ojson j;
  j["ok"] = true;
  j["run"] = {{"seed", w.run.seed}, {"turns", w.run.turns}, {"max_processes", w.run.max_processes}};
  j["outcome"] = r.outcome;
  j["turns"] = r.turns;
  ojson journal = ojson::array(), failures = ojson::array(), decisions = ojson::array();
  for (const Event& e : w.journal) {
    journal.push_back(event_json(w, e));
    if (e.kind == EventKind::Exit && is_failure(e.reason))
      failures.push_back({{"process", w.names[e.name]}, {"code", e.reason}, {"turn", e.turn}});
    if (e.kind == EventKind::Decision)
      decisions.push_back({{"process", w.names[e.name]}, {"supervisor", w.names[e.other]},
                           {"action", action_name(e.action)}, {"turn", e.turn}});
  }
  j["journal"] = std::move(journal);
  j["failures"] = std::move(failures);
  j["decisions"] = std::move(decisions);
  ojson procs = ojson::array(), alive = ojson::array();
  for (size_t id = 0; id < w.procs.size(); id++) {
    const Process& p = w.procs[id];
    procs.push_back({{"id", id}, {"name", w.names[p.name]}, {"kind", w.prog.kinds[p.kind].name}});
    if (p.alive) alive.push_back({{"name", w.names[p.name]}, {"state", state_json(w, p)}});
  }
  j["processes"] = std::move(procs);
  j["alive"] = std::move(alive);
  ojson sups = ojson::array();
  for (const Supervisor& s : w.sups) {
    ojson children = ojson::array();
    for (const ChildEntry& c : s.children) children.push_back({{"name", w.names[c.name]}, {"running", c.running}});
    sups.push_back({{"name", w.names[s.name]}, {"alive", s.alive}, {"children", std::move(children)}});
  }
  j["supervisors"] = std::move(sups);
  return j;
}

std::string result_line(const RunResult& r) { return result_to_json(r).dump() + "\n"; }

std::string error_line(const std::string& code, const std::string& message) {
  ojson j;
  j["ok"] = false;
  j["code"] = code;
  j["message"] = message;
  return j.dump(-1, ' ', false, ojson::error_handler_t::replace) + "\n";
}

}  // namespace concord
