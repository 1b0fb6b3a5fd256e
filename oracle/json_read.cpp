// oracle/json_read.cpp: reads the JSON form of a program (SPEC §13) strictly.
// Every check names the JSON pointer of the value it rejects; nesting is bounded
// before recursing, so no input can exhaust the stack.
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

Type need_type(const ojson& j, const std::string& ptr) {
  Type t;
  if (!parse_type(need_string(j, ptr), t)) throw InputError(ptr, "unknown type '" + j.get<std::string>() + "' (int or addr)");
  return t;
}

Restart need_restart(const ojson& j, const std::string& ptr) {
  Restart r;
  if (!parse_restart(need_string(j, ptr), r))
    throw InputError(ptr, "unknown restart type '" + j.get<std::string>() + "' (permanent, transient or temporary)");
  return r;
}

Expr read_expr(const ojson& j, const std::string& ptr, int depth) {
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
  } else if (parse_op(op, e.op)) {
    if (is_unary(e.op)) {
      need_object(j, ptr, {"op", "arg"});
      e.kind = ExprKind::Unary;
      e.args.push_back(read_expr(j["arg"], at(ptr, "arg"), depth + 1));
    } else {
      need_object(j, ptr, {"op", "lhs", "rhs"});
      e.kind = ExprKind::Binary;
      e.args.push_back(read_expr(j["lhs"], at(ptr, "lhs"), depth + 1));
      e.args.push_back(read_expr(j["rhs"], at(ptr, "rhs"), depth + 1));
    }
  } else {
    throw InputError(at(ptr, "op"), "unknown expression op '" + op + "'");
  }
  return e;
}

std::vector<Expr> read_exprs(const ojson& j, const std::string& ptr, int depth) {
  std::vector<Expr> out;
  const ojson& a = need_array(j, ptr);
  for (size_t i = 0; i < a.size(); i++) out.push_back(read_expr(a[i], at(ptr, i), depth));
  return out;
}

std::vector<Stmt> read_body(const ojson& j, const std::string& ptr, int depth);

// A statement's expressions nest from depth 1, as check() counts them (SPEC §4.13
// bounds statements and expressions separately).
Stmt read_stmt(const ojson& j, const std::string& ptr, int depth) {
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
    s.exprs.push_back(read_expr(j["value"], at(ptr, "value"), 1));
  } else if (what == "if") {
    need_object(j, ptr, {"do", "cond", "then", "else"});
    s.kind = StmtKind::If;
    s.exprs.push_back(read_expr(j["cond"], at(ptr, "cond"), 1));
    s.body = read_body(j["then"], at(ptr, "then"), depth + 1);
    s.orelse = read_body(j["else"], at(ptr, "else"), depth + 1);
  } else if (what == "repeat") {
    need_object(j, ptr, {"do", "count", "body"});
    s.kind = StmtKind::Repeat;
    s.count = need_int(j["count"], at(ptr, "count"));
    s.body = read_body(j["body"], at(ptr, "body"), depth + 1);
  } else if (what == "send") {
    need_object(j, ptr, {"do", "tag", "args", "to"});
    s.kind = StmtKind::Send;
    s.name = need_string(j["tag"], at(ptr, "tag"));
    s.exprs.push_back(read_expr(j["to"], at(ptr, "to"), 1));
    for (Expr& e : read_exprs(j["args"], at(ptr, "args"), 1)) s.exprs.push_back(std::move(e));
  } else if (what == "spawn") {
    need_object(j, ptr, {"do", "kind", "args"}, {"bind", "under", "restart"});
    s.kind = StmtKind::Spawn;
    s.name = need_string(j["kind"], at(ptr, "kind"));
    s.exprs = read_exprs(j["args"], at(ptr, "args"), 1);
    if (j.contains("bind")) s.bind = need_string(j["bind"], at(ptr, "bind"));
    if (j.contains("under") != j.contains("restart"))
      throw InputError(ptr, "'under' and 'restart' go together: a dynamic child needs both");
    if (j.contains("under")) {
      s.under = need_string(j["under"], at(ptr, "under"));
      s.restart = need_restart(j["restart"], at(ptr, "restart"));
    }
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

std::vector<Stmt> read_body(const ojson& j, const std::string& ptr, int depth) {
  std::vector<Stmt> out;
  const ojson& a = need_array(j, ptr);
  for (size_t i = 0; i < a.size(); i++) out.push_back(read_stmt(a[i], at(ptr, i), depth));
  return out;
}

std::vector<Param> read_params(const ojson& j, const std::string& ptr) {
  std::vector<Param> out;
  const ojson& a = need_array(j, ptr);
  for (size_t i = 0; i < a.size(); i++) {
    std::string p = at(ptr, i);
    need_object(a[i], p, {"name", "type"});
    out.push_back({need_string(a[i]["name"], at(p, "name")), need_type(a[i]["type"], at(p, "type")), p});
  }
  return out;
}

Kind read_kind(const ojson& j, const std::string& ptr) {
  need_object(j, ptr, {"name", "params", "state", "init", "handlers"});
  Kind k;
  k.where = ptr;
  k.name = need_string(j["name"], at(ptr, "name"));
  k.params = read_params(j["params"], at(ptr, "params"));
  const ojson& st = need_array(j["state"], at(ptr, "state"));
  for (size_t i = 0; i < st.size(); i++) {
    std::string p = at(at(ptr, "state"), i);
    need_object(st[i], p, {"name", "type", "init"});
    Field f;
    f.where = p;
    f.name = need_string(st[i]["name"], at(p, "name"));
    f.type = need_type(st[i]["type"], at(p, "type"));
    f.init = read_expr(st[i]["init"], at(p, "init"), 1);
    k.state.push_back(std::move(f));
  }
  k.init = read_body(j["init"], at(ptr, "init"), 1);
  const ojson& hs = need_array(j["handlers"], at(ptr, "handlers"));
  for (size_t i = 0; i < hs.size(); i++) {
    std::string p = at(at(ptr, "handlers"), i);
    need_object(hs[i], p, {"tag", "params", "body"});
    Handler h;
    h.where = p;
    h.tag = need_string(hs[i]["tag"], at(p, "tag"));
    h.params = read_params(hs[i]["params"], at(p, "params"));
    h.body = read_body(hs[i]["body"], at(p, "body"), 1);
    k.handlers.push_back(std::move(h));
  }
  return k;
}

ProcessDecl read_process(const ojson& j, const std::string& ptr) {
  need_object(j, ptr, {"name", "kind", "args"});
  ProcessDecl d;
  d.where = ptr;
  d.name = need_string(j["name"], at(ptr, "name"));
  d.kind = need_string(j["kind"], at(ptr, "kind"));
  d.args = read_exprs(j["args"], at(ptr, "args"), 1);
  return d;
}

SupervisorDecl read_supervisor(const ojson& j, const std::string& ptr, int depth);

// A root or a child: exactly one of "process" / "supervisor".
Decl read_decl(const ojson& j, const std::string& ptr, int depth) {
  if (j.contains("process") == j.contains("supervisor"))
    throw InputError(ptr, "expected exactly one of 'process' or 'supervisor'");
  if (j.contains("process")) return read_process(j["process"], at(ptr, "process"));
  return read_supervisor(j["supervisor"], at(ptr, "supervisor"), depth + 1);
}

SupervisorDecl read_supervisor(const ojson& j, const std::string& ptr, int depth) {
  if (depth > kMaxDepth) throw InputError(ptr, "supervisors nested deeper than " + std::to_string(kMaxDepth));
  need_object(j, ptr, {"name", "strategy", "intensity", "children"});
  SupervisorDecl s;
  s.where = ptr;
  s.name = need_string(j["name"], at(ptr, "name"));
  std::string strat = need_string(j["strategy"], at(ptr, "strategy"));
  if (!parse_strategy(strat, s.strategy))
    throw InputError(at(ptr, "strategy"), "unknown strategy '" + strat + "' (one_for_one, one_for_all or rest_for_one)");
  s.intensity = need_int(j["intensity"], at(ptr, "intensity"));
  const ojson& cs = need_array(j["children"], at(ptr, "children"));
  for (size_t i = 0; i < cs.size(); i++) {
    std::string p = at(at(ptr, "children"), i);
    bool is_proc = cs[i].is_object() && cs[i].contains("process");
    need_object(cs[i], p, {"restart", is_proc ? "process" : "supervisor"});
    Child c;
    c.restart = need_restart(cs[i]["restart"], at(p, "restart"));
    c.decl = read_decl(cs[i], p, depth);
    s.children.push_back(std::move(c));
  }
  return s;
}

}  // namespace

Program program_from_json(const ojson& j) {
  need_object(j, "", {"concord", "kinds", "system", "given"});
  if (!j["concord"].is_number_integer() || j["concord"].get<int64_t>() != 1)
    throw InputError("/concord", "unsupported format version (this concord reads version 1)");
  Program p;
  const ojson& ks = need_array(j["kinds"], "/kinds");
  for (size_t i = 0; i < ks.size(); i++) p.kinds.push_back(read_kind(ks[i], at("/kinds", i)));
  const ojson& sys = need_array(j["system"], "/system");
  for (size_t i = 0; i < sys.size(); i++) {
    std::string ptr = at("/system", i);
    bool is_proc = sys[i].is_object() && sys[i].contains("process");
    need_object(sys[i], ptr, {is_proc ? "process" : "supervisor"});
    p.system.push_back(read_decl(sys[i], ptr, 0));
  }
  const ojson& gs = need_array(j["given"], "/given");
  for (size_t i = 0; i < gs.size(); i++) {
    std::string ptr = at("/given", i);
    need_object(gs[i], ptr, {"to", "tag", "args"});
    Given g;
    g.where = ptr;
    g.to = need_string(gs[i]["to"], at(ptr, "to"));
    g.tag = need_string(gs[i]["tag"], at(ptr, "tag"));
    g.args = read_exprs(gs[i]["args"], at(ptr, "args"), 1);
    p.given.push_back(std::move(g));
  }
  return p;
}

Program program_from_json_text(const std::string& text) { return program_from_json(parse_json_text(text)); }

}  // namespace concord
