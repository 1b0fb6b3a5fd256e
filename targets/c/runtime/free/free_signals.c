/* targets/c/runtime/free/free_signals.c: links, monitors and signals in a free run
** (SPEC §16, §17.1 steps 2-3, §25.5 G11, G12), version 2.
**
** A signal takes effect when it arrives: its sender applies it under the receiver's
** mailbox lock, by the trap flag the receiver has then [R17/flag_at_arrival]. A
** trapped exit, or a down, becomes a message in the receiver's mailbox, after what
** the same sender put there before (G4). A signal that ends the receiver asks it to
** exit, as a termination does: its own thread ends it at its next effect or at its
** turn's end ([F2]); an idle or waiting receiver is queued, and the thread that
** takes it ends it. A worker's links and the monitors held on it are kept under its
** own mailbox lock; its exit takes them (marked dead, no new ones come) and sends
** their signals with no lock held. */
#include <stdlib.h>
#include <string.h>

#include "free.h"

int32_t fr_code_of(int32_t reason) {
  switch (reason) {
    case CR_R_NORMAL: return CR_R_NORMAL_CODE;
    case CR_R_SHUTDOWN: return CR_R_SHUTDOWN_CODE;
    case CR_R_KILLED: return CR_R_KILLED_CODE;
    case CR_R_NOPROC: return CR_R_NOPROC_CODE;
    default: return reason; /* a code names itself */
  }
}

void fr_ask_exit_locked(fr_proc *p, int who, int32_t reason, fr_thread *th) {
  if (atomic_load_explicit(&p->kill, memory_order_relaxed) != FR_KILL_NONE) return; /* the first asked wins */
  p->kill_reason = reason; /* read by its thread after it loads `kill` (acquire) */
  atomic_store_explicit(&p->kill, who, memory_order_release);
  if (!p->scheduled) fr_schedule_locked(p, th); /* idle, or waiting in a call: a thread takes it to end it */
}

/* exit(from, why) or down(who, why) in q's mailbox (§16.4). */
static void system_message(fr_proc *q, int kind, int32_t sig, fr_proc *from, int64_t n, int32_t reason, fr_thread *th) {
  cr_value args[2] = {from->name, reason};
  fr_msg *m = fr_message(th, from, n, sig, 2, args);
  m->kind = (int16_t)kind;
#ifdef CONCORD_FAULT_FREE_SIGNAL_JUMPS_QUEUE /* planted fault: system messages take a lane of their own, first */
  if (q->head) {
    m->next = q->head;
    q->head = m;
    return;
  }
#endif
  fr_push_locked(q, m, th);
}

/* §16.3, one clause per kind; 1 when q was asked to exit while blocked (it may be
** waiting for the supervision lock: the caller wakes it). */
static int apply_locked(fr_proc *q, int kind, fr_proc *from, int64_t n, int32_t reason, fr_thread *th) {
  const cr_program *prog = fr_w.prog;
  int32_t exit_with;
  switch (kind) {
    case FR_SIG_LINK:
      if (q->trap) { /* the message, for every reason, normal included [R17] */
        system_message(q, FR_M_LINK, prog->exit_sig, from, 0, reason, th);
        return 0;
      }
      if (reason == CR_R_NORMAL) return 0; /* ignored [R16] */
      exit_with = reason;                  /* any other reason spreads [R16] */
      break;
    case FR_SIG_EXIT:
      if (reason == FR_KILL_REASON) { /* untrappable, seen as killed [R18] */
        exit_with = CR_R_KILLED;
        break;
      }
      if (q->trap) { /* [R19] */
        system_message(q, FR_M_EXIT, prog->exit_sig, from, n, reason, th);
        return 0;
      }
      if (reason == CR_R_NORMAL) return 0;
      exit_with = reason;
      break;
    case FR_SIG_DOWN: /* a message, trapping or not [R24] */
      system_message(q, FR_M_DOWN, prog->down_sig, from, n, reason, th);
      return 0;
    default: /* FR_SIG_CALL: its callee exited before replying: it fails with code(R) (§18.2) [R30] */
      if (!q->wait || q->wait->callee != from || q->wait->replied) return 0;
      exit_with = fr_code_of(reason);
      break;
  }
  fr_ask_exit_locked(q, FR_KILL_SIGNAL, exit_with, th);
  return q->blocked;
}

static void wake_blocked(void) {
  pthread_mutex_lock(&fr_w.g_mx);
  pthread_cond_broadcast(&fr_w.g_cv);
  pthread_mutex_unlock(&fr_w.g_mx);
}

void fr_signal(fr_proc *q, int kind, fr_proc *from, int64_t n, int32_t reason, fr_thread *th) {
  fr_lock_take(&q->mx);
  int wake = q->dead ? 0 : apply_locked(q, kind, from, n, reason, th); /* a signal for one that exited: discarded */
  fr_unlock(&q->mx);
  if (wake) wake_blocked();
}

/* --- links (§16.1, §16.2) --------------------------------------------------------- */

static void push_link(fr_proc *p, fr_proc *q) {
  p->links = fr_room(p->links, p->nlinks, &p->links_cap, sizeof *p->links);
  p->links[p->nlinks++] = q;
}

/* 1 when p was linked to q. */
static int drop_link(fr_proc *p, const fr_proc *q) {
  for (uint32_t i = 0; i < p->nlinks; i++)
    if (p->links[i] == q) {
      p->links[i] = p->links[--p->nlinks]; /* a set */
      return 1;
    }
  return 0;
}

/* Two mailbox locks at once, only here: in address order. */
static void lock_two(fr_proc *a, fr_proc *b) {
  fr_lock_take(a < b ? &a->mx : &b->mx);
  fr_lock_take(a < b ? &b->mx : &a->mx);
}

static void unlock_two(fr_proc *a, fr_proc *b) {
  fr_unlock(&a->mx);
  fr_unlock(&b->mx);
}

int fr_link(fr_proc *p, fr_proc *q) {
  lock_two(p, q);
  int live = !q->dead;
  if (live) {
    int already = 0; /* at most one per pair [R20/once] */
    for (uint32_t i = 0; i < p->nlinks && !already; i++) already = p->links[i] == q;
    if (!already) {
      push_link(p, q);
      push_link(q, p);
    }
  }
  unlock_two(p, q);
  return live;
}

void fr_unlink(fr_proc *p, fr_proc *q) { /* either side removes it [R21/other_side] */
  lock_two(p, q);
  drop_link(p, q);
  drop_link(q, p);
  unlock_two(p, q);
}

/* --- monitors (§16.1, §16.2, §18.1) ------------------------------------------------ */

int fr_monitor(fr_proc *p, fr_proc *q, int64_t number, int call) {
  fr_lock_take(&q->mx);
  int live = !q->dead;
  if (live) {
    q->watched = fr_room(q->watched, q->nwatched, &q->watched_cap, sizeof *q->watched);
    q->watched[q->nwatched++] = (fr_watch){p, number, call};
  }
  fr_unlock(&q->mx);
  return live;
}

/* The oldest of p's monitors of that kind on q, if any: all are alike [R26]. A
** holder's monitors are not taken back when it exits: their downs are then
** discarded, as signals for an incarnation that has exited are. */
void fr_demonitor(fr_proc *p, fr_proc *q, int call) {
  fr_lock_take(&q->mx);
  for (uint32_t i = 0; i < q->nwatched; i++)
    if (q->watched[i].holder == p && (q->watched[i].call != 0) == (call != 0)) {
      memmove(q->watched + i, q->watched + i + 1, (q->nwatched - i - 1) * sizeof *q->watched);
      q->nwatched--;
      break;
    }
  fr_unlock(&q->mx);
}

/* --- an exit's signals (§17.1 steps 2-3) ------------------------------------------------ */

fr_bonds fr_take_bonds_locked(fr_proc *p) {
  fr_bonds b = {p->links, p->nlinks, p->watched, p->nwatched};
  p->links = NULL;
  p->nlinks = p->links_cap = 0;
  p->watched = NULL;
  p->nwatched = p->watched_cap = 0;
  return b;
}

/* A link signal to every worker still linked to p (in any order: §25.7 [F6]); a
** partner that unlinked meanwhile gets none. Then a down or call signal per monitor
** held on p, in the order they were made. */
void fr_exit_signals(fr_proc *p, fr_bonds b) {
  for (uint32_t i = 0; i < b.nlinks; i++) {
    fr_proc *q = b.links[i];
    fr_lock_take(&q->mx);
    int wake = drop_link(q, p) && !q->dead ? apply_locked(q, FR_SIG_LINK, p, 0, p->exit_reason, NULL) : 0;
    fr_unlock(&q->mx);
    if (wake) wake_blocked();
  }
  free(b.links);
  for (uint32_t i = 0; i < b.nwatched; i++) {
    fr_watch w = b.watched[i];
    fr_signal(w.holder, w.call ? FR_SIG_CALL : FR_SIG_DOWN, p, w.number, p->exit_reason, NULL);
  }
  free(b.watched);
}
