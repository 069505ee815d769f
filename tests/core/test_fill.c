/* Dijkstra fills and traces: forward and to-source fills, bounded or not,
 * with targets, against the tests' reference Dijkstra and A*, cell by cell
 * through the traces; grids edited cell by cell and in rectangles keep what
 * the searches read of them. */
#include "test_util.h"
#include "test_search_util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int is_source(const cairn_point *src, size_t n, cairn_point p) {
  for (size_t k = 0; k < n; k++)
    if (src[k].x == p.x && src[k].y == p.y) return 1;
  return 0;
}

/* The trace behind a reached cell of the last fill on s: a walk inside r
 * between the cell and a source whose cost is the cell's g; walking from
 * the cell after a to_sources fill, towards it after a forward one. */
static void check_trace(const cairn_search *s, const cairn_grid *g, int moves,
                        cairn_rect r, const cairn_point *src, size_t n_src,
                        int reverse, cairn_point cell, cairn_cost want,
                        cairn_point *buf, size_t cap) {
  size_t n = 0;
  assert_int_equal(cairn_search_trace(s, cell, buf, cap, &n), CAIRN_OK);
  assert_true(n >= 1 && n <= cap);
  assert_int_equal(buf[0].x, cell.x);
  assert_int_equal(buf[0].y, cell.y);
  assert_true(is_source(src, n_src, buf[n - 1]));
  for (size_t i = 0; i < n; i++)
    if (r.w && r.h) assert_true(in_rect(r, buf[i]));
  if (!reverse)
    for (size_t i = 0, j = n - 1; i < j; i++, j--) {
      cairn_point t = buf[i];
      buf[i] = buf[j];
      buf[j] = t;
    }
  cairn_cost c = reverse ? tu_path_cost(g, buf, n, cell, buf[n - 1], moves)
                         : tu_path_cost(g, buf, n, buf[0], cell, moves);
  assert_true(c == want);
}

/* Every cell after a full fill on s: closed with the reference g where the
 * reference reaches it, fresh elsewhere; the expansions count the closed
 * cells. With `trace`, every reached cell's trace is checked too. */
static void check_full_fill(cairn_search *s, const cairn_grid *g, int moves,
                            cairn_rect r, const cairn_point *src, size_t n_src,
                            int reverse, const cairn_cost *ref, int trace) {
  const int w = cairn_grid_width(g), h = cairn_grid_height(g);
  size_t cap = (size_t)w * (size_t)h, closed = 0;
  cairn_point *buf = malloc(cap * sizeof *buf);
  assert_non_null(buf);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      cairn_node_info info;
      assert_int_equal(cairn_search_cell(s, pt(x, y), &info), CAIRN_OK);
      cairn_cost want = ref[(size_t)y * (size_t)w + (size_t)x];
      if (want == INF) {
        assert_int_equal(info.state, CAIRN_NODE_FRESH);
        assert_true(info.g == INF);
        size_t n = 7;
        assert_int_equal(cairn_search_trace(s, pt(x, y), buf, cap, &n),
                         CAIRN_NO_PATH);
        assert_int_equal(n, 0);
        continue;
      }
      closed++;
      assert_int_equal(info.state, CAIRN_NODE_CLOSED);
      assert_true(info.g == want);
      if (trace)
        check_trace(s, g, moves, r, src, n_src, reverse, pt(x, y), want, buf,
                    cap);
    }
  cairn_result res;
  assert_int_equal(cairn_search_result(s, &res), CAIRN_OK);
  assert_true(res.expanded == closed);
  free(buf);
}

/* Forward fills give every cell the cost from its nearest source, to_sources
 * fills the cost of reaching the nearest source; on terrain costs 1..9 the
 * two differ. Checked against the test's Dijkstra, against A* (bounded, when
 * the fill is), and cell by cell through the traces. */
/* Fills on random maps, forward and to the sources, bounded or not, against
 * the reference fill, A* and the distance map. With uniform terrain every
 * open cell costs the same (the two-queue path, no heap), and forward and
 * to-source fills must then agree; on terrain 1..9 they must differ
 * somewhere. */
static void check_fills(uint64_t rng, bool uniform) {
  cairn_search *s = new_search(), *t = new_search();
  int differ = 0, fills = 0;
  for (int m = 0; m < 16; m++) {
    int w = 6 + (int)tu_below(&rng, 25), h = 6 + (int)tu_below(&rng, 25);
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 30),
                                   uniform ? 1 : 9);
    uint8_t unit = (uint8_t)(1 + m % 3);
    for (int y = 0; uniform && y < h; y++)
      for (int x = 0; x < w; x++)
        if (cairn_grid_cost(g, x, y)) cairn_grid_set_cost(g, x, y, unit);
    const size_t cells = (size_t)w * (size_t)h;
    cairn_cost *fwd = malloc(cells * sizeof *fwd);
    cairn_cost *rev = malloc(cells * sizeof *rev);
    cairn_cost *dm = malloc(cells * sizeof *dm);
    assert_true(fwd && rev && dm);
    int moves = m % 3 == 2 ? 4 : 8;
    cairn_rect r = m % 2 ? random_rect(&rng, g) : rect_of(0, 0, 0, 0);
    cairn_rect area = r.w ? r : rect_of(0, 0, w, h);
    cairn_point src[3];
    size_t n_src = 1 + tu_below(&rng, 3);
    int ok = 1;
    for (size_t k = 0; k < n_src && ok; k++)
      ok = random_open_in(&rng, g, area, &src[k]);
    if (!ok) {
      free(fwd);
      free(rev);
      free(dm);
      cairn_grid_destroy(g);
      continue;
    }
    cairn_search_opts o = opts_of(CAIRN_H_ZERO, moves);
    o.bounds = r;
    /* with queues reserved for the grid, uniform fills skip the room test */
    if (m % 4 == 1) assert_int_equal(cairn_search_reserve_fill(s, g), CAIRN_OK);
    ref_fill(g, moves, r, src, n_src, 0, fwd);
    ref_fill(g, moves, r, src, n_src, 1, rev);
    for (int reverse = 0; reverse < 2; reverse++) {
      assert_int_equal(
          cairn_dijkstra_fill(s, g, src, n_src, NULL, 0, reverse ? 7 : 0, &o),
          CAIRN_OK);
      fills++;
      check_full_fill(s, g, moves, r, src, n_src, reverse, reverse ? rev : fwd,
                      1);
      /* A* from each source (forward) or to each source (to_sources) */
      for (int q = 0; q < 12; q++) {
        cairn_point c;
        random_open_in(&rng, g, area, &c);
        cairn_cost best = INF;
        for (size_t k = 0; k < n_src; k++) {
          cairn_result ar;
          cairn_search_opts ao = opts_of(CAIRN_H_OCTILE, moves);
          ao.bounds = r;
          if (reverse)
            cairn_astar(t, g, c, src[k], &ao, &ar);
          else
            cairn_astar(t, g, src[k], c, &ao, &ar);
          if (ar.cost < best) best = ar.cost;
        }
        cairn_node_info info;
        assert_int_equal(cairn_search_cell(s, c, &info), CAIRN_OK);
        assert_true(info.g == best);
      }
    }
    for (size_t i = 0; i < cells; i++) differ += fwd[i] != rev[i];
    if (!r.w) { /* the distance map is the forward fill */
      assert_int_equal(
          cairn_distance_map(t, g, src, n_src, &o, dm, cells), CAIRN_OK);
      assert_memory_equal(dm, fwd, cells * sizeof *dm);
    }
    free(fwd);
    free(rev);
    free(dm);
    cairn_grid_destroy(g);
  }
  assert_true(fills >= 20);
  if (uniform)
    assert_int_equal(differ, 0);
  else
    assert_true(differ > 0);
  cairn_search_destroy(s);
  cairn_search_destroy(t);
}

static void fill_random(void **state) {
  (void)state;
  check_fills(0xf111, false);
}

/* Grids edited cell by cell and in rectangles keep what searches read of
 * them: after every batch of edits (passability flips, cost changes, a
 * rectangle copied in), fills and A* from random cells agree with the
 * reference Dijkstra, which reads only costs, and the passable count and
 * uniformity match a recount. */
static void edits_keep_grid_state(void **state) {
  uint64_t rng = 0xed17;
  cairn_search *s = *state;
  for (int m = 0; m < 12; m++) {
    int w = 5 + (int)tu_below(&rng, 20), h = 5 + (int)tu_below(&rng, 20);
    int uniform = m % 2;
    cairn_grid *g = tu_random_grid(&rng, w, h, 25, uniform ? 1 : 4);
    const size_t cells = (size_t)w * (size_t)h;
    cairn_cost *ref = malloc(cells * sizeof *ref);
    uint8_t *patch = malloc(cells);
    assert_true(ref && patch);
    for (int batch = 0; batch < 6; batch++) {
      for (int e = 0; e < 8; e++) {
        int x = (int)tu_below(&rng, (uint32_t)w), y = (int)tu_below(&rng, (uint32_t)h);
        uint8_t c = tu_below(&rng, 3) == 0 ? 0 : (uint8_t)(uniform ? 1 : 1 + tu_below(&rng, 4));
        assert_int_equal(cairn_grid_set_cost(g, x, y, c), CAIRN_OK);
      }
      cairn_rect r = random_rect(&rng, g);
      for (size_t k = 0; k < cells; k++)
        patch[k] = tu_below(&rng, 4) == 0 ? 0 : (uint8_t)(uniform ? 1 : 1 + tu_below(&rng, 4));
      assert_int_equal(cairn_grid_set_rect(g, r, patch, (size_t)w), CAIRN_OK);
      for (int y = 0; y < r.h; y++)
        for (int x = 0; x < r.w; x++)
          assert_int_equal(cairn_grid_cost(g, r.x + x, r.y + y),
                           patch[(size_t)y * (size_t)w + (size_t)x]);
      size_t passable = 0;
      int first = 0, distinct = 0;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          int c = cairn_grid_cost(g, x, y);
          passable += c != 0;
          if (c && !first) first = c, distinct = 1;
          else if (c && c != first) distinct = 2;
        }
      assert_int_equal(cairn_grid_passable(g), passable);
      assert_int_equal(cairn_grid_uniform(g), distinct <= 1);
      cairn_point src;
      if (!random_open_in(&rng, g, rect_of(0, 0, w, h), &src)) continue;
      for (int moves = 4; moves <= 8; moves += 4) {
        cairn_search_opts o = opts_of(CAIRN_H_ZERO, moves);
        ref_fill(g, moves, rect_of(0, 0, 0, 0), &src, 1, 0, ref);
        assert_int_equal(cairn_dijkstra_fill(s, g, &src, 1, NULL, 0, 0, &o), CAIRN_OK);
        check_full_fill(s, g, moves, rect_of(0, 0, 0, 0), &src, 1, 0, ref, 0);
      }
    }
    /* refusals leave the grid as it was */
    cairn_rect off = {w - 1, 0, 2, 1};
    assert_int_equal(cairn_grid_set_rect(g, off, patch, (size_t)w), CAIRN_ERR_RANGE);
    cairn_rect neg = {0, 0, -1, 1}, empty = {0, 0, 0, 3}, one = {0, 0, 2, 1};
    assert_int_equal(cairn_grid_set_rect(g, neg, patch, (size_t)w), CAIRN_ERR_ARG);
    assert_int_equal(cairn_grid_set_rect(g, empty, NULL, 0), CAIRN_OK);
    assert_int_equal(cairn_grid_set_rect(g, one, patch, 1), CAIRN_ERR_ARG);
    assert_int_equal(cairn_grid_set_rect(g, one, NULL, 2), CAIRN_ERR_ARG);
    assert_int_equal(cairn_grid_set_rect(NULL, one, patch, 2), CAIRN_ERR_ARG);
    free(ref);
    free(patch);
    cairn_grid_destroy(g);
  }
  assert_int_equal(cairn_grid_uniform(NULL), 0);
  assert_int_equal(cairn_search_reserve_fill(NULL, NULL), CAIRN_ERR_ARG);
}

/* Fills on uniform terrain take the two-queue path (no heap). */
static void fill_uniform(void **state) {
  (void)state;
  check_fills(0xf1f0, true);
}

/* A bounded fill equals the fill of the grid cut down to the rectangle,
 * both directions; nothing outside the rectangle is reached. */
static void fill_bounded_matches_copy(void **state) {
  uint64_t rng = 0xc0b1;
  cairn_search *s = *state, *t = new_search();
  int compared = 0;
  for (int m = 0; m < 30; m++) {
    int w = 5 + (int)tu_below(&rng, 40), h = 5 + (int)tu_below(&rng, 40);
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 35), 9);
    cairn_rect r = random_rect(&rng, g);
    cairn_point src[2];
    if (!random_open_in(&rng, g, r, &src[0])) {
      cairn_grid_destroy(g);
      continue;
    }
    random_open_in(&rng, g, r, &src[1]);
    size_t n_src = 1 + (size_t)(m & 1);
    cairn_point csrc[2] = {pt(src[0].x - r.x, src[0].y - r.y),
                           pt(src[1].x - r.x, src[1].y - r.y)};
    cairn_grid *c = copy_rect(g, r);
    for (int moves = 4; moves <= 8; moves += 4)
      for (int reverse = 0; reverse < 2; reverse++) {
        cairn_search_opts o = opts_of(CAIRN_H_ZERO, moves);
        o.bounds = r;
        assert_int_equal(
            cairn_dijkstra_fill(s, g, src, n_src, NULL, 0, reverse, &o),
            CAIRN_OK);
        o.bounds = rect_of(0, 0, 0, 0);
        assert_int_equal(
            cairn_dijkstra_fill(t, c, csrc, n_src, NULL, 0, reverse, &o),
            CAIRN_OK);
        for (int y = 0; y < h; y++)
          for (int x = 0; x < w; x++) {
            cairn_node_info a, b;
            assert_int_equal(cairn_search_cell(s, pt(x, y), &a), CAIRN_OK);
            if (!in_rect(r, pt(x, y))) {
              assert_int_equal(a.state, CAIRN_NODE_FRESH);
              continue;
            }
            assert_int_equal(
                cairn_search_cell(t, pt(x - r.x, y - r.y), &b), CAIRN_OK);
            assert_int_equal(a.state, b.state);
            assert_true(a.g == b.g);
            compared++;
          }
        cairn_result ra, rb;
        cairn_search_result(s, &ra);
        cairn_search_result(t, &rb);
        assert_true(ra.expanded == rb.expanded);
      }
    cairn_grid_destroy(c);
    cairn_grid_destroy(g);
  }
  assert_true(compared > 5000);
  cairn_search_destroy(t);
}

/* With targets the fill stops once every target is settled: fewer
 * expansions when some reachable cell lies beyond them, every target closed
 * with its final g, and every closed cell final. Targets it can never settle
 * make it run to the end. */
static void fill_targets(void **state) {
  uint64_t rng = 0x7a6e;
  cairn_search *s = *state;
  int early = 0;
  for (int m = 0; m < 24; m++) {
    int w = 8 + (int)tu_below(&rng, 25), h = 8 + (int)tu_below(&rng, 25);
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 30), 9);
    const size_t cells = (size_t)w * (size_t)h;
    cairn_cost *ref = malloc(cells * sizeof *ref);
    assert_non_null(ref);
    int moves = m % 4 == 3 ? 4 : 8, reverse = m & 1;
    cairn_rect r = m % 3 == 0 ? random_rect(&rng, g) : rect_of(0, 0, 0, 0);
    cairn_rect area = r.w ? r : rect_of(0, 0, w, h);
    cairn_point src[2];
    if (!random_open_in(&rng, g, area, &src[0])) {
      free(ref);
      cairn_grid_destroy(g);
      continue;
    }
    random_open_in(&rng, g, area, &src[1]);
    size_t n_src = 1 + (size_t)(m % 5 == 0);
    ref_fill(g, moves, r, src, n_src, reverse, ref);
    cairn_search_opts o = opts_of(CAIRN_H_ZERO, moves);
    o.bounds = r;
    assert_int_equal(
        cairn_dijkstra_fill(s, g, src, n_src, NULL, 0, reverse, &o), CAIRN_OK);
    cairn_result full;
    cairn_search_result(s, &full);
    cairn_cost far = 0; /* the dearest reachable cell */
    for (size_t i = 0; i < cells; i++)
      if (ref[i] != INF && ref[i] > far) far = ref[i];
    cairn_point *buf = malloc(cells * sizeof *buf);
    assert_non_null(buf);
    for (int q = 0; q < 10; q++) {
      /* 1..4 reachable targets, now and then a repeat or a source */
      cairn_point tg[4];
      size_t n_t = 1 + tu_below(&rng, 4);
      cairn_cost most = 0;
      for (size_t k = 0; k < n_t; k++) {
        cairn_point p;
        do random_open_in(&rng, g, area, &p);
        while (ref[(size_t)p.y * (size_t)w + (size_t)p.x] == INF);
        if (k > 0 && tu_below(&rng, 6) == 0) p = tg[k - 1];
        if (tu_below(&rng, 10) == 0) p = src[0];
        tg[k] = p;
        cairn_cost d = ref[(size_t)p.y * (size_t)w + (size_t)p.x];
        if (d > most) most = d;
      }
      assert_int_equal(
          cairn_dijkstra_fill(s, g, src, n_src, tg, n_t, reverse, &o),
          CAIRN_OK);
      cairn_result res;
      assert_int_equal(cairn_search_result(s, &res), CAIRN_OK);
      assert_true(res.expanded <= full.expanded);
      if (most < far) {
        assert_true(res.expanded < full.expanded);
        early++;
      }
      for (size_t k = 0; k < n_t; k++) {
        cairn_node_info info;
        assert_int_equal(cairn_search_cell(s, tg[k], &info), CAIRN_OK);
        assert_int_equal(info.state, CAIRN_NODE_CLOSED);
        cairn_cost want = ref[(size_t)tg[k].y * (size_t)w + (size_t)tg[k].x];
        assert_true(info.g == want);
        check_trace(s, g, moves, r, src, n_src, reverse, tg[k], want, buf,
                    cells);
      }
      size_t closed = 0;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
          cairn_node_info info;
          cairn_search_cell(s, pt(x, y), &info);
          cairn_cost want = ref[(size_t)y * (size_t)w + (size_t)x];
          if (info.state == CAIRN_NODE_CLOSED) {
            closed++;
            assert_true(info.g == want);
            assert_true(want <= most);
          } else if (info.state == CAIRN_NODE_OPEN) {
            assert_true(info.g >= want && want != INF);
          } else {
            assert_true(want == INF || want >= most);
          }
        }
      assert_true(res.expanded == closed);
    }
    /* targets it cannot settle: the fill runs to the end, without error */
    cairn_point never[5];
    size_t n_never = 0;
    never[n_never++] = pt(-1, 0);
    never[n_never++] = pt(w, h - 1);
    for (int y = 0; y < h && n_never < 5; y++)
      for (int x = 0; x < w && n_never < 5; x++) {
        size_t i = (size_t)y * (size_t)w + (size_t)x;
        int blocked = cairn_grid_cost(g, x, y) == 0;
        if (ref[i] == INF && (n_never == 2 ? blocked : !blocked))
          never[n_never++] = pt(x, y); /* a wall, then an unreached cell */
      }
    for (size_t k = 0; k < n_never; k++) {
      cairn_point two[2] = {src[0], never[k]};
      /* off the grid: alone only (see fill_target_off_grid) */
      for (size_t n_t = 1; n_t <= (k < 2 ? 1u : 2u); n_t++) {
        assert_int_equal(cairn_dijkstra_fill(s, g, src, n_src, two + 2 - n_t,
                                             n_t, reverse, &o),
                         CAIRN_OK);
        cairn_result res;
        assert_int_equal(cairn_search_result(s, &res), CAIRN_OK);
        assert_true(res.expanded == full.expanded);
      }
    }
    check_full_fill(s, g, moves, r, src, n_src, reverse, ref, 0);
    free(buf);
    free(ref);
    cairn_grid_destroy(g);
  }
  assert_true(early > 50);
}

/* Targets that can never be settled make a fill run to the end, whatever
 * other targets it has: one outside the bounds does, and so must one off the
 * grid. */
static void fill_target_off_grid(void **state) {
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(5, 1, 1, NULL, &g), CAIRN_OK);
  cairn_search *s = *state;
  cairn_point src = {0, 0};
  cairn_result r;
  cairn_search_opts o = cairn_search_defaults();
  o.bounds = rect_of(0, 0, 3, 1);
  cairn_point out_of_bounds[2] = {{1, 0}, {4, 0}};
  assert_int_equal(
      cairn_dijkstra_fill(s, g, &src, 1, out_of_bounds, 2, 0, &o), CAIRN_OK);
  assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
  assert_true(r.expanded == 3);
  /* one target alone, reachable: the fill stops there */
  assert_int_equal(cairn_dijkstra_fill(s, g, &src, 1, out_of_bounds, 1, 0, NULL),
                   CAIRN_OK);
  assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
  assert_true(r.expanded == 2);
  const cairn_point off[] = {{-1, 0}, {5, 0}, {0, 1}, {0, -1}};
  int stops_early = 0;
  for (size_t k = 0; k < sizeof off / sizeof off[0]; k++) {
    cairn_point two[2] = {{1, 0}, off[k]};
    for (int reverse = 0; reverse < 2; reverse++) {
      assert_int_equal(
          cairn_dijkstra_fill(s, g, &src, 1, two + 1, 1, reverse, NULL),
          CAIRN_OK);
      assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
      assert_true(r.expanded == 5);
      assert_int_equal(
          cairn_dijkstra_fill(s, g, &src, 1, two, 2, reverse, NULL), CAIRN_OK);
      assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
      if (r.expanded != 5) stops_early = 1; /* the bug: it stops at 2 */
    }
  }
  cairn_grid_destroy(g);
  assert_false(stops_early);
}

static void fill_errors(void **state) {
  static const char *const rows[] = {"....#", ".....", "....."};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_search *s = *state;
  cairn_point ok[2] = {{0, 0}, {3, 2}};
  cairn_node_info info;
  assert_int_equal(cairn_dijkstra_fill(s, g, ok, 0, NULL, 0, 0, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_search_cell(s, pt(0, 0), &info), CAIRN_ERR_STATE);
  assert_int_equal(cairn_dijkstra_fill(s, g, NULL, 1, NULL, 0, 0, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_dijkstra_fill(s, NULL, ok, 1, NULL, 0, 0, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_dijkstra_fill(NULL, g, ok, 1, NULL, 0, 0, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_dijkstra_fill(s, g, ok, 1, NULL, 2, 1, NULL),
                   CAIRN_ERR_ARG);
  const cairn_point off[] = {{-1, 0}, {5, 0}, {0, 3}, {0, -1}};
  for (size_t k = 0; k < sizeof off / sizeof off[0]; k++) {
    cairn_point two[2] = {ok[0], off[k]};
    assert_int_equal(cairn_dijkstra_fill(s, g, two, 2, NULL, 0, 0, NULL),
                     CAIRN_ERR_RANGE);
    assert_int_equal(cairn_dijkstra_fill(s, g, two + 1, 1, NULL, 0, 1, NULL),
                     CAIRN_ERR_RANGE);
    assert_int_equal(cairn_search_cell(s, pt(0, 0), &info), CAIRN_ERR_STATE);
  }
  cairn_point wall[2] = {{1, 1}, {4, 0}};
  assert_int_equal(cairn_dijkstra_fill(s, g, wall, 2, NULL, 0, 0, NULL),
                   CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_dijkstra_fill(s, g, wall + 1, 1, NULL, 0, 1, NULL),
                   CAIRN_ERR_BLOCKED);
  size_t n = 9;
  cairn_point buf[4];
  assert_int_equal(cairn_search_trace(s, pt(0, 0), buf, 4, &n),
                   CAIRN_ERR_STATE);
  cairn_search_opts o = cairn_search_defaults();
  o.bounds = rect_of(0, 0, 2, 2);
  assert_int_equal(cairn_dijkstra_fill(s, g, ok, 2, NULL, 0, 0, &o),
                   CAIRN_ERR_RANGE);
  assert_int_equal(cairn_dijkstra_fill(s, g, ok + 1, 1, NULL, 0, 1, &o),
                   CAIRN_ERR_RANGE);
  o.moves = 6;
  assert_int_equal(cairn_dijkstra_fill(s, g, ok, 1, NULL, 0, 0, &o),
                   CAIRN_ERR_ARG);
  /* the heuristic, weight, turn penalty and node limit are ignored */
  cairn_search_opts plain = opts_of(CAIRN_H_ZERO, 8);
  cairn_search_opts odd = plain;
  odd.heuristic = CAIRN_H_MANHATTAN;
  odd.weight = 7;
  odd.turn_penalty = 5;
  odd.max_expanded = 2;
  for (int reverse = 0; reverse < 2; reverse++) {
    cairn_cost want[15];
    assert_int_equal(cairn_dijkstra_fill(s, g, ok, 2, NULL, 0, reverse, &plain),
                     CAIRN_OK);
    for (int i = 0; i < 15; i++) {
      cairn_search_cell(s, pt(i % 5, i / 5), &info);
      want[i] = info.g;
    }
    assert_int_equal(cairn_dijkstra_fill(s, g, ok, 2, NULL, 0, reverse, &odd),
                     CAIRN_OK);
    for (int i = 0; i < 15; i++) {
      cairn_search_cell(s, pt(i % 5, i / 5), &info);
      assert_true(info.g == want[i]);
    }
    assert_true(want[4] == INF); /* the wall */
    assert_true(want[0] == 0 && want[13] == 0);
  }
  /* a source listed twice, and the context works on after refusals */
  cairn_point twice[2] = {{2, 1}, {2, 1}};
  assert_int_equal(cairn_dijkstra_fill(s, g, twice, 2, NULL, 0, 0, NULL),
                   CAIRN_OK);
  assert_int_equal(cairn_search_cell(s, pt(2, 1), &info), CAIRN_OK);
  assert_true(info.g == 0);
  assert_int_equal(cairn_search_cell(s, pt(0, 1), &info), CAIRN_OK);
  assert_true(info.g == 2 * CAIRN_COST_ONE);
  cairn_result r;
  assert_int_equal(cairn_search_result(s, &r), CAIRN_OK);
  assert_true(r.expanded == 14);
  assert_null(r.path);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_OK);
  cairn_grid_destroy(g);
}

/* Traces after A*: reversed, the trace of every reached cell is a path from
 * the start costing that cell's g (open cells of a search in progress
 * included), and the goal's is the result path. Then the errors. */
static void trace_paths_and_errors(void **state) {
  uint64_t rng = 0x77ace;
  cairn_search *s = *state;
  cairn_point buf[64 * 48];
  for (int m = 0; m < 6; m++) {
    cairn_grid *g = tu_random_grid(&rng, 64, 48, 25, 1 + 2 * m);
    for (int q = 0; q < 6; q++) {
      cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
      cairn_search_opts o = opts_of(CAIRN_H_OCTILE, q % 3 == 2 ? 4 : 8);
      if (o.moves == 4) o.heuristic = CAIRN_H_MANHATTAN;
      int sliced = q % 2;
      cairn_result r;
      if (sliced) {
        assert_int_equal(cairn_astar_begin(s, g, a, b, &o), CAIRN_OK);
        cairn_search_step(s, 40);
      } else {
        cairn_astar(s, g, a, b, &o, &r);
      }
      int reached = 0;
      for (int y = 0; y < 48; y++)
        for (int x = 0; x < 64; x++) {
          cairn_node_info info;
          assert_int_equal(cairn_search_cell(s, pt(x, y), &info), CAIRN_OK);
          size_t n = 99;
          cairn_status st = cairn_search_trace(s, pt(x, y), buf, 64 * 48, &n);
          if (info.state == CAIRN_NODE_FRESH) {
            assert_int_equal(st, CAIRN_NO_PATH);
            assert_int_equal(n, 0);
            continue;
          }
          reached++;
          assert_int_equal(st, CAIRN_OK);
          for (size_t i = 0, j = n - 1; i < j; i++, j--) {
            cairn_point t = buf[i];
            buf[i] = buf[j];
            buf[j] = t;
          }
          assert_true(tu_path_cost(g, buf, n, a, pt(x, y), o.moves) == info.g);
        }
      if (!sliced && r.status == CAIRN_OK) {
        size_t n = 0;
        assert_int_equal(cairn_search_trace(s, b, buf, 64 * 48, &n), CAIRN_OK);
        assert_int_equal(n, r.path_len);
        for (size_t i = 0; i < n; i++) {
          assert_int_equal(buf[i].x, r.path[n - 1 - i].x);
          assert_int_equal(buf[i].y, r.path[n - 1 - i].y);
        }
      }
      if (sliced || r.status != CAIRN_NO_PATH) assert_true(reached > 0);
    }
    cairn_grid_destroy(g);
  }

  /* errors, on a corridor */
  static const char *const rows[] = {"......", "#####.", "......"};
  cairn_grid *g = tu_grid(rows, 3);
  cairn_search *fresh = new_search();
  size_t n = 5;
  assert_int_equal(cairn_search_trace(fresh, pt(0, 0), buf, 8, &n),
                   CAIRN_ERR_STATE);
  assert_int_equal(n, 0);
  cairn_result r;
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(0, 2), NULL, &r), CAIRN_OK);
  assert_int_equal(r.path_len, 13); /* 5 right, 2 down, 5 left */
  /* too small: nothing written, n tells the size needed */
  for (size_t i = 0; i < 13; i++) buf[i] = pt(-7, -7);
  assert_int_equal(cairn_search_trace(s, pt(0, 2), buf, 12, &n),
                   CAIRN_ERR_BUFFER);
  assert_int_equal(n, 13);
  for (size_t i = 0; i < 13; i++) assert_int_equal(buf[i].x, -7);
  assert_int_equal(cairn_search_trace(s, pt(0, 2), NULL, 0, &n),
                   CAIRN_ERR_BUFFER);
  assert_int_equal(n, 13);
  assert_int_equal(cairn_search_trace(s, pt(0, 2), buf, 13, &n), CAIRN_OK);
  assert_int_equal(n, 13);
  assert_int_equal(buf[0].x, 0);
  assert_int_equal(buf[0].y, 2);
  assert_int_equal(buf[6].x, 5);
  assert_int_equal(buf[6].y, 1);
  assert_int_equal(buf[12].x, 0);
  assert_int_equal(buf[12].y, 0);
  /* the start alone: one point */
  assert_int_equal(cairn_search_trace(s, pt(0, 0), buf, 1, &n), CAIRN_OK);
  assert_int_equal(n, 1);
  assert_int_equal(cairn_search_trace(s, pt(0, 0), NULL, 0, &n),
                   CAIRN_ERR_BUFFER);
  assert_int_equal(n, 1);
  /* blocked and off the grid */
  assert_int_equal(cairn_search_trace(s, pt(0, 1), buf, 12, &n), CAIRN_NO_PATH);
  assert_int_equal(n, 0);
  const cairn_point off[] = {{-1, 0}, {6, 0}, {0, 3}, {0, -1}};
  for (size_t k = 0; k < sizeof off / sizeof off[0]; k++) {
    n = 3;
    assert_int_equal(cairn_search_trace(s, off[k], buf, 12, &n),
                     CAIRN_ERR_RANGE);
    assert_int_equal(n, 0);
  }
  assert_int_equal(cairn_search_trace(s, pt(0, 2), buf, 12, NULL),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_search_trace(NULL, pt(0, 2), buf, 12, &n),
                   CAIRN_ERR_ARG);
  /* a goal answered by the islands: nothing reached, not even the start */
  assert_int_equal(cairn_grid_set_cost(g, 5, 1, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(0, 2), NULL, &r),
                   CAIRN_NO_PATH);
  assert_int_equal(cairn_search_trace(s, pt(0, 0), buf, 12, &n),
                   CAIRN_NO_PATH);
  /* a refused query leaves nothing to trace */
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(0, 1), NULL, &r),
                   CAIRN_ERR_BLOCKED);
  assert_int_equal(cairn_search_trace(s, pt(0, 0), buf, 12, &n),
                   CAIRN_ERR_STATE);
  /* nor does a graph search */
  cairn_graph_edge e = {0, 1, 1.0};
  cairn_graph_desc d;
  memset(&d, 0, sizeof d);
  d.n_nodes = 2;
  d.n_edges = 1;
  d.edges = &e;
  cairn_graph *graph = NULL;
  assert_int_equal(cairn_graph_create(&d, NULL, &graph), CAIRN_OK);
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(5, 0), NULL, &r), CAIRN_OK);
  assert_int_equal(cairn_search_trace(s, pt(5, 0), buf, 12, &n), CAIRN_OK);
  assert_int_equal(cairn_graph_astar(s, graph, 0, 1, NULL, &r), CAIRN_OK);
  n = 4;
  assert_int_equal(cairn_search_trace(s, pt(0, 0), buf, 12, &n),
                   CAIRN_ERR_STATE);
  assert_int_equal(n, 0);
  cairn_node_info info;
  assert_int_equal(cairn_search_cell(s, pt(0, 0), &info), CAIRN_ERR_STATE);
  cairn_graph_destroy(graph);
  assert_string_equal(cairn_status_str(CAIRN_ERR_BUFFER), "buffer too small");
  assert_int_equal(CAIRN_ERR_BUFFER, -10);
  cairn_search_destroy(fresh);
  cairn_grid_destroy(g);
}

/* A to_sources fill is the integration field of a flow field: from any
 * cell, following the trace walks to a source and pays exactly g, and going
 * down the field (each step to the traced neighbour) g falls by each step's
 * cost. On a swamp, the two directions differ. */
static void trace_to_sources(void **state) {
  static const char *const rows[] = {
      "1111111",
      "1999991",
      "1915191",
      "1999991",
      "1111111",
  };
  cairn_grid *g = tu_grid(rows, 5);
  cairn_search *s = *state;
  cairn_point src = {3, 2}; /* a cost-5 cell in a pocket of the swamp */
  cairn_point buf[40];
  size_t n = 0;
  assert_int_equal(cairn_dijkstra_fill(s, g, &src, 1, NULL, 0, 0, NULL),
                   CAIRN_OK);
  cairn_node_info out, in;
  assert_int_equal(cairn_search_cell(s, pt(0, 0), &out), CAIRN_OK);
  assert_int_equal(cairn_dijkstra_fill(s, g, &src, 1, NULL, 0, 1, NULL),
                   CAIRN_OK);
  assert_int_equal(cairn_search_cell(s, pt(0, 0), &in), CAIRN_OK);
  /* out of the pocket: into (2, 2), a 9 and the ring; into it: a 9, (2, 2)
   * and the source's 5 */
  cairn_search *t = new_search();
  cairn_result ra, rb;
  assert_int_equal(cairn_astar(t, g, src, pt(0, 0), NULL, &ra), CAIRN_OK);
  assert_int_equal(cairn_astar(t, g, pt(0, 0), src, NULL, &rb), CAIRN_OK);
  assert_true(out.g == ra.cost);
  assert_true(in.g == rb.cost);
  assert_true(in.g != out.g);
  for (int y = 0; y < 5; y++)
    for (int x = 0; x < 7; x++) {
      assert_int_equal(cairn_search_trace(s, pt(x, y), buf, 40, &n), CAIRN_OK);
      cairn_node_info info;
      cairn_search_cell(s, pt(x, y), &info);
      assert_int_equal(buf[n - 1].x, src.x);
      assert_int_equal(buf[n - 1].y, src.y);
      assert_true(tu_path_cost(g, buf, n, pt(x, y), src, 8) == info.g);
      if (n > 1) { /* the field falls along the trace */
        cairn_node_info next;
        cairn_search_cell(s, buf[1], &next);
        assert_true(next.g < info.g);
      }
    }
  cairn_search_destroy(t);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      tu_with_search(edits_keep_grid_state),
      cmocka_unit_test(fill_random),
      cmocka_unit_test(fill_uniform),
      tu_with_search(fill_bounded_matches_copy),
      tu_with_search(fill_targets),
      tu_with_search(fill_target_off_grid),
      tu_with_search(fill_errors),
      tu_with_search(trace_paths_and_errors),
      tu_with_search(trace_to_sources),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
