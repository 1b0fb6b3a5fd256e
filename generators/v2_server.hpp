// generators/v2_server.hpp: the server of a version 2 program, so that its calls
// meet a live callee (SPEC §18). Left to themselves, generated calls reach callees
// that have died long before (links to dead names, stray messages, failures): a
// call event in ~1 of 300 runs. The server is a worker of its own kind, a permanent
// child of its own root supervisor (restarted when a call kills it), that no
// generated code names but calls: no message, link or exit signal reaches it, so it
// lives to answer. Each of its handlers, as the profile weighs it: replies (an int
// mostly, else its own addr or a reason: a caller bound to a field of another type
// fails BAD_REPLY) and counts; never replies (its caller waits for ever: deadlock
// once nothing else is ready); fails, stops with a reason, or kills itself before
// replying (the caller fails with the code, code(R), KILLED); or calls a declared
// process before replying (a chain of calls, a cycle when that process waits on the
// server: deadlock).
#pragma once

#include <string>
#include <vector>

#include "generators/v2_place.hpp"

namespace concord::gen::v2 {

// None is in kind_pool(), process_pool(), supervisor_pool() or var_pool().
inline const char *const kServerKind = "Server", *const kServer = "server", *const kServers = "servers",
                         *const kServed = "served";

/// The server's kind without bodies: a count of the calls it took, 1..max handlers
/// of distinct tags, each with 0..2 parameters (ints mostly).
inline Kind server_header(const Profile& pr) {
  Kind k;
  k.name = kServerKind;
  Field served;
  served.name = kServed;
  served.init = int_expr(0);
  k.state.push_back(std::move(served));
  size_t n = static_cast<size_t>(*uniform(1, pr.max_server_handlers + 1));
  for (const std::string& tag : *distinct_names(tag_pool(), n)) {
    Handler h;
    h.tag = tag;
    int params = *uniform(0, 3);
    for (int i = 0; i < params; i++) {
      Type t = *weighted<Type>(
          {{4, rc::gen::just(Type::Int)}, {1, rc::gen::just(Type::Addr)}, {1, rc::gen::just(Type::Reason)}});
      h.params.push_back(Param{var_pool()[static_cast<size_t>(i)], t, ""});
    }
    k.handlers.push_back(std::move(h));
  }
  return k;
}

/// The server's root: `supervisor servers one_for_one intensity I { permanent process server = Server(); }`.
inline SupervisorDecl server_supervisor(const Profile& pr) {
  SupervisorDecl s;
  s.name = kServers;
  s.intensity = pr.server_intensity;
  ProcessDecl p;
  p.name = kServer;
  p.kind = kServerKind;
  s.children.push_back(Child{Restart::Permanent, p, false});
  return s;
}

/// What a server's reply holds: an int four times in six, else its addr or a reason.
inline Stmt server_reply(const Place& pl) {
  Expr e = *chance(4, 2) ? *expr(pl.exprs, Type::Int, 2) : *chance(1, 1) ? self_expr() : reason(pl.exprs);
  return with(StmtKind::Reply, {std::move(e)});
}

/// A call from the server to a declared process with one of its handlers (it may be
/// waiting on the server: a cycle), or now and then to itself (CALLING_SELF).
inline Stmt server_call(const Place& pl) {
  std::vector<const Callee*> others;
  for (const Callee& c : pl.shape->callees)
    if (c.kind != pl.kind) others.push_back(&c);
  if (others.empty() || *chance(1, 6)) {
    const Callee& me = *pl.shape->server;
    return call_with(pl, self_expr(), me.handles[*uniform<size_t>(0, me.handles.size())]);
  }
  const Callee& c = *others[*uniform<size_t>(0, others.size())];
  return call_with(pl, addr_expr(c.name), c.handles[*uniform<size_t>(0, c.handles.size())]);
}

/// One handler body of the server (see the banner).
inline std::vector<Stmt> server_body(const Place& pl) {
  const Profile& pr = *pl.exprs.profile;
  Stmt count = with(StmtKind::Assign, {binary_expr(Op::Add, var_expr(kServed), int_expr(1))}, kServed);
  int how = *weighted<int>({{pr.w_serve_reply, rc::gen::just(0)},
                            {pr.w_serve_no_reply, rc::gen::just(1)},
                            {pr.w_serve_fail, rc::gen::just(2)},
                            {pr.w_serve_stop, rc::gen::just(3)},
                            {pr.w_serve_kill, rc::gen::just(4)},
                            {pr.w_serve_call, rc::gen::just(5)}});
  switch (how) {
    case 0: return {server_reply(pl), count};
    case 1: return {count};
    case 2: return {count, *fail()};
    case 3: {  // shutdown half the time, normal a quarter: the caller fails SHUTDOWN or NORMAL
      int w = *uniform(0, 4);
      Expr why = w == 0 ? reason(pl.exprs) : reason_word(w == 1 ? "normal" : "shutdown");
      return {count, with(StmtKind::Stop, {std::move(why)})};
    }
    case 4: {
      Stmt kill = with(StmtKind::Exit, {self_expr()});
      kill.kill = true;
      return {count, std::move(kill)};
    }
    default: return {count, server_call(pl), server_reply(pl)};
  }
}

/// The server's init and handler bodies (its header is in the program; `shape` knows
/// it). Now and then its init links it to a declared process without trapping exits:
/// that process's failure kills the server (its callers fail with that reason), the
/// server's own exits reach that process (a normal one is ignored), and once that
/// process is dead every restart of the server fails with NOPROC and is retried
/// until its supervisor gives up (SPEC §19.3).
inline void server_code(Kind& k, const ProgramFacts& facts, const Shape& shape) {
  const Profile& pr = *facts.profile;
  if (!shape.declared.empty() && *chance(pr.w_server_link, 5))
    k.init.push_back(with(StmtKind::Link, {addr_expr(*rc::gen::elementOf(shape.declared))}));
  std::vector<Var> fields{Var{kServed, Type::Int}};
  for (Handler& h : k.handlers) {
    ExprScope sc{{}, facts.addrs, false, facts.profile, facts.unknown};
    sc.vars = fields;
    for (const Param& p : h.params) sc.vars.push_back(Var{p.name, p.type});
    h.body = server_body(Place{sc, fields, &facts, &shape, k.name});
  }
}

}  // namespace concord::gen::v2
