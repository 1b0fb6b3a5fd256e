// oracle/ready_set.hpp: the set of ready processes (alive, mailbox not empty),
// enumerated in ascending id order (SPEC §8.2). The k-th ready process is found
// in O(log n): a bitmap holds one bit per id, and a Fenwick tree over the bitmap's
// 64-bit words counts the ready ids per word. The tree has n/64 entries, so it
// stays in cache even with millions of processes; a choice touches the tree and
// one word of the bitmap.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace concord {

class ReadySet {
 public:
  int64_t size() const { return count_; }

  void set(int32_t id, bool ready) {
    size_t word = static_cast<size_t>(id) >> 6;
    uint64_t bit = uint64_t{1} << (id & 63);
    if (word >= bits_.size()) grow(word + 1);
    if (((bits_[word] & bit) != 0) == ready) return;
    bits_[word] ^= bit;
    int32_t delta = ready ? 1 : -1;
    count_ += delta;
    for (size_t i = word + 1; i <= cap_; i += i & (~i + 1)) tree_[i] += delta;
  }

  // The id of the k-th ready process (0-based, ascending ids); k < size().
  int32_t kth(int64_t k) const {
    // Fenwick descent: the last word whose preceding words hold <= k ready ids.
    size_t pos = 0;
    int64_t remaining = k;
    for (size_t step = cap_; step > 0; step >>= 1)
      if (pos + step <= cap_ && tree_[pos + step] <= remaining) {
        pos += step;
        remaining -= tree_[pos];
      }
    return static_cast<int32_t>(pos * 64 + select_bit(bits_[pos], static_cast<int>(remaining)));
  }

 private:
  // Position of the k-th set bit of w (0-based, from the least significant).
  static int select_bit(uint64_t w, int k) {
    int base = 0;
    for (;; base += 8, w >>= 8) {
      int c = std::popcount(w & 0xff);
      if (k < c) break;
      k -= c;
    }
    for (;; base++, w >>= 1)
      if ((w & 1) && k-- == 0) return base;
  }

  // The word capacity is a power of two; growing rebuilds the tree in O(n/64)
  // from the bitmap, so growth costs O(1) amortised per id.
  void grow(size_t words) {
    size_t cap = cap_ ? cap_ : 16;
    while (cap < words) cap *= 2;
    cap_ = cap;
    bits_.resize(cap_, 0);
    tree_.assign(cap_ + 1, 0);
    for (size_t i = 1; i <= cap_; i++) {
      tree_[i] += std::popcount(bits_[i - 1]);
      size_t parent = i + (i & (~i + 1));
      if (parent <= cap_) tree_[parent] += tree_[i];
    }
  }

  std::vector<uint64_t> bits_;  // bit (id & 63) of word (id >> 6): id is ready
  std::vector<int32_t> tree_;   // 1-based Fenwick tree of the words' popcounts
  size_t cap_ = 0;              // words
  int64_t count_ = 0;
};

}  // namespace concord
