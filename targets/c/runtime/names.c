/* targets/c/runtime/names.c: name ids (SPEC §2). Program names come first, in
** the program's table order; a spawned name k-N is looked up through the hash
** index (it may be an addr literal of the program, e.g. @worker-1, which must
** keep its id) and otherwise takes the id nnames + process id. Spawned names
** are never stored as strings: a name is a *key* of two parts, a prefix and
** decimal digits, rebuilt on demand from the process (kind prefix, num). */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

typedef struct {
  const char *a; /* a program name, or a kind's spawn prefix */
  size_t alen;
  char d[12];    /* decimal digits of N (spawned names), not terminated */
  size_t dlen;
} name_key;

static size_t digits_of(int32_t n, char *out) {
  char tmp[12];
  size_t k = 0;
  uint32_t u = (uint32_t)n;
  do {
    tmp[k++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  for (size_t i = 0; i < k; i++) out[i] = tmp[k - 1 - i];
  return k;
}

static void spawned_key(const rt_world *w, int32_t kind, int32_t num, name_key *k) {
  k->a = w->prog->kinds[kind].spawn_prefix;
  k->alen = w->prefix_len[kind];
  k->dlen = digits_of(num, k->d);
}

static void key_of(const rt_world *w, int32_t name, name_key *k) {
  if (name < w->prog->nnames) {
    k->a = w->prog->names[name];
    k->alen = strlen(k->a);
    k->dlen = 0;
  } else {
    const rt_proc *p = proc_at(w, name - w->prog->nnames);
    spawned_key(w, (int32_t)p->kind, p->num, k);
  }
}

static char key_char(const name_key *k, size_t i) { return i < k->alen ? k->a[i] : k->d[i - k->alen]; }

static int key_eq(const name_key *x, const name_key *y) {
  size_t n = x->alen + x->dlen;
  if (n != y->alen + y->dlen) return 0;
  if (x->alen == y->alen) /* the common case: same split, two memcmp */
    return memcmp(x->a, y->a, x->alen) == 0 && memcmp(x->d, y->d, x->dlen) == 0;
  for (size_t i = 0; i < n; i++)
    if (key_char(x, i) != key_char(y, i)) return 0;
  return 1;
}

/* FNV-1a over the key's bytes, folded: names are short, this is enough. */
static uint64_t key_hash(const name_key *k) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < k->alen; i++) h = (h ^ (unsigned char)k->a[i]) * 0x100000001b3ULL;
  for (size_t i = 0; i < k->dlen; i++) h = (h ^ (unsigned char)k->d[i]) * 0x100000001b3ULL;
  return h ^ (h >> 29);
}

/* The slot holding the key's id, or the empty slot where it would go. */
static size_t probe(const rt_world *w, const name_key *k, uint64_t h) {
  size_t mask = w->hash_cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    int32_t id = w->hash[i];
    if (id < 0) return i;
    name_key other;
    key_of(w, id, &other);
    if (key_eq(k, &other)) return i;
  }
}

/* Doubling keeps the load <= 1/2; every id is rehashed from its key. */
static void hash_grow(rt_world *w) {
  size_t cap = w->hash_cap ? w->hash_cap * 2 : 64;
  int32_t *old = w->hash;
  size_t old_cap = w->hash_cap;
  int32_t *fresh = rt_alloc_array(w, cap, sizeof *fresh);
  for (size_t i = 0; i < cap; i++) fresh[i] = -1;
  w->hash = fresh;
  w->hash_cap = cap;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i] >= 0) {
      name_key k;
      key_of(w, old[i], &k);
      w->hash[probe(w, &k, key_hash(&k))] = old[i];
    }
  free(old);
}

/* Returns the id already indexed under the key, or indexes `id` and returns it. */
static int32_t intern(rt_world *w, const name_key *k, int32_t id) {
  if (2 * (w->hash_count + 1) > w->hash_cap) hash_grow(w);
  size_t slot = probe(w, k, key_hash(k));
  if (w->hash[slot] >= 0) return w->hash[slot];
  w->hash[slot] = id;
  w->hash_count++;
  return id;
}

void names_init(rt_world *w) {
  const cr_program *p = w->prog;
  size_t nn = (size_t)p->nnames, nk = (size_t)p->nkinds;
  w->prog_proc = rt_alloc_array(w, nn, sizeof *w->prog_proc);
  for (size_t i = 0; i < nn; i++) w->prog_proc[i] = -1;
  w->prefix_len = rt_alloc_array(w, nk, sizeof *w->prefix_len);
  for (size_t i = 0; i < nk; i++) w->prefix_len[i] = strlen(p->kinds[i].spawn_prefix);
  w->spawned = rt_alloc_array(w, nk, sizeof *w->spawned);
  for (size_t i = 0; i < nk; i++) w->spawned[i] = 0;
  for (int32_t i = 0; i < p->nnames; i++) {
    name_key k;
    key_of(w, i, &k);
    intern(w, &k, i); /* a duplicate keeps its first id */
  }
}

int32_t name_proc(const rt_world *w, int32_t name) {
  if (name < 0) return -1;
  if (name < w->prog->nnames) return w->prog_proc[name];
  int64_t id = (int64_t)name - w->prog->nnames;
  if (id >= w->nprocs || proc_at(w, (int32_t)id)->name != name) return -1; /* not a name id in use */
  return (int32_t)id;
}

void name_bind(rt_world *w, int32_t name, int32_t proc) {
  if (name < w->prog->nnames) w->prog_proc[name] = proc;
}

/* §2: the name k-N of a new process `proc` (its kind and num already set). */
int32_t name_spawned(rt_world *w, int32_t kind, int32_t num, int32_t proc) {
  name_key k;
  spawned_key(w, kind, num, &k);
  return intern(w, &k, w->prog->nnames + proc);
}
