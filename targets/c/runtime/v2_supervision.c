/* targets/c/runtime/v2_supervision.c: OTP supervision for a version 2 program (SPEC
** §7 with §17.3 pending items, §19 starts that fail, §20 the API, §21 significant
** children), shaped like OTP 25's supervisor.erl as supervision.c is: do_restart/3,
** restart/3 by strategy, add_restart/1, terminate_children/2 and shutdown/1, failed
** restarts retried through try_again_restart/1, do_auto_shutdown/2, handle_call/3.
** Version 1 programs keep supervision.c, where a supervisor reacts at the exit
** itself (§17.5 says the two agree on them). Child entries are addressed by index. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

static int abnormal(int32_t reason) { return reason != RT_NORMAL && reason != RT_SHUTDOWN; } /* §15 */

static int find_child(const rt_sup *s, int32_t name, size_t *index) {
  for (size_t i = 0; i < s->nchildren; i++)
    if (s->children[i].name == name) {
      *index = i;
      return 1;
    }
  return 0;
}

static void push_child(rt_world *w, int32_t slot, rt_child e) {
  rt_sup *s = &w->sups[slot];
  if (s->nchildren == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 4;
    s->children = rt_realloc_array(w, s->children, cap, sizeof *s->children);
    s->cap = cap;
  }
  s->children[s->nchildren++] = e;
}

static void erase_child(rt_sup *s, size_t index) {
  memmove(s->children + index, s->children + index + 1, (s->nchildren - index - 1) * sizeof *s->children);
  s->nchildren--;
}

/* --- pending items (§17.3): [pending_head, pending_head + npending) in order ---------- */

static void push_pending(rt_world *w, int32_t slot, int32_t child, int32_t reason) {
  rt_sup *s = &w->sups[slot];
  if (s->pending_head + s->npending == s->pending_cap) {
    if (s->pending_head) { /* slide down: room was freed at the front */
      memmove(s->pending, s->pending + s->pending_head, s->npending * sizeof *s->pending);
      s->pending_head = 0;
    } else {
      size_t cap = s->pending_cap ? s->pending_cap * 2 : 4;
      s->pending = rt_realloc_array(w, s->pending, cap, sizeof *s->pending);
      s->pending_cap = cap;
    }
  }
  s->pending[s->pending_head + s->npending].child = child;
  s->pending[s->pending_head + s->npending].reason = reason;
  s->npending++;
  w->pending_items++;
}

void add_pending_exit(rt_world *w, int32_t slot, int32_t child, int32_t reason) {
  push_pending(w, slot, child, reason);
}

static void clear_pending(rt_world *w, rt_sup *s) {
  w->pending_items -= (int64_t)s->npending;
  s->npending = s->pending_head = 0;
}

/* §17.3: a child whose own exit is still pending is terminated by a reaction of its
** supervisor: its exit is consumed, unhandled (OTP: shutdown/1 L939, then
** unlink_flush/2 L971 takes the dead child's 'EXIT') [R23/sibling_one_for_all]. */
static void consume_pending_exit(rt_world *w, int32_t slot, int32_t child) {
  rt_sup *s = &w->sups[slot];
  rt_pending *q = s->pending + s->pending_head;
  for (size_t i = 0; i < s->npending; i++)
    if (q[i].reason != RT_NONE && q[i].child == child) {
      memmove(q + i, q + i + 1, (s->npending - i - 1) * sizeof *q);
      s->npending--;
      w->pending_items--;
      return;
    }
}

/* --- terminations (§7.5, §16.6) ---------------------------------------------------------- */

static void terminate_supervisor2(rt_world *w, int32_t slot);

/* OTP do_terminate/2 and shutdown/1: a running child ends with shutdown, the
** supervisor's own doing (no reaction, nothing counted [R12]). A child that is not
** running (undefined, or restarting) is left alone. A worker that traps exits and
** is blocked cannot take its parent's exit signal and is killed when the shutdown
** time runs out [R50]. */
static void do_terminate(rt_world *w, int32_t slot, size_t index) {
  rt_child *c = &w->sups[slot].children[index];
  c->restarting = 0;
  if (!c->running) return;
  c->running = 0;
  if (c->is_sup) {
    if (w->sups[c->ref].alive)
      terminate_supervisor2(w, c->ref); /* its subtree first [R11] */
    else
      consume_pending_exit(w, slot, c->name); /* it shut itself down meanwhile */
    return;
  }
  if (!proc_at(w, c->ref)->alive) {
    consume_pending_exit(w, slot, c->name);
    return;
  }
  const rt_pext *x = ext_at(w, c->ref);
  int killed = x->trap && (x->blocked || x->wait);
  exit_worker(w, c->ref, killed ? RT_KILLED : RT_SHUTDOWN, CAUSE_BY_SUPERVISOR);
}

/* OTP terminate_children/2: the entries from `from` on, in reverse start order. */
static void terminate_children(rt_world *w, int32_t slot, size_t from) {
  for (size_t i = w->sups[slot].nchildren; i-- > from;) do_terminate(w, slot, i);
}

/* §7.5 for a supervisor: its children first, then itself; its dynamic children
** and pending items go with this incarnation (§17.1). */
static void terminate_supervisor2(rt_world *w, int32_t slot) {
  terminate_children(w, slot, 0);
  rt_sup *s = &w->sups[slot];
  s->alive = 0;
  s->nchildren = 0;
  clear_pending(w, s);
  jr_exit(w, w->prog->sups[slot].name, RT_SHUTDOWN);
}

/* --- starts (§6.7, §19) -------------------------------------------------------------------- */

/* Starts (or restarts) one entry in place. */
static int start_entry(rt_world *w, int32_t slot, size_t index) {
  rt_child c = w->sups[slot].children[index];
  int r = c.is_sup ? start_supervisor2(w, c.ref) : start_worker2(w, c.ref);
  w->sups[slot].children[index].running = r == STARTED_OK;
  return r;
}

/* OTP terminate_children/2 drops temporary children: they are never restarted. */
static void remove_temporaries(rt_sup *s, size_t from) {
  size_t kept = from;
  for (size_t i = from; i < s->nchildren; i++)
    if (s->children[i].restart != CR_TEMPORARY) s->children[kept++] = s->children[i];
  s->nchildren = kept;
}

/* §19.3, OTP try_again_restart/1 L876: a failed restart is tried again later, as a
** message the supervisor sends itself, after what it has pending already. */
static void restart_failed(rt_world *w, int32_t slot, size_t index) {
  w->sups[slot].children[index].restarting = 1;
  push_pending(w, slot, w->sups[slot].children[index].name, RT_NONE);
}

/* §7.3 one_for_all / rest_for_one (restart_multiple_children/3 L858): terminate
** from `from` on, drop temporaries, start them all again in order. A start that
** fails ends the pass (the later entries stay not running, the failed one is
** restarting) [R36]; an ignored one stays not running and the pass goes on [R37]. */
static void restart_multiple(rt_world *w, int32_t slot, size_t from) {
  terminate_children(w, slot, from);
  remove_temporaries(&w->sups[slot], from);
  for (size_t i = from; i < w->sups[slot].nchildren; i++)
    if (start_entry(w, slot, i) == STARTED_FAILED) {
      restart_failed(w, slot, i);
      return;
    }
}

/* The supervisor gives up (§7.4) or shuts itself down (§21): the decision for the
** child that caused it, its running children terminated, and it exits with
** shutdown: to its own supervisor, a child that exited by itself. */
static void shut_down(rt_world *w, int32_t slot, int32_t child, int action) {
  jr_decision(w, slot, child, action);
  terminate_supervisor2(w, slot);
  int32_t parent = w->prog->sups[slot].parent;
  if (parent >= 0 && w->sups[parent].alive) push_pending(w, parent, w->prog->sups[slot].name, RT_SHUTDOWN);
}

/* §7.3, §7.4: OTP restart/2 L789 = add_restart/1, then restart/3 by strategy. */
static void restart2(rt_world *w, int32_t slot, size_t index) {
  rt_sup *s = &w->sups[slot];
  const cr_sup *d = &w->prog->sups[slot];
  int32_t child = s->children[index].name;
  s->restarts++; /* one restart counts once [R8]; a retry counts too [R35] */
  if (s->restarts > d->intensity) {
    shut_down(w, slot, child, RT_GIVE_UP); /* [R7] */
    return;
  }
  jr_decision(w, slot, child, RT_RESTART);
  switch (d->strategy) {
    case CR_ONE_FOR_ONE: /* L835 [R4] */
      s->children[index].restarting = 0;
      if (start_entry(w, slot, index) == STARTED_FAILED) restart_failed(w, slot, index); /* [R35] */
      return;
    case CR_ONE_FOR_ALL: /* L853 [R5] */
      s->children[index].running = 0;
      restart_multiple(w, slot, 0);
      return;
    case CR_REST_FOR_ONE: /* L849 [R6] */ restart_multiple(w, slot, index); return;
    default: rt_internal(w, "unknown strategy");
  }
}

/* OTP do_auto_shutdown/2 L755 after del_child/2 L1125: a significant child that is
** not restarted shuts its supervisor down, under any_significant always [R46],
** under all_significant when no other significant child runs (a restarting one
** counts as running) [R47]; otherwise the entry is kept not running [R2] or,
** temporary, removed [R3]. Nothing is counted toward intensity. */
static void del_child2(rt_world *w, int32_t slot, size_t index) {
  rt_sup *s = &w->sups[slot];
  rt_child c = s->children[index];
  if (c.restart == CR_TEMPORARY)
    erase_child(s, index);
  else
    s->children[index].running = 0;
  int shut = 0;
  if (c.significant) switch (w->prog->sups[slot].auto_shutdown) {
      case CR_ANY_SIGNIFICANT: shut = 1; break;
      case CR_ALL_SIGNIFICANT:
        shut = 1;
#ifdef CONCORD_FAULT_ALL_SIGNIFICANT_AS_ANY /* planted fault: all_significant shuts down at the first significant exit */
        break;
#endif
        for (size_t i = 0; i < s->nchildren; i++)
          if (s->children[i].significant && (s->children[i].running || s->children[i].restarting)) shut = 0;
        break;
      default: break;
    }
  if (shut)
    shut_down(w, slot, c.name, RT_AUTO_SHUTDOWN);
  else
    jr_decision(w, slot, c.name, c.restart == CR_TEMPORARY ? RT_REMOVE : RT_KEEP);
}

/* §7.2, OTP do_restart/3 L735-L750, clauses in OTP's order. */
static void do_restart2(rt_world *w, int32_t slot, size_t index, int32_t reason) {
  rt_child *c = &w->sups[slot].children[index];
  c->running = 0;
  if (c->restart == CR_PERMANENT)
    restart2(w, slot, index); /* any reason [R1] */
  else if (!abnormal(reason))
    del_child2(w, slot, index); /* normal, shutdown */
  else if (c->restart == CR_TRANSIENT)
    restart2(w, slot, index); /* abnormal [R2] */
  else
    del_child2(w, slot, index); /* temporary, abnormal [R3] */
}

/* §17.3: the pending items in the order they came, its own retries included, until
** none is left or the supervisor has exited (which drops the rest). An exit of a
** child no longer in the list (or not running) is dropped; a retry is a restart
** like any other if the child is still restarting [R35, R36]. */
void handle_pending(rt_world *w, int32_t slot) {
  rt_sup *s = &w->sups[slot];
  while (s->alive && s->npending) {
    rt_pending item = s->pending[s->pending_head];
    s->pending_head++;
    s->npending--;
    if (!s->npending) s->pending_head = 0;
    w->pending_items--;
    size_t index = 0;
    if (!find_child(s, item.child, &index)) continue;
    if (item.reason == RT_NONE) {
      if (s->children[index].restarting) restart2(w, slot, index);
    } else if (s->children[index].running) {
      do_restart2(w, slot, index, item.reason);
    }
  }
}

/* §6.7, §19.2; OTP init/1 -> init_children/2 L346 -> start_children/2 L381: static
** children in order, depth first; an ignored one stays not running (a temporary
** one is not kept) [R34/ignore]; when one fails, the later ones are not started,
** those started are terminated in reverse order and the supervisor exits with
** shutdown: its start failed [R34/stop, R34/nested]. */
int start_supervisor2(rt_world *w, int32_t slot) {
  const cr_sup *d = &w->prog->sups[slot];
  rt_sup *s = &w->sups[slot];
  s->alive = 1;
  s->restarts = 0;
  s->nchildren = 0; /* a new incarnation: static children only (§7.6) */
  clear_pending(w, s);
  jr_start(w, d->name, -1);
  for (int32_t i = 0; i < d->nchildren; i++) {
    const cr_decl *cd = &d->children[i];
    rt_child e;
    memset(&e, 0, sizeof e);
    e.name = cd->name;
    e.restart = (uint8_t)cd->restart;
    e.is_sup = cd->is_sup != 0;
    e.significant = cd->significant != 0;
    if (cd->is_sup) {
      e.ref = cd->sup;
    } else {
      e.ref = name_proc(w, cd->name);
      if (e.ref < 0) e.ref = new_process(w, cd->name, cd->kind, 0, cd->nargs, cd->args, slot); /* it takes its id now */
    }
    push_child(w, slot, e);
    int r = start_entry(w, slot, w->sups[slot].nchildren - 1);
    if (r == STARTED_IGNORED && e.restart == CR_TEMPORARY) w->sups[slot].nchildren--;
    if (r == STARTED_FAILED) {
      terminate_supervisor2(w, slot);
      return STARTED_FAILED;
    }
  }
  return STARTED_OK;
}

/* §7.6, §19.4; OTP handle_start_child/2 L703: a failed start adds nothing; an
** ignored one is kept not running, unless temporary [R38]. */
void add_dynamic_child2(rt_world *w, int32_t slot, int32_t id, int32_t restart, int32_t significant, int how) {
  if (how == STARTED_FAILED || (how == STARTED_IGNORED && restart == CR_TEMPORARY)) return;
  rt_child e;
  memset(&e, 0, sizeof e);
  e.name = proc_at(w, id)->name;
  e.ref = id;
  e.restart = (uint8_t)restart;
  e.running = how == STARTED_OK;
  e.significant = significant != 0;
  push_child(w, slot, e);
}

/* §20, OTP handle_call/3 for terminate_child L466, restart_child L479, delete_child
** L504. Nothing is counted or decided, no auto_shutdown follows [R40, R41, R42,
** R48/terminate_child]. `restarting` (3) cannot be answered: nothing is pending at
** a supervisor when a statement runs (§17.2) [R43]. Results: 0 ok, 1 not_found,
** 2 running, 3 restarting, 4 ignored, 5 failed. */
int api_request(rt_world *w, int32_t slot, int op, int32_t child) {
  size_t index = 0;
  if (!find_child(&w->sups[slot], child, &index)) return 1;
  rt_child *c = &w->sups[slot].children[index];
  switch (op) {
    case CR_TERMINATE_CHILD:
#ifdef CONCORD_FAULT_TERMINATE_CHILD_SHUTS_DOWN /* planted fault (held out): terminating a significant child is its exit */
      if (c->significant && c->running) {
        do_terminate(w, slot, index);
        del_child2(w, slot, index); /* as if it had exited by itself: keep/remove, or auto_shutdown (§21) */
        return 0;
      }
#endif
      do_terminate(w, slot, index); /* a child supervisor with its subtree [R11] */
#ifdef CONCORD_FAULT_TERMINATE_CHILD_KEEPS_TEMPORARY /* planted fault: terminate_child keeps a temporary child's entry */
      return 0;
#endif
      if (w->sups[slot].children[index].restart == CR_TEMPORARY) erase_child(&w->sups[slot], index);
      return 0;
    case CR_RESTART_CHILD:
      if (c->running) return 2;
      if (c->restarting) return 3;
      switch (start_entry(w, slot, index)) { /* in place, not counted, not retried [R39, R41] */
        case STARTED_OK: return 0;
        case STARTED_IGNORED: return 4;
        default: return 5;
      }
    default: /* CR_DELETE_CHILD */
      if (c->running) return 2;
      if (c->restarting) return 3;
      erase_child(&w->sups[slot], index); /* [R42] */
      return 0;
  }
}
