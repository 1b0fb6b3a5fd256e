// tests/oracle/arith_test.cpp: SPEC §5 arithmetic, each edge case by hand.
#include "oracle/arith.hpp"

#include <gtest/gtest.h>

#include <limits>

using namespace concord;
constexpr int64_t MIN = std::numeric_limits<int64_t>::min();
constexpr int64_t MAX = std::numeric_limits<int64_t>::max();

TEST(Arith, AddSubMulWrap) {
  EXPECT_EQ(arith::add(MAX, 1), MIN);
  EXPECT_EQ(arith::sub(MIN, 1), MAX);
  EXPECT_EQ(arith::mul(MAX, 2), -2);
  EXPECT_EQ(arith::mul(MIN, -1), MIN);
  EXPECT_EQ(arith::mul(4294967296, 4294967296), 0);  // 2^64 mod 2^64
  EXPECT_EQ(arith::neg(MIN), MIN);
  EXPECT_EQ(arith::neg(5), -5);
}

TEST(Arith, DivisionTruncatesTowardZero) {
  int64_t q = 0;
  ASSERT_TRUE(arith::div(7, 2, q));
  EXPECT_EQ(q, 3);
  ASSERT_TRUE(arith::div(-7, 2, q));
  EXPECT_EQ(q, -3);
  ASSERT_TRUE(arith::div(7, -2, q));
  EXPECT_EQ(q, -3);
  ASSERT_TRUE(arith::div(-7, -2, q));
  EXPECT_EQ(q, 3);
  ASSERT_TRUE(arith::div(MIN, -1, q));
  EXPECT_EQ(q, MIN);
  EXPECT_FALSE(arith::div(1, 0, q));
}

TEST(Arith, RemainderFollowsDividend) {
  int64_t r = 0;
  ASSERT_TRUE(arith::rem(7, 2, r));
  EXPECT_EQ(r, 1);
  ASSERT_TRUE(arith::rem(-7, 2, r));
  EXPECT_EQ(r, -1);
  ASSERT_TRUE(arith::rem(7, -2, r));
  EXPECT_EQ(r, 1);
  ASSERT_TRUE(arith::rem(-7, -2, r));
  EXPECT_EQ(r, -1);
  ASSERT_TRUE(arith::rem(MIN, -1, r));
  EXPECT_EQ(r, 0);
  EXPECT_FALSE(arith::rem(1, 0, r));
}

TEST(Arith, ShiftsTakeCountModulo64) {
  EXPECT_EQ(arith::shl(1, 63), MIN);
  EXPECT_EQ(arith::shl(1, 64), 1);
  EXPECT_EQ(arith::shl(1, 65), 2);
  EXPECT_EQ(arith::shl(1, -1), MIN);  // -1 & 63 == 63
  EXPECT_EQ(arith::shl(3, 63), MIN);  // bits shifted out are lost
  EXPECT_EQ(arith::shr(-8, 1), -4);   // arithmetic
  EXPECT_EQ(arith::shr(MIN, 63), -1);
  EXPECT_EQ(arith::shr(MAX, 63), 0);
  EXPECT_EQ(arith::shr(-1, 64), -1);
  EXPECT_EQ(arith::shr(16, 66), 4);
}
