// oracle/observer.hpp: what a run tells an observer as it goes, so that a conducted
// run can be written as a free run's trace (SPEC §25.1: a conducted run is one free
// run among many; oracle/free/from_run.cpp). Observation only: no rule reads it, and
// World::observer is null in every run but those. Each call names the rule's moment.
#pragma once

#include <cstdint>

namespace concord {

struct World;
struct Message;
struct Signal;
enum class Action : uint8_t;
enum class ApiOp : uint8_t;
enum class ApiResult : uint8_t;

// The statements of §25.2 that meet a name.
enum class NameEffect : uint8_t { Link, Unlink, Monitor, Demonitor, Exit, Call };

class RunObserver {
 public:
  virtual ~RunObserver() = default;
  // Incarnations (§6.7, §17.1, §7.5).
  virtual void worker_started(const World& w, int32_t id) = 0;  // before its state initialisers
  virtual void worker_exited(const World& w, int32_t id, int32_t reason) = 0;
  virtual void supervisor_started(const World& w, int32_t slot) = 0;
  virtual void supervisor_exited(const World& w, int32_t slot) = 0;
  // Effects of the running worker `id` (§25.2). `found`: the process id the
  // statement found live, -1 for none.
  virtual void sent(const World& w, int32_t id, int32_t to_name, int32_t found) = 0;
  virtual void given(const World& w, int32_t found) = 0;  // the outside's next given message
  virtual void spawned(const World& w, int32_t id, int32_t child, int32_t under, int started) = 0;  // started: Started
  virtual void spawn_refused(const World& w, int32_t id, int32_t code) = 0;
  virtual void on_name(const World& w, int32_t id, NameEffect e, int32_t to_name, int32_t found) = 0;
  virtual void replied(const World& w, int32_t id, int32_t answered) = 0;  // answered: the caller, -1 none
  // alive: the supervisor was; answered: the caller lived to get the answer (else the
  // request terminated it first, and it never recorded the effect).
  virtual void api(const World& w, int32_t id, int32_t slot, ApiOp op, bool alive, ApiResult r, bool answered) = 0;
  // Messages and signals (§16.3, §17.1 step 3).
  virtual void own_message(const World& w, int32_t id) = 0;   // its last effect put a message in its own mailbox
  virtual void monitor_made(const World& w, int32_t holder, int64_t number) = 0;  // by its last effect
  virtual void signal_queued(const World& w, const Signal& s, int64_t monitor) = 0;  // monitor: its number, 0 none
  virtual void signal_taken(const World& w) = 0;        // the signal queue's first
  virtual void signal_message(const World& w, int32_t to) = 0;  // ... became a message to `to`
  // Turns (§8.2 steps 5-6, §18.1).
  virtual void delivered(const World& w, int32_t id, const Message& m) = 0;
  virtual void resumed(const World& w, int32_t id) = 0;
  // A supervisor's inputs (§17.3) and decisions.
  virtual void exit_handled(const World& w, int32_t slot, int32_t child, int32_t reason) = 0;
  virtual void retry_handled(const World& w, int32_t slot, int32_t child) = 0;
  virtual void decided(const World& w, int32_t slot, int32_t child, Action a) = 0;
};

}  // namespace concord
