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
  } else if (b->cap < BUF_HUGE) { /* leaves the heap: at most 2 MiB copied */
    cap = (cap + BUF_HUGE - 1) & ~(BUF_HUGE - 1);
    char *m = map_aligned(cap);
    if (b->len) memcpy(m, b->p, b->len);
    free(b->p);
    b->p = m;
  } else { /* moved, not copied: a copy would fault in (and zero) every page twice */
    cap = (cap + BUF_HUGE - 1) & ~(BUF_HUGE - 1);
    char *m = mremap(b->p, b->cap, cap, MREMAP_MAYMOVE);
    if (m == MAP_FAILED) fr_out_of_memory();
    b->p = m;
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

/* Two digits at a time: a trace is mostly numbers (effect numbers, incarnations). */
static const char two_digits[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Written in place, from its last digit back: through a scratch array, the copy out
** cost a call to memcpy (variable length) or a stall (a wide load over narrow stores
** not yet retired), a tenth of writing a trace. Digits counted by comparisons: a
** division a digit was another tenth. */
/* clang-format off */
static const uint64_t tens[] = {
    10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL,
    1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
    1000000000000000000ULL, 10000000000000000000ULL};
/* clang-format on */

void buf_i64_digits(fr_buf *b, int64_t v) {
  char *o = buf_room(b, 21);
  uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
  if (v < 0) *o++ = '-';
  size_t n = 1;
  while (n < 20 && u >= tens[n - 1]) n++;
  char *e = o + n;
  while (u >= 100) {
    e -= 2;
    memcpy(e, two_digits + 2 * (u % 100), 2);
    u /= 100;
  }
  if (u >= 10)
    memcpy(e - 2, two_digits + 2 * u, 2);
  else
    e[-1] = (char)('0' + u);
  b->len = (size_t)(o + n - b->p);
}
