/* One hierarchy for units of several sizes (cairn_hpa_opts.max_size,
 * cairn_hpa_path_opts.size): on random maps with terrain and on shared
 * Moving AI maps, for sizes 1 to 4, every path is valid on the grid eroded
 * for its size (written out here as its own grid, as the definition reads
 * it) at the reported cost, costs no less than the core's sized A*, and a
 * path is found exactly when A* finds one; max_size 1 builds the default
 * hierarchy; a corridor only a border's extra crossing lets a large unit
 * through; after random edits, and through layer changes and refreshes,
 * the hierarchy equals a fresh build with the same max_size; the third
 * level; builds alike at any thread count; bad sizes are refused. */
#define _POSIX_C_SOURCE 200809L
#include "test_hpa_util.h"

#include <stdio.h>


static cairn_hpa *build_sized(const cairn_grid *g, int32_t cluster, int levels, int32_t max) {
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.cluster = cluster;
  o.threads = 1;
  o.levels = levels;
  o.block = levels == 3 ? 2 : 0;
  o.max_size = max;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_OK);
  cairn_hpa_stats s;
  cairn_hpa_get_stats(h, &s);
  assert_int_equal(s.max_size, max);
  return h;
}

static cairn_hpa_path_opts sized_opts(int k, int i) {
  cairn_hpa_path_opts o = popts(i % 2 ? 0 : -1, i % 3 != 0);
  o.size = k;
  return o;
}

/* Tallies of a batch of checked queries. */
typedef struct tally {
  int asked, found, refused;
  int missed; /* under a layer: no path where A* has one (see layers) */
  double excess; /* sum of cost / A* cost - 1 over the found */
} tally;

/* One query of size k checked against the core's sized A* (same layer)
 * and, on the eroded grid e, the path's validity and cost (without a
 * layer; with one, its terrain cost). */
static void check_query(cairn_hpa_query *q, const cairn_hpa *h, cairn_search *s,
                        const cairn_grid *g, const cairn_grid *e, const cairn_penalty *layer,
                        int k, cairn_point a, cairn_point b, int i, tally *t) {
  cairn_hpa_path_opts o = sized_opts(k, i);
  cairn_hpa_result r;
  cairn_status st = cairn_hpa_find(q, h, a, b, &o, &r);
  cairn_search_opts so = cairn_search_defaults();
  so.size = k;
  so.penalty = layer;
  cairn_result want;
  cairn_status wst = cairn_astar(s, g, a, b, &so, &want);
  t->asked++;
  if (layer && st == CAIRN_NO_PATH && wst == CAIRN_OK) {
    t->missed++;
    return;
  }
  if (st != wst)
    fail_msg("size %d (%d,%d) -> (%d,%d): hierarchy %s, A* %s", k, a.x, a.y, b.x, b.y,
             cairn_status_str(st), cairn_status_str(wst));
  if (st != CAIRN_OK) {
    t->refused++;
    return;
  }
  t->found++;
  cairn_cost base = tu_path_cost_quiet(e, r.path, r.path_len, a, b, 8);
  if (base == CAIRN_COST_INF)
    fail_msg("size %d (%d,%d) -> (%d,%d): the path breaks the eroded grid", k, a.x, a.y, b.x,
             b.y);
  assert_true(base == r.base_cost);
  if (!layer) assert_true(r.cost == base);
  if (r.cost < want.cost)
    fail_msg("size %d (%d,%d) -> (%d,%d): cost %llu below A*'s %llu", k, a.x, a.y, b.x, b.y,
             (unsigned long long)r.cost, (unsigned long long)want.cost);
  if (want.cost) t->excess += (double)r.cost / (double)want.cost - 1.0;
}

/* queries per size 1..max on h, each checked (check_query). */
static void check_sizes(const cairn_hpa *h, const cairn_grid *g, const cairn_penalty *layer,
                        int max, int queries, uint64_t *rng, tally *t) {
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_hpa_query *q = new_query();
  for (int k = 1; k <= max; k++) {
    cairn_grid *e = tu_eroded(g, k);
    for (int i = 0; i < queries; i++) {
      cairn_point a = tu_fitting(rng, g, k), b = tu_fitting(rng, g, k);
      if (a.x < 0 || b.x < 0) break;
      check_query(q, h, s, g, e, layer, k, a, b, i, &t[k]);
    }
    cairn_grid_destroy(e);
  }
  cairn_hpa_query_destroy(q);
  cairn_search_destroy(s);
}

/* ---- tests ---------------------------------------------------------- */

static void random_maps(void **state) {
  (void)state;
  uint64_t rng = 0x5123;
  tally t[5] = {{0}};
  for (int map = 0; map < 16; map++) {
    int w = 24 + (int)tu_below(&rng, 48), hh = 24 + (int)tu_below(&rng, 48);
    cairn_grid *g = tu_random_grid(&rng, w, hh, 3 + (int)tu_below(&rng, 15), map % 2 ? 4 : 1);
    assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    cairn_hpa *h = build_sized(g, map % 3 ? 8 : 16, 2, 4);
    check_sizes(h, g, NULL, 4, 24, &rng, t);
    cairn_hpa_destroy(h);
    cairn_grid_destroy(g);
  }
  for (int k = 1; k <= 4; k++) {
    print_message("size %d: %d queries, %d found, mean excess %.3f%%\n", k, t[k].asked,
                  t[k].found, t[k].found ? 100 * t[k].excess / t[k].found : 0.0);
    assert_true(t[k].found > 50 && (k == 1 || t[k].refused > 0)); /* paths and refusals */
  }
}

/* max_size 1 is the default hierarchy, and answers alike. */
static void size_one_is_default(void **state) {
  (void)state;
  uint64_t rng = 0x1d;
  for (int map = 0; map < 4; map++) {
    cairn_grid *g = tu_random_grid(&rng, 60, 50, 20, map % 2 ? 4 : 1);
    assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    cairn_hpa *a = build_block(g, 8, 1, 0, 0), *b = build_sized(g, 8, 0, 1);
    assert_same_hierarchy(a, b);
    cairn_hpa_query *qa = new_query(), *qb = new_query();
    assert_same_answers(qa, a, qb, b, g, &rng, 60);
    size_t la = 0, lb = 0;
    assert_int_equal(cairn_hpa_save(a, NULL, 0, &la), CAIRN_ERR_BUFFER);
    assert_int_equal(cairn_hpa_save(b, NULL, 0, &lb), CAIRN_ERR_BUFFER);
    assert_int_equal(la, lb);
    cairn_hpa_query_destroy(qa);
    cairn_hpa_query_destroy(qb);
    cairn_hpa_destroy(a);
    cairn_hpa_destroy(b);
    cairn_grid_destroy(g);
  }
}

/* Two rooms joined by a corridor three cells high across a cluster
 * border: the size-1 crossing sits in its middle row, where a unit of size
 * 3 does not fit; the border's extra crossing lets it through. */
static void corridor_crossing(void **state) {
  (void)state;
  static const char *rows[] = {
      "....................",
      ".....##########.....",
      "....................",
      "....................",
      "....................",
      ".....##########.....",
      ".....##########.....",
      ".....##########.....",
  };
  cairn_grid *g = tu_grid(rows, 8);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  /* row 0 is open too, but a unit of 3 fits only rows 2 to 4 */
  cairn_hpa *h = build_sized(g, 8, 2, 4);
  cairn_hpa_query *q = new_query();
  cairn_hpa_path_opts o = sized_opts(3, 1); /* nearby 0: the hierarchy */
  cairn_hpa_result r;
  cairn_point a = {0, 5}, b = {17, 5};
  assert_int_equal(cairn_hpa_find(q, h, a, b, &o, &r), CAIRN_OK);
  assert_int_equal(r.plain, 0);
  cairn_grid *e = tu_eroded(g, 3);
  assert_true(tu_path_cost(e, r.path, r.path_len, a, b, 8) == r.cost);
  o.size = 4; /* no room for 4 */
  assert_int_equal(cairn_hpa_find(q, h, a, b, &o, &r), CAIRN_ERR_BLOCKED);
  cairn_point a4 = {0, 4}, b4 = {16, 4};
  assert_int_equal(cairn_hpa_find(q, h, a4, b4, &o, &r), CAIRN_NO_PATH);
  cairn_grid_destroy(e);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

static void refusals(void **state) {
  (void)state;
  uint64_t rng = 0xbad;
  cairn_grid *g = tu_random_grid(&rng, 40, 40, 15, 1);
  cairn_hpa_opts o = cairn_hpa_defaults();
  cairn_hpa *h = NULL;
  o.max_size = CAIRN_GRID_MAX_CLEARANCE + 1;
  assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_ERR_ARG);
  o.max_size = -1;
  assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_ERR_ARG);
  assert_null(h);
  h = build_sized(g, 8, 2, 2);
  cairn_hpa_query *q = new_query();
  cairn_hpa_result r;
  cairn_point a = tu_fitting(&rng, g, 2), b = tu_fitting(&rng, g, 2);
  cairn_hpa_path_opts p = cairn_hpa_path_defaults();
  p.size = 3;
  assert_int_equal(cairn_hpa_find(q, h, a, b, &p, &r), CAIRN_ERR_ARG);
  p.size = -1;
  assert_int_equal(cairn_hpa_find(q, h, a, b, &p, &r), CAIRN_ERR_ARG);
  p.size = 2;
  cairn_point tight = {-1, -1};
  for (int32_t y = 0; y < 40 && tight.x < 0; y++)
    for (int32_t x = 0; x < 40 && tight.x < 0; x++)
      if (cairn_grid_clearance(g, x, y) == 1) tight = pt(x, y);
  assert_true(tight.x >= 0);
  assert_int_equal(cairn_hpa_find(q, h, tight, b, &p, &r), CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_hpa_find(q, h, a, tight, &p, &r), CAIRN_ERR_BLOCKED);
  p.size = 0; /* reads as 1 */
  assert_int_equal(cairn_hpa_find(q, h, tight, b, &p, &r), cairn_hpa_find(q, h, tight, b, NULL, &r));
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* Answers of every size from 1 to max on a and b, identical. */
static void assert_same_sized_answers(const cairn_hpa *a, const cairn_hpa *b,
                                      const cairn_grid *g, int max, uint64_t *rng, int n) {
  cairn_hpa_query *qa = new_query(), *qb = new_query();
  for (int k = 1; k <= max; k++)
    for (int i = 0; i < n; i++) {
      cairn_point s = tu_fitting(rng, g, k), t = tu_fitting(rng, g, k);
      if (s.x < 0 || t.x < 0) break;
      cairn_hpa_path_opts o = sized_opts(k, i);
      cairn_hpa_result ra, rb;
      cairn_status sa = cairn_hpa_find(qa, a, s, t, &o, &ra);
      assert_int_equal(cairn_hpa_find(qb, b, s, t, &o, &rb), sa);
      assert_same_result(&ra, &rb);
    }
  cairn_hpa_query_destroy(qa);
  cairn_hpa_query_destroy(qb);
}

/* Random edits: after each batch the hierarchy is a fresh build's. */
static void edits_match_fresh(void **state) {
  (void)state;
  uint64_t rng = 0xed17;
  for (int map = 0; map < 3; map++) {
    cairn_grid *g = tu_random_grid(&rng, 56, 48, 15, map == 1 ? 4 : 1);
    assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    const int levels = map == 2 ? 3 : 2;
    cairn_hpa *h = build_sized(g, 8, levels, 3);
    for (int batch = 0; batch < 6; batch++) {
      cairn_point cells[6];
      uint8_t costs[6];
      size_t n = 1 + tu_below(&rng, 6);
      for (size_t i = 0; i < n; i++) {
        cells[i] = pt((int32_t)tu_below(&rng, 56), (int32_t)tu_below(&rng, 48));
        costs[i] = tu_below(&rng, 3) ? 0 : (uint8_t)(1 + tu_below(&rng, map == 1 ? 4 : 1));
      }
      assert_int_equal(cairn_hpa_edit(h, g, cells, costs, n), CAIRN_OK);
      cairn_grid *copy = copy_grid(g);
      cairn_hpa *fresh = build_sized(copy, 8, levels, 3);
      assert_same_hierarchy(h, fresh);
      assert_same_sized_answers(h, fresh, g, 3, &rng, 10);
      cairn_hpa_destroy(fresh);
      cairn_grid_destroy(copy);
    }
    tally t[5] = {{0}};
    check_sizes(h, g, NULL, 3, 20, &rng, t);
    cairn_hpa_destroy(h);
    cairn_grid_destroy(g);
  }
}

/* Penalties (and blocks) near cluster borders, so units' blocks reach
 * them from the next cluster. */
static void paint(cairn_penalty *p, uint64_t *rng, int n, int32_t w, int32_t h) {
  for (int i = 0; i < n; i++) {
    int32_t x = (int32_t)tu_below(rng, (uint32_t)w), y = (int32_t)tu_below(rng, (uint32_t)h);
    if (tu_below(rng, 5) == 0)
      cairn_penalty_block(p, x, y, 1);
    else
      cairn_penalty_add(p, x, y, 1 + tu_below(rng, 3000));
  }
}

/* Under a layer: after set_layer and after refreshes, the hierarchy is a
 * fresh build's under the same layer, and its paths are valid for their
 * sizes and cost no less than sized A* with the layer. Entrances follow
 * the walls alone, so a crossing whose unit's block holds a cell the layer
 * blocks is closed while a neighbour of it the graph lacks may be open:
 * the hierarchy can then answer no path where A* finds one (as for size 1,
 * more often as the block grows). Such misses are counted and must stay
 * rare; a path where A* has none never happens. */
static void layers(void **state) {
  (void)state;
  uint64_t rng = 0x1a7e;
  int misses = 0, asked = 0;
  for (int map = 0; map < 3; map++) {
    cairn_grid *g = tu_random_grid(&rng, 48, 40, 12, map == 1 ? 3 : 1);
    assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    cairn_penalty *p = NULL, *copy_p = NULL;
    assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
    paint(p, &rng, 60, 48, 40);
    cairn_hpa *h = build_sized(g, 8, 2, 3);
    assert_int_equal(cairn_hpa_set_layer(h, p), CAIRN_OK);
    for (int round = 0; round < 3; round++) {
      if (round) { /* change the layer, then catch up a few clusters at a time */
        paint(p, &rng, 20, 48, 40);
        uint32_t pending = 1;
        while (pending) assert_int_equal(cairn_hpa_refresh(h, 5, &pending), CAIRN_OK);
      }
      assert_int_equal(cairn_penalty_create(g, NULL, &copy_p), CAIRN_OK);
      for (int32_t y = 0; y < 40; y++)
        for (int32_t x = 0; x < 48; x++) {
          uint32_t v = cairn_penalty_cells(p, NULL)[(y + 1) * 50 + x + 1];
          if (v == CAIRN_PENALTY_BLOCK)
            cairn_penalty_block(copy_p, x, y, 1);
          else if (v)
            cairn_penalty_add(copy_p, x, y, v);
        }
      cairn_hpa *fresh = build_sized(g, 8, 2, 3);
      assert_int_equal(cairn_hpa_set_layer(fresh, copy_p), CAIRN_OK);
      assert_same_hierarchy(h, fresh);
      cairn_hpa_destroy(fresh);
      cairn_penalty_destroy(copy_p);
      tally t[5] = {{0}};
      check_sizes(h, g, p, 3, 16, &rng, t);
      assert_true(t[2].found > 0 && t[3].asked > 0);
      for (int k = 1; k <= 3; k++) {
        misses += t[k].missed;
        asked += t[k].asked;
      }
    }
    cairn_hpa_destroy(h);
    cairn_penalty_destroy(p);
    cairn_grid_destroy(g);
  }
  print_message("under layers: %d of %d queries missed a path\n", misses, asked);
  assert_true(misses * 10 <= asked);
}

/* Three levels: sizes above 1 plan on their own level-1 graph. */
static void level3(void **state) {
  (void)state;
  uint64_t rng = 0x13;
  tally t[5] = {{0}};
  cairn_grid *g = tu_random_grid(&rng, 96, 96, 5, 3);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  cairn_hpa *h = build_sized(g, 8, 3, 4);
  check_sizes(h, g, NULL, 4, 30, &rng, t);
  for (int k = 1; k <= 4; k++) assert_true(t[k].found > 10);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* The same hierarchy at 1, 2 and 4 build threads. */
static void threads_alike(void **state) {
  (void)state;
  uint64_t rng = 0x7d;
  cairn_grid *g = tu_random_grid(&rng, 90, 70, 10, 3);
  cairn_hpa *one = build_sized(g, 8, 2, 4);
  for (int threads = 2; threads <= 4; threads += 2) {
    cairn_hpa_opts o = cairn_hpa_defaults();
    o.cluster = 8;
    o.levels = 2;
    o.threads = threads;
    o.max_size = 4;
    cairn_hpa *h = NULL;
    assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_OK);
    assert_same_hierarchy(one, h);
    cairn_hpa_destroy(h);
  }
  cairn_hpa_destroy(one);
  cairn_grid_destroy(g);
}

/* Shared Moving AI maps, when present: sizes 2 to 4. */
static void movingai(void **state) {
  (void)state;
  static const char *names[] = {"den011d.map", "arena2.map", "AR0011SR.map"};
  int maps = 0;
  uint64_t rng = 0x3a1;
  for (size_t m = 0; m < sizeof names / sizeof *names; m++) {
    char path[1024];
    snprintf(path, sizeof path, "%s/maps/%s", CAIRN_MOVINGAI_DIR, names[m]);
    cairn_grid *g = NULL;
    if (cairn_map_load(path, NULL, NULL, &g, NULL) != CAIRN_OK) continue;
    maps++;
    assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
    cairn_hpa *h = build_sized(g, 16, 0, 4);
    tally t[5] = {{0}};
    check_sizes(h, g, NULL, 4, 25, &rng, t);
    for (int k = 2; k <= 4; k++)
      print_message("%s size %d: %d found of %d, mean excess %.3f%%\n", names[m], k, t[k].found,
                    t[k].asked, t[k].found ? 100 * t[k].excess / t[k].found : 0.0);
    cairn_hpa_destroy(h);
    cairn_grid_destroy(g);
  }
  if (!maps) {
    print_message("skipped: no Moving AI maps under %s\n", CAIRN_MOVINGAI_DIR);
    skip();
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_maps),      cmocka_unit_test(size_one_is_default),
      cmocka_unit_test(corridor_crossing), cmocka_unit_test(refusals),
      cmocka_unit_test(edits_match_fresh), cmocka_unit_test(layers),
      cmocka_unit_test(level3),           cmocka_unit_test(threads_alike),
      cmocka_unit_test(movingai),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
