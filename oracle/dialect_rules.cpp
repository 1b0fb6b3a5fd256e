// oracle/dialect_rules.cpp: the alternatives that replace a whole computation
// (dialect_rules.hpp): values (§5), the scheduler's pick (§8.2), what a result
// shows (§2, §7.7, §9.1). Each computes SPEC's answer too, so that took() is called
// only where the alternative changed it.
#include "dialect_rules.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "arith.hpp"

namespace concord {
namespace {

using Wide = __int128;
constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();

int64_t saturate(Wide v) { return v < kMin ? kMin : v > kMax ? kMax : static_cast<int64_t>(v); }

// The exact value rounded to a double, saturated at the int64 bounds.
int64_t via_double(long double exact) {
  double d = static_cast<double>(exact);
  if (std::isnan(d)) return 0;
  if (d >= 9223372036854775808.0) return kMax;
  if (d < -9223372036854775808.0) return kMin;
  return static_cast<int64_t>(d);
}

int64_t wrap32(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }

// SPEC's value of op (§5); false when it fails with DIV_ZERO.
bool spec_value(Op op, Value a, Value b, Value& out) {
  switch (op) {
    case Op::Neg: out = arith::neg(a); return true;
    case Op::Not: out = a == 0; return true;
    case Op::BNot: out = ~a; return true;
    case Op::Mul: out = arith::mul(a, b); return true;
    case Op::Div: return arith::div(a, b, out);
    case Op::Rem: return arith::rem(a, b, out);
    case Op::Add: out = arith::add(a, b); return true;
    case Op::Sub: out = arith::sub(a, b); return true;
    case Op::Shl: out = arith::shl(a, b); return true;
    case Op::Shr: out = arith::shr(a, b); return true;
    case Op::Lt: out = a < b; return true;
    case Op::Le: out = a <= b; return true;
    case Op::Gt: out = a > b; return true;
    case Op::Ge: out = a >= b; return true;
    case Op::Eq: out = a == b; return true;
    case Op::Ne: out = a != b; return true;
    case Op::BAnd: out = a & b; return true;
    case Op::BXor: out = a ^ b; return true;
    case Op::BOr: out = a | b; return true;
  }
  return false;
}

// The value of op in the first alternative that applies to it; false: none does.
bool alternative_value(const World& w, Op op, Value a, Value b, Alt& used, Value& out) {
  auto on = [&](Alt x) {
    used = x;
    return alt_on(w, x);
  };
  bool compare = op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge;
  if (op == Op::Mul && on(Alt::MulSaturates)) return out = saturate(Wide(a) * b), true;
  if ((op == Op::Add || op == Op::Sub) && on(Alt::AddSubSaturate))
    return out = saturate(op == Op::Add ? Wide(a) + b : Wide(a) - b), true;
  if ((op == Op::Div || op == Op::Rem) && b == 0 && on(Alt::DivByZeroIsZero)) return out = 0, true;
  if (op == Op::Div && b != 0 && on(Alt::DivFloors)) {
    Wide q = Wide(a) / b;  // toward zero, exact (MIN / -1 included)
    if ((Wide(a) % b != 0) && ((a < 0) != (b < 0))) q -= 1;
    return out = static_cast<int64_t>(static_cast<uint64_t>(q)), true;  // MIN / -1 wraps as in SPEC
  }
  if (op == Op::Rem && b != 0 && on(Alt::RemFloored)) {
    Wide r = Wide(a) % b;
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return out = static_cast<int64_t>(r), true;
  }
  if ((op == Op::Shl || op == Op::Shr) && on(Alt::ShiftCountUnmasked)) {
    if (b >= 0 && b < 64) return spec_value(op, a, b, out);
    return out = (op == Op::Shr && a < 0) ? -1 : 0, true;
  }
  if (op == Op::Shr && on(Alt::ShrLogical))
    return out = static_cast<int64_t>(static_cast<uint64_t>(a) >> (static_cast<uint64_t>(b) & 63)), true;
  if (compare && on(Alt::CompareUnsigned)) {
    uint64_t x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(b);
    out = op == Op::Lt ? x < y : op == Op::Le ? x <= y : op == Op::Gt ? x > y : x >= y;
    return true;
  }
  if ((op == Op::BAnd || op == Op::BOr || op == Op::BXor) && on(Alt::BitwiseIn32Bits)) {
    int64_t x = wrap32(a), y = wrap32(b);
    return out = op == Op::BAnd ? (x & y) : op == Op::BOr ? (x | y) : (x ^ y), true;
  }
  if (on(Alt::ArithInDoubles)) switch (op) {
      case Op::Add: return out = via_double(static_cast<long double>(Wide(a) + b)), true;
      case Op::Sub: return out = via_double(static_cast<long double>(Wide(a) - b)), true;
      case Op::Mul: return out = via_double(static_cast<long double>(Wide(a) * b)), true;
      case Op::Neg: return out = via_double(-static_cast<long double>(a)), true;
      case Op::Div:
        if (b == 0) return false;
        return out = via_double(std::trunc(static_cast<double>(a) / static_cast<double>(b))), true;
      case Op::Rem:
        if (b == 0) return false;
        return out = via_double(std::fmod(static_cast<double>(a), static_cast<double>(b))), true;
      default: break;
    }
  if (on(Alt::ArithIn32Bits)) switch (op) {
      case Op::Add:
      case Op::Sub:
      case Op::Mul:
      case Op::Neg:
      case Op::Shl:
      case Op::BNot:
        if (!spec_value(op, a, b, out)) return false;
        return out = wrap32(out), true;
      default: break;
    }
  return false;
}

// The number of a spawned name "kind-N" with its digits reversed, or "" when it has none.
std::string digits_reversed(const std::string& name) {
  size_t dash = name.rfind('-');
  if (dash == std::string::npos || dash + 1 == name.size()) return "";
  std::string digits = name.substr(dash + 1);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) return "";
  std::reverse(digits.begin(), digits.end());
  return name.substr(0, dash + 1) + digits;
}

}  // namespace

std::optional<Value> value_in_dialect(World& w, Op op, Value a, Value b) {
  Alt used{};
  Value alt = 0, spec = 0;
  if (!alternative_value(w, op, a, b, used, alt)) return std::nullopt;
  if (!spec_value(op, a, b, spec) || spec != alt) took(w, used);
  return alt;
}

uint64_t draw_in_dialect(World& w, uint64_t x) {
  if (!alt_on(w, Alt::DrawStateUnmasked)) return x;
  if (w.turn == 1) w.wide_state = w.run.seed;  // the first draw (turn 1 makes it)
  w.wide_state += 0x9e3779b97f4a7c15ull;
  // Each product is reduced (as the mixing steps of a bignum SplitMix64 do); the state is not.
  uint64_t z = static_cast<uint64_t>(w.wide_state ^ (w.wide_state >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  if (z != x) took(w, Alt::DrawStateUnmasked);
  return z;
}

int64_t pick_in_dialect(World& w, uint64_t x, int64_t ready) {
  uint64_t n = static_cast<uint64_t>(ready);
  int64_t spec = static_cast<int64_t>(x % n), k = spec;
  Alt used{};
  if (alt_on(w, Alt::DrawInDouble)) {
    k = static_cast<int64_t>(std::fmod(static_cast<double>(x), static_cast<double>(n)));  // x as a double
    used = Alt::DrawInDouble;
  } else if (alt_on(w, Alt::DrawLow32Bits)) {
    k = static_cast<int64_t>((x & 0xffffffffu) % n);
    used = Alt::DrawLow32Bits;
  } else if (alt_on(w, Alt::DrawOffByOne)) {
    k = ready > 1 ? (spec + 1) % ready : spec;
    used = Alt::DrawOffByOne;
  }
  if (k != spec) took(w, used);
  if (alt_on(w, Alt::ReadyDescending) && ready > 1) {  // the k-th counted from the highest id
    if (ready - 1 - k != k) took(w, Alt::ReadyDescending);
    k = ready - 1 - k;
  }
  return k;
}

void finish_in_dialect(World& w) {
  if (alt_on(w, Alt::ShutdownIsFailure))  // result.cpp writes the records
    for (const Event& e : w.journal)
      if (e.kind == EventKind::Exit && w.names[e.reason] == "shutdown") {
        took(w, Alt::ShutdownIsFailure);
        break;
      }
  if (alt_on(w, Alt::FinalStateBeforeLastTurn))
    for (auto& [id, before] : w.before_last) {
      Process& p = w.procs[id];
      if (!p.alive || p.state == before) continue;
      p.state = before;
      took(w, Alt::FinalStateBeforeLastTurn);
    }
  if (alt_on(w, Alt::ChildrenNewestFirst))
    for (Supervisor& s : w.sups) {
      if (s.children.size() < 2) continue;
      std::reverse(s.children.begin(), s.children.end());
      took(w, Alt::ChildrenNewestFirst);
    }
  if (alt_on(w, Alt::SpawnDigitsReversed))
    for (int32_t name : w.spawned_names) {
      std::string other = digits_reversed(w.names[name]);
      if (other.empty() || other == w.names[name]) continue;
      w.names[name] = other;
      took(w, Alt::SpawnDigitsReversed);
    }
}

}  // namespace concord
