// targets/js/runtime/links.js: links, monitors and exit signals of version 2 (SPEC
// §16), the one exit path of a worker (§17.1) and the signal queue that settling
// drains (§17.2 step 1). A worker's version 2 fields live on its Proc:
//   trap       the trap flag (off at every start, §16.1)
//   links      Set of linked Procs (symmetric: both sides kept in step), or null
//   held       monitors it holds, oldest first, or null
//   watchedBy  monitors held on it, in creation order, or null
//   inc        its incarnation: a queued signal for an older one is discarded (§16.3)
//   selfExit   a trapping unsupervised worker's exit(self, r): its exit at the
//              handler's end (§16.3), or null
//   blocked    > 0 while it settles inside its own spawn (§16.6)
// A monitor is one object {holder, target, n, call} in both lists (n: its creation
// number, §16.1). Everything here runs in the one thread, in the order the seeded
// scheduler gives: nothing is asynchronous.
'use strict';

const { grew } = require('./memory.js');
const FAULT = require('./fault.js');
// A planted fault (targets/FAULTS.md): an exit forgets the link on its own side only,
// so the processes linked to it still hold it, and its restart (the same Proc) with it.
const RESTART_KEEPS_LINKS = FAULT === 'FAULT_RESTARTED_KEEPS_LINKS';

const LINK = 0, EXIT = 1, DOWN = 2, CALL = 3;  // signal kinds, as result.js names them
const EFFECT_EXIT = 0, EFFECT_MESSAGE = 1, EFFECT_IGNORE = 2;
const KILL = -1;  // exit(e, kill): the reason of the signal (§22 writes "kill")

class Signal {
  constructor(kind, from, to, reason) {
    this.kind = kind;
    this.from = from;  // name id: the exiting process, or the sender of exit(...)
    this.to = to;  // the receiving Proc
    this.inc = to.inc;  // ...in this incarnation
    this.reason = reason;  // a reason string, or KILL
  }
}

class Links {
  constructor(w) {
    this.w = w;
    this.queue = [];  // §17.2: the turn's signal queue, FIFO from `head`
    this.head = 0;
    this.monitorsMade = 0;
  }

  // A reason string as a value (a name id, §15): the program's own reasons are
  // its names; the runtime's (killed, noproc, NO_HANDLER...) are added once.
  reasonValue(reason) {
    return this.w.spawnedName(reason);
  }

  // §16.4: the message exit(from, why) or down(who, why) in `to`'s mailbox.
  systemMessage(to, sig, from, reason) {
    this.w.send(from, to.name, sig, [from, this.reasonValue(reason)]);
  }

  live(name) {
    const p = this.w.procOf[name];
    return p !== null && p.alive ? p : null;
  }

  // --- §16.2 statements of the running worker p -----------------------------------

  link(p, t) {
    if (t === p.name) return;  // [R20/self]
    const y = this.live(t);
    if (y !== null) {
      if (p.links === null) p.links = new Set();
      if (p.links.has(y)) return;  // one link per pair [R20/once]
      if (y.links === null) y.links = new Set();
      p.links.add(y);
      y.links.add(p);
      grew();
      return;
    }
    if (!p.trap) this.w.halt('NOPROC');  // link/1 raises noproc [R20]
    this.w.journal.signal(this.w.turn, LINK, t, p.name, 'noproc', EFFECT_MESSAGE);
    this.systemMessage(p, this.w.prog.exitSig, t, 'noproc');
  }

  unlink(p, t) {
    const y = this.live(t);
    if (y === null || p.links === null || !p.links.delete(y)) return;
    y.links.delete(p);  // a message a link already queued stays [R21/after_queued]
  }

  monitor(p, t) {
    if (t === p.name) return;  // never fires [R25/self]
    const y = this.live(t);
    if (y !== null) return this.addMonitor(p, y, false);
    this.w.journal.signal(this.w.turn, DOWN, t, p.name, 'noproc', EFFECT_MESSAGE);
    this.systemMessage(p, this.w.prog.downSig, t, 'noproc');  // [R25/dead, R25/unknown]
  }

  addMonitor(p, y, call) {
    const m = { holder: p, target: y, n: ++this.monitorsMade, call };
    if (p.held === null) p.held = [];
    if (y.watchedBy === null) y.watchedBy = [];
    p.held.push(m);
    y.watchedBy.push(m);
    grew();
    return m;
  }

  // A monitor goes from both lists (a call's, at its reply: §18.1).
  removeMonitor(m) {
    m.holder.held.splice(m.holder.held.indexOf(m), 1);
    m.target.watchedBy.splice(m.target.watchedBy.indexOf(m), 1);
  }

  // One of p's monitors (of that kind) on y, the oldest; a down already queued stays [R26].
  demonitor(p, t) {
    const y = this.live(t);
    if (y === null || p.held === null) return;
    const i = p.held.findIndex((m) => m.target === y && !m.call);
    if (i < 0) return;
    const m = p.held[i];
    p.held.splice(i, 1);
    y.watchedBy.splice(y.watchedBy.indexOf(m), 1);
  }

  // exit(t, r) / exit(t, kill): queued, or at once for the sender itself (§16.2).
  exit(p, t, reason) {
    if (t === p.name) return this.exitSelf(p, reason);
    const y = this.live(t);
    if (y === null) return;  // [R19/dead_target]
    this.push(new Signal(EXIT, p.name, y, reason));
  }

  // §16.3, the exit signal whose receiver is its sender.
  exitSelf(p, reason) {
    const w = this.w;
    if (reason === KILL) {  // untrappable [R18]
      w.journal.signal(w.turn, EXIT, p.name, p.name, 'kill', EFFECT_EXIT);
      w.exitWorker(p, 'killed', 0);
      w.endGone();
    }
    if (p.trap) {
      if (p.sup !== null) {  // a supervised worker gets the message [R19/self_supervised_trapping_*]
        w.journal.signal(w.turn, EXIT, p.name, p.name, reason, EFFECT_MESSAGE);
        this.systemMessage(p, w.prog.exitSig, p.name, reason);
      } else if (p.selfExit === null) {  // exits when its handler ends [R19/self_trapping_*]
        p.selfExit = reason;
      }
      return;
    }
    w.journal.signal(w.turn, EXIT, p.name, p.name, reason, EFFECT_EXIT);  // with normal too [R19]
    w.exitWorker(p, reason, 0);
    w.endGone();
  }

  push(s) {
    this.queue.push(s);
    grew();
  }

  // --- §17.1 steps 2-3: what an exit of p with `reason` tells the others ---------

  exited(p, reason) {
    if (p.held !== null) {
      for (const m of p.held) m.target.watchedBy.splice(m.target.watchedBy.indexOf(m), 1);
      p.held = null;
    }
    if (p.links !== null) {
      const linked = [...p.links].sort((a, b) => a.id - b.id);  // ascending id [R22]
      p.links = null;
      for (const y of linked) {
        if (!RESTART_KEEPS_LINKS) y.links.delete(p);
        this.push(new Signal(LINK, p.name, y, reason));
      }
    }
    if (p.watchedBy !== null) {
      for (const m of p.watchedBy) {  // in creation order: downs and calls together
        m.holder.held.splice(m.holder.held.indexOf(m), 1);
        this.push(new Signal(m.call ? CALL : DOWN, p.name, m.holder, reason));
      }
      p.watchedBy = null;
    }
  }

  pending() {
    return this.head < this.queue.length;
  }

  // §17.2 step 1: the first queued signal takes effect (§16.3).
  applyNext() {
    const s = this.queue[this.head++];
    if (this.head === this.queue.length) this.queue.length = this.head = 0;
    const w = this.w, y = s.to;
    if (!y.alive || y.inc !== s.inc) return;  // discarded, no event
    const effect = (e) => w.journal.signal(w.turn, s.kind, s.from, y.name, s.reason === KILL ? 'kill' : s.reason, e);
    switch (s.kind) {
      case LINK:
        if (y.trap) {  // the message, for every reason [R17]
          effect(EFFECT_MESSAGE);
          this.systemMessage(y, w.prog.exitSig, s.from, s.reason);
        } else if (s.reason === 'normal') {  // [R16]
          effect(EFFECT_IGNORE);
        } else {
          effect(EFFECT_EXIT);
          w.exitWorker(y, s.reason, 0);
        }
        return;
      case EXIT:
        if (s.reason === KILL) {  // [R18]
          effect(EFFECT_EXIT);
          w.exitWorker(y, 'killed', 0);
        } else if (y.trap) {  // [R19]
          effect(EFFECT_MESSAGE);
          this.systemMessage(y, w.prog.exitSig, s.from, s.reason);
        } else if (s.reason === 'normal') {
          effect(EFFECT_IGNORE);
        } else {
          effect(EFFECT_EXIT);
          w.exitWorker(y, s.reason, 0);
        }
        return;
      case DOWN:  // one message per monitor, never an exit [R24, R25]
        effect(EFFECT_MESSAGE);
        this.systemMessage(y, w.prog.downSig, s.from, s.reason);
        return;
      case CALL:  // §18.2: the caller fails with code(R) [R30]
        effect(EFFECT_EXIT);
        w.exitWorker(y, codeOf(s.reason), 0);
        return;
    }
  }
}

// §15: code(R).
function codeOf(reason) {
  switch (reason) {
    case 'normal': return 'NORMAL';
    case 'shutdown': return 'SHUTDOWN';
    case 'killed': return 'KILLED';
    case 'noproc': return 'NOPROC';
  }
  return reason;
}

const SIGNAL_KINDS = ['link', 'exit', 'down', 'call'];
const EFFECTS = ['exit', 'message', 'ignore'];

module.exports = { Links, KILL, SIGNAL_KINDS, EFFECTS, codeOf };
