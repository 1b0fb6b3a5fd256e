/* targets/c/runtime/free/free_supervision.c: OTP supervision (SPEC §7) in a free
** run, clause by clause as the conducted runtime's supervision.c, each supervisor
** incarnation deciding on the inputs it handles, in the order it handles them
** (§25.3 G3, G9). Everything here runs under the supervision lock; terminating a
** running worker waits for its exit (free_procs.c). */
#include <stdlib.h>
#include <string.h>

#include "free.h"

static void push_child(fr_sup *s, fr_child e) {
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 4;
    fr_child *grown = fr_alloc(cap * sizeof *grown);
    if (s->n) memcpy(grown, s->children, s->n * sizeof *grown);
    free(s->children);
    s->children = grown;
    s->cap = cap;
  }
  s->children[s->n++] = e;
}

static int is_failure(int32_t reason) { return reason != CR_R_NORMAL && reason != CR_R_SHUTDOWN; }

/* §7.5: a running child ends with shutdown; a child supervisor's children first. */
static void terminate_child(fr_sup *s, size_t i) {
  fr_child *c = &s->children[i];
  if (!c->running) return;
  c->running = 0;
  if (c->is_sup)
    fr_terminate_supervisor(c->s);
  else
    fr_terminate_worker(c->w);
}

/* In reverse start order, as OTP's terminate_children/2. */
static void terminate_children(fr_sup *s, size_t from) {
  for (size_t i = s->n; i-- > from;) terminate_child(s, i);
}

static void ended(fr_sup *s) {
  s->alive = 0;
  s->exit_reason = CR_R_SHUTDOWN;
  fr_w.sup_live[s->slot] = NULL;
}

void fr_terminate_supervisor(fr_sup *s) {
  terminate_children(s, 0);
  ended(s);
}

static void start_child(fr_sup *s, size_t i) {
  fr_child *c = &s->children[i];
  if (c->is_sup)
    c->s = fr_start_supervisor(c->slot, s);
  else
    c->w = fr_start_worker(c->name, c->kind, c->nargs, c->args, NULL, s);
  s->children[i].running = 1;
}

static void remove_temporaries(fr_sup *s, size_t from) {
  size_t kept = from;
  for (size_t i = from; i < s->n; i++)
    if (s->children[i].restart != CR_TEMPORARY)
      s->children[kept++] = s->children[i];
    else
      free(s->children[i].own);
  s->n = kept;
}

/* §7.3 one_for_all / rest_for_one. */
static void restart_from(fr_sup *s, size_t from) {
  terminate_children(s, from);
  remove_temporaries(s, from);
  for (size_t i = from; i < s->n; i++) start_child(s, i);
}

static size_t index_of(const fr_sup *s, int32_t name);
static void handle_exit(fr_sup *s, size_t index, int32_t reason);

/* §7.4: give up; to the parent, a child that exited with shutdown, handled by it now. */
static void give_up(fr_sup *s, int32_t child) {
  ev_sup_decision(s, child, "give_up");
  fr_terminate_supervisor(s);
  fr_sup *parent = s->by;
  if (!parent) return;
  ev_sup_exit(parent, NULL, s, CR_R_SHUTDOWN);
  handle_exit(parent, index_of(parent, fr_w.prog->sups[s->slot].name), CR_R_SHUTDOWN);
}

static void restart(fr_sup *s, size_t index) {
  const cr_sup *d = &fr_w.prog->sups[s->slot];
  int32_t child = s->children[index].name;
  if (++s->restarts > d->intensity) { /* [R8]: one restart counts once */
    give_up(s, child);
    return;
  }
  ev_sup_decision(s, child, "restart");
  switch (d->strategy) {
    case CR_ONE_FOR_ONE: start_child(s, index); return; /* [R4] */
    case CR_ONE_FOR_ALL: restart_from(s, 0); return;    /* [R5] */
    default: restart_from(s, index); return;            /* rest_for_one [R6] */
  }
}

static void keep_or_remove(fr_sup *s, size_t index) {
  fr_child *c = &s->children[index];
  if (c->restart == CR_TEMPORARY) {
    ev_sup_decision(s, c->name, "remove");
    free(c->own);
    memmove(&s->children[index], &s->children[index + 1], (s->n - index - 1) * sizeof *s->children);
    s->n--;
  } else {
    ev_sup_decision(s, c->name, "keep");
    c->running = 0;
  }
}

/* §7.2, OTP do_restart/3. */
static void handle_exit(fr_sup *s, size_t index, int32_t reason) {
  fr_child *c = &s->children[index];
  c->running = 0;
  if (c->restart == CR_PERMANENT)
    restart(s, index);
  else if (!is_failure(reason))
    keep_or_remove(s, index);
  else if (c->restart == CR_TRANSIENT)
    restart(s, index);
  else
    keep_or_remove(s, index);
}

static size_t index_of(const fr_sup *s, int32_t name) {
  for (size_t i = 0; i < s->n; i++)
    if (s->children[i].name == name) return i;
  abort(); /* a running child is always in its supervisor's list */
}

void fr_child_exited(fr_sup *s, fr_proc *child) {
  ev_sup_exit(s, child, NULL, child->exit_reason);
  handle_exit(s, index_of(s, child->name), child->exit_reason);
}

fr_sup *fr_start_supervisor(int32_t slot, fr_sup *by) {
  const cr_sup *d = &fr_w.prog->sups[slot];
  fr_sup *s = fr_calloc(1, sizeof *s);
  s->slot = slot;
  s->inc = ++fr_w.sup_incs[slot];
  s->by = by;
  s->alive = 1;
  s->all_next = fr_w.all_sups;
  fr_w.all_sups = s;
  fr_w.sup_live[slot] = s;
  for (int32_t i = 0; i < d->nchildren; i++) { /* static children, in order, depth first */
    const cr_decl *cd = &d->children[i];
    fr_child e = {cd->name, cd->restart, cd->is_sup != 0, cd->sup, cd->kind, cd->nargs, cd->args, NULL, 0, NULL, NULL};
    push_child(s, e);
    start_child(s, s->n - 1);
  }
  return s;
}

fr_proc *fr_start_child(fr_sup *s, fr_proc *from, int64_t n, int32_t kind, int32_t nargs, const cr_value *args,
                        int32_t restart, int32_t name) {
  cr_value *own = fr_alloc(sizeof(cr_value) * (size_t)(nargs ? nargs : 1));
  if (nargs) memcpy(own, args, sizeof(cr_value) * (size_t)nargs);
  fr_child e = {name, restart, 0, -1, kind, nargs, own, own, 0, NULL, NULL};
  push_child(s, e);
  ev_sup_start_child(s, from, n, name);
  start_child(s, s->n - 1);
  return s->children[s->n - 1].w;
}
