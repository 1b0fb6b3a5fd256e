// bench/js_micro.js: the two representation choices of the js target's runtime,
// measured (targets/js/README.md, "Ints and draws"):
//   1. SplitMix64 draws (SPEC §8.3) with BigInt against the runtime's 32-bit halves;
//   2. int64 arithmetic (SPEC §5) all in BigInt against the runtime's prelude (a
//      Number in the safe range, a BigInt outside), on small values and on values
//      beyond 2^53, hot (one context, optimised) and cold (a fresh vm context per
//      2,000 iterations, as the target loads each program).
// usage: node bench/js_micro.js [RUNTIME_DIR]   (default: targets/js/runtime)
'use strict';

const fs = require('fs');
const path = require('path');
const vm = require('vm');

const RUNTIME = path.resolve(process.argv[2] || path.join(__dirname, '..', 'targets', 'js', 'runtime'));
const { SplitMix64 } = require(path.join(RUNTIME, 'splitmix.js'));
const PRELUDE = fs.readFileSync(path.join(RUNTIME, 'int64.js'), 'utf8');

const M64 = (1n << 64n) - 1n;
class BigSplitMix {
  constructor(seed) {
    this.s = seed;
  }
  pick(n) {
    this.s = (this.s + 0x9e3779b97f4a7c15n) & M64;
    let z = this.s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M64;
    return Number((z ^ (z >> 31n)) % BigInt(n));
  }
}

function nsPer(n, f) {
  const t0 = process.hrtime.bigint();
  f();
  return Number(process.hrtime.bigint() - t0) / n;
}

function best(f) {
  return Math.min(f(), f(), f());
}

const rows = [];

// 1. Draws, reduced mod a ready count as the scheduler does.
for (const [name, make] of [['BigInt', (s) => new BigSplitMix(s)], ['32-bit halves', (s) => new SplitMix64(s)]]) {
  const n = name === 'BigInt' ? 300000 : 3000000;
  let acc = 0;
  const ns = best(() => nsPer(n, () => {
    const g = make(7n);
    for (let i = 0; i < n; i++) acc += g.pick(1 + (i & 1023));
  }));
  rows.push(['SplitMix64 draw + mod', name, 'hot', ns]);
  if (acc < 0) console.log(acc);
}

// 2. A loop of the operators generated programs use most: * + - / % and a comparison.
const LOOP = (lit) => `
(function run(vals, n, M) {
  let x = ${lit(0)}, y = ${lit(1)}, c = ${lit(0)};
  for (let i = 0; i < n; i++) {
    x = rem(add(mul(x, ${lit(3)}), vals[i & 1023]), M);
    y = sub(y, div(x, ${lit(7)}));
    if (lt(x, y) !== ${lit(0)}) c = add(c, ${lit(1)});
  }
  return String(x) + ' ' + String(y) + ' ' + String(c);
})`;
const BIGINT_OPS = `
const { asIntN } = BigInt;  // a local: globals in a vm context go through node's interceptor
const W = (x) => asIntN(64, x);
const add = (a, b) => W(a + b), sub = (a, b) => W(a - b), mul = (a, b) => W(a * b);
const div = (a, b) => { if (b === 0n) return rt.fail('DIV_ZERO'); return W(a / b); };
const rem = (a, b) => { if (b === 0n) return rt.fail('DIV_ZERO'); return a % b; };
const lt = (a, b) => (a < b ? 1n : 0n);
`;
const variants = [
  ['BigInt', BIGINT_OPS + LOOP((v) => `${v}n`), true],
  ['Number/BigInt (int64.js)', PRELUDE + LOOP((v) => `${v}`), false],
];

function values(kind, bigints) {
  const out = [];
  let s = 12345;
  for (let i = 0; i < 1024; i++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    const v = kind === 'small' ? BigInt(s % 1000) - 500n : (BigInt(s) << 32n) ^ BigInt(s * 7);
    out.push(bigints || v < -9007199254740991n || v > 9007199254740991n ? v : Number(v));
  }
  return out;
}

// As the js target's loader.js does it: the operators as a script of their own in a
// fresh context, then the code that uses them.
function load(src) {
  const at = src.lastIndexOf('(function run');
  const context = vm.createContext({ concord: { rt: { fail: (c) => { throw c; } }, FAULT: '' } });
  new vm.Script(src.slice(0, at)).runInContext(context);
  return new vm.Script(src.slice(at)).runInContext(context);
}

for (const kind of ['small', 'large']) {
  const results = [];
  for (const [name, src, bigints] of variants) {
    const vals = values(kind, bigints);
    const M = kind === 'small' ? (bigints ? 1000n : 1000) : 9223372036854775807n;
    const hot = load(src);
    hot(vals, 100000, M);
    const nsHot = best(() => nsPer(1000000, () => results.push(hot(vals, 1000000, M))));
    const nsCold = best(() => nsPer(100000, () => {
      for (let k = 0; k < 50; k++) load(src)(vals, 2000, M);
    }));
    rows.push([`int64 loop, ${kind} values`, name, 'hot', nsHot]);
    rows.push([`int64 loop, ${kind} values`, name, 'cold (fresh context per 2,000)', nsCold]);
  }
  if (results[0] !== results[results.length - 1]) throw new Error(`the variants disagree: ${results[0]} ${results.at(-1)}`);
}

console.log(`js micro-benchmarks: node ${process.version}, ${require('os').cpus().length} cpus, load ${require('os').loadavg()[0].toFixed(1)}`);
console.log('| what | representation | mode | ns per iteration |');
console.log('|---|---|---|---:|');
for (const [what, rep, mode, ns] of rows) console.log(`| ${what} | ${rep} | ${mode} | ${ns.toFixed(1)} |`);
