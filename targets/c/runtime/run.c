/* targets/c/runtime/run.c: the scheduler (SPEC §8.2): a clean world, start-up
** at turn 0, then one delivery per turn to the process that the seeded
** generator picks among the ready ones, as the oracle's oracle/run.cpp. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* SPEC §8.3; each scheduling choice takes exactly one draw, nothing else draws. */
static uint64_t splitmix_next(uint64_t *state) {
  *state += 0x9e3779b97f4a7c15ULL;
  uint64_t z = *state;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* The runtime's own limits on what an emitted program may hold (SPEC §11). */
static void check_program(rt_world *w) {
  const cr_program *p = w->prog;
  for (int32_t i = 0; i < p->nsigs; i++)
    if (p->sigs[i].nargs < 0 || p->sigs[i].nargs > RT_MAX_ARGS) rt_internal(w, "a signature with too many arguments");
  for (int32_t i = 0; i < p->nkinds; i++)
    if (p->kinds[i].nparams < 0 || p->kinds[i].nparams > RT_MAX_ARGS || p->kinds[i].nstate < 0)
      rt_internal(w, "a kind with too many parameters");
  for (int32_t i = 0; i < p->ngiven; i++)
    if (p->given[i].sig < 0 || p->given[i].sig >= p->nsigs || p->given[i].nargs != p->sigs[p->given[i].sig].nargs)
      rt_internal(w, "a given message that matches no signature");
}

static void init_world(rt_world *w) {
  check_program(w);
  names_init(w);
  size_t n = (size_t)w->prog->nsups;
  w->sups = rt_alloc_array(w, n, sizeof *w->sups);
  memset(w->sups, 0, n * sizeof *w->sups);
}

/* Turn 0: roots in order, then the given messages (§8.2 "Start"); the process
** limit does not apply. */
static void start_up(rt_world *w) {
  const cr_program *p = w->prog;
  for (int32_t i = 0; i < p->nroots; i++) {
    const cr_decl *d = &p->roots[i];
    if (d->is_sup) start_supervisor(w, d->sup);
    else create_process(w, d->name, d->kind, 0, d->nargs, d->args, -1);
  }
  for (int32_t i = 0; i < p->ngiven; i++) {
    const cr_given *g = &p->given[i];
    send_message(w, -1, g->to, g->sig, g->args);
  }
}

/* Version 2 (§8.2 with §17.2, §18.3, §19.2): the run settles after each root (a
** root whose start fails is simply not alive) and after each turn; a chosen
** waiting caller resumes; nothing ready while a caller waits is a deadlock. */
static void start_up2(rt_world *w) {
  const cr_program *p = w->prog;
  for (int32_t i = 0; i < p->nroots; i++) {
    const cr_decl *d = &p->roots[i];
    if (d->is_sup)
      start_supervisor2(w, d->sup);
    else
      start_worker2(w, new_process(w, d->name, d->kind, 0, d->nargs, d->args, -1));
    settle(w);
  }
  for (int32_t i = 0; i < p->ngiven; i++) {
    const cr_given *g = &p->given[i];
    send_message2(w, -1, g->to, g->sig, g->args);
  }
}

static int run_program2(rt_world *w) {
  if (w->prog->exit_sig < 0 || w->prog->exit_sig >= w->prog->nsigs || w->prog->down_sig < 0 ||
      w->prog->down_sig >= w->prog->nsigs)
    rt_internal(w, "a version 2 program without the exit and down signatures");
  start_up2(w);
  for (;;) {
    if (w->turn == w->turn_limit) return OUTCOME_TURN_LIMIT;
    int64_t ready = w->ready_count;
#ifdef CONCORD_FAULT_DEADLOCK_REPORTED_QUIESCENT /* planted fault (held out 3): nothing ready is quiescent, waiters or not */
    if (ready == 0) return OUTCOME_QUIESCENT;
#endif
    if (ready == 0) return w->waiting > 0 ? OUTCOME_DEADLOCK : OUTCOME_QUIESCENT;
    w->turn++;
    uint64_t k = splitmix_next(&w->rng) % (uint64_t)ready;
    int32_t id = ready_kth(w, (int64_t)k);
    if (ext_at(w, id)->wait)
      resume2(w, id, ready);
    else
      deliver2(w, id, ready);
    settle(w);
  }
}

int run_program(rt_world *w) {
  w->rng = w->seed;
  w->turn = 0;
  init_world(w);
  if (w->prog->version >= 2) return run_program2(w);
  start_up(w);
  for (;;) {
    if (w->turn == w->turn_limit) return OUTCOME_TURN_LIMIT;
    int64_t ready = w->ready_count;
    if (ready == 0) return OUTCOME_QUIESCENT;
    w->turn++;
    uint64_t k = splitmix_next(&w->rng) % (uint64_t)ready;
#ifdef CONCORD_FAULT_READY_NEXT /* planted fault: picks the ready process after R[x mod n] (wrapping), n > 1 */
    if (ready > 1) k = (k + 1) % (uint64_t)ready;
#endif
    int32_t id = ready_kth(w, (int64_t)k);
    deliver(w, id, ready);
  }
}

/* Frees everything the run holds; safe at any allocation point of the run. */
void world_free(rt_world *w) {
  v2_free(w);
  procs_free(w);
  sups_free(w);
  ready_free(w);
  free(w->prog_proc);
  free(w->hash);
  free(w->prefix_len);
  free(w->spawned);
  w->prog_proc = w->hash = NULL;
  w->prefix_len = NULL;
  w->spawned = NULL;
  w->hash_cap = w->hash_count = 0;
  log_free(&w->journal);
  log_free(&w->failures);
  log_free(&w->decisions);
  quoted_free(w);
}
