// targets/js/runtime/run.js: the scheduler (SPEC §8.2): start-up at turn 0, then one
// delivery per turn to the ready process the seeded generator picks; and `rt`, the
// handful of effects emitted code calls. One run at a time: `current` is its world.
'use strict';

const { World, HALT, OWN } = require('./world.js');
const { attachSupervision } = require('./supervision.js');
const { attachSupervisionV2 } = require('./supervision_v2.js');

let current = null;

// What emitted handlers call (targets/js/README.md, "The emitted program").
const rt = {
  send(p, to, sig, args) {
    current.send(p.name, to, sig, args);
  },
  spawn(p, kind, args, sup, restart) {
    return current.spawn(kind, args, sup, restart);
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
  if (w.v2) {
    if (reason !== null) w.exitWorker(p, reason, OWN);  // §17.1
    w.markReady(p);
    w.supervision.settle();  // §17.2: at the end of every turn
    return;
  }
  if (reason !== null) w.exitProcess(p, reason);
  w.markReady(p);
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
    let done = 0;
    for (;;) {
      if (done === turns) {
        w.outcome = 'turn_limit';
        break;
      }
      const n = w.readySet.size;
      if (n === 0) {
        w.outcome = 'quiescent';
        break;
      }
      w.turn = ++done;
      const id = w.readySet.kth(w.gen.pick(n));
      deliver(w, w.procs[id], n);
    }
    w.turns = done;
  } finally {
    current = null;
  }
  return w;
}

module.exports = { run, rt };
