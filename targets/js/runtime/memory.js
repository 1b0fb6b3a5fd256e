// targets/js/runtime/memory.js: the run's memory bound. A run grows with its events
// and its messages only; the journal and the mailboxes call grew() for each, and
// every CHECK_EVERY of them the heap is measured. A run whose heap stays above 3/4 of
// V8's limit after a full collection ends with MEMORY (OutOfMemory, caught by the
// host), long before V8 would spend a minute in ineffective collections and then
// abort the whole node.
'use strict';

const v8 = require('v8');

const CHECK_EVERY = 1 << 16;
let growth = 0;

class OutOfMemory extends Error {}

function heapFull() {
  const h = v8.getHeapStatistics();
  return h.used_heap_size > 0.75 * h.heap_size_limit;
}

function measure() {
  growth = 0;
  if (!heapFull()) return;
  if (typeof gc === 'function') gc();  // node --expose-gc (the launcher passes it)
  if (heapFull()) {
    const mb = Math.round(v8.getHeapStatistics().heap_size_limit / 1048576);
    throw new OutOfMemory(`the run needs more than 3/4 of the ${mb} MiB heap`);
  }
}

function grew() {
  if (++growth === CHECK_EVERY) measure();
}

module.exports = { grew, OutOfMemory };
