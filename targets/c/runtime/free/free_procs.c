/* targets/c/runtime/free/free_procs.c: worker incarnations in a free run: their
** start (§6.7), turns (§25.2, G1, G2), effects (§6.4-§6.6, numbered as §25.2 says),
** and exits, their own or a supervisor's termination (§7.5, [F2]). */
#include <stdlib.h>
#include <string.h>

#include "free.h"

/* --- start --------------------------------------------------------------------- */

static void add_to_all(fr_proc *p) {
  pthread_mutex_lock(&fr_w.all_mx);
  p->all_next = fr_w.all_procs;
  fr_w.all_procs = p;
  pthread_mutex_unlock(&fr_w.all_mx);
}

fr_proc *fr_start_worker(int32_t name, int32_t kind, int32_t nargs, const cr_value *args, fr_proc *by_w, fr_sup *by_s) {
  const cr_kind *k = &fr_w.prog->kinds[kind];
  fr_proc *p = fr_calloc(1, sizeof *p);
  fr_name *nm = fr_name_at(name);
  p->name = name;
  p->kind = kind;
  p->inc = ++nm->incs; /* the starts of one name are one after the other (G6) */
  p->nargs = nargs;
  p->params = fr_alloc(sizeof(cr_value) * (size_t)(nargs ? nargs : 1));
  if (nargs) memcpy(p->params, args, sizeof(cr_value) * (size_t)nargs);
  p->state = fr_calloc((size_t)(k->nstate ? k->nstate : 1), sizeof(cr_value));
  p->by_w = by_w;
  p->by_s = by_s;
  p->sup = by_s;
  pthread_mutex_init(&p->mx, NULL);
  atomic_init(&p->kill, 0);
  add_to_all(p);
  fr_own_new(p);
  atomic_fetch_add(&fr_w.live, 1);
  cr_ctx c = {p->params, p->state, NULL, name, NULL, 0, NULL};
  fr_act act = {.p = p};
  c.rt = &act;
  if (k->init_state) k->init_state(&c);
  atomic_store_explicit(&nm->live, p, memory_order_release); /* registered before init: OTP's start_link */
  if (k->init) k->init(&c);                                  /* sends only, cannot fail (§4.9) */
  pthread_mutex_lock(&p->mx);
  fr_release_locked(p); /* what was sent to it meanwhile, it now handles */
  pthread_mutex_unlock(&p->mx);
  return p;
}

/* --- exits ----------------------------------------------------------------------- */

/* Marks p dead: the name freed first, so that nothing that follows from the exit
** finds it live (G6); its mailbox discarded (§6.4). g_mx and p->mx held. */
static void mark_dead(fr_proc *p, int32_t reason) {
  fr_proc *expected = p;
  atomic_compare_exchange_strong(&fr_name_at(p->name)->live, &expected, NULL);
  p->dead = 1;
  p->exit_reason = reason;
  fr_msg *m = p->head;
  p->head = p->tail = NULL;
  while (m) {
    fr_msg *next = m->next;
    free(m);
    m = next;
  }
  atomic_fetch_sub(&fr_w.live, 1);
}

/* The exit of p by its own thread: its own (stop, a failure) or the termination it
** was asked for. An exit of its own is then handled by its supervisor, unless a
** termination consumed it meanwhile (G3). */
static void exit_by_itself(fr_proc *p, int32_t reason, int killed) {
  pthread_mutex_lock(&fr_w.g_mx);
  pthread_mutex_lock(&p->mx);
  mark_dead(p, killed ? CR_R_SHUTDOWN : reason);
  if (killed) p->consumed = 1;
  pthread_mutex_unlock(&p->mx);
  pthread_cond_broadcast(&fr_w.g_cv);
  pthread_mutex_unlock(&fr_w.g_mx);
  if (killed || !p->sup) return;
  fr_sup_lock(NULL);
  pthread_mutex_lock(&fr_w.g_mx);
  int consumed = p->consumed;
  pthread_mutex_unlock(&fr_w.g_mx);
  if (!consumed) fr_child_exited(p->sup, p);
  fr_sup_unlock();
}

void fr_terminate_worker(fr_proc *p) {
  pthread_mutex_lock(&fr_w.g_mx);
  pthread_mutex_lock(&p->mx);
  if (!p->dead && !p->running) mark_dead(p, CR_R_SHUTDOWN); /* idle: it ends here and now */
  if (!p->dead) {
    atomic_store(&p->kill, 1); /* running: it exits at its next effect, or its turn's end */
    pthread_mutex_unlock(&p->mx);
    pthread_cond_broadcast(&fr_w.g_cv); /* it may be waiting for the supervision lock */
    while (!p->dead) pthread_cond_wait(&fr_w.g_cv, &fr_w.g_mx);
  } else {
    pthread_mutex_unlock(&p->mx);
  }
  p->consumed = 1; /* its exit, shutdown or its own before this reached it (G3) */
  pthread_mutex_unlock(&fr_w.g_mx);
}

/* --- effects ------------------------------------------------------------------------ */

static _Noreturn void end_turn(fr_act *a, int32_t reason, int killed) {
  a->reason = reason;
  a->killed = killed;
  longjmp(a->jb, 1);
}

/* A termination asked for takes effect here, between two effects ([F2]). A turn
** that goes on after waking a receiver is no short one: the receiver goes to the run
** queue, for another thread, rather than wait for this turn's end. */
static fr_act *effect_start(cr_ctx *c) {
  fr_act *a = c->rt;
  if (a->th && a->th->next) fr_flush_next(a->th);
  if (atomic_load_explicit(&a->p->kill, memory_order_relaxed)) end_turn(a, CR_R_SHUTDOWN, 1);
  return a;
}

/* Puts m in q's mailbox; 0 when q has exited meanwhile (m is discarded with it). */
static void push(fr_proc *q, fr_msg *m, fr_thread *th) {
  (void)th;                                          /* unused by the planted fault free_run_twice */
#ifdef CONCORD_FAULT_FREE_PUSH_LOST_UNDER_CONTENTION /* planted fault: a push that finds the mailbox busy gives up */
  if (pthread_mutex_trylock(&q->mx) != 0) {
    free(m);
    return;
  }
#else
  pthread_mutex_lock(&q->mx);
#endif
  if (q->dead) {
    pthread_mutex_unlock(&q->mx);
    free(m);
    return;
  }
  m->next = NULL;
  if (q->tail)
    q->tail->next = m;
  else
    q->head = m;
  q->tail = m;
#ifdef CONCORD_FAULT_FREE_RUN_TWICE /* planted fault: queued whenever no thread is in one of its turns */
  if (!q->running) {
    q->scheduled = 1;
    fr_pending_add(); /* one per time it is queued: each thread that takes it releases it once */
    fr_enqueue(q);
  }
#else
  if (!q->scheduled) fr_schedule_locked(q, th);
#endif
  pthread_mutex_unlock(&q->mx);
}

static fr_msg *message(fr_proc *from, int64_t n, int32_t sig, int32_t nargs, const cr_value *args) {
  fr_msg *m = fr_alloc(sizeof *m + sizeof(cr_value) * (size_t)nargs);
  m->from = from;
  m->n = n;
  m->sig = sig;
  m->nargs = nargs;
  if (nargs) memcpy(m->args, args, sizeof(cr_value) * (size_t)nargs);
  return m;
}

/* §6.5: to the incarnation live now, or dropped. */
void cr_send(cr_ctx *c, cr_value to, int32_t sig, int32_t nargs, const cr_value *args) {
  fr_act *a = effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  fr_proc *q = atomic_load_explicit(&fr_name_at((int32_t)to)->live, memory_order_acquire);
  if (q) push(q, message(p, n, sig, nargs, args), a->th);
  ev_send(p, n, (int32_t)to, q);
}

void fr_give(int32_t index) {
  const cr_given *g = &fr_w.prog->given[index];
  fr_proc *q = atomic_load_explicit(&fr_name_at(g->to)->live, memory_order_acquire);
  fr_w.given_reached[index] = q;
  if (q) push(q, message(NULL, index + 1, g->sig, g->nargs, g->args), NULL);
}

/* §6.6: the limit, the supervisor, then a name and a start (the init on this thread). */
cr_value cr_spawn(cr_ctx *c, int32_t kind, int32_t nargs, const cr_value *args, int32_t sup, int32_t restart) {
  fr_act *a = effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  if (atomic_load(&fr_w.live) >= fr_w.max_processes) {
    ev_spawn_refused(p, n, CR_R_SYSTEM_LIMIT);
    end_turn(a, CR_R_SYSTEM_LIMIT, 0);
  }
  if (sup < 0) {
    int32_t name = fr_spawned_name(kind, atomic_fetch_add(&fr_w.spawned[kind], 1) + 1);
    fr_start_worker(name, kind, nargs, args, p, NULL);
    ev_spawn(p, n, name);
    return name;
  }
  if (!fr_sup_lock(p)) end_turn(a, CR_R_SHUTDOWN, 1); /* terminated while it waited: cut short */
  fr_sup *s = fr_w.sup_live[sup];
  if (!s) {
    fr_sup_unlock();
    ev_spawn_refused(p, n, CR_R_NOPROC_CODE);
    end_turn(a, CR_R_NOPROC_CODE, 0);
  }
  int32_t name = fr_spawned_name(kind, atomic_fetch_add(&fr_w.spawned[kind], 1) + 1);
  fr_start_child(s, p, n, kind, nargs, args, restart, name);
  fr_sup_unlock();
  ev_spawn(p, n, name);
  return name;
}

_Noreturn void cr_stop(cr_ctx *c) { end_turn(c->rt, CR_R_NORMAL, 0); }
_Noreturn void cr_fail(cr_ctx *c, int32_t code) { end_turn(c->rt, code, 0); }
_Noreturn void cr_div_zero(cr_ctx *c) { end_turn(c->rt, CR_R_DIV_ZERO, 0); }

/* --- turns ------------------------------------------------------------------------------ */

/* One of the run's L turns (G10), or 0 when all are taken. */
static int take_turn(void) {
  int_fast64_t t = atomic_load(&fr_w.turns);
  do {
    if (t >= fr_w.turn_limit) return 0;
  } while (!atomic_compare_exchange_weak(&fr_w.turns, &t, t + 1));
  return 1;
}

/* Turns in a row before the thread takes another incarnation: fewer trips through
** the run queue, as a BEAM scheduler's reductions. */
#define BATCH 32

/* File scope: a turn's locals may not survive its longjmp; these are per call. */
static void turn(fr_proc *p, fr_msg *m, fr_thread *th) {
  fr_act act;
  act.p = p;
  act.th = th;
  const cr_kind *k = &fr_w.prog->kinds[p->kind];
  cr_body h = k->handler_of_sig[m->sig];
  cr_ctx c = {p->params, p->state, m->args, p->name, &act, 0, NULL};
  if (setjmp(act.jb)) {
    free(m);
    exit_by_itself(p, act.reason, act.killed);
    return;
  }
  if (!h) end_turn(&act, CR_R_NO_HANDLER, 0);
  h(&c);
  free(m);
  if (atomic_load(&p->kill)) exit_by_itself(p, CR_R_SHUTDOWN, 1); /* the turn's end ([F2]) */
}

void fr_run(fr_proc *p, fr_thread *th) {
  for (int i = 0;; i++) {
    pthread_mutex_lock(&p->mx);
    if (!p->dead && atomic_load(&p->kill)) { /* terminated between two turns */
      pthread_mutex_unlock(&p->mx);
      exit_by_itself(p, CR_R_SHUTDOWN, 1);
      continue;
    }
    if (p->dead || !p->head || i == BATCH) break;
    if (i > 0 && th->next) fr_flush_next(th); /* p goes on: what it woke must not wait for it */
    if (!take_turn()) {
      atomic_store(&fr_w.limit_hit, 1);
      break;
    }
    fr_msg *m = p->head;
    p->head = m->next;
    if (!p->head) p->tail = NULL;
    p->running = 1;
    ev_deliver_locked(p, m);          /* the turn begins: recorded with its message taken, under one lock */
#ifdef CONCORD_FAULT_FREE_LOST_WAKEUP /* planted fault: its last message taken, it goes idle after the turn unlooked \
                                       */
    int last = p->head == NULL;
    pthread_mutex_unlock(&p->mx);
    turn(p, m, th);
    if (last) {
      pthread_mutex_lock(&p->mx);
      p->running = 0;
      p->scheduled = 0;
      pthread_mutex_unlock(&p->mx);
      fr_pending_done();
      return;
    }
    continue;
#endif
    pthread_mutex_unlock(&p->mx);
    turn(p, m, th);
  }
  fr_release_locked(p); /* p->mx held */
  pthread_mutex_unlock(&p->mx);
}
