// targets/js/runtime/calls.js: calls and replies of version 2 (SPEC §18). A handler
// with a `call` is a generator function (the emitter writes it so): `call` yields
// after it has queued the call message, and the scheduler resumes the generator
// with next() in the turn that picks the caller once its reply has come (§18.3). The
// run loop stays synchronous: no promise and no microtask can run program code out
// of turn. While it waits, a worker's Wait keeps its continuation (the generator),
// the call it serves itself, and its own pending exit(self, r) (§16.3).
'use strict';

const { CALL } = require('./journal.js');
const FAULT = require('./fault.js');
// A planted fault (held out 2, targets/FAULTS.md): a second reply in the same handler,
// before the caller has resumed, replaces the first one's value.
const LAST_REPLY_WINS = FAULT === 'FAULT_LAST_REPLY_WINS';

const CALL_SIGNAL = 3, EFFECT_EXIT = 0;  // links.js's signal kind and effect numbers

class Wait {
  constructor(callee, bind, bindType, monitor) {
    this.callee = callee;  // the callee's Proc (this incarnation: the monitor says whether it lives)
    this.bind = bind;  // the state field the reply goes to, or -1
    this.bindType = bindType;  // its type: 0 int, 1 addr, 2 reason
    this.monitor = monitor;  // the call's monitor on the callee (§18.1 step 3)
    this.replied = false;
    this.value = 0;
    this.type = 0;
    this.it = null;  // the handler's generator
    this.serving = null;  // the call its handler was serving
    this.selfExit = null;
  }
}

class Calls {
  constructor(w) {
    this.w = w;
  }

  // §18.1 `call`, steps 1-3; returns the yielded token (nothing: the Wait is on p).
  call(p, to, sig, args, bind, bindType) {
    const w = this.w;
    if (to === p.name) w.halt('CALLING_SELF');  // [R31/self]
    const y = w.links.live(to);
    if (y === null) {  // [R31/dead, R31/unknown]
      w.journal.signal(w.turn, CALL_SIGNAL, to, p.name, 'noproc', EFFECT_EXIT);
      w.halt('NOPROC');
    }
    w.sendCall(p, y, sig, args);
    p.wait = new Wait(y, bind, bindType, w.links.addMonitor(p, y, true));
    w.waiting++;
    return undefined;
  }

  // The first reply whose caller still waits on this callee answers it; every
  // other reply does nothing [R29].
  reply(p, value, type) {
    const c = p.serving;
    if (c === null) return;  // reached by send, or answered already
    if (!LAST_REPLY_WINS) p.serving = null;
    const caller = c.caller, wait = caller.wait;
    if (!caller.alive || caller.inc !== c.inc || wait === null || wait.callee !== p) return;
    if (wait.replied) {
      if (LAST_REPLY_WINS) {  // the planted fault: a later reply replaces the value not yet taken
        wait.value = value;
        wait.type = type;
      }
      return;
    }
    wait.replied = true;
    wait.value = value;
    wait.type = type;
    this.w.links.removeMonitor(wait.monitor);
    this.w.markReady(caller);
  }

  // The call message's `call` event (§22) and the caller the handler answers.
  delivered(p, m, ready) {
    const w = this.w;
    w.journal.deliver(w.turn, ready, p.name, m.from, m.sig, m.args, CALL);
    p.serving = { caller: m.caller, inc: m.callerInc };
  }

  // §18.1: the `resume` event; the reply goes to the bound field when its type is
  // the field's, else the caller fails with BAD_REPLY. Returns the Wait (its
  // generator goes on), or null when the caller has failed.
  resume(p, ready) {
    const w = this.w, wait = p.wait;
    p.wait = null;
    w.waiting--;
    w.journal.resume(w.turn, ready, p.name, wait.callee.name, wait.type, wait.value);
    if (wait.bind >= 0) {
      if (wait.bindType !== wait.type) {
        w.exitWorker(p, 'BAD_REPLY', 0);
        return null;
      }
      p.state[wait.bind] = wait.value;
    }
    return wait;
  }
}

module.exports = { Calls };
