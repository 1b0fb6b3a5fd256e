/* targets/c/runtime/rt_main.c: main() of every emitted program. It reads run
** settings from stdin, one run per line ("SEED TURNS MAX_PROCESSES", decimal),
** runs the program on a clean world for each, and writes one line per run: the
** canonical result (SPEC §9), or {"ok":false,...} (SPEC §10) for malformed or
** out-of-range settings (BAD_REQUEST, §11), for running out of memory (MEMORY)
** or for a bug detected in the runtime (INTERNAL). Flushed after every line:
** the harness waits for each answer before it sends the next line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "rt.h"
#include "run_settings.h"

/* File scope, not a local of run_one(): its fields change between setjmp and
** longjmp, and only objects outside the function are sure to keep their values. */
static rt_world the_world;
static char in_space[1 << 16], out_space[1 << 16]; /* stdio never allocates */

/* Written from static strings: this must work when malloc does not. */
static const char memory_line[] = "{\"ok\":false,\"code\":\"MEMORY\",\"message\":\"out of memory\"}\n";

/* Heap bytes in use (malloc's own accounting, not RSS), for the benchmarks. */
static size_t heap_in_use(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd; /* small blocks + large (mmapped) ones */
#else
  return 0; /* unknown here: the stats line then says 0 */
#endif
}

/* With CONCORD_RT_STATS set, one line on stderr after each run, before the result
** is written: the heap the run holds at its end, and how much of it holds the
** journal, failures and decisions (as records, journal.c). */
static void print_stats(const rt_world *w, size_t heap_before) {
  size_t heap = heap_in_use() - heap_before;
  size_t text = w->journal.bytes + w->failures.bytes + w->decisions.bytes;
  fprintf(stderr, "{\"heap_live\":%zu,\"journal\":%zu,\"processes\":%d,\"live\":%lld}\n", heap, text, (int)w->nprocs,
          (long long)w->live);
}

static void run_one(uint64_t seed, int64_t turns, int64_t max_processes) {
  rt_world *w = &the_world;
  memset(w, 0, sizeof *w);
  w->prog = &cr_the_program;
  w->seed = seed;
  w->turn_limit = turns;
  w->max_processes = max_processes;
  if (setjmp(w->fatal_jb)) {
    world_free(w); /* nothing of the result was written: it is written last */
    if (w->fatal_message)
      rs_error_line("INTERNAL", w->fatal_message);
    else
      fwrite(memory_line, 1, sizeof memory_line - 1, stdout);
    return;
  }
  int stats = getenv("CONCORD_RT_STATS") != NULL;
  size_t heap_before = stats ? heap_in_use() : 0; /* mallinfo2 walks the whole heap */
  int outcome = run_program(w);
  if (stats) print_stats(w, heap_before);
  write_result(w, outcome);
  world_free(w);
}

int main(void) {
  setvbuf(stdin, in_space, _IOFBF, sizeof in_space);
  setvbuf(stdout, out_space, _IOFBF, sizeof out_space);
  return rs_serve(run_one);
}
