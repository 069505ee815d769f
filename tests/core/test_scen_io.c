/* Moving AI .scen files: parsing (versions, malformed and truncated input,
 * allocation failures), checking rows against a map, load errors, and every
 * shared Moving AI scenario file read with its first arena row checked. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "test_util.h"
#include "test_io_util.h"

#include "core_internal.h"
#include "text_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------- */

static cairn_status scen_exact(const char *text, size_t len,
                               const cairn_allocator *a, cairn_scen **s,
                               cairn_error *err) {
  char *copy = malloc(len ? len : 1);
  assert_non_null(copy);
  memcpy(copy, text, len);
  cairn_status st = cairn_scen_parse(copy, len, "t.scen", a, s, err);
  free(copy);
  return st;
}

static void scen_path(char *buf, size_t size, const char *name) {
  snprintf(buf, size, "%s/scen/%s.map.scen", CAIRN_MOVINGAI_DIR, name);
}

/* ---- scenarios ------------------------------------------------------ */

static void test_scen_parse_small(void **state) {
  (void)state;
  const char *text =
      "version 1\r\n"
      "0\tmaps/dao/a.map\t4\t3\t0\t0\t3\t2\t3.60555\r\n"
      "\r\n"
      "1 a.map   4 3 1 1 2 2 1.41421\n"
      "2\tC:\\maps\\a.map \t4\t3\t3\t2\t0\t0\t 8\n"
      "\n";
  cairn_scen *s = NULL;
  cairn_error err;
  cairn_status st = scen_exact(text, strlen(text), NULL, &s, &err);
  if (st != CAIRN_OK) print_error("%s\n", err.message);
  assert_int_equal(st, CAIRN_OK);
  assert_int_equal(cairn_scen_count(s), 3);
  assert_string_equal(cairn_scen_map_name(s), "a.map");
  const cairn_scen_entry *e = cairn_scen_get(s, 0);
  assert_non_null(e);
  assert_int_equal(e->bucket, 0);
  assert_int_equal(e->map_width, 4);
  assert_int_equal(e->map_height, 3);
  assert_int_equal(e->start.x, 0);
  assert_int_equal(e->goal.x, 3);
  assert_int_equal(e->goal.y, 2);
  assert_true(e->optimal == 3.60555);
  assert_int_equal(e->line, 2);
  e = cairn_scen_get(s, 1);
  assert_int_equal(e->bucket, 1);
  assert_int_equal(e->start.y, 1);
  assert_int_equal(e->line, 4);
  e = cairn_scen_get(s, 2);
  assert_int_equal(e->line, 5);
  assert_true(e->optimal == 8.0);
  assert_null(cairn_scen_get(s, 3));
  cairn_scen_destroy(s);
}

static void test_scen_versions(void **state) {
  (void)state;
  const char *ok[] = {"version 1\n", "version 1.0", "version 1.0\r\n\r\n\n",
                      "version\t1 \n"};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    cairn_scen *s = NULL;
    cairn_error err;
    assert_int_equal(scen_exact(ok[i], strlen(ok[i]), NULL, &s, &err),
                     CAIRN_OK);
    assert_int_equal(cairn_scen_count(s), 0);
    assert_string_equal(cairn_scen_map_name(s), "");
    cairn_scen_destroy(s);
  }
  const char *text =
      "version 1.0\n"
      "61 maps/bgmaps/AR0011SR.map 512 512 210 395 87 201 244.95\n"
      "33 maps/bgmaps/AR0011SR.map 512 512 244 370 359 376 132.40\n";
  cairn_scen *s = NULL;
  cairn_error err;
  assert_int_equal(scen_exact(text, strlen(text), NULL, &s, &err), CAIRN_OK);
  assert_int_equal(cairn_scen_count(s), 2);
  assert_string_equal(cairn_scen_map_name(s), "AR0011SR.map");
  assert_int_equal(cairn_scen_get(s, 1)->goal.y, 376);
  assert_true(cairn_scen_get(s, 1)->optimal == 132.40);
  cairn_scen_destroy(s);
}

#define ROW(b, w, h, sx, sy, gx, gy, o) \
  b "\ta.map\t" w "\t" h "\t" sx "\t" sy "\t" gx "\t" gy "\t" o "\n"

#define GOOD ROW("0", "4", "3", "0", "0", "3", "2", "3.6")

static const bad_case bad_scens[] = {
    {"", 0, CAIRN_ERR_PARSE, "t.scen:1:", "version 1"},
    {"hello\n" GOOD, 0, CAIRN_ERR_PARSE, "t.scen:1:", "'hello'"},
    {"version 2\n" GOOD, 0, CAIRN_ERR_PARSE, "t.scen:1:", "version '2'"},
    {"version 1.5\n", 0, CAIRN_ERR_PARSE, "t.scen:1:", "'1.5'"},
    {"version\n", 0, CAIRN_ERR_PARSE, "t.scen:1:", "unsupported"},
    {"version 1\n0\ta.map\t4\t3\t0\t0\t3\t2\n", 0, CAIRN_ERR_PARSE,
     "t.scen:2:", "found 8"},
    {"version 1\n" GOOD "0 a.map 4 3 0 0 3 2 3.6 9\n", 0, CAIRN_ERR_PARSE,
     "t.scen:3:", "found 10"},
    {"version 1\n" ROW("x", "4", "3", "0", "0", "3", "2", "1"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "bucket"},
    {"version 1\n" ROW("0", "4", "3", "a", "0", "3", "2", "1"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "start_x is not an integer: 'a'"},
    {"version 1\n\n\n" ROW("0", "4", "3", "0", "0", "3", "2x", "1"), 0,
     CAIRN_ERR_PARSE, "t.scen:4:", "goal_y is not an integer: '2x'"},
    {"version 1\n" ROW("0", "4", "3", "0", "0", "1.5", "2", "1"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "goal_x"},
    {"version 1\n" ROW("0", "4", "3", "0", "0", "3", "2",
                       "1111111111111111111111111111111111111111111111111111"
                       "1111111111111111111111111111"),
     0, CAIRN_ERR_PARSE, "t.scen:2:", "optimal"},
    {"version 1\n" ROW("0", "4", "3", "0", "999999999999999999999999", "3",
                       "2", "1"),
     0, CAIRN_ERR_PARSE, "t.scen:2:", "start_y"},
    {"version 1\n" ROW("-1", "4", "3", "0", "0", "3", "2", "1"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "negative bucket"},
    {"version 1\n" ROW("0", "4", "3", "0", "-2", "3", "2", "1"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "negative start_y"},
    {"version 1\n" ROW("0", "4", "3", "0", "0", "-3", "2", "1"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "negative goal_x"},
    {"version 1\n" ROW("0", "0", "3", "0", "0", "0", "0", "1"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "map_width"},
    {"version 1\n" ROW("0", "4", "-3", "0", "0", "0", "0", "1"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "map_height"},
    {"version 1\n" ROW("0", "20000", "3", "0", "0", "0", "0", "1"), 0,
     CAIRN_ERR_TOO_LARGE, "t.scen:2:", "map_width 20000"},
    {"version 1\n" GOOD ROW("0", "4", "3", "4", "0", "3", "2", "1"), 0,
     CAIRN_ERR_RANGE, "t.scen:3:", "start (4,0) is outside the 4x3 map"},
    {"version 1\n" ROW("0", "4", "3", "0", "0", "3", "3", "1"), 0,
     CAIRN_ERR_RANGE, "t.scen:2:", "goal (3,3)"},
    {"version 1\n" ROW("0", "4", "3", "0", "0", "3", "99999999999", "1"), 0,
     CAIRN_ERR_RANGE, "t.scen:2:", "goal"},
    {"version 1\n" ROW("0", "4", "3", "0", "0", "3", "2", "nan"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "optimal"},
    {"version 1\n" ROW("0", "4", "3", "0", "0", "3", "2", "inf"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "optimal"},
    {"version 1\n" ROW("0", "4", "3", "0", "0", "3", "2", "-1"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "optimal"},
    {"version 1\n" ROW("0", "4", "3", "0", "0", "3", "2", "1.5x"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "'1.5x'"},
    {"version 1\n" ROW("0", "4", "3", "0", "0", "3", "2", "1e999"), 0,
     CAIRN_ERR_PARSE, "t.scen:2:", "optimal"},
    {"version 1\n" GOOD "\n0\tmaps/b.map\t4\t3\t0\t0\t3\t2\t1\n", 0,
     CAIRN_ERR_PARSE, "t.scen:4:", "'b.map'"},
    {"version 1\n" GOOD "0\ta.map.bak\t4\t3\t0\t0\t3\t2\t1\n", 0,
     CAIRN_ERR_PARSE, "t.scen:3:", "a.map.bak"},
    {LIT("version 1\n0\ta.map\t4\t3\t0\t0\t3\t2\t1\0\n"), CAIRN_ERR_PARSE,
     "t.scen:2:", "optimal"},
};

static void test_scen_malformed(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof bad_scens / sizeof bad_scens[0]; i++) {
    const bad_case *c = &bad_scens[i];
    size_t len = c->len ? c->len : strlen(c->text);
    cairn_scen *s = (cairn_scen *)&len; /* must be reset to NULL */
    cairn_error err;
    counting cnt;
    cairn_allocator a = counting_alloc(&cnt, -1, 0);
    cairn_status st = scen_exact(c->text, len, &a, &s, &err);
    if (st != c->status) print_error("case %zu\n", i);
    expect_fail(st, c->status, &err, c->prefix, c->keyword);
    assert_null(s);
    assert_int_equal(cnt.live, 0);
    assert_int_equal(scen_exact(c->text, len, NULL, &s, NULL), c->status);
  }
}

static void test_scen_truncated(void **state) {
  (void)state;
  const char *text = "version 1\n" GOOD ROW("1", "4", "3", "1", "2", "3",
                                                "0", "12.25");
  size_t n = strlen(text);
  for (size_t len = 0; len <= n; len++) {
    cairn_scen *s = NULL;
    cairn_error err;
    cairn_status st = scen_exact(text, len, NULL, &s, &err);
    if (st == CAIRN_OK)
      assert_true(cairn_scen_count(s) <= 2);
    else
      assert_int_equal(strncmp(err.message, "t.scen:", 7), 0);
    cairn_scen_destroy(s);
  }
}

static void test_scen_nomem(void **state) {
  (void)state;
  /* 200 rows so the row array grows several times. */
  size_t cap = 16 + 200 * sizeof GOOD;
  char *text = malloc(cap);
  assert_non_null(text);
  strcpy(text, "version 1\n");
  for (int i = 0; i < 200; i++) strcat(text, GOOD);
  for (long k = 0;; k++) {
    counting cnt;
    cairn_allocator a = counting_alloc(&cnt, k, 0);
    cairn_scen *s = NULL;
    cairn_error err;
    cairn_status st = scen_exact(text, strlen(text), &a, &s, &err);
    if (st == CAIRN_OK) {
      assert_int_equal(cairn_scen_count(s), 200);
      assert_true(k > 4);
      cairn_scen_destroy(s);
      assert_int_equal(cnt.live, 0);
      break;
    }
    expect_fail(st, CAIRN_ERR_NOMEM, &err, "t.scen", "memory");
    assert_null(s);
    assert_int_equal(cnt.live, 0);
  }
  free(text);
}

static void test_scen_check(void **state) {
  (void)state;
  const char *text = "version 1\n" GOOD GOOD;
  const char *rows4[] = {"....", "....", "...."};
  const char *rows5[] = {".....", ".....", "....."};
  cairn_grid *g4 = tu_grid(rows4, 3), *g5 = tu_grid(rows5, 3);
  cairn_scen *s = NULL;
  cairn_error err;
  assert_int_equal(scen_exact(text, strlen(text), NULL, &s, &err), CAIRN_OK);
  assert_int_equal(cairn_scen_check(s, g4, &err), CAIRN_OK);
  expect_fail(cairn_scen_check(s, g5, &err), CAIRN_ERR_MISMATCH, &err,
              "t.scen:2: scenario map is 4x3 but the map is 5x3", "");
  assert_int_equal(err.line, 2);
  assert_int_equal(cairn_scen_check(s, g5, NULL), CAIRN_ERR_MISMATCH);
  assert_int_equal(cairn_scen_check(NULL, g5, &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_scen_check(s, NULL, &err), CAIRN_ERR_ARG);
  /* Blocked endpoints are the caller's business, not a check failure. */
  assert_int_equal(cairn_grid_set_cost(g4, 0, 0, 0), CAIRN_OK);
  assert_int_equal(cairn_scen_check(s, g4, &err), CAIRN_OK);
  cairn_scen_destroy(s);
  cairn_grid_destroy(g4);
  cairn_grid_destroy(g5);
}

static void test_scen_load_errors(void **state) {
  (void)state;
  cairn_scen *s = NULL;
  cairn_error err;
  expect_fail(cairn_scen_load("no_such_dir_cairn/x.scen", NULL, &s, &err),
              CAIRN_ERR_IO, &err, "no_such_dir_cairn/x.scen: ",
              "cannot open: ");
  assert_null(s);
  assert_int_equal(cairn_scen_load(NULL, NULL, &s, &err), CAIRN_ERR_ARG);
  write_all("test_io_bad.scen", "version 1\n0\ta.map\t4\t3\t0\t0\t3\n");
  expect_fail(cairn_scen_load("test_io_bad.scen", NULL, &s, &err),
              CAIRN_ERR_PARSE, &err, "test_io_bad.scen:2:", "found 7");
  remove("test_io_bad.scen");
}

/* Every benchmark scenario file parses, has the README's row count, and
 * fits its map. */
static void test_movingai_scens(void **state) {
  (void)state;
  if (!have_movingai()) skip();
  size_t total = 0;
  for (size_t i = 0; i < N_BENCH; i++) {
    char path[1024], mpath[1024], want_name[256];
    scen_path(path, sizeof path, bench_maps[i].name);
    map_path(mpath, sizeof mpath, bench_maps[i].name);
    snprintf(want_name, sizeof want_name, "%s.map", bench_maps[i].name);
    cairn_scen *s = NULL;
    cairn_grid *g = NULL;
    cairn_error err;
    cairn_status st = cairn_scen_load(path, NULL, &s, &err);
    if (st != CAIRN_OK) print_error("%s\n", err.message);
    assert_int_equal(st, CAIRN_OK);
    assert_int_equal(cairn_scen_count(s), bench_maps[i].scen_rows);
    assert_string_equal(cairn_scen_map_name(s), want_name);
    assert_int_equal(cairn_map_load(mpath, NULL, NULL, &g, &err), CAIRN_OK);
    st = cairn_scen_check(s, g, &err);
    if (st != CAIRN_OK) print_error("%s\n", err.message);
    assert_int_equal(st, CAIRN_OK);
    /* bucket = floor(optimal / 4), computed by the generator before
     * rounding, so a printed 512.00 can sit in bucket 127. */
    for (size_t r = 0; r < cairn_scen_count(s); r++) {
      const cairn_scen_entry *e = cairn_scen_get(s, r);
      assert_true(4.0 * e->bucket <= e->optimal + 0.01);
      assert_true(e->optimal < 4.0 * (e->bucket + 1) + 0.01);
      assert_int_equal(e->line, r + 2);
    }
    total += cairn_scen_count(s);
    cairn_scen_destroy(s);
    cairn_grid_destroy(g);
  }
  assert_int_equal(total, 54053);
}

static void test_movingai_arena_first_row(void **state) {
  (void)state;
  if (!have_movingai()) skip();
  char path[1024];
  scen_path(path, sizeof path, "arena");
  cairn_scen *s = NULL;
  assert_int_equal(cairn_scen_load(path, NULL, &s, NULL), CAIRN_OK);
  const cairn_scen_entry *e = cairn_scen_get(s, 0);
  assert_int_equal(e->bucket, 0);
  assert_int_equal(e->map_width, 49);
  assert_int_equal(e->start.x, 1);
  assert_int_equal(e->start.y, 11);
  assert_int_equal(e->goal.x, 1);
  assert_int_equal(e->goal.y, 12);
  assert_true(e->optimal == 1.0);
  cairn_scen_destroy(s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scen_parse_small),
      cmocka_unit_test(test_scen_versions),
      cmocka_unit_test(test_scen_malformed),
      cmocka_unit_test(test_scen_truncated),
      cmocka_unit_test(test_scen_nomem),
      cmocka_unit_test(test_scen_check),
      cmocka_unit_test(test_scen_load_errors),
      cmocka_unit_test(test_movingai_scens),
      cmocka_unit_test(test_movingai_arena_first_row),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
