// targets/c/emitter/emit_c.cpp: prints a checked program as C for the runtime of
// targets/c/runtime/concord_rt.h. Handlers become functions; kinds, declared
// processes, supervisors and given messages become constant tables. Bodies and
// expressions are walked by targets/common/walker.hpp, one hook per node kind;
// operators are printed from the one list in oracle/ops.def as calls of the
// runtime's wrapping functions (cr_add, cr_div, ...), so C's own operators never
// see a value that could overflow.
//
// Version 2 (SPEC §14-§23): the same tables with the version, the significant and
// auto_shutdown flags, and the new statements as calls of the runtime (cr_link, ...).
// A handler that contains a `call` is printed as a resumable function
// (protothread style): a switch on c->resume at its top jumps to the label after
// the call it waited in, and the counters of the repeats around calls live in
// c->loops, which the runtime keeps across the wait. Handlers without a call, and
// everything of a version 1 program, are printed as before.
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

const char* type_const(Type t) {
  switch (t) {
    case Type::Int: return "CR_INT";
    case Type::Addr: return "CR_ADDR";
    case Type::Reason: return "CR_REASON";
  }
  return "?";
}

const char* auto_shutdown_const(AutoShutdown a) {
  switch (a) {
    case AutoShutdown::Never: return "CR_NEVER";
    case AutoShutdown::AnySignificant: return "CR_ANY_SIGNIFICANT";
    case AutoShutdown::AllSignificant: return "CR_ALL_SIGNIFICANT";
  }
  return "?";
}

const char* api_const(ApiOp op) {
  switch (op) {
    case ApiOp::TerminateChild: return "CR_TERMINATE_CHILD";
    case ApiOp::RestartChild: return "CR_RESTART_CHILD";
    case ApiOp::DeleteChild: return "CR_DELETE_CHILD";
  }
  return "?";
}

// The runtime's value of a reason word that is not a code written in the program
// (concord_rt.h's CR_R_*), or nullptr for a program's own code (its name id).
const char* builtin_reason(const std::string& word) {
  static const std::map<std::string, const char*> words = {{"normal", "CR_R_NORMAL"},
                                                           {"shutdown", "CR_R_SHUTDOWN"},
                                                           {"killed", "CR_R_KILLED"},
                                                           {"noproc", "CR_R_NOPROC"},
                                                           {"NO_HANDLER", "CR_R_NO_HANDLER"},
                                                           {"DIV_ZERO", "CR_R_DIV_ZERO"},
                                                           {"SYSTEM_LIMIT", "CR_R_SYSTEM_LIMIT"},
                                                           {"NOPROC", "CR_R_NOPROC_CODE"},
                                                           {"CALLING_SELF", "CR_R_CALLING_SELF"},
                                                           {"BAD_REPLY", "CR_R_BAD_REPLY"},
                                                           {"NORMAL", "CR_R_NORMAL_CODE"},
                                                           {"SHUTDOWN", "CR_R_SHUTDOWN_CODE"},
                                                           {"KILLED", "CR_R_KILLED_CODE"}};
  auto it = words.find(word);
  return it == words.end() ? nullptr : it->second;
}

bool has_call(const std::vector<Stmt>& body) {
  for (const Stmt& s : body)
    if (s.kind == StmtKind::Call || has_call(s.body) || has_call(s.orelse)) return true;
  return false;
}

int count_calls(const std::vector<Stmt>& body) {
  int n = 0;
  for (const Stmt& s : body) n += (s.kind == StmtKind::Call) + count_calls(s.body) + count_calls(s.orelse);
  return n;
}

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
    v2_ = p.version >= 2;
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
    w_.line(std::to_string(p_.given.size()) + ", " + (p_.given.empty() ? "NULL" : "GIVEN") + ",");
    w_.line(std::to_string(p_.version) + ", " + std::to_string(p_.exit_sig) + ", " + std::to_string(p_.down_sig));
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
  std::string on_reason(const Expr& e) override {  // §15: one value per reason
    if (const char* b = builtin_reason(e.name)) return "((cr_value)" + std::string(b) + ")";
    return "((cr_value)" + std::to_string(intern(e.name)) + ")";
  }
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
    if (resumable_ && has_call(s.body)) {  // its counter survives a wait: a slot of c->loops
      if (loop_slot_ >= 64)  // RT_MAX_LOOPS (world.h): §4.13 nests statements at most 64 deep
        throw std::logic_error("emit_c: repeats around a call nested deeper than the runtime keeps");
      std::string i = "c->loops[" + std::to_string(loop_slot_++) + "]";
      w_.open("for (" + i + " = 0; " + i + " < " + c_int(s.count) + "; " + i + "++) {");
      body(s.body);
      w_.close("}");
      loop_slot_--;
      return;
    }
    std::string i = "r" + std::to_string(w_.depth());  // one counter per nesting level
    w_.open("for (cr_value " + i + " = 0; " + i + " < " + c_int(s.count) + "; " + i + "++) {");
    body(s.body);
    w_.close("}");
  }
  void on_send(const Stmt& s) override {
    w_.open("{");
    std::string args = args_array(s.exprs, 1);
    w_.line(std::string(v2_ ? "cr_send2(c, " : "cr_send(c, ") + expr(s.exprs[0]) + ", " + std::to_string(s.slot) +
            ", " + args + ");");
    w_.close("}");
  }
  void on_spawn(const Stmt& s) override {
    w_.open("{");
    std::string args = args_array(s.exprs, 0);
    std::string call = std::string(v2_ ? "cr_spawn2(c, " : "cr_spawn(c, ") + std::to_string(s.slot) + ", " + args +
                       ", " + std::to_string(s.slot3) + ", " + (s.slot3 >= 0 ? restart_const(s.restart) : "0") +
                       (v2_ ? (s.significant ? ", 1" : ", 0") : "") + ")";
    if (s.slot2 >= 0)
      w_.line("c->state[" + std::to_string(s.slot2) + "] = " + call + ";");
    else
      w_.line("(void)" + call + ";");
    w_.close("}");
  }
  void on_stop(const Stmt& s) override {
    if (s.exprs.empty())
      w_.line("cr_stop(c);");
    else
      w_.line("cr_stop_reason(c, " + expr(s.exprs[0]) + ");");  // §16.2 stop e
  }
  void on_fail(const Stmt& s) override { w_.line("cr_fail(c, " + std::to_string(intern(s.name)) + ");"); }

  // --- version 2 statements (§16.2, §18.1, §19.1, §20) -------------------------------
  void on_ignore(const Stmt&) override { w_.line("cr_ignore(c);"); }
  void on_link(const Stmt& s) override { w_.line("cr_link(c, " + expr(s.exprs[0]) + ");"); }
  void on_unlink(const Stmt& s) override { w_.line("cr_unlink(c, " + expr(s.exprs[0]) + ");"); }
  void on_monitor(const Stmt& s) override { w_.line("cr_monitor(c, " + expr(s.exprs[0]) + ");"); }
  void on_demonitor(const Stmt& s) override { w_.line("cr_demonitor(c, " + expr(s.exprs[0]) + ");"); }
  void on_trap_exit(const Stmt& s) override { w_.line("cr_trap_exit(c, " + expr(s.exprs[0]) + ");"); }
  void on_exit(const Stmt& s) override {
    std::string to = expr(s.exprs[0]);
    if (s.kill)
      w_.line("cr_exit(c, " + to + ", 0, 1);");
    else
      w_.line("cr_exit(c, " + to + ", " + expr(s.exprs[1]) + ", 0);");
  }
  void on_reply(const Stmt& s) override {
    w_.line("cr_reply(c, " + expr(s.exprs[0]) + ", " + type_const(s.exprs[0].type) + ");");
  }
  // The handler returns while it waits; it is entered again at the label after it.
  void on_call(const Stmt& s) override {
    int point = ++call_points_;
    w_.open("{");
    std::string args = args_array(s.exprs, 1);
    w_.line("if (cr_call(c, " + expr(s.exprs[0]) + ", " + std::to_string(s.slot) + ", " + args + ", " +
            std::to_string(s.slot2) + ", " + std::to_string(point) + ")) return;");
    w_.close("}");
    w_.line("R" + std::to_string(point) + ":;");
  }
  void on_api(const Stmt& s) override {
    std::string child = s.exprs.empty() ? std::to_string(name_ids_.at(s.name)) : expr(s.exprs[0]);
    std::string call =
        "cr_api(c, " + std::string(api_const(s.api)) + ", " + std::to_string(s.slot3) + ", " + child + ")";
    if (s.slot2 >= 0)
      w_.line("c->state[" + std::to_string(s.slot2) + "] = " + call + ";");
    else
      w_.line("(void)" + call + ";");
  }

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
      function(K + "_h" + std::to_string(h), [&] {
        const std::vector<Stmt>& b = k.handlers[h].body;
        resumable_ = v2_ && has_call(b);
        call_points_ = 0;
        loop_slot_ = 0;
        if (resumable_) {  // §18.1: entered again after a wait, at the call's label
          w_.open("switch (c->resume) {");
          for (int i = 1, n = count_calls(b); i <= n; i++)
            w_.line("case " + std::to_string(i) + ": goto R" + std::to_string(i) + ";");
          w_.line("default: break;");
          w_.close("}");
        }
        body(b);
        resumable_ = false;
      });
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
             ", " + args + ", -1, " + (as_child && as_child->significant ? "1" : "0") + "}";
    }
    const SupervisorDecl& s = std::get<SupervisorDecl>(d);
    std::vector<std::string> rows;
    for (const Child& c : s.children) rows.push_back(decl_row(c.decl, &c, counter));
    array("static const cr_decl", "S" + std::to_string(s.index) + "_CHILDREN", rows);
    sups_.push_back(&s);
    return "{1, " + restart + ", " + std::to_string(name_ids_.at(s.name)) + ", -1, 0, NULL, " +
           std::to_string(s.index) + ", " + (as_child && as_child->significant ? "1" : "0") + "}";
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
                     ref("S" + std::to_string(s->index) + "_CHILDREN", s->children.size()) + ", " +
                     auto_shutdown_const(s->auto_shutdown) + "}");
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
  bool v2_ = false;         // a version 2 program (§14)
  bool resumable_ = false;  // printing a handler that contains a call
  int call_points_ = 0;     // calls printed so far in it: their labels R1, R2, ...
  int loop_slot_ = 0;       // c->loops slots of the enclosing repeats that contain a call
  CodeWriter w_;
  std::vector<std::string> names_;
  std::map<std::string, int32_t> name_ids_;
  std::vector<const SupervisorDecl*> sups_;
};

}  // namespace

std::string emit_c(const Program& p) { return CEmitter(p).run(); }

}  // namespace concord
