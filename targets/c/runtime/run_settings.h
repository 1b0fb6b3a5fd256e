/* targets/c/runtime/run_settings.h: reading run settings lines (run_settings.c). */
#ifndef CONCORD_RUN_SETTINGS_H
#define CONCORD_RUN_SETTINGS_H

#include <stdint.h>

typedef void (*rs_run_fn)(uint64_t seed, int64_t turns, int64_t max_processes);

/* One {"ok":false,...} line on stdout; code and message need no escaping. */
void rs_error_line(const char *code, const char *message);
/* Reads stdin to its end, one run per line, each answered by one flushed line. */
int rs_serve(rs_run_fn run);

#endif
