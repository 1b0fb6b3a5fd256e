/* targets/c/runtime/ready.c: the set of ready processes (alive, mailbox not
** empty), enumerated in ascending id order (SPEC §8.2): the design of the
** oracle's oracle/ready_set.hpp. A bitmap holds one bit per id and a Fenwick
** tree over the bitmap's 64-bit words counts the ready ids per word, so the
** k-th ready id is found in O(log n) and the tree (n/64 entries) stays in
** cache with millions of processes. Portable bit counting: no compiler builtins. */
#include <stdlib.h>

#include "rt.h"

static int popcount64(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* Position of the k-th set bit of x (0-based, from the least significant); k < popcount(x). */
static int select_bit(uint64_t x, int k) {
  int base = 0;
  for (;; base += 8, x >>= 8) {
    int c = popcount64(x & 0xff);
    if (k < c) break;
    k -= c;
  }
  for (;; base++, x >>= 1)
    if ((x & 1) && k-- == 0) return base;
}

/* The word capacity is a power of two; growing rebuilds the tree in O(n/64)
** from the bitmap, so growth costs O(1) amortised per id. */
static void grow(rt_world *w, size_t words) {
  size_t cap = w->ready_cap ? w->ready_cap : 16;
#ifdef CONCORD_FAULT_READY_SET_STOPS_GROWING /* planted fault: capped at 16 words (1,024 ids): growing loops for ever \
                                              */
  while (cap < words) cap = cap < 16 ? cap * 2 : 16;
#else
  while (cap < words) cap *= 2;
#endif
  /* Each block is held by the world as soon as it exists (out of memory frees it). */
  w->ready_bits = rt_realloc_array(w, w->ready_bits, cap, sizeof *w->ready_bits);
  int32_t *tree = rt_alloc_array(w, cap + 1, sizeof *tree);
  for (size_t i = w->ready_cap; i < cap; i++) w->ready_bits[i] = 0;
  free(w->ready_tree);
  w->ready_tree = tree;
  w->ready_cap = cap;
  for (size_t i = 0; i <= cap; i++) tree[i] = 0;
  for (size_t i = 1; i <= cap; i++) {
    tree[i] += popcount64(w->ready_bits[i - 1]);
    size_t parent = i + (i & (~i + 1));
    if (parent <= cap) tree[parent] += tree[i];
  }
}

void ready_set(rt_world *w, int32_t id, int ready) {
  size_t word = (size_t)id >> 6;
  uint64_t bit = (uint64_t)1 << (id & 63);
  if (word >= w->ready_cap) {
    if (!ready) return; /* beyond the bitmap: not ready already */
    grow(w, word + 1);
  }
  if (((w->ready_bits[word] & bit) != 0) == (ready != 0)) return;
  w->ready_bits[word] ^= bit;
  int32_t delta = ready ? 1 : -1;
  w->ready_count += delta;
  for (size_t i = word + 1; i <= w->ready_cap; i += i & (~i + 1)) w->ready_tree[i] += delta;
}

/* The id of the k-th ready process (0-based, ascending ids); k < ready_count. */
int32_t ready_kth(const rt_world *w, int64_t k) {
  /* Fenwick descent: the last word whose preceding words hold <= k ready ids. */
  size_t pos = 0, cap = w->ready_cap;
  int64_t remaining = k;
  for (size_t step = cap; step > 0; step >>= 1)
    if (pos + step <= cap && w->ready_tree[pos + step] <= remaining) {
      pos += step;
      remaining -= w->ready_tree[pos];
    }
  return (int32_t)(pos * 64 + (size_t)select_bit(w->ready_bits[pos], (int)remaining));
}

void ready_free(rt_world *w) {
  free(w->ready_bits);
  free(w->ready_tree);
  w->ready_bits = NULL;
  w->ready_tree = NULL;
  w->ready_cap = 0;
  w->ready_count = 0;
}
