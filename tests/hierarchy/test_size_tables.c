/* The sized tables of a hierarchy (max_size > 1), held to their definition
 * pair by pair: the cost between two entrances of a cluster for a unit of
 * size k is a Dijkstra's on the grid eroded for k (tu_eroded, written out
 * cell by cell) confined to the cluster, or none where either end does not
 * fit, and the pairs each size's graph keeps held to their definition.
 * On random maps of one terrain (where the sized pass reads the
 * clearances with its own search), with terrain (where it searches an
 * eroded copy of the cluster) and of one terrain with patches of dearer
 * ones, some against a cluster's east or south side (a cluster whose own
 * cells are all alike still reads the next one's under a large unit's
 * block), for clusters of 8 and 16 and sizes 2 to 4, after a build and
 * after random edits. */
#include "test_util.h"
#include "test_hpa_util.h"

#include "hpa_internal.h"

/* Size k's graph keeps exactly the pairs whose ends fit k, joined at a
 * finite cost, with no third node that fits k on a cheapest way. */
static void check_kept(const hpa_cluster *c, const hpa_csize *z, unsigned k, uint32_t id) {
  for (uint32_t i = 0; i < c->n; i++)
    for (uint32_t j = 0; j < c->n; j++) {
      const cairn_cost d = hpa_dist_k(c, z, i, j, k);
      bool kept = i != j && d != CAIRN_COST_INF;
      for (uint32_t m = 0; m < c->n && kept; m++) {
        const cairn_cost a = hpa_dist_k(c, z, i, m, k), b = hpa_dist_k(c, z, m, j, k);
        kept = m == i || m == j || a == CAIRN_COST_INF || b == CAIRN_COST_INF || a + b != d;
      }
      const bool got = z->ke[(size_t)i * c->n + j] >> (k - 1) & 1u;
      if (got != kept)
        fail_msg("size %u, cluster %u, pair %u -> %u: kept %d, should be %d", k, id, i, j, got,
                 kept);
    }
}

/* Every pair of every cluster of h, for sizes 2 .. max, against a bounded
 * Dijkstra on the eroded grids; returns how many pairs had a finite cost. */
static size_t check_tables(const cairn_hpa *h, const cairn_grid *g, int max) {
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  size_t finite = 0;
  for (int k = 2; k <= max; k++) {
    cairn_grid *e = tu_eroded(g, k);
    for (uint32_t id = 0; id < (uint32_t)h->cw * (uint32_t)h->ch; id++) {
      const hpa_cluster *c = &h->clusters[id];
      const hpa_csize *z = &h->csz[id];
      cairn_search_opts o = cairn_search_defaults();
      o.bounds = (cairn_rect){c->x0, c->y0, c->w, c->h};
      for (uint32_t i = 0; i < c->n; i++) {
        const cairn_point a = hpa_point(h, c->cell[i]);
        const bool fits = cairn_grid_clearance(g, a.x, a.y) >= k;
        for (uint32_t j = 0; j < c->n; j++) {
          const cairn_point b = hpa_point(h, c->cell[j]);
          const cairn_cost got = hpa_dist_k(c, z, i, j, (unsigned)k);
          cairn_cost want = CAIRN_COST_INF;
          if (fits && cairn_grid_clearance(g, b.x, b.y) >= k) {
            cairn_result r = tu_dijkstra(s, e, a, b, &o);
            if (r.cost != CAIRN_COST_INF) want = r.cost;
          }
          if (got != want)
            fail_msg("size %d, cluster %u, (%d,%d) -> (%d,%d): table %llu, Dijkstra %llu", k, id,
                     a.x, a.y, b.x, b.y, (unsigned long long)got, (unsigned long long)want);
          finite += want != CAIRN_COST_INF && i != j;
        }
      }
      check_kept(c, z, (unsigned)k, id);
    }
    cairn_grid_destroy(e);
  }
  cairn_search_destroy(s);
  return finite;
}

static cairn_hpa *build_max(const cairn_grid *g, int32_t cluster, int32_t max) {
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.cluster = cluster;
  o.threads = 1;
  o.max_size = max;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_OK);
  return h;
}

/* Patches of costs 2 to 4 over the open cells of g, each a block of
 * columns or rows starting on a cluster side of cs, or anywhere. */
static void paint_patches(uint64_t *rng, cairn_grid *g, int32_t cs) {
  const int32_t w = cairn_grid_width(g), hh = cairn_grid_height(g);
  for (int p = 0; p < 6; p++) {
    int32_t x0 = (int32_t)tu_below(rng, (uint32_t)w), y0 = (int32_t)tu_below(rng, (uint32_t)hh);
    int32_t pw = 1 + (int32_t)tu_below(rng, 3), ph = 1 + (int32_t)tu_below(rng, 12);
    if (p % 3 == 0) x0 = x0 / cs * cs; /* against a cluster's east side */
    if (p % 3 == 1) {                  /* against a south side, lying */
      y0 = y0 / cs * cs;
      int32_t t = pw;
      pw = ph;
      ph = t;
    }
    const uint8_t cost = (uint8_t)(2 + tu_below(rng, 3));
    for (int32_t y = y0; y < y0 + ph && y < hh; y++)
      for (int32_t x = x0; x < x0 + pw && x < w; x++)
        if (cairn_grid_cost(g, x, y))
          assert_int_equal(cairn_grid_set_cost(g, x, y, cost), CAIRN_OK);
  }
}

/* Random maps, one terrain (costs 1) or several (up to 4), or one with
 * patches of others (terrains 0). */
static void run_maps(int terrains, uint64_t seed) {
  uint64_t rng = seed;
  size_t finite = 0;
  for (int map = 0; map < 8; map++) {
    int w = 30 + (int)tu_below(&rng, 40), hh = 30 + (int)tu_below(&rng, 40);
    const int32_t cs = map % 2 ? 8 : 16;
    const int density = 5 + (int)tu_below(&rng, 20);
    cairn_grid *g = tu_random_grid(&rng, w, hh, density, terrains ? terrains : 1);
    if (!terrains) paint_patches(&rng, g, cs);
    cairn_hpa *h = build_max(g, cs, 4);
    finite += check_tables(h, g, 4);
    /* random walls and openings, then the update */
    cairn_point cells[12];
    uint8_t costs[12];
    for (int edit = 0; edit < 12; edit++) {
      cells[edit] = (cairn_point){(int32_t)tu_below(&rng, (uint32_t)w),
                                  (int32_t)tu_below(&rng, (uint32_t)hh)};
      costs[edit] = cairn_grid_cost(g, cells[edit].x, cells[edit].y)
                        ? 0
                        : (uint8_t)(1 + tu_below(&rng, (uint32_t)(terrains ? terrains : 4)));
    }
    assert_int_equal(cairn_hpa_edit(h, g, cells, costs, 12), CAIRN_OK);
    finite += check_tables(h, g, 4);
    cairn_hpa_destroy(h);
    cairn_grid_destroy(g);
  }
  assert_true(finite > 1000); /* the maps leave room for large units */
}

static void one_terrain(void **state) {
  (void)state;
  run_maps(1, 0x7ab1e5);
}

static void terrain(void **state) {
  (void)state;
  run_maps(4, 0x7e77a1);
}

static void patches(void **state) {
  (void)state;
  run_maps(0, 0x9a7c4e);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(one_terrain), cmocka_unit_test(terrain),
                                     cmocka_unit_test(patches)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
