// oracle/free/happens_before.cpp: the happens-before relation of a trace (SPEC
// §25.4 G5) built as a graph, then asked: is it a strict order (no cycle), was a
// dropped message dropped while an incarnation of its name was certainly live (G6),
// are the spawn numbers of a kind taken in an order the run allows (G8).
//
// Nodes: each incarnation's start, its events, its exit; the moments the trace does
// not record but the rules name: a send's lookup of its receiver's name, a spawn's
// taking of its number, the steps of a supervisor's reaction between the children it
// starts and terminates, the outside's starts of the roots and sends of the given
// messages.
#include <map>
#include <set>

#include "oracle/free/checker.hpp"

namespace concord {
namespace {

// A budget of nodes visited by the questions "does a happen before b": a trace whose
// drops would need more is admissible as far as they were decided (§25.8).
constexpr int64_t kQueryBudget = 50'000'000;

class HappensBefore {
 public:
  explicit HappensBefore(Checker& c) : c_(c) {}

  void run() {
    nodes();
    outside();
    for (size_t i = 0; i < c_.t.processes.size(); i++)
      if (c_.t.processes[i].supervisor) supervisor(i);
      else worker(i);
    incarnations();
    numbers();
    if (auto cyc = g_.cycle()) return cycle(*cyc);
    int64_t budget = kQueryBudget;
    drops(budget);
    process_limit(budget);
  }

 private:
  // --- nodes ---------------------------------------------------------------------------

  void nodes() {
    size_t n = c_.t.processes.size();
    start_.resize(n);
    events_.resize(n);
    exit_.assign(n, kUnrecorded);
    ready_.assign(n, kUnrecorded);
    for (size_t i = 0; i < n; i++) {
      const TraceProcess& p = c_.t.processes[i];
      std::string me = c_.name(i);
      start_[i] = g_.node(me + "'s start", p.where);
      size_t prev = start_[i];
      for (size_t k = 0; k < p.events.size(); k++) {
        const TraceEvent& e = p.events[k];
        size_t v = g_.node(me + "'s event " + std::to_string(k + 1) + " (" + describe(e) + ")", e.where);
        if (!p.supervisor || k > 0) g_.edge(prev, v);  // a supervisor's start leads to its first event through its start's act
        events_[i].push_back(v);
        prev = v;
      }
      if (p.supervisor) ready_[i] = g_.node(me + " with its static children started", p.where);
      if (p.exit >= 0) {
        exit_[i] = g_.node(me + "'s exit (" + c_.t.names[p.exit] + ")", p.where + "/exit");
        if (!p.supervisor || !p.events.empty()) g_.edge(prev, exit_[i]);
      }
    }
  }

  std::string describe(const TraceEvent& e) const {
    std::string s = trace_ev_name(e.ev);
    switch (e.ev) {
      case TraceEv::Deliver:
        return s + " of " + c_.t.names[e.tag] +
               (e.from.none() ? (e.signal.empty() ? " given" : "") : " from " + inc_text(c_.t.names, e.from));
      case TraceEv::Send: return s + " to " + inc_text(c_.t.names, e.reached);
      case TraceEv::Drop: return s + " to " + c_.t.names[e.to];
      case TraceEv::Spawn: return s + (e.refused.empty() ? " of " + c_.t.names[e.name] : " refused");
      case TraceEv::ChildExit: return "exit of " + inc_text(c_.t.names, e.from);
      case TraceEv::StartChild: return "start_child of " + c_.t.names[e.name];
      case TraceEv::Decision: return e.action + " for " + c_.t.names[e.name];
      default: return s;
    }
  }

  // The node after which the incarnation's init is done (its starter goes on then).
  size_t init_done(size_t i) const {
    if (c_.t.processes[i].supervisor) return ready_[i];
    size_t k = c_.workers[i].init_end;
    return k == 0 ? start_[i] : events_[i][k - 1];
  }

  // The node an event of i follows: the event before it, or the start.
  size_t before_event(size_t i, size_t k) const { return k == 0 ? start_[i] : events_[i][k - 1]; }

  // The last node of i: its exit, or its last event.
  size_t last(size_t i) const {
    if (exit_[i] != kUnrecorded) return exit_[i];
    return events_[i].empty() ? start_[i] : events_[i].back();
  }

  // Where effect n of worker s happened; an unrecorded one, between its last event and its exit.
  std::pair<size_t, size_t> effect_span(size_t s, size_t n) const {
    const ReplayedEffect& x = c_.workers[s].effects[n - 1];
    if (x.event == kUnrecorded) {
      size_t from = c_.t.processes[s].events.empty() ? start_[s] : events_[s].back();
      return {from, exit_[s] == kUnrecorded ? from : exit_[s]};
    }
    return {before_event(s, x.event), events_[s][x.event]};
  }

  // --- edges -----------------------------------------------------------------------------

  // The outside starts the roots one after the other, each start complete before
  // the next, then sends the given messages in order.
  void outside() {
    size_t prev = g_.node("the outside's start");
    for (const Decl& d : c_.p.system) {
      std::string name = std::holds_alternative<ProcessDecl>(d) ? std::get<ProcessDecl>(d).name
                                                                : std::get<SupervisorDecl>(d).name;
      size_t r = c_.find({c_.t.names.intern(name), 1});
      if (r == kUnrecorded) continue;
      g_.edge(prev, start_[r]);
      roots_.push_back(r);
      size_t next = g_.node("the outside, after starting " + name);
      g_.edge(prev, next);
      root_after_.push_back(next);
      prev = next;
    }
    for (size_t k = 0; k < c_.p.given.size(); k++) {
      size_t v = g_.node("the outside's given message " + std::to_string(k + 1), "/given/" + std::to_string(k));
      g_.edge(prev, v);
      given_.push_back(v);
      prev = v;
    }
  }

  void worker(size_t i) {
    const TraceProcess& p = c_.t.processes[i];
    const WorkerReplay& w = c_.workers[i];
    for (size_t ev : w.turns) {
      const TraceEvent& e = p.events[ev];
      size_t to = events_[i][ev];
      if (e.ev == TraceEv::Resume) {  // after the reply that answers it
        size_t s = c_.find(e.from);
        if (s != kUnrecorded && !c_.t.processes[s].supervisor && e.n >= 1 &&
            static_cast<size_t>(e.n) <= c_.workers[s].effects.size())
          g_.edge(effect_span(s, static_cast<size_t>(e.n)).second, to);
        continue;
      }
      if (e.signal == "noproc") continue;  // its own statement's answer: in program order already
      if (e.signal == "link" || e.signal == "down") {  // after the exit that made it
        size_t x = c_.find(e.from);
        if (x != kUnrecorded && exit_[x] != kUnrecorded) g_.edge(exit_[x], to);
        continue;
      }
      if (e.from.none()) {  // a given message
        if (e.n >= 1 && static_cast<size_t>(e.n) <= given_.size()) g_.edge(given_[static_cast<size_t>(e.n) - 1], to);
        continue;
      }
      size_t s = c_.find(e.from);
      if (s != kUnrecorded && !c_.t.processes[s].supervisor && e.n >= 1 &&
          static_cast<size_t>(e.n) <= c_.workers[s].effects.size())
        g_.edge(effect_span(s, static_cast<size_t>(e.n)).second, to);  // nothing arrives before it is sent
    }
    for (size_t k = 0; k < w.effects.size(); k++) {
      const ReplayedEffect& x = w.effects[k];
      auto [before, at] = effect_span(i, k + 1);
      if (x.ev == TraceEv::Send || x.ev == TraceEv::Call || x.ev == TraceEv::Link || x.ev == TraceEv::Monitor ||
          x.ev == TraceEv::ExitSignal)
        lookup(i, k, before, at);
      if (x.ev == TraceEv::Spawn && x.under < 0) spawned(i, k, before, at);
      if (x.ev == TraceEv::Spawn) limit_point(i, k, before, at);
    }
  }

  // Where a spawn counted the live workers against the process limit (§6.6 step 1):
  // after the step before it, before its record (and its child's start).
  void limit_point(size_t i, size_t k, size_t before, size_t at) {
    const ReplayedEffect& x = c_.workers[i].effects[k];
    if (x.event == kUnrecorded) return;
    const TraceEvent& e = c_.t.processes[i].events[x.event];
    if (e.refused == "NOPROC") return;  // refused before counting? no: after, but it says nothing of the count
    size_t v = g_.node(c_.name(i) + "'s count of live workers for its spawn (effect " + std::to_string(k + 1) + ")",
                       e.where);
    g_.edge(before, v);
    g_.edge(v, at);
    if (e.refused.empty() && x.under < 0) {
      size_t child = child_of_spawn(i, k);
      if (child != kUnrecorded) g_.edge(v, start_[child]);
    }
    limits_.push_back({v, e.refused == "SYSTEM_LIMIT", i, k});
  }

  // A statement on a name looks it up between the node before it and its record: the
  // incarnation it found was started before and exited after (G6).
  void lookup(size_t i, size_t k, size_t before, size_t at) {
    const ReplayedEffect& x = c_.workers[i].effects[k];
    size_t l = g_.node(c_.name(i) + "'s lookup of " + c_.t.names[x.to] + " for its effect " + std::to_string(k + 1),
                       x.event == kUnrecorded ? "" : c_.t.processes[i].events[x.event].where);
    g_.edge(before, l);
    g_.edge(l, at);
    lookups_[{i, k}] = l;
    if (x.event == kUnrecorded) return;
    const TraceEvent& e = c_.t.processes[i].events[x.event];
    if (e.ev == TraceEv::Drop || e.reached.none()) return;
    size_t r = c_.find(e.reached);
    if (r == kUnrecorded || r == i) return;
    g_.edge(start_[r], l);
    if (exit_[r] != kUnrecorded) g_.edge(l, exit_[r]);
  }

  void spawned(size_t i, size_t k, size_t before, size_t at) {
    const ReplayedEffect& x = c_.workers[i].effects[k];
    size_t child = child_of_spawn(i, k);
    if (child == kUnrecorded) {
      // A spawn cut short before its child started (its maker killed meanwhile) may
      // have taken a number all the same (G8).
      if (x.event == kUnrecorded) cut_spawns_[prefix(c_.p.kinds[static_cast<size_t>(x.kind)].name)]++;
      return;
    }
    g_.edge(number(child, before), start_[child]);
    g_.edge(before, start_[child]);
    // The spawner goes on once the child's init is done, when it went on at all: a
    // spawn left unrecorded was cut, and its maker may have died before that.
    if (x.event != kUnrecorded) g_.edge(init_done(child), at);
  }

  // The incarnation a spawn without `under` started: the one its record names, or
  // for the unrecorded last spawn of a cut turn, the child of its maker no record names.
  size_t child_of_spawn(size_t i, size_t k) const {
    const ReplayedEffect& x = c_.workers[i].effects[k];
    if (x.event != kUnrecorded) {
      const TraceEvent& e = c_.t.processes[i].events[x.event];
      if (!e.refused.empty()) return kUnrecorded;
      size_t child = c_.find({e.name, 1});
      return child != kUnrecorded && c_.started_by[child] == static_cast<long>(i) ? child : kUnrecorded;
    }
    std::set<int32_t> named;
    for (const TraceEvent& e : c_.t.processes[i].events)
      if (e.ev == TraceEv::Spawn && e.refused.empty()) named.insert(e.name);
    for (size_t j = 0; j < c_.t.processes.size(); j++)
      if (c_.started_by[j] == static_cast<long>(i) && c_.t.processes[j].id.inc == 1 && !c_.t.processes[j].supervisor &&
          !named.count(c_.t.processes[j].id.name))
        return j;
    return kUnrecorded;
  }

  static std::string prefix(const std::string& kind) {
    std::string k;
    for (char ch : kind) k += (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch - 'A' + 'a') : ch;
    return k;
  }

  // The spawn that gave `child` its name took the number after `before`; the node of
  // that moment.
  size_t number(size_t child, size_t before) {
    const std::string& name = c_.t.names[c_.t.processes[child].id.name];
    size_t dash = name.rfind('-');
    std::string kind = name.substr(0, dash);
    int64_t n = std::stoll(name.substr(dash + 1));
    size_t v = g_.node("the spawn that took " + name + "'s number");
    g_.edge(before, v);
    g_.edge(v, start_[child]);
    numbers_[kind][n] = v;
    return v;
  }

  void supervisor(size_t i) {
    const TraceProcess& p = c_.t.processes[i];
    const SupReplay& r = c_.sups[i];
    for (const SupReplay::Act& a : r.acts) {
      // Where the act begins, and the node it leads to.
      size_t from, to;
      if (a.event < 0) {
        from = start_[i];
        to = !events_[i].empty() ? events_[i][0] : exit_[i] != kUnrecorded ? exit_[i] : kUnrecorded;
      } else if (static_cast<size_t>(a.event) >= p.events.size()) {  // terminated from outside: before its exit
        from = events_[i].empty() ? start_[i] : events_[i].back();
        to = exit_[i];
      } else {
        size_t k = static_cast<size_t>(a.event);
        from = events_[i][k];
        to = k + 1 < events_[i].size() ? events_[i][k + 1] : exit_[i];
        input(i, k);
      }
      size_t cur = from;
      for (auto [is_start, x] : a.steps) {
        size_t next = g_.node(c_.name(i) + (is_start ? " after starting " : " after terminating ") + c_.name(x));
        if (is_start) {
          g_.edge(cur, start_[x]);
          g_.edge(init_done(x), next);  // a start is synchronous (proc_lib's ack)
        } else {
          if (c_.fate[x] == ExitFate::Terminated && exit_[x] != kUnrecorded) g_.edge(cur, exit_[x]);
          if (exit_[x] != kUnrecorded) g_.edge(exit_[x], next);  // shutdown/1 waits for the child's end
        }
        g_.edge(cur, next);
        cur = next;
      }
      if (a.event < 0) {  // its start is complete: what started it goes on
        g_.edge(cur, ready_[i]);
        cur = ready_[i];
      }
      if (to != kUnrecorded) g_.edge(cur, to);
      if (a.event >= 0 && static_cast<size_t>(a.event) < p.events.size()) reply(i, static_cast<size_t>(a.event), cur);
    }
    if (r.acts.empty() && exit_[i] != kUnrecorded) g_.edge(start_[i], exit_[i]);
    // A supervisor whose trace shows no act (it was not replayed): keep its chain.
    if (r.acts.empty() && !events_[i].empty()) g_.edge(start_[i], events_[i][0]);
  }

  // What a supervisor's input comes after.
  void input(size_t i, size_t k) {
    const TraceEvent& e = c_.t.processes[i].events[k];
    size_t v = events_[i][k];
    if (e.ev == TraceEv::ChildExit) {
      size_t ch = c_.find(e.from);
      if (ch != kUnrecorded && exit_[ch] != kUnrecorded) g_.edge(exit_[ch], v);
      return;
    }
    if (e.ev == TraceEv::StartChild || e.ev == TraceEv::ApiRequest) {  // after its request was made
      size_t s = c_.find(e.from);
      if (s == kUnrecorded || c_.t.processes[s].supervisor || e.n < 1 ||
          static_cast<size_t>(e.n) > c_.workers[s].effects.size())
        return;
      size_t made = effect_span(s, static_cast<size_t>(e.n)).first;
      g_.edge(made, v);
      // A spawn under a supervisor takes its number before it asks (G8).
      size_t child = c_.find({e.name, 1});
      if (e.ev == TraceEv::StartChild && child != kUnrecorded && c_.started_by[child] == static_cast<long>(i))
        g_.edge(number(child, made), v);
    }
  }

  // A request's maker goes on after the supervisor answered it.
  // (A maker whose effect is unrecorded was cut while it waited: it never went on.)
  void reply(size_t i, size_t k, size_t answered) {
    const TraceEvent& e = c_.t.processes[i].events[k];
    if (e.ev != TraceEv::StartChild && e.ev != TraceEv::ApiRequest) return;
    size_t s = c_.find(e.from);
    if (s == kUnrecorded || c_.t.processes[s].supervisor || e.n < 1 ||
        static_cast<size_t>(e.n) > c_.workers[s].effects.size())
      return;
    const ReplayedEffect& x = c_.workers[s].effects[static_cast<size_t>(e.n) - 1];
    if (x.event != kUnrecorded) g_.edge(answered, events_[s][x.event]);
  }

  // A root's start is complete before the outside starts the next; n#i ends before n#i+1 starts.
  void incarnations() {
    for (size_t k = 0; k < roots_.size(); k++) g_.edge(init_done(roots_[k]), root_after_[k]);
    for (size_t i = 0; i < c_.t.processes.size(); i++) {
      const TraceProcess& p = c_.t.processes[i];
      size_t next = c_.find({p.id.name, p.id.inc + 1});
      if (next != kUnrecorded && exit_[i] != kUnrecorded) g_.edge(exit_[i], start_[next]);
    }
  }

  // One counter per kind: number m is taken before number m + 1 (G8). The numbers
  // used are 1 to the largest but for as many as spawns refused with NOPROC, or cut
  // short before their child started.
  void numbers() {
    std::map<std::string, int64_t> noproc = cut_spawns_;
    for (size_t i = 0; i < c_.t.processes.size(); i++) {
      if (c_.t.processes[i].supervisor) continue;
      for (const ReplayedEffect& x : c_.workers[i].effects)
        if (x.ev == TraceEv::Spawn && x.event != kUnrecorded &&
            c_.t.processes[i].events[x.event].refused == "NOPROC") {
          noproc[prefix(c_.p.kinds[static_cast<size_t>(x.kind)].name)]++;
        }
    }
    for (auto& [kind, by_number] : numbers_) {
      size_t prev = kUnrecorded;
      for (auto& [n, v] : by_number) {
        if (prev != kUnrecorded) g_.edge(prev, v);
        prev = v;
      }
      int64_t largest = by_number.rbegin()->first;
      int64_t missing = largest - static_cast<int64_t>(by_number.size());
      if (missing > noproc[kind]) {
        int64_t first = 1;
        while (by_number.count(first)) first++;
        c_.add({guarantee::kSpawnedNames, kind + "-" + std::to_string(largest) + " was spawned, and " + kind + "-" +
                                              std::to_string(first) + " never was: " + std::to_string(missing) +
                                              " number(s) skipped, and only " + std::to_string(noproc[kind]) +
                                              " spawn(s) of that kind were refused with NOPROC or cut short before "
                                              "their child started",
                {}});
      }
    }
  }

  void cycle(const std::vector<size_t>& cyc) {
    std::string text;
    std::vector<std::string> places;
    for (size_t k = 0; k < cyc.size(); k++) {
      text += (k == 0 ? "" : " -> ") + g_.label(cyc[k]);
      if (!g_.place(cyc[k]).empty() && k + 1 < cyc.size()) places.push_back(g_.place(cyc[k]));
    }
    c_.add({guarantee::kCausality, "these events happen each before the next, and the last before the first: " + text,
            places});
  }

  // G6: a drop while an incarnation of the name was certainly live.
  void drops(int64_t& budget) {
    int64_t undecided = 0;
    for (auto& [key, l] : lookups_) {
      auto [i, k] = key;
      const ReplayedEffect& x = c_.workers[i].effects[k];
      if (x.event == kUnrecorded) continue;
      const TraceEvent& e = c_.t.processes[i].events[x.event];
      if (e.ev != TraceEv::Drop && !(e.reached.none() && x.ev != TraceEv::Send)) continue;
      for (int64_t inc = 1;; inc++) {
        size_t r = c_.find({x.to, inc});
        if (r == kUnrecorded || c_.t.processes[r].supervisor) break;
        std::optional<bool> started = g_.before(start_[r], l, budget);
        if (!started) {
          undecided++;
          continue;
        }
        if (!*started) continue;
        std::optional<bool> ended = exit_[r] == kUnrecorded ? std::optional<bool>(true) : g_.before(l, exit_[r], budget);
        if (!ended) {
          undecided++;
          continue;
        }
        if (*ended)
          c_.add({guarantee::kNames, c_.name(i) + "'s effect " + std::to_string(e.n) + " (" + trace_ev_name(x.ev) +
                                         " to " + c_.t.names[x.to] + ") found no live process while " + c_.name(r) +
                                         " was live: " + c_.name(r) + " started before it and " +
                                         (exit_[r] == kUnrecorded ? std::string("is alive at the end")
                                                                  : "exited after it"),
                  {e.where, c_.t.processes[r].where}});
      }
    }
    // The outside's given messages that were dropped.
    for (size_t k = 0; k < c_.t.given.size(); k++) {
      if (!c_.t.given[k].reached.none()) continue;
      for (int64_t inc = 1;; inc++) {
        size_t r = c_.find({c_.t.given[k].to, inc});
        if (r == kUnrecorded || c_.t.processes[r].supervisor) break;
        std::optional<bool> started = g_.before(start_[r], given_[k], budget);
        std::optional<bool> ended =
            exit_[r] == kUnrecorded ? std::optional<bool>(true) : g_.before(given_[k], exit_[r], budget);
        if (!started || !ended) {
          undecided++;
          continue;
        }
        if (*started && *ended)
          c_.add({guarantee::kNames, "given message " + std::to_string(k + 1) + " was dropped while " + c_.name(r) +
                                         " was live: it started before and " +
                                         (exit_[r] == kUnrecorded ? std::string("is alive at the end")
                                                                  : "exited after it"),
                  {"/given/" + std::to_string(k), c_.t.processes[r].where}});
      }
    }
    if (undecided > 0)
      c_.verdict.undecided.push_back(std::to_string(undecided) +
                                     " question(s) whether a dropped message's receiver was live (G6), past the "
                                     "budget of the causal graph's searches");
  }

  // G10: a spawn refused with SYSTEM_LIMIT when fewer than P workers can have been
  // live (started not after its count, and not exited before it), or one that
  // succeeded when P were certainly live (started before, exited after or never).
  void process_limit(int64_t& budget) {
    int64_t p = c_.t.run.max_processes;
    std::vector<size_t> workers;
    for (size_t r = 0; r < c_.t.processes.size(); r++)
      if (!c_.t.processes[r].supervisor) workers.push_back(r);
    int64_t undecided = 0;
    for (const Limit& l : limits_) {
      const TraceEvent& e = c_.t.processes[l.worker].events[c_.workers[l.worker].effects[l.effect].event];
      if (!l.refused && static_cast<int64_t>(workers.size()) < p) continue;  // never P at all
      int64_t count = 0;
      bool decided = true;
      for (size_t r : workers) {
        if (l.refused) {  // possibly live at the count
          std::optional<bool> later = g_.before(l.node, start_[r], budget);
          std::optional<bool> gone =
              exit_[r] == kUnrecorded ? std::optional<bool>(false) : g_.before(exit_[r], l.node, budget);
          if (!later || !gone) decided = false;
          if (!later.value_or(false) && !gone.value_or(false)) count++;
        } else {  // certainly live at the count
          std::optional<bool> started = g_.before(start_[r], l.node, budget);
          std::optional<bool> lives =
              exit_[r] == kUnrecorded ? std::optional<bool>(true) : g_.before(l.node, exit_[r], budget);
          if (!started || !lives) decided = false;
          if (started.value_or(false) && lives.value_or(false)) count++;
        }
      }
      if (!decided) {
        undecided++;
        continue;
      }
      std::string who = c_.name(l.worker) + "'s spawn (effect " + std::to_string(l.effect + 1) + ")";
      if (l.refused && count < p)
        c_.add({guarantee::kLimits, who + " was refused with SYSTEM_LIMIT, and at most " + std::to_string(count) +
                                        " workers can have been live then, under the process limit " + std::to_string(p),
                {e.where}});
      if (!l.refused && count >= p)
        c_.add({guarantee::kLimits, who + " succeeded while " + std::to_string(count) +
                                        " workers were certainly live, the process limit being " + std::to_string(p),
                {e.where}});
    }
    if (undecided > 0)
      c_.verdict.undecided.push_back(std::to_string(undecided) +
                                     " spawn(s) whose count of live workers (G10) was past the budget of the "
                                     "causal graph's searches");
  }

  struct Limit {
    size_t node;
    bool refused;
    size_t worker, effect;
  };

  Checker& c_;
  CausalGraph g_;
  std::vector<Limit> limits_;
  std::vector<size_t> start_, exit_, ready_;
  std::vector<std::vector<size_t>> events_;
  std::vector<size_t> roots_, root_after_, given_;
  std::map<std::pair<size_t, size_t>, size_t> lookups_;         // (worker, effect index) -> lookup node
  std::map<std::string, std::map<int64_t, size_t>> numbers_;    // kind prefix -> number -> node
  std::map<std::string, int64_t> cut_spawns_;                   // kind prefix -> spawns cut before their child
};

}  // namespace

void check_happens_before(Checker& c) { HappensBefore(c).run(); }

}  // namespace concord
