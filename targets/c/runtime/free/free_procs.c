/* targets/c/runtime/free/free_procs.c: worker incarnations in a free run: their
** start (§6.7, §19.1), turns (§25.2, G1, G2) and resumptions after a call (§18.1),
** the effects of version 1 (§6.4-§6.6, numbered as §25.2 says), and exits: their
** own, a signal's (§16.3) or a supervisor's termination (§7.5, §16.6, [F2]).
** Version 2's other statements are in free_effects.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "free.h"

/* --- start --------------------------------------------------------------------- */

static void add_to_all(fr_proc *p) {
  pthread_mutex_lock(&fr_w.all_mx);
  p->all_next = fr_w.all_procs;
  p->serial = fr_w.nprocs++;
  fr_w.all_procs = p;
  pthread_mutex_unlock(&fr_w.all_mx);
}

static void act_init(fr_act *a, fr_proc *p, fr_thread *th, int32_t sig) {
  a->p = p;
  a->th = th;
  a->reason = CR_R_NORMAL;
  a->killed = a->gone = a->ignore = a->in_init = 0;
  a->sig = sig;
  a->serving = NULL;
  a->self_exit = FR_NO_REASON;
}

/* Version 2: state initialisers and init may end the start (§19.1); 1 if they did. */
static int run_start(fr_act *a, const cr_kind *k, cr_ctx *c) {
  if (setjmp(a->jb)) return 1;
  if (k->init_state) k->init_state(c);
  if (k->init) k->init(c);
  return 0;
}

static void die(fr_proc *p, int32_t reason, int by_termination);

fr_proc *fr_start_worker(int32_t name, int32_t kind, int32_t nargs, const cr_value *args, fr_proc *by_w, fr_sup *by_s,
                         int *how) {
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
  atomic_init(&p->mx, 0);
  atomic_init(&p->kill, FR_KILL_NONE);
  add_to_all(p);
  fr_own_new(p);
  atomic_fetch_add(&fr_w.live, 1);
  fr_act act;
  act_init(&act, p, NULL, -1);
  act.in_init = 1; /* an exit asked meanwhile waits for the init's end */
  cr_ctx c = {p->params, p->state, NULL, name, &act, 0, act.loops};
  *how = FR_STARTED_OK;
  if (fr_w.prog->version == 1) {
    if (k->init_state) k->init_state(&c);
    atomic_store_explicit(&nm->live, p, memory_order_release); /* registered before init: OTP's start_link */
    if (k->init) k->init(&c);                                  /* sends only, cannot fail (§4.9) */
  } else {
    atomic_store_explicit(&nm->live, p, memory_order_release);
    if (run_start(&act, k, &c)) { /* failed, or ignored: it exits, and no supervisor handles that (§19.1) */
      *how = act.ignore ? FR_STARTED_IGNORED : FR_STARTED_FAILED;
      p->failed_start = 1;
      die(p, act.ignore ? CR_R_NORMAL : act.reason, 0);
    }
  }
  fr_lock_take(&p->mx);
  fr_release_locked(p, NULL); /* what was sent to it meanwhile, it now handles */
  fr_unlock(&p->mx);
  return p;
}

/* --- exits ----------------------------------------------------------------------- */

/* Marks p dead: the name freed first, so that nothing that follows from the exit
** finds it live (G6); its mailbox and pending call discarded (§6.4, §17.1); its
** links and watchers taken for the signals of its exit. g_mx and p->mx held. */
static fr_bonds mark_dead(fr_proc *p, int32_t reason) {
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
  free(p->wait);
  p->wait = NULL;
  atomic_fetch_sub(&fr_w.live, 1);
  return fr_take_bonds_locked(p);
}

/* p exits, then its exit's signals go out (§17.1). A termination consumes the exit
** (G3): its supervisor does not handle it. */
static void die(fr_proc *p, int32_t reason, int by_termination) {
  pthread_mutex_lock(&fr_w.g_mx);
  fr_lock_take(&p->mx);
  if (p->dead) { /* one exit per incarnation: a second would count it out of the live workers twice (G10) */
    fprintf(stderr, "concord free runtime: %s#%lld exits twice\n", fr_name_text(p->name), (long long)p->inc);
    abort();
  }
  fr_bonds b = mark_dead(p, reason);
  if (by_termination) p->consumed = 1;
  fr_unlock(&p->mx);
  pthread_cond_broadcast(&fr_w.g_cv); /* a termination may wait for it */
  pthread_mutex_unlock(&fr_w.g_mx);
  fr_exit_signals(p, b);
}

/* The exit of p by its own thread: its own (stop, a failure, a signal) or the
** termination it was asked for. An exit of its own is then handled by its
** supervisor, unless a termination consumed it meanwhile (G3). */
static void exit_by_itself(fr_proc *p, int32_t reason, int killed) {
  die(p, reason, killed);
  if (killed || !p->sup) return;
  fr_sup_lock(NULL);
  pthread_mutex_lock(&fr_w.g_mx);
  int consumed = p->consumed;
  pthread_mutex_unlock(&fr_w.g_mx);
  if (!consumed) fr_child_exited(p->sup, p);
  fr_sup_unlock();
}

/* The exit p was asked for, by its own thread: between turns, ... */
static void exit_as_asked(fr_proc *p) {
  int who = atomic_load_explicit(&p->kill, memory_order_acquire);
  exit_by_itself(p, p->kill_reason, who == FR_KILL_TERMINATE);
}

void fr_terminate_worker(fr_proc *p) {
  pthread_mutex_lock(&fr_w.g_mx);
  fr_lock_take(&p->mx);
  if (!p->dead) {
    /* A blocked worker that traps exits cannot take its parent's exit: killed (§16.6 [R50]). */
    int32_t reason = p->trap && (p->blocked || p->wait) ? CR_R_KILLED : CR_R_SHUTDOWN;
    if (!p->running || p == fr_w.sup_holder) { /* idle, waiting, or asking this very supervisor: it ends here */
      fr_bonds b = mark_dead(p, reason);
      p->consumed = 1;
      fr_unlock(&p->mx);
      pthread_mutex_unlock(&fr_w.g_mx);
      fr_exit_signals(p, b);
      return;
    }
    if (atomic_load(&p->kill) == FR_KILL_NONE) { /* running: it exits at its next effect, or its turn's end */
      p->kill_reason = reason;
      atomic_store_explicit(&p->kill, FR_KILL_TERMINATE, memory_order_release);
    }
    fr_unlock(&p->mx);
    pthread_cond_broadcast(&fr_w.g_cv); /* it may be waiting for the supervision lock */
    while (!p->dead) pthread_cond_wait(&fr_w.g_cv, &fr_w.g_mx);
  } else {
    fr_unlock(&p->mx);
  }
  p->consumed = 1; /* its exit, shutdown or its own before this reached it (G3) */
  pthread_mutex_unlock(&fr_w.g_mx);
}

/* --- effects ------------------------------------------------------------------------ */

_Noreturn void fr_end_turn(fr_act *a, int32_t reason, int killed) {
  a->reason = reason;
  a->killed = killed;
  longjmp(a->jb, 1);
}

/* A termination or a signal asked for takes effect here, between two effects
** ([F2]); never inside an init, which ends first. A turn that goes on after waking a
** receiver is no short one: the receiver goes to the run queue, for another thread,
** rather than wait for this turn's end. */
fr_act *fr_effect_start(cr_ctx *c) {
  fr_act *a = c->rt;
  if (a->th && a->th->next) fr_flush_next(a->th);
  if (!a->in_init && atomic_load_explicit(&a->p->kill, memory_order_relaxed) != FR_KILL_NONE) fr_end_as_asked(a);
  return a;
}

/* ... or inside one. */
_Noreturn void fr_end_as_asked(fr_act *a) {
  int who = atomic_load_explicit(&a->p->kill, memory_order_acquire);
  fr_end_turn(a, a->p->kill_reason, who == FR_KILL_TERMINATE);
}

/* After a request to a supervisor: it may have ended the asker itself (§16.6 [R50/self_*]). */
void fr_gone_if_dead(fr_act *a) {
  if (!a->p->dead) return;
  a->gone = 1;
  longjmp(a->jb, 1);
}

int fr_has_work(const fr_proc *p) {
  if (p->dead) return 0;
  if (atomic_load_explicit(&p->kill, memory_order_relaxed) != FR_KILL_NONE) return 1;
  if (atomic_load(&fr_w.limit_hit)) return 0;
  return p->wait ? p->wait->replied : p->head != NULL; /* a waiting caller takes no message (§18.3) */
}

void fr_push_locked(fr_proc *q, fr_msg *m, fr_thread *th) {
  m->next = NULL;
  if (q->tail)
    q->tail->next = m;
  else
    q->head = m;
  q->tail = m;
#ifdef CONCORD_FAULT_FREE_RUN_TWICE /* planted fault: queued whenever no thread is in one of its turns */
  (void)th;
  if (!q->running) {
    q->scheduled = 1;
    fr_pending_add(); /* one per time it is queued: each thread that takes it releases it once */
    fr_enqueue(q);
  }
#else
  if (!q->scheduled && !(q->wait && !q->wait->replied)) fr_schedule_locked(q, th);
#endif
}

void fr_push(fr_proc *q, fr_msg *m, fr_thread *th) {
#ifdef CONCORD_FAULT_FREE_PUSH_LOST_UNDER_CONTENTION /* planted fault: a push that finds the mailbox busy gives up */
  if (!fr_trylock(&q->mx)) {
    fr_message_free(th, m);
    return;
  }
#else
  fr_lock_take(&q->mx);
#endif
  if (q->dead)
    fr_message_free(th, m); /* it has exited meanwhile: discarded with its mailbox */
  else
    fr_push_locked(q, m, th);
  fr_unlock(&q->mx);
}

/* A small message has room for FR_MSG_SMALL arguments whatever it carries, so that
** any spare fits any small message. */
fr_msg *fr_message(fr_thread *th, fr_proc *from, int64_t n, int32_t sig, int32_t nargs, const cr_value *args) {
  fr_msg *m;
  if (nargs <= FR_MSG_SMALL && th && th->spare) {
    m = th->spare;
    th->spare = m->next;
    th->nspare--;
  } else {
    m = fr_alloc(sizeof *m + sizeof(cr_value) * (size_t)(nargs <= FR_MSG_SMALL ? FR_MSG_SMALL : nargs));
  }
  m->from = from;
  m->n = n;
  m->sig = sig;
  m->nargs = (int16_t)nargs;
  m->kind = FR_M_PLAIN;
  if (nargs) memcpy(m->args, args, sizeof(cr_value) * (size_t)nargs);
  return m;
}

void fr_message_free(fr_thread *th, fr_msg *m) {
  if (th && m->nargs <= FR_MSG_SMALL && th->nspare < FR_MSG_SPARES) {
    m->next = th->spare;
    th->spare = m;
    th->nspare++;
  } else {
    free(m);
  }
}

void fr_spares_free(fr_thread *th) {
  while (th->spare) {
    fr_msg *next = th->spare->next;
    free(th->spare);
    th->spare = next;
  }
  th->nspare = 0;
}

/* §6.5: to the incarnation live now, or dropped. Version 2's send is the same: a
** waiting receiver keeps the message for after its call (fr_push_locked). */
void cr_send(cr_ctx *c, cr_value to, int32_t sig, int32_t nargs, const cr_value *args) {
  fr_act *a = fr_effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  fr_proc *q = atomic_load_explicit(&fr_name_at((int32_t)to)->live, memory_order_acquire);
  if (q) fr_push(q, fr_message(a->th, p, n, sig, nargs, args), a->th);
  ev_send(p, n, (int32_t)to, q);
}

void cr_send2(cr_ctx *c, cr_value to, int32_t sig, int32_t nargs, const cr_value *args) {
  cr_send(c, to, sig, nargs, args);
}

void fr_give(int32_t index) {
  const cr_given *g = &fr_w.prog->given[index];
  fr_proc *q = atomic_load_explicit(&fr_name_at(g->to)->live, memory_order_acquire);
  fr_w.given_reached[index] = q;
  if (q) fr_push(q, fr_message(NULL, NULL, index + 1, g->sig, g->nargs, g->args), NULL);
}

void fr_set_blocked(fr_proc *p, int on) {
  fr_lock_take(&p->mx);
  p->blocked = on;
  fr_unlock(&p->mx);
}

/* §6.6: the limit, the supervisor, then a name and a start (the init on this
** thread); version 2: a start that fails or is ignored does not fail the spawner,
** and it is blocked (§16.6) while it waits for the supervisor (§19.4). */
static cr_value spawn(cr_ctx *c, int32_t kind, int32_t nargs, const cr_value *args, int32_t sup, int32_t restart,
                      int32_t significant) {
  fr_act *a = fr_effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  int how;
  if (atomic_load(&fr_w.live) >= fr_w.max_processes) {
    ev_spawn_refused(p, n, CR_R_SYSTEM_LIMIT);
    fr_end_turn(a, CR_R_SYSTEM_LIMIT, 0);
  }
  if (sup < 0) {
    int32_t name = fr_spawned_name(kind, atomic_fetch_add(&fr_w.spawned[kind], 1) + 1);
    fr_start_worker(name, kind, nargs, args, p, NULL, &how);
    ev_spawn(p, n, name, how);
    return name;
  }
  int v2 = fr_w.prog->version != 1;
  if (v2) fr_set_blocked(p, 1);
  if (!fr_sup_lock(p)) fr_end_as_asked(a); /* asked to exit while it waited: cut short there */
  fr_w.sup_holder = p;
  fr_sup *s = fr_w.sup_live[sup];
  if (!s) {
    fr_sup_unlock();
    if (v2) fr_set_blocked(p, 0);
    ev_spawn_refused(p, n, CR_R_NOPROC_CODE);
    fr_end_turn(a, CR_R_NOPROC_CODE, 0);
  }
  int32_t name = fr_spawned_name(kind, atomic_fetch_add(&fr_w.spawned[kind], 1) + 1);
  fr_start_child(s, p, n, kind, nargs, args, restart, significant, name, &how);
  fr_sup_unlock();
  fr_gone_if_dead(a);
  if (v2) fr_set_blocked(p, 0);
  ev_spawn(p, n, name, how);
  return name;
}

cr_value cr_spawn(cr_ctx *c, int32_t kind, int32_t nargs, const cr_value *args, int32_t sup, int32_t restart) {
  return spawn(c, kind, nargs, args, sup, restart, 0);
}

cr_value cr_spawn2(cr_ctx *c, int32_t kind, int32_t nargs, const cr_value *args, int32_t sup, int32_t restart,
                   int32_t significant) {
  return spawn(c, kind, nargs, args, sup, restart, significant);
}

_Noreturn void cr_stop(cr_ctx *c) { fr_end_turn(c->rt, CR_R_NORMAL, 0); }
_Noreturn void cr_fail(cr_ctx *c, int32_t code) { fr_end_turn(c->rt, code, 0); }
_Noreturn void cr_div_zero(cr_ctx *c) { fr_end_turn(c->rt, CR_R_DIV_ZERO, 0); }
_Noreturn void cr_stop_reason(cr_ctx *c, cr_value reason) { fr_end_turn(c->rt, (int32_t)reason, 0); }
_Noreturn void cr_ignore(cr_ctx *c) {
  fr_act *a = c->rt;
  a->ignore = 1;
  fr_end_turn(a, CR_R_NORMAL, 0);
}

/* --- turns ------------------------------------------------------------------------------ */

/* One of the run's L turns (G10), or 0 when all are taken. The count may pass L (each
** thread that finds them taken adds its 1), but only L callers see it below L: one
** atomic add, no compare-and-swap loop. */
static int take_turn(void) {
  if (atomic_load_explicit(&fr_w.turns, memory_order_relaxed) >= fr_w.turn_limit) return 0;
  return atomic_fetch_add_explicit(&fr_w.turns, 1, memory_order_relaxed) < fr_w.turn_limit;
}

/* Turns in a row before the thread takes another incarnation: fewer trips through
** the run queue, as a BEAM scheduler's reductions. */
#define BATCH 32

/* A handler that returned: it waits in a call (its continuation kept by cr_call),
** or it is done; a trapping unsupervised worker that sent itself an exit signal
** exits now (§16.3 [R19/self_trapping_*]); an exit asked meanwhile takes effect at
** the turn's end ([F2]). */
static void handler_returned(fr_proc *p, const fr_act *a) {
  if (p->wait) return;
  if (a->self_exit != FR_NO_REASON)
    exit_by_itself(p, a->self_exit, 0);
  else if (atomic_load(&p->kill) != FR_KILL_NONE)
    exit_as_asked(p);
}

/* File scope: a turn's locals may not survive its longjmp; these are per call. */
static void turn(fr_proc *p, fr_msg *m, fr_thread *th) {
  fr_act act;
  act_init(&act, p, th, m->sig);
  if (m->kind == FR_M_CALL) act.serving = m->from; /* its caller waits for a reply */
  const cr_kind *k = &fr_w.prog->kinds[p->kind];
  cr_body h = k->handler_of_sig[m->sig];
  cr_ctx c = {p->params, p->state, m->args, p->name, &act, 0, act.loops};
  if (setjmp(act.jb)) {
    fr_message_free(th, m);
    if (!act.gone) exit_by_itself(p, act.reason, act.killed);
    return;
  }
  if (!h) fr_end_turn(&act, CR_R_NO_HANDLER, 0);
  h(&c);
  fr_message_free(th, m);
  handler_returned(p, &act);
}

/* §18.1: a waiting caller resumes with its reply (stored in the bound field if the
** types agree, else BAD_REPLY) and its handler goes on after the call. */
static void resume(fr_proc *p, fr_wait *wt, fr_thread *th) {
  fr_act act;
  act_init(&act, p, th, wt->sig);
  act.serving = wt->serving;
  act.self_exit = wt->self_exit;
  memcpy(act.loops, wt->loops, sizeof act.loops);
  const cr_kind *k = &fr_w.prog->kinds[p->kind];
  cr_ctx c = {p->params, p->state, wt->args, p->name, &act, wt->point, act.loops};
  if (setjmp(act.jb)) {
    free(wt);
    if (!act.gone) exit_by_itself(p, act.reason, act.killed);
    return;
  }
  if (wt->bind >= 0) {
    if (k->state_types[wt->bind] != wt->vtype) fr_end_turn(&act, CR_R_BAD_REPLY, 0);
    p->state[wt->bind] = wt->value;
  }
  k->handler_of_sig[wt->sig](&c);
  free(wt);
  handler_returned(p, &act);
}

void fr_run(fr_proc *p, fr_thread *th) {
  for (int i = 0;; i++) {
    fr_lock_take(&p->mx);
    if (!p->dead && atomic_load(&p->kill) != FR_KILL_NONE) { /* terminated, or a signal, between two turns */
      p->running = 1; /* this thread ends it: a termination meanwhile waits for that exit, not a second one */
      fr_unlock(&p->mx);
      exit_as_asked(p);
      continue;
    }
    if (p->dead || i == BATCH || (p->wait ? !p->wait->replied : !p->head)) break;
    if (i > 0 && th->next) fr_flush_next(th); /* p goes on: what it woke must not wait for it */
    if (!take_turn()) {
      atomic_store(&fr_w.limit_hit, 1);
      break;
    }
    p->running = 1;
    if (p->wait) {
      fr_wait *wt = p->wait;
      p->wait = NULL;
      ev_resume_locked(p, wt);
      fr_unlock(&p->mx);
      resume(p, wt, th);
      continue;
    }
    fr_msg *m = p->head;
    p->head = m->next;
    if (!p->head) p->tail = NULL;
    ev_deliver_locked(p, m);          /* the turn begins: recorded with its message taken, under one lock */
#ifdef CONCORD_FAULT_FREE_LOST_WAKEUP /* planted fault: its last message taken, it goes idle after the turn unlooked \
                                       */
    int last = p->head == NULL;
    fr_unlock(&p->mx);
    turn(p, m, th);
    if (last) {
      fr_lock_take(&p->mx);
      p->running = 0;
      p->scheduled = 0;
      fr_unlock(&p->mx);
      fr_pending_done();
      return;
    }
    continue;
#endif
    fr_unlock(&p->mx);
    turn(p, m, th);
  }
  fr_release_locked(p, th); /* p->mx held */
  fr_unlock(&p->mx);
}
