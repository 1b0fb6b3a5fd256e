// runners/shrink/shrink_passes.cpp: the shrinker's passes, one function each, and their
// order (shrink_passes(), at the end). Each function finds its n-th candidate by
// walking the case in a fixed order (shrink_walk.hpp) and counting the candidates
// every place offers, then makes that one change.
#include "runners/shrink/shrink_passes.hpp"

#include <algorithm>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <string>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/interpreter.hpp"
#include "runners/shrink/shrink_walk.hpp"

namespace concord {
namespace {

// Of the next `count` candidates, the n-th: its index among them; or none, and n
// moves past them.
std::optional<size_t> pick(size_t& n, size_t count) {
  if (n < count) return n;
  n -= count;
  return std::nullopt;
}

// The values of `tries` that are at least `least` and below `current`, without
// repeats, in the order given.
std::vector<int64_t> lower_values(int64_t current, int64_t least, std::initializer_list<int64_t> tries) {
  std::vector<int64_t> out;
  for (int64_t v : tries)
    if (v >= least && v < current && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  return out;
}

// The oracle on one run, with the turn limit cut so that a probe stays cheap.
constexpr int64_t kProbeTurns = 10000;
RunResult probe(const Program& p, RunSettings r) {
  r.turns = std::min(r.turns, kProbeTurns);
  return run(p, r);
}

// Replaces body[i] by the statements of `with`.
void splice(std::vector<Stmt>& body, size_t i, std::vector<Stmt> with) {
  body.erase(body.begin() + static_cast<long>(i));
  body.insert(body.begin() + static_cast<long>(i), std::make_move_iterator(with.begin()),
              std::make_move_iterator(with.end()));
}

template <class T>
void erase_at(std::vector<T>& v, size_t i) {
  v.erase(v.begin() + static_cast<long>(i));
}

Expr int_literal(int64_t v) {
  Expr e;
  e.kind = ExprKind::Int;
  e.value = v;
  e.type = Type::Int;
  return e;
}

Expr addr_literal(const std::string& name) {
  Expr e;
  e.kind = ExprKind::Addr;
  e.name = name;
  e.type = Type::Addr;
  return e;
}

Expr reason_literal(const std::string& word) {
  Expr e;
  e.kind = ExprKind::Reason;
  e.name = word;
  e.type = Type::Reason;
  return e;
}

Expr self_expr() {
  Expr e;
  e.kind = ExprKind::Self;
  e.type = Type::Addr;
  return e;
}

// --- runs --------------------------------------------------------------------

// runs: one run alone is cheaper to test and to read; try each.
bool keep_one_run(ShrinkState& s, size_t n) {
  if (s.runs.size() < 2 || n >= s.runs.size()) return false;
  s.runs = {s.runs[n]};
  return true;
}

// turns: a turn limit beyond the turns a run uses changes nothing but its echo;
// try the turns the oracle used (the limit is then reached: turn_limit), one more
// (the outcome stays), then half the limit.
bool lower_turn_limit(ShrinkState& s, size_t n) {
  for (RunSettings& r : s.runs) {
    int64_t used = probe(s.program, r).turns;
    std::vector<int64_t> tries = lower_values(r.turns, 0, {used, used + 1, r.turns / 2});
    if (auto k = pick(n, tries.size())) {
      r.turns = tries[*k];
      return true;
    }
  }
  return false;
}

// max-processes: a process limit no spawn reaches changes nothing but its echo;
// try 1, the number of processes the oracle made, then half the limit.
bool lower_process_limit(ShrinkState& s, size_t n) {
  for (RunSettings& r : s.runs) {
    auto made = static_cast<int64_t>(probe(s.program, r).world->procs.size());
    std::vector<int64_t> tries = lower_values(r.max_processes, 1, {1, made, r.max_processes / 2});
    if (auto k = pick(n, tries.size())) {
      r.max_processes = tries[*k];
      return true;
    }
  }
  return false;
}

// seed: seed 0 reads better than a random one, when the schedule allows.
bool zero_seed(ShrinkState& s, size_t n) {
  for (RunSettings& r : s.runs)
    if (r.seed != 0 && pick(n, 1)) {
      r.seed = 0;
      return true;
    }
  return false;
}

// --- the system and the given messages ---------------------------------------

// roots: drop a root (a process, or a supervisor with its whole tree), and the
// given messages to the processes that go with it.
// Each root is tried twice while some run's process limit is above 1: dropped,
// then dropped with every run's limit lowered by the processes it started, for a
// divergence that needs the limit reached (SYSTEM_LIMIT) with fewer around.
bool drop_root(ShrinkState& s, size_t n) {
  Program& p = s.program;
  bool limits = std::any_of(s.runs.begin(), s.runs.end(), [](const RunSettings& r) { return r.max_processes > 1; });
  size_t per_root = limits ? 2 : 1;
  if (n >= per_root * p.system.size()) return false;
  size_t at = n / per_root;
  bool lower_limit = n % per_root == 1;
  // Processes started at turn 0; the oracle runs checked programs only, so a copy is
  // read back and checked first (a candidate that fails is rejected by the driver).
  auto started = [](const Program& prog, RunSettings r) -> std::optional<int64_t> {
    try {
      Program checked = program_from_json(program_to_json(prog));
      check(checked);
      r.turns = 0;
      return static_cast<int64_t>(probe(checked, r).world->procs.size());
    } catch (const InputError&) {
      return std::nullopt;
    }
  };
  std::vector<std::optional<int64_t>> before;
  if (lower_limit)
    for (const RunSettings& r : s.runs) before.push_back(started(p, r));
  std::vector<std::string> gone = processes_in(p.system[at]);
  erase_at(p.system, at);
  drop_givens_to(p, gone);
  if (lower_limit)
    for (size_t i = 0; i < s.runs.size(); i++) {
      std::optional<int64_t> after = started(p, s.runs[i]);
      int64_t fewer = before[i] && after ? *before[i] - *after : 1;
      s.runs[i].max_processes = std::max<int64_t>(1, s.runs[i].max_processes - std::max<int64_t>(1, fewer));
    }
  return true;
}

// children: drop a child of a supervisor at any depth, with its given messages.
bool drop_child(ShrinkState& s, size_t n) {
  std::vector<std::string> gone;
  bool made = visit_decls(s.program, [&](Decl& d) {
    auto* sup = std::get_if<SupervisorDecl>(&d);
    if (!sup) return false;
    auto k = pick(n, sup->children.size());
    if (!k) return false;
    gone = processes_in(sup->children[*k].decl);
    erase_at(sup->children, *k);
    return true;
  });
  if (made) drop_givens_to(s.program, gone);
  return made;
}

// hoist: a supervisor replaced by one of its children, which takes its place (and
// its restart type): one level of supervision less, the siblings gone.
bool hoist_child(ShrinkState& s, size_t n) {
  std::vector<std::string> gone;
  bool made = visit_decls(s.program, [&](Decl& d) {
    auto* sup = std::get_if<SupervisorDecl>(&d);
    if (!sup) return false;
    auto k = pick(n, sup->children.size());
    if (!k) return false;
    Decl kept = sup->children[*k].decl;
    gone = processes_in(d);
    d = std::move(kept);
    for (const std::string& name : processes_in(d)) std::erase(gone, name);
    return true;
  });
  if (made) drop_givens_to(s.program, gone);
  return made;
}

// given: drop a given message.
bool drop_given(ShrinkState& s, size_t n) {
  if (n >= s.program.given.size()) return false;
  erase_at(s.program.given, n);
  return true;
}

// reseeded: a structural candidate (a root, a child, a given message or a kind
// dropped) with every run's seed set to 0..kReseeds-1 in turn. The scheduler's
// picks hang on the seed and the ready set: with a process fewer, the run that
// showed the divergence delivers other messages first, and another seed may
// deliver them as before. Without it a process the divergence does not need stays.
constexpr size_t kReseeds = 8;

template <PassFn Drop>
bool reseeded(ShrinkState& s, size_t n) {
  if (!Drop(s, n / kReseeds)) return false;
  for (RunSettings& r : s.runs) r.seed = n % kReseeds;
  return true;
}

// --- kinds and their parts ---------------------------------------------------

// Removes the declared processes of kind `kind` at any depth; returns their names.
std::vector<std::string> drop_processes_of(Program& p, const std::string& kind) {
  std::vector<std::string> gone;
  auto of_kind = [&](const Decl& d) {
    auto* pd = std::get_if<ProcessDecl>(&d);
    if (!pd || pd->kind != kind) return false;
    gone.push_back(pd->name);
    return true;
  };
  std::erase_if(p.system, of_kind);
  visit_decls(p, [&](Decl& d) {  // a supervisor's children, before the walk goes into them
    if (auto* sup = std::get_if<SupervisorDecl>(&d))
      std::erase_if(sup->children, [&](const Child& c) { return of_kind(c.decl); });
    return false;
  });
  return gone;
}

// kinds: drop a kind with everything that makes processes of it (its declared
// processes and the given messages to them, its spawns), which would not be valid
// without it. Reads of its spawned names (@k-1) are left to the expressions pass.
bool drop_kind(ShrinkState& s, size_t n) {
  Program& p = s.program;
  if (n >= p.kinds.size()) return false;
  std::string name = p.kinds[n].name;
  erase_at(p.kinds, n);
  drop_givens_to(p, drop_processes_of(p, name));
  visit_code(p, [&](std::vector<Stmt>& body, Place) {
    erase_stmts(body, [&](const Stmt& st) { return st.kind == StmtKind::Spawn && st.name == name; });
    return false;
  });
  return true;
}

// handlers: drop a handler (its messages then fail with NO_HANDLER).
bool drop_handler(ShrinkState& s, size_t n) {
  for (Kind& k : s.program.kinds)
    if (auto h = pick(n, k.handlers.size())) {
      erase_at(k.handlers, *h);
      return true;
    }
  return false;
}

// fields: drop a state field with its assignments and the spawn binds to it. Its
// reads must be gone already (the expressions pass replaces them by constants).
bool drop_field(ShrinkState& s, size_t n) {
  for (Kind& k : s.program.kinds) {
    auto f = pick(n, k.state.size());
    if (!f) continue;
    std::string name = k.state[*f].name;
    erase_at(k.state, *f);
    visit_kind_code(k, [&](std::vector<Stmt>& body, Place) {
      erase_stmts(body, [&](const Stmt& st) { return st.kind == StmtKind::Assign && st.name == name; });
      return false;
    });
    visit_kind_stmts(k, [&](std::vector<Stmt>& body, size_t i) {
      if (body[i].kind == StmtKind::Spawn && body[i].bind == name) body[i].bind.clear();
      return false;
    });
    return true;
  }
  return false;
}

// kind-params: drop a kind parameter, with the matching argument of every
// declared process and every spawn of the kind. Its reads must be gone already.
bool drop_kind_param(ShrinkState& s, size_t n) {
  Program& p = s.program;
  for (Kind& k : p.kinds) {
    auto i = pick(n, k.params.size());
    if (!i) continue;
    std::string kind = k.name;
    erase_at(k.params, *i);
    visit_decls(p, [&](Decl& d) {
      auto* pd = std::get_if<ProcessDecl>(&d);
      if (pd && pd->kind == kind && *i < pd->args.size()) erase_at(pd->args, *i);
      return false;
    });
    visit_stmts(p, [&](std::vector<Stmt>& body, size_t j) {
      Stmt& st = body[j];
      if (st.kind == StmtKind::Spawn && st.name == kind && *i < st.exprs.size()) erase_at(st.exprs, *i);
      return false;
    });
    return true;
  }
  return false;
}

// Whether args[from..] have exactly the types `types` (a message's signature).
bool has_types(const std::vector<Expr>& args, size_t from, const std::vector<Type>& types) {
  if (args.size() - from != types.size()) return false;
  for (size_t i = 0; i < types.size(); i++)
    if (args[from + i].type != types[i]) return false;
  return true;
}

// handler-params: drop a handler parameter, with the matching argument of every
// send and given message of the handler's signature (tag and types), so that
// they still match it. Its reads must be gone already.
bool drop_handler_param(ShrinkState& s, size_t n) {
  Program& p = s.program;
  for (Kind& k : p.kinds)
    for (Handler& h : k.handlers) {
      auto i = pick(n, h.params.size());
      if (!i) continue;
      std::string tag = h.tag;
      std::vector<Type> types;
      for (const Param& prm : h.params) types.push_back(prm.type);
      erase_at(h.params, *i);
      visit_stmts(p, [&](std::vector<Stmt>& body, size_t j) {
        Stmt& st = body[j];
        if (st.kind == StmtKind::Send && st.name == tag && has_types(st.exprs, 1, types)) erase_at(st.exprs, 1 + *i);
        return false;
      });
      for (Given& g : p.given)
        if (g.tag == tag && has_types(g.args, 0, types)) erase_at(g.args, *i);
      return true;
    }
  return false;
}

// intensity: fewer restarts before a supervisor gives up; try 0, then half.
bool lower_intensity(ShrinkState& s, size_t n) {
  return visit_decls(s.program, [&](Decl& d) {
    auto* sup = std::get_if<SupervisorDecl>(&d);
    if (!sup) return false;
    std::vector<int64_t> tries = lower_values(sup->intensity, 0, {0, sup->intensity / 2});
    auto k = pick(n, tries.size());
    if (!k) return false;
    sup->intensity = tries[*k];
    return true;
  });
}

// --- statements --------------------------------------------------------------

// chunks: drop a whole body, then each half of every body, then each quarter, and
// so on down to two statements, like C-Vise's "lines" pass: a big cut costs one
// test. Single statements are the next pass's.
bool drop_chunk(ShrinkState& s, size_t n) {
  size_t longest = 0;
  visit_bodies(s.program, [&](std::vector<Stmt>& body) {
    longest = std::max(longest, body.size());
    return false;
  });
  for (size_t parts = 1; (longest + parts - 1) / parts >= 2; parts *= 2) {
    bool made = visit_bodies(s.program, [&](std::vector<Stmt>& body) {
      size_t chunk = (body.size() + parts - 1) / parts;
      if (chunk < 2) return false;
      auto k = pick(n, (body.size() + chunk - 1) / chunk);
      if (!k) return false;
      size_t from = *k * chunk, to = std::min(body.size(), from + chunk);
      body.erase(body.begin() + static_cast<long>(from), body.begin() + static_cast<long>(to));
      return true;
    });
    if (made) return true;
  }
  return false;
}

// statements: drop one statement at any depth (an if or repeat with its bodies).
bool drop_stmt(ShrinkState& s, size_t n) {
  return visit_stmts(s.program, [&](std::vector<Stmt>& body, size_t i) {
    if (!pick(n, 1)) return false;
    erase_at(body, i);
    return true;
  });
}

// if: an if replaced by its then-body or by its else-body (an empty branch is the
// statements pass's: dropping the if).
bool inline_if(ShrinkState& s, size_t n) {
  return visit_stmts(s.program, [&](std::vector<Stmt>& body, size_t i) {
    Stmt& st = body[i];
    if (st.kind != StmtKind::If) return false;
    std::vector<std::vector<Stmt>*> branches;
    if (!st.body.empty()) branches.push_back(&st.body);
    if (!st.orelse.empty()) branches.push_back(&st.orelse);
    auto k = pick(n, branches.size());
    if (!k) return false;
    splice(body, i, std::move(*branches[*k]));
    return true;
  });
}

// repeat: a repeat replaced by its body run once, or by fewer rounds (1, then half).
bool simplify_repeat(ShrinkState& s, size_t n) {
  return visit_stmts(s.program, [&](std::vector<Stmt>& body, size_t i) {
    Stmt& st = body[i];
    if (st.kind != StmtKind::Repeat) return false;
    size_t inline_it = st.body.empty() ? 0 : 1;
    std::vector<int64_t> counts = lower_values(st.count, 1, {1, st.count / 2});
    auto k = pick(n, inline_it + counts.size());
    if (!k) return false;
    if (*k < inline_it)
      splice(body, i, std::move(st.body));
    else
      st.count = counts[*k - inline_it];
    return true;
  });
}

// spawn: a spawn unsupervised (no `under`), or without its bind.
bool simplify_spawn(ShrinkState& s, size_t n) {
  return visit_stmts(s.program, [&](std::vector<Stmt>& body, size_t i) {
    Stmt& st = body[i];
    if (st.kind != StmtKind::Spawn) return false;
    if (!st.under.empty() && pick(n, 1)) {
      st.under.clear();
      st.restart = Restart::Permanent;
      st.significant = false;  // only a supervised child is significant (§21)
      return true;
    }
    if (!st.bind.empty() && pick(n, 1)) {
      st.bind.clear();
      return true;
    }
    return false;
  });
}

// --- version 2 (SPEC §16–§21) ------------------------------------------------------
// Dropping a link, unlink, monitor, demonitor, trap_exit, exit, call, reply or API
// statement is the statements pass's, and a reason becomes normal or shutdown in
// the expressions pass (which makes `stop R` a plain `stop`); these passes make the
// rest of version 2 plainer.

// calls: a call replaced by a send of the same message (no wait, no reply, no call
// monitor: the callee still runs its handler, whose reply then does nothing,
// §18.1), or a call or API statement that keeps its result nowhere (no bind).
bool simplify_call(ShrinkState& s, size_t n) {
  return visit_stmts(s.program, [&](std::vector<Stmt>& body, size_t i) {
    Stmt& st = body[i];
    if (st.kind != StmtKind::Call && st.kind != StmtKind::Api) return false;
    if (st.kind == StmtKind::Call && pick(n, 1)) {
      st.kind = StmtKind::Send;
      st.bind.clear();
      return true;
    }
    if (!st.bind.empty() && pick(n, 1)) {
      st.bind.clear();
      return true;
    }
    return false;
  });
}

// significant: a significant child (declared, or spawned under a supervisor) made
// an ordinary one, then a supervisor's auto_shutdown set to never (§21), which is
// valid once none of its children is significant (V9).
bool drop_significant(ShrinkState& s, size_t n) {
  bool made = visit_decls(s.program, [&](Decl& d) {
    auto* sup = std::get_if<SupervisorDecl>(&d);
    if (!sup) return false;
    for (Child& c : sup->children)
      if (c.significant && pick(n, 1)) {
        c.significant = false;
        return true;
      }
    return false;
  });
  if (made) return true;
  made = visit_stmts(s.program, [&](std::vector<Stmt>& body, size_t i) {
    if (body[i].kind != StmtKind::Spawn || !body[i].significant || !pick(n, 1)) return false;
    body[i].significant = false;
    return true;
  });
  if (made) return true;
  return visit_decls(s.program, [&](Decl& d) {
    auto* sup = std::get_if<SupervisorDecl>(&d);
    if (!sup || sup->auto_shutdown == AutoShutdown::Never || !pick(n, 1)) return false;
    sup->auto_shutdown = AutoShutdown::Never;
    return true;
  });
}

// --- expressions -------------------------------------------------------------

// What may replace `e`, simplest first: for an int, 0, 1, half a literal, then each
// int operand (a same-typed sub-expression); for a reason, normal then shutdown
// (§15: the words every process can exit with); for an addr, self (not in a
// constant place), then each declared process. Never e itself.
std::vector<Expr> simpler_exprs(const Expr& e, Place place, const std::vector<std::string>& processes) {
  std::vector<Expr> out;
  auto add = [&](Expr x) {
    if (!(x == e) && std::find(out.begin(), out.end(), x) == out.end()) out.push_back(std::move(x));
  };
  if (e.type == Type::Int) {
    add(int_literal(0));
    add(int_literal(1));
    if (e.kind == ExprKind::Int) add(int_literal(e.value / 2));
    for (const Expr& a : e.args)
      if (a.type == Type::Int) add(a);
  } else if (e.type == Type::Reason) {
    add(reason_literal("normal"));
    add(reason_literal("shutdown"));
  } else {
    if (place != Place::Constant) add(self_expr());
    for (const std::string& name : processes) add(addr_literal(name));
  }
  return out;
}

// expressions: an expression replaced by something simpler of its type
// (simpler_exprs): the exact values rarely matter to a divergence, the structure
// around them does. Replacing reads also frees fields and parameters to be dropped.
bool simplify_expr(ShrinkState& s, size_t n) {
  std::vector<std::string> processes = declared_processes(s.program);
  return visit_exprs(s.program, [&](Expr& e, Place place) {
    std::vector<Expr> tries = simpler_exprs(e, place, processes);
    auto k = pick(n, tries.size());
    if (!k) return false;
    e = std::move(tries[*k]);
    return true;
  });
}

}  // namespace

const std::vector<ShrinkPass>& shrink_passes() {
  static const std::vector<ShrinkPass> passes = {
      // The runs first: every later test gets cheaper.
      {"runs", keep_one_run},
      {"turns", lower_turn_limit},
      // Then the biggest parts: subtrees of the system, kinds with their processes,
      // levels of supervision, the outside world's messages, whole handlers.
      {"roots", drop_root},
      {"kinds", drop_kind},
      {"children", drop_child},
      {"hoist", hoist_child},
      {"given", drop_given},
      {"handlers", drop_handler},
      // The same parts again, each with other seeds, for those the seed ties in.
      {"roots-reseeded", reseeded<drop_root>},
      {"kinds-reseeded", reseeded<drop_kind>},
      {"children-reseeded", reseeded<drop_child>},
      {"given-reseeded", reseeded<drop_given>},
      // Then code: bodies, halves, quarters ..., single statements, control structure.
      {"chunks", drop_chunk},
      {"statements", drop_stmt},
      {"if", inline_if},
      {"repeat", simplify_repeat},
      {"spawn", simplify_spawn},
      {"calls", simplify_call},
      {"significant", drop_significant},
      // Declarations whose uses are gone.
      {"fields", drop_field},
      {"kind-params", drop_kind_param},
      {"handler-params", drop_handler_param},
      // Then expressions and numbers, and last the settings that only tidy up.
      {"expressions", simplify_expr},
      {"intensity", lower_intensity},
      {"max-processes", lower_process_limit},
      {"seed", zero_seed},
      // Last, names: the generator's become short readable ones.
      {"names", rename_name},
  };
  return passes;
}

}  // namespace concord
