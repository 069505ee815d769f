/* Helpers shared by the hierarchy tests (tests/hierarchy): builds with the
 * options a test names, queries and their options, grid copies, answers that
 * outlive their context, hierarchies compared field by field through
 * hpa_internal.h (hierarchy/src), checks against a fresh build and against
 * A*, and random batches of edits. Header only. */
#ifndef CAIRN_TEST_HPA_UTIL_H
#define CAIRN_TEST_HPA_UTIL_H

#include "test_util.h"

#include "cairn/hierarchy.h"
#include "hpa_internal.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers -------------------------------------------------------- */

/* levels: 0 (the default rule), 2 or 3; block: the block side (0: the
 * default). */
static inline cairn_hpa *build_block(const cairn_grid *g, int32_t cluster,
                                     int threads, int levels, int32_t block) {
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.cluster = cluster;
  o.threads = threads;
  o.levels = levels;
  o.block = block;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_OK);
  assert_non_null(h);
  if (levels) {
    cairn_hpa_stats s;
    cairn_hpa_get_stats(h, &s);
    assert_int_equal(s.levels, levels);
  }
  return h;
}

static inline cairn_hpa *build_levels(const cairn_grid *g, int32_t cluster,
                                      int threads, int levels) {
  return build_block(g, cluster, threads, levels, 0);
}

static inline cairn_hpa *build(const cairn_grid *g, int32_t cluster, int threads) {
  return build_levels(g, cluster, threads, 0);
}

static inline cairn_hpa_query *new_query(void) {
  cairn_hpa_query *q = NULL;
  assert_int_equal(cairn_hpa_query_create(NULL, &q), CAIRN_OK);
  assert_non_null(q);
  return q;
}

static inline cairn_hpa_path_opts popts(int32_t nearby, int smooth) {
  cairn_hpa_path_opts o = cairn_hpa_path_defaults();
  o.nearby = nearby;
  o.smooth = smooth;
  return o;
}

/* A grid with the same costs as g (islands fresh). */
static inline cairn_grid *copy_grid(const cairn_grid *g) {
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  cairn_grid *c = NULL;
  assert_int_equal(cairn_grid_create(w, h, 1, NULL, &c), CAIRN_OK);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      assert_int_equal(cairn_grid_set_cost(c, x, y, cairn_grid_cost(g, x, y)), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(c), CAIRN_OK);
  return c;
}

static inline uint64_t hash_points(const cairn_point *p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) {
    h = (h ^ (uint64_t)(uint32_t)p[i].x) * 1099511628211ull;
    h = (h ^ (uint64_t)(uint32_t)p[i].y) * 1099511628211ull;
  }
  return h;
}

/* Everything a query answers, in a form that outlives the context. */
typedef struct answer {
  cairn_status status;
  cairn_cost cost, route_cost;
  size_t path_len;
  uint64_t path_hash, expanded;
  uint32_t route_len, route2_len;
  int plain;
} answer;

static inline answer capture(cairn_status st, const cairn_hpa_result *r) {
  answer a;
  memset(&a, 0, sizeof a);
  a.status = st == r->status ? st : (cairn_status)-1000; /* must agree */
  a.cost = r->cost;
  a.route_cost = r->route_cost;
  a.path_len = r->path_len;
  a.path_hash = hash_points(r->path, r->path_len);
  a.expanded = r->expanded;
  a.route_len = r->route_len;
  a.route2_len = r->route2_len;
  a.plain = r->plain;
  return a;
}

static inline bool same_answer(const answer *a, const answer *b) {
  return a->status == b->status && a->cost == b->cost &&
         a->route_cost == b->route_cost && a->path_len == b->path_len &&
         a->path_hash == b->path_hash && a->expanded == b->expanded &&
         a->route_len == b->route_len && a->route2_len == b->route2_len &&
         a->plain == b->plain;
}

/* Two results of two contexts: same status, costs, route and path. */
static inline void assert_same_result(const cairn_hpa_result *a,
                                      const cairn_hpa_result *b) {
  assert_int_equal(a->status, b->status);
  assert_true(a->cost == b->cost);
  assert_true(a->route_cost == b->route_cost);
  assert_int_equal(a->path_len, b->path_len);
  if (a->path_len)
    assert_memory_equal(a->path, b->path, a->path_len * sizeof *a->path);
  assert_int_equal(a->route_len, b->route_len);
  assert_int_equal(a->route2_len, b->route2_len);
  assert_int_equal(a->plain, b->plain);
  assert_true(a->expanded == b->expanded);
}

typedef struct edge_pair {
  uint32_t to;
  cairn_cost cost;
} edge_pair;

static inline int cmp_pair(const void *x, const void *y) {
  const edge_pair *a = x, *b = y;
  if (a->to != b->to) return (a->to > b->to) - (a->to < b->to);
  return (a->cost > b->cost) - (a->cost < b->cost);
}

/* The sorted out-edges of node v. */
static inline uint32_t sorted_edges(const cairn_graph *g, uint32_t v, edge_pair *out) {
  const uint32_t *t = NULL;
  const cairn_cost *c = NULL;
  uint32_t n = cairn_graph_neighbours(g, v, &t, &c);
  for (uint32_t i = 0; i < n; i++) {
    out[i].to = t[i];
    out[i].cost = c[i];
  }
  qsort(out, n, sizeof *out, cmp_pair);
  return n;
}

/* Same level-2 graph (every neighbour list with its costs) and same blocks
 * (level-1 nodes, level-2 nodes, costs, cached level-1 chains). n1: the
 * level-1 node count, the same in both. */
static inline void assert_same_level2(const cairn_hpa *a, const cairn_hpa *b,
                                      uint32_t n1) {
  assert_int_equal(a->bs, b->bs);
  assert_int_equal(a->bw, b->bw);
  assert_int_equal(a->bh, b->bh);
  assert_int_equal(a->n2, b->n2);
  const cairn_graph *ga = a->graph2, *gb = b->graph2;
  assert_non_null(ga);
  assert_non_null(gb);
  assert_int_equal(cairn_graph_nodes(ga), cairn_graph_nodes(gb));
  assert_int_equal(cairn_graph_edges(ga), cairn_graph_edges(gb));
  tu_assert_same_landmarks(ga, gb);
  edge_pair *ea = malloc((a->n2 + 1) * sizeof *ea);
  edge_pair *eb = malloc((a->n2 + 1) * sizeof *eb);
  assert_non_null(ea);
  assert_non_null(eb);
  for (uint32_t v = 0; v < a->n2; v++) {
    uint32_t na = cairn_graph_neighbours(ga, v, NULL, NULL);
    assert_int_equal(na, cairn_graph_neighbours(gb, v, NULL, NULL));
    assert_true(na <= a->n2);
    sorted_edges(ga, v, ea);
    sorted_edges(gb, v, eb);
    for (uint32_t i = 0; i < na; i++) {
      assert_int_equal(ea[i].to, eb[i].to);
      assert_true(ea[i].cost == eb[i].cost);
    }
  }
  free(ea);
  free(eb);
  if (a->n2) assert_memory_equal(a->l2_block, b->l2_block, a->n2 * sizeof *a->l2_block);
  if (n1) assert_memory_equal(a->l2_of, b->l2_of, n1 * sizeof *a->l2_of);
  uint32_t n_blocks = (uint32_t)a->bw * (uint32_t)a->bh;
  for (uint32_t k = 0; k < n_blocks; k++) {
    const hpa_block *ba = &a->blocks[k], *bb = &b->blocks[k];
    assert_int_equal(ba->cx0, bb->cx0);
    assert_int_equal(ba->cy0, bb->cy0);
    assert_int_equal(ba->cw, bb->cw);
    assert_int_equal(ba->ch, bb->ch);
    assert_int_equal(ba->m, bb->m);
    assert_int_equal(ba->n, bb->n);
    assert_int_equal(ba->first, bb->first);
    assert_int_equal(ba->n_seq, bb->n_seq);
    assert_memory_equal(ba->base, bb->base,
                        (size_t)ba->cw * (size_t)ba->ch * sizeof *ba->base);
    if (ba->m) {
      assert_memory_equal(ba->l1_cluster, bb->l1_cluster, ba->m * sizeof *ba->l1_cluster);
      assert_int_equal(cairn_graph_edges(ba->fwd), cairn_graph_edges(bb->fwd));
    }
    if (ba->n) {
      size_t nn = (size_t)ba->n * ba->n;
      assert_memory_equal(ba->node, bb->node, ba->n * sizeof *ba->node);
      assert_memory_equal(ba->dist, bb->dist, nn * sizeof *ba->dist);
      assert_memory_equal(ba->off, bb->off, (nn + 1) * sizeof *ba->off);
    }
    if (ba->n_seq) assert_memory_equal(ba->seq, bb->seq, ba->n_seq * sizeof *ba->seq);
  }
}

/* Same unit-size data (max_size > 1): each cluster's sized tables, pair
 * and node annotations, and the graph of every size, edge for edge with
 * its landmark table. */
static inline void assert_same_sizes(const cairn_hpa *a, const cairn_hpa *b) {
  assert_int_equal(a->max_size, b->max_size);
  const uint32_t n_clusters = (uint32_t)a->cw * (uint32_t)a->ch;
  assert_int_equal(a->csz != NULL, b->csz != NULL);
  assert_int_equal(a->csz != NULL, a->max_size > 1);
  for (uint32_t k = 0; a->csz && k < n_clusters; k++) {
    const hpa_csize *ca = &a->csz[k], *cb = &b->csz[k];
    assert_int_equal(ca->sbytes, cb->sbytes);
    assert_int_equal(ca->ntab, cb->ntab);
    assert_memory_equal(ca->tab, cb->tab, sizeof ca->tab);
    assert_int_equal(ca->slayered, cb->slayered);
    if (ca->sbytes) assert_memory_equal(ca->sd, cb->sd, ca->sbytes);
  }
  for (int k = 0; k <= CAIRN_GRID_MAX_CLEARANCE; k++) {
    const cairn_graph *ga = a->gsize[k], *gb = b->gsize[k];
    assert_int_equal(ga != NULL, gb != NULL);
    assert_int_equal(ga != NULL, k >= 2 && k <= a->max_size);
    if (!ga) continue;
    tu_assert_same_graph(ga, gb);
    tu_assert_same_landmarks(ga, gb);
  }
}

/* Same abstract graph (nodes, positions, every neighbour list with its
 * costs) and same cluster contents (entrances, costs, cached paths); with
 * three levels, the same blocks and level-2 graph too; and the same
 * unit-size data. */
static inline void assert_same_hierarchy(const cairn_hpa *a, const cairn_hpa *b) {
  cairn_hpa_stats sa, sb;
  cairn_hpa_get_stats(a, &sa);
  cairn_hpa_get_stats(b, &sb);
  assert_int_equal(sa.cluster, sb.cluster);
  assert_int_equal(sa.clusters, sb.clusters);
  assert_int_equal(sa.nodes, sb.nodes);
  assert_int_equal(sa.edges, sb.edges);
  assert_int_equal(sa.levels, sb.levels);
  assert_int_equal(sa.block, sb.block);
  assert_int_equal(sa.blocks, sb.blocks);
  assert_int_equal(sa.nodes2, sb.nodes2);
  assert_int_equal(sa.edges2, sb.edges2);
  assert_int_equal(sa.landmarks, sb.landmarks);
  const cairn_graph *ga = cairn_hpa_graph(a), *gb = cairn_hpa_graph(b);
  assert_non_null(ga);
  assert_non_null(gb);
  assert_int_equal(cairn_graph_nodes(ga), cairn_graph_nodes(gb));
  assert_int_equal(cairn_graph_edges(ga), sa.edges);
  /* the landmark table too: an edit repairs it around what it rebuilt */
  tu_assert_same_landmarks(ga, gb);
  edge_pair *ea = malloc((sa.nodes + 1) * sizeof *ea);
  edge_pair *eb = malloc((sa.nodes + 1) * sizeof *eb);
  assert_non_null(ea);
  assert_non_null(eb);
  size_t total = 0;
  for (uint32_t v = 0; v < sa.nodes; v++) {
    cairn_point pa, pb;
    assert_int_equal(cairn_hpa_node(a, v, &pa), CAIRN_OK);
    assert_int_equal(cairn_hpa_node(b, v, &pb), CAIRN_OK);
    assert_int_equal(pa.x, pb.x);
    assert_int_equal(pa.y, pb.y);
    uint32_t na = cairn_graph_neighbours(ga, v, NULL, NULL);
    uint32_t nb = cairn_graph_neighbours(gb, v, NULL, NULL);
    assert_int_equal(na, nb);
    assert_true(na <= sa.nodes);
    sorted_edges(ga, v, ea);
    sorted_edges(gb, v, eb);
    for (uint32_t i = 0; i < na; i++) {
      assert_int_equal(ea[i].to, eb[i].to);
      assert_true(ea[i].cost == eb[i].cost);
    }
    total += na;
  }
  assert_int_equal(total, sa.edges);
  free(ea);
  free(eb);
  /* the clusters behind the graph */
  for (uint32_t k = 0; k < sa.clusters; k++) {
    const hpa_cluster *ca = &a->clusters[k], *cb = &b->clusters[k];
    assert_int_equal(ca->n, cb->n);
    assert_int_equal(ca->first, cb->first);
    assert_int_equal(ca->n_steps, cb->n_steps);
    size_t nn = (size_t)ca->n * ca->n;
    if (ca->n) {
      assert_memory_equal(ca->cell, cb->cell, ca->n * sizeof *ca->cell);
      assert_memory_equal(ca->dist, cb->dist, nn * sizeof *ca->dist);
    }
    assert_memory_equal(ca->off, cb->off, (nn + 1) * sizeof *ca->off);
    if (ca->n_steps) assert_memory_equal(ca->steps, cb->steps, ca->n_steps);
  }
  if (sa.nodes)
    assert_memory_equal(a->node_cluster, b->node_cluster,
                        sa.nodes * sizeof *a->node_cluster);
  if (sa.levels == 3) assert_same_level2(a, b, sa.nodes);
  assert_int_equal(sa.max_size, sb.max_size);
  assert_same_sizes(a, b);
}

/* n random queries (open start and goal) answered by h (through q) and by
 * a hierarchy built from scratch on a copy of the grid: identical answers;
 * every other one forces the hierarchy (nearby 0). Both grids' islands must
 * be fresh. Returns how many routes the level-2 graph planned. */
static inline int assert_same_answers(cairn_hpa_query *qa, const cairn_hpa *a,
                                      cairn_hpa_query *qb, const cairn_hpa *b,
                                      const cairn_grid *g, uint64_t *rng, int n) {
  int level2 = 0;
  if (cairn_grid_passable(g) == 0) return 0;
  for (int i = 0; i < n; i++) {
    cairn_point s = tu_random_open(rng, g), t = tu_random_open(rng, g);
    cairn_hpa_path_opts o = popts(i % 2 ? 0 : -1, i % 3 != 0);
    cairn_hpa_result ra, rb;
    cairn_status sa = cairn_hpa_find(qa, a, s, t, &o, &ra);
    cairn_status sb = cairn_hpa_find(qb, b, s, t, &o, &rb);
    assert_int_equal(sa, sb);
    assert_int_equal(sa, ra.status);
    assert_true(sa == CAIRN_OK || sa == CAIRN_NO_PATH);
    assert_same_result(&ra, &rb);
    if (sa == CAIRN_OK)
      assert_true(tu_path_cost(g, ra.path, ra.path_len, s, t, 8) == ra.cost);
    level2 += ra.route2_len > 0;
  }
  return level2;
}

/* Builds a fresh hierarchy on a copy of h's grid and checks it is the same
 * as h, and answers `queries` random queries the same way; returns how many
 * of them the level-2 graph planned. (One build thread: thread counts are
 * checked elsewhere, and parallel builds of tiny maps mostly wait on each
 * other.) */
static inline int assert_matches_fresh(const cairn_hpa *h, const cairn_grid *g,
                                       int32_t cs, uint64_t *rng, int queries) {
  assert_false(h->stale);
  cairn_grid *copy = copy_grid(g);
  cairn_hpa_stats hs;
  cairn_hpa_get_stats(h, &hs);
  cairn_hpa *fresh = build_block(copy, cs, 1, hs.levels, hs.levels == 3 ? hs.block : 0);
  assert_same_hierarchy(h, fresh);
  cairn_hpa_query *qa = new_query(), *qb = new_query();
  int level2 = assert_same_answers(qa, h, qb, fresh, g, rng, queries);
  cairn_hpa_query_destroy(qa);
  cairn_hpa_query_destroy(qb);
  cairn_hpa_destroy(fresh);
  cairn_grid_destroy(copy);
  return level2;
}

/* A* on the grid (exact). */
static inline cairn_status astar(cairn_search *s, const cairn_grid *g, cairn_point a,
                                 cairn_point b, cairn_cost *cost) {
  cairn_result r;
  cairn_status st = cairn_astar(s, g, a, b, NULL, &r);
  *cost = r.cost;
  return st;
}

/* ---- threads -------------------------------------------------------- */

static inline cairn_hpa_path_opts mixed_opts(int i) {
  switch (i % 4) {
  case 0: return popts(-1, 1);
  case 1: return popts(0, 1);
  case 2: return popts(0, 0);
  default: return popts(-1, 0);
  }
}

/* ---- edits ---------------------------------------------------------- */

enum { MAX_BATCH = 64 };

enum batch_kind {
  B_CELL,
  B_RECT,
  B_BORDER,
  B_CORNER,
  B_OPEN,
  B_CLOSE,
  B_SCATTER,
  B_EDGE,
  B_KINDS
};

static inline uint8_t random_cost(uint64_t *rng, int max_cost) {
  return (uint8_t)tu_below(rng, (uint32_t)max_cost + 1); /* 0 = wall */
}

/* Fills one batch of edits of the given kind; returns its size. */
static inline size_t make_batch(uint64_t *rng, const cairn_grid *g, int32_t cs,
                                int kind, int max_cost, cairn_point *cells,
                                uint8_t *costs) {
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  int32_t cw = (w + cs - 1) / cs, ch = (h + cs - 1) / cs;
  size_t n = 0;
  switch (kind) {
  case B_CELL:
    cells[n] = pt((int32_t)tu_below(rng, (uint32_t)w), (int32_t)tu_below(rng, (uint32_t)h));
    costs[n++] = random_cost(rng, max_cost);
    break;
  case B_RECT: {
    int32_t rw = 1 + (int32_t)tu_below(rng, 4), rh = 1 + (int32_t)tu_below(rng, 4);
    int32_t x0 = (int32_t)tu_below(rng, (uint32_t)(w - rw + 1));
    int32_t y0 = (int32_t)tu_below(rng, (uint32_t)(h - rh + 1));
    bool solid = tu_below(rng, 2) == 0; /* one cost for all, or mixed */
    uint8_t c0 = random_cost(rng, max_cost);
    for (int32_t y = y0; y < y0 + rh; y++)
      for (int32_t x = x0; x < x0 + rw; x++) {
        cells[n] = pt(x, y);
        costs[n++] = solid ? c0 : random_cost(rng, max_cost);
      }
    break;
  }
  case B_BORDER: {
    bool vertical = tu_below(rng, 2) == 0;
    if (vertical ? cw < 2 : ch < 2) vertical = !vertical;
    if (vertical ? cw < 2 : ch < 2) break;
    int32_t k = 1 + (int32_t)tu_below(rng, (uint32_t)((vertical ? cw : ch) - 1));
    int32_t line = k * cs - 1 + (int32_t)tu_below(rng, 2); /* either side */
    int32_t len = 1 + (int32_t)tu_below(rng, 3);
    int32_t along = (int32_t)tu_below(rng, (uint32_t)(vertical ? h : w));
    for (int32_t i = 0; i < len; i++) {
      int32_t a = along + i;
      if (a >= (vertical ? h : w)) break;
      cells[n] = vertical ? pt(line, a) : pt(a, line);
      costs[n++] = random_cost(rng, max_cost);
    }
    break;
  }
  case B_CORNER: {
    if (cw < 2 || ch < 2) break;
    int32_t x = (1 + (int32_t)tu_below(rng, (uint32_t)(cw - 1))) * cs;
    int32_t y = (1 + (int32_t)tu_below(rng, (uint32_t)(ch - 1))) * cs;
    bool all_open = tu_below(rng, 2) == 0; /* make the diagonal crossing */
    for (int32_t dy = -1; dy <= 0; dy++)
      for (int32_t dx = -1; dx <= 0; dx++) {
        if (!all_open && tu_below(rng, 3) == 0) continue;
        cells[n] = pt(x + dx, y + dy);
        costs[n++] = all_open ? (uint8_t)(1 + tu_below(rng, (uint32_t)max_cost))
                              : random_cost(rng, max_cost);
      }
    break;
  }
  case B_OPEN:
  case B_CLOSE: {
    size_t want = 1 + tu_below(rng, 6);
    for (int tries = 0; tries < 400 && n < want; tries++) {
      cairn_point p = pt((int32_t)tu_below(rng, (uint32_t)w), (int32_t)tu_below(rng, (uint32_t)h));
      bool open = cairn_grid_cost(g, p.x, p.y) != 0;
      if (kind == B_OPEN ? open : !open) continue;
      bool dup = false;
      for (size_t i = 0; i < n; i++) dup |= cells[i].x == p.x && cells[i].y == p.y;
      if (dup) continue;
      cells[n] = p;
      costs[n++] = kind == B_OPEN ? (uint8_t)(1 + tu_below(rng, (uint32_t)max_cost)) : 0;
    }
    break;
  }
  case B_SCATTER: { /* far apart: the per-cell path of cairn_hpa_edit */
    size_t want = 2 + tu_below(rng, 4);
    for (size_t i = 0; i < want; i++) {
      cells[n] = pt((int32_t)tu_below(rng, (uint32_t)w), (int32_t)tu_below(rng, (uint32_t)h));
      costs[n++] = random_cost(rng, max_cost);
    }
    cells[0] = pt(0, 0); /* opposite corners, so the box is wide */
    cells[1] = pt(w - 1, h - 1);
    break;
  }
  default: { /* B_EDGE: the map's outer rows and columns */
    size_t want = 1 + tu_below(rng, 3);
    for (size_t i = 0; i < want; i++) {
      int side = (int)tu_below(rng, 4);
      int32_t a = (int32_t)tu_below(rng, (uint32_t)(side < 2 ? h : w));
      cells[n] = side == 0 ? pt(0, a) : side == 1 ? pt(w - 1, a)
                 : side == 2 ? pt(a, 0) : pt(a, h - 1);
      costs[n++] = random_cost(rng, max_cost);
    }
    break;
  }
  }
  assert_true(n <= MAX_BATCH);
  return n;
}

/* ---- against A* ----------------------------------------------------- */

typedef struct vs_astar {
  size_t queries, found, plain;
  double sub_sum;
} vs_astar;

/* One query under opts o: found iff A* finds a path, valid, cost at least
 * A*'s, equal when plain A* answered; without smoothing the path costs what
 * the route does, with it no more. */
static inline void check_against_astar(cairn_hpa_query *q, const cairn_hpa *h,
                                       cairn_search *s, const cairn_grid *g,
                                       cairn_point a, cairn_point b,
                                       const cairn_hpa_path_opts *o, vs_astar *tally) {
  cairn_cost best;
  cairn_status want = astar(s, g, a, b, &best);
  assert_true(want == CAIRN_OK || want == CAIRN_NO_PATH);
  cairn_hpa_result r;
  cairn_status st = cairn_hpa_find(q, h, a, b, o, &r);
  if (st != want)
    fail_msg("(%d,%d)->(%d,%d) nearby %d smooth %d: %s, A* %s", a.x, a.y, b.x,
             b.y, o->nearby, o->smooth, cairn_status_str(st), cairn_status_str(want));
  assert_int_equal(r.status, st);
  tally->queries++;
  if (st != CAIRN_OK) {
    assert_true(r.cost == CAIRN_COST_INF);
    assert_int_equal(r.path_len, 0);
    return;
  }
  tally->found++;
  cairn_path_check chk;
  cairn_grid_check_path(g, r.path, r.path_len, a, b, 8, &chk);
  if (!chk.valid) fail_msg("invalid path: %s at %zu", chk.problem, chk.bad_index);
  assert_true(tu_path_cost(g, r.path, r.path_len, a, b, 8) == r.cost);
  assert_true(r.path_len >= 1);
  assert_true(r.cost >= best);
  assert_true(r.route_cost >= best);
  assert_true(r.cost <= r.route_cost);
  if (!o->smooth) assert_true(r.cost == r.route_cost);
  if (r.plain) {
    tally->plain++;
    assert_true(r.cost == best);
    assert_int_equal(r.route_len, 0);
  } else {
    assert_true(r.route_len >= 2);
    assert_int_equal(r.route_refined, r.route_len - 1);
  }
  if (o->nearby == 0 && !(a.x == b.x && a.y == b.y)) assert_int_equal(r.plain, 0);
  if (best) tally->sub_sum += (double)(r.cost - best) / (double)best;
}

/* ---- bad input and odd maps ----------------------------------------- */

static inline void refused(cairn_status st, cairn_status want, const cairn_hpa_result *r) {
  assert_int_equal(st, want);
  if (r) {
    assert_int_equal(r->status, want);
    assert_true(r->cost == CAIRN_COST_INF);
    assert_null(r->path);
    assert_int_equal(r->path_len, 0);
  }
}

#endif
