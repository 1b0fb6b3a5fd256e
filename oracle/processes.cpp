// oracle/processes.cpp: life and death of worker processes and message passing
// (SPEC §6.4–§6.7, §8.1).
#include <algorithm>

#include "memory.hpp"
#include "rules.hpp"

namespace concord {

void charge(World& w, int64_t held, int64_t text) {
  w.memory_used += held + text;
  w.text_bound += text;
  if (w.memory_used > w.memory_limit)
    throw OutOfMemory("the run needs more than the oracle's memory limit of " + size_text(w.memory_limit) +
                      " (at turn " + std::to_string(w.turn) + "; $" + kOracleMemoryVariable + " sets it)");
}

void journal(World& w, Event e) {
  charge(w, static_cast<int64_t>(sizeof(Event) + e.args.size() * sizeof(Value)), event_text_bound(w, e));
  w.journal.push_back(std::move(e));
}

int32_t intern_name(World& w, const std::string& name) {
  auto it = w.name_ids.find(name);
  if (it != w.name_ids.end()) return it->second;
  int32_t id = static_cast<int32_t>(w.names.size());
  charge(w, 96 + 2 * static_cast<int64_t>(name.size()));  // the string, its map node, its slot
  w.names.push_back(name);
  w.name_ids.emplace(name, id);
  w.proc_of_name.push_back(-1);
  return id;
}

void mark_ready(World& w, int32_t id) {
  const Process& p = w.procs[id];
  w.ready.set(id, p.alive && !p.mailbox.empty());
}

int32_t create_process(World& w, int32_t name, int32_t kind, std::vector<Value> params, int32_t sup) {
  int32_t id = static_cast<int32_t>(w.procs.size());
  w.proc_of_name[name] = id;
  Process& p = w.procs.emplace_back();
  p.name = name;
  p.kind = kind;
  p.params = std::move(params);
  p.sup = sup;
  const Kind& k = w.prog.kinds[kind];
  charge(w, static_cast<int64_t>(sizeof(Process) + 16 + (p.params.size() + k.state.size()) * sizeof(Value)),
         process_text_bound(w, p));
  start_process(w, id);
  return id;
}

void start_process(World& w, int32_t id) {
  Process& p = w.procs[id];
  p.alive = true;
  w.queued -= static_cast<int64_t>(p.mailbox.size());
  w.memory_used -= p.mailbox.bytes();
  p.mailbox.clear();
  p.state = initial_state(w, p);
  w.live++;
  Event e{EventKind::Start, w.turn};
  e.name = p.name;
  e.sig = p.kind;
  journal(w, std::move(e));
  run_init(w, id);
}

void end_process(World& w, int32_t id, const std::string& reason) {
  Process& p = w.procs[id];
  p.alive = false;
  w.queued -= static_cast<int64_t>(p.mailbox.size());
  w.memory_used -= p.mailbox.bytes();
  p.mailbox.clear();
  p.state.clear();
  w.live--;
  mark_ready(w, id);
  Event e{EventKind::Exit, w.turn};
  e.name = p.name;
  e.reason = intern_name(w, reason);
  journal(w, std::move(e));
}

void exit_process(World& w, int32_t id, const std::string& reason) {
  end_process(w, id, reason);
  const Process& p = w.procs[id];
  if (p.sup >= 0) child_exited(w, p.sup, p.name, reason);
}

void send_message(World& w, int32_t from, int32_t to, int32_t sig, std::vector<Value> args) {
  int32_t id = w.proc_of_name[to];
  if (id < 0 || !w.procs[id].alive) {
    Event e{EventKind::Drop, w.turn};
    e.name = to;
    e.other = from;
    e.sig = sig;
    e.args = std::move(args);
    journal(w, std::move(e));
    return;
  }
  Message m{from, sig, std::move(args)};
  charge(w, Mailbox::cost(m));
  Mailbox& box = w.procs[id].mailbox;
  box.push_back(std::move(m));
  w.peak_queued = std::max(w.peak_queued, ++w.queued);
  w.deepest_mailbox = std::max(w.deepest_mailbox, static_cast<int64_t>(box.size()));
  mark_ready(w, id);
}

void journal_decision(World& w, int32_t sup_slot, int32_t child, Action a) {
  Event e{EventKind::Decision, w.turn};
  e.name = child;
  e.other = w.sups[sup_slot].name;
  e.action = a;
  journal(w, std::move(e));
}

}  // namespace concord
