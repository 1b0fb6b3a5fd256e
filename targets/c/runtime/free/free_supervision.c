/* targets/c/runtime/free/free_supervision.c: OTP supervision (SPEC §7; version 2:
** §19 starts that fail, §20 the API, §21 significant children) in a free run,
** clause by clause as the conducted runtime's supervision.c and v2_supervision.c,
** each supervisor incarnation deciding on the inputs it handles, in the order it
** handles them (§25.3 G3, G9). Everything here runs under the supervision lock;
** terminating a running worker waits for its exit (free_procs.c). A version 1
** program's starts never fail, so its supervisors take the same paths as before. */
#include <stdlib.h>
#include <string.h>

#include "free.h"

static void push_child(fr_sup *s, fr_child e) {
  s->children = fr_room(s->children, s->n, &s->cap, sizeof *s->children);
  s->children[s->n++] = e;
}

static void erase_child(fr_sup *s, size_t index) {
  free(s->children[index].own);
  memmove(&s->children[index], &s->children[index + 1], (s->n - index - 1) * sizeof *s->children);
  s->n--;
}

static int find_child(const fr_sup *s, int32_t name, size_t *index) {
  for (size_t i = 0; i < s->n; i++)
    if (s->children[i].name == name) {
      *index = i;
      return 1;
    }
  return 0;
}

static int is_failure(int32_t reason) { return reason != CR_R_NORMAL && reason != CR_R_SHUTDOWN; } /* §15 */

/* §7.5: a running child ends with shutdown (§16.6: killed, for a blocked one that
** traps exits); a child supervisor's children first. A child that is not running
** (kept, ignored, or restarting) is left alone. */
static void terminate_child(fr_sup *s, size_t i) {
  fr_child *c = &s->children[i];
  c->restarting = 0;
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
  s->nretries = 0; /* its pending items go with it (§17.1) */
  if (fr_w.sup_live[s->slot] == s) fr_w.sup_live[s->slot] = NULL;
}

void fr_terminate_supervisor(fr_sup *s) {
  terminate_children(s, 0);
  ended(s);
}

static fr_sup *start_supervisor(int32_t slot, fr_sup *by, int *how);

/* Starts (or restarts) one entry in place; how it ended (§19.1). */
static int start_child(fr_sup *s, size_t i) {
  fr_child *c = &s->children[i];
  int how;
  if (c->is_sup)
    c->s = start_supervisor(c->slot, s, &how);
  else
    c->w = fr_start_worker(c->name, c->kind, c->nargs, c->args, NULL, s, &how);
  s->children[i].running = how == FR_STARTED_OK;
  return how;
}

/* OTP terminate_children/2 drops temporary children: they are never restarted. */
static void remove_temporaries(fr_sup *s, size_t from) {
  size_t kept = from;
  for (size_t i = from; i < s->n; i++)
    if (s->children[i].restart != CR_TEMPORARY)
      s->children[kept++] = s->children[i];
    else
      free(s->children[i].own);
  s->n = kept;
}

/* §19.3, OTP try_again_restart/1: a failed restart is tried again, as a message the
** supervisor sends itself; it handles it before it lets the lock go. */
static void restart_failed(fr_sup *s, size_t index) {
  s->children[index].restarting = 1;
  s->retries = fr_room(s->retries, s->nretries, &s->retries_cap, sizeof *s->retries);
  s->retries[s->nretries++] = s->children[index].name;
}

/* §7.3 one_for_all / rest_for_one: terminate from `from` on, drop temporaries,
** start them all again in order; a start that fails ends the pass [R36], an
** ignored one stays not running [R37]. */
static void restart_from(fr_sup *s, size_t from) {
  terminate_children(s, from);
  remove_temporaries(s, from);
  for (size_t i = from; i < s->n; i++)
    if (start_child(s, i) == FR_STARTED_FAILED) {
      restart_failed(s, i);
      return;
    }
}

static size_t index_of(const fr_sup *s, int32_t name);
static void handle_exit(fr_sup *s, size_t index, int32_t reason);

/* §7.4 giving up, §21 shutting down: the decision, the children terminated, and
** to the parent, a child that exited with shutdown, handled by it now. */
static void shut_down(fr_sup *s, int32_t child, const char *action) {
  ev_sup_decision(s, child, action);
  fr_terminate_supervisor(s);
  fr_sup *parent = s->by;
  if (!parent || !parent->alive) return;
  ev_sup_exit(parent, NULL, s, CR_R_SHUTDOWN);
  handle_exit(parent, index_of(parent, fr_w.prog->sups[s->slot].name), CR_R_SHUTDOWN);
}

static void restart(fr_sup *s, size_t index) {
  const cr_sup *d = &fr_w.prog->sups[s->slot];
  int32_t child = s->children[index].name;
  if (++s->restarts > d->intensity) { /* [R8]: one restart counts once; a retry too [R35] */
    shut_down(s, child, "give_up");
    return;
  }
  ev_sup_decision(s, child, "restart");
  switch (d->strategy) {
    case CR_ONE_FOR_ONE: /* [R4] */
      s->children[index].restarting = 0;
      if (start_child(s, index) == FR_STARTED_FAILED) restart_failed(s, index);
      return;
    case CR_ONE_FOR_ALL: /* [R5] */
      s->children[index].running = 0;
      restart_from(s, 0);
      return;
    default: restart_from(s, index); return; /* rest_for_one [R6] */
  }
}

/* OTP do_auto_shutdown/2 after del_child/2: a significant child that is not
** restarted shuts its supervisor down, under any_significant always [R46], under
** all_significant when no other significant child runs (a restarting one counts)
** [R47]; otherwise kept not running [R2] or, temporary, removed [R3]. */
static void keep_or_remove(fr_sup *s, size_t index) {
  fr_child c = s->children[index];
  int shut = 0;
  if (c.significant) switch (fr_w.prog->sups[s->slot].auto_shutdown) {
      case CR_ANY_SIGNIFICANT: shut = 1; break;
      case CR_ALL_SIGNIFICANT:
        shut = 1;
        for (size_t i = 0; i < s->n; i++)
          if (i != index && s->children[i].significant && (s->children[i].running || s->children[i].restarting))
            shut = 0;
        break;
      default: break;
    }
  if (c.restart == CR_TEMPORARY)
    erase_child(s, index);
  else
    s->children[index].running = 0;
  if (shut)
    shut_down(s, c.name, "auto_shutdown");
  else
    ev_sup_decision(s, c.name, c.restart == CR_TEMPORARY ? "remove" : "keep");
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
  size_t i = 0;
  if (!find_child(s, name, &i)) abort(); /* a running child is always in its supervisor's list */
  return i;
}

void fr_child_exited(fr_sup *s, fr_proc *child) {
  ev_sup_exit(s, child, NULL, child->exit_reason);
  handle_exit(s, index_of(s, child->name), child->exit_reason);
}

/* §6.7, §19.2: static children in order, depth first; an ignored one stays not
** running (a temporary one is not kept) [R34/ignore]; when one fails, the later
** ones are not started, those started are terminated and the supervisor exits with
** shutdown: its start failed [R34/stop, R34/nested]. */
static fr_sup *start_supervisor(int32_t slot, fr_sup *by, int *how) {
  const cr_sup *d = &fr_w.prog->sups[slot];
  fr_sup *s = fr_calloc(1, sizeof *s);
  s->slot = slot;
  s->inc = ++fr_w.sup_incs[slot];
  s->by = by;
  s->alive = 1;
  s->all_next = fr_w.all_sups;
  fr_w.all_sups = s;
  fr_w.sup_live[slot] = s;
  *how = FR_STARTED_OK;
  for (int32_t i = 0; i < d->nchildren; i++) {
    const cr_decl *cd = &d->children[i];
    fr_child e = {.name = cd->name,
                  .restart = cd->restart,
                  .is_sup = cd->is_sup != 0,
                  .significant = cd->significant != 0,
                  .slot = cd->sup,
                  .kind = cd->kind,
                  .nargs = cd->nargs,
                  .args = cd->args};
    push_child(s, e);
    int started = start_child(s, s->n - 1);
    if (started == FR_STARTED_IGNORED && cd->restart == CR_TEMPORARY) s->n--;
    if (started == FR_STARTED_FAILED) {
      fr_terminate_supervisor(s);
      *how = FR_STARTED_FAILED;
      break;
    }
  }
  return s;
}

int fr_start_root_supervisor(int32_t slot) {
  int how;
  start_supervisor(slot, NULL, &how);
  return how;
}

/* §7.6, §19.4, OTP handle_start_child/2: a failed start adds nothing; an ignored
** one is kept not running, unless temporary [R38]. */
fr_proc *fr_start_child(fr_sup *s, fr_proc *from, int64_t n, int32_t kind, int32_t nargs, const cr_value *args,
                        int32_t restart, int32_t significant, int32_t name, int *how) {
  cr_value *own = fr_alloc(sizeof(cr_value) * (size_t)(nargs ? nargs : 1));
  if (nargs) memcpy(own, args, sizeof(cr_value) * (size_t)nargs);
  fr_child e = {.name = name,
                .restart = restart,
                .significant = significant != 0,
                .slot = -1,
                .kind = kind,
                .nargs = nargs,
                .args = own,
                .own = own};
  push_child(s, e);
  ev_sup_start_child(s, from, n, name);
  *how = start_child(s, s->n - 1);
  fr_proc *w = s->children[s->n - 1].w;
  if (*how == FR_STARTED_FAILED || (*how == FR_STARTED_IGNORED && restart == CR_TEMPORARY)) erase_child(s, s->n - 1);
  return w;
}

/* §20, OTP handle_call/3 for terminate_child, restart_child, delete_child: nothing
** counted or decided, no auto_shutdown [R40, R41, R42, R48/terminate_child].
** Results: 0 ok, 1 not_found, 2 running, 3 restarting, 4 ignored, 5 failed. */
int fr_api_request(fr_sup *s, fr_proc *from, int64_t n, int op, int32_t child) {
  ev_sup_api(s, from, n);
  size_t i = 0;
  if (!find_child(s, child, &i)) return 1;
  fr_child *c = &s->children[i];
  switch (op) {
    case CR_TERMINATE_CHILD:
      terminate_child(s, i); /* a child supervisor with its subtree [R11] */
      if (s->children[i].restart == CR_TEMPORARY) erase_child(s, i);
      return 0;
    case CR_RESTART_CHILD:
      if (c->running) return 2;
      if (c->restarting) return 3;
      switch (start_child(s, i)) { /* in place, not counted, not retried [R39, R41] */
        case FR_STARTED_OK: return 0;
        case FR_STARTED_IGNORED: return 4;
        default: return 5;
      }
    default: /* CR_DELETE_CHILD */
      if (c->running) return 2;
      if (c->restarting) return 3;
      erase_child(s, i); /* [R42] */
      return 0;
  }
}

/* §19.3: each live supervisor's retries, in the order they came, each a restart of
** its child if it is still restarting [R35, R36], until none is left. */
void fr_sup_drain_retries(void) {
  for (int again = 1; again;) {
    again = 0;
    for (int32_t slot = 0; slot < fr_w.prog->nsups; slot++) {
      fr_sup *s = fr_w.sup_live[slot];
      while (s && s->alive && s->nretries) {
        int32_t child = s->retries[0];
        memmove(s->retries, s->retries + 1, --s->nretries * sizeof *s->retries);
        ev_sup_retry(s, child);
        size_t i = 0;
        if (find_child(s, child, &i) && s->children[i].restarting) restart(s, i);
        again = 1;
      }
    }
  }
}
