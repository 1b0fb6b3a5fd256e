/* targets/c/runtime/free/free_text.c: growable text, for a run's events and its
** trace. A free run keeps every event until the end (the trace groups them by
** incarnation, §25.6), so a busy worker's events grow to many megabytes while the
** run goes: faulting those in a 4 KiB page at a time was most of what a light turn
** cost (a fault per 170 events). A text past BUF_HUGE lives in a mapping of its own,
** 2 MiB aligned and marked for transparent huge pages, one fault per 2 MiB where the
** kernel allows it; smaller ones stay on the heap. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "free.h"

#define BUF_HUGE ((size_t)1 << 21)

/* A mapping of n bytes (a multiple of BUF_HUGE) at a BUF_HUGE boundary. */
static char *map_aligned(size_t n) {
  size_t over = n + BUF_HUGE;
  char *m = mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) fr_out_of_memory();
  char *at = (char *)(((uintptr_t)m + BUF_HUGE - 1) & ~(uintptr_t)(BUF_HUGE - 1));
  if (at > m) munmap(m, (size_t)(at - m));
  if (m + over > at + n) munmap(at + n, (size_t)(m + over - (at + n)));
  madvise(at, n, MADV_HUGEPAGE); /* advice: where THP is off, plain pages */
  return at;
}

void buf_grow(fr_buf *b, size_t n) {
  size_t cap = b->cap ? b->cap : 64;
  while (cap - b->len < n) cap *= 2;
  if (cap < BUF_HUGE) {
    char *grown = realloc(b->p, cap);
    if (!grown) fr_out_of_memory();
    b->p = grown;
  } else {
    cap = (cap + BUF_HUGE - 1) & ~(BUF_HUGE - 1);
    char *m = map_aligned(cap);
    size_t len = b->len;
    if (len) memcpy(m, b->p, len); /* doubling: each byte copied about once in all */
    buf_free(b);
    b->p = m;
    b->len = len;
  }
  b->cap = cap;
}

void buf_free(fr_buf *b) {
  if (b->cap >= BUF_HUGE)
    munmap(b->p, b->cap);
  else
    free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

void buf_str(fr_buf *b, const char *s) { buf_put(b, s, strlen(s)); }

void buf_i64(fr_buf *b, int64_t v) {
  char t[24];
  size_t k = sizeof t;
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  do {
    t[--k] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0) t[--k] = '-';
  buf_put(b, t + k, sizeof t - k);
}
