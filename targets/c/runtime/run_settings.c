/* targets/c/runtime/run_settings.c: the lines a compiled program reads, one run per
** line ("SEED TURNS MAX_PROCESSES", decimal), checked against SPEC §8.2 and §11;
** shared by the conducted runtime's main() (rt_main.c) and the free one's
** (free/free_main.c). A malformed or out-of-range line is answered BAD_REQUEST
** in place; each good one is handed to `run`, which writes its one answer line. */
#include <stdio.h>
#include <string.h>

#include "run_settings.h"

#define MAX_TURNS 1000000000LL /* SPEC §11 */
#define MAX_PROCESSES 10000000LL

void rs_error_line(const char *code, const char *message) {
  /* code and message are the runtime's own constants: nothing to escape */
  fputs("{\"ok\":false,\"code\":\"", stdout);
  fputs(code, stdout);
  fputs("\",\"message\":\"", stdout);
  fputs(message, stdout);
  fputs("\"}\n", stdout);
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
    if (v > (UINT64_MAX - d) / 10)
      overflow = 1;
    else
      v = v * 10 + d;
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

static void handle_line(const char *line, rs_run_fn run_one) {
  const char *s = line;
  uint64_t v[3];
  int neg[3], r[3];
  for (int i = 0; i < 3; i++) {
    r[i] = field(&s, &v[i], &neg[i]);
    if (r[i] == 0) {
      rs_error_line("BAD_REQUEST", "malformed run settings: expected SEED TURNS MAX_PROCESSES, decimal");
      return;
    }
  }
  while (is_space(*s)) s++;
  if (*s != '\0') {
    rs_error_line("BAD_REQUEST", "malformed run settings: expected SEED TURNS MAX_PROCESSES, decimal");
    return;
  }
  if (r[0] < 0 || neg[0]) {
    rs_error_line("BAD_REQUEST", "seed is outside 0..18446744073709551615");
    return;
  }
  if (r[1] < 0 || neg[1] || v[1] > (uint64_t)MAX_TURNS) {
    rs_error_line("BAD_REQUEST", "turn limit is outside 0..1000000000");
    return;
  }
  if (r[2] < 0 || neg[2] || v[2] < 1 || v[2] > (uint64_t)MAX_PROCESSES) {
    rs_error_line("BAD_REQUEST", "process limit is outside 1..10000000");
    return;
  }
  run_one(v[0], (int64_t)v[1], (int64_t)v[2]);
}

int rs_serve(rs_run_fn run) {
  char line[256];
  for (;;) {
    size_t len = 0;
    int c, too_long = 0;
    while ((c = getc(stdin)) != EOF && c != '\n') {
      if (len + 1 < sizeof line)
        line[len++] = (char)c;
      else
        too_long = 1;
    }
    if (c == EOF && len == 0 && !too_long) break;
    line[len] = '\0';
    if (too_long || memchr(line, '\0', len))
      rs_error_line("BAD_REQUEST", "malformed run settings: line too long or binary");
    else
      handle_line(line, run);
    fflush(stdout);
    if (c == EOF) break;
  }
  return 0;
}
