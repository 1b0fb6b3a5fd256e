/* targets/c/runtime/free/free_world.c: a free run's memory, its names (SPEC §2),
** the run queue the threads serve, and the supervision lock. */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "free.h"

fr_world fr_w;

static const char memory_line[] = "{\"ok\":false,\"code\":\"MEMORY\",\"message\":\"out of memory\"}\n";

/* Out of memory on any thread: the run cannot be answered, nor can the others of
** this process be run safely; the line is written from static text, and the
** harness answers what is left of the request (runners/PROTOCOL.md). */
_Noreturn void fr_out_of_memory(void) {
  fflush(stdout);
  ssize_t r = write(1, memory_line, sizeof memory_line - 1);
  (void)r;
  _exit(0);
}

void *fr_alloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) fr_out_of_memory();
  return p;
}

void *fr_calloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p) fr_out_of_memory();
  return p;
}

void *fr_room(void *p, size_t n, size_t *cap, size_t size) {
  if (n < *cap) return p;
  size_t grown = *cap ? *cap * 2 : 4;
  void *q = realloc(p, grown * size);
  if (!q) fr_out_of_memory();
  *cap = grown;
  return q;
}

/* --- names ---------------------------------------------------------------------- */

fr_name *fr_name_at(int32_t id) {
  fr_name *chunk = atomic_load_explicit(&fr_w.chunks[id >> FR_CHUNK_BITS], memory_order_acquire);
  if (!chunk) { /* first name of its chunk: whoever installs it first wins */
    fr_name *fresh = fr_calloc((size_t)1 << FR_CHUNK_BITS, sizeof *fresh);
    fr_name *expected = NULL;
    if (atomic_compare_exchange_strong(&fr_w.chunks[id >> FR_CHUNK_BITS], &expected, fresh))
      chunk = fresh;
    else {
      free(fresh);
      chunk = expected;
    }
  }
  return &chunk[id & ((1 << FR_CHUNK_BITS) - 1)];
}

static size_t hash_text(const char *s) {
  size_t h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static int32_t program_name(const char *text) {
  size_t mask = fr_w.prog_index_size - 1;
  for (size_t i = hash_text(text) & mask;; i = (i + 1) & mask) {
    int32_t id = fr_w.prog_index[i];
    if (id < 0) return -1;
    if (strcmp(fr_w.prog->names[id], text) == 0) return id;
  }
}

int32_t fr_spawned_name(int32_t kind, int64_t num) {
  const char *prefix = fr_w.prog->kinds[kind].spawn_prefix;
  size_t len = strlen(prefix);
  char *text = fr_alloc(len + 21);
  memcpy(text, prefix, len);
  snprintf(text + len, 21, "%lld", (long long)num);
  int32_t id = program_name(text); /* an addr literal of the program (@worker-1) keeps its id */
  if (id >= 0) {
    free(text);
    return id;
  }
  id = (int32_t)atomic_fetch_add(&fr_w.nnames, 1);
  if (id >= FR_CHUNKS << FR_CHUNK_BITS) fr_out_of_memory();
  fr_name_at(id)->text = text;
  return id;
}

const char *fr_name_text(int32_t id) { return id < fr_w.prog->nnames ? fr_w.prog->names[id] : fr_name_at(id)->text; }

void fr_world_init(void) {
  const cr_program *prog = fr_w.prog;
  fr_w.chunks = fr_calloc(FR_CHUNKS, sizeof *fr_w.chunks);
  atomic_init(&fr_w.nnames, prog->nnames);
  for (int32_t i = 0; i < prog->nnames; i++) fr_name_at(i);
  fr_w.prog_index_size = 16;
  while (fr_w.prog_index_size < (size_t)prog->nnames * 2) fr_w.prog_index_size *= 2;
  fr_w.prog_index = fr_alloc(fr_w.prog_index_size * sizeof *fr_w.prog_index);
  for (size_t i = 0; i < fr_w.prog_index_size; i++) fr_w.prog_index[i] = -1;
  for (int32_t id = 0; id < prog->nnames; id++) {
    size_t mask = fr_w.prog_index_size - 1, i = hash_text(prog->names[id]) & mask;
    while (fr_w.prog_index[i] >= 0) i = (i + 1) & mask;
    fr_w.prog_index[i] = id;
  }
  fr_w.spawned = fr_calloc((size_t)prog->nkinds, sizeof *fr_w.spawned);
  fr_w.sup_live = fr_calloc((size_t)prog->nsups, sizeof *fr_w.sup_live);
  fr_w.sup_incs = fr_calloc((size_t)prog->nsups, sizeof *fr_w.sup_incs);
  fr_w.given_reached = fr_calloc((size_t)prog->ngiven, sizeof *fr_w.given_reached);
  atomic_init(&fr_w.live, 0);
  atomic_init(&fr_w.turns, 0);
  atomic_init(&fr_w.limit_hit, 0);
  pthread_mutex_init(&fr_w.all_mx, NULL);
  pthread_mutex_init(&fr_w.g_mx, NULL);
  pthread_cond_init(&fr_w.g_cv, NULL);
  pthread_mutex_init(&fr_w.q_mx, NULL);
  pthread_cond_init(&fr_w.q_cv, NULL);
  pthread_cond_init(&fr_w.done_cv, NULL);
}

static void free_messages(fr_msg *m) {
  while (m) {
    fr_msg *next = m->next;
    free(m);
    m = next;
  }
}

void fr_world_free(void) {
  for (fr_proc *p = fr_w.all_procs, *next; p; p = next) {
    next = p->all_next;
    free_messages(p->head);
    free(p->params);
    free(p->state);
    buf_free(&p->ev);
    free(p->links);
    free(p->watched);
    free(p->wait);
    free(p);
  }
  for (fr_sup *s = fr_w.all_sups, *next; s; s = next) {
    next = s->all_next;
    for (size_t i = 0; i < s->n; i++) free(s->children[i].own);
    free(s->children);
    free(s->retries);
    buf_free(&s->ev);
    free(s);
  }
  int32_t n = (int32_t)atomic_load(&fr_w.nnames);
  for (int32_t c = 0; c <= (n - 1) >> FR_CHUNK_BITS; c++) {
    fr_name *chunk = atomic_load(&fr_w.chunks[c]);
    if (!chunk) continue;
    for (int32_t i = 0; i < 1 << FR_CHUNK_BITS; i++) free(chunk[i].text);
    free(chunk);
  }
  free(fr_w.chunks);
  free(fr_w.prog_index);
  free(fr_w.spawned);
  free(fr_w.sup_live);
  free(fr_w.sup_incs);
  free(fr_w.given_reached);
  free(fr_w.q);
  pthread_mutex_destroy(&fr_w.all_mx);
  pthread_mutex_destroy(&fr_w.g_mx);
  pthread_cond_destroy(&fr_w.g_cv);
  pthread_mutex_destroy(&fr_w.q_mx);
  pthread_cond_destroy(&fr_w.q_cv);
  pthread_cond_destroy(&fr_w.done_cv);
}

/* --- the run queue ------------------------------------------------------------ */

void fr_enqueue(fr_proc *p) {
  pthread_mutex_lock(&fr_w.q_mx);
  if (fr_w.q_len == fr_w.q_cap) { /* grown by doubling, unrolled from q_first */
    size_t cap = fr_w.q_cap ? fr_w.q_cap * 2 : 64;
    fr_proc **grown = fr_alloc(cap * sizeof *grown);
    for (size_t i = 0; i < fr_w.q_len; i++) grown[i] = fr_w.q[(fr_w.q_first + i) % fr_w.q_cap];
    free(fr_w.q);
    fr_w.q = grown;
    fr_w.q_cap = cap;
    fr_w.q_first = 0;
  }
  fr_w.q[(fr_w.q_first + fr_w.q_len++) % fr_w.q_cap] = p;
  pthread_cond_signal(&fr_w.q_cv);
  pthread_mutex_unlock(&fr_w.q_mx);
}

void fr_pending_add(void) { atomic_fetch_add_explicit(&fr_w.pending, 1, memory_order_relaxed); }

void fr_schedule_locked(fr_proc *p, fr_thread *th) {
  p->scheduled = 1;
  if (th && th->held > 0)
    th->held--; /* counted already */
  else
    fr_pending_add();
  if (!th || fr_w.handoff) {
    fr_enqueue(p);
    return;
  }
  /* Kept for this thread to run next (as Go's runnext): a receiver woken by a send
  ** runs where its message was made, not after a hand-off to another thread. The one
  ** it displaces goes to the run queue, where an idle thread takes it. */
  fr_proc *displaced = th->next;
  th->next = p;
  if (displaced) fr_enqueue(displaced);
}

void fr_own_new(fr_proc *p) {
  p->scheduled = 1;
  p->running = 1;
  fr_pending_add();
}

/* n units of `pending` gone: the last ends the run. */
static void pending_sub(int64_t n) {
  if (atomic_fetch_sub_explicit(&fr_w.pending, n, memory_order_acq_rel) == n) {
    pthread_mutex_lock(&fr_w.q_mx); /* the outside waits for 0 under q_mx: no wake-up lost */
    pthread_cond_broadcast(&fr_w.done_cv);
    pthread_mutex_unlock(&fr_w.q_mx);
  }
}

void fr_pending_done(void) { pending_sub(1); }

void fr_release_locked(fr_proc *p, fr_thread *th) {
  p->running = 0;
  if (fr_has_work(p)) {
    fr_enqueue(p); /* still scheduled: pending unchanged */
    return;
  }
  p->scheduled = 0;
  if (th)
    th->held++;
  else
    fr_pending_done();
}

/* th's held units back to `pending`. */
static void give_back(fr_thread *th) {
  if (th->held) pending_sub(th->held);
  th->held = 0;
}

void fr_flush_next(fr_thread *th) {
  fr_proc *p = th->next;
  th->next = NULL;
  fr_enqueue(p);
}

fr_proc *fr_next(fr_thread *th) {
  fr_proc *p = th->next;
  if (!p) {
    give_back(th); /* it may wait now */
    return fr_pop();
  }
  th->next = NULL;
  if (th->in_a_row++ < FR_NEXT_IN_A_ROW) return p;
  /* Past FR_NEXT_IN_A_ROW, the kept one waits its turn behind what the run queue
  ** holds, so that two processes that wake each other cannot keep a thread from
  ** the rest for ever; with nothing waiting there it simply goes on. */
  th->in_a_row = 0;
  pthread_mutex_lock(&fr_w.q_mx);
  int others = fr_w.q_len > 0;
  pthread_mutex_unlock(&fr_w.q_mx);
  if (!others) return p;
  fr_enqueue(p);
  give_back(th);
  return fr_pop();
}

fr_proc *fr_pop(void) {
  pthread_mutex_lock(&fr_w.q_mx);
  while (!fr_w.q_len && !fr_w.over) pthread_cond_wait(&fr_w.q_cv, &fr_w.q_mx);
  fr_proc *p = NULL;
  if (fr_w.q_len) {
    p = fr_w.q[fr_w.q_first];
    fr_w.q_first = (fr_w.q_first + 1) % fr_w.q_cap;
    fr_w.q_len--;
  }
  pthread_mutex_unlock(&fr_w.q_mx);
  return p;
}

void fr_lock_wait(fr_lock *l) {
  for (int spins = 0;; spins++) {
    if (atomic_load_explicit(l, memory_order_relaxed) == 0 && fr_trylock(l)) return;
    if (spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    } else {
      sched_yield();
    }
  }
}

/* --- the supervision lock ---------------------------------------------------------- */

int fr_sup_lock(fr_proc *asker) {
  pthread_mutex_lock(&fr_w.g_mx);
  while (fr_w.sup_busy) {
    if (asker && atomic_load(&asker->kill)) { /* a termination waits for this worker: it exits */
      pthread_mutex_unlock(&fr_w.g_mx);
      return 0;
    }
    pthread_cond_wait(&fr_w.g_cv, &fr_w.g_mx);
  }
  fr_w.sup_busy = 1;
  pthread_mutex_unlock(&fr_w.g_mx);
  return 1;
}

/* A supervisor's own retries (§19.3) are inputs it handles before it lets go. */
void fr_sup_unlock(void) {
  if (fr_w.prog->version != 1) fr_sup_drain_retries();
  fr_w.sup_holder = NULL;
  pthread_mutex_lock(&fr_w.g_mx);
  fr_w.sup_busy = 0;
  pthread_cond_broadcast(&fr_w.g_cv);
  pthread_mutex_unlock(&fr_w.g_mx);
}
