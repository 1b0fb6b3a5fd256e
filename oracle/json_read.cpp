// oracle/json_read.cpp: reads the JSON form of a program (SPEC §13; version 2:
// §23.2) strictly. Every check names the JSON pointer of the value it rejects;
// nesting is bounded before recursing, so no input can exhaust the stack. The
// forms of version 2 are unknown in a version 1 document (§14.2).
#include <cmath>
#include <limits>

#include "error.hpp"
#include "json_text.hpp"
#include "limits.hpp"
#include "program_json.hpp"

namespace concord {
namespace {

// A JSON pointer one key deeper; '~' and '/' in the key are escaped (RFC 6901).
std::string at(const std::string& ptr, const std::string& key) {
  std::string out = ptr + "/";
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}
std::string at(const std::string& ptr, size_t i) { return ptr + "/" + std::to_string(i); }

const char* json_type(const ojson& j) { return j.type_name(); }

void need_object(const ojson& j, const std::string& ptr, std::initializer_list<const char*> keys,
                 std::initializer_list<const char*> optional = {}) {
  if (!j.is_object()) throw InputError(ptr, std::string("expected an object, got ") + json_type(j));
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool known = false;
    for (const char* k : keys) known = known || it.key() == k;
    for (const char* k : optional) known = known || it.key() == k;
    if (!known) throw InputError(at(ptr, it.key()), "unknown key '" + it.key() + "'");
  }
  for (const char* k : keys)
    if (!j.contains(k)) throw InputError(ptr, std::string("missing key '") + k + "'");
}

std::string need_string(const ojson& j, const std::string& ptr) {
  if (!j.is_string()) throw InputError(ptr, std::string("expected a string, got ") + json_type(j));
  return j.get<std::string>();
}

}  // namespace

int64_t json_int64(const ojson& j, const std::string& ptr) {
  if (j.is_number_unsigned()) {
    if (j.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      throw InputError(ptr, "integer out of the int64 range");
    return static_cast<int64_t>(j.get<uint64_t>());
  }
  if (j.is_number_integer()) return j.get<int64_t>();
  if (j.is_number_float()) {
    double v = j.get<double>();
    // Integral values in range were read as integers (json_text.hpp): this one is out of it.
    throw InputError(ptr, std::trunc(v) == v ? "integer " + j.dump() + " out of the int64 range"
                                             : "expected an integer, got the fraction " + j.dump());
  }
  throw InputError(ptr, std::string("expected an integer, got ") + json_type(j));
}

uint64_t json_uint64(const ojson& j, const std::string& ptr) {
  if (j.is_number_unsigned()) return j.get<uint64_t>();
  if (j.is_number_integer()) throw InputError(ptr, "integer " + j.dump() + " is negative: expected 0..2^64-1");
  if (j.is_number_float() && std::trunc(j.get<double>()) == j.get<double>())
    throw InputError(ptr, "integer " + j.dump() + " out of the range 0..2^64-1");
  return static_cast<uint64_t>(json_int64(j, ptr));  // throws: not an integer
}

namespace {

int64_t need_int(const ojson& j, const std::string& ptr) { return json_int64(j, ptr); }

const ojson& need_array(const ojson& j, const std::string& ptr) {
  if (!j.is_array()) throw InputError(ptr, std::string("expected an array, got ") + json_type(j));
  return j;
}

Type need_type(const ojson& j, const std::string& ptr, int v) {
  Type t;
  if (!parse_type(need_string(j, ptr), t) || (v < 2 && t == Type::Reason))
    throw InputError(ptr, "unknown type '" + j.get<std::string>() + (v < 2 ? "' (int or addr)" : "' (int, addr or reason)"));
  return t;
}

bool need_bool(const ojson& j, const std::string& ptr) {
  if (!j.is_boolean()) throw InputError(ptr, std::string("expected true or false, got ") + json_type(j));
  return j.get<bool>();
}

// A key that may only be true (§23.2: "kill":true, spawn's "significant":true).
void need_true(const ojson& j, const std::string& ptr) {
  if (!j.is_boolean() || !j.get<bool>()) throw InputError(ptr, "expected true (leave the key out for false)");
}

Restart need_restart(const ojson& j, const std::string& ptr) {
  Restart r;
  if (!parse_restart(need_string(j, ptr), r))
    throw InputError(ptr, "unknown restart type '" + j.get<std::string>() + "' (permanent, transient or temporary)");
  return r;
}

Expr read_expr(const ojson& j, const std::string& ptr, int depth, int v) {
  if (depth > kMaxDepth) throw InputError(ptr, "expression nested deeper than " + std::to_string(kMaxDepth));
  if (!j.is_object()) throw InputError(ptr, std::string("expected an expression object, got ") + json_type(j));
  if (!j.contains("op")) throw InputError(ptr, "missing key 'op'");
  std::string op = need_string(j["op"], at(ptr, "op"));
  Expr e;
  e.where = ptr;
  if (op == "int") {
    need_object(j, ptr, {"op", "value"});
    e.kind = ExprKind::Int;
    e.value = need_int(j["value"], at(ptr, "value"));
  } else if (op == "addr") {
    need_object(j, ptr, {"op", "value"});
    e.kind = ExprKind::Addr;
    e.name = need_string(j["value"], at(ptr, "value"));
  } else if (op == "self") {
    need_object(j, ptr, {"op"});
    e.kind = ExprKind::Self;
  } else if (op == "var") {
    need_object(j, ptr, {"op", "name"});
    e.kind = ExprKind::Var;
    e.name = need_string(j["name"], at(ptr, "name"));
  } else if (op == "reason" && v >= 2) {
    need_object(j, ptr, {"op", "value"});
    e.kind = ExprKind::Reason;
    e.name = need_string(j["value"], at(ptr, "value"));
  } else if (parse_op(op, e.op)) {
    if (is_unary(e.op)) {
      need_object(j, ptr, {"op", "arg"});
      e.kind = ExprKind::Unary;
      e.args.push_back(read_expr(j["arg"], at(ptr, "arg"), depth + 1, v));
    } else {
      need_object(j, ptr, {"op", "lhs", "rhs"});
      e.kind = ExprKind::Binary;
      e.args.push_back(read_expr(j["lhs"], at(ptr, "lhs"), depth + 1, v));
      e.args.push_back(read_expr(j["rhs"], at(ptr, "rhs"), depth + 1, v));
    }
  } else {
    throw InputError(at(ptr, "op"), "unknown expression op '" + op + "'");
  }
  return e;
}

std::vector<Expr> read_exprs(const ojson& j, const std::string& ptr, int depth, int v) {
  std::vector<Expr> out;
  const ojson& a = need_array(j, ptr);
  for (size_t i = 0; i < a.size(); i++) out.push_back(read_expr(a[i], at(ptr, i), depth, v));
  return out;
}

std::vector<Stmt> read_body(const ojson& j, const std::string& ptr, int depth, int v);

// The statements of version 2 (§23.2); false if `what` is none of them.
bool read_stmt2(const ojson& j, const std::string& ptr, const std::string& what, Stmt& s) {
  constexpr int v = 2;
  ApiOp op;
  if (what == "stop") {
    need_object(j, ptr, {"do"}, {"reason"});
    s.kind = StmtKind::Stop;
    if (j.contains("reason")) {
      Expr e = read_expr(j["reason"], at(ptr, "reason"), 1, v);
      if (!(e.kind == ExprKind::Reason && e.name == "normal")) s.exprs.push_back(std::move(e));  // stop normal = stop
    }
  } else if (what == "ignore") {
    need_object(j, ptr, {"do"});
    s.kind = StmtKind::Ignore;
  } else if (what == "link" || what == "unlink" || what == "monitor" || what == "demonitor") {
    need_object(j, ptr, {"do", "to"});
    s.kind = what == "link"     ? StmtKind::Link
             : what == "unlink" ? StmtKind::Unlink
             : what == "monitor" ? StmtKind::Monitor
                                 : StmtKind::Demonitor;
    s.exprs.push_back(read_expr(j["to"], at(ptr, "to"), 1, v));
  } else if (what == "trap_exit") {
    need_object(j, ptr, {"do", "value"});
    s.kind = StmtKind::TrapExit;
    s.exprs.push_back(read_expr(j["value"], at(ptr, "value"), 1, v));
  } else if (what == "exit") {
    need_object(j, ptr, {"do", "to"}, {"reason", "kill"});
    if (j.contains("reason") == j.contains("kill"))
      throw InputError(ptr, "an exit needs exactly one of 'reason' or 'kill'");
    s.kind = StmtKind::Exit;
    s.exprs.push_back(read_expr(j["to"], at(ptr, "to"), 1, v));
    if (j.contains("kill")) {
      need_true(j["kill"], at(ptr, "kill"));
      s.kill = true;
    } else {
      s.exprs.push_back(read_expr(j["reason"], at(ptr, "reason"), 1, v));
    }
  } else if (what == "call") {
    need_object(j, ptr, {"do", "tag", "args", "to"}, {"bind"});
    s.kind = StmtKind::Call;
    s.name = need_string(j["tag"], at(ptr, "tag"));
    s.exprs.push_back(read_expr(j["to"], at(ptr, "to"), 1, v));
    for (Expr& e : read_exprs(j["args"], at(ptr, "args"), 1, v)) s.exprs.push_back(std::move(e));
    if (j.contains("bind")) s.bind = need_string(j["bind"], at(ptr, "bind"));
  } else if (what == "reply") {
    need_object(j, ptr, {"do", "value"});
    s.kind = StmtKind::Reply;
    s.exprs.push_back(read_expr(j["value"], at(ptr, "value"), 1, v));
  } else if (parse_api(what, op)) {
    need_object(j, ptr, {"do", "supervisor"}, {"child", "child_supervisor", "bind"});
    if (j.contains("child") == j.contains("child_supervisor"))
      throw InputError(ptr, "expected exactly one of 'child' or 'child_supervisor'");
    s.kind = StmtKind::Api;
    s.api = op;
    s.under = need_string(j["supervisor"], at(ptr, "supervisor"));
    if (j.contains("child")) s.exprs.push_back(read_expr(j["child"], at(ptr, "child"), 1, v));
    else s.name = need_string(j["child_supervisor"], at(ptr, "child_supervisor"));
    if (j.contains("bind")) s.bind = need_string(j["bind"], at(ptr, "bind"));
  } else {
    return false;
  }
  return true;
}

// A statement's expressions nest from depth 1, as check() counts them (SPEC §4.13
// bounds statements and expressions separately).
Stmt read_stmt(const ojson& j, const std::string& ptr, int depth, int v) {
  if (depth > kMaxDepth) throw InputError(ptr, "statement nested deeper than " + std::to_string(kMaxDepth));
  if (!j.is_object()) throw InputError(ptr, std::string("expected a statement object, got ") + json_type(j));
  if (!j.contains("do")) throw InputError(ptr, "missing key 'do'");
  std::string what = need_string(j["do"], at(ptr, "do"));
  Stmt s;
  s.where = ptr;
  if (what == "assign") {
    need_object(j, ptr, {"do", "field", "value"});
    s.kind = StmtKind::Assign;
    s.name = need_string(j["field"], at(ptr, "field"));
    s.exprs.push_back(read_expr(j["value"], at(ptr, "value"), 1, v));
  } else if (what == "if") {
    need_object(j, ptr, {"do", "cond", "then", "else"});
    s.kind = StmtKind::If;
    s.exprs.push_back(read_expr(j["cond"], at(ptr, "cond"), 1, v));
    s.body = read_body(j["then"], at(ptr, "then"), depth + 1, v);
    s.orelse = read_body(j["else"], at(ptr, "else"), depth + 1, v);
  } else if (what == "repeat") {
    need_object(j, ptr, {"do", "count", "body"});
    s.kind = StmtKind::Repeat;
    s.count = need_int(j["count"], at(ptr, "count"));
    s.body = read_body(j["body"], at(ptr, "body"), depth + 1, v);
  } else if (what == "send") {
    need_object(j, ptr, {"do", "tag", "args", "to"});
    s.kind = StmtKind::Send;
    s.name = need_string(j["tag"], at(ptr, "tag"));
    s.exprs.push_back(read_expr(j["to"], at(ptr, "to"), 1, v));
    for (Expr& e : read_exprs(j["args"], at(ptr, "args"), 1, v)) s.exprs.push_back(std::move(e));
  } else if (what == "spawn") {
    if (v >= 2) need_object(j, ptr, {"do", "kind", "args"}, {"bind", "under", "restart", "significant"});
    else need_object(j, ptr, {"do", "kind", "args"}, {"bind", "under", "restart"});
    s.kind = StmtKind::Spawn;
    s.name = need_string(j["kind"], at(ptr, "kind"));
    s.exprs = read_exprs(j["args"], at(ptr, "args"), 1, v);
    if (j.contains("bind")) s.bind = need_string(j["bind"], at(ptr, "bind"));
    if (j.contains("under") != j.contains("restart"))
      throw InputError(ptr, "'under' and 'restart' go together: a dynamic child needs both");
    if (j.contains("under")) {
      s.under = need_string(j["under"], at(ptr, "under"));
      s.restart = need_restart(j["restart"], at(ptr, "restart"));
    }
    if (j.contains("significant")) {
      need_true(j["significant"], at(ptr, "significant"));
      if (!j.contains("under")) throw InputError(ptr, "'significant' needs 'under': only a supervisor's child is significant");
      s.significant = true;
    }
  } else if (v >= 2 && read_stmt2(j, ptr, what, s)) {
    // a version 2 statement
  } else if (what == "stop") {
    need_object(j, ptr, {"do"});
    s.kind = StmtKind::Stop;
  } else if (what == "fail") {
    need_object(j, ptr, {"do", "code"});
    s.kind = StmtKind::Fail;
    s.name = need_string(j["code"], at(ptr, "code"));
  } else {
    throw InputError(at(ptr, "do"), "unknown statement '" + what + "'");
  }
  return s;
}

std::vector<Stmt> read_body(const ojson& j, const std::string& ptr, int depth, int v) {
  std::vector<Stmt> out;
  const ojson& a = need_array(j, ptr);
  for (size_t i = 0; i < a.size(); i++) out.push_back(read_stmt(a[i], at(ptr, i), depth, v));
  return out;
}

std::vector<Param> read_params(const ojson& j, const std::string& ptr, int v) {
  std::vector<Param> out;
  const ojson& a = need_array(j, ptr);
  for (size_t i = 0; i < a.size(); i++) {
    std::string p = at(ptr, i);
    need_object(a[i], p, {"name", "type"});
    out.push_back({need_string(a[i]["name"], at(p, "name")), need_type(a[i]["type"], at(p, "type"), v), p});
  }
  return out;
}

Kind read_kind(const ojson& j, const std::string& ptr, int v) {
  need_object(j, ptr, {"name", "params", "state", "init", "handlers"});
  Kind k;
  k.where = ptr;
  k.name = need_string(j["name"], at(ptr, "name"));
  k.params = read_params(j["params"], at(ptr, "params"), v);
  const ojson& st = need_array(j["state"], at(ptr, "state"));
  for (size_t i = 0; i < st.size(); i++) {
    std::string p = at(at(ptr, "state"), i);
    need_object(st[i], p, {"name", "type", "init"});
    Field f;
    f.where = p;
    f.name = need_string(st[i]["name"], at(p, "name"));
    f.type = need_type(st[i]["type"], at(p, "type"), v);
    f.init = read_expr(st[i]["init"], at(p, "init"), 1, v);
    k.state.push_back(std::move(f));
  }
  k.init = read_body(j["init"], at(ptr, "init"), 1, v);
  const ojson& hs = need_array(j["handlers"], at(ptr, "handlers"));
  for (size_t i = 0; i < hs.size(); i++) {
    std::string p = at(at(ptr, "handlers"), i);
    need_object(hs[i], p, {"tag", "params", "body"});
    Handler h;
    h.where = p;
    h.tag = need_string(hs[i]["tag"], at(p, "tag"));
    h.params = read_params(hs[i]["params"], at(p, "params"), v);
    h.body = read_body(hs[i]["body"], at(p, "body"), 1, v);
    k.handlers.push_back(std::move(h));
  }
  return k;
}

ProcessDecl read_process(const ojson& j, const std::string& ptr, int v) {
  need_object(j, ptr, {"name", "kind", "args"});
  ProcessDecl d;
  d.where = ptr;
  d.name = need_string(j["name"], at(ptr, "name"));
  d.kind = need_string(j["kind"], at(ptr, "kind"));
  d.args = read_exprs(j["args"], at(ptr, "args"), 1, v);
  return d;
}

SupervisorDecl read_supervisor(const ojson& j, const std::string& ptr, int depth, int v);

// A root or a child: exactly one of "process" / "supervisor".
Decl read_decl(const ojson& j, const std::string& ptr, int depth, int v) {
  if (j.contains("process") == j.contains("supervisor"))
    throw InputError(ptr, "expected exactly one of 'process' or 'supervisor'");
  if (j.contains("process")) return read_process(j["process"], at(ptr, "process"), v);
  return read_supervisor(j["supervisor"], at(ptr, "supervisor"), depth + 1, v);
}

SupervisorDecl read_supervisor(const ojson& j, const std::string& ptr, int depth, int v) {
  if (depth > kMaxDepth) throw InputError(ptr, "supervisors nested deeper than " + std::to_string(kMaxDepth));
  if (v >= 2) need_object(j, ptr, {"name", "strategy", "intensity", "children"}, {"auto_shutdown"});
  else need_object(j, ptr, {"name", "strategy", "intensity", "children"});
  SupervisorDecl s;
  s.where = ptr;
  s.name = need_string(j["name"], at(ptr, "name"));
  std::string strat = need_string(j["strategy"], at(ptr, "strategy"));
  if (!parse_strategy(strat, s.strategy))
    throw InputError(at(ptr, "strategy"), "unknown strategy '" + strat + "' (one_for_one, one_for_all or rest_for_one)");
  s.intensity = need_int(j["intensity"], at(ptr, "intensity"));
  if (j.contains("auto_shutdown")) {
    std::string mode = need_string(j["auto_shutdown"], at(ptr, "auto_shutdown"));
    if (!parse_auto_shutdown(mode, s.auto_shutdown))
      throw InputError(at(ptr, "auto_shutdown"),
                       "unknown auto_shutdown '" + mode + "' (never, any_significant or all_significant)");
  }
  const ojson& cs = need_array(j["children"], at(ptr, "children"));
  for (size_t i = 0; i < cs.size(); i++) {
    std::string p = at(at(ptr, "children"), i);
    bool is_proc = cs[i].is_object() && cs[i].contains("process");
    if (v >= 2) need_object(cs[i], p, {"restart", is_proc ? "process" : "supervisor"}, {"significant"});
    else need_object(cs[i], p, {"restart", is_proc ? "process" : "supervisor"});
    Child c;
    c.restart = need_restart(cs[i]["restart"], at(p, "restart"));
    if (cs[i].contains("significant")) c.significant = need_bool(cs[i]["significant"], at(p, "significant"));
    c.decl = read_decl(cs[i], p, depth, v);
    s.children.push_back(std::move(c));
  }
  return s;
}

}  // namespace

Program program_from_json(const ojson& j) {
  need_object(j, "", {"concord", "kinds", "system", "given"});
  if (!j["concord"].is_number_integer() || (j["concord"].get<int64_t>() != 1 && j["concord"].get<int64_t>() != 2))
    throw InputError("/concord", "unsupported format version (this concord reads versions 1 and 2)");
  Program p;
  p.version = static_cast<int>(j["concord"].get<int64_t>());
  const int v = p.version;
  const ojson& ks = need_array(j["kinds"], "/kinds");
  for (size_t i = 0; i < ks.size(); i++) p.kinds.push_back(read_kind(ks[i], at("/kinds", i), v));
  const ojson& sys = need_array(j["system"], "/system");
  for (size_t i = 0; i < sys.size(); i++) {
    std::string ptr = at("/system", i);
    bool is_proc = sys[i].is_object() && sys[i].contains("process");
    need_object(sys[i], ptr, {is_proc ? "process" : "supervisor"});
    p.system.push_back(read_decl(sys[i], ptr, 0, v));
  }
  const ojson& gs = need_array(j["given"], "/given");
  for (size_t i = 0; i < gs.size(); i++) {
    std::string ptr = at("/given", i);
    need_object(gs[i], ptr, {"to", "tag", "args"});
    Given g;
    g.where = ptr;
    g.to = need_string(gs[i]["to"], at(ptr, "to"));
    g.tag = need_string(gs[i]["tag"], at(ptr, "tag"));
    g.args = read_exprs(gs[i]["args"], at(ptr, "args"), 1, v);
    p.given.push_back(std::move(g));
  }
  return p;
}

Program program_from_json_text(const std::string& text) { return program_from_json(parse_json_text(text)); }

}  // namespace concord
