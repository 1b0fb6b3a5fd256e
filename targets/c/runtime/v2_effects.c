/* targets/c/runtime/v2_effects.c: the statements of version 2 as emitted code calls
** them (concord_rt.h): send and spawn as version 2 has them (§6.5 with §18.3, §19.4),
** stop e and ignore (§16.2, §19.1), links, monitors, trap_exit and exit signals
** (§16.2, §16.3), call and reply (§18.1), the supervisor API (§20). Signals sent to
** others are queued: they take effect when the run settles (§17.2). */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

static rt_world *world_of(cr_ctx *c) { return (rt_world *)c->rt; }

void cr_send2(cr_ctx *c, cr_value to, int32_t sig, int32_t nargs, const cr_value *args) {
  rt_world *w = world_of(c);
  if (sig < 0 || sig >= w->prog->nsigs || nargs != w->prog->sigs[sig].nargs || nargs > RT_MAX_ARGS)
    rt_internal(w, "a send that matches no signature");
  send_message2(w, c->self, to, sig, args);
}

/* §6.6 steps 1-2, then §19.4: the name is consumed whatever the start did; then the
** run settles with the spawner blocked (§16.6). */
cr_value cr_spawn2(cr_ctx *c, int32_t kind, int32_t nargs, const cr_value *args, int32_t sup, int32_t restart,
                   int32_t significant) {
  rt_world *w = world_of(c);
  rt_act *a = act_running(w, c);
  if (kind < 0 || kind >= w->prog->nkinds || sup >= w->prog->nsups) rt_internal(w, "a spawn of no kind");
  if (w->live >= w->max_processes) act_end(w, c, RT_SYSTEM_LIMIT, 0);
  if (sup >= 0 && !w->sups[sup].alive) act_end(w, c, RT_NOPROC, 0);
  if (w->spawned[kind] >= INT32_MAX) rt_out_of_memory(w);
  int32_t num = (int32_t)++w->spawned[kind];
  int32_t id = new_process(w, -1, kind, num, nargs, args, sup);
  int32_t name = proc_at(w, id)->name;
  int how = start_worker2(w, id);
#ifdef CONCORD_FAULT_FAILED_SPAWN_GIVES_BACK_NUMBER /* planted fault: a spawn whose start fails or is ignored frees its k-N */
  if (how != STARTED_OK) w->spawned[kind]--;
#endif
  if (sup >= 0) add_dynamic_child2(w, sup, id, restart, significant, how);
  ext_at(w, a->id)->blocked++;
  settle_blocked(w, a);
  return name;
}

_Noreturn void cr_stop_reason(cr_ctx *c, cr_value reason) { act_end(world_of(c), c, (int32_t)reason, 0); }

_Noreturn void cr_ignore(cr_ctx *c) { act_end(world_of(c), c, RT_NORMAL, 1); }

/* §16.4: exit(from, why) or down(who, why) in the running worker's own mailbox. */
static void own_message(rt_world *w, const rt_act *a, int32_t sig, cr_value from, int32_t reason) {
  system_message(w, a->id, sig, (int32_t)from, reason);
}

/* §16.2: itself: nothing [R20/self]; a live worker: linked; no live process: the
** message exit(e, noproc) if it traps, else it fails with NOPROC [R20]. */
void cr_link(cr_ctx *c, cr_value to) {
  rt_world *w = world_of(c);
  rt_act *a = act_running(w, c);
  if (to == c->self) return;
  int32_t id = live_id(w, to);
  if (id >= 0) {
    link_pair(w, a->id, id);
    return;
  }
  if (!ext_at(w, a->id)->trap) act_end(w, c, RT_NOPROC, 0);
  jr_signal(w, SIG_LINK, (int32_t)to, c->self, RT_NOPROC_REASON, EFF_MESSAGE);
  own_message(w, a, w->prog->exit_sig, to, RT_NOPROC_REASON);
}

/* §16.2: a message a link already queued stays [R21/after_queued]. */
void cr_unlink(cr_ctx *c, cr_value to) {
  rt_world *w = world_of(c);
  rt_act *a = act_running(w, c);
  int32_t id = live_id(w, to);
  if (id >= 0 && id != a->id) unlink_pair(w, a->id, id);
}

/* §16.2: itself: nothing, such a monitor never fires [R25/self]; no live process:
** the message down(e, noproc) [R25/dead, R25/unknown]. */
void cr_monitor(cr_ctx *c, cr_value to) {
  rt_world *w = world_of(c);
  rt_act *a = act_running(w, c);
  if (to == c->self) return;
  int32_t id = live_id(w, to);
  if (id >= 0) {
    add_monitor(w, a->id, id, 0);
    return;
  }
#ifdef CONCORD_FAULT_MONITOR_DEAD_SILENT /* planted fault (held out): monitor of no live process does nothing, no down */
  return;
#endif
  jr_signal(w, SIG_DOWN, (int32_t)to, c->self, RT_NOPROC_REASON, EFF_MESSAGE);
  own_message(w, a, w->prog->down_sig, to, RT_NOPROC_REASON);
}

/* §16.2: one monitor of the pair goes; a down already queued stays [R26]. */
void cr_demonitor(cr_ctx *c, cr_value to) {
  rt_world *w = world_of(c);
  rt_act *a = act_running(w, c);
  int32_t id = live_id(w, to);
#ifdef CONCORD_FAULT_DEMONITOR_REMOVES_ALL /* planted fault (held out 2): demonitor removes every monitor on e, not one */
  if (id >= 0)
    for (uint32_t n = ext_at(w, a->id)->held.n + 1; ext_at(w, a->id)->held.n < n;) {
      n = ext_at(w, a->id)->held.n;
      remove_monitor(w, a->id, id, 0);
    }
  return;
#endif
  if (id >= 0) remove_monitor(w, a->id, id, 0);
}

/* §16.2: the flag counts when a signal arrives [R17/flag_at_arrival]. */
void cr_trap_exit(cr_ctx *c, cr_value on) {
  rt_world *w = world_of(c);
  ext_at(w, act_running(w, c)->id)->trap = on != 0;
}

/* §16.3, the exit signal whose receiver is its sender: it takes effect at once. */
static void exit_self(rt_world *w, const cr_ctx *c, rt_act *a, int32_t reason) {
  rt_pext *x = ext_at(w, a->id);
  if (reason == RT_KILL) { /* untrappable [R18] */
    jr_signal(w, SIG_EXIT, c->self, c->self, RT_KILL, EFF_EXIT);
    exit_worker(w, a->id, RT_KILLED, CAUSE_OWN);
  } else if (x->trap) {
#ifdef CONCORD_FAULT_EXIT_SELF_TRAPPED_AS_MESSAGE /* planted fault (held out 3): unsupervised too gets the message */
    if (1) {
#else
    if (proc_at(w, a->id)->sup >= 0) { /* a supervised worker gets the message [R19/self_supervised_trapping_*] */
#endif
      jr_signal(w, SIG_EXIT, c->self, c->self, reason, EFF_MESSAGE);
      own_message(w, a, w->prog->exit_sig, c->self, reason);
    } else if (a->self_exit == RT_NONE) { /* unsupervised: exits when its handler ends [R19/self_trapping_*] */
      a->self_exit = reason;              /* (the first: gen_server stops at its parent's first 'EXIT') */
    }
    return;
  } else { /* not trapping: at once, with normal too [R19/self_non_trapping_normal] */
    jr_signal(w, SIG_EXIT, c->self, c->self, reason, EFF_EXIT);
    exit_worker(w, a->id, reason, CAUSE_OWN);
  }
  a->gone = 1;
  longjmp(a->jb, 1);
}

/* §16.2: no live process: nothing [R19/dead_target]; itself: at once; otherwise
** queued, as exit/2 is asynchronous. */
void cr_exit(cr_ctx *c, cr_value to, cr_value reason, int32_t kill) {
  rt_world *w = world_of(c);
  rt_act *a = act_running(w, c);
  int32_t r = kill ? RT_KILL : (int32_t)reason;
  if (to == c->self) {
    exit_self(w, c, a, r);
    return;
  }
  int32_t id = live_id(w, to);
  if (id >= 0) queue_signal(w, SIG_EXIT, c->self, id, r);
}

/* §18.1: itself: CALLING_SELF [R31/self]; no live process: a call signal and NOPROC
** [R31/dead, R31/unknown]; otherwise the call message, a monitor on the callee,
** and the caller waits, its continuation kept for its resumption. */
int cr_call(cr_ctx *c, cr_value to, int32_t sig, int32_t nargs, const cr_value *args, int32_t bind, int32_t point) {
  rt_world *w = world_of(c);
  rt_act *a = act_running(w, c);
  if (sig < 0 || sig >= w->prog->nsigs || nargs != w->prog->sigs[sig].nargs || nargs > RT_MAX_ARGS || a->sig < 0)
    rt_internal(w, "a call that matches no signature");
  if (to == c->self) act_end(w, c, RT_CALLING_SELF, 0);
  int32_t id = live_id(w, to);
  if (id < 0) {
    jr_signal(w, SIG_CALL, (int32_t)to, c->self, RT_NOPROC_REASON, EFF_EXIT);
    act_end(w, c, RT_NOPROC, 0);
  }
  rt_pext *x = ext_at(w, a->id);
  mb_push_call(w, proc_at(w, id), c->self, sig, nargs, args, a->id, x->inc);
  mark_ready2(w, id);
  add_monitor(w, a->id, id, 1);
  rt_wait *wt = rt_alloc(w, sizeof *wt);
  memset(wt, 0, sizeof *wt);
  wt->callee = id;
  wt->callee_name = (int32_t)to;
  wt->bind = bind;
  wt->point = point;
  wt->sig = a->sig;
  wt->serving = a->serving;
  wt->serving_inc = a->serving_inc;
  wt->self_exit = a->self_exit;
  if (w->prog->sigs[a->sig].nargs) memcpy(wt->args, c->args, (size_t)w->prog->sigs[a->sig].nargs * sizeof(cr_value));
  memcpy(wt->loops, a->loops, sizeof wt->loops);
  x->wait = wt;
  w->waiting++;
  return 1;
}

/* §18.1: the first reply whose caller still waits answers it; any other does
** nothing (a second reply, one reached by send, a caller gone [R29]). */
void cr_reply(cr_ctx *c, cr_value v, int32_t type) {
  rt_world *w = world_of(c);
  rt_act *a = act_running(w, c);
  if (a->serving < 0) return;
  int32_t caller = a->serving;
  a->serving = -1;
  rt_pext *cx = ext_at(w, caller);
  rt_wait *wt = cx->wait;
  if (!proc_at(w, caller)->alive || cx->inc != (uint32_t)a->serving_inc || !wt || wt->replied || wt->callee != a->id)
    return;
  wt->replied = 1;
  wt->value = v;
  wt->vtype = type;
  remove_monitor(w, caller, a->id, 1);
  mark_ready2(w, caller);
}

/* §20: a dead supervisor: NOPROC [R44]; otherwise the request is handled at once,
** the api event journaled (also when it ended the caller, blocked meanwhile
** [R50/self_*]), then the run settles with the caller blocked. */
cr_value cr_api(cr_ctx *c, int32_t op, int32_t sup, cr_value child) {
  rt_world *w = world_of(c);
  rt_act *a = act_running(w, c);
  if (sup < 0 || sup >= w->prog->nsups || op < 0 || op > 2) rt_internal(w, "an API request of no supervisor");
  if (!w->sups[sup].alive) act_end(w, c, RT_NOPROC, 0);
  ext_at(w, a->id)->blocked++;
  int r = api_request(w, sup, op, (int32_t)child);
  jr_api(w, c->self, w->prog->sups[sup].name, op, (int32_t)child, r);
  settle_blocked(w, a);
  return r;
}
