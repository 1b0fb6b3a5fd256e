// oracle/eval.hpp: expressions (SPEC §5), the one evaluator of the oracle's runs
// (exec.cpp) and of the replay of a free run's processes (oracle/free/replay.cpp).
// An expression reads its variables and `self` from a frame and can fail only with
// DIV_ZERO; the frame says what failing means. Frame provides:
//   Value var(const Expr& e) const     the parameter, state field or handler argument e names
//   Value self() const                 the running process's name id
//   [[noreturn]] void div_zero() const the running code fails with DIV_ZERO
// and, optionally, std::optional<Value> in_dialect(Op, Value, Value): the value of an
// operator in an oracle dialect (oracle/dialect_rules.hpp), nullopt for SPEC's;
// void computed(const Expr&, Value, Value): sees each operator's operands first.
#pragma once

#include <optional>

#include "arith.hpp"
#include "program.hpp"

namespace concord {

using Value = int64_t;  // an int; for addr and reason a name id (the type is known statically)

inline Value eval_unary(Op op, Value a) {
  switch (op) {
    case Op::Neg: return arith::neg(a);
    case Op::Not: return a == 0 ? 1 : 0;
    case Op::BNot: return ~a;
    default: return 0;  // binary operators never reach here (checked)
  }
}

template <class Frame>
Value eval_binary(const Frame& f, Op op, Value a, Value b) {
  Value out = 0;
  switch (op) {
    case Op::Mul: return arith::mul(a, b);
    case Op::Div:
      if (!arith::div(a, b, out)) f.div_zero();
      return out;
    case Op::Rem:
      if (!arith::rem(a, b, out)) f.div_zero();
      return out;
    case Op::Add: return arith::add(a, b);
    case Op::Sub: return arith::sub(a, b);
    case Op::Shl: return arith::shl(a, b);
    case Op::Shr: return arith::shr(a, b);
    case Op::Lt: return a < b;
    case Op::Le: return a <= b;
    case Op::Gt: return a > b;
    case Op::Ge: return a >= b;
    case Op::Eq: return a == b;  // addrs and reasons compare by name id: one id per name
    case Op::Ne: return a != b;
    case Op::BAnd: return a & b;
    case Op::BXor: return a ^ b;
    case Op::BOr: return a | b;
    case Op::Neg:
    case Op::Not:
    case Op::BNot: return 0;  // unary operators never reach here (checked)
  }
  return 0;
}

template <class Frame>
Value eval(const Frame& f, const Expr& e) {
  switch (e.kind) {
    case ExprKind::Int: return e.value;
    case ExprKind::Addr:
    case ExprKind::Reason: return e.slot;  // name ids of the program come first in a run
    case ExprKind::Self: return f.self();
    case ExprKind::Var: return f.var(e);
    case ExprKind::Unary: {
      Value a = eval(f, e.args[0]);
      if constexpr (requires { f.computed(e, a, a); }) f.computed(e, a, 0);  // an observer (operator_log.hpp)
      if constexpr (requires { f.in_dialect(e.op, a, a); })  // an oracle dialect's operator (dialect_rules.hpp)
        if (std::optional<Value> v = f.in_dialect(e.op, a, 0)) return *v;
      return eval_unary(e.op, a);
    }
    case ExprKind::Binary: {
      Value a = eval(f, e.args[0]);  // left to right (§5)
      Value b = eval(f, e.args[1]);
      if constexpr (requires { f.computed(e, a, b); }) f.computed(e, a, b);
      if constexpr (requires { f.in_dialect(e.op, a, b); })
        if (std::optional<Value> v = f.in_dialect(e.op, a, b)) return *v;
      return eval_binary(f, e.op, a, b);
    }
  }
  return 0;
}

}  // namespace concord
