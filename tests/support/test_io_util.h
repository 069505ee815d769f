/* Helpers shared by the core's file tests (core/test_map_io.c,
 * test_scen_io.c): a counting, failing allocator, and the shared Moving AI
 * folder's maps with their sizes and row counts. Header only. */
#ifndef CAIRN_TEST_IO_UTIL_H
#define CAIRN_TEST_IO_UTIL_H

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------- */

/* Counts live bytes and the largest request; can fail the n-th call or any
 * request above a limit. */
typedef struct counting {
  size_t live, max_request, calls, limit;
  long fail_at; /* 0-based call index to fail, -1: never */
} counting;

static inline void *counting_fn(void *user, void *ptr, size_t old_size,
                                size_t new_size) {
  counting *c = user;
  if (new_size == 0) {
    free(ptr);
    c->live -= old_size;
    return NULL;
  }
  long call = (long)c->calls++;
  if (new_size > c->max_request) c->max_request = new_size;
  if ((c->limit && new_size > c->limit) || call == c->fail_at) return NULL;
  void *p = realloc(ptr, new_size);
  if (p) c->live = c->live + new_size - old_size;
  return p;
}

static inline cairn_allocator counting_alloc(counting *c, long fail_at,
                                             size_t limit) {
  memset(c, 0, sizeof *c);
  c->fail_at = fail_at;
  c->limit = limit;
  cairn_allocator a = {counting_fn, c};
  return a;
}

static inline void write_all(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, strlen(text), f), strlen(text));
  assert_int_equal(fclose(f), 0);
}

static inline int file_exists(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f) fclose(f);
  return f != NULL;
}

static inline void expect_fail(cairn_status got, cairn_status want,
                               const cairn_error *err, const char *prefix,
                               const char *keyword) {
  if (got != want || strncmp(err->message, prefix, strlen(prefix)) != 0 ||
      !strstr(err->message, keyword)) {
    print_error("got %d (%s), want %d; message \"%s\"; want prefix \"%s\" "
                "and \"%s\"\n", got, cairn_status_str(got), want,
                err->message, prefix, keyword);
    fail();
  }
}

/* The benchmark files listed in shared/movingai/README.md. */
typedef struct bench_map {
  const char *name;
  int32_t w, h;
  size_t scen_rows;
} bench_map;

static const bench_map bench_maps[] = {
    {"arena", 49, 49, 160},           {"arena2", 281, 209, 929},
    {"brc202d", 530, 481, 2519},      {"den011d", 247, 167, 780},
    {"hrt201n", 294, 305, 1210},      {"lak303d", 194, 194, 1060},
    {"orz100d", 412, 395, 2419},      {"ost003d", 194, 194, 846},
    {"AR0011SR", 512, 512, 1280},     {"AR0205SR", 512, 512, 1280},
    {"Aftershock", 512, 512, 1810},   {"TheFrozenSea", 1024, 1024, 3700},
    {"gardenofwar", 512, 512, 1280},  {"icecrown", 512, 512, 1280},
    {"ht_chantry", 162, 141, 470},    {"w_woundedcoast", 642, 578, 2140},
    {"maze512-1-0", 512, 512, 11960}, {"maze512-32-0", 512, 512, 5760},
    {"32room_000", 512, 512, 1900},   {"8room_000", 512, 512, 1940},
    {"random512-10-0", 512, 512, 1670}, {"random512-40-0", 512, 512, 3060},
    {"Berlin_0_256", 256, 256, 930},  {"NewYork_0_1024", 1024, 1024, 3670},
};

#define N_BENCH (sizeof bench_maps / sizeof bench_maps[0])

static inline void map_path(char *buf, size_t size, const char *name) {
  snprintf(buf, size, "%s/maps/%s.map", CAIRN_MOVINGAI_DIR, name);
}

static inline int have_movingai(void) {
  char p[1024];
  map_path(p, sizeof p, "arena");
  if (file_exists(p)) return 1;
  print_message("skipped: no Moving AI data at %s\n", CAIRN_MOVINGAI_DIR);
  return 0;
}

/* ---- map parsing ---------------------------------------------------- */

typedef struct bad_case {
  const char *text;
  size_t len; /* 0: strlen(text) */
  cairn_status status;
  const char *prefix, *keyword;
} bad_case;

/* A literal that holds a NUL, with its real length. */
#define LIT(s) s, sizeof(s) - 1

#endif
