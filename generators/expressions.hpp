// generators/expressions.hpp: random well-typed expressions (SPEC §5) over the
// variables in scope: int and addr literals, self, variables, and the unary and
// binary operators of oracle/ops.def (the one operator list; a new operator is
// generated without touching this file). In init bodies and state initialisers,
// `/` and `%` get a non-zero literal divisor (§4.9).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "generators/basics.hpp"
#include "oracle/program.hpp"

namespace concord::gen {

struct Var {
  std::string name;
  Type type = Type::Int;
};

// What an expression at one place of a kind may use (SPEC §4.2, §4.3, §4.9).
struct ExprScope {
  std::vector<Var> vars;           // visible parameters, state fields, handler parameters
  std::vector<std::string> addrs;  // names an addr literal may take: declared processes, spawned forms
  bool init = false;               // initialiser or init body: '/' and '%' need a non-zero literal divisor
};

constexpr int kMaxExprDepth = 5;  // generated expressions nest at most this deep (the limit is 64)

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

/// Any int64: mostly small (0 often, so divisions fail with DIV_ZERO), often an
/// edge of the arithmetic (±1, 63, 64, 65, INT64_MIN, INT64_MAX...), sometimes
/// anywhere. Shrinks toward 0.
inline rc::Gen<int64_t> int_value() {
  constexpr int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  return weighted<int64_t>({{2, rc::gen::just<int64_t>(0)},
                            {5, rc::gen::scale(0.1, rc::gen::arbitrary<int64_t>())},
                            {3, rc::gen::element<int64_t>(1, -1, 2, 63, 64, 65, -64, lo, hi, lo + 1, hi - 1)},
                            {1, rc::gen::arbitrary<int64_t>()}});
}

/// A non-zero int64, distributed like int_value. Shrinks toward 1.
inline rc::Gen<int64_t> nonzero_int_value() {
  return rc::gen::map(int_value(), [](int64_t v) { return v == 0 ? int64_t{1} : v; });
}

/// An integer literal. Shrinks toward 0.
inline rc::Gen<Expr> int_literal() { return rc::gen::map(int_value(), int_expr); }

/// An addr literal naming one of `addrs` (non-empty). Shrinks toward the first name.
inline rc::Gen<Expr> addr_literal(const std::vector<std::string>& addrs) {
  return rc::gen::map(rc::gen::elementOf(addrs), addr_expr);
}

/// A constant of type t (SPEC §4.10): an integer literal, or an addr literal of
/// `addrs` (non-empty for addr). Shrinks as int_literal / addr_literal.
inline rc::Gen<Expr> constant(const std::vector<std::string>& addrs, Type t) {
  return t == Type::Int ? int_literal() : addr_literal(addrs);
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
/// addr literal or an addr variable. Shrinks toward the literal 0, resp. `self`.
inline rc::Gen<Expr> leaf(const ExprScope& scope, Type t) {
  // (weighted drops options of weight 0, so elementOf never sees an empty list.)
  std::vector<std::string> vars = names_of_type(scope.vars, t);
  rc::Gen<Expr> var = rc::gen::map(rc::gen::elementOf(vars), var_expr);
  int nvars = vars.empty() ? 0 : 3;
  if (t == Type::Int) return weighted<Expr>({{3, int_literal()}, {nvars, var}});
  return weighted<Expr>(
      {{2, rc::gen::just(self_expr())}, {scope.addrs.empty() ? 0 : 2, addr_literal(scope.addrs)}, {nvars, var}});
}

// --- compound expressions ----------------------------------------------------------

inline rc::Gen<Expr> expr(const ExprScope& scope, Type t, int depth = kMaxExprDepth);

/// A unary operation on an int operand at most depth-1 deep, at half the size.
/// Shrinks toward the first operator of ops.def, then shrinks the operand.
inline rc::Gen<Expr> unary(const ExprScope& scope, int depth) {
  return rc::gen::apply(unary_expr, rc::gen::elementOf(unary_ops()),
                        rc::gen::scale(0.5, expr(scope, Type::Int, depth - 1)));
}

/// A binary operation whose operands are at most depth-1 deep, at half the size:
/// `==` and `!=` compare ints or addrs; in init code a divisor is a non-zero
/// literal, elsewhere often 0 (DIV_ZERO); `/` and `%` are favoured. Shrinks
/// toward the first operator of ops.def, then the operands.
inline rc::Gen<Expr> binary(const ExprScope& scope, int depth) {
  rc::Gen<Op> op = weighted<Op>({{7, rc::gen::elementOf(binary_ops())}, {1, rc::gen::element(Op::Div, Op::Rem)}});
  return rc::gen::mapcat(op, [scope, depth](Op op) {
    auto operand = [&](Type t) { return rc::gen::scale(0.5, expr(scope, t, depth - 1)); };
    if (compares_any_type(op))
      return rc::gen::mapcat(type(), [op, operand](Type t) {
        return rc::gen::apply([op](Expr a, Expr b) { return binary_expr(op, std::move(a), std::move(b)); }, operand(t),
                              operand(t));
      });
    rc::Gen<Expr> rhs = !divides(op) ? operand(Type::Int)
                        : scope.init ? rc::gen::map(nonzero_int_value(), int_expr)
                                     : weighted<Expr>({{2, operand(Type::Int)}, {1, rc::gen::just(int_expr(0))}});
    return rc::gen::apply([op](Expr a, Expr b) { return binary_expr(op, std::move(a), std::move(b)); },
                          operand(Type::Int), rhs);
  });
}

/// An expression of type t over `scope`, at most `depth` deep (addr expressions
/// are leaves: no operator yields an addr). The size sets how often it branches:
/// at size 0 it is a leaf. Shrinks toward a leaf, then shrinks the leaf.
inline rc::Gen<Expr> expr(const ExprScope& scope, Type t, int depth) {
  if (t == Type::Addr || depth <= 1) return leaf(scope, t);
  return rc::gen::withSize([scope, depth](int size) {
    int branch = std::min(size, 100) / 20;  // 0..5
    return weighted<Expr>(
        {{3, leaf(scope, Type::Int)}, {branch, unary(scope, depth)}, {3 * branch, binary(scope, depth)}});
  });
}

}  // namespace concord::gen
