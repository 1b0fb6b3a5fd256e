// targets/common/walker.hpp: the one walk over bodies and expressions that every
// emitter shares. It holds the only switches over StmtKind and ExprKind of the
// emitters; an emitter overrides one hook per statement kind and one per
// expression shape, and decides only what each prints. Adding a version 1 node kind
// adds a pure virtual here, so every emitter that forgets it fails to compile. The
// version 2 hooks (SPEC §14-§23) default to throwing Unsupported, which the
// launchers answer as UNSUPPORTED: a target implements version 2 one hook at a
// time, and until it does, emitting a version 2 construct is a clean refusal.
#pragma once

#include <string>
#include <vector>

#include "oracle/program.hpp"
#include "targets/common/unsupported.hpp"

namespace concord {

class Walker {
 public:
  virtual ~Walker() = default;

  void body(const std::vector<Stmt>& b) {
    for (const Stmt& s : b) stmt(s);
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Assign: return on_assign(s);
      case StmtKind::If: return on_if(s);
      case StmtKind::Repeat: return on_repeat(s);
      case StmtKind::Send: return on_send(s);
      case StmtKind::Spawn: return on_spawn(s);
      case StmtKind::Stop: return on_stop(s);
      case StmtKind::Fail: return on_fail(s);
      case StmtKind::Ignore: return on_ignore(s);
      case StmtKind::Link: return on_link(s);
      case StmtKind::Unlink: return on_unlink(s);
      case StmtKind::Monitor: return on_monitor(s);
      case StmtKind::Demonitor: return on_demonitor(s);
      case StmtKind::TrapExit: return on_trap_exit(s);
      case StmtKind::Exit: return on_exit(s);
      case StmtKind::Call: return on_call(s);
      case StmtKind::Reply: return on_reply(s);
      case StmtKind::Api: return on_api(s);
    }
  }

  // An expression's text. Operands are printed first, left to right, and handed
  // to the hook of their operator's shape.
  std::string expr(const Expr& e) {
    switch (e.kind) {
      case ExprKind::Int: return on_int(e);
      case ExprKind::Addr: return on_addr(e);
      case ExprKind::Self: return on_self(e);
      case ExprKind::Var: return on_var(e);
      case ExprKind::Reason: return on_reason(e);
      case ExprKind::Unary: return on_unary(e, expr(e.args[0]));
      case ExprKind::Binary: {
        std::string lhs = expr(e.args[0]);
        std::string rhs = expr(e.args[1]);
        return on_binary(e, lhs, rhs);
      }
    }
    return "?";  // not reached: the switch covers every kind
  }

 protected:
  // Statements: each prints itself; If and Repeat walk their bodies with body().
  virtual void on_assign(const Stmt& s) = 0;
  virtual void on_if(const Stmt& s) = 0;
  virtual void on_repeat(const Stmt& s) = 0;
  virtual void on_send(const Stmt& s) = 0;
  virtual void on_spawn(const Stmt& s) = 0;
  virtual void on_stop(const Stmt& s) = 0;  // s.exprs: {} (normal) or {reason} (version 2)
  virtual void on_fail(const Stmt& s) = 0;
  // Version 2 (SPEC §16.2, §18, §19, §20; operands in program.hpp's Stmt): not
  // implemented until the target overrides them.
  virtual void on_ignore(const Stmt&) { unsupported("ignore"); }
  virtual void on_link(const Stmt&) { unsupported("link"); }
  virtual void on_unlink(const Stmt&) { unsupported("unlink"); }
  virtual void on_monitor(const Stmt&) { unsupported("monitor"); }
  virtual void on_demonitor(const Stmt&) { unsupported("demonitor"); }
  virtual void on_trap_exit(const Stmt&) { unsupported("trap_exit"); }
  virtual void on_exit(const Stmt&) { unsupported("exit"); }
  virtual void on_call(const Stmt&) { unsupported("call"); }
  virtual void on_reply(const Stmt&) { unsupported("reply"); }
  virtual void on_api(const Stmt& s) { unsupported(api_name(s.api)); }

  // Expressions, by shape.
  virtual std::string on_int(const Expr& e) = 0;
  virtual std::string on_addr(const Expr& e) = 0;
  virtual std::string on_self(const Expr& e) = 0;
  virtual std::string on_var(const Expr& e) = 0;  // e.scope and e.slot say where it lives
  // Version 2: e.name is the word, e.slot its name id.
  virtual std::string on_reason(const Expr&) { unsupported("reason"); }
  virtual std::string on_unary(const Expr& e, const std::string& arg) = 0;
  virtual std::string on_binary(const Expr& e, const std::string& lhs, const std::string& rhs) = 0;

 private:
  [[noreturn]] static void unsupported(const char* what) {
    throw Unsupported(std::string("version 2 '") + what + "' is not supported by this target yet");
  }
};

}  // namespace concord
