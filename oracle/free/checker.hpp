// oracle/free/checker.hpp: what the checks of a trace share (SPEC §25.8): the
// trace, each incarnation's replay, who started whom, and how each exit was
// accounted for. The checks themselves are one file each: check_trace.cpp (the
// order of the checks, workers' replays, who started whom), sup_replay.cpp (the
// supervisors), messages.cpp (deliveries against sends, pair order, completeness),
// signals.cpp (version 2's signals, calls, the API), happens_before.cpp (the
// causal graph, names and limits).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "oracle/free/causal.hpp"
#include "oracle/free/check_trace.hpp"
#include "oracle/free/replay.hpp"
#include "oracle/free/trace.hpp"

namespace concord {

// How an incarnation's exit was taken (§25.3 G3, §25.4 G9).
enum class ExitFate : uint8_t {
  Unseen,      // no supervisor took it (unsupervised, or its supervisor ended first)
  Handled,     // its supervisor handled it as an input
  Consumed,    // its supervisor terminated it after it had exited by itself (§17.3)
  Terminated,  // its supervisor terminated it: the exit came from the supervisor
};

struct SupReplay {
  bool done = false;
  StartEnd start = StartEnd::Ok;
  // For the causal graph: per input (and its start, and a termination from
  // outside), the children it started and terminated, in the order it did.
  struct Act {
    long event;  // -1: the start; the events' count: terminated from outside; else the input's index
    std::vector<std::pair<bool, size_t>> steps;  // (started, process index): a start, else a termination
  };
  std::vector<Act> acts;
  std::vector<ojson> final_children;  // alive at the end: its children as §9.1 lists them
  bool gave_up = false;               // ended itself (give_up, auto_shutdown)
};

struct Checker {
  Checker(const Program& prog, Trace& trace);

  const Program& p;
  Trace& t;
  std::map<std::pair<int32_t, int64_t>, size_t> at;  // (name, inc) -> process index
  std::vector<WorkerReplay> workers;                 // by process index (supervisors' slots unused)
  std::vector<uint8_t> replaying;                    // 0: not yet, 1: in progress, 2: done
  std::vector<SupReplay> sups;                       // by process index (workers' slots unused)
  std::vector<ExitFate> fate;                        // by process index
  std::vector<long> fate_by;                         // the supervisor that took the exit, -1 none
  std::vector<uint8_t> explained;                    // an exit from outside whose cause was found
  std::vector<uint8_t> signal_ends;                  // a signal can have ended it with its reason (sup_replay.cpp)
  std::vector<long> started_by;                    // the process whose step started it; -2: the outside; -1: nobody yet
  std::vector<int32_t> sup_index;                  // a supervisor process's declaration index
  std::vector<const SupervisorDecl*> decls;        // declared supervisors by index
  std::vector<int32_t> parent;                     // by declaration index: the parent's, -1 a root
  std::map<int32_t, const ProcessDecl*> declared;  // declared workers by name id
  std::map<int32_t, int32_t> supervisor_of;        // declared worker name -> its supervisor's index (-1 root)
  std::map<int32_t, int64_t> next_inc;             // per child name: incarnations its supervisors started so far
  std::vector<Violation> violations;
  TraceVerdict verdict;

  size_t find(const IncRef& r) const;  // the process index, or kUnrecorded when the trace lacks it
  bool has(const IncRef& r) const { return find(r) != kUnrecorded; }
  std::string name(size_t proc) const { return inc_text(t.names, t.processes[proc].id); }

  // The replay of worker `i`, replaying it (and the spawner its arguments come
  // from) if not done. Throws ViolationError.
  const WorkerReplay& worker(size_t i);

  void add(Violation v);  // collected, at most kMaxViolations
  // `who` is started by the step of `starter` (-2: the outside); a second claim is a violation.
  void claim(size_t who, long starter, const std::string& how);
};

// The checks, in the order check_trace() runs them. Each adds its violations.
void claim_roots_and_spawns(Checker& c);  // check_trace.cpp
void replay_supervisors(Checker& c);      // sup_replay.cpp
void check_all_started(Checker& c);       // check_trace.cpp
void check_messages(Checker& c);          // messages.cpp
void check_signals(Checker& c);           // signals.cpp
void check_happens_before(Checker& c);    // happens_before.cpp: G5, G6 drops, G8 order, G10

}  // namespace concord
