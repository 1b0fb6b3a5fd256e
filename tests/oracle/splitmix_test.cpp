// tests/oracle/splitmix_test.cpp: the generator's reference vectors (SPEC §8.3)
// and the ready set against a plain scan.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "oracle/ready_set.hpp"
#include "oracle/splitmix.hpp"

using namespace concord;

TEST(SplitMix64, ReferenceVectorsSeedZero) {
  // Published outputs of SplitMix64 for seed 0 (Vigna's splitmix64.c), also in SPEC §8.3.
  SplitMix64 g{0};
  EXPECT_EQ(g.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(g.next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(g.next(), 0x06c45d188009454fULL);
}

TEST(SplitMix64, SeedIsTheState) {
  SplitMix64 a{1234567}, b{1234567}, c{1234568};
  for (int i = 0; i < 100; i++) {
    uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
    EXPECT_NE(x, c.next());
  }
}

TEST(ReadySet, KthMatchesAScanInIdOrder) {
  std::mt19937_64 rng(42);
  ReadySet set;
  std::vector<bool> model;
  for (int step = 0; step < 20000; step++) {
    int32_t id = static_cast<int32_t>(rng() % 3000);  // ids beyond capacity force growth
    bool on = rng() % 2;
    if (static_cast<size_t>(id) >= model.size()) model.resize(id + 1, false);
    model[id] = on;
    set.set(id, on);
    std::vector<int32_t> ready;
    if (step % 97 != 0) continue;
    for (size_t i = 0; i < model.size(); i++)
      if (model[i]) ready.push_back(static_cast<int32_t>(i));
    ASSERT_EQ(set.size(), static_cast<int64_t>(ready.size()));
    for (size_t k = 0; k < ready.size(); k++) ASSERT_EQ(set.kth(static_cast<int64_t>(k)), ready[k]);
  }
}
