// generators/expressions.hpp: random well-typed expressions (SPEC §5) over the
// variables in scope: int and addr literals, self, variables, and the unary and
// binary operators of oracle/ops.def (the one operator list; a new operator is
// generated without touching this file). In init bodies and state initialisers,
// `/` and `%` get a non-zero literal divisor (§4.9). The scope's profile
// (profile.hpp) sets the depth and the weight of every choice.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "generators/basics.hpp"
#include "generators/profile.hpp"
#include "oracle/program.hpp"

namespace concord::gen {

struct Var {
  std::string name;
  Type type = Type::Int;
};

// What an expression at one place of a kind may use (SPEC §4.2, §4.3, §4.9).
struct ExprScope {
  std::vector<Var> vars;                       // visible parameters, state fields, handler parameters
  std::vector<std::string> addrs;              // names an addr literal may take: declared processes, spawned forms
  bool init = false;                           // initialiser or init body: '/' and '%' need a non-zero literal divisor
  ProfileRef profile = default_profile_ref();  // depth and weights
  std::vector<std::string> unknown;            // names of `addrs` no run reaches (sends to them are dropped)
};

// --- node builders ---------------------------------------------------------------
inline Expr int_expr(int64_t v) {
  Expr e;
  e.kind = ExprKind::Int;
  e.value = v;
  return e;
}
inline Expr addr_expr(std::string name) {
  Expr e;
  e.kind = ExprKind::Addr;
  e.name = std::move(name);
  return e;
}
inline Expr self_expr() {
  Expr e;
  e.kind = ExprKind::Self;
  return e;
}
inline Expr var_expr(std::string name) {
  Expr e;
  e.kind = ExprKind::Var;
  e.name = std::move(name);
  return e;
}
inline Expr unary_expr(Op op, Expr a) {
  Expr e;
  e.kind = ExprKind::Unary;
  e.op = op;
  e.args.push_back(std::move(a));
  return e;
}
inline Expr binary_expr(Op op, Expr a, Expr b) {
  Expr e;
  e.kind = ExprKind::Binary;
  e.op = op;
  e.args.push_back(std::move(a));
  e.args.push_back(std::move(b));
  return e;
}

// The operators of ops.def by arity, in the order of the list.
inline const std::vector<Op>& unary_ops() {
  static const std::vector<Op> v = [] {
    std::vector<Op> out;
#define OP(e, json, text, prec) \
  if ((prec) == 0) out.push_back(Op::e);
#include "oracle/ops.def"
#undef OP
    return out;
  }();
  return v;
}
inline const std::vector<Op>& binary_ops() {
  static const std::vector<Op> v = [] {
    std::vector<Op> out;
#define OP(e, json, text, prec) \
  if ((prec) != 0) out.push_back(Op::e);
#include "oracle/ops.def"
#undef OP
    return out;
  }();
  return v;
}
// Binary operators that also compare addrs (SPEC §5: int x int or addr x addr).
inline bool compares_any_type(Op op) { return op == Op::Eq || op == Op::Ne; }
// Binary operators that fail with DIV_ZERO on a zero right operand.
inline bool divides(Op op) { return op == Op::Div || op == Op::Rem; }

// --- values and leaves -------------------------------------------------------------

/// Arithmetic edges (SPEC §5): ±1, 2, the shift counts 63, 64, 65, 127, -64, and
/// INT64_MIN, INT64_MAX and their neighbours.
inline const std::vector<int64_t>& edge_values() {
  constexpr int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  static const std::vector<int64_t> v{1, -1, 2, 63, 64, 65, 127, -64, lo, hi, lo + 1, hi - 1};
  return v;
}

/// Shift counts past the ends of 0..63 (SPEC §5: the count is taken mod 64).
inline const std::vector<int64_t>& edge_shift_counts() {
  static const std::vector<int64_t> v{-1, 63, 64, 65, 127, std::numeric_limits<int64_t>::min()};
  return v;
}

/// Any int64, weighted by the profile: 0 (so divisions fail with DIV_ZERO), small,
/// an edge of the arithmetic (edge_values()), or anywhere. Shrinks toward 0.
inline rc::Gen<int64_t> int_value(const Profile& pr = default_profile()) {
  return weighted<int64_t>({{pr.w_zero, rc::gen::just<int64_t>(0)},
                            {pr.w_small, rc::gen::scale(0.1, rc::gen::arbitrary<int64_t>())},
                            {pr.w_edge_value, rc::gen::elementOf(edge_values())},
                            {pr.w_any_value, rc::gen::arbitrary<int64_t>()}});
}

/// A non-zero int64, distributed like int_value. Shrinks toward 1.
inline rc::Gen<int64_t> nonzero_int_value(const Profile& pr = default_profile()) {
  return rc::gen::map(int_value(pr), [](int64_t v) { return v == 0 ? int64_t{1} : v; });
}

/// An integer literal. Shrinks toward 0.
inline rc::Gen<Expr> int_literal(const Profile& pr = default_profile()) {
  return rc::gen::map(int_value(pr), int_expr);
}

/// An addr literal naming one of `addrs` (non-empty). Shrinks toward the first name.
inline rc::Gen<Expr> addr_literal(const std::vector<std::string>& addrs) {
  return rc::gen::map(rc::gen::elementOf(addrs), addr_expr);
}

/// A constant of type t (SPEC §4.10): an integer literal, or an addr literal of
/// `addrs` (non-empty for addr). Shrinks as int_literal / addr_literal.
inline rc::Gen<Expr> constant(const std::vector<std::string>& addrs, Type t, const Profile& pr = default_profile()) {
  return t == Type::Int ? int_literal(pr) : addr_literal(addrs);
}

/// A type. Shrinks toward int.
inline rc::Gen<Type> type() { return rc::gen::element(Type::Int, Type::Addr); }

inline std::vector<std::string> names_of_type(const std::vector<Var>& vars, Type t) {
  std::vector<std::string> out;
  for (const Var& v : vars)
    if (v.type == t) out.push_back(v.name);
  return out;
}

/// A leaf of type t: for int a literal or an int variable; for addr `self`, an
/// addr literal (sometimes one of the unknown names) or an addr variable. Shrinks
/// toward the literal 0, resp. `self`.
inline rc::Gen<Expr> leaf(const ExprScope& scope, Type t) {
  // (weighted drops options of weight 0, so elementOf never sees an empty list.)
  const Profile& pr = *scope.profile;
  std::vector<std::string> vars = names_of_type(scope.vars, t);
  rc::Gen<Expr> var = rc::gen::map(rc::gen::elementOf(vars), var_expr);
  if (t == Type::Int)
    return weighted<Expr>({{pr.w_int_literal, int_literal(pr)}, {vars.empty() ? 0 : pr.w_int_var, var}});
  return weighted<Expr>({{pr.w_self, rc::gen::just(self_expr())},
                         {scope.addrs.empty() ? 0 : pr.w_addr_literal, addr_literal(scope.addrs)},
                         {scope.unknown.empty() ? 0 : pr.w_addr_unknown, addr_literal(scope.unknown)},
                         {vars.empty() ? 0 : pr.w_addr_var, var}});
}

// --- compound expressions ----------------------------------------------------------

inline rc::Gen<Expr> expr(const ExprScope& scope, Type t, int depth);

/// An expression of type t over `scope`, as deep as the scope's profile allows.
inline rc::Gen<Expr> expr(const ExprScope& scope, Type t) { return expr(scope, t, scope.profile->max_expr_depth); }

/// A unary operation on an int operand at most depth-1 deep, at half the size.
/// Shrinks toward the first operator of ops.def, then shrinks the operand.
inline rc::Gen<Expr> unary(const ExprScope& scope, int depth) {
  return rc::gen::apply(unary_expr, rc::gen::elementOf(unary_ops()),
                        rc::gen::scale(0.5, expr(scope, Type::Int, depth - 1)));
}

/// The right operand of a binary operator: in init code a divisor is a non-zero
/// literal (§4.9), elsewhere often 0 (DIV_ZERO) or -1 (INT64_MIN / -1); a shift
/// count is often past 63. Shrinks toward an operand.
inline rc::Gen<Expr> right_operand(const ExprScope& scope, Op op, rc::Gen<Expr> operand) {
  const Profile& pr = *scope.profile;
  if (divides(op)) {
    if (scope.init) return rc::gen::map(nonzero_int_value(pr), int_expr);
    return weighted<Expr>({{pr.w_divisor_operand, operand},
                           {pr.w_divisor_zero, rc::gen::just(int_expr(0))},
                           {pr.w_divisor_minus_one, rc::gen::just(int_expr(-1))}});
  }
  if (op == Op::Shl || op == Op::Shr)
    return weighted<Expr>({{pr.w_shift_operand, operand},
                           {pr.w_shift_edge, rc::gen::map(rc::gen::elementOf(edge_shift_counts()), int_expr)}});
  return operand;
}

/// A binary operation whose operands are at most depth-1 deep, at half the size:
/// `==` and `!=` compare ints or addrs; `/`, `%`, `<<`, `>>` are favoured as the
/// profile says, with right operands from right_operand(). Shrinks toward the
/// first operator of ops.def, then the operands.
inline rc::Gen<Expr> binary(const ExprScope& scope, int depth) {
  const Profile& pr = *scope.profile;
  rc::Gen<Op> op = weighted<Op>({{pr.w_any_op, rc::gen::elementOf(binary_ops())},
                                 {pr.w_div, rc::gen::element(Op::Div, Op::Rem)},
                                 {pr.w_shift, rc::gen::element(Op::Shl, Op::Shr)}});
  return rc::gen::mapcat(op, [scope, depth](Op op) {
    auto operand = [&](Type t) { return rc::gen::scale(0.5, expr(scope, t, depth - 1)); };
    if (compares_any_type(op))
      return rc::gen::mapcat(type(), [op, operand](Type t) {
        return rc::gen::apply([op](Expr a, Expr b) { return binary_expr(op, std::move(a), std::move(b)); }, operand(t),
                              operand(t));
      });
    return rc::gen::apply([op](Expr a, Expr b) { return binary_expr(op, std::move(a), std::move(b)); },
                          operand(Type::Int), right_operand(scope, op, operand(Type::Int)));
  });
}

/// An expression of type t over `scope`, at most `depth` deep (addr expressions
/// are leaves: no operator yields an addr). The size sets how often it branches:
/// at size 0 it is a leaf. Shrinks toward a leaf, then shrinks the leaf.
inline rc::Gen<Expr> expr(const ExprScope& scope, Type t, int depth) {
  if (t == Type::Addr || depth <= 1) return leaf(scope, t);
  return rc::gen::withSize([scope, depth](int size) {
    const Profile& pr = *scope.profile;
    int branch = std::min(size, 100) / 20;  // 0..5
    return weighted<Expr>({{pr.w_leaf, leaf(scope, Type::Int)},
                           {branch * pr.w_unary, unary(scope, depth)},
                           {branch * pr.w_binary, binary(scope, depth)}});
  });
}

}  // namespace concord::gen
