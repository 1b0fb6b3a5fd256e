/* targets/c/runtime/world.h: the state of one run (SPEC §6-§8), plain data, as
** the oracle's oracle/state.hpp; rt.h lists the functions that work on it.
**
** Invariants (checked by reading, kept by the functions of rt.h):
** - Name ids: [0, nnames) are the program's names (cr_the_program.names). A
**   spawned process whose name k-N is not one of them gets the id nnames + its
**   process id, so that id needs no table: name -> process is prog_proc[] below
**   nnames and arithmetic above. No string of a spawned name is ever stored: it
**   is the kind's spawn_prefix followed by the process's `num`.
** - Every name of the run is in the hash index (`hash`), program names from the
**   start, spawned names from their spawn. A name has one id and, once it has
**   come to life, one process id for the whole run (a restart reuses both).
** - A worker is *ready* iff it is alive and its mailbox holds a message; the
**   ready bitmap holds exactly those ids (mark_ready() keeps it so), except
**   for the running process during its own handler (re-marked after it).
** - A process owns its params/state block and its mailbox; an exit frees the
**   mailbox (and, for an unsupervised process, which never restarts, the block).
** - Supervisors have no process id: one slot each, by pre-order (the program's
**   sups table); a restart of a supervisor is a new incarnation in its slot.
** - `live` counts alive workers (the process limit, SPEC §6.6).
** - Everything a run allocates hangs off this struct, so world_free() can free
**   it all from any allocation point, including after an out-of-memory longjmp. */
#ifndef CONCORD_WORLD_H
#define CONCORD_WORLD_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "concord_rt.h"

#define RT_MAX_ARGS 16     /* SPEC §11: arguments per message, parameters per kind */
#define RT_CHUNK_BITS 10   /* processes are stored in chunks of 1024: stable addresses */
#define RT_CHUNK (1 << RT_CHUNK_BITS)

/* Exit reasons: a program name id (a failure code of `fail`) when >= 0, else: */
enum {
  RT_NONE = -1,        /* the handler returned: no exit */
  RT_NORMAL = -2,      /* stop */
  RT_SHUTDOWN = -3,    /* terminated by its supervisor, or a supervisor giving up */
  RT_NO_HANDLER = -4,  /* SPEC §6.5 */
  RT_DIV_ZERO = -5,    /* SPEC §5 */
  RT_SYSTEM_LIMIT = -6,/* SPEC §6.6 step 1 */
  RT_NOPROC = -7,      /* SPEC §6.6 step 2 */
  /* version 2 (concord_rt.h's CR_R_*, SPEC §15) */
  RT_KILLED = CR_R_KILLED,
  RT_NOPROC_REASON = CR_R_NOPROC,
  RT_CALLING_SELF = CR_R_CALLING_SELF,
  RT_BAD_REPLY = CR_R_BAD_REPLY,
  RT_NORMAL_CODE = CR_R_NORMAL_CODE,
  RT_SHUTDOWN_CODE = CR_R_SHUTDOWN_CODE,
  RT_KILLED_CODE = CR_R_KILLED_CODE,
  RT_KILL = -15        /* not a reason: the `kill` of exit(e, kill), in signals only */
};

enum { RT_RESTART = 0, RT_KEEP = 1, RT_REMOVE = 2, RT_GIVE_UP = 3, RT_AUTO_SHUTDOWN = 4 }; /* decision actions */

#define RT_MAX_LOOPS 64 /* SPEC §4.13: repeats nest at most 64 deep, one counter slot per depth */
#define RT_MAX_ACTS 4   /* version 2: a handler, and inside its spawn or API statement an init */

/* An append-only log of event records (journal.c): the journal, failures or
** decisions of a run (SPEC §9.1), a few bytes per event, in a chain of blocks
** that never move (no copying as it grows). Rendered as text only at the end. */
typedef struct rt_block {
  struct rt_block *next;
  size_t len;              /* bytes of data[] in use */
  size_t cap;              /* bytes of data[] */
  unsigned char data[];
} rt_block;

typedef struct rt_log {
  rt_block *first;
  rt_block *last;          /* where records are appended */
  size_t bytes;            /* allocated, block headers included (CONCORD_RT_STATS) */
  int64_t turn;            /* turn of the last record: a record holds the difference */
} rt_log;

/* A FIFO of messages in one ring of 64-bit words, allocated on the first
** message, doubled when full, kept (emptied) when drained. A message is one
** header word, (from + 1) << 32 | sig, then its arguments; their number is the
** signature's, so it is not stored. */
typedef struct rt_mailbox {
  uint32_t head; /* index of the oldest word */
  uint32_t used; /* words in use */
  uint32_t cap;  /* words; a power of two */
  uint32_t pad;
  cr_value w[];  /* [cap] */
} rt_mailbox;

/* A worker process: 32 bytes on LP64, nothing else allocated until needed. */
typedef struct rt_proc {
  cr_value *vals;        /* params [0, nparams) then state fields; NULL if both empty
                            or freed after the exit of an unsupervised process */
  rt_mailbox *mbox;      /* NULL until the first message, and after an exit */
  int32_t name;          /* name id */
  int32_t sup;           /* slot of the supervisor it is a child of; -1 unsupervised */
  int32_t num;           /* spawned: N of its name k-N; 0 for a declared process */
  unsigned int kind : 31;/* index into the program's kinds */
  unsigned int alive : 1;
} rt_proc;

/* An entry of a supervisor's child list (SPEC §7.1). */
typedef struct rt_child {
  int32_t name;          /* name id of the child (worker or supervisor) */
  int32_t ref;           /* worker: its process id; supervisor: its slot */
  uint8_t restart;       /* CR_PERMANENT... */
  uint8_t is_sup;
  uint8_t running;       /* 0: a transient child that ended, kept (§7.1) */
  uint8_t significant;   /* version 2 (§21) */
  uint8_t restarting;    /* version 2: a failed restart whose retry is pending (§19.3) */
} rt_child;

/* Version 2: a supervisor's pending item (§17.3), the exit of a child or the retry
** of a failed restart. */
typedef struct rt_pending {
  int32_t child;         /* name id of the child */
  int32_t reason;        /* exit: its reason; RT_NONE: a retry */
} rt_pending;

typedef struct rt_sup {
  rt_child *children;    /* the child list, in start order */
  size_t nchildren;
  size_t cap;
  int64_t restarts;      /* restarts of this incarnation (§7.4) */
  int alive;
  rt_pending *pending;   /* version 2: [pending_head, pending_head + npending), in the order they came */
  size_t pending_head, npending, pending_cap;
} rt_sup;

/* --- version 2 (SPEC §16-§18): what a worker has besides v1's rt_proc ----------- */

typedef struct rt_mon {  /* one side of a monitor (§16.1) */
  int64_t number;        /* creation number, counted over the run */
  int32_t other;         /* held: the target's id; watched: the holder's id */
  int32_t call;          /* the monitor a waiting caller holds on its callee (§18.1) */
} rt_mon;

typedef struct rt_mons {
  rt_mon *v;             /* in creation order */
  uint32_t n, cap;
} rt_mons;

/* A worker waiting in a call (§18.1), with its handler's continuation. */
typedef struct rt_wait {
  int32_t callee;        /* id */
  int32_t callee_name;
  int32_t bind;          /* state field for the reply, -1 none */
  int32_t point;         /* where the resumable handler goes on */
  int32_t replied;       /* the reply has come: ready (§18.3) */
  int32_t vtype;         /* the reply's type */
  cr_value value;
  int32_t sig;           /* the handler's signature: the number of its args */
  int32_t serving, serving_inc, self_exit; /* the activation's own (rt_act) */
  cr_value args[RT_MAX_ARGS];
  cr_value loops[RT_MAX_LOOPS];
} rt_wait;

typedef struct rt_pext {
  uint32_t inc;          /* incarnation: a signal is for one (§16.3) */
  uint8_t trap;          /* trap flag */
  uint8_t blocked;       /* settling inside its own spawn or API statement (§16.6) */
  int32_t *links;        /* ids of linked workers (symmetric) */
  uint32_t nlinks, links_cap;
  rt_mons held, watched; /* monitors it holds; monitors held on it */
  rt_wait *wait;         /* waiting in a call, or NULL */
} rt_pext;

/* A signal on its way (§16.3) in the signal queue (§17.1 step 3). */
enum { SIG_LINK = 0, SIG_EXIT = 1, SIG_DOWN = 2, SIG_CALL = 3 };
enum { EFF_EXIT = 0, EFF_MESSAGE = 1, EFF_IGNORE = 2 };
typedef struct rt_signal {
  int32_t kind;
  int32_t from;          /* name id: the exiting process, or the sender of exit(...) */
  int32_t to;            /* id of the receiver */
  uint32_t to_inc;       /* ... the incarnation it is for */
  int32_t reason;        /* RT_KILL for exit(e, kill) */
} rt_signal;

/* Running code (version 2): a handler, or an init, each ended early by a longjmp
** to its own jb; they nest (an init inside a spawn's settle). */
typedef struct rt_act {
  jmp_buf jb;
  int32_t id;            /* the process running it */
  uint32_t inc;
  int32_t end_reason;    /* set before the longjmp */
  int32_t gone;          /* it exited already (a signal, exit(self, ...)) */
  int32_t ignore;        /* init returned ignore */
  int32_t sig;           /* a handler's signature, -1 for init */
  int32_t serving, serving_inc; /* the waiting caller a `reply` answers; -1 none */
  int32_t self_exit;     /* §16.3 exit(self, R), trapping and unsupervised: R; RT_NONE */
  cr_value loops[RT_MAX_LOOPS];
} rt_act;

typedef struct rt_world {
  const cr_program *prog;
  uint64_t seed;           /* the settings, echoed in the result */
  int64_t turn_limit;
  int64_t max_processes;
  uint64_t rng;            /* SplitMix64 state (SPEC §8.3) */
  int64_t turn;            /* current turn number; 0 at start; = turns executed */

  /* names (names.c) */
  int32_t *prog_proc;      /* [nnames]: program name id -> process id, -1 if none yet */
  int32_t *hash;           /* open addressing, linear probing: name ids, -1 empty */
  size_t hash_cap;         /* slots, a power of two; load kept <= 1/2 */
  size_t hash_count;
  size_t *prefix_len;      /* [nkinds]: strlen of each kind's spawn_prefix */
  int64_t *spawned;        /* [nkinds]: successful spawns so far (SPEC §2) */

  /* processes (processes.c) */
  rt_proc **chunks;        /* process id -> chunks[id >> RT_CHUNK_BITS][id & (RT_CHUNK-1)] */
  size_t nchunks;          /* allocated chunks */
  size_t chunks_cap;       /* slots of `chunks` */
  int32_t nprocs;          /* processes ever created; their slots are initialised */
  int64_t live;            /* alive workers */

  /* the ready set (ready.c): bitmap of ids + Fenwick tree over its words' popcounts */
  uint64_t *ready_bits;    /* [ready_cap] */
  int32_t *ready_tree;     /* [ready_cap + 1], 1-based */
  size_t ready_cap;        /* words; a power of two, or 0 */
  int64_t ready_count;

  rt_sup *sups;            /* [nsups], by pre-order slot */

  /* the result's arrays, as records, in the order of their events (journal.c) */
  rt_log journal;
  rt_log failures;
  rt_log decisions;

  /* every name, tag, kind name, spawn prefix and state name of the program as
  ** JSON text, made just before the result is written (journal.c) */
  char *quoted;            /* the texts, one after another */
  size_t *quoted_at;       /* [nquoted + 1]: text i is quoted[quoted_at[i], quoted_at[i+1]) */
  size_t *quoted_state;    /* [nkinds]: index of the kind's first state name */

  /* the running handler (processes.c): how it ends early */
  jmp_buf handler_jb;
  int in_handler;
  int32_t handler_self;    /* name id of the process whose handler runs */
  int32_t end_reason;      /* set before the longjmp to handler_jb */

  /* version 2 (v2_*.c); untouched by a version 1 program */
  rt_pext **ext;           /* process id -> ext[id >> RT_CHUNK_BITS][...], parallel to chunks */
  size_t n_ext, ext_cap;   /* allocated ext chunks, slots of `ext` */
  rt_signal *sigq;         /* the signal queue: a ring */
  size_t sigq_head, sigq_len, sigq_cap;
  int64_t pending_items;   /* pending items of all supervisors (§17.3) */
  int64_t monitors_made;   /* creation numbers (§16.1) */
  int64_t waiting;         /* live workers waiting in a call (§18.3) */
  rt_act acts[RT_MAX_ACTS];
  int nacts;

  /* out of memory or an internal error: the run is abandoned (rt_main.c) */
  jmp_buf fatal_jb;
  const char *fatal_message; /* NULL: out of memory; else INTERNAL's message */
} rt_world;

#endif
