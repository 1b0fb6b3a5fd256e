// oracle/text_write.cpp: prints a program in the text syntax (SPEC §12; version 2:
// §23.1, after a `concord 2;` header). All output goes through line() and
// print_expr(); operands get parentheses only where the tree needs them, so
// parse(print(p)) == p.
#include <sstream>

#include "text.hpp"

namespace concord {
namespace {

constexpr int kUnaryPrec = 100;  // binds tighter than every binary operator

void expr_into(std::ostringstream& out, const Expr& e, int ctx_prec, bool right_operand) {
  switch (e.kind) {
    case ExprKind::Int: out << e.value; return;
    case ExprKind::Addr: out << '@' << e.name; return;
    case ExprKind::Self: out << "self"; return;
    case ExprKind::Var:
    case ExprKind::Reason: out << e.name; return;
    case ExprKind::Unary: {
      out << op_info(e.op).text;
      const Expr& a = e.args[0];
      // "-5" would read back as the literal -5, and "--x" as one token run.
      bool wrap = e.op == Op::Neg && a.kind == ExprKind::Int && a.value >= 0;
      if (wrap) out << '(';
      else if (e.op == Op::Neg && a.kind == ExprKind::Unary && a.op == Op::Neg) out << ' ';
      expr_into(out, a, wrap ? 0 : kUnaryPrec, false);
      if (wrap) out << ')';
      return;
    }
    case ExprKind::Binary: {
      int prec = op_info(e.op).prec;
      // All binary operators are left-associative: an equal-precedence right
      // operand needs parentheses, an equal-precedence left one does not.
      bool paren = prec < ctx_prec || (prec == ctx_prec && right_operand);
      if (paren) out << '(';
      expr_into(out, e.args[0], prec, false);
      out << ' ' << op_info(e.op).text << ' ';
      expr_into(out, e.args[1], prec, true);
      if (paren) out << ')';
      return;
    }
  }
}

class Printer {
 public:
  std::string program(const Program& p) {
    if (p.version != 1) line("concord " + std::to_string(p.version) + ";");
    for (const Kind& k : p.kinds) kind(k);
    for (const Decl& d : p.system) {
      blank();
      decl(d, "");
    }
    if (!p.given.empty()) blank();
    for (const Given& g : p.given) line("given " + g.tag + args(g.args) + " to @" + g.to + ";");
    return out_.str();
  }

 private:
  void line(const std::string& s) {
    for (int i = 0; i < indent_; i++) out_ << "    ";
    out_ << s << '\n';
    started_ = true;
  }
  void blank() {
    if (started_) out_ << '\n';
  }

  static std::string args(const std::vector<Expr>& es, size_t from = 0) {
    std::string s = "(";
    for (size_t i = from; i < es.size(); i++) s += (i > from ? ", " : "") + print_expr(es[i]);
    return s + ")";
  }

  static std::string params(const std::vector<Param>& ps) {
    std::string s = "(";
    for (size_t i = 0; i < ps.size(); i++) s += (i ? ", " : "") + ps[i].name + ": " + type_name(ps[i].type);
    return s + ")";
  }

  void kind(const Kind& k) {
    blank();
    line("kind " + k.name + params(k.params) + " {");
    indent_++;
    for (const Field& f : k.state) line("state " + f.name + ": " + type_name(f.type) + " = " + print_expr(f.init) + ";");
    if (!k.init.empty()) block("init", k.init);
    for (const Handler& h : k.handlers) block("on " + h.tag + params(h.params), h.body);
    indent_--;
    line("}");
  }

  void block(const std::string& head, const std::vector<Stmt>& body) {
    if (body.empty()) {
      line(head + " {}");
      return;
    }
    line(head + " {");
    indent_++;
    for (const Stmt& s : body) stmt(s);
    indent_--;
    line("}");
  }

  void stmt(const Stmt& s, const std::string& prefix = "") {
    switch (s.kind) {
      case StmtKind::Assign: line(s.name + " = " + print_expr(s.exprs[0]) + ";"); return;
      case StmtKind::If: {
        std::string head = prefix + "if " + print_expr(s.exprs[0]);
        if (s.orelse.empty()) {
          block(head, s.body);
          return;
        }
        line(head + " {");
        body(s.body);
        if (s.orelse.size() == 1 && s.orelse[0].kind == StmtKind::If) {
          stmt(s.orelse[0], "} else ");
          return;
        }
        line("} else {");
        body(s.orelse);
        line("}");
        return;
      }
      case StmtKind::Repeat: block("repeat " + std::to_string(s.count), s.body); return;
      case StmtKind::Send: line("send " + s.name + args(s.exprs, 1) + " to " + print_expr(s.exprs[0]) + ";"); return;
      case StmtKind::Spawn: {
        std::string t = s.bind.empty() ? "" : s.bind + " = ";
        t += "spawn " + s.name + args(s.exprs);
        if (!s.under.empty()) t += std::string(" under ") + s.under + " " + restart_name(s.restart);
        if (s.significant) t += " significant";
        line(t + ";");
        return;
      }
      case StmtKind::Stop:  // `stop;` is `stop normal;` (§23.1)
        line(is_stop_normal(s) ? std::string("stop;") : "stop " + print_expr(s.exprs[0]) + ";");
        return;
      case StmtKind::Fail: line("fail " + s.name + ";"); return;
      case StmtKind::Ignore: line("ignore;"); return;
      case StmtKind::Link: line("link(" + print_expr(s.exprs[0]) + ");"); return;
      case StmtKind::Unlink: line("unlink(" + print_expr(s.exprs[0]) + ");"); return;
      case StmtKind::Monitor: line("monitor(" + print_expr(s.exprs[0]) + ");"); return;
      case StmtKind::Demonitor: line("demonitor(" + print_expr(s.exprs[0]) + ");"); return;
      case StmtKind::TrapExit: line("trap_exit(" + print_expr(s.exprs[0]) + ");"); return;
      case StmtKind::Exit:
        line("exit(" + print_expr(s.exprs[0]) + ", " + (s.kill ? std::string("kill") : print_expr(s.exprs[1])) + ");");
        return;
      case StmtKind::Call:
        line((s.bind.empty() ? "" : s.bind + " = ") + "call " + s.name + args(s.exprs, 1) + " to " +
             print_expr(s.exprs[0]) + ";");
        return;
      case StmtKind::Reply: line("reply " + print_expr(s.exprs[0]) + ";"); return;
      case StmtKind::Api:
        line((s.bind.empty() ? "" : s.bind + " = ") + api_name(s.api) + "(" + s.under + ", " +
             (s.exprs.empty() ? "supervisor " + s.name : print_expr(s.exprs[0])) + ");");
        return;
    }
  }

  void body(const std::vector<Stmt>& b) {
    indent_++;
    for (const Stmt& s : b) stmt(s);
    indent_--;
  }

  void decl(const Decl& d, const std::string& restart) {
    if (auto* p = std::get_if<ProcessDecl>(&d)) {
      line(restart + "process " + p->name + " = " + p->kind + args(p->args) + ";");
      return;
    }
    const SupervisorDecl& s = std::get<SupervisorDecl>(d);
    std::string head = restart + "supervisor " + s.name + " " + strategy_name(s.strategy) + " intensity " +
                       std::to_string(s.intensity);
    if (s.auto_shutdown != AutoShutdown::Never) head += std::string(" auto_shutdown ") + auto_shutdown_name(s.auto_shutdown);
    if (s.children.empty()) {
      line(head + " {}");
      return;
    }
    line(head + " {");
    indent_++;
    for (const Child& c : s.children)
      decl(c.decl, std::string(restart_name(c.restart)) + (c.significant ? " significant " : " "));
    indent_--;
    line("}");
  }

  std::ostringstream out_;
  int indent_ = 0;
  bool started_ = false;
};

}  // namespace

std::string print_expr(const Expr& e) {
  std::ostringstream out;
  expr_into(out, e, 0, false);
  return out.str();
}

std::string print_program(const Program& p) { return Printer().program(p); }

}  // namespace concord
