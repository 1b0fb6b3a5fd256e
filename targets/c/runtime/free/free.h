/* targets/c/runtime/free/free.h: the c target's second mode, free runs (SPEC §25)
** on N threads, one section per file. The emitted program is the same C file as
** for conducted runs (concord_rt.h is the whole interface); only the runtime it is
** linked against differs: this one (libconcord_rt_free.a) runs programs of either
** version with no seeded schedule and answers a trace (§25.6) per run.
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
** - Version 2's signals (§16.3) take effect when they arrive: the sender applies
**   one under the receiver's mailbox lock, by the receiver's trap flag then, so a
**   trapped one is a message in its place among the sender's messages (G4), and
**   one that ends the receiver asks it to exit as a termination does (free_signals.c).
**   A caller waits (§18.1) unscheduled, its continuation kept, until a reply or an
**   exit comes; a worker's exit sends its link, down and call signals itself.
** - The run ends when no incarnation is queued or running (`pending` is 0; a
**   thread may hold units of it between two incarnations, fr_thread.held).
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
void buf_free(fr_buf *b);           /* its memory given back: empty again */
/* Where n more bytes go: the caller writes them and adds what it wrote to len. */
static inline char *buf_room(fr_buf *b, size_t n) {
  if (b->cap - b->len < n) buf_grow(b, n);
  return b->p + b->len;
}
static inline void buf_put(fr_buf *b, const char *s, size_t n) {
  memcpy(buf_room(b, n), s, n);
  b->len += n;
}
void buf_str(fr_buf *b, const char *s);
void buf_i64_digits(fr_buf *b, int64_t v);
static inline void buf_i64(fr_buf *b, int64_t v) { /* most are incarnations: 1 */
  if ((uint64_t)v < 10) {
    *buf_room(b, 1) = (char)('0' + v);
    b->len++;
  } else {
    buf_i64_digits(b, v);
  }
}
#define BUF_LIT(b, lit) buf_put((b), (lit), sizeof(lit) - 1)

/* --- free_world.c: a mailbox lock ------------------------------------------------ */
/* An incarnation's mx is taken a few times a turn, for a few instructions each time,
** and never waited on with a condition: a test-and-set lock, whose release is a
** plain store, costs half the atomic operations of a pthread mutex and no call (a
** light turn took 30% of its time in pthread_mutex_lock and _unlock). A taker that
** finds it held spins a little, then yields: with more threads than cores (the
** default) its holder may have been preempted. */
typedef atomic_int fr_lock;
static inline int fr_trylock(fr_lock *l) { return !atomic_exchange_explicit(l, 1, memory_order_acquire); }
void fr_lock_wait(fr_lock *l); /* until this thread holds it */
static inline void fr_lock_take(fr_lock *l) {
  if (!fr_trylock(l)) fr_lock_wait(l);
}
static inline void fr_unlock(fr_lock *l) { atomic_store_explicit(l, 0, memory_order_release); }

/* --- the world ---------------------------------------------------------------- */
typedef struct fr_proc fr_proc;
typedef struct fr_sup fr_sup;

/* What a mailbox entry is (§25.6's deliver): a message, a call message (§18.1), or
** a system message (§16.4) from a link signal, an exit signal, a monitor, or the
** receiver's own link or monitor that found no live process. */
enum { FR_M_PLAIN, FR_M_CALL, FR_M_LINK, FR_M_EXIT, FR_M_DOWN, FR_M_NOPROC };

typedef struct fr_msg {
  struct fr_msg *next;
  fr_proc *from; /* the sender, or the incarnation that exited; NULL: the outside, or noproc */
  int64_t n;     /* the sender's effect number; a given message: its index from 1; down: the monitor's */
  int32_t sig;
  int16_t nargs, kind;
  cr_value args[];
} fr_msg;

/* A monitor held on an incarnation (§16.1), kept by its target: the holder and the
** effect number of its `monitor` (the down message names it); a call's (§18.1). */
typedef struct fr_watch {
  fr_proc *holder;
  int64_t number;
  int call;
} fr_watch;

#define FR_MAX_ARGS 16  /* SPEC §11 */
#define FR_MAX_LOOPS 64 /* SPEC §4.13: the counters of a resumable handler's repeats */

/* A caller waiting in a call (§18.1): its handler's continuation, then the reply. */
typedef struct fr_wait {
  fr_proc *callee;
  int32_t bind, point, sig;
  int32_t self_exit; /* the activation's own */
  fr_proc *serving;  /* the caller this handler answers, if it still has to */
  int replied;       /* the caller's mx */
  int32_t vtype;
  cr_value value;
  const fr_proc *reply_from;
  int64_t reply_n;
  cr_value args[FR_MAX_ARGS];
  cr_value loops[FR_MAX_LOOPS];
} fr_wait;

/* p->kill: who asked p to exit, set once. */
enum { FR_KILL_NONE = 0, FR_KILL_TERMINATE = 1, FR_KILL_SIGNAL = 2 };

/* A worker incarnation (§25.2). */
struct fr_proc {
  int32_t name, kind;
  int64_t inc;
  int32_t nargs;
  cr_value *params, *state;
  fr_proc *by_w; /* who started it: a worker (a spawn without under) ... */
  fr_sup *by_s;  /* ... or a supervisor; both NULL: the outside */
  fr_sup *sup;   /* the supervisor incarnation it is a child of, or NULL */
  fr_lock mx;
  fr_msg *head, *tail;    /* mx */
  int scheduled, running; /* mx: queued or owned by a thread; being run */
  int dead;               /* mx and g_mx: it has exited */
  int consumed;           /* g_mx: a termination consumed its exit (§25.3 G3) */
  atomic_int kill;        /* FR_KILL_*: a termination (§7.5) or a signal (§16.3) asks it to exit */
  int32_t kill_reason;    /* mx, set before `kill`: the reason it is asked to exit with */
  int32_t exit_reason;    /* once dead */
  int failed_start;       /* its start failed or was ignored: an exit no supervisor handles (§19.1) */
  /* version 2, under mx: what a worker has (§16.1), and whether it is blocked (§16.6) */
  int trap;
  int blocked; /* in a spawn or an API statement, for the supervision lock */
  fr_proc **links;
  uint32_t nlinks;
  size_t links_cap;
  fr_watch *watched; /* monitors held on it, in creation order */
  uint32_t nwatched;
  size_t watched_cap;
  fr_wait *wait;     /* waiting in a call */
  int64_t effects;   /* its thread only: effects made so far (§25.2) */
  fr_buf ev;         /* its events as records (free_trace.c): by the thread that holds it */
  int64_t ev_n[2];   /* the last record's n, of a delivery or a resumption [0] and of an effect [1] */
  fr_proc *qnext;    /* q_mx: the run queue */
  fr_proc *all_next; /* every worker incarnation of the run */
  int64_t serial;    /* its place in all_procs, from 0: how records name it (free_trace.c) */
};

typedef struct fr_child {
  int32_t name, restart, is_sup;
  int32_t significant, restarting; /* version 2: §21; a failed restart whose retry is pending (§19.3) */
  int32_t slot;                    /* a supervisor child: its slot */
  int32_t kind, nargs;             /* a worker child: what to start */
  const cr_value *args;            /* the declaration's, or `own` */
  cr_value *own;                   /* a dynamic child's copy of its spawn's arguments */
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
  int32_t *retries; /* version 2: children whose failed restart it will retry (§19.3), in order */
  size_t nretries, retries_cap;
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
  /* Units of `pending` this thread counts for no incarnation: one an incarnation it
  ** released left, for the next it schedules to take, instead of an atomic
  ** decrement and increment a light turn. Given back before it waits for work
  ** (fr_next), so `pending` is 0 only when nothing is scheduled and none is held. */
  int64_t held;
  /* Messages of at most FR_MSG_SMALL arguments this thread freed, for the next it
  ** makes: a light turn's message costs no malloc and free. */
  fr_msg *spare;
  int nspare;
} fr_thread;
#define FR_MSG_SMALL 3
#define FR_MSG_SPARES 256
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
  int64_t nprocs;    /* all_mx: in all_procs */
  fr_sup *all_sups;  /* under the supervision lock */
  fr_sup **sup_live; /* per slot: the live incarnation (supervision lock) */
  int64_t *sup_incs;
  /* the supervision lock: a flag under g_mx, waited for on g_cv */
  pthread_mutex_t g_mx;
  pthread_cond_t g_cv;
  int sup_busy;
  fr_proc *sup_holder; /* the worker whose statement the supervision lock serves (an API on itself) */
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
/* An array p of n items of `size` bytes, *cap of them allocated: room for one more
** (doubling, from 4). */
void *fr_room(void *p, size_t n, size_t *cap, size_t size);
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
void fr_own_new(fr_proc *p); /* a new incarnation, owned by its starter until its init ends */
/* p->mx held, its thread (th: NULL, the outside or an init) done with it: queue again or idle. */
void fr_release_locked(fr_proc *p, fr_thread *th);
fr_proc *fr_pop(void);             /* NULL once the run is over */
fr_proc *fr_next(fr_thread *th);   /* th's kept incarnation, else fr_pop() */
void fr_flush_next(fr_thread *th); /* th's kept incarnation to the run queue */
void fr_pending_done(void);        /* an incarnation stopped being scheduled */
/* 1: locked. 0: asker (a running worker, or NULL) was asked to exit meanwhile: it must, unlocked. */
int fr_sup_lock(fr_proc *asker);
void fr_sup_unlock(void);

/* --- free_procs.c: workers (SPEC §6, §25.3) ------------------------------------- */
typedef struct fr_act {
  fr_proc *p;
  fr_thread *th; /* the thread running the turn; NULL in an init */
  jmp_buf jb;
  int32_t reason;
  int killed; /* a termination ended it: its exit is consumed */
  int gone;   /* it has exited already (an API request terminated it) */
  int ignore; /* init ran `ignore` (§19.1) */
  int in_init;
  int32_t sig;       /* the handler's signature */
  fr_proc *serving;  /* the waiting caller a `reply` answers (§18.1) */
  int32_t self_exit; /* §16.3 exit(self, R), trapping and unsupervised: R; FR_NO_REASON */
  cr_value loops[FR_MAX_LOOPS];
} fr_act;
#define FR_NO_REASON INT32_MIN
enum { FR_STARTED_OK = 0, FR_STARTED_FAILED = 1, FR_STARTED_IGNORED = 2 }; /* how a start ended (§19.1) */
/* Starts a worker incarnation and runs its init on this thread (§6.7, §19.1);
** *how says how the start ended. */
fr_proc *fr_start_worker(int32_t name, int32_t kind, int32_t nargs, const cr_value *args, fr_proc *by_w, fr_sup *by_s,
                         int *how);
_Noreturn void fr_end_turn(fr_act *a, int32_t reason, int killed);
fr_act *fr_effect_start(cr_ctx *c);        /* an effect begins: an exit asked for takes effect here ([F2]) */
_Noreturn void fr_end_as_asked(fr_act *a); /* the exit it was asked for, now */
void fr_gone_if_dead(fr_act *a);           /* ends the code of a worker its own request ended */
void fr_set_blocked(fr_proc *p, int on);   /* §16.6 */
/* A message; th: the thread making it (NULL: the outside, an init), whose spares it may take. */
fr_msg *fr_message(fr_thread *th, fr_proc *from, int64_t n, int32_t sig, int32_t nargs, const cr_value *args);
void fr_message_free(fr_thread *th, fr_msg *m); /* kept among th's spares, or freed */
void fr_spares_free(fr_thread *th);             /* th ends: its spares freed */
/* Puts m in q's mailbox, or discards it if q has exited; th: the sending thread. */
void fr_push(fr_proc *q, fr_msg *m, fr_thread *th);
void fr_push_locked(fr_proc *q, fr_msg *m, fr_thread *th); /* q->mx held, q alive */
void fr_run(fr_proc *p, fr_thread *th);                    /* a popped incarnation: some turns */
void fr_terminate_worker(fr_proc *p);                      /* §7.5, under the supervision lock */
int fr_has_work(const fr_proc *p); /* p->mx held: queue it (a message, a reply, an exit asked) */
void fr_give(int32_t index);       /* the outside sends given message `index` (§8.2) */

/* --- free_supervision.c: supervisors (SPEC §7, §25.3 G3, G9) ------------------- */
void fr_child_exited(fr_sup *s, fr_proc *child); /* under the supervision lock */
void fr_terminate_supervisor(fr_sup *s);
fr_proc *fr_start_child(fr_sup *s, fr_proc *from, int64_t n, int32_t kind, int32_t nargs, const cr_value *args,
                        int32_t restart, int32_t significant, int32_t name, int *how);
int fr_start_root_supervisor(int32_t slot);                                     /* how its start ended */
int fr_api_request(fr_sup *s, fr_proc *from, int64_t n, int op, int32_t child); /* §20's result number */
void fr_sup_drain_retries(void); /* §19.3: the retries the inputs just handled left */

/* --- free_signals.c: links, monitors and signals (SPEC §16, §17.1, §25.5) --------- */
enum { FR_SIG_LINK, FR_SIG_EXIT, FR_SIG_DOWN, FR_SIG_CALL };
#define FR_KILL_REASON (INT32_MIN + 1) /* exit(e, kill): not a reason, in a signal only */
/* A signal from `from` (effect n; down: the monitor's number) arrives at q and takes
** effect by q's trap flag now; discarded if q has exited. */
void fr_signal(fr_proc *q, int kind, fr_proc *from, int64_t n, int32_t reason, fr_thread *th);
void fr_signal_locked(fr_proc *q, int kind, fr_proc *from, int64_t n, int32_t reason, fr_thread *th);
/* p->mx held: p is asked to exit with reason (the first asked wins). */
void fr_ask_exit_locked(fr_proc *p, int who, int32_t reason, fr_thread *th);
/* Links and monitors p had, taken from it as it died (under its mx)... */
typedef struct fr_bonds {
  fr_proc **links;
  uint32_t nlinks;
  fr_watch *watched;
  uint32_t nwatched;
} fr_bonds;
fr_bonds fr_take_bonds_locked(fr_proc *p);
/* ... then the signals its exit sends them, with no lock held (§17.1 steps 2-3). */
void fr_exit_signals(fr_proc *p, fr_bonds b);
int fr_link(fr_proc *p, fr_proc *q); /* 0: q had exited */
void fr_unlink(fr_proc *p, fr_proc *q);
int fr_monitor(fr_proc *p, fr_proc *q, int64_t number, int call); /* 0: q had exited */
void fr_demonitor(fr_proc *p, fr_proc *q, int call);
int32_t fr_code_of(int32_t reason); /* §15 code(R) */

/* --- free_trace.c: events and the trace (SPEC §25.6) ------------------------------ */
void ev_send(fr_proc *p, int64_t n, int32_t to, const fr_proc *reached); /* reached NULL: drop */
void ev_spawn(fr_proc *p, int64_t n, int32_t name, int how);
void ev_deliver_locked(fr_proc *p, const fr_msg *m); /* a turn on a mailbox entry, p->mx held */
void ev_resume_locked(fr_proc *p, const fr_wait *wt);
enum { EV_LINK, EV_UNLINK, EV_MONITOR, EV_DEMONITOR, EV_EXIT_SIGNAL, EV_CALL };
void ev_on_name(fr_proc *p, int what, int64_t n, int32_t to, const fr_proc *found); /* found NULL: none live */
void ev_reply(fr_proc *p, int64_t n);
void ev_api(fr_proc *p, int64_t n, int op, const fr_sup *s, int result); /* s NULL: none live */
void ev_sup_retry(fr_sup *s, int32_t child);
void ev_sup_api(fr_sup *s, const fr_proc *from, int64_t n);
void ev_spawn_refused(fr_proc *p, int64_t n, int32_t code);
void ev_sup_exit(fr_sup *s, const fr_proc *w, const fr_sup *child_sup, int32_t reason);
void ev_sup_start_child(fr_sup *s, const fr_proc *from, int64_t n, int32_t name);
void ev_sup_decision(fr_sup *s, int32_t child, const char *action);
void fr_write_trace(void);

#endif
