/* Dead-end tables (cairn_dead_ends, opts.dead_ends): every area is joined
 * to the rest through its gate alone, a cell or a door (a straight run at
 * the cheapest terrain between walls); A*, jump point search and jump
 * tables that skip them give Dijkstra's cost on random room-and-corridor
 * maps, under search options, with landmarks, sliced, and under a layer
 * or avoided cells that make walking along a door dearer than a detour
 * behind it; after random edits an update equals a fresh table, whether
 * it searched the whole grid or only the dead end the edit lay in, and a
 * wall that leaves the areas as they were leaves their ids; the swamps in the corners of large rooms, skipped at Dijkstra's cost with
 * fewer expansions; the counts on a drawn map; the refusals; out of
 * memory. */
#include "search_internal.h"
#include "test_util.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cairn_dead_ends *table(const cairn_grid *g) {
  cairn_dead_ends *de;
  assert_int_equal(cairn_dead_ends_create(g, NULL, &de), CAIRN_OK);
  return de;
}

/* The grid's cheapest terrain among its open cells: what doors are made
 * of. */
static uint8_t cheapest(const cairn_grid *g) {
  uint8_t least = 1;
  while (!g->by_cost[least]) least++;
  return least;
}

/* Whether the door of len cells from u by step fronts pillars: on a line
 * beside it, walls at both its ends and two openings or more between. */
static bool fronts_pillars(const cairn_grid *g, uint32_t u, uint32_t step, unsigned len) {
  const uint32_t across = step == 1u ? (uint32_t)g->stride : 1u;
  for (int side = 0; side < 2; side++) {
    const uint32_t l = side ? u + across : u - across;
    if (g->cost[l] || g->cost[l + (len - 1) * step]) continue;
    unsigned openings = 0;
    for (unsigned i = 1; i < len; i++) openings += g->cost[l + i * step] && !g->cost[l + (i + 1) * step];
    if (openings >= 2) return true;
  }
  return false;
}

/* The cells of area a's gate into gate[] (at most CAIRN__DE_MAX_DOOR):
 * one cell, or a door, which must be a straight run of 2 or more cells at
 * the grid's cheapest terrain with walls at both ends, or one that fronts
 * pillars. */
static unsigned gate_cells(const cairn_grid *g, const cairn_dead_ends *de, uint32_t a,
                           uint32_t *gate) {
  const uint32_t u = de->gate[a];
  const unsigned len = de->door[a] ? de->door[a] & CAIRN__DE_DOOR_LEN : 1u;
  const uint32_t step = de->door[a] & CAIRN__DE_DOOR_DOWN ? (uint32_t)g->stride : 1u;
  if (len == 1) {
    gate[0] = u;
    return 1;
  }
  assert_true(len >= 2 && len <= CAIRN__DE_MAX_DOOR);
  const uint8_t least = cheapest(g);
  assert_true((g->cost[u - step] == 0 && g->cost[u + len * step] == 0) ||
              fronts_pillars(g, u, step, len));
  for (unsigned i = 0; i < len; i++) {
    gate[i] = u + i * step;
    assert_int_equal(g->cost[gate[i]], least);
  }
  return len;
}

/* Every area is what the header says: the open cells of it and of the
 * areas nested in it reach no other cell without passing its gate (a
 * flood from them that never enters the gate stays inside), and the gate
 * lies outside and next to them. Also the counts. */
static void assert_sound(const cairn_grid *g, const cairn_dead_ends *de) {
  const size_t n = g->padded;
  uint32_t *queue = malloc(n * sizeof *queue);
  uint8_t *seen = malloc(n);
  assert_non_null(queue);
  assert_non_null(seen);
  size_t cells = 0, open = 0;
  for (size_t c = 0; c < n; c++) open += g->cost[c] != 0;
  for (uint32_t a = 1; a <= de->count; a++) {
    assert_true(de->end[a] > a && de->end[a] <= de->count + 1);
    const uint32_t u = de->gate[a];
    if (u == UINT32_MAX) continue;
    cells += de->cells[a];
    uint32_t gate[CAIRN__DE_MAX_DOOR];
    const unsigned n_gate = gate_cells(g, de, a, gate);
    for (unsigned i = 0; i < n_gate; i++) {
      assert_true(g->cost[gate[i]] != 0);
      const uint32_t ua = de->area[gate[i]];
      assert_false(ua >= a && ua < de->end[a]); /* the gate is outside */
    }
    memset(seen, 0, n);
    size_t head = 0, tail = 0;
    for (size_t c = 0; c < n; c++)
      if (g->cost[c] && de->area[c] >= a && de->area[c] < de->end[a]) {
        seen[c] = 1;
        queue[tail++] = (uint32_t)c;
      }
    const size_t inside = tail;
    bool touches_gate = false;
    while (head < tail) {
      const uint32_t c = queue[head++];
      for (unsigned m = g->moves[c]; m; m &= m - 1) {
        const int d = cairn__ctz(m);
        const uint32_t nb = (uint32_t)((int32_t)c + cairn__dx[d] + cairn__dy[d] * g->stride);
        bool in_gate = false;
        for (unsigned i = 0; i < n_gate; i++) in_gate |= nb == gate[i];
        if (in_gate) {
          touches_gate = true;
          continue;
        }
        if (!seen[nb]) {
          seen[nb] = 1;
          queue[tail++] = nb;
        }
      }
    }
    if (tail != inside) fail_msg("area %u leaks past its gate: %zu cells, %zu", a, inside, tail);
    assert_true(touches_gate);
  }
  cairn_dead_ends_stats st;
  assert_int_equal(cairn_dead_ends_get_stats(de, &st), CAIRN_OK);
  assert_int_equal(st.cells, cells);
  assert_int_equal(st.open, open);
  free(queue);
  free(seen);
}

static void areas_are_sound(void **state) {
  (void)state;
  uint64_t rng = 5;
  for (int m = 0; m < 24; m++) {
    cairn_grid *g = m % 3 == 2 ? tu_random_grid(&rng, 20 + m, 15 + m, 35 + m, 3)
                               : tu_rooms(&rng, 20 + 3 * m, 12 + 2 * m, 30 + 3 * m, 1 + m % 4);
    cairn_dead_ends *de = table(g);
    assert_true(cairn_dead_ends_current(de));
    assert_sound(g, de);
    cairn_dead_ends_destroy(de);
    cairn_grid_destroy(g);
  }
}

/* Halls, a room behind a door (row 6, entered at (4,5)), and behind that
 * room, down a winding passage, another room (row 8): a dead end nested
 * in a dead end. */
static void counts_on_a_drawn_map(void **state) {
  (void)state;
  static const char *const rows[] = {
      "##########", /* 0 */
      "#........#", /* 1 */
      "#.######.#", /* 2 */
      "#.######.#", /* 3 */
      "#......#.#", /* 4 */
      "####.###.#", /* 5 */
      "#......#.#", /* 6 */
      "#.######.#", /* 7 */
      "#.#....#.#", /* 8 */
      "#.#.####.#", /* 9 */
      "#...######", /* 10 */
  };
  cairn_grid *g = tu_grid(rows, 11);
  cairn_dead_ends *de = table(g);
  assert_sound(g, de);
  cairn_dead_ends_stats st;
  assert_int_equal(cairn_dead_ends_get_stats(de, &st), CAIRN_OK);
  assert_true(st.areas >= 2);
  assert_true(st.depth >= 2);
  /* (4,8) is the room behind the room: a dead end nested in another */
  const uint32_t inner = cairn_dead_ends_area(de, 4, 8);
  const uint32_t outer = cairn_dead_ends_area(de, 3, 6);
  assert_true(inner != 0);
  assert_true(outer != 0);
  assert_true(inner != outer);
  assert_true(de->depth[inner] > de->depth[outer]);
  /* off the map, blocked, NULL */
  assert_int_equal(cairn_dead_ends_area(de, -1, 0), 0);
  assert_int_equal(cairn_dead_ends_area(de, 0, 0), 0);
  assert_int_equal(cairn_dead_ends_area(NULL, 1, 1), 0);
  assert_true(cairn_dead_ends_memory(de) > g->padded * 4);
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
}

/* A* with the table under options o, and with o's plain form jump point
 * search with and without jump tables, from a to b against Dijkstra. */
static void check_pair(cairn_search *s, cairn_search *ref, const cairn_grid *g,
                       const cairn_dead_ends *de, const cairn_jumps *jt,
                       const cairn_search_opts *base, cairn_point a, cairn_point b) {
  cairn_search_opts o = *base;
  cairn_result want = tu_dijkstra(ref, g, a, b, &o), got;
  const int size = o.size ? o.size : 1;
  const bool terrain_only = size <= 1 && !o.penalty; /* what tu_path_cost adds up */
  tu_agrees(g, "astar without", cairn_astar(s, g, a, b, &o, &got), &got, &want, a, b, o.moves,
            terrain_only);
  o.dead_ends = de;
  tu_agrees(g, "astar", cairn_astar(s, g, a, b, &o, &got), &got, &want, a, b, o.moves,
            terrain_only);
  if (!jt || o.moves != 8 || size != 1 || o.bounds.w || o.penalty || o.n_avoid) return;
  tu_agrees(g, "jps", cairn_jps(s, g, a, b, &o, &got), &got, &want, a, b, 8, true);
  tu_agrees(g, "jps+", cairn_jps_plus(s, jt, a, b, &o, &got), &got, &want, a, b, 8, true);
}

static void searches_equal_dijkstra(void **state) {
  cairn_search *s = *state, *ref;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 23;
  for (int m = 0; m < 16; m++) {
    const int terrain = m % 2 ? 1 : 6;
    cairn_grid *g = m % 4 == 3 ? tu_random_grid(&rng, 40, 30, 38, terrain)
                               : tu_rooms(&rng, 30 + 4 * m, 20 + 3 * m, 45 + 3 * m, terrain);
    if (!cairn_grid_passable(g)) {
      cairn_grid_destroy(g);
      continue;
    }
    cairn_dead_ends *de = table(g);
    cairn_jumps *jt = NULL;
    if (cairn_grid_uniform(g)) assert_int_equal(cairn_jumps_create(g, NULL, &jt), CAIRN_OK);
    cairn_landmarks *lm;
    assert_int_equal(cairn_landmarks_create(g, NULL, NULL, &lm), CAIRN_OK);
    /* a layer dear on the inner cells of every door of 3 or more: from
     * one end of such a door to the other, a detour behind it is then
     * cheaper than walking along it, so a search under the layer must not
     * skip what lies behind doors */
    cairn_penalty *pen;
    assert_int_equal(cairn_penalty_create(g, NULL, &pen), CAIRN_OK);
    cairn_point ends[64][2];
    int n_ends = 0;
    for (uint32_t a = 1; a <= de->count; a++) {
      const unsigned len = de->door[a] & CAIRN__DE_DOOR_LEN;
      if (len < 3) continue;
      const uint32_t u = de->gate[a];
      const uint32_t step = de->door[a] & CAIRN__DE_DOOR_DOWN ? (uint32_t)g->stride : 1u;
      const cairn_point at = cairn__grid_point(g, u);
      const int32_t x = at.x, y = at.y;
      const int32_t dx = step == 1 ? 1 : 0, dy = step == 1 ? 0 : 1;
      for (unsigned i = 1; i + 1 < len; i++)
        assert_int_equal(cairn_penalty_add(pen, x + dx * (int32_t)i, y + dy * (int32_t)i,
                                           20 * (int64_t)CAIRN_COST_ONE),
                         CAIRN_OK);
      if (n_ends < 64) {
        ends[n_ends][0] = pt(x, y);
        ends[n_ends++][1] = pt(x + dx * (int32_t)(len - 1), y + dy * (int32_t)(len - 1));
      }
    }
    /* likewise, avoided cells in the doors' middles */
    cairn_point avoid[64];
    for (int e = 0; e < n_ends; e++)
      avoid[e] = pt((ends[e][0].x + ends[e][1].x) / 2, (ends[e][0].y + ends[e][1].y) / 2);
    for (int v = 0; v < 7; v++) {
      cairn_search_opts o = cairn_search_defaults();
      if (v == 1) o.moves = 4;
      if (v == 2) o.bounds = (cairn_rect){3, 2, cairn_grid_width(g) - 5, cairn_grid_height(g) - 4};
      if (v == 3) o.landmarks = lm;
      if (v == 4) o.size = 2;
      if (v == 5) o.penalty = pen;
      if (v == 6) {
        o.avoid = avoid;
        o.n_avoid = (size_t)n_ends;
      }
      for (int q = 0; q < 30; q++) {
        cairn_point a = v == 4 ? tu_fitting(&rng, g, 2) : tu_random_open(&rng, g);
        cairn_point b = v == 4 ? tu_fitting(&rng, g, 2) : tu_random_open(&rng, g);
        if (a.x < 0 || b.x < 0) continue;
        if (v == 2 && !(a.x >= 3 && a.y >= 2 && a.x < cairn_grid_width(g) - 2 &&
                        a.y < cairn_grid_height(g) - 2 && b.x >= 3 && b.y >= 2 &&
                        b.x < cairn_grid_width(g) - 2 && b.y < cairn_grid_height(g) - 2))
          continue;
        check_pair(s, ref, g, de, v == 0 || v == 3 ? jt : NULL, &o, a, b);
      }
      if (v >= 5)
        for (int e = 0; e < n_ends; e++) check_pair(s, ref, g, de, NULL, &o, ends[e][0], ends[e][1]);
    }
    cairn_penalty_destroy(pen);
    cairn_landmarks_destroy(lm);
    cairn_jumps_destroy(jt);
    cairn_dead_ends_destroy(de);
    cairn_grid_destroy(g);
  }
  cairn_search_destroy(ref);
}

/* Fills with the table: every target costs what it costs without, from
 * one source or several, forward and to the sources, on one terrain (the
 * FIFO fills) and several (the heap's), with ends on one or two chains of
 * nested areas (the start and goal test) or on more (the marks); a fill
 * with no target leaves the cells of the skipped areas unreached and
 * reaches every other one at its cost. */
static void fills_equal_without(void **state) {
  cairn_search *s = *state, *ref;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 71;
  int skipped = 0;
  for (int m = 0; m < 8; m++) {
    cairn_grid *g = tu_rooms(&rng, 30 + 3 * m, 24 + 2 * m, 40 + 4 * m, m % 2 ? 1 : 5);
    cairn_dead_ends *de = table(g);
    const int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
    for (int q = 0; q < 24; q++) {
      cairn_point src[3], tgt[6];
      const size_t ns = 1 + tu_below(&rng, 3), nt = q % 4 ? tu_below(&rng, 7) : 0;
      for (size_t k = 0; k < ns; k++) src[k] = tu_random_open(&rng, g);
      for (size_t k = 0; k < nt; k++) tgt[k] = tu_random_open(&rng, g);
      const int back = q % 3 == 0;
      cairn_search_opts o = cairn_search_defaults();
      assert_int_equal(cairn_dijkstra_fill(ref, g, src, ns, tgt, nt, back, &o), CAIRN_OK);
      o.dead_ends = de;
      assert_int_equal(cairn_dijkstra_fill(s, g, src, ns, tgt, nt, back, &o), CAIRN_OK);
      for (size_t k = 0; k < nt; k++) {
        cairn_node_info want, got;
        cairn_search_cell(ref, tgt[k], &want);
        cairn_search_cell(s, tgt[k], &got);
        assert_int_equal(got.state == CAIRN_NODE_CLOSED, want.state == CAIRN_NODE_CLOSED);
        if (want.state == CAIRN_NODE_CLOSED) assert_int_equal(got.g, want.g);
      }
      if (nt) continue;
      for (int32_t y = 0; y < h; y++)
        for (int32_t x = 0; x < w; x++) {
          cairn_node_info want, got;
          cairn_search_cell(ref, pt(x, y), &want);
          cairn_search_cell(s, pt(x, y), &got);
          if (got.state == CAIRN_NODE_CLOSED) {
            assert_int_equal(got.g, want.g);
            continue;
          }
          if (want.state != CAIRN_NODE_CLOSED) continue;
          /* unreached with the table: in an area none of the sources is in */
          const uint32_t y_area = de->area[cairn__grid_index(g, x, y)];
          assert_true(cairn__de_bit(de->dead_bits, cairn__grid_index(g, x, y)));
          for (size_t k = 0; k < ns; k++) {
            const uint32_t sa = de->area[cairn__grid_index(g, src[k].x, src[k].y)];
            assert_false(y_area <= sa && sa < de->end[y_area]);
          }
          skipped++;
        }
    }
    cairn_dead_ends_destroy(de);
    cairn_grid_destroy(g);
  }
  assert_true(skipped > 0); /* the fills did leave areas out */
  cairn_search_destroy(ref);
}

/* Sliced by one expansion at a time, the same answer as in one call. */
static void sliced_equals_whole(void **state) {
  cairn_search *s = *state;
  uint64_t rng = 41;
  cairn_grid *g = tu_rooms(&rng, 60, 40, 55, 1);
  cairn_dead_ends *de = table(g);
  cairn_search_opts o = cairn_search_defaults();
  o.dead_ends = de;
  for (int q = 0; q < 20; q++) {
    cairn_point a = tu_random_open(&rng, g), b = tu_random_open(&rng, g);
    cairn_result whole, part;
    cairn_status want = cairn_astar(s, g, a, b, &o, &whole);
    const cairn_cost cost = whole.cost;
    const uint64_t expanded = whole.expanded;
    assert_int_equal(cairn_astar_begin(s, g, a, b, &o), CAIRN_OK);
    cairn_status st;
    while ((st = cairn_search_step(s, 1)) == CAIRN_IN_PROGRESS) continue;
    assert_int_equal(st, want);
    assert_int_equal(cairn_search_result(s, &part), st);
    if (st == CAIRN_OK) assert_int_equal(part.cost, cost);
    assert_int_equal(part.expanded, expanded);
  }
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
}

/* Fewer expansions where rooms hang off the way: a corridor from west to
 * east with a room behind a door every few cells along it. */
static void skips_the_rooms_beside_the_way(void **state) {
  cairn_search *s = *state;
  char text[9][62];
  const char *rows[9];
  for (int y = 0; y < 9; y++) {
    for (int x = 0; x < 61; x++) {
      char c = '#';
      if (y == 4) c = '.';                               /* the corridor */
      if ((y >= 1 && y <= 2) || (y >= 6 && y <= 7)) c = x % 6 ? '.' : '#'; /* rooms */
      if ((y == 3 || y == 5) && x % 6 == 3) c = '.';     /* their doors */
      if (x == 0 || x == 60 || y == 0 || y == 8) c = '#';
      text[y][x] = c;
    }
    text[y][61] = 0;
    rows[y] = text[y];
  }
  cairn_grid *g = tu_grid(rows, 9);
  cairn_dead_ends *de = table(g);
  cairn_dead_ends_stats st;
  assert_int_equal(cairn_dead_ends_get_stats(de, &st), CAIRN_OK);
  /* ten rooms each side, each its own area behind its door (the
   * corridor's cells count too: each end of it hangs off the rest); each
   * room column off the door's is a door of two cells (between the walls
   * of rows 0 and 3), and the columns farther from the door hang off it */
  assert_true(st.areas >= 20);
  assert_true(st.doors >= 40);
  for (int32_t x = 1; x < 60; x++)
    if (x % 6) {
      assert_true(cairn_dead_ends_area(de, x, 1) != 0);
      if (x % 6 != 3) /* the door's column enters through (x, 2) alone */
        assert_int_equal(cairn_dead_ends_area(de, x, 1), cairn_dead_ends_area(de, x, 2));
      if (x % 6 == 1 || x % 6 == 5) /* the outer columns: behind their neighbours */
        assert_true(cairn_dead_ends_area(de, x, 1) != cairn_dead_ends_area(de, x + (x % 6 == 1 ? 1 : -1), 1));
    }
  cairn_search_opts o = cairn_search_defaults();
  o.heuristic = CAIRN_H_ZERO; /* Dijkstra: it would fill every room */
  cairn_result plain, skipping;
  assert_int_equal(cairn_astar(s, g, pt(1, 4), pt(59, 4), &o, &plain), CAIRN_OK);
  const uint64_t all = plain.expanded;
  o.dead_ends = de;
  assert_int_equal(cairn_astar(s, g, pt(1, 4), pt(59, 4), &o, &skipping), CAIRN_OK);
  assert_int_equal(skipping.cost, plain.cost);
  assert_int_equal(skipping.expanded, 59); /* the corridor alone */
  assert_true(all > 3 * skipping.expanded);
  /* a goal inside a room: that room is searched, the others not */
  assert_int_equal(cairn_astar(s, g, pt(1, 4), pt(32, 1), &o, &skipping), CAIRN_OK);
  o.dead_ends = NULL;
  assert_int_equal(cairn_astar(s, g, pt(1, 4), pt(32, 1), &o, &plain), CAIRN_OK);
  assert_int_equal(skipping.cost, plain.cost);
  assert_true(skipping.expanded < plain.expanded);
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
}


/* Whether tables a and b put every cell but skip in the same areas, each
 * behind the same gate at the same depth, ids aside (one id of a always
 * stands for one id of b). */
static bool same_areas(const cairn_dead_ends *a, const cairn_dead_ends *b, uint32_t skip,
                       uint32_t *map) {
  if (a->count != b->count) return false;
  for (uint32_t i = 0; i <= a->count; i++) map[i] = UINT32_MAX;
  for (size_t c = 0; c < a->padded; c++) {
    if (c == skip) continue;
    const uint32_t x = a->area[c], y = b->area[c];
    if (map[x] == UINT32_MAX) map[x] = y;
    else if (map[x] != y) return false;
  }
  for (uint32_t x = 1; x <= a->count; x++)
    if (map[x] != UINT32_MAX && map[x] &&
        (a->gate[x] != b->gate[map[x]] || a->depth[x] != b->depth[map[x]]))
      return false;
  return true;
}

/* A wall in the part of an island in no dead end sends the search on
 * another route through that part; where it leaves the areas as they were
 * (ids aside), it leaves every id as it was too. */
static void ids_follow_the_areas(void **state) {
  (void)state;
  uint64_t rng = 5;
  int kept = 0;
  for (int map = 0; map < 6; map++) {
    cairn_grid *g = map % 2 ? tu_rooms(&rng, 64, 48, 90, 1) : tu_random_grid(&rng, 64, 48, 25, 1);
    cairn_dead_ends *before = table(g);
    uint32_t *ids = malloc(((size_t)before->count + 1) * sizeof *ids);
    assert_non_null(ids);
    for (int e = 0; e < 40; e++) {
      cairn_point p = tu_random_open(&rng, g);
      const uint32_t c = (uint32_t)cairn__grid_index(g, p.x, p.y);
      if (before->gate[before->area[c]] != UINT32_MAX) continue; /* inside a dead end */
      assert_int_equal(cairn_grid_set_cost(g, p.x, p.y, 0), CAIRN_OK);
      cairn_dead_ends *after = table(g);
      if (same_areas(before, after, c, ids)) {
        kept++;
        for (size_t i = 0; i < before->padded; i++)
          if (i != c && before->area[i] != after->area[i])
            fail_msg("map %d, wall at %d,%d: areas kept, ids moved", map, p.x, p.y);
      }
      cairn_dead_ends_destroy(after);
      assert_int_equal(cairn_grid_set_cost(g, p.x, p.y, 1), CAIRN_OK);
    }
    free(ids);
    cairn_dead_ends_destroy(before);
    cairn_grid_destroy(g);
  }
  assert_true(kept >= 20); /* the case came up */
}

/* Terrain edits that open or close no cell and move none into or out of
 * the cheapest terrain keep the table without a search; those that do
 * search again. Either way the table equals a fresh one. */
static void terrain_edits_keep_the_table(void **state) {
  (void)state;
  uint64_t rng = 91;
  cairn_grid *g = tu_rooms(&rng, 48, 34, 55, 4); /* terrain 1..4: doors at 1 */
  cairn_dead_ends *de = table(g);
  for (int round = 0; round < 40; round++) {
    const uint64_t finds = de->finds;
    const bool shape = round % 4 == 3; /* a cell into or out of terrain 1 */
    for (int e = 0; e < 1 + round % 5; e++) {
      cairn_point p = tu_random_open(&rng, g);
      const uint8_t was = cairn_grid_cost(g, p.x, p.y);
      uint8_t to = (uint8_t)(2 + tu_below(&rng, 7));
      if (shape) to = was == 1 ? 3 : 1;
      else if (was == 1) continue; /* a terrain-1 cell stays at 1 */
      assert_int_equal(cairn_grid_set_cost(g, p.x, p.y, to), CAIRN_OK);
    }
    assert_int_equal(cairn_dead_ends_update(de), CAIRN_OK);
    assert_true(cairn_dead_ends_current(de));
    if (!shape) assert_int_equal(de->finds, finds);
    cairn_dead_ends *fresh = table(g);
    assert_int_equal(de->count, fresh->count);
    assert_memory_equal(de->area, fresh->area, g->padded * sizeof *de->area);
    assert_memory_equal(de->end + 1, fresh->end + 1, de->count * sizeof *de->end);
    assert_memory_equal(de->gate + 1, fresh->gate + 1, de->count * sizeof *de->gate);
    assert_memory_equal(de->door + 1, fresh->door + 1, de->count);
    assert_memory_equal(&de->stats, &fresh->stats, sizeof de->stats);
    cairn_dead_ends_destroy(fresh);
  }
  /* a wall: a search again, of the whole grid or of one dead end */
  const uint64_t finds = de->finds + de->locals;
  cairn_point p = tu_random_open(&rng, g);
  assert_int_equal(cairn_grid_set_cost(g, p.x, p.y, 0), CAIRN_OK);
  assert_int_equal(cairn_dead_ends_update(de), CAIRN_OK);
  assert_int_equal(de->finds + de->locals, finds + 1);
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
}

/* After random edits, an update gives what a fresh table gives; between
 * the edit and the update, searches refuse the table. */
static void update_equals_fresh(void **state) {
  cairn_search *s = *state;
  uint64_t rng = 77;
  cairn_grid *g = tu_rooms(&rng, 50, 36, 50, 1);
  cairn_dead_ends *de = table(g);
  cairn_search_opts o = cairn_search_defaults();
  o.dead_ends = de;
  for (int round = 0; round < 30; round++) {
    for (int e = 0; e < 1 + round % 4; e++) {
      cairn_point p = pt((int32_t)tu_below(&rng, 50), (int32_t)tu_below(&rng, 36));
      const uint8_t was = cairn_grid_cost(g, p.x, p.y);
      assert_int_equal(cairn_grid_set_cost(g, p.x, p.y, was ? 0 : 1), CAIRN_OK);
    }
    assert_false(cairn_dead_ends_current(de));
    cairn_point a = tu_random_open(&rng, g);
    cairn_result r;
    assert_int_equal(cairn_astar(s, g, a, a, &o, &r), CAIRN_ERR_STATE);
    assert_int_equal(cairn_dead_ends_update(de), CAIRN_OK);
    cairn_dead_ends *fresh = table(g);
    assert_int_equal(de->count, fresh->count);
    assert_memory_equal(de->area, fresh->area, g->padded * sizeof *de->area);
    assert_memory_equal(de->end + 1, fresh->end + 1, de->count * sizeof *de->end);
    assert_memory_equal(de->gate + 1, fresh->gate + 1, de->count * sizeof *de->gate);
    assert_memory_equal(&de->stats, &fresh->stats, sizeof de->stats);
    assert_sound(g, de);
    cairn_dead_ends_destroy(fresh);
  }
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
}

/* The table equals a fresh one, field for field (the root areas' first
 * cells too), and is sound. */
static void assert_fresh(const cairn_grid *g, const cairn_dead_ends *de) {
  cairn_dead_ends *fresh = table(g);
  assert_int_equal(de->count, fresh->count);
  assert_memory_equal(de->area, fresh->area, g->padded * sizeof *de->area);
  assert_memory_equal(de->swamp, fresh->swamp, g->padded * sizeof *de->swamp);
  assert_memory_equal(de->end + 1, fresh->end + 1, de->count * sizeof *de->end);
  assert_memory_equal(de->gate + 1, fresh->gate + 1, de->count * sizeof *de->gate);
  assert_memory_equal(de->cells + 1, fresh->cells + 1, de->count * sizeof *de->cells);
  assert_memory_equal(de->depth + 1, fresh->depth + 1, de->count * sizeof *de->depth);
  assert_memory_equal(de->door + 1, fresh->door + 1, de->count);
  assert_memory_equal(de->doors, fresh->doors, g->padded * sizeof *de->doors);
  for (uint32_t a = 1; a <= de->count; a = de->end[a]) {
    assert_int_equal(de->first[a], fresh->first[a]);
    assert_int_equal(de->centre[a], fresh->centre[a]);
    assert_true(de->slack[a] <= fresh->slack[a]); /* a bound, spent by edits */
  }
  assert_memory_equal(&de->stats, &fresh->stats, sizeof de->stats);
  assert_memory_equal(de->gate_bits, fresh->gate_bits, de->words * sizeof *de->gate_bits);
  assert_memory_equal(de->dead_bits, fresh->dead_bits, de->words * sizeof *de->dead_bits);
  assert_memory_equal(de->cell_gate_bits, fresh->cell_gate_bits,
                      de->words * sizeof *de->cell_gate_bits);
  /* the doors beside pillars: the same list, what kept each out a part of
   * the fresh table's (updates drop those in the dead end they search);
   * their cells' bits may hold more than a fresh table's (updates only
   * add), never fewer */
  assert_int_equal(de->pillars.n, fresh->pillars.n);
  for (size_t k = 0; k < fresh->pillars.n; k++) {
    const cairn__de_pillar *p = &de->pillars.p[k], *q = &fresh->pillars.p[k];
    assert_true(p->c == q->c && p->w == q->w && p->len == q->len && p->down == q->down &&
                p->side == q->side && p->marked == q->marked);
    assert_int_equal(p->blocks & ~q->blocks, 0);
  }
  for (size_t w = 0; w < de->words; w++)
    assert_int_equal(fresh->pillar_bits[w] & ~de->pillar_bits[w], 0);
  cairn_dead_ends_destroy(fresh);
  assert_sound(g, de);
}

/* Walls put up in a field outside every dead end, and taken down again:
 * the update shows they leave the areas as they were and touches only the
 * cells near them (the marks of the doors down the field's columns move),
 * and the table equals a fresh one after every update. The field has
 * rooms off it, each through one gap, far enough apart that no wall line
 * holds two gaps (which would put doors beside pillars along the field,
 * and those send such edits to the whole grid). */
static void walls_in_the_field_stay_local(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(150, 80, 1, NULL, &g), CAIRN_OK);
  for (int room = 0; room < 2; room++) { /* 10 x 6 rooms in two corners */
    const int x0 = room ? 139 : 0, y0 = room ? 73 : 0, wx = room ? 138 : 10, wy = room ? 72 : 6;
    for (int x = x0; x < x0 + 11 && x < 150; x++) cairn_grid_set_cost(g, x, wy, 0);
    for (int y = y0; y < y0 + 7 && y < 80; y++) cairn_grid_set_cost(g, wx, y, 0);
    cairn_grid_set_cost(g, room ? 144 : 4, wy, 1); /* the gap */
  }
  cairn_dead_ends *de = table(g);
  cairn_dead_ends_stats st;
  assert_int_equal(cairn_dead_ends_get_stats(de, &st), CAIRN_OK);
  assert_true(st.areas >= 2); /* the rooms */
  uint64_t rng = 31;
  const uint64_t l0 = de->locals;
  int updates = 0;
  for (int round = 0; round < 40; round++) {
    const cairn_point p = pt(20 + (int32_t)tu_below(&rng, 110), 15 + (int32_t)tu_below(&rng, 50));
    for (int step = 0; step < 2; step++) {
      assert_int_equal(cairn_grid_set_cost(g, p.x, p.y, step ? 1 : 0), CAIRN_OK);
      assert_int_equal(cairn_dead_ends_update(de), CAIRN_OK);
      assert_fresh(g, de);
      updates++;
    }
  }
  const uint64_t locals = de->locals - l0;
  if (4 * locals < 3 * (uint64_t)updates)
    fail_msg("%llu of %d updates local", (unsigned long long)locals, updates);
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
}

/* Two halls, taller and wider than any door, side by side: a wall one
 * cell thick between them with a gap of two cells, and far round, a
 * corridor one cell wide. Closing the gap in one edit leaves the halls
 * joined only through the corridor, whose cells then all cut: the areas
 * change far from the edit, though the halls' sides next to the gap stay
 * joined outside the window round it, and no node in that window cuts it
 * once what joins it outside is counted. The update must see that the
 * window itself no longer joins them, and equal a fresh table. */
static void a_closed_gap_cuts_far_off(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(150, 80, 0, NULL, &g), CAIRN_OK);
  for (int y = 1; y < 70; y++)
    for (int x = 1; x < 147; x++)
      if (x != 70) assert_int_equal(cairn_grid_set_cost(g, x, y, 1), CAIRN_OK);
  for (int y = 30; y < 32; y++) assert_int_equal(cairn_grid_set_cost(g, 70, y, 1), CAIRN_OK);
  for (int y = 70; y < 79; y++) {
    assert_int_equal(cairn_grid_set_cost(g, 1, y, 1), CAIRN_OK);
    assert_int_equal(cairn_grid_set_cost(g, 146, y, 1), CAIRN_OK);
  }
  for (int x = 1; x < 147; x++) assert_int_equal(cairn_grid_set_cost(g, x, 78, 1), CAIRN_OK);
  cairn_dead_ends *de = table(g);
  cairn_dead_ends_stats before;
  assert_int_equal(cairn_dead_ends_get_stats(de, &before), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(g, 70, 30, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(g, 70, 31, 0), CAIRN_OK);
  assert_int_equal(cairn_dead_ends_update(de), CAIRN_OK);
  assert_fresh(g, de);
  cairn_dead_ends_stats after;
  assert_int_equal(cairn_dead_ends_get_stats(de, &after), CAIRN_OK);
  assert_true(after.areas > before.areas + 10); /* the corridor's cells all cut now */
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
}

/* Rooms in a grid, as on 8room_000: 7 x 7 cells each, joined to their
 * neighbours through doorways of one cell, a wall or two of them without.
 * A wall put up in a doorway, or just inside one, makes the doorway or the
 * room behind it a dead end, or unmakes one when taken down: the update
 * searches a window round it again (dead_ends_ring.c), not the whole grid.
 * Every fifth doorway and a cell beside it are walled and opened in turn:
 * after every update the table equals a fresh one, at least half the
 * updates stay local (a wall that closes a loop round the window, or
 * leaves the rooms near it too large a share of the grid, searches it
 * all), and many of those changed the areas. */
static void doorways_change_areas_locally(void **state) {
  (void)state;
  enum { ROOMS = 20, PITCH = 8, SIDE = ROOMS * PITCH + 1 };
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(SIDE, SIDE, 1, NULL, &g), CAIRN_OK);
  for (int32_t i = 0; i < SIDE; i += PITCH)
    for (int32_t j = 0; j < SIDE; j++) {
      assert_int_equal(cairn_grid_set_cost(g, i, j, 0), CAIRN_OK);
      assert_int_equal(cairn_grid_set_cost(g, j, i, 0), CAIRN_OK);
    }
  uint64_t rng = 808;
  cairn_point doors[2 * ROOMS * ROOMS];
  int n = 0;
  for (int32_t r = 0; r < ROOMS; r++)
    for (int32_t k = 1; k < ROOMS; k++)
      for (int way = 0; way < 2; way++) {
        if (tu_below(&rng, 8) == 0) continue; /* no doorway in this wall */
        const int32_t along = r * PITCH + 1 + (int32_t)tu_below(&rng, PITCH - 1);
        const cairn_point d = way ? pt(along, k * PITCH) : pt(k * PITCH, along);
        assert_int_equal(cairn_grid_set_cost(g, d.x, d.y, 1), CAIRN_OK);
        doors[n++] = d;
      }
  cairn_dead_ends *de = table(g);
  int updates = 0, moved = 0;
  const uint64_t l0 = de->locals;
  for (int i = 0; i < n; i += 5) {
    /* the doorway, then the cell beside it in the room to its right or below */
    for (int beside = 0; beside < 2; beside++) {
      const bool down = doors[i].y % PITCH == 0;
      const cairn_point c = beside ? pt(doors[i].x + !down, doors[i].y + down) : doors[i];
      for (int step = 0; step < 2; step++) {
        cairn_dead_ends_stats was, now;
        assert_int_equal(cairn_dead_ends_get_stats(de, &was), CAIRN_OK);
        assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, step ? 1 : 0), CAIRN_OK);
        assert_int_equal(cairn_dead_ends_update(de), CAIRN_OK);
        assert_fresh(g, de);
        assert_int_equal(cairn_dead_ends_get_stats(de, &now), CAIRN_OK);
        moved += now.areas != was.areas && now.local_updates > was.local_updates;
        updates++;
      }
    }
  }
  const uint64_t locals = de->locals - l0;
  print_message("doorways: %llu of %d updates local, %d of those changed the areas\n",
                (unsigned long long)locals, updates, moved);
  if (2 * locals < (uint64_t)updates)
    fail_msg("%llu of %d updates local", (unsigned long long)locals, updates);
  assert_true(moved >= 50);
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
}

/* A cell in a dead end (or, one round in four, anywhere), with up to two
 * more within two cells of it. */
static int edit_near(uint64_t *rng, cairn_grid *g, const cairn_dead_ends *de, cairn_point *out) {
  const int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  const bool anywhere = tu_below(rng, 4) == 0;
  for (int tries = 0; tries < 200; tries++) {
    cairn_point p = pt((int32_t)tu_below(rng, (uint32_t)w), (int32_t)tu_below(rng, (uint32_t)h));
    if (!anywhere && !cairn_dead_ends_area(de, p.x, p.y)) continue;
    int n = 1 + (int)tu_below(rng, 3);
    out[0] = p;
    for (int i = 1; i < n; i++) {
      out[i] = pt(p.x - 2 + (int32_t)tu_below(rng, 5), p.y - 2 + (int32_t)tu_below(rng, 5));
      if (!cairn_grid_contains(g, out[i].x, out[i].y)) out[i] = p;
    }
    return n;
  }
  return 0;
}

/* Edits inside dead ends search only the area they lie in, and the table
 * still equals a fresh one after every update: walls put up and taken
 * down in rooms, doors at terrain 1 opened or narrowed, one to three
 * cells at once, on maps of rooms and corridors round a hall; edits
 * elsewhere, and those the local rules refuse, search the whole grid. */
static void edits_inside_search_one_area(void **state) {
  (void)state;
  uint64_t rng = 4242;
  uint64_t locals = 0, finds = 0;
  for (int map = 0; map < 6; map++) {
    const int w = 60 + 10 * map, h = 44 + 6 * map;
    cairn_grid *g = tu_rooms(&rng, w, h, 55 + 5 * map, 1 + map % 3);
    for (int y = h / 3; y < 2 * h / 3; y++) /* a hall: the island's centre, far from the rest */
      for (int x = w / 4; x < 3 * w / 4; x++) assert_int_equal(cairn_grid_set_cost(g, x, y, 1), CAIRN_OK);
    cairn_dead_ends *de = table(g);
    const uint64_t f0 = de->finds;
    for (int round = 0; round < 80; round++) {
      cairn_point cells[3];
      const int n = edit_near(&rng, g, de, cells);
      for (int i = 0; i < n; i++) {
        const uint8_t was = cairn_grid_cost(g, cells[i].x, cells[i].y);
        const uint8_t to = was ? 0 : (uint8_t)(1 + tu_below(&rng, 3));
        assert_int_equal(cairn_grid_set_cost(g, cells[i].x, cells[i].y, to), CAIRN_OK);
      }
      assert_int_equal(cairn_dead_ends_update(de), CAIRN_OK);
      assert_true(cairn_dead_ends_current(de));
      assert_fresh(g, de);
    }
    locals += de->locals;
    finds += de->finds - f0;
    cairn_dead_ends_stats st; /* the stats count the same updates */
    assert_int_equal(cairn_dead_ends_get_stats(de, &st), CAIRN_OK);
    assert_int_equal(st.local_updates, de->locals);
    assert_int_equal(st.whole_searches, de->finds);
    assert_true(st.whole_searches >= 1); /* the create's */
    cairn_dead_ends_destroy(de);
    cairn_grid_destroy(g);
  }
  print_message("dead ends: %llu updates inside one area, %llu whole searches\n",
                (unsigned long long)locals, (unsigned long long)finds);
  assert_true(locals >= 80); /* 90 with these seeds: both paths well used */
  assert_true(finds >= 80);
}

/* A room above a ring corridor too long for a door across it, entered
 * through three gaps between pillars: the row beside the gaps, on the
 * corridor's side, is the room's door (the runs across the corridor,
 * which it takes its cells from, cut nothing off: the corridor is a
 * ring). Searches with the table equal Dijkstra and skip the room; after
 * walls put up and taken down the table equals a fresh one (a door
 * beside pillars stands only while no run across it is a gate; the runs
 * across this one that reach into the room are no doors, so an edit in
 * the room searches the room alone). */
enum { RING_W = CAIRN__DE_MAX_DOOR + 17, RING_H = 13 };

static cairn_grid *room_over_a_ring(void) {
  char text[RING_H][RING_W + 1];
  const char *rows[RING_H];
  for (int y = 0; y < RING_H; y++) {
    for (int x = 0; x < RING_W; x++) {
      char c = '.';
      if (x == 0 || x == RING_W - 1 || y == 0 || y == RING_H - 1) c = '#';
      if (y < 4 && (x < 6 || x > 26)) c = '#'; /* the room */
      if (y == 4) c = (x >= 6 && x <= 10) || (x >= 14 && x <= 18) || (x >= 22 && x <= 26) ? '.' : '#';
      if ((y == 8 || y == 9) && x >= 4 && x < RING_W - 5) c = '#'; /* the ring's middle */
      text[y][x] = c;
    }
    text[y][RING_W] = 0;
    rows[y] = text[y];
  }
  return tu_grid(rows, RING_H);
}

static void pillars_make_a_door(void **state) {
  cairn_search *s = *state, *ref = NULL;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  cairn_grid *g = room_over_a_ring();
  cairn_dead_ends *de = table(g);
  assert_sound(g, de);
  const uint32_t room = cairn_dead_ends_area(de, 10, 2);
  assert_true(room != 0);
  for (int32_t x = 6; x <= 26; x++) /* the whole room, the gaps too */
    assert_int_equal(cairn_dead_ends_area(de, x, 1), room);
  assert_int_equal(cairn_dead_ends_area(de, 16, 4), room);
  /* its gate: row 5 from the wall before the first gap to the one after
   * the last */
  assert_int_equal(de->gate[room], cairn__grid_index(g, 5, 5));
  assert_int_equal(de->door[room] & CAIRN__DE_DOOR_LEN, 23);
  assert_int_equal(de->door[room] & CAIRN__DE_DOOR_DOWN, 0);
  assert_int_equal(cairn_dead_ends_area(de, 3, 6), 0); /* the ring */
  cairn_search_opts o = cairn_search_defaults();
  const cairn_point ends[][2] = {{{1, 5}, {RING_W - 2, 7}}, {{2, 11}, {40, 5}}, {{30, 6}, {8, 2}},
                                 {{12, 1}, {RING_W - 3, 10}}, {{3, 5}, {29, 5}}};
  for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
    check_pair(s, ref, g, de, NULL, &o, ends[i][0], ends[i][1]);
  cairn_result with, without;
  o.heuristic = CAIRN_H_ZERO; /* Dijkstra: it would fill the room */
  o.dead_ends = de;
  assert_int_equal(cairn_astar(s, g, pt(2, 6), pt(60, 6), &o, &with), CAIRN_OK);
  o.dead_ends = NULL;
  assert_int_equal(cairn_astar(s, g, pt(2, 6), pt(60, 6), &o, &without), CAIRN_OK);
  assert_int_equal(with.cost, without.cost);
  assert_true(with.expanded + 60 <= without.expanded); /* the room's 63 cells, less a few */
  /* walls in the room and the ring, up and down: those in the room
   * search the room alone (no run across the door is a gate before or
   * after) */
  for (int step = 0; step < 6; step++) {
    const cairn_point c = step % 3 == 0 ? pt(9, 2) : step % 3 == 1 ? pt(20, 3) : pt(40, 6);
    const uint64_t locals = de->locals;
    assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, step < 3 ? 0 : 1), CAIRN_OK);
    assert_int_equal(cairn_dead_ends_update(de), CAIRN_OK);
    assert_fresh(g, de);
    if (step % 3 != 2) assert_int_equal(de->locals, locals + 1);
  }
  /* a wall across the room, then gone: the room's left end meets the
   * door through its own gap alone, two areas off one door */
  for (int step = 0; step < 2; step++) {
    for (int32_t y = 1; y <= 3; y++)
      assert_int_equal(cairn_grid_set_cost(g, 12, y, step ? 1 : 0), CAIRN_OK);
    assert_int_equal(cairn_dead_ends_update(de), CAIRN_OK);
    assert_fresh(g, de);
    assert_int_equal(cairn_dead_ends_area(de, 8, 2) != cairn_dead_ends_area(de, 20, 2), !step);
  }
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
  cairn_search_destroy(ref);
}

/* Two rooms joined by a corridor, the left one (which holds the island's
 * first cell) a little smaller: the right one holds the centre and the
 * left is a dead end (both are wider and taller than the longest door, so
 * none of their rows or columns is one). Pillars in the left room taken
 * down one at a time make it the larger and move the centre there, and
 * put back move it back: every update equals a fresh table (the sizes
 * stand so near the balance that most updates search the whole grid). */
enum { ROOM_H = CAIRN__DE_MAX_DOOR + 3, LEFT_W = CAIRN__DE_MAX_DOOR + 3, RIGHT_W = LEFT_W - 1 };

/* The two rooms: walls round the map, a wall three cells thick between
 * the rooms, open on row 5. */
static cairn_grid *two_rooms(void) {
  const int32_t w = LEFT_W + RIGHT_W + 5, h = ROOM_H + 2;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(w, h, 1, NULL, &g), CAIRN_OK);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      const bool edge = x == 0 || y == 0 || x == w - 1 || y == h - 1;
      const bool middle = x > LEFT_W && x <= LEFT_W + 3 && y != 5;
      if (edge || middle) assert_int_equal(cairn_grid_set_cost(g, x, y, 0), CAIRN_OK);
    }
  return g;
}

static void centre_moves_with_the_sizes(void **state) {
  (void)state;
  cairn_grid *g = two_rooms();
  /* pillars on every third column of rows 2, 4, 6 and 8 of the left room:
   * more than the rooms' difference in width times their height */
  int pillars[4 * (LEFT_W / 3)][2];
  size_t n = 0;
  for (int y = 2; y <= 8; y += 2)
    for (int x = 3; x < LEFT_W; x += 3) {
      pillars[n][0] = x;
      pillars[n++][1] = y;
    }
  assert_true(n > ROOM_H);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(cairn_grid_set_cost(g, pillars[i][0], pillars[i][1], 0), CAIRN_OK);
  const int32_t rx = LEFT_W + 4 + RIGHT_W / 2, ry = ROOM_H / 2; /* in the right room */
  cairn_dead_ends *de = table(g);
  assert_int_equal(cairn_dead_ends_area(de, rx, ry), 0); /* the right room: the root's */
  assert_true(cairn_dead_ends_area(de, 5, 3) != 0);      /* the left: a dead end */
  for (size_t i = 0; i < 2 * n; i++) { /* down, then back up */
    const int *p = pillars[i % n];
    assert_int_equal(cairn_grid_set_cost(g, p[0], p[1], i < n ? 1 : 0), CAIRN_OK);
    assert_int_equal(cairn_dead_ends_update(de), CAIRN_OK);
    assert_fresh(g, de);
    if (i == n - 1) { /* all down: the left room took the centre */
      assert_int_equal(cairn_dead_ends_area(de, 5, 3), 0);
      assert_true(cairn_dead_ends_area(de, rx, ry) != 0);
    }
  }
  assert_int_equal(cairn_dead_ends_area(de, rx, ry), 0); /* all back: as it began */
  print_message("dead ends: %llu of %zu updates local\n", (unsigned long long)de->locals, 2 * n);
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
}

/* Rooms of side r (cols x rows of them) behind one-cell walls, each wall
 * between two rooms with a door of 1 to 4 cells somewhere along it (which
 * a cell walled in along the room's edge, up to 5 a room, may narrow or
 * shut), a room in three with a pillar of 1 x 1 or 2 x 2 cells; with max_cost
 * above 1, a tenth of the open cells dearer, up to max_cost. */
static cairn_grid *big_rooms(uint64_t *rng, int cols, int rows, int r, int max_cost) {
  const int w = cols * (r + 1) + 1, h = rows * (r + 1) + 1;
  uint8_t *cells = malloc((size_t)w * (size_t)h);
  assert_non_null(cells);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) cells[y * w + x] = x % (r + 1) && y % (r + 1) ? 1 : 0;
  for (int j = 0; j < rows; j++)
    for (int i = 0; i < cols; i++) {
      const int x0 = i * (r + 1) + 1, y0 = j * (r + 1) + 1;
      for (int way = 0; way < 2; way++) { /* the east wall, then the south one */
        if ((way == 0 && i + 1 == cols) || (way == 1 && j + 1 == rows)) continue;
        const int len = 1 + (int)tu_below(rng, 4), at = (int)tu_below(rng, (uint32_t)(r - len + 1));
        for (int k = 0; k < len; k++) {
          const int x = way == 0 ? x0 + r : x0 + at + k, y = way == 0 ? y0 + at + k : y0 + r;
          cells[y * w + x] = 1;
        }
      }
      /* jagged walls: up to 5 cells along the room's edge walled in */
      for (int b = (int)tu_below(rng, 6); b > 0; b--) {
        const int along = (int)tu_below(rng, (uint32_t)r), side4 = (int)tu_below(rng, 4);
        const int x = side4 == 0 ? x0 : side4 == 1 ? x0 + r - 1 : x0 + along;
        const int y = side4 == 2 ? y0 : side4 == 3 ? y0 + r - 1 : y0 + along;
        cells[y * w + x] = 0;
      }
      if (tu_below(rng, 3)) continue;
      const int side = 1 + (int)tu_below(rng, 2);
      const int px = x0 + (int)tu_below(rng, (uint32_t)(r - side + 1));
      const int py = y0 + (int)tu_below(rng, (uint32_t)(r - side + 1));
      for (int dy = 0; dy < side; dy++)
        for (int dx = 0; dx < side; dx++) cells[(py + dy) * w + px + dx] = 0;
    }
  if (max_cost > 1)
    for (int k = 0; k < w * h; k++)
      if (cells[k] && tu_below(rng, 10) == 0) cells[k] = (uint8_t)(2 + tu_below(rng, (uint32_t)max_cost - 1));
  cairn_grid *g;
  assert_int_equal(cairn_grid_create(w, h, 1, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_grid_set_rect(g, (cairn_rect){0, 0, w, h}, cells, (size_t)w), CAIRN_OK);
  free(cells);
  return g;
}

/* An open cell of swamp id w (or of any swamp for w 0), or {-1, -1}. */
static cairn_point swamp_cell(uint64_t *rng, const cairn_grid *g, const cairn_dead_ends *de) {
  for (int tries = 0; tries < 4000; tries++) {
    const cairn_point p = tu_random_open(rng, g);
    if (p.x >= 0 && de->swamp[cairn__grid_index(g, p.x, p.y)]) return p;
  }
  return pt(-1, -1);
}

/* Swamps: on maps of large rooms, corners no shortest path between cells
 * outside them needs. A* with the table, which skips every swamp but the
 * start's and the goal's, gives Dijkstra's cost from and to cells in
 * swamps, next to them and anywhere else (plain, bounded, under a layer
 * and for a unit of size 2, which skip none); between random cells it
 * expands fewer cells than without the table; swamps are open and none
 * lies within one cell of another. */
static void swamps_skip_room_corners(void **state) {
  cairn_search *s = *state, *ref;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 0x5a3b;
  uint64_t swamps = 0, with = 0, without = 0;
  for (int m = 0; m < 8; m++) {
    cairn_grid *g = big_rooms(&rng, 3 + m % 3, 2 + m % 2, 7 + 2 * m, m % 4 == 3 ? 3 : 1);
    cairn_dead_ends *de = table(g);
    cairn_dead_ends_stats st;
    assert_int_equal(cairn_dead_ends_get_stats(de, &st), CAIRN_OK);
    swamps += st.swamps;
    size_t in = 0;
    for (int32_t y = 0; y < g->height; y++)
      for (int32_t x = 0; x < g->width; x++) {
        const uint32_t c = cairn__grid_index(g, x, y), w = de->swamp[c];
        if (!w) continue;
        in++;
        assert_true(g->cost[c] != 0);
        for (int dy = -1; dy <= 1; dy++) /* apart: no other swamp next to it */
          for (int dx = -1; dx <= 1; dx++) {
            const uint16_t v = de->swamp[c + (uint32_t)(dx + dy * g->stride)];
            assert_true(!v || v == w);
          }
      }
    assert_int_equal(in, st.swamp_cells);
    cairn_penalty *pen;
    assert_int_equal(cairn_penalty_create(g, NULL, &pen), CAIRN_OK);
    for (int k = 0; k < 40; k++) {
      const cairn_point p = tu_random_open(&rng, g);
      if (p.x >= 0) assert_int_equal(cairn_penalty_add(pen, p.x, p.y, 3 * (int64_t)CAIRN_COST_ONE), CAIRN_OK);
    }
    for (int v = 0; v < 4; v++) {
      cairn_search_opts o = cairn_search_defaults();
      if (v == 1) o.bounds = (cairn_rect){1, 1, cairn_grid_width(g) - 2, cairn_grid_height(g) - 2};
      if (v == 2) o.penalty = pen;
      if (v == 3) o.size = 2;
      for (int q = 0; q < (v ? 40 : 200); q++) {
        cairn_point a = q % 3 == 0 ? swamp_cell(&rng, g, de) : tu_random_open(&rng, g);
        cairn_point b = q % 4 == 1 ? swamp_cell(&rng, g, de) : tu_random_open(&rng, g);
        if (v == 3) {
          a = tu_fitting(&rng, g, 2);
          b = tu_fitting(&rng, g, 2);
        }
        if (a.x < 0 || b.x < 0) continue;
        check_pair(s, ref, g, de, NULL, &o, a, b);
        if (v || q % 3 == 0 || q % 4 == 1) continue; /* plain, from and to any cells */
        cairn_result r;
        cairn_astar(s, g, a, b, &o, &r);
        without += r.expanded;
        o.dead_ends = de;
        cairn_astar(s, g, a, b, &o, &r);
        with += r.expanded;
        o.dead_ends = NULL;
      }
    }
    cairn_penalty_destroy(pen);
    cairn_dead_ends_destroy(de);
    cairn_grid_destroy(g);
  }
  print_message("swamps: %llu, expansions %llu with the table, %llu without\n",
                (unsigned long long)swamps, (unsigned long long)with, (unsigned long long)without);
  assert_true(swamps >= 40);
  assert_true(with * 20 < without * 19); /* a twentieth fewer at least */
  cairn_search_destroy(ref);
}

/* Every pair of cells of single rooms of 14 x 14 cells, a tenth of them
 * dearer: A* with the table (swamps skipped) costs what Dijkstra's
 * distance map says, wherever the dear cells fall on or beside a swamp's
 * border. */
static void swamps_every_pair(void **state) {
  cairn_search *s = *state, *ref;
  assert_int_equal(cairn_search_create(NULL, &ref), CAIRN_OK);
  uint64_t rng = 0x9a1f;
  uint64_t swamps = 0;
  for (int m = 0; m < 12; m++) {
    cairn_grid *g = big_rooms(&rng, 1, 1, 14, m % 3 ? 4 : 1);
    cairn_dead_ends *de = table(g);
    cairn_dead_ends_stats st;
    cairn_dead_ends_get_stats(de, &st);
    swamps += st.swamps;
    const int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
    cairn_cost *dist = malloc((size_t)w * (size_t)h * sizeof *dist);
    assert_non_null(dist);
    cairn_search_opts o = cairn_search_defaults();
    o.dead_ends = de;
    for (int32_t ay = 0; ay < h; ay++)
      for (int32_t ax = 0; ax < w; ax++) {
        if (!cairn_grid_cost(g, ax, ay)) continue;
        const cairn_point a = pt(ax, ay);
        assert_int_equal(cairn_distance_map(ref, g, &a, 1, NULL, dist, (size_t)w * (size_t)h),
                         CAIRN_OK);
        for (int32_t by = 0; by < h; by++)
          for (int32_t bx = 0; bx < w; bx++) {
            if (!cairn_grid_cost(g, bx, by)) continue;
            cairn_result r;
            cairn_astar(s, g, a, pt(bx, by), &o, &r);
            assert_true(r.cost == dist[(size_t)by * (size_t)w + (size_t)bx]);
          }
      }
    free(dist);
    cairn_dead_ends_destroy(de);
    cairn_grid_destroy(g);
  }
  print_message("swamps: %llu in 12 rooms\n", (unsigned long long)swamps);
  assert_true(swamps >= 12);
  cairn_search_destroy(ref);
}

static void refusals(void **state) {
  cairn_search *s = *state;
  static const char *const rows[] = {"....", ".##.", "...."};
  cairn_grid *g = tu_grid(rows, 3), *other = tu_grid(rows, 3);
  cairn_dead_ends *de = NULL;
  assert_int_equal(cairn_dead_ends_create(NULL, NULL, &de), CAIRN_ERR_ARG);
  assert_null(de);
  assert_int_equal(cairn_dead_ends_create(g, NULL, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_dead_ends_update(NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_dead_ends_current(NULL), 0);
  assert_int_equal(cairn_dead_ends_memory(NULL), 0);
  cairn_dead_ends_stats st;
  assert_int_equal(cairn_dead_ends_get_stats(NULL, &st), CAIRN_ERR_ARG);
  de = table(g);
  assert_int_equal(cairn_dead_ends_get_stats(de, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_dead_ends_get_stats(de, &st), CAIRN_OK);
  assert_int_equal(st.areas, 0); /* a ring: no dead end */
  cairn_search_opts o = cairn_search_defaults();
  o.dead_ends = de;
  cairn_result r;
  assert_int_equal(cairn_astar(s, other, pt(0, 0), pt(3, 2), &o, &r), CAIRN_ERR_ARG);
  assert_int_equal(cairn_jps(s, other, pt(0, 0), pt(3, 2), &o, &r), CAIRN_ERR_ARG);
  assert_int_equal(cairn_astar(s, g, pt(0, 0), pt(3, 2), &o, &r), CAIRN_OK);
  /* other searches ignore it */
  assert_int_equal(cairn_dijkstra_fill(s, g, &(cairn_point){0, 0}, 1, NULL, 0, 0, &o),
                   CAIRN_OK);
  cairn_dead_ends_destroy(de);
  cairn_grid_destroy(g);
  cairn_grid_destroy(other);
}

static cairn_status create_some(void *ctx, const cairn_allocator *alloc) {
  cairn_dead_ends *de = NULL;
  cairn_status st = cairn_dead_ends_create(ctx, alloc, &de);
  if (st == CAIRN_OK) {
    st = cairn_dead_ends_update(de);
    cairn_dead_ends_destroy(de);
  }
  return st;
}

/* The updates that searched one dead end in edit_inside_some's last run. */
static uint64_t inside_locals;

/* A wall put up inside a dead end and taken down again, each followed by
 * an update; a refused update leaves the table refusing searches, and the
 * next that succeeds equals a fresh table. The grid is as it was after. */
static cairn_status edit_inside_some(void *ctx, const cairn_allocator *alloc) {
  cairn_grid *g = ctx;
  cairn_dead_ends *de = NULL;
  cairn_status st = cairn_dead_ends_create(g, alloc, &de);
  if (st != CAIRN_OK) return st;
  cairn_point c = {-1, -1};
  for (int32_t y = 1; y + 1 < cairn_grid_height(g) && c.x < 0; y++)
    for (int32_t x = 1; x + 1 < cairn_grid_width(g) && c.x < 0; x++) {
      const uint32_t a = cairn_dead_ends_area(de, x, y);
      bool inside = a != 0;
      for (int k = 0; k < 9 && inside; k++) inside = cairn_dead_ends_area(de, x + k % 3 - 1, y + k / 3 - 1) == a;
      if (inside) c = pt(x, y);
    }
  assert_true(c.x >= 0);
  const uint8_t was = cairn_grid_cost(g, c.x, c.y);
  for (int step = 0; step < 2 && st == CAIRN_OK; step++) {
    assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, step ? was : 0), CAIRN_OK);
    st = cairn_dead_ends_update(de);
    if (st != CAIRN_OK) assert_false(cairn_dead_ends_current(de));
  }
  assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, was), CAIRN_OK);
  if (st == CAIRN_OK) {
    assert_int_equal(cairn_dead_ends_update(de), CAIRN_OK);
    assert_fresh(g, de);
  }
  inside_locals = de->locals;
  cairn_dead_ends_destroy(de);
  return st;
}

static void out_of_memory(void **state) {
  (void)state;
  uint64_t rng = 9;
  cairn_grid *g = tu_rooms(&rng, 30, 20, 50, 1);
  tu_oom_check("dead_ends_create", create_some, g, 10);
  cairn_grid_destroy(g);
  g = tu_rooms(&rng, 48, 36, 60, 1);
  for (int32_t y = 12; y < 24; y++) /* a hall at the centre: edits in rooms stay local */
    for (int32_t x = 12; x < 36; x++) assert_int_equal(cairn_grid_set_cost(g, x, y, 1), CAIRN_OK);
  tu_oom_check("dead_ends_update", edit_inside_some, g, 10);
  assert_int_equal(inside_locals, 2); /* the run without failures: both local */
  cairn_grid_destroy(g);
}

/* The candidate beside pillars from wall c (along its line L by step, W
 * the line beside L, across from it; room: steps from c to L's border
 * cell), by the rule written out plainly: the longest stretch from c to a
 * wall at e (an opening of L just before it), at most 63 cells, along
 * which W is at the cheapest terrain, holding 2 to 8 openings (runs of
 * open cells of L); the cell after c open. Its length, 0 for none. */
static unsigned plain_candidate(const cairn_grid *g, uint32_t c, uint32_t step, int64_t across,
                                uint32_t room, uint8_t least) {
  const uint8_t *t = g->cost;
  if (t[c] || room < 2 || !t[c + step]) return 0;
  unsigned best = 0;
  for (uint32_t e = 2; e <= room && e < CAIRN__DE_MAX_DOOR; e++) {
    if (t[c + e * step] || !t[c + (e - 1) * step]) continue;
    bool cheap = true;
    for (uint32_t i = 0; i <= e && cheap; i++)
      cheap = t[(size_t)((int64_t)(c + i * step) + across)] == least;
    unsigned openings = 0;
    for (uint32_t i = 1; i < e; i++) openings += t[c + i * step] && !t[c + (i + 1) * step];
    if (cheap && openings >= 2 && openings <= 8) best = e + 1;
  }
  return best;
}

/* The table lists every candidate beside pillars the plain rule finds, in
 * the full pass's order (by wall, rows first, the line before first), and
 * no other: the pass that finds them skips most walls at once, sixteen
 * cells to a test, and a wall it skipped wrongly would only lose a door,
 * which no search or fresh table would notice. */
static void candidates_are_all_listed(void **state) {
  (void)state;
  uint64_t rng = 29;
  size_t listed = 0;
  for (int m = 0; m < 8; m++) {
    cairn_grid *g = m == 0   ? room_over_a_ring()
                    : m % 3 ? big_rooms(&rng, 6 + m, 5, 5 + m % 4, m % 2 ? 1 : 3)
                            : tu_rooms(&rng, 70, 50, 90, m % 2 ? 1 : 2);
    cairn_dead_ends *de = table(g);
    const uint8_t least = cheapest(g);
    const uint32_t stride = (uint32_t)g->stride;
    size_t k = 0;
    for (uint32_t c = 0; c + stride < g->padded; c++)
      for (unsigned down = 0; down < 2; down++)
        for (unsigned side = 0; side < 2; side++) {
          const uint32_t x = c % stride, y = c / stride, step = down ? stride : 1u;
          const uint32_t room = down ? (uint32_t)g->height + 1u - y : (uint32_t)g->width + 1u - x;
          const int64_t across = (side ? 1 : -1) * (int64_t)(down ? 1u : stride);
          if (g->cost[c] || (int64_t)c + across < 0) continue;
          const unsigned len = plain_candidate(g, c, step, across, room, least);
          if (!len) continue;
          assert_true(k < de->pillars.n);
          const cairn__de_pillar *p = &de->pillars.p[k++];
          assert_int_equal(p->c, c);
          assert_int_equal(p->down, down);
          assert_int_equal(p->side, side);
          assert_int_equal(p->len, len);
          assert_int_equal(p->w, (uint32_t)((int64_t)c + across));
        }
    assert_int_equal(k, de->pillars.n);
    listed += k;
    cairn_dead_ends_destroy(de);
    cairn_grid_destroy(g);
  }
  print_message("candidates beside pillars: %zu\n", listed);
  assert_true(listed >= 20);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(areas_are_sound),
      cmocka_unit_test(counts_on_a_drawn_map),
      tu_with_search(fills_equal_without),
      tu_with_search(searches_equal_dijkstra),
      tu_with_search(sliced_equals_whole),
      tu_with_search(skips_the_rooms_beside_the_way),
      tu_with_search(pillars_make_a_door),
      cmocka_unit_test(candidates_are_all_listed),
      tu_with_search(update_equals_fresh),
      tu_with_search(edits_inside_search_one_area),
      cmocka_unit_test(walls_in_the_field_stay_local),
      cmocka_unit_test(a_closed_gap_cuts_far_off),
      cmocka_unit_test(doorways_change_areas_locally),
      cmocka_unit_test(centre_moves_with_the_sizes),
      cmocka_unit_test(terrain_edits_keep_the_table),
      cmocka_unit_test(ids_follow_the_areas),
      tu_with_search(swamps_skip_room_corners),
      tu_with_search(swamps_every_pair),
      tu_with_search(refusals),
      cmocka_unit_test(out_of_memory),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
