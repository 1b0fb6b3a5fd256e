/* targets/c/runtime/mailbox.c: the FIFO mailbox of a process (SPEC §6.5), one
** ring of 64-bit words: a header word ((from + 1) << 32 | sig), then the
** arguments. Nothing is allocated until the first message (an idle process costs
** one NULL pointer); the ring doubles when full and is kept, empty, when drained. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

#define MB_MIN_WORDS 4u

static rt_mailbox *mb_new(rt_world *w, uint32_t cap) {
  rt_mailbox *m = rt_alloc(w, sizeof *m + (size_t)cap * sizeof(cr_value));
  m->head = m->used = m->pad = 0;
  m->cap = cap;
  return m;
}

/* A ring with room for `need` more words, the old messages first, in order. */
static void mb_grow(rt_world *w, rt_proc *p, uint32_t need) {
  rt_mailbox *old = p->mbox;
  uint64_t want = (uint64_t)(old ? old->used : 0) + need;
  uint64_t cap = old ? old->cap : MB_MIN_WORDS;
  while (cap < want) cap *= 2;
  if (cap > ((uint64_t)1 << 31)) rt_out_of_memory(w); /* word indexes are 32-bit */
#ifdef CONCORD_FAULT_MAILBOX_GROWS_INTO_NULL    /* planted fault: a ring past 4,096 words comes from an empty pool */
  static rt_mailbox *volatile big_rings = NULL; /* (never filled: the pointer is NULL, and not checked) */
  rt_mailbox *m = cap > 4096 ? big_rings : mb_new(w, (uint32_t)cap);
  m->head = m->used = m->pad = 0;
  m->cap = (uint32_t)cap;
#else
  rt_mailbox *m = mb_new(w, (uint32_t)cap);
#endif
  if (old) {
    uint32_t first = old->cap - old->head; /* words up to the ring's end */
    if (first > old->used) first = old->used;
    memcpy(m->w, old->w + old->head, first * sizeof(cr_value));
    memcpy(m->w + first, old->w, (old->used - first) * sizeof(cr_value));
    m->used = old->used;
    free(old);
  }
  p->mbox = m;
}

void mb_push(rt_world *w, rt_proc *p, int32_t from, int32_t sig, int32_t nargs, const cr_value *args) {
  uint32_t need = 1 + (uint32_t)nargs;
  rt_mailbox *m = p->mbox;
  if (!m || m->cap - m->used < need) {
    mb_grow(w, p, need);
    m = p->mbox;
  }
  uint32_t mask = m->cap - 1, at = (m->head + m->used) & mask;
#ifdef CONCORD_FAULT_MAILBOX_LIFO /* planted fault: a message to a non-empty mailbox goes to its front (LIFO) */
  if (m->used) at = m->head = (m->head - need) & mask;
#endif
  m->w[at] = cr_wrap(((uint64_t)(uint32_t)(from + 1) << 32) | (uint32_t)sig);
  for (int32_t i = 0; i < nargs; i++) m->w[(at + 1 + (uint32_t)i) & mask] = args[i];
  m->used += need;
}

int32_t mb_pop(rt_proc *p, int32_t *from, cr_value *args, const cr_program *prog) {
  rt_mailbox *m = p->mbox;
  uint32_t mask = m->cap - 1, at = m->head;
  uint64_t h = (uint64_t)m->w[at];
  int32_t sig = (int32_t)(h & 0xffffffffu);
  *from = (int32_t)(h >> 32) - 1;
  int32_t nargs = prog->sigs[sig].nargs;
  for (int32_t i = 0; i < nargs; i++) args[i] = m->w[(at + 1 + (uint32_t)i) & mask];
  m->used -= 1 + (uint32_t)nargs;
  m->head = m->used ? (at + 1 + (uint32_t)nargs) & mask : 0;
  return sig;
}

/* --- version 2: call messages (SPEC §18.1) ----------------------------------------
** A call message has bit 31 of its header's signature set, and one more word after
** the header: (caller id << 32) | caller incarnation. Only a version 2 program makes
** them, and only mb_pop2 reads them. */
#define MB_CALL 0x80000000u

void mb_push_call(rt_world *w, rt_proc *p, int32_t from, int32_t sig, int32_t nargs, const cr_value *args,
                  int32_t caller, uint32_t caller_inc) {
  uint32_t need = 2 + (uint32_t)nargs;
  rt_mailbox *m = p->mbox;
  if (!m || m->cap - m->used < need) {
    mb_grow(w, p, need);
    m = p->mbox;
  }
  uint32_t mask = m->cap - 1, at = (m->head + m->used) & mask;
  m->w[at] = cr_wrap(((uint64_t)(uint32_t)(from + 1) << 32) | ((uint32_t)sig | MB_CALL));
  m->w[(at + 1) & mask] = cr_wrap(((uint64_t)(uint32_t)caller << 32) | caller_inc);
  for (int32_t i = 0; i < nargs; i++) m->w[(at + 2 + (uint32_t)i) & mask] = args[i];
  m->used += need;
}

int32_t mb_pop2(rt_proc *p, int32_t *from, cr_value *args, const cr_program *prog, int32_t *caller,
                uint32_t *caller_inc) {
  rt_mailbox *m = p->mbox;
  uint32_t mask = m->cap - 1, at = m->head;
  uint64_t h = (uint64_t)m->w[at];
  uint32_t word = (uint32_t)(h & 0xffffffffu);
  int32_t sig = (int32_t)(word & ~MB_CALL);
  uint32_t extra = 0;
  *from = (int32_t)(h >> 32) - 1;
  *caller = -1;
  *caller_inc = 0;
  if (word & MB_CALL) {
    uint64_t c = (uint64_t)m->w[(at + 1) & mask];
    *caller = (int32_t)(c >> 32);
    *caller_inc = (uint32_t)(c & 0xffffffffu);
    extra = 1;
  }
  int32_t nargs = prog->sigs[sig].nargs;
  for (int32_t i = 0; i < nargs; i++) args[i] = m->w[(at + 1 + extra + (uint32_t)i) & mask];
  m->used -= 1 + extra + (uint32_t)nargs;
  m->head = m->used ? (at + 1 + extra + (uint32_t)nargs) & mask : 0;
  return sig;
}
