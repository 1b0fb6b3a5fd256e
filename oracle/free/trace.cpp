// oracle/free/trace.cpp: reading a trace (SPEC §25.6). Strict like the program
// reader (§13): every key known, every value of its kind, so that a runtime's typo
// is named where it is rather than read as an inadmissible run.
#include "trace.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "oracle/error.hpp"

namespace concord {

NameTable::NameTable(const Program& p) {
  for (const std::string& n : p.names) intern(n);
}

int32_t NameTable::intern(const std::string& name) {
  auto it = ids_.find(name);
  if (it != ids_.end()) return it->second;
  auto id = static_cast<int32_t>(names_.size());
  names_.push_back(name);
  ids_.emplace(name, id);
  return id;
}

int32_t NameTable::find(const std::string& name) const {
  auto it = ids_.find(name);
  return it == ids_.end() ? -1 : it->second;
}

const char* trace_ev_name(TraceEv e) {
  switch (e) {
    case TraceEv::Deliver: return "deliver";
    case TraceEv::Resume: return "resume";
    case TraceEv::Signal: return "signal";
    case TraceEv::Send: return "send";
    case TraceEv::Drop: return "drop";
    case TraceEv::Spawn: return "spawn";
    case TraceEv::Link: return "link";
    case TraceEv::Unlink: return "unlink";
    case TraceEv::Monitor: return "monitor";
    case TraceEv::Demonitor: return "demonitor";
    case TraceEv::ExitSignal: return "exit_signal";
    case TraceEv::Call: return "call";
    case TraceEv::Reply: return "reply";
    case TraceEv::Api: return "api";
    case TraceEv::ChildExit: return "exit";
    case TraceEv::StartChild: return "start_child";
    case TraceEv::Retry: return "retry";
    case TraceEv::ApiRequest: return "api";
    case TraceEv::Decision: return "decision";
  }
  return "?";
}

bool is_effect(TraceEv e) { return e >= TraceEv::Send && e <= TraceEv::Api; }

std::string trace_identity(const ojson& trace) {
  ojson t = trace;
  t.erase("run");  // a free run's seed is not used: two runs that differ only there are one trace
  for (const char* list : {"workers", "supervisors"}) {
    if (!t.contains(list) || !t[list].is_array()) continue;
    std::vector<ojson> v(t[list].begin(), t[list].end());
    std::sort(v.begin(), v.end(), [](const ojson& a, const ojson& b) {
      return std::make_pair(a.value("name", std::string()), a.value("inc", int64_t{0})) <
             std::make_pair(b.value("name", std::string()), b.value("inc", int64_t{0}));
    });
    t[list] = v;
  }
  return t.dump();
}

ojson value_json(const NameTable& names, Type t, Value v) {
  if (t == Type::Int) return v;
  return names[static_cast<int32_t>(v)];
}

namespace {

// One object being read: each key taken is marked, and what is left over is an
// unknown key.
class Obj {
 public:
  Obj(const ojson& j, std::string where) : j_(j), where_(std::move(where)) {
    if (!j.is_object()) throw InputError(where_, "expected an object");
  }
  const std::string& where() const { return where_; }
  std::string at(const std::string& key) const { return where_ + "/" + key; }
  bool has(const std::string& key) const { return j_.contains(key); }
  const ojson& get(const std::string& key) {
    if (!j_.contains(key)) throw InputError(where_, "missing key \"" + key + "\"");
    taken_.insert(key);
    return j_[key];
  }
  const ojson* maybe(const std::string& key) {
    if (!j_.contains(key)) return nullptr;
    taken_.insert(key);
    return &j_[key];
  }
  std::string str(const std::string& key) {
    const ojson& v = get(key);
    if (!v.is_string()) throw InputError(at(key), "expected a string");
    return v.get<std::string>();
  }
  int64_t integer(const std::string& key, int64_t least) {
    const ojson& v = get(key);
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t{INT64_MAX}) ||
        v.get<int64_t>() < least)
      throw InputError(at(key), "expected an integer of at least " + std::to_string(least));
    return v.get<int64_t>();
  }
  void done() const {
    for (auto it = j_.begin(); it != j_.end(); ++it)
      if (!taken_.count(it.key())) throw InputError(where_, "unknown key \"" + it.key() + "\"");
  }

 private:
  const ojson& j_;
  std::string where_;
  std::set<std::string> taken_;
};

bool is_reason_text(const std::string& s) {
  if (is_reason_word(s)) return true;
  if (s.empty() || s.size() > 32 || s[0] < 'A' || s[0] > 'Z') return false;
  for (char c : s)
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

class Reader {
 public:
  Reader(const Program& p, Trace& t) : p_(p), t_(t) {
    collect_sups(p);
  }

  void read(const ojson& j) {
    Obj top(j, "");
    if (top.get("ok") != true) throw InputError("/ok", "a trace has \"ok\":true");
    if (top.get("mode") != "free") throw InputError("/mode", "a trace has \"mode\":\"free\" (SPEC §25.6)");
    Obj run(top.get("run"), "/run");
    const ojson& seed = run.get("seed");
    if (!seed.is_number_unsigned()) throw InputError("/run/seed", "expected an integer in 0..2^64-1");
    t_.run.seed = seed.get<uint64_t>();
    t_.run.turns = run.integer("turns", 0);
    t_.run.max_processes = run.integer("max_processes", 1);
    run.done();
    t_.outcome = top.str("outcome");
    if (t_.outcome != "quiescent" && t_.outcome != "deadlock" && t_.outcome != "turn_limit")
      throw InputError("/outcome", "expected quiescent, deadlock or turn_limit");
    const ojson& given = top.get("given");
    if (!given.is_array() || given.size() != p_.given.size())
      throw InputError("/given", "expected an array of " + std::to_string(p_.given.size()) +
                                     " entries, one per given message of the program");
    for (size_t i = 0; i < given.size(); i++) {
      std::string w = "/given/" + std::to_string(i);
      Obj g(given[i], w);
      GivenOutcome o;
      std::string to = g.str("to");
      if (to != p_.given[i].to)
        throw InputError(g.at("to"), "the program's given message " + std::to_string(i + 1) + " is to " +
                                         p_.given[i].to + ", not " + to);
      o.to = t_.names.intern(to);
      o.reached = inc_or_null(g.get("inc"), o.to, g.at("inc"));
      g.done();
      t_.given.push_back(o);
    }
    read_list(top.get("workers"), "/workers", false);
    read_list(top.get("supervisors"), "/supervisors", true);
    top.done();
    check_numbering();
  }

 private:
  void collect_sups(const Program& p) {
    std::vector<const SupervisorDecl*> stack;
    for (const Decl& d : p.system)
      if (auto* s = std::get_if<SupervisorDecl>(&d)) stack.push_back(s);
    while (!stack.empty()) {
      const SupervisorDecl* s = stack.back();
      stack.pop_back();
      sup_names_.insert(s->name);
      for (const Child& c : s->children)
        if (auto* sd = std::get_if<SupervisorDecl>(&c.decl)) stack.push_back(sd);
    }
  }

  // The kind a worker's name has: a declared process's, or the spawned form's.
  std::string kind_of(const std::string& name) const {
    size_t dash = name.rfind('-');
    if (dash != std::string::npos) {
      std::string prefix = name.substr(0, dash);
      std::string digits = name.substr(dash + 1);
      bool number = !digits.empty() && digits[0] != '0' && digits.size() <= 19;
      for (char c : digits) number = number && c >= '0' && c <= '9';
      if (number)
        for (const Kind& k : p_.kinds) {
          std::string lower;
          for (char c : k.name) lower += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
          if (lower == prefix) return k.name;
        }
      return "";
    }
    std::vector<const Decl*> stack;
    for (const Decl& d : p_.system) stack.push_back(&d);
    while (!stack.empty()) {
      const Decl* d = stack.back();
      stack.pop_back();
      if (auto* pd = std::get_if<ProcessDecl>(d)) {
        if (pd->name == name) return pd->kind;
      } else {
        for (const Child& c : std::get<SupervisorDecl>(*d).children) stack.push_back(&c.decl);
      }
    }
    return "";
  }

  IncRef inc_ref(const ojson& v, const std::string& where) {
    if (!v.is_array() || v.size() != 2 || !v[0].is_string() || !v[1].is_number_integer() || v[1].get<int64_t>() < 1)
      throw InputError(where, "expected an incarnation [name, inc] with inc >= 1");
    return IncRef{t_.names.intern(v[0].get<std::string>()), v[1].get<int64_t>()};
  }

  IncRef inc_ref_or_null(const ojson& v, const std::string& where) {
    return v.is_null() ? IncRef{} : inc_ref(v, where);
  }

  // The incarnation a statement on name `name` found: its number, or null.
  IncRef inc_or_null(const ojson& v, int32_t name, const std::string& where) {
    if (v.is_null()) return IncRef{};
    if (!v.is_number_integer() || v.get<int64_t>() < 1)
      throw InputError(where, "expected an incarnation number (1 or more) or null");
    return IncRef{name, v.get<int64_t>()};
  }

  int32_t reason(const std::string& s, const std::string& where) {
    if (!is_reason_text(s)) throw InputError(where, "not a reason (SPEC §15): \"" + s + "\"");
    return t_.names.intern(s);
  }

  void read_list(const ojson& list, const std::string& where, bool sups) {
    if (!list.is_array()) throw InputError(where, "expected an array");
    for (size_t i = 0; i < list.size(); i++) read_process(list[i], where + "/" + std::to_string(i), sups);
  }

  void read_process(const ojson& j, const std::string& where, bool sup) {
    Obj o(j, where);
    TraceProcess p;
    p.supervisor = sup;
    p.where = where;
    std::string name = o.str("name");
    if (sup) {
      if (!sup_names_.count(name)) throw InputError(o.at("name"), "no supervisor of the program is named " + name);
    } else {
      std::string kind = kind_of(name);
      if (kind.empty()) throw InputError(o.at("name"), "no worker of the program can be named " + name);
      p.kind = o.has("kind") ? o.str("kind") : kind;  // optional: the name says it
      if (kind != p.kind) throw InputError(o.at("kind"), name + " is of kind " + kind + ", not " + p.kind);
    }
    p.id = IncRef{t_.names.intern(name), o.integer("inc", 1)};
    if (!seen_.insert({p.id.name, p.id.inc}).second)
      throw InputError(where, name + "#" + std::to_string(p.id.inc) + " is listed twice");
    p.by = inc_ref_or_null(o.get("by"), o.at("by"));
    const ojson& ex = o.get("exit");
    if (!ex.is_null()) {
      if (!ex.is_string()) throw InputError(o.at("exit"), "expected a reason or null");
      p.exit = reason(ex.get<std::string>(), o.at("exit"));
    }
    const char* final_key = sup ? "children" : "state";
    static const ojson none;
    const ojson& fin = p.exit >= 0 && !o.has(final_key) ? none : o.get(final_key);  // may be left out after an exit
    if (p.exit < 0 && !(sup ? fin.is_array() : fin.is_object()))
      throw InputError(o.at(final_key), std::string("an incarnation alive at the end has its final ") +
                                            (sup ? "children (an array)" : "state (an object)"));
    if (p.exit >= 0 && !fin.is_null())
      throw InputError(o.at(final_key), std::string("an incarnation that exited has null ") + final_key);
    p.state = fin;
    const ojson& evs = o.get("events");
    if (!evs.is_array()) throw InputError(o.at("events"), "expected an array");
    for (size_t i = 0; i < evs.size(); i++) p.events.push_back(read_event(evs[i], o.at("events") + "/" + std::to_string(i), sup));
    o.done();
    t_.processes.push_back(std::move(p));
  }

  TraceEvent read_event(const ojson& j, const std::string& where, bool sup) {
    Obj o(j, where);
    TraceEvent e;
    e.where = where;
    std::string ev = o.str("ev");
    if (sup) read_sup_event(o, ev, e);
    else read_worker_event(o, ev, e);
    o.done();
    return e;
  }

  void read_sup_event(Obj& o, const std::string& ev, TraceEvent& e) {
    if (ev == "exit") {
      e.ev = TraceEv::ChildExit;
      e.from = inc_ref(o.get("child"), o.at("child"));
      e.reason = reason(o.str("reason"), o.at("reason"));
    } else if (ev == "start_child") {
      e.ev = TraceEv::StartChild;
      e.from = inc_ref(o.get("from"), o.at("from"));
      e.n = o.integer("n", 1);
      e.name = t_.names.intern(o.str("child"));
    } else if (ev == "retry") {
      e.ev = TraceEv::Retry;
      e.name = t_.names.intern(o.str("child"));
    } else if (ev == "api") {
      e.ev = TraceEv::ApiRequest;
      e.from = inc_ref(o.get("from"), o.at("from"));
      e.n = o.integer("n", 1);
    } else if (ev == "decision") {
      e.ev = TraceEv::Decision;
      e.name = t_.names.intern(o.str("child"));
      e.action = o.str("action");
      if (e.action != "restart" && e.action != "keep" && e.action != "remove" && e.action != "give_up" &&
          e.action != "auto_shutdown")
        throw InputError(o.at("action"), "expected restart, keep, remove, give_up or auto_shutdown");
    } else {
      throw InputError(o.at("ev"), "a supervisor's event is exit, start_child, retry, api or decision, not " + ev);
    }
  }

  void read_worker_event(Obj& o, const std::string& ev, TraceEvent& e) {
    static const std::map<std::string, TraceEv> on_name = {
        {"link", TraceEv::Link},       {"unlink", TraceEv::Unlink},
        {"monitor", TraceEv::Monitor}, {"demonitor", TraceEv::Demonitor},
        {"exit_signal", TraceEv::ExitSignal}, {"call", TraceEv::Call}};
    if (ev == "deliver") {
      e.ev = TraceEv::Deliver;
      e.tag = t_.names.intern(o.str("tag"));
      e.args = o.get("args");
      if (!e.args.is_array()) throw InputError(o.at("args"), "expected an array");
      for (size_t i = 0; i < e.args.size(); i++)
        if (!e.args[i].is_number_integer() && !e.args[i].is_string())
          throw InputError(o.at("args") + "/" + std::to_string(i), "an argument is an integer or a name");
      if (const ojson* c = o.maybe("call")) {
        if (!c->is_boolean()) throw InputError(o.at("call"), "expected a boolean");
        e.call = c->get<bool>();
      }
      if (const ojson* s = o.maybe("signal")) {
        if (!s->is_string()) throw InputError(o.at("signal"), "expected link, exit, down or noproc");
        e.signal = s->get<std::string>();
        if (e.signal != "link" && e.signal != "exit" && e.signal != "down" && e.signal != "noproc")
          throw InputError(o.at("signal"), "expected link, exit, down or noproc");
        if (e.signal == "noproc") e.n = o.integer("n", 1);
        else e.from = inc_ref(o.get("from"), o.at("from"));
        if (e.signal == "exit") e.n = o.integer("n", 1);
        if (e.signal == "down") e.monitor = o.integer("monitor", 1);
      } else {
        e.from = inc_ref_or_null(o.get("from"), o.at("from"));
        e.n = o.integer("n", 1);
      }
    } else if (ev == "resume") {
      e.ev = TraceEv::Resume;
      e.from = inc_ref(o.get("from"), o.at("from"));
      e.n = o.integer("n", 1);
      e.args = o.get("value");
      if (!e.args.is_number_integer() && !e.args.is_string())
        throw InputError(o.at("value"), "a value is an integer or a name");
    } else if (ev == "signal") {
      e.ev = TraceEv::Signal;
      e.signal = o.str("kind");
      if (e.signal != "link" && e.signal != "exit" && e.signal != "call")
        throw InputError(o.at("kind"), "expected link, exit or call");
      e.from = inc_ref(o.get("from"), o.at("from"));
      if (o.has("n")) e.n = o.integer("n", 1);
      e.reason = reason(o.str("reason"), o.at("reason"));
      e.effect = o.str("effect");
      if (e.effect != "exit" && e.effect != "ignore") throw InputError(o.at("effect"), "expected exit or ignore");
    } else if (ev == "send" || ev == "drop" || on_name.count(ev)) {
      e.ev = ev == "send" ? TraceEv::Send : ev == "drop" ? TraceEv::Drop : on_name.at(ev);
      e.n = o.integer("n", 1);
      e.to = t_.names.intern(o.str("to"));
      if (ev == "send") {
        e.reached = inc_or_null(o.get("inc"), e.to, o.at("inc"));
        if (e.reached.none()) throw InputError(o.at("inc"), "a send reached an incarnation (a dropped one is a drop)");
      } else if (ev != "drop") {
        e.reached = inc_or_null(o.get("inc"), e.to, o.at("inc"));
      }
    } else if (ev == "spawn") {
      e.ev = TraceEv::Spawn;
      e.n = o.integer("n", 1);
      if (o.has("refused")) {
        e.refused = o.str("refused");
        if (e.refused != "SYSTEM_LIMIT" && e.refused != "NOPROC")
          throw InputError(o.at("refused"), "expected SYSTEM_LIMIT or NOPROC");
      } else {
        e.name = t_.names.intern(o.str("name"));
        e.result = o.str("result");
        if (e.result != "ok" && e.result != "failed" && e.result != "ignored")
          throw InputError(o.at("result"), "expected ok, failed or ignored");
      }
    } else if (ev == "reply") {
      e.ev = TraceEv::Reply;
      e.n = o.integer("n", 1);
    } else if (ev == "api") {
      e.ev = TraceEv::Api;
      e.n = o.integer("n", 1);
      e.op = o.str("op");
      ApiOp op;
      if (!parse_api(e.op, op)) throw InputError(o.at("op"), "expected terminate_child, restart_child or delete_child");
      e.supervisor = inc_ref_or_null(o.get("supervisor"), o.at("supervisor"));
      e.result = o.str("result");
    } else {
      throw InputError(o.at("ev"), "not an event of a worker: " + ev);
    }
  }

  // Incarnations of a name are 1..k, all listed; a worker's effects are numbered
  // 1, 2, ... in order (§25.2).
  void check_numbering() {
    std::map<std::pair<int32_t, bool>, std::set<int64_t>> incs;
    for (const TraceProcess& p : t_.processes) {
      incs[{p.id.name, p.supervisor}].insert(p.id.inc);
      int64_t next = 1;
      for (const TraceEvent& e : p.events)
        if (is_effect(e.ev)) {
          if (e.n != next)
            throw InputError(e.where + "/n", "effect number " + std::to_string(e.n) + " where " +
                                                 std::to_string(next) + " is next (SPEC §25.2)");
          next++;
        }
    }
    for (const auto& [key, set] : incs)
      if (static_cast<int64_t>(set.size()) != *set.rbegin())
        for (int64_t i = 1; i <= *set.rbegin(); i++)
          if (!set.count(i))
            throw InputError(key.second ? "/supervisors" : "/workers",
                             t_.names[key.first] + "#" + std::to_string(*set.rbegin()) + " is listed but not " +
                                 t_.names[key.first] + "#" + std::to_string(i));
  }

  const Program& p_;
  Trace& t_;
  std::set<std::string> sup_names_;
  std::set<std::pair<int32_t, int64_t>> seen_;
};

}  // namespace

Trace read_trace(const Program& p, const ojson& j) {
  Trace t(p);
  Reader(p, t).read(j);
  // Workers first, then supervisors: the checker's indexes count on it.
  std::stable_partition(t.processes.begin(), t.processes.end(), [](const TraceProcess& x) { return !x.supervisor; });
  return t;
}

}  // namespace concord
