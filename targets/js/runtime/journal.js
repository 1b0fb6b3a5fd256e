// targets/js/runtime/journal.js: the run's events (SPEC §9.2) as they happen, in a
// compact form that result.js prints at the end. An event is a record of int32
// fields in chunks of an Int32Array: a deliver costs 7 × 4 bytes plus a reference to
// its message's arguments (shared with the message, never copied), where the same
// event as a JavaScript string costs some hundreds of bytes; and a long run's journal
// is never one array past V8's maximum length.
//
// Records, by their first field:
//   START     turn, name, kind (a kind's index; -1: a supervisor)
//   DELIVER   turn, ready, to, from (-1: null), sig, args (an index into `args`; -1: none)
//   DROP      turn, from (-1: null), to, sig, args
//   EXIT      turn, name, reason (an index into `reasons`)
//   DECISION  turn, supervisor, child, action (an index into ACTIONS)
//   SIGNAL    turn, kind, from, to, reason (an index into `reasons`), effect (version 2,
//             links.js: SIGNAL_KINDS, EFFECTS)
//   CALL      as DELIVER, for a call message (version 2, §18.1)
//   API       turn, from, supervisor, op, child, result (version 2, §20: supervision_v2.js
//             API_OPS, API_RESULTS)
//   RESUME    turn, ready, to, from, type (0 int, 1 addr, 2 reason), value (an index into `args`)
// Names are name ids, sig a signature id, turns and ready counts fit in int32 (SPEC
// §11: at most 10^9 turns, 10^7 processes).
'use strict';

const { grew } = require('./memory.js');
const FAULT = require('./fault.js');
// A planted fault (targets/FAULTS.md): from the fifth chunk on (16 Ki fields, past
// about 2,500 events) the next chunk is looked up instead of allocated (undefined:
// the first write to it throws a TypeError).
const LOST_CHUNK = FAULT === 'FAULT_JOURNAL_CHUNK_NEVER_ALLOCATED';

const START = 0, DELIVER = 1, DROP = 2, EXIT = 3, DECISION = 4, SIGNAL = 5, CALL = 6, RESUME = 7, API = 8;
const ACTIONS = ['restart', 'keep', 'remove', 'give_up', 'auto_shutdown'];  // auto_shutdown: version 2 (§21)
const RESTART = 0, KEEP = 1, REMOVE = 2, GIVE_UP = 3, AUTO_SHUTDOWN = 4;
const FIRST = 1 << 10, CHUNK = 1 << 16;  // int32 fields of the first chunk, and of the largest
const LONGEST = 7;  // fields of the longest record

class Journal {
  constructor() {
    this.ends = [];  // fields used in each chunk but the last
    this.chunk = new Int32Array(FIRST);  // most runs are short: their journal is one small chunk
    this.chunks = [this.chunk];
    this.at = 0;  // the next free field of `chunk`
    this.args = [];  // argument arrays of DELIVER and DROP records
    this.reasons = ['normal', 'shutdown'];  // exit reasons by index; failure codes after these
    this.reasonIds = new Map([['normal', 0], ['shutdown', 1]]);
  }

  // Room for one record; returns the chunk, its fields from this.at on. Each chunk
  // is twice the last, up to CHUNK fields.
  room() {
    if (this.at + LONGEST > this.chunk.length) {
      this.ends.push(this.at);
      this.chunk = LOST_CHUNK && this.chunks.length >= 4 ? this.chunks[this.chunks.length]
                                                         : new Int32Array(Math.min(2 * this.chunk.length, CHUNK));
      this.chunks.push(this.chunk);
      this.at = 0;
    }
    grew();
    return this.chunk;
  }

  start(turn, name, kind) {
    const c = this.room(), i = this.at;
    c[i] = START, c[i + 1] = turn, c[i + 2] = name, c[i + 3] = kind;
    this.at = i + 4;
  }

  deliver(turn, ready, to, from, sig, args, kind = DELIVER) {
    const c = this.room(), i = this.at;
    c[i] = kind, c[i + 1] = turn, c[i + 2] = ready, c[i + 3] = to, c[i + 4] = from, c[i + 5] = sig;
    c[i + 6] = args.length === 0 ? -1 : this.args.push(args) - 1;
    this.at = i + 7;
  }

  drop(turn, from, to, sig, args) {
    const c = this.room(), i = this.at;
    c[i] = DROP, c[i + 1] = turn, c[i + 2] = from, c[i + 3] = to, c[i + 4] = sig;
    c[i + 5] = args.length === 0 ? -1 : this.args.push(args) - 1;
    this.at = i + 6;
  }

  reasonIndex(reason) {
    let r = this.reasonIds.get(reason);
    if (r === undefined) {
      r = this.reasons.push(reason) - 1;
      this.reasonIds.set(reason, r);
    }
    return r;
  }

  exit(turn, name, reason) {
    const r = this.reasonIndex(reason);
    const c = this.room(), i = this.at;
    c[i] = EXIT, c[i + 1] = turn, c[i + 2] = name, c[i + 3] = r;
    this.at = i + 4;
  }

  decision(turn, sup, child, action) {
    const c = this.room(), i = this.at;
    c[i] = DECISION, c[i + 1] = turn, c[i + 2] = sup, c[i + 3] = child, c[i + 4] = action;
    this.at = i + 5;
  }

  signal(turn, kind, from, to, reason, effect) {
    const r = this.reasonIndex(reason);
    const c = this.room(), i = this.at;
    c[i] = SIGNAL, c[i + 1] = turn, c[i + 2] = kind, c[i + 3] = from, c[i + 4] = to, c[i + 5] = r, c[i + 6] = effect;
    this.at = i + 7;
  }

  api(turn, from, sup, op, child, result) {
    const c = this.room(), i = this.at;
    c[i] = API, c[i + 1] = turn, c[i + 2] = from, c[i + 3] = sup, c[i + 4] = op, c[i + 5] = child, c[i + 6] = result;
    this.at = i + 7;
  }

  resume(turn, ready, to, from, type, value) {
    const c = this.room(), i = this.at;
    c[i] = RESUME, c[i + 1] = turn, c[i + 2] = ready, c[i + 3] = to, c[i + 4] = from, c[i + 5] = type;
    c[i + 6] = this.args.push([value]) - 1;
    this.at = i + 7;
  }

  // Calls visit(chunk, index) for each record in order.
  forEach(visit) {
    for (let k = 0; k < this.chunks.length; k++) {
      const c = this.chunks[k], end = k < this.ends.length ? this.ends[k] : this.at;
      for (let i = 0; i < end; i += LENGTH[c[i]]) visit(c, i);
    }
  }

  // The bytes it holds (bench statistics): its chunks and its references to argument
  // arrays (the arrays themselves are the messages').
  bytes() {
    let bytes = this.args.length * 8;
    for (const c of this.chunks) bytes += c.byteLength;
    return bytes;
  }
}

const LENGTH = [4, 7, 6, 4, 5, 7, 7, 7, 7];  // fields per record, by kind

module.exports = {
  Journal, START, DELIVER, DROP, EXIT, DECISION, SIGNAL, CALL, RESUME, API, ACTIONS, RESTART, KEEP, REMOVE, GIVE_UP, AUTO_SHUTDOWN,
};
