/* Landmarks after an edit, repaired around the rebuilt clusters (level 1)
 * or blocks (level 2) instead of filled again: a fill per landmark was
 * most of an edit (on TheFrozenSea about 70 % of a one-cell edit's time).
 *
 * An edit rebuilds some clusters, and the blocks that hold them: the
 * units of level 1 and level 2. Every other unit keeps its nodes, in the
 * same order under new ids, and every edge between two of them. So a
 * landmark's old cost still holds at a kept node that reaches the landmark
 * along kept nodes only, and the rest is a Dijkstra seeded at the border
 * of what changed (Ramalingam and Reps' repair of shortest paths):
 * - carry: kept nodes take their old costs, the rebuilt units' nodes
 *   none;
 * - lose: in order of old cost, from the kept nodes next to the rebuilt
 *   ones, a kept node whose cost no kept in-neighbour still gives exactly
 *   (old cost plus the edge) loses it, and its exact out-neighbours become
 *   candidates in turn. A node that keeps its cost keeps an exact chain of
 *   kept nodes back to the landmark, so it is a real route's cost in the
 *   new graph;
 * - refill: the rebuilt and the lost nodes start from their best
 *   in-neighbour among the rest, and a Dijkstra from them lowers whatever
 *   they reach for less, kept nodes included (an edit can open a shorter
 *   way). Every label is then an upper bound and every improvement passes
 *   through the queue, so the costs are exact: the same table as a fill.
 * A landmark that moved (its unit rebuilt, or another node picked) gets
 * a whole fill. The landmarks are picked as a build picks them, so the
 * table is the one a fresh build of the edited grid would have. The old
 * table's copy and the new rows live in buffers the hierarchy keeps for
 * the next edit (h->lm_was, h->lm_rows). */
#include "hpa_internal.h"
#include "hpa_lm_heap.h"

#include <string.h>

enum { KEPT_UNSEEN, KEPT_ASKED, KEPT_HOLDS, KEPT_LOST };

/* The graph's edges by their heads: the in-edges of node v are
 * from[off[v] .. off[v + 1]), at those costs. */
typedef struct in_edges {
  uint32_t *off, *from;
  cairn_cost *cost;
} in_edges;

typedef struct repair_pass {
  const cairn_hpa *h;
  const cairn_graph *g;   /* the level's graph */
  uint32_t n;             /* its nodes */
  const uint32_t *unit;   /* the unit of each node */
  uint32_t units;
  in_edges in;
  const hpa_lm_before *b;
  const uint8_t *rebuilt; /* per unit: 1 if the edit rebuilt it */
  uint32_t *fresh;        /* the rebuilt units' nodes */
  uint32_t n_fresh;
  const uint32_t *nodes;  /* the landmarks (new ids) */
  const int32_t *from;    /* each one's old row, or -1: fill it whole */
  cairn_cost *costs;      /* k rows of n */
} repair_pass;

typedef struct repair_scratch {
  lm_heap q;
  uint8_t *state; /* per node: KEPT_*, KEPT_UNSEEN between rows */
  uint32_t *asked; /* the nodes a row asked about, in order */
  uint32_t n_asked;
} repair_scratch;

static bool node_rebuilt(const repair_pass *p, uint32_t v) {
  return p->rebuilt[p->unit[v]] != 0;
}

/* The ids of unit u's nodes on the level: [*first, *first + *n). */
static void unit_span(const cairn_hpa *h, int level, uint32_t u, uint32_t *first, uint32_t *n) {
  if (level == 1) {
    *first = h->clusters[u].first;
    *n = h->clusters[u].n;
  } else {
    *first = h->blocks[u].first;
    *n = h->blocks[u].n;
  }
}

static uint32_t level_units(const cairn_hpa *h, int level) {
  return level == 1 ? (uint32_t)h->cw * (uint32_t)h->ch : (uint32_t)h->bw * (uint32_t)h->bh;
}

/* The least cost at v over its in-neighbours that are neither rebuilt
 * nor lost; exact: only one equal to row[v] counts. */
static cairn_cost best_in(const repair_pass *p, const repair_scratch *s, const cairn_cost *row,
                          uint32_t v, bool exact) {
  cairn_cost best = CAIRN_COST_INF;
  for (uint32_t k = p->in.off[v]; k < p->in.off[v + 1]; k++) {
    const uint32_t u = p->in.from[k];
    if (row[u] == CAIRN_COST_INF || s->state[u] == KEPT_LOST || node_rebuilt(p, u)) continue;
    const cairn_cost at = row[u] + p->in.cost[k];
    if (exact && at == row[v]) return at;
    if (at < best) best = at;
  }
  return exact ? CAIRN_COST_INF : best;
}

/* Kept node v joins the candidates, in order of its cost. */
static void ask(repair_scratch *s, const cairn_cost *row, uint32_t v) {
  if (s->state[v] != KEPT_UNSEEN || row[v] == CAIRN_COST_INF) return;
  s->state[v] = KEPT_ASKED;
  s->asked[s->n_asked++] = v;
  lm_heap_push(&s->q, row[v], v);
}

/* Marks KEPT_LOST every kept node whose old cost no longer holds. */
static void lose(const repair_pass *p, repair_scratch *s, cairn_cost *row, uint32_t landmark) {
  const cairn_graph *g = p->g;
  const uint32_t *to;
  const cairn_cost *cost;
  for (uint32_t i = 0; i < p->n_fresh; i++) {
    const uint32_t m = cairn_graph_neighbours(g, p->fresh[i], &to, &cost);
    for (uint32_t k = 0; k < m; k++)
      if (!node_rebuilt(p, to[k])) ask(s, row, to[k]);
  }
  while (s->q.len) {
    const uint32_t v = lm_heap_pop(&s->q).node;
    if (v == landmark || best_in(p, s, row, v, true) != CAIRN_COST_INF) {
      s->state[v] = KEPT_HOLDS;
      continue;
    }
    s->state[v] = KEPT_LOST;
    const uint32_t m = cairn_graph_neighbours(g, v, &to, &cost);
    for (uint32_t k = 0; k < m; k++)
      if (!node_rebuilt(p, to[k]) && row[v] + cost[k] == row[to[k]]) ask(s, row, to[k]);
  }
}

/* The rebuilt and lost nodes from their best in-neighbours, then a
 * Dijkstra from them over everything they lower. */
static void seed(const repair_pass *p, repair_scratch *s, cairn_cost *row, uint32_t v) {
  row[v] = best_in(p, s, row, v, false);
  if (row[v] != CAIRN_COST_INF) lm_heap_push(&s->q, row[v], v);
}

static void refill(const repair_pass *p, repair_scratch *s, cairn_cost *row) {
  for (uint32_t i = 0; i < p->n_fresh; i++) seed(p, s, row, p->fresh[i]);
  for (uint32_t i = 0; i < s->n_asked; i++)
    if (s->state[s->asked[i]] == KEPT_LOST) seed(p, s, row, s->asked[i]);
  lm_settle(p->g, &s->q, row);
}

/* Row i from its old row: carry, lose, refill. */
static void repair_row(const repair_pass *p, repair_scratch *s, uint32_t i) {
  cairn_cost *row = p->costs + (size_t)i * p->n;
  const cairn_cost *old = p->b->cost + (size_t)p->from[i] * p->b->n;
  for (uint32_t u = 0; u < p->units; u++) {
    uint32_t first, count;
    unit_span(p->h, p->b->level, u, &first, &count);
    if (!p->rebuilt[u]) memcpy(row + first, old + p->b->first[u], count * sizeof *row);
  }
  for (uint32_t k = 0; k < p->n_fresh; k++) row[p->fresh[k]] = CAIRN_COST_INF;
  s->q.len = 0;
  s->n_asked = 0;
  lose(p, s, row, p->nodes[i]);
  /* a lost node's old cost is no bound: it starts again from its
   * in-neighbours */
  for (uint32_t k = 0; k < s->n_asked; k++)
    if (s->state[s->asked[k]] == KEPT_LOST) row[s->asked[k]] = CAIRN_COST_INF;
  refill(p, s, row);
  for (uint32_t k = 0; k < s->n_asked; k++) s->state[s->asked[k]] = KEPT_UNSEEN;
}

static cairn_status repair_init(void *ctx, void *scratch) {
  const repair_pass *p = ctx;
  repair_scratch *s = scratch;
  const size_t n = p->n;
  /* pushes: each candidate once; then each seed once and each edge at
   * most once (when its tail settles); four sentinels */
  const size_t cap = cairn_graph_edges(p->g) + n + 5;
  lm_entry *e = cairn__alloc(&p->h->alloc, cap * sizeof *e);
  s->state = cairn__alloc(&p->h->alloc, n ? n : 1);
  s->asked = cairn__alloc(&p->h->alloc, (n ? n : 1) * sizeof *s->asked);
  if (!e || !s->state || !s->asked) {
    cairn__free(&p->h->alloc, e, cap * sizeof *e);
    cairn__free(&p->h->alloc, s->state, n ? n : 1);
    cairn__free(&p->h->alloc, s->asked, (n ? n : 1) * sizeof *s->asked);
    lm_heap_init(&s->q, NULL, 0);
    s->state = NULL;
    s->asked = NULL;
    return CAIRN_ERR_NOMEM;
  }
  lm_heap_init(&s->q, e, cap);
  memset(s->state, 0, n ? n : 1);
  return CAIRN_OK;
}

static cairn_status repair_run(void *ctx, void *scratch, size_t i) {
  const repair_pass *p = ctx;
  repair_scratch *s = scratch;
  const uint32_t n = p->n;
  if (p->from[i] < 0) lm_fill_row(p->g, n, &s->q, p->nodes[i], p->costs + i * n);
  else repair_row(p, s, (uint32_t)i);
  return CAIRN_OK;
}

static void repair_fini(void *ctx, void *scratch) {
  const repair_pass *p = ctx;
  repair_scratch *s = scratch;
  const size_t n = p->n;
  cairn__free(&p->h->alloc, s->q.e, s->q.cap * sizeof *s->q.e);
  cairn__free(&p->h->alloc, s->state, n ? n : 1);
  cairn__free(&p->h->alloc, s->asked, (n ? n : 1) * sizeof *s->asked);
}

/* Kept buffer *buf of *cap entries (h->lm_was, h->lm_rows), grown to hold
 * `size`; NULL when that cannot be had. */
static cairn_cost *kept(cairn_hpa *h, cairn_cost **buf, size_t *cap, size_t size) {
  if (size <= *cap) return *buf;
  cairn__free(&h->alloc, *buf, *cap * sizeof **buf);
  *buf = cairn__alloc(&h->alloc, size * sizeof **buf);
  *cap = *buf ? size : 0;
  return *buf;
}

cairn_status cairn__hpa_lm_before(cairn_hpa *h, int level, hpa_lm_before *b) {
  memset(b, 0, sizeof *b);
  const cairn_graph *g = level == 1 ? h->graph : h->graph2;
  const uint32_t k = h->layer || !g ? 0 : cairn_graph_landmarks(g);
  if (!k) return CAIRN_OK;
  const uint32_t units = level_units(h, level);
  b->n = level == 1 ? h->n_nodes : h->n2;
  b->cost = kept(h, &h->lm_was[level - 1], &h->lm_was_cap[level - 1], (size_t)k * b->n);
  b->first = cairn__alloc(&h->alloc, units * sizeof *b->first);
  if (!b->cost || !b->first) {
    cairn__free(&h->alloc, b->first, units * sizeof *b->first);
    memset(b, 0, sizeof *b);
    return CAIRN_ERR_NOMEM;
  }
  for (uint32_t i = 0; i < k; i++) {
    b->node[i] = cairn_graph_landmark_node(g, i);
    for (uint32_t v = 0; v < b->n; v++)
      b->cost[(size_t)i * b->n + v] = cairn_graph_landmark_cost(g, i, v);
  }
  for (uint32_t u = 0; u < units; u++) {
    uint32_t count;
    unit_span(h, level, u, &b->first[u], &count);
  }
  b->level = level;
  b->units = units;
  b->k = k;
  return CAIRN_OK;
}

void cairn__hpa_lm_before_free(const cairn_hpa *h, hpa_lm_before *b) {
  cairn__free(&h->alloc, b->first, (b->k ? b->units : 0) * sizeof *b->first);
  memset(b, 0, sizeof *b);
}

static void in_edges_free(const cairn_hpa *h, in_edges *in, size_t n, size_t m) {
  cairn__free(&h->alloc, in->off, (n + 1) * sizeof *in->off);
  cairn__free(&h->alloc, in->from, (m ? m : 1) * sizeof *in->from);
  cairn__free(&h->alloc, in->cost, (m ? m : 1) * sizeof *in->cost);
}

/* The in-edges of g (n nodes, m edges). */
static cairn_status in_edges_make(const cairn_hpa *h, const cairn_graph *g, in_edges *in,
                                  size_t n, size_t m) {
  in->off = cairn__alloc(&h->alloc, (n + 1) * sizeof *in->off);
  in->from = cairn__alloc(&h->alloc, (m ? m : 1) * sizeof *in->from);
  in->cost = cairn__alloc(&h->alloc, (m ? m : 1) * sizeof *in->cost);
  if (!in->off || !in->from || !in->cost) {
    in_edges_free(h, in, n, m);
    return CAIRN_ERR_NOMEM;
  }
  memset(in->off, 0, (n + 1) * sizeof *in->off);
  const uint32_t *to;
  const cairn_cost *cost;
  for (uint32_t u = 0; u < n; u++) {
    const uint32_t d = cairn_graph_neighbours(g, u, &to, &cost);
    for (uint32_t k = 0; k < d; k++) in->off[to[k] + 1]++;
  }
  for (size_t v = 0; v < n; v++) in->off[v + 1] += in->off[v];
  /* off[v + 1] is the end of v's edges: fill each from its end down, in
   * order of tail, which leaves off[v + 1] at v's first edge */
  for (uint32_t u = (uint32_t)n; u-- > 0;) {
    const uint32_t d = cairn_graph_neighbours(g, u, &to, &cost);
    for (uint32_t k = d; k-- > 0;) {
      const uint32_t at = --in->off[to[k] + 1];
      in->from[at] = u;
      in->cost[at] = cost[k];
    }
  }
  for (size_t v = 0; v < n; v++) in->off[v] = in->off[v + 1];
  in->off[n] = (uint32_t)m;
  return CAIRN_OK;
}

/* Old row of new landmark v, or -1 if its unit was rebuilt or it was no
 * landmark before. */
static int32_t old_row(const repair_pass *p, uint32_t v) {
  const uint32_t u = p->unit[v];
  if (p->rebuilt[u]) return -1;
  uint32_t first, count;
  unit_span(p->h, p->b->level, u, &first, &count);
  const uint32_t was = p->b->first[u] + (v - first);
  for (uint32_t j = 0; j < p->b->k; j++)
    if (p->b->node[j] == was) return (int32_t)j;
  return -1;
}

cairn_status cairn__hpa_landmarks_repair(cairn_hpa *h, int level, const hpa_lm_before *b,
                                         const uint8_t *rebuilt) {
  if (!b->k || !rebuilt || h->layer || b->level != level) return cairn__hpa_landmarks(h, level);
  uint32_t nodes[CAIRN_GRAPH_MAX_LANDMARKS], k = 0;
  int32_t from[CAIRN_GRAPH_MAX_LANDMARKS];
  cairn_graph *g = level == 1 ? h->graph : h->graph2;
  cairn_status st = cairn__hpa_landmark_pick(h, level, nodes, &k);
  if (st != CAIRN_OK) return st;
  if (!k) return cairn_graph_set_landmarks(g, NULL, 0, NULL);
  const uint32_t n = level == 1 ? h->n_nodes : h->n2;
  const size_t m = cairn_graph_edges(g);
  repair_pass r = {h, g, n, level == 1 ? h->node_cluster : h->l2_block, b->units,
                   {NULL, NULL, NULL}, b, rebuilt, NULL, 0, nodes, from, NULL};
  for (uint32_t i = 0; i < k; i++) from[i] = old_row(&r, nodes[i]);
  r.costs = kept(h, &h->lm_rows[level - 1], &h->lm_rows_cap[level - 1], (size_t)k * n);
  r.fresh = cairn__alloc(&h->alloc, (n ? n : 1) * sizeof *r.fresh);
  st = r.costs && r.fresh ? in_edges_make(h, g, &r.in, n, m) : CAIRN_ERR_NOMEM;
  if (st == CAIRN_OK) {
    for (uint32_t v = 0; v < n; v++)
      if (node_rebuilt(&r, v)) r.fresh[r.n_fresh++] = v;
    hpa_pass p = {&r, sizeof(repair_scratch), 1, repair_init, repair_run, repair_fini};
    st = cairn__hpa_run_pass(h, &p, k);
    in_edges_free(h, &r.in, n, m);
  }
  if (st == CAIRN_OK) st = cairn_graph_set_landmarks(g, nodes, k, r.costs);
  cairn__free(&h->alloc, r.fresh, (r.fresh ? (n ? n : 1) : 0) * sizeof *r.fresh);
  return st;
}
