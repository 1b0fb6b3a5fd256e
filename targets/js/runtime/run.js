// targets/js/runtime/run.js: the scheduler (SPEC §8.2): start-up at turn 0, then one
// delivery per turn to the ready process the seeded generator picks; and `rt`, the
// handful of effects emitted code calls. One run at a time: `current` is its world.
'use strict';

const { World, CallMsg, HALT, OWN } = require('./world.js');
const { attachSupervision } = require('./supervision.js');
const { attachSupervisionV2 } = require('./supervision_v2.js');
const { KILL } = require('./links.js');
const FAULT = require('./fault.js');
// A planted fault (held out, targets/FAULTS.md): the call a handler serves is forgotten
// only when a reply answers it, not when the handler ends without replying.
const SERVING_OUTLIVES_HANDLER = FAULT === 'FAULT_SERVED_CALL_OUTLIVES_HANDLER';

let current = null;

// What emitted handlers call (targets/js/README.md, "The emitted program").
const rt = {
  send(p, to, sig, args) {
    current.send(p.name, to, sig, args);
  },
  spawn(p, kind, args, sup, restart, significant) {
    if (current.v2) return current.spawnV2(p, kind, args, sup, restart, significant);
    return current.spawn(kind, args, sup, restart);
  },
  // Version 2, §16.2 (links.js); addrs and reasons are name ids.
  link(p, t) {
    current.links.link(p, t);
  },
  unlink(p, t) {
    current.links.unlink(p, t);
  },
  monitor(p, t) {
    current.links.monitor(p, t);
  },
  demonitor(p, t) {
    current.links.demonitor(p, t);
  },
  trapExit(p, on) {
    p.trap = on;  // the flag at a signal's arrival counts [R17]
  },
  exit(p, t, reason) {
    current.links.exit(p, t, current.names[reason]);
  },
  kill(p, t) {
    current.links.exit(p, t, KILL);
  },
  call(p, to, sig, args, bind, bindType) {  // §18.1 (calls.js); the handler yields next
    return current.calls.call(p, to, sig, args, bind, bindType);
  },
  reply(p, value, type) {
    current.calls.reply(p, value, type);
  },
  api(p, sup, op, child, childIsSup) {  // §20
    return current.api(p, sup, op, child, childIsSup);
  },
  stop() {
    current.halt('normal');
  },
  stopWith(reason) {  // version 2: a reason value is a name id (§15)
    current.halt(current.names[reason]);
  },
  ignore() {  // version 2, in init only (§19.1)
    current.ignoring = true;
    current.halt('normal');
  },
  fail(code) {
    current.halt(code);
  },
};

// Turn 0: the roots in order, then the given messages, from nobody (§8.2 "Start").
function startUp(w) {
  if (w.v2) return startUpV2(w);
  for (const r of w.prog.roots) {
    if (r.sup >= 0) w.supervision.startSupervisor(w.sups[r.sup]);
    else w.createProcess(r.name, w.prog.kinds[r.kind], r.args, null);
  }
  for (const g of w.prog.given) w.send(-1, g.to, g.sig, g.args);
}

// Version 2: a root whose start fails is not alive; the run settles after each
// root (§17.2, §19.2).
function startUpV2(w) {
  for (const r of w.prog.roots) {
    if (r.sup >= 0) w.supervision.startSupervisor(w.sups[r.sup]);
    else w.startWorker(w.newProcess(r.name, w.prog.kinds[r.kind], r.args, null));
    w.supervision.settle();
  }
  for (const g of w.prog.given) w.send(-1, g.to, g.sig, g.args);
}

// §8.2 steps 5–6: the head message, its `deliver` event, the handler. A handler ends
// early by throwing HALT; the process then exits with the reason it set (§6.4).
function deliver(w, p, ready) {
  const m = p.head;
  p.head = m.next;
  if (p.head === null) p.tail = null;
  w.journal.deliver(w.turn, ready, p.name, m.from, m.sig, m.args);
  const handler = p.kind.handlers[m.sig];
  let reason = null;
  if (handler === null) {
    reason = 'NO_HANDLER';  // §6.5
  } else {
    try {
      handler(p, m.args);
    } catch (e) {
      if (e !== HALT) throw e;
      reason = w.reason;
    }
  }
  if (reason !== null) w.exitProcess(p, reason);
  w.markReady(p);
}

// Version 2, §8.2 step 5 and §18.3: a waiting caller whose reply has come resumes;
// any other process pops its head message (a call message makes a `call` event).
function deliverV2(w, p, ready) {
  if (p.wait !== null) {
    const wait = w.calls.resume(p, ready);
    if (wait !== null) {
      p.serving = wait.serving;
      p.selfExit = wait.selfExit;
      drive(w, p, wait.it, wait.value);
    }
    w.markReady(p);
    w.supervision.settle();
    return;
  }
  const m = p.head;
  p.head = m.next;
  if (p.head === null) p.tail = null;
  if (m instanceof CallMsg) w.calls.delivered(p, m, ready);
  else w.journal.deliver(w.turn, ready, p.name, m.from, m.sig, m.args);
  runHandlerV2(w, p, m);
}

// Version 2: the handler ends by finishing, by HALT with a reason (§6.4, §16.2
// `stop e`), or by HALT after its worker exited (a signal, its own exit signal);
// a handler with a call is a generator (calls.js), driven until it ends or waits.
// Then the run settles (§17.2).
function runHandlerV2(w, p, m) {
  const handler = p.kind.handlers[m.sig];
  p.selfExit = null;
  if (handler === null) {
    p.serving = null;
    w.exitWorker(p, 'NO_HANDLER', OWN);  // §6.5
  } else {
    let it;
    try {
      it = handler(p, m.args);  // a plain handler runs to its end here; a generator only starts
    } catch (e) {
      ended(w, p, e);
      it = undefined;
    }
    if (it !== undefined) drive(w, p, it, undefined);
    else if (p.alive) finished(w, p);
  }
  w.markReady(p);
  w.supervision.settle();
}

// Runs a generator handler on from where it waited (or from its start).
function drive(w, p, it, input) {
  let r;
  try {
    r = it.next(input);
  } catch (e) {
    return ended(w, p, e);
  }
  if (r.done) return finished(w, p);
  p.wait.it = it;  // it waits in a call (§18.1): its continuation, served call, pending self exit
  p.wait.serving = p.serving;
  p.wait.selfExit = p.selfExit;
  p.serving = null;
}

// The handler threw: HALT with a reason (the process exits with it), or HALT after
// its worker exited already.
function ended(w, p, e) {
  if (e !== HALT) throw e;
  p.serving = null;
  if (w.gone) w.gone = false;
  else w.exitWorker(p, w.reason, OWN);  // §17.1
}

// The handler reached its end: a trapping unsupervised worker that sent itself an
// exit signal exits now, its signal event just before its exit event (§16.3).
function finished(w, p) {
  if (!SERVING_OUTLIVES_HANDLER) p.serving = null;
  if (p.selfExit === null) return;
  w.journal.signal(w.turn, 1, p.name, p.name, p.selfExit, 0);  // kind exit, effect exit
  w.exitWorker(p, p.selfExit, OWN);
}

// One run of a loaded program: seed a BigInt, turns and maxProcesses Numbers.
// Returns the world, with `outcome` and `turns` set.
function run(prog, seed, turns, maxProcesses) {
  const w = new World(prog, seed, turns, maxProcesses);
  if (w.v2) attachSupervisionV2(w);
  else attachSupervision(w);
  current = w;
  try {
    startUp(w);
    const step = w.v2 ? deliverV2 : deliver;  // version 1 keeps its own path
    let done = 0;
    for (;;) {
      if (done === turns) {
        w.outcome = 'turn_limit';
        break;
      }
      const n = w.readySet.size;
      if (n === 0) {
        w.outcome = w.waiting > 0 ? 'deadlock' : 'quiescent';  // §18.3
        break;
      }
      w.turn = ++done;
      const id = w.readySet.kth(w.gen.pick(n));
      step(w, w.procs[id], n);
    }
    w.turns = done;
  } finally {
    current = null;
  }
  return w;
}

module.exports = { run, rt };
