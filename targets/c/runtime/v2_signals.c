/* targets/c/runtime/v2_signals.c: links, monitors and exit signals (SPEC §16) and
** the settling loop that applies queued signals and lets supervisors react, in
** §17.2's order. A version 1 program never comes here. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

static void push_link(rt_world *w, rt_pext *x, int32_t other) {
  if (x->nlinks == x->links_cap) {
    uint32_t cap = x->links_cap ? x->links_cap * 2 : 4;
    x->links = rt_realloc_array(w, x->links, cap, sizeof *x->links);
    x->links_cap = cap;
  }
  x->links[x->nlinks++] = other;
}

static void drop_link(rt_pext *x, int32_t other) {
  for (uint32_t i = 0; i < x->nlinks; i++)
    if (x->links[i] == other) {
      x->links[i] = x->links[--x->nlinks]; /* a set: order is restored by the exit's sort */
      return;
    }
}

/* §16.1: symmetric, at most one per pair [R20/once]. */
void link_pair(rt_world *w, int32_t a, int32_t b) {
  rt_pext *x = ext_at(w, a);
  for (uint32_t i = 0; i < x->nlinks; i++)
    if (x->links[i] == b) return;
  push_link(w, x, b);
  push_link(w, ext_at(w, b), a);
}

/* §16.2: either side removes it [R21/other_side]; nothing if there is none. */
void unlink_pair(rt_world *w, int32_t a, int32_t b) {
  drop_link(ext_at(w, a), b);
#ifdef CONCORD_FAULT_UNLINK_ONE_SIDE /* planted fault (held out 2): unlink removes the link on the unlinker's side only */
  return;
#endif
  drop_link(ext_at(w, b), a);
}

static void mons_push(rt_world *w, rt_mons *m, rt_mon v) {
  if (m->n == m->cap) {
    uint32_t cap = m->cap ? m->cap * 2 : 4;
    m->v = rt_realloc_array(w, m->v, cap, sizeof *m->v);
    m->cap = cap;
  }
  m->v[m->n++] = v;
}

/* Removes the monitor numbered `number`, keeping creation order. */
void mons_erase_number(rt_mons *m, int64_t number) {
  for (uint32_t i = 0; i < m->n; i++)
    if (m->v[i].number == number) {
      memmove(m->v + i, m->v + i + 1, (m->n - i - 1) * sizeof *m->v);
      m->n--;
      return;
    }
}

/* §16.1: one more monitor, numbered (monitoring twice holds two [R25/twice]). */
void add_monitor(rt_world *w, int32_t holder, int32_t target, int call) {
  rt_mon m;
  m.number = ++w->monitors_made;
  m.call = call;
  m.other = target;
  mons_push(w, &ext_at(w, holder)->held, m);
  m.other = holder;
  mons_push(w, &ext_at(w, target)->watched, m);
}

/* §16.2 demonitor: the oldest of the holder's monitors of that kind on the target
** (all are alike), if any; §18.1: the call monitor, at the reply. */
void remove_monitor(rt_world *w, int32_t holder, int32_t target, int call) {
  rt_mons *held = &ext_at(w, holder)->held;
  for (uint32_t i = 0; i < held->n; i++)
    if (held->v[i].other == target && (held->v[i].call != 0) == (call != 0)) {
      int64_t n = held->v[i].number;
      mons_erase_number(held, n);
      mons_erase_number(&ext_at(w, target)->watched, n);
      return;
    }
}

/* --- the signal queue (§17.1 step 3), a ring ------------------------------------------ */

void queue_signal(rt_world *w, int kind, int32_t from, int32_t to, int32_t reason) {
  if (w->sigq_len == w->sigq_cap) {
    size_t cap = w->sigq_cap ? w->sigq_cap * 2 : 16;
    rt_signal *q = rt_alloc_array(w, cap, sizeof *q);
    for (size_t i = 0; i < w->sigq_len; i++) q[i] = w->sigq[(w->sigq_head + i) % w->sigq_cap];
    free(w->sigq);
    w->sigq = q;
    w->sigq_cap = cap;
    w->sigq_head = 0;
  }
  rt_signal *s = &w->sigq[(w->sigq_head + w->sigq_len) % w->sigq_cap];
  s->kind = kind;
  s->from = from;
  s->to = to;
  s->to_inc = ext_at(w, to)->inc;
  s->reason = reason;
  w->sigq_len++;
}

/* §15 code(R): the failure code that names a reason. */
static int32_t code_of(int32_t reason) {
  switch (reason) {
    case RT_NORMAL: return RT_NORMAL_CODE;
    case RT_SHUTDOWN: return RT_SHUTDOWN_CODE;
    case RT_KILLED: return RT_KILLED_CODE;
    case RT_NOPROC_REASON: return RT_NOPROC;
    default: return reason; /* a code names itself */
  }
}

/* §16.3, one clause per kind of signal. A signal for a process that has exited
** since (or for an older incarnation of its name) is discarded without an event. */
static void apply_signal(rt_world *w, rt_signal s) {
  rt_proc *y = proc_at(w, s.to);
  rt_pext *x = ext_at(w, s.to);
  if (!y->alive || x->inc != s.to_inc) return;
  switch (s.kind) {
    case SIG_LINK:
#ifdef CONCORD_FAULT_TRAP_IGNORES_NORMAL_LINK /* planted fault (measurement only): a trapping worker ignores normal */
      if (x->trap && s.reason == RT_NORMAL) {
        jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_IGNORE);
        return;
      }
#endif
#ifdef CONCORD_FAULT_KILLED_LINK_UNTRAPPABLE /* planted fault (held out): a link signal killed is untrappable, as kill */
      if (x->trap && s.reason == RT_KILLED) {
        jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_EXIT);
        exit_worker(w, s.to, RT_KILLED, CAUSE_OWN);
        return;
      }
#endif
      if (x->trap) { /* the message, for every reason, normal included [R17] */
        jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_MESSAGE);
        system_message(w, s.to, w->prog->exit_sig, s.from, s.reason);
      } else if (s.reason == RT_NORMAL) { /* ignored [R16] */
#ifdef CONCORD_FAULT_NORMAL_EXIT_SPREADS /* planted fault: a normal exit kills a linked process that does not trap */
        jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_EXIT);
        exit_worker(w, s.to, s.reason, CAUSE_OWN);
        return;
#endif
        jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_IGNORE);
      } else { /* any other reason, shutdown included, spreads [R16] */
        jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_EXIT);
        exit_worker(w, s.to, s.reason, CAUSE_OWN);
      }
      return;
    case SIG_EXIT:
      if (s.reason == RT_KILL) { /* untrappable, seen as killed [R18] */
        jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_EXIT);
        exit_worker(w, s.to, RT_KILLED, CAUSE_OWN);
      } else if (x->trap) { /* [R19]; from itself it never queues (cr_exit) */
        jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_MESSAGE);
        system_message(w, s.to, w->prog->exit_sig, s.from, s.reason);
      } else if (s.reason == RT_NORMAL) {
#ifdef CONCORD_FAULT_EXIT_NORMAL_KILLS_OTHERS /* planted fault (held out 2): exit(e, normal) ends a non-trapping e */
        jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_EXIT);
        exit_worker(w, s.to, s.reason, CAUSE_OWN);
        return;
#endif
        jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_IGNORE);
      } else {
        jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_EXIT);
        exit_worker(w, s.to, s.reason, CAUSE_OWN);
      }
      return;
    case SIG_DOWN: /* a message, trapping or not; never an exit [R24, R25] */
      jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_MESSAGE);
      system_message(w, s.to, w->prog->down_sig, s.from, s.reason);
      return;
    default: /* SIG_CALL: the callee exited before replying: the caller fails with code(R) (§18.2) [R30] */
      jr_signal(w, s.kind, s.from, y->name, s.reason, EFF_EXIT);
#ifdef CONCORD_FAULT_FAILED_CALL_KEEPS_REASON /* planted fault: a failed call exits the caller with R, not code(R) */
      exit_worker(w, s.to, s.reason, CAUSE_OWN);
      return;
#endif
      exit_worker(w, s.to, code_of(s.reason), CAUSE_OWN);
      return;
  }
}

/* §17.2: repeat until neither applies: (1) the first queued signal takes effect;
** (2) otherwise the supervisor last in pre-order among those with pending items
** handles all of them, its own retries included, so that a supervisor reacts only
** after its descendants. Signals its reaction causes wait until it is done. */
void settle(rt_world *w) {
  for (;;) {
    if (w->sigq_len) {
      rt_signal s = w->sigq[w->sigq_head];
      w->sigq_head = (w->sigq_head + 1) % w->sigq_cap;
      w->sigq_len--;
      apply_signal(w, s);
      continue;
    }
    if (w->pending_items == 0) return;
    int32_t slot = w->prog->nsups;
    while (slot-- > 0 && !w->sups[slot].npending) continue;
    if (slot < 0) rt_internal(w, "pending items that no supervisor holds");
    handle_pending(w, slot);
  }
}
