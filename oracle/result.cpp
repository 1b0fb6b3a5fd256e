// oracle/result.cpp: a run's result in its canonical serialisation (SPEC §9;
// version 2: §22, its events, values and keys in their order).
// Keys are inserted in the spec's order into ordered_json, whose compact dump()
// is the canonical form (no spaces, minimal escapes, \u00XX in lower case).
#include <charconv>

#include "interpreter.hpp"
#include "limits.hpp"
#include "memory.hpp"
#include "rules.hpp"

namespace concord {
namespace {

const char* action_name(Action a) {
  switch (a) {
    case Action::Restart: return "restart";
    case Action::Keep: return "keep";
    case Action::Remove: return "remove";
    case Action::GiveUp: return "give_up";
    case Action::AutoShutdown: return "auto_shutdown";
  }
  return "?";
}

const char* signal_kind_name(uint8_t k) {
  switch (static_cast<SignalKind>(k)) {
    case SignalKind::Link: return "link";
    case SignalKind::Exit: return "exit";
    case SignalKind::Down: return "down";
    case SignalKind::Call: return "call";
  }
  return "?";
}

const char* signal_effect_name(uint8_t e) {
  switch (static_cast<SignalEffect>(e)) {
    case SignalEffect::Exit: return "exit";
    case SignalEffect::Message: return "message";
    case SignalEffect::Ignore: return "ignore";
  }
  return "?";
}

const char* api_result_name(uint8_t r) {  // §20's table
  switch (static_cast<ApiResult>(r)) {
    case ApiResult::Ok: return "ok";
    case ApiResult::NotFound: return "not_found";
    case ApiResult::Running: return "running";
    case ApiResult::Restarting: return "restarting";
    case ApiResult::Ignored: return "ignored";
    case ApiResult::Failed: return "failed";
  }
  return "?";
}

// An exit reason that makes a failures record: abnormal (§15; §22); shutdown too in
// the dialect ShutdownIsFailure.
bool is_failure(const World& w, int32_t reason) {
  const std::string& r = w.names[reason];
  if (r == "shutdown") return w.dialect.has(Alt::ShutdownIsFailure);
  return r != "normal";
}

// A signal's reason: a reason, or "kill" for exit(e, kill) (§22).
std::string signal_reason(const World& w, const Event& e) { return e.reason < 0 ? "kill" : w.names[e.reason]; }

ojson value_json(const World& w, Value v, Type t) {
  if (t != Type::Int) return w.names[static_cast<size_t>(v)];  // addr, reason: a string (§22)
  return v;
}

ojson args_json(const World& w, const Event& e) { return message_args_json(w, e.sig, e.args); }

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
      j["reason"] = w.names[e.reason];
      break;
    case EventKind::Decision:
      j["ev"] = "decision";
      j["turn"] = e.turn;
      j["supervisor"] = w.names[e.other];
      j["process"] = w.names[e.name];
      j["action"] = action_name(e.action);
      break;
    case EventKind::Signal:
      j["ev"] = "signal";
      j["turn"] = e.turn;
      j["kind"] = signal_kind_name(e.sub);
      j["from"] = w.names[e.other];
      j["to"] = w.names[e.name];
      j["reason"] = signal_reason(w, e);
      j["effect"] = signal_effect_name(e.effect);
      break;
    case EventKind::Call:
      j["ev"] = "call";
      j["turn"] = e.turn;
      j["ready"] = e.ready;
      j["to"] = w.names[e.name];
      j["from"] = w.names[e.other];
      j["tag"] = w.prog.sigs[e.sig].tag;
      j["args"] = args_json(w, e);
      break;
    case EventKind::Resume:
      j["ev"] = "resume";
      j["turn"] = e.turn;
      j["ready"] = e.ready;
      j["to"] = w.names[e.name];
      j["from"] = w.names[e.other];
      j["value"] = value_json(w, e.args[0], e.vtype);
      break;
    case EventKind::Api:
      j["ev"] = "api";
      j["turn"] = e.turn;
      j["from"] = w.names[e.name];
      j["supervisor"] = w.names[e.other];
      j["op"] = api_name(static_cast<ApiOp>(e.sub));
      j["child"] = w.names[e.child];
      j["result"] = api_result_name(e.effect);
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

ojson message_args_json(const World& w, int32_t sig, const std::vector<Value>& args) {
  ojson a = ojson::array();
  const Signature& s = w.prog.sigs[static_cast<size_t>(sig)];
  for (size_t i = 0; i < args.size(); i++) a.push_back(value_json(w, args[i], s.types[i]));
  return a;
}

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
    if (e.kind == EventKind::Exit && is_failure(w, e.reason))
      failures.push_back({{"process", w.names[e.name]}, {"code", w.names[e.reason]}, {"turn", e.turn}});
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

namespace {

// The same canonical form as result_to_json(r).dump(), written straight into a
// string: a fuzz campaign serialises every run, and building a JSON tree first
// costs several times the run itself. A test checks the two agree.
class LineWriter {
 public:
  explicit LineWriter(const World& w) : w_(w) {}
  std::string out;

  void raw(const char* s) { out += s; }
  void num(int64_t v) {
    char buf[24];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, res.ptr);
  }
  void unum(uint64_t v) {
    char buf[24];
    auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, res.ptr);
  }
  void str(const std::string& s) {
    out += '"';
    for (unsigned char c : s) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
          if (c < 0x20) {
            static const char* hex = "0123456789abcdef";
            out += "\\u00";
            out += hex[c >> 4];
            out += hex[c & 15];
          } else {
            out += static_cast<char>(c);
          }
      }
    }
    out += '"';
  }
  void name(int32_t id) { str(w_.names[static_cast<size_t>(id)]); }
  void name_or_null(int32_t id) {
    if (id < 0) raw("null");
    else name(id);
  }
  void value(Value v, Type t) {
    if (t != Type::Int) name(static_cast<int32_t>(v));  // addr, reason (§22)
    else num(v);
  }
  void args(const Event& e) {
    const Signature& sig = w_.prog.sigs[e.sig];
    out += '[';
    for (size_t i = 0; i < e.args.size(); i++) {
      if (i) out += ',';
      value(e.args[i], sig.types[i]);
    }
    out += ']';
  }

  void event(const Event& e) {
    switch (e.kind) {
      case EventKind::Start:
        raw("{\"ev\":\"start\",\"turn\":"), num(e.turn), raw(",\"name\":"), name(e.name), raw(",\"kind\":");
        str(e.sig < 0 ? std::string("supervisor") : w_.prog.kinds[e.sig].name);
        break;
      case EventKind::Deliver:
        raw("{\"ev\":\"deliver\",\"turn\":"), num(e.turn), raw(",\"ready\":"), num(e.ready), raw(",\"to\":");
        name(e.name), raw(",\"from\":"), name_or_null(e.other), raw(",\"tag\":"), str(w_.prog.sigs[e.sig].tag);
        raw(",\"args\":"), args(e);
        break;
      case EventKind::Drop:
        raw("{\"ev\":\"drop\",\"turn\":"), num(e.turn), raw(",\"from\":"), name_or_null(e.other), raw(",\"to\":");
        name(e.name), raw(",\"tag\":"), str(w_.prog.sigs[e.sig].tag), raw(",\"args\":"), args(e);
        break;
      case EventKind::Exit:
        raw("{\"ev\":\"exit\",\"turn\":"), num(e.turn), raw(",\"name\":"), name(e.name), raw(",\"reason\":");
        name(e.reason);
        break;
      case EventKind::Decision:
        raw("{\"ev\":\"decision\",\"turn\":"), num(e.turn), raw(",\"supervisor\":"), name(e.other);
        raw(",\"process\":"), name(e.name), raw(",\"action\":"), str(action_name(e.action));
        break;
      case EventKind::Signal:
        raw("{\"ev\":\"signal\",\"turn\":"), num(e.turn), raw(",\"kind\":"), str(signal_kind_name(e.sub));
        raw(",\"from\":"), name(e.other), raw(",\"to\":"), name(e.name), raw(",\"reason\":");
        str(signal_reason(w_, e)), raw(",\"effect\":"), str(signal_effect_name(e.effect));
        break;
      case EventKind::Call:
        raw("{\"ev\":\"call\",\"turn\":"), num(e.turn), raw(",\"ready\":"), num(e.ready), raw(",\"to\":");
        name(e.name), raw(",\"from\":"), name(e.other), raw(",\"tag\":"), str(w_.prog.sigs[e.sig].tag);
        raw(",\"args\":"), args(e);
        break;
      case EventKind::Resume:
        raw("{\"ev\":\"resume\",\"turn\":"), num(e.turn), raw(",\"ready\":"), num(e.ready), raw(",\"to\":");
        name(e.name), raw(",\"from\":"), name(e.other), raw(",\"value\":"), value(e.args[0], e.vtype);
        break;
      case EventKind::Api:
        raw("{\"ev\":\"api\",\"turn\":"), num(e.turn), raw(",\"from\":"), name(e.name), raw(",\"supervisor\":");
        name(e.other), raw(",\"op\":"), str(api_name(static_cast<ApiOp>(e.sub))), raw(",\"child\":"), name(e.child);
        raw(",\"result\":"), str(api_result_name(e.effect));
        break;
    }
    out += '}';
  }

 private:
  const World& w_;
};

}  // namespace

std::string result_line(const RunResult& r) {
  const World& w = *r.world;
  LineWriter o(w);
  o.out.reserve(static_cast<size_t>(w.text_bound));  // at most that long: never copied while it grows
  o.raw("{\"ok\":true,\"run\":{\"seed\":"), o.unum(w.run.seed), o.raw(",\"turns\":"), o.num(w.run.turns);
  o.raw(",\"max_processes\":"), o.num(w.run.max_processes), o.raw("},\"outcome\":"), o.str(r.outcome);
  o.raw(",\"turns\":"), o.num(r.turns), o.raw(",\"journal\":[");
  for (size_t i = 0; i < w.journal.size(); i++) {
    if (i) o.raw(",");
    o.event(w.journal[i]);
  }
  o.raw("],\"failures\":[");
  bool first = true;
  for (const Event& e : w.journal) {
    if (e.kind != EventKind::Exit || !is_failure(w, e.reason)) continue;
    o.raw(first ? "{\"process\":" : ",{\"process\":"), o.name(e.name), o.raw(",\"code\":"), o.name(e.reason);
    o.raw(",\"turn\":"), o.num(e.turn), o.raw("}");
    first = false;
  }
  o.raw("],\"decisions\":[");
  first = true;
  for (const Event& e : w.journal) {
    if (e.kind != EventKind::Decision) continue;
    o.raw(first ? "{\"process\":" : ",{\"process\":"), o.name(e.name), o.raw(",\"supervisor\":"), o.name(e.other);
    o.raw(",\"action\":"), o.str(action_name(e.action)), o.raw(",\"turn\":"), o.num(e.turn), o.raw("}");
    first = false;
  }
  o.raw("],\"processes\":[");
  for (size_t id = 0; id < w.procs.size(); id++) {
    const Process& p = w.procs[id];
    o.raw(id ? ",{\"id\":" : "{\"id\":"), o.unum(id), o.raw(",\"name\":"), o.name(p.name), o.raw(",\"kind\":");
    o.str(w.prog.kinds[p.kind].name), o.raw("}");
  }
  o.raw("],\"alive\":[");
  first = true;
  for (const Process& p : w.procs) {
    if (!p.alive) continue;
    o.raw(first ? "{\"name\":" : ",{\"name\":"), o.name(p.name), o.raw(",\"state\":{");
    const Kind& k = w.prog.kinds[p.kind];
    for (size_t i = 0; i < k.state.size(); i++) {
      if (i) o.raw(",");
      o.str(k.state[i].name), o.raw(":"), o.value(p.state[i], k.state[i].type);
    }
    o.raw("}}");
    first = false;
  }
  o.raw("],\"supervisors\":[");
  for (size_t i = 0; i < w.sups.size(); i++) {
    const Supervisor& s = w.sups[i];
    o.raw(i ? ",{\"name\":" : "{\"name\":"), o.name(s.name), o.raw(s.alive ? ",\"alive\":true" : ",\"alive\":false");
    o.raw(",\"children\":[");
    for (size_t c = 0; c < s.children.size(); c++) {
      o.raw(c ? ",{\"name\":" : "{\"name\":"), o.name(s.children[c].name);
      o.raw(s.children[c].running ? ",\"running\":true}" : ",\"running\":false}");
    }
    o.raw("]}");
  }
  o.raw("]}\n");
  return std::move(o.out);
}

// The bounds below follow LineWriter: fixed punctuation and keys, names as long as
// they are, an integer at most 20 characters, a separating comma each. A test
// checks that no result line is longer than the run's text_bound.
namespace {

constexpr int64_t kIntText = 20;  // "-9223372036854775808"

int64_t name_len(const World& w, int32_t id) { return id < 0 ? 4 : static_cast<int64_t>(w.names[id].size()) + 2; }

int64_t value_text(const World& w, Value v, Type t) {
  return t != Type::Int ? name_len(w, static_cast<int32_t>(v)) : kIntText;  // addr, reason: a name (§22)
}

int64_t args_text(const World& w, const Event& e) {
  int64_t n = static_cast<int64_t>(w.prog.sigs[e.sig].tag.size()) + 2;
  const Signature& sig = w.prog.sigs[e.sig];
  for (size_t i = 0; i < e.args.size(); i++) n += 1 + value_text(w, e.args[i], sig.types[i]);
  return n;
}

}  // namespace

int64_t event_text_bound(const World& w, const Event& e) {
  switch (e.kind) {
    case EventKind::Start:
      return 64 + kIntText + name_len(w, e.name) +
             (e.sig < 0 ? 12 : static_cast<int64_t>(w.prog.kinds[e.sig].name.size()) + 2);
    case EventKind::Deliver:
    case EventKind::Drop:
    case EventKind::Call: return 96 + 2 * kIntText + name_len(w, e.name) + name_len(w, e.other) + args_text(w, e);
    case EventKind::Exit: {  // and its failure record
      int64_t n = 64 + kIntText + name_len(w, e.name) + name_len(w, e.reason);
      return is_failure(w, e.reason) ? 2 * n : n;
    }
    case EventKind::Decision:  // and its decision record
      return 2 * (96 + kIntText + name_len(w, e.name) + name_len(w, e.other));
    case EventKind::Signal:  // kind and effect at most 7 characters each; the reason a name, or "kill"
      return 112 + kIntText + name_len(w, e.name) + name_len(w, e.other) + (e.reason < 0 ? 6 : name_len(w, e.reason));
    case EventKind::Resume:
      return 96 + 2 * kIntText + name_len(w, e.name) + name_len(w, e.other) + value_text(w, e.args[0], e.vtype);
    case EventKind::Api:  // op at most 15 characters, result 9
      return 128 + kIntText + name_len(w, e.name) + name_len(w, e.other) + name_len(w, e.child);
  }
  return 0;
}

int64_t process_text_bound(const World& w, const Process& p) {
  const Kind& k = w.prog.kinds[p.kind];
  int64_t n = 64 + kIntText + 2 * name_len(w, p.name) + static_cast<int64_t>(k.name.size()) + 2;
  // An addr holds a name: a declared one, or k-N (kind, '-', 19 digits); a reason a
  // reason or code (§15: at most kMaxNameLength).
  for (const Field& f : k.state)
    n += 8 + static_cast<int64_t>(f.name.size()) +
         (f.type == Type::Addr     ? 2 + kMaxNameLength + 20
          : f.type == Type::Reason ? 2 + kMaxNameLength
                                   : kIntText);
  return n;
}

int64_t child_text_bound(const World& w, int32_t name) { return 32 + name_len(w, name); }

int64_t fixed_text_bound(const World& w) {
  int64_t n = 256 + 3 * kIntText;  // the run's settings, outcome, turns and the arrays' brackets
  for (const Supervisor& s : w.sups) {
    n += 48 + name_len(w, s.name);
    for (const Child& c : s.decl->children) {
      const std::string& name = std::holds_alternative<ProcessDecl>(c.decl) ? std::get<ProcessDecl>(c.decl).name
                                                                            : std::get<SupervisorDecl>(c.decl).name;
      n += 32 + static_cast<int64_t>(name.size()) + 2;
    }
  }
  return n;
}

std::string memory_error_line(const std::bad_alloc& e) {
  return error_line("MEMORY", dynamic_cast<const OutOfMemory*>(&e) ? e.what() : "out of memory");
}

std::string error_line(const std::string& code, const std::string& message) {
  ojson j;
  j["ok"] = false;
  j["code"] = code;
  j["message"] = message;
  return j.dump(-1, ' ', false, ojson::error_handler_t::replace) + "\n";
}

}  // namespace concord
