// oracle/supervision.cpp: OTP supervision (SPEC §7), shaped like OTP 25's
// lib/stdlib/src/supervisor.erl: one function decides by restart type and exit
// reason (do_restart/3), one per strategy (restart/3), intensity in add_restart/1,
// terminations in terminate_children/2. Each clause cites the rule it mirrors.
#include <stdexcept>

#include "rules.hpp"

namespace concord {
namespace {

ChildEntry* find_child(Supervisor& s, int32_t name, size_t& index) {
  for (size_t i = 0; i < s.children.size(); i++)
    if (s.children[i].name == name) {
      index = i;
      return &s.children[i];
    }
  return nullptr;
}

void terminate_supervisor(World& w, int32_t slot);

// §7.5: the supervisor ends a running child with reason shutdown; no reaction,
// no failure, nothing counted (OTP: shutdown/2 after unlinking the child).
void terminate_child(World& w, ChildEntry& c) {
  if (!c.running) return;
  c.running = false;
  if (c.is_sup) terminate_supervisor(w, c.sup_slot);
  else end_process(w, c.proc, "shutdown");
}

// Terminates the running children among [from, end) in reverse start order, as
// OTP's terminate_children/2 walks them (the child that just exited is not running).
void terminate_children(World& w, int32_t slot, size_t from) {
  auto& cs = w.sups[slot].children;
  for (size_t i = cs.size(); i-- > from;) terminate_child(w, cs[i]);
}

// §7.5 for a child supervisor: its children first, then itself; its dynamic
// children are gone with this incarnation.
void terminate_supervisor(World& w, int32_t slot) {
  terminate_children(w, slot, 0);
  Supervisor& s = w.sups[slot];
  s.alive = false;
  s.children.clear();
  Event e{EventKind::Exit, w.turn};
  e.name = s.name;
  e.reason = intern_name(w, "shutdown");
  journal(w, std::move(e));
}

// Starts (or restarts) one entry of the child list (§6.7, §7.3).
void start_child(World& w, int32_t slot, size_t index) {
  ChildEntry c = w.sups[slot].children[index];
  if (c.is_sup) start_supervisor(w, c.sup_slot);
  else start_process(w, c.proc);
  w.sups[slot].children[index].running = true;
}

// OTP terminate_children/2 drops temporary children: they are never restarted.
// (The child being restarted is permanent or transient, so it stays.)
void remove_temporaries(Supervisor& s, size_t from) {
  std::vector<ChildEntry> kept(s.children.begin(), s.children.begin() + static_cast<long>(from));
  for (size_t i = from; i < s.children.size(); i++)
    if (s.children[i].restart != Restart::Temporary) kept.push_back(s.children[i]);
  s.children = std::move(kept);
}

// §7.3 one_for_all / rest_for_one: terminate every running entry from `from`
// on (reverse order), drop temporaries, start them all again in start order.
void restart_from(World& w, int32_t slot, size_t from) {
  terminate_children(w, slot, from);
  remove_temporaries(w.sups[slot], from);
  for (size_t i = from; i < w.sups[slot].children.size(); i++) start_child(w, slot, i);
}

// §7.4: the supervisor gives up; to its parent it is a child that exited with
// reason shutdown (OTP: {stop, shutdown, State} after reached_max_restart_intensity).
void give_up(World& w, int32_t slot, int32_t child) {
  journal_decision(w, slot, child, Action::GiveUp);
  terminate_supervisor(w, slot);
  int32_t parent = w.sups[slot].parent;
  if (parent >= 0) child_exited(w, parent, w.sups[slot].name, "shutdown");
}

// §7.3, §7.4: OTP restart/2 = add_restart/1, then restart/3 by strategy.
void restart(World& w, int32_t slot, size_t index) {
  Supervisor& s = w.sups[slot];
  int32_t child = s.children[index].name;
  s.restarts++;  // one restart event counts once, however many it restarts [R8]
  if (s.restarts > s.decl->intensity) {
    give_up(w, slot, child);
    return;
  }
  journal_decision(w, slot, child, Action::Restart);
  switch (s.decl->strategy) {
    case Strategy::OneForOne: start_child(w, slot, index); return;      // [R4]
    case Strategy::OneForAll: restart_from(w, slot, 0); return;       // [R5]
    case Strategy::RestForOne: restart_from(w, slot, index); return;  // [R6]
  }
}

// Keep a transient entry, not running (OTP del_child/2 sets pid undefined) [R2];
// remove a temporary one (OTP del_child/2 deletes temporary children) [R3].
void keep_or_remove(World& w, int32_t slot, size_t index) {
  Supervisor& s = w.sups[slot];
  ChildEntry& c = s.children[index];
  if (c.restart == Restart::Temporary) {
    journal_decision(w, slot, c.name, Action::Remove);
    s.children.erase(s.children.begin() + static_cast<long>(index));
  } else {
    journal_decision(w, slot, c.name, Action::Keep);
    c.running = false;
  }
}

}  // namespace

void start_supervisor(World& w, int32_t slot) {
  Supervisor& s = w.sups[slot];
  s.alive = true;
  s.restarts = 0;
  s.children.clear();
  Event e{EventKind::Start, w.turn};
  e.name = s.name;
  e.sig = -1;
  journal(w, std::move(e));
  // Static children in declaration order, depth first (OTP start_children/2).
  for (const Child& c : s.decl->children) {
    ChildEntry entry{};
    entry.restart = c.restart;
    if (auto* pd = std::get_if<ProcessDecl>(&c.decl)) {
      entry.name = intern_name(w, pd->name);
      entry.is_sup = false;
      entry.proc = w.proc_of_name[entry.name];
      if (entry.proc < 0) {  // first start of a declared worker: it takes its id now
        std::vector<Value> args;
        for (const Expr& a : pd->args) args.push_back(a.kind == ExprKind::Int ? a.value : a.slot);
        entry.proc = create_process(w, entry.name, pd->kind_index, std::move(args), slot);
        entry.running = true;
        w.sups[slot].children.push_back(entry);
        continue;
      }
    } else {
      const SupervisorDecl& sd = std::get<SupervisorDecl>(c.decl);
      entry.name = intern_name(w, sd.name);
      entry.is_sup = true;
      entry.sup_slot = sd.index;
    }
    w.sups[slot].children.push_back(entry);
    start_child(w, slot, w.sups[slot].children.size() - 1);
  }
}

void add_dynamic_child(World& w, int32_t slot, int32_t id, Restart r) {
  ChildEntry entry{};
  entry.name = w.procs[id].name;
  entry.restart = r;
  entry.is_sup = false;
  entry.proc = id;
  entry.running = true;
  charge(w, sizeof(ChildEntry), child_text_bound(w, entry.name));
  w.sups[slot].children.push_back(entry);
}

// §7.2, OTP do_restart/3, clauses in OTP's order.
void child_exited(World& w, int32_t slot, int32_t child, const std::string& reason) {
  size_t index = 0;
  ChildEntry* c = find_child(w.sups[slot], child, index);
  // A live child of a live supervisor is always in its list (state.hpp invariants).
  if (!c) throw std::logic_error("supervisor " + w.names[w.sups[slot].name] + " has no child " + w.names[child]);
  c->running = false;
  if (c->restart == Restart::Permanent) restart(w, slot, index);  // any reason [R1]
  else if (!is_failure(reason)) keep_or_remove(w, slot, index);   // normal, shutdown
  else if (c->restart == Restart::Transient) restart(w, slot, index);
  else keep_or_remove(w, slot, index);                            // temporary, failure
}

}  // namespace concord
