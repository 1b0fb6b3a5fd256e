// oracle/exec.cpp: expressions (SPEC §5) and statements (SPEC §6; version 2: §16.2,
// §18, §19.4, §20), one function per statement kind. A body runs from an explicit
// stack of cursors (the Activation), so a handler that waits in a call (§18.1) can
// go on later where it stopped. A handler ends early by throwing HandlerEnd,
// caught in one place (finish), where the process exits with the carried reason.
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "dialect_rules.hpp"
#include "eval.hpp"
#include "memory.hpp"
#include "operator_log.hpp"
#include "rules.hpp"

namespace concord {
namespace {

// §11: the time bound, counted in statements (memory.hpp).
void count_steps(World& w, int64_t n) {
  w.steps += n;
  if (w.steps > w.step_limit)
    throw OutOfSteps("the run needs more than the oracle's limit of " + std::to_string(w.step_limit) +
                     " statements (at turn " + std::to_string(w.turn) + "; $" + kOracleStepsVariable + " sets it)");
}

// The running code: its process (one incarnation: a signal may end it while it is
// blocked, §16.6) and its activation.
struct Frame {
  World& w;
  int32_t id;
  Process& p;
  uint32_t inc;
  Activation& a;

  // What eval() (eval.hpp) reads and how it fails.
  Value var(const Expr& e) const {
    switch (e.scope) {
      case Scope::Param: return p.params[e.slot];
      case Scope::Field: return p.state[e.slot];
      case Scope::Arg: return a.args[e.slot];
    }
    return 0;
  }
  Value self() const { return p.name; }
  [[noreturn]] void div_zero() const { throw HandlerEnd{w.words.DIV_ZERO}; }
  void computed(const Expr& e, Value x, Value y) const {
    if (operator_log && operator_log->size() <= kOperatorLogCap) [[unlikely]]
      operator_log->push_back({e.op, x, y, e.args[0].type == Type::Int && e.args.back().type == Type::Int});
  }
  std::optional<Value> in_dialect(Op op, Value x, Value y) const {
    return w.dialect.empty() ? std::nullopt : value_in_dialect(w, op, x, y);
  }
};

// An activation of the world's pool for the code about to run, given back when it
// ends (also when it ends by an exception).
class ActivationScope {
 public:
  explicit ActivationScope(World& w) : w_(w) {
    if (w.act_depth == w.acts.size()) {
      // Handlers nest at most two deep (a handler, and inside its spawn or API
      // statement an init); growing past the reserve would move the outer ones.
      if (w.acts.size() == w.acts.capacity()) throw std::logic_error("activations nested too deep");
      w.acts.emplace_back();
    }
    Activation& a = w.acts[w.act_depth++];
    a.stack.clear();
    a.args.clear();
    a.serving = -1;
    a.serving_inc = 0;
    a.self_exit = -1;
    a_ = &a;
  }
  ~ActivationScope() { w_.act_depth--; }
  Activation& get() { return *a_; }

 private:
  World& w_;
  Activation* a_;
};

[[noreturn]] void fail_with(int32_t reason) { throw HandlerEnd{reason}; }

std::vector<Value> eval_all(const Frame& f, const std::vector<Expr>& es, size_t from = 0) {
  std::vector<Value> out;
  out.reserve(es.size() - from);
  for (size_t i = from; i < es.size(); i++) out.push_back(eval(f, es[i]));
  return out;
}

bool still_here(const Frame& f) { return f.p.alive && f.p.incarnation == f.inc; }

// The live process a name names, or -1.
int32_t live_process(const World& w, Value name) {
  int32_t id = w.proc_of_name[static_cast<size_t>(name)];
  return id >= 0 && w.procs[id].alive ? id : -1;
}

// The live process a call names: in the dialect RestartUnbindsName, a restarted one
// is not found.
int32_t callee_process(World& w, Value name) {
  int32_t id = live_process(w, name);
  if (id >= 0 && w.procs[id].incarnation > 1 && alt_on(w, Alt::RestartUnbindsName)) {
    took(w, Alt::RestartUnbindsName);
    return -1;
  }
  return id;
}

// §16.6, §17.2: the run settles inside a blocking statement (a spawn, an API
// statement) with the worker blocked (since `blocked` was raised); if a signal
// ended it meanwhile (its exit reset `blocked`), its handler ends there.
void settle_blocked(const Frame& f) {
  settle(f.w);
  if (!still_here(f)) throw HandlerEnd{-1, true};
  f.p.blocked--;
}

// §16.4: a message `exit(from, why)` or `down(who, why)` in the running worker's own mailbox.
void own_system_message(const Frame& f, int32_t sig, Value from, int32_t reason) {
  if (f.w.observer) f.w.observer->own_message(f.w, f.id);
  append_message(f.w, f.id, Message{static_cast<int32_t>(from), sig, {from, reason}});
}

// --- version 1 statements --------------------------------------------------------

// §6.1
void exec_assign(const Frame& f, const Stmt& s) { f.p.state[s.slot] = eval(f, s.exprs[0]); }

// §6.5
void exec_send(const Frame& f, const Stmt& s) {
  Value to = eval(f, s.exprs[0]);
  std::vector<Value> args = eval_all(f, s.exprs, 1);
  int32_t from = f.p.name;
  if (f.id == f.w.spawning && took_if(f.w, Alt::InitSendsAsSpawner)) from = f.w.spawner;
  send_message(f.w, from, static_cast<int32_t>(to), s.slot, std::move(args));
}

// The number of a kind's n-th spawn in the run's dialect (SpawnNumberPerProgram,
// SpawnNumberFromZero); the spawned names are noted for SpawnDigitsReversed.
int64_t spawn_number_in_dialect(World& w, int64_t n) {
  int64_t all = ++w.spawned_all, out = n;
  if (alt_on(w, Alt::SpawnNumberPerProgram)) out = all;
  if (alt_on(w, Alt::SpawnNumberFromZero)) out -= 1;
  if (out != n) took(w, alt_on(w, Alt::SpawnNumberPerProgram) ? Alt::SpawnNumberPerProgram : Alt::SpawnNumberFromZero);
  return out;
}

std::string spawned_name(const std::string& kind, int64_t n) {
  std::string s;
  for (char c : kind) s += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return s + "-" + std::to_string(n);
}

// §6.6; version 2: §19.4 (a start that fails or is ignored does not fail the
// spawner, and the name is consumed), then the run settles with the spawner blocked.
void exec_spawn(const Frame& f, const Stmt& s) {
  World& w = f.w;
  std::vector<Value> args = eval_all(f, s.exprs);
  bool full = w.live >= w.run.max_processes;
  if (!full && alt_on(w, Alt::LimitCountsDead) && static_cast<int64_t>(w.procs.size()) >= w.run.max_processes) {
    took(w, Alt::LimitCountsDead);
    full = true;
  }
  if (!full && alt_on(w, Alt::LimitCountsSupervisors) &&
      w.live + std::count_if(w.sups.begin(), w.sups.end(), [](const Supervisor& x) { return x.alive; }) >=
          w.run.max_processes) {
    took(w, Alt::LimitCountsSupervisors);
    full = true;
  }
  if (full && w.live == w.run.max_processes && alt_on(w, Alt::ProcessLimitOneLate)) {
    took(w, Alt::ProcessLimitOneLate);
    full = false;
  }
  int32_t refused = full ? w.words.SYSTEM_LIMIT : s.slot3 >= 0 && !w.sups[s.slot3].alive ? w.words.NOPROC : -1;
  if (refused >= 0) {
    if (w.observer) w.observer->spawn_refused(w, f.id, refused);
    fail_with(refused);
  }
  int64_t n = ++w.spawned[s.slot];
  if (!w.dialect.empty()) n = spawn_number_in_dialect(w, n);
  int32_t name = intern_name(w, spawned_name(w.prog.kinds[s.slot].name, n));
  if (alt_on(w, Alt::SpawnDigitsReversed)) w.spawned_names.push_back(name);
  int32_t id = new_process(w, name, s.slot, std::move(args), s.slot3);
  auto [spawner, spawning] = std::pair{w.spawner, w.spawning};  // an init may spawn in turn
  w.spawner = f.p.name;
  w.spawning = id;
  Started how = start_worker(w, id);
  w.spawner = spawner;
  w.spawning = spawning;
  if (how != Started::Ok && alt_on(w, Alt::FailedStartGivesBackName)) {  // its number is free again
    w.spawned[s.slot]--;
    w.spawned_all--;
    took(w, Alt::FailedStartGivesBackName);
  }
  if (s.slot3 >= 0) add_dynamic_child(w, s.slot3, id, s.restart, s.significant, how);
  if (w.observer) w.observer->spawned(w, f.id, id, s.slot3, static_cast<int>(how));
  f.p.blocked++;
  settle_blocked(f);
  if (s.slot2 >= 0) f.p.state[s.slot2] = name;
}

// §6.4; version 2: §16.2 `stop e`.
[[noreturn]] void exec_stop(const Frame& f, const Stmt& s) {
  fail_with(s.exprs.empty() ? f.w.words.normal : static_cast<int32_t>(eval(f, s.exprs[0])));
}

// --- version 2: links, monitors, exit signals (§16.2) ---------------------------

void exec_link(const Frame& f, const Stmt& s) {
  Value t = eval(f, s.exprs[0]);
  if (f.w.observer) f.w.observer->on_name(f.w, f.id, NameEffect::Link, static_cast<int32_t>(t), live_process(f.w, t));
  if (t == f.p.name) return;  // [R20/self]
  int32_t id = live_process(f.w, t);
  if (id >= 0) {
    link_pair(f.w, f.id, id);
    return;
  }
  if (alt_on(f.w, Alt::LinkToDeadIsSilent)) return took(f.w, Alt::LinkToDeadIsSilent);
  if (!f.p.trap || took_if(f.w, Alt::LinkToDeadFails)) fail_with(f.w.words.NOPROC);  // link/1 raises noproc [R20]
  journal_signal(f.w, SignalKind::Link, static_cast<int32_t>(t), f.p.name, f.w.words.noproc, SignalEffect::Message);
  own_system_message(f, f.w.prog.exit_sig, t, f.w.words.noproc);
}

void exec_unlink(const Frame& f, const Stmt& s) {
  Value t = eval(f, s.exprs[0]);
  int32_t id = live_process(f.w, t);
  if (f.w.observer) f.w.observer->on_name(f.w, f.id, NameEffect::Unlink, static_cast<int32_t>(t), id);
  if (id >= 0) unlink_pair(f.w, f.id, id);  // a message a link already queued stays [R21/after_queued]
}

void exec_monitor(const Frame& f, const Stmt& s) {
  Value t = eval(f, s.exprs[0]);
  if (f.w.observer)
    f.w.observer->on_name(f.w, f.id, NameEffect::Monitor, static_cast<int32_t>(t), live_process(f.w, t));
  if (t == f.p.name) return;  // allowed, never fires [R25/self]
  int32_t id = live_process(f.w, t);
  if (id >= 0) {
    const std::vector<Monitor>& held = f.p.held;
    bool holds = std::any_of(held.begin(), held.end(), [&](const Monitor& m) { return m.other == id && !m.call; });
    if (holds && took_if(f.w, Alt::MonitorTwiceOnce)) return;
    add_monitor(f.w, f.id, id, false);
    return;
  }
  if (alt_on(f.w, Alt::MonitorOfDeadIsSilent)) return took(f.w, Alt::MonitorOfDeadIsSilent);
  journal_signal(f.w, SignalKind::Down, static_cast<int32_t>(t), f.p.name, f.w.words.noproc, SignalEffect::Message);
  own_system_message(f, f.w.prog.down_sig, t, f.w.words.noproc);  // [R25/dead, R25/unknown]
}

void exec_demonitor(const Frame& f, const Stmt& s) {
  Value t = eval(f, s.exprs[0]);
  int32_t id = live_process(f.w, t);
  if (f.w.observer) f.w.observer->on_name(f.w, f.id, NameEffect::Demonitor, static_cast<int32_t>(t), id);
  if (id >= 0) remove_monitor(f.w, f.id, id, false);  // a down already queued stays [R26]
}

// §16.3, the exit signal whose receiver is its sender: it takes effect at once.
void exit_self(const Frame& f, int32_t reason) {
  World& w = f.w;
  if (reason < 0) {  // kill: untrappable [R18]
    journal_signal(w, SignalKind::Exit, f.p.name, f.p.name, -1, SignalEffect::Exit);
    exit_worker(w, f.id, w.words.killed, ExitCause::Own);
    throw HandlerEnd{-1, true};
  }
  if (f.p.trap) {
    // A supervised worker gets the message [R19/self_supervised_trapping_*] (and an
    // unsupervised one in SelfExitTrappedIsMessage).
    if (f.p.sup >= 0 || took_if(w, Alt::SelfExitTrappedIsMessage)) {
      journal_signal(w, SignalKind::Exit, f.p.name, f.p.name, reason, SignalEffect::Message);
      own_system_message(f, w.prog.exit_sig, f.p.name, reason);
    } else if (f.a.self_exit < 0) {  // an unsupervised one exits when its handler ends [R19/self_trapping_*]
      f.a.self_exit = reason;        // (the first such signal: gen_server stops at the first 'EXIT' of its parent)
    }
    return;
  }
  // Not trapping: it exits at once, with normal too [R19/self_non_trapping_normal].
  journal_signal(w, SignalKind::Exit, f.p.name, f.p.name, reason, SignalEffect::Exit);
  exit_worker(w, f.id, reason, ExitCause::Own);
  throw HandlerEnd{-1, true};
}

void exec_exit(const Frame& f, const Stmt& s) {
  Value t = eval(f, s.exprs[0]);
  int32_t reason = s.kill ? -1 : static_cast<int32_t>(eval(f, s.exprs[1]));
  if (f.w.observer) f.w.observer->on_name(f.w, f.id, NameEffect::Exit, static_cast<int32_t>(t), live_process(f.w, t));
  if (t == f.p.name) return exit_self(f, reason);
  int32_t id = live_process(f.w, t);
  if (id < 0) return;  // [R19/dead_target]
  // Queued: it takes effect when the run next settles (§16.2, §17.2).
  queue_signal(f.w, Signal{SignalKind::Exit, f.p.name, id, f.w.procs[id].incarnation, reason});
  if (f.w.observer) f.w.observer->signal_queued(f.w, f.w.signals.back(), 0);
}

// --- version 2: calls (§18.1) ------------------------------------------------------

// Returns true when the caller now waits.
bool exec_call(const Frame& f, const Stmt& s) {
  World& w = f.w;
  Value to = eval(f, s.exprs[0]);
  std::vector<Value> args = eval_all(f, s.exprs, 1);
  if (w.observer) w.observer->on_name(w, f.id, NameEffect::Call, static_cast<int32_t>(to), live_process(w, to));
  int32_t id = callee_process(w, to);
  if (!w.dialect.empty() && (to == f.p.name || id < 0)) {  // CallingSelfWaits, CallToDeadWaits
    Alt a = to == f.p.name ? Alt::CallingSelfWaits : Alt::CallToDeadWaits;
    if (alt_on(w, a)) {
      took(w, a);
      f.p.wait = std::make_unique<Wait>();
      f.p.wait->callee = -1;  // nobody: no reply ever comes
      f.p.wait->callee_name = static_cast<int32_t>(to);
      f.p.wait->bind = s.slot2;
      w.waiting++;
      return true;
    }
  }
  if (to == f.p.name) fail_with(w.words.CALLING_SELF);  // [R31/self]
  if (id < 0) {                                         // [R31/dead, R31/unknown]
    if (!took_if(w, Alt::CallToDeadUnjournaled))
      journal_signal(w, SignalKind::Call, static_cast<int32_t>(to), f.p.name, w.words.noproc, SignalEffect::Exit);
    fail_with(w.words.NOPROC);
  }
  append_message(w, id, Message{f.p.name, s.slot, std::move(args), f.id, f.p.incarnation});
  add_monitor(w, f.id, id, true);
  f.p.wait = std::make_unique<Wait>();
  f.p.wait->callee = id;
  f.p.wait->callee_name = static_cast<int32_t>(to);
  f.p.wait->bind = s.slot2;
  w.waiting++;
  return true;
}

// The first reply whose caller still waits answers it; every other does nothing.
void exec_reply(const Frame& f, const Stmt& s) {
  Value v = eval(f, s.exprs[0]);
  int32_t c = f.a.serving;
  f.a.serving = -1;
  bool answers = c >= 0;  // not reached by send, nor answered already
  if (answers) {
    const Process& caller = f.w.procs[c];
    answers = caller.alive && caller.incarnation == f.a.serving_inc && caller.wait && !caller.wait->replied &&
              caller.wait->callee == f.id;  // else the caller has gone [R29/caller_gone]
  }
  if (f.w.observer) f.w.observer->replied(f.w, f.id, answers ? c : -1);
  if (!answers) return;
  Process& caller = f.w.procs[c];
  caller.wait->replied = true;
  caller.wait->value = v;
  caller.wait->type = s.exprs[0].type;
  remove_monitor(f.w, c, f.id, true);
  mark_ready(f.w, c);
}

// --- version 2: the supervisor API (§20) ---------------------------------------------

void exec_api(const Frame& f, const Stmt& s) {
  World& w = f.w;
  int32_t child = s.exprs.empty() ? w.sups[s.slot].name : static_cast<int32_t>(eval(f, s.exprs[0]));
  if (!w.sups[s.slot3].alive) {
    if (w.observer) w.observer->api(w, f.id, s.slot3, s.api, false, ApiResult::Ok, true);
    fail_with(w.words.NOPROC);  // [R44]
  }
  f.p.blocked++;  // the caller waits for the supervisor's answer (§16.6) [R50/self_*]
  ApiResult r = api_request(w, s.slot3, s.api, child);
  if (w.observer) w.observer->api(w, f.id, s.slot3, s.api, true, r, still_here(f));
  Event e{EventKind::Api, w.turn};
  e.name = f.p.name;
  e.other = w.sups[s.slot3].name;
  e.sub = static_cast<uint8_t>(s.api);
  e.child = child;
  e.effect = static_cast<uint8_t>(r);
  journal(w, std::move(e));
  settle_blocked(f);
  if (s.slot2 >= 0) f.p.state[s.slot2] = static_cast<Value>(r);
}

// --- the body ------------------------------------------------------------------------

enum class Ended { Finished, Waiting };

// Runs the activation's stack until the body ends or waits in a call.
Ended run_code(const Frame& f) {
  std::vector<Cursor>& st = f.a.stack;
  while (!st.empty()) {
    Cursor& c = st.back();
    if (c.pc == c.body->size()) {
      if (c.left > 1) {  // §6.3: the next round
        c.left--;
        c.pc = 0;
      } else {
        st.pop_back();
      }
      continue;
    }
    if (c.pc == 0) count_steps(f.w, static_cast<int64_t>(c.body->size()));  // each round: an upper bound
    const Stmt& s = (*c.body)[c.pc++];
    switch (s.kind) {
      case StmtKind::Assign: exec_assign(f, s); break;
      case StmtKind::If: {  // §6.2
        const std::vector<Stmt>& branch = eval(f, s.exprs[0]) != 0 ? s.body : s.orelse;
        if (!branch.empty()) st.push_back(Cursor{&branch, 0, 1});
        break;
      }
      case StmtKind::Repeat:  // §6.3
        if (s.count > 0 && !s.body.empty()) st.push_back(Cursor{&s.body, 0, s.count});
        break;
      case StmtKind::Send: exec_send(f, s); break;
      case StmtKind::Spawn: exec_spawn(f, s); break;
      case StmtKind::Stop: exec_stop(f, s);
      case StmtKind::Fail: fail_with(intern_name(f.w, s.name));                // §6.4
      case StmtKind::Ignore: throw HandlerEnd{f.w.words.normal, false, true};  // §19.1
      case StmtKind::Link: exec_link(f, s); break;
      case StmtKind::Unlink: exec_unlink(f, s); break;
      case StmtKind::Monitor: exec_monitor(f, s); break;
      case StmtKind::Demonitor: exec_demonitor(f, s); break;
      case StmtKind::TrapExit: {  // §16.2; the flag at arrival counts [R17]
        Value on = eval(f, s.exprs[0]);
        f.p.trap = on != 0 || took_if(f.w, Alt::TrapExitAnyInt);
        break;
      }
      case StmtKind::Exit: exec_exit(f, s); break;
      case StmtKind::Call:
        if (exec_call(f, s)) return Ended::Waiting;
        break;
      case StmtKind::Reply: exec_reply(f, s); break;
      case StmtKind::Api: exec_api(f, s); break;
    }
  }
  return Ended::Finished;
}

// Alternative SendsLostOnFailure: the messages `from` sent since record `since`
// vanish from their mailboxes, its drop events from the journal.
void take_back_sends(World& w, int32_t from, size_t since) {
  for (size_t i = w.sent.size(); i-- > since;) {
    const World::Sent& x = w.sent[i];
    if (x.from != from) continue;
    int64_t freed = 0;
    if (x.to < 0) {
      w.journal.erase(w.journal.begin() + static_cast<long>(x.event));
    } else if (w.procs[x.to].mailbox.remove_last_from(from, freed)) {
      w.queued--;
      w.memory_used -= freed;
      mark_ready(w, x.to);
    } else {
      continue;  // it went with its receiver's exit already
    }
    took(w, Alt::SendsLostOnFailure);
  }
  w.sent.resize(since);
}

// Runs a handler (from its start, or on from a wait) to its end, and does what its
// end means: a failure or stop exits the process (§6.4); a wait keeps the
// continuation (§18.1); a trapping unsupervised worker that sent itself an exit
// signal exits now, its signal event just before its exit event (§16.3).
void run_handler(const Frame& f) {
  World& w = f.w;
  size_t sent_before = w.sent.size();  // SendsLostOnFailure: this handler's sends come after
  try {
    if (run_code(f) == Ended::Waiting) {
      f.p.wait->act = std::move(f.a);
      charge(w, wait_cost(*f.p.wait));  // held until it resumes or exits
      mark_ready(w, f.id);
      return;
    }
  } catch (const HandlerEnd& end) {
    if (!end.gone && is_abnormal(w, end.reason) && alt_on(w, Alt::SendsLostOnFailure))
      take_back_sends(w, f.p.name, sent_before);
    if (!end.gone) exit_worker(w, f.id, end.reason, ExitCause::Own);
    return;
  }
  if (f.a.serving >= 0 && alt_on(w, Alt::UnansweredCallStays))  // the next reply may answer it
    w.unanswered.push_back(World::Unanswered{f.id, f.a.serving, f.a.serving_inc});
  if (f.a.self_exit >= 0) {
    journal_signal(w, SignalKind::Exit, f.p.name, f.p.name, f.a.self_exit, SignalEffect::Exit);
    exit_worker(w, f.id, f.a.self_exit, ExitCause::Own);
    return;
  }
  // Readiness is re-marked once, after the handler: nothing reads the ready set
  // during a turn, and a process that keeps a message costs no update at all.
  mark_ready(w, f.id);
}

}  // namespace

std::vector<Value> initial_state(World& w, Process& p) {
  const Kind& k = w.prog.kinds[p.kind];
  Activation none;
  Frame f{w, w.proc_of_name[p.name], p, p.incarnation, none};
  std::vector<Value> state;
  state.reserve(k.state.size());
  for (const Field& fd : k.state) state.push_back(eval(f, fd.init));  // sees params and self only
  return state;
}

void run_init(World& w, int32_t id) {
  Process& p = w.procs[id];
  const std::vector<Stmt>& init = w.prog.kinds[p.kind].init;
  if (init.empty()) return;
  ActivationScope scope(w);
  Frame f{w, id, p, p.incarnation, scope.get()};
  f.a.stack.push_back(Cursor{&init, 0, 1});
  run_code(f);  // init has no call (§14.3 V4): it ends, or throws HandlerEnd to start_worker
}

void deliver(World& w, int32_t id, int64_t ready_count) {
  Process& p = w.procs[id];
  Message m = p.mailbox.pop_front();
  if (w.observer) w.observer->delivered(w, id, m);
  w.queued--;
  w.memory_used -= Mailbox::cost(m);  // counted again as the deliver (or call) event
  Event e{m.caller >= 0 ? EventKind::Call : EventKind::Deliver, w.turn};  // §18.1: a call message
  e.name = p.name;
  e.other = m.from;
  e.sig = m.sig;
  e.ready = ready_count;
  if (p.mailbox.empty() && took_if(w, Alt::ReadyCountedAfterPop)) e.ready--;  // its last message: counted after
  e.args = m.args;
  journal(w, std::move(e));

  const Kind& k = w.prog.kinds[p.kind];
  int32_t h = k.handler_of_sig[m.sig];
  if (alt_on(w, Alt::FinalStateBeforeLastTurn)) w.before_last[id] = p.state;
  if (h < 0 && alt_on(w, Alt::NoHandlerIgnored)) {  // discarded, the receiver lives on
    took(w, Alt::NoHandlerIgnored);
    mark_ready(w, id);
    return;
  }
  if (h < 0) {  // §6.5
    exit_worker(w, id, w.words.NO_HANDLER, ExitCause::Own);
    return;
  }
  ActivationScope scope(w);
  Activation& a = scope.get();
  a.args = std::move(m.args);
  a.serving = m.caller;
  a.serving_inc = m.caller_inc;
  if (m.caller < 0 && !w.unanswered.empty()) {  // UnansweredCallStays: a call this process left open
    auto open = std::find_if(w.unanswered.begin(), w.unanswered.end(),
                             [&](const World::Unanswered& u) { return u.callee == id; });
    if (open != w.unanswered.end()) {
      a.serving = open->caller;
      a.serving_inc = open->caller_inc;
      w.unanswered.erase(open);
      took(w, Alt::UnansweredCallStays);
    }
  }
  a.stack.push_back(Cursor{&k.handlers[h].body, 0, 1});
  run_handler(Frame{w, id, p, p.incarnation, a});
}

void resume(World& w, int32_t id, int64_t ready_count) {
  Process& p = w.procs[id];
  if (w.observer) w.observer->resumed(w, id);  // before the wait goes: it reads the reply
  std::unique_ptr<Wait> wait = std::move(p.wait);
  w.waiting--;
  Event e{EventKind::Resume, w.turn};
  e.name = p.name;
  e.other = wait->callee_name;
  e.ready = ready_count;
  e.vtype = wait->type;
  e.args = {wait->value};
  release(w, wait_cost(*wait));
  journal(w, std::move(e));
  ActivationScope scope(w);
  Activation& a = scope.get();
  a = std::move(wait->act);
  if (alt_on(w, Alt::FinalStateBeforeLastTurn)) w.before_last[id] = p.state;
  if (wait->bind >= 0) {  // the reply's type is checked when it comes (§18.1)
    if (w.prog.kinds[p.kind].state[wait->bind].type != wait->type) {
      exit_worker(w, id, w.words.BAD_REPLY, ExitCause::Own);
      return;
    }
    p.state[wait->bind] = wait->value;
  }
  run_handler(Frame{w, id, p, p.incarnation, a});
}

}  // namespace concord
