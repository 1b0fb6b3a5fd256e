// oracle/run.cpp: the scheduler (SPEC §8.2; version 2: §18.3): start-up at turn 0,
// then one delivery (or resumption) per turn to the process the seeded generator
// picks, and after each the run settles (§17.2).
#include <algorithm>
#include <stdexcept>

#include "dialect_rules.hpp"
#include "error.hpp"
#include "interpreter.hpp"
#include "limits.hpp"
#include "memory.hpp"
#include "rules.hpp"

namespace concord {
namespace {

// Supervisor slots in pre-order, each knowing its parent's slot.
void add_supervisors(World& w, const SupervisorDecl& s, int32_t parent) {
  Supervisor sup{};
  sup.decl = &s;
  sup.name = intern_name(w, s.name);
  sup.parent = parent;
  w.sups.push_back(sup);
  for (const Child& c : s.children)
    if (auto* sd = std::get_if<SupervisorDecl>(&c.decl)) add_supervisors(w, *sd, s.index);
}

void init_world(World& w) {
  w.memory_limit = oracle_memory_limit();
  w.step_limit = oracle_step_limit();
  // Name ids of the program (addr literals, declared names, reason literals) come
  // first, so a literal's resolved slot is its name id in the world.
  for (const std::string& n : w.prog.names) intern_name(w, n);
  ReasonIds& k = w.words;
  k.normal = intern_name(w, "normal");
  k.shutdown = intern_name(w, "shutdown");
  k.killed = intern_name(w, "killed");
  k.noproc = intern_name(w, "noproc");
  k.NORMAL = intern_name(w, "NORMAL");
  k.SHUTDOWN = intern_name(w, "SHUTDOWN");
  k.KILLED = intern_name(w, "KILLED");
  k.NOPROC = intern_name(w, "NOPROC");
  k.NO_HANDLER = intern_name(w, "NO_HANDLER");
  k.DIV_ZERO = intern_name(w, "DIV_ZERO");
  k.SYSTEM_LIMIT = intern_name(w, "SYSTEM_LIMIT");
  k.CALLING_SELF = intern_name(w, "CALLING_SELF");
  k.BAD_REPLY = intern_name(w, "BAD_REPLY");
  w.acts.reserve(4);  // a handler and an init inside it (exec.cpp)
  for (const Decl& d : w.prog.system)
    if (auto* sd = std::get_if<SupervisorDecl>(&d)) add_supervisors(w, *sd, -1);
  w.spawned.assign(w.prog.kinds.size(), 0);
  charge(w, static_cast<int64_t>(w.sups.size() * sizeof(Supervisor)), fixed_text_bound(w));
}

Value constant(const Expr& e) { return e.kind == ExprKind::Int ? e.value : e.slot; }  // addr, reason: name id

// Turn 0: roots in order, the run settling after each (§17.2; a root whose start
// fails is simply not alive, §19.2), then the given messages (§8.2 "Start").
void start_up(World& w) {
  for (const Decl& d : w.prog.system) {
    if (auto* pd = std::get_if<ProcessDecl>(&d)) {
      std::vector<Value> args;
      for (const Expr& a : pd->args) args.push_back(constant(a));
      start_worker(w, new_process(w, w.name_ids.at(pd->name), pd->kind_index, std::move(args), -1));
    } else {
      start_supervisor(w, std::get<SupervisorDecl>(d).index);
    }
    settle(w);
  }
  std::vector<const Given*> given;
  for (const Given& g : w.prog.given) given.push_back(&g);
  if (given.size() > 1 && alt_on(w, Alt::GivenReversed)) {
    std::reverse(given.begin(), given.end());
    for (size_t i = 0; i < given.size(); i++)  // a change per message sent at another place
      if (given[i] != &w.prog.given[i]) took(w, Alt::GivenReversed);
  }
  for (const Given* g : given) {
    std::vector<Value> args;
    for (const Expr& a : g->args) args.push_back(constant(a));
    send_message(w, -1, w.name_ids.at(g->to), g->sig, std::move(args));
  }
}

}  // namespace

void check_settings(const RunSettings& r) {
  if (r.turns < 0 || r.turns > kMaxTurns)
    throw InputError("turns", "turn limit " + std::to_string(r.turns) + " is outside 0.." + std::to_string(kMaxTurns));
  if (r.max_processes < 1 || r.max_processes > kMaxProcesses)
    throw InputError("max_processes", "process limit " + std::to_string(r.max_processes) + " is outside 1.." +
                                          std::to_string(kMaxProcesses));
}

RunResult run(const Program& p, const RunSettings& settings,
              const std::function<void(const World&, const Process&)>& discarding, RunObserver* observer,
              const Dialect& dialect) {
  if (!p.checked) throw std::logic_error("run() needs a program that check() accepted");
  check_settings(settings);
  RunResult r;
  r.world = std::make_unique<World>(p, settings);
  World& w = *r.world;
  w.discarding = discarding;
  w.observer = observer;
  w.dialect = dialect;
  init_world(w);
  start_up(w);
  // TurnLimitOneLate: the limit checked after the turn, so one more is run.
  int64_t limit = settings.turns + (alt_on(w, Alt::TurnLimitOneLate) ? 1 : 0);
  for (;;) {
    if (r.turns == limit) {
      r.outcome = "turn_limit";
      break;
    }
    int64_t ready = w.ready.size();
    if (r.turns == settings.turns) took(w, Alt::TurnLimitOneLate);  // (only reached in that dialect)
    if (ready == 0) {
      r.outcome = w.waiting > 0 ? "deadlock" : "quiescent";  // §18.3
      break;
    }
    w.turn = ++r.turns;
    uint64_t x = w.rng.next();
    int64_t k = static_cast<int64_t>(x % static_cast<uint64_t>(ready));
    if (!w.dialect.empty()) {
      x = draw_in_dialect(w, x);
      k = pick_in_dialect(w, x, ready);
      w.sent.clear();
    }
    int32_t id = w.ready.kth(k);
    if (w.procs[id].wait)
      resume(w, id, ready);
    else
      deliver(w, id, ready);
    settle(w);
  }
  if (!w.dialect.empty()) finish_in_dialect(w);
  return r;
}

std::string answer_line(const Program& p, const RunSettings& r, const std::function<void(const World&)>& finished,
                        const Dialect& dialect) {
  try {
    RunResult result = run(p, r, {}, nullptr, dialect);
    if (finished) finished(*result.world);
    return result_line(result);
  } catch (const std::bad_alloc& e) {
    return memory_error_line(e);
  } catch (const OutOfSteps& e) {
    return error_line("TIMEOUT", e.what());
  }
}

}  // namespace concord
