// tests/targets/js_runtime_test.cpp: the js runtime's parts against the oracle's own,
// on a real node: the int64 prelude (int64.js) computes SPEC §5 exactly and keeps its
// canonical form on every pair of edge values; SplitMix64 on 32-bit halves
// (splitmix.js) draws what the oracle's SplitMix64 draws, and reduces each draw mod n
// exactly; the Fenwick ready set (ready_set.js) enumerates what the oracle's ReadySet
// enumerates after random updates. The oracle computes every expected value; node
// fails the tests when it is missing.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <sstream>

#include "oracle/arith.hpp"
#include "oracle/ready_set.hpp"
#include "oracle/splitmix.hpp"
#include "runners/process/subprocess.hpp"
#include "targets/common/build_paths.hpp"

using namespace concord;

namespace {

constexpr int64_t MIN = std::numeric_limits<int64_t>::min();
constexpr int64_t MAX = std::numeric_limits<int64_t>::max();
constexpr int64_t kMaxSafe = (int64_t{1} << 53) - 1;

const std::string kRuntime = build_paths::js_runtime;

std::string js_quote(const std::string& s) { return "'" + s + "'"; }  // paths without quotes

// Runs `script` on node with `input` on its stdin; returns its stdout.
std::string node(const std::string& script, const std::string& input = "") {
  CommandResult r;
  try {
    r = run_command(Command{{"node", "-e", script}, {}, "", {}}, input, 120);
  } catch (const SubprocessError& e) {
    throw std::runtime_error(std::string("node cannot be run (nodejs is needed; scripts/setup.sh installs it): ") +
                             e.what());
  }
  EXPECT_TRUE(!r.status.signaled && r.status.code == 0) << r.status.describe() << "\n" << r.err;
  return r.out;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// What int64.js must answer for one value: "n:V" when V is in the safe range (a
// Number), "b:V" outside it (a BigInt): the canonical form.
std::string canonical(int64_t v) { return (v >= -kMaxSafe && v <= kMaxSafe ? "n:" : "b:") + std::to_string(v); }

std::vector<int64_t> edge_values() {
  std::vector<int64_t> v = {0,
                            1,
                            -1,
                            2,
                            -2,
                            63,
                            64,
                            65,
                            127,
                            -64,
                            3,
                            -7,
                            1000,
                            -1000,
                            (1LL << 31) - 1,
                            -(1LL << 31),
                            1LL << 31,
                            (1LL << 32) - 1,
                            1LL << 32,
                            -(1LL << 32) - 1,
                            (1LL << 52),
                            -(1LL << 52),
                            kMaxSafe,
                            -kMaxSafe,
                            kMaxSafe + 1,
                            -kMaxSafe - 1,
                            kMaxSafe + 2,
                            -kMaxSafe - 2,
                            1LL << 62,
                            -(1LL << 62),
                            MAX,
                            MIN,
                            MAX - 1,
                            MIN + 1,
                            94906265,
                            -94906266,
                            3037000499,
                            -3037000500};
  std::mt19937_64 g(7);
  for (int i = 0; i < 8; i++) v.push_back(static_cast<int64_t>(g()));
  return v;
}

// A value as int64.js takes it: a Number literal in the safe range, a BigInt outside.
std::string js_value(int64_t v) {
  bool safe = v >= -kMaxSafe && v <= kMaxSafe;
  return std::to_string(v) + (safe ? "" : "n");
}

}  // namespace

TEST(JsRuntime, Int64PreludeIsExactAndCanonicalOnEdgeValues) {
  std::vector<int64_t> vals = edge_values();
  std::string list;
  for (int64_t v : vals) list += (list.empty() ? "" : ", ") + js_value(v);
  // Every unary op on each value, then every binary op on each pair, one line each.
  std::string script = R"(
const fs = require('fs');
const prelude = fs.readFileSync()" +
                       js_quote(kRuntime + "/int64.js") + R"(, 'utf8');
const ops = new Function('concord', prelude +
  '\nreturn {neg, not, bnot, mul, div, rem, add, sub, shl, shr, lt, le, gt, ge, eq, ne, band, bxor, bor};')(
  { rt: { fail(code) { throw code; } }, FAULT: '' });
const show = (f) => { try { const v = f(); return (typeof v === 'bigint' ? 'b:' : 'n:') + String(v); } catch (e) { return 'fail:' + e; } };
const vals = [)" + list +
                       R"(];
const out = [];
for (const a of vals) for (const op of ['neg', 'not', 'bnot']) out.push(show(() => ops[op](a)));
for (const a of vals) for (const b of vals)
  for (const op of ['mul', 'div', 'rem', 'add', 'sub', 'shl', 'shr', 'lt', 'le', 'gt', 'ge', 'eq', 'ne', 'band', 'bxor', 'bor'])
    out.push(show(() => ops[op](a, b)));
console.log(out.join('\n'));
)";
  std::vector<std::string> got = lines(node(script));
  std::vector<std::string> want;
  for (int64_t a : vals) {
    want.push_back(canonical(arith::neg(a)));
    want.push_back(canonical(a == 0 ? 1 : 0));
    want.push_back(canonical(~a));
  }
  auto div_or_fail = [](bool ok, int64_t v) { return ok ? canonical(v) : std::string("fail:DIV_ZERO"); };
  for (int64_t a : vals)
    for (int64_t b : vals) {
      int64_t q = 0, r = 0;
      bool dok = arith::div(a, b, q), rok = arith::rem(a, b, r);
      for (const std::string& w :
           {canonical(arith::mul(a, b)), div_or_fail(dok, q), div_or_fail(rok, r), canonical(arith::add(a, b)),
            canonical(arith::sub(a, b)), canonical(arith::shl(a, b)), canonical(arith::shr(a, b)), canonical(a < b),
            canonical(a <= b), canonical(a > b), canonical(a >= b), canonical(a == b), canonical(a != b),
            canonical(a & b), canonical(a ^ b), canonical(a | b)})
        want.push_back(w);
    }
  ASSERT_EQ(got.size(), want.size());
  const char* binary[] = {"mul", "div", "rem", "add", "sub", "shl",  "shr",  "lt",
                          "le",  "gt",  "ge",  "eq",  "ne",  "band", "bxor", "bor"};
  size_t unary = vals.size() * 3, bad = 0;
  for (size_t i = 0; i < want.size() && bad < 20; i++) {
    if (got[i] == want[i]) continue;
    bad++;
    if (i < unary) {
      ADD_FAILURE() << "unary op " << i % 3 << " of " << vals[i / 3] << ": js " << got[i] << ", oracle " << want[i];
    } else {
      size_t k = i - unary, op = k % 16, pair = k / 16;
      ADD_FAILURE() << binary[op] << "(" << vals[pair / vals.size()] << ", " << vals[pair % vals.size()] << "): js "
                    << got[i] << ", oracle " << want[i];
    }
  }
}

// The draws and their reductions mod n, for seeds at the edges of the 64-bit range.
TEST(JsRuntime, SplitMixDrawsAndReducesAsTheOracle) {
  const uint64_t seeds[] = {
      0, 1, 7, 0x8000000000000000ULL, 0xffffffffffffffffULL, 0x9e3779b97f4a7c15ULL, 1234567890123456789ULL};
  const uint64_t mods[] = {
      1, 2, 3, 7, 1000, 65535, 65536, 65537, 4294967295ULL, 4294967296ULL, 10000000, 137438953471ULL};
  std::string script = R"(
const { SplitMix64 } = require()" +
                       js_quote(kRuntime + "/splitmix.js") + R"();
const mods = [)";
  for (uint64_t m : mods) script += std::to_string(m) + ", ";
  script += "];\nconst out = [];\nfor (const seed of [";
  for (uint64_t s : seeds) script += std::to_string(s) + "n, ";
  script += R"(]) {
  const g = new SplitMix64(seed);
  for (let i = 0; i < 500; i++) {
    const n = mods[i % mods.length];
    const r = g.pick(n);
    out.push(g.draw().toString() + ' ' + r);
  }
}
console.log(out.join('\n'));
)";
  std::vector<std::string> got = lines(node(script));
  std::vector<std::string> want;
  for (uint64_t s : seeds) {
    SplitMix64 g{s};
    for (int i = 0; i < 500; i++) {
      uint64_t x = g.next(), n = mods[i % std::size(mods)];
      want.push_back(std::to_string(x) + " " + std::to_string(x % n));
    }
  }
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); i++)
    ASSERT_EQ(got[i], want[i]) << "seed " << seeds[i / 500] << ", draw " << i % 500;
}

// Random updates (ids up to 40,000: the tree grows several times), then every k-th.
TEST(JsRuntime, ReadySetEnumeratesAsTheOracle) {
  std::mt19937 g(18);
  std::vector<bool> ready(40000, false);
  ReadySet oracle;
  std::string ops;  // "id delta" per line, then "k" queries after a line "?"
  std::vector<int64_t> want;
  for (int round = 0; round < 6; round++) {
    int limit = round < 3 ? 1500 : 40000;
    for (int i = 0; i < 3000; i++) {
      int id = static_cast<int>(g() % static_cast<unsigned>(limit));
      bool on = g() % 3 != 0;
      if (ready[id] == on) continue;
      ready[id] = on;
      oracle.set(id, on);
      ops += std::to_string(id) + " " + (on ? "1" : "-1") + "\n";
    }
    ops += "?\n";
    for (int64_t k = 0; k < oracle.size(); k++) want.push_back(oracle.kth(k));
  }
  std::string script = R"(
const { ReadySet } = require()" +
                       js_quote(kRuntime + "/ready_set.js") + R"();
const lines = require('fs').readFileSync(0, 'utf8').split('\n');
const s = new ReadySet();
const out = [];
for (const l of lines) {
  if (l === '?') { for (let k = 0; k < s.size; k++) out.push(s.kth(k)); continue; }
  if (l === '') continue;
  const [id, d] = l.split(' ').map(Number);
  s.update(id, d);
}
console.log(out.join('\n'));
)";
  std::vector<std::string> got = lines(node(script, ops));
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); i++) ASSERT_EQ(got[i], std::to_string(want[i])) << "answer " << i;
}
