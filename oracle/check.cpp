// oracle/check.cpp: the rules of SPEC §4, one function per rule family, in the
// order the spec lists them; for a version 2 program also §14.3's V1-V13, each
// cited where it is checked. The first broken rule is reported.
#include "check.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "error.hpp"
#include "limits.hpp"
#include "text.hpp"
#include "versions.hpp"

namespace concord {

static const char* const kRuntimeCodes[] = {"NO_HANDLER", "DIV_ZERO", "SYSTEM_LIMIT", "NOPROC"};
// Version 2 reserves these too (V2).
static const char* const kRuntimeCodes2[] = {"NORMAL", "SHUTDOWN", "KILLED", "CALLING_SELF", "BAD_REPLY"};

bool is_runtime_code(const std::string& s, int version) {
  for (const char* c : kRuntimeCodes)
    if (s == c) return true;
  if (version >= 2)
    for (const char* c : kRuntimeCodes2)
      if (s == c) return true;
  return false;
}

bool is_kind_name(const std::string& s) {
  if (s.empty() || s.size() > kMaxNameLength || !std::isupper(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool is_lower_name(const std::string& s, int version) {
  if (s.empty() || s.size() > kMaxNameLength || !std::islower(static_cast<unsigned char>(s[0]))) return false;
  if (is_keyword(s, version)) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool is_code_name(const std::string& s) {
  if (s.empty() || s.size() > kMaxNameLength || !std::isupper(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool is_reason_literal(const std::string& s) { return is_reason_word(s) || is_code_name(s); }

static std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int spawned_name_kind(const Program& p, const std::string& s) {
  size_t dash = s.rfind('-');
  if (dash == std::string::npos || dash + 1 >= s.size() || s[dash + 1] == '0') return -1;
  for (size_t i = dash + 1; i < s.size(); i++)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return -1;
  if (s.size() - dash - 1 > 19) return -1;  // beyond any count a run can reach
  std::string base = s.substr(0, dash);
  for (size_t k = 0; k < p.kinds.size(); k++)
    if (lower(p.kinds[k].name) == base) return static_cast<int>(k);
  return -1;
}

namespace {

class Checker {
 public:
  explicit Checker(Program& p) : p_(p), v2_(p.version >= 2) {}

  void run() {
    p_.sigs.clear();
    p_.names.clear();
    p_.exit_sig = p_.down_sig = -1;
    if (p_.version < kOldestVersion || p_.version > kNewestVersion)
      fail("", "unsupported version " + std::to_string(p_.version) + " (1 or 2)");
    check_kind_names();
    check_declared_names();
    for (Kind& k : p_.kinds) check_kind(k);
    for (Kind& k : p_.kinds) {
      k.handler_of_sig.assign(p_.sigs.size(), -1);
      for (size_t h = 0; h < k.handlers.size(); h++) k.handler_of_sig[k.handlers[h].sig] = static_cast<int32_t>(h);
    }
    int32_t sup_index = 0;
    for (Decl& d : p_.system) check_decl(d, sup_index, nullptr);
    p_.supervisor_count = sup_index;
    for (Given& g : p_.given) check_given(g);
    if (v2_) {  // the messages of links and monitors (§16.4), handled or not
      p_.exit_sig = intern_sig("exit", {Type::Addr, Type::Reason});
      p_.down_sig = intern_sig("down", {Type::Addr, Type::Reason});
    }
    // Signatures seen only in sends or givens have no handler anywhere.
    for (Kind& k : p_.kinds) k.handler_of_sig.resize(p_.sigs.size(), -1);
    p_.checked = true;
  }

 private:
  [[noreturn]] static void fail(const std::string& where, const std::string& what) { throw InputError(where, what); }

  // A construct of version 2 in a version 1 program (§14.2).
  void need_v2(const std::string& where, const std::string& what) {
    if (!v2_) fail(where, what + " is version 2: begin the program with 'concord 2;' (JSON: \"concord\":2)");
  }

  int32_t intern_name(const std::string& n) {
    auto it = name_ids_.find(n);
    if (it != name_ids_.end()) return it->second;
    int32_t id = static_cast<int32_t>(p_.names.size());
    p_.names.push_back(n);
    name_ids_.emplace(n, id);
    return id;
  }

  int32_t intern_sig(const std::string& tag, std::vector<Type> types) {
    std::string key = tag + "/";
    for (Type t : types) key += t == Type::Int ? 'i' : t == Type::Addr ? 'a' : 'r';
    auto it = sig_ids_.find(key);
    if (it != sig_ids_.end()) return it->second;
    int32_t id = static_cast<int32_t>(p_.sigs.size());
    p_.sigs.push_back({tag, std::move(types)});
    sig_ids_.emplace(key, id);
    return id;
  }

  // V1: the type reason exists in version 2 only.
  void check_type(Type t, const std::string& where) {
    if (t == Type::Reason) need_v2(where, "the type 'reason'");
  }

  // --- §4.1 names -----------------------------------------------------------
  void check_lower(const std::string& name, const std::string& where, const char* what) {
    if (name.size() > kMaxNameLength)
      fail(where,
           std::string(what) + " '" + name + "' is longer than " + std::to_string(kMaxNameLength) + " characters");
    if (is_keyword(name, p_.version)) fail(where, std::string(what) + " '" + name + "' is a keyword");
    if (!is_lower_name(name, p_.version)) fail(where, std::string(what) + " '" + name + "' must match [a-z][a-z0-9_]*");
  }

  void check_kind_names() {
    std::set<std::string> seen;
    for (size_t i = 0; i < p_.kinds.size(); i++) {
      const Kind& k = p_.kinds[i];
      if (!is_kind_name(k.name))
        fail(k.where, "kind name '" + k.name + "' must match [A-Z][A-Za-z0-9_]* (at most 32 characters)");
      if (!seen.insert(lower(k.name)).second)
        fail(k.where, "duplicate kind '" + k.name + "' (kinds are compared case-insensitively)");
      kind_index_[k.name] = static_cast<int>(i);
    }
  }

  // The first walk of the supervision tree, so it also bounds its depth (§4.13):
  // a root supervisor is at depth 1, as the readers count.
  void collect_names(const Decl& d, int depth) {
    if (auto* pd = std::get_if<ProcessDecl>(&d)) {
      check_lower(pd->name, pd->where, "process name");
      if (!declared_.insert(pd->name).second) fail(pd->where, "duplicate name '" + pd->name + "'");
      processes_.insert(pd->name);
      intern_name(pd->name);
      return;
    }
    const SupervisorDecl& s = std::get<SupervisorDecl>(d);
    if (depth > kMaxDepth) fail(s.where, "supervisors nested deeper than " + std::to_string(kMaxDepth));
    check_lower(s.name, s.where, "supervisor name");
    if (!declared_.insert(s.name).second) fail(s.where, "duplicate name '" + s.name + "'");
    supervisors_.insert(s.name);
    sup_index_[s.name] = static_cast<int32_t>(sup_index_.size());  // pre-order, as check_decl numbers them
    sup_decl_[s.name] = &s;
    intern_name(s.name);
    for (const Child& c : s.children) collect_names(c.decl, depth + 1);
  }

  void check_declared_names() {
    for (const Decl& d : p_.system) collect_names(d, 1);
  }

  // --- §4.2 scopes, §4.3 expressions -----------------------------------------
  struct Scopes {
    const Kind* kind = nullptr;
    const std::vector<Param>* args = nullptr;  // handler parameters, or null
    bool fields = true;                        // false in state initialisers
    bool init = false;                         // init body or initialiser: §4.9 (version 2: V4, V5)
  };

  void resolve_var(Expr& e, const Scopes& sc) {
    auto find = [&](const auto& list, Scope scope) {
      for (size_t i = 0; i < list.size(); i++)
        if (list[i].name == e.name) {
          e.scope = scope;
          e.slot = static_cast<int32_t>(i);
          e.type = list[i].type;
          return true;
        }
      return false;
    };
    if (sc.args && find(*sc.args, Scope::Arg)) return;
    if (sc.fields && find(sc.kind->state, Scope::Field)) return;
    if (find(sc.kind->params, Scope::Param)) return;
    fail(e.where, "unknown variable '" + e.name + "'");
  }

  void resolve_addr(Expr& e) {
    if (processes_.count(e.name) || spawned_name_kind(p_, e.name) >= 0) {
      e.slot = intern_name(e.name);
      return;
    }
    if (supervisors_.count(e.name))
      fail(e.where, "'@" + e.name + "' names a supervisor; only worker processes receive messages");
    fail(e.where, "unknown process '@" + e.name + "'");
  }

  // §15, V1: a reason literal; its word is a name id of the run, like an addr.
  void resolve_reason(Expr& e) {
    need_v2(e.where, "the reason literal '" + e.name + "'");
    if (!is_reason_literal(e.name) || e.name.size() > kMaxNameLength)
      fail(e.where,
           "'" + e.name + "' is not a reason: normal, shutdown, killed, noproc or a code [A-Z][A-Z0-9_]* (§15)");
    e.slot = intern_name(e.name);
  }

  void expr(Expr& e, const Scopes& sc, int depth) {
    if (depth > kMaxDepth) fail(e.where, "expression nested deeper than " + std::to_string(kMaxDepth));
    switch (e.kind) {
      case ExprKind::Int: e.type = Type::Int; return;
      case ExprKind::Addr:
        e.type = Type::Addr;
        resolve_addr(e);
        return;
      case ExprKind::Self: e.type = Type::Addr; return;
      case ExprKind::Var: resolve_var(e, sc); return;
      case ExprKind::Reason:
        e.type = Type::Reason;
        resolve_reason(e);
        return;
      case ExprKind::Unary:
        expr(e.args[0], sc, depth + 1);
        want(e.args[0], Type::Int, op_info(e.op).text);
        e.type = Type::Int;
        return;
      case ExprKind::Binary:
        expr(e.args[0], sc, depth + 1);
        expr(e.args[1], sc, depth + 1);
        e.type = Type::Int;
        if (e.op == Op::Eq || e.op == Op::Ne) {  // V11: two ints, two addrs or two reasons
          if (e.args[0].type != e.args[1].type)
            fail(e.where, std::string("'") + op_info(e.op).text + "' compares " + type_name(e.args[0].type) + " with " +
                              type_name(e.args[1].type));
          return;
        }
        want(e.args[0], Type::Int, op_info(e.op).text);
        want(e.args[1], Type::Int, op_info(e.op).text);
        if (!v2_ && sc.init && (e.op == Op::Div || e.op == Op::Rem) &&
            !(e.args[1].kind == ExprKind::Int && e.args[1].value != 0))
          fail(e.where, std::string("in init, the right operand of '") + op_info(e.op).text +
                            "' must be a non-zero integer literal (init cannot fail)");
        return;
    }
  }

  static void want(const Expr& e, Type t, const char* op) {
    if (e.type != t)
      fail(e.where, std::string("operand of '") + op + "' must be " + type_name(t) + ", is " + type_name(e.type));
  }

  // An operand of a statement that must have type t.
  void operand(Expr& e, const Scopes& sc, Type t, const std::string& what) {
    expr(e, sc, 1);
    if (e.type != t) fail(e.where, what + " must be " + type_name(t) + ", is " + type_name(e.type));
  }

  // --- §4.4–4.9 statements (version 2: V4–V8, V12) ------------------------------
  int64_t body(std::vector<Stmt>& b, const Scopes& sc, int depth) {
    int64_t weight = 0;
    for (Stmt& s : b) weight = std::min(weight + stmt(s, sc, depth), kMaxWeight + 1);
    return weight;
  }

  int field_index(const Kind& k, const std::string& name) {
    for (size_t i = 0; i < k.state.size(); i++)
      if (k.state[i].name == name) return static_cast<int>(i);
    return -1;
  }

  // The state field that receives a statement's result; -1 when there is none.
  int32_t bind_field(const Stmt& s, const Scopes& sc) {
    if (s.bind.empty()) return -1;
    int f = field_index(*sc.kind, s.bind);
    if (f < 0) fail(s.where, "unknown state field '" + s.bind + "'");
    return f;
  }

  // V4: what init may not contain in version 2 (version 1: §4.9, init cannot fail).
  void not_in_init(const Stmt& s, const Scopes& sc, const char* what) {
    if (!sc.init) return;
    if (v2_) fail(s.where, std::string("'") + what + "' is not allowed in init (§14.3 V4)");
    fail(s.where, std::string("'") + what + "' is not allowed in init (init cannot fail)");
  }

  // V5: call and reply only in handler bodies.
  void only_in_handlers(const Stmt& s, const Scopes& sc, const char* what) {
    if (sc.init) fail(s.where, std::string("'") + what + "' is only allowed in handlers, not in init (§14.3 V4, V5)");
  }

  // Returns the statement's weight (§4.8; V12: every new statement weighs 1),
  // capped just past the limit.
  int64_t stmt(Stmt& s, const Scopes& sc, int depth) {
    if (depth > kMaxDepth) fail(s.where, "statement nested deeper than " + std::to_string(kMaxDepth));
    switch (s.kind) {
      case StmtKind::Assign: {
        s.slot = field_index(*sc.kind, s.name);
        if (s.slot < 0) {
          bool is_param = std::any_of(sc.kind->params.begin(), sc.kind->params.end(),
                                      [&](const Param& p) { return p.name == s.name; }) ||
                          (sc.args && std::any_of(sc.args->begin(), sc.args->end(),
                                                  [&](const Param& p) { return p.name == s.name; }));
          fail(s.where, is_param ? "'" + s.name + "' is a parameter; only state fields can be assigned"
                                 : "unknown state field '" + s.name + "'");
        }
        expr(s.exprs[0], sc, 1);
        Type t = sc.kind->state[s.slot].type;
        if (s.exprs[0].type != t)
          fail(s.where, "'" + s.name + "' is " + type_name(t) + ", assigned " + type_name(s.exprs[0].type));
        return 1;
      }
      case StmtKind::If: {
        expr(s.exprs[0], sc, 1);
        if (s.exprs[0].type != Type::Int)
          fail(s.exprs[0].where, std::string("an 'if' condition must be int, is ") + type_name(s.exprs[0].type));
        return 1 + body(s.body, sc, depth + 1) + body(s.orelse, sc, depth + 1);
      }
      case StmtKind::Repeat: {
        if (s.count < 0 || s.count > kMaxRepeat)
          fail(s.where, "repeat count " + std::to_string(s.count) + " is outside 0.." + std::to_string(kMaxRepeat));
        int64_t w = 1 + s.count * body(s.body, sc, depth + 1);
        return std::min(w, kMaxWeight + 1);
      }
      case StmtKind::Send: {
        check_lower(s.name, s.where, "message tag");  // V3: exit and down are keywords in version 2
        s.slot = message(s, sc);
        if (s.exprs[0].type != Type::Addr)
          fail(s.exprs[0].where, std::string("the receiver of 'send' must be addr, is ") + type_name(s.exprs[0].type));
        return 1;
      }
      case StmtKind::Spawn: {
        not_in_init(s, sc, "spawn");
        auto it = kind_index_.find(s.name);
        if (it == kind_index_.end()) fail(s.where, "unknown kind '" + s.name + "'");
        s.slot = it->second;
        const Kind& k = p_.kinds[s.slot];
        for (Expr& e : s.exprs) expr(e, sc, 1);
        check_args(s.exprs, k, s.where);
        s.slot2 = bind_field(s, sc);
        if (s.slot2 >= 0 && sc.kind->state[s.slot2].type != Type::Addr)
          fail(s.where, "'" + s.bind + "' receives a process name, so it must be addr");
        s.slot3 = -1;
        if (!s.under.empty()) {
          if (!supervisors_.count(s.under)) fail(s.where, "unknown supervisor '" + s.under + "'");
          s.slot3 = sup_index_.at(s.under);
        }
        if (s.significant) {
          need_v2(s.where, "a significant child");
          if (s.under.empty()) fail(s.where, "only a child spawned 'under' a supervisor can be significant");
          significant(s.restart, *sup_decl_.at(s.under), s.where);
        }
        return 1;
      }
      case StmtKind::Stop:
        if (!v2_) not_in_init(s, sc, "stop");
        if (!s.exprs.empty()) {
          need_v2(s.where, "'stop' with a reason");
          operand(s.exprs[0], sc, Type::Reason, "the reason of 'stop'");  // V6
        }
        return 1;
      case StmtKind::Fail:
        if (!v2_) not_in_init(s, sc, "fail");
        if (!is_code_name(s.name))
          fail(s.where, "failure code '" + s.name + "' must match [A-Z][A-Z0-9_]* (at most 32 characters)");
        if (is_runtime_code(s.name, p_.version))  // §2; version 2: V2
          fail(s.where, "'" + s.name + "' is a runtime failure code; a program cannot raise it");
        return 1;
      case StmtKind::Ignore:
        need_v2(s.where, "'ignore'");
        if (!sc.init) fail(s.where, "'ignore' is only allowed in init (§14.3 V5)");
        return 1;
      case StmtKind::Link:
      case StmtKind::Unlink:
      case StmtKind::Monitor:
      case StmtKind::Demonitor: {
        const char* what = s.kind == StmtKind::Link      ? "link"
                           : s.kind == StmtKind::Unlink  ? "unlink"
                           : s.kind == StmtKind::Monitor ? "monitor"
                                                         : "demonitor";
        need_v2(s.where, std::string("'") + what + "'");
        operand(s.exprs[0], sc, Type::Addr, std::string("the operand of '") + what + "'");  // V6
        return 1;
      }
      case StmtKind::TrapExit:
        need_v2(s.where, "'trap_exit'");
        operand(s.exprs[0], sc, Type::Int, "the operand of 'trap_exit'");  // V6
        return 1;
      case StmtKind::Exit:
        need_v2(s.where, "'exit'");
        not_in_init(s, sc, "exit");
        operand(s.exprs[0], sc, Type::Addr, "the receiver of 'exit'");  // V6
        if (!s.kill) operand(s.exprs[1], sc, Type::Reason, "the reason of 'exit'");
        return 1;
      case StmtKind::Call: {
        need_v2(s.where, "'call'");
        only_in_handlers(s, sc, "call");
        check_lower(s.name, s.where, "message tag");  // V7: not exit or down (keywords)
        s.slot = message(s, sc);
        if (s.exprs[0].type != Type::Addr)
          fail(s.exprs[0].where, std::string("the callee of 'call' must be addr, is ") + type_name(s.exprs[0].type));
        s.slot2 = bind_field(s, sc);  // any type: the reply's is checked when it comes (§18.1)
        return 1;
      }
      case StmtKind::Reply:
        need_v2(s.where, "'reply'");
        only_in_handlers(s, sc, "reply");
        expr(s.exprs[0], sc, 1);  // V6: any type
        return 1;
      case StmtKind::Api: {  // V8
        need_v2(s.where, std::string("'") + api_name(s.api) + "'");
        not_in_init(s, sc, api_name(s.api));
        if (!supervisors_.count(s.under)) fail(s.where, "unknown supervisor '" + s.under + "'");
        s.slot3 = sup_index_.at(s.under);
        s.slot = -1;
        if (s.exprs.empty()) {
          if (!supervisors_.count(s.name)) fail(s.where, "unknown supervisor '" + s.name + "'");
          s.slot = sup_index_.at(s.name);
        } else {
          operand(s.exprs[0], sc, Type::Addr, std::string("the child of '") + api_name(s.api) + "'");
        }
        s.slot2 = bind_field(s, sc);
        if (s.slot2 >= 0 && sc.kind->state[s.slot2].type != Type::Int)
          fail(s.where, "'" + s.bind + "' receives the result of '" + api_name(s.api) + "', so it must be int");
        return 1;
      }
    }
    return 1;
  }

  // The arguments of a send or call: their types and the message's signature.
  int32_t message(Stmt& s, const Scopes& sc) {
    if (s.exprs.size() - 1 > kMaxArgs) fail(s.where, "more than " + std::to_string(kMaxArgs) + " arguments");
    std::vector<Type> types;
    for (size_t i = 0; i < s.exprs.size(); i++) {
      expr(s.exprs[i], sc, 1);
      if (i > 0) types.push_back(s.exprs[i].type);
    }
    return intern_sig(s.name, std::move(types));
  }

  void check_args(const std::vector<Expr>& args, const Kind& k, const std::string& where) {
    if (args.size() != k.params.size())
      fail(where, "kind " + k.name + " takes " + std::to_string(k.params.size()) + " arguments, given " +
                      std::to_string(args.size()));
    for (size_t i = 0; i < args.size(); i++)
      if (args[i].type != k.params[i].type)
        fail(args[i].where, "argument " + std::to_string(i + 1) + " of " + k.name + " ('" + k.params[i].name +
                                "') must be " + type_name(k.params[i].type) + ", is " + type_name(args[i].type));
  }

  void check_body_weight(int64_t w, const std::string& where) {
    if (w > kMaxWeight)
      fail(where, "body may run more than " + std::to_string(kMaxWeight) + " statements in one turn (§4.8)");
  }

  // --- kinds -----------------------------------------------------------------
  void unique_in(std::set<std::string>& seen, const std::string& name, const std::string& where, const Kind& k) {
    if (!seen.insert(name).second) fail(where, "'" + name + "' is declared twice in kind " + k.name);
  }

  // V3: the handlers of exit and down messages take exactly (addr, reason).
  void system_handler(const Handler& h) {
    if (h.params.size() != 2 || h.params[0].type != Type::Addr || h.params[1].type != Type::Reason)
      fail(h.where, "a handler of '" + h.tag + "' takes exactly (" + (h.tag == "exit" ? "from" : "who") +
                        ": addr, why: reason) (§14.3 V3)");
  }

  void check_kind(Kind& k) {
    if (k.params.size() > kMaxArgs) fail(k.where, "more than " + std::to_string(kMaxArgs) + " parameters");
    std::set<std::string> kind_names;
    for (const Param& p : k.params) {
      check_lower(p.name, p.where, "parameter name");
      check_type(p.type, p.where);
      unique_in(kind_names, p.name, p.where, k);
    }
    for (const Field& f : k.state) {
      check_lower(f.name, f.where, "state field name");
      check_type(f.type, f.where);
      unique_in(kind_names, f.name, f.where, k);
    }
    for (Field& f : k.state) {
      Scopes sc{&k, nullptr, false, true};
      expr(f.init, sc, 1);
      if (f.init.type != f.type)
        fail(f.where, "'" + f.name + "' is " + type_name(f.type) + ", initialised with " + type_name(f.init.type));
    }
    Scopes init_sc{&k, nullptr, true, true};
    check_body_weight(body(k.init, init_sc, 1), k.where + (k.where.empty() || k.where[0] == '/' ? "/init" : ""));
    std::set<std::string> tags;
    for (Handler& h : k.handlers) {
      bool system = v2_ && (h.tag == "exit" || h.tag == "down");
      if (!system) check_lower(h.tag, h.where, "message tag");
      if (!tags.insert(h.tag).second) fail(h.where, "kind " + k.name + " has two handlers for '" + h.tag + "'");
      if (h.params.size() > kMaxArgs) fail(h.where, "more than " + std::to_string(kMaxArgs) + " parameters");
      std::set<std::string> names = kind_names;
      std::vector<Type> types;
      for (const Param& p : h.params) {
        check_lower(p.name, p.where, "parameter name");
        check_type(p.type, p.where);
        if (!names.insert(p.name).second)
          fail(p.where, "'" + p.name + "' is already a parameter or state field of kind " + k.name);
        types.push_back(p.type);
      }
      if (system) system_handler(h);
      h.sig = intern_sig(h.tag, std::move(types));
      Scopes sc{&k, &h.params, true, false};
      check_body_weight(body(h.body, sc, 1), h.where);
    }
  }

  // --- §4.10 declared processes, supervisors (version 2: V9, V10, V13) ----------------
  void constants(std::vector<Expr>& args, const std::string& what) {
    for (Expr& e : args) {
      if (e.kind == ExprKind::Int)
        e.type = Type::Int;
      else if (e.kind == ExprKind::Addr) {
        e.type = Type::Addr;
        resolve_addr(e);
      } else if (e.kind == ExprKind::Reason && v2_) {  // V1
        e.type = Type::Reason;
        resolve_reason(e);
      } else
        fail(e.where, what + (v2_ ? " arguments must be constants: integer, addr or reason literals"
                                  : " arguments must be constants: integer or addr literals"));
    }
  }

  // V9: a significant child is transient or temporary, under a supervisor whose
  // auto_shutdown is not never ([R45]: OTP refuses the other combinations).
  void significant(Restart r, const SupervisorDecl& sup, const std::string& where) {
    if (r == Restart::Permanent)
      fail(where, "a significant child must be transient or temporary, not permanent (§14.3 V9)");
    if (sup.auto_shutdown == AutoShutdown::Never)
      fail(where,
           "supervisor " + sup.name + " has auto_shutdown never, so it can have no significant child (§14.3 V9)");
  }

  void check_decl(Decl& d, int32_t& sup_index, const SupervisorDecl* parent) {
    (void)parent;
    if (auto* pd = std::get_if<ProcessDecl>(&d)) {
      auto it = kind_index_.find(pd->kind);
      if (it == kind_index_.end()) fail(pd->where, "unknown kind '" + pd->kind + "'");
      pd->kind_index = it->second;
      constants(pd->args, "process");
      check_args(pd->args, p_.kinds[pd->kind_index], pd->where);
      return;
    }
    SupervisorDecl& s = std::get<SupervisorDecl>(d);
    s.index = sup_index++;
    if (s.intensity < 0) fail(s.where, "intensity must be at least 0");
    if (v2_ && s.intensity > kMaxIntensity2)  // V13
      fail(s.where,
           "intensity " + std::to_string(s.intensity) + " is above " + std::to_string(kMaxIntensity2) + " (§14.3 V13)");
    if (s.auto_shutdown != AutoShutdown::Never) need_v2(s.where, "auto_shutdown");  // V10
    for (Child& c : s.children) {
      if (c.significant) {
        const std::string& where = std::holds_alternative<ProcessDecl>(c.decl) ? std::get<ProcessDecl>(c.decl).where
                                                                               : std::get<SupervisorDecl>(c.decl).where;
        need_v2(where, "a significant child");
        significant(c.restart, s, where);
      }
      check_decl(c.decl, sup_index, &s);
    }
  }

  // --- §4.11 given messages -----------------------------------------------------
  void check_given(Given& g) {
    Expr to;
    to.kind = ExprKind::Addr;
    to.name = g.to;
    to.where = g.where;
    resolve_addr(to);
    check_lower(g.tag, g.where, "message tag");  // V3: exit and down are keywords in version 2
    if (g.args.size() > kMaxArgs) fail(g.where, "more than " + std::to_string(kMaxArgs) + " arguments");
    constants(g.args, "given message");
    std::vector<Type> types;
    for (const Expr& e : g.args) types.push_back(e.type);
    g.sig = intern_sig(g.tag, std::move(types));
  }

  Program& p_;
  bool v2_;
  std::map<std::string, int> kind_index_;
  std::set<std::string> declared_, processes_, supervisors_;
  std::map<std::string, int32_t> name_ids_;
  std::map<std::string, int32_t> sup_index_;  // supervisor name -> pre-order slot
  std::map<std::string, const SupervisorDecl*> sup_decl_;
  std::map<std::string, int32_t> sig_ids_;
};

}  // namespace

void check(Program& p) { Checker(p).run(); }

}  // namespace concord
