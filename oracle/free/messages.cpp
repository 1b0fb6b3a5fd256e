// oracle/free/messages.cpp: the messages of a free run (SPEC §25.4): every turn's
// message is one that was sent to that incarnation, with what was sent (G7);
// between one sender and one receiver the messages are handled in the order sent,
// none skipped (G4); what reached a receiver that lived to the end of a run that
// did not stop on its turn limit was handled (G7). When each was sent against the
// receiver's life (G6) is the causal graph's business (happens_before.cpp).
#include <algorithm>
#include <map>
#include <set>

#include "oracle/free/checker.hpp"

namespace concord {
namespace {

std::string ordinal(size_t k) {
  std::string s = std::to_string(k);
  if (k % 100 >= 11 && k % 100 <= 13) return s + "th";
  switch (k % 10) {
    case 1: return s + "st";
    case 2: return s + "nd";
    case 3: return s + "rd";
    default: return s + "th";
  }
}

ojson args_json(const Checker& c, const ReplayedEffect& x) {
  ojson a = ojson::array();
  const Signature& sig = c.p.sigs[static_cast<size_t>(x.sig)];
  for (size_t k = 0; k < x.args.size(); k++) a.push_back(value_json(c.t.names, sig.types[k], x.args[k]));
  return a;
}

// The messages one sender sent to one receiving incarnation, by effect number.
struct Pair {
  std::vector<size_t> sent;       // effect numbers, in order
  std::vector<size_t> delivered;  // in the receiver's order
  std::vector<size_t> events;     // the receiver's event of each delivery
};

class Messages {
 public:
  explicit Messages(Checker& c) : c_(c) {}

  void run() {
    collect_sends();
    for (size_t r = 0; r < c_.t.processes.size(); r++)
      if (!c_.t.processes[r].supervisor) deliveries(r);
    given_complete();
    for (auto& [key, pair] : pairs_) order(key.first, key.second, pair);
    for (size_t r = 0; r < c_.t.processes.size(); r++)
      if (!c_.t.processes[r].supervisor) signal_order(r);
  }

 private:
  std::string what(size_t s, size_t n) const {
    const ReplayedEffect& x = c_.workers[s].effects[n - 1];
    return "effect " + std::to_string(n) + ", " + c_.p.sigs[static_cast<size_t>(x.sig)].tag;
  }

  // Every send (and call) of every worker, by the incarnation it reached.
  void collect_sends() {
    for (size_t s = 0; s < c_.t.processes.size(); s++) {
      if (c_.t.processes[s].supervisor) continue;
      const WorkerReplay& w = c_.workers[s];
      for (size_t k = 0; k < w.effects.size(); k++) {
        const ReplayedEffect& x = w.effects[k];
        if ((x.ev != TraceEv::Send && x.ev != TraceEv::Call) || x.event == kUnrecorded) continue;
        const TraceEvent& e = c_.t.processes[s].events[x.event];
        if (e.ev == TraceEv::Drop) {
          c_.verdict.dropped++;
          continue;
        }
        if (e.reached.none()) continue;           // a call to no live process (signals.cpp)
        if (x.to == c_.t.processes[s].id.name) {  // to itself: its own incarnation
          if (e.reached.inc != c_.t.processes[s].id.inc && x.ev == TraceEv::Send)
            c_.add({guarantee::kNames,
                    c_.name(s) + "'s " + what(s, k + 1) + " to itself reached " + inc_text(c_.t.names, e.reached),
                    {e.where}});
        }
        size_t r = c_.find(e.reached);
        if (r == kUnrecorded) {
          c_.add({guarantee::kNames,
                  c_.name(s) + "'s " + what(s, k + 1) + " reached " + inc_text(c_.t.names, e.reached) +
                      ", which the trace does not list",
                  {e.where}});
          continue;
        }
        pairs_[{r, s}].sent.push_back(k + 1);
      }
    }
  }

  void deliveries(size_t r) {
    const TraceProcess& rp = c_.t.processes[r];
    for (size_t ev : c_.workers[r].turns) {
      const TraceEvent& e = rp.events[ev];
      if (e.ev != TraceEv::Deliver || !e.signal.empty()) continue;  // resumes, system messages: signals.cpp
      c_.verdict.delivered++;
      if (e.from.none()) {
        given(r, ev, e);
        continue;
      }
      size_t s = c_.find(e.from);
      if (s == kUnrecorded || c_.t.processes[s].supervisor) {
        c_.add({guarantee::kExactlyOnce,
                c_.name(r) + " handled a message from " + inc_text(c_.t.names, e.from) +
                    ", which is not a worker of the trace",
                {e.where}});
        continue;
      }
      const WorkerReplay& w = c_.workers[s];
      size_t n = static_cast<size_t>(e.n);
      TraceEv want = e.call ? TraceEv::Call : TraceEv::Send;
      const ReplayedEffect* x = n >= 1 && n <= w.effects.size() ? &w.effects[n - 1] : nullptr;
      std::string msg =
          c_.name(r) + " handled " + c_.name(s) + "'s effect " + std::to_string(e.n) + " (" + c_.t.names[e.tag] + ")";
      if (!x || x->ev != want) {
        c_.add({guarantee::kExactlyOnce,
                msg + ", which is not a " + (e.call ? "call" : "send") + " of " + c_.name(s) +
                    (x ? std::string(" (it is a ") + trace_ev_name(x->ev) + ")"
                       : " (" + c_.name(s) + " makes " + std::to_string(w.effects.size()) + " effects)"),
                {e.where}});
        continue;
      }
      if (x->to != rp.id.name) {
        c_.add({guarantee::kExactlyOnce, msg + ", which was sent to " + c_.t.names[x->to], {e.where}});
        continue;
      }
      if (x->event != kUnrecorded) {
        const TraceEvent& se = c_.t.processes[s].events[x->event];
        if (se.ev == TraceEv::Drop || !(se.reached == rp.id)) {
          c_.add(
              {guarantee::kExactlyOnce,
               msg + ", which " + c_.name(s) + " records as " +
                   (se.ev == TraceEv::Drop ? std::string("dropped") : "reaching " + inc_text(c_.t.names, se.reached)),
               {e.where, se.where}});
          continue;
        }
      } else {
        pairs_[{r, s}].sent.push_back(n);  // the unrecorded last effect of a cut turn: it was made
      }
      const Signature& sig = c_.p.sigs[static_cast<size_t>(x->sig)];
      ojson sent = args_json(c_, *x);
      if (c_.t.names[e.tag] != sig.tag || sent != e.args) {
        c_.add({guarantee::kExactlyOnce,
                msg + " as " + c_.t.names[e.tag] + e.args.dump() + "; " + c_.name(s) + " sent " + sig.tag + sent.dump(),
                {e.where}});
        continue;
      }
      if (!taken_.insert({s, n}).second) {
        c_.add({guarantee::kExactlyOnce,
                c_.name(r) + " handled " + c_.name(s) + "'s effect " + std::to_string(n) + " (" + sig.tag + ") twice",
                {e.where}});
        continue;
      }
      pairs_[{r, s}].delivered.push_back(n);
      pairs_[{r, s}].events.push_back(ev);
    }
  }

  void given(size_t r, size_t ev, const TraceEvent& e) {
    const TraceProcess& rp = c_.t.processes[r];
    size_t n = static_cast<size_t>(e.n);
    if (n < 1 || n > c_.p.given.size()) {
      c_.add({guarantee::kExactlyOnce,
              c_.name(r) + " handled given message " + std::to_string(n) + "; the program has " +
                  std::to_string(c_.p.given.size()),
              {e.where}});
      return;
    }
    const Given& g = c_.p.given[n - 1];
    if (!(c_.t.given[n - 1].reached == rp.id)) {
      c_.add({guarantee::kExactlyOnce,
              c_.name(r) + " handled given message " + std::to_string(n) + ", which " +
                  (c_.t.given[n - 1].reached.none() ? std::string("the trace says was dropped")
                                                    : "reached " + inc_text(c_.t.names, c_.t.given[n - 1].reached)),
              {e.where, "/given/" + std::to_string(n - 1)}});
      return;
    }
    ojson args = ojson::array();
    for (const Expr& a : g.args) args.push_back(a.kind == ExprKind::Int ? ojson(a.value) : ojson(a.name));
    if (c_.t.names[e.tag] != g.tag || args != e.args) {
      c_.add({guarantee::kExactlyOnce,
              c_.name(r) + " handled given message " + std::to_string(n) + " as " + c_.t.names[e.tag] + e.args.dump() +
                  "; the program gives " + g.tag + args.dump(),
              {e.where}});
      return;
    }
    if (!given_taken_.insert(n).second) {
      c_.add(
          {guarantee::kExactlyOnce, c_.name(r) + " handled given message " + std::to_string(n) + " twice", {e.where}});
      return;
    }
    given_order_[r].push_back({n, ev});
  }

  // A receiver may end the run with messages unhandled: it exited (its mailbox went
  // with it), it waits in a call (it takes nothing but the reply, §18.3), or the
  // run stopped on its turn limit.
  bool may_keep(size_t r) const {
    return c_.t.processes[r].exit >= 0 || c_.workers[r].waiting || c_.t.outcome == "turn_limit";
  }

  // The given messages come from one sender, the outside, in order (G4), and what
  // reached a receiver that outlived the run was handled (G7).
  void given_complete() {
    for (size_t k = 0; k < c_.t.given.size(); k++) {
      const GivenOutcome& g = c_.t.given[k];
      if (g.reached.none()) continue;
      size_t r = c_.find(g.reached);
      if (r == kUnrecorded || c_.t.processes[r].supervisor) {
        c_.add({guarantee::kNames,
                "given message " + std::to_string(k + 1) + " reached " + inc_text(c_.t.names, g.reached) +
                    ", which is not a worker of the trace",
                {"/given/" + std::to_string(k)}});
        continue;
      }
      if (!given_taken_.count(k + 1) && !may_keep(r))
        c_.add({guarantee::kExactlyOnce,
                "given message " + std::to_string(k + 1) + " (" + c_.p.given[k].tag + ") reached " + c_.name(r) +
                    ", which is alive at the end and never handled it",
                {"/given/" + std::to_string(k)}});
    }
    for (auto& [r, list] : given_order_) {
      size_t last = 0;
      for (auto [n, ev] : list) {
        if (n < last)
          c_.add({guarantee::kPairOrder,
                  c_.name(r) + " handled given message " + std::to_string(n) + " after given message " +
                      std::to_string(last) + ", which the outside sent after it",
                  {c_.t.processes[r].events[ev].where}});
        last = n;
      }
      // None skipped: every given message to r before the last it handled was handled.
      for (size_t k = 0; k + 1 < last; k++)
        if (c_.t.given[k].reached == c_.t.processes[r].id && !given_taken_.count(k + 1))
          c_.add({guarantee::kPairOrder,
                  c_.name(r) + " handled given message " + std::to_string(last) + " but never given message " +
                      std::to_string(k + 1) + ", which the outside sent it before",
                  {"/given/" + std::to_string(k)}});
    }
  }

  // G4 between one sender and one receiver: handled in the order sent, a prefix of
  // what was sent; G7: all of it, when the receiver outlived the run.
  void order(size_t r, size_t s, Pair& pair) {
    std::sort(pair.sent.begin(), pair.sent.end());
    pair.sent.erase(std::unique(pair.sent.begin(), pair.sent.end()), pair.sent.end());
    auto nth = [&](size_t n) {  // "a#1's 2nd message to c#1 (effect 5, bump)"
      size_t k = static_cast<size_t>(std::lower_bound(pair.sent.begin(), pair.sent.end(), n) - pair.sent.begin());
      return c_.name(s) + "'s " + ordinal(k + 1) + " message to it (" + what(s, n) + ")";
    };
    auto at = [&](size_t k) { return c_.t.processes[r].events[pair.events[k]].where; };
    auto sent_at = [&](size_t n) {
      const ReplayedEffect& x = c_.workers[s].effects[n - 1];
      return x.event == kUnrecorded ? std::string() : c_.t.processes[s].events[x.event].where;
    };
    for (size_t k = 1; k < pair.delivered.size(); k++)
      if (pair.delivered[k] < pair.delivered[k - 1]) {
        c_.add({guarantee::kPairOrder,
                c_.name(r) + " handled " + nth(pair.delivered[k]) + " after " + nth(pair.delivered[k - 1]) +
                    ", which was sent after it",
                {at(k - 1), at(k), sent_at(pair.delivered[k]), sent_at(pair.delivered[k - 1])}});
        return;
      }
    for (size_t k = 0; k < pair.delivered.size(); k++)
      if (pair.delivered[k] != pair.sent[k]) {
        c_.add({guarantee::kPairOrder,
                c_.name(r) + " handled " + nth(pair.delivered[k]) + " but never " + nth(pair.sent[k]) +
                    ", sent to it before",
                {at(k), sent_at(pair.sent[k]), sent_at(pair.delivered[k])}});
        return;
      }
    if (pair.delivered.size() < pair.sent.size() && !may_keep(r)) {
      size_t n = pair.sent[pair.delivered.size()];
      const ReplayedEffect& x = c_.workers[s].effects[n - 1];
      c_.add({guarantee::kExactlyOnce,
              nth(n) + " reached " + c_.name(r) + ", which is alive at the end and never handled it (the run ended " +
                  c_.t.outcome + ")",
              {x.event == kUnrecorded ? "" : c_.t.processes[s].events[x.event].where}});
    }
  }

  // G4 for the signals that are messages (§16.3, §17.1): a link signal and a down
  // leave their sender at its exit, after everything it sent; an exit signal is its
  // sender's effect n. So r handles such a message from s only after every message s
  // sent it before: all of them, or those numbered below n. (What s sends after an
  // exit signal may come before it: §17.2 lets the signal take effect at the end of
  // the sender's handler, and a conducted run, one free run among many, does so.)
  void signal_order(size_t r) {
    const TraceProcess& rp = c_.t.processes[r];
    std::map<size_t, std::set<size_t>> handled;  // sender -> its effects r handled so far
    for (size_t ev : c_.workers[r].turns) {
      const TraceEvent& e = rp.events[ev];
      if (e.ev != TraceEv::Deliver || e.from.none() || e.signal == "noproc") continue;
      size_t s = c_.find(e.from);
      if (s == kUnrecorded || c_.t.processes[s].supervisor) continue;
      if (e.signal.empty()) {
        handled[s].insert(static_cast<size_t>(e.n));
        continue;
      }
      auto pair = pairs_.find({r, s});
      if (pair == pairs_.end()) continue;
      bool exit_signal = e.signal == "exit";
      for (size_t n : pair->second.sent) {
        if (exit_signal && n >= static_cast<size_t>(e.n)) break;
        if (handled[s].count(n)) continue;
        const ReplayedEffect& x = c_.workers[s].effects[n - 1];
        std::string signal = exit_signal          ? "exit signal (effect " + std::to_string(e.n) + ")"
                             : e.signal == "link" ? std::string("link signal")
                                                  : std::string("monitor's down");
        c_.add({guarantee::kPairOrder,
                c_.name(r) + " handled the message of " + c_.name(s) + "'s " + signal + " before the message " +
                    c_.name(s) + " sent it " + (exit_signal ? "before the signal" : "before its exit") + " (" +
                    what(s, n) + ")",
                {e.where, x.event == kUnrecorded ? std::string() : c_.t.processes[s].events[x.event].where}});
        return;
      }
    }
  }

  Checker& c_;
  std::map<std::pair<size_t, size_t>, Pair> pairs_;  // (receiver, sender)
  std::set<std::pair<size_t, size_t>> taken_;        // (sender, effect) handled
  std::set<size_t> given_taken_;
  std::map<size_t, std::vector<std::pair<size_t, size_t>>> given_order_;  // receiver -> (given n, event)
};

}  // namespace

void check_messages(Checker& c) { Messages(c).run(); }

}  // namespace concord
