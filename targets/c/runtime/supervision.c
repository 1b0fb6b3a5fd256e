/* targets/c/runtime/supervision.c: OTP supervision (SPEC §7), clause by clause
** as the oracle's oracle/supervision.cpp, which is shaped like OTP 25's
** supervisor.erl: one function decides by restart type and exit reason
** (do_restart/3), one per strategy (restart/3), intensity in add_restart/1,
** terminations in terminate_children/2. Child entries are addressed by index:
** nothing below grows a child list while an entry of it is in use. */
#include <stdlib.h>

#include "rt.h"

static void push_child(rt_world *w, int32_t slot, rt_child e) {
  rt_sup *s = &w->sups[slot];
  if (s->nchildren == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 4;
    s->children = rt_realloc_array(w, s->children, cap, sizeof *s->children);
    s->cap = cap;
  }
  s->children[s->nchildren++] = e;
}

static int find_child(const rt_sup *s, int32_t name, size_t *index) {
  for (size_t i = 0; i < s->nchildren; i++)
    if (s->children[i].name == name) {
      *index = i;
      return 1;
    }
  return 0;
}

static int is_failure(int32_t reason) { return reason != RT_NORMAL && reason != RT_SHUTDOWN; }

static void terminate_supervisor(rt_world *w, int32_t slot);

/* §7.5: the supervisor ends a running child with reason shutdown; no reaction,
** no failure, nothing counted (OTP: shutdown/2 after unlinking the child). */
static void terminate_child(rt_world *w, int32_t slot, size_t index) {
  rt_child *c = &w->sups[slot].children[index];
  if (!c->running) return;
  c->running = 0;
  if (c->is_sup) terminate_supervisor(w, c->ref);
  else end_process(w, c->ref, RT_SHUTDOWN);
}

/* Terminates the running children among [from, end) in reverse start order, as
** OTP's terminate_children/2 walks them (the child that just exited is not running). */
static void terminate_children(rt_world *w, int32_t slot, size_t from) {
  for (size_t i = w->sups[slot].nchildren; i-- > from;) terminate_child(w, slot, i);
}

/* §7.5 for a child supervisor: its children first, then itself; its dynamic
** children are gone with this incarnation. */
static void terminate_supervisor(rt_world *w, int32_t slot) {
  terminate_children(w, slot, 0);
  rt_sup *s = &w->sups[slot];
  s->alive = 0;
  s->nchildren = 0;
  jr_exit(w, w->prog->sups[slot].name, RT_SHUTDOWN);
}

/* Starts (or restarts) one entry of the child list (§6.7, §7.3). */
static void start_child(rt_world *w, int32_t slot, size_t index) {
  rt_child c = w->sups[slot].children[index];
  if (c.is_sup) start_supervisor(w, c.ref);
  else start_process(w, c.ref);
  w->sups[slot].children[index].running = 1;
}

/* OTP terminate_children/2 drops temporary children: they are never restarted.
** (The child being restarted is permanent or transient, so it stays.) */
static void remove_temporaries(rt_sup *s, size_t from) {
  size_t kept = from;
  for (size_t i = from; i < s->nchildren; i++)
    if (s->children[i].restart != CR_TEMPORARY) s->children[kept++] = s->children[i];
  s->nchildren = kept;
}

#ifdef CONCORD_FAULT_RESTART_SKIPS_KEPT_TRANSIENTS
/* planted fault (held out 3): one_for_all / rest_for_one start again only the entries
** that were running (and the failed child): a kept transient entry stays not running. */
static int32_t fault_failed_child = -1;
static int fault_was_kept(const int32_t *kept, size_t n, int32_t name) {
  for (size_t k = 0; k < n; k++)
    if (kept[k] == name) return 1;
  return 0;
}
#endif

/* §7.3 one_for_all / rest_for_one: terminate every running entry from `from`
** on (reverse order), drop temporaries, start them all again in start order. */
static void restart_from(rt_world *w, int32_t slot, size_t from) {
#ifdef CONCORD_FAULT_RESTART_SKIPS_KEPT_TRANSIENTS
  size_t nkept = 0;
  int32_t *kept = rt_alloc_array(w, w->sups[slot].nchildren + 1, sizeof *kept);
  for (size_t i = from; i < w->sups[slot].nchildren; i++)
    if (!w->sups[slot].children[i].running && w->sups[slot].children[i].name != fault_failed_child)
      kept[nkept++] = w->sups[slot].children[i].name;
  terminate_children(w, slot, from);
  remove_temporaries(&w->sups[slot], from);
  for (size_t i = from; i < w->sups[slot].nchildren; i++)
    if (!fault_was_kept(kept, nkept, w->sups[slot].children[i].name)) start_child(w, slot, i);
  free(kept);
  return;
#endif
  terminate_children(w, slot, from);
  remove_temporaries(&w->sups[slot], from);
#ifdef CONCORD_FAULT_ONE_FOR_ALL_REVERSE_START /* planted fault: one_for_all starts the children in reverse order */
  if (from == 0) {
    for (size_t i = w->sups[slot].nchildren; i-- > 0;) start_child(w, slot, i);
    return;
  }
#endif
  for (size_t i = from; i < w->sups[slot].nchildren; i++) start_child(w, slot, i);
}

/* §7.4: the supervisor gives up; to its parent it is a child that exited with
** reason shutdown (OTP: {stop, shutdown, State} after reached_max_restart_intensity). */
static void give_up(rt_world *w, int32_t slot, int32_t child) {
  jr_decision(w, slot, child, RT_GIVE_UP);
  terminate_supervisor(w, slot);
#ifdef CONCORD_FAULT_GIVE_UP_NOT_REPORTED /* planted fault (held out): a supervisor that gives up never tells its parent */
  return;
#endif
  int32_t parent = w->prog->sups[slot].parent;
  if (parent >= 0) child_exited(w, parent, w->prog->sups[slot].name, RT_SHUTDOWN);
}

/* §7.3, §7.4: OTP restart/2 = add_restart/1, then restart/3 by strategy. */
static void restart(rt_world *w, int32_t slot, size_t index) {
  rt_sup *s = &w->sups[slot];
  const cr_sup *d = &w->prog->sups[slot];
  int32_t child = s->children[index].name;
  s->restarts++; /* one restart event counts once, however many it restarts [R8] */
  int64_t max_restarts = d->intensity;
#ifdef CONCORD_FAULT_INTENSITY_ONE_LATE /* planted fault: gives up one restart late (when restarts > MaxR + 1) */
  max_restarts++;
#endif
  if (s->restarts > max_restarts) {
    give_up(w, slot, child);
    return;
  }
  jr_decision(w, slot, child, RT_RESTART);
#ifdef CONCORD_FAULT_RESTART_SKIPS_KEPT_TRANSIENTS /* (the same fault: the failed child is started again) */
  fault_failed_child = child;
#endif
  switch (d->strategy) {
    case CR_ONE_FOR_ONE: start_child(w, slot, index); return;      /* [R4] */
    case CR_ONE_FOR_ALL: restart_from(w, slot, 0); return;         /* [R5] */
    case CR_REST_FOR_ONE:
#ifdef CONCORD_FAULT_REST_FOR_ONE_RESTARTS_ALL /* planted fault: rest_for_one restarts the earlier siblings too */
      index = 0;
#endif
      restart_from(w, slot, index); /* [R6] */
      return;
    default: rt_internal(w, "unknown strategy");
  }
}

/* Keep a transient entry, not running (OTP del_child/2 sets pid undefined) [R2];
** remove a temporary one (OTP del_child/2 deletes temporary children) [R3]. */
static void keep_or_remove(rt_world *w, int32_t slot, size_t index) {
  rt_sup *s = &w->sups[slot];
  rt_child *c = &s->children[index];
  if (c->restart == CR_TEMPORARY) {
    jr_decision(w, slot, c->name, RT_REMOVE);
    for (size_t i = index + 1; i < s->nchildren; i++) s->children[i - 1] = s->children[i];
    s->nchildren--;
  } else {
    jr_decision(w, slot, c->name, RT_KEEP);
    c->running = 0;
  }
}

void start_supervisor(rt_world *w, int32_t slot) {
  const cr_sup *d = &w->prog->sups[slot];
  rt_sup *s = &w->sups[slot];
  s->alive = 1;
#ifdef CONCORD_FAULT_RESTARTS_SURVIVE_INCARNATION /* planted fault (held out 2): the count is not reset at a new incarnation */
  if (0)
#endif
    s->restarts = 0;
  s->nchildren = 0; /* a new incarnation: static children only (§7.6) */
  jr_start(w, d->name, -1);
  /* Static children in declaration order, depth first (OTP start_children/2). */
  for (int32_t i = 0; i < d->nchildren; i++) {
    const cr_decl *cd = &d->children[i];
    rt_child e;
    e.name = cd->name;
    e.restart = (uint8_t)cd->restart;
    e.is_sup = cd->is_sup != 0;
    e.running = 0;
    if (!cd->is_sup) {
      e.ref = name_proc(w, cd->name);
      if (e.ref < 0) { /* first start of a declared worker: it takes its id now */
        e.ref = create_process(w, cd->name, cd->kind, 0, cd->nargs, cd->args, slot);
        e.running = 1;
        push_child(w, slot, e);
        continue;
      }
    } else {
      e.ref = cd->sup;
    }
    push_child(w, slot, e);
    start_child(w, slot, w->sups[slot].nchildren - 1);
  }
}

void add_dynamic_child(rt_world *w, int32_t slot, int32_t id, int32_t restart) {
  rt_child e;
  e.name = proc_at(w, id)->name;
  e.ref = id;
  e.restart = (uint8_t)restart;
  e.is_sup = 0;
  e.running = 1;
  push_child(w, slot, e);
}

/* §7.2, OTP do_restart/3, clauses in OTP's order. */
void child_exited(rt_world *w, int32_t slot, int32_t child, int32_t reason) {
  size_t index = 0;
  /* A live child of a live supervisor is always in its list (world.h invariants). */
  if (!find_child(&w->sups[slot], child, &index)) rt_internal(w, "a supervisor lost a child");
  rt_child *c = &w->sups[slot].children[index];
  c->running = 0;
  if (c->restart == CR_PERMANENT) restart(w, slot, index);      /* any reason [R1] */
#ifdef CONCORD_FAULT_TRANSIENT_RESTARTED_ON_NORMAL /* planted fault: a transient child that stops is restarted */
  else if (c->restart == CR_TRANSIENT && reason == RT_NORMAL) restart(w, slot, index);
#endif
  else if (!is_failure(reason)) keep_or_remove(w, slot, index); /* normal, shutdown */
  else if (c->restart == CR_TRANSIENT) restart(w, slot, index);
  else keep_or_remove(w, slot, index);                          /* temporary, failure */
}

void sups_free(rt_world *w) {
  if (w->sups)
    for (int32_t i = 0; i < w->prog->nsups; i++) {
      free(w->sups[i].children);
      free(w->sups[i].pending); /* version 2 */
    }
  free(w->sups);
  w->sups = NULL;
}
