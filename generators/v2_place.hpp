// generators/v2_place.hpp: what the version 2 generators (v2.hpp, v2_server.hpp)
// share: the names they add, the shape of the whole program that code may refer to
// (declared processes, callees and their handlers, supervisors and their children),
// the place one piece of code is generated for, and reason and addr operands.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "generators/expressions.hpp"
#include "generators/statements.hpp"

namespace concord::gen::v2 {

// Names version 2 code adds to a kind; none is in var_pool(), so none collides.
inline const char* const kCause = "cause";                    // a reason field
inline const char *const kFrom = "src", *const kWhy = "why";  // exit/down handler parameters

/// A reason literal: a word of §15 or a code of code_pool(). Shrinks toward normal.
inline rc::Gen<Expr> reason_literal() {
  std::vector<std::string> words{"normal", "shutdown", "killed", "noproc", "BOOM", "OOPS"};
  return rc::gen::map(rc::gen::elementOf(words), [](const std::string& w) {
    Expr e;
    e.kind = ExprKind::Reason;
    e.name = w;
    return e;
  });
}

/// The reason literal `w`.
inline Expr reason_word(std::string w) {
  Expr e;
  e.kind = ExprKind::Reason;
  e.name = std::move(w);
  return e;
}

/// A reason: a literal, or a reason variable of the scope.
inline Expr reason(const ExprScope& sc) {
  std::vector<std::string> vars = names_of_type(sc.vars, Type::Reason);
  if (!vars.empty() && *chance(1, 1)) return var_expr(*rc::gen::elementOf(vars));
  return *reason_literal();
}

// A declared process and the handlers of its kind (what a call to it can match).
struct Callee {
  std::string name, kind;
  std::vector<Signature> handles;
};

// A supervisor and the names of its static children: workers, supervisors.
struct Family {
  std::string name;
  std::vector<std::string> workers, supervisors;
};

// What the whole program offers the code of every kind.
struct Shape {
  std::vector<std::string> declared;  // declared processes: the names most likely alive (not the server)
  std::vector<Callee> callees;        // those whose kind has handlers (the server too)
  std::vector<Family> families;       // every supervisor, pre-order
  std::optional<Callee> server;       // the program's server (v2_server.hpp), if it has one
};

// What code of one kind may use: its scope, its fields, the program's facts and shape.
struct Place {
  ExprScope exprs;
  std::vector<Var> fields;
  const ProgramFacts* facts;
  const Shape* shape;
  std::string kind;  // the kind whose code this is
};

// Addr operands: usually a declared process, else an addr literal (a spawned form,
// maybe never alive) or any addr expression of the version 1 generators.
inline Expr addr(const Place& pl) {
  if (!pl.shape->declared.empty() && *chance(3, 1)) return addr_expr(*rc::gen::elementOf(pl.shape->declared));
  if (!pl.exprs.addrs.empty() && *chance(1, 1)) return addr_expr(*rc::gen::elementOf(pl.exprs.addrs));
  return *expr(pl.exprs, Type::Addr, 2);
}

inline Stmt with(StmtKind k, std::vector<Expr> es, std::string name = "") {
  Stmt s = make_stmt(k, std::move(name));
  s.exprs = std::move(es);
  return s;
}

/// `[f =] call t(a...) to e` with the signature `sig`: arguments of its types; bound
/// or not (half the time) to a field, an int field twice as often as another when
/// there is one (the replies most often are ints: most calls resume, some BAD_REPLY).
inline Stmt call_with(const Place& pl, Expr to, const Signature& sig) {
  Stmt s = with(StmtKind::Call, {std::move(to)}, sig.tag);
  for (Type t : sig.types) s.exprs.push_back(*expr(pl.exprs, t, 2));
  if (pl.fields.empty() || !*chance(1, 1)) return s;
  std::vector<std::string> ints = names_of_type(pl.fields, Type::Int);
  s.bind = !ints.empty() && *chance(2, 1) ? *rc::gen::elementOf(ints) : (*rc::gen::elementOf(pl.fields)).name;
  return s;
}

}  // namespace concord::gen::v2
