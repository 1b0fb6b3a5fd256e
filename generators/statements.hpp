// generators/statements.hpp: random valid statements and bodies (SPEC §6): assign,
// if/else (and else-if), repeat with small counts, send to addr expressions with
// tags and arities that often match a handler and sometimes not (NO_HANDLER),
// spawn with and without bind and under a declared supervisor, stop, fail; and
// handler bodies that send and then fail midway. Init bodies get only what cannot
// fail (§4.9). The profile (profile.hpp) weighs the forms; its bodies are short and
// nest a few levels with small repeat counts, so a body weighs far less than the
// bound of §4.8 and nests far less than §4.13 allows.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "generators/expressions.hpp"

namespace concord::gen {

// A kind as a spawn sees it.
struct KindShape {
  std::string name;
  std::vector<Type> params;
};

// What the code of every kind may refer to beyond its own variables.
struct ProgramFacts {
  std::vector<std::string> addrs;              // addr literal names: declared processes, spawned forms
  std::vector<std::string> unknown;            // names of addrs no run reaches
  std::vector<KindShape> kinds;                // the kinds, in order
  std::vector<std::string> supervisors;        // declared supervisors, any depth
  std::vector<Signature> sigs;                 // handler signatures of all kinds: sends that can match
  ProfileRef profile = default_profile_ref();  // sizes and weights of everything generated
};

// What a statement at one place of a kind may use.
struct StmtScope {
  ExprScope exprs;          // readable variables and addr literals; exprs.init: an init body; the profile
  std::vector<Var> fields;  // assignable state fields
  std::shared_ptr<const ProgramFacts> facts;
  std::vector<Signature> own;  // the signatures of this kind's own handlers
  const Profile& profile() const { return *exprs.profile; }
};

// --- node builders ---------------------------------------------------------------
inline Stmt make_stmt(StmtKind kind, std::string name = "") {
  Stmt s;
  s.kind = kind;
  s.name = std::move(name);
  return s;
}

// --- simple statements ---------------------------------------------------------------

/// `f = e` for a state field f (scope has fields). Shrinks toward the first field,
/// then shrinks e.
inline rc::Gen<Stmt> assign(const StmtScope& sc) {
  return rc::gen::mapcat(rc::gen::elementOf(sc.fields), [sc](Var f) {
    return rc::gen::map(expr(sc.exprs, f.type), [f](Expr e) {
      Stmt s = make_stmt(StmtKind::Assign, f.name);
      s.exprs.push_back(std::move(e));
      return s;
    });
  });
}

/// Arguments of the given types. Shrinks each argument.
inline rc::Gen<std::vector<Expr>> args_of(const ExprScope& scope, const std::vector<Type>& types) {
  return rc::gen::exec([scope, types] {
    std::vector<Expr> out;
    for (Type t : types) out.push_back(*rc::gen::scale(0.5, expr(scope, t)));
    return out;
  });
}

/// 0..3 argument types. Shrinks toward fewer, int.
inline rc::Gen<std::vector<Type>> arg_types() {
  return rc::gen::resize(3, rc::gen::container<std::vector<Type>>(type()));
}

// A message: tag and arguments.
using MessageShape = std::pair<std::string, std::vector<Type>>;

/// A message signature: usually one some kind handles, otherwise a handled tag
/// with other argument types or a tag nobody handles, as the profile weighs them.
/// Shrinks toward a handled signature.
inline rc::Gen<MessageShape> message_shape(const std::vector<Signature>& sigs, const Profile& pr = default_profile()) {
  std::vector<std::string> tags = stray_tag_pool();
  for (const Signature& s : sigs) tags.push_back(s.tag);
  rc::Gen<MessageShape> handled = sigs.empty() ? rc::gen::just(MessageShape{"nobody", {}})
                                               : rc::gen::map(rc::gen::elementOf(sigs), [](const Signature& s) {
                                                   return MessageShape{s.tag, s.types};
                                                 });
  return weighted<MessageShape>(
      {{sigs.empty() ? 0 : pr.w_matched_message, handled},
       {sigs.empty() ? 1 : pr.w_stray_message, rc::gen::pair(rc::gen::elementOf(tags), arg_types())}});
}

/// `send t(a...) to self` where t is a handler of the sender's own kind (there is
/// one): the process keeps itself busy, and a process that does so in init
/// (spawned, restarted) runs its handlers without anyone sending to it. Shrinks
/// toward the first handler, then the arguments.
inline rc::Gen<Stmt> send_to_self(const StmtScope& sc) {
  return rc::gen::mapcat(rc::gen::elementOf(sc.own), [sc](const Signature& sig) {
    return rc::gen::map(args_of(sc.exprs, sig.types), [tag = sig.tag](std::vector<Expr> args) {
      Stmt s = make_stmt(StmtKind::Send, tag);
      s.exprs.push_back(self_expr());
      for (Expr& a : args) s.exprs.push_back(std::move(a));
      return s;
    });
  });
}

/// `send t(a...) to e`: any message to any addr expression, or (as the profile
/// weighs it) one of the sender's own handlers to itself. Shrinks toward a handled
/// signature, then the receiver, then the arguments.
inline rc::Gen<Stmt> send(const StmtScope& sc) {
  const Profile& pr = sc.profile();
  rc::Gen<Stmt> any = rc::gen::mapcat(message_shape(sc.facts->sigs, pr), [sc](MessageShape m) {
    return rc::gen::apply(
        [tag = m.first](Expr to, std::vector<Expr> args) {
          Stmt s = make_stmt(StmtKind::Send, tag);
          s.exprs.push_back(std::move(to));
          for (Expr& a : args) s.exprs.push_back(std::move(a));
          return s;
        },
        expr(sc.exprs, Type::Addr), args_of(sc.exprs, m.second));
  });
  return weighted<Stmt>({{sc.own.empty() ? 1 : pr.w_send_any, any},
                         {sc.own.empty() ? 0 : pr.w_send_to_self, rc::gen::lazy([sc] { return send_to_self(sc); })}});
}

/// A restart type. Shrinks toward permanent.
inline rc::Gen<Restart> restart_type() {
  return rc::gen::element(Restart::Permanent, Restart::Transient, Restart::Temporary);
}

/// `[f =] spawn K(a...) [under s r]` for a kind K of the program (there is one),
/// bound to an addr field or not, under a declared supervisor or not. Shrinks
/// toward the first kind, unbound, unsupervised.
inline rc::Gen<Stmt> spawn(const StmtScope& sc) {
  const Profile& pr = sc.profile();
  std::vector<std::string> addr_fields = names_of_type(sc.fields, Type::Addr);
  const std::vector<std::string>& sups = sc.facts->supervisors;
  // (weighted drops options of weight 0, so elementOf never sees an empty list.)
  rc::Gen<std::string> bind =
      weighted<std::string>({{addr_fields.empty() ? 1 : pr.w_spawn_unbound, rc::gen::just(std::string())},
                             {addr_fields.empty() ? 0 : pr.w_spawn_bound, rc::gen::elementOf(addr_fields)}});
  using Under = std::pair<std::string, Restart>;
  rc::Gen<Under> under =
      weighted<Under>({{sups.empty() ? 1 : pr.w_spawn_plain, rc::gen::just(Under{"", Restart::Permanent})},
                       {sups.empty() ? 0 : pr.w_spawn_under, rc::gen::pair(rc::gen::elementOf(sups), restart_type())}});
  return rc::gen::mapcat(rc::gen::elementOf(sc.facts->kinds), [sc, bind, under](const KindShape& k) {
    return rc::gen::apply(
        [name = k.name](std::vector<Expr> args, std::string b, Under u) {
          Stmt s = make_stmt(StmtKind::Spawn, name);
          s.exprs = std::move(args);
          s.bind = std::move(b);
          s.under = u.first;
          s.restart = u.second;
          return s;
        },
        args_of(sc.exprs, k.params), bind, under);
  });
}

/// `stop`. Does not shrink.
inline rc::Gen<Stmt> stop() { return rc::gen::just(make_stmt(StmtKind::Stop)); }

/// `fail C` with a code of code_pool(). Shrinks toward the pool's first code.
inline rc::Gen<Stmt> fail() {
  return rc::gen::map(rc::gen::elementOf(code_pool()),
                      [](const std::string& c) { return make_stmt(StmtKind::Fail, c); });
}

// --- compound statements and bodies -------------------------------------------------

inline rc::Gen<std::vector<Stmt>> body(const StmtScope& sc, int depth, int max_len);

/// A nested body (then, else, repeat): at most the profile's max_nested_length.
inline rc::Gen<std::vector<Stmt>> nested_body(const StmtScope& sc, int depth) {
  return body(sc, depth, sc.profile().max_nested_length);
}

/// `if c { A } else { B }`, B empty, a block, or an else-if; A and B nest at most
/// depth-1 deep. Shrinks toward an empty else, then shrinks c, A and B.
inline rc::Gen<Stmt> if_else(const StmtScope& sc, int depth) {
  rc::Gen<std::vector<Stmt>> orelse = weighted<std::vector<Stmt>>(
      {{2, rc::gen::just(std::vector<Stmt>{})},
       {2, nested_body(sc, depth - 1)},
       {depth > 1 ? 1 : 0, rc::gen::lazy([sc, depth] {
          return rc::gen::map(if_else(sc, depth - 1), [](Stmt s) { return std::vector<Stmt>{std::move(s)}; });
        })}});
  return rc::gen::apply(
      [](Expr c, std::vector<Stmt> then, std::vector<Stmt> els) {
        Stmt s = make_stmt(StmtKind::If);
        s.exprs.push_back(std::move(c));
        s.body = std::move(then);
        s.orelse = std::move(els);
        return s;
      },
      expr(sc.exprs, Type::Int), nested_body(sc, depth - 1), orelse);
}

/// `repeat n { A }` with 0 <= n <= the profile's max_repeat_count, A at most
/// depth-1 deep.
/// Shrinks toward n = 0, then shrinks A.
inline rc::Gen<Stmt> repeat(const StmtScope& sc, int depth) {
  return rc::gen::apply(
      [](int64_t n, std::vector<Stmt> b) {
        Stmt s = make_stmt(StmtKind::Repeat);
        s.count = n;
        s.body = std::move(b);
        return s;
      },
      rc::gen::inRange<int64_t>(0, sc.profile().max_repeat_count + 1), nested_body(sc, depth - 1));
}

/// One statement nesting at most `depth` deep (depth >= 1), each form weighted by
/// the profile. In init code only assign, if, repeat and send (§4.9). Shrinks
/// toward a send, then an assignment.
inline rc::Gen<Stmt> stmt(const StmtScope& sc, int depth) {
  const Profile& pr = sc.profile();
  bool init = sc.exprs.init;
  bool nest = depth > 1;
  // A send is always possible: it keeps the choice non-empty whatever the weights.
  bool others = (!sc.fields.empty() && pr.w_assign > 0) || (nest && (pr.w_if > 0 || pr.w_repeat > 0)) ||
                (!init && (pr.w_stop > 0 || pr.w_fail > 0 || (!sc.facts->kinds.empty() && pr.w_spawn > 0)));
  return weighted<Stmt>({
      {others ? pr.w_send : 1, send(sc)},
      {sc.fields.empty() ? 0 : pr.w_assign, assign(sc)},
      {init ? 0 : pr.w_stop, stop()},
      {init ? 0 : pr.w_fail, fail()},
      {nest ? pr.w_if : 0, rc::gen::lazy([sc, depth] { return if_else(sc, depth); })},
      {nest ? pr.w_repeat : 0, rc::gen::lazy([sc, depth] { return repeat(sc, depth); })},
      {init || sc.facts->kinds.empty() ? 0 : pr.w_spawn, rc::gen::lazy([sc] { return spawn(sc); })},
  });
}

/// A body of 0..max_len statements nesting at most `depth` deep (empty when depth
/// is 0). Shrinks by removing statements, then by shrinking them.
inline rc::Gen<std::vector<Stmt>> body(const StmtScope& sc, int depth, int max_len) {
  if (depth <= 0) return rc::gen::just(std::vector<Stmt>{});
  return list_of(max_len, rc::gen::lazy([sc, depth] { return stmt(sc, depth); }));
}

/// A handler body that fails midway after sending: 0..max_len-2 statements, a
/// send, then `fail C` (what the send sent stays sent, SPEC §6). Shrinks the
/// statements before the send, then the send and the code.
inline rc::Gen<std::vector<Stmt>> failing_body(const StmtScope& sc, int depth, int max_len) {
  return rc::gen::apply(
      [](std::vector<Stmt> b, Stmt s, Stmt f) {
        b.push_back(std::move(s));
        b.push_back(std::move(f));
        return b;
      },
      body(sc, depth, std::max(1, max_len - 2)), send(sc), fail());
}

/// A handler body: random statements, or (as the profile weighs it) one that sends
/// and then fails midway. Shrinks toward random statements.
inline rc::Gen<std::vector<Stmt>> handler_body(const StmtScope& sc) {
  const Profile& pr = sc.profile();
  return weighted<std::vector<Stmt>>({{pr.w_plain_handler, body(sc, pr.max_stmt_depth, pr.max_body_length)},
                                      {pr.w_failing_handler, failing_body(sc, pr.max_stmt_depth, pr.max_body_length)}});
}

}  // namespace concord::gen
