// oracle/program.cpp: operator table, enum names and structural equality of the
// program model. Equality ignores `where` and resolved fields: two programs are
// the same program when their source is.
#include "program.hpp"

#include <cstring>

namespace concord {

static const OpInfo kOps[] = {
#define OP(e, json, text, prec) {json, text, prec},
#include "ops.def"
#undef OP
};

const OpInfo& op_info(Op op) { return kOps[static_cast<int>(op)]; }
bool is_unary(Op op) { return op_info(op).prec == 0; }

bool parse_op(const std::string& json, Op& out) {
  for (size_t i = 0; i < sizeof kOps / sizeof kOps[0]; i++)
    if (json == kOps[i].json) {
      out = static_cast<Op>(i);
      return true;
    }
  return false;
}

const char* type_name(Type t) {
  switch (t) {
    case Type::Int: return "int";
    case Type::Addr: return "addr";
    case Type::Reason: return "reason";
  }
  return "?";
}

const char* restart_name(Restart r) {
  switch (r) {
    case Restart::Permanent: return "permanent";
    case Restart::Transient: return "transient";
    case Restart::Temporary: return "temporary";
  }
  return "?";
}

const char* strategy_name(Strategy s) {
  switch (s) {
    case Strategy::OneForOne: return "one_for_one";
    case Strategy::OneForAll: return "one_for_all";
    case Strategy::RestForOne: return "rest_for_one";
  }
  return "?";
}

const char* auto_shutdown_name(AutoShutdown a) {
  switch (a) {
    case AutoShutdown::Never: return "never";
    case AutoShutdown::AnySignificant: return "any_significant";
    case AutoShutdown::AllSignificant: return "all_significant";
  }
  return "?";
}

const char* api_name(ApiOp op) {
  switch (op) {
    case ApiOp::TerminateChild: return "terminate_child";
    case ApiOp::RestartChild: return "restart_child";
    case ApiOp::DeleteChild: return "delete_child";
  }
  return "?";
}

bool parse_type(const std::string& s, Type& out) {
  for (Type t : {Type::Int, Type::Addr, Type::Reason})
    if (s == type_name(t)) {
      out = t;
      return true;
    }
  return false;
}

bool parse_auto_shutdown(const std::string& s, AutoShutdown& out) {
  for (AutoShutdown a : {AutoShutdown::Never, AutoShutdown::AnySignificant, AutoShutdown::AllSignificant})
    if (s == auto_shutdown_name(a)) {
      out = a;
      return true;
    }
  return false;
}

bool parse_api(const std::string& s, ApiOp& out) {
  for (ApiOp op : {ApiOp::TerminateChild, ApiOp::RestartChild, ApiOp::DeleteChild})
    if (s == api_name(op)) {
      out = op;
      return true;
    }
  return false;
}

bool is_stop_normal(const Stmt& s) {
  return s.exprs.empty() || (s.exprs[0].kind == ExprKind::Reason && s.exprs[0].name == "normal");
}

bool is_reason_word(const std::string& s) {
  return s == "normal" || s == "shutdown" || s == "killed" || s == "noproc";
}

bool parse_restart(const std::string& s, Restart& out) {
  for (Restart r : {Restart::Permanent, Restart::Transient, Restart::Temporary})
    if (s == restart_name(r)) {
      out = r;
      return true;
    }
  return false;
}

bool parse_strategy(const std::string& s, Strategy& out) {
  for (Strategy x : {Strategy::OneForOne, Strategy::OneForAll, Strategy::RestForOne})
    if (s == strategy_name(x)) {
      out = x;
      return true;
    }
  return false;
}

bool operator==(const Expr& a, const Expr& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case ExprKind::Int: return a.value == b.value;
    case ExprKind::Addr:
    case ExprKind::Var:
    case ExprKind::Reason: return a.name == b.name;
    case ExprKind::Self: return true;
    case ExprKind::Unary:
    case ExprKind::Binary: return a.op == b.op && a.args == b.args;
  }
  return false;
}

bool operator==(const Stmt& a, const Stmt& b) {
  return a.kind == b.kind && a.name == b.name && a.exprs == b.exprs && a.body == b.body &&
         a.orelse == b.orelse && a.count == b.count && a.bind == b.bind &&
         a.under == b.under && (a.kind != StmtKind::Spawn || a.under.empty() || a.restart == b.restart) &&
         a.significant == b.significant && a.kill == b.kill && (a.kind != StmtKind::Api || a.api == b.api);
}

bool operator==(const Param& a, const Param& b) { return a.name == b.name && a.type == b.type; }

bool operator==(const Field& a, const Field& b) {
  return a.name == b.name && a.type == b.type && a.init == b.init;
}

bool operator==(const Handler& a, const Handler& b) {
  return a.tag == b.tag && a.params == b.params && a.body == b.body;
}

bool operator==(const Kind& a, const Kind& b) {
  return a.name == b.name && a.params == b.params && a.state == b.state && a.init == b.init &&
         a.handlers == b.handlers;
}

bool operator==(const ProcessDecl& a, const ProcessDecl& b) {
  return a.name == b.name && a.kind == b.kind && a.args == b.args;
}

bool operator==(const SupervisorDecl& a, const SupervisorDecl& b) {
  return a.name == b.name && a.strategy == b.strategy && a.intensity == b.intensity &&
         a.auto_shutdown == b.auto_shutdown && a.children == b.children;
}

bool operator==(const Child& a, const Child& b) {
  return a.restart == b.restart && a.significant == b.significant && a.decl == b.decl;
}

bool operator==(const Given& a, const Given& b) {
  return a.to == b.to && a.tag == b.tag && a.args == b.args;
}

bool operator==(const Program& a, const Program& b) {
  return a.version == b.version && a.kinds == b.kinds && a.system == b.system && a.given == b.given;
}

}  // namespace concord
