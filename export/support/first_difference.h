/* first_difference.h: the first difference of two canonical JSON lines, named by
** its field path (journal[3].to) with both values, for the tests that `concord
** export --as c|gtest` writes; copied into each exported file, so that it needs
** nothing of concord. C99 that is also C++. Both lines are equal up to byte i;
** the path of byte i is read from the expected line, and the values shown are the
** innermost element around i in each line. When both lines are at a comma or a
** closing bracket there, an element is missing from one of them: for an array the
** item after this one is shown, for an object the whole object. */
#include <stdio.h>
#include <string.h>

typedef struct cd_frame {
  char type;         /* '{', '[' or 't' (the whole line) */
  long index;        /* an array's current item */
  size_t key, klen;  /* an object's current key (in the expected line) */
  int keyed;         /* 0: reading or before a key; 1: key read; 2: at its value */
  size_t start;      /* where the current element starts */
} cd_frame;

/* The end of the value that starts at s (a comma or closing bracket at depth 0). */
static size_t cd_value_end(const char *b, size_t n, size_t s) {
  int depth = 0, in_str = 0;
  for (size_t j = s; j < n; j++) {
    char c = b[j];
    if (in_str) {
      if (c == '\\') j++;
      else if (c == '"') in_str = 0;
    } else if (c == '"') in_str = 1;
    else if (c == '{' || c == '[') depth++;
    else if ((c == '}' || c == ']') && depth-- == 0) return j;
    else if (c == ',' && depth == 0) return j;
  }
  return n;
}

/* Appends the value at s (at most 300 bytes) to out. */
static void cd_value(char *out, size_t cap, const char *b, size_t n, size_t s) {
  size_t len = strlen(out);
  if (s >= n) {
    snprintf(out + len, cap - len, "(nothing)");
    return;
  }
  size_t e = cd_value_end(b, n, s), show = e - s > 300 ? 300 : e - s;
  snprintf(out + len, cap - len, "%.*s%s", (int)show, b + s, e - s > 300 ? "..." : "");
}

static int cd_structural(const char *b, size_t n, size_t i) {
  return i >= n || b[i] == ',' || b[i] == ']' || b[i] == '}';
}

/* The path of frames 1..top into out; extra >= 0 replaces the top array's index. */
static void cd_path(char *out, size_t cap, const char *b, const cd_frame *f, int top, long extra) {
  size_t len = 0;
  out[0] = '\0';
  for (int k = 1; k <= top && len < cap; k++) {
    if (f[k].type == '[') len += snprintf(out + len, cap - len, "[%ld]", k == top && extra >= 0 ? extra : f[k].index);
    else if (f[k].keyed == 2)
      len += snprintf(out + len, cap - len, "%s%.*s", len ? "." : "", (int)f[k].klen, b + f[k].key);
  }
  if (len == 0) snprintf(out, cap, "the whole answer");
}

/* 0 when the lines are equal; else 1, with "first difference at PATH: expected
** X, got Y" in out. */
static int first_difference(const char *exp, const char *got, char *out, size_t cap) {
  size_t en = strlen(exp), gn = strlen(got), i = 0;
  out[0] = '\0';
  if (en == gn && memcmp(exp, got, en) == 0) return 0;
  while (i < en && i < gn && exp[i] == got[i]) i++;
  cd_frame f[64];
  int top = 0, in_str = 0, in_key = 0;
  memset(f, 0, sizeof f);
  f[0].type = 't';
  for (size_t j = 0; j < i; j++) {
    char c = exp[j];
    cd_frame *t = &f[top];
    if (in_str || in_key) {
      if (c == '\\') j++;
      else if (c == '"') {
        if (in_key) t->klen = j - t->key, t->keyed = 1;
        in_str = in_key = 0;
      }
    } else if (c == '"') {
      if (t->type == '{' && t->keyed == 0) in_key = 1, t->key = j + 1;
      else in_str = 1;
    } else if ((c == '{' || c == '[') && top < 63) {
      top++;
      memset(&f[top], 0, sizeof f[top]);
      f[top].type = c;
      f[top].start = j + 1;
    } else if (c == ':' && t->type == '{') {
      t->keyed = 2, t->start = j + 1;
    } else if (c == ',' && t->type == '{') {
      t->keyed = 0;
    } else if (c == ',' && t->type == '[') {
      t->index++, t->start = j + 1;
    } else if ((c == '}' || c == ']') && top > 0) {
      top--;
    }
  }
  int both_structural = !in_str && !in_key && cd_structural(exp, en, i) && cd_structural(got, gn, i);
  size_t start;
  snprintf(out, cap, "first difference at ");
  size_t len = strlen(out);
  if (both_structural && f[top].type == '[') { /* an item missing from one array */
    cd_path(out + len, cap - len, exp, f, top, f[top].index + 1);
    len = strlen(out);
    snprintf(out + len, cap - len, ": expected ");
    if (i < en && exp[i] == ',') cd_value(out, cap, exp, en, i + 1);
    else cd_value(out, cap, exp, 0, 0);
    len = strlen(out);
    snprintf(out + len, cap - len, ", got ");
    if (i < gn && got[i] == ',') cd_value(out, cap, got, gn, i + 1);
    else cd_value(out, cap, got, 0, 0);
    return 1;
  }
  /* the element around i: a member's value, an item, or the object when i is in
  ** a key or between members (then the element of the frame below) */
  while (top > 0 && f[top].type == '{' && (f[top].keyed != 2 || both_structural)) {
    top--;
    both_structural = 0;
  }
  start = f[top].start;
  cd_path(out + len, cap - len, exp, f, top, -1);
  len = strlen(out);
  snprintf(out + len, cap - len, ": expected ");
  cd_value(out, cap, exp, en, start);
  len = strlen(out);
  snprintf(out + len, cap - len, ", got ");
  cd_value(out, cap, got, gn, start);
  return 1;
}
