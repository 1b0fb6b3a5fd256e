/* targets/c/runtime/result.c: a run's result line (SPEC §9.1), keys in the
** spec's order, byte for byte the oracle's result_line (oracle/result.cpp).
** "outcome" and "turns" precede "journal", so the journal, failures and
** decisions were kept as records during the run and are written here as text
** (journal.c). Writing goes through a static staging buffer and the quoted
** strings made before the first byte: once the first byte is out nothing
** allocates, so the line is completed (no out-of-memory half line). */
#include "rt.h"

static char staging[1 << 16];

static void processes(const rt_world *w, rt_out *o) {
  for (int32_t id = 0; id < w->nprocs; id++) {
    const rt_proc *p = proc_at(w, id);
    if (id) OUT_LIT(o, ",{\"id\":");
    else OUT_LIT(o, "{\"id\":");
    out_i64(o, id);
    OUT_LIT(o, ",\"name\":");
    out_name(w, o, p->name);
    OUT_LIT(o, ",\"kind\":");
    out_kind(w, o, (int32_t)p->kind);
    OUT_LIT(o, "}");
  }
}

/* The workers alive at the end, by id, with their state fields in declaration order. */
static void alive(const rt_world *w, rt_out *o) {
  int first = 1;
  for (int32_t id = 0; id < w->nprocs; id++) {
    const rt_proc *p = proc_at(w, id);
    if (!p->alive) continue;
    const cr_kind *k = &w->prog->kinds[p->kind];
    if (first) OUT_LIT(o, "{\"name\":");
    else OUT_LIT(o, ",{\"name\":");
    out_name(w, o, p->name);
    OUT_LIT(o, ",\"state\":{");
    for (int32_t i = 0; i < k->nstate; i++) {
      if (i) OUT_LIT(o, ",");
      out_state_name(w, o, (int32_t)p->kind, i);
      OUT_LIT(o, ":");
      out_value(w, o, p->vals[k->nparams + i], k->state_types[i]);
    }
    OUT_LIT(o, "}}");
    first = 0;
  }
}

static void supervisors(const rt_world *w, rt_out *o) {
  for (int32_t i = 0; i < w->prog->nsups; i++) {
    const rt_sup *s = &w->sups[i];
    if (i) OUT_LIT(o, ",{\"name\":");
    else OUT_LIT(o, "{\"name\":");
    out_name(w, o, w->prog->sups[i].name);
    if (s->alive) OUT_LIT(o, ",\"alive\":true,\"children\":[");
    else OUT_LIT(o, ",\"alive\":false,\"children\":[");
    for (size_t c = 0; c < s->nchildren; c++) {
      if (c) OUT_LIT(o, ",{\"name\":");
      else OUT_LIT(o, "{\"name\":");
      out_name(w, o, s->children[c].name);
      if (s->children[c].running) OUT_LIT(o, ",\"running\":true}");
      else OUT_LIT(o, ",\"running\":false}");
    }
    OUT_LIT(o, "]}");
  }
}

void write_result(rt_world *w, int outcome) {
  quoted_make(w); /* may run out of memory: nothing is written yet */
  rt_out out, *o = &out;
  o->p = staging;
  o->len = 0;
  o->cap = sizeof staging;
  OUT_LIT(o, "{\"ok\":true,\"run\":{\"seed\":");
  out_u64(o, w->seed);
  OUT_LIT(o, ",\"turns\":");
  out_i64(o, w->turn_limit);
  OUT_LIT(o, ",\"max_processes\":");
  out_i64(o, w->max_processes);
  if (outcome == OUTCOME_TURN_LIMIT) OUT_LIT(o, "},\"outcome\":\"turn_limit\"");
  else if (outcome == OUTCOME_DEADLOCK) OUT_LIT(o, "},\"outcome\":\"deadlock\""); /* §18.3 */
  else OUT_LIT(o, "},\"outcome\":\"quiescent\"");
  OUT_LIT(o, ",\"turns\":");
  out_i64(o, w->turn);
  OUT_LIT(o, ",\"journal\":[");
  out_log(w, o, &w->journal);
  OUT_LIT(o, "],\"failures\":[");
  out_log(w, o, &w->failures);
  OUT_LIT(o, "],\"decisions\":[");
  out_log(w, o, &w->decisions);
  OUT_LIT(o, "],\"processes\":[");
  processes(w, o);
  OUT_LIT(o, "],\"alive\":[");
  alive(w, o);
  OUT_LIT(o, "],\"supervisors\":[");
  supervisors(w, o);
  OUT_LIT(o, "]}\n");
  out_flush(o);
}
