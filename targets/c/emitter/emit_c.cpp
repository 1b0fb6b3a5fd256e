// targets/c/emitter/emit_c.cpp: prints a checked program as C for the runtime of
// targets/c/runtime/concord_rt.h. Handlers become functions; kinds, declared
// processes, supervisors and given messages become constant tables. Bodies and
// expressions are walked by targets/common/walker.hpp, one hook per node kind;
// operators are printed from the one list in oracle/ops.def as calls of the
// runtime's wrapping functions (cr_add, cr_div, ...), so C's own operators never
// see a value that could overflow.
#include "emit_c.hpp"

#include <cstdio>
#include <functional>
#include <map>
#include <stdexcept>

#include "targets/common/code_writer.hpp"
#include "targets/common/unsupported.hpp"
#include "targets/common/walker.hpp"

namespace concord {
namespace {

// A C string literal: printable ASCII as itself (but " \ ?), the rest in octal,
// so nothing from the program can end the literal or form a trigraph.
std::string c_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\' && ch != '?') {
      out += static_cast<char>(ch);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", ch);
      out += buf;
    }
  }
  return out + "\"";
}

std::string c_int(int64_t v) {
  if (v == INT64_MIN) return "(-9223372036854775807LL - 1)";  // the literal 9223372036854775808 does not exist
  if (v < 0) return "(" + std::to_string(v) + "LL)";
  return std::to_string(v) + "LL";
}

const char* restart_const(Restart r) {
  switch (r) {
    case Restart::Permanent: return "CR_PERMANENT";
    case Restart::Transient: return "CR_TRANSIENT";
    case Restart::Temporary: return "CR_TEMPORARY";
  }
  return "?";
}

const char* strategy_const(Strategy s) {
  switch (s) {
    case Strategy::OneForOne: return "CR_ONE_FOR_ONE";
    case Strategy::OneForAll: return "CR_ONE_FOR_ALL";
    case Strategy::RestForOne: return "CR_REST_FOR_ONE";
  }
  return "?";
}

const char* type_const(Type t) { return t == Type::Int ? "CR_INT" : "CR_ADDR"; }

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& ch : out)
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  return out;
}

class CEmitter : public Walker {
 public:
  explicit CEmitter(const Program& p) : p_(p) {
    if (!p.checked) throw std::logic_error("emit_c needs a program that check() accepted");
    refuse_version_2(p, "c");
    names_ = p.names;  // addr literals' slots are these ids
    for (size_t i = 0; i < names_.size(); i++) name_ids_[names_[i]] = static_cast<int32_t>(i);
  }

  std::string run() {
    w_.line("/* Emitted by concord (targets/c/emitter) for the c target. Do not edit. */");
    w_.line("#include \"concord_rt.h\"");
    w_.line("#include <stddef.h>");
    for (size_t k = 0; k < p_.kinds.size(); k++) kind_code(p_.kinds[k], k);
    sig_table();
    for (size_t k = 0; k < p_.kinds.size(); k++) kind_tables(p_.kinds[k], k);
    kind_table();
    int counter = 0;
    std::vector<std::string> root_rows;
    for (const Decl& d : p_.system) root_rows.push_back(decl_row(d, nullptr, counter));
    array("static const cr_decl", "ROOTS", root_rows);
    supervisor_table();
    given_table();
    name_table();  // last: failure codes were interned while emitting handlers
    w_.line();
    w_.open("const cr_program cr_the_program = {");
    w_.line(std::to_string(names_.size()) + ", NAMES,");
    w_.line(std::to_string(p_.sigs.size()) + ", " + (p_.sigs.empty() ? "NULL" : "SIGS") + ",");
    w_.line(std::to_string(p_.kinds.size()) + ", " + (p_.kinds.empty() ? "NULL" : "KINDS") + ",");
    w_.line(std::to_string(p_.system.size()) + ", " + (p_.system.empty() ? "NULL" : "ROOTS") + ",");
    w_.line(std::to_string(p_.supervisor_count) + ", " + (p_.supervisor_count ? "SUPS" : "NULL") + ",");
    w_.line(std::to_string(p_.given.size()) + ", " + (p_.given.empty() ? "NULL" : "GIVEN"));
    w_.close("};");
    return w_.str();
  }

 private:
  int32_t intern(const std::string& name) {
    auto it = name_ids_.find(name);
    if (it != name_ids_.end()) return it->second;
    int32_t id = static_cast<int32_t>(names_.size());
    names_.push_back(name);
    name_ids_[name] = id;
    return id;
  }

  // A constant table; C has no empty arrays, so an empty one is not printed
  // and its users print NULL.
  void array(const std::string& decl, const std::string& name, const std::vector<std::string>& rows) {
    if (rows.empty()) return;
    w_.open(decl + " " + name + "[] = {");
    for (const std::string& r : rows) w_.line(r + ",");
    w_.close("};");
  }

  std::string ref(const std::string& name, size_t count) const { return count ? name : "NULL"; }

  // --- expressions: one hook per operand shape ------------------------------
  std::string on_int(const Expr& e) override { return c_int(e.value); }
  std::string on_addr(const Expr& e) override { return "((cr_value)" + std::to_string(e.slot) + ")"; }
  std::string on_self(const Expr&) override { return "((cr_value)c->self)"; }
  std::string on_var(const Expr& e) override {
    switch (e.scope) {
      case Scope::Param: return "c->params[" + std::to_string(e.slot) + "]";
      case Scope::Field: return "c->state[" + std::to_string(e.slot) + "]";
      case Scope::Arg: return "c->args[" + std::to_string(e.slot) + "]";
    }
    return "?";
  }
  std::string on_unary(const Expr& e, const std::string& arg) override {
    return std::string("cr_") + op_info(e.op).json + "(" + arg + ")";
  }
  std::string on_binary(const Expr& e, const std::string& lhs, const std::string& rhs) override {
    // Division and remainder can fail, so they take the context.
    std::string ctx = (e.op == Op::Div || e.op == Op::Rem) ? "c, " : "";
    return std::string("cr_") + op_info(e.op).json + "(" + ctx + lhs + ", " + rhs + ")";
  }

  // "n, a_" after declaring the argument array a_ (or "0, NULL").
  std::string args_array(const std::vector<Expr>& es, size_t from) {
    size_t n = es.size() - from;
    if (n == 0) return "0, NULL";
    std::string init;
    for (size_t i = from; i < es.size(); i++) init += (i > from ? ", " : "") + expr(es[i]);
    w_.line("const cr_value a_[" + std::to_string(n) + "] = {" + init + "};");
    return std::to_string(n) + ", a_";
  }

  // --- statements: one hook per kind -------------------------------------------
  void on_assign(const Stmt& s) override {
    w_.line("c->state[" + std::to_string(s.slot) + "] = " + expr(s.exprs[0]) + ";");
  }
  void on_if(const Stmt& s) override {
    w_.open("if (" + expr(s.exprs[0]) + ") {");
    body(s.body);
    if (!s.orelse.empty()) {
      w_.middle("} else {");
      body(s.orelse);
    }
    w_.close("}");
  }
  void on_repeat(const Stmt& s) override {
    std::string i = "r" + std::to_string(w_.depth());  // one counter per nesting level
    w_.open("for (cr_value " + i + " = 0; " + i + " < " + c_int(s.count) + "; " + i + "++) {");
    body(s.body);
    w_.close("}");
  }
  void on_send(const Stmt& s) override {
    w_.open("{");
    std::string args = args_array(s.exprs, 1);
    w_.line("cr_send(c, " + expr(s.exprs[0]) + ", " + std::to_string(s.slot) + ", " + args + ");");
    w_.close("}");
  }
  void on_spawn(const Stmt& s) override {
    w_.open("{");
    std::string args = args_array(s.exprs, 0);
    std::string call = "cr_spawn(c, " + std::to_string(s.slot) + ", " + args + ", " + std::to_string(s.slot3) + ", " +
                       (s.slot3 >= 0 ? restart_const(s.restart) : "0") + ")";
    if (s.slot2 >= 0)
      w_.line("c->state[" + std::to_string(s.slot2) + "] = " + call + ";");
    else
      w_.line("(void)" + call + ";");
    w_.close("}");
  }
  void on_stop(const Stmt&) override { w_.line("cr_stop(c);"); }
  void on_fail(const Stmt& s) override { w_.line("cr_fail(c, " + std::to_string(intern(s.name)) + ");"); }

  // --- kinds ---------------------------------------------------------------------
  void function(const std::string& name, const std::function<void()>& fill) {
    w_.line();
    w_.open("static void " + name + "(cr_ctx *c) {");
    w_.line("(void)c;");
    fill();
    w_.close("}");
  }

  void kind_code(const Kind& k, size_t index) {
    std::string K = "k" + std::to_string(index);
    function(K + "_init_state", [&] {
      for (size_t f = 0; f < k.state.size(); f++)
        w_.line("c->state[" + std::to_string(f) + "] = " + expr(k.state[f].init) + ";");
    });
    function(K + "_init", [&] { body(k.init); });
    for (size_t h = 0; h < k.handlers.size(); h++)
      function(K + "_h" + std::to_string(h), [&] { body(k.handlers[h].body); });
  }

  void sig_table() {
    std::vector<std::string> rows;
    for (size_t i = 0; i < p_.sigs.size(); i++) {
      const Signature& s = p_.sigs[i];
      std::string types = "NULL";
      if (!s.types.empty()) {
        std::vector<std::string> ts;
        for (Type t : s.types) ts.push_back(type_const(t));
        types = "SIG" + std::to_string(i) + "_TYPES";
        array("static const uint8_t", types, ts);
      }
      rows.push_back("{" + c_string(s.tag) + ", " + std::to_string(s.types.size()) + ", " + types + "}");
    }
    array("static const cr_sig", "SIGS", rows);
  }

  void kind_tables(const Kind& k, size_t index) {
    std::string K = "K" + std::to_string(index);
    std::vector<std::string> names, types, handlers;
    for (const Field& f : k.state) {
      names.push_back(c_string(f.name));
      types.push_back(type_const(f.type));
    }
    array("static const char *const", K + "_STATE_NAMES", names);
    array("static const uint8_t", K + "_STATE_TYPES", types);
    for (size_t s = 0; s < p_.sigs.size(); s++) {
      int32_t h = k.handler_of_sig[s];
      handlers.push_back(h < 0 ? "NULL" : "k" + std::to_string(index) + "_h" + std::to_string(h));
    }
    array("static const cr_body", K + "_HANDLERS", handlers);
  }

  void kind_table() {
    std::vector<std::string> rows;
    for (size_t i = 0; i < p_.kinds.size(); i++) {
      const Kind& k = p_.kinds[i];
      std::string K = "K" + std::to_string(i), k_ = "k" + std::to_string(i);
      rows.push_back("{" + c_string(k.name) + ", " + c_string(lower(k.name) + "-") + ", " +
                     std::to_string(k.params.size()) + ", " + std::to_string(k.state.size()) + ", " +
                     ref(K + "_STATE_NAMES", k.state.size()) + ", " + ref(K + "_STATE_TYPES", k.state.size()) + ", " +
                     k_ + "_init_state, " + k_ + "_init, " + ref(K + "_HANDLERS", p_.sigs.size()) + "}");
    }
    array("static const cr_kind", "KINDS", rows);
  }

  // --- the system: declared processes and supervisors --------------------------------
  std::string constants(const std::vector<Expr>& args, const std::string& name) {
    if (args.empty()) return "0, NULL";
    std::vector<std::string> vals;
    for (const Expr& a : args) vals.push_back(expr(a));  // an int or addr literal (SPEC §4.10)
    array("static const cr_value", name, vals);
    return std::to_string(args.size()) + ", " + name;
  }

  // One cr_decl row; child tables of supervisors are printed first, depth first.
  std::string decl_row(const Decl& d, const Child* as_child, int& counter) {
    std::string restart = as_child ? restart_const(as_child->restart) : "0";
    if (auto* pd = std::get_if<ProcessDecl>(&d)) {
      std::string args = constants(pd->args, "D" + std::to_string(counter++) + "_ARGS");
      return "{0, " + restart + ", " + std::to_string(name_ids_.at(pd->name)) + ", " + std::to_string(pd->kind_index) +
             ", " + args + ", -1}";
    }
    const SupervisorDecl& s = std::get<SupervisorDecl>(d);
    std::vector<std::string> rows;
    for (const Child& c : s.children) rows.push_back(decl_row(c.decl, &c, counter));
    array("static const cr_decl", "S" + std::to_string(s.index) + "_CHILDREN", rows);
    sups_.push_back(&s);
    return "{1, " + restart + ", " + std::to_string(name_ids_.at(s.name)) + ", -1, 0, NULL, " +
           std::to_string(s.index) + "}";
  }

  void parents(const SupervisorDecl& s, int32_t parent, std::vector<int32_t>& out) {
    out[static_cast<size_t>(s.index)] = parent;
    for (const Child& c : s.children)
      if (auto* sd = std::get_if<SupervisorDecl>(&c.decl)) parents(*sd, s.index, out);
  }

  void supervisor_table() {
    std::vector<int32_t> parent(static_cast<size_t>(p_.supervisor_count), -1);
    std::vector<const SupervisorDecl*> by_index(static_cast<size_t>(p_.supervisor_count));
    for (const SupervisorDecl* s : sups_) by_index[static_cast<size_t>(s->index)] = s;
    for (const Decl& d : p_.system)
      if (auto* sd = std::get_if<SupervisorDecl>(&d)) parents(*sd, -1, parent);
    std::vector<std::string> rows;
    for (const SupervisorDecl* s : by_index)
      rows.push_back("{" + std::to_string(name_ids_.at(s->name)) + ", " + strategy_const(s->strategy) + ", " +
                     c_int(s->intensity) + ", " + std::to_string(parent[static_cast<size_t>(s->index)]) + ", " +
                     std::to_string(s->children.size()) + ", " +
                     ref("S" + std::to_string(s->index) + "_CHILDREN", s->children.size()) + "}");
    array("static const cr_sup", "SUPS", rows);
  }

  void given_table() {
    std::vector<std::string> rows;
    for (size_t i = 0; i < p_.given.size(); i++) {
      const Given& g = p_.given[i];
      std::string args = constants(g.args, "G" + std::to_string(i) + "_ARGS");
      rows.push_back("{" + std::to_string(name_ids_.at(g.to)) + ", " + std::to_string(g.sig) + ", " + args + "}");
    }
    array("static const cr_given", "GIVEN", rows);
  }

  void name_table() {
    std::vector<std::string> rows;
    for (const std::string& n : names_) rows.push_back(c_string(n));
    if (rows.empty()) rows.push_back("NULL");  // C has no empty arrays; nnames stays 0
    array("static const char *const", "NAMES", rows);
  }

  const Program& p_;
  CodeWriter w_;
  std::vector<std::string> names_;
  std::map<std::string, int32_t> name_ids_;
  std::vector<const SupervisorDecl*> sups_;
};

}  // namespace

std::string emit_c(const Program& p) { return CEmitter(p).run(); }

}  // namespace concord
