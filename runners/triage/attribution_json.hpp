// runners/triage/attribution_json.hpp: what attribution.cpp and attribution_v2.cpp both
// read results and programs with: an element or a string field that may be
// missing, and every statement of a body, a kind or a program, nested ones included.
#pragma once

#include <cstddef>
#include <set>
#include <string>

#include "oracle/program_json.hpp"

namespace concord::attribution_json {

// Element i of array a; null when a is not an array or is shorter.
inline const ojson& at(const ojson& a, size_t i) {
  static const ojson null;
  return a.is_array() && i < a.size() ? a[i] : null;
}

// The string at e[key]; "" when e has none.
inline std::string str(const ojson& e, const char* key) {
  return e.is_object() && e.contains(key) && e[key].is_string() ? e[key].get<std::string>() : "";
}

// f on every statement of `stmts` and of the bodies nested in them (then, else,
// repeat bodies), in order.
template <class F>
void each_statement(const ojson& stmts, F&& f) {
  if (!stmts.is_array()) return;
  for (const ojson& s : stmts) {
    f(s);
    for (const char* k : {"then", "else", "body"})
      if (s.contains(k)) each_statement(s[k], f);
  }
}

// f on every statement of one kind's JSON form: its init body, then each handler's.
template <class F>
void each_kind_statement(const ojson& kind, F&& f) {
  each_statement(kind.value("init", ojson::array()), f);
  for (const ojson& h : kind.value("handlers", ojson::array())) each_statement(h.value("body", ojson::array()), f);
}

// f on every statement of a program's JSON form, kind by kind.
template <class F>
void each_program_statement(const ojson& prog, F&& f) {
  for (const ojson& k : prog.value("kinds", ojson::array())) each_kind_statement(k, f);
}

// The kind of process `name` at event `i` of a journal: that of its last start before it.
inline std::string kind_at(const ojson& journal, const ojson& name, size_t i) {
  std::string kind;
  for (size_t j = 0; j < i && j < journal.size(); j++)
    if (str(journal[j], "ev") == "start" && journal[j]["name"] == name) kind = str(journal[j], "kind");
  return kind;
}

// The operators (§5) of an expression, into `ops`.
inline void operators_in(const ojson& expr, std::set<std::string>& ops) {
  if (!expr.is_object()) return;
  std::string op = str(expr, "op");
  if (!op.empty() && op != "int" && op != "addr" && op != "self" && op != "var") ops.insert(op);
  for (const char* k : {"lhs", "rhs", "arg"})
    if (expr.contains(k)) operators_in(expr[k], ops);
}

// "§5 div mul": the rule of a value computed by these operators ("§5 value": by none).
inline std::string rule_of_ops(const std::set<std::string>& ops) {
  std::string r = "§5";
  for (const std::string& o : ops) r += " " + o;
  return ops.empty() ? "§5 value" : r;
}

}  // namespace concord::attribution_json
