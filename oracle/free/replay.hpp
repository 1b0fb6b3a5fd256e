// oracle/free/replay.hpp: one worker incarnation of a free run replayed on its own
// (SPEC §25.3 G1-G3): its state initialisers and init, then one turn per `deliver`
// or `resume` of its trace, each through §5, §6, §16.2, §18 and §20, every effect
// taking its outcome from the trace's record of it (was the name live, which name
// did the spawn give, what did the call resume with). What the program does and
// what the trace says it did must agree event for event; what the effects reached
// is checked between incarnations afterwards (check_trace.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "oracle/free/trace.hpp"
#include "oracle/free/violation.hpp"
#include "oracle/program.hpp"

namespace concord {

constexpr size_t kUnrecorded = static_cast<size_t>(-1);

// An effect as the program makes it (§25.2), with the trace event that records it.
struct ReplayedEffect {
  TraceEv ev = TraceEv::Send;  // Send also for a dropped send: `event` says which
  size_t event = kUnrecorded;  // index in the incarnation's events; kUnrecorded: the last
                               // effect of a turn cut short, which may have been made unrecorded
  size_t turn = 0;             // the turn it belongs to (0: init)
  int32_t to = -1;             // the name it is on (send, link, ..., call)
  int32_t sig = -1;            // send, call: the message's signature
  std::vector<Value> args;     // send, call: the arguments; exit_signal: {reason} ({-1}: kill)
  int32_t kind = -1;           // spawn: the kind
  int32_t under = -1;          // spawn: the supervisor's index, -1 without `under`
  Restart restart = Restart::Permanent;  // spawn under: the restart type
  bool significant = false;              // spawn under
  ApiOp op = ApiOp::TerminateChild;      // api
  int32_t sup = -1;                      // api: the supervisor's index
  int32_t child = -1;                    // api: the child's name
  bool serving = false;                  // reply: its turn handles a call that it answers first
};

// How a start ended (§19.1), from the replay of state initialisers and init.
enum class StartEnd : uint8_t { Ok, Failed, Ignored };

struct WorkerReplay {
  bool done = false;
  int32_t kind = -1;
  std::vector<Value> params;
  std::vector<ReplayedEffect> effects;  // effect n at n - 1; an unrecorded last one at the end
  std::vector<size_t> turns;            // the event of each turn, in order
  size_t init_end = 0;                  // the first event after init
  StartEnd start = StartEnd::Ok;
  int32_t start_reason = -1;            // Failed: the reason
  enum class End : uint8_t {
    Alive,    // alive at the end, between turns (or waiting in a call)
    OwnExit,  // its program ended it: stop, fail, a runtime failure, a failed start
    Cut,      // an exit from outside (its supervisor, a signal) after its last event
  } end = End::Alive;
  int32_t own_reason = -1;  // OwnExit: the reason the program gives
  bool waiting = false;     // Alive: waits in a call (§18.3)
  bool mid_turn = false;    // Cut inside a turn (or init): its next effect may have been made
  std::vector<Value> state;  // Alive: its final state
};

// Replays worker `index` of `t` (a checked program); `params` are its creation
// arguments. Throws ViolationError when the trace departs from the program.
WorkerReplay replay_worker(const Program& p, Trace& t, size_t index, std::vector<Value> params);

// The kind of a trace worker (its `kind`), as an index into p.kinds.
int32_t kind_index(const Program& p, const std::string& kind);

// The trace's text for an incarnation, "a#1", and for an event of one, "a#1's event 3".
std::string inc_text(const NameTable& names, const IncRef& r);
std::string event_text(const Trace& t, size_t proc, size_t event);

}  // namespace concord
