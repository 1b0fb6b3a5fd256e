// oracle/supervision.cpp: OTP supervision (SPEC §7; version 2: §17.3 pending items,
// §19 starts that fail, §20 the API, §21 significant children), shaped like OTP 25's
// lib/stdlib/src/supervisor.erl (stdlib 4.2): one function decides by restart type
// and exit reason (do_restart/3), one per strategy (restart/3), intensity in
// add_restart/1, terminations in terminate_children/2 and shutdown/1, failed
// restarts retried through try_again_restart/1, significant children in
// do_auto_shutdown/2, the API in handle_call/3. Each clause cites the rule it
// mirrors; line numbers are supervisor.erl's.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include "rules.hpp"

namespace concord {
namespace {

// Whether alternative `a` of the run's dialect (dialect.hpp) applies to supervisor `slot`.
bool alt(const World& w, int32_t slot, Alt a) { return alt_on(w, a, slot); }

ChildEntry* find_child(Supervisor& s, int32_t name, size_t& index) {
  for (size_t i = 0; i < s.children.size(); i++)
    if (s.children[i].name == name) {
      index = i;
      return &s.children[i];
    }
  return nullptr;
}

void push_pending(World& w, int32_t slot, PendingItem item) {
  charge(w, sizeof(PendingItem));
  w.sups[slot].pending.push_back(item);
  w.pending_items++;
}

void clear_pending(World& w, Supervisor& s) {
  w.pending_items -= static_cast<int64_t>(s.pending.size());
  release(w, static_cast<int64_t>(s.pending.size() * sizeof(PendingItem)));
  s.pending.clear();
}

// §17.3: a child whose own exit is still pending is terminated by a reaction of its
// supervisor: its exit is consumed, unhandled (OTP: shutdown/1 L939 then
// unlink_flush/2 L971 take the dead child's 'EXIT') [R23/sibling_one_for_all].
void consume_pending_exit(World& w, int32_t slot, int32_t child) {
  std::deque<PendingItem>& q = w.sups[slot].pending;
  for (auto it = q.begin(); it != q.end(); ++it)
    if (!it->retry && it->child == child) {
      q.erase(it);
      w.pending_items--;
      release(w, sizeof(PendingItem));
      return;
    }
}

void terminate_supervisor(World& w, int32_t slot);

// §7.5, OTP do_terminate/2 and shutdown/1: the supervisor ends a running child
// with reason shutdown; its exit is the supervisor's own doing: no reaction, no
// decision, nothing counted [R12]. A child that is not running (undefined, or
// restarting) is left alone. §16.6: a worker that traps exits and is blocked cannot
// take its parent's exit signal, and is killed when the shutdown time runs out [R50].
void do_terminate(World& w, int32_t slot, ChildEntry& c) {
  c.restarting = false;
  if (!c.running) return;
  c.running = false;
  if (c.is_sup) {
    if (w.sups[c.sup_slot].alive)
      terminate_supervisor(w, c.sup_slot);  // its subtree first [R11]
    else
      consume_pending_exit(w, slot, c.name);  // it shut itself down meanwhile
    return;
  }
  Process& p = w.procs[c.proc];
  if (!p.alive) {
    consume_pending_exit(w, slot, c.name);
    return;
  }
  bool killed = p.trap && (p.blocked || p.wait);
  exit_worker(w, c.proc, killed ? w.words.killed : w.words.shutdown, ExitCause::BySupervisor);
}

// Alternative DynsupTerminatesInMapOrder (dialect.hpp): Elixir's DynamicSupervisor
// ends its children in the order of its children map, by pid: oldest incarnation
// first; past 32 entries a map's order is its hash order, left free.
void terminate_in_map_order(World& w, int32_t slot) {
  std::vector<ChildEntry>& cs = w.sups[slot].children;
  std::vector<size_t> order, spec;
  size_t in_map = 0;
  for (size_t i = cs.size(); i-- > 0;) {
    if (cs[i].running || cs[i].restarting) in_map++;
    if (cs[i].running) spec.push_back(i);
  }
  order = spec;
  auto age = [&](size_t i) { return cs[i].is_sup ? 0 : w.procs[cs[i].proc].started; };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return age(a) < age(b); });
  if (order != spec) took(w, Alt::DynsupTerminatesInMapOrder);
  size_t begin = w.journal.size();
  for (size_t i : order) do_terminate(w, slot, cs[i]);
  if (in_map > 32 && w.journal.size() - begin > 1) {
    w.unordered.push_back(UnorderedSpan{begin, w.journal.size()});
    took(w, Alt::DynsupTerminatesInMapOrder);
  }
}

// OTP terminate_children/2: the entries from `from` on, in reverse start order.
void terminate_children(World& w, int32_t slot, size_t from) {
  if (from == 0 && alt(w, slot, Alt::DynsupTerminatesInMapOrder)) return terminate_in_map_order(w, slot);
  std::vector<ChildEntry>& cs = w.sups[slot].children;
  if (alt(w, slot, Alt::TerminateInStartOrder)) {  // oldest first
    if (std::count_if(cs.begin() + static_cast<long>(from), cs.end(), [](const ChildEntry& c) { return c.running; }) >
        1)
      took(w, Alt::TerminateInStartOrder);
    for (size_t i = from; i < cs.size(); i++) do_terminate(w, slot, cs[i]);
    return;
  }
  for (size_t i = cs.size(); i-- > from;) do_terminate(w, slot, cs[i]);
}

// §7.5 for a child supervisor (and §7.4, §21, §19.2 for the supervisor itself): its
// children first, then itself; its dynamic children and pending items are gone
// with this incarnation (§17.1).
void terminate_supervisor(World& w, int32_t slot) {
  terminate_children(w, slot, 0);
  Supervisor& s = w.sups[slot];
  s.alive = false;
  s.children.clear();
  clear_pending(w, s);
  if (w.observer) w.observer->supervisor_exited(w, slot);
  Event e{EventKind::Exit, w.turn};
  e.name = s.name;
  e.reason = w.words.shutdown;
  journal(w, std::move(e));
}

// Starts (or restarts) one entry of the child list in place (§6.7, §7.3, §19.1).
Started start_entry(World& w, int32_t slot, size_t index) {
  ChildEntry c = w.sups[slot].children[index];
  Started r = c.is_sup ? start_supervisor(w, c.sup_slot) : start_worker(w, c.proc);
  w.sups[slot].children[index].running = r == Started::Ok;
  return r;
}

// OTP terminate_children/2 drops temporary children: they are never restarted.
// (The child being restarted is permanent or transient, so it stays.)
void remove_temporaries(World& w, int32_t slot, size_t from) {
  Supervisor& s = w.sups[slot];
  if (std::any_of(s.children.begin() + static_cast<long>(from), s.children.end(),
                  [](const ChildEntry& c) { return c.restart == Restart::Temporary; }) &&
      took_if(w, Alt::OneForAllKeepsTemporaries, slot))
    return;  // started again with the others
  std::vector<ChildEntry> kept(s.children.begin(), s.children.begin() + static_cast<long>(from));
  for (size_t i = from; i < s.children.size(); i++)
    if (s.children[i].restart != Restart::Temporary) kept.push_back(s.children[i]);
  s.children = std::move(kept);
}

void shut_down(World& w, int32_t slot, int32_t child, Action a);

// §19.3, OTP try_again_restart/1 L876: a failed restart is tried again later, as a
// message the supervisor sends itself (after what it has pending already).
void restart_failed(World& w, int32_t slot, size_t index) {
  ChildEntry& c = w.sups[slot].children[index];
  if (took_if(w, Alt::FailedRestartGivesUp, slot)) return shut_down(w, slot, c.name, Action::GiveUp);
  c.restarting = true;
  push_pending(w, slot, PendingItem{true, c.name, -1});
}

// §7.3 one_for_all / rest_for_one, OTP restart_multiple_children/3 L858: terminate
// every running entry from `from` on (reverse order), drop temporaries, start them
// all again in start order. A start that fails stops the pass: the later entries
// stay not running, the failed one is restarting (§19.3) [R36]; an ignored one
// stays not running and the pass goes on [R37].
void restart_multiple(World& w, int32_t slot, size_t from) {
  terminate_children(w, slot, from);
  remove_temporaries(w, slot, from);
  size_t n = w.sups[slot].children.size();
  if (n - from > 1 && took_if(w, Alt::RestartInReverseOrder, slot)) {  // newest first
    for (size_t i = n; i-- > from;)
      if (start_entry(w, slot, i) == Started::Failed) return restart_failed(w, slot, i);
    return;
  }
  for (size_t i = from; i < w.sups[slot].children.size(); i++)
    if (start_entry(w, slot, i) == Started::Failed) {
      restart_failed(w, slot, i);
      return;
    }
}

// One child started again in place; a failed start is retried later [R35]. In a
// dialect (dialect.hpp), a DynamicSupervisor's restarted child comes last (a new
// pid, before any child its init spawns), and an ignored restart removes it.
void restart_one(World& w, int32_t slot, size_t index) {
  std::vector<ChildEntry>& cs = w.sups[slot].children;
  size_t at = index;
  Alt moves = alt(w, slot, Alt::DynsupRestartMovesLast) ? Alt::DynsupRestartMovesLast : Alt::RestartMovesLast;
  if (alt(w, slot, moves) && index + 1 < cs.size()) {
    std::rotate(cs.begin() + static_cast<long>(index), cs.begin() + static_cast<long>(index) + 1, cs.end());
    at = cs.size() - 1;
  }
  Started r = start_entry(w, slot, at);
  std::vector<ChildEntry>& now = w.sups[slot].children;
  if (r == Started::Failed && at != index) {  // restarting under its old pid: its old place
    ChildEntry c = now[at];
    now.erase(now.begin() + static_cast<long>(at));
    now.insert(now.begin() + static_cast<long>(index), c);
    at = index;
  }
  if (at != index) took(w, moves);
  if (r == Started::Failed) {
    restart_failed(w, slot, at);
  } else if (r == Started::Ignored && alt(w, slot, Alt::DynsupKeepsNoStoppedChild)) {
    now.erase(now.begin() + static_cast<long>(at));
    took(w, Alt::DynsupKeepsNoStoppedChild);
  }
}

// The supervisor shuts down: it gives up (§7.4) or shuts itself down (§21). The
// decision is journaled for the child that caused it, the running children are
// terminated in reverse start order, and the supervisor exits with shutdown: to its
// own supervisor a child that exited by itself (OTP: {stop, shutdown, State}).
void shut_down(World& w, int32_t slot, int32_t child, Action a) {
  journal_decision(w, slot, child, a);
  terminate_supervisor(w, slot);
  int32_t parent = w.sups[slot].parent;
  if (parent < 0 || !w.sups[parent].alive) return;
  if (a == Action::GiveUp && took_if(w, Alt::GiveUpUnreported, parent)) return;  // listed as running
  int32_t reason = w.words.shutdown;
  size_t at = 0;
  const ChildEntry* me = find_child(w.sups[parent], w.sups[slot].name, at);
  if (a == Action::GiveUp && me && me->restart == Restart::Transient && took_if(w, Alt::GiveUpIsAbnormal, parent))
    reason = w.words.killed;  // any abnormal reason
  add_pending_exit(w, parent, w.sups[slot].name, reason);
}

// The strategy a restart follows in the run's dialect (OneForAllRestartsOne,
// RestForOneRestartsAll, RestForOneRestartsOne).
Strategy strategy_in_dialect(World& w, int32_t slot, size_t index) {
  const std::vector<ChildEntry>& cs = w.sups[slot].children;
  switch (w.sups[slot].decl->strategy) {
    case Strategy::OneForOne: return Strategy::OneForOne;
    case Strategy::OneForAll:
      if (cs.size() > 1 && took_if(w, Alt::OneForAllRestartsOne, slot)) return Strategy::OneForOne;
      return Strategy::OneForAll;
    case Strategy::RestForOne:
      if (index > 0 && took_if(w, Alt::RestForOneRestartsAll, slot)) return Strategy::OneForAll;
      if (index + 1 < cs.size() && took_if(w, Alt::RestForOneRestartsOne, slot)) return Strategy::OneForOne;
      return Strategy::RestForOne;
  }
  return Strategy::OneForOne;
}

// What a restart adds to the count of restarts (IntensityPerChild: the children it starts again).
int64_t restarts_in_dialect(World& w, int32_t slot, size_t index, Strategy strategy) {
  if (strategy == Strategy::OneForOne || !alt(w, slot, Alt::IntensityPerChild)) return 1;
  const std::vector<ChildEntry>& cs = w.sups[slot].children;
  size_t from = strategy == Strategy::OneForAll ? 0 : index;
  int64_t n = std::count_if(cs.begin() + static_cast<long>(from), cs.end(),
                            [](const ChildEntry& c) { return c.restart != Restart::Temporary; });
  if (n > 1) took(w, Alt::IntensityPerChild);
  return std::max<int64_t>(n, 1);
}

// MaxR in the run's dialect (IntensityOneLate, IntensityOneEarly).
int64_t intensity_in_dialect(World& w, int32_t slot) {
  const Supervisor& s = w.sups[slot];
  int64_t max = s.decl->intensity;
  if (s.restarts == max + 1 && took_if(w, Alt::IntensityOneLate, slot)) return max + 1;
  if (s.restarts == max && max > 0 && took_if(w, Alt::IntensityOneEarly, slot)) return max - 1;
  return max;
}

// §7.3, §7.4: OTP restart/2 L789 = add_restart/1, then restart/3 by strategy.
void restart(World& w, int32_t slot, size_t index) {
  Supervisor& s = w.sups[slot];
  int32_t child = s.children[index].name;
  Strategy strategy = w.dialect.empty() ? s.decl->strategy : strategy_in_dialect(w, slot, index);
  // One restart counts once, however many it restarts [R8]; a retry counts too [R35].
  s.restarts += w.dialect.empty() ? 1 : restarts_in_dialect(w, slot, index, strategy);
  if (s.restarts > (w.dialect.empty() ? s.decl->intensity : intensity_in_dialect(w, slot))) {
    shut_down(w, slot, child, Action::GiveUp);  // [R7]
    return;
  }
  bool late = alt(w, slot, Alt::DecisionAfterRestart);
  size_t before = w.journal.size();
  if (!late) journal_decision(w, slot, child, Action::Restart);
  switch (strategy) {
    case Strategy::OneForOne:  // restart(one_for_one, ...) L835 [R4]
      s.children[index].restarting = false;
      restart_one(w, slot, index);
      break;
    case Strategy::OneForAll:  // restart(one_for_all, ...) L853: del_child, then all [R5]
      s.children[index].running = false;
      restart_multiple(w, slot, 0);
      break;
    case Strategy::RestForOne:  // restart(rest_for_one, ...) L849: split_child/2 [R6]
      restart_multiple(w, slot, index);
      break;
  }
  if (!late) return;
  if (w.journal.size() > before) took(w, Alt::DecisionAfterRestart);
  journal_decision(w, slot, child, Action::Restart);
}

// OTP do_auto_shutdown/2 L755 after del_child/2 L1125: a significant child that is
// not restarted shuts its supervisor down, under any_significant always [R46], under
// all_significant when no other significant child runs (a restarting one counts as
// running) [R47]; otherwise the entry is kept not running [R2] or, temporary,
// removed [R3]. Nothing is counted toward intensity.
void del_child(World& w, int32_t slot, size_t index) {
  Supervisor& s = w.sups[slot];
  ChildEntry c = s.children[index];
  bool remove = c.restart == Restart::Temporary;
  if (c.restart == Restart::Transient &&
      (took_if(w, Alt::DynsupRemovesTransient, slot) || took_if(w, Alt::TransientRemovedOnNormal, slot)))
    remove = true;
  if (remove)
    s.children.erase(s.children.begin() + static_cast<long>(index));
  else
    s.children[index].running = false;
  bool shut = false, others = false;  // others: another significant child runs
  for (const ChildEntry& o : s.children)
    if (o.significant && (o.running || o.restarting)) others = true;
  if (c.significant) switch (s.decl->auto_shutdown) {
      case AutoShutdown::Never: break;
      case AutoShutdown::AnySignificant: shut = !(others && took_if(w, Alt::AnySignificantAsAll, slot)); break;
      case AutoShutdown::AllSignificant: shut = !others || took_if(w, Alt::AllSignificantAsAny, slot); break;
    }
  if (shut)
    shut_down(w, slot, c.name, Action::AutoShutdown);
  else
    journal_decision(w, slot, c.name, remove ? Action::Remove : Action::Keep);
}

// The restart types' alternatives: a child SPEC does not restart that is restarted
// (TransientRestartedOnNormal, ShutdownIsAbnormal, TemporaryRestarted), and one SPEC
// restarts that is not (PermanentAsTransient).
bool restart_in_dialect(World& w, int32_t slot, const ChildEntry& c, int32_t reason) {
  bool abnormal = is_abnormal(w, reason);
  switch (c.restart) {
    case Restart::Permanent: return false;
    case Restart::Transient:
      return !abnormal && ((reason == w.words.shutdown && took_if(w, Alt::ShutdownIsAbnormal, slot)) ||
                           took_if(w, Alt::TransientRestartedOnNormal, slot));
    case Restart::Temporary: return abnormal && took_if(w, Alt::TemporaryRestarted, slot);
  }
  return false;
}
bool keep_in_dialect(World& w, int32_t slot, const ChildEntry& c, int32_t reason) {
  return c.restart == Restart::Permanent && !is_abnormal(w, reason) && took_if(w, Alt::PermanentAsTransient, slot);
}

// §7.2, OTP do_restart/3 L735-L750, clauses in OTP's order.
void do_restart(World& w, int32_t slot, size_t index, int32_t reason) {
  ChildEntry& c = w.sups[slot].children[index];
  c.running = false;
  if (!w.dialect.empty() && restart_in_dialect(w, slot, c, reason))
    restart(w, slot, index);
  else if (!w.dialect.empty() && keep_in_dialect(w, slot, c, reason))
    del_child(w, slot, index);
  else if (c.restart == Restart::Permanent)
    restart(w, slot, index);  // any reason [R1]
  else if (!is_abnormal(w, reason))
    del_child(w, slot, index);  // normal, shutdown
  else if (c.restart == Restart::Transient)
    restart(w, slot, index);  // abnormal [R2]
  else
    del_child(w, slot, index);  // temporary, abnormal [R3]
}

// A pending exit (OTP handle_info({'EXIT', ...}) L608 via restart_child/3 L727): of
// a child no longer in the list, dropped (find_child_and_args finds nothing).
void handle_exit(World& w, int32_t slot, const PendingItem& item) {
  size_t index = 0;
  ChildEntry* c = find_child(w.sups[slot], item.child, index);
  if (!c || !c->running) return;
  do_restart(w, slot, index, item.reason);
}

// A retry (OTP handle_cast({try_again_restart, Id}) L577): a restart like any other
// if the child is still restarting [R35, R36].
void handle_retry(World& w, int32_t slot, const PendingItem& item) {
  size_t index = 0;
  ChildEntry* c = find_child(w.sups[slot], item.child, index);
  if (!c || !c->restarting) return;
  restart(w, slot, index);
}

}  // namespace

// §6.7, §19.2; OTP init/1 L328 -> init_children/2 L346 -> start_children/2 L381.
// The static children start in declaration order (depth first); an ignored one
// stays not running (a temporary one is not kept) [R34/ignore]; when one fails, the
// later ones are not started, those started are terminated in reverse order and the
// supervisor exits with shutdown: its start failed [R34/stop, R34/nested].
Started start_supervisor(World& w, int32_t slot) {
  Supervisor& s = w.sups[slot];
  s.alive = true;
  s.restarts = 0;
  s.children.clear();
  clear_pending(w, s);
  if (w.observer) w.observer->supervisor_started(w, slot);
  Event e{EventKind::Start, w.turn};
  e.name = s.name;
  e.sig = -1;
  journal(w, std::move(e));
  for (const Child& c : s.decl->children) {
    ChildEntry entry{};
    entry.restart = c.restart;
    entry.significant = c.significant;
    if (auto* pd = std::get_if<ProcessDecl>(&c.decl)) {
      entry.name = intern_name(w, pd->name);
      entry.is_sup = false;
      entry.proc = w.proc_of_name[entry.name];
      if (entry.proc < 0) {  // first start of a declared worker: it takes its id now
        std::vector<Value> args;
        for (const Expr& a : pd->args) args.push_back(a.kind == ExprKind::Int ? a.value : a.slot);
        entry.proc = new_process(w, entry.name, pd->kind_index, std::move(args), slot);
      }
    } else {
      const SupervisorDecl& sd = std::get<SupervisorDecl>(c.decl);
      entry.name = intern_name(w, sd.name);
      entry.is_sup = true;
      entry.sup_slot = sd.index;
    }
    std::vector<ChildEntry>& children = w.sups[slot].children;
    children.push_back(entry);
    Started r = start_entry(w, slot, children.size() - 1);
    if (r == Started::Ignored && entry.restart == Restart::Temporary && !took_if(w, Alt::IgnoredTemporaryKept))
      children.pop_back();
    if (r == Started::Failed) {
      terminate_supervisor(w, slot);
      return Started::Failed;
    }
  }
  return Started::Ok;
}

// §7.6, §19.4; OTP handle_start_child/2 L703: a failed start adds nothing; an
// ignored one is kept not running, unless temporary [R38].
void add_dynamic_child(World& w, int32_t slot, int32_t id, Restart r, bool significant, Started how) {
  if (r != Restart::Permanent && took_if(w, Alt::SpawnUnderIsPermanent)) r = Restart::Permanent;
  if (how == Started::Failed ||
      (how == Started::Ignored && r == Restart::Temporary && !took_if(w, Alt::IgnoredTemporaryKept)))
    return;
  if (how == Started::Ignored && alt(w, slot, Alt::DynsupKeepsNoStoppedChild)) {
    took(w, Alt::DynsupKeepsNoStoppedChild);
    return;
  }
  ChildEntry entry{};
  entry.name = w.procs[id].name;
  entry.restart = r;
  entry.is_sup = false;
  entry.proc = id;
  entry.running = how == Started::Ok;
  entry.significant = significant;
  charge(w, sizeof(ChildEntry), child_text_bound(w, entry.name));
  w.sups[slot].children.push_back(entry);
}

void add_pending_exit(World& w, int32_t slot, int32_t child, int32_t reason) {
  push_pending(w, slot, PendingItem{false, child, reason});
}

// §17.3: the supervisor handles its pending items in the order they came, its own
// retries included, until none is left or it has exited (which drops the rest).
void handle_pending(World& w, int32_t slot) {
  Supervisor& s = w.sups[slot];
  while (s.alive && !s.pending.empty()) {
    PendingItem item = s.pending.front();
    s.pending.pop_front();
    w.pending_items--;
    release(w, sizeof(PendingItem));
    if (w.observer) {
      if (item.retry)
        w.observer->retry_handled(w, slot, item.child);
      else
        w.observer->exit_handled(w, slot, item.child, item.reason);
    }
    if (item.retry)
      handle_retry(w, slot, item);
    else
      handle_exit(w, slot, item);
  }
}

namespace {

ApiResult started_result(Started r) {
  switch (r) {
    case Started::Ok: return ApiResult::Ok;
    case Started::Ignored: return ApiResult::Ignored;
    case Started::Failed: return ApiResult::Failed;
  }
  return ApiResult::Failed;
}

// The API's alternatives (dialect.hpp): a DynamicSupervisor answers from its running
// children only, and has no restart_child or delete_child to act with. nullopt: the
// rule of SPEC answers.
std::optional<ApiResult> api_in_dialect(World& w, int32_t slot, ApiOp op, const ChildEntry& c) {
  Alt a = op == ApiOp::RestartChild ? Alt::DynsupRestartChildNotFound : Alt::DynsupApiNotFound;
  if (!alt(w, slot, a)) return std::nullopt;
  if (c.running) return op == ApiOp::TerminateChild ? std::nullopt : std::optional(ApiResult::Running);
  // terminate_child finds a restarting child by its old pid, still a key of the map.
  if (c.restarting && op == ApiOp::TerminateChild) return std::nullopt;
  took(w, a);
  return ApiResult::NotFound;
}

}  // namespace

// §20, OTP handle_call/3 for {terminate_child, Id} L466, {restart_child, Id} L479,
// {delete_child, Id} L504. Nothing here is counted or decided, and no auto_shutdown
// follows [R40, R41, R42, R48/terminate_child]. `restarting` cannot be answered:
// nothing is pending at a supervisor when a statement runs (§17.2) [R43].
ApiResult api_request(World& w, int32_t slot, ApiOp op, int32_t child) {
  size_t index = 0;
  ChildEntry* c = find_child(w.sups[slot], child, index);
  if (!c) return ApiResult::NotFound;
  if (std::optional<ApiResult> other = api_in_dialect(w, slot, op, *c)) return *other;
  switch (op) {
    case ApiOp::TerminateChild: {
      if (c->running && c->significant && took_if(w, Alt::TerminateChildIsExit, slot)) {
        do_terminate(w, slot, *c);
        del_child(w, slot, index);  // as if it had exited by itself
        return ApiResult::Ok;
      }
      do_terminate(w, slot, *c);  // a child supervisor with its subtree [R11]
      std::vector<ChildEntry>& cs = w.sups[slot].children;
      bool remove = cs[index].restart == Restart::Temporary;  // del_child
      if (remove && took_if(w, Alt::TerminateChildKeepsTemporary, slot)) remove = false;
      if (!remove && took_if(w, Alt::DynsupKeepsNoStoppedChild, slot)) remove = true;
      if (remove) cs.erase(cs.begin() + static_cast<long>(index));
      return ApiResult::Ok;
    }
    case ApiOp::RestartChild: {
      if (c->running && !c->is_sup && took_if(w, Alt::RestartChildOfRunning, slot)) {
        w.live--;  // started again in place: the old incarnation's place is the new one's
        return started_result(start_entry(w, slot, index));
      }
      if (c->running) return ApiResult::Running;
      if (c->restarting) return ApiResult::Restarting;
      if (took_if(w, Alt::RestartChildCounted, slot)) {  // taken as a restart: decided and counted
        w.sups[slot].restarts++;
        journal_decision(w, slot, c->name, Action::Restart);
      }
      return started_result(start_entry(w, slot, index));  // in place, not counted, not retried [R39, R41]
    }
    case ApiOp::DeleteChild: {
      if (c->running && took_if(w, Alt::DeleteChildOfRunning, slot)) {  // it runs on, unsupervised
        w.sups[slot].children.erase(w.sups[slot].children.begin() + static_cast<long>(index));
        return ApiResult::Ok;
      }
      if (c->running) return ApiResult::Running;
      if (c->restarting) return ApiResult::Restarting;
      if (took_if(w, Alt::DeleteChildKeepsEntry)) return ApiResult::Ok;
      std::vector<ChildEntry>& cs = w.sups[slot].children;
      cs.erase(cs.begin() + static_cast<long>(index));  // [R42]
      return ApiResult::Ok;
    }
  }
  return ApiResult::NotFound;
}

}  // namespace concord
