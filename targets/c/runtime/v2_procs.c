/* targets/c/runtime/v2_procs.c: the life of a worker in a version 2 program: what
** it has besides version 1's rt_proc (SPEC §16.1), how a start ends (§19.1), what
** an exit does, in order (§17.1), delivery with call messages and resumption
** (§18.1, §18.3), and the running code's activations. Code ends early by a longjmp
** to its own activation (rt_act), since version 2's code nests: a handler, and
** inside its spawn or API statement the init of a process started meanwhile. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* --- what a worker has (§16.1) --------------------------------------------------- */

/* Kept in chunks parallel to the processes', allocated as ids come: stable addresses. */
rt_pext *ext_at(rt_world *w, int32_t id) {
  size_t chunk = (size_t)((uint32_t)id >> RT_CHUNK_BITS);
  while (chunk >= w->n_ext) {
    if (w->n_ext == w->ext_cap) {
      size_t cap = w->ext_cap ? w->ext_cap * 2 : 8;
      w->ext = rt_realloc_array(w, w->ext, cap, sizeof *w->ext);
      w->ext_cap = cap;
    }
    rt_pext *c = rt_alloc_array(w, RT_CHUNK, sizeof(rt_pext));
    memset(c, 0, RT_CHUNK * sizeof(rt_pext));
    w->ext[w->n_ext++] = c;
  }
  return &w->ext[chunk][(uint32_t)id & (RT_CHUNK - 1)];
}

int32_t live_id(rt_world *w, cr_value name) {
  if (name < 0 || name > INT32_MAX) rt_internal(w, "an addr that is no name id");
  int32_t id = name_proc(w, (int32_t)name);
  return id >= 0 && proc_at(w, id)->alive ? id : -1;
}

/* §8.2 step 2, §18.3: a waiting worker is ready once its reply has come, any
** other once its mailbox is not empty. */
void mark_ready2(rt_world *w, int32_t id) {
  const rt_proc *p = proc_at(w, id);
  const rt_wait *wt = ext_at(w, id)->wait;
  ready_set(w, id, p->alive && (wt ? wt->replied : !mb_empty(p)));
}

/* §6.5: as send_message(), but a waiting receiver is not made ready (§18.3). */
void send_message2(rt_world *w, int32_t from, cr_value to, int32_t sig, const cr_value *args) {
  int32_t id = live_id(w, to);
  if (id < 0) {
    jr_drop(w, from, (int32_t)to, sig, args);
    return;
  }
  mb_push(w, proc_at(w, id), from, sig, w->prog->sigs[sig].nargs, args);
  mark_ready2(w, id);
}

/* §16.4: exit(from, why) or down(who, why), sent by `from`. */
void system_message(rt_world *w, int32_t id, int32_t sig, int32_t from, int32_t reason) {
  cr_value args[2] = {from, reason};
  mb_push(w, proc_at(w, id), from, sig, 2, args);
  mark_ready2(w, id);
}

/* --- activations ------------------------------------------------------------------ */

static rt_act *act_push(rt_world *w, int32_t id, int32_t sig) {
  if (w->nacts == RT_MAX_ACTS) rt_internal(w, "activations nested too deep");
  rt_act *a = &w->acts[w->nacts++];
  a->id = id;
  a->inc = ext_at(w, id)->inc;
  a->end_reason = RT_NONE;
  a->gone = a->ignore = 0;
  a->sig = sig;
  a->serving = -1;
  a->serving_inc = 0;
  a->self_exit = RT_NONE;
  return a;
}

rt_act *act_running(rt_world *w, const cr_ctx *c) {
  if (w->nacts == 0) rt_internal(w, "a version 2 effect outside running code");
  rt_act *a = &w->acts[w->nacts - 1];
  if (proc_at(w, a->id)->name != c->self) rt_internal(w, "an effect of a process that is not running");
  return a;
}

_Noreturn void act_end(rt_world *w, const cr_ctx *c, int32_t reason, int ignore) {
  rt_act *a = act_running(w, c);
  a->end_reason = reason;
  a->ignore = ignore;
  longjmp(a->jb, 1);
}

/* Runs code of an activation; 1 when it ended early (the act says how). Nothing
** local changes between setjmp and longjmp. */
static int run_body(rt_act *a, cr_body first, cr_body second, cr_ctx *c) {
  if (setjmp(a->jb)) return 1;
  if (first) first(c);
  if (second) second(c);
  return 0;
}

static int still_here(rt_world *w, const rt_act *a) {
  return proc_at(w, a->id)->alive && ext_at(w, a->id)->inc == a->inc;
}

/* §16.6, §17.2: the run settles inside a blocking statement (spawn, API) with the
** worker blocked (raised by the caller); if a signal ended it meanwhile, its code
** ends there. */
void settle_blocked(rt_world *w, rt_act *a) {
  settle(w);
  if (!still_here(w, a)) {
    a->gone = 1;
    longjmp(a->jb, 1);
  }
  ext_at(w, a->id)->blocked--;
}

/* --- a start (§6.7, §19.1) ---------------------------------------------------------- */

/* Alive with an empty mailbox, a new incarnation without links, monitors or trap
** flag (§16.1), the start event, state initialisers, init. A start fails when an
** initialiser or init fails or stops, and is ignored by `ignore`: either way the
** process exits at once, an exit that its supervisor does not handle. */
int start_worker2(rt_world *w, int32_t id) {
  rt_proc *p = proc_at(w, id);
  rt_pext *x = ext_at(w, id);
  const cr_kind *k = &w->prog->kinds[p->kind];
  size_t nvals = (size_t)k->nparams + (size_t)k->nstate;
  if (nvals && !p->vals) rt_internal(w, "restart of a process without its arguments");
  p->alive = 1;
  x->inc++;
  x->trap = 0;
  if (p->mbox) p->mbox->head = p->mbox->used = 0;
  w->live++;
  jr_start(w, p->name, (int32_t)p->kind);
  cr_ctx c = proc_ctx(w, p, NULL);
  if (!k->init_state && k->nstate) memset(c.state, 0, (size_t)k->nstate * sizeof(cr_value));
  rt_act *a = act_push(w, id, -1);
  c.resume = 0;
  c.loops = a->loops;
  int ended = run_body(a, k->init_state, k->init, &c);
  int ignore = a->ignore;
  int32_t reason = a->end_reason;
  w->nacts--;
  if (ended) {
    exit_worker(w, id, ignore ? RT_NORMAL : reason, CAUSE_FAILED_START);
    return ignore ? STARTED_IGNORED : STARTED_FAILED;
  }
  mark_ready2(w, id);
  return STARTED_OK;
}

/* --- an exit (§17.1) ------------------------------------------------------------------ */

static int cmp_id(const void *a, const void *b) {
  int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
#ifdef CONCORD_FAULT_LINK_SIGNALS_DESCENDING /* planted fault (measurement only): link signals by descending id */
  return (x < y) - (x > y);
#endif
  return (x > y) - (x < y);
}

void exit_worker(rt_world *w, int32_t id, int32_t reason, int cause) {
  rt_proc *p = proc_at(w, id);
  rt_pext *x = ext_at(w, id);
  /* 1. Not alive; mailbox, state, trap flag and pending call discarded; the exit
  ** event (and a failures record for an abnormal reason, jr_exit). */
  p->alive = 0;
  free(p->mbox);
  p->mbox = NULL;
  if (p->sup < 0) { /* never restarted */
    free(p->vals);
    p->vals = NULL;
  }
  x->trap = 0;
  x->blocked = 0;
  if (x->wait) {
    free(x->wait);
    x->wait = NULL;
    w->waiting--;
  }
  w->live--;
  ready_set(w, id, 0);
  jr_exit(w, p->name, reason);
  /* 2. The monitors it held go (its links go with their signals, below). */
  for (uint32_t i = 0; i < x->held.n; i++)
    mons_erase_number(&ext_at(w, x->held.v[i].other)->watched, x->held.v[i].number);
  x->held.n = 0;
  /* 3. Link signals by ascending id; then down and call signals in the order the
  ** monitors were made, those monitors going too. */
  if (x->nlinks) {
    qsort(x->links, x->nlinks, sizeof *x->links, cmp_id);
    for (uint32_t i = 0; i < x->nlinks; i++) {
      int32_t other = x->links[i];
      rt_pext *y = ext_at(w, other);
      for (uint32_t j = 0; j < y->nlinks; j++)
        if (y->links[j] == id) {
          y->links[j] = y->links[--y->nlinks];
          break;
        }
      queue_signal(w, SIG_LINK, p->name, other, reason);
    }
    x->nlinks = 0;
  }
  for (uint32_t i = 0; i < x->watched.n; i++) {
    rt_mon m = x->watched.v[i];
    mons_erase_number(&ext_at(w, m.other)->held, m.number);
    queue_signal(w, m.call ? SIG_CALL : SIG_DOWN, p->name, m.other, reason);
  }
  x->watched.n = 0;
  /* 4. A supervised worker's own exit is a pending exit of its supervisor. */
  if (cause == CAUSE_OWN && p->sup >= 0 && w->sups[p->sup].alive) add_pending_exit(w, p->sup, p->name, reason);
}

/* --- handlers (§8.2 steps 5-6, §18) ---------------------------------------------------- */

/* Runs a handler from `point` to its end and does what its end means: a failure or
** stop exits the process (§6.4); a wait keeps the continuation (cr_call saved it);
** a trapping unsupervised worker that sent itself an exit signal exits now, its
** signal event just before its exit event (§16.3). */
static void run_handler2(rt_world *w, rt_act *a, cr_body h, const cr_value *args, int32_t point) {
  int32_t id = a->id;
  rt_proc *p = proc_at(w, id);
  cr_ctx c = proc_ctx(w, p, args);
  c.resume = point;
  c.loops = a->loops;
  int ended = run_body(a, h, NULL, &c);
  int gone = a->gone;
  int32_t reason = a->end_reason, self_exit = a->self_exit;
  w->nacts--;
  if (ended) {
    if (!gone) exit_worker(w, id, reason, CAUSE_OWN);
    return;
  }
  if (ext_at(w, id)->wait) {
    mark_ready2(w, id);
    return;
  }
  if (self_exit != RT_NONE) {
    jr_signal(w, SIG_EXIT, p->name, p->name, self_exit, EFF_EXIT);
    exit_worker(w, id, self_exit, CAUSE_OWN);
    return;
  }
  mark_ready2(w, id);
}

/* §8.2 steps 5-6; §18.1: a call message is journaled as `call` and its handler
** answers the caller. */
void deliver2(rt_world *w, int32_t id, int64_t ready) {
  rt_proc *p = proc_at(w, id);
  cr_value args[RT_MAX_ARGS]; /* a copy: the handler may grow this very mailbox */
  int32_t from, caller;
  uint32_t caller_inc;
  int32_t sig = mb_pop2(p, &from, args, w->prog, &caller, &caller_inc);
  if (caller >= 0)
    jr_call(w, ready, p->name, from, sig, args);
  else
    jr_deliver(w, ready, p->name, from, sig, args);
  const cr_kind *k = &w->prog->kinds[p->kind];
  cr_body h = k->handler_of_sig ? k->handler_of_sig[sig] : NULL;
  if (!h) {
    exit_worker(w, id, RT_NO_HANDLER, CAUSE_OWN);
    return;
  }
  rt_act *a = act_push(w, id, sig);
  a->serving = caller;
  a->serving_inc = caller_inc;
  run_handler2(w, a, h, args, 0);
}

/* §18.1, §18.3: the chosen waiting caller resumes: the reply is stored in the bound
** field if its type is the field's (else BAD_REPLY), and the handler goes on. */
void resume2(rt_world *w, int32_t id, int64_t ready) {
  rt_proc *p = proc_at(w, id);
  rt_pext *x = ext_at(w, id);
  rt_wait *wt = x->wait;
  x->wait = NULL;
  w->waiting--;
  jr_resume(w, ready, p->name, wt->callee_name, wt->value, wt->vtype);
  const cr_kind *k = &w->prog->kinds[p->kind];
  if (wt->bind >= 0) {
    if (k->state_types[wt->bind] != wt->vtype) {
      free(wt);
      exit_worker(w, id, RT_BAD_REPLY, CAUSE_OWN);
      return;
    }
    p->vals[k->nparams + wt->bind] = wt->value;
  }
  rt_act *a = act_push(w, id, wt->sig);
  a->serving = wt->serving;
  a->serving_inc = wt->serving_inc;
  a->self_exit = wt->self_exit;
  memcpy(a->loops, wt->loops, sizeof a->loops);
  cr_value args[RT_MAX_ARGS];
  memcpy(args, wt->args, sizeof args);
  int32_t point = wt->point, sig = wt->sig;
  free(wt);
  run_handler2(w, a, k->handler_of_sig[sig], args, point);
}

void v2_free(rt_world *w) {
  for (size_t c = 0; c < w->n_ext; c++) {
    for (size_t i = 0; i < RT_CHUNK; i++) {
      rt_pext *x = &w->ext[c][i];
      free(x->links);
      free(x->held.v);
      free(x->watched.v);
      free(x->wait);
    }
    free(w->ext[c]);
  }
  free(w->ext);
  w->ext = NULL;
  w->n_ext = w->ext_cap = 0;
  free(w->sigq);
  w->sigq = NULL;
  w->sigq_head = w->sigq_len = w->sigq_cap = 0;
  w->nacts = 0;
}
