// oracle/free/replay.cpp: replaying one worker incarnation on what it observed
// (SPEC §25.3 G1-G3). The statements are §6's (version 2: §16.2, §18, §19, §20) run
// against the incarnation's own state; where a statement meets the rest of the run
// (a send, a spawn, a link ...), the trace's next event must record that very
// effect, and its outcome is taken from it. The body runs by recursion: a call
// waits in place for the `resume` the trace shows next.
#include "replay.hpp"

#include <stdexcept>

#include "oracle/eval.hpp"

namespace concord {

int32_t kind_index(const Program& p, const std::string& kind) {
  for (size_t k = 0; k < p.kinds.size(); k++)
    if (p.kinds[k].name == kind) return static_cast<int32_t>(k);
  return -1;
}

std::string inc_text(const NameTable& names, const IncRef& r) {
  if (r.none()) return "the outside";
  return names[r.name] + "#" + std::to_string(r.inc);
}

std::string event_text(const Trace& t, size_t proc, size_t event) {
  return inc_text(t.names, t.processes[proc].id) + "'s event " + std::to_string(event + 1);
}

namespace {

// A statement budget, as the oracle's (SPEC §11): a trace of many heavy turns is
// replayed within it or not at all.
constexpr int64_t kStepLimit = 1'000'000'000;

struct OwnExit {  // the program ends the incarnation (§6.4)
  int32_t reason;
};
struct Ignored {};      // init returned ignore (§19.1)
struct OutOfEvents {};  // the trace ends where the program goes on

std::string lower(const std::string& s) {
  std::string out;
  for (char c : s) out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

bool reason_text(const std::string& s) { return !s.empty() && (is_reason_word(s) || (s[0] >= 'A' && s[0] <= 'Z')); }

class Replayer {
 public:
  Replayer(const Program& p, Trace& t, size_t index, std::vector<Value> params)
      : p_(p), t_(t), proc_(t.processes[index]), index_(index) {
    r_.kind = kind_index(p, proc_.kind);
    r_.params = std::move(params);
    kind_ = &p.kinds[static_cast<size_t>(r_.kind)];
    self_ = proc_.id.name;
    supervised_ = !proc_.by.none() && by_supervisor();
    for (const char* w :
         {"normal", "killed", "NO_HANDLER", "DIV_ZERO", "SYSTEM_LIMIT", "NOPROC", "CALLING_SELF", "BAD_REPLY"})
      words_.push_back(t_.names.intern(w));
  }

  WorkerReplay run() {
    try {
      start();
      turns();
      r_.end = WorkerReplay::End::Alive;
      if (proc_.exit >= 0) r_.end = WorkerReplay::End::Cut;  // between turns: from outside
    } catch (const OwnExit& x) {
      own_exit(x.reason);
    } catch (const OutOfEvents&) {
      r_.end = WorkerReplay::End::Cut;
      r_.mid_turn = !waiting_;
      r_.waiting = waiting_;
      if (proc_.exit < 0 && !waiting_)
        fail(guarantee::kOneTurn, where() + " stops in the middle: the program makes " + wanted_ +
                                      " next, and the trace has " + me() + " alive at the end, with no exit");
    }
    if (r_.end == WorkerReplay::End::Alive) {
      r_.waiting = waiting_;
      r_.state = state_;
      check_state();
    }
    r_.done = true;
    return std::move(r_);
  }

  // What eval() (eval.hpp) reads.
  struct Frame {
    const Replayer& r;
    const std::vector<Value>& args;
    Value var(const Expr& e) const {
      switch (e.scope) {
        case Scope::Param: return r.r_.params[static_cast<size_t>(e.slot)];
        case Scope::Field: return r.state_[static_cast<size_t>(e.slot)];
        case Scope::Arg: return args[static_cast<size_t>(e.slot)];
      }
      return 0;
    }
    Value self() const { return r.self_; }
    [[noreturn]] void div_zero() const { throw OwnExit{r.word(kDivZero)}; }
  };

 private:
  enum Word { kNormal, kKilled, kNoHandler, kDivZero, kSystemLimit, kNoproc, kCallingSelf, kBadReply };
  int32_t word(Word w) const { return words_[w]; }

  bool by_supervisor() const {
    for (const TraceProcess& q : t_.processes)
      if (q.supervisor && q.id.name == proc_.by.name) return true;
    return false;
  }

  std::string me() const { return inc_text(t_.names, proc_.id); }
  std::string where() const { return turn_ == 0 ? me() + "'s init" : me() + "'s turn " + std::to_string(turn_); }

  [[noreturn]] void fail(const char* g, const std::string& text, std::vector<std::string> places = {}) const {
    throw ViolationError{Violation{g, text, std::move(places)}};
  }

  // --- the start (§6.7, §19.1) -------------------------------------------------------

  void start() {
    static const std::vector<Value> none;
    Frame f{*this, none};
    try {
      for (const Field& fd : kind_->state) state_.push_back(eval(f, fd.init));  // sees params and self only
      body(kind_->init, none);
    } catch (const OwnExit& x) {
      r_.start = StartEnd::Failed;
      r_.start_reason = x.reason;
      r_.init_end = next_;
      throw;
    } catch (const Ignored&) {
      r_.start = StartEnd::Ignored;
      r_.init_end = next_;
      throw OwnExit{word(kNormal)};
    }
    r_.init_end = next_;
  }

  // --- turns (§8.2 steps 5-6, one at a time: G1, G2) ------------------------------

  void turns() {
    turn_events();
    if (pending_self_exit_ >= 0) throw OwnExit{pending_self_exit_};
  }

  void turn_events() {
    while (next_ < proc_.events.size()) {
      const TraceEvent& e = proc_.events[next_];
      size_t at = next_++;
      switch (e.ev) {
        case TraceEv::Deliver:
          turn_++;
          r_.turns.push_back(at);
          deliver(e);
          break;
        case TraceEv::Signal: signal(e); break;
        case TraceEv::Resume:
          fail(guarantee::kCalls, event_text(t_, index_, at) + " resumes a call where " + me() + " waits in none",
               {e.where});
        default:
          fail(guarantee::kOneTurn,
               event_text(t_, index_, at) + " is a " + trace_ev_name(e.ev) + " where " + me() +
                   "'s program has ended its " + (turn_ == 0 ? std::string("init") : "turn " + std::to_string(turn_)) +
                   ": a turn (deliver) comes first",
               {e.where});
      }
    }
  }

  // A signal the runtime saw take effect other than as a message (§25.6): an ignored
  // one changes nothing; one that ended the incarnation is its last event.
  void signal(const TraceEvent& e) {
    if (e.effect == "ignore") return;
    if (next_ != proc_.events.size())
      fail(guarantee::kSignals, me() + " has events after a signal ended it (" + e.where + ")", {e.where});
    if (proc_.exit != e.reason)
      fail(guarantee::kSignals, me() + "'s exit reason is not the reason of the signal that ended it", {e.where});
    throw OutOfEvents{};  // an exit from outside, between turns
  }

  // The values of a message's arguments as written, and their types (§22: ints are
  // integers, addrs and reasons names, never ambiguous).
  void read_args(const ojson& args, std::vector<Value>& values, std::vector<Type>& types) {
    for (const ojson& a : args) {
      if (a.is_number_integer()) {
        values.push_back(a.get<int64_t>());
        types.push_back(Type::Int);
      } else {
        const std::string s = a.get<std::string>();
        values.push_back(t_.names.intern(s));
        types.push_back(reason_text(s) ? Type::Reason : Type::Addr);
      }
    }
  }

  int32_t handler_for(const std::string& tag, const std::vector<Type>& types) const {
    for (size_t h = 0; h < kind_->handlers.size(); h++) {
      const Handler& hd = kind_->handlers[h];
      if (hd.tag != tag || hd.params.size() != types.size()) continue;
      bool same = true;
      for (size_t i = 0; i < types.size(); i++) same = same && hd.params[i].type == types[i];
      if (same) return static_cast<int32_t>(h);
    }
    return -1;
  }

  void deliver(const TraceEvent& e) {
    std::vector<Value> args;
    std::vector<Type> types;
    read_args(e.args, args, types);
    int32_t h = handler_for(t_.names[e.tag], types);
    if (h < 0) throw OwnExit{word(kNoHandler)};  // §6.5
    serving_ = e.call;
    self_exit_ = -1;
    body(kind_->handlers[static_cast<size_t>(h)].body, args);
    serving_ = false;
    // §16.3: a trapping unsupervised exit(self, r) ends it when it reads the 'EXIT'
    // from itself: after this handler, and (OTP's order, §17.4) after the messages
    // already in its mailbox, which it may handle first. The first one counts.
    if (self_exit_ >= 0 && pending_self_exit_ < 0) pending_self_exit_ = self_exit_;
  }

  // --- statements (§6; version 2: §16.2, §18, §20) --------------------------------

  void body(const std::vector<Stmt>& b, const std::vector<Value>& args) {
    for (const Stmt& s : b) stmt(s, args);
  }

  void count_steps() {
    if (++steps_ > kStepLimit)
      throw std::runtime_error("the trace needs more than " + std::to_string(kStepLimit) +
                               " statements to replay; not checked");
  }

  void stmt(const Stmt& s, const std::vector<Value>& args) {
    count_steps();
    Frame f{*this, args};
    switch (s.kind) {
      case StmtKind::Assign: state_[static_cast<size_t>(s.slot)] = eval(f, s.exprs[0]); return;
      case StmtKind::If: return body(eval(f, s.exprs[0]) != 0 ? s.body : s.orelse, args);
      case StmtKind::Repeat:
        for (int64_t i = 0; i < s.count; i++) body(s.body, args);
        return;
      case StmtKind::Send: return send(f, s);
      case StmtKind::Spawn: return spawn(f, s);
      case StmtKind::Stop: throw OwnExit{s.exprs.empty() ? word(kNormal) : static_cast<int32_t>(eval(f, s.exprs[0]))};
      case StmtKind::Fail: throw OwnExit{t_.names.intern(s.name)};
      case StmtKind::Ignore: throw Ignored{};
      case StmtKind::TrapExit: trap_ = eval(f, s.exprs[0]) != 0; return;
      case StmtKind::Link:
      case StmtKind::Unlink:
      case StmtKind::Monitor:
      case StmtKind::Demonitor: return on_name(f, s);
      case StmtKind::Exit: return exit_signal(f, s);
      case StmtKind::Call: return call(f, s);
      case StmtKind::Reply: return reply(f, s);
      case StmtKind::Api: return api(f, s);
    }
  }

  std::vector<Value> eval_all(const Frame& f, const std::vector<Expr>& es, size_t from) {
    std::vector<Value> out;
    for (size_t i = from; i < es.size(); i++) out.push_back(eval(f, es[i]));
    return out;
  }

  std::string describe(const ReplayedEffect& x) const {
    std::string to = x.to >= 0 ? " to " + t_.names[x.to] : "";
    switch (x.ev) {
      case TraceEv::Send: return "a send of " + p_.sigs[static_cast<size_t>(x.sig)].tag + to;
      case TraceEv::Spawn: return "a spawn of " + p_.kinds[static_cast<size_t>(x.kind)].name;
      case TraceEv::Api: return std::string("a ") + api_name(x.op);
      default: return std::string("a ") + trace_ev_name(x.ev) + to;
    }
  }

  // The trace's next event records effect `x` (its kind `ev`, or either of Send and
  // Drop for a send); past the trace's end, `x` is the effect a cut turn may have made
  // unrecorded (§25.6).
  const TraceEvent& record(ReplayedEffect x) {
    x.turn = turn_;
    std::string what = describe(x);
    if (next_ >= proc_.events.size()) {
      wanted_ = what;
      r_.effects.push_back(x);
      r_.effects.back().event = kUnrecorded;
      throw OutOfEvents{};
    }
    const TraceEvent& e = proc_.events[next_];
    bool same = e.ev == x.ev || (x.ev == TraceEv::Send && e.ev == TraceEv::Drop);
    if (!same)
      fail(guarantee::kReplay,
           where() + ": the program makes " + what + " (effect " + std::to_string(r_.effects.size() + 1) + "); " +
               event_text(t_, index_, next_) + " is a " + trace_ev_name(e.ev),
           {e.where});
    if (x.to >= 0 && e.to != x.to)
      fail(guarantee::kReplay,
           where() + ": the program makes " + what + " (effect " + std::to_string(e.n) + "); the trace has it on " +
               t_.names[e.to],
           {e.where});
    x.event = next_++;
    r_.effects.push_back(x);
    return e;
  }

  void send(const Frame& f, const Stmt& s) {
    ReplayedEffect x;
    x.ev = TraceEv::Send;
    x.to = static_cast<int32_t>(eval(f, s.exprs[0]));  // the receiver, then the arguments (§5: left to right)
    x.args = eval_all(f, s.exprs, 1);
    x.sig = s.slot;
    record(x);
  }

  void spawn(const Frame& f, const Stmt& s) {
    ReplayedEffect x;
    x.ev = TraceEv::Spawn;
    x.args = eval_all(f, s.exprs, 0);
    x.kind = s.slot;
    x.under = s.slot3;
    x.restart = s.restart;
    x.significant = s.significant;
    const TraceEvent& e = record(x);
    if (e.refused == "SYSTEM_LIMIT") throw OwnExit{word(kSystemLimit)};  // §6.6 step 1
    if (e.refused == "NOPROC") {
      if (s.slot3 < 0)
        fail(guarantee::kReplay, where() + ": a spawn without `under` refused with NOPROC (" + e.where + ")",
             {e.where});
      throw OwnExit{word(kNoproc)};  // §6.6 step 2
    }
    const std::string& name = t_.names[e.name];
    std::string prefix = lower(p_.kinds[static_cast<size_t>(s.slot)].name) + "-";
    if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size() || name[prefix.size()] == '0' ||
        name.find_first_not_of("0123456789", prefix.size()) != std::string::npos)
      fail(guarantee::kSpawnedNames,
           where() + ": a spawn of " + p_.kinds[static_cast<size_t>(s.slot)].name + " named " + name + ", not " +
               prefix + "N (§2)",
           {e.where});
    if (p_.version < 2 && e.result != "ok")
      fail(guarantee::kReplay,
           where() + ": the start of " + name + " " + e.result + ", which a version 1 program's start cannot (§4.9)",
           {e.where});
    if (s.slot2 >= 0) state_[static_cast<size_t>(s.slot2)] = e.name;
  }

  // link, unlink, monitor, demonitor (§16.2): their effect on others is checked between
  // incarnations; here, what a name with no live process does to the statement's maker.
  void on_name(const Frame& f, const Stmt& s) {
    ReplayedEffect x;
    x.ev = s.kind == StmtKind::Link      ? TraceEv::Link
           : s.kind == StmtKind::Unlink  ? TraceEv::Unlink
           : s.kind == StmtKind::Monitor ? TraceEv::Monitor
                                         : TraceEv::Demonitor;
    x.to = static_cast<int32_t>(eval(f, s.exprs[0]));
    const TraceEvent& e = record(x);
    if (x.to == self_ || !e.reached.none()) return;
    if (s.kind == StmtKind::Link && !trap_) throw OwnExit{word(kNoproc)};  // link/1 raises noproc [R20]
    // A trapping link, or a monitor, to no live process: the message is its own, and
    // comes as a later turn (`deliver` with signal noproc).
  }

  // exit(e, r), exit(e, kill) (§16.2, §16.3): to itself it takes effect at once.
  void exit_signal(const Frame& f, const Stmt& s) {
    ReplayedEffect x;
    x.ev = TraceEv::ExitSignal;
    x.to = static_cast<int32_t>(eval(f, s.exprs[0]));
    int32_t reason = s.kill ? -1 : static_cast<int32_t>(eval(f, s.exprs[1]));
    x.args = {reason};
    record(x);
    if (x.to != self_) return;                     // queued: checked between incarnations
    if (reason < 0) throw OwnExit{word(kKilled)};  // kill [R18]
    if (!trap_) throw OwnExit{reason};             // normal too [R19/self_non_trapping_normal]
    // A supervised trapping worker gets the message, a later turn; an unsupervised
    // one exits when this handler ends [R19/self_trapping_*].
    if (!supervised_ && self_exit_ < 0) self_exit_ = reason;
  }

  void call(const Frame& f, const Stmt& s) {
    ReplayedEffect x;
    x.ev = TraceEv::Call;
    x.to = static_cast<int32_t>(eval(f, s.exprs[0]));
    x.args = eval_all(f, s.exprs, 1);
    x.sig = s.slot;
    const TraceEvent& e = record(x);
    if (x.to == self_) throw OwnExit{word(kCallingSelf)};  // [R31/self]
    if (e.reached.none()) throw OwnExit{word(kNoproc)};    // [R31/dead]
    // It waits (§18.1): nothing but ignored signals until its resume (G2).
    waiting_ = true;
    while (true) {
      if (next_ >= proc_.events.size()) throw OutOfEvents{};
      const TraceEvent& n = proc_.events[next_];
      if (n.ev == TraceEv::Signal) {
        next_++;
        signal(n);
        continue;
      }
      if (n.ev != TraceEv::Resume)
        fail(guarantee::kMailbox,
             event_text(t_, index_, next_) + " is a " + trace_ev_name(n.ev) + " while " + me() +
                 " waits in its call to " + t_.names[x.to] + " (effect " + std::to_string(e.n) +
                 "): a waiting caller takes nothing but its reply (§18.3)",
             {n.where});
      break;
    }
    const TraceEvent& resume = proc_.events[next_];
    r_.turns.push_back(next_++);
    turn_++;
    waiting_ = false;
    if (resume.from.name != x.to || resume.from.inc != e.reached.inc)
      fail(guarantee::kCalls,
           event_text(t_, index_, next_ - 1) + ": " + me() + " resumes with a reply from " +
               inc_text(t_.names, resume.from) + ", having called " + inc_text(t_.names, e.reached),
           {resume.where, e.where});
    std::vector<Value> v;
    std::vector<Type> ty;
    ojson one = ojson::array({resume.args});
    read_args(one, v, ty);
    if (s.slot2 >= 0) {  // the reply's type is checked when it comes (§18.1)
      if (kind_->state[static_cast<size_t>(s.slot2)].type != ty[0]) throw OwnExit{word(kBadReply)};
      state_[static_cast<size_t>(s.slot2)] = v[0];
    }
  }

  void reply(const Frame& f, const Stmt& s) {
    ReplayedEffect x;
    x.ev = TraceEv::Reply;
    x.args = {eval(f, s.exprs[0])};
    x.sig = static_cast<int32_t>(s.exprs[0].type);
    x.serving = serving_;  // the first reply of a turn reached by a call answers it (§18.1)
    serving_ = false;
    record(x);
  }

  void api(const Frame& f, const Stmt& s) {
    ReplayedEffect x;
    x.ev = TraceEv::Api;
    x.op = s.api;
    x.sup = s.slot3;
    x.child = s.exprs.empty() ? t_.names.intern(s.name) : static_cast<int32_t>(eval(f, s.exprs[0]));
    const TraceEvent& e = record(x);
    if (e.op != api_name(s.api))
      fail(guarantee::kReplay, where() + ": the program makes a " + api_name(s.api) + "; the trace has a " + e.op,
           {e.where});
    if (e.supervisor.none()) throw OwnExit{word(kNoproc)};  // [R44]
    static const char* const kResults[] = {"ok", "not_found", "running", "restarting", "ignored", "failed"};
    int64_t number = -1;
    for (int64_t i = 0; i < 6; i++)
      if (e.result == kResults[i]) number = i;
    if (number < 0) fail(guarantee::kApi, e.where + ": not a result of §20: " + e.result, {e.where});
    if (s.slot2 >= 0) state_[static_cast<size_t>(s.slot2)] = number;
  }

  // --- the end -------------------------------------------------------------------------

  void own_exit(int32_t reason) {
    if (next_ != proc_.events.size())
      fail(guarantee::kReplay,
           me() + " has events after its program ends it (" + where() + ", reason " + t_.names[reason] + ")",
           {proc_.events[next_].where});
    if (proc_.exit < 0)
      fail(guarantee::kReplay, where() + ": the program ends " + me() + " (reason " + t_.names[reason] +
                                   "); the trace has it alive at the end");
    if (proc_.exit == reason) {
      r_.end = WorkerReplay::End::OwnExit;
      r_.own_reason = reason;
      return;
    }
    // Another reason: something from outside ended it first, right there (G1).
    r_.end = WorkerReplay::End::Cut;
    r_.own_reason = reason;
  }

  void check_state() {
    ojson want = ojson::object();
    for (size_t i = 0; i < kind_->state.size(); i++)
      want[kind_->state[i].name] = value_json(t_.names, kind_->state[i].type, state_[i]);
    if (want != proc_.state)
      fail(guarantee::kReplay,
           me() + "'s state at the end is " + proc_.state.dump() + "; the program gives " + want.dump() + " for the " +
               std::to_string(turn_) + " turn(s) " + me() + " took",
           {proc_.where + "/state"});
  }

  const Program& p_;
  Trace& t_;
  const TraceProcess& proc_;
  size_t index_;
  const Kind* kind_ = nullptr;
  int32_t self_ = -1;
  bool supervised_ = false;
  std::vector<int32_t> words_;
  WorkerReplay r_;
  std::vector<Value> state_;
  size_t next_ = 0;       // the next event
  size_t turn_ = 0;       // turns so far (0: in init)
  bool trap_ = false;     // §16.2 trap_exit
  bool serving_ = false;  // this turn handles a call not answered yet
  bool waiting_ = false;  // waits in a call
  int32_t self_exit_ = -1;
  int32_t pending_self_exit_ = -1;
  int64_t steps_ = 0;
  std::string wanted_;  // the effect the program wanted when the trace ended
};

}  // namespace

WorkerReplay replay_worker(const Program& p, Trace& t, size_t index, std::vector<Value> params) {
  return Replayer(p, t, index, std::move(params)).run();
}

}  // namespace concord
