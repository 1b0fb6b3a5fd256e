// oracle/free/sup_replay.cpp: each supervisor incarnation replayed on the inputs its
// trace says it handled, in that order (SPEC §25.3 G3, §25.4 G9). The rules are
// oracle/supervision.cpp's (OTP 25's supervisor.erl: do_restart/3, restart/3,
// add_restart/1, terminate_children/2, try_again_restart/1, do_auto_shutdown/2,
// handle_call/3), applied to the supervisor's own child list; where a rule starts or
// terminates a child, the child's own incarnation in the trace says how it went:
// the start's outcome is its replay's, a termination is its exit.
#include <set>

#include "oracle/free/checker.hpp"

namespace concord {
namespace {

struct Entry {
  int32_t name = -1;
  Restart restart = Restart::Permanent;
  bool is_sup = false;
  bool running = false;
  bool significant = false;
  bool restarting = false;    // a failed restart whose retry is pending (§19.3)
  size_t proc = kUnrecorded;  // its current incarnation
};

struct Stop {};  // the supervisor shuts down (gives up, auto_shutdown, a failed start)

// Whether a body can set the trap flag (§16.2 trap_exit), at any depth.
bool may_trap(const std::vector<Stmt>& body) {
  for (const Stmt& s : body)
    if (s.kind == StmtKind::TrapExit || may_trap(s.body) || may_trap(s.orelse)) return true;
  return false;
}

// Whether a worker of this kind can ever trap exits: only such a worker ends `killed`
// by its supervisor's termination (§16.6: the shutdown time ran out); one that never
// traps ends `shutdown`, so a `killed` exit of it came from a kill signal before.
bool kind_may_trap(const Kind& k) {
  if (may_trap(k.init)) return true;
  for (const Handler& h : k.handlers)
    if (may_trap(h.body)) return true;
  return false;
}

class SupReplayer {
 public:
  SupReplayer(Checker& c, size_t i, std::map<int32_t, int64_t>& next_inc)
      : c_(c),
        i_(i),
        proc_(c.t.processes[i]),
        decl_(*c.decls[static_cast<size_t>(c.sup_index[i])]),
        next_inc_(next_inc),
        out_(c.sups[i]) {
    for (const char* w : {"normal", "shutdown", "killed"}) words_.push_back(c.t.names.intern(w));
  }

  void run() {
    out_.acts.push_back({-1, {}});
    try {
      start();
      inputs();
      if (proc_.exit >= 0)
        terminated_from_outside();
      else
        final_children();
    } catch (const Stop&) {
      if (next_ < proc_.events.size())
        fail(me() + " has events after it shut down (" + proc_.events[next_].where + ")", {proc_.events[next_].where});
      if (proc_.exit != words_[1])
        fail(me() + " shut down, and the trace has it " +
                 (proc_.exit < 0 ? std::string("alive at the end") : "exit with " + c_.t.names[proc_.exit]),
             {proc_.where + "/exit"});
    }
    out_.done = true;
  }

 private:
  std::string me() const { return c_.name(i_); }
  [[noreturn]] void fail(const std::string& text, std::vector<std::string> places = {},
                         const char* g = guarantee::kSupervisors) const {
    throw ViolationError{Violation{g, text, std::move(places)}};
  }
  SupReplay::Act& act() { return out_.acts.back(); }

  // --- starting and terminating children ------------------------------------------

  StartEnd start_entry(Entry& e, const std::string& why) {
    int64_t inc = ++next_inc_[e.name];
    size_t idx = c_.find({e.name, inc});
    if (idx == kUnrecorded)
      fail(me() + " starts " + c_.t.names[e.name] + " (" + why + "), and the trace has no " + c_.t.names[e.name] + "#" +
           std::to_string(inc));
    if (c_.t.processes[idx].supervisor != e.is_sup)
      fail(c_.name(idx) + " is listed as a " + (e.is_sup ? "worker" : "supervisor") + "; it is a " +
           (e.is_sup ? "supervisor" : "worker") + " of the program");
    c_.claim(idx, static_cast<long>(i_), "by " + me() + " (" + why + ")");
    act().steps.push_back({true, idx});
    e.proc = idx;
    StartEnd how = e.is_sup ? sup_start(idx) : c_.worker(idx).start;
    e.running = how == StartEnd::Ok;
    return how;
  }

  StartEnd sup_start(size_t idx);  // below: replays the child supervisor

  // §7.5, OTP do_terminate/2 and shutdown/1: a running child ends with shutdown; one
  // that had exited by itself meanwhile has its exit consumed (§17.3).
  void do_terminate(Entry& e) {
    e.restarting = false;
    if (!e.running) return;
    e.running = false;
    size_t idx = e.proc;
    const TraceProcess& ch = c_.t.processes[idx];
    if (ch.exit < 0)
      fail(me() + " terminates " + c_.name(idx) + " here, and the trace has " + c_.name(idx) + " alive at the end",
           {ch.where + "/exit"});
    if (c_.fate[idx] != ExitFate::Unseen)
      fail(me() + " terminates " + c_.name(idx) + ", whose exit it had already taken", {ch.where});
    bool from_outside = ch.supervisor ? !c_.sups[idx].gave_up : c_.workers[idx].end == WorkerReplay::End::Cut;
    // §16.6: a blocked worker that traps exits is killed when the shutdown time runs
    // out. A reason a signal can have brought (a linked process's exit, an exit(e, R)
    // that reached it) may be that signal's, taken before the termination came: the
    // weaker reading, no termination before the exit.
    bool killed_by_us = c_.p.version >= 2 && ch.exit == words_[2] && !c_.signal_ends[idx] &&
                        (ch.supervisor || c_.workers[idx].kind < 0 ||
                         kind_may_trap(c_.p.kinds[static_cast<size_t>(c_.workers[idx].kind)]));
    bool by_us = from_outside && ((ch.exit == words_[1] && !c_.signal_ends[idx]) || killed_by_us);
    c_.fate[idx] = by_us ? ExitFate::Terminated : ExitFate::Consumed;
    if (by_us) c_.explained[idx] = 1;
    c_.fate_by[idx] = static_cast<long>(i_);
    act().steps.push_back({false, idx});
  }

  void terminate_children(size_t from) {
    for (size_t k = children_.size(); k-- > from;) do_terminate(children_[k]);
  }

  // --- the start (§6.7, §19.2; OTP init_children/2, start_children/2) ---------------

  void start() {
    for (const Child& ch : decl_.children) {
      Entry e;
      e.restart = ch.restart;
      e.significant = ch.significant;
      if (auto* pd = std::get_if<ProcessDecl>(&ch.decl)) {
        e.name = c_.t.names.intern(pd->name);
      } else {
        e.name = c_.t.names.intern(std::get<SupervisorDecl>(ch.decl).name);
        e.is_sup = true;
      }
      children_.push_back(e);
      StartEnd how = start_entry(children_.back(), "its start");
      if (how == StartEnd::Ignored && e.restart == Restart::Temporary) children_.pop_back();
      if (how == StartEnd::Failed) {  // [R34/stop]
        terminate_children(0);
        out_.start = StartEnd::Failed;
        out_.gave_up = true;
        throw Stop{};
      }
    }
  }

  // --- inputs (§17.3 in the order handled) -------------------------------------------

  void inputs() {
    while (next_ < proc_.events.size()) {
      const TraceEvent& e = proc_.events[next_];
      size_t at = next_++;
      out_.acts.push_back({static_cast<long>(at), {}});
      decided_.clear();
      try {
        switch (e.ev) {
          case TraceEv::ChildExit: child_exit(e); break;
          case TraceEv::StartChild: start_child(e); break;
          case TraceEv::Retry: retry(e); break;
          case TraceEv::ApiRequest: api(e); break;
          case TraceEv::Decision:
            fail(event_text(c_.t, i_, at) + " is a decision (" + e.action + " for " + c_.t.names[e.name] + ") that " +
                     me() + " takes on no input it handled",
                 {e.where});
          default: fail(event_text(c_.t, i_, at) + " is not a supervisor's input", {e.where});
        }
      } catch (const Stop&) {
        match_decisions(at);
        throw;
      }
      match_decisions(at);
    }
  }

  // The decisions the trace shows after input `at` are the ones the rules took.
  void match_decisions(size_t at) {
    size_t k = 0;
    for (; next_ < proc_.events.size() && proc_.events[next_].ev == TraceEv::Decision; next_++, k++) {
      const TraceEvent& d = proc_.events[next_];
      if (k >= decided_.size())
        fail(me() + " takes no " + d.action + " decision for " + c_.t.names[d.name] + " on " +
                 event_text(c_.t, i_, at) + (decided_.empty() ? "" : " (it decided " + decisions() + ")"),
             {d.where});
      if (d.name != decided_[k].first || d.action != decided_[k].second)
        fail(me() + " decides " + decisions() + " on " + event_text(c_.t, i_, at) + "; the trace has " + d.action +
                 " for " + c_.t.names[d.name],
             {d.where, proc_.events[at].where});
    }
    if (k < decided_.size())
      fail(me() + " decides " + decided_[k].second + " for " + c_.t.names[decided_[k].first] + " on " +
               event_text(c_.t, i_, at) + "; the trace shows no such decision",
           {proc_.events[at].where});
  }

  std::string decisions() const {
    std::string s;
    for (const auto& [name, action] : decided_) s += (s.empty() ? "" : ", ") + action + " for " + c_.t.names[name];
    return s;
  }

  void decide(int32_t child, const char* action) { decided_.push_back({child, action}); }

  Entry* entry(int32_t name, size_t& index) {
    for (size_t k = 0; k < children_.size(); k++)
      if (children_[k].name == name) {
        index = k;
        return &children_[k];
      }
    return nullptr;
  }

  // OTP handle_info({'EXIT', ...}) L608 -> restart_child/3: of a child it started.
  void child_exit(const TraceEvent& e) {
    size_t idx = c_.find(e.from);
    if (idx == kUnrecorded || c_.started_by[idx] != static_cast<long>(i_))
      fail(me() + " handles the exit of " + inc_text(c_.t.names, e.from) + ", which it did not start", {e.where});
    const TraceProcess& ch = c_.t.processes[idx];
    if (ch.exit < 0)
      fail(me() + " handles the exit of " + c_.name(idx) + ", which is alive at the end", {e.where, ch.where},
           guarantee::kCausality);
    if (ch.exit != e.reason)
      fail(me() + " handles " + c_.name(idx) + "'s exit with reason " + c_.t.names[e.reason] + "; " + c_.name(idx) +
               " exited with " + c_.t.names[ch.exit],
           {e.where, ch.where + "/exit"});
    if (c_.fate[idx] == ExitFate::Handled)
      fail(me() + " handles " + c_.name(idx) + "'s exit twice", {e.where}, guarantee::kExactlyOnce);
    if (c_.fate[idx] != ExitFate::Unseen)
      fail(me() + " handles " + c_.name(idx) + "'s exit, which its own termination of " + c_.name(idx) +
               " had taken (OTP's shutdown/1 and unlink_flush/2 consume that 'EXIT', §17.3)",
           {e.where});
    c_.fate[idx] = ExitFate::Handled;
    c_.fate_by[idx] = static_cast<long>(i_);
    size_t k = 0;
    Entry* en = entry(ch.id.name, k);
    if (!en || !en->running || en->proc != idx) return;  // of a child no longer in the list: dropped
    do_restart(k, e.reason);
  }

  bool abnormal(int32_t reason) const { return reason != words_[0] && reason != words_[1]; }

  // §7.2, OTP do_restart/3 L735-L750.
  void do_restart(size_t k, int32_t reason) {
    Entry& e = children_[k];
    e.running = false;
    if (e.restart == Restart::Permanent)
      restart(k);
    else if (!abnormal(reason))
      del_child(k);
    else if (e.restart == Restart::Transient)
      restart(k);
    else
      del_child(k);
  }

  // §7.3, §7.4: OTP restart/2 = add_restart/1, then restart/3 by strategy.
  void restart(size_t k) {
    int32_t child = children_[k].name;
    if (++restarts_ > decl_.intensity) return shut_down(child, "give_up");  // [R7]
    decide(child, "restart");
    switch (decl_.strategy) {
      case Strategy::OneForOne:
        children_[k].restarting = false;
        if (start_entry(children_[k], "restarting it") == StartEnd::Failed) restart_failed(k);
        return;
      case Strategy::OneForAll: children_[k].running = false; return restart_multiple(0);
      case Strategy::RestForOne: return restart_multiple(k);
    }
  }

  void restart_failed(size_t k) {  // §19.3: try_again_restart/1, a message to itself
    children_[k].restarting = true;
    pending_retries_.push_back(children_[k].name);
  }

  void restart_multiple(size_t from) {
    terminate_children(from);
    std::vector<Entry> kept(children_.begin(), children_.begin() + static_cast<long>(from));
    for (size_t k = from; k < children_.size(); k++)
      if (children_[k].restart != Restart::Temporary) kept.push_back(children_[k]);
    children_ = std::move(kept);
    for (size_t k = from; k < children_.size(); k++)
      if (start_entry(children_[k], "restarting it with its siblings") == StartEnd::Failed) {
        restart_failed(k);
        return;
      }
  }

  // §21, OTP do_auto_shutdown/2 after del_child/2.
  void del_child(size_t k) {
    Entry e = children_[k];
    if (e.restart == Restart::Temporary)
      children_.erase(children_.begin() + static_cast<long>(k));
    else
      children_[k].running = false;
    bool shut = false;
    if (e.significant) switch (decl_.auto_shutdown) {
        case AutoShutdown::Never: break;
        case AutoShutdown::AnySignificant: shut = true; break;
        case AutoShutdown::AllSignificant:
          shut = true;
          for (const Entry& o : children_)
            if (o.significant && (o.running || o.restarting)) shut = false;
          break;
      }
    if (shut) return shut_down(e.name, "auto_shutdown");
    decide(e.name, e.restart == Restart::Temporary ? "remove" : "keep");
  }

  void shut_down(int32_t child, const char* action) {
    decide(child, action);
    terminate_children(0);
    out_.gave_up = true;
    throw Stop{};
  }

  // A spawn under it (§7.6, §19.4; OTP handle_start_child/2).
  void start_child(const TraceEvent& e) {
    size_t from = c_.find(e.from);
    if (from == kUnrecorded || c_.t.processes[from].supervisor)
      fail(me() + " starts a child for " + inc_text(c_.t.names, e.from) + ", not a worker of the trace", {e.where});
    const WorkerReplay& s = c_.worker(from);
    size_t n = static_cast<size_t>(e.n);
    const ReplayedEffect* x = n >= 1 && n <= s.effects.size() ? &s.effects[n - 1] : nullptr;
    if (!x || x->ev != TraceEv::Spawn || x->under != decl_.index)
      fail(me() + " starts " + c_.t.names[e.name] + " for " + c_.name(from) + "'s effect " + std::to_string(e.n) +
               ", which is not a spawn under " + decl_.name,
           {e.where});
    const TraceEvent* rec = x->event == kUnrecorded ? nullptr : &c_.t.processes[from].events[x->event];
    if (rec && rec->name != e.name)
      fail(me() + " starts " + c_.t.names[e.name] + " for " + c_.name(from) + "'s effect " + std::to_string(e.n) +
               ", which names " + (rec->refused.empty() ? c_.t.names[rec->name] : "nothing (refused)"),
           {e.where, rec->where});
    if (!spawns_.insert({from, n}).second)
      fail(me() + " starts a child twice for " + c_.name(from) + "'s effect " + std::to_string(e.n), {e.where},
           guarantee::kExactlyOnce);
    Entry en;
    en.name = e.name;
    en.restart = x->restart;
    en.significant = x->significant;
    children_.push_back(en);
    StartEnd how = start_entry(children_.back(), "for " + c_.name(from) + "'s spawn");
    if (rec && rec->result != (how == StartEnd::Ok ? "ok" : how == StartEnd::Failed ? "failed" : "ignored"))
      fail(c_.name(from) + "'s spawn of " + c_.t.names[e.name] + " says its start " + rec->result + "; the start " +
               (how == StartEnd::Ok       ? "succeeded"
                : how == StartEnd::Failed ? "failed"
                                          : "was ignored"),
           {rec->where}, guarantee::kReplay);
    if (how == StartEnd::Failed || (how == StartEnd::Ignored && en.restart == Restart::Temporary)) children_.pop_back();
  }

  void retry(const TraceEvent& e) {
    if (pending_retries_.empty() || pending_retries_.front() != e.name)
      fail(me() + " retries " + c_.t.names[e.name] + ", with no failed restart of it pending", {e.where});
    pending_retries_.erase(pending_retries_.begin());
    size_t k = 0;
    Entry* en = entry(e.name, k);
    if (!en || !en->restarting) return;
    restart(k);
  }

  // §20, OTP handle_call/3: the request of the caller's effect, answered as its trace says.
  void api(const TraceEvent& e) {
    size_t from = c_.find(e.from);
    if (from == kUnrecorded || c_.t.processes[from].supervisor)
      fail(me() + " handles an API request of " + inc_text(c_.t.names, e.from) + ", not a worker of the trace",
           {e.where}, guarantee::kApi);
    const WorkerReplay& s = c_.worker(from);
    size_t n = static_cast<size_t>(e.n);
    const ReplayedEffect* x = n >= 1 && n <= s.effects.size() ? &s.effects[n - 1] : nullptr;
    if (!x || x->ev != TraceEv::Api || x->sup != decl_.index)
      fail(me() + " handles " + c_.name(from) + "'s effect " + std::to_string(e.n) + " as an API request to it",
           {e.where}, guarantee::kApi);
    std::string result = api_result(*x);
    if (x->event != kUnrecorded) {
      const TraceEvent& rec = c_.t.processes[from].events[x->event];
      if (!(rec.supervisor == proc_.id))
        fail(c_.name(from) + "'s " + api_name(x->op) + " found " + inc_text(c_.t.names, rec.supervisor) + "; " + me() +
                 " handled it",
             {rec.where, e.where}, guarantee::kApi);
      if (rec.result != result)
        fail(c_.name(from) + "'s " + api_name(x->op) + " of " + c_.t.names[x->child] + " says " + rec.result + "; " +
                 me() + "'s child list then gives " + result,
             {rec.where, e.where}, guarantee::kApi);
    }
  }

  std::string api_result(const ReplayedEffect& x) {
    size_t k = 0;
    Entry* en = entry(x.child, k);
    if (!en) return "not_found";
    switch (x.op) {
      case ApiOp::TerminateChild:
        do_terminate(*en);
        if (children_[k].restart == Restart::Temporary) children_.erase(children_.begin() + static_cast<long>(k));
        return "ok";
      case ApiOp::RestartChild: {
        if (en->running) return "running";
        if (en->restarting) return "restarting";
        StartEnd how = start_entry(*en, "restart_child");
        return how == StartEnd::Ok ? "ok" : how == StartEnd::Ignored ? "ignored" : "failed";
      }
      case ApiOp::DeleteChild:
        if (en->running) return "running";
        if (en->restarting) return "restarting";
        children_.erase(children_.begin() + static_cast<long>(k));
        return "ok";
    }
    return "not_found";
  }

  // --- the end ---------------------------------------------------------------------------

  // Terminated by its parent (§7.5): its children first, in reverse start order.
  void terminated_from_outside() {
    if (proc_.exit != words_[1])
      fail(me() + " exited with " + c_.t.names[proc_.exit] + " without shutting down: a supervisor exits with shutdown",
           {proc_.where + "/exit"});
    out_.acts.push_back({static_cast<long>(proc_.events.size()), {}});
    terminate_children(0);
  }

  void final_children() {
    ojson want = ojson::array();
    for (const Entry& e : children_) want.push_back({{"name", c_.t.names[e.name]}, {"running", e.running}});
    if (want != proc_.state)
      fail(me() + "'s children at the end are " + proc_.state.dump() + "; its inputs give " + want.dump(),
           {proc_.where + "/children"});
  }

  Checker& c_;
  size_t i_;
  const TraceProcess& proc_;
  const SupervisorDecl& decl_;
  std::map<int32_t, int64_t>& next_inc_;
  SupReplay& out_;
  std::vector<int32_t> words_;
  std::vector<Entry> children_;
  int64_t restarts_ = 0;
  size_t next_ = 0;
  std::vector<std::pair<int32_t, std::string>> decided_;
  std::vector<int32_t> pending_retries_;
  std::set<std::pair<size_t, size_t>> spawns_;
};

void replay_sup(Checker& c, size_t i) {
  if (c.sups[i].done) return;
  SupReplayer(c, i, c.next_inc).run();
}

StartEnd SupReplayer::sup_start(size_t idx) {
  replay_sup(c_, idx);
  return c_.sups[idx].start;
}

}  // namespace

void replay_supervisors(Checker& c) {
  // Incarnations whose exit reason a signal can have brought (§16.3 [R16, R18, R19]):
  // a process linked to it that exited with that reason (not normal), or an exit(e,
  // R) that reached it with R (kill: killed). Its exit may be that signal's, taken
  // before a termination came (do_terminate); signals.cpp's cause() asks the same.
  c.signal_ends.assign(c.t.processes.size(), 0);
  int32_t normal = c.t.names.intern("normal"), killed = c.t.names.intern("killed");
  auto ends = [&](size_t q, int32_t reason) {
    if (q != kUnrecorded && !c.t.processes[q].supervisor && reason >= 0 && reason != normal &&
        c.t.processes[q].exit == reason)
      c.signal_ends[q] = 1;
  };
  for (size_t s = 0; s < c.t.processes.size(); s++) {
    if (c.t.processes[s].supervisor) continue;
    for (const ReplayedEffect& x : c.workers[s].effects) {
      if (x.event == kUnrecorded) continue;
      size_t q = c.find(c.t.processes[s].events[x.event].reached);
      if (q == kUnrecorded || q == s) continue;
      if (x.ev == TraceEv::ExitSignal && !x.args.empty())
        ends(q, x.args[0] == -1 ? killed : static_cast<int32_t>(x.args[0]));
      if (x.ev == TraceEv::Link) {  // either side's exit signals the other
        ends(q, c.t.processes[s].exit);
        ends(s, c.t.processes[q].exit);
      }
    }
  }
  // The roots, each incarnation 1 (the outside starts them); their subtrees are
  // replayed as they start them.
  for (size_t i = 0; i < c.t.processes.size(); i++)
    if (c.t.processes[i].supervisor && c.parent[static_cast<size_t>(c.sup_index[i])] < 0 &&
        c.t.processes[i].id.inc == 1)
      replay_sup(c, i);
}

}  // namespace concord
