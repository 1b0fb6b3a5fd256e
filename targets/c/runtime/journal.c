/* targets/c/runtime/journal.c: the events of a run (SPEC §9.2) and the JSON
** text of its result (SPEC §9.3: no whitespace, minimal escapes, \u00XX in lower
** case), exactly the text of the oracle's LineWriter (oracle/result.cpp).
**
** An event is appended to its log as a compact binary record when it happens
** (a delivery between two processes: 6 bytes) and becomes text only when the
** result is written, through the staging buffer of rt_out. The text would be
** ten or fifteen times larger: with millions of events, touching that much
** fresh memory (page faults) costs more than formatting it.
**
** A record: one byte, its kind (REC_*); the turn, as the difference from the
** log's previous record; then the fields of its kind, each an unsigned number
** in LEB128 (7 bits a byte, low first, high bit set on all but the last):
**   REC_START     name, kind + 1 (0: a supervisor)
**   REC_DELIVER   ready, to, from (0: none, else name code + 1), sig, args
**   REC_DROP      from (as above), to, sig, args
**   REC_EXIT      name, reason + REASON_BIAS     (also REC_FAILURE)
**   REC_DECISION  supervisor, child, action      (also REC_DECISION_ENTRY)
** and for version 2 (SPEC §22):
**   REC_SIGNAL    kind, from, to, reason + REASON_BIAS, effect
**   REC_CALL      as REC_DELIVER (its from is never none)
**   REC_RESUME    ready, to, from, type, value
**   REC_API       from, supervisor, op, child, result
** A name is its name code (name_code(), rt.h); an int or reason argument is zigzag
** coded (small negative numbers stay short), an addr argument is a name code. */
#include <stdio.h>
#include <stdlib.h>

#include "rt.h"

enum {
  REC_START,
  REC_DELIVER,
  REC_DROP,
  REC_EXIT,
  REC_FAILURE,
  REC_DECISION,
  REC_DECISION_ENTRY,
  REC_SIGNAL,
  REC_CALL,
  REC_RESUME,
  REC_API
};

#define REASON_BIAS 16 /* reasons are >= RT_KILL = -15 */

/* The largest record: a kind byte, then at most 5 + RT_MAX_ARGS numbers of at
** most 10 bytes. Each block keeps room for one, so records never straddle blocks. */
#define REC_MAX (1 + 10 * (5 + RT_MAX_ARGS))
#define BLOCK_MIN 1024            /* short runs stay small */
#define BLOCK_MAX ((size_t)1 << 20) /* long ones: few blocks, none wasting much */

/* --- writing records ----------------------------------------------------------- */

static unsigned char *put_num(unsigned char *p, uint64_t v) {
  while (v >= 0x80) {
    *p++ = (unsigned char)(v | 0x80);
    v >>= 7;
  }
  *p++ = (unsigned char)v;
  return p;
}

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (v < 0 ? UINT64_MAX : 0); }

/* A new block, twice the last one's size up to BLOCK_MAX, held by the log at once
** (so an out-of-memory exit after this frees it). */
static void log_grow(rt_world *w, rt_log *l) {
  size_t cap = l->last ? 2 * l->last->cap : BLOCK_MIN;
  if (cap > BLOCK_MAX) cap = BLOCK_MAX;
  rt_block *b = rt_alloc(w, sizeof *b + cap);
  b->next = NULL;
  b->len = 0;
  b->cap = cap;
  if (l->last) l->last->next = b;
  else l->first = b;
  l->last = b;
  l->bytes += sizeof *b + cap;
}

/* Starts a record: room for the largest one, its kind and turn; the caller
** writes the fields and ends it with rec_end(). */
static unsigned char *rec_begin(rt_world *w, rt_log *l, int kind) {
  if (!l->last || l->last->cap - l->last->len < REC_MAX) log_grow(w, l);
  unsigned char *p = l->last->data + l->last->len;
  *p++ = (unsigned char)kind;
  p = put_num(p, (uint64_t)(w->turn - l->turn));
  l->turn = w->turn;
  return p;
}

static void rec_end(rt_log *l, const unsigned char *end) { l->last->len = (size_t)(end - l->last->data); }

static unsigned char *put_name(const rt_world *w, unsigned char *p, int32_t name) {
  return put_num(p, name_code(w, name));
}

static unsigned char *put_from(const rt_world *w, unsigned char *p, int32_t from) {
  return put_num(p, from < 0 ? 0 : name_code(w, from) + 1);
}

static unsigned char *put_args(const rt_world *w, unsigned char *p, int32_t sig, const cr_value *args) {
  const cr_sig *s = &w->prog->sigs[sig];
  p = put_num(p, (uint64_t)sig);
  for (int32_t i = 0; i < s->nargs; i++)
    p = put_num(p, s->types[i] == CR_ADDR ? name_code(w, (int32_t)args[i]) : zigzag(args[i])); /* reason: zigzag */
  return p;
}

void jr_start(rt_world *w, int32_t name, int32_t kind) {
  unsigned char *p = rec_begin(w, &w->journal, REC_START);
  p = put_name(w, p, name);
  p = put_num(p, (uint64_t)(kind + 1));
  rec_end(&w->journal, p);
}

void jr_deliver(rt_world *w, int64_t ready, int32_t to, int32_t from, int32_t sig, const cr_value *args) {
  unsigned char *p = rec_begin(w, &w->journal, REC_DELIVER);
  p = put_num(p, (uint64_t)ready);
  p = put_name(w, p, to);
  p = put_from(w, p, from);
  p = put_args(w, p, sig, args);
  rec_end(&w->journal, p);
}

void jr_drop(rt_world *w, int32_t from, int32_t to, int32_t sig, const cr_value *args) {
  unsigned char *p = rec_begin(w, &w->journal, REC_DROP);
  p = put_from(w, p, from);
  p = put_name(w, p, to);
  p = put_args(w, p, sig, args);
  rec_end(&w->journal, p);
}

static void exit_record(rt_world *w, rt_log *l, int kind, int32_t name, int32_t reason) {
  unsigned char *p = rec_begin(w, l, kind);
  p = put_name(w, p, name);
  p = put_num(p, (uint64_t)((int64_t)reason + REASON_BIAS));
  rec_end(l, p);
}

/* The exit event, and for a failure code (not normal, not shutdown) the record
** of `failures` (SPEC §9.1), both in event order. */
void jr_exit(rt_world *w, int32_t name, int32_t reason) {
  exit_record(w, &w->journal, REC_EXIT, name, reason);
  if (reason != RT_NORMAL && reason != RT_SHUTDOWN) exit_record(w, &w->failures, REC_FAILURE, name, reason);
}

static void decision_record(rt_world *w, rt_log *l, int kind, int32_t sup, int32_t child, int action) {
  unsigned char *p = rec_begin(w, l, kind);
  p = put_name(w, p, sup);
  p = put_name(w, p, child);
  *p++ = (unsigned char)action;
  rec_end(l, p);
}

/* The decision event and its record of `decisions` (SPEC §9.1). */
void jr_decision(rt_world *w, int32_t sup_slot, int32_t child, int action) {
  int32_t sup = w->prog->sups[sup_slot].name;
  decision_record(w, &w->journal, REC_DECISION, sup, child, action);
  decision_record(w, &w->decisions, REC_DECISION_ENTRY, sup, child, action);
}

/* --- version 2's events (SPEC §22) --------------------------------------------- */

void jr_call(rt_world *w, int64_t ready, int32_t to, int32_t from, int32_t sig, const cr_value *args) {
  unsigned char *p = rec_begin(w, &w->journal, REC_CALL);
  p = put_num(p, (uint64_t)ready);
  p = put_name(w, p, to);
  p = put_from(w, p, from);
  p = put_args(w, p, sig, args);
  rec_end(&w->journal, p);
}

void jr_resume(rt_world *w, int64_t ready, int32_t to, int32_t from, cr_value value, int type) {
  unsigned char *p = rec_begin(w, &w->journal, REC_RESUME);
  p = put_num(p, (uint64_t)ready);
  p = put_name(w, p, to);
  p = put_name(w, p, from);
  *p++ = (unsigned char)type;
  p = put_num(p, type == CR_ADDR ? name_code(w, (int32_t)value) : zigzag(value));
  rec_end(&w->journal, p);
}

void jr_signal(rt_world *w, int kind, int32_t from, int32_t to, int32_t reason, int effect) {
  unsigned char *p = rec_begin(w, &w->journal, REC_SIGNAL);
  *p++ = (unsigned char)kind;
  p = put_name(w, p, from);
  p = put_name(w, p, to);
  p = put_num(p, (uint64_t)((int64_t)reason + REASON_BIAS));
  *p++ = (unsigned char)effect;
  rec_end(&w->journal, p);
}

void jr_api(rt_world *w, int32_t from, int32_t sup, int op, int32_t child, int result) {
  unsigned char *p = rec_begin(w, &w->journal, REC_API);
  p = put_name(w, p, from);
  p = put_name(w, p, sup);
  *p++ = (unsigned char)op;
  p = put_name(w, p, child);
  *p++ = (unsigned char)result;
  rec_end(&w->journal, p);
}

void log_free(rt_log *l) {
  for (rt_block *b = l->first, *next; b; b = next) {
    next = b->next;
    free(b);
  }
  l->first = l->last = NULL;
  l->bytes = 0;
  l->turn = 0;
}

/* --- text ---------------------------------------------------------------------- */

void out_flush(rt_out *o) {
  if (o->len) fwrite(o->p, 1, o->len, stdout);
  o->len = 0;
}

/* A piece that does not fit: flush, then stage it, or write it directly if it
** is larger than the whole buffer. */
void out_put_slow(rt_out *o, const char *s, size_t n) {
  out_flush(o);
  if (n > o->cap) {
    fwrite(s, 1, n, stdout);
    return;
  }
  memcpy(o->p, s, n);
  o->len = n;
}

static const char two_digits[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Two digits per division: the decimal text of v, ending at `end`; returns its start. */
static char *digits_before(char *end, uint64_t v) {
  while (v >= 100) {
    end -= 2;
    memcpy(end, two_digits + 2 * (v % 100), 2);
    v /= 100;
  }
  if (v >= 10) {
    end -= 2;
    memcpy(end, two_digits + 2 * v, 2);
  } else {
    *--end = (char)('0' + v);
  }
  return end;
}

/* A piece of at most SHORT bytes whose source may be read SHORT bytes from its
** start is copied as a fixed SHORT bytes: compilers make that a few moves, not a
** call of memcpy, which matters for the many short pieces of a journal. The
** bytes past the piece are overwritten by the next one, or never written out. */
#define SHORT 32
static void out_short(rt_out *o, const char *s, size_t n) {
  if (o->cap - o->len < SHORT) out_flush(o);
  memcpy(o->p + o->len, s, SHORT);
  o->len += n;
}

static size_t digit_count(uint64_t v) {
  size_t n = 1;
  for (uint64_t limit = 10; n < 20 && v >= limit; limit *= 10) n++;
  return n;
}

/* Digits are written in place: no copy of freshly stored bytes (which would stall
** the processor's store-to-load forwarding). */
void out_u64(rt_out *o, uint64_t v) {
  size_t n = digit_count(v);
  if (o->cap - o->len < n) out_flush(o);
  digits_before(o->p + o->len + n, v);
  o->len += n;
}

void out_i64(rt_out *o, int64_t v) {
  if (v < 0) {
    OUT_LIT(o, "-");
    out_u64(o, (uint64_t)0 - (uint64_t)v); /* INT64_MIN too, without overflow */
  } else {
    out_u64(o, (uint64_t)v);
  }
}

/* --- quoted strings: each escaped once per result, then copied ------------------ */

/* The JSON text of s[0, n) without its quotes, written to `to` unless NULL;
** returns its length. */
static size_t escape(char *to, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  char buf[6];
  size_t len = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    size_t k = 2;
    buf[0] = '\\';
    switch (c) {
      case '"': buf[1] = '"'; break;
      case '\\': buf[1] = '\\'; break;
      case '\b': buf[1] = 'b'; break;
      case '\f': buf[1] = 'f'; break;
      case '\n': buf[1] = 'n'; break;
      case '\r': buf[1] = 'r'; break;
      case '\t': buf[1] = 't'; break;
      default:
        if (c >= 0x20) {
          buf[0] = (char)c;
          k = 1;
        } else {
          memcpy(buf + 1, "u00", 3);
          buf[4] = hex[c >> 4];
          buf[5] = hex[c & 15];
          k = 6;
        }
    }
    if (to) memcpy(to + len, buf, k);
    len += k;
  }
  return len;
}

/* The quoted texts, in this order (the index of each is computed, not stored):
** program names, tags, kind names, spawn prefixes (an opening quote only: a
** spawned name is its prefix's text, the digits of N and a closing quote), and
** state names kind by kind (quoted_state). */
static size_t q_tag(const rt_world *w, int32_t sig) { return (size_t)w->prog->nnames + (size_t)sig; }
static size_t q_kind(const rt_world *w, int32_t kind) { return q_tag(w, w->prog->nsigs) + (size_t)kind; }
static size_t q_prefix(const rt_world *w, int32_t kind) { return q_kind(w, w->prog->nkinds) + (size_t)kind; }

/* Text i of the table: its offset is measured when w->quoted is NULL, else its
** text is written there. */
static void quote(rt_world *w, size_t *i, const char *s, int closed) {
  size_t n = strlen(s);
  if (!w->quoted) {
    size_t at = w->quoted_at[*i], len = 1 + escape(NULL, s, n) + (size_t)closed;
    if (len > SIZE_MAX - SHORT - at) rt_out_of_memory(w); /* the padding must fit too */
    w->quoted_at[++*i] = at + len;
    return;
  }
  char *q = w->quoted + w->quoted_at[(*i)++];
  *q++ = '"';
  q += escape(q, s, n);
  if (closed) *q = '"';
}

static void quote_all(rt_world *w) {
  const cr_program *p = w->prog;
  size_t i = 0;
  for (int32_t k = 0; k < p->nnames; k++) quote(w, &i, p->names[k], 1);
  for (int32_t k = 0; k < p->nsigs; k++) quote(w, &i, p->sigs[k].tag, 1);
  for (int32_t k = 0; k < p->nkinds; k++) quote(w, &i, p->kinds[k].name, 1);
  for (int32_t k = 0; k < p->nkinds; k++) quote(w, &i, p->kinds[k].spawn_prefix, 0);
  for (int32_t k = 0; k < p->nkinds; k++)
    for (int32_t f = 0; f < p->kinds[k].nstate; f++) quote(w, &i, p->kinds[k].state_names[f], 1);
}

/* Two passes over the strings: their lengths, then their text. */
void quoted_make(rt_world *w) {
  const cr_program *p = w->prog;
  size_t n = q_prefix(w, p->nkinds);
  w->quoted_state = rt_alloc_array(w, (size_t)p->nkinds, sizeof *w->quoted_state);
  for (int32_t k = 0; k < p->nkinds; k++) {
    w->quoted_state[k] = n;
    n += (size_t)p->kinds[k].nstate;
  }
  w->quoted_at = rt_alloc_array(w, n + 1, sizeof *w->quoted_at);
  w->quoted_at[0] = 0;
  quote_all(w);
  w->quoted = rt_alloc(w, w->quoted_at[n] + SHORT); /* padding: see out_short() */
  memset(w->quoted + w->quoted_at[n], 0, SHORT);
  quote_all(w);
}

void quoted_free(rt_world *w) {
  free(w->quoted);
  free(w->quoted_at);
  free(w->quoted_state);
  w->quoted = NULL;
  w->quoted_at = NULL;
  w->quoted_state = NULL;
}

static void out_quoted(const rt_world *w, rt_out *o, size_t i) {
  size_t n = w->quoted_at[i + 1] - w->quoted_at[i];
  if (n <= SHORT) out_short(o, w->quoted + w->quoted_at[i], n);
  else out_put(o, w->quoted + w->quoted_at[i], n);
}

static void out_name_code(const rt_world *w, rt_out *o, uint64_t code) {
  if (!(code & 1)) {
    out_quoted(w, o, (size_t)(code >> 1));
    return;
  }
  uint64_t nk = (uint64_t)w->prog->nkinds;
  out_quoted(w, o, q_prefix(w, (int32_t)((code >> 1) % nk)));
#ifdef CONCORD_FAULT_SPAWN_DIGITS_REVERSED /* planted fault: a spawned name's number is written backwards */
  {
    char d[24], *end = d + sizeof d, *start = digits_before(end, (code >> 1) / nk);
    while (end > start) out_put(o, --end, 1);
  }
#else
  out_u64(o, (code >> 1) / nk);
#endif
  OUT_LIT(o, "\"");
}

void out_name(const rt_world *w, rt_out *o, int32_t name) { out_name_code(w, o, name_code(w, name)); }
void out_kind(const rt_world *w, rt_out *o, int32_t kind) { out_quoted(w, o, q_kind(w, kind)); }

void out_state_name(const rt_world *w, rt_out *o, int32_t kind, int32_t i) {
  out_quoted(w, o, w->quoted_state[kind] + (size_t)i);
}

static void out_reason_value(const rt_world *w, rt_out *o, int64_t reason);

void out_value(const rt_world *w, rt_out *o, cr_value v, int type) {
  if (type == CR_ADDR) out_name(w, o, (int32_t)v);
  else if (type == CR_REASON) out_reason_value(w, o, v);
  else out_i64(o, v);
}

/* --- records as text ------------------------------------------------------------ */

static uint64_t get_num(const unsigned char **pp) {
  const unsigned char *p = *pp;
  uint64_t v = 0;
  unsigned shift = 0;
  unsigned char b;
  do {
    b = *p++;
    v |= (uint64_t)(b & 0x7f) << shift;
    shift += 7;
  } while (b & 0x80);
  *pp = p;
  return v;
}

/* A reason (SPEC §15) as its JSON string. */
static void out_reason_value(const rt_world *w, rt_out *o, int64_t reason) {
  switch (reason) {
    case RT_NORMAL: OUT_LIT(o, "\"normal\""); break;
    case RT_SHUTDOWN: OUT_LIT(o, "\"shutdown\""); break;
    case RT_NO_HANDLER: OUT_LIT(o, "\"NO_HANDLER\""); break;
    case RT_DIV_ZERO: OUT_LIT(o, "\"DIV_ZERO\""); break;
    case RT_SYSTEM_LIMIT: OUT_LIT(o, "\"SYSTEM_LIMIT\""); break;
    case RT_NOPROC: OUT_LIT(o, "\"NOPROC\""); break;
    case RT_KILLED: OUT_LIT(o, "\"killed\""); break;
    case RT_NOPROC_REASON: OUT_LIT(o, "\"noproc\""); break;
    case RT_CALLING_SELF: OUT_LIT(o, "\"CALLING_SELF\""); break;
    case RT_BAD_REPLY: OUT_LIT(o, "\"BAD_REPLY\""); break;
    case RT_NORMAL_CODE: OUT_LIT(o, "\"NORMAL\""); break;
    case RT_SHUTDOWN_CODE: OUT_LIT(o, "\"SHUTDOWN\""); break;
    case RT_KILLED_CODE: OUT_LIT(o, "\"KILLED\""); break;
    case RT_KILL: OUT_LIT(o, "\"kill\""); break; /* a signal's, for exit(e, kill) */
    default: out_quoted(w, o, (size_t)reason);   /* a failure code: a program name */
  }
}

static void out_reason(const rt_world *w, rt_out *o, uint64_t biased) {
  out_reason_value(w, o, (int64_t)biased - REASON_BIAS);
}

static void out_action(rt_out *o, int action) {
  switch (action) {
    case RT_RESTART: OUT_LIT(o, "\"restart\""); break;
    case RT_KEEP: OUT_LIT(o, "\"keep\""); break;
    case RT_REMOVE: OUT_LIT(o, "\"remove\""); break;
    case RT_AUTO_SHUTDOWN: OUT_LIT(o, "\"auto_shutdown\""); break;
    default: OUT_LIT(o, "\"give_up\""); break;
  }
}

static void out_from(const rt_world *w, rt_out *o, uint64_t from) {
  if (from == 0) OUT_LIT(o, "null");
  else out_name_code(w, o, from - 1);
}

/* ,"tag":T,"args":[...]} of a deliver or drop record. */
static void out_message(const rt_world *w, rt_out *o, const unsigned char **p) {
  int32_t sig = (int32_t)get_num(p);
  const cr_sig *s = &w->prog->sigs[sig];
  OUT_LIT(o, ",\"tag\":");
  out_quoted(w, o, q_tag(w, sig));
  OUT_LIT(o, ",\"args\":[");
  for (int32_t i = 0; i < s->nargs; i++) {
    if (i) OUT_LIT(o, ",");
    uint64_t v = get_num(p);
    cr_value x = cr_wrap((v >> 1) ^ ((uint64_t)0 - (v & 1))); /* zigzag back */
    if (s->types[i] == CR_ADDR) out_name_code(w, o, v);
    else if (s->types[i] == CR_INT) out_i64(o, x);
    else out_reason_value(w, o, x);
  }
  OUT_LIT(o, "]}");
}

/* One record at p, as the text of its array element; returns the next record. */
static const unsigned char *out_record(const rt_world *w, rt_out *o, const unsigned char *p, int64_t *turn) {
  int kind = *p++;
  *turn += (int64_t)get_num(&p);
  switch (kind) {
    case REC_START: {
      OUT_LIT(o, "{\"ev\":\"start\",\"turn\":");
      out_i64(o, *turn);
      OUT_LIT(o, ",\"name\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"kind\":");
      uint64_t k = get_num(&p);
      if (k == 0) OUT_LIT(o, "\"supervisor\"");
      else out_kind(w, o, (int32_t)(k - 1));
      OUT_LIT(o, "}");
      break;
    }
    case REC_DELIVER:
      OUT_LIT(o, "{\"ev\":\"deliver\",\"turn\":");
      out_i64(o, *turn);
      OUT_LIT(o, ",\"ready\":");
      out_u64(o, get_num(&p));
      OUT_LIT(o, ",\"to\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"from\":");
      out_from(w, o, get_num(&p));
      out_message(w, o, &p);
      break;
    case REC_DROP:
      OUT_LIT(o, "{\"ev\":\"drop\",\"turn\":");
      out_i64(o, *turn);
      OUT_LIT(o, ",\"from\":");
      out_from(w, o, get_num(&p));
      OUT_LIT(o, ",\"to\":");
      out_name_code(w, o, get_num(&p));
      out_message(w, o, &p);
      break;
    case REC_EXIT:
      OUT_LIT(o, "{\"ev\":\"exit\",\"turn\":");
      out_i64(o, *turn);
      OUT_LIT(o, ",\"name\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"reason\":");
      out_reason(w, o, get_num(&p));
      OUT_LIT(o, "}");
      break;
    case REC_FAILURE:
      OUT_LIT(o, "{\"process\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"code\":");
      out_reason(w, o, get_num(&p));
      OUT_LIT(o, ",\"turn\":");
      out_i64(o, *turn);
      OUT_LIT(o, "}");
      break;
    case REC_DECISION:
      OUT_LIT(o, "{\"ev\":\"decision\",\"turn\":");
      out_i64(o, *turn);
      OUT_LIT(o, ",\"supervisor\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"process\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"action\":");
      out_action(o, *p++);
      OUT_LIT(o, "}");
      break;
    case REC_SIGNAL: {
      static const char *const kinds[] = {"\"link\"", "\"exit\"", "\"down\"", "\"call\""};
      static const char *const effects[] = {"\"exit\"", "\"message\"", "\"ignore\""};
      int k = *p++ & 3;
      OUT_LIT(o, "{\"ev\":\"signal\",\"turn\":");
      out_i64(o, *turn);
      OUT_LIT(o, ",\"kind\":");
      out_put(o, kinds[k], strlen(kinds[k]));
      OUT_LIT(o, ",\"from\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"to\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"reason\":");
      out_reason(w, o, get_num(&p));
      OUT_LIT(o, ",\"effect\":");
      int e = *p++ % 3;
      out_put(o, effects[e], strlen(effects[e]));
      OUT_LIT(o, "}");
      break;
    }
    case REC_CALL:
      OUT_LIT(o, "{\"ev\":\"call\",\"turn\":");
      out_i64(o, *turn);
      OUT_LIT(o, ",\"ready\":");
      out_u64(o, get_num(&p));
      OUT_LIT(o, ",\"to\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"from\":");
      out_from(w, o, get_num(&p));
      out_message(w, o, &p);
      break;
    case REC_RESUME: {
      OUT_LIT(o, "{\"ev\":\"resume\",\"turn\":");
      out_i64(o, *turn);
      OUT_LIT(o, ",\"ready\":");
      out_u64(o, get_num(&p));
      OUT_LIT(o, ",\"to\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"from\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"value\":");
      int type = *p++;
      uint64_t v = get_num(&p);
      if (type == CR_ADDR)
        out_name_code(w, o, v);
      else
        out_value(w, o, cr_wrap((v >> 1) ^ ((uint64_t)0 - (v & 1))), type);
      OUT_LIT(o, "}");
      break;
    }
    case REC_API: {
      static const char *const ops[] = {"\"terminate_child\"", "\"restart_child\"", "\"delete_child\""};
      static const char *const results[] = {"\"ok\"",         "\"not_found\"", "\"running\"",
                                            "\"restarting\"", "\"ignored\"",   "\"failed\""};
      OUT_LIT(o, "{\"ev\":\"api\",\"turn\":");
      out_i64(o, *turn);
      OUT_LIT(o, ",\"from\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"supervisor\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"op\":");
      int op = *p++ % 3;
      out_put(o, ops[op], strlen(ops[op]));
      OUT_LIT(o, ",\"child\":");
      out_name_code(w, o, get_num(&p));
      OUT_LIT(o, ",\"result\":");
      int r = *p++ % 6;
      out_put(o, results[r], strlen(results[r]));
      OUT_LIT(o, "}");
      break;
    }
    default: { /* REC_DECISION_ENTRY: the supervisor comes second in its text */
      uint64_t sup = get_num(&p), child = get_num(&p);
      OUT_LIT(o, "{\"process\":");
      out_name_code(w, o, child);
      OUT_LIT(o, ",\"supervisor\":");
      out_name_code(w, o, sup);
      OUT_LIT(o, ",\"action\":");
      out_action(o, *p++);
      OUT_LIT(o, ",\"turn\":");
      out_i64(o, *turn);
      OUT_LIT(o, "}");
    }
  }
  return p;
}

void out_log(const rt_world *w, rt_out *o, const rt_log *l) {
  int64_t turn = 0;
  int first = 1;
  for (const rt_block *b = l->first; b; b = b->next) {
    const unsigned char *p = b->data, *end = b->data + b->len;
    while (p < end) {
      if (!first) OUT_LIT(o, ",");
      first = 0;
      p = out_record(w, o, p, &turn);
    }
  }
}
