/* targets/c/runtime/journal.c: the growable text buffers of a run, the JSON
** writing helpers (SPEC §9.3: no whitespace, minimal escapes, \u00XX in lower
** case), and one writer per event kind (SPEC §9.2), each producing exactly the
** text of the oracle's LineWriter (oracle/result.cpp). Events are written as
** text when they happen: the journal is never kept as structs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* A growing buffer doubles (amortised O(1) per byte); a flushing one (the
** result's static staging buffer) is written out instead, so writing the
** result never allocates. */
void buf_reserve_slow(rt_world *w, rt_buf *b, size_t n) {
  if (b->flush) {
    if (b->len) fwrite(b->p, 1, b->len, stdout);
    b->len = 0;
    if (n > b->cap) rt_internal(w, "result writer: oversized piece");
    return;
  }
  size_t cap = b->cap ? b->cap : 256;
  while (cap - b->len < n) {
    if (cap > SIZE_MAX / 2) rt_out_of_memory(w);
    cap *= 2;
  }
  b->p = rt_realloc_array(w, b->p, cap, 1);
  b->cap = cap;
}

void buf_free(rt_buf *b) {
  if (!b->flush) free(b->p);
  b->p = NULL;
  b->len = b->cap = 0;
}

void buf_raw(rt_world *w, rt_buf *b, const char *s, size_t n) {
  while (n) {
    size_t m = n < 4096 ? n : 4096; /* bounded pieces: a flushing buffer never overflows */
    memcpy(buf_reserve(w, b, m), s, m);
    b->len += m;
    s += m;
    n -= m;
  }
}

void buf_lit(rt_world *w, rt_buf *b, const char *s) { buf_raw(w, b, s, strlen(s)); }

void buf_u64(rt_world *w, rt_buf *b, uint64_t v) {
  char tmp[24];
  char *e = tmp + sizeof tmp, *q = e;
  do {
    *--q = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  size_t n = (size_t)(e - q);
  memcpy(buf_reserve(w, b, n), q, n);
  b->len += n;
}

void buf_i64(rt_world *w, rt_buf *b, int64_t v) {
  if (v < 0) {
    *buf_reserve(w, b, 1) = '-';
    b->len++;
    buf_u64(w, b, (uint64_t)0 - (uint64_t)v); /* INT64_MIN too, without overflow */
  } else {
    buf_u64(w, b, (uint64_t)v);
  }
}

/* One piece of at most 1024 bytes: 6 output bytes per input byte at worst. */
static void str_piece(rt_world *w, rt_buf *b, const unsigned char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  char *o = buf_reserve(w, b, 6 * n), *o0 = o;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = s[i];
    if (c >= 0x20 && c != '"' && c != '\\') {
      *o++ = (char)c;
      continue;
    }
    *o++ = '\\';
    switch (c) {
      case '"': *o++ = '"'; break;
      case '\\': *o++ = '\\'; break;
      case '\b': *o++ = 'b'; break;
      case '\f': *o++ = 'f'; break;
      case '\n': *o++ = 'n'; break;
      case '\r': *o++ = 'r'; break;
      case '\t': *o++ = 't'; break;
      default:
        *o++ = 'u', *o++ = '0', *o++ = '0';
        *o++ = hex[c >> 4];
        *o++ = hex[c & 15];
    }
  }
  b->len += (size_t)(o - o0);
}

void buf_str(rt_world *w, rt_buf *b, const char *s, size_t n) {
  *buf_reserve(w, b, 1) = '"';
  b->len++;
  const unsigned char *u = (const unsigned char *)s;
  while (n) {
    size_t m = n < 1024 ? n : 1024;
    str_piece(w, b, u, m);
    u += m;
    n -= m;
  }
  *buf_reserve(w, b, 1) = '"';
  b->len++;
}

void buf_cstr(rt_world *w, rt_buf *b, const char *s) { buf_str(w, b, s, strlen(s)); }

void buf_value(rt_world *w, rt_buf *b, cr_value v, int type) {
  if (type == CR_ADDR) buf_name(w, b, (int32_t)v);
  else buf_i64(w, b, v);
}

const char *reason_code(int32_t reason) {
  switch (reason) {
    case RT_NORMAL: return "normal";
    case RT_SHUTDOWN: return "shutdown";
    case RT_NO_HANDLER: return "NO_HANDLER";
    case RT_DIV_ZERO: return "DIV_ZERO";
    case RT_SYSTEM_LIMIT: return "SYSTEM_LIMIT";
    case RT_NOPROC: return "NOPROC";
    default: return NULL;
  }
}

void buf_reason(rt_world *w, rt_buf *b, int32_t reason) {
  const char *s = reason_code(reason);
  if (s) buf_cstr(w, b, s);
  else buf_name(w, b, reason);
}

static const char *action_name(int action) {
  switch (action) {
    case RT_RESTART: return "\"restart\"";
    case RT_KEEP: return "\"keep\"";
    case RT_REMOVE: return "\"remove\"";
    default: return "\"give_up\"";
  }
}

/* The start of an array element: a comma unless it is the first. */
static void open_item(rt_world *w, rt_buf *b, const char *head) {
  if (b->len) buf_raw(w, b, ",", 1);
  buf_lit(w, b, head);
}

static void args_json(rt_world *w, rt_buf *b, int32_t sig, const cr_value *args) {
  const cr_sig *s = &w->prog->sigs[sig];
  buf_raw(w, b, "[", 1);
  for (int32_t i = 0; i < s->nargs; i++) {
    if (i) buf_raw(w, b, ",", 1);
    buf_value(w, b, args[i], s->types[i]);
  }
  buf_raw(w, b, "]", 1);
}

static void name_or_null(rt_world *w, rt_buf *b, int32_t name) {
  if (name < 0) buf_raw(w, b, "null", 4);
  else buf_name(w, b, name);
}

void jr_start(rt_world *w, int32_t name, int32_t kind) {
  rt_buf *b = &w->journal;
  open_item(w, b, "{\"ev\":\"start\",\"turn\":");
  buf_i64(w, b, w->turn);
  buf_lit(w, b, ",\"name\":");
  buf_name(w, b, name);
  buf_lit(w, b, ",\"kind\":");
  if (kind < 0) buf_lit(w, b, "\"supervisor\"");
  else buf_cstr(w, b, w->prog->kinds[kind].name);
  buf_raw(w, b, "}", 1);
}

void jr_deliver(rt_world *w, int64_t ready, int32_t to, int32_t from, int32_t sig, const cr_value *args) {
  rt_buf *b = &w->journal;
  open_item(w, b, "{\"ev\":\"deliver\",\"turn\":");
  buf_i64(w, b, w->turn);
  buf_lit(w, b, ",\"ready\":");
  buf_i64(w, b, ready);
  buf_lit(w, b, ",\"to\":");
  buf_name(w, b, to);
  buf_lit(w, b, ",\"from\":");
  name_or_null(w, b, from);
  buf_lit(w, b, ",\"tag\":");
  buf_cstr(w, b, w->prog->sigs[sig].tag);
  buf_lit(w, b, ",\"args\":");
  args_json(w, b, sig, args);
  buf_raw(w, b, "}", 1);
}

void jr_drop(rt_world *w, int32_t from, int32_t to, int32_t sig, const cr_value *args) {
  rt_buf *b = &w->journal;
  open_item(w, b, "{\"ev\":\"drop\",\"turn\":");
  buf_i64(w, b, w->turn);
  buf_lit(w, b, ",\"from\":");
  name_or_null(w, b, from);
  buf_lit(w, b, ",\"to\":");
  buf_name(w, b, to);
  buf_lit(w, b, ",\"tag\":");
  buf_cstr(w, b, w->prog->sigs[sig].tag);
  buf_lit(w, b, ",\"args\":");
  args_json(w, b, sig, args);
  buf_raw(w, b, "}", 1);
}

/* The exit event, and for a failure code (not normal, not shutdown) the record
** of `failures` (SPEC §9.1), both in event order. */
void jr_exit(rt_world *w, int32_t name, int32_t reason) {
  rt_buf *b = &w->journal;
  open_item(w, b, "{\"ev\":\"exit\",\"turn\":");
  buf_i64(w, b, w->turn);
  buf_lit(w, b, ",\"name\":");
  buf_name(w, b, name);
  buf_lit(w, b, ",\"reason\":");
  buf_reason(w, b, reason);
  buf_raw(w, b, "}", 1);
  if (reason == RT_NORMAL || reason == RT_SHUTDOWN) return;
  b = &w->failures;
  open_item(w, b, "{\"process\":");
  buf_name(w, b, name);
  buf_lit(w, b, ",\"code\":");
  buf_reason(w, b, reason);
  buf_lit(w, b, ",\"turn\":");
  buf_i64(w, b, w->turn);
  buf_raw(w, b, "}", 1);
}

/* The decision event and its record of `decisions` (SPEC §9.1). */
void jr_decision(rt_world *w, int32_t sup_slot, int32_t child, int action) {
  int32_t sup = w->prog->sups[sup_slot].name;
  rt_buf *b = &w->journal;
  open_item(w, b, "{\"ev\":\"decision\",\"turn\":");
  buf_i64(w, b, w->turn);
  buf_lit(w, b, ",\"supervisor\":");
  buf_name(w, b, sup);
  buf_lit(w, b, ",\"process\":");
  buf_name(w, b, child);
  buf_lit(w, b, ",\"action\":");
  buf_lit(w, b, action_name(action));
  buf_raw(w, b, "}", 1);
  b = &w->decisions;
  open_item(w, b, "{\"process\":");
  buf_name(w, b, child);
  buf_lit(w, b, ",\"supervisor\":");
  buf_name(w, b, sup);
  buf_lit(w, b, ",\"action\":");
  buf_lit(w, b, action_name(action));
  buf_lit(w, b, ",\"turn\":");
  buf_i64(w, b, w->turn);
  buf_raw(w, b, "}", 1);
}
