// oracle/rules.hpp: the interpreter's rules, one function each, with the SPEC
// section it implements. This is the index of the semantics: read it beside SPEC.md.
#pragma once

#include <string>

#include "state.hpp"

namespace concord {

// How a start ended (§19.1).
enum class Started : uint8_t { Ok, Ignored, Failed };
// Why a worker exits, as far as its supervisor is concerned (§17.1 step 4).
enum class ExitCause : uint8_t {
  Own,           // by itself (its handler, a failure, a signal, a failed call): a pending exit
  BySupervisor,  // terminated by its supervisor (§7.5): consumed by it
  FailedStart,   // its start failed or was ignored (§19.1): the starter's business
};

// --- processes (processes.cpp) ------------------------------------------------
int32_t intern_name(World& w, const std::string& name);    // §2
int32_t new_process(World& w, int32_t name, int32_t kind,  // §8.1 the next id
                    std::vector<Value> params, int32_t sup);
Started start_worker(World& w, int32_t id);                           // §6.7, §19.1 (re)start: fresh state, init
void exit_worker(World& w, int32_t id, int32_t reason, ExitCause c);  // §17.1 what an exit does, in order
void mark_ready(World& w, int32_t id);                                // §8.2, §18.3 who is ready
void send_message(World& w, int32_t from, int32_t to, int32_t sig,    // §6.5 enqueue or drop
                  std::vector<Value> args);
void append_message(World& w, int32_t id, Message m);                        // §6.5 to a live process's mailbox
void journal_decision(World& w, int32_t sup_slot, int32_t child, Action a);  // §9.2
int32_t code_of(const World& w, int32_t reason);                             // §15 code(R)
inline bool is_abnormal(const World& w, int32_t reason) {                    // §15
  return reason != w.words.normal && reason != w.words.shutdown;
}

// --- links, monitors, signals (signals.cpp) --------------------------------------
void link_pair(World& w, int32_t a, int32_t b);                             // §16.2 link
void unlink_pair(World& w, int32_t a, int32_t b);                           // §16.2 unlink
void add_monitor(World& w, int32_t holder, int32_t target, bool call);      // §16.2 monitor, §18.1 call
void remove_monitor(World& w, int32_t holder, int32_t target, bool call);   // §16.2 demonitor, §18.1 reply
void journal_signal(World& w, SignalKind k, int32_t from, int32_t to_name,  // §22 the signal event
                    int32_t reason, SignalEffect e);
void queue_signal(World& w, Signal s);                                  // §17.1 step 3, counted (§11)
void apply_signal(World& w, const Signal& s);                           // §16.3 a signal's effect
void settle(World& w);                                                  // §17.2 signals, then supervisors
void journal(World& w, Event e);                                        // §9.2 append, counted (§11)
void charge(World& w, int64_t held, int64_t text = 0);                  // §11 memory bound, else OutOfMemory
inline void release(World& w, int64_t held) { w.memory_used -= held; }  // §11 what charge() counted, freed

// What version 2's state is counted for while it is held (§11): a link (an entry
// on each side), a monitor (its holder's and its target's record), a caller's wait
// with its continuation. A queued signal counts sizeof(Signal), a pending item
// sizeof(PendingItem).
constexpr int64_t kLinkCost = 2 * sizeof(int32_t);
constexpr int64_t kMonitorCost = 2 * sizeof(Monitor);
inline int64_t wait_cost(const Wait& x) {
  return static_cast<int64_t>(sizeof(Wait) + x.act.stack.size() * sizeof(Cursor) + x.act.args.size() * sizeof(Value));
}

// --- statements and expressions (exec.cpp) -------------------------------------
std::vector<Value> initial_state(World& w, Process& p);   // §6.7 state initialisers
void run_init(World& w, int32_t id);                      // §6.7, §19.1 init body (throws HandlerEnd)
void deliver(World& w, int32_t id, int64_t ready_count);  // §8.2 steps 5-6, §18.1 call
void resume(World& w, int32_t id, int64_t ready_count);   // §18.1, §18.3 a waiting caller goes on

// Ends the running code: the process exits with `reason` (§6.4), or it has exited
// already (`gone`: a signal reached it, §16.2, §17.2), or init returned ignore.
struct HandlerEnd {
  int32_t reason;
  bool gone = false;
  bool ignore = false;
};

// --- results (result.cpp): the most text each item adds to the result line (§9.3)
int64_t event_text_bound(const World& w, const Event& e);      // the event, and its failure or decision record
int64_t process_text_bound(const World& w, const Process& p);  // its `processes` and `alive` entries
int64_t child_text_bound(const World& w, int32_t name);        // a `children` entry
int64_t fixed_text_bound(const World& w);                      // run, outcome, supervisors' static entries

// --- supervision (supervision.cpp) ----------------------------------------------
Started start_supervisor(World& w, int32_t slot);                      // §6.7, §19.2 new incarnation
void add_dynamic_child(World& w, int32_t slot, int32_t id, Restart r,  // §7.6, §19.4
                       bool significant, Started how);
void add_pending_exit(World& w, int32_t slot, int32_t child, int32_t reason);  // §17.1 step 4
void handle_pending(World& w, int32_t slot);                                   // §17.3 until none is left
ApiResult api_request(World& w, int32_t slot, ApiOp op, int32_t child);        // §20

}  // namespace concord
