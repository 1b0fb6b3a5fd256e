// oracle/rules.hpp: the interpreter's rules, one function each, with the SPEC
// section it implements. This is the index of the semantics: read it beside SPEC.md.
#pragma once

#include <string>

#include "state.hpp"

namespace concord {

// --- processes (processes.cpp) ------------------------------------------------
int32_t intern_name(World& w, const std::string& name);                // §2
int32_t create_process(World& w, int32_t name, int32_t kind,           // §8.1 new id, §6.7
                       std::vector<Value> params, int32_t sup);
void start_process(World& w, int32_t id);                              // §6.7 (re)start: fresh state, init
void end_process(World& w, int32_t id, const std::string& reason);     // §6.4 dead, mailbox dropped, exit event
void exit_process(World& w, int32_t id, const std::string& reason);    // §6.4 own exit, then §7 reaction
void mark_ready(World& w, int32_t id);                                 // §8.2 ready = alive, mailbox not empty
void send_message(World& w, int32_t from, int32_t to, int32_t sig,     // §6.5 enqueue or drop
                  std::vector<Value> args);
void journal_decision(World& w, int32_t sup_slot, int32_t child, Action a);  // §9.2
void journal(World& w, Event e);                                             // §9.2 append, counted (§11)
void charge(World& w, int64_t held, int64_t text = 0);                       // §11 memory bound, else OutOfMemory

// --- statements and expressions (exec.cpp) -------------------------------------
void run_init(World& w, int32_t id);                                   // §6.7 init body
void deliver(World& w, int32_t id, int64_t ready_count);               // §8.2 steps 5-6
std::vector<Value> initial_state(World& w, Process& p);          // §6.7 state initialisers

// --- results (result.cpp): the most text each item adds to the result line (§9.3)
int64_t event_text_bound(const World& w, const Event& e);      // the event, and its failure or decision record
int64_t process_text_bound(const World& w, const Process& p);  // its `processes` and `alive` entries
int64_t child_text_bound(const World& w, int32_t name);        // a `children` entry
int64_t fixed_text_bound(const World& w);                      // run, outcome, supervisors' static entries

// --- supervision (supervision.cpp) ----------------------------------------------
void start_supervisor(World& w, int32_t slot);                         // §6.7 new incarnation
void add_dynamic_child(World& w, int32_t slot, int32_t id, Restart r); // §7.6
void child_exited(World& w, int32_t slot, int32_t child, const std::string& reason);  // §7.2

inline bool is_failure(const std::string& reason) { return reason != "normal" && reason != "shutdown"; }

}  // namespace concord
