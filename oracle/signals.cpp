// oracle/signals.cpp: links, monitors and exit signals (SPEC §16) and the settling
// loop that applies them and lets supervisors react, in §17.2's order.
#include <algorithm>

#include "rules.hpp"

namespace concord {

// §16.1: a link is symmetric and there is at most one per pair [R20/once].
void link_pair(World& w, int32_t a, int32_t b) {
  std::vector<int32_t>& la = w.procs[a].links;
  if (std::find(la.begin(), la.end(), b) != la.end()) return;
  charge(w, kLinkCost);
  la.push_back(b);
  std::vector<int32_t>& lb = w.procs[b].links;
  if (std::find(lb.begin(), lb.end(), a) == lb.end()) lb.push_back(a);  // (UnlinkOneSided may have kept it)
}

// §16.2: either side removes the link [R21/other_side]; nothing if there is none.
void unlink_pair(World& w, int32_t a, int32_t b) {
  if (std::erase(w.procs[a].links, b) == 0) return;
  if (alt_on(w, Alt::UnlinkOneSided))
    took(w, Alt::UnlinkOneSided);  // b's side stays: b's exit still reaches a
  else
    std::erase(w.procs[b].links, a);
  release(w, kLinkCost);
}

// §16.1: one more monitor (monitoring twice holds two [R25/twice]), numbered.
void add_monitor(World& w, int32_t holder, int32_t target, bool call) {
  charge(w, kMonitorCost);
  int64_t n = ++w.monitors_made;
  if (w.observer && !call) w.observer->monitor_made(w, holder, n);
  w.procs[holder].held.push_back(Monitor{target, n, call});
  w.procs[target].watched_by.push_back(Monitor{holder, n, call});
}

// §16.2 demonitor: one of the holder's monitors of that kind on the target, if
// any (all monitors of a pair are alike; the oldest goes); §18.1: the call monitor
// at the reply.
void remove_monitor(World& w, int32_t holder, int32_t target, bool call) {
  std::vector<Monitor>& held = w.procs[holder].held;
  for (int removed = 0;; removed++) {
    auto it =
        std::find_if(held.begin(), held.end(), [&](const Monitor& m) { return m.other == target && m.call == call; });
    if (it == held.end()) return;
    if (removed == 1) took(w, Alt::DemonitorRemovesAll);
    int64_t n = it->number;
    held.erase(it);
    std::erase_if(w.procs[target].watched_by, [&](const Monitor& m) { return m.number == n; });
    release(w, kMonitorCost);
    if (call || !alt_on(w, Alt::DemonitorRemovesAll)) return;
  }
}

void queue_signal(World& w, Signal s) {
  charge(w, sizeof(Signal));
  w.signals.push_back(s);
}

void journal_signal(World& w, SignalKind k, int32_t from, int32_t to_name, int32_t reason, SignalEffect effect) {
  Event e{EventKind::Signal, w.turn};
  e.sub = static_cast<uint8_t>(k);
  e.other = from;
  e.name = to_name;
  if (k == SignalKind::Exit && reason < 0 && took_if(w, Alt::KillShownKilled)) reason = w.words.killed;
  e.reason = reason;
  e.effect = static_cast<uint8_t>(effect);
  journal(w, std::move(e));
}

namespace {

// §16.4: the messages `exit(from, why)` and `down(who, why)`, sent by `from`.
void system_message(World& w, int32_t to, int32_t sig, int32_t from, int32_t reason) {
  if (w.observer) w.observer->signal_message(w, to);
  append_message(w, to, Message{from, sig, {from, reason}});
}

}  // namespace

// §16.3, one clause per kind of signal. A signal for a process that has exited
// since (or an older incarnation of its name) is discarded without an event.
void apply_signal(World& w, const Signal& s) {
  Process& y = w.procs[s.to];
  if (!y.alive || y.incarnation != s.to_inc) return;
  auto effect = [&](SignalEffect e) { journal_signal(w, s.kind, s.from, y.name, s.reason, e); };
  switch (s.kind) {
    case SignalKind::Link: {
      bool trap = y.trap && !took_if(w, Alt::TrapIgnoredByLinks);
      bool normal = s.reason == w.words.normal;
      if (trap && s.reason == w.words.killed && took_if(w, Alt::KilledLinkIsKill)) trap = false;
      if (trap && !(normal && took_if(w, Alt::TrapIgnoresNormalLink))) {
        // trapping: the message, for every reason, normal included [R17]
        effect(SignalEffect::Message);
        system_message(w, s.to, w.prog.exit_sig, s.from, s.reason);
      } else if (normal && !took_if(w, Alt::NormalLinkExitKills)) {  // normal is ignored [R16]
        effect(SignalEffect::Ignore);
      } else {  // any other reason, shutdown included, spreads [R16]
        effect(SignalEffect::Exit);
        exit_worker(w, s.to, s.reason, ExitCause::Own);
      }
      return;
    }
    case SignalKind::Exit:
      if (s.reason < 0 && !(y.trap && took_if(w, Alt::KillTrappable))) {  // exit(e, kill): untrappable,
        effect(SignalEffect::Exit);                                       // seen as killed [R18]
        exit_worker(w, s.to, w.words.killed, ExitCause::Own);
      } else if (y.trap) {  // [R19] (from another process: the self case never queues, exec.cpp)
        effect(SignalEffect::Message);
        system_message(w, s.to, w.prog.exit_sig, s.from, s.reason < 0 ? w.words.killed : s.reason);
      } else if (s.reason == w.words.normal && !took_if(w, Alt::ExitNormalKills)) {  // [R19]
        effect(SignalEffect::Ignore);
      } else {
        effect(SignalEffect::Exit);
        exit_worker(w, s.to, s.reason, ExitCause::Own);
      }
      return;
    case SignalKind::Down:  // one message per monitor, trapping or not; never an exit [R24, R25]
      effect(SignalEffect::Message);
      system_message(w, s.to, w.prog.down_sig, s.from, s.reason);
      return;
    case SignalKind::Call: {  // the callee exited before replying: the caller fails with code(R) (§18.2) [R30]
      effect(SignalEffect::Exit);
      int32_t code = code_of(w, s.reason);
      if (code != s.reason && took_if(w, Alt::FailedCallKeepsReason)) code = s.reason;
      exit_worker(w, s.to, code, ExitCause::Own);
      return;
    }
  }
}

// §17.2: repeat until neither applies: (1) the first queued signal takes effect;
// (2) otherwise the supervisor last in pre-order among those with pending items
// handles all of them (its own retries included), so that a supervisor reacts only
// after its descendants have. Signals its reaction causes wait until it is done.
void settle(World& w) {
  for (;;) {
    if (!w.signals.empty()) {
      Signal s = w.signals.front();
      w.signals.pop_front();
      if (w.observer) w.observer->signal_taken(w);
      release(w, sizeof(Signal));
      apply_signal(w, s);
      continue;
    }
    if (w.pending_items == 0) return;
    for (size_t slot = w.sups.size(); slot-- > 0;)
      if (!w.sups[slot].pending.empty()) {
        handle_pending(w, static_cast<int32_t>(slot));
        break;
      }
  }
}

}  // namespace concord
