// oracle/free/trace.hpp: a free run's trace (SPEC §25.6), plain data, and its
// reader. A trace lists every incarnation of the run with what happened to it, in
// the order it happened to it; nothing orders two incarnations but what the
// events themselves say (a delivery names its send). Names and reasons are name ids
// of one table that starts with the program's (Program::names), so that the ids of
// addr and reason literals are the ones the replay's expressions give.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "oracle/program.hpp"
#include "oracle/program_json.hpp"
#include "oracle/state.hpp"

namespace concord {

// Names and reasons, interned.
class NameTable {
 public:
  explicit NameTable(const Program& p);
  int32_t intern(const std::string& name);
  int32_t find(const std::string& name) const;  // -1 when never interned
  const std::string& operator[](int32_t id) const { return names_[static_cast<size_t>(id)]; }
  size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, int32_t> ids_;
};

// An incarnation as a trace names it, `[name, inc]` (§25.2); name -1: none (the
// outside, or no live incarnation).
struct IncRef {
  int32_t name = -1;
  int64_t inc = 0;
  bool none() const { return name < 0; }
  bool operator==(const IncRef& o) const { return name == o.name && inc == o.inc; }
};

enum class TraceEv : uint8_t {
  // a worker's turns and the signals that reached it
  Deliver,  // a turn on a message (a system message too: `signal` says which)
  Resume,   // a turn: a waiting caller resumes
  Signal,   // a signal's effect other than a message
  // a worker's effects (§25.2), numbered
  Send,
  Drop,
  Spawn,
  Link,
  Unlink,
  Monitor,
  Demonitor,
  ExitSignal,
  Call,
  Reply,
  Api,
  // a supervisor's inputs and decisions
  ChildExit,
  StartChild,
  Retry,
  ApiRequest,
  Decision,
};
const char* trace_ev_name(TraceEv e);  // the `ev` word ("deliver", ...; a supervisor's ChildExit is "exit")
bool is_effect(TraceEv e);             // Send ... Api

// One event; the fields its kind uses are noted (§25.6's table).
struct TraceEvent {
  TraceEv ev = TraceEv::Deliver;
  std::string where;  // its JSON pointer in the trace
  IncRef from;        // Deliver, Resume, Signal, StartChild, ApiRequest: the sender; ChildExit: the child
  int64_t n = 0;      // effects: its number; Deliver, Resume, Signal (exit), StartChild, ApiRequest: the
                      // sender's effect; a given message: its index from 1; Deliver noproc: own effect
  int32_t tag = -1;   // Deliver: the tag (name id)
  ojson args;         // Deliver: the arguments as written; Resume: the value
  bool call = false;  // Deliver: a call message (§18.1)
  std::string signal;    // Deliver of exit/down: link, exit, down or noproc; Signal: its kind
  int64_t monitor = 0;   // Deliver with signal down: the receiver's own monitor effect it answers
  int32_t to = -1;       // effects on a name: the name
  IncRef reached;        // Send, Link, ...: the incarnation found (none: no live process)
  int32_t name = -1;     // Spawn: the name given; StartChild, Retry, Decision: the child's name
  std::string result;    // Spawn: ok, failed, ignored; Api: §20's word
  std::string refused;   // Spawn: SYSTEM_LIMIT or NOPROC
  int32_t reason = -1;   // Signal, ChildExit: the reason
  std::string effect;    // Signal: exit or ignore
  std::string op;        // Api: the request
  IncRef supervisor;     // Api: the supervisor incarnation found (none: no live one)
  std::string action;    // Decision: restart, keep, remove, give_up, auto_shutdown
};

struct TraceProcess {
  IncRef id;
  bool supervisor = false;
  std::string kind;  // a worker's kind, as written ("" for a supervisor)
  IncRef by;         // who started it; none: the outside (a root)
  std::vector<TraceEvent> events;
  int32_t exit = -1;  // its exit reason, -1: alive at the end
  ojson state;        // a live worker's final state; a live supervisor's final children
  std::string where;  // its JSON pointer
};

struct GivenOutcome {
  int32_t to = -1;
  IncRef reached;  // none: dropped
};

struct Trace {
  explicit Trace(const Program& p) : names(p) {}
  RunSettings run;
  std::string outcome;  // quiescent, deadlock, turn_limit
  std::vector<GivenOutcome> given;
  std::vector<TraceProcess> processes;  // workers first, then supervisors, as listed
  NameTable names;
};

// Reads a trace for a checked program. Throws InputError naming the JSON pointer of
// what is malformed (a key missing or unknown, a value of the wrong kind, an
// incarnation listed twice, an effect number out of order, a name not of the
// program). What is well formed but not admissible is check_trace()'s business.
Trace read_trace(const Program& p, const ojson& j);

// A trace without what does not make it another run: its `run` (the unused seed),
// its incarnations in (name, inc) order. Two free runs with equal identities took
// the same path; counting them says how much freedom a target took.
std::string trace_identity(const ojson& trace);

// The trace's text for a value of a result (§22): an int, or a name.
ojson value_json(const NameTable& names, Type t, Value v);

}  // namespace concord
