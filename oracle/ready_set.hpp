// oracle/ready_set.hpp: the set of ready processes (alive, mailbox not empty),
// enumerated in ascending id order (SPEC §8.2). A Fenwick tree over ids gives the
// k-th ready process in O(log n); marking and unmarking are O(log n) too, so the
// cost of a choice stays flat however many processes exist or are ready.
#pragma once

#include <cstdint>
#include <vector>

namespace concord {

class ReadySet {
 public:
  int64_t size() const { return count_; }

  void set(int32_t id, bool ready) {
    if (static_cast<size_t>(id) >= flag_.size()) grow(static_cast<size_t>(id) + 1);
    if (flag_[id] == ready) return;
    flag_[id] = ready;
    int32_t delta = ready ? 1 : -1;
    count_ += delta;
    for (size_t i = static_cast<size_t>(id) + 1; i <= cap_; i += i & (~i + 1)) tree_[i] += delta;
  }

  // The id of the k-th ready process (0-based, ascending ids); k < size().
  int32_t kth(int64_t k) const {
    size_t pos = 0;
    int64_t remaining = k + 1;
    for (size_t step = cap_; step > 0; step >>= 1) {
      if (pos + step <= cap_ && tree_[pos + step] < remaining) {
        pos += step;
        remaining -= tree_[pos];
      }
    }
    return static_cast<int32_t>(pos);  // 1-based position pos+1 is id pos
  }

 private:
  // Capacity is a power of two; growing rebuilds the tree in O(n) from the flags,
  // so growth costs O(1) amortised per id.
  void grow(size_t need) {
    size_t cap = cap_ ? cap_ : 64;
    while (cap < need) cap *= 2;
    cap_ = cap;
    flag_.resize(cap_, false);
    tree_.assign(cap_ + 1, 0);
    for (size_t i = 1; i <= cap_; i++) {
      tree_[i] += flag_[i - 1] ? 1 : 0;
      size_t parent = i + (i & (~i + 1));
      if (parent <= cap_) tree_[parent] += tree_[i];
    }
  }

  std::vector<bool> flag_;
  std::vector<int32_t> tree_;  // 1-based Fenwick tree of flag_
  size_t cap_ = 0;
  int64_t count_ = 0;
};

}  // namespace concord
