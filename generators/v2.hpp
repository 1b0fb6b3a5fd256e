// generators/v2.hpp: makes a generated program a version 2 one (SPEC §14-§23), for
// profiles with `version = 2`: the program of the version 1 generators, marked
// `concord 2`, then given what version 2 adds: a reason field and exit/down
// handlers in some kinds, init bodies that trap exits, link, monitor, and sometimes
// fail or ignore their start (§19), handler bodies with links, monitors, exit
// signals, calls, replies and supervisor API requests (§16, §18, §20), supervisors
// with auto_shutdown and significant children (§21), and most often a server that
// its calls reach alive (v2_server.hpp). Every draw is weighted by the
// profile's version 2 knobs; every statement keeps to §14.3 (V3-V9), so check()
// accepts every program made here (tests/oracle/profiles_test.cpp).
//
// The additions are drawn inside program()'s rc::gen::exec, statement by
// statement: they shrink only by dropping what the version 1 generators shrink.
#pragma once

#include <string>
#include <vector>

#include "generators/expressions.hpp"
#include "generators/statements.hpp"
#include "generators/supervision.hpp"
#include "generators/v2_place.hpp"
#include "generators/v2_server.hpp"

namespace concord::gen::v2 {

/// `[f =] call t(a...) to e` (V7): usually to the program's server (v2_server.hpp),
/// which lives to answer; else to a declared process with one of its own handlers,
/// else any handled signature to any addr (most of these meet a callee that has
/// died: NOPROC, or the callee's code).
inline Stmt call(const Place& pl) {
  const Profile& pr = *pl.exprs.profile;
  if (pl.shape->server && pl.kind != kServerKind && *chance(pr.w_call_server, 1)) {
    const Callee& srv = *pl.shape->server;
    return call_with(pl, addr_expr(srv.name), srv.handles[*uniform<size_t>(0, srv.handles.size())]);
  }
  std::vector<Callee> callees;  // not of the caller's kind: most would be the caller (CALLING_SELF)
  for (const Callee& c : pl.shape->callees)
    if (c.kind != pl.kind) callees.push_back(c);
  bool matched = !callees.empty() && *chance(3, 1);
  const Callee* callee = matched ? &callees[*uniform<size_t>(0, callees.size())] : nullptr;
  const Signature& sig = *rc::gen::elementOf(matched ? callee->handles : pl.facts->sigs);
  return call_with(pl, matched ? addr_expr(callee->name) : addr(pl), sig);
}

/// A supervisor API request (§20, V8): usually about a static child of the
/// supervisor (a worker by its addr, a supervisor by `supervisor t`), else any
/// addr or supervisor (not_found); bound to an int field or not.
inline Stmt api(const Place& pl) {
  const Family& f = pl.shape->families[*uniform<size_t>(0, pl.shape->families.size())];
  Stmt s = make_stmt(StmtKind::Api);
  s.api = *rc::gen::element(ApiOp::TerminateChild, ApiOp::RestartChild, ApiOp::DeleteChild);
  s.under = f.name;
  bool own = !f.workers.empty() && *chance(3, 1);
  bool own_sup = !own && !f.supervisors.empty() && *chance(1, 1);
  if (own)
    s.exprs.push_back(addr_expr(*rc::gen::elementOf(f.workers)));
  else if (own_sup)
    s.name = *rc::gen::elementOf(f.supervisors);
  else if (*chance(4, 1))
    s.exprs.push_back(addr(pl));
  else
    s.name = pl.shape->families[*uniform<size_t>(0, pl.shape->families.size())].name;  // maybe not f's child
  std::vector<std::string> ints = names_of_type(pl.fields, Type::Int);
  if (!ints.empty() && *chance(1, 1)) s.bind = *rc::gen::elementOf(ints);
  return s;
}

/// A pair of API requests on one child, as OTP's child_adm makes them: terminate it,
/// then restart or delete it (ok, when nothing else intervened).
inline std::vector<Stmt> api_pair(const Place& pl) {
  Stmt first = api(pl), then = first;
  first.api = ApiOp::TerminateChild;
  then.api = *chance(2, 1) ? ApiOp::RestartChild : ApiOp::DeleteChild;
  return {std::move(first), std::move(then)};
}

/// A reply (§18.1): an int, self, or a reason.
inline Stmt reply(const Place& pl) {
  Expr e = *chance(2, 1) ? *expr(pl.exprs, Type::Int, 2) : *chance(1, 1) ? self_expr() : reason(pl.exprs);
  return with(StmtKind::Reply, {std::move(e)});
}

/// One statement of version 2 in a handler body, as the profile weighs the forms.
inline Stmt handler_stmt(const Place& pl) {
  const Profile& pr = *pl.exprs.profile;
  bool sups = !pl.shape->families.empty(), sigs = !pl.facts->sigs.empty();
  int form = *weighted<int>({{pr.w_link, rc::gen::just(0)},
                             {pr.w_unlink, rc::gen::just(1)},
                             {pr.w_monitor, rc::gen::just(2)},
                             {pr.w_demonitor, rc::gen::just(3)},
                             {pr.w_trap_exit, rc::gen::just(4)},
                             {pr.w_exit_signal, rc::gen::just(5)},
                             {pr.w_exit_kill, rc::gen::just(6)},
                             {sigs ? pr.w_call : 0, rc::gen::just(7)},
                             {pr.w_reply, rc::gen::just(8)},
                             {sups ? pr.w_api : 0, rc::gen::just(9)},
                             {pr.w_stop_reason, rc::gen::just(10)},
                             {1, rc::gen::just(11)}});  // a comparison of reasons, kept in a field
  switch (form) {
    case 0: return with(StmtKind::Link, {addr(pl)});
    case 1: return with(StmtKind::Unlink, {addr(pl)});
    case 2: return with(StmtKind::Monitor, {addr(pl)});
    case 3: return with(StmtKind::Demonitor, {addr(pl)});
    case 4: return with(StmtKind::TrapExit, {int_expr(*chance(1, 1) ? 1 : 0)});
    case 5: return with(StmtKind::Exit, {addr(pl), *chance(1, 2) ? reason_word("normal") : reason(pl.exprs)});
    case 6: {
      Stmt s = with(StmtKind::Exit, {addr(pl)});
      s.kill = true;
      return s;
    }
    case 7: return call(pl);
    case 8: return reply(pl);
    case 9: return api(pl);
    case 10: return with(StmtKind::Stop, {reason(pl.exprs)});
    default: {
      std::vector<std::string> ints = names_of_type(pl.fields, Type::Int);
      Expr cmp;
      cmp.kind = ExprKind::Binary;
      cmp.op = *chance(1, 1) ? Op::Eq : Op::Ne;
      cmp.args = {reason(pl.exprs), reason(pl.exprs)};
      if (ints.empty()) return with(StmtKind::TrapExit, {std::move(cmp)});
      return with(StmtKind::Assign, {std::move(cmp)}, *rc::gen::elementOf(ints));
    }
  }
}

/// One statement of version 2 in an init body (V4): link, monitor, trap_exit.
inline Stmt init_stmt(const Place& pl) {
  switch (*uniform(0, 3)) {
    case 0: return with(StmtKind::Link, {addr(pl)});
    case 1: return with(StmtKind::Monitor, {addr(pl)});
    default: return with(StmtKind::TrapExit, {int_expr(1)});
  }
}

/// `b` with 0..n statements of `make` inserted at random places.
template <typename Make>
void insert_some(std::vector<Stmt>& b, int n, Make make) {
  int count = *uniform(0, n + 1);
  for (int i = 0; i < count; i++) {
    size_t at = *uniform<size_t>(0, b.size() + 1);
    b.insert(b.begin() + static_cast<long>(at), make());
  }
}

/// `b` with 0..n handler statements of version 2 inserted at random places; an API
/// request is a pair of them one time in three (api_pair).
inline void insert_handler_stmts(std::vector<Stmt>& b, int n, const Place& pl) {
  int count = *uniform(0, n + 1);
  for (int i = 0; i < count; i++) {
    size_t at = *uniform<size_t>(0, b.size() + 1);
    Stmt s = handler_stmt(pl);
    std::vector<Stmt> add{s};
    if (s.kind == StmtKind::Api && *chance(1, 2)) add = api_pair(pl);
    b.insert(b.begin() + static_cast<long>(at), add.begin(), add.end());
  }
}

/// The end of an init body that makes the start fail or be ignored (§19.1),
/// under a condition on the kind's parameters, or always.
inline Stmt failing_start(const Place& pl, bool ignore) {
  Stmt end = ignore ? make_stmt(StmtKind::Ignore) : *chance(1, 1) ? *fail() : with(StmtKind::Stop, {reason(pl.exprs)});
  if (*chance(1, 1)) return end;
  Stmt s = make_stmt(StmtKind::If);
  s.exprs.push_back(*expr(pl.exprs, Type::Int, 2));
  s.body.push_back(std::move(end));
  return s;
}

/// The handler of exit or down messages (V3): keeps the reason, and stops with it,
/// survives, or acts on the sender.
inline Handler system_handler(const std::string& tag, Place pl) {
  Handler h;
  h.tag = tag;
  h.params = {Param{kFrom, Type::Addr, ""}, Param{kWhy, Type::Reason, ""}};
  pl.exprs.vars.push_back(Var{kFrom, Type::Addr});
  pl.exprs.vars.push_back(Var{kWhy, Type::Reason});
  bool has_cause = false;
  for (const Var& f : pl.fields) has_cause = has_cause || f.name == kCause;
  if (has_cause) h.body.push_back(with(StmtKind::Assign, {var_expr(kWhy)}, kCause));
  switch (*rc::gen::inRange(0, 4)) {
    case 0: h.body.push_back(with(StmtKind::Stop, {var_expr(kWhy)})); break;
    case 1: {  // if why == R { stop why; }
      Stmt s = make_stmt(StmtKind::If);
      Expr cmp;
      cmp.kind = ExprKind::Binary;
      cmp.op = *chance(1, 1) ? Op::Eq : Op::Ne;
      cmp.args = {var_expr(kWhy), *reason_literal()};
      s.exprs.push_back(std::move(cmp));
      s.body.push_back(with(StmtKind::Stop, {var_expr(kWhy)}));
      h.body.push_back(std::move(s));
      break;
    }
    case 2: h.body.push_back(handler_stmt(pl)); break;
    default: break;  // survives
  }
  return h;
}

/// Version 2 for one kind (its code already generated).
inline void kind(Kind& k, const ProgramFacts& facts, const Shape& shape) {
  const Profile& pr = *facts.profile;
  if (*chance(pr.w_reason_field, 1)) {
    Field f;
    f.name = kCause;
    f.type = Type::Reason;
    f.init = *reason_literal();
    k.state.push_back(std::move(f));
  }
  std::vector<Var> fields;
  for (const Field& f : k.state) fields.push_back(Var{f.name, f.type});
  ExprScope code{{}, facts.addrs, true, facts.profile, facts.unknown};
  for (const Param& p : k.params) code.vars.push_back(Var{p.name, p.type});
  for (const Var& f : fields) code.vars.push_back(f);
  Place init{code, fields, &facts, &shape, k.name};
  insert_some(k.init, pr.max_v2_init_stmts, [&] { return init_stmt(init); });
  if (*chance(1, 2)) k.init.insert(k.init.begin(), with(StmtKind::TrapExit, {int_expr(1)}));  // its links cannot fail
  int how = *weighted<int>({{pr.w_start_ok, rc::gen::just(0)},
                            {pr.w_start_fails, rc::gen::just(1)},
                            {pr.w_start_ignored, rc::gen::just(2)}});
  if (how) k.init.push_back(failing_start(init, how == 2));
  Place handlers{code, fields, &facts, &shape, k.name};
  handlers.exprs.init = false;
  for (Handler& h : k.handlers) {
    Place pl = handlers;
    for (const Param& p : h.params) pl.exprs.vars.push_back(Var{p.name, p.type});
    insert_handler_stmts(h.body, pr.max_v2_stmts, pl);
    if (*chance(pr.w_reply_first, 1)) h.body.insert(h.body.begin(), reply(pl));  // callers get answers
  }
  if (*chance(pr.w_exit_handler, 1)) k.handlers.push_back(system_handler("exit", handlers));
  if (*chance(pr.w_down_handler, 1)) k.handlers.push_back(system_handler("down", handlers));
}

/// auto_shutdown for each supervisor, and significant children where V9 allows.
inline void supervisor(SupervisorDecl& s, const Profile& pr) {
  s.auto_shutdown = *weighted<AutoShutdown>({{pr.w_auto_shutdown_never, rc::gen::just(AutoShutdown::Never)},
                                             {pr.w_auto_shutdown, rc::gen::just(AutoShutdown::AnySignificant)},
                                             {pr.w_auto_shutdown, rc::gen::just(AutoShutdown::AllSignificant)}});
  for (Child& c : s.children) {
    c.significant =
        s.auto_shutdown != AutoShutdown::Never && c.restart != Restart::Permanent && *chance(pr.w_significant, 1);
    if (auto* sd = std::get_if<SupervisorDecl>(&c.decl)) supervisor(*sd, pr);
  }
}

// Spawns under a supervisor with auto_shutdown may be significant (V9).
inline void significant_spawns(std::vector<Stmt>& b, const std::vector<const SupervisorDecl*>& sups,
                               const Profile& pr) {
  for (Stmt& s : b) {
    significant_spawns(s.body, sups, pr);
    significant_spawns(s.orelse, sups, pr);
    if (s.kind != StmtKind::Spawn || s.under.empty() || s.restart == Restart::Permanent) continue;
    for (const SupervisorDecl* d : sups)
      if (d->name == s.under && d->auto_shutdown != AutoShutdown::Never) s.significant = *chance(pr.w_significant, 1);
  }
}

inline void all_supervisors(const Decl& d, std::vector<const SupervisorDecl*>& out) {
  if (auto* s = std::get_if<SupervisorDecl>(&d)) {
    out.push_back(s);
    for (const Child& c : s->children) all_supervisors(c.decl, out);
  }
}

inline void families(const Decl& d, std::vector<Family>& out) {
  auto* s = std::get_if<SupervisorDecl>(&d);
  if (!s) return;
  Family f{s->name, {}, {}};
  for (const Child& c : s->children) {
    if (auto* w = std::get_if<ProcessDecl>(&c.decl))
      f.workers.push_back(w->name);
    else
      f.supervisors.push_back(std::get<SupervisorDecl>(c.decl).name);
  }
  out.push_back(std::move(f));
  for (const Child& c : s->children) families(c.decl, out);
}

inline Shape shape_of(const Program& p) {
  Shape out;
  std::vector<const ProcessDecl*> procs;
  collect_processes(p.system, procs);
  for (const ProcessDecl* d : procs) {
    if (d->name != kServer) out.declared.push_back(d->name);  // only calls name the server
    for (const Kind& k : p.kinds)
      if (k.name == d->kind && !k.handlers.empty()) {
        Callee c{d->name, k.name, {}};
        for (const Handler& h : k.handlers) {
          Signature sig{h.tag, {}};
          for (const Param& prm : h.params) sig.types.push_back(prm.type);
          c.handles.push_back(std::move(sig));
        }
        if (d->name == kServer) out.server = c;
        out.callees.push_back(std::move(c));
      }
  }
  for (const Decl& d : p.system) families(d, out.families);
  return out;
}

/// The whole program, made version 2 (see the banner).
inline void program(Program& p, const ProgramFacts& facts) {
  const Profile& pr = *facts.profile;
  p.version = 2;
  for (Decl& d : p.system)
    if (auto* s = std::get_if<SupervisorDecl>(&d)) supervisor(*s, pr);
  if (*chance(pr.w_server, 1)) {  // its kind last, its root after the others: ids stay as they were
    p.kinds.push_back(server_header(pr));
    p.system.push_back(server_supervisor(pr));
  }
  std::vector<const SupervisorDecl*> sups;
  for (const Decl& d : p.system) all_supervisors(d, sups);
  Shape shape = shape_of(p);
  for (Kind& k : p.kinds) {
    if (k.name == kServerKind) {
      server_code(k, facts, shape);
      continue;
    }
    kind(k, facts, shape);
    for (Handler& h : k.handlers) significant_spawns(h.body, sups, pr);
  }
}

}  // namespace concord::gen::v2
