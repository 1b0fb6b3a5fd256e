// oracle/state.hpp: the state of a run (SPEC §6–§8; version 2: §16–§21), plain data.
//
// Invariants:
// - A worker is *ready* when it is alive and either waits in a call whose reply
//   has come, or does not wait and its mailbox is not empty (§8.2; §18.3);
//   `ready` holds exactly the ids of ready processes (mark_ready() keeps it so).
// - A process owns its mailbox; a message is owned by the mailbox it sits in, then
//   by the handler run that popped it. An exit discards mailbox, state, trap flag,
//   links, monitors and a pending call (§17.1).
// - Every name has at most one id for the whole run (`proc_of_name`); a restart
//   reuses the id and starts a new *incarnation*: a signal queued for an older one
//   is stale and discarded (§16.3). Supervisors have no id: they live in `sups`,
//   one slot per declared supervisor (pre-order), and a restart is a new
//   incarnation in the same slot.
// - Links are symmetric: b is in a's `links` exactly when a is in b's. A monitor is
//   recorded twice, as (target, number) in its holder's `held` and as (holder,
//   number) in its target's `watched_by`; both lists are in creation order (numbers
//   only grow). A waiting caller's call monitor is one of them, marked `call`.
// - Between turns (after settling, §17.2) the signal queue is empty and no
//   supervisor has pending items; `pending_items` counts them all meanwhile.
// - A child entry is `running` while its supervisor believes it is (OTP: its pid
//   is set): a child that exited stays running until its supervisor handles the
//   pending exit (§17.3). `restarting` marks a failed restart whose retry is pending.
// - `live` counts alive workers (the process limit, §6.6); `waiting` counts the live
//   workers that wait in a call (the deadlock outcome, §18.3).
// - `memory_used` counts what the run holds and the text it adds to its result
//   (memory.hpp); charge() keeps it at most `memory_limit` or ends the run. That
//   covers version 2's state too: queued signals, links, monitors, pending items
//   and the activations of waiting callers.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "dialect.hpp"
#include "eval.hpp"  // Value
#include "observer.hpp"
#include "program.hpp"
#include "ready_set.hpp"
#include "splitmix.hpp"

namespace concord {

struct RunSettings {
  uint64_t seed = 0;
  int64_t turns = 1000;          // turn limit L
  int64_t max_processes = 10000; // process limit P
};


// What malloc takes for a block of `bytes` (glibc: a header of 8 bytes, rounded up
// to 16, at least 32), so that the memory count (memory.hpp) covers what a vector's
// storage really costs, not only its elements.
inline int64_t heap_bytes(size_t bytes) {
  return bytes == 0 ? 0 : static_cast<int64_t>(std::max<size_t>(32, (bytes + 8 + 15) & ~size_t{15}));
}
// A vector of n values, with the capacity push_back may have left it (a power of 2).
inline int64_t values_bytes(size_t n) { return heap_bytes(std::bit_ceil(n) * sizeof(int64_t)); }

struct Message {
  int32_t from;             // sender's name id; -1 for a given message
  int32_t sig;              // signature id: tag and argument types
  std::vector<Value> args;
  int32_t caller = -1;      // a call message (§18.1): the caller's id; -1 otherwise
  uint32_t caller_inc = 0;  // ... and the caller's incarnation
};

// A FIFO queue that allocates nothing until the first message (std::deque
// allocates on construction: hundreds of bytes per idle process) and reuses its
// storage once drained.
class Mailbox {
 public:
  static constexpr size_t kKeptSlots = 8;  // a small mailbox keeps its storage: no allocation per delivery
  // The bytes a message is counted for while it is queued (memory.hpp): its slot
  // 6 times over, and its arguments' block. The storage has at most twice the slots
  // of the queue counting the delivered ones not yet compacted away (compact() shrinks
  // it), which are at most as many as the queued ones: 4 slots per queued message,
  // 6 for the moment the storage moves as it grows (old and new).
  static int64_t cost(const Message& m) {
    return static_cast<int64_t>(6 * sizeof(Message)) + values_bytes(m.args.size());
  }
  // What an empty mailbox may keep: counted with its process.
  static constexpr int64_t kIdleBytes = kKeptSlots * sizeof(Message);
  bool empty() const { return head_ == items_.size(); }
  size_t size() const { return items_.size() - head_; }
  int64_t bytes() const { return bytes_; }  // the cost of the messages queued
  void push_back(Message m) {
    bytes_ += cost(m);
    items_.push_back(std::move(m));
  }
  // For alternatives only (dialect.hpp): a message to the front (MailboxLifo), and
  // the newest message from `from` taken back (SendsLostOnFailure; false: none).
  void push_front(Message m) {
    bytes_ += cost(m);
    if (head_ > 0)
      items_[--head_] = std::move(m);
    else
      items_.insert(items_.begin(), std::move(m));
  }
  bool remove_last_from(int32_t from, int64_t& freed) {
    for (size_t i = items_.size(); i-- > head_;)
      if (items_[i].from == from) {
        freed = cost(items_[i]);
        bytes_ -= freed;
        items_.erase(items_.begin() + static_cast<long>(i));
        return true;
      }
    return false;
  }
  Message pop_front() {
    bytes_ -= cost(items_[head_]);
    Message m = std::move(items_[head_++]);
    if (head_ == items_.size()) clear();                        // drained: reuse storage
    else if (head_ >= 32 && head_ * 2 >= items_.size()) compact();  // amortised O(1)
    return m;
  }
  void clear() {
    if (items_.capacity() > kKeptSlots) std::vector<Message>().swap(items_);  // a flood's storage goes
    items_.clear();
    head_ = 0;
    bytes_ = 0;
  }

 private:
  void compact() {
    items_.erase(items_.begin(), items_.begin() + static_cast<long>(head_));
    head_ = 0;
    // At most 2 slots per message left (cost()): a drained flood gives its storage back.
    if (items_.capacity() > kKeptSlots && items_.capacity() > 2 * items_.size()) items_.shrink_to_fit();
  }
  std::vector<Message> items_;
  size_t head_ = 0;    // index of the oldest message
  int64_t bytes_ = 0;  // cost() of the queued messages
};

// Where a running body goes on: the statement list, the next statement, and for
// the body of a `repeat` the rounds left including this one (1 otherwise).
struct Cursor {
  const std::vector<Stmt>* body;
  uint32_t pc;
  int64_t left;
};

// One run of a handler (or init): its continuation and what it answers. It
// survives a wait in a call (§18.1), so that the handler goes on after it.
struct Activation {
  std::vector<Cursor> stack;   // innermost body last; empty: the handler has ended
  std::vector<Value> args;     // the handler's parameters
  int32_t serving = -1;        // the waiting caller a `reply` answers (§18.1); -1: none, or answered
  uint32_t serving_inc = 0;    // ... its incarnation
  int32_t self_exit = -1;      // §16.3: exit(self, R) in a trapping unsupervised worker: R, applied at the end
};

// A worker waiting in a call (§18.1).
struct Wait {
  int32_t callee;          // id of the callee
  int32_t callee_name;     // its name id (the `from` of the resume event)
  int32_t bind;            // state field that receives the reply, -1 none
  bool replied = false;    // the reply has come: the caller is ready (§18.3)
  Value value = 0;         // the reply
  Type type = Type::Int;   // its type
  Activation act;          // where the handler goes on
};

// A monitor as one side sees it: the other process and the creation number.
struct Monitor {
  int32_t other;   // held: the target's id; watched_by: the holder's id
  int64_t number;  // creation number, counted over the run from 1 (§16.1)
  bool call;       // the monitor a waiting caller holds on its callee (§18.1)
};

struct Process {
  int32_t name;                // name id
  int32_t kind;                // index into Program::kinds
  std::vector<Value> params;   // creation arguments, kept for restarts
  std::vector<Value> state;    // state fields, in declaration order
  Mailbox mailbox;             // FIFO
  bool alive = false;
  int32_t sup = -1;            // supervisor slot of which it is a child; -1 unsupervised
  // Version 2 (§16.1): none of this survives an exit; a restart starts without it.
  uint32_t incarnation = 0;    // starts so far: a signal names the incarnation it is for
  int64_t started = 0;         // World::starts when this incarnation started: its pid's age (dialect.hpp)
  bool trap = false;           // trap flag (§16.2 trap_exit)
  uint8_t blocked = 0;         // settling inside its own spawn or API statement (§16.6)
  std::vector<int32_t> links;  // ids of the workers it is linked to
  std::vector<Monitor> held;        // monitors it holds, in creation order
  std::vector<Monitor> watched_by;  // monitors held on it, in creation order
  std::unique_ptr<Wait> wait;  // waiting in a call (§18), or null
};

struct ChildEntry {
  int32_t name;                // name id of the child (worker or supervisor)
  Restart restart;
  bool is_sup;                 // a nested supervisor (slot `sup_slot`) or a worker
  int32_t proc = -1;           // worker: its id
  int32_t sup_slot = -1;       // supervisor: its slot
  bool running = false;        // false: a child that ended, kept (§7.1), or never started (§19.2)
  bool significant = false;    // §21
  bool restarting = false;     // a failed restart whose retry is pending (§19.3)
};

// A supervisor's pending item (§17.3): the exit of a child, or the retry of a
// failed restart.
struct PendingItem {
  bool retry;        // a retry (§19.3); otherwise an exit (§17.1 step 4)
  int32_t child;     // name id of the child
  int32_t reason;    // exit: the reason's name id
};

struct Supervisor {
  const SupervisorDecl* decl;  // strategy, intensity, auto_shutdown, static children
  int32_t name;                // name id
  int32_t parent = -1;         // slot of its own supervisor; -1 for a root
  bool alive = false;
  int64_t restarts = 0;        // restarts of this incarnation (§7.4)
  std::vector<ChildEntry> children;  // the child list, in start order
  std::deque<PendingItem> pending;   // in the order they came (§17.3)
};

// A signal on its way (§16.3), in the turn's signal queue (§17.1 step 3).
enum class SignalKind : uint8_t { Link, Exit, Down, Call };
enum class SignalEffect : uint8_t { Exit, Message, Ignore };
struct Signal {
  SignalKind kind;
  int32_t from;      // name id: the exiting process, or for Exit the sender
  int32_t to;        // id of the receiver
  uint32_t to_inc;   // ... and the incarnation it is for
  int32_t reason;    // name id of the reason; -1 for exit(e, kill)
};

enum class EventKind : uint8_t { Start, Deliver, Drop, Exit, Decision, Signal, Call, Resume, Api };
enum class Action : uint8_t { Restart, Keep, Remove, GiveUp, AutoShutdown };
enum class ApiResult : uint8_t { Ok, NotFound, Running, Restarting, Ignored, Failed };  // §20, numbered 0..5

// One journal entry (SPEC §9.2, §22); fields used per kind are noted.
struct Event {
  Event(EventKind k, int64_t t) : kind(k), turn(t) {}
  EventKind kind;
  uint8_t sub = 0;        // Signal: SignalKind; Api: ApiOp
  uint8_t effect = 0;     // Signal: SignalEffect; Api: ApiResult
  Type vtype = Type::Int; // Resume: the value's type
  int64_t turn;
  int32_t name = -1;      // Start, Exit: the process; Deliver, Call, Drop, Resume: receiver;
                          // Decision: child; Signal: receiver; Api: caller
  int32_t other = -1;     // Deliver, Call, Drop, Resume: sender (-1: null); Decision, Api: supervisor;
                          // Signal: from
  int32_t sig = -1;       // Deliver, Call, Drop: message signature; Start: kind (-1: supervisor)
  int32_t child = -1;     // Api: the child's name id
  int64_t ready = 0;      // Deliver, Call, Resume: ready processes at the choice
  Action action = Action::Restart;  // Decision
  int32_t reason = -1;    // Exit, Signal: reason's name id (Signal: -1 for kill)
  std::vector<Value> args;  // Deliver, Call, Drop; Resume: {value}
};

// Name ids of the reasons and codes the rules use (interned at the start of a run).
struct ReasonIds {
  int32_t normal, shutdown, killed, noproc;                      // §15
  int32_t NORMAL, SHUTDOWN, KILLED, NOPROC;                      // code(R), §15
  int32_t NO_HANDLER, DIV_ZERO, SYSTEM_LIMIT, CALLING_SELF, BAD_REPLY;
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
  int64_t waiting = 0;                          // live workers waiting in a call (§18.3)
  ReasonIds words{};

  // Version 2 (§17).
  std::deque<Signal> signals;                   // the signal queue (§17.1 step 3)
  int64_t pending_items = 0;                    // pending items of all supervisors (§17.3)
  int64_t monitors_made = 0;                    // creation numbers (§16.1)

  // Activations of the code running now, innermost last: a handler, and inside its
  // spawn or API statement the init of a process started meanwhile. Reused from run
  // to run, so a delivery allocates nothing for its continuation.
  std::vector<Activation> acts;
  size_t act_depth = 0;
  int64_t memory_used = 0;   // bytes counted so far (memory.hpp), text_bound included
  int64_t text_bound = 0;    // the longest the result line can be now (§9.3)
  int64_t memory_limit = 0;  // the run stops with OutOfMemory beyond it
  int64_t steps = 0;         // statements executed so far (memory.hpp)
  int64_t step_limit = 0;    // the run stops with OutOfSteps beyond it

  std::deque<Event> journal;  // a deque: growing it never copies it

  // Peaks of the run, for the sizes campaigns report (runners/campaign/failure.hpp RunSize):
  // no rule reads them.
  int64_t queued = 0;           // messages in all mailboxes now
  int64_t peak_queued = 0;      // the most at once
  int64_t deepest_mailbox = 0;  // the most in one mailbox at once

  // The dialect the run follows (dialect.hpp): SPEC but in replays. `taken`: the
  // alternatives that changed what their rule did; `unordered`: the journal's parts
  // whose order an alternative leaves free.
  Dialect dialect;
  AltSet taken;
  int64_t changes = 0;  // how many times an alternative changed what its rule did
  std::vector<UnorderedSpan> unordered;
  int64_t starts = 0;  // worker starts so far (Process::started)
  // Books that some alternatives keep, empty in SPEC's runs: this turn's sends
  // (SendsLostOnFailure: `to` an id, or -1 for a drop, journaled as event `event`),
  // each process's state before its last handler (FinalStateBeforeLastTurn), spawns
  // of the run (SpawnNumberPerProgram) and the spawned names (SpawnDigitsReversed).
  struct Sent {
    int32_t from, to;
    size_t event;
  };
  std::vector<Sent> sent;
  std::unordered_map<int32_t, std::vector<Value>> before_last;
  int64_t spawned_all = 0;
  std::vector<int32_t> spawned_names;
  unsigned __int128 wide_state = 0;  // DrawStateUnmasked: the generator's state, never reduced
  int32_t spawner = -1, spawning = -1;  // InitSendsAsSpawner: who spawns the process whose init runs
  std::vector<int32_t> trapped;         // RestartKeepsTrap: ids whose last incarnation trapped exits
  struct Unanswered {
    int32_t callee, caller;
    uint32_t caller_inc;
  };
  std::vector<Unanswered> unanswered;  // UnansweredCallStays: calls a handler ended without answering

  // Observation only, for triage (attribution.cpp, attribution_links.cpp): called with a worker as it exits,
  // before its mailbox, links and monitors go and its `exit` event is journaled (§6.4, §17.1).
  // No rule reads it; null in every run but triage's.
  std::function<void(const World&, const Process&)> discarding;
  // Observation only, to write the run as a free run's trace (observer.hpp): null in
  // every run but those.
  RunObserver* observer = nullptr;

  World(const Program& p, const RunSettings& r) : prog(p), run(r), rng{r.seed} {}
};

}  // namespace concord
