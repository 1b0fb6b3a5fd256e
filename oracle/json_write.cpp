// oracle/json_write.cpp: writes a program in its JSON form (SPEC §13; version 2:
// §23.2), keys in the order the spec shows them, so the output is canonical;
// optional keys of version 2 are written only when they differ from their default.
#include "program_json.hpp"

namespace concord {
namespace {

ojson exprs_to_json(const std::vector<Expr>& es, size_t from = 0) {
  ojson a = ojson::array();
  for (size_t i = from; i < es.size(); i++) a.push_back(expr_to_json(es[i]));
  return a;
}

ojson body_to_json(const std::vector<Stmt>& body);

ojson stmt_to_json(const Stmt& s) {
  ojson j;
  switch (s.kind) {
    case StmtKind::Assign:
      j["do"] = "assign";
      j["field"] = s.name;
      j["value"] = expr_to_json(s.exprs[0]);
      break;
    case StmtKind::If:
      j["do"] = "if";
      j["cond"] = expr_to_json(s.exprs[0]);
      j["then"] = body_to_json(s.body);
      j["else"] = body_to_json(s.orelse);
      break;
    case StmtKind::Repeat:
      j["do"] = "repeat";
      j["count"] = s.count;
      j["body"] = body_to_json(s.body);
      break;
    case StmtKind::Send:
      j["do"] = "send";
      j["tag"] = s.name;
      j["args"] = exprs_to_json(s.exprs, 1);
      j["to"] = expr_to_json(s.exprs[0]);
      break;
    case StmtKind::Spawn:
      j["do"] = "spawn";
      j["kind"] = s.name;
      j["args"] = exprs_to_json(s.exprs);
      if (!s.bind.empty()) j["bind"] = s.bind;
      if (!s.under.empty()) {
        j["under"] = s.under;
        j["restart"] = restart_name(s.restart);
      }
      if (s.significant) j["significant"] = true;
      break;
    case StmtKind::Stop:
      j["do"] = "stop";
      if (!is_stop_normal(s)) j["reason"] = expr_to_json(s.exprs[0]);  // {"do":"stop"} is stop normal (§23.2)
      break;
    case StmtKind::Fail:
      j["do"] = "fail";
      j["code"] = s.name;
      break;
    case StmtKind::Ignore: j["do"] = "ignore"; break;
    case StmtKind::Link:
    case StmtKind::Unlink:
    case StmtKind::Monitor:
    case StmtKind::Demonitor:
      j["do"] = s.kind == StmtKind::Link     ? "link"
                : s.kind == StmtKind::Unlink ? "unlink"
                : s.kind == StmtKind::Monitor ? "monitor"
                                              : "demonitor";
      j["to"] = expr_to_json(s.exprs[0]);
      break;
    case StmtKind::TrapExit:
      j["do"] = "trap_exit";
      j["value"] = expr_to_json(s.exprs[0]);
      break;
    case StmtKind::Exit:
      j["do"] = "exit";
      j["to"] = expr_to_json(s.exprs[0]);
      if (s.kill) j["kill"] = true;
      else j["reason"] = expr_to_json(s.exprs[1]);
      break;
    case StmtKind::Call:
      j["do"] = "call";
      j["tag"] = s.name;
      j["args"] = exprs_to_json(s.exprs, 1);
      j["to"] = expr_to_json(s.exprs[0]);
      if (!s.bind.empty()) j["bind"] = s.bind;
      break;
    case StmtKind::Reply:
      j["do"] = "reply";
      j["value"] = expr_to_json(s.exprs[0]);
      break;
    case StmtKind::Api:
      j["do"] = api_name(s.api);
      j["supervisor"] = s.under;
      if (s.exprs.empty()) j["child_supervisor"] = s.name;
      else j["child"] = expr_to_json(s.exprs[0]);
      if (!s.bind.empty()) j["bind"] = s.bind;
      break;
  }
  return j;
}

ojson body_to_json(const std::vector<Stmt>& body) {
  ojson a = ojson::array();
  for (const Stmt& s : body) a.push_back(stmt_to_json(s));
  return a;
}

ojson params_to_json(const std::vector<Param>& ps) {
  ojson a = ojson::array();
  for (const Param& p : ps) a.push_back({{"name", p.name}, {"type", type_name(p.type)}});
  return a;
}

ojson process_to_json(const ProcessDecl& d) {
  return {{"name", d.name}, {"kind", d.kind}, {"args", exprs_to_json(d.args)}};
}

ojson supervisor_to_json(const SupervisorDecl& s);

// Writes the "process"/"supervisor" member into j.
void decl_into(ojson& j, const Decl& d) {
  if (auto* p = std::get_if<ProcessDecl>(&d)) j["process"] = process_to_json(*p);
  else j["supervisor"] = supervisor_to_json(std::get<SupervisorDecl>(d));
}

ojson supervisor_to_json(const SupervisorDecl& s) {
  ojson j;
  j["name"] = s.name;
  j["strategy"] = strategy_name(s.strategy);
  j["intensity"] = s.intensity;
  if (s.auto_shutdown != AutoShutdown::Never) j["auto_shutdown"] = auto_shutdown_name(s.auto_shutdown);
  ojson cs = ojson::array();
  for (const Child& c : s.children) {
    ojson cj;
    cj["restart"] = restart_name(c.restart);
    if (c.significant) cj["significant"] = true;
    decl_into(cj, c.decl);
    cs.push_back(std::move(cj));
  }
  j["children"] = std::move(cs);
  return j;
}

}  // namespace

ojson expr_to_json(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Int: return {{"op", "int"}, {"value", e.value}};
    case ExprKind::Addr: return {{"op", "addr"}, {"value", e.name}};
    case ExprKind::Self: return {{"op", "self"}};
    case ExprKind::Var: return {{"op", "var"}, {"name", e.name}};
    case ExprKind::Reason: return {{"op", "reason"}, {"value", e.name}};
    case ExprKind::Unary: return {{"op", op_info(e.op).json}, {"arg", expr_to_json(e.args[0])}};
    case ExprKind::Binary:
      return {{"op", op_info(e.op).json}, {"lhs", expr_to_json(e.args[0])}, {"rhs", expr_to_json(e.args[1])}};
  }
  return nullptr;
}

ojson program_to_json(const Program& p) {
  ojson j;
  j["concord"] = p.version;
  ojson kinds = ojson::array();
  for (const Kind& k : p.kinds) {
    ojson kj;
    kj["name"] = k.name;
    kj["params"] = params_to_json(k.params);
    ojson st = ojson::array();
    for (const Field& f : k.state)
      st.push_back({{"name", f.name}, {"type", type_name(f.type)}, {"init", expr_to_json(f.init)}});
    kj["state"] = std::move(st);
    kj["init"] = body_to_json(k.init);
    ojson hs = ojson::array();
    for (const Handler& h : k.handlers)
      hs.push_back({{"tag", h.tag}, {"params", params_to_json(h.params)}, {"body", body_to_json(h.body)}});
    kj["handlers"] = std::move(hs);
    kinds.push_back(std::move(kj));
  }
  j["kinds"] = std::move(kinds);
  ojson sys = ojson::array();
  for (const Decl& d : p.system) {
    ojson dj;
    decl_into(dj, d);
    sys.push_back(std::move(dj));
  }
  j["system"] = std::move(sys);
  ojson gs = ojson::array();
  for (const Given& g : p.given) gs.push_back({{"to", g.to}, {"tag", g.tag}, {"args", exprs_to_json(g.args)}});
  j["given"] = std::move(gs);
  return j;
}

}  // namespace concord
