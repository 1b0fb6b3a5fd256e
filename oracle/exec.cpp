// oracle/exec.cpp: expressions (SPEC §5) and statements (SPEC §6), one function
// per statement kind. A handler ends early by throwing HandlerEnd, caught in one
// place (run_handler), where the process exits with the carried reason.
#include "arith.hpp"
#include "memory.hpp"
#include "rules.hpp"

namespace concord {
namespace {

// §11: the time bound, counted in statements (memory.hpp).
void count_steps(World& w, int64_t n) {
  w.steps += n;
  if (w.steps > w.step_limit)
    throw OutOfSteps("the run needs more than the oracle's limit of " + std::to_string(w.step_limit) +
                     " statements (at turn " + std::to_string(w.turn) + "; $" + kOracleStepsVariable + " sets it)");
}

// Ends the running handler; the process exits with `reason` (§6.4).
struct HandlerEnd {
  std::string reason;
};

// The running process and the values its code can see.
struct Frame {
  World& w;
  Process& p;
  const std::vector<Value>* args;  // handler parameters; null in init and initialisers
};

Value eval(const Frame& f, const Expr& e);

Value eval_var(const Frame& f, const Expr& e) {
  switch (e.scope) {
    case Scope::Param: return f.p.params[e.slot];
    case Scope::Field: return f.p.state[e.slot];
    case Scope::Arg: return (*f.args)[e.slot];
  }
  return 0;
}

Value eval_unary(Op op, Value a) {
  switch (op) {
    case Op::Neg: return arith::neg(a);
    case Op::Not: return a == 0 ? 1 : 0;
    case Op::BNot: return ~a;
    default: return 0;  // binary operators never reach here (checked)
  }
}

Value eval_binary(Op op, Value a, Value b) {
  Value out = 0;
  switch (op) {
    case Op::Mul: return arith::mul(a, b);
    case Op::Div:
      if (!arith::div(a, b, out)) throw HandlerEnd{"DIV_ZERO"};
      return out;
    case Op::Rem:
      if (!arith::rem(a, b, out)) throw HandlerEnd{"DIV_ZERO"};
      return out;
    case Op::Add: return arith::add(a, b);
    case Op::Sub: return arith::sub(a, b);
    case Op::Shl: return arith::shl(a, b);
    case Op::Shr: return arith::shr(a, b);
    case Op::Lt: return a < b;
    case Op::Le: return a <= b;
    case Op::Gt: return a > b;
    case Op::Ge: return a >= b;
    case Op::Eq: return a == b;  // addrs compare by name id: one id per name
    case Op::Ne: return a != b;
    case Op::BAnd: return a & b;
    case Op::BXor: return a ^ b;
    case Op::BOr: return a | b;
    case Op::Neg:
    case Op::Not:
    case Op::BNot: return 0;  // unary operators never reach here (checked)
  }
  return 0;
}

Value eval(const Frame& f, const Expr& e) {
  switch (e.kind) {
    case ExprKind::Int: return e.value;
    case ExprKind::Addr: return e.slot;  // name ids of the program come first in the world
    case ExprKind::Self: return f.p.name;
    case ExprKind::Var: return eval_var(f, e);
    case ExprKind::Unary: return eval_unary(e.op, eval(f, e.args[0]));
    case ExprKind::Binary: {
      Value a = eval(f, e.args[0]);  // left to right (§5)
      Value b = eval(f, e.args[1]);
      return eval_binary(e.op, a, b);
    }
  }
  return 0;
}

std::vector<Value> eval_all(const Frame& f, const std::vector<Expr>& es, size_t from = 0) {
  std::vector<Value> out;
  out.reserve(es.size() - from);
  for (size_t i = from; i < es.size(); i++) out.push_back(eval(f, es[i]));
  return out;
}

void exec_body(const Frame& f, const std::vector<Stmt>& body);

// §6.1
void exec_assign(const Frame& f, const Stmt& s) { f.p.state[s.slot] = eval(f, s.exprs[0]); }

// §6.2
void exec_if(const Frame& f, const Stmt& s) { exec_body(f, eval(f, s.exprs[0]) != 0 ? s.body : s.orelse); }

// §6.3
void exec_repeat(const Frame& f, const Stmt& s) {
  for (int64_t i = 0; i < s.count; i++) exec_body(f, s.body);
}

// §6.5
void exec_send(const Frame& f, const Stmt& s) {
  Value to = eval(f, s.exprs[0]);
  std::vector<Value> args = eval_all(f, s.exprs, 1);
  send_message(f.w, f.p.name, static_cast<int32_t>(to), s.slot, std::move(args));
}

std::string spawned_name(const std::string& kind, int64_t n) {
  std::string s;
  for (char c : kind) s += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return s + "-" + std::to_string(n);
}

// §6.6
void exec_spawn(const Frame& f, const Stmt& s) {
  World& w = f.w;
  std::vector<Value> args = eval_all(f, s.exprs);
  if (w.live >= w.run.max_processes) throw HandlerEnd{"SYSTEM_LIMIT"};
  if (s.slot3 >= 0 && !w.sups[s.slot3].alive) throw HandlerEnd{"NOPROC"};
  int64_t n = ++w.spawned[s.slot];
  int32_t name = intern_name(w, spawned_name(w.prog.kinds[s.slot].name, n));
  int32_t id = create_process(w, name, s.slot, std::move(args), s.slot3);
  if (s.slot3 >= 0) add_dynamic_child(w, s.slot3, id, s.restart);
  if (s.slot2 >= 0) f.p.state[s.slot2] = name;
}

void exec(const Frame& f, const Stmt& s) {
  switch (s.kind) {
    case StmtKind::Assign: exec_assign(f, s); return;
    case StmtKind::If: exec_if(f, s); return;
    case StmtKind::Repeat: exec_repeat(f, s); return;
    case StmtKind::Send: exec_send(f, s); return;
    case StmtKind::Spawn: exec_spawn(f, s); return;
    case StmtKind::Stop: throw HandlerEnd{"normal"};  // §6.4
    case StmtKind::Fail: throw HandlerEnd{s.name};    // §6.4
  }
}

void exec_body(const Frame& f, const std::vector<Stmt>& body) {
  count_steps(f.w, static_cast<int64_t>(body.size()));  // an upper bound: a body may end early
  for (const Stmt& s : body) exec(f, s);
}

}  // namespace

std::vector<Value> initial_state(World& w, Process& p) {
  const Kind& k = w.prog.kinds[p.kind];
  Frame f{w, p, nullptr};
  std::vector<Value> state;
  state.reserve(k.state.size());
  for (const Field& fd : k.state) state.push_back(eval(f, fd.init));  // sees params and self only
  return state;
}

void run_init(World& w, int32_t id) {
  Process& p = w.procs[id];
  exec_body(Frame{w, p, nullptr}, w.prog.kinds[p.kind].init);  // cannot fail (§4.9)
}

void deliver(World& w, int32_t id, int64_t ready_count) {
  Process& p = w.procs[id];
  Message m = p.mailbox.pop_front();
  w.queued--;
  w.memory_used -= Mailbox::cost(m);  // counted again as the deliver event
  // Readiness is re-marked once, after the handler: nothing reads the ready set
  // during a turn, and a process that keeps a message costs no update at all.
  Event e{EventKind::Deliver, w.turn};
  e.name = p.name;
  e.other = m.from;
  e.sig = m.sig;
  e.ready = ready_count;
  e.args = m.args;
  journal(w, std::move(e));

  const Kind& k = w.prog.kinds[p.kind];
  int32_t h = k.handler_of_sig[m.sig];
  try {
    if (h < 0) throw HandlerEnd{"NO_HANDLER"};  // §6.5
    exec_body(Frame{w, p, &m.args}, k.handlers[h].body);
  } catch (const HandlerEnd& end) {
    exit_process(w, id, end.reason);
  }
  mark_ready(w, id);
}

}  // namespace concord
