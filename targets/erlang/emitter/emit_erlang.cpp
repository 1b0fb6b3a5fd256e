// targets/erlang/emitter/emit_erlang.cpp: prints a checked program as the module
// `concord_prog` of targets/erlang/README.md ("The emitted module's contract").
// Kinds and supervisors become clauses over their indexes, handlers become one
// function each, and bodies thread the state tuple through fresh variables
// S0, S1, ... (Erlang variables are bound once). Bodies and expressions are walked
// by targets/common/walker.hpp; operators are calls of the runtime's concord_ops
// (imported), which keeps every int in [-2^63, 2^63-1] (Erlang integers are unbounded).
#include "emit_erlang.hpp"

#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

#include "targets/common/code_writer.hpp"
#include "targets/common/unsupported.hpp"
#include "targets/common/walker.hpp"

namespace concord {
namespace {

// The operators of SPEC §5, imported from the runtime's concord_ops: compiled once
// with the runtime, not again with every program.
const char* const kOperators =
    "[add/2, sub/2, mul/2, dv/2, rm/2, shl/2, shr/2, band_/2, bor_/2, bxor_/2, lt/2, le/2, gt/2, ge/2, eq/2, ne/2, "
    "neg/1, not_/1, bnot_/1, rep/3]";

// A binary literal: printable ASCII as itself but " and \, everything else in
// octal, so nothing from the program can end the literal or be read as code.
std::string bin(const std::string& s) {
  std::string out = "<<\"";
  for (unsigned char ch : s) {
    if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\') {
      out += static_cast<char>(ch);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o", ch);
      out += buf;
    }
  }
  return out + "\">>";
}

// SPEC §15: normal, shutdown, killed and noproc are OTP's own atoms; a code is
// {fail, Code}, the reason `fail C` exits with.
std::string reason_term(const std::string& word) {
  if (word == "normal" || word == "shutdown" || word == "killed" || word == "noproc") return word;
  return "{fail, " + bin(word) + "}";
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

// The prelude function of an operator; Erlang reserves div, rem, not, bnot, band,
// bor and bxor, hence dv, rm and the trailing underscores.
const char* op_function(Op op) {
  switch (op) {
    case Op::Neg: return "neg";
    case Op::Not: return "not_";
    case Op::BNot: return "bnot_";
    case Op::Mul: return "mul";
    case Op::Div: return "dv";
    case Op::Rem: return "rm";
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Shl: return "shl";
    case Op::Shr: return "shr";
    case Op::Lt: return "lt";
    case Op::Le: return "le";
    case Op::Gt: return "gt";
    case Op::Ge: return "ge";
    case Op::Eq: return "eq";
    case Op::Ne: return "ne";
    case Op::BAnd: return "band_";
    case Op::BXor: return "bxor_";
    case Op::BOr: return "bor_";
  }
  return "?";
}

class ErlangEmitter : public Walker {
 public:
  // `free`: the module of the erlang target's free runs (SPEC §25): the same contract,
  // with concord_free_worker as the workers' glue and supervisors started without
  // the conductor (concord_free_sup); otherwise the conducted module.
  ErlangEmitter(const Program& p, bool free)
      : p_(p), free_(free), glue_(free ? "concord_free_worker" : "concord_worker") {
    if (!p.checked) throw std::logic_error("emit_erlang needs a program that check() accepted");
    sups_.resize(static_cast<size_t>(p.supervisor_count));
    for (const Decl& d : p_.system)
      if (auto* s = std::get_if<SupervisorDecl>(&d)) collect(*s, "none");
  }

  std::string run() {
    w_.line(
        free_
            ? "%% Emitted by concord (targets/erlang/emitter) for the erlang target's free runs (SPEC 25). Do not edit."
            : "%% Emitted by concord (targets/erlang/emitter) for the erlang target. Do not edit.");
    w_.line("%% The contract with the runtime (targets/erlang/runtime) is targets/erlang/README.md.");
    w_.line("-module(concord_prog).");
    w_.line("%% init/1 also serves the supervisor behaviour (its {supervisor, C, Idx} clauses);");
    w_.line("%% declaring -behaviour(supervisor) as well would only warn that both define init/1.");
    w_.line("-behaviour(gen_server).");
    w_.line("-export([init/1, handle_info/2, handle_call/3, handle_cast/2, terminate/2]).");
    w_.line("-export([kind_name/1, spawn_prefix/1, supervisors/0, roots/0, given/0]).");
    w_.line("-export([new_state/3, init_body/2, dispatch/4, fields/2, version/0]).");
    w_.line("%% A state built just before a stop or fail is discarded with the process (SPEC 6.4).");
    w_.line("-compile(nowarn_ignored).");
    w_.line("%% The operators of SPEC section 5, exact on int64 (targets/erlang/runtime/concord_ops.erl).");
    w_.line("-import(concord_ops, " + std::string(kOperators) + ").");
    callbacks();
    w_.line("version() -> " + std::to_string(p_.version) + ".");
    system();
    kinds();
    for (size_t k = 0; k < p_.kinds.size(); k++)
      for (size_t h = 0; h < p_.kinds[k].handlers.size(); h++) handler(k, h);
    return w_.str();
  }

 private:
  // --- expressions: one hook per operand shape ---------------------------------------
  std::string on_int(const Expr& e) override { return std::to_string(e.value); }  // MIN is fine in Erlang
  std::string on_addr(const Expr& e) override { return bin(e.name); }
  std::string on_self(const Expr&) override { return element(1); }
  // A reason (SPEC §15) is the very term OTP exits with: the atoms normal,
  // shutdown, killed, noproc, and {fail, Code} for a code, as `fail C` exits.
  std::string on_reason(const Expr& e) override { return reason_term(e.name); }
  std::string on_var(const Expr& e) override {
    switch (e.scope) {
      case Scope::Param: return element(2 + e.slot);
      case Scope::Field: return element(field_position(e.slot));
      case Scope::Arg: return arg(e.slot);
    }
    return "?";
  }
  std::string on_unary(const Expr& e, const std::string& arg) override {
    return std::string(op_function(e.op)) + "(" + arg + ")";
  }
  std::string on_binary(const Expr& e, const std::string& lhs, const std::string& rhs) override {
    return std::string(op_function(e.op)) + "(" + lhs + ", " + rhs + ")";
  }

  // A slot of the state tuple {Self, Params..., Fields...} (1-based).
  std::string element(int32_t position) {
    state_read_ = true;
    return "element(" + std::to_string(position) + ", " + state_ + ")";
  }
  // Handler parameter i (0-based) is the variable A<i+1>; unread ones are named _A<i+1>.
  std::string arg(int32_t i) {
    args_read_[static_cast<size_t>(i)] = true;
    return "A" + std::to_string(i + 1);
  }
  int32_t field_position(int32_t field) const { return 2 + static_cast<int32_t>(kind_->params.size()) + field; }

  std::string exprs(const std::vector<Expr>& es, size_t from) {
    std::vector<std::string> out;
    for (size_t i = from; i < es.size(); i++) out.push_back(expr(es[i]));
    return join(out);
  }

  // --- statements: one hook per kind; each line ends in "," because a body's value
  // is the state variable printed after it ------------------------------------------------
  void on_assign(const Stmt& s) override { set_field(s.slot, expr(s.exprs[0])); }

  // `case` evaluates the else branch for 0 and the then branch otherwise; both start
  // from the same state, and the case's value is the state after the branch taken.
  void on_if(const Stmt& s) override {
    std::string in = state_, cond = expr(s.exprs[0]), out = fresh();
    w_.open(out + " = case " + cond + " of");
    clause("0", s.orelse, ";");
    state_ = in;
    clause("_", s.body, "");
    w_.close("end,");
    state_ = out;
  }

  // The fun's parameter is a new name too: a name already bound outside would be
  // matched against, not bound, inside the fun.
  void on_repeat(const Stmt& s) override {
    std::string in = state_, out = fresh();
    state_ = fresh();
    w_.open(out + " = rep(" + std::to_string(s.count) + ", fun(" + state_ + ") ->");
    body(s.body);
    w_.line(state_);
    w_.close("end, " + in + "),");
    state_ = out;
  }

  void on_send(const Stmt& s) override {
    std::string to = expr(s.exprs[0]);
    w_.line(glue_ + ":send(" + to + ", " + bin(s.name) + ", [" + exprs(s.exprs, 1) + "]),");
  }

  // Without `under` the restart type means nothing; the model's default is printed.
  void on_spawn(const Stmt& s) override {
    std::string sup = s.slot3 >= 0 ? std::to_string(s.slot3) : "none";
    // A significant dynamic child (SPEC §21) is {Restart, significant}.
    std::string restart = s.significant ? "{" + std::string(restart_name(s.restart)) + ", significant}"
                                        : std::string(restart_name(s.restart));
    std::string call = glue_ + ":spawn(?MODULE, " + std::to_string(s.slot) + ", [" + exprs(s.exprs, 0) + "], " + sup +
                       ", " + restart + ")";
    if (s.slot2 >= 0)
      set_field(s.slot2, call);
    else
      w_.line(call + ",");
  }

  // The runtime catches these throws and ends the turn with the exit (in init:
  // fails the start, SPEC §19.1). `stop e` exits with the reason e (§16.2).
  void on_stop(const Stmt& s) override {
    w_.line("throw({concord_exit, " + (s.exprs.empty() ? std::string("normal") : expr(s.exprs[0])) + "}),");
  }
  void on_ignore(const Stmt&) override { w_.line("throw(concord_ignore),"); }

  // SPEC §16.2: the glue does each for real (concord_worker), the conductor keeps
  // the books and the order. Not yet with supervisors: a supervised exit's
  // pending item against held signals (§17.2) is still to be written.
  void on_trap_exit(const Stmt& s) override { w_.line(glue_ + ":trap_exit(" + expr(s.exprs[0]) + "),"); }
  void on_link(const Stmt& s) override { glue("link", s); }
  void on_unlink(const Stmt& s) override { glue("unlink", s); }
  void on_monitor(const Stmt& s) override { glue("monitor", s); }
  void on_demonitor(const Stmt& s) override { glue("demonitor", s); }
  // SPEC §18: the glue makes the real gen_server:call and gen_server:reply.
  void on_call(const Stmt& s) override {
    std::string to = expr(s.exprs[0]);
    std::string args = exprs(s.exprs, 1);
    const char* type = "any";
    if (s.slot2 >= 0) {
      switch (kind_->state[static_cast<size_t>(s.slot2)].type) {
        case Type::Int: type = "int"; break;
        case Type::Addr: type = "addr"; break;
        case Type::Reason: type = "reason"; break;
      }
    }
    // The state so far goes along: a run can end while the caller waits (deadlock).
    std::string call = glue_ + ":call(" + to + ", " + bin(s.name) + ", [" + args + "], " + type + ", " + state_ + ")";
    if (s.slot2 >= 0)
      set_field(s.slot2, call);
    else
      w_.line(call + ",");
  }
  // SPEC §20: the glue asks OTP's supervisor (supervisor:terminate_child/2 ...);
  // the child is named by its id, its name.
  void on_api(const Stmt& s) override {
    std::string child = s.exprs.empty() ? bin(s.name) : expr(s.exprs[0]);
    std::string call = glue_ + ":api(" + api_name(s.api) + ", " + std::to_string(s.slot3) + ", " + child + ")";
    if (s.slot2 >= 0)
      set_field(s.slot2, call);
    else
      w_.line(call + ",");
  }
  void on_reply(const Stmt& s) override { w_.line(glue_ + ":reply(" + expr(s.exprs[0]) + "),"); }

  void on_exit(const Stmt& s) override {
    unsupervised_only("exit");
    std::string to = expr(s.exprs[0]);
    w_.line(glue_ + ":exit_signal(" + to + ", " + (s.kill ? std::string("kill") : expr(s.exprs[1])) + "),");
  }
  void glue(const char* what, const Stmt& s) {
    unsupervised_only(what);
    w_.line(glue_ + ":" + what + "(" + expr(s.exprs[0]) + "),");
  }
  void unsupervised_only(const char*) const {}
  // A trapping worker blocked when its supervisor terminates it is killed once
  // this runs out (SPEC §16.6 [R50]); nothing answers it meanwhile, so the time
  // only needs to be long enough for a worker that is not blocked to stop.
  std::string worker_shutdown() const { return p_.version >= 2 ? "200" : "5000"; }
  void on_fail(const Stmt& s) override { w_.line("throw({concord_exit, {fail, " + bin(s.name) + "}}),"); }

  void set_field(int32_t field, const std::string& value) {
    std::string in = state_;
    state_ = fresh();
    w_.line(state_ + " = setelement(" + std::to_string(field_position(field)) + ", " + in + ", " + value + "),");
  }

  std::string fresh() { return "S" + std::to_string(next_++); }

  // A clause `head -> Body, S` ended by `end`: the body threads the state from
  // state_, and its value is the last state variable.
  void clause(const std::string& head, const std::vector<Stmt>& b, const std::string& end) {
    if (b.empty()) return w_.line(head + " -> " + state_ + end);
    w_.open(head + " ->");
    body(b);
    w_.last(state_ + end);
  }

  // A function's variables start over; S0 is the state it is given.
  void start_function(const Kind& k) {
    kind_ = &k;
    state_ = "S0";
    next_ = 1;
    state_read_ = false;
  }

  // --- the module's parts ----------------------------------------------------------
  void callbacks() {
    w_.line();
    w_.line("%% --- OTP callbacks: workers are " + glue_ + "'s, supervisors are OTP's ---");
    for (const auto& [s, parent] : sups_) {
      std::string idx = std::to_string(s->index);
      std::vector<std::string> children;
      for (const Child& c : s->children) children.push_back(child_spec(c, idx));
      w_.open("init({supervisor, C, " + idx + "}) ->");
      // Version 2 tells its auto_shutdown flag too (the conductor tells give_up from auto_shutdown).
      if (free_)  // the incarnation enters the run's books (concord_free_sup:started/3); C is the run's context
        w_.line("concord_free_sup:started(C, " + idx + ", " + auto_shutdown_name(s->auto_shutdown) + "),");
      else
        w_.line("concord_worker:supervisor_started(C, " + idx +
                (p_.version >= 2 ? std::string(", ") + auto_shutdown_name(s->auto_shutdown) : std::string()) + "),");
      // The period never expires (SPEC §7.4): MaxR restarts over the incarnation's life.
      // Version 2's auto_shutdown (SPEC §21) is OTP's own flag; never is its default.
      std::string auto_shutdown = s->auto_shutdown == AutoShutdown::Never
                                      ? ""
                                      : ", auto_shutdown => " + std::string(auto_shutdown_name(s->auto_shutdown));
      w_.line("Flags = #{strategy => " + std::string(strategy_name(s->strategy)) + ", intensity => " +
              std::to_string(s->intensity) + ", period => 1000000000" + auto_shutdown + "},");
      terms("Children = ", "[", children, "],");
      w_.last("{ok, {Flags, Children}};");
    }
    w_.line("init({worker, Start}) -> " + glue_ + ":init(?MODULE, Start).");
    w_.line("handle_info(Msg, St) -> " + glue_ + ":handle_info(?MODULE, Msg, St).");
    w_.line("handle_call(Msg, From, St) -> " + glue_ + ":handle_call(?MODULE, Msg, From, St).");
    w_.line("handle_cast(Msg, St) -> " + glue_ + ":handle_cast(?MODULE, Msg, St).");
    w_.line("terminate(Reason, St) -> " + glue_ + ":terminate(?MODULE, Reason, St).");
  }

  // The static child specs of a supervisor, in declaration order; C is the
  // conductor (in a free run, the run's context), passed down the tree.
  std::string child_spec(const Child& c, const std::string& sup) {
    std::string restart = std::string(restart_name(c.restart)) + (c.significant ? ", significant => true" : "");
    if (auto* pd = std::get_if<ProcessDecl>(&c.decl)) {
      std::string start = "{worker, {C, " + std::to_string(pd->kind_index) + ", " + bin(pd->name) + ", " + sup + ", [" +
                          exprs(pd->args, 0) + "]}}";
      return "#{id => " + bin(pd->name) + ", start => {gen_server, start_link, [?MODULE, " + start +
             ", []]}, restart => " + restart + ", shutdown => " + worker_shutdown() +
             ", type => worker, modules => [?MODULE]}";
    }
    const SupervisorDecl& s = std::get<SupervisorDecl>(c.decl);
    std::string init = "{supervisor, C, " + std::to_string(s.index) + "}";
    // Version 2: OTP's supervisor as supervisor:start_link/2 starts it, with the
    // conductor's sys debug hook (concord_worker:sup_hook/3, SPEC §17.2). Free runs,
    // both versions: the same, with the hook that only records (concord_free_sup:hook/3).
    std::string start = free_ ? "{gen_server, start_link, [supervisor, {self, ?MODULE, " + init +
                                    "}, [{debug, [{install, {fun concord_free_sup:hook/3, {concord_free_hook, C, " +
                                    std::to_string(s.index) + "}}}]}]]}"
                        : p_.version >= 2
                            ? "{gen_server, start_link, [supervisor, {self, ?MODULE, " + init +
                                  "}, [{debug, [{install, {fun concord_worker:sup_hook/3, {concord_hook, C, " +
                                  std::to_string(s.index) + "}}}]}]]}"
                            : "{supervisor, start_link, [?MODULE, " + init + "]}";
    return "#{id => " + bin(s.name) + ", start => " + start + ", restart => " + restart +
           ", shutdown => infinity, type => supervisor, modules => [?MODULE]}";
  }

  void system() {
    w_.line();
    w_.line("%% --- the system ---");
    std::vector<std::string> sups, roots, given;
    for (const auto& [s, parent] : sups_) sups.push_back("{" + bin(s->name) + ", " + parent + "}");
    terms("supervisors() -> ", "{", sups, "}.");
    for (const Decl& d : p_.system) {
      if (auto* pd = std::get_if<ProcessDecl>(&d))
        roots.push_back("{worker, " + bin(pd->name) + ", " + std::to_string(pd->kind_index) + ", [" +
                        exprs(pd->args, 0) + "]}");
      else
        roots.push_back("{supervisor, " + std::to_string(std::get<SupervisorDecl>(d).index) + "}");
    }
    terms("roots() -> ", "[", roots, "].");
    for (const Given& g : p_.given)
      given.push_back("{" + bin(g.to) + ", " + bin(g.tag) + ", [" + exprs(g.args, 0) + "]}");
    terms("given() -> ", "[", given, "].");
  }

  // Each function over kinds ends with a catch-all clause: a function needs one
  // clause at least, and a program may have no kinds.
  void kinds() {
    w_.line();
    w_.line("%% --- kinds ---");
    for (size_t k = 0; k < p_.kinds.size(); k++)
      w_.line("kind_name(" + std::to_string(k) + ") -> " + bin(p_.kinds[k].name) + ";");
    w_.line("kind_name(_) -> erlang:error(badarg).");
    for (size_t k = 0; k < p_.kinds.size(); k++)
      w_.line("spawn_prefix(" + std::to_string(k) + ") -> " + bin(lower(p_.kinds[k].name) + "-") + ";");
    w_.line("spawn_prefix(_) -> erlang:error(badarg).");
    for (size_t k = 0; k < p_.kinds.size(); k++) new_state(k);
    w_.line("new_state(_, _, _) -> erlang:error(badarg).");
    for (size_t k = 0; k < p_.kinds.size(); k++) {
      start_function(p_.kinds[k]);
      clause("init_body(" + std::to_string(k) + ", S0)", p_.kinds[k].init, ";");
    }
    w_.line("init_body(_, _) -> erlang:error(badarg).");
    for (size_t k = 0; k < p_.kinds.size(); k++) dispatch(k);
    w_.line("dispatch(_, _, _, _) -> no_handler.");
    for (size_t k = 0; k < p_.kinds.size(); k++) fields(k);
    w_.line("fields(_, _) -> erlang:error(badarg).");
  }

  // The initialisers see the parameters and self (SPEC §4.2), so they read S0, the
  // tuple before the fields; it is bound only when one of them reads it.
  void new_state(size_t k) {
    const Kind& kind = p_.kinds[k];
    start_function(kind);
    std::vector<std::string> inits;
    for (const Field& f : kind.state) inits.push_back(expr(f.init));
    std::string head = "new_state(" + std::to_string(k) + ", Name, Args) ->";
    std::string value = "list_to_tuple([Name | Args]" + (inits.empty() ? "" : " ++ [" + join(inits) + "]") + ");";
    if (!state_read_) return w_.line(head + " " + value);
    w_.open(head);
    w_.line("S0 = list_to_tuple([Name | Args]),");
    w_.last(value);
  }

  // A message matches a handler by tag, number of arguments and their types (SPEC §6.5).
  void dispatch(size_t k) {
    for (size_t h = 0; h < p_.kinds[k].handlers.size(); h++) {
      const Handler& hd = p_.kinds[k].handlers[h];
      std::vector<std::string> args, guards;
      for (size_t i = 0; i < hd.params.size(); i++) {
        args.push_back("A" + std::to_string(i + 1));
        guards.push_back(type_guard(hd.params[i].type, args.back()));
      }
      std::string when = guards.empty() ? "" : " when " + join(guards);
      std::string call = handler_name(k, h) + "(" + join(args) + (args.empty() ? "S)" : ", S)");
      w_.line("dispatch(" + std::to_string(k) + ", " + bin(hd.tag) + ", [" + join(args) + "], S)" + when + " -> " +
              call + ";");
    }
  }

  void fields(size_t k) {
    const Kind& kind = p_.kinds[k];
    start_function(kind);
    std::vector<std::string> pairs;
    state_ = "S";  // fields/2 reads the state it is given, named S as in dispatch/4
    for (size_t f = 0; f < kind.state.size(); f++)
      pairs.push_back("{" + bin(kind.state[f].name) + ", " + element(field_position(static_cast<int32_t>(f))) + "}");
    w_.line("fields(" + std::to_string(k) + ", " + (pairs.empty() ? "_" : "S") + ") -> [" + join(pairs) + "];");
  }

  // A reason is an atom or {fail, Code} (on_reason); ints and addrs are neither.
  static std::string type_guard(Type t, const std::string& v) {
    switch (t) {
      case Type::Int: return "is_integer(" + v + ")";
      case Type::Addr: return "is_binary(" + v + ")";
      case Type::Reason: return "(is_atom(" + v + ") orelse is_tuple(" + v + "))";
    }
    return "false";
  }

  std::string handler_name(size_t k, size_t h) const { return "k" + std::to_string(k) + "_h" + std::to_string(h); }

  // Erlang warns about unused variables, and which parameters a body reads is
  // known only once it is printed: print it into scratch first, then for real
  // with the unread parameters named _A<i>.
  void handler(size_t k, size_t h) {
    args_read_.assign(p_.kinds[k].handlers[h].params.size(), false);
    CodeWriter real = std::exchange(w_, CodeWriter());
    handler_function(k, h);
    w_ = std::move(real);
    handler_function(k, h);
  }

  void handler_function(size_t k, size_t h) {
    const Handler& hd = p_.kinds[k].handlers[h];
    start_function(p_.kinds[k]);
    std::vector<std::string> params;
    for (size_t i = 0; i < hd.params.size(); i++)
      params.push_back((args_read_[i] ? "A" : "_A") + std::to_string(i + 1));
    params.push_back("S0");
    w_.line();
    clause(handler_name(k, h) + "(" + join(params) + ")", hd.body, ".");
  }

  // `head open items close` with one item a line, or on one line when empty.
  void terms(const std::string& head, const std::string& open, const std::vector<std::string>& items,
             const std::string& close) {
    if (items.empty()) return w_.line(head + open + close);
    w_.open(head + open);
    for (size_t i = 0; i < items.size(); i++) w_.line(items[i] + (i + 1 < items.size() ? "," : ""));
    w_.close(close);
  }

  void collect(const SupervisorDecl& s, const std::string& parent) {
    sups_[static_cast<size_t>(s.index)] = {&s, parent};
    for (const Child& c : s.children)
      if (auto* sd = std::get_if<SupervisorDecl>(&c.decl)) collect(*sd, std::to_string(s.index));
  }

  const Program& p_;
  const bool free_;         // the module of free runs
  const std::string glue_;  // the workers' glue module: concord_worker, or concord_free_worker
  CodeWriter w_;
  std::vector<std::pair<const SupervisorDecl*, std::string>> sups_;  // by index, with the parent's index or none
  const Kind* kind_ = nullptr;                                       // the kind whose code is printed
  std::string state_;                                                // the variable that holds the current state
  int next_ = 1;                                                     // the number of the next fresh state variable
  bool state_read_ = false;      // whether the code printed since start_function() read state_
  std::vector<bool> args_read_;  // the handler parameters its body reads
};

}  // namespace

std::string emit_erlang(const Program& p) { return ErlangEmitter(p, false).run(); }

std::string emit_erlang_free(const Program& p) { return ErlangEmitter(p, true).run(); }

}  // namespace concord
