// oracle/state.hpp: the state of a run (SPEC §6–§8), plain data.
//
// Invariants:
// - A worker process is *ready* when it is alive and its mailbox is not empty;
//   `ready` holds exactly the ids of ready processes (mark_ready() keeps it so).
// - A process owns its mailbox; a message is owned by the mailbox it sits in, then
//   by the handler run that popped it. An exit discards mailbox and state.
// - Every name has at most one id for the whole run (`proc_of_name`); a restart
//   reuses the id. Supervisors have no id: they live in `sups`, one slot per
//   declared supervisor (pre-order), and a restart is a new incarnation in the
//   same slot.
// - `live` counts alive workers (the process limit, §6.6).
// - `memory_used` counts what the run holds and the text it adds to its result
//   (memory.hpp); charge() keeps it at most `memory_limit` or ends the run.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "program.hpp"
#include "ready_set.hpp"
#include "splitmix.hpp"

namespace concord {

struct RunSettings {
  uint64_t seed = 0;
  int64_t turns = 1000;          // turn limit L
  int64_t max_processes = 10000; // process limit P
};

using Value = int64_t;  // an int, or for addr a name id (type known statically)

struct Message {
  int32_t from;             // sender's name id; -1 for a given message
  int32_t sig;              // signature id: tag and argument types
  std::vector<Value> args;
};

// A FIFO queue that allocates nothing until the first message (std::deque
// allocates on construction: hundreds of bytes per idle process) and reuses its
// storage once drained.
class Mailbox {
 public:
  // The bytes a message is counted for while it is queued (memory.hpp).
  static int64_t cost(const Message& m) {
    return static_cast<int64_t>(sizeof(Message) + m.args.size() * sizeof(Value));
  }
  bool empty() const { return head_ == items_.size(); }
  size_t size() const { return items_.size() - head_; }
  int64_t bytes() const { return bytes_; }  // the cost of the messages queued
  void push_back(Message m) {
    bytes_ += cost(m);
    items_.push_back(std::move(m));
  }
  Message pop_front() {
    bytes_ -= cost(items_[head_]);
    Message m = std::move(items_[head_++]);
    if (head_ == items_.size()) clear();                        // drained: reuse storage
    else if (head_ >= 32 && head_ * 2 >= items_.size()) compact();  // amortised O(1)
    return m;
  }
  void clear() {
    items_.clear();
    head_ = 0;
    bytes_ = 0;
  }

 private:
  void compact() {
    items_.erase(items_.begin(), items_.begin() + static_cast<long>(head_));
    head_ = 0;
  }
  std::vector<Message> items_;
  size_t head_ = 0;    // index of the oldest message
  int64_t bytes_ = 0;  // cost() of the queued messages
};

struct Process {
  int32_t name;                // name id
  int32_t kind;                // index into Program::kinds
  std::vector<Value> params;   // creation arguments, kept for restarts
  std::vector<Value> state;    // state fields, in declaration order
  Mailbox mailbox;             // FIFO
  bool alive = false;
  int32_t sup = -1;            // supervisor slot of which it is a child; -1 unsupervised
};

struct ChildEntry {
  int32_t name;                // name id of the child (worker or supervisor)
  Restart restart;
  bool is_sup;                 // a nested supervisor (slot `sup_slot`) or a worker
  int32_t proc = -1;           // worker: its id
  int32_t sup_slot = -1;       // supervisor: its slot
  bool running = false;        // false: a transient child that ended, kept (§7.1)
};

struct Supervisor {
  const SupervisorDecl* decl;  // strategy, intensity, static children
  int32_t name;                // name id
  int32_t parent = -1;         // slot of its own supervisor; -1 for a root
  bool alive = false;
  int64_t restarts = 0;        // restarts of this incarnation (§7.4)
  std::vector<ChildEntry> children;  // the child list, in start order
};

enum class EventKind : uint8_t { Start, Deliver, Drop, Exit, Decision };
enum class Action : uint8_t { Restart, Keep, Remove, GiveUp };

// One journal entry (SPEC §9.2); fields used per kind are noted.
struct Event {
  Event(EventKind k, int64_t t) : kind(k), turn(t) {}
  EventKind kind;
  int64_t turn;
  int32_t name = -1;      // Start, Exit: the process; Deliver, Drop: receiver; Decision: child
  int32_t other = -1;     // Deliver, Drop: sender (-1: null); Decision: supervisor
  int32_t sig = -1;       // Deliver, Drop: message signature; Start: kind (-1: supervisor)
  int64_t ready = 0;      // Deliver: ready processes at the choice
  Action action = Action::Restart;  // Decision
  int32_t reason = -1;    // Exit: name id of "normal", "shutdown" or a failure code
  std::vector<Value> args;  // Deliver, Drop
};

struct World {
  const Program& prog;
  RunSettings run;
  SplitMix64 rng;
  int64_t turn = 0;                             // current turn number (0 at start)

  std::vector<std::string> names;               // name id -> name
  std::unordered_map<std::string, int32_t> name_ids;
  std::vector<int32_t> proc_of_name;            // name id -> process id, -1 if none yet
  std::deque<Process> procs;                    // by id; a deque keeps references stable
  std::vector<Supervisor> sups;                 // by pre-order slot
  std::vector<int64_t> spawned;                 // per kind: successful spawns so far
  ReadySet ready;
  int64_t live = 0;
  int64_t memory_used = 0;   // bytes counted so far (memory.hpp), text_bound included
  int64_t text_bound = 0;    // the longest the result line can be now (§9.3)
  int64_t memory_limit = 0;  // the run stops with OutOfMemory beyond it
  int64_t steps = 0;         // statements executed so far (memory.hpp)
  int64_t step_limit = 0;    // the run stops with OutOfSteps beyond it

  std::deque<Event> journal;  // a deque: growing it never copies it

  // Peaks of the run, for the sizes campaigns report (runners/failure.hpp RunSize):
  // no rule reads them.
  int64_t queued = 0;           // messages in all mailboxes now
  int64_t peak_queued = 0;      // the most at once
  int64_t deepest_mailbox = 0;  // the most in one mailbox at once

  World(const Program& p, const RunSettings& r) : prog(p), run(r), rng{r.seed} {}
};

}  // namespace concord
