/* Moving AI .map files: terrain tables, parsing (variants, malformed,
 * truncated and too large input, bad arguments, allocation failures),
 * writing and reading back (terrain, plain grids, I/O errors, every shared
 * Moving AI map), and the reader's file size limit. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include "test_util.h"
#include "test_io_util.h"

#include "core_internal.h"
#include "text_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------- */

/* Whole file in a malloc'd buffer (NUL added, not counted), or NULL. */
static char *read_all(const char *path, size_t *len) {
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *p = realloc(buf, 2 * cap + 1);
      if (!p) {
        free(buf);
        buf = NULL;
      }
      buf = p;
      cap *= 2;
    }
  }
  fclose(f);
  if (buf) buf[n] = '\0';
  *len = n;
  return buf;
}

/* CRLF -> LF, and a final newline if missing (what the writer produces). */
static char *normalise(const char *s, size_t n, size_t *out_n) {
  char *o = malloc(n + 2);
  assert_non_null(o);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (!(s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')) o[k++] = s[i];
  if (k && o[k - 1] != '\n') o[k++] = '\n';
  *out_n = k;
  return o;
}

/* Parses text from an exactly sized heap copy, so ASan catches a read past
 * len (the parser gets no terminating NUL). */
static cairn_status parse_exact(const char *text, size_t len,
                                const cairn_terrain *t,
                                const cairn_allocator *a, cairn_grid **g,
                                cairn_error *err) {
  char *copy = malloc(len ? len : 1);
  assert_non_null(copy);
  memcpy(copy, text, len);
  cairn_status st = cairn_map_parse(copy, len, "t.map", t, a, g, err);
  free(copy);
  return st;
}

static const char small_map[] =
    "type octile\nheight 3\nwidth 5\nmap\n.G@OT\nSW..@\nTTGGS\n";

/* ---- terrain -------------------------------------------------------- */

static void test_terrain_movingai(void **state) {
  (void)state;
  cairn_terrain t;
  cairn_terrain_movingai(&t);
  const char *one = ".GS", *zero = "@OTW";
  for (const char *c = one; *c; c++) assert_int_equal(t.cost_of[(int)*c], 1);
  for (const char *c = zero; *c; c++) assert_int_equal(t.cost_of[(int)*c], 0);
  assert_int_equal(t.cost_of['#'], -1);
  assert_int_equal(t.cost_of[0], -1);
  assert_int_equal(t.char_of[1], '.');
  assert_int_equal(t.char_of[0], '@');
  /* cairn's terrain digits: '1'..'9' cost 1..9, written for 2..9 */
  for (int k = 1; k <= 9; k++) assert_int_equal(t.cost_of['0' + k], k);
  for (int k = 2; k <= 9; k++) assert_int_equal(t.char_of[k], '0' + k);
  assert_int_equal(t.cost_of['0'], -1);
  assert_int_equal(t.char_of[10], 0);
}

static void test_terrain_set(void **state) {
  (void)state;
  cairn_terrain t;
  cairn_terrain_movingai(&t);
  assert_int_equal(cairn_terrain_set(NULL, 'x', 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_terrain_set(&t, '\n', 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_terrain_set(&t, ' ', 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_terrain_set(&t, (char)0x80, 1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_terrain_set(&t, 'x', 256), CAIRN_ERR_ARG);
  assert_int_equal(cairn_terrain_set(&t, 'x', -1), CAIRN_ERR_ARG);
  assert_int_equal(cairn_terrain_set(&t, '~', 3), CAIRN_OK);
  assert_int_equal(t.cost_of['~'], 3);
  assert_int_equal(t.char_of[3], '~');
  /* Re-costing the writer's '.' hands cost 1 to another cost-1 char. */
  assert_int_equal(cairn_terrain_set(&t, '.', 2), CAIRN_OK);
  assert_int_equal(t.char_of[2], '.');
  assert_int_equal(t.cost_of[(unsigned char)t.char_of[1]], 1);
  assert_int_equal(t.char_of[1], '1'); /* the first in code order */
}

/* ---- map parsing ---------------------------------------------------- */

static void test_map_parse_small(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  cairn_error err;
  assert_int_equal(cairn_map_parse(small_map, strlen(small_map), "s.map",
                                   NULL, NULL, &g, &err),
                   CAIRN_OK);
  assert_int_equal(cairn_grid_width(g), 5);
  assert_int_equal(cairn_grid_height(g), 3);
  const char *rows[3] = {".G@OT", "SW..@", "TTGGS"};
  size_t passable = 0;
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 5; x++) {
      char c = rows[y][x];
      int want = (c == '.' || c == 'G' || c == 'S');
      passable += (size_t)want;
      assert_int_equal(cairn_grid_cost(g, x, y), want);
      assert_int_equal(g->glyph[cairn__grid_index(g, x, y)], c);
    }
  assert_int_equal(cairn_grid_passable(g), passable);
  assert_true(cairn_grid_islands_fresh(g));
  /* (0,0)-(1,0)-(0,1) is one island, (2,1)-(3,1)-(2,2).. another. */
  assert_int_equal(cairn_grid_island(g, 0, 0), cairn_grid_island(g, 0, 1));
  assert_int_equal(cairn_grid_island(g, 2, 1), cairn_grid_island(g, 4, 2));
  assert_int_not_equal(cairn_grid_island(g, 0, 0),
                       cairn_grid_island(g, 2, 1));
  cairn_grid_destroy(g);
}

/* CRLF, no final newline, width before height, trailing blank lines. */
static void test_map_parse_variants(void **state) {
  (void)state;
  const char *texts[] = {
      "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\n..@\r\n",
      "type octile\nheight 2\nwidth 3\nmap\n.@.\n..@",
      "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n.@.\r\n..@",
      "type octile\nwidth 3\nheight 2\nmap\n.@.\n..@\n",
      "type octile\nheight 2\nwidth 3\nmap\n.@.\n..@\n\n\r\n  \n",
      "type  octile \nheight\t2\nwidth 3  \nmap\n.@.\n..@\n",
  };
  for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
    cairn_grid *g = NULL;
    cairn_error err;
    cairn_status st =
        parse_exact(texts[i], strlen(texts[i]), NULL, NULL, &g, &err);
    if (st != CAIRN_OK) print_error("text %zu: %s\n", i, err.message);
    assert_int_equal(st, CAIRN_OK);
    assert_int_equal(cairn_grid_width(g), 3);
    assert_int_equal(cairn_grid_height(g), 2);
    assert_int_equal(cairn_grid_cost(g, 1, 0), 0);
    assert_int_equal(cairn_grid_cost(g, 2, 0), 1);
    assert_int_equal(cairn_grid_cost(g, 2, 1), 0);
    assert_int_equal(cairn_grid_passable(g), 4);
    cairn_grid_destroy(g);
  }
}

static const bad_case bad_maps[] = {
    {"", 0, CAIRN_ERR_PARSE, "t.map:1:", "empty"},
    {"type hex\nheight 1\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_PARSE, "t.map:1:",
     "'hex'"},
    {"height 1\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_PARSE, "t.map:1:",
     "type octile"},
    {"type octile\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_PARSE, "t.map:3:",
     "missing 'height'"},
    {"type octile\nheight 1\nmap\n.\n", 0, CAIRN_ERR_PARSE, "t.map:3:",
     "missing 'width'"},
    {"type octile\nheight 1\nwidth 1\n", 0, CAIRN_ERR_PARSE, "t.map:4:",
     "'map'"},
    {"type octile\nheight 1\n", 0, CAIRN_ERR_PARSE, "t.map:3:", "'width'"},
    {"type octile\nheight abc\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_PARSE,
     "t.map:2:", "'abc'"},
    {"type octile\nheight -3\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_PARSE,
     "t.map:2:", "'-3'"},
    {"type octile\nheight 0\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_PARSE,
     "t.map:2:", "positive integer"},
    {"type octile\nheight 3x\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_PARSE,
     "t.map:2:", "'3x'"},
    {"type octile\nheight\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_PARSE,
     "t.map:2:", "positive integer"},
    {"type octile\nheight 1\nwidth 1.5\nmap\n.\n", 0, CAIRN_ERR_PARSE,
     "t.map:3:", "'1.5'"},
    {"type octile\nheight 1 2\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_PARSE,
     "t.map:2:", "'1 2'"},
    {"type octile\nheight 100000\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_TOO_LARGE,
     "t.map:2:", "limit"},
    {"type octile\nheight 1\nwidth 16385\nmap\n.\n", 0, CAIRN_ERR_TOO_LARGE,
     "t.map:3:", "16385"},
    {"type octile\nheight 99999999999999999999\nwidth 1\nmap\n", 0,
     CAIRN_ERR_TOO_LARGE, "t.map:2:", "limit"},
    {"type octile\nheight 1\nheight 1\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_PARSE,
     "t.map:3:", "duplicate"},
    {"type octile\ndepth 3\nheight 1\nwidth 1\nmap\n.\n", 0, CAIRN_ERR_PARSE,
     "t.map:2:", "unknown header"},
    {"type octile\nheight 3\nwidth 2\nmap\n..\n..\n", 0, CAIRN_ERR_PARSE,
     "t.map:7:", "row 3 of 3"},
    {"type octile\nheight 2\nwidth 2\nmap\n", 0, CAIRN_ERR_PARSE, "t.map:5:",
     "row 1 of 2"},
    {"type octile\nheight 2\nwidth 3\nmap\n...\n..\n", 0, CAIRN_ERR_PARSE,
     "t.map:6:", "2 characters long, expected width 3"},
    {"type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n....\r\n...\r\n", 0,
     CAIRN_ERR_PARSE, "t.map:5:", "4 characters long, expected width 3"},
    {"type octile\nheight 2\nwidth 3\nmap\n\n...\n", 0, CAIRN_ERR_PARSE,
     "t.map:5:", "0 characters"},
    {"type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n", 0, CAIRN_ERR_PARSE,
     "t.map:6:", "'x' at column 2"},
    {"type octile\nheight 1\nwidth 3\nmap\n.\t.\n", 0, CAIRN_ERR_PARSE,
     "t.map:5:", "0x09 at column 2"},
    {LIT("type octile\nheight 1\nwidth 3\nmap\n..\0\n"), CAIRN_ERR_PARSE,
     "t.map:5:", "0x00 at column 3"},
    {"type octile\nheight 1\nwidth 3\nmap\n..\r\r\n", 0, CAIRN_ERR_PARSE,
     "t.map:5:", "0x0d at column 3"},
    {"type octile\nheight 1\nwidth 3\nmap\n...\n...\n", 0, CAIRN_ERR_PARSE,
     "t.map:6:", "extra data"},
    {"type octile\nheight 1\nwidth 1\nmap\n.\n\n\njunk\n", 0, CAIRN_ERR_PARSE,
     "t.map:8:", "'junk'"},
};

static void test_map_malformed(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof bad_maps / sizeof bad_maps[0]; i++) {
    const bad_case *c = &bad_maps[i];
    size_t len = c->len ? c->len : strlen(c->text);
    cairn_grid *g = (cairn_grid *)&len; /* must be reset to NULL */
    cairn_error err;
    counting cnt;
    cairn_allocator a = counting_alloc(&cnt, -1, 0);
    cairn_status st = parse_exact(c->text, len, NULL, &a, &g, &err);
    if (st != c->status) print_error("case %zu\n", i);
    expect_fail(st, c->status, &err, c->prefix, c->keyword);
    assert_null(g);
    assert_int_equal(cnt.live, 0);
    /* No error struct: same status, no crash. */
    assert_int_equal(parse_exact(c->text, len, NULL, NULL, &g, NULL),
                     c->status);
  }
}

static void test_map_bad_args(void **state) {
  (void)state;
  cairn_grid *g;
  cairn_error err;
  assert_int_equal(cairn_map_parse(NULL, 5, "t", NULL, NULL, &g, &err),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_map_parse("x", 1, "t", NULL, NULL, NULL, &err),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_map_parse(NULL, 0, NULL, NULL, NULL, &g, &err),
                   CAIRN_ERR_PARSE);
  expect_fail(CAIRN_ERR_PARSE, CAIRN_ERR_PARSE, &err, "<input>:1:", "empty");
  assert_int_equal(cairn_map_load(NULL, NULL, NULL, &g, &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_map_save(NULL, "x.map", NULL, &err), CAIRN_ERR_ARG);
}

/* Every prefix of a valid file fails cleanly, except the ones that only
 * drop line-end characters. */
static void check_prefixes(const char *text, size_t n_valid_tails) {
  size_t n = strlen(text);
  for (size_t len = 0; len <= n; len++) {
    cairn_grid *g = NULL;
    cairn_error err;
    counting cnt;
    cairn_allocator a = counting_alloc(&cnt, -1, 0);
    cairn_status st = parse_exact(text, len, NULL, &a, &g, &err);
    if (len + n_valid_tails >= n) {
      assert_int_equal(st, CAIRN_OK);
      assert_int_equal(cairn_grid_passable(g), 8);
    } else {
      if (st != CAIRN_ERR_PARSE) print_error("prefix of %zu bytes\n", len);
      assert_int_equal(st, CAIRN_ERR_PARSE);
      assert_null(g);
      assert_int_equal(strncmp(err.message, "t.map:", 6), 0);
      assert_true(err.line >= 1);
    }
    cairn_grid_destroy(g);
    assert_int_equal(cnt.live, 0);
  }
}

static void test_map_truncated(void **state) {
  (void)state;
  check_prefixes("type octile\nheight 3\nwidth 4\nmap\n@.G.\n.TT.\nS..W\n", 1);
  check_prefixes(
      "type octile\r\nheight 3\r\nwidth 4\r\nmap\r\n@.G.\r\n.TT.\r\nS..W\r\n",
      2);
}

/* A huge header must be refused (or its body checked) before allocating. */
static void test_map_too_large_no_alloc(void **state) {
  (void)state;
  const char *texts[] = {
      "type octile\nheight 100000\nwidth 10\nmap\n..........\n",
      "type octile\nwidth 10\nheight 100000\nmap\n",
      "type octile\nheight 16384\nwidth 16384\nmap\n....\n",
  };
  const cairn_status want[] = {CAIRN_ERR_TOO_LARGE, CAIRN_ERR_TOO_LARGE,
                               CAIRN_ERR_PARSE};
  for (size_t i = 0; i < 3; i++) {
    counting cnt;
    cairn_allocator a = counting_alloc(&cnt, -1, 1 << 20);
    cairn_grid *g = NULL;
    cairn_error err;
    cairn_status st = parse_exact(texts[i], strlen(texts[i]), NULL, &a, &g,
                                  &err);
    expect_fail(st, want[i], &err, i == 2 ? "t.map:5:" : "t.map:",
                i == 2 ? "expected width 16384" : "100000");
    assert_true(cnt.max_request <= 1 << 20);
    assert_int_equal(cnt.live, 0);
  }
}

/* Every allocation failure frees what came before. */
static void test_map_nomem(void **state) {
  (void)state;
  for (long k = 0;; k++) {
    counting cnt;
    cairn_allocator a = counting_alloc(&cnt, k, 0);
    cairn_grid *g = NULL;
    cairn_error err;
    cairn_status st =
        cairn_map_parse(small_map, strlen(small_map), "t.map", NULL, &a, &g,
                        &err);
    if (st == CAIRN_OK) {
      assert_true(k > 2);
      cairn_grid_destroy(g);
      assert_int_equal(cnt.live, 0);
      break;
    }
    expect_fail(st, CAIRN_ERR_NOMEM, &err, "t.map:", "memory");
    assert_null(g);
    assert_int_equal(cnt.live, 0);
  }
}

/* ---- map writing ---------------------------------------------------- */

static void test_map_roundtrip_small(void **state) {
  (void)state;
  const char *path = "test_io_small.map";
  cairn_grid *g = NULL, *g2 = NULL;
  cairn_error err;
  assert_int_equal(cairn_map_parse(small_map, strlen(small_map), "s.map",
                                   NULL, NULL, &g, &err),
                   CAIRN_OK);
  assert_int_equal(cairn_map_save(g, path, NULL, &err), CAIRN_OK);
  size_t n;
  char *bytes = read_all(path, &n);
  assert_non_null(bytes);
  assert_int_equal(n, strlen(small_map));
  assert_memory_equal(bytes, small_map, n);
  free(bytes);
  assert_int_equal(cairn_map_load(path, NULL, NULL, &g2, &err), CAIRN_OK);
  assert_int_equal(cairn_map_save(g2, path, NULL, &err), CAIRN_OK);
  bytes = read_all(path, &n);
  assert_non_null(bytes);
  assert_int_equal(n, strlen(small_map));
  assert_memory_equal(bytes, small_map, n);
  free(bytes);
  assert_false(file_exists("test_io_small.map.tmp0"));
  cairn_grid_destroy(g);
  cairn_grid_destroy(g2);
  remove(path);
}

/* Changed cells get terrain->char_of; custom characters round trip; a cost
 * without a character fails and leaves the old file alone. */
static void test_map_save_terrain(void **state) {
  (void)state;
  const char *path = "test_io_terrain.map";
  const char *text = "type octile\nheight 2\nwidth 3\nmap\n~G@\n..T\n";
  cairn_terrain t;
  cairn_terrain_movingai(&t);
  assert_int_equal(cairn_terrain_set(&t, '~', 3), CAIRN_OK);
  cairn_grid *g = NULL;
  cairn_error err;
  assert_int_equal(
      cairn_map_parse(text, strlen(text), "c.map", &t, NULL, &g, &err),
      CAIRN_OK);
  assert_int_equal(cairn_grid_cost(g, 0, 0), 3);
  /* Without '~' in the table the default terrain rejects it. */
  cairn_grid *g2 = NULL;
  expect_fail(cairn_map_parse(text, strlen(text), "c.map", NULL, NULL, &g2,
                              &err),
              CAIRN_ERR_PARSE, &err, "c.map:5:", "'~' at column 1");
  assert_int_equal(cairn_grid_set_cost(g, 0, 1, 3), CAIRN_OK); /* '.'->'~' */
  assert_int_equal(cairn_grid_set_cost(g, 1, 0, 0), CAIRN_OK); /* 'G'->'@' */
  assert_int_equal(cairn_grid_set_cost(g, 2, 1, 1), CAIRN_OK); /* 'T'->'.' */
  assert_int_equal(cairn_map_save(g, path, &t, &err), CAIRN_OK);
  const char *want = "type octile\nheight 2\nwidth 3\nmap\n~@@\n~..\n";
  size_t n;
  char *bytes = read_all(path, &n);
  assert_non_null(bytes);
  assert_string_equal(bytes, want);
  free(bytes);
  /* Cost 12 has no character: CAIRN_ERR_ARG naming cost and cell. */
  assert_int_equal(cairn_grid_set_cost(g, 1, 1, 12), CAIRN_OK);
  expect_fail(cairn_map_save(g, path, &t, &err), CAIRN_ERR_ARG, &err,
              "test_io_terrain.map: ", "cell (1,1) has cost 12");
  /* Nor in the default terrain (whose digit '3' writes the cost-3 cell). */
  expect_fail(cairn_map_save(g, path, NULL, &err), CAIRN_ERR_ARG, &err,
              "test_io_terrain.map: ", "cost 12");
  bytes = read_all(path, &n);
  assert_non_null(bytes);
  assert_string_equal(bytes, want); /* untouched */
  free(bytes);
  assert_false(file_exists("test_io_terrain.map.tmp0"));
  cairn_grid_destroy(g);
  remove(path);
}

/* A grid built by hand (no glyph layer) is written with char_of. */
static void test_map_save_plain_grid(void **state) {
  (void)state;
  const char *path = "test_io_plain.map";
  const char *rows[] = {"..#", "#.."};
  cairn_grid *g = tu_grid(rows, 2);
  cairn_error err;
  assert_int_equal(cairn_map_save(g, path, NULL, &err), CAIRN_OK);
  size_t n;
  char *bytes = read_all(path, &n);
  assert_non_null(bytes);
  assert_string_equal(bytes, "type octile\nheight 2\nwidth 3\nmap\n..@\n@..\n");
  free(bytes);
  cairn_grid_destroy(g);
  remove(path);
}

/* A grid of every cost 1..9 (and walls), written with the default terrain
 * and read back: the same costs, cost k in 2..9 written as the digit k. */
static void test_map_save_digits(void **state) {
  (void)state;
  const char *path = "test_io_digits.map";
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(10, 2, 0, NULL, &g), CAIRN_OK);
  for (int x = 0; x < 10; x++) {
    assert_int_equal(cairn_grid_set_cost(g, x, 0, (uint8_t)x), CAIRN_OK);
    assert_int_equal(cairn_grid_set_cost(g, x, 1, (uint8_t)(9 - x)), CAIRN_OK);
  }
  cairn_error err;
  assert_int_equal(cairn_map_save(g, path, NULL, &err), CAIRN_OK);
  size_t n;
  char *bytes = read_all(path, &n);
  assert_non_null(bytes);
  assert_string_equal(bytes, "type octile\nheight 2\nwidth 10\nmap\n"
                             "@.23456789\n98765432.@\n");
  free(bytes);
  cairn_grid *back = NULL;
  assert_int_equal(cairn_map_load(path, NULL, NULL, &back, &err), CAIRN_OK);
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 10; x++)
      assert_int_equal(cairn_grid_cost(back, x, y), cairn_grid_cost(g, x, y));
  assert_int_equal(cairn_grid_fingerprint(back), cairn_grid_fingerprint(g));
  cairn_grid_destroy(back);
  cairn_grid_destroy(g);
  remove(path);
}

static void test_map_io_errors(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  cairn_error err;
  expect_fail(cairn_map_load("no_such_dir_cairn/x.map", NULL, NULL, &g, &err),
              CAIRN_ERR_IO, &err, "no_such_dir_cairn/x.map: ",
              "cannot open: ");
  assert_null(g);
  assert_int_equal(cairn_map_load("no_such_dir_cairn/x.map", NULL, NULL, &g,
                                  NULL),
                   CAIRN_ERR_IO);
  assert_int_equal(cairn_map_parse(small_map, strlen(small_map), "s.map",
                                   NULL, NULL, &g, &err),
                   CAIRN_OK);
  expect_fail(cairn_map_save(g, "no_such_dir_cairn/x.map", NULL, &err),
              CAIRN_ERR_IO, &err, "no_such_dir_cairn/x.map: ", "cannot");
  cairn_grid_destroy(g);
  /* A malformed file on disk reports its path and line. */
  write_all("test_io_bad.map", "type octile\nheight 2\nwidth 2\nmap\n..\n");
  expect_fail(cairn_map_load("test_io_bad.map", NULL, NULL, &g, &err),
              CAIRN_ERR_PARSE, &err, "test_io_bad.map:6:", "row 2 of 2");
  remove("test_io_bad.map");
}

/* Every benchmark map: load -> save -> identical bytes (CRLF -> LF). */
static void test_movingai_maps_roundtrip(void **state) {
  (void)state;
  if (!have_movingai()) skip();
  const char *out = "test_io_bench.map";
  for (size_t i = 0; i < N_BENCH; i++) {
    char path[1024];
    map_path(path, sizeof path, bench_maps[i].name);
    size_t n, norm_n, saved_n;
    char *orig = read_all(path, &n);
    assert_non_null(orig);
    cairn_grid *g = NULL;
    cairn_error err;
    cairn_status st = cairn_map_load(path, NULL, NULL, &g, &err);
    if (st != CAIRN_OK) print_error("%s\n", err.message);
    assert_int_equal(st, CAIRN_OK);
    assert_int_equal(cairn_grid_width(g), bench_maps[i].w);
    assert_int_equal(cairn_grid_height(g), bench_maps[i].h);
    assert_true(cairn_grid_passable(g) > 0);
    assert_int_equal(cairn_map_save(g, out, NULL, &err), CAIRN_OK);
    char *norm = normalise(orig, n, &norm_n);
    char *saved = read_all(out, &saved_n);
    assert_non_null(saved);
    if (saved_n != norm_n || memcmp(saved, norm, norm_n) != 0) {
      print_error("%s: saved copy differs\n", path);
      fail();
    }
    free(orig);
    free(norm);
    free(saved);
    cairn_grid_destroy(g);
  }
  remove(out);
}

/* ---- the file size limit -------------------------------------------- */

/* The file size limit holds exactly: max bytes are read, max + 1 refused,
 * and the buffer never grows past max + 1 bytes. */
static void test_read_file_limit(void **state) {
  (void)state;
  char path[] = "/tmp/cairn_read_limitXXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "wb");
  assert_non_null(f);
  for (int i = 0; i < 100000; i++) fputc('a' + i % 26, f);
  assert_int_equal(fclose(f), 0);
  cairn_allocator a = cairn__allocator(NULL);
  char *buf;
  size_t len, cap;
  cairn_error err;
  assert_int_equal(cairn__read_file(path, &a, 100000, &buf, &len, &cap, &err), CAIRN_OK);
  assert_int_equal(len, 100000);
  assert_true(cap <= 100001);
  assert_int_equal(buf[99999], 'a' + 99999 % 26);
  cairn__free(&a, buf, cap);
  assert_int_equal(cairn__read_file(path, &a, 99999, &buf, &len, &cap, &err),
                   CAIRN_ERR_TOO_LARGE);
  assert_null(buf);
  assert_non_null(strstr(err.message, "larger than 99999 bytes"));
  remove(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_terrain_movingai),
      cmocka_unit_test(test_terrain_set),
      cmocka_unit_test(test_map_parse_small),
      cmocka_unit_test(test_map_parse_variants),
      cmocka_unit_test(test_map_malformed),
      cmocka_unit_test(test_map_bad_args),
      cmocka_unit_test(test_map_truncated),
      cmocka_unit_test(test_map_too_large_no_alloc),
      cmocka_unit_test(test_map_nomem),
      cmocka_unit_test(test_map_roundtrip_small),
      cmocka_unit_test(test_map_save_terrain),
      cmocka_unit_test(test_map_save_plain_grid),
      cmocka_unit_test(test_map_save_digits),
      cmocka_unit_test(test_map_io_errors),
      cmocka_unit_test(test_movingai_maps_roundtrip),
      cmocka_unit_test(test_read_file_limit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
