// generators/scale.hpp: programs at a runtime's capacities (the profile "scale";
// the default profile draws about one program in scale_one_in from it, profile.hpp).
// Random programs stay small: a few hundred process ids, short mailboxes, a few
// spawns of a kind, a few hundred turns. So a runtime's growth paths (a ready set,
// a name index, mailboxes, child lists and journal buffers that resize), its long
// runs and its spawned names of many digits are never reached by them. A scale
// program is made of *stressors*, each a kind or two with a root and a given
// message, sized by the profile's scale knobs:
//
//   storm   a spawner whose `go` spawns rounds of repeat × repeat workers (up to
//           tens of thousands of ids in one turn), each of whose init sends to
//           itself (thousands of processes ready at once) or to the spawner (its
//           mailbox thousands deep); it then pokes workers through spawned-name
//           literals of many digits that the run reaches (@worker-1234), one poke
//           making a worker fail
//   wide    hundreds of dynamic children under one supervisor (child lists of
//           hundreds); a poke fails one of them, and its supervisor reacts with
//           its strategy over the whole list
//   flood   a flooder that sends rounds of up to a thousand messages to one sink
//   rally   two processes that pass a counter back and forth for thousands of turns
//
// Names are the longest the spec allows (32 characters) wherever one is chosen,
// or short ones. At least one stressor is drawn. Shrinks toward fewer stressors
// and smaller sizes (RapidCheck shrinks each draw toward its low end).
#pragma once

#include <algorithm>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "generators/basics.hpp"
#include "generators/expressions.hpp"
#include "generators/profile.hpp"
#include "generators/statements.hpp"
#include "generators/supervision.hpp"

namespace concord::gen {

namespace scale_detail {

inline const std::string kLongKind = "Abcdefghijklmnopqrstuvwxyz_01234";  // 32 characters
inline const std::string kLongProcess = "p234567890123456789012345678901x";
inline const std::string kLongSupervisor = "s234567890123456789012345678901x";
inline const std::string kLongCode = "ABCDEFGHIJKLMNOPQRSTUVWXYZ_01234";
inline const std::string kLongTag = "t234567890123456789012345678901x";

inline Param param(std::string name, Type t) { return Param{std::move(name), t, ""}; }
inline Field field(std::string name, Type t, Expr init) {
  Field f;
  f.name = std::move(name);
  f.type = t;
  f.init = std::move(init);
  return f;
}
inline Handler handler(std::string tag, std::vector<Param> params, std::vector<Stmt> body) {
  Handler h;
  h.tag = std::move(tag);
  h.params = std::move(params);
  h.body = std::move(body);
  return h;
}
inline Stmt assign(std::string f, Expr e) {
  Stmt s = make_stmt(StmtKind::Assign, std::move(f));
  s.exprs.push_back(std::move(e));
  return s;
}
inline Stmt send_to(std::string tag, Expr to, std::vector<Expr> args = {}) {
  Stmt s = make_stmt(StmtKind::Send, std::move(tag));
  s.exprs.push_back(std::move(to));
  for (Expr& a : args) s.exprs.push_back(std::move(a));
  return s;
}
inline Stmt if_then(Expr cond, std::vector<Stmt> then) {
  Stmt s = make_stmt(StmtKind::If);
  s.exprs.push_back(std::move(cond));
  s.body = std::move(then);
  return s;
}
inline Stmt repeat(int64_t n, std::vector<Stmt> body) {
  Stmt s = make_stmt(StmtKind::Repeat);
  s.count = n;
  s.body = std::move(body);
  return s;
}
inline Expr plus(Expr a, Expr b) { return binary_expr(Op::Add, std::move(a), std::move(b)); }
inline Expr minus(Expr a, Expr b) { return binary_expr(Op::Sub, std::move(a), std::move(b)); }
inline Expr op(Op o, Expr a, Expr b) { return binary_expr(o, std::move(a), std::move(b)); }

inline ProcessDecl process(std::string name, std::string kind, std::vector<Expr> args = {}) {
  ProcessDecl d;
  d.name = std::move(name);
  d.kind = std::move(kind);
  d.args = std::move(args);
  return d;
}
inline Given given(std::string to, std::string tag, std::vector<Expr> args = {}) {
  Given g;
  g.to = std::move(to);
  g.tag = std::move(tag);
  g.args = std::move(args);
  return g;
}

/// A number of two digits or more, from 10 to about `max`, whose digits do not read
/// the same backwards (so that a number printed reversed shows). Shrinks toward
/// 10.
inline rc::Gen<int64_t> non_palindrome(int64_t max) {
  return rc::gen::map(rc::gen::inRange<int64_t>(10, std::max<int64_t>(11, max + 1)), [](int64_t n) {
    for (;; n++) {
      std::string s = std::to_string(n), r(s.rbegin(), s.rend());
      if (s != r) return n;
    }
  });
}

/// The sizes of a storm: workers per round as repeat × repeat (inner at most
/// 1000, outer as many as the total needs), so one turn may spawn tens of
/// thousands: mostly hundreds to a few thousand, one storm in seven from 10,000 to
/// the profile's maximum. Shrinks toward one small batch.
inline rc::Gen<std::pair<int64_t, int64_t>> batch(const Profile& pr) {
  int64_t most = std::max<int64_t>(10, pr.max_spawn_batch);
  auto sized = [](int64_t total) {
    return rc::gen::map(rc::gen::inRange<int64_t>(10, std::max<int64_t>(11, total + 1)), [](int64_t n) {
      int64_t outer = std::max<int64_t>(1, (n + 999) / 1000), inner = std::max<int64_t>(1, n / outer);
      return std::pair<int64_t, int64_t>{std::min<int64_t>(outer, 1000), std::min<int64_t>(inner, 1000)};
    });
  };
  auto from = [&sized](int64_t lo, int64_t hi) {
    return rc::gen::map(sized(hi - lo), [lo](std::pair<int64_t, int64_t> p) {  // at least lo: tens of thousands
      int64_t outer = std::max<int64_t>(p.first, (lo + p.second - 1) / p.second);
      return std::pair<int64_t, int64_t>{std::min<int64_t>(outer, 1000), p.second};
    });
  };
  return weighted<std::pair<int64_t, int64_t>>({{12, sized(std::min<int64_t>(most, 1500))},
                                                {6, sized(std::min<int64_t>(most, 4000))},
                                                {3, most > 10000 ? from(10000, most) : sized(most)}});
}

}  // namespace scale_detail

/// A scale program (see the banner), sized by pr's scale knobs. Shrinks toward
/// fewer stressors and smaller sizes.
inline rc::Gen<Program> scale_program(ProfileRef pr) {
  return rc::gen::exec([pr] {
    using namespace scale_detail;
    Program p;
    bool storm = *chance(3, 1), wide = *chance(1, 1), flood = *chance(1, 1), rally = *chance(1, 1);
    if (!storm && !wide && !flood && !rally) storm = true;
    bool long_names = *chance(2, 1);
    std::vector<Given> givens;

    if (storm || wide) {
      std::string worker = long_names ? kLongKind : "Worker";
      std::string prefix = lower_case(worker) + "-";
      std::string spawner = long_names ? kLongProcess : "main";
      std::string tick = long_names ? kLongTag : "tick";
      std::string code = long_names ? kLongCode : "BOOM";
      // The worker: its init makes it ready (sends to itself), fills the spawner's
      // mailbox, or does nothing; a poke of 7 makes it fail.
      int init_mode = *uniform(0, 3);
      int64_t ticks = *rc::gen::inRange<int64_t>(1, 4);
      Kind w;
      w.name = worker;
      w.params = {param("boss", Type::Addr)};
      w.state = {field("hits", Type::Int, int_expr(0))};
      if (init_mode == 1) w.init = {send_to(tick, self_expr())};
      if (init_mode == 2) w.init = {send_to("hello", var_expr("boss"))};
      w.handlers.push_back(
          handler(tick, {},
                  {assign("hits", plus(var_expr("hits"), int_expr(1))),
                   if_then(op(Op::Lt, var_expr("hits"), int_expr(ticks)), {send_to(tick, self_expr())})}));
      w.handlers.push_back(
          handler("poke", {param("n", Type::Int)},
                  {assign("hits", plus(var_expr("hits"), var_expr("n"))),
                   if_then(op(Op::Eq, var_expr("n"), int_expr(7)), {make_stmt(StmtKind::Fail, code)})}));
      p.kinds.push_back(std::move(w));

      // The spawner: rounds of storms, the wide children in its first round, then
      // pokes by spawned-name literals the run reaches.
      int64_t outer = 0, inner = 0, rounds = 1;
      if (storm) {
        std::tie(outer, inner) = *batch(*pr);
        rounds = *rc::gen::inRange<int64_t>(1, std::max(2, pr->max_spawn_rounds + 1));
      }
      int64_t children = wide ? *rc::gen::inRange<int64_t>(100, std::max(101, pr->max_wide_children + 1)) : 0;
      Kind s;
      s.name = "SpawnMe";
      s.state = {field("rounds", Type::Int, int_expr(0)), field("last", Type::Addr, self_expr())};
      std::vector<Stmt> go = {assign("rounds", plus(var_expr("rounds"), int_expr(1)))};
      if (storm) {
        Stmt sp = make_stmt(StmtKind::Spawn, worker);
        sp.exprs = {self_expr()};
        sp.bind = "last";
        go.push_back(outer > 1 ? repeat(outer, {repeat(inner, {sp})}) : repeat(inner, {sp}));
      }
      std::string sup = long_names ? kLongSupervisor : "wide";
      if (wide) {
        Stmt sp = make_stmt(StmtKind::Spawn, worker);
        sp.exprs = {self_expr()};
        sp.under = sup;
        sp.restart = *restart_type();
        go.push_back(if_then(op(Op::Eq, var_expr("rounds"), int_expr(1)), {repeat(children, {sp})}));
      }
      int64_t reached = outer * inner + children;  // spawned in the first round
      int pokes = *uniform(1, 4);
      for (int i = 0; i < pokes; i++) {
        int64_t n = *non_palindrome(std::max<int64_t>(10, reached));
        bool fails = i == 0 && *chance(1, 1);
        go.push_back(send_to("poke", addr_expr(prefix + std::to_string(n)), {int_expr(fails ? 7 : n % 5)}));
      }
      go.push_back(send_to("poke", var_expr("last"), {int_expr(1)}));
      go.push_back(if_then(op(Op::Lt, var_expr("rounds"), int_expr(rounds)), {send_to("go", self_expr())}));
      s.handlers.push_back(handler("go", {}, std::move(go)));
      s.handlers.push_back(handler("hello", {}, {}));
      p.kinds.push_back(std::move(s));

      ProcessDecl main = process(spawner, "SpawnMe");
      if (wide) {
        SupervisorDecl sd;
        sd.name = sup;
        sd.strategy = *strategy();
        sd.intensity = *uniform<int64_t>(0, 4);
        if (*chance(1, 1))
          sd.children.push_back(Child{Restart::Permanent, Decl{main}});
        else
          p.system.push_back(Decl{main});
        p.system.push_back(Decl{std::move(sd)});
      } else {
        p.system.push_back(Decl{main});
      }
      givens.push_back(given(spawner, "go"));
      // A spawned name of many digits that does not exist yet at start: dropped.
      givens.push_back(
          given(prefix + std::to_string(*non_palindrome(std::max<int64_t>(10, reached))), "poke", {int_expr(1)}));
    }

    if (flood) {
      int64_t per = *rc::gen::inRange<int64_t>(100, std::max(101, pr->max_flood + 1));
      int64_t again = *rc::gen::inRange<int64_t>(0, std::max(1, pr->max_flood_rounds));
      Kind f;
      f.name = "Flooder";
      f.params = {param("sink", Type::Addr)};
      f.handlers.push_back(handler("flood", {param("k", Type::Int)},
                                   {repeat(per, {send_to("item", var_expr("sink"), {var_expr("k")})}),
                                    if_then(op(Op::Gt, var_expr("k"), int_expr(0)),
                                            {send_to("flood", self_expr(), {minus(var_expr("k"), int_expr(1))})})}));
      Kind k;
      k.name = "Sink";
      k.state = {field("total", Type::Int, int_expr(0))};
      k.handlers.push_back(
          handler("item", {param("v", Type::Int)}, {assign("total", plus(var_expr("total"), var_expr("v")))}));
      p.kinds.push_back(std::move(f));
      p.kinds.push_back(std::move(k));
      p.system.push_back(Decl{process("sink", "Sink")});
      p.system.push_back(Decl{process("flooder", "Flooder", {addr_expr("sink")})});
      givens.push_back(given("flooder", "flood", {int_expr(again)}));
    }

    if (rally) {
      int64_t n = *rc::gen::inRange<int64_t>(100, std::max(101, pr->max_rally + 1));
      std::string a = long_names ? "a234567890123456789012345678901x" : "ping", b = "pong";
      Kind r;
      r.name = "Rally";
      r.params = {param("peer", Type::Addr)};
      r.handlers.push_back(
          handler("ball", {param("n", Type::Int)},
                  {if_then(op(Op::Gt, var_expr("n"), int_expr(0)),
                           {send_to("ball", var_expr("peer"), {minus(var_expr("n"), int_expr(1))})})}));
      p.kinds.push_back(std::move(r));
      p.system.push_back(Decl{process(a, "Rally", {addr_expr(b)})});
      p.system.push_back(Decl{process(b, "Rally", {addr_expr(a)})});
      givens.push_back(given(a, "ball", {int_expr(n)}));
    }
    p.given = std::move(givens);
    return p;
  });
}

}  // namespace concord::gen
