/* targets/c/runtime/rt.h: the runtime's functions, one section per file, with
** the SPEC section each implements: the index of the runtime, as the oracle's
** oracle/rules.hpp is the index of the semantics. */
#ifndef CONCORD_RT_INTERNAL_H
#define CONCORD_RT_INTERNAL_H

#include <string.h>

#include "world.h"

/* --- alloc.c: every allocation of a run; failure abandons the run ------------ */
void *rt_alloc(rt_world *w, size_t n);                       /* never NULL */
void *rt_alloc_array(rt_world *w, size_t count, size_t size); /* overflow-checked */
void *rt_realloc_array(rt_world *w, void *p, size_t count, size_t size);
_Noreturn void rt_out_of_memory(rt_world *w);
_Noreturn void rt_internal(rt_world *w, const char *message); /* a bug: INTERNAL */

/* --- journal.c: event records (SPEC §9.2), the result's JSON text (§9.3) ---- */
void jr_start(rt_world *w, int32_t name, int32_t kind);       /* kind -1: supervisor */
void jr_deliver(rt_world *w, int64_t ready, int32_t to, int32_t from, int32_t sig, const cr_value *args);
void jr_drop(rt_world *w, int32_t from, int32_t to, int32_t sig, const cr_value *args);
void jr_exit(rt_world *w, int32_t name, int32_t reason);      /* and its failure record */
void jr_decision(rt_world *w, int32_t sup_slot, int32_t child, int action); /* and its record */
/* version 2 (SPEC §22) */
void jr_call(rt_world *w, int64_t ready, int32_t to, int32_t from, int32_t sig, const cr_value *args);
void jr_resume(rt_world *w, int64_t ready, int32_t to, int32_t from, cr_value value, int type);
void jr_signal(rt_world *w, int kind, int32_t from, int32_t to, int32_t reason, int effect); /* RT_KILL: "kill" */
void jr_api(rt_world *w, int32_t from, int32_t sup, int op, int32_t child, int result);
void log_free(rt_log *l);

/* Text on its way to stdout: a fixed staging buffer, written out when full, so
** writing the result never allocates. Pieces are copied by out_put(), whose
** common case (the piece fits) is inlined. */
typedef struct rt_out {
  char *p;
  size_t len;
  size_t cap;
} rt_out;
void out_put_slow(rt_out *o, const char *s, size_t n);
static inline void out_put(rt_out *o, const char *s, size_t n) {
  if (o->cap - o->len < n) {
    out_put_slow(o, s, n);
    return;
  }
  memcpy(o->p + o->len, s, n);
  o->len += n;
}
#define OUT_LIT(o, lit) out_put((o), (lit), sizeof(lit) - 1) /* a string literal, length at compile time */
void out_flush(rt_out *o);
void out_u64(rt_out *o, uint64_t v);
void out_i64(rt_out *o, int64_t v);
void quoted_make(rt_world *w);   /* before the first byte of the result: it allocates */
void quoted_free(rt_world *w);
void out_name(const rt_world *w, rt_out *o, int32_t name);   /* as a JSON string */
void out_kind(const rt_world *w, rt_out *o, int32_t kind);   /* its name, a JSON string */
void out_state_name(const rt_world *w, rt_out *o, int32_t kind, int32_t i);
void out_value(const rt_world *w, rt_out *o, cr_value v, int type);
void out_log(const rt_world *w, rt_out *o, const rt_log *l); /* its records, as array elements */

/* --- names.c: name ids, the hash index, spawned names (SPEC §2) ------------- */
void names_init(rt_world *w);
int32_t name_proc(const rt_world *w, int32_t name);           /* process id or -1 */
void name_bind(rt_world *w, int32_t name, int32_t proc);      /* first life of a name */
int32_t name_spawned(rt_world *w, int32_t kind, int32_t num, int32_t proc); /* id of k-N */

/* --- ready.c: the ready set, k-th ready id in O(log n) (SPEC §8.2) ---------- */
void ready_set(rt_world *w, int32_t id, int ready);
int32_t ready_kth(const rt_world *w, int64_t k);
void ready_free(rt_world *w);

/* --- mailbox.c: FIFO per receiver (SPEC §6.5) ------------------------------- */
void mb_push(rt_world *w, rt_proc *p, int32_t from, int32_t sig, int32_t nargs, const cr_value *args);
/* version 2: a call message (§18.1) carries its caller (id and incarnation); mb_pop2
** reads both kinds, caller -1 for a plain message. */
void mb_push_call(rt_world *w, rt_proc *p, int32_t from, int32_t sig, int32_t nargs, const cr_value *args,
                  int32_t caller, uint32_t caller_inc);
int32_t mb_pop2(rt_proc *p, int32_t *from, cr_value *args, const cr_program *prog, int32_t *caller,
                uint32_t *caller_inc);
int32_t mb_pop(rt_proc *p, int32_t *from, cr_value *args, const cr_program *prog); /* returns sig */
static inline int mb_empty(const rt_proc *p) { return p->mbox == NULL || p->mbox->used == 0; }

/* --- processes.c: life and death of workers, messages, spawn (SPEC §6, §8.1) -- */
static inline rt_proc *proc_at(const rt_world *w, int32_t id) {
  return &w->chunks[(uint32_t)id >> RT_CHUNK_BITS][(uint32_t)id & (RT_CHUNK - 1)];
}
/* A name as one number (journal.c's records), enough to write it without the
** process: 2 * id for a program name, 2 * (num * nkinds + kind) + 1 for a
** spawned name k-N (SPEC §2). */
static inline uint64_t name_code(const rt_world *w, int32_t name) {
  if (name < w->prog->nnames) return (uint64_t)name * 2;
  const rt_proc *p = proc_at(w, name - w->prog->nnames);
  return ((uint64_t)(uint32_t)p->num * (uint64_t)w->prog->nkinds + p->kind) * 2 + 1;
}
int32_t new_process(rt_world *w, int32_t name, int32_t kind, int32_t num, int32_t nargs, const cr_value *args,
                    int32_t sup);                              /* §8.1 new id, not started yet */
int32_t create_process(rt_world *w, int32_t name, int32_t kind, int32_t num, int32_t nargs, const cr_value *args,
                       int32_t sup);                           /* §8.1 new id, §6.7 */
/* What emitted code sees of process p: its parameters and state (one array,
** parameters first), the handler's arguments (NULL in init), its name. */
static inline cr_ctx proc_ctx(rt_world *w, rt_proc *p, const cr_value *args) {
  const cr_kind *k = &w->prog->kinds[p->kind];
  cr_ctx c;
  c.params = p->vals;
  c.state = p->vals ? p->vals + k->nparams : NULL;
  c.args = args;
  c.self = p->name;
  c.rt = w;
  return c;
}
void start_process(rt_world *w, int32_t id);                   /* §6.7 (re)start */
void end_process(rt_world *w, int32_t id, int32_t reason);     /* §6.4 dead, exit event */
void exit_process(rt_world *w, int32_t id, int32_t reason);    /* §6.4 own exit, then §7 */
void mark_ready(rt_world *w, int32_t id);                      /* §8.2 */
void send_message(rt_world *w, int32_t from, cr_value to, int32_t sig, const cr_value *args); /* §6.5 */
void deliver(rt_world *w, int32_t id, int64_t ready);          /* §8.2 steps 5-6 */
void procs_free(rt_world *w);

/* --- supervision.c: OTP supervision (SPEC §7) ------------------------------- */
void start_supervisor(rt_world *w, int32_t slot);              /* §6.7 new incarnation */
void add_dynamic_child(rt_world *w, int32_t slot, int32_t id, int32_t restart); /* §7.6 */
void child_exited(rt_world *w, int32_t slot, int32_t child, int32_t reason);    /* §7.2 */
void sups_free(rt_world *w);

/* --- version 2: v2_procs.c, the life of a worker (SPEC §16.1, §17.1, §18, §19.1) -- */
enum { STARTED_OK = 0, STARTED_IGNORED = 1, STARTED_FAILED = 2 };        /* §19.1 */
enum { CAUSE_OWN = 0, CAUSE_BY_SUPERVISOR = 1, CAUSE_FAILED_START = 2 }; /* §17.1 step 4 */
rt_pext *ext_at(rt_world *w, int32_t id);                      /* §16.1 links, monitors, trap flag */
int start_worker2(rt_world *w, int32_t id);                    /* §6.7, §19.1: STARTED_* */
void exit_worker(rt_world *w, int32_t id, int32_t reason, int cause); /* §17.1, steps in order */
void mark_ready2(rt_world *w, int32_t id);                     /* §18.3 */
int32_t live_id(rt_world *w, cr_value name);                   /* the live process a name names, or -1 */
void send_message2(rt_world *w, int32_t from, cr_value to, int32_t sig, const cr_value *args); /* §6.5 */
void system_message(rt_world *w, int32_t id, int32_t sig, int32_t from, int32_t reason);       /* §16.4 */
void deliver2(rt_world *w, int32_t id, int64_t ready);         /* §8.2 steps 5-6, §18.1 call */
void resume2(rt_world *w, int32_t id, int64_t ready);          /* §18.1, §18.3 */
rt_act *act_running(rt_world *w, const cr_ctx *c);             /* the code running now */
_Noreturn void act_end(rt_world *w, const cr_ctx *c, int32_t reason, int ignore); /* §6.4, §19.1 */
void settle_blocked(rt_world *w, rt_act *a);                   /* §16.6, §17.2 inside spawn, API */
void v2_free(rt_world *w);

/* --- v2_signals.c: links, monitors, signals, settling (SPEC §16, §17.2) ----- */
void link_pair(rt_world *w, int32_t a, int32_t b);             /* §16.2 link */
void unlink_pair(rt_world *w, int32_t a, int32_t b);           /* §16.2 unlink */
void add_monitor(rt_world *w, int32_t holder, int32_t target, int call);    /* §16.2, §18.1 */
void remove_monitor(rt_world *w, int32_t holder, int32_t target, int call); /* §16.2, §18.1 */
void mons_erase_number(rt_mons *m, int64_t number);
void queue_signal(rt_world *w, int kind, int32_t from, int32_t to, int32_t reason); /* §17.1 step 3 */
void settle(rt_world *w);                                      /* §17.2 */

/* --- v2_supervision.c: supervision of version 2 (SPEC §7, §17.3, §19-§21) --- */
int start_supervisor2(rt_world *w, int32_t slot);              /* §6.7, §19.2: STARTED_* */
void add_dynamic_child2(rt_world *w, int32_t slot, int32_t id, int32_t restart, int32_t significant, int how);
void add_pending_exit(rt_world *w, int32_t slot, int32_t child, int32_t reason); /* §17.1 step 4 */
void handle_pending(rt_world *w, int32_t slot);                /* §17.3 */
int api_request(rt_world *w, int32_t slot, int op, int32_t child); /* §20: the result's number */

/* --- run.c: the scheduler (SPEC §8.2; version 2: §18.3) ----------------------- */
enum { OUTCOME_QUIESCENT = 0, OUTCOME_TURN_LIMIT = 1, OUTCOME_DEADLOCK = 2 };
int run_program(rt_world *w);     /* returns OUTCOME_* */
void world_free(rt_world *w);

/* --- result.c: the result line (SPEC §9.1) ---------------------------------- */
void write_result(rt_world *w, int outcome);

#endif
