/* The tables a scenario file keeps for its rows (scen_run.h,
 * scen_file_landmarks and scen_file_dead_ends): built once and handed out
 * again, replaced for another landmark count or another grid, and the rows
 * of --algo auto the same whether its pilot built them or they were there
 * before. The map and the scenario file are written to the working folder
 * (the build tree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "scen_run.h"
#include "test_util.h"

#define MAP_PATH "scen_tables_test.map"
#define SCEN_PATH "scen_tables_test.map.scen"

/* A corridor with rooms and alcoves off it: dead ends to find. */
static const char *const rows_a[] = {
    "##############",
    "#....#...#...#",
    "#....#...#...#",
    "#.............",
    "###.####.###.#",
    "#......#.#...#",
    "#......#.#...#",
    "##############",
};
/* The same size, open: other areas. */
static const char *const rows_b[] = {
    "..............",
    "..............",
    "..............",
    "..............",
    "..............",
    "..............",
    "..............",
    "..............",
};

static void write_files(void) {
  FILE *m = fopen(MAP_PATH, "w");
  assert_non_null(m);
  fprintf(m, "type octile\nheight 8\nwidth 14\nmap\n");
  for (int y = 0; y < 8; y++) {
    for (const char *c = rows_a[y]; *c; c++) fputc(*c == '#' ? '@' : '.', m);
    fputc('\n', m);
  }
  assert_int_equal(fclose(m), 0);
  FILE *s = fopen(SCEN_PATH, "w");
  assert_non_null(s);
  /* the optimal lengths are not what this test checks: both runs below
   * read the same ones */
  fprintf(s, "version 1\n"
             "0\t" MAP_PATH "\t14\t8\t1\t1\t12\t6\t16.0\n"
             "0\t" MAP_PATH "\t14\t8\t2\t5\t11\t1\t12.0\n"
             "0\t" MAP_PATH "\t14\t8\t13\t3\t1\t6\t14.0\n");
  assert_int_equal(fclose(s), 0);
}

static void remove_files(void) {
  remove(MAP_PATH);
  remove(SCEN_PATH);
}

static uint32_t areas_of(const cairn_dead_ends *de) {
  cairn_dead_ends_stats st;
  cairn_dead_ends_get_stats(de, &st);
  return st.areas;
}

static void test_kept_and_replaced(void **state) {
  (void)state;
  write_files();
  scen_file f;
  assert_int_equal(scen_file_load(SCEN_PATH, NULL, &f), EXIT_DONE);
  const cairn_landmarks *lm4 = scen_file_landmarks(&f, 4);
  assert_non_null(lm4);
  assert_ptr_equal(scen_file_landmarks(&f, 4), lm4);
  const cairn_landmarks *lm2 = scen_file_landmarks(&f, 2);
  assert_non_null(lm2);
  assert_ptr_equal(scen_file_landmarks(&f, 2), lm2);
  const cairn_dead_ends *de = scen_file_dead_ends(&f);
  assert_non_null(de);
  assert_ptr_equal(scen_file_dead_ends(&f), de);
  const uint32_t areas_a = areas_of(de);
  /* another grid in f: the tables are its own */
  cairn_grid *open = tu_grid(rows_b, 8);
  cairn_dead_ends *fresh = NULL;
  assert_int_equal(cairn_dead_ends_create(open, NULL, &fresh), CAIRN_OK);
  const uint32_t areas_b = areas_of(fresh);
  cairn_dead_ends_destroy(fresh);
  assert_int_not_equal(areas_a, areas_b);
  cairn_grid_destroy(f.g);
  f.g = open;
  const cairn_dead_ends *de_open = scen_file_dead_ends(&f);
  assert_non_null(de_open);
  assert_int_equal(areas_of(de_open), areas_b);
  assert_non_null(scen_file_landmarks(&f, 4));
  scen_file_free(&f);
  remove_files();
}

/* Runs the file's rows with --algo auto into rows (3 of them); with
 * `built_first`, the tables are built before auto's pilot asks for them. */
static void auto_rows(bool built_first, scen_row *rows, scen_config *chosen) {
  scen_file f;
  assert_int_equal(scen_file_load(SCEN_PATH, NULL, &f), EXIT_DONE);
  assert_int_equal(cairn_scen_count(f.sc), 3);
  scen_config c = {ALGO_AUTO, 1.0, 0, -1, 0, 4, false, 1, NULL, NULL, 1, -1};
  if (built_first) {
    assert_non_null(scen_file_dead_ends(&f));
    assert_non_null(scen_file_landmarks(&f, 4));
  }
  assert_int_equal(scen_resolve_auto(&c, &f), EXIT_DONE);
  assert_int_equal(scen_run_rows(&c, &f, NULL, rows), EXIT_DONE);
  *chosen = c;
  scen_file_free(&f);
}

static void test_auto_rows_same(void **state) {
  (void)state;
  write_files();
  scen_row a[3], b[3];
  scen_config ca, cb;
  auto_rows(false, a, &ca);
  auto_rows(true, b, &cb);
  assert_int_equal(ca.dead_ends, cb.dead_ends);
  assert_int_equal(ca.landmarks, cb.landmarks);
  for (int i = 0; i < 3; i++) {
    assert_int_equal(a[i].kind, ROW_SOLVED);
    assert_int_equal(b[i].kind, ROW_SOLVED);
    assert_true(a[i].cost == b[i].cost);
    assert_int_equal(a[i].expanded, b[i].expanded);
  }
  remove_files();
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kept_and_replaced),
      cmocka_unit_test(test_auto_rows_same),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
