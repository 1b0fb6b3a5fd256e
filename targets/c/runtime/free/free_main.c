/* targets/c/runtime/free/free_main.c: main() of a program linked for free runs
** (SPEC §25). It reads the same run lines as the conducted runtime
** (run_settings.c) and answers each with a trace (§25.6). A run: the outside
** starts the roots in order and sends the given messages (§25.2), while N threads
** (CONCORD_THREADS, default: twice the cores online) run whatever is ready; the run
** ends when nothing is queued or running. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../run_settings.h"
#include "free.h"

static char in_space[1 << 16], out_space[1 << 16];

static void *thread_main(void *unused) {
  (void)unused;
  fr_thread th = {NULL, 0, 0, NULL, 0};
  fr_proc *p;
  while ((p = fr_next(&th)) != NULL) fr_run(p, &th);
  fr_spares_free(&th);
  return NULL;
}

/* CONCORD_THREADS, else twice the cores online: with more threads than cores the
** system preempts threads inside turns, so that the interleavings a machine with
** more cores would show happen here too (a race between two turns needs them to
** overlap); `concord backend c --threads N` sets it. */
static int thread_count(void) {
  const char *t = getenv("CONCORD_THREADS");
  long n = t && *t ? strtol(t, NULL, 10) : 2 * sysconf(_SC_NPROCESSORS_ONLN);
  if (n < 1) n = 1;
  if (n > 256) n = 256;
  return (int)n;
}

static void start_roots(void) {
  const cr_program *prog = fr_w.prog;
  for (int32_t i = 0; i < prog->nroots; i++) {
    const cr_decl *r = &prog->roots[i];
    if (r->is_sup) {
      fr_sup_lock(NULL);                /* its start is one step: its children's exits wait for it */
      fr_start_root_supervisor(r->sup); /* one that fails is not alive; the next goes on (§19.2) */
      fr_sup_unlock();
    } else {
      int how;
      fr_start_worker(r->name, r->kind, r->nargs, r->args, NULL, NULL, &how);
    }
  }
  for (int32_t i = 0; i < prog->ngiven; i++) fr_give(i);
}

static void run_one(uint64_t seed, int64_t turns, int64_t max_processes) {
  memset(&fr_w, 0, sizeof fr_w);
  fr_w.prog = &cr_the_program;
  fr_w.seed = seed;
  fr_w.turn_limit = turns;
  fr_w.max_processes = max_processes;
  fr_w.threads = thread_count();
  fr_world_init();
  atomic_init(&fr_w.pending, 1); /* the outside's own, until the roots are up and the given messages sent */
  const char *handoff = getenv("CONCORD_FREE_HANDOFF");
  fr_w.handoff = handoff && *handoff && strcmp(handoff, "0") != 0;
  pthread_t *threads = fr_alloc(sizeof *threads * (size_t)fr_w.threads);
  int started = 0;
  for (; started < fr_w.threads; started++)
    if (pthread_create(&threads[started], NULL, thread_main, NULL) != 0) break;
  if (started == 0) {
    free(threads);
    fr_world_free();
    rs_error_line("INTERNAL", "c: cannot start a thread");
    return;
  }
  start_roots();
  fr_pending_done();
  pthread_mutex_lock(&fr_w.q_mx);
  while (atomic_load(&fr_w.pending) > 0) pthread_cond_wait(&fr_w.done_cv, &fr_w.q_mx);
  fr_w.over = 1;
  pthread_cond_broadcast(&fr_w.q_cv);
  pthread_mutex_unlock(&fr_w.q_mx);
  for (int i = 0; i < started; i++) pthread_join(threads[i], NULL);
  free(threads);
  fr_write_trace();
  fr_world_free();
}

int main(void) {
  setvbuf(stdin, in_space, _IOFBF, sizeof in_space);
  setvbuf(stdout, out_space, _IOFBF, sizeof out_space);
  return rs_serve(run_one);
}
