// targets/js/runtime/memory.js: the run's memory bound. A run grows with its events
// and its messages only; the journal and the mailboxes call grew() for each, and
// every CHECK_EVERY of them the heap is measured. A run whose heap stays above 3/4 of
// V8's old-space limit after a full collection ends with MEMORY (OutOfMemory, caught
// by the host), long before V8 would spend a minute in ineffective collections and
// then abort the whole node.
'use strict';

const v8 = require('v8');

const CHECK_EVERY = 1 << 14;
let growth = 0;

class OutOfMemory extends Error {}

// The old space's limit: --max-old-space-size (the launcher passes it; the last one
// given wins, as in V8), else V8's whole limit less the young generation's 48 MiB (3
// semi-spaces of 16 MiB on 64-bit). Measured against V8's whole limit, a full
// collection near it would itself abort the node.
function oldSpaceLimit() {
  let mb = 0;
  for (const a of process.execArgv) {
    const m = /^--max-old-space-size=(\d+)$/.exec(a);
    if (m) mb = Number(m[1]);
  }
  if (mb > 0) return mb * 1048576;
  return v8.getHeapStatistics().heap_size_limit - 48 * 1048576;
}
const LIMIT = oldSpaceLimit();

function heapFull() {
  return v8.getHeapStatistics().used_heap_size > 0.75 * LIMIT;
}

function measure() {
  growth = 0;
  if (!heapFull()) return;
  if (typeof gc === 'function') gc();  // node --expose-gc (the launcher passes it)
  if (heapFull())
    throw new OutOfMemory(`the run needs more than 3/4 of the ${Math.round(LIMIT / 1048576)} MiB heap`);
}

function grew() {
  if (++growth === CHECK_EVERY) measure();
}

module.exports = { grew, OutOfMemory };
