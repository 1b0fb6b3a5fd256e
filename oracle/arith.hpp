// oracle/arith.hpp: int64 arithmetic of SPEC §5, without undefined behaviour.
// Wrapping goes through uint64 (defined modulo 2^64); the only failing operations,
// division and remainder by zero, are reported by returning false.
#pragma once

#include <cstdint>
#include <limits>

namespace concord::arith {

inline int64_t wrap(uint64_t x) { return static_cast<int64_t>(x); }  // two's complement (C++20)
inline int64_t add(int64_t a, int64_t b) { return wrap(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
inline int64_t sub(int64_t a, int64_t b) { return wrap(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
inline int64_t mul(int64_t a, int64_t b) { return wrap(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }
inline int64_t neg(int64_t a) { return wrap(0 - static_cast<uint64_t>(a)); }

// Truncating division; MIN / -1 wraps to MIN. False when b == 0 (DIV_ZERO).
inline bool div(int64_t a, int64_t b, int64_t& out) {
  if (b == 0) return false;
  out = (b == -1) ? neg(a) : a / b;
  return true;
}

// Remainder with the dividend's sign; MIN % -1 is 0. False when b == 0 (DIV_ZERO).
inline bool rem(int64_t a, int64_t b, int64_t& out) {
  if (b == 0) return false;
  out = (b == -1) ? 0 : a % b;
  return true;
}

// Shift counts are the low 6 bits of b (b mod 64 on the two's complement pattern).
inline int64_t shl(int64_t a, int64_t b) { return wrap(static_cast<uint64_t>(a) << (static_cast<uint64_t>(b) & 63)); }
inline int64_t shr(int64_t a, int64_t b) { return a >> (static_cast<uint64_t>(b) & 63); }  // arithmetic (C++20)

}  // namespace concord::arith
