// oracle/run.cpp: the scheduler (SPEC §8.2): start-up at turn 0, then one
// delivery per turn to the process the seeded generator picks.
#include <stdexcept>

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
  // Name ids of the program (addr literals, declared names) come first, so an
  // addr literal's resolved slot is its name id in the world.
  for (const std::string& n : w.prog.names) intern_name(w, n);
  for (const Decl& d : w.prog.system)
    if (auto* sd = std::get_if<SupervisorDecl>(&d)) add_supervisors(w, *sd, -1);
  w.spawned.assign(w.prog.kinds.size(), 0);
  charge(w, static_cast<int64_t>(w.sups.size() * sizeof(Supervisor)), fixed_text_bound(w));
}

Value constant(const Expr& e) { return e.kind == ExprKind::Int ? e.value : e.slot; }

// Turn 0: roots in order, then the given messages (§8.2 "Start").
void start_up(World& w) {
  for (const Decl& d : w.prog.system) {
    if (auto* pd = std::get_if<ProcessDecl>(&d)) {
      std::vector<Value> args;
      for (const Expr& a : pd->args) args.push_back(constant(a));
      create_process(w, w.name_ids.at(pd->name), pd->kind_index, std::move(args), -1);
    } else {
      start_supervisor(w, std::get<SupervisorDecl>(d).index);
    }
  }
  for (const Given& g : w.prog.given) {
    std::vector<Value> args;
    for (const Expr& a : g.args) args.push_back(constant(a));
    send_message(w, -1, w.name_ids.at(g.to), g.sig, std::move(args));
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

RunResult run(const Program& p, const RunSettings& settings) {
  if (!p.checked) throw std::logic_error("run() needs a program that check() accepted");
  check_settings(settings);
  RunResult r;
  r.world = std::make_unique<World>(p, settings);
  World& w = *r.world;
  init_world(w);
  start_up(w);
  for (;;) {
    if (r.turns == settings.turns) {
      r.outcome = "turn_limit";
      break;
    }
    int64_t ready = w.ready.size();
    if (ready == 0) {
      r.outcome = "quiescent";
      break;
    }
    w.turn = ++r.turns;
    uint64_t x = w.rng.next();
    int32_t id = w.ready.kth(static_cast<int64_t>(x % static_cast<uint64_t>(ready)));
    deliver(w, id, ready);
  }
  return r;
}

std::string answer_line(const Program& p, const RunSettings& r) {
  try {
    return result_line(run(p, r));
  } catch (const std::bad_alloc& e) {
    return memory_error_line(e);
  } catch (const OutOfSteps& e) {
    return error_line("TIMEOUT", e.what());
  }
}

}  // namespace concord
