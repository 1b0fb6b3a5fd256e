// oracle/free/from_run.cpp: the observer (oracle/observer.hpp) that writes a
// conducted run as a trace (SPEC §25.6). It mirrors what the trace needs and the
// run does not keep: the incarnation and effect number each queued message and
// signal comes from, in queue order, so that a delivery can name its send.
#include "from_run.hpp"

#include <deque>
#include <map>
#include <new>
#include <set>

#include "oracle/free/trace.hpp"
#include "oracle/interpreter.hpp"
#include "oracle/memory.hpp"
#include "oracle/rules.hpp"

namespace concord {
namespace {

// Where a queued message (or signal) comes from, as a trace names it.
struct Origin {
  enum Kind { Send, Given, Call, Noproc, Link, Down, Exit, Other } kind = Other;
  size_t from = 0;  // the sender's incarnation (index into the writer's list)
  int64_t n = 0;    // its effect number; for Given the index; for Down the holder's monitor effect
};

struct Incarnation {
  std::string name;
  int64_t inc = 0;
  bool sup = false;
  std::string kind;
  ojson by;
  ojson events = ojson::array();
  ojson exit;  // null: alive at the end
  int64_t effects = 0;
  std::string last;  // the kind of its last effect
  ojson ref() const { return ojson::array({name, inc}); }
};

class TraceWriter : public RunObserver {
 public:
  explicit TraceWriter(const Program& p) : p_(p) {
    std::vector<const Decl*> stack;
    for (const Decl& d : p.system) stack.push_back(&d);
    while (!stack.empty()) {
      const Decl* d = stack.back();
      stack.pop_back();
      if (auto* pd = std::get_if<ProcessDecl>(d)) declared_.insert(pd->name);
      else
        for (const Child& c : std::get<SupervisorDecl>(*d).children) stack.push_back(&c.decl);
    }
  }

  std::string line(const RunResult& r) {
    const World& w = *r.world;
    ojson t;
    t["ok"] = true;
    t["mode"] = "free";
    t["run"] = {{"seed", w.run.seed}, {"turns", w.run.turns}, {"max_processes", w.run.max_processes}};
    t["outcome"] = r.outcome;
    t["given"] = given_;
    ojson workers = ojson::array(), sups = ojson::array();
    std::map<size_t, ojson> finals;
    for (size_t id = 0; id < w.procs.size(); id++) {
      const Process& q = w.procs[id];
      if (!q.alive) continue;
      ojson state = ojson::object();
      const Kind& k = p_.kinds[static_cast<size_t>(q.kind)];
      for (size_t f = 0; f < k.state.size(); f++)
        state[k.state[f].name] = k.state[f].type == Type::Int ? ojson(q.state[f]) : ojson(w.names[q.state[f]]);
      finals[current_[id]] = state;
    }
    for (size_t slot = 0; slot < w.sups.size(); slot++) {
      const Supervisor& s = w.sups[slot];
      if (!s.alive) continue;
      ojson children = ojson::array();
      for (const ChildEntry& c : s.children) children.push_back({{"name", w.names[c.name]}, {"running", c.running}});
      finals[sup_current_[slot]] = children;
    }
    for (size_t i = 0; i < incs_.size(); i++) {
      const Incarnation& x = incs_[i];
      ojson o;
      o["name"] = x.name;
      o["inc"] = x.inc;
      if (!x.sup) o["kind"] = x.kind;
      o["by"] = x.by;
      o["events"] = x.events;
      o["exit"] = x.exit;
      o[x.sup ? "children" : "state"] = x.exit.is_null() ? finals[i] : ojson();
      (x.sup ? sups : workers).push_back(std::move(o));
    }
    t["workers"] = std::move(workers);
    t["supervisors"] = std::move(sups);
    return t.dump() + "\n";
  }

  // --- incarnations ----------------------------------------------------------------

  void worker_started(const World& w, int32_t id) override {
    const Process& q = w.procs[id];
    Incarnation x;
    x.name = w.names[q.name];
    x.inc = q.incarnation;
    x.kind = p_.kinds[static_cast<size_t>(q.kind)].name;
    if (q.sup >= 0) x.by = incs_[sup_current_[static_cast<size_t>(q.sup)]].ref();
    else if (!declared_.count(x.name)) x.by = incs_[current_[static_cast<size_t>(turn_)]].ref();  // a spawn in a turn
    if (current_.size() <= static_cast<size_t>(id)) {
      current_.resize(static_cast<size_t>(id) + 1, 0);
      mailbox_.resize(static_cast<size_t>(id) + 1);
    }
    current_[static_cast<size_t>(id)] = incs_.size();
    mailbox_[static_cast<size_t>(id)].clear();
    incs_.push_back(std::move(x));
  }

  void worker_exited(const World& w, int32_t id, int32_t reason) override {
    me(id).exit = w.names[reason];
    mailbox_[static_cast<size_t>(id)].clear();
  }

  void supervisor_started(const World& w, int32_t slot) override {
    const Supervisor& s = w.sups[static_cast<size_t>(slot)];
    if (sup_current_.empty()) {
      sup_current_.assign(w.sups.size(), 0);
      sup_count_.assign(w.sups.size(), 0);
    }
    Incarnation x;
    x.name = w.names[s.name];
    x.inc = ++sup_count_[static_cast<size_t>(slot)];
    x.sup = true;
    if (s.parent >= 0) x.by = incs_[sup_current_[static_cast<size_t>(s.parent)]].ref();
    sup_current_[static_cast<size_t>(slot)] = incs_.size();
    incs_.push_back(std::move(x));
  }

  void supervisor_exited(const World&, int32_t slot) override {
    incs_[sup_current_[static_cast<size_t>(slot)]].exit = "shutdown";
  }

  // --- effects -------------------------------------------------------------------------

  void sent(const World& w, int32_t id, int32_t to_name, int32_t found) override {
    Incarnation& x = me(id);
    int64_t n = effect(x, found >= 0 ? "send" : "drop");
    ojson e = {{"ev", found >= 0 ? "send" : "drop"}, {"n", n}, {"to", w.names[to_name]}};
    if (found >= 0) {
      e["inc"] = w.procs[found].incarnation;
      mailbox_[static_cast<size_t>(found)].push_back({Origin::Send, current_[static_cast<size_t>(id)], n});
    }
    x.events.push_back(std::move(e));
  }

  void given(const World& w, int32_t found) override {
    int64_t k = static_cast<int64_t>(given_.size()) + 1;
    ojson g = {{"to", p_.given[static_cast<size_t>(k - 1)].to}};
    g["inc"] = found >= 0 ? ojson(w.procs[found].incarnation) : ojson();
    given_.push_back(std::move(g));
    if (found >= 0) mailbox_[static_cast<size_t>(found)].push_back({Origin::Given, 0, k});
  }

  void spawned(const World& w, int32_t id, int32_t child, int32_t under, int started) override {
    Incarnation& x = me(id);
    int64_t n = effect(x, "spawn");
    const char* result = started == static_cast<int>(Started::Ok)        ? "ok"
                         : started == static_cast<int>(Started::Ignored) ? "ignored"
                                                                          : "failed";
    std::string name = w.names[w.procs[child].name];
    x.events.push_back({{"ev", "spawn"}, {"n", n}, {"name", name}, {"result", result}});
    if (under >= 0)
      incs_[sup_current_[static_cast<size_t>(under)]].events.push_back(
          {{"ev", "start_child"}, {"from", x.ref()}, {"n", n}, {"child", name}});
  }

  void spawn_refused(const World& w, int32_t id, int32_t code) override {
    Incarnation& x = me(id);
    int64_t n = effect(x, "spawn");
    x.events.push_back({{"ev", "spawn"}, {"n", n}, {"refused", w.names[code]}});
  }

  void on_name(const World& w, int32_t id, NameEffect ne, int32_t to_name, int32_t found) override {
    static const char* const kWords[] = {"link", "unlink", "monitor", "demonitor", "exit_signal", "call"};
    const char* ev = kWords[static_cast<int>(ne)];
    Incarnation& x = me(id);
    int64_t n = effect(x, ev);
    ojson e = {{"ev", ev}, {"n", n}, {"to", w.names[to_name]}};
    e["inc"] = found >= 0 ? ojson(w.procs[found].incarnation) : ojson();
    x.events.push_back(std::move(e));
    if (ne == NameEffect::Call && found >= 0 && found != id)
      mailbox_[static_cast<size_t>(found)].push_back({Origin::Call, current_[static_cast<size_t>(id)], n});
  }

  void replied(const World&, int32_t id, int32_t answered) override {
    Incarnation& x = me(id);
    int64_t n = effect(x, "reply");
    x.events.push_back({{"ev", "reply"}, {"n", n}});
    if (answered >= 0) reply_for_[answered] = {Origin::Other, current_[static_cast<size_t>(id)], n};
  }

  void api(const World& w, int32_t id, int32_t slot, ApiOp op, bool alive, ApiResult r, bool answered) override {
    static const char* const kResults[] = {"ok", "not_found", "running", "restarting", "ignored", "failed"};
    Incarnation& x = me(id);
    int64_t n = effect(x, "api");
    ojson e = {{"ev", "api"}, {"n", n}, {"op", api_name(op)}};
    e["supervisor"] = alive ? incs_[sup_current_[static_cast<size_t>(slot)]].ref() : ojson();
    e["result"] = alive ? kResults[static_cast<int>(r)] : "ok";
    if (answered) x.events.push_back(std::move(e));
    if (alive)
      incs_[sup_current_[static_cast<size_t>(slot)]].events.push_back({{"ev", "api"}, {"from", x.ref()}, {"n", n}});
    (void)w;
  }

  // --- messages and signals ---------------------------------------------------------------

  void own_message(const World&, int32_t id) override {
    Incarnation& x = me(id);
    Origin o{x.last == "exit_signal" ? Origin::Exit : Origin::Noproc, current_[static_cast<size_t>(id)], x.effects};
    mailbox_[static_cast<size_t>(id)].push_back(o);
  }

  void monitor_made(const World&, int32_t holder, int64_t number) override {
    monitor_effect_[{holder, number}] = me(holder).effects;
  }

  void signal_queued(const World& w, const Signal& s, int64_t monitor) override {
    int32_t from = w.proc_of_name[static_cast<size_t>(s.from)];
    Origin o;
    o.from = current_[static_cast<size_t>(from)];
    switch (s.kind) {
      case SignalKind::Link: o.kind = Origin::Link; break;
      case SignalKind::Down:
        o.kind = Origin::Down;
        o.n = monitor_effect_[{s.to, monitor}];
        break;
      case SignalKind::Exit:
        o.kind = Origin::Exit;
        o.n = incs_[o.from].effects;  // the exit statement just made
        break;
      case SignalKind::Call: o.kind = Origin::Other; break;
    }
    signals_.push_back(o);
  }

  void signal_taken(const World&) override {
    taken_ = signals_.front();
    signals_.pop_front();
  }

  void signal_message(const World&, int32_t to) override { mailbox_[static_cast<size_t>(to)].push_back(taken_); }

  // --- turns -------------------------------------------------------------------------------

  void delivered(const World& w, int32_t id, const Message& m) override {
    turn_ = id;
    Origin o = mailbox_[static_cast<size_t>(id)].front();
    mailbox_[static_cast<size_t>(id)].pop_front();
    ojson e = {{"ev", "deliver"}};
    std::string tag = p_.sigs[static_cast<size_t>(m.sig)].tag;
    switch (o.kind) {
      case Origin::Send:
      case Origin::Call:
        e["from"] = incs_[o.from].ref();
        e["n"] = o.n;
        if (o.kind == Origin::Call) e["call"] = true;
        break;
      case Origin::Given:
        e["from"] = ojson();
        e["n"] = o.n;
        break;
      case Origin::Noproc:
        e["signal"] = "noproc";
        e["n"] = o.n;
        break;
      case Origin::Link:
        e["signal"] = "link";
        e["from"] = incs_[o.from].ref();
        break;
      case Origin::Down:
        e["signal"] = "down";
        e["from"] = incs_[o.from].ref();
        e["monitor"] = o.n;
        break;
      case Origin::Exit:
        e["signal"] = "exit";
        e["from"] = incs_[o.from].ref();
        e["n"] = o.n;
        break;
      case Origin::Other: break;
    }
    e["tag"] = tag;
    e["args"] = message_args_json(w, m.sig, m.args);
    me(id).events.push_back(std::move(e));
  }

  void resumed(const World& w, int32_t id) override {
    turn_ = id;
    const Wait& wait = *w.procs[id].wait;
    const Origin& o = reply_for_[id];
    ojson v = wait.type == Type::Int ? ojson(wait.value) : ojson(w.names[static_cast<size_t>(wait.value)]);
    me(id).events.push_back({{"ev", "resume"}, {"from", incs_[o.from].ref()}, {"n", o.n}, {"value", v}});
  }

  // --- supervisors --------------------------------------------------------------------------

  void exit_handled(const World& w, int32_t slot, int32_t child, int32_t reason) override {
    ojson ref;
    int32_t id = w.proc_of_name[static_cast<size_t>(child)];
    if (id >= 0) {
      ref = incs_[current_[static_cast<size_t>(id)]].ref();
    } else {
      for (size_t s = 0; s < w.sups.size(); s++)
        if (w.sups[s].name == child) ref = incs_[sup_current_[s]].ref();
    }
    sup(slot).events.push_back({{"ev", "exit"}, {"child", ref}, {"reason", w.names[reason]}});
  }

  void retry_handled(const World& w, int32_t slot, int32_t child) override {
    sup(slot).events.push_back({{"ev", "retry"}, {"child", w.names[child]}});
  }

  void decided(const World& w, int32_t slot, int32_t child, Action a) override {
    static const char* const kActions[] = {"restart", "keep", "remove", "give_up", "auto_shutdown"};
    sup(slot).events.push_back({{"ev", "decision"}, {"child", w.names[child]}, {"action", kActions[static_cast<int>(a)]}});
  }

 private:
  Incarnation& me(int32_t id) { return incs_[current_[static_cast<size_t>(id)]]; }
  Incarnation& sup(int32_t slot) { return incs_[sup_current_[static_cast<size_t>(slot)]]; }
  static int64_t effect(Incarnation& x, const char* kind) {
    x.last = kind;
    return ++x.effects;
  }

  const Program& p_;
  std::set<std::string> declared_;
  std::vector<Incarnation> incs_;
  std::vector<size_t> current_;      // by process id: its latest incarnation
  std::vector<size_t> sup_current_;  // by slot
  std::vector<int64_t> sup_count_;   // by slot: starts so far
  std::vector<std::deque<Origin>> mailbox_;
  std::deque<Origin> signals_;
  Origin taken_;
  std::map<std::pair<int32_t, int64_t>, int64_t> monitor_effect_;  // (holder, monitor number) -> effect
  std::map<int32_t, Origin> reply_for_;                            // caller -> the reply that answered it
  int32_t turn_ = -1;                                              // the worker whose turn it is
  ojson given_ = ojson::array();
};

}  // namespace

std::string trace_line(const Program& p, const RunSettings& r) {
  try {
    TraceWriter writer(p);
    RunResult result = run(p, r, {}, &writer);
    return writer.line(result);
  } catch (const std::bad_alloc& e) {
    return memory_error_line(e);
  } catch (const OutOfSteps& e) {
    return error_line("TIMEOUT", e.what());
  }
}

}  // namespace concord
