/* targets/c/runtime/result.c: a run's result line (SPEC §9.1), keys in the
** spec's order, byte for byte the oracle's result_line (oracle/result.cpp).
** "outcome" and "turns" precede "journal", so the journal, failures and
** decisions were kept as text during the run and are written here in bulk.
** Writing goes through a static staging buffer: it never allocates, so once
** the first byte is out the line is completed (no out-of-memory half line). */
#include <stdio.h>

#include "rt.h"

static char staging[1 << 16];

static void flush_out(rt_buf *o) {
  if (o->len) fwrite(o->p, 1, o->len, stdout);
  o->len = 0;
}

static void bulk(rt_world *w, rt_buf *o, const rt_buf *text) {
  if (text->len <= 4096) {
    buf_raw(w, o, text->p, text->len);
    return;
  }
  flush_out(o);
  fwrite(text->p, 1, text->len, stdout);
}

static void processes(rt_world *w, rt_buf *o) {
  for (int32_t id = 0; id < w->nprocs; id++) {
    const rt_proc *p = proc_at(w, id);
    buf_lit(w, o, id ? ",{\"id\":" : "{\"id\":");
    buf_i64(w, o, id);
    buf_lit(w, o, ",\"name\":");
    buf_name(w, o, p->name);
    buf_lit(w, o, ",\"kind\":");
    buf_cstr(w, o, w->prog->kinds[p->kind].name);
    buf_lit(w, o, "}");
  }
}

/* The workers alive at the end, by id, with their state fields in declaration order. */
static void alive(rt_world *w, rt_buf *o) {
  int first = 1;
  for (int32_t id = 0; id < w->nprocs; id++) {
    const rt_proc *p = proc_at(w, id);
    if (!p->alive) continue;
    const cr_kind *k = &w->prog->kinds[p->kind];
    buf_lit(w, o, first ? "{\"name\":" : ",{\"name\":");
    buf_name(w, o, p->name);
    buf_lit(w, o, ",\"state\":{");
    for (int32_t i = 0; i < k->nstate; i++) {
      if (i) buf_lit(w, o, ",");
      buf_cstr(w, o, k->state_names[i]);
      buf_lit(w, o, ":");
      buf_value(w, o, p->vals[k->nparams + i], k->state_types[i]);
    }
    buf_lit(w, o, "}}");
    first = 0;
  }
}

static void supervisors(rt_world *w, rt_buf *o) {
  for (int32_t i = 0; i < w->prog->nsups; i++) {
    const rt_sup *s = &w->sups[i];
    buf_lit(w, o, i ? ",{\"name\":" : "{\"name\":");
    buf_name(w, o, w->prog->sups[i].name);
    buf_lit(w, o, s->alive ? ",\"alive\":true" : ",\"alive\":false");
    buf_lit(w, o, ",\"children\":[");
    for (size_t c = 0; c < s->nchildren; c++) {
      buf_lit(w, o, c ? ",{\"name\":" : "{\"name\":");
      buf_name(w, o, s->children[c].name);
      buf_lit(w, o, s->children[c].running ? ",\"running\":true}" : ",\"running\":false}");
    }
    buf_lit(w, o, "]}");
  }
}

void write_result(rt_world *w, int turn_limit_reached) {
  rt_buf o;
  o.p = staging;
  o.len = 0;
  o.cap = sizeof staging;
  o.flush = 1;
  buf_lit(w, &o, "{\"ok\":true,\"run\":{\"seed\":");
  buf_u64(w, &o, w->seed);
  buf_lit(w, &o, ",\"turns\":");
  buf_i64(w, &o, w->turn_limit);
  buf_lit(w, &o, ",\"max_processes\":");
  buf_i64(w, &o, w->max_processes);
  buf_lit(w, &o, turn_limit_reached ? "},\"outcome\":\"turn_limit\"" : "},\"outcome\":\"quiescent\"");
  buf_lit(w, &o, ",\"turns\":");
  buf_i64(w, &o, w->turn);
  buf_lit(w, &o, ",\"journal\":[");
  bulk(w, &o, &w->journal);
  buf_lit(w, &o, "],\"failures\":[");
  bulk(w, &o, &w->failures);
  buf_lit(w, &o, "],\"decisions\":[");
  bulk(w, &o, &w->decisions);
  buf_lit(w, &o, "],\"processes\":[");
  processes(w, &o);
  buf_lit(w, &o, "],\"alive\":[");
  alive(w, &o);
  buf_lit(w, &o, "],\"supervisors\":[");
  supervisors(w, &o);
  buf_lit(w, &o, "]}\n");
  flush_out(&o);
}
