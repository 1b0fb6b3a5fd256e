// targets/js/runtime/splitmix.js: the run's generator, SplitMix64 (SPEC §8.3), on
// two unsigned 32-bit halves. BigInt would be the obvious choice; it is about ten
// times slower per draw (bench/js_micro.js), because every BigInt operation allocates,
// while the halves stay in registers: products are done in 16-bit limbs (each
// partial product < 2^32, exact in a double), as Long.js does.
'use strict';

const FAULT = require('./fault.js');
const ROUNDED_DRAW = FAULT === 'FAULT_DRAW_ROUNDED_TO_DOUBLE';  // a planted fault (targets/FAULTS.md)

class SplitMix64 {
  constructor(seed) {  // seed: a BigInt in [0, 2^64)
    this.hi = Number(seed >> 32n) | 0;  // the state's halves, as int32 bit patterns
    this.lo = Number(seed & 0xffffffffn) | 0;
    this.zh = 0;  // the last draw's halves
    this.zl = 0;
  }

  // (zh, zl) := (zh, zl) * (bh, bl) mod 2^64.
  mul(bh, bl) {
    const ah = this.zh, al = this.zl;
    const a48 = ah >>> 16, a32 = ah & 0xffff, a16 = al >>> 16, a00 = al & 0xffff;
    const b48 = bh >>> 16, b32 = bh & 0xffff, b16 = bl >>> 16, b00 = bl & 0xffff;
    let c00 = a00 * b00;
    let c16 = c00 >>> 16;
    c00 &= 0xffff;
    c16 += a16 * b00;
    let c32 = c16 >>> 16;
    c16 &= 0xffff;
    c16 += a00 * b16;
    c32 += c16 >>> 16;
    c16 &= 0xffff;
    c32 += a32 * b00;
    let c48 = c32 >>> 16;
    c32 &= 0xffff;
    c32 += a16 * b16;
    c48 += c32 >>> 16;
    c32 &= 0xffff;
    c32 += a00 * b32;
    c48 += c32 >>> 16;
    c32 &= 0xffff;
    c48 += a48 * b00 + a32 * b16 + a16 * b32 + a00 * b48;  // only its low 16 bits count
    this.zh = ((c48 & 0xffff) << 16) | c32;
    this.zl = (c16 << 16) | c00;
  }

  // z ^= z >> k (logical), 0 < k < 32.
  xorShift(k) {
    const h = this.zh, l = this.zl;
    this.zl = l ^ ((l >>> k) | (h << (32 - k)));
    this.zh = h ^ (h >>> k);
  }

  next() {
    const lo = (this.lo >>> 0) + 0x7f4a7c15;  // state += 0x9e3779b97f4a7c15
    this.hi = (this.hi + 0x9e3779b9 + (lo > 0xffffffff ? 1 : 0)) | 0;
    this.lo = lo | 0;
    this.zh = this.hi;
    this.zl = this.lo;
    this.xorShift(30);
    this.mul(0xbf58476d, 0x1ce4e5b9);
    this.xorShift(27);
    this.mul(0x94d049bb, 0x133111eb);
    this.xorShift(31);
  }

  // The next draw x, reduced: x mod n (unsigned), for 0 < n < 2^37. Taken 16 bits
  // at a time so that every intermediate stays below 2^53.
  pick(n) {
    this.next();
    const zl = this.zl >>> 0;
    if (ROUNDED_DRAW) return ((this.zh >>> 0) * 4294967296 + zl) % n;  // x as a double
    let r = (this.zh >>> 0) % n;
    r = (r * 65536 + (zl >>> 16)) % n;
    return (r * 65536 + (zl & 0xffff)) % n;
  }

  // The last draw as a BigInt (for tests).
  draw() {
    return (BigInt(this.zh >>> 0) << 32n) | BigInt(this.zl >>> 0);
  }
}

module.exports = { SplitMix64 };
