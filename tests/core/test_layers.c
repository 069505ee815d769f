/* Cost layers: penalty layers under A*, Dijkstra and fills, influence
 * maps, checked against the test's own Dijkstra and Lester's cases. */
#include "test_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define INF CAIRN_COST_INF

/* The test's own Dijkstra, sharing nothing with the library: an O(cells^2)
 * scan. dist[y * w + x] = the cheapest cost from src, a step paying the
 * entered cell's terrain x step length plus its penalty; blocked cells and
 * cells the layer blocks are never entered. 8 moves, no corner cutting. */
typedef struct ref_claims {
  const cairn_claims *c;
  cairn_cost price; /* per claim */
  int radius;       /* 0: everywhere */
} ref_claims;

static void ref_layered(const cairn_grid *g, const cairn_penalty *p,
                        const ref_claims *rc, cairn_point src, cairn_cost *dist) {
  const int w = cairn_grid_width(g), h = cairn_grid_height(g);
  const size_t cells = (size_t)w * (size_t)h;
  unsigned char *done = calloc(cells, 1);
  assert_non_null(done);
  for (size_t i = 0; i < cells; i++) dist[i] = INF;
  dist[(size_t)src.y * (size_t)w + (size_t)src.x] = 0;
  for (;;) {
    size_t best = cells;
    for (size_t i = 0; i < cells; i++)
      if (!done[i] && dist[i] != INF && (best == cells || dist[i] < dist[best])) best = i;
    if (best == cells) break;
    done[best] = 1;
    const int cx = (int)(best % (size_t)w), cy = (int)(best / (size_t)w);
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        int nx = cx + dx, ny = cy + dy;
        if ((!dx && !dy) || !cairn_grid_cost(g, nx, ny)) continue;
        if (dx && dy && (!cairn_grid_cost(g, cx + dx, cy) || !cairn_grid_cost(g, cx, cy + dy)))
          continue;
        uint32_t pen = p ? cairn_penalty_get(p, nx, ny) : 0;
        if (pen == CAIRN_PENALTY_BLOCK) continue;
        cairn_cost step = (dx && dy ? CAIRN_COST_DIAG : CAIRN_COST_ONE) *
                              cairn_grid_cost(g, nx, ny) + pen;
        if (rc && (!rc->radius || (abs(nx - src.x) <= rc->radius && abs(ny - src.y) <= rc->radius)))
          step += rc->price * cairn_claims_count(rc->c, nx, ny);
        size_t j = (size_t)ny * (size_t)w + (size_t)nx;
        if (dist[best] + step < dist[j]) dist[j] = dist[best] + step;
      }
  }
  free(done);
}

/* A random layer: penalties up to a few steps on a third of the cells,
 * blocks on a few. */
static cairn_penalty *random_layer(uint64_t *rng, const cairn_grid *g) {
  cairn_penalty *p = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  for (int y = 0; y < cairn_grid_height(g); y++)
    for (int x = 0; x < cairn_grid_width(g); x++) {
      uint32_t r = tu_below(rng, 30);
      if (r < 10)
        assert_int_equal(cairn_penalty_add(p, x, y, (int64_t)tu_below(rng, 4 * CAIRN_COST_ONE)),
                         CAIRN_OK);
      else if (r == 10)
        assert_int_equal(cairn_penalty_block(p, x, y, 1), CAIRN_OK);
    }
  return p;
}

/* A* (every heuristic admissible on 8 moves) and nearest-goal Dijkstra
 * under a layer (and, on odd maps, claims, near the start or everywhere)
 * meet the
 * layered reference; the path avoids the blocked cells, its cost is its
 * terrain cost (base_cost, recomputed) plus the penalties it entered. */
static void layered_search_exact(void **state) {
  (void)state;
  uint64_t rng = 0x1a7e;
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  int found = 0, blocked = 0;
  for (int m = 0; m < 16; m++) {
    int w = 8 + (int)tu_below(&rng, 20), h = 8 + (int)tu_below(&rng, 20);
    cairn_grid *g = tu_random_grid(&rng, w, h, 20, m % 2 ? 1 : 6);
    cairn_penalty *p = random_layer(&rng, g);
    cairn_cost *ref = malloc((size_t)w * (size_t)h * sizeof *ref);
    assert_non_null(ref);
    /* on odd maps, claims too: a few units' random cells */
    cairn_claims *c = NULL;
    assert_int_equal(cairn_claims_create(g, NULL, &c), CAIRN_OK);
    for (uint32_t unit = 0; unit < 6; unit++) {
      cairn_point cells[12];
      for (int k = 0; k < 12; k++) cells[k] = tu_random_open(&rng, g);
      assert_int_equal(cairn_claims_set(c, unit, cells, 12, 1), CAIRN_OK);
    }
    ref_claims rc = {c, 98304, m % 4 == 1 ? 5 : 0}; /* 1.5 steps a claim */
    const ref_claims *use = m % 2 ? &rc : NULL;
    for (int q = 0; q < 10; q++) {
      cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
      ref_layered(g, p, use, a, ref);
      cairn_cost want = ref[(size_t)b.y * (size_t)w + (size_t)b.x];
      /* the heuristics admissible on 8 moves */
      const cairn_heuristic hs[3] = {CAIRN_H_OCTILE, CAIRN_H_EUCLIDEAN, CAIRN_H_ZERO};
      for (int hk = 0; hk < 3; hk++) {
        cairn_search_opts o = cairn_search_defaults();
        o.heuristic = hs[hk];
        o.penalty = p;
        if (use) {
          o.claims = c;
          o.claim_penalty = 1.5;
          o.claim_radius = use->radius;
        }
        cairn_result r;
        cairn_astar(s, g, a, b, &o, &r);
        if (r.cost != want)
          fail_msg("map %d (%d,%d)->(%d,%d) heuristic %d: %llu, reference %llu", m, a.x,
                   a.y, b.x, b.y, hk, (unsigned long long)r.cost, (unsigned long long)want);
        if (want == INF) {
          blocked += hk == 0;
          continue;
        }
        found += hk == 0;
        cairn_cost pens = 0;
        for (size_t i = 1; i < r.path_len; i++) {
          uint32_t pen = cairn_penalty_get(p, r.path[i].x, r.path[i].y);
          assert_true(pen != CAIRN_PENALTY_BLOCK);
          pens += pen;
          cairn_point at = r.path[i];
          if (use && (!use->radius || (abs(at.x - a.x) <= use->radius && abs(at.y - a.y) <= use->radius)))
            pens += use->price * cairn_claims_count(c, at.x, at.y);
        }
        assert_true(tu_path_cost(g, r.path, r.path_len, a, b, 8) == r.base_cost);
        assert_true(r.base_cost + pens == r.cost);
      }
      /* the same through nearest-goal Dijkstra and a fill */
      cairn_search_opts o = cairn_search_defaults();
      o.penalty = p;
      if (use) {
        o.claims = c;
        o.claim_penalty = 1.5;
        o.claim_radius = use->radius;
      }
      cairn_result r;
      cairn_dijkstra_nearest(s, g, a, &b, 1, &o, &r);
      assert_true(r.cost == want);
      assert_int_equal(cairn_dijkstra_fill(s, g, &a, 1, NULL, 0, 0, &o), CAIRN_OK);
      cairn_node_info info;
      assert_int_equal(cairn_search_cell(s, b, &info), CAIRN_OK);
      assert_true(want == INF ? info.state == CAIRN_NODE_FRESH : info.g == want);
    }
    free(ref);
    cairn_claims_destroy(c);
    cairn_penalty_destroy(p);
    cairn_grid_destroy(g);
  }
  assert_true(found > 100 && blocked > 0);
  cairn_search_destroy(s);
}

/* Without penalties base_cost is the cost; a layer of another size is
 * refused; a goal the layer blocks answers no path at once. */
static void layer_basics(void **state) {
  (void)state;
  const char *rows[] = {"......", "......", "......"};
  cairn_grid *g = tu_grid(rows, 3), *other = NULL;
  assert_int_equal(cairn_grid_create(7, 3, 1, NULL, &other), CAIRN_OK);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_penalty *p = NULL, *q = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  assert_int_equal(cairn_penalty_create(other, NULL, &q), CAIRN_OK);
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(0, 1), pt(5, 1), NULL, &r), CAIRN_OK);
  assert_true(r.base_cost == r.cost && r.cost == 5 * CAIRN_COST_ONE);
  cairn_search_opts o = cairn_search_defaults();
  o.penalty = q;
  assert_int_equal(cairn_astar(s, g, pt(0, 1), pt(5, 1), &o, &r), CAIRN_ERR_ARG);
  o.penalty = p;
  /* a wall of penalty in the middle row costs 10 steps: go round it */
  assert_int_equal(cairn_penalty_add(p, 3, 1, 10 * CAIRN_COST_ONE), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, pt(0, 1), pt(5, 1), &o, &r), CAIRN_OK);
  assert_true(r.cost == r.base_cost); /* around, paying no penalty */
  assert_true(r.cost == 3 * CAIRN_COST_ONE + 2 * CAIRN_COST_DIAG);
  /* blocks count, and the blocked goal has no path */
  assert_int_equal(cairn_penalty_block(p, 5, 1, 1), CAIRN_OK);
  assert_int_equal(cairn_penalty_block(p, 5, 1, 1), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, pt(0, 1), pt(5, 1), &o, &r), CAIRN_NO_PATH);
  assert_true(r.expanded == 0);
  assert_int_equal(cairn_penalty_block(p, 5, 1, 0), CAIRN_OK);
  assert_int_equal(cairn_penalty_get(p, 5, 1), CAIRN_PENALTY_BLOCK);
  assert_int_equal(cairn_penalty_block(p, 5, 1, 0), CAIRN_OK);
  assert_int_equal(cairn_penalty_get(p, 5, 1), 0);
  assert_int_equal(cairn_penalty_block(p, 5, 1, 0), CAIRN_ERR_STATE);
  assert_int_equal(cairn_penalty_block(p, 6, 1, 1), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_penalty_add(p, -1, 0, 5), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_penalty_add(p, 0, 0, (int64_t)1 << 40), CAIRN_ERR_ARG);
  /* saturation at both ends */
  assert_int_equal(cairn_penalty_add(p, 0, 0, -5), CAIRN_OK);
  assert_int_equal(cairn_penalty_get(p, 0, 0), 0);
  for (int k = 0; k < 3; k++)
    assert_int_equal(cairn_penalty_add(p, 0, 0, UINT32_MAX), CAIRN_OK);
  assert_int_equal(cairn_penalty_get(p, 0, 0), CAIRN_PENALTY_MAX);
  cairn_penalty_clear(p);
  assert_int_equal(cairn_penalty_get(p, 0, 0), 0);
  assert_int_equal(cairn_penalty_get(p, 3, 1), 0);
  cairn_penalty_destroy(q);
  assert_int_equal(cairn_penalty_create(NULL, NULL, &q), CAIRN_ERR_ARG);
  assert_null(q);
  cairn_penalty_destroy(p);
  cairn_penalty_destroy(q);
  cairn_penalty_destroy(NULL);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
  cairn_grid_destroy(other);
}

/* cairn_penalty_changes lists every cell whose penalty differs from a
 * snapshot taken at an older version, only cells that were written since,
 * each once; a short buffer still gets the full count; nothing after the
 * current version. */
static void layer_changes(void **state) {
  (void)state;
  uint64_t rng = 0xc4a9;
  cairn_grid *g = tu_random_grid(&rng, 70, 45, 10, 1);
  cairn_penalty *p = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  int32_t stride;
  const uint32_t *cells = cairn_penalty_cells(p, &stride);
  const size_t padded = (size_t)stride * (size_t)(cairn_grid_height(g) + 2);
  uint32_t *snap = malloc(padded * sizeof *snap), *out = malloc(padded * sizeof *out);
  uint8_t *written = calloc(padded, 1), *listed = calloc(padded, 1);
  assert_non_null(snap);
  assert_non_null(out);
  assert_non_null(written);
  assert_non_null(listed);
  for (int round = 0; round < 20; round++) {
    const uint64_t since = cairn_penalty_version(p);
    memcpy(snap, cells, padded * sizeof *snap);
    memset(written, 0, padded);
    memset(listed, 0, padded);
    int writes = 1 + (int)tu_below(&rng, 40);
    for (int k = 0; k < writes; k++) {
      cairn_point c = tu_random_open(&rng, g);
      written[(size_t)(c.y + 1) * (size_t)stride + (size_t)(c.x + 1)] = 1;
      if (tu_below(&rng, 8) == 0 && cairn_penalty_get(p, c.x, c.y) != CAIRN_PENALTY_BLOCK)
        assert_int_equal(cairn_penalty_block(p, c.x, c.y, 1), CAIRN_OK);
      else
        assert_int_equal(cairn_penalty_add(p, c.x, c.y, (int64_t)tu_below(&rng, 3000) - 1000),
                         CAIRN_OK);
    }
    size_t n = cairn_penalty_changes(p, since, out, padded);
    assert_true(n <= (size_t)writes);
    for (size_t k = 0; k < n; k++) {
      assert_true(out[k] < padded);
      assert_true(written[out[k]]);
      assert_false(listed[out[k]]);
      listed[out[k]] = 1;
    }
    for (size_t i = 0; i < padded; i++)
      if (cells[i] != snap[i]) assert_true(listed[i]);
    if (n > 1) assert_int_equal(cairn_penalty_changes(p, since, out, 1), n);
    assert_int_equal(cairn_penalty_changes(p, cairn_penalty_version(p), out, padded), 0);
  }
  free(snap);
  free(out);
  free(written);
  free(listed);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
}

/* An event's values fall off with distance and reach nothing past the
 * radius or on walls; two maps add up in one layer; ticks fade every value
 * until none is left; destroying a map takes its share back. */
static void influence_events(void **state) {
  (void)state;
  const char *rows[] = {"...........", "...........", ".....#.....", "...........",
                        "..........."};
  cairn_grid *g = tu_grid(rows, 5);
  cairn_penalty *p = NULL;
  cairn_influence *a = NULL, *b = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  assert_int_equal(cairn_influence_create(g, p, NULL, &a), CAIRN_OK);
  assert_int_equal(cairn_influence_create(g, p, NULL, &b), CAIRN_OK);
  const uint32_t amount = 8 * CAIRN_COST_ONE;
  assert_int_equal(cairn_influence_event(a, 5, 1, 3, amount), CAIRN_OK);
  assert_int_equal(cairn_influence_get(a, 5, 1), amount);
  assert_int_equal(cairn_influence_get(a, 5, 2), 0); /* a wall */
  assert_true(cairn_influence_get(a, 6, 1) < amount && cairn_influence_get(a, 6, 1) > 0);
  assert_true(cairn_influence_get(a, 7, 1) < cairn_influence_get(a, 6, 1));
  assert_int_equal(cairn_influence_get(a, 9, 1), 0); /* past the radius */
  assert_true(cairn_influence_active(a) <= 7 * 7);
  assert_int_equal(cairn_influence_event(b, 6, 1, 0, 5), CAIRN_OK);
  assert_int_equal(cairn_penalty_get(p, 6, 1), cairn_influence_get(a, 6, 1) + 5);
  assert_int_equal(cairn_influence_event(a, 11, 0, 1, 5), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_influence_event(a, 0, 0, -1, 5), CAIRN_ERR_ARG);
  assert_int_equal(cairn_influence_tick(a, 70000, 0), CAIRN_ERR_ARG);
  assert_int_equal(cairn_influence_tick(a, 65536, 20000), CAIRN_ERR_ARG);
  /* keep half each tick: gone after about log2(amount) ticks */
  uint32_t before = cairn_influence_get(a, 5, 1);
  assert_int_equal(cairn_influence_tick(a, 32768, 0), CAIRN_OK);
  assert_int_equal(cairn_influence_get(a, 5, 1), before / 2);
  int ticks = 1;
  while (cairn_influence_active(a) && ticks < 40) {
    assert_int_equal(cairn_influence_tick(a, 32768, 0), CAIRN_OK);
    ticks++;
  }
  assert_int_equal(cairn_influence_active(a), 0);
  assert_int_equal(cairn_penalty_get(p, 5, 1), 0);
  assert_int_equal(cairn_penalty_get(p, 6, 1), 5); /* b's share stays */
  cairn_influence_destroy(b);
  assert_int_equal(cairn_penalty_get(p, 6, 1), 0);
  /* spreading moves value to open neighbours, never onto walls, and never
   * makes more than there was */
  assert_int_equal(cairn_influence_event(a, 5, 3, 0, amount), CAIRN_OK);
  assert_int_equal(cairn_influence_tick(a, 65536, 8192), CAIRN_OK);
  uint64_t total = 0;
  for (int y = 0; y < 5; y++)
    for (int x = 0; x < 11; x++) total += cairn_influence_get(a, x, y);
  assert_true(total <= amount && total + 4 >= amount);
  assert_true(cairn_influence_get(a, 5, 4) > 0 && cairn_influence_get(a, 4, 3) > 0);
  assert_int_equal(cairn_influence_get(a, 5, 2), 0);
  assert_int_equal(cairn_influence_active(a), 4); /* the wall took none */
  cairn_influence_destroy(a);
  assert_int_equal(cairn_penalty_get(p, 5, 3), 0);
  assert_int_equal(cairn_influence_create(g, NULL, NULL, &a), CAIRN_ERR_ARG);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
}

/* Whether a found path passes through the cell. */
static bool through(const cairn_result *r, cairn_point cell) {
  for (size_t i = 0; i < r->path_len; i++)
    if (r->path[i].x == cell.x && r->path[i].y == cell.y) return true;
  return false;
}

/* Lester's carnage pass: the short way leads through a pass, the long way
 * round the end of the ridge; once enough carnage happens in the pass units
 * take the long way, and once it has faded they use the pass again. */
static void carnage_pass(void **state) {
  (void)state;
  const char *rows[] = {"...............", "######.#######.", "######.#######.",
                        "..............."};
  cairn_grid *g = tu_grid(rows, 4);
  cairn_penalty *p = NULL;
  cairn_influence *carnage = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &p), CAIRN_OK);
  assert_int_equal(cairn_influence_create(g, p, NULL, &carnage), CAIRN_OK);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_search_opts o = cairn_search_defaults();
  o.penalty = p;
  cairn_result r;
  const cairn_point a = pt(0, 0), b = pt(0, 3), pass = pt(6, 1);
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_OK);
  const cairn_cost short_way = r.cost;
  assert_true(through(&r, pass));
  assert_int_equal(cairn_influence_event(carnage, 6, 1, 2, 40 * CAIRN_COST_ONE), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_OK);
  assert_false(through(&r, pass));
  assert_true(r.base_cost > short_way); /* longer, if it still crosses some carnage */
  /* fading by half a tick: after a few ticks the pass is cheaper again */
  int ticks = 0;
  do {
    assert_int_equal(cairn_influence_tick(carnage, 32768, 0), CAIRN_OK);
    assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_OK);
    ticks++;
  } while (!through(&r, pass) && ticks < 30);
  assert_true(through(&r, pass) && ticks > 1);
  assert_true(r.base_cost == short_way && r.cost >= r.base_cost);
  cairn_search_destroy(s);
  cairn_influence_destroy(carnage);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(g);
}

/* ---- claimed cells --------------------------------------------------- */

/* Lester's corridors: six units from one place to one goal through two
 * corridors of equal length. With claims each unit, having claimed its
 * path, pushes the next one to the other corridor, so they split; with
 * claims off they all take the same one. */
static void claims_split_corridors(void **state) {
  (void)state;
  const char *rows[] = {"...........", ".#########.", ".#########.", ".#########.",
                        "..........."};
  cairn_grid *g = tu_grid(rows, 5);
  cairn_claims *c = NULL;
  assert_int_equal(cairn_claims_create(g, NULL, &c), CAIRN_OK);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  /* from the middle of the west side to the middle of the east side: the
   * top and the bottom way round the ridge cost the same */
  const cairn_point a = pt(0, 2), b = pt(10, 2), top = pt(5, 0), bottom = pt(5, 4);
  for (int use = 0; use < 2; use++) {
    int n_top = 0, n_bottom = 0;
    for (uint32_t unit = 0; unit < 6; unit++) {
      cairn_search_opts o = cairn_search_defaults();
      if (use) {
        o.claims = c;
        o.claim_penalty = 2;
      }
      cairn_result r;
      assert_int_equal(cairn_astar(s, g, a, b, &o, &r), CAIRN_OK);
      n_top += through(&r, top);
      n_bottom += through(&r, bottom);
      /* the part ahead: everything but the start */
      assert_int_equal(cairn_claims_set(c, unit, r.path + 1, r.path_len - 1, 100), CAIRN_OK);
    }
    assert_int_equal(n_top + n_bottom, 6);
    if (use) {
      assert_int_equal(n_top, 3);
      assert_int_equal(n_bottom, 3);
    } else {
      assert_true(n_top == 6 || n_bottom == 6);
    }
    for (uint32_t unit = 0; unit < 6; unit++) assert_int_equal(cairn_claims_release(c, unit), CAIRN_OK);
    assert_int_equal(cairn_claims_count(c, 5, 0) + cairn_claims_count(c, 5, 4), 0);
  }
  cairn_search_destroy(s);
  cairn_claims_destroy(c);
  cairn_grid_destroy(g);
}

/* A one-cell pass that every unit claimed is still walkable: claims cost,
 * they never block; claims beyond the radius do not count; they expire. */
static void claims_pass_and_radius(void **state) {
  (void)state;
  const char *rows[] = {".....", "##.##", ".....", ".....", ".....", "....."};
  cairn_grid *g = tu_grid(rows, 6);
  cairn_claims *c = NULL;
  assert_int_equal(cairn_claims_create(g, NULL, &c), CAIRN_OK);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  const cairn_point pass = pt(2, 1);
  for (uint32_t unit = 0; unit < 50; unit++)
    assert_int_equal(cairn_claims_set(c, unit, &pass, 1, unit), CAIRN_OK);
  assert_int_equal(cairn_claims_count(c, 2, 1), 50);
  cairn_search_opts o = cairn_search_defaults();
  o.claims = c;
  o.claim_penalty = 1000;
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(4, 2), &o, &r), CAIRN_OK);
  assert_true(through(&r, pass));
  assert_true(r.cost == r.base_cost + 50 * 1000 * (cairn_cost)CAIRN_COST_ONE);
  /* from 5 rows down, beyond a radius of 3, the claims cost nothing */
  o.claim_radius = 3;
  assert_int_equal(cairn_astar(s, g, pt(2, 5), pt(2, 0), &o, &r), CAIRN_OK);
  assert_true(r.cost == r.base_cost);
  o.claim_radius = 4;
  assert_int_equal(cairn_astar(s, g, pt(2, 5), pt(2, 0), &o, &r), CAIRN_OK);
  assert_true(r.cost > r.base_cost);
  /* claims until tick u expire at tick u + 1 */
  assert_int_equal(cairn_claims_expire(c, 10), 10);
  assert_int_equal(cairn_claims_count(c, 2, 1), 40);
  assert_int_equal(cairn_claims_expire(c, 10), 0);
  assert_int_equal(cairn_claims_expire(c, 1000), 40);
  assert_int_equal(cairn_claims_count(c, 2, 1), 0);
  /* refusals change nothing */
  const cairn_point off = pt(5, 0);
  assert_int_equal(cairn_claims_set(c, 1, &off, 1, 5), CAIRN_ERR_RANGE);
  assert_int_equal(cairn_claims_set(c, CAIRN_CLAIMS_MAX_UNITS, &pass, 1, 5), CAIRN_ERR_ARG);
  assert_int_equal(cairn_claims_set(c, 1, NULL, 1, 5), CAIRN_ERR_ARG);
  assert_int_equal(cairn_claims_release(c, 7), CAIRN_OK);
  /* claims made for a grid of another shape (6 x 5 against 5 x 6: the same
   * padded size) are refused */
  cairn_grid *turned = NULL;
  cairn_claims *other = NULL;
  assert_int_equal(cairn_grid_create(6, 5, 1, NULL, &turned), CAIRN_OK);
  assert_int_equal(cairn_claims_create(turned, NULL, &other), CAIRN_OK);
  o.claims = other;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(4, 2), &o, &r), CAIRN_ERR_ARG);
  cairn_claims_destroy(other);
  cairn_grid_destroy(turned);
  o.claims = c;
  o.claim_penalty = -1;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(4, 2), &o, &r), CAIRN_ERR_ARG);
  o.claim_penalty = 1;
  o.claim_radius = -1;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(4, 2), &o, &r), CAIRN_ERR_ARG);
  cairn_search_destroy(s);
  cairn_claims_destroy(c);
  cairn_grid_destroy(g);
}

/* ---- per-faction knowledge ------------------------------------------ */

/* An unexplored map is crossed as if open; once the faction sees the wall
 * its version moves on, the unit repaths, and the new path is valid on
 * the true map. Another faction knows nothing of it. */
static void knowledge_reveal(void **state) {
  (void)state;
  const char *rows[] = {"...........", ".....#.....", ".....#.....", ".....#.....",
                        "..........."};
  cairn_grid *truth = tu_grid(rows, 5);
  cairn_knowledge *red = NULL, *blue = NULL;
  assert_int_equal(cairn_knowledge_create(truth, 1, NULL, &red), CAIRN_OK);
  assert_int_equal(cairn_knowledge_create(truth, 1, NULL, &blue), CAIRN_OK);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  const cairn_point a = pt(0, 2), b = pt(10, 2);
  cairn_result r;
  assert_int_equal(cairn_astar(s, cairn_knowledge_grid(red), a, b, NULL, &r), CAIRN_OK);
  assert_true(r.cost == 10 * CAIRN_COST_ONE); /* straight through the unseen wall */
  const uint64_t planned = cairn_knowledge_version(red);
  int changed = 0;
  cairn_rect sight = {3, 0, 5, 5};
  assert_int_equal(cairn_knowledge_reveal(red, sight, &changed), CAIRN_OK);
  assert_true(changed);
  assert_true(cairn_knowledge_version(red) != planned); /* the plan is stale */
  assert_true(cairn_knowledge_seen(red, 5, 2) && !cairn_knowledge_seen(red, 0, 0));
  assert_int_equal(cairn_grid_cost(cairn_knowledge_grid(red), 5, 2), 0);
  assert_true(cairn_grid_islands_fresh(cairn_knowledge_grid(red)));
  assert_int_equal(cairn_astar(s, cairn_knowledge_grid(red), a, b, NULL, &r), CAIRN_OK);
  cairn_path_check chk;
  cairn_grid_check_path(truth, r.path, r.path_len, a, b, 8, &chk);
  assert_true(chk.valid);
  assert_true(r.cost > 10 * CAIRN_COST_ONE);
  /* seeing the same again changes nothing; blue still knows nothing */
  assert_int_equal(cairn_knowledge_reveal(red, sight, &changed), CAIRN_OK);
  assert_false(changed);
  assert_int_equal(cairn_knowledge_version(blue), 0);
  assert_int_equal(cairn_grid_cost(cairn_knowledge_grid(blue), 5, 2), 1);
  /* clipped and empty rectangles, refusals */
  cairn_rect wide = {-5, -5, 100, 100}, none = {2, 2, 0, 4};
  assert_int_equal(cairn_knowledge_reveal(blue, none, &changed), CAIRN_OK);
  assert_false(changed);
  assert_int_equal(cairn_knowledge_reveal(blue, wide, &changed), CAIRN_OK);
  assert_true(changed && cairn_knowledge_seen(blue, 10, 4));
  cairn_knowledge_destroy(red);
  assert_int_equal(cairn_knowledge_create(truth, 0, NULL, &red), CAIRN_ERR_ARG);
  assert_null(red);
  cairn_knowledge_destroy(blue);
  cairn_search_destroy(s);
  cairn_grid_destroy(truth);
}

/* The labels of a and b split the open cells of grid g the same way: one
 * label of a for each of b and back, and every label of a at most a's
 * island count. */
static void assert_same_islands(const cairn_grid *a, const cairn_grid *b) {
  const int32_t w = cairn_grid_width(a), h = cairn_grid_height(a);
  const size_t na = (size_t)cairn_grid_island_count(a) + 1, nb = (size_t)cairn_grid_island_count(b) + 1;
  uint32_t *ab = calloc(na, sizeof *ab), *ba = calloc(nb, sizeof *ba);
  assert_non_null(ab);
  assert_non_null(ba);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      uint32_t la = cairn_grid_island(a, x, y), lb = cairn_grid_island(b, x, y);
      assert_int_equal(la != 0, cairn_grid_cost(a, x, y) != 0);
      if (!la) continue;
      assert_true(la < na && lb < nb && lb != 0);
      if (!ab[la]) ab[la] = lb;
      if (!ba[lb]) ba[lb] = la;
      assert_int_equal(ab[la], lb);
      assert_int_equal(ba[lb], la);
    }
  free(ab);
  free(ba);
}

/* Reveals that open cells merge the faction's islands locally, closing
 * ones relabel: after every reveal of a random sequence over a truth whose
 * walls are raised and torn down meanwhile (doors, breaches, rubble), the
 * faction's islands split its map exactly as a full relabel of the same
 * map does. */
static void reveal_islands_match_relabel(void **state) {
  (void)state;
  uint64_t rng = 0x15a;
  for (int trial = 0; trial < 6; trial++) {
    const int w = 40 + (int)tu_below(&rng, 30), h = 30 + (int)tu_below(&rng, 20);
    cairn_grid *truth = tu_random_grid(&rng, w, h, 25 + 5 * trial, 3);
    cairn_grid *copy = NULL;
    assert_int_equal(cairn_grid_create(w, h, 1, NULL, &copy), CAIRN_OK);
    cairn_knowledge *k = NULL;
    assert_int_equal(cairn_knowledge_create(truth, 1, NULL, &k), CAIRN_OK);
    for (int step = 0; step < 120; step++) {
      /* the truth changes: a few walls torn down, fewer raised */
      int edits = (int)tu_below(&rng, 6);
      for (int e = 0; e < edits; e++) {
        int32_t x = (int32_t)tu_below(&rng, (uint32_t)w), y = (int32_t)tu_below(&rng, (uint32_t)h);
        uint8_t cost = tu_below(&rng, 4) ? (uint8_t)(1 + tu_below(&rng, 3)) : 0;
        assert_int_equal(cairn_grid_set_cost(truth, x, y, cost), CAIRN_OK);
      }
      cairn_rect r = {(int32_t)tu_below(&rng, (uint32_t)w) - 3, (int32_t)tu_below(&rng, (uint32_t)h) - 3,
                      1 + (int32_t)tu_below(&rng, 12), 1 + (int32_t)tu_below(&rng, 12)};
      assert_int_equal(cairn_knowledge_reveal(k, r, NULL), CAIRN_OK);
      const cairn_grid *known = cairn_knowledge_grid(k);
      assert_true(cairn_grid_islands_fresh(known));
      for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
          cairn_rect one = {x, y, 1, 1};
          uint8_t cost = cairn_grid_cost(known, x, y);
          assert_int_equal(cairn_grid_set_rect(copy, one, &cost, 1), CAIRN_OK);
        }
      assert_int_equal(cairn_grid_update_islands(copy), CAIRN_OK);
      assert_same_islands(known, copy);
    }
    cairn_knowledge_destroy(k);
    cairn_grid_destroy(copy);
    cairn_grid_destroy(truth);
  }
  /* a door between two rooms: the reveal merges them into the larger
   * one's label (2) without a relabel, which would have renumbered them
   * as island 1 of 1 */
  static const char *const rows[] = {"...#......", "...#......", "...#......"};
  cairn_grid *truth = tu_grid(rows, 3);
  cairn_knowledge *k = NULL;
  assert_int_equal(cairn_knowledge_create(truth, 1, NULL, &k), CAIRN_OK);
  cairn_rect all = {0, 0, 10, 3}, door = {3, 1, 1, 1};
  assert_int_equal(cairn_knowledge_reveal(k, all, NULL), CAIRN_OK);
  const cairn_grid *known = cairn_knowledge_grid(k);
  assert_int_equal(cairn_grid_island_count(known), 2);
  assert_int_equal(cairn_grid_island(known, 0, 0), 1);
  assert_int_equal(cairn_grid_set_cost(truth, 3, 1, 1), CAIRN_OK);
  int changed = 0;
  assert_int_equal(cairn_knowledge_reveal(k, door, &changed), CAIRN_OK);
  assert_int_equal(changed, 1);
  assert_true(cairn_grid_islands_fresh(known));
  assert_int_equal(cairn_grid_island(known, 0, 0), 2);
  assert_int_equal(cairn_grid_island(known, 3, 1), 2);
  assert_int_equal(cairn_grid_island(known, 9, 2), 2);
  assert_int_equal(cairn_grid_island_count(known), 2); /* the largest label */
  /* two doors in one reveal, the second reached only through the small
   * room the first merges: the big hall (1), a closet (2) below its door,
   * a cellar (3) below the closet's */
  {
    static const char *const rooms[] = {"..........", "..........", "##########",
                                        "###...####", "##########", "#.......##"};
    cairn_grid *t2 = tu_grid(rooms, 6);
    cairn_knowledge *k2 = NULL;
    assert_int_equal(cairn_knowledge_create(t2, 1, NULL, &k2), CAIRN_OK);
    cairn_rect whole = {0, 0, 10, 6}, doors = {4, 2, 1, 3};
    assert_int_equal(cairn_knowledge_reveal(k2, whole, NULL), CAIRN_OK);
    const cairn_grid *kn = cairn_knowledge_grid(k2);
    assert_int_equal(cairn_grid_island_count(kn), 3);
    assert_int_equal(cairn_grid_set_cost(t2, 4, 2, 1), CAIRN_OK);
    assert_int_equal(cairn_grid_set_cost(t2, 4, 4, 1), CAIRN_OK);
    assert_int_equal(cairn_knowledge_reveal(k2, doors, NULL), CAIRN_OK);
    assert_true(cairn_grid_islands_fresh(kn));
    for (int32_t x = 1; x < 8; x++) assert_int_equal(cairn_grid_island(kn, x, 5), 1);
    assert_int_equal(cairn_grid_island(kn, 3, 3), 1);
    assert_int_equal(cairn_grid_island(kn, 9, 0), 1);
    cairn_knowledge_destroy(k2);
    cairn_grid_destroy(t2);
  }
  /* closing it again relabels: two islands, numbered afresh */
  assert_int_equal(cairn_grid_set_cost(truth, 3, 1, 0), CAIRN_OK);
  assert_int_equal(cairn_knowledge_reveal(k, door, NULL), CAIRN_OK);
  assert_int_equal(cairn_grid_island_count(known), 2);
  assert_true(cairn_grid_island(known, 0, 0) != cairn_grid_island(known, 9, 0));
  cairn_knowledge_destroy(k);
  cairn_grid_destroy(truth);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(layered_search_exact),
      cmocka_unit_test(layer_basics),
      cmocka_unit_test(layer_changes),
      cmocka_unit_test(influence_events),
      cmocka_unit_test(carnage_pass),
      cmocka_unit_test(claims_split_corridors),
      cmocka_unit_test(claims_pass_and_radius),
      cmocka_unit_test(knowledge_reveal),
      cmocka_unit_test(reveal_islands_match_relabel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
