// oracle/free/signals.cpp: version 2's signals, calls and the API between
// incarnations (SPEC §25.5 G11-G12): each `exit` or `down` message comes from an exit
// or a statement that makes it, once; each resume from a reply to that call; each
// exit from outside has a signal (or its supervisor) to explain it. Whether a link
// was in place at the moment of an exit depends on when link and unlink signals
// arrived, which no trace records: a link made by either side is taken as possibly
// in place (a violation is named only where no order of arrival explains a signal).
#include <set>

#include "oracle/free/checker.hpp"

namespace concord {
namespace {

class Signals {
 public:
  explicit Signals(Checker& c) : c_(c) {
    for (const char* w : {"normal", "shutdown", "killed", "noproc"}) words_.push_back(c.t.names.intern(w));
  }

  void run() {
    for (size_t r = 0; r < c_.t.processes.size(); r++) {
      if (c_.t.processes[r].supervisor) continue;
      for (size_t ev : c_.workers[r].turns) {
        const TraceEvent& e = c_.t.processes[r].events[ev];
        if (e.ev == TraceEv::Resume) resume(r, e);
        else if (!e.signal.empty()) system_message(r, e);
      }
      cause(r);
    }
  }

 private:
  void add(const char* g, const std::string& text, std::vector<std::string> places) {
    c_.add({g, text, std::move(places)});
  }

  // An effect of `s` of kind `ev` on `to`'s incarnation (or any incarnation, inc 0).
  bool made(size_t s, TraceEv ev, const IncRef& to) const {
    for (const ReplayedEffect& x : c_.workers[s].effects) {
      if (x.ev != ev || x.event == kUnrecorded) continue;
      const TraceEvent& e = c_.t.processes[s].events[x.event];
      if (e.reached == to) return true;
    }
    return false;
  }

  // Either of the two made a link to the other's incarnation.
  bool linked(size_t a, size_t b) const {
    return made(a, TraceEv::Link, c_.t.processes[b].id) || made(b, TraceEv::Link, c_.t.processes[a].id);
  }

  std::string code_of(int32_t reason) const {
    const std::string& r = c_.t.names[reason];
    if (r == "normal") return "NORMAL";
    if (r == "shutdown") return "SHUTDOWN";
    if (r == "killed") return "KILLED";
    if (r == "noproc") return "NOPROC";
    return r;
  }

  void system_message(size_t r, const TraceEvent& e) {
    const TraceProcess& rp = c_.t.processes[r];
    std::string me = c_.name(r);
    std::string tag = c_.t.names[e.tag];
    if (e.args.size() != 2 || !e.args[0].is_string() || !e.args[1].is_string()) {
      add(guarantee::kSignals, me + " handled an " + tag + " message whose arguments are not (addr, reason)", {e.where});
      return;
    }
    std::string who = e.args[0].get<std::string>(), why = e.args[1].get<std::string>();
    if (e.signal == "noproc") {  // its own link or monitor that found no live process
      const std::vector<ReplayedEffect>& fx = c_.workers[r].effects;
      size_t n = static_cast<size_t>(e.n);
      TraceEv want = tag == "exit" ? TraceEv::Link : TraceEv::Monitor;
      if (n < 1 || n > fx.size() || fx[n - 1].ev != want || fx[n - 1].event == kUnrecorded ||
          !rp.events[fx[n - 1].event].reached.none() || c_.t.names[fx[n - 1].to] != who || why != "noproc")
        add(guarantee::kSignals, me + " handled " + tag + "(" + who + ", " + why + ") as the answer of its own effect " +
                                     std::to_string(e.n) + ", which is no " + trace_ev_name(want) +
                                     " that found no live process",
            {e.where});
      else if (!taken_.insert({r, n, 0}).second)
        add(guarantee::kExactlyOnce, me + " handled the noproc answer of its effect " + std::to_string(n) + " twice", {e.where});
      return;
    }
    size_t x = c_.find(e.from);
    if (x == kUnrecorded || c_.t.processes[x].supervisor) {
      add(guarantee::kSignals, me + " handled an " + tag + " message from " + inc_text(c_.t.names, e.from) +
                                   ", not a worker of the trace",
          {e.where});
      return;
    }
    const TraceProcess& xp = c_.t.processes[x];
    if (c_.t.names[xp.id.name] != who) {
      add(guarantee::kSignals, me + " handled " + tag + "(" + who + ", " + why + ") from " + c_.name(x), {e.where});
      return;
    }
    if (e.signal == "exit") {  // x's exit(e, r) statement, effect n
      const std::vector<ReplayedEffect>& fx = c_.workers[x].effects;
      size_t n = static_cast<size_t>(e.n);
      bool ok = n >= 1 && n <= fx.size() && fx[n - 1].ev == TraceEv::ExitSignal && fx[n - 1].to == rp.id.name &&
                fx[n - 1].args[0] >= 0 && c_.t.names[static_cast<int32_t>(fx[n - 1].args[0])] == why;
      if (ok && fx[n - 1].event != kUnrecorded && x != r) ok = c_.t.processes[x].events[fx[n - 1].event].reached == rp.id;
      if (!ok)
        add(guarantee::kSignals, me + " handled exit(" + who + ", " + why + ") as " + c_.name(x) + "'s effect " +
                                     std::to_string(e.n) + ", which is no exit(" + c_.t.names[rp.id.name] + ", " + why +
                                     ") of it",
            {e.where});
      else if (!taken_.insert({r, n, x + 1}).second)
        add(guarantee::kExactlyOnce, me + " handled " + c_.name(x) + "'s exit signal (effect " + std::to_string(n) + ") twice",
            {e.where});
      return;
    }
    // link, down: x exited with that reason.
    if (xp.exit < 0 || c_.t.names[xp.exit] != why) {
      add(guarantee::kSignals, me + " handled " + tag + "(" + who + ", " + why + "), and " + c_.name(x) +
                                   (xp.exit < 0 ? " is alive at the end" : " exited with " + c_.t.names[xp.exit]),
          {e.where});
      return;
    }
    if (e.signal == "link") {
      if (!linked(r, x))
        add(guarantee::kSignals, me + " handled exit(" + who + ", " + why + ") by a link, and neither " + me + " nor " +
                                     c_.name(x) + " ever linked to the other",
            {e.where});
      else if (!taken_.insert({r, 0, x + 1}).second)
        add(guarantee::kExactlyOnce, me + " handled " + c_.name(x) + "'s link signal twice", {e.where});
      return;
    }
    // down: answers its own monitor statement, effect `monitor`, which found x.
    const std::vector<ReplayedEffect>& fx = c_.workers[r].effects;
    size_t m = static_cast<size_t>(e.monitor);
    if (m < 1 || m > fx.size() || fx[m - 1].ev != TraceEv::Monitor || fx[m - 1].event == kUnrecorded ||
        !(rp.events[fx[m - 1].event].reached == xp.id))
      add(guarantee::kSignals, me + " handled down(" + who + ", " + why + ") for its effect " + std::to_string(m) +
                                   ", which is no monitor of " + c_.name(x),
          {e.where});
    else if (!taken_.insert({r, m, 0}).second)
      add(guarantee::kExactlyOnce, me + " handled the down of its monitor (effect " + std::to_string(m) + ") twice",
          {e.where});
  }

  // G12: a resume comes from the first reply of the callee's turn on that call.
  void resume(size_t r, const TraceEvent& e) {
    size_t s = c_.find(e.from);
    std::string me = c_.name(r);
    if (s == kUnrecorded || c_.t.processes[s].supervisor) {
      add(guarantee::kCalls, me + " resumed with a reply from " + inc_text(c_.t.names, e.from) +
                                 ", not a worker of the trace",
          {e.where});
      return;
    }
    const std::vector<ReplayedEffect>& fx = c_.workers[s].effects;
    size_t n = static_cast<size_t>(e.n);
    if (n < 1 || n > fx.size() || fx[n - 1].ev != TraceEv::Reply || !fx[n - 1].serving) {
      add(guarantee::kCalls, me + " resumed with " + c_.name(s) + "'s effect " + std::to_string(e.n) +
                                 ", which is not the first reply of a turn on a call",
          {e.where});
      return;
    }
    const ReplayedEffect& x = fx[n - 1];
    ojson v = value_json(c_.t.names, static_cast<Type>(x.sig), x.args[0]);
    if (v != e.args)
      add(guarantee::kCalls, me + " resumed with " + e.args.dump() + "; " + c_.name(s) + " replied " + v.dump(),
          {e.where});
    // The reply answers the call its turn handled: that turn's message came from r.
    // A handler that called and resumed goes on in a turn of its own (the resume):
    // the call it answers is the deliver that began the handler.
    const WorkerReplay& w = c_.workers[s];
    size_t turn = x.turn;
    while (turn > 1 && turn <= w.turns.size() && c_.t.processes[s].events[w.turns[turn - 1]].ev == TraceEv::Resume)
      turn--;
    if (turn >= 1 && turn <= w.turns.size()) {
      const TraceEvent& d = c_.t.processes[s].events[w.turns[turn - 1]];
      if (!(d.from == c_.t.processes[r].id) || !d.call)
        add(guarantee::kCalls, me + " resumed with " + c_.name(s) + "'s reply (effect " + std::to_string(n) +
                                   "), which answers " + (d.call ? inc_text(c_.t.names, d.from) + "'s call" : "no call"),
            {e.where});
    }
    if (!replies_.insert({s, n}).second)
      add(guarantee::kCalls, "two callers resumed with " + c_.name(s) + "'s reply (effect " + std::to_string(n) + ")",
          {e.where});
  }

  // An exit from outside (the replay found it Cut) that its supervisor did not make:
  // a signal must explain its reason (G11, G12).
  void cause(size_t r) {
    const TraceProcess& rp = c_.t.processes[r];
    const WorkerReplay& w = c_.workers[r];
    if (rp.exit < 0 || w.end != WorkerReplay::End::Cut || c_.explained[r]) return;
    const std::string& why = c_.t.names[rp.exit];
    bool explained = false;
    for (size_t x = 0; x < c_.t.processes.size() && !explained; x++) {
      const TraceProcess& xp = c_.t.processes[x];
      if (xp.supervisor || x == r) continue;
      // A linked process that exited with this reason (an abnormal one: normal is
      // ignored by a receiver that does not trap).
      if (xp.exit == rp.exit && why != "normal" && linked(r, x)) explained = true;
      // An exit signal to this incarnation with this reason (kill: killed).
      for (const ReplayedEffect& f : c_.workers[x].effects) {
        if (f.ev != TraceEv::ExitSignal || f.to != rp.id.name) continue;
        bool reaches = f.event == kUnrecorded || c_.t.processes[x].events[f.event].reached == rp.id;
        int32_t reason = static_cast<int32_t>(f.args[0]);
        if (reaches && (reason < 0 ? why == "killed" : reason == rp.exit)) explained = true;
      }
      // The callee of its pending call exited: it fails with code(R) (§18.2).
      if (w.waiting || (!w.effects.empty() && w.effects.back().ev == TraceEv::Call))
        for (const ReplayedEffect& f : w.effects)
          if (f.ev == TraceEv::Call && f.event != kUnrecorded &&
              rp.events[f.event].reached == xp.id && xp.exit >= 0 && code_of(xp.exit) == why)
            explained = true;
    }
    if (explained) c_.explained[r] = 1;
  }

  Checker& c_;
  std::vector<int32_t> words_;
  std::set<std::tuple<size_t, size_t, size_t>> taken_;  // (receiver, own effect, sender + 1)
  std::set<std::pair<size_t, size_t>> replies_;
};

}  // namespace

void check_signals(Checker& c) {
  if (c.p.version < 2) return;
  Signals(c).run();
}

}  // namespace concord
