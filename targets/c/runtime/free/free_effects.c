/* targets/c/runtime/free/free_effects.c: version 2's statements in a free run, as
** emitted code calls them (concord_rt.h): links, monitors, trap_exit and exit
** signals (§16.2, §16.3), call and reply (§18.1), the supervisor API (§20). Each is
** one effect, numbered (§25.2), recorded with the incarnation it found (§25.6).
** Send, spawn, stop and ignore are in free_procs.c with version 1's. */
#include <stdlib.h>
#include <string.h>

#include "free.h"

static fr_proc *live(cr_value name) {
  return atomic_load_explicit(&fr_name_at((int32_t)name)->live, memory_order_acquire);
}

/* A system message to the running worker itself: down(e, noproc) or exit(e, noproc)
** for its own link or monitor that found no live process (n), or exit(self, R). */
static void own_message(fr_act *a, int kind, int32_t sig, cr_value name, int64_t n, int32_t reason) {
  cr_value args[2] = {name, reason};
  fr_msg *m = fr_message(a->th, kind == FR_M_NOPROC ? NULL : a->p, n, sig, 2, args);
  m->kind = (int16_t)kind;
  fr_lock_take(&a->p->mx);
  fr_push_locked(a->p, m, a->th);
  fr_unlock(&a->p->mx);
}

/* §16.2: itself: nothing [R20/self]; a live worker: linked; none live: the message
** exit(e, noproc) if it traps, else it fails with NOPROC [R20]. */
void cr_link(cr_ctx *c, cr_value to) {
  fr_act *a = fr_effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  if (to == c->self) {
    ev_on_name(p, EV_LINK, n, (int32_t)to, p);
    return;
  }
  fr_proc *q = live(to);
  if (q && fr_link(p, q)) {
    ev_on_name(p, EV_LINK, n, (int32_t)to, q);
    return;
  }
  ev_on_name(p, EV_LINK, n, (int32_t)to, NULL);
  if (!p->trap) fr_end_turn(a, CR_R_NOPROC_CODE, 0);
  own_message(a, FR_M_NOPROC, fr_w.prog->exit_sig, to, n, CR_R_NOPROC);
}

/* §16.2: a message a link already queued stays [R21/after_queued]. */
void cr_unlink(cr_ctx *c, cr_value to) {
  fr_act *a = fr_effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  fr_proc *q = live(to);
  if (q && q != p) fr_unlink(p, q);
  ev_on_name(p, EV_UNLINK, n, (int32_t)to, q);
}

/* §16.2: itself: nothing, such a monitor never fires [R25/self]; none live: the
** message down(e, noproc) [R25/dead, R25/unknown]. */
void cr_monitor(cr_ctx *c, cr_value to) {
  fr_act *a = fr_effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  if (to == c->self) {
    ev_on_name(p, EV_MONITOR, n, (int32_t)to, p);
    return;
  }
  fr_proc *q = live(to);
  if (q && fr_monitor(p, q, n, 0)) {
    ev_on_name(p, EV_MONITOR, n, (int32_t)to, q);
    return;
  }
  ev_on_name(p, EV_MONITOR, n, (int32_t)to, NULL);
  own_message(a, FR_M_NOPROC, fr_w.prog->down_sig, to, n, CR_R_NOPROC);
}

/* §16.2: one monitor of the pair goes; a down already queued stays [R26]. */
void cr_demonitor(cr_ctx *c, cr_value to) {
  fr_act *a = fr_effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  fr_proc *q = live(to);
  if (q && q != p) fr_demonitor(p, q, 0);
  ev_on_name(p, EV_DEMONITOR, n, (int32_t)to, q);
}

/* §16.2: the flag counts when a signal arrives [R17/flag_at_arrival]: under the
** mailbox lock the signals' senders take. Not an effect (§25.2). */
void cr_trap_exit(cr_ctx *c, cr_value on) {
  fr_act *a = c->rt;
  fr_lock_take(&a->p->mx);
  a->p->trap = on != 0;
  fr_unlock(&a->p->mx);
}

/* §16.3, the exit signal whose receiver is its sender: it takes effect at once. */
static void exit_self(fr_act *a, int32_t reason, int64_t n) {
  fr_proc *p = a->p;
  if (reason == FR_KILL_REASON) fr_end_turn(a, CR_R_KILLED, 0); /* untrappable [R18] */
  if (!p->trap) fr_end_turn(a, reason, 0);                      /* normal too [R19/self_non_trapping_normal] */
  if (p->sup)                                                   /* the message [R19/self_supervised_trapping_*] */
    own_message(a, FR_M_EXIT, fr_w.prog->exit_sig, p->name, n, reason);
  else if (a->self_exit == FR_NO_REASON) /* unsupervised: it exits when its handler ends [R19/self_trapping_*] */
    a->self_exit = reason;               /* (the first: gen_server stops at its parent's first 'EXIT') */
}

/* §16.2: none live: nothing [R19/dead_target]; itself: at once; otherwise the
** signal goes, and takes effect as it arrives (free_signals.c). */
void cr_exit(cr_ctx *c, cr_value to, cr_value reason, int32_t kill) {
  fr_act *a = fr_effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  int32_t r = kill ? FR_KILL_REASON : (int32_t)reason;
  if (to == c->self) {
    ev_on_name(p, EV_EXIT_SIGNAL, n, (int32_t)to, p); /* first: it may end here */
    exit_self(a, r, n);
    return;
  }
  fr_proc *q = live(to);
  if (q) fr_signal(q, FR_SIG_EXIT, p, n, r, a->th);
  ev_on_name(p, EV_EXIT_SIGNAL, n, (int32_t)to, q);
}

/* §18.1: itself: CALLING_SELF [R31/self]; none live: NOPROC [R31/dead]; otherwise
** the caller's continuation is kept, it monitors the callee (so that the callee's
** exit before a reply fails it, §18.2), the call message goes, and the handler
** returns: the worker waits, unscheduled, until the reply or that exit comes. */
int cr_call(cr_ctx *c, cr_value to, int32_t sig, int32_t nargs, const cr_value *args, int32_t bind, int32_t point) {
  fr_act *a = fr_effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  if (to == c->self) {
    ev_on_name(p, EV_CALL, n, (int32_t)to, p);
    fr_end_turn(a, CR_R_CALLING_SELF, 0);
  }
  fr_proc *q = live(to);
  if (q) {
    fr_wait *wt = fr_calloc(1, sizeof *wt);
    wt->callee = q;
    wt->bind = bind;
    wt->point = point;
    wt->sig = a->sig;
    wt->self_exit = a->self_exit;
    wt->serving = a->serving;
    int32_t own_args = fr_w.prog->sigs[a->sig].nargs;
    if (own_args) memcpy(wt->args, c->args, sizeof(cr_value) * (size_t)own_args);
    memcpy(wt->loops, a->loops, sizeof wt->loops);
    fr_lock_take(&p->mx); /* waiting before the callee can answer */
    p->wait = wt;
    fr_unlock(&p->mx);
    if (fr_monitor(p, q, n, 1)) {
      fr_msg *m = fr_message(a->th, p, n, sig, nargs, args);
      m->kind = FR_M_CALL;
      fr_push(q, m, a->th); /* if q exits first, its call signal fails p */
      ev_on_name(p, EV_CALL, n, (int32_t)to, q);
      return 1;
    }
    fr_lock_take(&p->mx); /* q had exited: the call found none */
    p->wait = NULL;
    fr_unlock(&p->mx);
    free(wt);
  }
  ev_on_name(p, EV_CALL, n, (int32_t)to, NULL);
  fr_end_turn(a, CR_R_NOPROC_CODE, 0);
}

/* §18.1: the first reply of a turn reached by a call answers the caller if it still
** waits; any other does nothing [R29]. */
void cr_reply(cr_ctx *c, cr_value v, int32_t type) {
  fr_act *a = fr_effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  ev_reply(p, n);
  fr_proc *caller = a->serving;
  if (!caller) return;
  a->serving = NULL;
  fr_demonitor(caller, p, 1); /* its exit now fails the caller no more */
  fr_lock_take(&caller->mx);
  fr_wait *wt = caller->wait;
  if (!caller->dead && wt && wt->callee == p && !wt->replied) {
    wt->replied = 1;
    wt->value = v;
    wt->vtype = type;
    wt->reply_from = p;
    wt->reply_n = n;
    if (!caller->scheduled) fr_schedule_locked(caller, a->th);
  }
  fr_unlock(&caller->mx);
}

/* §20: handled by the supervisor incarnation live when the request reaches it, as
** one of its inputs; none live: NOPROC [R44]. The caller is blocked meanwhile
** (§16.6): terminated then, it exits killed if it traps [R50]. */
cr_value cr_api(cr_ctx *c, int32_t op, int32_t sup, cr_value child) {
  fr_act *a = fr_effect_start(c);
  fr_proc *p = a->p;
  int64_t n = ++p->effects;
  fr_set_blocked(p, 1);
  if (!fr_sup_lock(p)) fr_end_as_asked(a);
  fr_sup *s = fr_w.sup_live[sup];
  if (!s) {
    fr_sup_unlock();
    fr_set_blocked(p, 0);
    ev_api(p, n, op, NULL, 0); /* as the oracle's traces write it (oracle/free/from_run.cpp) */
    fr_end_turn(a, CR_R_NOPROC_CODE, 0);
  }
  fr_w.sup_holder = p;
  int r = fr_api_request(s, p, n, op, (int32_t)child);
  fr_sup_unlock();
  /* A request that ended the caller itself [R50/self_*] is seen in the supervisor's
  ** trace only: the caller exited inside it, before its answer (§25.6). */
  fr_gone_if_dead(a);
  ev_api(p, n, op, s, r);
  fr_set_blocked(p, 0);
  return r;
}
