/* Every scenario of every map in the shared Moving AI folder: A* finds the
 * published optimal length (to |cost - optimal| <= 1e-5 optimal + 0.006) with
 * a valid path, and the rows skipped are exactly the ones the folder's README
 * lists. Every 25th row is also cross-checked against Dijkstra.
 *
 * usage: test_movingai [--stride N] [NAME.map.scen ...]  runs the named
 * files (default: all), so ctest can run one test per file side by side;
 * --stride N > 1 runs only every N-th row (the sanitizer builds, which are
 * many times slower), leaving the others out (counted apart, never as
 * solved). */
#define _POSIX_C_SOURCE 200809L /* opendir */
#include "test_util.h"

#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int stride = 1;
static char **only = NULL; /* file names to run, or NULL for all */
static int n_only = 0;

/* The README's list of rows whose start or goal is not passable. */
typedef struct skip_list {
  const char *scen;
  uint32_t lines[8];
  int n;
} skip_list;
static const skip_list expected_skips[] = {
    {"icecrown.map.scen", {76, 148, 1070}, 3},
    {"gardenofwar.map.scen", {115, 247, 262, 447, 633, 897}, 6},
};

static const skip_list *skips_for(const char *scen) {
  for (size_t i = 0; i < sizeof expected_skips / sizeof *expected_skips; i++)
    if (strcmp(expected_skips[i].scen, scen) == 0) return &expected_skips[i];
  return NULL;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names of the .scen files; NULL (and *n = 0) if the folder is absent. */
static char **list_scens(const char *dir, size_t *n) {
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) return NULL;
  char **names = NULL;
  size_t cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 5, ".scen") != 0) continue;
    if (*n == cap) {
      cap = cap ? cap * 2 : 32;
      names = realloc(names, cap * sizeof *names);
      assert_non_null(names);
    }
    names[*n] = malloc(len + 1);
    assert_non_null(names[*n]);
    memcpy(names[*n], e->d_name, len + 1);
    (*n)++;
  }
  closedir(d);
  qsort(names, *n, sizeof *names, cmp_str);
  return names;
}

typedef struct tally {
  size_t rows, solved, skipped, not_run;
} tally;

static void run_scen(cairn_search *s, const char *name, tally *total) {
  size_t not_run = 0, *sampled_out = &not_run;
  char path[1024];
  cairn_error err;
  snprintf(path, sizeof path, "%s/scen/%s", CAIRN_MOVINGAI_DIR, name);
  cairn_scen *sc = NULL;
  if (cairn_scen_load(path, NULL, &sc, &err) != CAIRN_OK) fail_msg("%s", err.message);
  snprintf(path, sizeof path, "%s/maps/%s", CAIRN_MOVINGAI_DIR, cairn_scen_map_name(sc));
  cairn_grid *g = NULL;
  if (cairn_map_load(path, NULL, NULL, &g, &err) != CAIRN_OK) fail_msg("%s", err.message);
  if (cairn_scen_check(sc, g, &err) != CAIRN_OK) fail_msg("%s", err.message);
  const skip_list *want_skips = skips_for(name);
  uint32_t skipped[16];
  int n_skipped = 0;
  size_t solved = 0;
  cairn_search_opts dijkstra = cairn_search_defaults();
  dijkstra.heuristic = CAIRN_H_ZERO;
  for (size_t i = 0; i < cairn_scen_count(sc); i++) {
    const cairn_scen_entry *e = cairn_scen_get(sc, i);
    bool blocked = !cairn_grid_cost(g, e->start.x, e->start.y) ||
                   !cairn_grid_cost(g, e->goal.x, e->goal.y);
    if (!blocked && i % (size_t)stride != 0) {
      (*sampled_out)++; /* not run under --stride */
      continue;
    }
    if (blocked) {
      assert_true(n_skipped < 16);
      skipped[n_skipped++] = e->line;
      continue;
    }
    cairn_result r;
    if (cairn_astar(s, g, e->start, e->goal, NULL, &r) != CAIRN_OK)
      fail_msg("%s:%u: no path found", name, e->line);
    cairn_path_check chk;
    cairn_grid_check_path(g, r.path, r.path_len, e->start, e->goal, 8, &chk);
    if (!chk.valid) fail_msg("%s:%u: invalid path: %s", name, e->line, chk.problem);
    /* the test's own recount agrees with the search to the last unit */
    assert_true(tu_path_cost(g, r.path, r.path_len, e->start, e->goal, 8) == r.cost);
    if (fabs(chk.cost - e->optimal) > 1e-5 * e->optimal + 0.006)
      fail_msg("%s:%u: cost %.6f, optimal %.6f", name, e->line, chk.cost, e->optimal);
    if (i % 25 == 0) {
      cairn_cost astar_cost = r.cost;
      assert_int_equal(cairn_astar(s, g, e->start, e->goal, &dijkstra, &r), CAIRN_OK);
      if (r.cost != astar_cost) fail_msg("%s:%u: Dijkstra disagrees", name, e->line);
    }
    solved++;
  }
  int want_n = want_skips ? want_skips->n : 0;
  if (n_skipped != want_n) fail_msg("%s: %d rows skipped, README lists %d", name, n_skipped, want_n);
  for (int k = 0; k < n_skipped; k++) assert_int_equal(skipped[k], want_skips->lines[k]);
  print_message("%-26s %6zu rows, %6zu solved, %d skipped\n", name,
                cairn_scen_count(sc), solved, n_skipped);
  /* every row solved, skipped (blocked, as the README lists) or left out
   * by the stride, and the stride ran its share: a row in every stride */
  assert_int_equal(cairn_scen_count(sc), solved + (size_t)n_skipped + not_run);
  size_t picked = (cairn_scen_count(sc) + (size_t)stride - 1) / (size_t)stride;
  assert_true(solved + (size_t)n_skipped >= picked);
  total->rows += cairn_scen_count(sc);
  total->solved += solved;
  total->not_run += not_run;
  total->skipped += (size_t)n_skipped;
  cairn_grid_destroy(g);
  cairn_scen_destroy(sc);
}

static bool wanted(const char *name) {
  if (!only) return true;
  for (int i = 0; i < n_only; i++)
    if (strcmp(only[i], name) == 0) return true;
  return false;
}

static void every_scenario(void **state) {
  (void)state;
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/scen", CAIRN_MOVINGAI_DIR);
  size_t n = 0;
  char **names = list_scens(dir, &n);
  if (!names) {
    print_message("skipped: %s is absent\n", dir);
    skip();
  }
  assert_int_equal(n, 24); /* the README's 24 maps */
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  tally total = {0, 0, 0, 0};
  int ran = 0;
  for (size_t i = 0; i < n; i++) {
    if (wanted(names[i])) {
      run_scen(s, names[i], &total);
      ran++;
    }
    free(names[i]);
  }
  free(names);
  if (only) assert_int_equal(ran, n_only); /* every named file exists */
  print_message("%d files: %zu rows, %zu solved, %zu skipped, %zu left out (stride %d)\n",
                ran, total.rows, total.solved, total.skipped, total.not_run, stride);
  assert_int_equal(total.rows, total.solved + total.skipped + total.not_run);
  if (ran) assert_true(total.solved > 0);
  cairn_search_destroy(s);
}

int main(int argc, char **argv) {
  int i = 1;
  if (argc > 2 && strcmp(argv[1], "--stride") == 0) {
    stride = atoi(argv[2]);
    if (stride < 1) return 2;
    i = 3;
  }
  if (i < argc) {
    only = argv + i;
    n_only = argc - i;
  }
  const struct CMUnitTest tests[] = {cmocka_unit_test(every_scenario)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
