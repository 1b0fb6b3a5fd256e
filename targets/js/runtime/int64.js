// targets/js/runtime/int64.js: SPEC §5 on int64 in JavaScript, the prelude of every
// emitted program. Not a module: a script, compiled once (loader.js) and run in each
// program's fresh vm context before the program, whose functions see its top-level
// constants (and inline them: they live in the same context). It reads the context's
// one global, `concord`: `rt`, what emitted code calls, and `FAULT`, the planted fault
// switched on (targets/FAULTS.md; '' in every normal build).
//
// An int is a Number when it lies in the safe range [-(2^53-1), 2^53-1] and a BigInt
// only outside it: that is the canonical form, so `===` is equality and a BigInt is
// never 0. Measured (targets/js/README.md, "Ints"): with small values, as programs
// mostly have, Numbers are 4-6 times faster than BigInts everywhere; with values
// beyond 2^53 the two cost the same. Every fast path below is exact: a double
// result of + - * of two safe ints is exact whenever it lies in the safe range
// (rounding is monotonic and 2^53 is a double), trunc(a / b) is exact for |a| < 2^53,
// % and division by a power of two are exact on doubles.
// Globals, read once: in a vm context every global name is looked up through node's
// interceptor, dozens of times slower than a constant (measured: 630 ns against 17 ns
// for Math.trunc in a loop).
const { rt, FAULT } = concord;
const { trunc, floor } = Math;
const { asIntN } = BigInt;
const toBigInt = BigInt, toNumber = Number, freeze = Object.freeze;

const MAXS = 9007199254740991;
const MAXSN = 9007199254740991n;
const norm = (b) => (b >= -MAXSN && b <= MAXSN ? toNumber(b) : b);
const big = (a) => (typeof a === 'number' ? toBigInt(a) : a);
const wrap = (b) => norm(asIntN(64, b));
const POW2 = [];
for (let i = 0, p = 1; i < 64; i++, p *= 2) POW2.push(p);
// The low 6 bits of a count's two's complement pattern (b & 63 of ToInt32 keeps them).
const DIV_FLOORS = FAULT === 'FAULT_DIV_FLOORS';  // a planted fault (targets/FAULTS.md)
const count = (b) => (typeof b === 'number' ? b & 63 : toNumber(b & 63n));

// A planted fault (held out 2, targets/FAULTS.md): + of two Numbers returns the double
// sum without the range check, rounded once it passes 2^53.
const ADD_UNCHECKED = FAULT === 'FAULT_ADD_SKIPS_RANGE_CHECK';
const add = (a, b) => {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a + b;
    if (ADD_UNCHECKED && r <= 9223372036854775807 && r >= -9223372036854775808) return r;
    if (r <= MAXS && r >= -MAXS) return r;
  }
  return wrap(big(a) + big(b));
};
const sub = (a, b) => {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a - b;
    if (r <= MAXS && r >= -MAXS) return r;
  }
  return wrap(big(a) - big(b));
};
const mul = (a, b) => {
  if (typeof a === 'number' && typeof b === 'number') {
    const r = a * b;
    if (r <= MAXS && r >= -MAXS) return r;
  }
  return wrap(big(a) * big(b));
};
const div = (a, b) => {
  if (b === 0) return rt.fail('DIV_ZERO');
  if (typeof a === 'number' && typeof b === 'number') return DIV_FLOORS ? floor(a / b) : trunc(a / b);
  return wrap(big(a) / big(b));  // BigInt division truncates; MIN / -1 wraps to MIN
};
const rem = (a, b) => {
  if (b === 0) return rt.fail('DIV_ZERO');
  if (typeof a === 'number' && typeof b === 'number') return a % b;  // the dividend's sign
  return norm(big(a) % big(b));
};
const shl = (a, b) => {
  const c = count(b);
  if (typeof a === 'number') {
    const r = a * POW2[c];  // exact: only the exponent changes
    if (r <= MAXS && r >= -MAXS) return r;
  }
  return wrap(big(a) << toBigInt(c));
};
const shr = (a, b) => {
  const c = count(b);
  if (typeof a === 'number') return floor(a / POW2[c]);  // arithmetic: floor division by 2^c
  return norm(a >> toBigInt(c));
};
// A planted fault (held out, targets/FAULTS.md): the 32-bit fast path of & | ^ taken
// for every Number, whose bits above 31 JavaScript's operators then drop.
const BITWISE_INT32 = FAULT === 'FAULT_BITWISE_TRUNCATES_TO_INT32';
const int32 = BITWISE_INT32 ? (a) => typeof a === 'number' : (a) => typeof a === 'number' && (a | 0) === a;
const band = (a, b) => (int32(a) && int32(b) ? a & b : norm(big(a) & big(b)));
const bor = (a, b) => (int32(a) && int32(b) ? a | b : norm(big(a) | big(b)));
const bxor = (a, b) => (int32(a) && int32(b) ? a ^ b : norm(big(a) ^ big(b)));
// -MAXS - 1 = -2^53 is a double but not canonical.
const bnot = (a) => (typeof a === 'number' ? (a === MAXS ? -9007199254740992n : -a - 1) : norm(~a));
// A planted fault (held out 3, targets/FAULTS.md): - of a BigInt is not wrapped: -(-2^63)
// is 2^63, not -2^63.
const NEG_UNWRAPPED = FAULT === 'FAULT_NEG_SKIPS_WRAP';
const neg = (a) => (typeof a === 'number' ? -a : NEG_UNWRAPPED ? norm(-a) : wrap(-a));
const not = (a) => (a === 0 ? 1 : 0);
// Comparisons between a Number and a BigInt are exact in JavaScript.
const lt = (a, b) => (a < b ? 1 : 0);
const le = (a, b) => (a <= b ? 1 : 0);
const gt = (a, b) => (a > b ? 1 : 0);
const ge = (a, b) => (a >= b ? 1 : 0);
const eq = (a, b) => (a === b ? 1 : 0);  // ints in canonical form, or addrs (name ids)
const ne = (a, b) => (a !== b ? 1 : 0);

// The arguments of every message without any: one array, never written.
const NOARGS = freeze([]);
