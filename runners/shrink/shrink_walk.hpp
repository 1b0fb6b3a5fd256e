// runners/shrink/shrink_walk.hpp: walks over the places of a program that the shrinker
// changes (bodies, statements, expressions, declarations), in one fixed order, and
// the small edits several passes share.
//
// A walk calls its visitor at every place, parents before children, and stops at
// the first call that returns true (the visitor changed the program there, so the
// rest of the walk could be looking at moved or freed nodes); it returns whether
// one did. Walks take `Program` or `const Program`, so the measures use them too.
#pragma once

#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "oracle/program.hpp"

namespace concord {

// What may stand at an expression's place (SPEC §4.9, §4.10).
enum class Place : uint8_t {
  Code,      // a handler body: anything of the right type
  Init,      // an init body or a state initialiser: nothing that can fail
  Constant,  // an argument of a declared process or a given message: literals only
};

namespace walk {

template <class Body, class F>
bool stmts_in(Body& body, F&& f) {
  for (size_t i = 0; i < body.size(); i++) {
    if (f(body, i)) return true;
    if (stmts_in(body[i].body, f) || stmts_in(body[i].orelse, f)) return true;
  }
  return false;
}

template <class E, class F>
bool exprs_in(E& e, Place place, F&& f) {
  if (f(e, place)) return true;
  for (auto& a : e.args)
    if (exprs_in(a, place, f)) return true;
  return false;
}

template <class D, class F>
bool decls_in(D& d, F&& f) {
  if (f(d)) return true;
  if (auto* s = std::get_if<SupervisorDecl>(&d))
    for (auto& c : s->children)
      if (decls_in(c.decl, f)) return true;
  return false;
}

}  // namespace walk

// The top-level code bodies of a kind: its init body, then each handler's.
// f(body, place).
template <class K, class F>
bool visit_kind_code(K& k, F&& f) {
  if (f(k.init, Place::Init)) return true;
  for (auto& h : k.handlers)
    if (f(h.body, Place::Code)) return true;
  return false;
}

// The top-level code bodies of the program, kind by kind.
template <class P, class F>
bool visit_code(P& p, F&& f) {
  for (auto& k : p.kinds)
    if (visit_kind_code(k, f)) return true;
  return false;
}

// Every statement list, a body before the bodies nested in its statements. f(body).
template <class P, class F>
bool visit_bodies(P& p, F&& f) {
  auto each = [&](auto& body, size_t i) {
    auto& s = body[i];
    if (s.kind == StmtKind::If) return f(s.body) || f(s.orelse);
    if (s.kind == StmtKind::Repeat) return f(s.body);
    return false;
  };
  return visit_code(p, [&](auto& body, Place) { return f(body) || walk::stmts_in(body, each); });
}

// Every statement, pre-order (a statement before the ones nested in it).
// f(body, i) for the statement body[i].
template <class P, class F>
bool visit_stmts(P& p, F&& f) {
  return visit_code(p, [&](auto& body, Place) { return walk::stmts_in(body, f); });
}

// Every statement of one kind's code, pre-order. f(body, i).
template <class K, class F>
bool visit_kind_stmts(K& k, F&& f) {
  return visit_kind_code(k, [&](auto& body, Place) { return walk::stmts_in(body, f); });
}

// Every expression node, pre-order: state initialisers, then the code of each kind
// (statement by statement), then arguments of declared processes (roots first,
// pre-order), then arguments of given messages. f(expr, place).
template <class P, class F>
bool visit_exprs(P& p, F&& f) {
  for (auto& k : p.kinds)
    for (auto& field : k.state)
      if (walk::exprs_in(field.init, Place::Init, f)) return true;
  bool stopped = visit_code(p, [&](auto& body, Place place) {
    auto each = [&](auto& b, size_t i) {
      for (auto& e : b[i].exprs)
        if (walk::exprs_in(e, place, f)) return true;
      return false;
    };
    return walk::stmts_in(body, each);
  });
  if (stopped) return true;
  auto decl_args = [&](auto& d) {
    if (auto* pd = std::get_if<ProcessDecl>(&d))
      for (auto& e : pd->args)
        if (walk::exprs_in(e, Place::Constant, f)) return true;
    return false;
  };
  for (auto& d : p.system)
    if (walk::decls_in(d, decl_args)) return true;
  for (auto& g : p.given)
    for (auto& e : g.args)
      if (walk::exprs_in(e, Place::Constant, f)) return true;
  return false;
}

// Every declaration, roots and supervisors' children, pre-order. f(decl); a
// visitor may replace the declaration it is given.
template <class P, class F>
bool visit_decls(P& p, F&& f) {
  for (auto& d : p.system)
    if (walk::decls_in(d, f)) return true;
  return false;
}

// The declared processes of a declaration's subtree, pre-order.
std::vector<std::string> processes_in(const Decl& d);
// The declared processes of the program, pre-order.
std::vector<std::string> declared_processes(const Program& p);
// Removes the given messages sent to any of `names` (they would name no process).
void drop_givens_to(Program& p, const std::vector<std::string>& names);
// Removes, at any depth, the statements for which pred(stmt) holds.
template <class Pred>
void erase_stmts(std::vector<Stmt>& body, const Pred& pred) {
  std::erase_if(body, pred);
  for (Stmt& s : body) {
    erase_stmts(s.body, pred);
    erase_stmts(s.orelse, pred);
  }
}

}  // namespace concord
