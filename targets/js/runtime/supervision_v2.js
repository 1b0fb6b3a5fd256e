// targets/js/runtime/supervision_v2.js: supervision for version 2 programs (SPEC
// §17.2-§17.3 settling and pending items, §19 starts that fail), on top of the
// version 1 rules (supervision.js), which version 1 programs keep unchanged. OTP 25's
// supervisor.erl decides each clause: start_children/2 (a failed start fails the
// supervisor), restart/3 with try_again_restart/1 (a failed restart is retried as a
// message the supervisor sends itself), handle_start_child/2 (spawn under).
//
// A supervisor's exits and retries wait as pending items (`sup.pending`, in the order
// they came) until the run settles: at the end of each turn, after each root's start,
// inside a spawn. Settling takes the live supervisor last in pre-order with items
// first, so descendants react before their ancestors (§17.2 step 2).
'use strict';

const { Supervision, Sup } = require('./supervision.js');
const { STARTED, FAILED, IGNORED, BY_SUPERVISOR } = require('./world.js');
const { RESTART, KEEP, REMOVE, GIVE_UP, AUTO_SHUTDOWN } = require('./journal.js');
const FAULT = require('./fault.js');
// A planted fault (targets/FAULTS.md): restart_child does not ask whether the child
// runs, so a running worker is started again in place (and answers ok).
const RESTART_RUNNING = FAULT === 'FAULT_RESTART_CHILD_OF_RUNNING';
// A planted fault (held out 2, targets/FAULTS.md): restart_child goes through the
// restart path's bookkeeping: a restart decision is journaled and counted.
const API_RESTART_COUNTS = FAULT === 'FAULT_RESTART_CHILD_COUNTED';
// Planted faults (held out 3, targets/FAULTS.md): delete_child answers ok but the entry
// stays in the list; a temporary static child whose start is ignored is kept, not running.
const DELETE_KEEPS_ENTRY = FAULT === 'FAULT_DELETE_CHILD_KEEPS_ENTRY';
const IGNORED_TEMPORARY_KEPT = FAULT === 'FAULT_IGNORED_TEMPORARY_KEPT';

const PERMANENT = 0, TRANSIENT = 1, TEMPORARY = 2;  // restart types, as emitted
const ONE_FOR_ONE = 0, ONE_FOR_ALL = 1, REST_FOR_ONE = 2;  // strategies, as emitted
const ANY_SIGNIFICANT = 1, ALL_SIGNIFICANT = 2;  // auto_shutdown, as emitted (§21; 0: never)
const TERMINATE_CHILD = 0, RESTART_CHILD = 1, DELETE_CHILD = 2;  // API requests, as emitted
const OK = 0, NOT_FOUND = 1, RUNNING = 2, RESTARTING = 3, IGNORED_RESULT = 4, FAILED_RESULT = 5;  // §20

// A pending item: an exit of the child of `entry` with `reason`, or a retry of it.
class Pending {
  constructor(entry, reason, retry) {
    this.entry = entry;
    this.reason = reason;
    this.retry = retry;
  }
}

class SupervisionV2 extends Supervision {
  constructor(world) {
    super(world);
    this.pendingItems = 0;  // over all supervisors: settling without any costs one test
  }

  // §17.2: signals first (links.js), then
  // the last supervisor in pre-order with pending items, until nothing applies.
  settle() {
    const sups = this.w.sups, links = this.w.links;
    for (;;) {
      if (links.pending()) {
        links.applyNext();
        continue;
      }
      if (this.pendingItems === 0) return;
      for (let i = sups.length - 1; i >= 0; i--)
        if (sups[i].pending.length > 0) {
          this.handlePending(sups[i]);
          break;
        }
    }
  }

  addPendingExit(s, entry, reason) {
    s.pending.push(new Pending(entry, reason, false));
    this.pendingItems++;
  }

  clearPending(s) {
    this.pendingItems -= s.pending.length;
    s.pending = [];
  }

  // §17.3: in the order they came, its own retries included, until none is left
  // or it has exited (which drops the rest).
  handlePending(s) {
    while (s.alive && s.pending.length > 0) {
      const item = s.pending.shift();
      this.pendingItems--;
      const entry = item.entry;
      if (s.children.indexOf(entry) < 0) continue;  // removed meanwhile: dropped
      if (item.retry) {
        if (entry.restarting) this.restart(s, entry);  // OTP handle_cast({try_again_restart, Id}) [R35]
      } else if (entry.running) {
        this.childExited(s, entry, item.reason);  // OTP do_restart/3 [R1-R3]
      }
    }
    if (!s.alive) this.clearPending(s);
  }

  // §17.3: a child whose own exit is still pending and that the supervisor
  // terminates: its exit is consumed unhandled [R23/sibling_one_for_all].
  consumePendingExit(s, entry) {
    const i = s.pending.findIndex((it) => !it.retry && it.entry === entry);
    if (i < 0) return;
    s.pending.splice(i, 1);
    this.pendingItems--;
  }

  // §6.7, §19.2, OTP start_children/2: static children in order; an ignored one stays
  // not running (a temporary one is not kept) [R34/ignore]; when one fails, the later
  // ones are not started, the started ones are terminated in reverse order and the
  // supervisor exits with shutdown: its start failed [R34/stop, R34/nested].
  startSupervisor(s) {
    const w = this.w;
    s.alive = true;
    s.restarts = 0;
    s.children = [];
    this.clearPending(s);
    w.journal.start(w.turn, s.name, -1);
    for (const c of s.decl.children) {
      let child;
      if (c.sup >= 0) {
        child = w.sups[c.sup];
      } else {
        child = w.procOf[c.name];
        if (child === null) {  // a declared worker takes its id at its first start
          child = w.newProcess(c.name, w.prog.kinds[c.kind], c.args, s);
        }
      }
      const entry = this.push(s, new Entry2(c.name, c.restart, child, c.significant));
      const how = this.startChild(s, entry);
      if (how === IGNORED && entry.restart === TEMPORARY && !IGNORED_TEMPORARY_KEPT) s.children.pop();
      if (how === FAILED) {
        this.terminateSupervisor(s);
        return FAILED;
      }
    }
    return STARTED;
  }

  // Starts (or restarts) one entry in place (§6.7, §7.3, §19.1).
  startChild(s, entry) {
    const c = entry.child;
    c.entry = entry;
    const how = c instanceof Sup ? this.startSupervisor(c) : this.w.startWorker(c);
    entry.running = how === STARTED;
    return how;
  }

  // §19.4, OTP handle_start_child/2: a failed start adds nothing; an ignored one is
  // kept not running, unless temporary [R38].
  addDynamicChildV2(s, p, restart, how, significant) {
    if (how === FAILED || (how === IGNORED && restart === TEMPORARY)) return;
    const entry = this.push(s, new Entry2(p.name, restart, p, significant));
    entry.running = how === STARTED;
    p.entry = entry;
  }

  // §7.2, OTP do_restart/3 as version 1, with del_child/2 for keep and remove.
  childExited(s, entry, reason) {
    entry.running = false;
    if (entry.restart === PERMANENT) this.restart(s, entry);
    else if (reason === 'normal' || reason === 'shutdown') this.keepOrRemove(s, entry);
    else if (entry.restart === TRANSIENT) this.restart(s, entry);
    else this.keepOrRemove(s, entry);
  }

  // OTP del_child/2 L1125 then do_auto_shutdown/2 L755: a significant child that is
  // not restarted shuts its supervisor down, under any_significant always [R46],
  // under all_significant when no other significant child runs (a restarting one
  // counts) [R47]; otherwise the entry is kept not running [R2] or, temporary,
  // removed [R3]. Nothing is counted toward intensity.
  keepOrRemove(s, entry) {
    if (entry.restart === TEMPORARY) s.children.splice(s.children.indexOf(entry), 1);
    let shut = false;
    if (entry.significant) {
      if (s.decl.autoShutdown === ANY_SIGNIFICANT) shut = true;
      else if (s.decl.autoShutdown === ALL_SIGNIFICANT)
        shut = !s.children.some((o) => o.significant && (o.running || o.restarting));
    }
    if (shut) this.shutDown(s, entry.name, AUTO_SHUTDOWN);
    else this.decision(s, entry.name, entry.restart === TEMPORARY ? REMOVE : KEEP);
  }

  // §7.3, §7.4, §19.3: OTP restart/2 = add_restart/1, then restart/3 by strategy;
  // a retry counts as a restart [R35].
  restart(s, entry) {
    s.restarts++;
    if (s.restarts > s.decl.intensity) return this.shutDown(s, entry.name, GIVE_UP);
    this.decision(s, entry.name, RESTART);
    switch (s.decl.strategy) {
      case ONE_FOR_ONE:  // [R4]
        entry.restarting = false;
        if (this.startChild(s, entry) === FAILED) this.restartFailed(s, entry);  // [R35]
        return;
      case ONE_FOR_ALL:  // [R5]
        entry.running = false;
        return this.restartFrom(s, 0);
      case REST_FOR_ONE:  // [R6]
        return this.restartFrom(s, s.children.indexOf(entry));
    }
    throw new Error(`supervisor ${this.w.names[s.name]}: unknown strategy ${s.decl.strategy}`);
  }

  // OTP restart_multiple_children/3: terminate from `from` on (reverse order), drop
  // temporaries, start again in order; a failed start stops the pass, the failed
  // entry restarting [R36]; an ignored one stays not running [R37].
  restartFrom(s, from) {
    this.terminateChildren(s, from);
    s.children = s.children.filter((e, i) => i < from || e.restart !== TEMPORARY);
    for (let i = from; i < s.children.length; i++)
      if (this.startChild(s, s.children[i]) === FAILED) return this.restartFailed(s, s.children[i]);
  }

  // §19.3, OTP try_again_restart/1: a retry after what is pending already.
  restartFailed(s, entry) {
    entry.restarting = true;
    s.pending.push(new Pending(entry, 'shutdown', true));
    this.pendingItems++;
  }

  // §7.4: gives up; terminates its children, exits with shutdown, which is a pending
  // exit of its own supervisor (§17.1).
  shutDown(s, child, action) {
    this.decision(s, child, action);
    this.terminateSupervisor(s);
    if (s.parent !== null && s.parent.alive) this.addPendingExit(s.parent, s.entry, 'shutdown');
  }

  // §7.5, OTP shutdown/1: a running child ends with shutdown, consumed; a child
  // that has already exited (its exit pending) is consumed too (§17.3).
  terminate(entry) {
    entry.restarting = false;
    if (!entry.running) return;
    entry.running = false;
    const c = entry.child, s = this.supOf(entry);
    if (c instanceof Sup) {
      if (c.alive) this.terminateSupervisor(c);
      else this.consumePendingExit(s, entry);
    } else if (!c.alive) {
      this.consumePendingExit(s, entry);
    } else {
      // §16.6: a trapping blocked worker is killed when the shutdown time runs out [R50].
      this.w.exitWorker(c, c.trap && (c.blocked > 0 || c.wait !== null) ? 'killed' : 'shutdown', BY_SUPERVISOR);
    }
  }

  // §20, OTP handle_call/3 for terminate_child L466, restart_child L479,
  // delete_child L504: nothing counted or decided, no auto_shutdown [R40-R42];
  // `restarting` cannot be answered (nothing is pending when a statement runs) [R43].
  // Returns the result's number.
  apiRequest(s, op, child) {
    const entry = s.children.find((e) => e.name === child);
    if (entry === undefined) return NOT_FOUND;
    switch (op) {
      case TERMINATE_CHILD:
        this.terminate(entry);  // a child supervisor with its subtree [R11]
        if (entry.restart === TEMPORARY) s.children.splice(s.children.indexOf(entry), 1);
        return OK;
      case RESTART_CHILD: {
        const unchecked = RESTART_RUNNING && !(entry.child instanceof Sup);  // the planted fault: workers
        if (entry.running && !unchecked) return RUNNING;
        if (entry.restarting) return RESTARTING;
        if (API_RESTART_COUNTS) {
          s.restarts++;
          this.decision(s, entry.name, RESTART);
        }
        const how = this.startChild(s, entry);  // in place, not counted, not retried [R39, R41]
        return how === STARTED ? OK : how === IGNORED ? IGNORED_RESULT : FAILED_RESULT;
      }
      case DELETE_CHILD:
        if (entry.running) return RUNNING;
        if (entry.restarting) return RESTARTING;
        if (!DELETE_KEEPS_ENTRY) s.children.splice(s.children.indexOf(entry), 1);  // [R42]
        return OK;
    }
    throw new Error(`unknown supervisor request ${op}`);
  }

  supOf(entry) {
    const c = entry.child;
    return c instanceof Sup ? c.parent : c.sup;
  }

  terminateSupervisor(s) {
    super.terminateSupervisor(s);
    this.clearPending(s);
  }
}

// An entry with the version 2 flags `restarting` (§19.3) and `significant` (§21).
class Entry2 {
  constructor(name, restart, child, significant) {
    this.name = name;
    this.restart = restart;
    this.child = child;
    this.running = false;
    this.restarting = false;
    this.significant = significant === true;
  }
}

function attachSupervisionV2(w) {
  w.supervision = new SupervisionV2(w);
  for (const decl of w.prog.sups) {
    const s = new Sup(decl, decl.parent < 0 ? null : w.sups[decl.parent]);
    s.pending = [];
    w.sups.push(s);
  }
  return w.supervision;
}

module.exports = { attachSupervisionV2 };
