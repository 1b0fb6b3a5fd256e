/* targets/c/runtime/rt.h: the runtime's functions, one section per file, with
** the SPEC section each implements: the index of the runtime, as the oracle's
** oracle/rules.hpp is the index of the semantics. */
#ifndef CONCORD_RT_INTERNAL_H
#define CONCORD_RT_INTERNAL_H

#include "world.h"

/* --- alloc.c: every allocation of a run; failure abandons the run ------------ */
void *rt_alloc(rt_world *w, size_t n);                       /* never NULL */
void *rt_alloc_array(rt_world *w, size_t count, size_t size); /* overflow-checked */
void *rt_realloc_array(rt_world *w, void *p, size_t count, size_t size);
_Noreturn void rt_out_of_memory(rt_world *w);
_Noreturn void rt_internal(rt_world *w, const char *message); /* a bug: INTERNAL */

/* --- journal.c: buffers, JSON helpers, events (SPEC §9.2, §9.3) ------------- */
void buf_reserve_slow(rt_world *w, rt_buf *b, size_t n);
static inline char *buf_reserve(rt_world *w, rt_buf *b, size_t n) {
  if (b->cap - b->len < n) buf_reserve_slow(w, b, n);
  return b->p + b->len;
}
void buf_free(rt_buf *b);
void buf_raw(rt_world *w, rt_buf *b, const char *s, size_t n);
void buf_lit(rt_world *w, rt_buf *b, const char *s);          /* a literal, unescaped */
void buf_i64(rt_world *w, rt_buf *b, int64_t v);
void buf_u64(rt_world *w, rt_buf *b, uint64_t v);
void buf_str(rt_world *w, rt_buf *b, const char *s, size_t n); /* a JSON string */
void buf_cstr(rt_world *w, rt_buf *b, const char *s);
void buf_value(rt_world *w, rt_buf *b, cr_value v, int type);
void buf_reason(rt_world *w, rt_buf *b, int32_t reason);
const char *reason_code(int32_t reason);  /* builtin reasons; NULL for a program code */
void jr_start(rt_world *w, int32_t name, int32_t kind);       /* kind -1: supervisor */
void jr_deliver(rt_world *w, int64_t ready, int32_t to, int32_t from, int32_t sig, const cr_value *args);
void jr_drop(rt_world *w, int32_t from, int32_t to, int32_t sig, const cr_value *args);
void jr_exit(rt_world *w, int32_t name, int32_t reason);      /* and its failure record */
void jr_decision(rt_world *w, int32_t sup_slot, int32_t child, int action); /* and its record */

/* --- names.c: name ids, the hash index, spawned names (SPEC §2) ------------- */
void names_init(rt_world *w);
int32_t name_proc(const rt_world *w, int32_t name);           /* process id or -1 */
void name_bind(rt_world *w, int32_t name, int32_t proc);      /* first life of a name */
int32_t name_spawned(rt_world *w, int32_t kind, int32_t num, int32_t proc); /* id of k-N */
void buf_name(rt_world *w, rt_buf *b, int32_t name);           /* as a JSON string */

/* --- ready.c: the ready set, k-th ready id in O(log n) (SPEC §8.2) ---------- */
void ready_set(rt_world *w, int32_t id, int ready);
int32_t ready_kth(const rt_world *w, int64_t k);
void ready_free(rt_world *w);

/* --- mailbox.c: FIFO per receiver (SPEC §6.5) ------------------------------- */
void mb_push(rt_world *w, rt_proc *p, int32_t from, int32_t sig, int32_t nargs, const cr_value *args);
int32_t mb_pop(rt_proc *p, int32_t *from, cr_value *args, const cr_program *prog); /* returns sig */
static inline int mb_empty(const rt_proc *p) { return p->mbox == NULL || p->mbox->used == 0; }

/* --- processes.c: life and death of workers, messages, spawn (SPEC §6, §8.1) -- */
static inline rt_proc *proc_at(const rt_world *w, int32_t id) {
  return &w->chunks[(uint32_t)id >> RT_CHUNK_BITS][(uint32_t)id & (RT_CHUNK - 1)];
}
int32_t create_process(rt_world *w, int32_t name, int32_t kind, int32_t num, int32_t nargs, const cr_value *args,
                       int32_t sup);                           /* §8.1 new id, §6.7 */
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

/* --- run.c: the scheduler (SPEC §8.2) --------------------------------------- */
int run_program(rt_world *w);     /* returns 1: turn_limit, 0: quiescent */
void world_free(rt_world *w);

/* --- result.c: the result line (SPEC §9.1) ---------------------------------- */
void write_result(rt_world *w, int turn_limit_reached);

#endif
