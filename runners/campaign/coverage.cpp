// runners/campaign/coverage.cpp: coverage counting (coverage.hpp). The lists of what the
// spec has come first, each built once from ops.def or from a switch over one of
// the model's enums (a new enumerator makes -Wswitch point here); then the walk
// over a program, the reading of a result, and the reports.
#include "runners/campaign/coverage.hpp"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <set>
#include <sstream>

#include "oracle/error.hpp"
#include "oracle/state.hpp"

namespace concord {
namespace {

// --- what the spec has -------------------------------------------------------------

// Each switch returns nullptr past the last enumerator, which ends the walk.
const char* stmt_form(StmtKind k) {
  switch (k) {
    case StmtKind::Assign: return "assign";
    case StmtKind::If: return "if";
    case StmtKind::Repeat: return "repeat";
    case StmtKind::Send: return "send";
    case StmtKind::Spawn: return "spawn";
    case StmtKind::Stop: return "stop";
    case StmtKind::Fail: return "fail";
    case StmtKind::Ignore: return "ignore";
    case StmtKind::Link: return "link";
    case StmtKind::Unlink: return "unlink";
    case StmtKind::Monitor: return "monitor";
    case StmtKind::Demonitor: return "demonitor";
    case StmtKind::TrapExit: return "trap_exit";
    case StmtKind::Exit: return "exit";
    case StmtKind::Call: return "call";
    case StmtKind::Reply: return "reply";
    case StmtKind::Api: return "api";
  }
  return nullptr;
}

const char* expr_form(ExprKind k) {
  switch (k) {
    case ExprKind::Int: return "int";
    case ExprKind::Addr: return "addr";
    case ExprKind::Self: return "self";
    case ExprKind::Var: return "var";
    case ExprKind::Unary: return "unary";
    case ExprKind::Binary: return "binary";
    case ExprKind::Reason: return "reason";
  }
  return nullptr;
}

const char* event_name(EventKind k) {  // SPEC §9.2
  switch (k) {
    case EventKind::Start: return "start";
    case EventKind::Deliver: return "deliver";
    case EventKind::Drop: return "drop";
    case EventKind::Exit: return "exit";
    case EventKind::Decision: return "decision";
    case EventKind::Signal: return "signal";
    case EventKind::Call: return "call";
    case EventKind::Resume: return "resume";
    case EventKind::Api: return "api";
  }
  return nullptr;
}

const char* action_name(Action a) {  // SPEC §7.2-7.4
  switch (a) {
    case Action::Restart: return "restart";
    case Action::Keep: return "keep";
    case Action::Remove: return "remove";
    case Action::GiveUp: return "give_up";
    case Action::AutoShutdown: return "auto_shutdown";
  }
  return nullptr;
}

const char* api_of(ApiOp op) {
  switch (op) {
    case ApiOp::TerminateChild:
    case ApiOp::RestartChild:
    case ApiOp::DeleteChild: return api_name(op);
  }
  return nullptr;
}

const char* restart_of(Restart r) {
  switch (r) {
    case Restart::Permanent:
    case Restart::Transient:
    case Restart::Temporary: return restart_name(r);
  }
  return nullptr;
}

const char* strategy_of(Strategy s) {
  switch (s) {
    case Strategy::OneForOne:
    case Strategy::OneForAll:
    case Strategy::RestForOne: return strategy_name(s);
  }
  return nullptr;
}

template <typename E, typename F>
std::vector<std::string> names_of(F name) {
  std::vector<std::string> out;
  for (int i = 0;; i++) {
    const char* n = name(static_cast<E>(i));
    if (!n) return out;
    out.push_back(n);
  }
}

// The runtime failure codes (SPEC §6.4; version 2: V2, and the reasons killed and
// noproc, §15); a program's own codes are counted under their names and stand in
// the list as kProgramCode.
const char* const kRuntimeCodes[] = {"NO_HANDLER", "DIV_ZERO", "SYSTEM_LIMIT", "NOPROC"};
const char* const kRuntimeCodes2[] = {"killed", "noproc", "NORMAL", "SHUTDOWN", "KILLED", "CALLING_SELF", "BAD_REPLY"};
const char* const kProgramCode = "<program code>";
bool is_runtime_code(const std::string& c) {
  return std::find(std::begin(kRuntimeCodes), std::end(kRuntimeCodes), c) != std::end(kRuntimeCodes) ||
         std::find(std::begin(kRuntimeCodes2), std::end(kRuntimeCodes2), c) != std::end(kRuntimeCodes2);
}

constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();

// What a category has: every name in report order, and those that only version 2
// programs can reach (SPEC §14-§22). A coverage that counted no version 2 program
// leaves those out of its reports, so that a version 1 campaign reads as before.
struct Known {
  std::vector<std::string> all;
  std::set<std::string> v2;
  void add(const std::string& name, bool v2_only = false) {
    all.push_back(name);
    if (v2_only) v2.insert(name);
  }
  void add2(const std::string& name) { add(name, true); }
};

Known known_constructs() {
  Known v;
  for (int i = 0; stmt_form(static_cast<StmtKind>(i)); i++)  // Ignore and after: version 2
    v.add(std::string("stmt:") + stmt_form(static_cast<StmtKind>(i)), i >= static_cast<int>(StmtKind::Ignore));
  // Refinements of statements: an if with an else, an else-if, repeat 0, a send
  // (or given message) that no handler matches.
  for (const char* s : {"stmt:if_else", "stmt:else_if", "stmt:repeat_0"}) v.add(s);
  for (const std::string& s : names_of<ExprKind>(expr_form)) v.add("expr:" + s, s == expr_form(ExprKind::Reason));
#define OP(e, json, text, prec) v.add(std::string("op:") + json);
#include "oracle/ops.def"
#undef OP
  for (const char* s : {"op:eq_addr", "op:ne_addr"}) v.add(s);  // == and != on addrs
  // Edge literals (SPEC §5): 0, ±1, the ends of int64, a shift count past 0..63,
  // a literal 0 divisor (DIV_ZERO).
  for (const char* s : {"literal:0", "literal:1", "literal:-1", "literal:INT64_MIN", "literal:INT64_MAX",
                        "literal:shift_past_63", "literal:zero_divisor"})
    v.add(s);
  // Spawns (SPEC §6.6): unsupervised, bound, under a supervisor with each restart type.
  for (const char* s : {"spawn:unsupervised", "spawn:bind", "spawn:under"}) v.add(s);
  for (const std::string& r : names_of<Restart>(restart_of)) v.add("spawn:under:" + r);
  // Messages: sends nobody handles, sends to spawned names (maybe never spawned),
  // sends by init bodies, handlers that fail midway after sending; given messages.
  // An addr literal of a spawned name whose number has 2 to 18 digits (one a run
  // can reach; 19 digits name nobody).
  v.add("addr:spawned_many_digits");
  for (const char* s : {"send:stray_tag", "send:mismatched_args", "send:to_spawned_name", "send:in_init",
                        "handler:fail_after_send", "given:message", "given:stray_tag", "given:to_spawned_name"})
    v.add(s);
  // Systems (SPEC §3, §7): roots, nesting, child restart types, strategies, intensity.
  for (const char* s : {"root:process", "root:supervisor", "supervisor:nested", "supervisor:childless"}) v.add(s);
  for (const std::string& r : names_of<Restart>(restart_of)) v.add("restart:" + r);
  for (const std::string& s : names_of<Strategy>(strategy_of)) v.add("strategy:" + s);
  for (const char* s : {"intensity:0", "intensity:positive"}) v.add(s);
  // Version 2: the reason type and its comparisons (§15), stop with a reason,
  // exit(e, kill), the handlers of exit and down messages (§16.4), what init may
  // now do (§19.1), calls that bind their reply (§18), each API request and its
  // forms (§20), significant children and auto_shutdown (§21).
  for (const char* s :
       {"type:reason", "op:eq_reason", "op:ne_reason", "stop:reason", "exit:kill", "handler:exit", "handler:down",
        "init:fail", "init:stop", "init:ignore", "init:link", "init:monitor", "init:trap_exit", "call:bind"})
    v.add2(s);
  for (const std::string& op : names_of<ApiOp>(api_of)) v.add2("api:" + op);
  for (const char* s : {"api:child_supervisor", "api:bind", "spawn:significant", "child:significant",
                        "auto_shutdown:any_significant", "auto_shutdown:all_significant"})
    v.add2(s);
  return v;
}

Known known_events() {
  Known v;
  for (const std::string& s : names_of<EventKind>(event_name))
    v.add(s, s == "signal" || s == "call" || s == "resume" || s == "api");
  // Refinements (SPEC §6.5-§8.2, §9.2): what started or restarted, deliveries of
  // given messages and among several ready processes (the scheduler's draw
  // mattered), what was dropped, why processes exited.
  for (const char* s :
       {"start:supervisor", "start:spawned", "start:restart", "start:supervisor_restart", "deliver:given",
        "deliver:choice", "drop:given", "drop:unknown", "drop:dead", "exit:normal", "exit:shutdown", "exit:failure"})
    v.add(s);
  // Version 2 (§22): each kind of signal with each effect it can have (§16.3), a
  // process's exit signal to itself, a kill, the reasons killed and noproc; exit and
  // down messages delivered; starts that fail or end normal at once (§19.1); each
  // API request with each result it can have (§20).
  for (const char* s : {"signal:link:exit", "signal:link:message", "signal:link:ignore", "signal:exit:exit",
                        "signal:exit:message", "signal:exit:ignore", "signal:exit:kill", "signal:exit:self",
                        "signal:down:message", "signal:call:exit", "signal:noproc", "exit:killed", "exit:noproc",
                        "deliver:exit", "deliver:down", "start:failed", "start:exited_normal"})
    v.add2(s);
  for (const char* s :
       {"api:terminate_child:ok", "api:terminate_child:not_found", "api:restart_child:ok", "api:restart_child:running",
        "api:restart_child:not_found", "api:restart_child:ignored", "api:restart_child:failed", "api:delete_child:ok",
        "api:delete_child:running", "api:delete_child:not_found"})
    v.add2(s);
  return v;
}

Known known_failures() {
  Known v;
  for (const char* c : kRuntimeCodes) v.add(c);
  v.add(kProgramCode);
  for (const char* c : kRuntimeCodes2) v.add2(c);
  return v;
}

// What a run reached of a runtime's capacities (coverage.hpp): the thresholds
// past which structures that grow have grown (a ready set or a name index past
// 1,024 ids: 16 words of 64 bits), long runs, spawned names of many digits.
Known known_capacity() {
  Known v;
  for (const char* s : {"ids:over_1024", "ids:over_10000", "mailbox:1000_deep", "children:100", "turns:1000",
                        "spawned_number:4_digits"})
    v.add(s);
  return v;
}

Known known_decisions() {
  Known v;
  for (const std::string& s : names_of<Action>(action_name)) v.add(s, s == "auto_shutdown");
  // A child supervisor restarted (after giving up, SPEC §7.2), a dynamic child restarted (§7.6).
  for (const char* s : {"restart:supervisor", "restart:spawned"}) v.add(s);
  // Version 2: the retry of a restart whose start failed, and giving up on one (§19.3).
  for (const char* s : {"restart:retry", "give_up:retry"}) v.add2(s);
  return v;
}

Known known_outcomes() {
  Known v;
  v.add("quiescent");
  v.add("turn_limit");
  v.add2("deadlock");  // §18.3
  return v;
}

// The digits of N in a spawned name k-N, or 0 for a declared name.
size_t spawned_number_digits(const std::string& name) {
  size_t dash = name.rfind('-');
  return dash == std::string::npos ? 0 : name.size() - dash - 1;
}

// --- a program's constructs ---------------------------------------------------------

struct ProgramWalk {
  Coverage::Counts& c;
  std::vector<Signature> handled;     // every handler signature of the program
  std::map<std::string, Type> scope;  // the visible variables of the code walked
  bool v2 = false;                    // a version 2 program

  void count(const std::string& what) { c[what]++; }

  // The type of e (check() resolves it; this reads unchecked programs too).
  Type type_of(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::Addr:
      case ExprKind::Self: return Type::Addr;
      case ExprKind::Reason: return Type::Reason;
      case ExprKind::Var: {
        auto it = scope.find(e.name);
        return it == scope.end() ? Type::Int : it->second;
      }
      case ExprKind::Int:
      case ExprKind::Unary:
      case ExprKind::Binary: return Type::Int;
    }
    return Type::Int;
  }

  void literal(int64_t v) {
    if (v == 0) count("literal:0");
    if (v == 1) count("literal:1");
    if (v == -1) count("literal:-1");
    if (v == kMin) count("literal:INT64_MIN");
    if (v == kMax) count("literal:INT64_MAX");
  }

  void expr(const Expr& e) {
    count(std::string("expr:") + expr_form(e.kind));
    if (e.kind == ExprKind::Int) literal(e.value);
    if (e.kind == ExprKind::Addr) {
      size_t digits = spawned_number_digits(e.name);
      if (digits >= 2 && digits <= 18) count("addr:spawned_many_digits");
    }
    if (e.kind == ExprKind::Unary || e.kind == ExprKind::Binary) {
      count(std::string("op:") + op_info(e.op).json);
      if ((e.op == Op::Eq || e.op == Op::Ne) && type_of(e.args[0]) == Type::Addr)
        count(e.op == Op::Eq ? "op:eq_addr" : "op:ne_addr");
      if ((e.op == Op::Eq || e.op == Op::Ne) && type_of(e.args[0]) == Type::Reason)
        count(e.op == Op::Eq ? "op:eq_reason" : "op:ne_reason");
      if (e.kind == ExprKind::Binary && e.args[1].kind == ExprKind::Int) {
        int64_t r = e.args[1].value;
        if ((e.op == Op::Shl || e.op == Op::Shr) && (r < 0 || r > 63)) count("literal:shift_past_63");
        if ((e.op == Op::Div || e.op == Op::Rem) && r == 0) count("literal:zero_divisor");
      }
    }
    for (const Expr& a : e.args) expr(a);
  }

  // The message `tag(args)`: handled by no kind, or by none with these types.
  void message(const std::string& prefix, const std::string& tag, const std::vector<Type>& types) {
    bool tag_known = false, matched = false;
    for (const Signature& s : handled) {
      tag_known = tag_known || s.tag == tag;
      matched = matched || (s.tag == tag && s.types == types);
    }
    if (!tag_known)
      count(prefix + ":stray_tag");
    else if (!matched)
      count(prefix + ":mismatched_args");
  }

  // `sent`: a send ran earlier in this handler (in execution order).
  void body(const std::vector<Stmt>& b, bool init, bool& sent) {
    for (const Stmt& s : b) {
      count(std::string("stmt:") + stmt_form(s.kind));
      for (const Expr& e : s.exprs) expr(e);
      switch (s.kind) {
        case StmtKind::If:
          if (!s.orelse.empty()) count("stmt:if_else");
          if (s.orelse.size() == 1 && s.orelse[0].kind == StmtKind::If) count("stmt:else_if");
          break;
        case StmtKind::Repeat:
          if (s.count == 0) count("stmt:repeat_0");
          break;
        case StmtKind::Send: {
          std::vector<Type> types;
          for (size_t i = 1; i < s.exprs.size(); i++) types.push_back(type_of(s.exprs[i]));
          message("send", s.name, types);
          if (s.exprs[0].kind == ExprKind::Addr && s.exprs[0].name.find('-') != std::string::npos)
            count("send:to_spawned_name");
          if (init) count("send:in_init");
          sent = true;
          break;
        }
        case StmtKind::Spawn:
          count(s.under.empty() ? "spawn:unsupervised" : "spawn:under");
          if (!s.under.empty()) count(std::string("spawn:under:") + restart_name(s.restart));
          if (!s.bind.empty()) count("spawn:bind");
          if (s.significant) count("spawn:significant");
          break;
        case StmtKind::Fail:
          if (sent) count("handler:fail_after_send");
          if (init && v2) count("init:fail");
          break;
        case StmtKind::Stop:
          if (!is_stop_normal(s)) count("stop:reason");
          if (init) count("init:stop");
          break;
        case StmtKind::Ignore: count("init:ignore"); break;
        case StmtKind::Link:
          if (init) count("init:link");
          break;
        case StmtKind::Monitor:
          if (init) count("init:monitor");
          break;
        case StmtKind::TrapExit:
          if (init) count("init:trap_exit");
          break;
        case StmtKind::Exit:
          if (s.kill) count("exit:kill");
          break;
        case StmtKind::Call:
          if (!s.bind.empty()) count("call:bind");
          break;
        case StmtKind::Api:
          count(std::string("api:") + api_name(s.api));
          if (s.exprs.empty()) count("api:child_supervisor");
          if (!s.bind.empty()) count("api:bind");
          break;
        case StmtKind::Assign:
        case StmtKind::Unlink:
        case StmtKind::Demonitor:
        case StmtKind::Reply: break;
      }
      body(s.body, init, sent);
      body(s.orelse, init, sent);
    }
  }

  void decl(const Decl& d, bool root) {
    if (auto* p = std::get_if<ProcessDecl>(&d)) {
      if (root) count("root:process");
      for (const Expr& e : p->args) expr(e);
      return;
    }
    const SupervisorDecl& s = std::get<SupervisorDecl>(d);
    count(root ? "root:supervisor" : "supervisor:nested");
    if (s.children.empty()) count("supervisor:childless");
    count(std::string("strategy:") + strategy_name(s.strategy));
    count(s.intensity == 0 ? "intensity:0" : "intensity:positive");
    if (s.auto_shutdown != AutoShutdown::Never)
      count(std::string("auto_shutdown:") + auto_shutdown_name(s.auto_shutdown));
    for (const Child& ch : s.children) {
      count(std::string("restart:") + restart_name(ch.restart));
      if (ch.significant) count("child:significant");
      decl(ch.decl, false);
    }
  }

  void typed(Type t) {
    if (t == Type::Reason) count("type:reason");
  }

  void program(const Program& p) {
    v2 = p.version >= 2;
    for (const Kind& k : p.kinds)
      for (const Handler& h : k.handlers) {
        Signature s{h.tag, {}};
        for (const Param& prm : h.params) s.types.push_back(prm.type);
        handled.push_back(std::move(s));
      }
    for (const Kind& k : p.kinds) {
      scope.clear();
      for (const Param& prm : k.params) scope[prm.name] = prm.type, typed(prm.type);
      for (const Field& f : k.state) expr(f.init);
      for (const Field& f : k.state) scope[f.name] = f.type, typed(f.type);
      bool sent = false;
      body(k.init, true, sent);
      for (const Handler& h : k.handlers) {
        if (v2 && (h.tag == "exit" || h.tag == "down")) count("handler:" + h.tag);
        std::map<std::string, Type> outer = scope;
        for (const Param& prm : h.params) scope[prm.name] = prm.type, typed(prm.type);
        sent = false;
        body(h.body, false, sent);
        scope = std::move(outer);
      }
    }
    scope.clear();
    std::map<std::string, const Kind*> kind_of;  // declared process -> its kind
    auto walk = [&](auto& self, const Decl& d) -> void {
      if (auto* pd = std::get_if<ProcessDecl>(&d)) {
        for (const Kind& k : p.kinds)
          if (k.name == pd->kind) kind_of[pd->name] = &k;
        return;
      }
      for (const Child& ch : std::get<SupervisorDecl>(d).children) self(self, ch.decl);
    };
    for (const Decl& d : p.system) {
      decl(d, true);
      walk(walk, d);
    }
    for (const Given& g : p.given) {
      count("given:message");
      std::vector<Type> types;
      for (const Expr& e : g.args) {
        expr(e);
        types.push_back(type_of(e));
      }
      if (g.to.find('-') != std::string::npos) count("given:to_spawned_name");
      size_t digits = spawned_number_digits(g.to);
      if (digits >= 2 && digits <= 18) count("addr:spawned_many_digits");
      auto it = kind_of.find(g.to);
      if (it == kind_of.end()) continue;
      bool matched = false;
      for (const Handler& h : it->second->handlers) {
        std::vector<Type> want;
        for (const Param& prm : h.params) want.push_back(prm.type);
        matched = matched || (h.tag == g.tag && want == types);
      }
      if (!matched) count("given:stray_tag");
    }
  }
};

// --- reports --------------------------------------------------------------------------

void add_counts(Coverage::Counts& into, const Coverage::Counts& from) {
  for (const auto& [k, n] : from) into[k] += n;
}

bool seen(const Coverage::Counts& c, const std::string& name) {
  auto it = c.find(name);
  return it != c.end() && it->second > 0;
}

const std::map<std::string, Known>& known_table() {
  static const std::map<std::string, Known> k{{"constructs", known_constructs()}, {"events", known_events()},
                                              {"failures", known_failures()},     {"decisions", known_decisions()},
                                              {"outcomes", known_outcomes()},     {"capacity", known_capacity()}};
  return k;
}

bool version2_only(const std::string& category, const std::string& name) {
  auto it = known_table().find(category);
  return it != known_table().end() && it->second.v2.count(name) > 0;
}

// The category's known names that this coverage reports: version 2's only once a
// version 2 program was counted (or the name was seen).
std::vector<std::string> reported_known(const Coverage& cov, const std::string& category) {
  std::vector<std::string> out;
  for (const std::string& name : Coverage::known(category))
    if (cov.programs_v2 > 0 || !version2_only(category, name) || seen(cov.counts(category), name)) out.push_back(name);
  return out;
}

// The category's names in report order: the known ones, then the others sorted.
std::vector<std::string> report_names(const Coverage& cov, const std::string& category) {
  std::vector<std::string> out = reported_known(cov, category);
  std::set<std::string> listed(Coverage::known(category).begin(), Coverage::known(category).end());
  for (const auto& [k, n] : cov.counts(category))
    if (!listed.count(k)) out.push_back(k);
  return out;
}

}  // namespace

const std::vector<std::string>& Coverage::categories() {
  static const std::vector<std::string> v{"constructs", "events", "failures", "decisions", "outcomes", "capacity"};
  return v;
}

const std::vector<std::string>& Coverage::known(const std::string& category) {
  static const std::vector<std::string> none;
  auto it = known_table().find(category);
  return it == known_table().end() ? none : it->second.all;
}

namespace {
Coverage::Counts Coverage::*member_of(const std::string& category) {
  if (category == "constructs") return &Coverage::constructs;
  if (category == "events") return &Coverage::events;
  if (category == "failures") return &Coverage::failures;
  if (category == "decisions") return &Coverage::decisions;
  if (category == "outcomes") return &Coverage::outcomes;
  if (category == "capacity") return &Coverage::capacity;
  throw InputError("", "unknown coverage category '" + category + "'");
}
}  // namespace

const Coverage::Counts& Coverage::counts(const std::string& category) const { return this->*member_of(category); }

void Coverage::add_program(const Program& p) {
  programs++;
  if (p.version >= 2) programs_v2++;
  ProgramWalk{constructs, {}, {}}.program(p);
}

void Coverage::add_result(const ojson& r, const RunSize* size) {
  results++;
  if (!r.value("ok", false)) {
    outcomes["error:" + r.value("code", std::string("?"))]++;
    return;
  }
  outcomes[r.at("outcome").get<std::string>()]++;
  // Capacities: ids, turns, child lists and spawned numbers from the result, the
  // mailbox depth from the oracle's measure.
  auto reach = [&](const char* peak, uint64_t v, std::initializer_list<std::pair<uint64_t, const char*>> past) {
    peaks[peak] = std::max(peaks[peak], v);
    for (const auto& [threshold, name] : past)
      if (v >= threshold) capacity[name]++;
  };
  uint64_t digits = 0;
  for (const ojson& p : r.at("processes"))
    digits = std::max<uint64_t>(digits, spawned_number_digits(p.at("name").get<std::string>()));
  uint64_t children = 0;
  for (const ojson& s : r.at("supervisors")) children = std::max<uint64_t>(children, s.at("children").size());
  reach("ids", r.at("processes").size(), {{1025, "ids:over_1024"}, {10001, "ids:over_10000"}});
  reach("turns", r.at("turns").get<uint64_t>(), {{1000, "turns:1000"}});
  reach("children", children, {{100, "children:100"}});
  reach("spawned_number_digits", digits, {{4, "spawned_number:4_digits"}});
  if (size) reach("mailbox", static_cast<uint64_t>(size->deepest_mailbox), {{1000, "mailbox:1000_deep"}});
  std::set<std::string> started, supervisors;
  // Version 2 (§19): a worker whose start event is the last event about it when it
  // exits ended its start (init failed, stopped or ignored) unless a signal or its
  // supervisor ended it; whose last start failed, so that its next restart is a retry.
  std::set<std::string> just_started, failed_start;
  for (const ojson& e : r.at("journal")) {
    std::string ev = e.at("ev").get<std::string>();
    events[ev]++;
    if (ev == "start") {
      std::string name = e.at("name").get<std::string>();
      bool sup = e.at("kind") == "supervisor";
      if (sup) supervisors.insert(name);
      if (sup) events["start:supervisor"]++;
      if (name.find('-') != std::string::npos) events["start:spawned"]++;
      if (!started.insert(name).second) events[sup ? "start:supervisor_restart" : "start:restart"]++;
      if (!sup) just_started.insert(name);
    } else if (ev == "deliver" || ev == "call") {
      just_started.erase(e.at("to").get<std::string>());
      if (ev == "deliver" && e.at("from").is_null()) events["deliver:given"]++;
      if (ev == "deliver" && e.at("ready").get<int64_t>() > 1) events["deliver:choice"]++;  // the draw mattered
      std::string tag = e.at("tag").get<std::string>();
      if (ev == "deliver" && (tag == "exit" || tag == "down") && e.at("args").size() == 2 &&
          e.at("args")[1].is_string())
        events["deliver:" + tag]++;
    } else if (ev == "drop") {
      if (e.at("from").is_null()) events["drop:given"]++;
      events[started.count(e.at("to").get<std::string>()) ? "drop:dead" : "drop:unknown"]++;
    } else if (ev == "exit") {
      std::string reason = e.at("reason").get<std::string>(), name = e.at("name").get<std::string>();
      events[reason == "normal" || reason == "shutdown" ? "exit:" + reason : std::string("exit:failure")]++;
      if (reason == "killed" || reason == "noproc") events["exit:" + reason]++;
      bool ended_start = just_started.erase(name) > 0 && reason != "shutdown" && reason != "killed";
      if (ended_start) events[reason == "normal" ? "start:exited_normal" : "start:failed"]++;
      if (ended_start && reason != "normal")
        failed_start.insert(name);
      else
        failed_start.erase(name);
    } else if (ev == "signal") {
      std::string kind = e.at("kind").get<std::string>(), reason = e.at("reason").get<std::string>();
      just_started.erase(e.at("to").get<std::string>());
      events["signal:" + kind + ":" + e.at("effect").get<std::string>()]++;
      if (reason == "kill") events["signal:exit:kill"]++;
      if (reason == "noproc") events["signal:noproc"]++;
      if (kind == "exit" && e.at("from") == e.at("to")) events["signal:exit:self"]++;
    } else if (ev == "resume") {
      just_started.erase(e.at("to").get<std::string>());
    } else if (ev == "api") {
      events["api:" + e.at("op").get<std::string>() + ":" + e.at("result").get<std::string>()]++;
    } else if (ev == "decision") {
      std::string action = e.at("action").get<std::string>(), child = e.at("process").get<std::string>();
      if ((action == "restart" || action == "give_up") && failed_start.count(child)) decisions[action + ":retry"]++;
    }
  }
  for (const ojson& f : r.at("failures")) failures[f.at("code").get<std::string>()]++;
  for (const ojson& d : r.at("decisions")) {
    std::string action = d.at("action").get<std::string>(), child = d.at("process").get<std::string>();
    decisions[action]++;
    if (action == "restart" && supervisors.count(child)) decisions["restart:supervisor"]++;
    if (action == "restart" && child.find('-') != std::string::npos) decisions["restart:spawned"]++;
  }
}

void Coverage::merge(const Coverage& o) {
  programs += o.programs;
  programs_v2 += o.programs_v2;
  results += o.results;
  add_counts(constructs, o.constructs);
  add_counts(events, o.events);
  add_counts(failures, o.failures);
  add_counts(decisions, o.decisions);
  add_counts(outcomes, o.outcomes);
  add_counts(capacity, o.capacity);
  for (const auto& [k, v] : o.peaks) peaks[k] = std::max(peaks[k], v);
}

std::vector<std::string> Coverage::blind_spots() const {
  std::vector<std::string> out;
  for (const std::string& cat : categories()) {
    const Counts& c = counts(cat);
    for (const std::string& name : reported_known(*this, cat)) {
      bool hit = seen(c, name);
      if (cat == "failures" && name == kProgramCode)
        for (const auto& [code, n] : c) hit = hit || (n > 0 && !is_runtime_code(code));
      if (!hit) out.push_back(cat + ":" + name);
    }
  }
  return out;
}

ojson Coverage::to_json() const {
  ojson j;
  j["programs"] = programs;
  if (programs_v2 > 0) j["programs_v2"] = programs_v2;  // absent: a version 1 campaign's report, as before
  j["results"] = results;
  for (const std::string& cat : categories()) {
    const Counts& c = counts(cat);
    ojson o = ojson::object();
    for (const std::string& name : report_names(*this, cat)) {
      if (cat == "failures" && name == kProgramCode) continue;  // a pseudo-name: the codes themselves are listed
      auto it = c.find(name);
      o[name] = it == c.end() ? 0 : it->second;
    }
    j[cat] = std::move(o);
  }
  j["peaks"] = ojson::object();
  for (const auto& [k, v] : peaks) j["peaks"][k] = v;
  j["blind_spots"] = blind_spots();
  return j;
}

Coverage Coverage::from_json(const ojson& j) {
  Coverage c;
  try {
    c.programs = j.at("programs").get<uint64_t>();
    c.programs_v2 = j.value("programs_v2", uint64_t{0});
    c.results = j.at("results").get<uint64_t>();
    for (const std::string& cat : categories()) {
      if (cat == "capacity" && !j.contains(cat)) continue;  // a report from before it existed
      Counts& into = c.*member_of(cat);
      for (const auto& [name, n] : j.at(cat).items())
        if (n.get<uint64_t>() > 0) into[name] = n.get<uint64_t>();
    }
    if (j.contains("peaks"))
      for (const auto& [name, n] : j.at("peaks").items()) c.peaks[name] = n.get<uint64_t>();
  } catch (const ojson::exception& e) {
    throw InputError("", std::string("not a coverage object: ") + e.what());
  }
  return c;
}

std::vector<std::string> Coverage::reported(const std::string& category) const {
  return reported_known(*this, category);
}

size_t Coverage::known_seen(const std::string& category) const {
  size_t missed = 0;
  for (const std::string& spot : blind_spots()) missed += spot.rfind(category + ":", 0) == 0;
  return reported_known(*this, category).size() - missed;
}

std::string Coverage::to_text() const {
  std::ostringstream out;
  std::vector<std::string> spots = blind_spots();
  out << "coverage: " << programs << " programs, " << results << " results, " << spots.size() << " blind spots\n";
  for (const std::string& cat : categories()) {
    const Counts& c = counts(cat);
    out << cat << " (" << known_seen(cat) << "/" << reported_known(*this, cat).size() << " known seen)\n";
    std::vector<std::string> cells;
    size_t width = 0;
    for (const std::string& name : report_names(*this, cat)) {
      if (cat == "failures" && name == kProgramCode) continue;
      auto it = c.find(name);
      cells.push_back("  " + name + " " + (it == c.end() || it->second == 0 ? "-" : std::to_string(it->second)));
      width = std::max(width, cells.back().size() + 1);
    }
    size_t per_line = std::max<size_t>(1, 120 / std::max<size_t>(width, 1));
    for (size_t i = 0; i < cells.size(); i++) {
      bool last = i + 1 == cells.size() || (i + 1) % per_line == 0;
      out << cells[i] << (last ? "\n" : std::string(width - cells[i].size(), ' '));
    }
    if (cat == "capacity" && !peaks.empty()) {
      out << "  largest reached:";
      const char* sep = " ";
      for (const auto& [k, v] : peaks) {
        out << sep << k << " " << v;
        sep = ", ";
      }
      out << "\n";
    }
  }
  if (!spots.empty()) {
    out << "blind spots:";
    for (const std::string& s : spots) out << " " << s;
    out << "\n";
  }
  return out.str();
}

}  // namespace concord
