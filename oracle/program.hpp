// oracle/program.hpp: the program model (SPEC §3; version 2: §14, §23), plain data
// shared by the oracle, the readers and printers, the emitters, the generators and
// the shrinker.
//
// Node kinds are closed enums walked with switches, so adding a node kind makes
// every walker that forgets it fail to compile cleanly (-Wswitch). Each node keeps
// `where` (a JSON pointer or line:column) for error messages; `where` and the
// fields marked "resolved" are filled by readers and by check(), and are not part
// of a program's identity (operator== ignores them).
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace concord {

enum class Type : uint8_t { Int, Addr, Reason };  // Reason: version 2 (§15)

enum class Op : uint8_t {
#define OP(e, json, text, prec) e,
#include "ops.def"
#undef OP
};

struct OpInfo {
  const char* json;  // the "op" value in the JSON form
  const char* text;  // the symbol in the text syntax
  int prec;          // 0: unary; binary operators bind tighter as it grows
};
const OpInfo& op_info(Op op);
bool is_unary(Op op);

// Reason (version 2): a reason literal, `normal`, `shutdown`, `killed`, `noproc` or
// a code (§15); its word is in `name`.
enum class ExprKind : uint8_t { Int, Addr, Self, Var, Unary, Binary, Reason };
enum class Scope : uint8_t { Param, Field, Arg };  // where a Var lives

struct Expr {
  ExprKind kind = ExprKind::Int;
  int64_t value = 0;       // Int: the literal
  std::string name;        // Addr: process name; Var: variable name; Reason: the word or code
  Op op = Op::Neg;         // Unary, Binary
  std::vector<Expr> args;  // Unary: {a}; Binary: {lhs, rhs}
  std::string where;       // source place
  Type type = Type::Int;   // resolved: the expression's type
  Scope scope = Scope::Param;  // resolved, Var: which frame slot array
  int32_t slot = -1;       // resolved, Var: index in its scope; Addr, Reason: name id
};

// The statements, one line each (SPEC §6; version 2: §16.2, §18, §19, §20). The
// operands each kind keeps in Stmt's fields are listed beside Stmt below.
enum class StmtKind : uint8_t {
  Assign,     // f = e
  If,         // if c { A } else { B }
  Repeat,     // repeat n { A }
  Send,       // send t(a...) to e
  Spawn,      // [f =] spawn K(a...) [under s r [significant]]
  Stop,       // stop [e]: the process exits with reason e (normal when absent)
  Fail,       // fail C
  // version 2
  Ignore,     // ignore: init returns ignore (§19.1)
  Link,       // link(e)
  Unlink,     // unlink(e)
  Monitor,    // monitor(e)
  Demonitor,  // demonitor(e)
  TrapExit,   // trap_exit(e)
  Exit,       // exit(e, r) or exit(e, kill): an exit signal (§16.3)
  Call,       // [f =] call t(a...) to e (§18.1)
  Reply,      // reply e (§18.1)
  Api,        // [f =] terminate_child|restart_child|delete_child(s, c) (§20)
};
enum class Restart : uint8_t { Permanent, Transient, Temporary };
enum class Strategy : uint8_t { OneForOne, OneForAll, RestForOne };
enum class AutoShutdown : uint8_t { Never, AnySignificant, AllSignificant };  // §21
enum class ApiOp : uint8_t { TerminateChild, RestartChild, DeleteChild };      // §20

struct Stmt {
  StmtKind kind = StmtKind::Stop;
  std::string name;          // Assign: field; Send, Call: tag; Spawn: kind; Fail: code;
                             // Api: the child supervisor ("" when the child is an addr)
  std::vector<Expr> exprs;   // Assign: {value}; If: {cond}; Send, Call: {to, args...};
                             // Spawn: args; Stop: {} (normal) or {reason}; Link, Unlink,
                             // Monitor, Demonitor: {to}; TrapExit, Reply: {value};
                             // Exit: {to, reason} or {to} with kill; Api: {child} or {}
  std::vector<Stmt> body;    // If: then-branch; Repeat: body
  std::vector<Stmt> orelse;  // If: else-branch
  int64_t count = 0;         // Repeat: literal bound
  std::string bind;          // Spawn, Call, Api: the field that receives the result ("" if none)
  std::string under;         // Spawn: supervisor of the new child; Api: the supervisor s ("" if none)
  Restart restart = Restart::Permanent;  // Spawn under: the child's restart type
  bool significant = false;  // Spawn under: a significant child (§21)
  bool kill = false;         // Exit: exit(e, kill)
  ApiOp api = ApiOp::TerminateChild;     // Api: which request
  std::string where;
  int32_t slot = -1;         // resolved: Assign field; Send, Call signature; Spawn kind;
                             // Api: child supervisor index (-1: an addr child)
  int32_t slot2 = -1;        // resolved: Spawn, Call, Api bind field (-1 none)
  int32_t slot3 = -1;        // resolved: Spawn, Api supervisor index (-1 none)
};

struct Param {
  std::string name;
  Type type = Type::Int;
  std::string where;
};

struct Field {
  std::string name;
  Type type = Type::Int;
  Expr init;  // over the kind's parameters and self
  std::string where;
};

struct Handler {
  std::string tag;
  std::vector<Param> params;
  std::vector<Stmt> body;
  std::string where;
  int32_t sig = -1;  // resolved: signature id (tag and parameter types)
};

struct Kind {
  std::string name;
  std::vector<Param> params;
  std::vector<Field> state;
  std::vector<Stmt> init;
  std::vector<Handler> handlers;
  std::string where;
  std::vector<int32_t> handler_of_sig;  // resolved: signature id -> handler, -1 none
};

struct ProcessDecl {
  std::string name;
  std::string kind;
  std::vector<Expr> args;  // constants
  std::string where;
  int32_t kind_index = -1;  // resolved
};

struct Child;

struct SupervisorDecl {
  std::string name;
  Strategy strategy = Strategy::OneForOne;
  int64_t intensity = 0;  // OTP's MaxR; the period never expires
  AutoShutdown auto_shutdown = AutoShutdown::Never;  // version 2 (§21)
  std::vector<Child> children;
  std::string where;
  int32_t index = -1;  // resolved: position in a depth-first pre-order walk
};

using Decl = std::variant<ProcessDecl, SupervisorDecl>;

struct Child {
  Restart restart = Restart::Permanent;
  Decl decl;
  bool significant = false;  // version 2 (§21)
};

struct Given {
  std::string to;  // a process name (declared, or spawned form)
  std::string tag;
  std::vector<Expr> args;  // constants
  std::string where;
  int32_t sig = -1;  // resolved
};

// A message signature: tag plus argument types. Handlers and send sites are
// matched by signature id, so delivery costs one array lookup.
struct Signature {
  std::string tag;
  std::vector<Type> types;
};

struct Program {
  int version = 1;  // 1 or 2 (§14.1)
  std::vector<Kind> kinds;
  std::vector<Decl> system;  // roots, started in this order
  std::vector<Given> given;

  // Resolved by check():
  std::vector<Signature> sigs;                   // by signature id
  std::vector<std::string> names;                // name ids of addr literals, declared names and
                                                 // reason literals (version 2)
  int32_t supervisor_count = 0;                  // declared supervisors
  int32_t exit_sig = -1, down_sig = -1;          // version 2: exit(addr, reason), down(addr, reason)
  bool checked = false;
};

bool operator==(const Expr& a, const Expr& b);
bool operator==(const Stmt& a, const Stmt& b);
bool operator==(const Param& a, const Param& b);
bool operator==(const Field& a, const Field& b);
bool operator==(const Handler& a, const Handler& b);
bool operator==(const Kind& a, const Kind& b);
bool operator==(const ProcessDecl& a, const ProcessDecl& b);
bool operator==(const SupervisorDecl& a, const SupervisorDecl& b);
bool operator==(const Child& a, const Child& b);
bool operator==(const Given& a, const Given& b);
bool operator==(const Program& a, const Program& b);  // the source program only

const char* type_name(Type t);
const char* restart_name(Restart r);
const char* strategy_name(Strategy s);
const char* auto_shutdown_name(AutoShutdown a);
const char* api_name(ApiOp op);
bool parse_type(const std::string& s, Type& out);
bool parse_restart(const std::string& s, Restart& out);
bool parse_strategy(const std::string& s, Strategy& out);
bool parse_auto_shutdown(const std::string& s, AutoShutdown& out);
bool parse_api(const std::string& s, ApiOp& out);
// The words of reason values that are not codes (§15).
bool is_reason_word(const std::string& s);
// A stop whose reason is normal: `stop;`, or `stop normal;` with the literal (§23).
bool is_stop_normal(const Stmt& s);
bool parse_op(const std::string& json, Op& out);

}  // namespace concord
