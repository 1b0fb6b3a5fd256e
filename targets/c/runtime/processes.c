/* targets/c/runtime/processes.c: life and death of worker processes, message
** passing and delivery (SPEC §6.4-§6.7, §8.1, §8.2 steps 5-6), and the effects
** that emitted code calls (concord_rt.h): cr_send, cr_spawn, cr_stop, cr_fail,
** cr_div_zero. A handler ends early by a longjmp to run_handler(), the one place
** where handlers are entered, mirroring the oracle's `throw HandlerEnd`. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* Process slots live in fixed chunks, so a process never moves while a handler
** or the supervision code holds a pointer to it. */
static rt_proc *new_slot(rt_world *w) {
  const cr_program *prog = w->prog;
  if ((int64_t)w->nprocs + prog->nnames >= INT32_MAX) rt_out_of_memory(w); /* ids are int32 */
  size_t chunk = (size_t)w->nprocs >> RT_CHUNK_BITS;
  if (chunk == w->nchunks) {
    if (w->nchunks == w->chunks_cap) {
      size_t cap = w->chunks_cap ? w->chunks_cap * 2 : 8;
      w->chunks = rt_realloc_array(w, w->chunks, cap, sizeof *w->chunks);
      w->chunks_cap = cap;
    }
    w->chunks[w->nchunks] = rt_alloc_array(w, RT_CHUNK, sizeof(rt_proc));
    w->nchunks++;
  }
  rt_proc *p = proc_at(w, w->nprocs);
  memset(p, 0, sizeof *p);
  p->sup = -1;
  w->nprocs++; /* counted once initialised: world_free() may look at it from now on */
  return p;
}

/* §8.1: the next id, not started yet. name < 0: the spawned name k-num (§2). */
int32_t new_process(rt_world *w, int32_t name, int32_t kind, int32_t num, int32_t nargs, const cr_value *args,
                    int32_t sup) {
  const cr_kind *k = &w->prog->kinds[kind];
  if (nargs != k->nparams || nargs > RT_MAX_ARGS) rt_internal(w, "arguments do not match the kind's parameters");
  rt_proc *p = new_slot(w);
  int32_t id = w->nprocs - 1;
  p->kind = (unsigned int)kind;
  p->num = num;
  p->sup = sup;
  p->name = name >= 0 ? name : name_spawned(w, kind, num, id);
  name_bind(w, p->name, id);
  size_t nvals = (size_t)k->nparams + (size_t)k->nstate;
  if (nvals) {
    p->vals = rt_alloc_array(w, nvals, sizeof(cr_value));
    for (int32_t i = 0; i < nargs; i++) p->vals[i] = args[i]; /* kept for restarts */
  }
  return id;
}

/* §8.1 and §6.7: the next id, started. */
int32_t create_process(rt_world *w, int32_t name, int32_t kind, int32_t num, int32_t nargs, const cr_value *args,
                       int32_t sup) {
  int32_t id = new_process(w, name, kind, num, nargs, args, sup);
  start_process(w, id);
  return id;
}

void start_process(rt_world *w, int32_t id) {
  rt_proc *p = proc_at(w, id);
  const cr_kind *k = &w->prog->kinds[p->kind];
  p->alive = 1;
  if (p->mbox) p->mbox->head = p->mbox->used = 0;
  size_t nvals = (size_t)k->nparams + (size_t)k->nstate;
  if (nvals && !p->vals) rt_internal(w, "restart of a process without its arguments");
  cr_ctx c = proc_ctx(w, p, NULL);
  if (k->init_state) k->init_state(&c);  /* fresh state, in declaration order */
  else if (k->nstate) memset(c.state, 0, (size_t)k->nstate * sizeof(cr_value));
  w->live++;
  jr_start(w, p->name, (int32_t)p->kind);
  if (k->init) k->init(&c);  /* cannot fail (§4.9) */
}

void mark_ready(rt_world *w, int32_t id) {
  const rt_proc *p = proc_at(w, id);
  ready_set(w, id, p->alive && !mb_empty(p));
}

/* §6.4: dead, mailbox discarded, exit event (and failure record). An
** unsupervised process never restarts: its params and state go too. */
void end_process(rt_world *w, int32_t id, int32_t reason) {
  rt_proc *p = proc_at(w, id);
  p->alive = 0;
  free(p->mbox);
  p->mbox = NULL;
  if (p->sup < 0) {
    free(p->vals);
    p->vals = NULL;
  }
  w->live--;
  mark_ready(w, id);
  jr_exit(w, p->name, reason);
}

/* §6.4 an exit by itself, then its supervisor reacts (§7) at once. */
void exit_process(rt_world *w, int32_t id, int32_t reason) {
  end_process(w, id, reason);
  const rt_proc *p = proc_at(w, id);
  if (p->sup >= 0) child_exited(w, p->sup, p->name, reason);
}

/* §6.5: append to the live receiver's mailbox, or journal a drop. */
void send_message(rt_world *w, int32_t from, cr_value to, int32_t sig, const cr_value *args) {
  if (to < 0 || to > INT32_MAX) rt_internal(w, "an addr that is no name id");
  int32_t id = name_proc(w, (int32_t)to);
  rt_proc *p = id >= 0 ? proc_at(w, id) : NULL;
  if (!p || !p->alive) {
#ifdef CONCORD_FAULT_DROP_NOT_JOURNALED /* planted fault: a dropped message leaves no drop event */
    return;
#endif
    jr_drop(w, from, (int32_t)to, sig, args);
    return;
  }
  mb_push(w, p, from, sig, w->prog->sigs[sig].nargs, args);
  ready_set(w, id, 1);
}

/* Runs a handler; returns RT_NONE when it returned, else the exit reason it
** ended with. Nothing local is changed between setjmp and longjmp. */
static int32_t run_handler(rt_world *w, rt_proc *p, cr_body h, const cr_value *args) {
  cr_ctx c = proc_ctx(w, p, args);
  w->handler_self = p->name;
  w->in_handler = 1;
  if (setjmp(w->handler_jb)) {
    w->in_handler = 0;
    return w->end_reason;
  }
  h(&c);
  w->in_handler = 0;
  return RT_NONE;
}

/* §8.2 steps 5-6: pop the head message, journal it, run the matching handler
** (or fail with NO_HANDLER, after the deliver event); an early end is an exit. */
void deliver(rt_world *w, int32_t id, int64_t ready) {
  rt_proc *p = proc_at(w, id);
  cr_value args[RT_MAX_ARGS]; /* a copy: the handler may grow this very mailbox */
  int32_t from;
  int32_t sig = mb_pop(p, &from, args, w->prog);
  jr_deliver(w, ready, p->name, from, sig, args);
  const cr_kind *k = &w->prog->kinds[p->kind];
  cr_body h = k->handler_of_sig ? k->handler_of_sig[sig] : NULL;
  int32_t reason = h ? run_handler(w, p, h, args) : RT_NO_HANDLER;
  if (reason != RT_NONE) exit_process(w, id, reason);
  /* Readiness is re-marked once, after the handler: nothing reads the ready
  ** set during a turn. */
  mark_ready(w, id);
}

void procs_free(rt_world *w) {
  for (int32_t id = 0; id < w->nprocs; id++) {
    rt_proc *p = proc_at(w, id);
    free(p->vals);
    free(p->mbox);
  }
  for (size_t i = 0; i < w->nchunks; i++) free(w->chunks[i]);
  free(w->chunks);
  w->chunks = NULL;
  w->nchunks = w->chunks_cap = 0;
  w->nprocs = 0;
}

/* --- the effects of emitted code (concord_rt.h) ------------------------------ */

static rt_world *world_of(cr_ctx *c) { return (rt_world *)c->rt; }

/* Ends the running handler with `reason` (§6.4). Only a handler can end
** early (init cannot fail, §4.9): anything else is a bug of the emitter.
** Version 2's code nests and init may fail (§19.1): its own path. */
static _Noreturn void end_handler(cr_ctx *c, int32_t reason) {
  rt_world *w = world_of(c);
  if (w->prog->version >= 2) act_end(w, c, reason, 0);
  if (!w->in_handler || c->self != w->handler_self) rt_internal(w, "a handler end outside a handler");
  w->end_reason = reason;
  longjmp(w->handler_jb, 1);
}

void cr_send(cr_ctx *c, cr_value to, int32_t sig, int32_t nargs, const cr_value *args) {
  rt_world *w = world_of(c);
  if (sig < 0 || sig >= w->prog->nsigs || nargs != w->prog->sigs[sig].nargs || nargs > RT_MAX_ARGS)
    rt_internal(w, "a send that matches no signature");
#ifdef CONCORD_FAULT_INIT_SENDS_AS_SPAWNER /* planted fault (held out): an init run inside a spawn sends as the spawner */
  if (w->in_handler) {
    send_message(w, w->handler_self, to, sig, args);
    return;
  }
#endif
  send_message(w, c->self, to, sig, args);
}

/* §6.6, steps in order; the bind of `f = spawn` is the caller's assignment. */
cr_value cr_spawn(cr_ctx *c, int32_t kind, int32_t nargs, const cr_value *args, int32_t sup, int32_t restart) {
  rt_world *w = world_of(c);
  if (kind < 0 || kind >= w->prog->nkinds || sup >= w->prog->nsups) rt_internal(w, "a spawn of no kind");
  int64_t limit = w->max_processes;
#ifdef CONCORD_FAULT_SYSTEM_LIMIT_ONE_LATE /* planted fault: the limit lets one process more (live > P fails) */
  limit++;
#endif
  if (w->live >= limit) end_handler(c, RT_SYSTEM_LIMIT);
#ifdef CONCORD_FAULT_SPAWN_UNDER_DEAD_UNSUPERVISED /* planted fault (held out 3): under a dead supervisor: unsupervised */
  if (sup >= 0 && !w->sups[sup].alive) sup = -1;
#endif
  if (sup >= 0 && !w->sups[sup].alive) end_handler(c, RT_NOPROC);
  if (w->spawned[kind] >= INT32_MAX) rt_out_of_memory(w); /* more processes than ids */
  int32_t num = (int32_t)++w->spawned[kind];               /* only a successful spawn counts */
  int32_t id = create_process(w, -1, kind, num, nargs, args, sup);
  if (sup >= 0) add_dynamic_child(w, sup, id, restart);
  return proc_at(w, id)->name;
}

_Noreturn void cr_stop(cr_ctx *c) { end_handler(c, RT_NORMAL); }

_Noreturn void cr_fail(cr_ctx *c, int32_t code) {
  if (code < 0 || code >= world_of(c)->prog->nnames) rt_internal(world_of(c), "a failure code that is no name");
  end_handler(c, code);
}

_Noreturn void cr_div_zero(cr_ctx *c) { end_handler(c, RT_DIV_ZERO); }
