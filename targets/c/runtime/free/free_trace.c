/* targets/c/runtime/free/free_trace.c: a free run's events as they happen, each
** incarnation's in its own text, and the trace they make at the end (SPEC §25.6).
** A worker's events are records written by the thread that runs it (a turn's
** deliver under the mailbox lock that takes its message), a supervisor's text under
** the supervision lock. Names, tags and codes are
** identifiers (§2): nothing to escape. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "free.h"

/* A name as the run goes (a supervisor's events): the trace, written at the end, uses
** the quoted copies below. */
static void put_name_plain(fr_buf *b, int32_t id) {
  BUF_LIT(b, "\"");
  buf_str(b, fr_name_text(id));
  BUF_LIT(b, "\"");
}

/* The trace repeats a few names and tags millions of times (two or three a light
** turn): each is quoted once into an arena, padded to a multiple of 16 bytes, and
** copied 16 bytes at a time: no strlen, no call. Only the thread writing the trace,
** after the run, uses them: while it goes, qnames is NULL. */
typedef struct quoted {
  uint32_t at, len; /* into arena; len 0: not quoted yet */
} quoted;
static fr_buf arena;
static quoted *qnames, *qtags; /* [names at the end of the run], [prog->nsigs] */
static int32_t nqnames;

static quoted quote(const char *text) {
  size_t len = strlen(text) + 2, padded = (len + 15) & ~(size_t)15;
  if (arena.len + padded > UINT32_MAX) fr_out_of_memory();
  quoted q = {(uint32_t)arena.len, (uint32_t)len};
  char *o = buf_room(&arena, padded);
  o[0] = '"';
  memcpy(o + 1, text, len - 2);
  o[len - 1] = '"';
  memset(o + len, 0, padded - len);
  arena.len += padded;
  return q;
}

static inline void put_quoted(fr_buf *b, quoted q) {
  char *o = buf_room(b, (size_t)q.len + 16);
  const char *s = arena.p + q.at;
  for (uint32_t i = 0; i < q.len; i += 16) memcpy(o + i, s + i, 16);
  b->len += q.len;
}

static inline void put_name(fr_buf *b, int32_t id) {
  if (id >= nqnames) { /* while the run goes */
    put_name_plain(b, id);
    return;
  }
  if (!qnames[id].len) qnames[id] = quote(fr_name_text(id));
  put_quoted(b, qnames[id]);
}

static void quoted_init(void) {
  nqnames = (int32_t)atomic_load(&fr_w.nnames);
  qnames = fr_calloc((size_t)nqnames + 1, sizeof *qnames);
  qtags = fr_calloc((size_t)fr_w.prog->nsigs + 1, sizeof *qtags);
  for (int32_t i = 0; i < fr_w.prog->nsigs; i++) qtags[i] = quote(fr_w.prog->sigs[i].tag);
}

static void quoted_free(void) {
  free(qnames);
  free(qtags);
  buf_free(&arena);
  qnames = qtags = NULL;
  nqnames = 0;
}

static void put_inc(fr_buf *b, int32_t name, int64_t inc) {
  BUF_LIT(b, "[");
  put_name(b, name);
  BUF_LIT(b, ",");
  buf_i64(b, inc);
  BUF_LIT(b, "]");
}

static void put_reason(fr_buf *b, int32_t r) {
  switch (r) {
    case CR_R_NORMAL: BUF_LIT(b, "\"normal\""); return;
    case CR_R_SHUTDOWN: BUF_LIT(b, "\"shutdown\""); return;
    case CR_R_NO_HANDLER: BUF_LIT(b, "\"NO_HANDLER\""); return;
    case CR_R_DIV_ZERO: BUF_LIT(b, "\"DIV_ZERO\""); return;
    case CR_R_SYSTEM_LIMIT: BUF_LIT(b, "\"SYSTEM_LIMIT\""); return;
    case CR_R_NOPROC_CODE: BUF_LIT(b, "\"NOPROC\""); return;
    case CR_R_KILLED: BUF_LIT(b, "\"killed\""); return;
    case CR_R_NOPROC: BUF_LIT(b, "\"noproc\""); return;
    case CR_R_CALLING_SELF: BUF_LIT(b, "\"CALLING_SELF\""); return;
    case CR_R_BAD_REPLY: BUF_LIT(b, "\"BAD_REPLY\""); return;
    case CR_R_NORMAL_CODE: BUF_LIT(b, "\"NORMAL\""); return;
    case CR_R_SHUTDOWN_CODE: BUF_LIT(b, "\"SHUTDOWN\""); return;
    case CR_R_KILLED_CODE: BUF_LIT(b, "\"KILLED\""); return;
    default: put_name(b, r); /* a code of the program */
  }
}

static void put_value(fr_buf *b, cr_value v, int type) {
  if (type == CR_ADDR)
    put_name(b, (int32_t)v);
  else if (type == CR_REASON)
    put_reason(b, (int32_t)v);
  else
    buf_i64(b, v);
}

static void next_event(fr_buf *b) {
  if (b->len) BUF_LIT(b, ",");
}

/* A worker's events are records while the run goes (as the conducted runtime's
** journal): text is made once, at the end, by put_events(). A turn's record is
** R_DELIVER + the kind of its mailbox entry (FR_M_*). */
enum {
  R_DELIVER = FR_M_PLAIN,
  R_DELIVER_NOPROC = FR_M_NOPROC,
  R_RESUME,
  R_SEND,
  R_DROP,
  R_SPAWN,
  R_REFUSED,
  R_REPLY,
  R_API,
  R_ON_NAME /* + EV_LINK ... EV_CALL */
};
typedef struct fr_rec {
  int32_t ev, a; /* a: deliver: the signature; resume: the value's type; send, drop, on a name: to; spawn: the
                    name; refused: the code; api: the op + 8 * the result */
  int64_t n;     /* the effect's number; deliver: the sender's (or the given message's index, or the monitor's) */
  union {
    int64_t inc;         /* send, on a name: the incarnation reached (0: none); spawn: how its start ended */
    const fr_proc *from; /* deliver: the sender (NULL: the outside); resume: the callee */
    const fr_sup *sup;   /* api: the supervisor (NULL: none live) */
  } u;
} fr_rec;

/* A record is kept packed: its ev in a byte, then a, n and u as varints (a zigzagged;
** n as the zigzagged difference from the last record's n of its class, a delivery or
** resumption (a sender's numbers) or an effect (its own, one up each time): usually a
** byte; u: an incarnation number, or a worker's serial + 1, 0 for none, or an api's
** supervisor as its address), then a deliver's arguments or a resume's value,
** zigzagged. A light turn's two records take about 8 bytes, not 48: a free run keeps
** every record to the end, and the memory they fill, zeroed by the kernel as it is
** first touched, was the largest cost of a turn after the locks. */
#define REC_MAX (1 + 3 * 10)
static inline uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t unzigzag(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }
static inline char *put_varint(char *o, uint64_t v) {
  while (v >= 0x80) {
    *o++ = (char)(v | 0x80);
    v >>= 7;
  }
  *o++ = (char)v;
  return o;
}
static uint64_t get_varint(const char **at) {
  const unsigned char *i = (const unsigned char *)*at;
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    v |= (uint64_t)(*i & 0x7f) << shift;
    if (!(*i++ & 0x80)) break;
  }
  *at = (const char *)i;
  return v;
}
static inline int n_class(int ev) { return ev > R_RESUME; } /* fr_proc.ev_n's index */

/* An effect's record, by the thread that runs p: it alone writes p's records while
** it holds p (taking p and handing it on go through p->mx), so no lock is needed.
** values: nvalues more, zigzagged. */
static void rec_put(fr_proc *p, int ev, int64_t a, int64_t n, uint64_t u, const cr_value *values, int32_t nvalues) {
  fr_buf *b = &p->ev;
  size_t room = REC_MAX + 10 * (size_t)nvalues;
  char *o = buf_room(b, room), *start = o;
  int64_t *last = &p->ev_n[n_class(ev)];
  *o++ = (char)ev;
  o = put_varint(o, zigzag(a));
  o = put_varint(o, zigzag((int64_t)((uint64_t)n - (uint64_t)*last))); /* wraps, and back */
  *last = n;
  o = put_varint(o, u);
  for (int32_t i = 0; i < nvalues; i++) o = put_varint(o, zigzag(values[i]));
  b->len += (size_t)(o - start);
}

static uint64_t serial_of(const fr_proc *w) { return w ? (uint64_t)w->serial + 1 : 0; }

void ev_deliver_locked(fr_proc *p, const fr_msg *m) {
  rec_put(p, R_DELIVER + m->kind, m->sig, m->n, serial_of(m->from), m->args, m->nargs);
}

void ev_resume_locked(fr_proc *p, const fr_wait *wt) {
  rec_put(p, R_RESUME, wt->vtype, wt->reply_n, serial_of(wt->reply_from), &wt->value, 1);
}

void ev_send(fr_proc *p, int64_t n, int32_t to, const fr_proc *reached) {
  rec_put(p, reached ? R_SEND : R_DROP, to, n, reached ? (uint64_t)reached->inc : 0, NULL, 0);
}

void ev_spawn(fr_proc *p, int64_t n, int32_t name, int how) { rec_put(p, R_SPAWN, name, n, (uint64_t)how, NULL, 0); }

void ev_spawn_refused(fr_proc *p, int64_t n, int32_t code) { rec_put(p, R_REFUSED, code, n, 0, NULL, 0); }

void ev_on_name(fr_proc *p, int what, int64_t n, int32_t to, const fr_proc *found) {
  rec_put(p, R_ON_NAME + what, to, n, found ? (uint64_t)found->inc : 0, NULL, 0);
}

void ev_reply(fr_proc *p, int64_t n) { rec_put(p, R_REPLY, 0, n, 0, NULL, 0); }

void ev_api(fr_proc *p, int64_t n, int op, const fr_sup *s, int result) {
  rec_put(p, R_API, op + 8 * result, n, (uint64_t)(uintptr_t)s, NULL, 0);
}

/* Every worker incarnation by its serial, for the records' senders and callees: made
** when the trace is written. */
static const fr_proc **by_serial;

/* The record at *at, and its values (at most FR_MAX_ARGS) into values; *at moves past
** it; last: the last n of each class, as rec_put() had them. */
static void rec_get(const char **at, fr_rec *r, cr_value *values, int64_t last[2]) {
  r->ev = (unsigned char)*(*at)++;
  r->a = (int32_t)unzigzag(get_varint(at));
  int64_t *l = &last[n_class(r->ev)];
  r->n = *l = (int64_t)((uint64_t)*l + (uint64_t)unzigzag(get_varint(at)));
  uint64_t u = get_varint(at);
  int32_t nvalues = 0;
  if (r->ev <= R_DELIVER_NOPROC || r->ev == R_RESUME) {
    r->u.from = u ? by_serial[u - 1] : NULL;
    nvalues = r->ev == R_RESUME ? 1 : fr_w.prog->sigs[r->a].nargs;
  } else if (r->ev == R_API) {
    r->u.sup = (const fr_sup *)(uintptr_t)u;
  } else {
    r->u.inc = (int64_t)u;
  }
  for (int32_t i = 0; i < nvalues; i++) values[i] = unzigzag(get_varint(at));
}

static void put_args(fr_buf *b, const cr_sig *sig, const cr_value *args) {
  BUF_LIT(b, "\"args\":[");
  for (int32_t i = 0; i < sig->nargs; i++) {
    cr_value v;
    memcpy(&v, args + i, sizeof v);
    if (i) BUF_LIT(b, ",");
    put_value(b, v, sig->types[i]);
  }
  BUF_LIT(b, "]");
}

static void put_system_deliver(fr_buf *b, const fr_rec *r, const cr_value *args) {
  const cr_sig *sig = &fr_w.prog->sigs[r->a];
  BUF_LIT(b, "{\"ev\":\"deliver\",\"tag\":");
  put_quoted(b, qtags[r->a]);
  BUF_LIT(b, ",");
  put_args(b, sig, args);
  switch (r->ev) {
    case R_DELIVER + FR_M_LINK: BUF_LIT(b, ",\"signal\":\"link\",\"from\":"); break;
    case R_DELIVER + FR_M_EXIT: BUF_LIT(b, ",\"signal\":\"exit\",\"from\":"); break;
    case R_DELIVER + FR_M_DOWN: BUF_LIT(b, ",\"signal\":\"down\",\"from\":"); break;
    default:
      BUF_LIT(b, ",\"signal\":\"noproc\",\"n\":");
      buf_i64(b, r->n);
      BUF_LIT(b, "}");
      return;
  }
  put_inc(b, r->u.from->name, r->u.from->inc);
  if (r->ev == R_DELIVER + FR_M_EXIT) BUF_LIT(b, ",\"n\":");
  if (r->ev == R_DELIVER + FR_M_DOWN) BUF_LIT(b, ",\"monitor\":");
  if (r->ev != R_DELIVER + FR_M_LINK) buf_i64(b, r->n);
  BUF_LIT(b, "}");
}

static const char *const on_name_ev[] = {"link", "unlink", "monitor", "demonitor", "exit_signal", "call"};
static const char *const api_ops[] = {"terminate_child", "restart_child", "delete_child"};
static const char *const api_results[] = {"ok", "not_found", "running", "restarting", "ignored", "failed"};
static const char *const spawn_results[] = {"ok", "failed", "ignored"}; /* FR_STARTED_* */

static void put_event(fr_buf *b, const fr_rec *r, const cr_value *args) {
  switch (r->ev) {
    case R_DELIVER:
    case R_DELIVER + FR_M_CALL: {
      const cr_sig *sig = &fr_w.prog->sigs[r->a];
      BUF_LIT(b, "{\"ev\":\"deliver\",\"from\":");
      if (r->u.from)
        put_inc(b, r->u.from->name, r->u.from->inc);
      else
        BUF_LIT(b, "null");
      BUF_LIT(b, ",\"n\":");
      buf_i64(b, r->n);
      BUF_LIT(b, ",\"tag\":");
      put_quoted(b, qtags[r->a]);
      BUF_LIT(b, ",");
      put_args(b, sig, args);
      if (r->ev == R_DELIVER)
        BUF_LIT(b, "}");
      else
        BUF_LIT(b, ",\"call\":true}");
      return;
    }
    case R_DELIVER + FR_M_LINK:
    case R_DELIVER + FR_M_EXIT:
    case R_DELIVER + FR_M_DOWN:
    case R_DELIVER + FR_M_NOPROC: put_system_deliver(b, r, args); return;
    case R_RESUME: {
      cr_value v;
      memcpy(&v, args, sizeof v);
      BUF_LIT(b, "{\"ev\":\"resume\",\"from\":");
      put_inc(b, r->u.from->name, r->u.from->inc);
      BUF_LIT(b, ",\"n\":");
      buf_i64(b, r->n);
      BUF_LIT(b, ",\"value\":");
      put_value(b, v, r->a);
      BUF_LIT(b, "}");
      return;
    }
    case R_SEND:
    case R_DROP:
      if (r->ev == R_SEND)
        BUF_LIT(b, "{\"ev\":\"send\",\"n\":");
      else
        BUF_LIT(b, "{\"ev\":\"drop\",\"n\":");
      buf_i64(b, r->n);
      BUF_LIT(b, ",\"to\":");
      put_name(b, r->a);
      if (r->ev == R_SEND) {
        BUF_LIT(b, ",\"inc\":");
        buf_i64(b, r->u.inc);
      }
      BUF_LIT(b, "}");
      return;
    case R_SPAWN:
      BUF_LIT(b, "{\"ev\":\"spawn\",\"n\":");
      buf_i64(b, r->n);
      BUF_LIT(b, ",\"name\":");
      put_name(b, r->a);
      BUF_LIT(b, ",\"result\":\"");
      buf_str(b, spawn_results[r->u.inc]);
      BUF_LIT(b, "\"}");
      return;
    case R_REFUSED:
      BUF_LIT(b, "{\"ev\":\"spawn\",\"n\":");
      buf_i64(b, r->n);
      BUF_LIT(b, ",\"refused\":");
      put_reason(b, r->a);
      BUF_LIT(b, "}");
      return;
    case R_REPLY:
      BUF_LIT(b, "{\"ev\":\"reply\",\"n\":");
      buf_i64(b, r->n);
      BUF_LIT(b, "}");
      return;
    case R_API:
      BUF_LIT(b, "{\"ev\":\"api\",\"n\":");
      buf_i64(b, r->n);
      BUF_LIT(b, ",\"op\":\"");
      buf_str(b, api_ops[r->a % 8]);
      BUF_LIT(b, "\",\"supervisor\":");
      if (r->u.sup)
        put_inc(b, fr_w.prog->sups[r->u.sup->slot].name, r->u.sup->inc);
      else
        BUF_LIT(b, "null");
      BUF_LIT(b, ",\"result\":\"");
      buf_str(b, api_results[r->a / 8]);
      BUF_LIT(b, "\"}");
      return;
    default: /* on a name */
      BUF_LIT(b, "{\"ev\":\"");
      buf_str(b, on_name_ev[r->ev - R_ON_NAME]);
      BUF_LIT(b, "\",\"n\":");
      buf_i64(b, r->n);
      BUF_LIT(b, ",\"to\":");
      put_name(b, r->a);
      BUF_LIT(b, ",\"inc\":");
      if (r->u.inc)
        buf_i64(b, r->u.inc);
      else
        BUF_LIT(b, "null");
      BUF_LIT(b, "}");
  }
}

void ev_sup_exit(fr_sup *s, const fr_proc *w, const fr_sup *child_sup, int32_t reason) {
  fr_buf *b = &s->ev;
  next_event(b);
  BUF_LIT(b, "{\"ev\":\"exit\",\"child\":");
  if (w)
    put_inc(b, w->name, w->inc);
  else
    put_inc(b, fr_w.prog->sups[child_sup->slot].name, child_sup->inc);
  BUF_LIT(b, ",\"reason\":");
  put_reason(b, reason);
  BUF_LIT(b, "}");
}

void ev_sup_start_child(fr_sup *s, const fr_proc *from, int64_t n, int32_t name) {
  fr_buf *b = &s->ev;
  next_event(b);
  BUF_LIT(b, "{\"ev\":\"start_child\",\"from\":");
  put_inc(b, from->name, from->inc);
  BUF_LIT(b, ",\"n\":");
  buf_i64(b, n);
  BUF_LIT(b, ",\"child\":");
  put_name(b, name);
  BUF_LIT(b, "}");
}

void ev_sup_retry(fr_sup *s, int32_t child) {
  fr_buf *b = &s->ev;
  next_event(b);
  BUF_LIT(b, "{\"ev\":\"retry\",\"child\":");
  put_name(b, child);
  BUF_LIT(b, "}");
}

void ev_sup_api(fr_sup *s, const fr_proc *from, int64_t n) {
  fr_buf *b = &s->ev;
  next_event(b);
  BUF_LIT(b, "{\"ev\":\"api\",\"from\":");
  put_inc(b, from->name, from->inc);
  BUF_LIT(b, ",\"n\":");
  buf_i64(b, n);
  BUF_LIT(b, "}");
}

void ev_sup_decision(fr_sup *s, int32_t child, const char *action) {
  fr_buf *b = &s->ev;
  next_event(b);
  BUF_LIT(b, "{\"ev\":\"decision\",\"child\":");
  put_name(b, child);
  BUF_LIT(b, ",\"action\":\"");
  buf_str(b, action);
  BUF_LIT(b, "\"}");
}

/* --- the trace ------------------------------------------------------------------ */

static void put_by(fr_buf *b, const fr_proc *by_w, const fr_sup *by_s) {
  BUF_LIT(b, ",\"by\":");
  if (by_w)
    put_inc(b, by_w->name, by_w->inc);
  else if (by_s)
    put_inc(b, fr_w.prog->sups[by_s->slot].name, by_s->inc);
  else
    BUF_LIT(b, "null");
}

/* Written in pieces: an incarnation's events go to stdout from its own text, never
** copied into one buffer of the whole trace. */
static void flush_to_stdout(fr_buf *b) {
  fwrite(b->p, 1, b->len, stdout);
  b->len = 0;
}

static void put_worker(fr_buf *b, const fr_proc *p) {
  const cr_kind *k = &fr_w.prog->kinds[p->kind];
  BUF_LIT(b, "{\"name\":");
  put_name(b, p->name);
  BUF_LIT(b, ",\"inc\":");
  buf_i64(b, p->inc);
  BUF_LIT(b, ",\"kind\":\"");
  buf_str(b, k->name);
  BUF_LIT(b, "\"");
  put_by(b, p->by_w, p->by_s);
  BUF_LIT(b, ",\"events\":[");
  int64_t last[2] = {0, 0};
  for (const char *at = p->ev.p, *end = p->ev.p + p->ev.len; at < end;) {
    fr_rec r;
    cr_value values[FR_MAX_ARGS];
    if (at > p->ev.p) BUF_LIT(b, ",");
    rec_get(&at, &r, values, last);
    put_event(b, &r, values);
    if (b->len > (1 << 16)) flush_to_stdout(b);
  }
  BUF_LIT(b, "],\"exit\":");
  if (p->dead) {
    put_reason(b, p->exit_reason);
    BUF_LIT(b, ",\"state\":null}");
    return;
  }
  BUF_LIT(b, "null,\"state\":{");
  for (int32_t i = 0; i < k->nstate; i++) {
    if (i) BUF_LIT(b, ",");
    BUF_LIT(b, "\"");
    buf_str(b, k->state_names[i]);
    BUF_LIT(b, "\":");
    put_value(b, p->state[i], k->state_types[i]);
  }
  BUF_LIT(b, "}}");
}

static void put_supervisor(fr_buf *b, const fr_sup *s) {
  BUF_LIT(b, "{\"name\":");
  put_name(b, fr_w.prog->sups[s->slot].name);
  BUF_LIT(b, ",\"inc\":");
  buf_i64(b, s->inc);
  put_by(b, NULL, s->by);
  BUF_LIT(b, ",\"events\":[");
  if (s->ev.len) buf_put(b, s->ev.p, s->ev.len);
  BUF_LIT(b, "],\"exit\":");
  if (!s->alive) {
    put_reason(b, s->exit_reason);
    BUF_LIT(b, ",\"children\":null}");
    return;
  }
  BUF_LIT(b, "null,\"children\":[");
  for (size_t i = 0; i < s->n; i++) {
    if (i) BUF_LIT(b, ",");
    BUF_LIT(b, "{\"name\":");
    put_name(b, s->children[i].name);
    buf_str(b, s->children[i].running ? ",\"running\":true}" : ",\"running\":false}");
  }
  BUF_LIT(b, "]}");
}

void fr_write_trace(void) {
  fr_buf b = {0};
  quoted_init();
  BUF_LIT(&b, "{\"ok\":true,\"mode\":\"free\",\"run\":{\"seed\":");
  char seed[24];
  snprintf(seed, sizeof seed, "%llu", (unsigned long long)fr_w.seed);
  buf_str(&b, seed);
  BUF_LIT(&b, ",\"turns\":");
  buf_i64(&b, fr_w.turn_limit);
  BUF_LIT(&b, ",\"max_processes\":");
  buf_i64(&b, fr_w.max_processes);
  int waiting = 0; /* §18.3: a worker still waits in a call */
  for (const fr_proc *p = fr_w.all_procs; p && !waiting; p = p->all_next) waiting = !p->dead && p->wait;
  buf_str(&b, atomic_load(&fr_w.limit_hit) ? "},\"outcome\":\"turn_limit\",\"given\":["
              : waiting                    ? "},\"outcome\":\"deadlock\",\"given\":["
                                           : "},\"outcome\":\"quiescent\",\"given\":[");
  for (int32_t i = 0; i < fr_w.prog->ngiven; i++) {
    if (i) BUF_LIT(&b, ",");
    BUF_LIT(&b, "{\"to\":");
    put_name(&b, fr_w.prog->given[i].to);
    BUF_LIT(&b, ",\"inc\":");
    if (fr_w.given_reached[i])
      buf_i64(&b, fr_w.given_reached[i]->inc);
    else
      BUF_LIT(&b, "null");
    BUF_LIT(&b, "}");
  }
  BUF_LIT(&b, "],\"workers\":[");
  by_serial = fr_alloc(sizeof *by_serial * (size_t)(fr_w.nprocs ? fr_w.nprocs : 1));
  for (const fr_proc *p = fr_w.all_procs; p; p = p->all_next) by_serial[p->serial] = p;
  for (const fr_proc *p = fr_w.all_procs; p; p = p->all_next) {
    put_worker(&b, p);
    if (p->all_next) BUF_LIT(&b, ",");
    if (b.len > (1 << 16)) flush_to_stdout(&b);
  }
  BUF_LIT(&b, "],\"supervisors\":[");
  for (const fr_sup *s = fr_w.all_sups; s; s = s->all_next) {
    put_supervisor(&b, s);
    if (s->all_next) BUF_LIT(&b, ",");
    if (b.len > (1 << 16)) flush_to_stdout(&b);
  }
  BUF_LIT(&b, "]}\n");
  flush_to_stdout(&b);
  buf_free(&b);
  free(by_serial);
  by_serial = NULL;
  quoted_free();
}
