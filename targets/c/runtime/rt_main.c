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

#define MAX_TURNS 1000000000LL    /* SPEC §11 */
#define MAX_PROCESSES 10000000LL

/* File scope, not a local of run_one(): its fields change between setjmp and
** longjmp, and only objects outside the function are sure to keep their values. */
static rt_world the_world;
static char in_space[1 << 16], out_space[1 << 16]; /* stdio never allocates */

/* Written from static strings: this must work when malloc does not. */
static const char memory_line[] = "{\"ok\":false,\"code\":\"MEMORY\",\"message\":\"out of memory\"}\n";

static void error_line(const char *code, const char *message) {
  /* code and message are the runtime's own constants: nothing to escape */
  fputs("{\"ok\":false,\"code\":\"", stdout);
  fputs(code, stdout);
  fputs("\",\"message\":\"", stdout);
  fputs(message, stdout);
  fputs("\"}\n", stdout);
}

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
  fprintf(stderr, "{\"heap_live\":%zu,\"journal\":%zu,\"processes\":%d,\"live\":%lld}\n", heap, text,
          (int)w->nprocs, (long long)w->live);
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
    if (w->fatal_message) error_line("INTERNAL", w->fatal_message);
    else fwrite(memory_line, 1, sizeof memory_line - 1, stdout);
    return;
  }
  int stats = getenv("CONCORD_RT_STATS") != NULL;
  size_t heap_before = stats ? heap_in_use() : 0; /* mallinfo2 walks the whole heap */
  int outcome = run_program(w);
  if (stats) print_stats(w, heap_before);
  write_result(w, outcome);
  world_free(w);
}

static int is_space(int c) { return c == ' ' || c == '\t' || c == '\r'; }

/* A decimal number without sign: 1 parsed, 0 no digits, -1 beyond uint64. */
static int parse_u64(const char **s, uint64_t *out) {
  const char *p = *s;
  uint64_t v = 0;
  int overflow = 0;
  if (*p < '0' || *p > '9') return 0;
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - d) / 10) overflow = 1;
    else v = v * 10 + d;
  }
  *s = p;
  *out = v;
  return overflow ? -1 : 1;
}

/* A number field: `neg` is set for a leading '-' (then out of range, not malformed). */
static int field(const char **s, uint64_t *out, int *neg) {
  while (is_space(**s)) (*s)++;
  *neg = 0;
  if (**s == '-' && (*s)[1] >= '0' && (*s)[1] <= '9') {
    *neg = 1;
    (*s)++;
  }
  int r = parse_u64(s, out);
  if (r != 0 && **s != '\0' && !is_space(**s)) return 0; /* "12x" */
  return r;
}

static void handle_line(const char *line) {
  const char *s = line;
  uint64_t v[3];
  int neg[3], r[3];
  for (int i = 0; i < 3; i++) {
    r[i] = field(&s, &v[i], &neg[i]);
    if (r[i] == 0) {
      error_line("BAD_REQUEST", "malformed run settings: expected SEED TURNS MAX_PROCESSES, decimal");
      return;
    }
  }
  while (is_space(*s)) s++;
  if (*s != '\0') {
    error_line("BAD_REQUEST", "malformed run settings: expected SEED TURNS MAX_PROCESSES, decimal");
    return;
  }
  if (r[0] < 0 || neg[0]) {
    error_line("BAD_REQUEST", "seed is outside 0..18446744073709551615");
    return;
  }
  if (r[1] < 0 || neg[1] || v[1] > (uint64_t)MAX_TURNS) {
    error_line("BAD_REQUEST", "turn limit is outside 0..1000000000");
    return;
  }
  if (r[2] < 0 || neg[2] || v[2] < 1 || v[2] > (uint64_t)MAX_PROCESSES) {
    error_line("BAD_REQUEST", "process limit is outside 1..10000000");
    return;
  }
  run_one(v[0], (int64_t)v[1], (int64_t)v[2]);
}

int main(void) {
  setvbuf(stdin, in_space, _IOFBF, sizeof in_space);
  setvbuf(stdout, out_space, _IOFBF, sizeof out_space);
  char line[256];
  for (;;) {
    size_t len = 0;
    int c, too_long = 0;
    while ((c = getc(stdin)) != EOF && c != '\n') {
      if (len + 1 < sizeof line) line[len++] = (char)c;
      else too_long = 1;
    }
    if (c == EOF && len == 0 && !too_long) break;
    line[len] = '\0';
    if (too_long || memchr(line, '\0', len)) error_line("BAD_REQUEST", "malformed run settings: line too long or binary");
    else handle_line(line);
    fflush(stdout);
    if (c == EOF) break;
  }
  return 0;
}
