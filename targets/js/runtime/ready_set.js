// targets/js/runtime/ready_set.js: the ready processes (alive, mailbox not empty) by
// id, enumerated in ascending id order (SPEC §8.2: the order is part of the
// semantics). A Fenwick tree over the ids themselves, one Int32Array cell per id:
// set and k-th are O(log n) in the number of ids, and 4 bytes per process.
'use strict';

const FAULT = require('./fault.js');
const CAPPED = FAULT === 'FAULT_FENWICK_STOPS_GROWING';  // a planted fault (targets/FAULTS.md)

class ReadySet {
  constructor() {
    this.cap = 64;  // ids 0..cap-1; a power of two
    this.tree = new Int32Array(this.cap + 1);  // 1-based: tree[i] counts the ready ids in (i - lowbit(i), i]
    this.size = 0;
  }

  // Id `id` becomes ready (+1) or stops being ready (-1); the caller knows which.
  update(id, delta) {
    if (id >= this.cap) this.grow(id + 1);
    const tree = this.tree, cap = this.cap;
    for (let i = id + 1; i <= cap; i += i & -i) tree[i] += delta;
    this.size += delta;
  }

  // The id of the k-th ready process, 0-based in ascending id order; k < size.
  kth(k) {
    const tree = this.tree, cap = this.cap;
    let pos = 0;
    for (let step = cap; step > 0; step >>>= 1) {
      const next = pos + step;
      if (next <= cap && tree[next] <= k) {
        pos = next;
        k -= tree[next];
      }
    }
    return pos;  // ids 0..pos-1 hold exactly k ready ones, and id pos is ready
  }

  // Doubling the capacity: the new upper half of the tree is empty, and each new
  // power-of-two node's range is the whole old tree.
  grow(ids) {
    let cap = this.cap;
    while (cap < ids) cap = CAPPED ? Math.min(cap * 2, 1024) : cap * 2;  // capped: loops for ever past 1,024
    const tree = new Int32Array(cap + 1);
    tree.set(this.tree);
    for (let p = this.cap * 2; p <= cap; p *= 2) tree[p] = this.size;
    this.tree = tree;
    this.cap = cap;
  }
}

module.exports = { ReadySet };
