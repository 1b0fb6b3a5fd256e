/* targets/c/runtime/concord_rt.h: the interface between an emitted program and
** the C runtime of the `c` target (the scheduler, SPEC §6-§9).
**
** An emitted program is one C file that includes this header, defines handler
** bodies as functions and describes everything else as constant tables, ending
** with the definition of `cr_the_program`. The runtime (compiled once per build
** into libconcord_rt.a) owns main(): it reads run settings from stdin, one run per
** line ("SEED TURNS MAX_PROCESSES", decimal), and writes one canonical result line
** per run to stdout (SPEC §9.3), or an error line {"ok":false,...} (SPEC §10).
**
** Values: an int is an int64_t; an addr is a *name id* (an index into the name
** table): ids below cr_the_program.nnames are the program's names, in its table's
** order; the runtime appends spawned names ("worker-3") as they are made, and
** looks names up through a hash index, never by scanning.
**
** Emitted code never allocates. It changes the running process only through the
** cr_ctx it is given; it ends a handler early (stop, fail, DIV_ZERO and the
** runtime's own failures) by a longjmp inside the runtime, so it must hold no
** resources across a call into the runtime. */
#ifndef CONCORD_RT_H
#define CONCORD_RT_H

#include <stdint.h>

typedef int64_t cr_value;

enum { CR_INT = 0, CR_ADDR = 1, CR_REASON = 2 };              /* value types (reason: version 2) */
enum { CR_PERMANENT = 0, CR_TRANSIENT = 1, CR_TEMPORARY = 2 }; /* restart types */
enum { CR_ONE_FOR_ONE = 0, CR_ONE_FOR_ALL = 1, CR_REST_FOR_ONE = 2 };
enum { CR_NEVER = 0, CR_ANY_SIGNIFICANT = 1, CR_ALL_SIGNIFICANT = 2 };     /* auto_shutdown (SPEC §21) */
enum { CR_TERMINATE_CHILD = 0, CR_RESTART_CHILD = 1, CR_DELETE_CHILD = 2 }; /* the API (SPEC §20) */

/* Reasons (SPEC §15), version 2's third value type: a failure code written in the
** program is its name id (>= 0); every other reason, and every code the runtime
** makes, is one of these. One reason, one value: `==` is integer equality. The
** first six are also version 1's exit reasons. */
enum {
  CR_R_NORMAL = -2,
  CR_R_SHUTDOWN = -3,
  CR_R_NO_HANDLER = -4,
  CR_R_DIV_ZERO = -5,
  CR_R_SYSTEM_LIMIT = -6,
  CR_R_NOPROC_CODE = -7, /* NOPROC */
  CR_R_KILLED = -8,
  CR_R_NOPROC = -9,      /* noproc */
  CR_R_CALLING_SELF = -10,
  CR_R_BAD_REPLY = -11,
  CR_R_NORMAL_CODE = -12,
  CR_R_SHUTDOWN_CODE = -13,
  CR_R_KILLED_CODE = -14
};

/* The running process, as emitted code sees it. */
typedef struct cr_ctx {
  cr_value *params;     /* the kind's parameters (read only) */
  cr_value *state;      /* the state fields, in declaration order */
  const cr_value *args; /* the handler's parameters; NULL in init and initialisers */
  int32_t self;         /* the process's name id */
  void *rt;             /* the runtime's own data */
  /* Version 2, handlers that contain a `call` (SPEC §18.1): such a handler is
  ** resumable. It starts at `resume` 0, and after a wait it is entered again with
  ** the number of the call it waited in; the counters of the `repeat`s around a
  ** call live in loops[] (the runtime keeps them across the wait). */
  int32_t resume;
  cr_value *loops;
} cr_ctx;

typedef void (*cr_body)(cr_ctx *c); /* an init body, a handler body, or the state initialiser */

/* A message signature: tag and argument types (SPEC §6.5 matching). */
typedef struct {
  const char *tag;
  int32_t nargs;
  const uint8_t *types; /* CR_INT / CR_ADDR / CR_REASON per argument */
} cr_sig;

typedef struct {
  const char *name;             /* "Worker" */
  const char *spawn_prefix;     /* "worker-": spawned names are prefix + N (SPEC §2) */
  int32_t nparams;
  int32_t nstate;
  const char *const *state_names; /* [nstate] */
  const uint8_t *state_types;     /* [nstate] */
  cr_body init_state;           /* sets c->state[0..nstate) from params and self (v1: cannot fail) */
  cr_body init;                 /* the init body (version 1: cannot fail; version 2: §19.1) */
  const cr_body *handler_of_sig; /* [nsigs]: the handler for a signature, or NULL: NO_HANDLER */
} cr_kind;

/* A declared process or supervisor: a root, or a supervisor's static child. */
typedef struct {
  int32_t is_sup;        /* 1: supervisor `sup`; 0: worker */
  int32_t restart;       /* children only: CR_PERMANENT... */
  int32_t name;          /* name id */
  int32_t kind;          /* worker: kind index */
  int32_t nargs;         /* worker: constant arguments (addrs as name ids) */
  const cr_value *args;
  int32_t sup;           /* supervisor: its slot in cr_program.sups */
  int32_t significant;   /* children only, version 2: a significant child (SPEC §21) */
} cr_decl;

typedef struct {
  int32_t name;          /* name id */
  int32_t strategy;      /* CR_ONE_FOR_ONE... */
  int64_t intensity;     /* MaxR (SPEC §7.4) */
  int32_t parent;        /* slot of its supervisor, -1 for a root */
  int32_t nchildren;
  const cr_decl *children; /* static children, in declaration order */
  int32_t auto_shutdown; /* version 2: CR_NEVER... (SPEC §21) */
} cr_sup;

typedef struct {
  int32_t to;            /* name id */
  int32_t sig;
  int32_t nargs;
  const cr_value *args;  /* constants (addrs as name ids) */
} cr_given;

typedef struct {
  int32_t nnames;
  const char *const *names; /* program name ids: declared names, addr literals, failure codes */
  int32_t nsigs;
  const cr_sig *sigs;
  int32_t nkinds;
  const cr_kind *kinds;
  int32_t nroots;
  const cr_decl *roots;     /* started in order at turn 0 (SPEC §8.2) */
  int32_t nsups;
  const cr_sup *sups;       /* every supervisor, depth-first pre-order (SPEC §9.1) */
  int32_t ngiven;
  const cr_given *given;
  int32_t version;          /* 1 or 2 (SPEC §14): version 2 runs by §17's settle loop */
  int32_t exit_sig, down_sig; /* version 2: the signatures exit(addr, reason), down(addr, reason) */
} cr_program;

extern const cr_program cr_the_program; /* defined by the emitted file */

/* --- effects, called by emitted code (SPEC §6) ------------------------------ */

/* §6.5: enqueue at the live process named `to`, or journal a drop. */
void cr_send(cr_ctx *c, cr_value to, int32_t sig, int32_t nargs, const cr_value *args);
/* §6.6: returns the new process's name id; may end the handler (SYSTEM_LIMIT,
** NOPROC). sup: supervisor slot or -1; restart: its restart type when sup >= 0. */
cr_value cr_spawn(cr_ctx *c, int32_t kind, int32_t nargs, const cr_value *args, int32_t sup, int32_t restart);
/* §6.4: end the handler; the process exits with reason normal / code (a name id). */
_Noreturn void cr_stop(cr_ctx *c);
_Noreturn void cr_fail(cr_ctx *c, int32_t code);
_Noreturn void cr_div_zero(cr_ctx *c);

/* --- version 2 (SPEC §16, §18-§20): emitted only for a `concord 2` program ----- */
void cr_send2(cr_ctx *c, cr_value to, int32_t sig, int32_t nargs, const cr_value *args); /* §6.5, §18.3 */
/* §6.6, §19.4: a start that fails or is ignored does not fail the spawner; then the run settles. */
cr_value cr_spawn2(cr_ctx *c, int32_t kind, int32_t nargs, const cr_value *args, int32_t sup, int32_t restart,
                   int32_t significant);
_Noreturn void cr_stop_reason(cr_ctx *c, cr_value reason); /* §16.2 stop e */
_Noreturn void cr_ignore(cr_ctx *c);                       /* §19.1 */
void cr_link(cr_ctx *c, cr_value to);                      /* §16.2 */
void cr_unlink(cr_ctx *c, cr_value to);
void cr_monitor(cr_ctx *c, cr_value to);
void cr_demonitor(cr_ctx *c, cr_value to);
void cr_trap_exit(cr_ctx *c, cr_value on);
void cr_exit(cr_ctx *c, cr_value to, cr_value reason, int32_t kill); /* §16.2, §16.3 */
/* §18.1: returns 1 when the caller now waits (the handler returns at once, and is
** entered again at `point` when it resumes); may end the handler (CALLING_SELF, NOPROC). */
int cr_call(cr_ctx *c, cr_value to, int32_t sig, int32_t nargs, const cr_value *args, int32_t bind, int32_t point);
void cr_reply(cr_ctx *c, cr_value v, int32_t type);       /* §18.1 */
/* §20: the result's number (0 ok ... 5 failed); may end the handler (NOPROC, or a signal meanwhile). */
cr_value cr_api(cr_ctx *c, int32_t op, int32_t sup, cr_value child);

/* --- int64 arithmetic of SPEC §5, without undefined behaviour ------------------
** Wrapping goes through uint64_t (defined modulo 2^64); converting back is
** two's complement on every compiler concord supports (gcc, clang, tcc). */
static inline cr_value cr_wrap(uint64_t x) { return (cr_value)x; }
static inline cr_value cr_add(cr_value a, cr_value b) { return cr_wrap((uint64_t)a + (uint64_t)b); }
static inline cr_value cr_sub(cr_value a, cr_value b) { return cr_wrap((uint64_t)a - (uint64_t)b); }
static inline cr_value cr_mul(cr_value a, cr_value b) {
#ifdef CONCORD_FAULT_MUL_SATURATES /* planted fault: * saturates at the int64 bounds instead of wrapping */
  cr_value p = cr_wrap((uint64_t)a * (uint64_t)b);
  if ((a == -1 && b == INT64_MIN) || (b == -1 && a == INT64_MIN) || (a != 0 && a != -1 && p / a != b))
    return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
#endif
  return cr_wrap((uint64_t)a * (uint64_t)b);
}
static inline cr_value cr_neg(cr_value a) { return cr_wrap((uint64_t)0 - (uint64_t)a); }
static inline cr_value cr_not(cr_value a) { return a == 0; }
static inline cr_value cr_bnot(cr_value a) { return ~a; }
static inline cr_value cr_div(cr_ctx *c, cr_value a, cr_value b) {
  if (b == 0) cr_div_zero(c);
#ifdef CONCORD_FAULT_DIV_OVERFLOW_CLAMPS /* planted fault (held out 3): (-2^63) / (-1) clamps to 2^63-1, not wraps */
  if (b == -1 && a == INT64_MIN) return INT64_MAX;
#endif
  return b == -1 ? cr_neg(a) : a / b;
}
static inline cr_value cr_rem(cr_ctx *c, cr_value a, cr_value b) {
  if (b == 0) cr_div_zero(c);
#ifdef CONCORD_FAULT_REM_SIGN_OF_DIVISOR /* planted fault: % takes the divisor's sign (floored), not the dividend's */
  if (b != -1 && a % b != 0 && (a % b < 0) != (b < 0)) return a % b + b;
#endif
  return b == -1 ? 0 : a % b;
}
static inline cr_value cr_shl(cr_value a, cr_value b) {
#ifdef CONCORD_FAULT_SHIFT_COUNT_UNMASKED /* planted fault: a count outside 0..63 shifts every bit out, not mod 64 */
  if ((uint64_t)b > 63) return 0;
#endif
  return cr_wrap((uint64_t)a << ((uint64_t)b & 63));
}
/* Arithmetic shift right without relying on >> of a negative value. */
static inline cr_value cr_shr(cr_value a, cr_value b) {
#ifdef CONCORD_FAULT_SHIFT_COUNT_UNMASKED /* (the same fault, for >>) */
  if ((uint64_t)b > 63) return a < 0 ? -1 : 0;
#endif
  unsigned n = (unsigned)((uint64_t)b & 63);
  uint64_t u = (uint64_t)a >> n;
#ifdef CONCORD_FAULT_SHR_FILLS_ZEROS /* planted fault (held out): >> of a negative value shifts zeros in (logical) */
  return cr_wrap(u);
#endif
  if (a < 0 && n > 0) u |= ~(~(uint64_t)0 >> n);
  return cr_wrap(u);
}
#ifdef CONCORD_FAULT_LT_UNSIGNED /* planted fault (held out 2): < compares the unsigned 64-bit patterns */
static inline cr_value cr_lt(cr_value a, cr_value b) { return (uint64_t)a < (uint64_t)b; }
#else
static inline cr_value cr_lt(cr_value a, cr_value b) { return a < b; }
#endif
static inline cr_value cr_le(cr_value a, cr_value b) { return a <= b; }
static inline cr_value cr_gt(cr_value a, cr_value b) { return a > b; }
static inline cr_value cr_ge(cr_value a, cr_value b) { return a >= b; }
static inline cr_value cr_eq(cr_value a, cr_value b) { return a == b; }
static inline cr_value cr_ne(cr_value a, cr_value b) { return a != b; }
static inline cr_value cr_band(cr_value a, cr_value b) { return a & b; }
static inline cr_value cr_bxor(cr_value a, cr_value b) { return a ^ b; }
static inline cr_value cr_bor(cr_value a, cr_value b) { return a | b; }

#endif
