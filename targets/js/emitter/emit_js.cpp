// targets/js/emitter/emit_js.cpp: prints a checked program for the js target's
// runtime (targets/js/README.md, "The emitted program"). Bodies and expressions are
// walked by targets/common/walker.hpp, one hook per node kind; operators are calls of
// the runtime's int64 prelude (targets/js/runtime/int64.js), named by oracle/ops.def,
// so JavaScript's own arithmetic never sees a value it could round.
#include "emit_js.hpp"

#include <cstdio>
#include <functional>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "targets/common/code_writer.hpp"
#include "targets/common/walker.hpp"

namespace concord {
namespace {

// A JavaScript string literal: printable ASCII as itself but " and \, every other
// byte as \xNN, so nothing from the program can end the literal (SPEC §2 names are
// ASCII, so no character is split).
std::string js_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\') {
      out += static_cast<char>(ch);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", ch);
      out += buf;
    }
  }
  return out + "\"";
}

// An int in the runtime's canonical form: a Number in the safe range, a BigInt
// literal outside it (int64.js).
std::string js_int(int64_t v) {
  constexpr int64_t kMaxSafe = (int64_t{1} << 53) - 1;
  std::string digits = std::to_string(v);
  bool safe = v >= -kMaxSafe && v <= kMaxSafe;
  if (v < 0) return "(" + digits + (safe ? ")" : "n)");
  return safe ? digits : digits + "n";
}

std::string lower(const std::string& s) {
  std::string out = s;
  for (char& ch : out)
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
  return out;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// As supervision.js numbers them.
int restart_number(Restart r) {
  switch (r) {
    case Restart::Permanent: return 0;
    case Restart::Transient: return 1;
    case Restart::Temporary: return 2;
  }
  return -1;
}

int strategy_number(Strategy s) {
  switch (s) {
    case Strategy::OneForOne: return 0;
    case Strategy::OneForAll: return 1;
    case Strategy::RestForOne: return 2;
  }
  return -1;
}

// 1: an addr or a reason, both name ids printed as the name (§22).
int type_number(Type t) { return t == Type::Int ? 0 : 1; }

class JsEmitter : public Walker {
 public:
  explicit JsEmitter(const Program& p) : p_(p) {
    if (!p.checked) throw std::logic_error("emit_js needs a program that check() accepted");
    for (size_t i = 0; i < p.names.size(); i++) name_ids_[p.names[i]] = static_cast<int32_t>(i);
  }

  std::string run() {
    w_.line("// Emitted by concord (targets/js/emitter) for the js target. Do not edit.");
    for (size_t k = 0; k < p_.kinds.size(); k++) kind_code(p_.kinds[k], k);
    w_.open("return {");
    std::vector<std::string> names;
    for (const std::string& n : p_.names) names.push_back(js_string(n));
    if (p_.version >= 2) {  // version 1's emitted text is unchanged
      w_.line("version: 2,");
      w_.line("exitSig: " + std::to_string(p_.exit_sig) + ", downSig: " + std::to_string(p_.down_sig) + ",");
    }
    w_.line("names: [" + join(names) + "],");
    table("sigs", sig_rows());
    table("kinds", kind_rows());
    table("sups", sup_rows());
    std::vector<std::string> roots;
    for (const Decl& d : p_.system) roots.push_back(decl_row(d, Restart::Permanent));
    table("roots", roots);
    std::vector<std::string> given;
    for (const Given& g : p_.given)
      given.push_back("{to: " + std::to_string(name_id(g.to)) + ", sig: " + std::to_string(g.sig) +
                      ", args: " + constants(g.args) + "}");
    table("given", given);
    w_.close("};");
    return w_.str();
  }

 private:
  // Declared names are among the program's names (check() puts them there).
  int32_t name_id(const std::string& name) const { return name_ids_.at(name); }

  void table(const std::string& key, const std::vector<std::string>& rows) {
    if (rows.empty()) return w_.line(key + ": [],");
    w_.open(key + ": [");
    for (const std::string& r : rows) w_.line(r + ",");
    w_.close("],");
  }

  // --- expressions: one hook per operand shape ------------------------------------
  std::string on_int(const Expr& e) override { return js_int(e.value); }
  std::string on_addr(const Expr& e) override { return std::to_string(e.slot); }  // a name id
  std::string on_self(const Expr&) override { return "p.name"; }
  std::string on_reason(const Expr& e) override { return std::to_string(e.slot); }  // a name id (§15)
  std::string on_var(const Expr& e) override {
    switch (e.scope) {
      case Scope::Param: return "q[" + std::to_string(e.slot) + "]";
      case Scope::Field: return "s[" + std::to_string(e.slot) + "]";
      case Scope::Arg: return "m[" + std::to_string(e.slot) + "]";
    }
    return "?";
  }
  std::string on_unary(const Expr& e, const std::string& arg) override {
    return std::string(op_info(e.op).json) + "(" + arg + ")";
  }
  std::string on_binary(const Expr& e, const std::string& lhs, const std::string& rhs) override {
    return std::string(op_info(e.op).json) + "(" + lhs + ", " + rhs + ")";
  }

  // An argument list; messages and processes without arguments share NOARGS (int64.js).
  std::string exprs(const std::vector<Expr>& es, size_t from) {
    if (es.size() == from) return "NOARGS";
    std::vector<std::string> out;
    for (size_t i = from; i < es.size(); i++) out.push_back(expr(es[i]));
    return "[" + join(out) + "]";
  }

  // --- statements: one hook per kind ------------------------------------------------
  void on_assign(const Stmt& s) override { w_.line("s[" + std::to_string(s.slot) + "] = " + expr(s.exprs[0]) + ";"); }
  void on_if(const Stmt& s) override {
    w_.open("if (" + expr(s.exprs[0]) + " !== 0) {");
    body(s.body);
    if (!s.orelse.empty()) {
      w_.middle("} else {");
      body(s.orelse);
    }
    w_.close("}");
  }
  void on_repeat(const Stmt& s) override {
    std::string i = "r" + std::to_string(w_.depth());  // one counter per nesting level
    w_.open("for (let " + i + " = 0; " + i + " < " + std::to_string(s.count) + "; " + i + "++) {");
    body(s.body);
    w_.close("}");
  }
  void on_send(const Stmt& s) override {
    std::string to = expr(s.exprs[0]);  // the receiver first, then the arguments (§6.5)
    w_.line("rt.send(p, " + to + ", " + std::to_string(s.slot) + ", " + exprs(s.exprs, 1) + ");");
  }
  void on_spawn(const Stmt& s) override {
    std::string call = "rt.spawn(p, " + std::to_string(s.slot) + ", " + exprs(s.exprs, 0) + ", " +
                       std::to_string(s.slot3) + ", " + std::to_string(s.slot3 >= 0 ? restart_number(s.restart) : 0) +
                       (s.significant ? ", true" : "") + ")";  // a significant child (§21)
    w_.line((s.slot2 >= 0 ? "s[" + std::to_string(s.slot2) + "] = " : std::string()) + call + ";");
  }
  void on_stop(const Stmt& s) override {
    w_.line(s.exprs.empty() ? "rt.stop();" : "rt.stopWith(" + expr(s.exprs[0]) + ");");
  }
  void on_ignore(const Stmt&) override { w_.line("rt.ignore();"); }
  // §16.2: the target's name id first; a reason is a name id too.
  void on_link(const Stmt& s) override { w_.line("rt.link(p, " + expr(s.exprs[0]) + ");"); }
  void on_unlink(const Stmt& s) override { w_.line("rt.unlink(p, " + expr(s.exprs[0]) + ");"); }
  void on_monitor(const Stmt& s) override { w_.line("rt.monitor(p, " + expr(s.exprs[0]) + ");"); }
  void on_demonitor(const Stmt& s) override { w_.line("rt.demonitor(p, " + expr(s.exprs[0]) + ");"); }
  void on_trap_exit(const Stmt& s) override { w_.line("rt.trapExit(p, " + expr(s.exprs[0]) + " !== 0);"); }
  void on_exit(const Stmt& s) override {
    std::string to = expr(s.exprs[0]);
    w_.line(s.kill ? "rt.kill(p, " + to + ");" : "rt.exit(p, " + to + ", " + expr(s.exprs[1]) + ");");
  }
  void on_fail(const Stmt& s) override { w_.line("rt.fail(" + js_string(s.name) + ");"); }

  // §18.1: a handler with a `call` is a generator function that yields where it
  // waits; the scheduler resumes it (generator.next) in the caller's resume turn, in
  // the same synchronous run loop: no promise, no microtask, nothing out of turn.
  // The reply's type travels with it (0 int, 1 addr, 2 reason): resume checks it
  // against the bound field's (BAD_REPLY) and prints the value by it.
  void on_call(const Stmt& s) override {
    std::string to = expr(s.exprs[0]);  // the callee first, then the arguments
    int bind_type = s.slot2 < 0 ? -1 : value_type(kind_->state[static_cast<size_t>(s.slot2)].type);
    w_.line("yield rt.call(p, " + to + ", " + std::to_string(s.slot) + ", " + exprs(s.exprs, 1) + ", " +
            std::to_string(s.slot2) + ", " + std::to_string(bind_type) + ");");
  }
  void on_reply(const Stmt& s) override {
    w_.line("rt.reply(p, " + expr(s.exprs[0]) + ", " + std::to_string(value_type(s.exprs[0].type)) + ");");
  }

  // §20: rt.api(p, supervisor index, op, child, child is a supervisor index) -> result.
  void on_api(const Stmt& s) override {
    std::string child = s.exprs.empty() ? std::to_string(s.slot) + ", true" : expr(s.exprs[0]) + ", false";
    std::string call =
        "rt.api(p, " + std::to_string(s.slot3) + ", " + std::to_string(static_cast<int>(s.api)) + ", " + child + ")";
    w_.line((s.slot2 >= 0 ? "s[" + std::to_string(s.slot2) + "] = " : std::string()) + call + ";");
  }

  static int value_type(Type t) { return t == Type::Int ? 0 : t == Type::Addr ? 1 : 2; }

  static bool has_call(const std::vector<Stmt>& body) {
    for (const Stmt& s : body)
      if (s.kind == StmtKind::Call || has_call(s.body) || has_call(s.orelse)) return true;
    return false;
  }

  // --- kinds --------------------------------------------------------------------------
  // `p` is the process; s, q, m its state fields, its parameters, the message's arguments.
  void function(const std::string& head, const std::string& locals, const std::function<void()>& fill) {
    w_.open("function " + head + " {");
    w_.line(locals);
    fill();
    w_.close("}");
  }

  void kind_code(const Kind& k, size_t index) {
    std::string K = "k" + std::to_string(index);
    function(K + "_state(p)", "const q = p.params;", [&] {
      std::vector<std::string> inits;  // in declaration order; they see parameters and self only
      for (const Field& f : k.state) inits.push_back(expr(f.init));
      w_.line("return [" + join(inits) + "];");
    });
    function(K + "_init(p)", "const s = p.state, q = p.params;", [&] { body(k.init); });
    kind_ = &k;
    for (size_t h = 0; h < k.handlers.size(); h++)
      function(std::string(has_call(k.handlers[h].body) ? "* " : "") + K + "_h" + std::to_string(h) + "(p, m)",
               "const s = p.state, q = p.params;", [&] { body(k.handlers[h].body); });
  }

  std::vector<std::string> sig_rows() {
    std::vector<std::string> rows;
    for (const Signature& s : p_.sigs) {
      std::vector<std::string> types;
      for (Type t : s.types) types.push_back(std::to_string(type_number(t)));
      rows.push_back("{tag: " + js_string(s.tag) + ", types: [" + join(types) + "]}");
    }
    return rows;
  }

  std::vector<std::string> kind_rows() {
    std::vector<std::string> rows;
    for (size_t i = 0; i < p_.kinds.size(); i++) {
      const Kind& k = p_.kinds[i];
      std::string K = "k" + std::to_string(i);
      std::vector<std::string> fields, types, handlers;
      for (const Field& f : k.state) {
        fields.push_back(js_string(f.name));
        types.push_back(std::to_string(type_number(f.type)));
      }
      for (int32_t h : k.handler_of_sig) handlers.push_back(h < 0 ? "null" : K + "_h" + std::to_string(h));
      rows.push_back("{name: " + js_string(k.name) + ", prefix: " + js_string(lower(k.name) + "-") + ", fields: [" +
                     join(fields) + "], types: [" + join(types) + "], state: " + K + "_state, init: " + K +
                     "_init, handlers: [" + join(handlers) + "]}");
    }
    return rows;
  }

  std::string constants(const std::vector<Expr>& args) {
    if (args.empty()) return "NOARGS";
    std::vector<std::string> vals;
    for (const Expr& a : args) vals.push_back(expr(a));  // int and addr literals (SPEC §4.10)
    return "[" + join(vals) + "]";
  }

  // A root or a child: a worker {sup: -1, name, kind, args, restart} or a supervisor
  // {sup: index, name, ...}; one shape for both, so the runtime reads them alike.
  // Version 2 adds `significant` (§21) to every row.
  std::string decl_row(const Decl& d, Restart r, bool significant = false) {
    std::string restart = ", restart: " + std::to_string(restart_number(r)) +
                          (p_.version >= 2 ? std::string(", significant: ") + (significant ? "true" : "false") : "") +
                          "}";
    if (auto* pd = std::get_if<ProcessDecl>(&d))
      return "{sup: -1, name: " + std::to_string(name_id(pd->name)) + ", kind: " + std::to_string(pd->kind_index) +
             ", args: " + constants(pd->args) + restart;
    const SupervisorDecl& s = std::get<SupervisorDecl>(d);
    return "{sup: " + std::to_string(s.index) + ", name: " + std::to_string(name_id(s.name)) +
           ", kind: -1, args: NOARGS" + restart;
  }

  void collect_sups(const SupervisorDecl& s, int32_t parent, std::vector<std::string>& rows) {
    std::vector<std::string> children;
    for (const Child& c : s.children) children.push_back(decl_row(c.decl, c.restart, c.significant));
    // Version 2 adds autoShutdown (§21): 0 never, 1 any_significant, 2 all_significant.
    std::string auto_shutdown =
        p_.version >= 2 ? ", autoShutdown: " + std::to_string(static_cast<int>(s.auto_shutdown)) : "";
    rows[static_cast<size_t>(s.index)] = "{name: " + std::to_string(name_id(s.name)) +
                                         ", strategy: " + std::to_string(strategy_number(s.strategy)) +
                                         ", intensity: " + js_int(s.intensity) + ", parent: " + std::to_string(parent) +
                                         auto_shutdown + ", children: [" + join(children) + "]}";
    for (const Child& c : s.children)
      if (auto* sd = std::get_if<SupervisorDecl>(&c.decl)) collect_sups(*sd, s.index, rows);
  }

  std::vector<std::string> sup_rows() {
    std::vector<std::string> rows(static_cast<size_t>(p_.supervisor_count));
    for (const Decl& d : p_.system)
      if (auto* sd = std::get_if<SupervisorDecl>(&d)) collect_sups(*sd, -1, rows);
    return rows;
  }

  const Program& p_;
  const Kind* kind_ = nullptr;  // the kind whose code is being written
  CodeWriter w_;
  std::unordered_map<std::string, int32_t> name_ids_;
};

}  // namespace

std::string emit_js(const Program& p) { return JsEmitter(p).run(); }

}  // namespace concord
