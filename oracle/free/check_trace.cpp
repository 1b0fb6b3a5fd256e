// oracle/free/check_trace.cpp: the checks of a trace in order (SPEC §25.8), and the
// ones about incarnations as wholes: each worker replayed on its own (G1-G3), each
// incarnation started by exactly one step of the run, each exit accounted for.
#include "check_trace.hpp"

#include <functional>
#include <stdexcept>

#include "oracle/free/checker.hpp"

namespace concord {

Checker::Checker(const Program& prog, Trace& trace) : p(prog), t(trace) {
  size_t n = t.processes.size();
  workers.resize(n);
  replaying.assign(n, 0);
  sups.resize(n);
  fate.assign(n, ExitFate::Unseen);
  fate_by.assign(n, -1);
  explained.assign(n, 0);
  started_by.assign(n, -1);
  sup_index.assign(n, -1);
  for (size_t i = 0; i < n; i++) at[{t.processes[i].id.name, t.processes[i].id.inc}] = i;
  decls.assign(static_cast<size_t>(p.supervisor_count), nullptr);
  parent.assign(static_cast<size_t>(p.supervisor_count), -1);
  // The declarations: supervisors by index with their parents, workers with theirs.
  std::vector<std::pair<const Decl*, int32_t>> stack;
  for (const Decl& d : p.system) stack.push_back({&d, -1});
  while (!stack.empty()) {
    auto [d, up] = stack.back();
    stack.pop_back();
    if (auto* pd = std::get_if<ProcessDecl>(d)) {
      int32_t id = t.names.intern(pd->name);
      declared[id] = pd;
      supervisor_of[id] = up;
      continue;
    }
    const SupervisorDecl& s = std::get<SupervisorDecl>(*d);
    decls[static_cast<size_t>(s.index)] = &s;
    parent[static_cast<size_t>(s.index)] = up;
    for (const Child& ch : s.children) stack.push_back({&ch.decl, s.index});
  }
  for (size_t i = 0; i < n; i++)
    if (t.processes[i].supervisor)
      for (const SupervisorDecl* s : decls)
        if (t.names[t.processes[i].id.name] == s->name) sup_index[i] = s->index;
}

size_t Checker::find(const IncRef& r) const {
  auto it = at.find({r.name, r.inc});
  return it == at.end() ? kUnrecorded : it->second;
}

void Checker::add(Violation v) {
  if (violations.size() < kMaxViolations) violations.push_back(std::move(v));
}

void Checker::claim(size_t who, long starter, const std::string& how) {
  if (started_by[who] != -1) {
    add({guarantee::kReplay, name(who) + " is started twice: " + how + ", and by " +
                                 (started_by[who] == -2 ? std::string("the outside")
                                                        : name(static_cast<size_t>(started_by[who]))),
         {t.processes[who].where}});
    return;
  }
  started_by[who] = starter;
  const TraceProcess& w = t.processes[who];
  IncRef by = starter == -2 ? IncRef{} : t.processes[static_cast<size_t>(starter)].id;
  if (!(w.by == by))
    add({guarantee::kReplay, name(who) + " is started " + how + ", and the trace says it was started by " +
                                 inc_text(t.names, w.by),
         {w.where + "/by"}});
}

namespace {

[[noreturn]] void violation(const char* g, const std::string& text, std::vector<std::string> places = {}) {
  throw ViolationError{Violation{g, text, std::move(places)}};
}

Value constant(NameTable& names, const Expr& e) {
  if (e.kind == ExprKind::Int) return e.value;
  return names.intern(e.name);  // an addr or reason literal
}

// The creation arguments of worker `i` (§6.7: a restart reuses them): a declared
// process's constants, or the arguments of the spawn that made its name.
std::vector<Value> params_of(Checker& c, size_t i) {
  const TraceProcess& w = c.t.processes[i];
  auto d = c.declared.find(w.id.name);
  if (d != c.declared.end()) {
    std::vector<Value> v;
    for (const Expr& a : d->second->args) v.push_back(constant(c.t.names, a));
    return v;
  }
  size_t first = c.find({w.id.name, 1});
  const TraceProcess& f = c.t.processes[first];
  std::string who = c.name(first);
  size_t by = f.by.none() ? kUnrecorded : c.find(f.by);
  if (by == kUnrecorded)
    violation(guarantee::kReplay, who + " is a spawned name, started by " + inc_text(c.t.names, f.by) +
                                      ", which is not an incarnation of the trace",
              {f.where + "/by"});
  size_t spawner = by;
  long effect = -1;  // the spawn's effect number, when a supervisor says which
  if (c.t.processes[by].supervisor) {
    for (const TraceEvent& e : c.t.processes[by].events)
      if (e.ev == TraceEv::StartChild && e.name == w.id.name) {
        spawner = c.find(e.from);
        effect = e.n;
        if (spawner == kUnrecorded || c.t.processes[spawner].supervisor)
          violation(guarantee::kReplay, c.name(by) + " starts " + c.t.names[w.id.name] + " for " +
                                            inc_text(c.t.names, e.from) + ", not a worker of the trace",
                    {e.where});
        break;
      }
    if (effect < 0)
      violation(guarantee::kReplay, who + " is a spawned name, started by " + c.name(by) +
                                        ", whose events have no start_child of it",
                {f.where + "/by"});
  }
  const WorkerReplay& s = c.worker(spawner);
  for (size_t k = 0; k < s.effects.size(); k++) {
    const ReplayedEffect& x = s.effects[k];
    if (x.ev != TraceEv::Spawn) continue;
    if (effect >= 0 && static_cast<long>(k) + 1 != effect) continue;
    bool named = x.event != kUnrecorded && c.t.processes[spawner].events[x.event].name == w.id.name;
    // The last effect of a turn cut short may have been made unrecorded (§25.6): a
    // supervisor's start_child names it, or the spawner's exit says it was cut.
    bool unrecorded = x.event == kUnrecorded && (effect >= 0 || c.t.processes[spawner].exit >= 0);
    if (named || unrecorded) return x.args;
    if (effect >= 0)
      violation(guarantee::kReplay, inc_text(c.t.names, c.t.processes[spawner].id) + "'s effect " +
                                        std::to_string(effect) + " does not spawn " + c.t.names[w.id.name],
                {f.where + "/by"});
  }
  violation(guarantee::kReplay, who + " is started by " + c.name(spawner) + ", which makes no spawn that names " +
                                    c.t.names[w.id.name],
            {f.where + "/by"});
}

}  // namespace

const WorkerReplay& Checker::worker(size_t i) {
  if (replaying[i] == 2) return workers[i];
  if (replaying[i] == 1)
    violation(guarantee::kCausality, name(i) + "'s creation arguments come from a spawn that its own start precedes",
              {t.processes[i].where});
  replaying[i] = 1;
  std::vector<Value> params = params_of(*this, i);
  workers[i] = replay_worker(p, t, i, std::move(params));
  replaying[i] = 2;
  return workers[i];
}

// Who started whom: the outside the roots, a worker its spawns without `under` (the
// supervisors' replays claim theirs).
void claim_roots_and_spawns(Checker& c) {
  for (const Decl& d : c.p.system) {
    std::string name = std::holds_alternative<ProcessDecl>(d) ? std::get<ProcessDecl>(d).name
                                                              : std::get<SupervisorDecl>(d).name;
    int32_t id = c.t.names.intern(name);
    size_t first = c.find({id, 1});
    if (first == kUnrecorded) {
      c.add({guarantee::kReplay, "the root " + name + " has no incarnation " + name + "#1: the outside starts every root", {}});
      continue;
    }
    c.claim(first, -2, "by the outside, as a root");
    if (c.has({id, 2}))
      c.add({guarantee::kReplay, name + "#2 is listed: a root is started once and never restarted",
             {c.t.processes[c.find({id, 2})].where}});
  }
  for (size_t i = 0; i < c.t.processes.size(); i++) {
    if (c.t.processes[i].supervisor) continue;
    const WorkerReplay& r = c.workers[i];
    for (const ReplayedEffect& x : r.effects) {
      if (x.ev != TraceEv::Spawn || x.under >= 0 || x.event == kUnrecorded) continue;
      const TraceEvent& e = c.t.processes[i].events[x.event];
      if (!e.refused.empty()) continue;
      size_t child = c.find({e.name, 1});
      if (child == kUnrecorded) {
        c.add({guarantee::kReplay, c.name(i) + "'s effect " + std::to_string(e.n) + " spawns " + c.t.names[e.name] +
                                       ", and the trace has no " + c.t.names[e.name] + "#1",
               {e.where}});
        continue;
      }
      c.claim(child, static_cast<long>(i), "by " + c.name(i) + "'s spawn (effect " + std::to_string(e.n) + ")");
    }
  }
  // A spawn of the last effect of a cut turn may be unrecorded: the child it started
  // names its spawner, which then started it.
  for (size_t i = 0; i < c.t.processes.size(); i++) {
    const TraceProcess& w = c.t.processes[i];
    if (w.supervisor || c.started_by[i] != -1 || w.id.inc != 1 || w.by.none()) continue;
    size_t by = c.find(w.by);
    if (by == kUnrecorded || c.t.processes[by].supervisor) continue;
    const WorkerReplay& s = c.workers[by];
    if (!s.effects.empty() && s.effects.back().event == kUnrecorded && s.effects.back().ev == TraceEv::Spawn)
      c.claim(i, static_cast<long>(by), "by " + c.name(by) + "'s last spawn, unrecorded as its turn was cut");
  }
}

// Every incarnation was started by some step of the run.
void check_all_started(Checker& c) {
  for (size_t i = 0; i < c.t.processes.size(); i++)
    if (c.started_by[i] == -1)
      c.add({guarantee::kReplay, c.name(i) + " is in the trace, but no step of the run starts it (its `by` is " +
                                     inc_text(c.t.names, c.t.processes[i].by) + ")",
             {c.t.processes[i].where}});
}

namespace {

// Every exit from outside has a cause (§25.3 G1): its supervisor terminated it, or
// (version 2) a signal explains it (signals.cpp marks those Terminated too); every
// exit of a child whose supervisor outlived it was taken by that supervisor (G9).
void check_exit_causes(Checker& c) {
  for (size_t i = 0; i < c.t.processes.size(); i++) {
    const TraceProcess& w = c.t.processes[i];
    if (w.supervisor || w.exit < 0) continue;
    const WorkerReplay& r = c.workers[i];
    if (r.end == WorkerReplay::End::Cut && !c.explained[i]) {
      std::string when = r.mid_turn ? (r.turns.empty() ? " in its init" : " in the middle of its turn " +
                                                                              std::to_string(r.turns.size()))
                                    : " between turns";
      c.add({guarantee::kReplay, c.name(i) + " exited with " + c.t.names[w.exit] + when +
                                     (r.own_reason >= 0 ? " (its program ends it with " + c.t.names[r.own_reason] +
                                                              " there)"
                                                        : "") +
                                     ", and nothing of the run ends it so: neither its supervisor nor a signal",
             {w.where + "/exit"}});
      continue;
    }
    long sup = c.started_by[i];
    if (sup < 0 || !c.t.processes[static_cast<size_t>(sup)].supervisor) continue;
    if (r.start != StartEnd::Ok) continue;  // a failed start is its starter's business (§19.1)
    if (c.fate[i] == ExitFate::Unseen && c.t.processes[static_cast<size_t>(sup)].exit < 0)
      c.add({guarantee::kSupervisors, c.name(static_cast<size_t>(sup)) + " never handled " + c.name(i) +
                                          "'s exit (" + c.t.names[w.exit] + "), and is alive at the end",
             {w.where + "/exit", c.t.processes[static_cast<size_t>(sup)].where}});
  }
}

void check_outcome(Checker& c) {
  bool waiting = false;
  for (size_t i = 0; i < c.t.processes.size(); i++)
    if (!c.t.processes[i].supervisor && c.t.processes[i].exit < 0 && c.workers[i].waiting) waiting = true;
  if (c.t.outcome == "quiescent" && waiting)
    c.add({guarantee::kCalls, "the outcome is quiescent, and a worker waits in a call at the end: deadlock (§18.3)",
           {"/outcome"}});
  if (c.t.outcome == "deadlock" && !waiting)
    c.add({guarantee::kCalls, "the outcome is deadlock, and no worker waits in a call at the end", {"/outcome"}});
  if (c.verdict.turns > c.t.run.turns)
    c.add({guarantee::kLimits, std::to_string(c.verdict.turns) + " turns happened, past the turn limit " +
                                   std::to_string(c.t.run.turns),
           {"/run/turns"}});
}

}  // namespace

std::string violation_line(const Violation& v) { return v.guarantee + ": " + v.text; }

TraceVerdict check_trace(const Program& p, const ojson& j) {
  if (!p.checked) throw std::logic_error("check_trace needs a checked program");
  Trace t = read_trace(p, j);
  Checker c(p, t);
  TraceVerdict& v = c.verdict;
  v.incarnations = static_cast<int64_t>(t.processes.size());
  // Each phase needs the ones before it sound: stop at the first that finds a violation.
  auto phase = [&](const std::function<void()>& f) {
    if (!c.violations.empty()) return;
    try {
      f();
    } catch (const ViolationError& e) {
      c.add(e.v);
    }
  };
  for (size_t i = 0; i < t.processes.size(); i++)
    if (!t.processes[i].supervisor) phase([&] { c.worker(i); });
  phase([&] {
    for (size_t i = 0; i < t.processes.size(); i++)
      if (!t.processes[i].supervisor) v.turns += static_cast<int64_t>(c.workers[i].turns.size());
  });
  phase([&] { claim_roots_and_spawns(c); });
  phase([&] { replay_supervisors(c); });
  phase([&] { check_all_started(c); });
  phase([&] { check_signals(c); });
  phase([&] { check_exit_causes(c); });
  phase([&] { check_messages(c); });
  phase([&] { check_outcome(c); });
  phase([&] { check_happens_before(c); });
  v.violations = std::move(c.violations);
  v.admissible = v.violations.empty();
  return v;
}

}  // namespace concord
