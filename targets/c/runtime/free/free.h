/* targets/c/runtime/free/free.h: the c target's second mode, free runs (SPEC §25)
** on N threads, one section per file. The emitted program is the same C file as
** for conducted runs (concord_rt.h is the whole interface); only the runtime it is
** linked against differs: this one (libconcord_rt_free.a) runs version 1 programs
** with no seeded schedule and answers a trace (§25.6) per run.
**
** The model, as a BEAM runs processes:
** - A worker incarnation is run by one thread at a time: its `scheduled` flag is
**   set while it is queued or running, and only the thread that set it (or popped
**   it) runs it; a turn handles the oldest message of its mailbox (G1, G2).
** - A mailbox takes any number of senders (a mutex per incarnation); a send to an
**   idle incarnation queues it on the run queue, which N threads serve.
** - Supervisors (SPEC §7) take their steps one at a time, under one supervision lock
**   for the whole tree: each step (a child's exit, a spawn `under` it, its start)
**   is handled by the thread that brought it, at once or when the lock is free.
**   Supervisor steps are short next to handlers; their order among themselves is
**   one of those §25.7 allows ([F4], [F5]).
** - A termination (§7.5) of a running worker asks it to exit: its thread looks at
**   every effect and at the end of the turn ([F2]), and while it waits for the
**   supervision lock; the supervisor waits for the exit (OTP's shutdown/2 does).
** - The run ends when no incarnation is queued or running (`pending` is 0).
** - A receiver woken by a send is kept by the sending thread to run next, if the
**   sender's turn ends there (no further effect, no further turn) and the thread has
**   not done so 64 times in a row: a message then costs no hand-off between threads
**   (the seed report measured one at 4-14 times running in place); otherwise it
**   goes to the run queue, where an idle thread takes it.
**
** Locks, always taken in this order: g_mx (the supervision lock's flag, every
** `dead`, `consumed`, the waits for an exit) before an incarnation's mx (its
** mailbox, `scheduled`, `running`, `dead`, a turn's deliver record) before q_mx (the run
** queue). Emitted code calls in through cr_ctx.rt, never thread-local storage, so
** the program can be compiled by tcc as well as cc. */
#ifndef CONCORD_FREE_H
#define CONCORD_FREE_H

#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "concord_rt.h"

/* --- free_text.c: growable text (events, the trace) ------------------------- */
typedef struct fr_buf {
  char *p;
  size_t len, cap;
} fr_buf;
void buf_grow(fr_buf *b, size_t n); /* room for n more bytes */
static inline void buf_put(fr_buf *b, const char *s, size_t n) {
  if (b->cap - b->len < n) buf_grow(b, n);
  memcpy(b->p + b->len, s, n);
  b->len += n;
}
void buf_str(fr_buf *b, const char *s);
void buf_i64(fr_buf *b, int64_t v);
#define BUF_LIT(b, lit) buf_put((b), (lit), sizeof(lit) - 1)

/* --- the world ---------------------------------------------------------------- */
typedef struct fr_proc fr_proc;
typedef struct fr_sup fr_sup;

typedef struct fr_msg {
  struct fr_msg *next;
  fr_proc *from; /* NULL: the outside (a given message) */
  int64_t n;     /* the sender's effect number; a given message: its index from 1 */
  int32_t sig, nargs;
  cr_value args[];
} fr_msg;

/* A worker incarnation (§25.2). */
struct fr_proc {
  int32_t name, kind;
  int64_t inc;
  int32_t nargs;
  cr_value *params, *state;
  fr_proc *by_w; /* who started it: a worker (a spawn without under) ... */
  fr_sup *by_s;  /* ... or a supervisor; both NULL: the outside */
  fr_sup *sup;   /* the supervisor incarnation it is a child of, or NULL */
  pthread_mutex_t mx;
  fr_msg *head, *tail;    /* mx */
  int scheduled, running; /* mx: queued or owned by a thread; being run */
  int dead;               /* mx and g_mx: it has exited */
  int consumed;           /* g_mx: a termination consumed its exit (§25.3 G3) */
  atomic_int kill;        /* a termination asks it to exit (§7.5) */
  int32_t exit_reason;    /* once dead */
  int64_t effects;        /* its thread only: effects made so far (§25.2) */
  fr_buf ev;              /* its events as records (free_trace.c): by the thread that holds it */
  fr_proc *qnext;         /* q_mx: the run queue */
  fr_proc *all_next;      /* every worker incarnation of the run */
};

typedef struct fr_child {
  int32_t name, restart, is_sup;
  int32_t slot;         /* a supervisor child: its slot */
  int32_t kind, nargs;  /* a worker child: what to start */
  const cr_value *args; /* the declaration's, or `own` */
  cr_value *own;        /* a dynamic child's copy of its spawn's arguments */
  int running;
  fr_proc *w; /* the running (or last) incarnation */
  fr_sup *s;
} fr_child;

/* A supervisor incarnation; touched only under the supervision lock. */
struct fr_sup {
  int32_t slot;
  int64_t inc;
  fr_sup *by; /* NULL: a root */
  int alive;
  int64_t restarts;
  fr_child *children;
  size_t n, cap;
  int32_t exit_reason;
  fr_buf ev;
  fr_sup *all_next;
};

typedef struct fr_name {
  _Atomic(fr_proc *) live; /* the live worker incarnation, or NULL */
  int64_t incs;            /* incarnations started so far */
  char *text;              /* a spawned name's text; NULL: a program name */
} fr_name;

#define FR_CHUNK_BITS 12
#define FR_CHUNKS (1 << 18) /* 2^30 names */

/* A thread of the run: the incarnation it runs next, woken by its own sends. */
typedef struct fr_thread {
  fr_proc *next;
  int in_a_row; /* incarnations taken from `next` since the run queue was last looked at */
} fr_thread;
#define FR_NEXT_IN_A_ROW 64

typedef struct fr_world {
  const cr_program *prog;
  int64_t turn_limit, max_processes;
  uint64_t seed;
  int threads;
  /* names: program names first, spawned names appended (chunks never move) */
  _Atomic(fr_name *) *chunks;
  atomic_int_fast32_t nnames;
  int32_t *prog_index; /* hash of program names: spawned names that are addr literals */
  size_t prog_index_size;
  atomic_int_fast64_t *spawned; /* per kind: successful spawns (§2) */
  atomic_int_fast64_t live;     /* live worker incarnations (§6.6) */
  atomic_int_fast64_t turns;
  atomic_int limit_hit;
  /* every incarnation, for the trace */
  pthread_mutex_t all_mx;
  fr_proc *all_procs;
  fr_sup *all_sups;  /* under the supervision lock */
  fr_sup **sup_live; /* per slot: the live incarnation (supervision lock) */
  int64_t *sup_incs;
  /* the supervision lock: a flag under g_mx, waited for on g_cv */
  pthread_mutex_t g_mx;
  pthread_cond_t g_cv;
  int sup_busy;
  /* the run queue */
  pthread_mutex_t q_mx;
  pthread_cond_t q_cv, done_cv;
  fr_proc **q; /* a ring of q_cap entries, q_len of them from q_first */
  size_t q_cap, q_len, q_first;
  atomic_int_fast64_t pending; /* incarnations with `scheduled` set; 0 ends the run */
  int handoff;                 /* CONCORD_FREE_HANDOFF: never keep a woken receiver (the bench) */
  int over;
  /* the given messages' outcomes: the incarnation reached, NULL when dropped */
  fr_proc **given_reached;
} fr_world;

extern fr_world fr_w;

/* --- free_world.c: memory, names, the run queue -------------------------------- */
void *fr_alloc(size_t n); /* never NULL: out of memory ends the process with a MEMORY line */
_Noreturn void fr_out_of_memory(void);
void *fr_calloc(size_t count, size_t size);
fr_name *fr_name_at(int32_t id);
int32_t fr_spawned_name(int32_t kind, int64_t num); /* the id of k-N (§2) */
const char *fr_name_text(int32_t id);
void fr_world_init(void);
void fr_world_free(void);
void fr_enqueue(fr_proc *p); /* onto the run queue, as it is */
/* p->mx held, p not scheduled: queue it; th: the thread whose turn woke it (NULL:
** none, the outside or an init), which keeps it to run next. */
void fr_schedule_locked(fr_proc *p, fr_thread *th);
void fr_pending_add(void);
void fr_own_new(fr_proc *p);        /* a new incarnation, owned by its starter until its init ends */
void fr_release_locked(fr_proc *p); /* p->mx held, its thread done with it: queue again or idle */
fr_proc *fr_pop(void);              /* NULL once the run is over */
fr_proc *fr_next(fr_thread *th);    /* th's kept incarnation, else fr_pop() */
void fr_flush_next(fr_thread *th);  /* th's kept incarnation to the run queue */
void fr_pending_done(void);         /* an incarnation stopped being scheduled */
/* 1: locked. 0: asker (a running worker, or NULL) was asked to exit meanwhile: it must, unlocked. */
int fr_sup_lock(fr_proc *asker);
void fr_sup_unlock(void);

/* --- free_procs.c: workers (SPEC §6, §25.3) ------------------------------------- */
typedef struct fr_act {
  fr_proc *p;
  fr_thread *th; /* the thread running the turn; NULL in an init */
  jmp_buf jb;
  int32_t reason;
  int killed;
} fr_act;
/* Starts a worker incarnation and runs its init on this thread (§6.7). */
fr_proc *fr_start_worker(int32_t name, int32_t kind, int32_t nargs, const cr_value *args, fr_proc *by_w, fr_sup *by_s);
void fr_run(fr_proc *p, fr_thread *th); /* a popped incarnation: some turns */
void fr_terminate_worker(fr_proc *p);   /* §7.5, under the supervision lock */
void fr_give(int32_t index);            /* the outside sends given message `index` (§8.2) */

/* --- free_supervision.c: supervisors (SPEC §7, §25.3 G3, G9) ------------------- */
fr_sup *fr_start_supervisor(int32_t slot, fr_sup *by);
void fr_child_exited(fr_sup *s, fr_proc *child); /* under the supervision lock */
void fr_terminate_supervisor(fr_sup *s);
fr_proc *fr_start_child(fr_sup *s, fr_proc *from, int64_t n, int32_t kind, int32_t nargs, const cr_value *args,
                        int32_t restart, int32_t name);

/* --- free_trace.c: events and the trace (SPEC §25.6) ------------------------------ */
void ev_deliver_locked(fr_proc *p, const fr_msg *m);                     /* p->mx held */
void ev_send(fr_proc *p, int64_t n, int32_t to, const fr_proc *reached); /* reached NULL: drop */
void ev_spawn(fr_proc *p, int64_t n, int32_t name);
void ev_spawn_refused(fr_proc *p, int64_t n, int32_t code);
void ev_sup_exit(fr_sup *s, const fr_proc *w, const fr_sup *child_sup, int32_t reason);
void ev_sup_start_child(fr_sup *s, const fr_proc *from, int64_t n, int32_t name);
void ev_sup_decision(fr_sup *s, int32_t child, const char *action);
void fr_write_trace(void);

#endif
