/* targets/c/runtime/alloc.c: every allocation of a run goes through here, so
** that running out of memory is one path: longjmp out of the run (rt_main.c
** frees what the run holds and prints the MEMORY error, SPEC §10). */
#include <stdlib.h>

#include "rt.h"

_Noreturn void rt_out_of_memory(rt_world *w) {
  w->fatal_message = NULL;
  longjmp(w->fatal_jb, 1);
}

_Noreturn void rt_internal(rt_world *w, const char *message) {
  w->fatal_message = message;
  longjmp(w->fatal_jb, 1);
}

void *rt_alloc(rt_world *w, size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) rt_out_of_memory(w);
  return p;
}

void *rt_alloc_array(rt_world *w, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) rt_out_of_memory(w);
  return rt_alloc(w, count * size);
}

/* On failure the old block stays valid and owned by its holder in the world,
** so world_free() still frees it. */
void *rt_realloc_array(rt_world *w, void *p, size_t count, size_t size) {
  if (size && count > SIZE_MAX / size) rt_out_of_memory(w);
  size_t n = count * size;
  void *q = realloc(p, n ? n : 1);
  if (!q) rt_out_of_memory(w);
  return q;
}
