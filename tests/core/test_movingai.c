/* A* and `--algo auto` (jump point search with jump tables and 16
 * landmarks on these maps of one terrain cost) on every scenario of every
 * map in the shared Moving AI folder, loaded, run and validated through
 * the scenario harness of cairn scen (tools/scen_run.h): each finds the
 * published optimal length (to |cost -
 * optimal| <= 1e-5 optimal + 0.006) with a valid path whose cost the test
 * recounts to the last unit, and the rows skipped are exactly the ones the
 * folder's README lists. Every 25th row is also cross-checked against
 * Dijkstra.
 *
 * usage: test_movingai [--stride N] [NAME.map.scen ...]  runs the named
 * files (default: all), so ctest can run one test per file side by side;
 * --stride N > 1 runs only every N-th row (the sanitizer builds, which are
 * many times slower), leaving the others out (counted apart, never as
 * solved). */
#define _POSIX_C_SOURCE 200809L /* opendir */
#include "test_util.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h" /* EXIT_DONE */
#include "scen_run.h"

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

/* What the harness's per-row callback checks beyond its own validation, on
 * the calling thread (no jobs): the recount, and Dijkstra on every 25th
 * row through a context of its own (dijkstra_ctx NULL: not; A*'s run
 * does it, and the same rows' optima hold every other search to it). */
typedef struct row_checks {
  const scen_file *f;
  cairn_search *dijkstra_ctx;
  cairn_search_opts dijkstra;
  size_t verified; /* solved rows the callback saw */
  size_t bad_recount, bad_dijkstra;
  uint32_t bad_line; /* the first row that failed a check */
} row_checks;

static void check_row(void *user, uint32_t worker, size_t index,
                      const cairn_result *res, const scen_row *row) {
  row_checks *c = user;
  (void)worker;
  if (row->kind != ROW_SOLVED) return; /* run_scen fails on those */
  const cairn_scen_entry *e = cairn_scen_get(c->f->sc, index);
  c->verified++;
  /* the test's own recount agrees with the search to the last unit */
  if (tu_path_cost_quiet(c->f->g, res->path, res->path_len, e->start, e->goal, 8) !=
      res->cost) {
    c->bad_recount++;
    if (!c->bad_line) c->bad_line = e->line;
  }
  if (c->dijkstra_ctx && index % 25 == 0) {
    cairn_result r;
    if (cairn_astar(c->dijkstra_ctx, c->f->g, e->start, e->goal, &c->dijkstra, &r) !=
            CAIRN_OK ||
        r.cost != res->cost) {
      c->bad_dijkstra++;
      if (!c->bad_line) c->bad_line = e->line;
    }
  }
}

static void run_scen(cairn_search *dijkstra_ctx, const char *name, scen_algo algo,
                     tally *total) {
  char path[1024];
  snprintf(path, sizeof path, "%s/scen/%s", CAIRN_MOVINGAI_DIR, name);
  scen_file f;
  if (scen_file_load(path, NULL, &f) != EXIT_DONE) fail_msg("%s: %s", name, f.error);
  size_t rows = cairn_scen_count(f.sc);
  scen_row *out = calloc(rows ? rows : 1, sizeof *out);
  double *scratch = calloc(rows ? rows : 1, sizeof *scratch);
  assert_non_null(out);
  assert_non_null(scratch);
  scen_config astar = {algo, 1.0, 0, -1, 0, -1, false, 1, NULL, NULL, 1, -1};
  row_checks checks = {&f, algo == ALGO_ASTAR ? dijkstra_ctx : NULL, cairn_search_defaults(),
                       0, 0, 0, 0};
  checks.dijkstra.heuristic = CAIRN_H_ZERO;
  scen_run_opts o = {(size_t)stride, NULL, check_row, &checks};
  assert_int_equal(scen_run_rows_with(&astar, &f, NULL, &o, out), EXIT_DONE);

  const skip_list *want_skips = skips_for(name);
  uint32_t skipped[16];
  int n_skipped = 0;
  size_t run_here = 0; /* rows the stride picks that are not blocked */
  for (size_t i = 0; i < rows; i++) {
    const cairn_scen_entry *e = cairn_scen_get(f.sc, i);
    /* the test's own reading of the stride, apart from the harness's */
    bool blocked = !cairn_grid_cost(f.g, e->start.x, e->start.y) ||
                   !cairn_grid_cost(f.g, e->goal.x, e->goal.y);
    if (!blocked && i % (size_t)stride == 0) run_here++;
    switch (out[i].kind) {
    case ROW_SKIPPED:
      assert_true(n_skipped < 16);
      skipped[n_skipped++] = e->line;
      break;
    case ROW_UNREACHABLE:
      fail_msg("%s:%u: no path found", name, e->line);
      break;
    case ROW_INVALID: /* the harness printed the problem */
      fail_msg("%s:%u: invalid path", name, e->line);
      break;
    case ROW_SOLVED:
      if (out[i].mismatch)
        fail_msg("%s:%u: cost %.6f, optimal %.6f", name, e->line, out[i].cost,
                 e->optimal);
      break;
    case ROW_LEFT_OUT:
      break;
    }
  }
  if (checks.bad_recount || checks.bad_dijkstra)
    fail_msg("%s:%u: %zu paths whose recount differs, %zu rows where Dijkstra "
             "disagrees", name, checks.bad_line, checks.bad_recount, checks.bad_dijkstra);
  int want_n = want_skips ? want_skips->n : 0;
  if (n_skipped != want_n) fail_msg("%s: %d rows skipped, README lists %d", name, n_skipped, want_n);
  for (int k = 0; k < n_skipped; k++) assert_int_equal(skipped[k], want_skips->lines[k]);

  scen_totals t = scen_sum_rows(f.sc, out, 0, UINT32_MAX, scratch);
  print_message("%-26s %-5s %6zu rows, %6zu solved, %zu skipped\n", name,
                scen_algo_names[algo], rows, t.solved, t.skipped);
  /* every row solved, skipped (blocked, as the README lists) or left out
   * by the stride, and the stride ran its share: a row in every stride.
   * Solved means searched and checked here: a row left out is never
   * counted as solved. */
  assert_int_equal(t.scenarios, rows);
  assert_int_equal(t.skipped, (size_t)n_skipped);
  assert_int_equal(t.unreachable + t.invalid + t.mismatch, 0);
  assert_int_equal(rows, t.solved + t.skipped + t.left_out);
  assert_int_equal(t.solved, checks.verified);
  assert_int_equal(t.solved, run_here);
  size_t picked = (rows + (size_t)stride - 1) / (size_t)stride;
  assert_true(t.solved + t.skipped >= picked);
  total->rows += rows;
  total->solved += t.solved;
  total->not_run += t.left_out;
  total->skipped += t.skipped;
  free(scratch);
  free(out);
  scen_file_free(&f);
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
      run_scen(s, names[i], ALGO_ASTAR, &total);
      run_scen(s, names[i], ALGO_AUTO, &total);
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
