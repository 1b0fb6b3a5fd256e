// runners/protocol/answer_bound.cpp: counting, for a program, the most events a run can
// journal, in saturating arithmetic. Per turn: the delivery; what the handler's
// statements journal (a send at most one event, a drop; a spawn the new process's
// start and what its init journals, at most one event per send it executes: init
// only sends, §4.9; an `if` the more of its branches, a `repeat` n times its body);
// then at most one exit of the running process, and, when the program has
// supervisors, their reaction to it: at every level of the tree a decision, and
// every entry of the child lists terminated and started again with its init
// (§7.3–§7.5). Entries are the static ones plus every dynamic child spawned so far.
// A test checks the bound against the oracle's own lines.
//
// Version 2 (SPEC §16–§21) counts over the whole run instead, since one exit can
// spread along links and restarts can fail and be retried: every start of a worker
// (static, spawned, or restarted by a restart round: a supervisor's restart decision
// or a restart_child, each starting at most every entry) journals its start, at most
// one exit, and what its init does; every statement that can journal (send, link,
// monitor, exit, call) at most one event of its own, at once or later (a link or
// monitor at most one signal when it fires, a call at most one call signal); each
// supervisor incarnation at most its intensity + 1 restart decisions (§7.4), a
// nested one restarted only by a round above it or by the API.
#include "answer_bound.hpp"

#include <algorithm>

#include "oracle/check.hpp"
#include "oracle/error.hpp"
#include "oracle/memory.hpp"

namespace concord {
namespace {

using U = unsigned __int128;
constexpr U kHuge = U{1} << 100;

U sat(U v) { return std::min(v, kHuge); }

// The most a body can do when it runs once, counting `cost` for each statement.
template <class Cost>
U most(const std::vector<Stmt>& body, const Cost& cost) {
  U w = 0;
  for (const Stmt& s : body) {
    if (s.kind == StmtKind::Repeat)
      w += static_cast<U>(std::max<int64_t>(s.count, 0)) * most(s.body, cost);
    else if (s.kind == StmtKind::If)
      w += std::max(most(s.body, cost), most(s.orelse, cost));
    else
      w += cost(s);
    w = sat(w);
  }
  return w;
}

struct Tree {
  U processes = 0, supervisors = 0, entries = 0;
  int depth = 0;
  std::vector<U> per_level;  // version 2: supervisors at each depth (1: roots)
  U intensity = 0;           // version 2: the largest intensity
};

void walk(const Decl& d, int depth, Tree& t) {
  if (std::holds_alternative<ProcessDecl>(d)) {
    t.processes++;
    return;
  }
  const SupervisorDecl& s = std::get<SupervisorDecl>(d);
  t.supervisors++;
  t.depth = std::max(t.depth, depth);
  if (t.per_level.size() < static_cast<size_t>(depth)) t.per_level.resize(depth, 0);
  t.per_level[depth - 1]++;
  t.intensity = std::max<U>(t.intensity, static_cast<U>(std::max<int64_t>(s.intensity, 0)));
  for (const Child& c : s.children) {
    t.entries++;
    walk(c.decl, depth + 1, t);
  }
}

U count_of(StmtKind k, const Stmt& s) { return s.kind == k ? 1 : 0; }

// Version 2: the events of a whole run, at most (see the top of the file).
U events_v2(const Program& p, const Tree& t, U turns) {
  auto handlers = [&](StmtKind k) {
    U m = 0;
    for (const Kind& kd : p.kinds)
      for (const Handler& h : kd.handlers) m = std::max(m, most(h.body, [k](const Stmt& s) { return count_of(k, s); }));
    return sat(turns * m);
  };
  auto inits = [&](StmtKind k) {
    U m = 0;
    for (const Kind& kd : p.kinds) m = std::max(m, most(kd.init, [k](const Stmt& s) { return count_of(k, s); }));
    return m;
  };
  auto under = [](const Stmt& s) -> U { return s.kind == StmtKind::Spawn && !s.under.empty() ? 1 : 0; };
  U dynamic = 0;
  for (const Kind& kd : p.kinds)
    for (const Handler& h : kd.handlers) dynamic = std::max(dynamic, most(h.body, under));
  U spawned = handlers(StmtKind::Spawn), api = handlers(StmtKind::Api);
  U entries = sat(t.entries + turns * dynamic);
  // Incarnations of supervisors and restart decisions, level by level from the roots.
  U k = t.intensity + 2, rounds_above = 0, incarnations = 0, decisions = 0;
  for (U n : t.per_level) {
    U each = sat(1 + rounds_above + api);  // incarnations of one supervisor at this level
    incarnations = sat(incarnations + n * each);
    U d = sat(sat(n * each) * k);
    decisions = sat(decisions + d);
    rounds_above = sat(rounds_above + d);
  }
  U starts = sat(t.processes + spawned + sat(sat(decisions + api) * entries));
  U stmts = 0;  // statements that journal one event each, at once or later
  for (StmtKind s : {StmtKind::Send, StmtKind::Link, StmtKind::Monitor, StmtKind::Exit, StmtKind::Call})
    stmts = sat(stmts + handlers(s) + sat(starts * inits(s)));
  // Starts and exits of workers and supervisors; decisions (one per pending item:
  // an exit or a retry); one delivery, call or resume per turn; the API's answers.
  return sat(3 * starts + 3 * incarnations + decisions + stmts + api + turns + p.given.size() + 16);
}

}  // namespace

size_t answer_parse_limit() { return std::max(kErrorLineBound, static_cast<size_t>(oracle_memory_limit()) / 16); }

size_t answer_bytes_bound(const Program& p, const RunSettings& r) {
  auto sends = [](const Stmt& s) -> U { return s.kind == StmtKind::Send ? 1 : 0; };
  auto spawns = [](const Stmt& s) -> U { return s.kind == StmtKind::Spawn ? 1 : 0; };
  auto dynamic = [](const Stmt& s) -> U { return s.kind == StmtKind::Spawn && !s.under.empty() ? 1 : 0; };
  U init = 0, args = 0, fields = 0;
  for (const Kind& k : p.kinds) {
    init = std::max(init, most(k.init, sends));
    fields = std::max<U>(fields, k.state.size());
  }
  U start = 1 + init;  // a process's start event and its init's events
  auto journaled = [&](const Stmt& s) -> U {
    return s.kind == StmtKind::Send ? 1 : s.kind == StmtKind::Spawn ? start : 0;
  };
  U handler = 0, spawn = 0, under = 0;  // per turn, at most: events, spawns, dynamic children
  for (const Kind& k : p.kinds)
    for (const Handler& h : k.handlers) {
      handler = std::max(handler, most(h.body, journaled));
      spawn = std::max(spawn, most(h.body, spawns));
      under = std::max(under, most(h.body, dynamic));
    }
  for (const Signature& s : p.sigs) args = std::max<U>(args, s.types.size());
  Tree t;
  for (const Decl& d : p.system) walk(d, 1, t);
  U turns = static_cast<U>(std::max<int64_t>(r.turns, 0));
  U spawned = sat(turns * spawn);              // processes spawned over the run, at most
  U entries = sat(t.entries + turns * under);  // child-list entries, at most
  U reaction = t.supervisors == 0 ? 0 : sat(static_cast<U>(t.depth + 1) * sat(2 + entries * (2 + start)));
  U per_turn = sat(2 + handler + reaction);
  U events = p.version >= 2 ? events_v2(p, t, turns)
                            : sat(t.processes * start + t.supervisors + p.given.size() + sat(turns * per_turn));
  // Longest texts (names: 32 characters, spawned ones 52; integers 20 digits;
  // reasons 32): an event with its failure or decision record; a process in
  // `processes` and `alive`.
  U event_bytes = 512 + args * 64, process_bytes = 256 + fields * 96;
  U bytes =
      sat(4096 + events * event_bytes + sat(t.processes + spawned) * process_bytes + (t.supervisors + entries) * 128);
  U limit = static_cast<U>(oracle_memory_limit());
  return static_cast<size_t>(std::max<U>(kErrorLineBound, std::min(bytes, limit)));
}

// A trace (SPEC §25.6) lists every event twice at most (a send in its sender's
// events, the delivery in its receiver's) with a few more keys; its runs are not
// the oracle's, so the oracle's memory limit bounds it only as 4 times that.
size_t trace_bytes_bound(const Program& p, const RunSettings& r) {
  size_t conducted = answer_bytes_bound(p, r);
  return conducted > SIZE_MAX / 4 ? SIZE_MAX : 4 * conducted;
}

size_t answer_bytes_bound(const Program& p, const RunSettings& r, RunMode mode) {
  return mode == RunMode::Free ? trace_bytes_bound(p, r) : answer_bytes_bound(p, r);
}

std::vector<size_t> answer_bytes_bounds(const ojson& program, const std::vector<RunSettings>& runs, RunMode mode) {
  std::vector<size_t> out(runs.size(), kErrorLineBound);
  try {
    Program p = program_from_json(program);
    check(p);
    for (size_t i = 0; i < runs.size(); i++) out[i] = answer_bytes_bound(p, runs[i], mode);
  } catch (const InputError&) {
    // not a valid program: every answer is an error line
  }
  return out;
}

}  // namespace concord
