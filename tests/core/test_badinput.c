/* The bad-input matrix of the library (docs/RELIABILITY.md), core rows: map
 * and scenario files, grids, searches, a map with no passable cell, graphs
 * and cost layers at their limits; one test per row. Each feeds one kind of
 * bad input, checks the documented status (and for the parsers the
 * "FILE:LINE: problem" message), and then does a valid operation on the same
 * objects and checks its result, so a refusal is known to leave everything
 * usable. Limits are checked with an allocator that refuses every request: a
 * refusal above a limit must come before any allocation, so it must not be
 * NOMEM and the allocator must not have been asked. */
#include "test_util.h"
#include "test_badinput_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------- */

static const char ok_map[] =
    "type octile\nheight 3\nwidth 4\nmap\n....\n.@@.\n....\n";

/* Parses text as "bad.map" from an exactly sized heap copy (so ASan sees
 * a read past the end), under a counting allocator; wants status `want`, a
 * message starting with `prefix` and holding `keyword`, no grid, nothing
 * left allocated. */
static void map_refused(const char *text, cairn_status want,
                        const char *prefix, const char *keyword) {
  size_t len = strlen(text);
  char *copy = malloc(len ? len : 1);
  assert_non_null(copy);
  memcpy(copy, text, len);
  tu_alloc t;
  cairn_allocator a = tu_alloc_init(&t, -1);
  cairn_grid *g = NULL;
  cairn_error err;
  cairn_status st = cairn_map_parse(copy, len, "bad.map", NULL, &a, &g, &err);
  free(copy);
  if (st != want || strncmp(err.message, prefix, strlen(prefix)) != 0 ||
      !strstr(err.message, keyword))
    fail_msg("got %s \"%s\", want %s with \"%s\" and \"%s\"",
             cairn_status_str(st), err.message, cairn_status_str(want), prefix,
             keyword);
  assert_null(g);
  assert_int_equal(t.live_bytes, 0);
  assert_int_equal(t.live_blocks, 0);
}

/* The valid operation after a refused parse: a good map still parses. */
static void map_still_parses(void) {
  cairn_grid *g = NULL;
  cairn_error err;
  assert_int_equal(cairn_map_parse(ok_map, strlen(ok_map), "ok.map", NULL,
                                   NULL, &g, &err),
                   CAIRN_OK);
  assert_int_equal(cairn_grid_width(g), 4);
  assert_int_equal(cairn_grid_height(g), 3);
  assert_int_equal(cairn_grid_passable(g), 10);
  cairn_grid_destroy(g);
}

static void scen_refused(const char *text, cairn_status want,
                         const char *prefix, const char *keyword) {
  size_t len = strlen(text);
  char *copy = malloc(len ? len : 1);
  assert_non_null(copy);
  memcpy(copy, text, len);
  tu_alloc t;
  cairn_allocator a = tu_alloc_init(&t, -1);
  cairn_scen *s = NULL;
  cairn_error err;
  cairn_status st = cairn_scen_parse(copy, len, "bad.scen", &a, &s, &err);
  free(copy);
  if (st != want || strncmp(err.message, prefix, strlen(prefix)) != 0 ||
      !strstr(err.message, keyword))
    fail_msg("got %s \"%s\", want %s with \"%s\" and \"%s\"",
             cairn_status_str(st), err.message, cairn_status_str(want), prefix,
             keyword);
  assert_null(s);
  assert_int_equal(t.live_bytes, 0);
}

static const char ok_scen[] =
    "version 1\n0\tok.map\t4\t3\t0\t0\t3\t2\t3.41421356\n";

static void scen_still_parses(void) {
  cairn_scen *s = NULL;
  cairn_error err;
  assert_int_equal(cairn_scen_parse(ok_scen, strlen(ok_scen), "ok.scen", NULL,
                                    &s, &err),
                   CAIRN_OK);
  assert_int_equal(cairn_scen_count(s), 1);
  const cairn_scen_entry *e = cairn_scen_get(s, 0);
  assert_int_equal(e->goal.x, 3);
  assert_int_equal(e->goal.y, 2);
  cairn_scen_destroy(s);
}

/* A* from (0,0) to (3,2) on small_grid: round the wall, 5 straight steps
 * (no diagonal: each would cut a wall corner). The valid search after a
 * refused one. */
static void search_still_works(cairn_search *s, const cairn_grid *g) {
  cairn_point a = {0, 0}, b = {3, 2};
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, a, b, NULL, &r), CAIRN_OK);
  assert_int_equal(r.cost, 5 * CAIRN_COST_ONE);
  assert_int_equal(tu_path_cost(g, r.path, r.path_len, a, b, 8), r.cost);
}

/* ---- map files (cairn_map_parse) ------------------------------------ */

static void map_bad_type(void **state) {
  (void)state;
  map_refused("type hex\nheight 2\nwidth 2\nmap\n..\n..\n", CAIRN_ERR_PARSE,
              "bad.map:1:", "unknown map type 'hex'");
  map_refused("octile\nheight 2\nwidth 2\nmap\n..\n..\n", CAIRN_ERR_PARSE,
              "bad.map:1:", "expected 'type octile'");
  map_still_parses();
}

static void map_bad_header(void **state) {
  (void)state;
  map_refused("type octile\nheight 2\nmap\n..\n..\n", CAIRN_ERR_PARSE,
              "bad.map:3:", "missing 'width'");
  map_refused("type octile\nheight two\nwidth 2\nmap\n..\n..\n",
              CAIRN_ERR_PARSE, "bad.map:2:", "positive integer, got 'two'");
  map_refused("type octile\nheight -3\nwidth 2\nmap\n", CAIRN_ERR_PARSE,
              "bad.map:2:", "got '-3'");
  map_refused("type octile\nheight 2\nheight 2\nwidth 2\nmap\n..\n..\n",
              CAIRN_ERR_PARSE, "bad.map:3:", "duplicate 'height'");
  map_still_parses();
}

static void map_wrong_row_length(void **state) {
  (void)state;
  map_refused("type octile\nheight 2\nwidth 3\nmap\n...\n....\n",
              CAIRN_ERR_PARSE, "bad.map:6:", "4 characters long, expected width 3");
  map_refused("type octile\nheight 2\nwidth 3\nmap\n..\n...\n", CAIRN_ERR_PARSE,
              "bad.map:5:", "expected width 3");
  map_still_parses();
}

static void map_truncated(void **state) {
  (void)state;
  /* rows missing, a row cut short, the header cut before "map" */
  map_refused("type octile\nheight 3\nwidth 3\nmap\n...\n...\n",
              CAIRN_ERR_PARSE, "bad.map:7:", "expected map row 3 of 3");
  map_refused("type octile\nheight 3\nwidth 3\nmap\n...\n..", CAIRN_ERR_PARSE,
              "bad.map:6:", "expected width 3");
  map_refused("type octile\nheight 3\nwid", CAIRN_ERR_PARSE, "bad.map:3:", "");
  map_still_parses();
}

static void map_unknown_character(void **state) {
  (void)state;
  map_refused("type octile\nheight 2\nwidth 2\nmap\n.x\n..\n", CAIRN_ERR_PARSE,
              "bad.map:5:", "unknown map character 'x' at column 2");
  map_still_parses();
}

/* 100000 x 100000 is refused from the header alone, before any memory is
 * taken: under an allocator that refuses everything the answer is still
 * TOO_LARGE, and the allocator was never asked. */
static void map_absurd_size(void **state) {
  (void)state;
  map_refused("type octile\nheight 100000\nwidth 100000\nmap\n",
              CAIRN_ERR_TOO_LARGE, "bad.map:2:", "above the limit of 16384");
  map_refused("type octile\nheight 16384\nwidth 16385\nmap\n",
              CAIRN_ERR_TOO_LARGE, "bad.map:3:", "width 16385");
  const char *huge = "type octile\nheight 100000\nwidth 100000\nmap\n";
  tu_alloc t;
  cairn_allocator a = refusing(&t);
  cairn_grid *g = NULL;
  cairn_error err;
  assert_int_equal(cairn_map_parse(huge, strlen(huge), "bad.map", NULL, &a, &g,
                                   &err),
                   CAIRN_ERR_TOO_LARGE);
  assert_int_equal(t.calls, 0);
  assert_int_equal(t.failures, 0);
  map_still_parses();
}

static void map_empty_file(void **state) {
  (void)state;
  map_refused("", CAIRN_ERR_PARSE, "bad.map:1:", "empty file");
  map_refused("\n\n", CAIRN_ERR_PARSE, "bad.map:", "type octile");
  map_still_parses();
}

/* A 0 x 0 header: a grid needs at least one cell. */
static void map_zero_size(void **state) {
  (void)state;
  map_refused("type octile\nheight 0\nwidth 0\nmap\n", CAIRN_ERR_PARSE,
              "bad.map:2:", "positive integer, got '0'");
  map_refused("type octile\nheight 2\nwidth 0\nmap\n\n\n", CAIRN_ERR_PARSE,
              "bad.map:3:", "got '0'");
  map_still_parses();
}

static void map_missing_file(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  cairn_error err;
  assert_int_equal(cairn_map_load("no/such/dir/x.map", NULL, NULL, &g, &err),
                   CAIRN_ERR_IO);
  assert_non_null(strstr(err.message, "no/such/dir/x.map"));
  assert_null(g);
  map_still_parses();
}

/* ---- scenario files (cairn_scen_parse, cairn_scen_check) ------------ */

static void scen_bad_version(void **state) {
  (void)state;
  scen_refused("version 7\n", CAIRN_ERR_PARSE, "bad.scen:1:",
               "unsupported scenario version '7'");
  scen_refused("versio 1\n", CAIRN_ERR_PARSE, "bad.scen:1:",
               "expected 'version 1'");
  scen_refused("", CAIRN_ERR_PARSE, "bad.scen:1:", "empty file");
  scen_still_parses();
}

static void scen_bad_rows(void **state) {
  (void)state;
  scen_refused("version 1\n0\tok.map\t4\t3\t0\t0\t3\t2\n", CAIRN_ERR_PARSE,
               "bad.scen:2:", "expected 9 fields");
  scen_refused("version 1\n0\tok.map\t4\t3\t0\tone\t3\t2\t3.4\n",
               CAIRN_ERR_PARSE, "bad.scen:2:", "start_y is not an integer");
  scen_refused("version 1\n0\tok.map\t4\t3\t-1\t0\t3\t2\t3.4\n",
               CAIRN_ERR_PARSE, "bad.scen:2:", "negative start_x -1");
  scen_refused("version 1\n0\tok.map\t4\t3\t0\t0\t3\t2\tnan\n",
               CAIRN_ERR_PARSE, "bad.scen:2:", "optimal");
  scen_refused("version 1\n0\tok.map\t4\t3\t0\t0\t3\t2\tinf\n",
               CAIRN_ERR_PARSE, "bad.scen:2:", "optimal");
  scen_refused(
      "version 1\n0\tok.map\t4\t3\t0\t0\t3\t2\t3.4\n0\tother.map\t4\t3\t0\t0\t3\t2\t3.4\n",
      CAIRN_ERR_PARSE, "bad.scen:3:", "row names map 'other.map'");
  scen_still_parses();
}

/* A start or goal off the row's own map is RANGE; a map side above the
 * limit TOO_LARGE (before the row is stored). */
static void scen_bad_coordinates(void **state) {
  (void)state;
  scen_refused("version 1\n0\tok.map\t4\t3\t0\t0\t9\t2\t3.4\n", CAIRN_ERR_RANGE,
               "bad.scen:2:", "goal (9,2) is outside the 4x3 map");
  scen_refused("version 1\n0\tok.map\t99999\t3\t0\t0\t3\t2\t3.4\n",
               CAIRN_ERR_TOO_LARGE, "bad.scen:2:", "map_width 99999");
  scen_refused("version 1\n0\tok.map\t0\t3\t0\t0\t3\t2\t3.4\n", CAIRN_ERR_PARSE,
               "bad.scen:2:", "map_width 0");
  scen_still_parses();
}

/* A .scen naming a map of another size than the one loaded. */
static void scen_other_map_size(void **state) {
  (void)state;
  const char *text = "version 1\n0\tok.map\t5\t5\t0\t0\t2\t2\t2.8\n";
  cairn_scen *s = NULL;
  cairn_error err;
  assert_int_equal(cairn_scen_parse(text, strlen(text), "big.scen", NULL, &s,
                                    &err),
                   CAIRN_OK);
  cairn_grid *g = small_grid();
  assert_int_equal(cairn_scen_check(s, g, &err), CAIRN_ERR_MISMATCH);
  assert_int_equal(strncmp(err.message, "big.scen:2:", 11), 0);
  assert_non_null(strstr(err.message, "5x5 but the map is 4x3"));
  cairn_scen_destroy(s);
  /* the grid is untouched: a matching scenario checks and runs */
  assert_int_equal(cairn_scen_parse(ok_scen, strlen(ok_scen), "ok.scen", NULL,
                                    &s, &err),
                   CAIRN_OK);
  assert_int_equal(cairn_scen_check(s, g, &err), CAIRN_OK);
  cairn_search *q = NULL;
  assert_int_equal(cairn_search_create(NULL, &q), CAIRN_OK);
  search_still_works(q, g);
  cairn_search_destroy(q);
  cairn_scen_destroy(s);
  cairn_grid_destroy(g);
}

/* ---- grids ---------------------------------------------------------- */

static void grid_bad_sizes(void **state) {
  (void)state;
  tu_alloc t;
  cairn_allocator a = refusing(&t);
  cairn_grid *g = (cairn_grid *)&t; /* must come back NULL */
  assert_int_equal(cairn_grid_create(0, 0, 1, &a, &g), CAIRN_ERR_ARG);
  assert_null(g);
  assert_int_equal(cairn_grid_create(-5, 3, 1, &a, &g), CAIRN_ERR_ARG);
  assert_int_equal(cairn_grid_create(100000, 100000, 1, &a, &g),
                   CAIRN_ERR_TOO_LARGE);
  assert_int_equal(cairn_grid_create(CAIRN_GRID_MAX_SIDE + 1, 1, 1, &a, &g),
                   CAIRN_ERR_TOO_LARGE);
  assert_int_equal(t.calls, 0);
  assert_int_equal(cairn_grid_create(3, 2, 1, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_grid_passable(g), 6);
  cairn_grid_destroy(g);
}

static void grid_edit_off_map(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  assert_int_equal(cairn_grid_set_cost(g, -1, 0, 0), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_grid_set_cost(g, 4, 0, 0), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_grid_set_cost(g, 0, INT32_MIN, 0), CAIRN_ERR_RANGE);
  cairn_rect r = {3, 2, 2, 1};
  uint8_t zeros[2] = {0, 0};
  assert_int_equal(cairn_grid_set_rect(g, r, zeros, 2), CAIRN_ERR_RANGE);
  r = (cairn_rect){-1, 0, 1, 1};
  assert_int_equal(cairn_grid_set_rect(g, r, zeros, 1), CAIRN_ERR_RANGE);
  /* nothing changed; a valid edit then applies */
  assert_int_equal(cairn_grid_passable(g), 10);
  assert_int_equal(cairn_grid_set_cost(g, 3, 2, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_cost(g, 3, 2), 0);
  assert_int_equal(cairn_grid_passable(g), 9);
  cairn_grid_destroy(g);
}

/* ---- searches ------------------------------------------------------- */

static void search_off_map(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_result r;
  const cairn_point bad[] = {{-1, 0}, {0, -1}, {4, 0}, {0, 3},
                             {INT32_MIN, 0}, {INT32_MAX, INT32_MAX}};
  cairn_point ok = {0, 0};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    assert_int_equal(cairn_astar(s, g, bad[k], ok, NULL, &r), CAIRN_ERR_RANGE);
    assert_int_equal(r.status, CAIRN_ERR_RANGE);
    assert_int_equal(cairn_astar(s, g, ok, bad[k], NULL, &r), CAIRN_ERR_RANGE);
    assert_int_equal(cairn_dijkstra_nearest(s, g, ok, &bad[k], 1, NULL, &r),
                     CAIRN_ERR_RANGE);
    assert_int_equal(cairn_astar_begin(s, g, bad[k], ok, NULL),
                     CAIRN_ERR_RANGE);
  }
  search_still_works(s, g);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

static void search_bad_options(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_point a = {0, 0}, b = {3, 2};
  cairn_result r;
  cairn_search_opts o = cairn_search_defaults();
  o.moves = 6;
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_ERR_ARG);
  const double bad_weights[] = {NAN, INFINITY, -1.0, 0.5, 1001.0};
  for (size_t k = 0; k < 5; k++) {
    o = cairn_search_defaults();
    o.weight = bad_weights[k];
    assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_ERR_ARG);
    o = cairn_search_defaults();
    o.turn_penalty = bad_weights[k] == 0.5 ? -0.5 : bad_weights[k] * 2.0;
    assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_ERR_ARG);
  }
  o = cairn_search_defaults();
  o.bounds = (cairn_rect){2, 0, 5, 1}; /* past the grid's edge */
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_ERR_ARG);
  search_still_works(s, g);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* The node limit: a search that would expand more stops with PARTIAL and
 * no path, sliced or blocking; the context then answers in full. */
static void search_node_limit(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(64, 64, 1, NULL, &g), CAIRN_OK);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_point a = {0, 0}, b = {63, 40};
  cairn_search_opts o = cairn_search_defaults();
  o.heuristic = CAIRN_H_ZERO; /* Dijkstra: it must expand many nodes */
  o.max_expanded = 100;
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_PARTIAL);
  assert_int_equal(r.expanded, 100);
  assert_null(r.path);
  assert_int_equal(r.cost, CAIRN_COST_INF);
  assert_int_equal(cairn_astar_begin(s, g, a, b, &o), CAIRN_OK);
  cairn_status st;
  while ((st = cairn_search_step(s, 7)) == CAIRN_IN_PROGRESS) {
  }
  assert_int_equal(st, CAIRN_PARTIAL);
  assert_int_equal(cairn_search_result(s, &r), CAIRN_PARTIAL);
  assert_int_equal(r.expanded, 100);
  o.max_expanded = 0;
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_OK);
  assert_int_equal(r.cost, 40 * CAIRN_COST_DIAG + 23 * CAIRN_COST_ONE);
  assert_true(r.expanded > 100);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* An edit between the steps of a sliced search stops it: the next step
 * answers CAIRN_ERR_STATE (its open nodes priced the old grid), and a new
 * begin on the edited grid answers correctly. */
static void search_edit_while_sliced(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(32, 32, 1, NULL, &g), CAIRN_OK);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_point a = {0, 16}, b = {31, 16};
  cairn_search_opts o = cairn_search_defaults();
  o.heuristic = CAIRN_H_ZERO;
  assert_int_equal(cairn_astar_begin(s, g, a, b, &o), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 10), CAIRN_IN_PROGRESS);
  /* a wall across the middle but for a gap at the top */
  for (int32_t y = 1; y < 32; y++)
    assert_int_equal(cairn_grid_set_cost(g, 16, y, 0), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 1000000), CAIRN_ERR_STATE);
  cairn_result r;
  assert_int_equal(cairn_search_result(s, &r), CAIRN_ERR_STATE);
  assert_null(r.path);
  /* a rect edit counts too */
  assert_int_equal(cairn_astar_begin(s, g, a, b, &o), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 10), CAIRN_IN_PROGRESS);
  uint8_t two = 2;
  assert_int_equal(cairn_grid_set_rect(g, (cairn_rect){5, 5, 1, 1}, &two, 1),
                   CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 1000000), CAIRN_ERR_STATE);
  /* setting a cell to the cost it has is no edit */
  assert_int_equal(cairn_astar_begin(s, g, a, b, &o), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 10), CAIRN_IN_PROGRESS);
  assert_int_equal(cairn_grid_set_cost(g, 0, 0, 1), CAIRN_OK);
  cairn_status st;
  while ((st = cairn_search_step(s, 50)) == CAIRN_IN_PROGRESS) {
  }
  assert_int_equal(st, CAIRN_OK);
  /* the fresh search goes through the gap at (16, 0) */
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, a, b, NULL, &r), CAIRN_OK);
  assert_int_equal(tu_path_cost(g, r.path, r.path_len, a, b, 8), r.cost);
  int through_gap = 0;
  for (size_t k = 0; k < r.path_len; k++)
    through_gap |= r.path[k].x == 16 && r.path[k].y == 0;
  assert_true(through_gap);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

static void search_step_out_of_sequence(void **state) {
  (void)state;
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 10), CAIRN_ERR_STATE);
  cairn_grid *g = small_grid();
  cairn_point a = {0, 0}, b = {3, 2};
  assert_int_equal(cairn_astar_begin(s, g, a, b, NULL), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 0), CAIRN_ERR_ARG);
  /* the refused step did not end the search */
  assert_int_equal(cairn_search_step(s, 1000), CAIRN_OK);
  cairn_result r;
  assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
  assert_int_equal(r.cost, 5 * CAIRN_COST_ONE);
  search_still_works(s, g);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* A reserve above the node index range is refused before allocating. */
static void search_reserve_too_large(void **state) {
  (void)state;
  tu_alloc t;
  cairn_allocator a = tu_alloc_init(&t, -1);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(&a, &s), CAIRN_OK);
  size_t before = t.calls;
  assert_int_equal(cairn_search_reserve(s, (size_t)UINT32_MAX + 1),
                   CAIRN_ERR_TOO_LARGE);
  assert_int_equal(cairn_search_reserve_path(s, (size_t)UINT32_MAX + 1),
                   CAIRN_ERR_TOO_LARGE);
  assert_int_equal(t.calls, before);
  cairn_grid *g = small_grid();
  search_still_works(s, g);
  cairn_grid_destroy(g);
  cairn_search_destroy(s);
  assert_int_equal(t.live_bytes, 0);
}

/* ---- a map with no passable cell ------------------------------------ */

static void no_passable_path(void **state) {
  (void)state;
  cairn_grid *g = walled_grid();
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_point a = {0, 0}, b = {7, 7};
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, a, b, NULL, &r), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_dijkstra_nearest(s, g, a, &b, 1, NULL, &r),
                   CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_dijkstra_fill(s, g, &a, 1, NULL, 0, 0, NULL),
                   CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_grid_island_count(g), 0);
  /* open two cells: the same context and grid answer */
  assert_int_equal(cairn_grid_set_cost(g, 0, 0, 1), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(g, 1, 1, 1), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  b = (cairn_point){1, 1};
  /* a diagonal between two open cells whose sides are walls: no path */
  assert_int_equal(cairn_astar(s, g, a, b, NULL, &r), CAIRN_NO_PATH);
  assert_int_equal(cairn_grid_set_cost(g, 1, 0, 1), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, a, b, NULL, &r), CAIRN_OK);
  assert_int_equal(r.cost, 2 * CAIRN_COST_ONE);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* ---- the rest of the core ------------------------------------------- */

/* The rest of the core's argument checks: distance map too short, fills
 * and nearest-goal searches without sources or goals, smoothing an empty
 * path, knowledge with unknown cells blocked, influence ticks out of
 * range, unblocking a cell nobody blocked. */
static void core_bad_arguments(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_point a = {0, 0}, b = {3, 2};
  cairn_cost dist[12];
  cairn_result r;
  assert_int_equal(cairn_distance_map(s, g, &a, 1, NULL, dist, 11), CAIRN_ERR_ARG);
  assert_int_equal(cairn_dijkstra_fill(s, g, &a, 0, NULL, 0, 0, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_dijkstra_nearest(s, g, a, &b, 0, NULL, &r), CAIRN_ERR_ARG);
  cairn_point out[4];
  size_t n = 9;
  double len = 9.0;
  assert_int_equal(cairn_smooth_path(g, &a, 0, out, 4, &n, &len), CAIRN_ERR_ARG);
  assert_int_equal(cairn_distance_map(s, g, &a, 1, NULL, dist, 12), CAIRN_OK);
  assert_int_equal(dist[2 * 4 + 3], 5 * CAIRN_COST_ONE);
  assert_int_equal(dist[1 * 4 + 1], CAIRN_COST_INF);
  cairn_knowledge *k = NULL;
  assert_int_equal(cairn_knowledge_create(g, 0, NULL, &k), CAIRN_ERR_ARG);
  assert_null(k);
  cairn_penalty *p = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  cairn_influence *m = NULL;
  assert_int_equal(cairn_influence_create(g, p, NULL, &m), CAIRN_OK);
  assert_int_equal(cairn_influence_event(m, 0, 0, 1, 1000), CAIRN_OK);
  assert_int_equal(cairn_influence_tick(m, 65537, 0), CAIRN_ERR_ARG);
  assert_int_equal(cairn_influence_tick(m, 65536, 16385), CAIRN_ERR_ARG);
  assert_int_equal(cairn_influence_get(m, 0, 0), 1000); /* untouched */
  assert_int_equal(cairn_influence_tick(m, 32768, 0), CAIRN_OK);
  assert_int_equal(cairn_influence_get(m, 0, 0), 500);
  assert_int_equal(cairn_penalty_block(p, 2, 2, 0), CAIRN_ERR_STATE);
  assert_int_equal(cairn_penalty_block(p, 2, 2, 1), CAIRN_OK);
  assert_int_equal(cairn_penalty_get(p, 2, 2), CAIRN_PENALTY_BLOCK);
  assert_int_equal(cairn_penalty_block(p, 2, 2, 0), CAIRN_OK);
  assert_int_equal(cairn_penalty_block(p, 2, 2, 0), CAIRN_ERR_STATE);
  cairn_influence_destroy(m);
  cairn_penalty_destroy(p);
  search_still_works(s, g);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
}

/* ---- graphs and layers: limits -------------------------------------- */

static void graph_limits(void **state) {
  (void)state;
  tu_alloc t;
  cairn_allocator a = refusing(&t);
  cairn_graph_edge e = {0, 1, 1.0};
  cairn_graph_desc d = {0};
  d.n_nodes = CAIRN_GRAPH_MAX_NODES + 1;
  d.n_edges = 1;
  d.edges = &e;
  cairn_graph *g = NULL;
  assert_int_equal(cairn_graph_create(&d, &a, &g), CAIRN_ERR_TOO_LARGE);
  d.n_nodes = 2;
  d.n_edges = (size_t)CAIRN_GRAPH_MAX_EDGES + 1;
  assert_int_equal(cairn_graph_create(&d, &a, &g), CAIRN_ERR_TOO_LARGE);
  assert_int_equal(t.calls, 0);
  d.n_edges = 1;
  const double bad_costs[] = {NAN, INFINITY, 0.0, -1.0, 2e9};
  for (size_t k = 0; k < 5; k++) {
    e.cost = bad_costs[k];
    assert_int_equal(cairn_graph_create(&d, NULL, &g), CAIRN_ERR_ARG);
    assert_null(g);
  }
  e.cost = 3.0;
  assert_int_equal(cairn_graph_create(&d, NULL, &g), CAIRN_OK);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_result r;
  assert_int_equal(cairn_graph_astar(s, g, 0, 2, NULL, &r), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_graph_astar(s, g, 0, 1, NULL, &r), CAIRN_OK);
  assert_int_equal(r.cost, 3 * CAIRN_COST_ONE);
  uint32_t lm[CAIRN_GRAPH_MAX_LANDMARKS + 1] = {0};
  assert_int_equal(cairn_graph_compute_landmarks(g, s, lm, CAIRN_GRAPH_MAX_LANDMARKS + 1),
                   CAIRN_ERR_TOO_LARGE);
  assert_int_equal(cairn_graph_landmarks(g), 0);
  cairn_search_destroy(s);
  cairn_graph_destroy(g);
}

/* Landmarks set (or removed) while a sliced graph search is in progress:
 * its bounds would read the old table, so the next step refuses; a new
 * search answers with the same cost as before. */
static void graph_landmarks_while_sliced(void **state) {
  (void)state;
  uint8_t cost[20 * 20];
  memset(cost, 1, sizeof cost);
  cairn_graph *g = NULL;
  assert_int_equal(cairn_hex_graph_create(20, 20, cost, NULL, &g), CAIRN_OK);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  const uint32_t lm[2] = {0, 19};
  assert_int_equal(cairn_graph_compute_landmarks(g, s, lm, 2), CAIRN_OK);
  cairn_result r;
  assert_int_equal(cairn_graph_astar(s, g, 399, 0, NULL, &r), CAIRN_OK);
  cairn_cost want = r.cost;
  assert_int_equal(cairn_graph_astar_begin(s, g, 399, 0, NULL), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 3), CAIRN_IN_PROGRESS);
  assert_int_equal(cairn_graph_set_landmarks(g, NULL, 0, NULL), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, 1000000), CAIRN_ERR_STATE);
  assert_int_equal(cairn_search_result(s, &r), CAIRN_ERR_STATE);
  assert_int_equal(cairn_graph_astar(s, g, 399, 0, NULL, &r), CAIRN_OK);
  assert_int_equal(r.cost, want);
  cairn_search_destroy(s);
  cairn_graph_destroy(g);
}

static void layer_limits(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_claims *c = NULL;
  assert_int_equal(cairn_claims_create(g, NULL, &c), CAIRN_OK);
  cairn_point cell = {0, 0}, off = {4, 0};
  assert_int_equal(cairn_claims_set(c, CAIRN_CLAIMS_MAX_UNITS, &cell, 1, 9),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_claims_set(c, 1, &off, 1, 9), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_claims_count(c, 0, 0), 0);
  /* (a unit id near the limit is valid but grows the unit table to it: a
   * few hundred MB, so a small id stands for the valid call here) */
  assert_int_equal(cairn_claims_set(c, 4096, &cell, 1, 9), CAIRN_OK);
  assert_int_equal(cairn_claims_count(c, 0, 0), 1);
  cairn_claims_destroy(c);
  cairn_penalty *p = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  cairn_influence *m = NULL;
  assert_int_equal(cairn_influence_create(g, p, NULL, &m), CAIRN_OK);
  assert_int_equal(cairn_influence_event(m, 0, 0, CAIRN_INFLUENCE_MAX_RADIUS + 1, 5),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_influence_event(m, 0, 0, -1, 5), CAIRN_ERR_ARG);
  assert_int_equal(cairn_influence_event(m, -1, 0, 1, 5), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_influence_active(m), 0);
  /* one delta is at most 2^32 - 1 either way; sums saturate, not wrap */
  assert_int_equal(cairn_penalty_add(p, 3, 0, INT64_MAX), CAIRN_ERR_ARG);
  assert_int_equal(cairn_penalty_add(p, 3, 0, -(int64_t)UINT32_MAX - 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_penalty_get(p, 3, 0), 0);
  assert_int_equal(cairn_penalty_add(p, 3, 0, UINT32_MAX), CAIRN_OK);
  assert_int_equal(cairn_penalty_add(p, 3, 0, UINT32_MAX), CAIRN_OK);
  assert_int_equal(cairn_penalty_get(p, 3, 0), CAIRN_PENALTY_MAX);
  /* the sum behind the saturated value is exact: taking one share back
   * leaves the other, still above the maximum; taking both leaves 0 */
  assert_int_equal(cairn_penalty_add(p, 3, 0, -(int64_t)UINT32_MAX), CAIRN_OK);
  assert_int_equal(cairn_penalty_get(p, 3, 0), CAIRN_PENALTY_MAX);
  assert_int_equal(cairn_penalty_add(p, 3, 0, -(int64_t)UINT32_MAX), CAIRN_OK);
  assert_int_equal(cairn_penalty_get(p, 3, 0), 0);
  assert_int_equal(cairn_penalty_add(p, 9, 0, 1), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_influence_event(m, 0, 0, 0, 7), CAIRN_OK);
  assert_int_equal(cairn_influence_get(m, 0, 0), 7);
  cairn_influence_destroy(m);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(map_bad_type),
      cmocka_unit_test(map_bad_header),
      cmocka_unit_test(map_wrong_row_length),
      cmocka_unit_test(map_truncated),
      cmocka_unit_test(map_unknown_character),
      cmocka_unit_test(map_absurd_size),
      cmocka_unit_test(map_empty_file),
      cmocka_unit_test(map_zero_size),
      cmocka_unit_test(map_missing_file),
      cmocka_unit_test(scen_bad_version),
      cmocka_unit_test(scen_bad_rows),
      cmocka_unit_test(scen_bad_coordinates),
      cmocka_unit_test(scen_other_map_size),
      cmocka_unit_test(grid_bad_sizes),
      cmocka_unit_test(grid_edit_off_map),
      cmocka_unit_test(search_off_map),
      cmocka_unit_test(search_bad_options),
      cmocka_unit_test(search_node_limit),
      cmocka_unit_test(search_edit_while_sliced),
      cmocka_unit_test(search_step_out_of_sequence),
      cmocka_unit_test(search_reserve_too_large),
      cmocka_unit_test(no_passable_path),
      cmocka_unit_test(core_bad_arguments),
      cmocka_unit_test(graph_limits),
      cmocka_unit_test(graph_landmarks_while_sliced),
      cmocka_unit_test(layer_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
