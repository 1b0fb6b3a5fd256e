// targets/js/runtime/supervision.js: OTP supervision (SPEC §7), one function per
// clause of OTP 25's supervisor.erl that SPEC §7 cites: the decision by restart type
// and reason (do_restart/3), the strategies (restart/3), intensity (add_restart/1),
// terminations (terminate_children/2), dynamic children (start_child/2).
//
// A supervisor is a Sup, one per declared supervisor, by its pre-order index; a
// restart of a supervisor is a new incarnation in the same Sup. Its child list holds
// Entry objects in start order; an entry never moves. Each child (Proc or Sup) points
// at its entry in its supervisor's current list (`child.entry`), so an exit finds
// its entry without a search.
'use strict';

const { RESTART, KEEP, REMOVE, GIVE_UP } = require('./journal.js');
const FAULT = require('./fault.js');
const KEEP_TEMPORARIES = FAULT === 'FAULT_ONE_FOR_ALL_KEEPS_TEMPORARIES';  // a planted fault (targets/FAULTS.md)
// Planted faults (held out 2, targets/FAULTS.md): a kept or removed child counts toward
// the intensity as a restart does; a supervisor ending (giving up, terminated by its
// parent) terminates its children oldest first.
const KEEP_COUNTS = FAULT === 'FAULT_KEEP_COUNTS_AS_RESTART';
const ENDS_OLDEST_FIRST = FAULT === 'FAULT_SUPERVISOR_ENDS_OLDEST_FIRST';
// A planted fault (held out 3, targets/FAULTS.md): a supervisor's dynamic children are
// kept with it when it ends, and its next incarnation starts them again after its
// static ones.
const DYNAMIC_SURVIVE = FAULT === 'FAULT_DYNAMIC_CHILDREN_SURVIVE_RESTART';

const PERMANENT = 0, TRANSIENT = 1, TEMPORARY = 2;  // restart types, as emitted
const ONE_FOR_ONE = 0, ONE_FOR_ALL = 1, REST_FOR_ONE = 2;  // strategies, as emitted

class Sup {
  constructor(decl, parent) {
    this.decl = decl;      // the program's row: name, strategy, intensity, static children
    this.name = decl.name;  // name id
    this.parent = parent;  // the Sup it is a child of, or null (a root)
    this.alive = false;
    this.restarts = 0;     // restarts of this incarnation (§7.4)
    this.children = [];    // Entry, in start order (§7.1)
    this.entry = null;     // its entry in parent's child list
  }
}

class Entry {
  constructor(name, restart, child) {
    this.name = name;  // the child's name id
    this.restart = restart;
    this.child = child;  // a Proc (worker) or a Sup
    this.running = false;  // false: a transient child that ended, kept (§7.1)
  }
}

class Supervision {
  constructor(world) {
    this.w = world;
  }

  // §6.7: `start` event, then the static children in declaration order, depth first
  // (OTP start_children/2). A declared worker takes its id at its first start.
  startSupervisor(s) {
    const w = this.w;
    s.alive = true;
    s.restarts = 0;
    s.children = [];
    w.journal.start(w.turn, s.name, -1);
    for (const c of s.decl.children) {
      if (c.sup >= 0) {
        this.startChild(s, this.push(s, new Entry(c.name, c.restart, w.sups[c.sup])));
        continue;
      }
      const p = w.procOf[c.name];
      if (p === null) {
        const entry = this.push(s, new Entry(c.name, c.restart, null));
        entry.child = w.createProcess(c.name, w.prog.kinds[c.kind], c.args, s);
        entry.running = true;
        entry.child.entry = entry;
      } else {
        this.startChild(s, this.push(s, new Entry(c.name, c.restart, p)));
      }
    }
    if (DYNAMIC_SURVIVE && s.dynamic) {  // the planted fault: the last incarnation's dynamic children
      const dynamic = s.dynamic;
      s.dynamic = null;
      for (const e of dynamic) this.startChild(s, this.push(s, e));
    }
  }

  push(s, entry) {
    s.children.push(entry);
    return entry;
  }

  // Starts (or restarts) one entry of the child list (§6.7, §7.3).
  startChild(s, entry) {
    const c = entry.child;
    if (c instanceof Sup) this.startSupervisor(c);
    else this.w.startProcess(c);
    entry.running = true;
    c.entry = entry;
  }

  // §7.6, OTP start_child/2: appended as the last entry, running.
  addDynamicChild(s, p, restart) {
    const entry = this.push(s, new Entry(p.name, restart, p));
    entry.running = true;
    p.entry = entry;
  }

  // §7.2, OTP do_restart/3, clauses in OTP's order.
  childExited(s, entry, reason) {
    entry.running = false;
    if (entry.restart === PERMANENT) this.restart(s, entry);  // any reason [R1]
    else if (reason === 'normal' || reason === 'shutdown') this.keepOrRemove(s, entry);
    else if (entry.restart === TRANSIENT) this.restart(s, entry);
    else this.keepOrRemove(s, entry);  // temporary, failure [R3]
  }

  // OTP del_child/2: a transient entry stays, not running [R2]; a temporary one goes [R3].
  keepOrRemove(s, entry) {
    if (KEEP_COUNTS) s.restarts++;
    if (entry.restart === TEMPORARY) {
      this.decision(s, entry.name, REMOVE);
      s.children.splice(s.children.indexOf(entry), 1);
    } else {
      this.decision(s, entry.name, KEEP);
    }
  }

  // §7.3, §7.4: OTP restart/2 = add_restart/1, then restart/3 by strategy.
  restart(s, entry) {
    s.restarts++;  // one restart counts once, however many children it restarts [R8]
    if (s.restarts > s.decl.intensity) return this.giveUp(s, entry.name);
    this.decision(s, entry.name, RESTART);
    switch (s.decl.strategy) {
      case ONE_FOR_ONE: return this.startChild(s, entry);  // [R4]
      case ONE_FOR_ALL: return this.restartFrom(s, 0);  // [R5]
      case REST_FOR_ONE: return this.restartFrom(s, s.children.indexOf(entry));  // [R6]
    }
    throw new Error(`supervisor ${this.w.names[s.name]}: unknown strategy ${s.decl.strategy}`);
  }

  // one_for_all, rest_for_one: every running entry from `from` on is terminated in
  // reverse start order; temporary ones are dropped (OTP terminate_children/2); the
  // rest is started again in start order, those that were not running included.
  restartFrom(s, from) {
    this.terminateChildren(s, from);
    if (!KEEP_TEMPORARIES || s.decl.strategy !== ONE_FOR_ALL)
      s.children = s.children.filter((e, i) => i < from || e.restart !== TEMPORARY);
    for (let i = from; i < s.children.length; i++) this.startChild(s, s.children[i]);
  }

  // §7.4: the supervisor gives up; to its parent it is a child that exited with
  // reason shutdown (OTP: {stop, shutdown, State} after reached_max_restart_intensity).
  giveUp(s, child) {
    this.decision(s, child, GIVE_UP);
    this.terminateSupervisor(s);
    if (s.parent !== null) this.childExited(s.parent, s.entry, 'shutdown');
  }

  // §7.5: running children, the newest first; the child that just exited is not running.
  terminateChildren(s, from) {
    for (let i = s.children.length - 1; i >= from; i--) this.terminate(s.children[i]);
  }

  // §7.5: ended with reason shutdown: no reaction, no failure, nothing counted.
  terminate(entry) {
    if (!entry.running) return;
    entry.running = false;
    if (entry.child instanceof Sup) this.terminateSupervisor(entry.child);
    else this.w.endProcess(entry.child, 'shutdown');
  }

  // §7.5 for a supervisor: its children first, then itself; its dynamic children are
  // gone with this incarnation (§7.6).
  terminateSupervisor(s) {
    const w = this.w;
    if (ENDS_OLDEST_FIRST) for (const e of s.children) this.terminate(e);
    else this.terminateChildren(s, 0);
    s.alive = false;
    if (DYNAMIC_SURVIVE) s.dynamic = s.children.filter((e) => !s.decl.children.some((c) => c.name === e.name));
    s.children = [];
    w.journal.exit(w.turn, s.name, 'shutdown');
  }

  decision(s, child, action) {
    this.w.journal.decision(this.w.turn, s.name, child, action);
  }
}

// The world's supervisors, one Sup per declared supervisor by pre-order index.
function attachSupervision(w) {
  w.supervision = new Supervision(w);
  for (const decl of w.prog.sups) w.sups.push(new Sup(decl, decl.parent < 0 ? null : w.sups[decl.parent]));
  return w.supervision;
}

module.exports = { attachSupervision, Supervision, Sup };
