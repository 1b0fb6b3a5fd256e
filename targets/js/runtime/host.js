// targets/js/runtime/host.js: the persistent node process of the js target (`node
// host.js`). It reads frames from stdin (targets/js/README.md, "Host input: frames":
// a 4-byte big-endian length, a line of `SEED TURNS MAX` runs separated by `;`, then
// the emitted program), loads each program into a fresh vm context (loader.js), runs
// every seed and writes one line per run on stdout, then drops the context. It runs
// until stdin closes. Once its modules are loaded it prints `concord ready` (its boot
// is not a run's time: targets/common/framed_runtime.hpp). stdout carries results only; stderr is for node's own last words.
'use strict';

const fs = require('fs');
const { load } = require('./loader.js');
const { run } = require('./run.js');
const { OutOfMemory } = require('./memory.js');
const { writeResult, errorLine } = require('./result.js');

// CONCORD_JS_STATS=1 (bench/c_bench.py): after each run, its heap on stderr.
const STATS = process.env.CONCORD_JS_STATS === '1';
const sleeper = new Int32Array(new SharedArrayBuffer(4));

function pause() {
  Atomics.wait(sleeper, 0, 0, 1);  // 1 ms: a non-blocking descriptor had nothing yet
}

// --- stdout: whole buffers, whatever the descriptor's mode ---------------------------

function writeAll(buf) {
  for (let off = 0; off < buf.length;) {
    try {
      off += fs.writeSync(1, buf, off, buf.length - off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
      pause();
    }
  }
}

// Collects a line's pieces in a buffer and writes it out a chunk at a time (result.js).
class Sink {
  constructor() {
    this.buf = Buffer.allocUnsafe(1 << 20);
    this.at = 0;
  }
  put(s) {
    if (s.length > this.buf.length - this.at) {
      this.flush();
      if (s.length > this.buf.length) return writeAll(Buffer.from(s, 'latin1'));
    }
    this.at += this.buf.write(s, this.at, 'latin1');  // results are ASCII
  }
  flush() {
    if (this.at > 0) writeAll(this.buf.subarray(0, this.at));
    this.at = 0;
  }
  discard() {
    this.at = 0;
  }
}

// --- stdin: frames ----------------------------------------------------------------------

let inBuf = Buffer.alloc(1 << 16), inLen = 0, eof = false;

// Reads until `n` bytes are buffered; false at end of input before that.
function fill(n) {
  if (inBuf.length < n) {
    const bigger = Buffer.alloc(Math.max(n, inBuf.length * 2));
    inBuf.copy(bigger, 0, 0, inLen);
    inBuf = bigger;
  }
  while (inLen < n && !eof) {
    let got;
    try {
      got = fs.readSync(0, inBuf, inLen, inBuf.length - inLen, null);
    } catch (e) {
      if (e.code === 'EAGAIN') {
        pause();
        continue;
      }
      if (e.code === 'EOF') got = 0;
      else throw e;
    }
    if (got === 0) eof = true;
    inLen += got;
  }
  return inLen >= n;
}

function take(n) {
  const out = Buffer.from(inBuf.subarray(0, n));
  inBuf.copy(inBuf, 0, n, inLen);
  inLen -= n;
  return out;
}

function nextFrame() {
  if (!fill(4)) return null;
  const n = inBuf.readUInt32BE(0);
  take(4);
  if (!fill(n)) return null;
  return take(n).toString('utf8');
}

// --- programs ----------------------------------------------------------------------------

function parseRuns(line) {
  const runs = [];
  for (const r of line.split(';')) {
    if (r === '') continue;
    const [seed, turns, max] = r.split(' ');
    runs.push({ seed: BigInt(seed), turns: Number(turns), max: Number(max) });
  }
  return runs;
}

// Where in this target's code an error was thrown, and what it was: the innermost
// frame's file, and the error's name and message with numbers as N ("journal.js
// TypeError: Cannot set properties of undefined (setting 'N')"), or '' when its
// stack names no file. Not the function: one bug met in three journal methods is
// one bug. An INTERNAL message ends with it as "[at WHERE]" (runners/PROTOCOL.md):
// triage puts two bugs in two buckets, one in one however its programs differ.
function whereThrown(e) {
  const what = `${e.name}: ${e.message}`.replace(/\d+/g, 'N');  // not the file's digits: int64.js
  for (const line of String(e.stack || '').split('\n').slice(1)) {
    const m = /^\s*at (?:\S+ \()?(?:.*[\\/])?([^\\/():]+):\d+:\d+\)?$/.exec(line);
    if (m) return `${m[1]} ${what}`.replace(/[[\]\n]/g, ' ').slice(0, 94);
  }
  return '';
}

// A run that cannot finish: out of memory when V8 says so in a way it survives (a
// string or array past its maximum length), else a bug of this target.
function failureLine(e) {
  if (e instanceof OutOfMemory) return errorLine('MEMORY', `js: ${e.message}`);
  const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  if (e instanceof RangeError && /Invalid (string|array|typed array) length|allocation failed/i.test(e.message))
    return errorLine('MEMORY', `js: ${text}`);
  const where = e instanceof Error ? whereThrown(e) : '';
  return errorLine('INTERNAL', `js: ${text}${where ? ` [at ${where}]` : ''}`);
}

function serveFrame(frame) {
  const nl = frame.indexOf('\n');
  if (nl < 0) {
    writeAll(Buffer.from(errorLine('INTERNAL', 'js: a frame without a runs line')));
    return;
  }
  const runs = parseRuns(frame.slice(0, nl));
  let prog;
  try {
    prog = load(frame.slice(nl + 1));
  } catch (e) {
    const line = errorLine('INTERNAL', `js: the emitted program does not load: ${e}`);
    for (let i = 0; i < runs.length; i++) writeAll(Buffer.from(line));
    return;
  }
  for (const r of runs) {
    const sink = new Sink();
    try {
      const w = run(prog, r.seed, r.turns, r.max);
      if (STATS) stats(w);
      writeResult(sink, w);
    } catch (e) {
      sink.discard();  // nothing of a result has been written unless it passed 1 MiB
      sink.put(failureLine(e));
    }
    sink.flush();
  }
}

// The heap in use with the run's world alive, after a full collection: all of it,
// and without what the journal holds. Written before the result line, so that a
// reader of both finds it when the line arrives.
function stats(w) {
  gc();
  const heap = require('v8').getHeapStatistics().used_heap_size;
  const line = { stats: { heap, heap_no_journal: heap - w.journal.bytes(), processes: w.procs.length, live: w.live } };
  process.stderr.write(JSON.stringify(line) + '\n');
}

function main() {
  writeAll(Buffer.from('concord ready\n'));  // up: the launcher's first run timeout starts now
  for (let frame; (frame = nextFrame()) !== null;) serveFrame(frame);
}

main();
