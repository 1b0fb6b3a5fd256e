// targets/js/runtime/world.js: the state of one run (SPEC §6–§8) and the life of
// worker processes: names, ids, mailboxes, start, exit, send, spawn.
//
// Invariants:
// - A name is a name id: an index into `names`. The program's own names (its addr
//   literals and declared names) come first, in the program's order, so an addr
//   literal in emitted code is its id; spawned names are added as they first appear.
//   Addrs are name ids everywhere (state, messages), so addr equality is `===`.
// - Every name has at most one process for the whole run (`procOf`); a restart
//   reuses the process object, its id and its place in `procs` (§8.1).
// - A process is in the ready set exactly when it is alive and its mailbox is not
//   empty; `p.ready` says whether it is, and markReady() keeps the two in step.
// - A mailbox is a singly linked list of messages, `head` the oldest (FIFO, §6.5);
//   an idle process allocates nothing for it.
// - `live` counts the alive workers (the process limit, §6.6).
// - Every event goes to the journal (journal.js) when it happens; result.js prints it.
'use strict';

const { Journal } = require('./journal.js');
const { grew } = require('./memory.js');
const { ReadySet } = require('./ready_set.js');
const { SplitMix64 } = require('./splitmix.js');
const { Links } = require('./links.js');
const { Calls } = require('./calls.js');
const FAULT = require('./fault.js');
const KEEP_MAILBOX = FAULT === 'FAULT_RESTART_KEEPS_MAILBOX';  // a planted fault (targets/FAULTS.md)
// Planted faults (held out, targets/FAULTS.md): the process limit counts every process
// ever created, dead ones too; the trap flag is never cleared, so a restart keeps it.
const LIMIT_COUNTS_ALL = FAULT === 'FAULT_LIMIT_COUNTS_DEAD_PROCESSES';
const KEEP_TRAP = FAULT === 'FAULT_RESTART_KEEPS_TRAP_FLAG';
// A planted fault (held out 3, targets/FAULTS.md): a waiting caller is ready when its
// mailbox is not empty, as any process, so it may resume before its reply has come.
const WAITER_READY_ON_MAIL = FAULT === 'FAULT_WAITING_CALLER_READY_ON_MESSAGE';

// How a start ended (version 2, SPEC §19.1).
const STARTED = 0, FAILED = 1, IGNORED = 2;
// Why a worker exits (version 2, §17.1 step 4): by itself (its supervisor handles
// it), terminated by its supervisor (consumed), or its start failed (the starter's).
const OWN = 0, BY_SUPERVISOR = 1, FAILED_START = 2;

// Ends the running handler (§6.4); the reason is in world.reason. One object, never
// an Error: throwing it captures no stack.
const HALT = Object.freeze({ halt: true });

class Proc {
  constructor(id, name, kind, params, sup) {
    this.id = id;          // §8.1: creation order
    this.name = name;      // name id
    this.kind = kind;      // the kind object of the program
    this.params = params;  // creation arguments, kept for restarts
    this.state = null;     // state fields in declaration order; null while dead
    this.head = null;      // mailbox: oldest message
    this.tail = null;      // mailbox: newest message
    this.alive = false;
    this.ready = false;    // in the ready set
    this.sup = sup;        // the Sup it is a child of, or null (unsupervised)
    this.entry = null;     // its entry in sup's child list, while it has one
  }
}

class Msg {
  constructor(from, sig, args) {
    this.from = from;  // sender's name id; -1 for a given message
    this.sig = sig;    // signature id: tag and argument types
    this.args = args;
    this.next = null;
  }
}

// Version 2: a call message (§18.1) names its caller, in one incarnation.
class CallMsg extends Msg {
  constructor(from, sig, args, caller) {
    super(from, sig, args);
    this.caller = caller;
    this.callerInc = caller.inc;
  }
}

class World {
  constructor(prog, seed, turns, maxProcesses) {
    this.prog = prog;
    this.seed = seed;  // a BigInt
    this.turnLimit = turns;
    this.maxProcesses = maxProcesses;
    this.gen = new SplitMix64(seed);
    this.turn = 0;  // the current turn (0 at start)
    this.outcome = '';  // §8.2, when the run has ended
    this.turns = 0;  // turns executed
    this.names = prog.names.slice();  // name id -> name
    this.procOf = new Array(this.names.length).fill(null);  // name id -> Proc
    this.procs = [];  // by id
    this.sups = [];  // by the supervisor's pre-order index (supervision.js)
    this.spawned = new Array(prog.kinds.length).fill(0);  // per kind: successful spawns
    this.readySet = new ReadySet();
    this.live = 0;
    this.reason = '';  // the reason of the handler ending now (HALT)
    this.journal = new Journal();
    this.supervision = null;  // the supervision rules (supervision.js) call back here
    this.v2 = prog.version === 2;  // version 2 (SPEC §14): starts may fail, exits settle (§17)
    this.ignoring = false;  // version 2: the HALT being thrown is init's `ignore` (§19.1)
    this.gone = false;  // version 2: the HALT being thrown ends a handler whose worker has exited
    this.links = this.v2 ? new Links(this) : null;  // version 2: §16 and the signal queue
    this.calls = this.v2 ? new Calls(this) : null;  // version 2: §18
    this.waiting = 0;  // version 2: live processes waiting in a call (§18.3: deadlock)
    if (this.v2) this.markReady = this.markReadyV2;  // version 1 keeps its own
  }

  // The id of a spawned name k-N: the program's id when the program names it (an
  // addr literal), else a new one. A run makes each k-N once (N counts up), so a
  // name that is not the program's is new: no map of the run's names is needed.
  spawnedName(name) {
    const id = this.prog.nameIds.get(name);
    if (id !== undefined) return id;
    this.procOf.push(null);
    return this.names.push(name) - 1;
  }

  markReady(p) {
    const want = p.alive && p.head !== null;
    if (want !== p.ready) {
      p.ready = want;
      this.readySet.update(p.id, want ? 1 : -1);
    }
  }

  // §8.1: a name's process, not started yet: it takes the next id.
  newProcess(name, kind, params, sup) {
    const p = new Proc(this.procs.length, name, kind, params, sup);
    this.procs.push(p);
    this.procOf[name] = p;
    return p;
  }

  // §6.7, §8.1: a name comes to life for the first time: it takes the next id.
  createProcess(name, kind, params, sup) {
    const p = new Proc(this.procs.length, name, kind, params, sup);
    this.procs.push(p);
    this.procOf[name] = p;
    this.startProcess(p);
    return p;
  }

  // §6.7: fresh state, `start` event, then init (which cannot fail). The mailbox is
  // empty: the process is new, or its mailbox went when it ended.
  startProcess(p) {
    if (this.v2) return this.startWorker(p);
    p.alive = true;
    p.state = p.kind.state(p);
    this.live++;
    this.journal.start(this.turn, p.name, p.kind.index);
    p.kind.init(p);
    this.markReady(p);
  }

  // §19.1 (version 2): alive, the `start` event, the state initialisers, then init;
  // a failure or `stop` in them fails the start, `ignore` ignores it; either way
  // the process exits at once, an exit no supervisor handles. Returns how it ended.
  startWorker(p) {
    p.inc = (p.inc | 0) + 1;  // a new incarnation: none of §16.1 survives a restart
    if (!KEEP_TRAP) p.trap = false;
    p.links = p.held = p.watchedBy = p.selfExit = null;
    p.blocked = 0;
    p.wait = null;  // its pending call (§18), while it waits
    p.serving = null;  // the caller its running handler answers, until it does
    p.alive = true;
    this.live++;
    this.journal.start(this.turn, p.name, p.kind.index);
    try {
      p.state = p.kind.state(p);
      p.kind.init(p);
      p.selfExit = null;  // (init's own trapped exit signal does not end it: as the oracle)
    } catch (e) {
      if (e !== HALT) throw e;
      if (this.gone) {  // a signal or its own exit(self, ...) ended it already
        this.gone = false;
        return FAILED;
      }
      const ignored = this.ignoring;
      this.ignoring = false;
      this.exitWorker(p, ignored ? 'normal' : this.reason, FAILED_START);
      return ignored ? IGNORED : FAILED;
    }
    this.markReady(p);
    return STARTED;
  }

  // §17.1 (version 2), the one exit path of a worker: it stops being alive (its
  // exit event; result.js draws failures from it), then its supervisor gets a
  // pending exit unless it caused the exit itself or the start failed.
  exitWorker(p, reason, cause) {
    this.endProcess(p, reason);
    if (!KEEP_TRAP) p.trap = false;
    p.selfExit = null;
    p.blocked = 0;
    p.serving = null;
    if (p.wait !== null) {  // its pending call goes
      p.wait = null;
      this.waiting--;
    }
    this.links.exited(p, reason);
    if (cause === OWN && p.sup !== null && p.sup.alive) this.supervision.addPendingExit(p.sup, p.entry, reason);
  }

  // §6.4: it stops being alive; mailbox and state are discarded.
  endProcess(p, reason) {
    p.alive = false;
    if (!KEEP_MAILBOX) p.head = p.tail = null;
    p.state = null;
    this.live--;
    this.markReady(p);
    this.journal.exit(this.turn, p.name, reason);
  }

  // A process exits by itself (its handler ended it): then whoever watches it
  // reacts, before anything else happens in the turn (§6.4). In v1 that is its
  // supervisor; links and monitors will be told here too.
  exitProcess(p, reason) {
    this.endProcess(p, reason);
    if (p.sup !== null) this.supervision.childExited(p.sup, p.entry, reason);
  }

  // §18.1: the call message, at the end of the live callee's mailbox.
  sendCall(caller, callee, sig, args) {
    const m = new CallMsg(caller.name, sig, args, caller);
    if (callee.tail === null) callee.head = m;
    else callee.tail.next = m;
    callee.tail = m;
    this.markReady(callee);
    grew();
  }

  // Version 2, §18.3: a waiting process is ready once its reply has come.
  markReadyV2(p) {
    const want = p.alive && (p.wait !== null ? p.wait.replied || (WAITER_READY_ON_MAIL && p.head !== null) : p.head !== null);
    if (want !== p.ready) {
      p.ready = want;
      this.readySet.update(p.id, want ? 1 : -1);
    }
  }

  // §6.5: appended to a live receiver's mailbox, or dropped and journaled.
  send(from, to, sig, args) {
    const p = this.procOf[to];
    if (p === null || !p.alive) {
      this.journal.drop(this.turn, from, to, sig, args);
      return;
    }
    const m = new Msg(from, sig, args);
    if (p.tail === null) p.head = m;
    else p.tail.next = m;
    p.tail = m;
    this.markReady(p);
    grew();
  }

  // §6.6: the checks in order, then the new process named k-N, started, and with
  // `under` appended to the supervisor's children. Returns the new name.
  // The live workers that the process limit counts (§6.6).
  counted() {
    return LIMIT_COUNTS_ALL ? this.procs.length : this.live;
  }

  spawn(kindIndex, args, supIndex, restart) {
    if (this.counted() >= this.maxProcesses) this.halt('SYSTEM_LIMIT');
    const sup = supIndex < 0 ? null : this.sups[supIndex];
    if (sup !== null && !sup.alive) this.halt('NOPROC');
    const kind = this.prog.kinds[kindIndex];
    const name = this.spawnedName(kind.prefix + ++this.spawned[kindIndex]);
    const p = this.createProcess(name, kind, args, sup);
    if (sup !== null) this.supervision.addDynamicChild(sup, p, restart);
    return name;
  }

  // §19.4 (version 2): as spawn, but a start that fails or is ignored does not fail
  // the spawner: the name is consumed and returned; under a supervisor a failed
  // child is not added, an ignored one is added not running (unless temporary).
  // Then the run settles before the spawn completes (§17.2).
  spawnV2(spawner, kindIndex, args, supIndex, restart, significant) {
    if (this.counted() >= this.maxProcesses) this.halt('SYSTEM_LIMIT');
    const sup = supIndex < 0 ? null : this.sups[supIndex];
    if (sup !== null && !sup.alive) this.halt('NOPROC');
    const kind = this.prog.kinds[kindIndex];
    const name = this.spawnedName(kind.prefix + ++this.spawned[kindIndex]);
    const p = this.newProcess(name, kind, args, sup);
    const how = this.startWorker(p);
    if (sup !== null) this.supervision.addDynamicChildV2(sup, p, restart, how, significant);
    const inc = spawner.inc;
    spawner.blocked++;  // §16.6
    this.supervision.settle();
    if (!spawner.alive || spawner.inc !== inc) this.endGone();  // a signal ended it meanwhile
    spawner.blocked--;
    return name;
  }

  // §20 (version 2): the request to a live supervisor, its `api` event, then the
  // run settles with the caller blocked (§16.6); the result's number if the caller
  // is still alive.
  api(caller, supIndex, op, child, childIsSup) {
    const s = this.sups[supIndex];
    if (!s.alive) this.halt('NOPROC');  // [R44]
    if (childIsSup) child = this.sups[child].name;
    const inc = caller.inc;
    caller.blocked++;  // [R50/self_*]
    const result = this.supervision.apiRequest(s, op, child);
    this.journal.api(this.turn, caller.name, s.name, op, child, result);
    this.supervision.settle();
    if (!caller.alive || caller.inc !== inc) this.endGone();
    caller.blocked--;
    return result;
  }

  // Ends the running handler of a worker that has exited already (version 2).
  endGone() {
    this.gone = true;
    throw HALT;
  }

  halt(reason) {
    this.reason = reason;
    throw HALT;
  }
}

module.exports = { World, CallMsg, HALT, STARTED, FAILED, IGNORED, OWN, BY_SUPERVISOR, FAILED_START };
