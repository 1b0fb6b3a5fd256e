// targets/elixir/emitter/emit_elixir.cpp: prints a checked program as the Elixir
// modules of targets/elixir/README.md ("The emitted modules"). The program's tables
// and its start functions go to Concord.Prog; each kind becomes a GenServer module
// whose handlers are private functions that rebind the state `s` statement by
// statement (Elixir variables rebind; a branch's rebinding stays in the branch, so
// `if` and `repeat` yield the new state as their value); each supervisor becomes a
// Supervisor (or DynamicSupervisor) module with its child specs. Bodies and
// expressions are walked by targets/common/walker.hpp; operators are the functions
// of Concord.Ops (targets/elixir/runtime/concord_ops.ex), exact on int64. The
// modules of free runs (SPEC §25, emit_elixir_free) are the same modules with the
// free runtime's glue (targets/elixir/README.md "Free runs").
#include "emit_elixir.hpp"

#include <cstdio>
#include <stdexcept>
#include <utility>
#include <vector>

#include "targets/common/code_writer.hpp"
#include "targets/common/unsupported.hpp"
#include "targets/common/walker.hpp"

namespace concord {
namespace {

const char* const kMain = "Concord.Prog";

// Every module is compiled in memory for a few short runs: the Erlang compiler's
// optimisation passes would cost more than they save (as for the erlang target).
const char* const kCompileOptions =
    "@compile [:no_ssa_opt, :no_bool_opt, :no_share_opt, :no_recv_opt, :no_bsm_opt, :no_copt]";

std::string kind_module(size_t k) { return std::string(kMain) + ".K" + std::to_string(k); }
std::string supervisor_module(int32_t idx) { return std::string(kMain) + ".S" + std::to_string(idx); }

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

std::string atom(const char* word) { return std::string(":") + word; }

std::string elixir_reason(const std::string& word);

// The function of Concord.Ops for an operator; Elixir's Kernel has div, rem, not
// and Bitwise band, bor, bxor, bnot, hence dv, rm and the trailing underscores.
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

class ElixirEmitter : public Walker {
 public:
  // `free`: the modules of the elixir target's free runs (SPEC §25): the workers' glue
  // :concord_free_worker, supervisors hooked into the free runtime's recorders
  // (concord_free_sup, concord_free_dynsup), no conductor; otherwise the conducted modules.
  ElixirEmitter(const Program& p, bool free)
      : p_(p), free_(free), glue_(free ? ":concord_free_worker" : ":concord_worker"), w_(2) {
    if (!p.checked) throw std::logic_error("emit_elixir needs a program that check() accepted");
    sups_.resize(static_cast<size_t>(p.supervisor_count));
    for (const Decl& d : p_.system)
      if (auto* s = std::get_if<SupervisorDecl>(&d)) collect(*s, ":none");
  }

  std::string run() {
    w_.line(free_ ? "# Emitted by concord (targets/elixir/emitter) for the elixir target's free runs (SPEC 25). Do "
                    "not edit."
                  : "# Emitted by concord (targets/elixir/emitter) for the elixir target. Do not edit.");
    w_.line("# The contract with the runtime (targets/elixir/runtime and the conductor of");
    w_.line("# targets/erlang/runtime) is targets/elixir/README.md. Each module skips the Erlang");
    w_.line("# compiler's optimisation passes (@compile): it is compiled for a few short runs.");
    main_module();
    for (size_t k = 0; k < p_.kinds.size(); k++) kind_module_text(k);
    for (const auto& [s, parent] : sups_) supervisor_module_text(*s);
    return w_.str();
  }

 private:
  // --- expressions: one hook per operand shape ---------------------------------------
  std::string on_int(const Expr& e) override { return std::to_string(e.value); }  // unbounded: MIN is fine
  std::string on_addr(const Expr& e) override { return elixir_string(e.name); }
  std::string on_self(const Expr&) override { return element(0); }
  // A reason (SPEC §15) is the very term OTP exits with: :normal, :shutdown,
  // :killed, :noproc, and {:fail, code} for a code, as `fail C` exits.
  std::string on_reason(const Expr& e) override { return elixir_reason(e.name); }
  std::string on_var(const Expr& e) override {
    switch (e.scope) {
      case Scope::Param: return element(1 + e.slot);
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

  // A slot of the state tuple {self, params..., fields...} (0-based, as elem/2 counts).
  std::string element(int32_t position) {
    state_read_ = true;
    return "elem(s, " + std::to_string(position) + ")";
  }
  // Handler parameter i (0-based) is a<i+1>; unread ones are named _a<i+1>.
  std::string arg(int32_t i) {
    args_read_[static_cast<size_t>(i)] = true;
    return "a" + std::to_string(i + 1);
  }
  int32_t field_position(int32_t field) const { return 1 + static_cast<int32_t>(kind_->params.size()) + field; }

  std::string exprs(const std::vector<Expr>& es, size_t from) {
    std::vector<std::string> out;
    for (size_t i = from; i < es.size(); i++) out.push_back(expr(es[i]));
    return join(out);
  }

  // --- statements: one hook per kind; each rebinds `s` when it changes the state ----
  void on_assign(const Stmt& s) override { set_field(s.slot, expr(s.exprs[0])); }

  // Both branches start from the same `s` and end with the state they made.
  void on_if(const Stmt& s) override {
    w_.open("s = if " + expr(s.exprs[0]) + " != 0 do");
    branch(s.body);
    w_.middle("else");
    branch(s.orelse);
    w_.close("end");
  }

  void on_repeat(const Stmt& s) override {
    w_.open("s = rep(" + std::to_string(s.count) + ", s, fn s ->");
    branch(s.body);
    w_.close("end)");
  }

  void on_send(const Stmt& s) override {
    std::string to = expr(s.exprs[0]);
    w_.line(glue_ + ".send(" + to + ", " + elixir_string(s.name) + ", [" + exprs(s.exprs, 1) + "])");
  }

  // Without `under` the restart type means nothing; the model's default is printed.
  void on_spawn(const Stmt& s) override {
    std::string sup = s.slot3 >= 0 ? std::to_string(s.slot3) : ":none";
    // A significant dynamic child (SPEC §21) is {restart, :significant}.
    std::string restart =
        s.significant ? "{" + atom(restart_name(s.restart)) + ", :significant}" : atom(restart_name(s.restart));
    // A free spawn names the new process's own GenServer module: the free runtime
    // starts it (GenServer.start, or a start_child of it) as it is given.
    std::string mod = free_ ? kind_module(static_cast<size_t>(s.slot)) : std::string(kMain);
    std::string call = glue_ + ".spawn(" + mod + ", " + std::to_string(s.slot) + ", [" + exprs(s.exprs, 0) + "], " +
                       sup + ", " + restart + ")";
    if (s.slot2 >= 0)
      set_field(s.slot2, call);
    else
      w_.line(call);
  }

  // The runtime catches these throws and ends the turn with the exit (in init:
  // fails the start, SPEC §19.1). `stop e` exits with the reason e (§16.2).
  void on_stop(const Stmt& s) override {
    w_.line("throw({:concord_exit, " + (s.exprs.empty() ? std::string(":normal") : expr(s.exprs[0])) + "})");
  }
  void on_ignore(const Stmt&) override { w_.line("throw(:concord_ignore)"); }

  // SPEC §16.2: the shared glue (concord_worker) does each for real, with
  // Process.flag/link/monitor/exit's BIFs, while the conductor keeps the books
  // and the order (spec/V2_IMPLEMENTATION_NOTES.md §3): the real trap flag stays
  // on so that every signal is held until its turn.
  void on_trap_exit(const Stmt& s) override { w_.line(glue_ + ".trap_exit(" + expr(s.exprs[0]) + ")"); }
  void on_link(const Stmt& s) override { glue("link", s); }
  void on_unlink(const Stmt& s) override { glue("unlink", s); }
  void on_monitor(const Stmt& s) override { glue("monitor", s); }
  void on_demonitor(const Stmt& s) override { glue("demonitor", s); }
  void on_exit(const Stmt& s) override {
    std::string to = expr(s.exprs[0]);
    w_.line(glue_ + ".exit_signal(" + to + ", " + (s.kill ? std::string(":kill") : expr(s.exprs[1])) + ")");
  }
  void glue(const char* what, const Stmt& s) { w_.line(glue_ + "." + what + "(" + expr(s.exprs[0]) + ")"); }
  // SPEC §18: the glue makes the real GenServer.call (gen_server:call, infinity)
  // and the real GenServer.reply.
  void on_call(const Stmt& s) override {
    std::string to = expr(s.exprs[0]);
    std::string args = exprs(s.exprs, 1);
    const char* type = ":any";
    if (s.slot2 >= 0) {
      switch (kind_->state[static_cast<size_t>(s.slot2)].type) {
        case Type::Int: type = ":int"; break;
        case Type::Addr: type = ":addr"; break;
        case Type::Reason: type = ":reason"; break;
      }
    }
    // The state so far goes along: a run can end while the caller waits (deadlock).
    std::string call = glue_ + ".call(" + to + ", " + elixir_string(s.name) + ", [" + args + "], " + type + ", s)";
    if (s.slot2 >= 0)
      set_field(s.slot2, call);
    else
      w_.line(call);
  }
  void on_reply(const Stmt& s) override { w_.line(glue_ + ".reply(" + expr(s.exprs[0]) + ")"); }
  // SPEC §20: the glue asks the Supervisor (Supervisor.terminate_child/2 ... are
  // OTP's supervisor functions); the child is named by its id, its name. A
  // DynamicSupervisor knows its children by pid: the glue gives the module's
  // function of the same name the pid of the worker so named. In a free run the
  // runtime asks Concord.Prog.api/5, which knows which supervisors are dynamic.
  void on_api(const Stmt& s) override {
    std::string child = s.exprs.empty() ? elixir_string(s.name) : expr(s.exprs[0]);
    std::string request;
    if (!free_ && is_dynamic_supervisor(*sups_[static_cast<size_t>(s.slot3)].first))
      request = ", &" + supervisor_module(s.slot3) + "." + api_name(s.api) + "/2";
    std::string call =
        glue_ + ".api(" + atom(api_name(s.api)) + ", " + std::to_string(s.slot3) + ", " + child + request + ")";
    if (s.slot2 >= 0)
      set_field(s.slot2, call);
    else
      w_.line(call);
  }
  void on_fail(const Stmt& s) override { w_.line("throw({:concord_exit, {:fail, " + elixir_string(s.name) + "}})"); }

  void set_field(int32_t field, const std::string& value) {
    w_.line("s = put_elem(s, " + std::to_string(field_position(field)) + ", " + value + ")");
  }

  // A block whose value is the state it ends with.
  void branch(const std::vector<Stmt>& b) {
    body(b);
    w_.line("s");
  }

  void start_function(const Kind& k) {
    kind_ = &k;
    state_read_ = false;
  }

  // --- Concord.Prog --------------------------------------------------------------------
  void main_module() {
    w_.line();
    w_.open("defmodule " + std::string(kMain) + " do");
    w_.line("@moduledoc false");
    w_.line(kCompileOptions);
    w_.line();
    w_.line("# --- the system ---");
    std::vector<std::string> sups, roots, given;
    for (const auto& [s, parent] : sups_) sups.push_back("{" + elixir_string(s->name) + ", " + parent + "}");
    terms("def supervisors, do: ", "{", sups, "}");
    for (const Decl& d : p_.system) {
      if (auto* pd = std::get_if<ProcessDecl>(&d)) {
        start_function(p_.kinds[static_cast<size_t>(pd->kind_index)]);
        roots.push_back("{:worker, " + elixir_string(pd->name) + ", " + std::to_string(pd->kind_index) + ", [" +
                        exprs(pd->args, 0) + "]}");
      } else {
        roots.push_back("{:supervisor, " + std::to_string(std::get<SupervisorDecl>(d).index) + "}");
      }
    }
    terms("def roots, do: ", "[", roots, "]");
    for (const Given& g : p_.given)
      given.push_back("{" + elixir_string(g.to) + ", " + elixir_string(g.tag) + ", [" + exprs(g.args, 0) + "]}");
    terms("def given, do: ", "[", given, "]");
    // The free runtime asks every program its version.
    if (p_.version >= 2 || free_) w_.line("def version, do: " + std::to_string(p_.version));

    // Each function over kinds or supervisors ends with a catch-all clause: a
    // program may have none of them.
    w_.line();
    w_.line("# --- kinds ---");
    for (size_t k = 0; k < p_.kinds.size(); k++) w_.line("def kind(" + std::to_string(k) + "), do: " + kind_module(k));
    w_.line("def kind(k), do: :erlang.error(:badarg, [k])");
    for (size_t k = 0; k < p_.kinds.size(); k++)
      w_.line("def kind_name(" + std::to_string(k) + "), do: " + elixir_string(p_.kinds[k].name));
    w_.line("def kind_name(k), do: :erlang.error(:badarg, [k])");
    for (size_t k = 0; k < p_.kinds.size(); k++)
      w_.line("def spawn_prefix(" + std::to_string(k) + "), do: " + elixir_string(lower(p_.kinds[k].name) + "-"));
    w_.line("def spawn_prefix(k), do: :erlang.error(:badarg, [k])");
    w_.line("def fields(k, s), do: kind(k).fields(s)");

    if (free_) return free_starts();
    w_.line();
    w_.line("# --- how processes start, and what a supervisor's which_children says ---");
    w_.line("def start_worker({_c, k, _name, _sup, _args} = start), do: GenServer.start(kind(k), start)");
    for (const auto& [s, parent] : sups_)
      w_.line("def start_supervisor(" + std::to_string(s->index) + ", c), do: " + supervisor_module(s->index) +
              ".start_link(c)");
    w_.line("def start_supervisor(idx, _c), do: :erlang.error(:badarg, [idx])");
    if (p_.version >= 2) {
      // Supervisor.child_spec/2 does not take :significant (Elixir 1.14): put in the map.
      w_.open("def worker_spec(start, {restart, :significant}),");
      w_.last("do: Map.put(worker_spec(start, restart), :significant, true)");
    }
    w_.open("def worker_spec({_c, k, name, _sup, _args} = start, restart),");
    w_.last("do: Supervisor.child_spec({kind(k), start}, id: name, restart: restart" + worker_shutdown() + ")");
    for (const auto& [s, parent] : sups_) {
      const char* api = is_dynamic_supervisor(*s) ? "DynamicSupervisor" : "Supervisor";
      w_.open("def start_child(" + std::to_string(s->index) + ", sup, start, restart),");
      w_.last(std::string("do: ") + api + ".start_child(sup, worker_spec(start, restart))");
    }
    w_.line("def start_child(idx, _sup, _start, _restart), do: :erlang.error(:badarg, [idx])");
    // A DynamicSupervisor's children have no ids: the conductor names them by pid.
    for (const auto& [s, parent] : sups_)
      if (is_dynamic_supervisor(*s)) {
        w_.open("def children(" + std::to_string(s->index) + ", which_children),");
        w_.last("do: {:pids, Enum.map(which_children, fn {:undefined, pid, _, _} -> pid end)}");
      }
    w_.open("def children(_idx, which_children),");
    w_.last("do: {:ids, Enum.reverse(Enum.map(which_children, fn {id, child, _, _} -> {id, child} end))}");
    w_.close("end");
  }

  // What the free runtime (targets/erlang/runtime/concord_free_*) asks of another
  // BEAM target's program (targets/elixir/README.md "Free runs"): a root worker is
  // started as GenServer.start of kind/1's module, a root supervisor by its module's
  // start_link/1; a spawn under a DynamicSupervisor, its final children and the API
  // on it go through concord_free_dynsup, with Elixir's DynamicSupervisor functions.
  void free_starts() {
    w_.line();
    w_.line("# --- how the free runtime starts supervisors and asks them (concord_free_dynsup) ---");
    for (const auto& [s, parent] : sups_)
      w_.line("def start_supervisor(" + std::to_string(s->index) + ", c), do: " + supervisor_module(s->index) +
              ".start_link(c)");
    w_.line("def start_supervisor(idx, _c), do: :erlang.error(:badarg, [idx])");
    for (const auto& [s, parent] : sups_)
      if (is_dynamic_supervisor(*s))
        w_.line("def start_child(" + std::to_string(s->index) +
                ", sup, spec), do: :concord_free_dynsup.start_child(sup, spec)");
    w_.line("def start_child(_idx, sup, spec), do: :supervisor.start_child(sup, spec)");
    w_.line("def free_children(state), do: :concord_free_dynsup.children(state)");
    if (p_.version >= 2) {
      for (const auto& [s, parent] : sups_)
        if (is_dynamic_supervisor(*s)) {
          w_.open("def api(op, " + std::to_string(s->index) + ", sup, _id, pid),");
          w_.last("do: :concord_free_dynsup.call(fn -> apply(" + supervisor_module(s->index) +
                  ", op, [sup, pid]) end)");
        }
      w_.line("def api(op, _idx, sup, id, _pid), do: apply(:supervisor, op, [sup, id])");
    }
    w_.close("end");
  }

  // --- a kind: Concord.Prog.K<k> ----------------------------------------------------
  void kind_module_text(size_t k) {
    const Kind& kind = p_.kinds[k];
    std::string K = std::to_string(k);
    w_.line();
    w_.open("defmodule " + kind_module(k) + " do");
    w_.line("@moduledoc false");
    w_.line(kCompileOptions);
    w_.line("use GenServer");
    w_.line("import Concord.Ops, warn: false");
    w_.line();
    if (free_) {
      // The free runtime starts a worker as gen_server:start(Module, {:worker, start}),
      // as concord_free_worker's spawns and the roots do; a static child's start_link too.
      w_.line("def start_link(start), do: GenServer.start_link(__MODULE__, {:worker, start})");
      w_.line();
      w_.line("@impl true");
      w_.line("def init({:worker, start}), do: " + glue_ + ".init(__MODULE__, start)");
    } else {
      w_.line("def start_link(start), do: GenServer.start_link(__MODULE__, start)");
      w_.line();
      w_.line("@impl true");
      w_.line("def init(start), do: :concord_worker.init(__MODULE__, start)");
    }
    w_.line("@impl true");
    w_.line("def handle_info(msg, w), do: " + glue_ + ".handle_info(__MODULE__, msg, w)");
    w_.line("@impl true");
    w_.line("def handle_call(msg, from, w), do: " + glue_ + ".handle_call(__MODULE__, msg, from, w)");
    w_.line("@impl true");
    w_.line("def handle_cast(msg, w), do: " + glue_ + ".handle_cast(__MODULE__, msg, w)");
    w_.line("@impl true");
    w_.line("def terminate(reason, w), do: " + glue_ + ".terminate(__MODULE__, reason, w)");
    // A spawned worker takes its own name (concord_free_worker), from its module.
    if (free_) w_.line("def spawn_prefix(k), do: " + std::string(kMain) + ".spawn_prefix(k)");
    w_.line();
    w_.line("# The state is the tuple {self, params..., fields...}.");
    new_state(k);
    start_function(kind);
    if (kind.init.empty()) {
      w_.line("def init_body(" + K + ", s), do: s");
    } else {
      w_.open("def init_body(" + K + ", s) do");
      branch(kind.init);
      w_.close("end");
    }
    dispatch(k);
    fields(k);
    for (size_t h = 0; h < kind.handlers.size(); h++) handler(k, h);
    w_.close("end");
  }

  // The initialisers see the parameters and self (SPEC §4.2), so they read the
  // tuple before the fields; it is bound only when one of them reads it.
  void new_state(size_t k) {
    const Kind& kind = p_.kinds[k];
    start_function(kind);
    std::vector<std::string> inits;
    for (const Field& f : kind.state) inits.push_back(expr(f.init));
    std::string head = "def new_state(" + std::to_string(k) + ", name, args)";
    std::string value = "List.to_tuple([name | args]" + (inits.empty() ? "" : " ++ [" + join(inits) + "]") + ")";
    if (!state_read_) return w_.line(head + ", do: " + value);
    w_.open(head + " do");
    w_.line("s = List.to_tuple([name | args])");
    w_.line(value);
    w_.close("end");
  }

  // A message matches a handler by tag, number of arguments and their types (SPEC §6.5).
  void dispatch(size_t k) {
    const Kind& kind = p_.kinds[k];
    for (size_t h = 0; h < kind.handlers.size(); h++) {
      const Handler& hd = kind.handlers[h];
      std::vector<std::string> args, guards;
      for (size_t i = 0; i < hd.params.size(); i++) {
        args.push_back("a" + std::to_string(i + 1));
        guards.push_back(type_guard(hd.params[i].type, args.back()));
      }
      std::string when = guards.empty() ? "" : " when " + join_with(guards, " and ");
      std::string call = handler_name(h) + "(" + join(args) + (args.empty() ? "s)" : ", s)");
      w_.line("def dispatch(" + std::to_string(k) + ", " + elixir_string(hd.tag) + ", [" + join(args) + "], s)" + when +
              ", do: " + call);
    }
    w_.line("def dispatch(_k, _tag, _args, _s), do: :no_handler");
  }

  void fields(size_t k) {
    const Kind& kind = p_.kinds[k];
    start_function(kind);
    std::vector<std::string> pairs;
    for (size_t f = 0; f < kind.state.size(); f++)
      pairs.push_back("{" + elixir_string(kind.state[f].name) + ", " +
                      element(field_position(static_cast<int32_t>(f))) + "}");
    w_.line(std::string("def fields(") + (pairs.empty() ? "_s" : "s") + "), do: [" + join(pairs) + "]");
  }

  // A reason is an atom or {:fail, code} (on_reason); ints and addrs are neither.
  static std::string type_guard(Type t, const std::string& v) {
    switch (t) {
      case Type::Int: return "is_integer(" + v + ")";
      case Type::Addr: return "is_binary(" + v + ")";
      case Type::Reason: return "(is_atom(" + v + ") or is_tuple(" + v + "))";
    }
    return "false";
  }

  static std::string join_with(const std::vector<std::string>& items, const std::string& sep) {
    std::string out;
    for (const std::string& s : items) out += (out.empty() ? "" : sep) + s;
    return out;
  }

  static std::string handler_name(size_t h) { return "h" + std::to_string(h); }

  // Elixir warns about unused variables, and which parameters a body reads is
  // known only once it is printed: print it into scratch first, then for real
  // with the unread parameters named _a<i>.
  void handler(size_t k, size_t h) {
    args_read_.assign(p_.kinds[k].handlers[h].params.size(), false);
    CodeWriter real = std::exchange(w_, CodeWriter(2));
    handler_function(k, h);
    w_ = std::move(real);
    handler_function(k, h);
  }

  void handler_function(size_t k, size_t h) {
    const Handler& hd = p_.kinds[k].handlers[h];
    start_function(p_.kinds[k]);
    std::vector<std::string> params;
    for (size_t i = 0; i < hd.params.size(); i++)
      params.push_back((args_read_[i] ? "a" : "_a") + std::to_string(i + 1));
    params.push_back("s");
    w_.line();
    std::string head = "defp " + handler_name(h) + "(" + join(params) + ")";
    if (hd.body.empty()) return w_.line(head + ", do: s");
    w_.open(head + " do");
    branch(hd.body);
    w_.close("end");
  }

  // --- a supervisor: Concord.Prog.S<index> ------------------------------------------
  void supervisor_module_text(const SupervisorDecl& s) {
    std::string idx = std::to_string(s.index);
    bool dynamic = is_dynamic_supervisor(s);
    const char* api = dynamic ? "DynamicSupervisor" : "Supervisor";
    w_.line();
    w_.open("defmodule " + supervisor_module(s.index) + " do");
    w_.line("@moduledoc false");
    w_.line(kCompileOptions);
    w_.line(std::string("use ") + api);
    w_.line();
    if (free_ && !dynamic) {
      // Free runs, both versions: the Supervisor as Supervisor.start_link/2 starts it,
      // with the free runtime's recording hook (concord_free_sup:hook/3).
      w_.open("def start_link(c) do");
      w_.line("hook = {&:concord_free_sup.hook/3, {:concord_free_hook, c, " + idx + "}}");
      w_.line("GenServer.start_link(:supervisor, {:self, __MODULE__, c}, debug: [install: hook])");
      w_.close("end");
    } else if (free_) {
      // Its own recording hook over Elixir's state (concord_free_dynsup).
      w_.open("def start_link(c) do");
      w_.line("hook = {&:concord_free_dynsup.hook/3, {:concord_free_hook, c, " + idx + "}}");
      w_.line("DynamicSupervisor.start_link(__MODULE__, c, debug: [install: hook])");
      w_.close("end");
    } else if (p_.version >= 2 && !dynamic) {
      // Version 2: the Supervisor as Supervisor.start_link/2 starts it (OTP's
      // supervisor, {:self, module, arg}), with the conductor's sys debug hook
      // (concord_worker:sup_hook/3, SPEC §17.2), which Supervisor.start_link
      // cannot pass.
      w_.open("def start_link(c) do");
      w_.line("hook = {&:concord_worker.sup_hook/3, {:concord_hook, c, " + idx + "}}");
      w_.line("GenServer.start_link(:supervisor, {:self, __MODULE__, c}, debug: [install: hook])");
      w_.close("end");
    } else if (p_.version >= 2) {
      // A DynamicSupervisor passes its options to GenServer.start_link: the
      // conductor's sys debug hook over Elixir's own state (concord_dynsup).
      w_.open("def start_link(c) do");
      w_.line("hook = {&:concord_dynsup.hook/3, {:concord_hook, c, " + idx + "}}");
      w_.line("DynamicSupervisor.start_link(__MODULE__, c, debug: [install: hook])");
      w_.close("end");
    } else {
      w_.line(std::string("def start_link(c), do: ") + api + ".start_link(__MODULE__, c)");
    }
    w_.line();
    w_.line("@impl true");
    w_.open("def init(c) do");
    if (free_)  // the incarnation enters the run's books; c is the run's context
      w_.line(":concord_free_sup.started(c, " + idx + ", " + atom(auto_shutdown_name(s.auto_shutdown)) + ")");
    else
      w_.line(":concord_worker.supervisor_started(c, " + idx +
              (p_.version >= 2 ? ", " + atom(auto_shutdown_name(s.auto_shutdown)) : std::string()) + ")");
    // The period never expires (SPEC §7.4): MaxR restarts over the incarnation's life.
    std::string limits = "max_restarts: " + std::to_string(s.intensity) + ", max_seconds: 1_000_000_000";
    if (dynamic) {
      w_.line("DynamicSupervisor.init(strategy: :one_for_one, " + limits + ")");
    } else {
      std::vector<std::string> children;
      for (const Child& c : s.children) children.push_back(child_spec(c, idx));
      terms("children = ", "[", children, "]");
      if (p_.version >= 2) {
        // Elixir 1.14's Supervisor.init/2 drops :auto_shutdown (SPEC §21): the
        // flags map as OTP reads it.
        w_.line("flags = %{strategy: " + atom(strategy_name(s.strategy)) +
                ", intensity: " + std::to_string(s.intensity) +
                ", period: 1_000_000_000, auto_shutdown: " + atom(auto_shutdown_name(s.auto_shutdown)) + "}");
        w_.line("{:ok, {flags, children}}");
      } else {
        w_.line("Supervisor.init(children, strategy: " + atom(strategy_name(s.strategy)) + ", " + limits + ")");
      }
    }
    w_.close("end");
    if (p_.version >= 2 && dynamic) dynamic_api();
    w_.close("end");
  }

  // SPEC §20 on a DynamicSupervisor, by the pid of the child's name:
  // DynamicSupervisor.terminate_child/2 (which removes the child, whatever its
  // restart type). It has no restart_child or delete_child (OTP's crash it:
  // handle_call/3 has no clause for them) and keeps no child that is not running,
  // so its answer to them is `running` for a child it lists and `not_found`
  // otherwise (spec/experiments/elixir_supervision.exs, E6).
  void dynamic_api() {
    w_.line();
    w_.line("def terminate_child(sup, pid), do: DynamicSupervisor.terminate_child(sup, pid)");
    w_.line("def restart_child(sup, pid), do: running_or_not_found(sup, pid)");
    w_.line("def delete_child(sup, pid), do: running_or_not_found(sup, pid)");
    w_.line();
    w_.open("defp running_or_not_found(sup, pid) do");
    w_.open("if Enum.any?(DynamicSupervisor.which_children(sup), fn {_, child, _, _} -> child == pid end),");
    w_.line("do: {:error, :running},");
    w_.last("else: {:error, :not_found}");
    w_.close("end");
  }

  // A static child spec; `c` is the conductor, passed down the tree.
  std::string child_spec(const Child& c, const std::string& sup) {
    std::string restart = atom(restart_name(c.restart));
    if (auto* pd = std::get_if<ProcessDecl>(&c.decl)) {
      start_function(p_.kinds[static_cast<size_t>(pd->kind_index)]);
      std::string start = "{c, " + std::to_string(pd->kind_index) + ", " + elixir_string(pd->name) + ", " + sup +
                          ", [" + exprs(pd->args, 0) + "]}";
      std::string spec = "Supervisor.child_spec({" + kind_module(static_cast<size_t>(pd->kind_index)) + ", " + start +
                         "}, id: " + elixir_string(pd->name) + ", restart: " + restart + worker_shutdown() + ")";
      return c.significant ? "Map.put(" + spec + ", :significant, true)" : spec;
    }
    const SupervisorDecl& s = std::get<SupervisorDecl>(c.decl);
    std::string spec = "Supervisor.child_spec({" + supervisor_module(s.index) + ", c}, id: " + elixir_string(s.name) +
                       ", restart: " + restart + ")";
    return c.significant ? "Map.put(" + spec + ", :significant, true)" : spec;
  }

  // A trapping worker blocked when its supervisor terminates it is killed once
  // this runs out (SPEC §16.6 [R50]); version 1 keeps Elixir's default (5000).
  std::string worker_shutdown() const { return p_.version >= 2 ? ", shutdown: 200" : ""; }

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
  const bool free_;         // the modules of free runs
  const std::string glue_;  // the workers' glue: :concord_worker, or :concord_free_worker
  CodeWriter w_;
  std::vector<std::pair<const SupervisorDecl*, std::string>> sups_;  // by index, with the parent's index or :none
  const Kind* kind_ = nullptr;                                       // the kind whose code is printed
  bool state_read_ = false;      // whether the code printed since start_function() read `s`
  std::vector<bool> args_read_;  // the handler parameters its body reads
};

}  // namespace

// A DynamicSupervisor has no auto_shutdown (DynamicSupervisor.init/1 drops it, and
// start_child ignores :significant: spec/experiments/elixir_supervision.exs, E6):
// a childless one_for_one supervisor that shuts down with its significant
// children is a Supervisor, as an Elixir programmer would write it.
std::string elixir_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\' && ch != '#') {
      out += static_cast<char>(ch);
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", ch);
      out += buf;
    }
  }
  return out + "\"";
}

std::string emit_elixir(const Program& p) { return ElixirEmitter(p, false).run(); }

std::string emit_elixir_free(const Program& p) { return ElixirEmitter(p, true).run(); }

namespace {
// SPEC §15: normal, shutdown, killed and noproc are OTP's own atoms; a code is
// {:fail, code}, the reason `fail C` exits with.
std::string elixir_reason(const std::string& word) {
  if (word == "normal" || word == "shutdown" || word == "killed" || word == "noproc") return ":" + word;
  return "{:fail, " + elixir_string(word) + "}";
}
}  // namespace

}  // namespace concord
