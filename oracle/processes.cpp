// oracle/processes.cpp: life and death of worker processes and message passing
// (SPEC §6.4–§6.7, §8.1; version 2: §17.1 what an exit does, §19.1 how a start ends).
#include <algorithm>

#include "memory.hpp"
#include "rules.hpp"

namespace concord {

void charge(World& w, int64_t held, int64_t text) {
  w.memory_used += held + text;
  w.text_bound += text;
  if (w.memory_used > w.memory_limit)
    throw OutOfMemory("the run needs more than the oracle's memory limit of " + size_text(w.memory_limit) +
                      " (at turn " + std::to_string(w.turn) + "; $" + kOracleMemoryVariable + " sets it)");
}

void journal(World& w, Event e) {
  charge(w, static_cast<int64_t>(sizeof(Event)) + values_bytes(e.args.size()), event_text_bound(w, e));
  w.journal.push_back(std::move(e));
}

int32_t intern_name(World& w, const std::string& name) {
  auto it = w.name_ids.find(name);
  if (it != w.name_ids.end()) return it->second;
  int32_t id = static_cast<int32_t>(w.names.size());
  charge(w, 96 + 2 * static_cast<int64_t>(name.size()));  // the string, its map node, its slot
  w.names.push_back(name);
  w.name_ids.emplace(name, id);
  w.proc_of_name.push_back(-1);
  return id;
}

// §8.2 step 2; §18.3: a waiting process is ready once its reply has come, any
// other once its mailbox is not empty.
void mark_ready(World& w, int32_t id) {
  const Process& p = w.procs[id];
  w.ready.set(id, p.alive && (p.wait ? p.wait->replied : !p.mailbox.empty()));
}

int32_t new_process(World& w, int32_t name, int32_t kind, std::vector<Value> params, int32_t sup) {
  int32_t id = static_cast<int32_t>(w.procs.size());
  w.proc_of_name[name] = id;
  Process& p = w.procs.emplace_back();
  p.name = name;
  p.kind = kind;
  p.params = std::move(params);
  p.sup = sup;
  const Kind& k = w.prog.kinds[kind];
  charge(w,
         static_cast<int64_t>(sizeof(Process) + 16) + Mailbox::kIdleBytes + values_bytes(p.params.size()) +
             values_bytes(k.state.size()),
         process_text_bound(w, p));
  return id;
}

namespace {

// Alternatives RestartKeepsMailbox and DeadNameKeepsMessages: the new incarnation
// takes the messages its name's mailbox holds.
bool keeps_mailbox(World& w, const Process& p) {
  if (p.mailbox.empty()) return false;
  if (alt_on(w, Alt::RestartKeepsMailbox)) took(w, Alt::RestartKeepsMailbox);
  return alt_on(w, Alt::RestartKeepsMailbox) || alt_on(w, Alt::DeadNameKeepsMessages);
}

// §19.1: a start that failed or was ignored: the process exits at once, an exit its
// supervisor does not handle. In a dialect, the failure's reason may be lost
// (FailedStartExitsNormal) or an ignore taken as a failure (IgnoreIsFailure).
Started failed_start(World& w, int32_t id, const HandlerEnd& end) {
  int32_t reason = end.ignore ? w.words.normal : end.reason;
  if (!end.ignore && reason != w.words.normal && alt_on(w, Alt::FailedStartExitsNormal)) {
    took(w, Alt::FailedStartExitsNormal);
    reason = w.words.normal;
  }
  bool ignored = end.ignore;
  if (ignored && alt_on(w, Alt::IgnoreIsFailure)) {
    took(w, Alt::IgnoreIsFailure);
    ignored = false;
  }
  exit_worker(w, id, reason, ExitCause::FailedStart);
  return ignored ? Started::Ignored : Started::Failed;
}

}  // namespace

// §6.7: alive with an empty mailbox, a new incarnation (no links, monitors or trap
// flag: §16.1), the `start` event, the state initialisers, then init. §19.1: a
// start fails when an initialiser or init fails or init stops; init's `ignore`
// ignores it; either way the process exits at once, an exit its supervisor does
// not handle (ExitCause::FailedStart).
Started start_worker(World& w, int32_t id) {
  Process& p = w.procs[id];
  p.alive = true;
  p.incarnation++;
  p.started = ++w.starts;
  p.trap = false;
  if (!w.dialect.empty()) {
    auto kept = std::find(w.trapped.begin(), w.trapped.end(), id);  // RestartKeepsTrap
    if (kept != w.trapped.end()) {
      w.trapped.erase(kept);
      p.trap = true;
      took(w, Alt::RestartKeepsTrap);
    }
  }
  if (w.dialect.empty() || !keeps_mailbox(w, p)) {
    w.queued -= static_cast<int64_t>(p.mailbox.size());
    w.memory_used -= p.mailbox.bytes();
    p.mailbox.clear();
  }
  w.live++;
  if (w.observer) w.observer->worker_started(w, id);
  Event e{EventKind::Start, w.turn};
  e.name = p.name;
  e.sig = p.kind;
  journal(w, std::move(e));
  try {
    std::vector<Value> fresh = initial_state(w, p);
    if (p.incarnation > 1 && p.state.size() == fresh.size() && alt_on(w, Alt::RestartKeepsState)) {
      if (p.state != fresh) took(w, Alt::RestartKeepsState);  // the last incarnation's state, kept
    } else {
      p.state = std::move(fresh);
    }
    w.before_last.erase(id);
    run_init(w, id);
  } catch (const HandlerEnd& end) {
    return failed_start(w, id, end);
  }
  mark_ready(w, id);
  return Started::Ok;
}

namespace {

// Removes, from the `side` list of every process on the other end of `mine`, each
// record of a monitor between it and `id`: one pass per process, however many
// monitors the pair has (all of them are in `mine`).
void forget_monitors(World& w, int32_t id, const std::vector<Monitor>& mine, std::vector<Monitor> Process::*side) {
  std::vector<int32_t> others;
  for (const Monitor& m : mine) others.push_back(m.other);
  std::sort(others.begin(), others.end());
  others.erase(std::unique(others.begin(), others.end()), others.end());
  for (int32_t o : others) std::erase_if(w.procs[o].*side, [&](const Monitor& x) { return x.other == id; });
}

}  // namespace

void exit_worker(World& w, int32_t id, int32_t reason, ExitCause cause) {
  Process& p = w.procs[id];
  // 1. Not alive; mailbox, state, trap flag and pending call discarded; the exit event.
  if (w.discarding) w.discarding(w, p);
  p.alive = false;
  if (!alt_on(w, Alt::RestartKeepsMailbox)) {
    w.queued -= static_cast<int64_t>(p.mailbox.size());
    w.memory_used -= p.mailbox.bytes();
    p.mailbox.clear();
  }
  if (!alt_on(w, Alt::RestartKeepsState)) p.state.clear();
  if (p.trap && alt_on(w, Alt::RestartKeepsTrap)) w.trapped.push_back(id);
  p.trap = false;
  p.blocked = 0;
  if (p.wait) {
    release(w, wait_cost(*p.wait));
    p.wait.reset();
    w.waiting--;
  }
  w.live--;
  mark_ready(w, id);
  if (w.observer) w.observer->worker_exited(w, id, reason);
  Event e{EventKind::Exit, w.turn};
  e.name = p.name;
  e.reason = reason;
  journal(w, std::move(e));
  // 2. Its links go (on both sides, in signal_links) and the monitors it held.
  release(w, kLinkCost * static_cast<int64_t>(p.links.size()) +
                 kMonitorCost * static_cast<int64_t>(p.held.size() + p.watched_by.size()));
  forget_monitors(w, id, p.held, &Process::watched_by);
  p.held.clear();
  // 3. Link signals by ascending id, then down and call signals together in the
  // order the monitors were made; those monitors go.
  auto link_signals = [&] {
    if (p.links.empty()) return;
    std::vector<int32_t> linked = std::move(p.links);
    p.links.clear();
    std::sort(linked.begin(), linked.end());
    if (linked.size() > 1 && alt_on(w, Alt::LinkSignalsDescending)) {
      std::reverse(linked.begin(), linked.end());
      took(w, Alt::LinkSignalsDescending);
    }
    bool kept = alt_on(w, Alt::RestartKeepsLinks);  // the other side keeps its link
    if (kept) took(w, Alt::RestartKeepsLinks);
    for (int32_t other : linked) {
      Process& y = w.procs[other];
      if (!kept) std::erase(y.links, id);
      queue_signal(w, Signal{SignalKind::Link, p.name, other, y.incarnation, reason});
      if (w.observer) w.observer->signal_queued(w, w.signals.back(), 0);
    }
  };
  auto monitor_signals = [&] {
    for (const Monitor& m : p.watched_by) {
      const Process& holder = w.procs[m.other];
      queue_signal(w,
                   Signal{m.call ? SignalKind::Call : SignalKind::Down, p.name, m.other, holder.incarnation, reason});
      if (w.observer) w.observer->signal_queued(w, w.signals.back(), m.number);
    }
  };
  if (!p.links.empty() && !p.watched_by.empty() && alt_on(w, Alt::DownsBeforeLinks)) {
    took(w, Alt::DownsBeforeLinks);
    monitor_signals();
    link_signals();
  } else {
    link_signals();
    monitor_signals();
  }
  forget_monitors(w, id, p.watched_by, &Process::held);
  p.watched_by.clear();
  // 4. A supervised worker's own exit is a pending exit of its supervisor.
  if (cause == ExitCause::Own && p.sup >= 0 && w.sups[p.sup].alive) add_pending_exit(w, p.sup, p.name, reason);
}

void append_message(World& w, int32_t id, Message m) {
  charge(w, Mailbox::cost(m));  // given back when it is delivered or dropped with its mailbox
  Mailbox& box = w.procs[id].mailbox;
  if (!box.empty() && alt_on(w, Alt::MailboxLifo)) {
    took(w, Alt::MailboxLifo);
    box.push_front(std::move(m));
  } else {
    box.push_back(std::move(m));
  }
  w.peak_queued = std::max(w.peak_queued, ++w.queued);
  w.deepest_mailbox = std::max(w.deepest_mailbox, static_cast<int64_t>(box.size()));
  mark_ready(w, id);
}

namespace {

// §6.5 in a dialect: true when an alternative took the message (RestartUnbindsName
// may make `live` false). SendsLostOnFailure notes each send of a handler.
bool send_in_dialect(World& w, int32_t from, int32_t id, bool& live, int32_t sig, std::vector<Value>& args) {
  if (live && w.procs[id].incarnation > 1 && alt_on(w, Alt::RestartUnbindsName)) {
    took(w, Alt::RestartUnbindsName);
    live = false;
  }
  if (from >= 0 && alt_on(w, Alt::SendsLostOnFailure))
    w.sent.push_back(World::Sent{from, live ? id : -1, w.journal.size()});
  if (live) return false;
  if (id >= 0 && alt_on(w, Alt::DeadNameKeepsMessages)) {  // waits for the name's next incarnation
    took(w, Alt::DeadNameKeepsMessages);
    charge(w, Mailbox::cost(Message{from, sig, args}));
    w.procs[id].mailbox.push_back(Message{from, sig, std::move(args)});
    w.queued++;
    return true;
  }
  if (alt_on(w, Alt::DropUnjournaled)) {
    took(w, Alt::DropUnjournaled);
    return true;
  }
  return false;
}

}  // namespace

void send_message(World& w, int32_t from, int32_t to, int32_t sig, std::vector<Value> args) {
  int32_t id = w.proc_of_name[to];
  bool live = id >= 0 && w.procs[id].alive;
  if (w.observer) {
    if (from < 0)
      w.observer->given(w, live ? id : -1);
    else
      w.observer->sent(w, w.proc_of_name[from], to, live ? id : -1);
  }
  if (!w.dialect.empty() && send_in_dialect(w, from, id, live, sig, args)) return;
  if (!live) {
    Event e{EventKind::Drop, w.turn};
    e.name = to;
    e.other = from;
    e.sig = sig;
    e.args = std::move(args);
    journal(w, std::move(e));
    return;
  }
  append_message(w, id, Message{from, sig, std::move(args)});
}

void journal_decision(World& w, int32_t sup_slot, int32_t child, Action a) {
  if (w.observer) w.observer->decided(w, sup_slot, child, a);
  Event e{EventKind::Decision, w.turn};
  e.name = child;
  e.other = w.sups[sup_slot].name;
  e.action = a;
  journal(w, std::move(e));
}

int32_t code_of(const World& w, int32_t reason) {
  const ReasonIds& k = w.words;
  if (reason == k.normal) return k.NORMAL;
  if (reason == k.shutdown) return k.SHUTDOWN;
  if (reason == k.killed) return k.KILLED;
  if (reason == k.noproc) return k.NOPROC;
  return reason;  // a code names itself
}

}  // namespace concord
