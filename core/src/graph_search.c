/* A* on graphs, linked queries, fills and landmarks.
 *
 * The search uses the same context, node records and heap as the grid loop
 * (search_grid.c); only the expansion differs: out-edges come from the CSR arrays
 * and the heuristic from the node positions. The step function is
 * specialised at compile time on the heuristic, as the grid one is. */
#include "graph_internal.h"

#include <math.h>

/* ---- A* ------------------------------------------------------------- */

/* The heuristic's distance between two positions, in steps. */
CAIRN_INLINE double graph_dist(const int H, double dx, double dy) {
  switch (H) {
  case CAIRN_GH_EUCLIDEAN:
    return sqrt(dx * dx + dy * dy);
  case CAIRN_GH_HEX:
    return (fabs(dx) + fabs(dy) + fabs(dx + dy)) / 2;
  default: { /* octile, with the grid's own fixed-point diagonal */
    double ax = fabs(dx), ay = fabs(dy);
    double lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
    return (hi - lo) + lo * ((double)CAIRN_COST_DIAG / (double)CAIRN_COST_ONE);
  }
  }
}

/* Floored (the cast truncates a non-negative value), so with an admissible
 * scale it never exceeds the fixed-point cost; clamped so that positions far
 * apart (or inf - inf = NaN) cannot overflow the conversion. */
CAIRN_INLINE cairn_cost graph_h_xy(const cairn_graph *g, const int H,
                                   double x, double y, double gx, double gy) {
  if (H == CAIRN_GH_ZERO) return 0;
  double h = graph_dist(H, x - gx, y - gy) * g->h_factor;
  return h < (double)GRAPH_COST_MAX ? (cairn_cost)h : GRAPH_COST_MAX;
}

CAIRN_INLINE cairn_cost graph_h(const cairn_graph *g, const int H, uint32_t v,
                                double gx, double gy) {
  if (H == CAIRN_GH_ZERO) return 0;
  return graph_h_xy(g, H, g->xy[2 * (size_t)v], g->xy[2 * (size_t)v + 1], gx,
                    gy);
}

/* The best landmark bound on the cost from graph node v to the goal. A
 * landmark that reaches the goal but not v says nothing (v may still reach
 * the goal another way round), and one that misses the goal is skipped. */
/* Landmark i's cost to node v, CAIRN_COST_INF if it does not reach v. */
static inline cairn_cost landmark_cost(const cairn_graph *g, uint32_t v,
                                       uint32_t i) {
  size_t at = (size_t)v * g->n_lm + i;
  if (g->lm) return g->lm[at];
  return g->lm32[at] == UINT32_MAX ? CAIRN_COST_INF : g->lm32[at];
}

CAIRN_INLINE cairn_cost landmark_h(const cairn_search *s, uint32_t v) {
  const cairn_graph *g = s->lm_graph;
  cairn_cost best = 0;
  if (g->lm32) { /* unreachable is UINT32_MAX, which no goal cost exceeds */
    const uint32_t *row = g->lm32 + (size_t)v * s->n_lm;
    for (uint32_t i = 0; i < s->n_lm; i++) {
      const cairn_cost d = s->lm_goal[i], r = row[i];
      if (r < d && d != CAIRN_COST_INF && d - r > best) best = d - r;
    }
    return best;
  }
  const cairn_cost *row = g->lm + (size_t)v * s->n_lm;
  for (uint32_t i = 0; i < s->n_lm; i++) {
    const cairn_cost d = s->lm_goal[i], r = row[i];
    if (r < d && d != CAIRN_COST_INF && d - r > best) best = d - r;
  }
  return best;
}

/* Relaxes the edge c -> nb of cost ec. */
CAIRN_INLINE void relax(cairn_search *s, const cairn_graph *g, const int H,
                        uint32_t c, uint32_t nb, cairn_cost ec, double gx,
                        double gy) {
  const cairn_cost ng = s->nodes[c].g + ec;
  if (s->node_area && nb < g->n && s->node_area[nb] && !cairn__de_may_enter(s, s->node_area[nb]))
    return;
  if (cairn__is_fresh(s, nb)) {
    cairn_cost h = 0; /* the goal's */
    if (nb < g->n) {
      h = graph_h(g, H, nb, gx, gy);
      if (s->n_lm) {
        cairn_cost b = landmark_h(s, nb);
        if (b > h) h = b;
      }
    }
    cairn__open(s, nb, ng, h, c);
  } else if (cairn__is_open(s, nb) && ng < s->nodes[nb].g) {
    cairn__lower(s, nb, ng, c);
  }
}

/* LINKED: the search runs from the virtual start (node n) to the virtual
 * goal (n + 1); node c has a link to the goal when goal_mark[c] is set.
 * (Fills have their own loop below.) */
CAIRN_INLINE cairn_status graph_step_impl(cairn_search *s, uint64_t budget,
                                          const int H, const bool LINKED) {
  const cairn_graph *g = s->graph;
  const uint32_t goal = s->goal;
  const double gx = H == CAIRN_GH_ZERO ? 0
                    : LINKED           ? s->goal_xy[0]
                                       : g->xy[2 * (size_t)goal];
  const double gy = H == CAIRN_GH_ZERO ? 0
                    : LINKED           ? s->goal_xy[1]
                                       : g->xy[2 * (size_t)goal + 1];
  bool limited;
  uint64_t n = cairn__step_budget(s, budget, &limited);
  while (n--) {
    if (!s->heap_len) return cairn__finish(s, CAIRN_NO_PATH);
    const uint32_t c = cairn__pop(s);
    if (c == goal) {
      s->found = c;
      return cairn__finish(s, CAIRN_OK);
    }
    if (LINKED && c == g->n) { /* the virtual start */
      for (size_t k = 0; k < s->n_from_start; k++)
        relax(s, g, H, c, s->from_start[k].node, s->from_start[k].cost, gx, gy);
      if (s->direct != CAIRN_COST_INF) relax(s, g, H, c, goal, s->direct, gx, gy);
      continue;
    }
    for (uint32_t e = g->offset[c]; e < g->offset[c + 1]; e++)
      relax(s, g, H, c, g->target[e], g->cost[e], gx, gy);
    if (LINKED && s->goal_mark[c] == s->gen)
      relax(s, g, H, c, goal, s->to_goal[s->goal_id[c]].cost, gx, gy);
  }
  if (!s->heap_len) return cairn__finish(s, CAIRN_NO_PATH);
  if (limited) return cairn__finish(s, CAIRN_PARTIAL);
  return CAIRN_IN_PROGRESS;
}

#define GRAPH_STEP(name, H, L)                                  \
  static cairn_status name(cairn_search *s, uint64_t budget) {  \
    return graph_step_impl(s, budget, H, L);                    \
  }
GRAPH_STEP(step_zero, CAIRN_GH_ZERO, false)
GRAPH_STEP(step_euclid, CAIRN_GH_EUCLIDEAN, false)
GRAPH_STEP(step_hex, CAIRN_GH_HEX, false)
GRAPH_STEP(step_octile, CAIRN_GH_OCTILE, false)
GRAPH_STEP(step_zero_l, CAIRN_GH_ZERO, true)
GRAPH_STEP(step_euclid_l, CAIRN_GH_EUCLIDEAN, true)
GRAPH_STEP(step_hex_l, CAIRN_GH_HEX, true)
GRAPH_STEP(step_octile_l, CAIRN_GH_OCTILE, true)
/* [linked][heuristic] */
static const cairn__step_fn graph_steps[2][4] = {
    {step_zero, step_euclid, step_hex, step_octile},
    {step_zero_l, step_euclid_l, step_hex_l, step_octile_l}};

/* The heuristic from a position, dispatched at run time (start nodes). */
static cairn_cost h_from(const cairn_graph *g, double x, double y, double gx,
                         double gy) {
  switch (g->heuristic) {
  case CAIRN_GH_EUCLIDEAN:
    return graph_h_xy(g, CAIRN_GH_EUCLIDEAN, x, y, gx, gy);
  case CAIRN_GH_HEX:
    return graph_h_xy(g, CAIRN_GH_HEX, x, y, gx, gy);
  case CAIRN_GH_OCTILE:
    return graph_h_xy(g, CAIRN_GH_OCTILE, x, y, gx, gy);
  default:
    return 0;
  }
}

static cairn_cost start_h(const cairn_graph *g, uint32_t start, uint32_t goal) {
  if (g->heuristic == CAIRN_GH_ZERO) return 0;
  return h_from(g, g->xy[2 * (size_t)start], g->xy[2 * (size_t)start + 1],
                g->xy[2 * (size_t)goal], g->xy[2 * (size_t)goal + 1]);
}

cairn_status cairn_graph_astar_begin(cairn_search *s, const cairn_graph *g,
                                     uint32_t start, uint32_t goal,
                                     const cairn_search_opts *opts) {
  if (!s) return CAIRN_ERR_ARG;
  s->state = CAIRN_ERR_ARG;
  s->kind = CAIRN__NONE;
  if (!g) return CAIRN_ERR_ARG;
  if (start >= g->n || goal >= g->n) return s->state = CAIRN_ERR_RANGE;
  cairn_status st = cairn__search_prepare(s, g->n);
  if (st != CAIRN_OK) return s->state = st;
  cairn__search_reset(s, CAIRN__GRAPH, graph_steps[0][g->heuristic]);
  s->graph = s->lm_graph = g;
  s->graph_version = g->version;
  s->start = start;
  s->goal = goal;
  s->max_expanded = opts ? opts->max_expanded : 0;
  for (uint32_t i = 0; i < g->n_lm; i++) s->lm_goal[i] = landmark_cost(g, goal, i);
  s->n_lm = g->n_lm;
  cairn_cost h = start_h(g, start, goal);
  if (s->n_lm && landmark_h(s, start) > h) h = landmark_h(s, start);
  cairn__open(s, start, 0, h, start);
  return CAIRN_OK;
}

cairn_status cairn_graph_astar(cairn_search *s, const cairn_graph *g,
                               uint32_t start, uint32_t goal,
                               const cairn_search_opts *opts,
                               cairn_result *out) {
  return cairn__run_to_end(
      s, cairn_graph_astar_begin(s, g, start, goal, opts), out);
}

/* ---- linked queries ------------------------------------------------- */

#define LINK_COST_MAX ((cairn_cost)1 << 62)

static cairn_status check_query(const cairn_graph *g,
                                const cairn_graph_query *q) {
  if ((q->n_from_start && !q->from_start) || (q->n_to_goal && !q->to_goal))
    return CAIRN_ERR_ARG;
  for (size_t k = 0; k < q->n_from_start; k++)
    if (q->from_start[k].node >= g->n || q->from_start[k].cost >= LINK_COST_MAX)
      return CAIRN_ERR_ARG;
  for (size_t k = 0; k < q->n_to_goal; k++)
    if (q->to_goal[k].node >= g->n || q->to_goal[k].cost >= LINK_COST_MAX)
      return CAIRN_ERR_ARG;
  if (q->direct != CAIRN_COST_INF && q->direct >= LINK_COST_MAX)
    return CAIRN_ERR_ARG;
  if (g->heuristic != CAIRN_GH_ZERO)
    for (int i = 0; i < 2; i++)
      if (!cairn__finite(q->start_xy[i]) || !cairn__finite(q->goal_xy[i]))
        return CAIRN_ERR_ARG;
  return CAIRN_OK;
}

/* Marks the nodes linked to the goal; CAIRN_ERR_ARG on a node linked twice. */
static cairn_status mark_goal_links(cairn_search *s,
                                    const cairn_graph_query *q) {
  for (size_t k = 0; k < q->n_to_goal; k++) {
    uint32_t v = q->to_goal[k].node;
    if (s->goal_mark[v] == s->gen) return CAIRN_ERR_ARG;
    s->goal_mark[v] = s->gen;
    s->goal_id[v] = (uint32_t)k;
  }
  return CAIRN_OK;
}

/* The virtual goal's cost from each landmark of g (the graph whose table
 * bounds the search): it is entered only through its links, so the
 * cheapest landmark-to-node cost plus link. */
static void goal_landmarks(cairn_search *s, const cairn_graph *g,
                           const cairn_graph_query *q) {
  s->n_lm = g->n_lm;
  for (uint32_t i = 0; i < g->n_lm; i++) {
    cairn_cost best = CAIRN_COST_INF;
    for (size_t k = 0; k < q->n_to_goal; k++) {
      cairn_cost r = landmark_cost(g, q->to_goal[k].node, i);
      if (r != CAIRN_COST_INF && r + q->to_goal[k].cost < best)
        best = r + q->to_goal[k].cost;
    }
    s->lm_goal[i] = best;
  }
}

cairn_status cairn_graph_astar_linked_begin(cairn_search *s,
                                            const cairn_graph *g,
                                            const cairn_graph_query *q,
                                            const cairn_search_opts *opts) {
  if (!s) return CAIRN_ERR_ARG;
  s->state = CAIRN_ERR_ARG;
  s->kind = CAIRN__NONE;
  if (!g || !q || q->n_to_goal > UINT32_MAX) return CAIRN_ERR_ARG;
  if (q->bounds && q->bounds->n != g->n) return CAIRN_ERR_ARG;
  cairn_status st = check_query(g, q);
  if (st == CAIRN_OK) st = cairn__search_prepare(s, (size_t)g->n + 2);
  if (st == CAIRN_OK) st = cairn__search_goal_marks(s);
  if (st == CAIRN_OK) st = mark_goal_links(s, q);
  if (st != CAIRN_OK) return s->state = st;
  cairn__search_reset(s, CAIRN__GRAPH, graph_steps[1][g->heuristic]);
  s->graph = g;
  s->lm_graph = q->bounds ? q->bounds : g;
  s->graph_version = s->lm_graph->version;
  s->start = g->n;
  s->goal = g->n + 1;
  s->from_start = q->from_start;
  s->n_from_start = q->n_from_start;
  s->to_goal = q->to_goal;
  s->direct = q->direct;
  s->goal_xy[0] = q->goal_xy[0];
  s->goal_xy[1] = q->goal_xy[1];
  s->max_expanded = opts ? opts->max_expanded : 0;
  goal_landmarks(s, s->lm_graph, q);
  cairn_cost h = g->heuristic == CAIRN_GH_ZERO
                     ? 0
                     : h_from(g, q->start_xy[0], q->start_xy[1], q->goal_xy[0],
                              q->goal_xy[1]);
  cairn__open(s, s->start, 0, h, s->start);
  return CAIRN_OK;
}

cairn_status cairn_graph_astar_linked(cairn_search *s, const cairn_graph *g,
                                      const cairn_graph_query *q,
                                      const cairn_search_opts *opts,
                                      cairn_result *out) {
  return cairn__run_to_end(s, cairn_graph_astar_linked_begin(s, g, q, opts),
                           out);
}

/* ---- fills ---------------------------------------------------------- */

/* Dijkstra over the graph (no heuristic, no goal): until the open set
 * empties or the last marked target is settled. (A radix heap was tried
 * for these fills, with linked and with array buckets: slower than the
 * heap on the hierarchy's landmark fills, docs/PERFORMANCE.md.) */
static cairn_status step_fill(cairn_search *s, uint64_t budget) {
  const cairn_graph *g = s->graph;
  while (budget--) {
    if (!s->heap_len) return cairn__finish(s, CAIRN_OK);
    const uint32_t c = cairn__pop(s);
    if (s->goal_set && s->goal_mark[c] == s->gen && --s->targets_left == 0)
      return cairn__finish(s, CAIRN_OK);
    for (uint32_t k = g->offset[c]; k < g->offset[c + 1]; k++)
      relax(s, g, CAIRN_GH_ZERO, c, g->target[k], g->cost[k], 0, 0);
  }
  if (!s->heap_len) return cairn__finish(s, CAIRN_OK);
  return CAIRN_IN_PROGRESS;
}

/* ---- fills and node queries ----------------------------------------- */

cairn_status cairn_graph_fill(cairn_search *s, const cairn_graph *g,
                              const cairn_graph_link *sources,
                              size_t n_sources, const uint32_t *targets,
                              size_t n_targets) {
  if (!s) return CAIRN_ERR_ARG;
  s->state = CAIRN_ERR_ARG;
  s->kind = CAIRN__NONE;
  if (!g || !sources || !n_sources || (n_targets && !targets) ||
      n_targets > UINT32_MAX)
    return CAIRN_ERR_ARG;
  for (size_t k = 0; k < n_sources; k++)
    if (sources[k].node >= g->n || sources[k].cost >= LINK_COST_MAX)
      return CAIRN_ERR_ARG;
  cairn_status st = cairn__search_prepare(s, g->n);
  if (st == CAIRN_OK && n_targets) st = cairn__search_goal_marks(s);
  if (st != CAIRN_OK) return s->state = st;
  cairn__search_reset(s, CAIRN__GRAPH, step_fill);
  s->graph = s->lm_graph = g;
  s->graph_version = g->version;
  s->full_map = true;
  s->max_expanded = 0;
  s->targets_left = 0;
  for (size_t k = 0; k < n_targets; k++) {
    uint32_t v = targets[k];
    if (v >= g->n) {
      s->targets_left++; /* never settled */
      continue;
    }
    if (s->goal_mark[v] == s->gen) continue;
    s->goal_mark[v] = s->gen;
    s->goal_id[v] = (uint32_t)k;
    s->targets_left++;
  }
  s->goal_set = s->targets_left > 0;
  for (size_t k = 0; k < n_sources; k++) {
    uint32_t v = sources[k].node;
    if (cairn__is_fresh(s, v))
      cairn__open(s, v, sources[k].cost, 0, v);
    else if (sources[k].cost < s->nodes[v].g)
      cairn__lower(s, v, sources[k].cost, v);
  }
  while ((st = cairn_search_step(s, UINT64_MAX)) == CAIRN_IN_PROGRESS) {
  }
  return st;
}

/* Nodes a graph search has records for: the graph's, plus the two virtual
 * ones of a linked search. */
static uint32_t searched_nodes(const cairn_search *s) {
  return s->graph->n + (s->step == graph_steps[1][s->graph->heuristic] ? 2 : 0);
}

cairn_status cairn_search_node(const cairn_search *s, uint32_t node,
                               cairn_node_info *out) {
  if (!s || !out) return CAIRN_ERR_ARG;
  out->state = CAIRN_NODE_FRESH;
  out->g = out->h = out->f = CAIRN_COST_INF;
  if (s->kind != CAIRN__GRAPH || !s->graph) return CAIRN_ERR_STATE;
  if (node >= searched_nodes(s)) return CAIRN_ERR_RANGE;
  if (cairn__is_fresh(s, node)) return CAIRN_OK;
  out->state = cairn__is_open(s, node) ? CAIRN_NODE_OPEN : CAIRN_NODE_CLOSED;
  out->g = s->nodes[node].g;
  out->h = 0;
  out->f = out->g;
  return CAIRN_OK;
}

cairn_status cairn_search_trace_nodes(const cairn_search *s, uint32_t node,
                                      uint32_t *out, size_t cap, size_t *n) {
  if (!s || !n || (cap && !out)) return CAIRN_ERR_ARG;
  *n = 0;
  if (s->kind != CAIRN__GRAPH || !s->graph) return CAIRN_ERR_STATE;
  if (node >= searched_nodes(s)) return CAIRN_ERR_RANGE;
  if (cairn__is_fresh(s, node)) return CAIRN_NO_PATH;
  size_t len = cairn__chain_len(s, node);
  *n = len;
  if (len > cap) return CAIRN_ERR_BUFFER;
  size_t k = 0;
  for (uint32_t i = node;; i = s->parent[i]) {
    out[k++] = i;
    if (s->parent[i] == i) break;
  }
  return CAIRN_OK;
}

/* ---- landmarks ------------------------------------------------------ */

cairn_status cairn_graph_set_landmarks(cairn_graph *g, const uint32_t *nodes,
                                       uint32_t n, const cairn_cost *costs) {
  if (!g || (n && (!nodes || !costs))) return CAIRN_ERR_ARG;
  if (n > CAIRN_GRAPH_MAX_LANDMARKS) return CAIRN_ERR_TOO_LARGE;
  const size_t nv = g->n;
  for (uint32_t i = 0; i < n; i++) {
    if (nodes[i] >= g->n || costs[i * nv + nodes[i]] != 0) return CAIRN_ERR_ARG;
    for (size_t v = 0; v < nv; v++)
      if (costs[i * nv + v] != CAIRN_COST_INF && costs[i * nv + v] >= GRAPH_COST_MAX)
        return CAIRN_ERR_ARG;
  }
  bool narrow = true; /* every finite cost below UINT32_MAX */
  for (size_t k = 0; k < nv * n && narrow; k++)
    narrow = costs[k] == CAIRN_COST_INF || costs[k] < UINT32_MAX;
  cairn_cost *lm = NULL;
  uint32_t *lm32 = NULL;
  if (n && narrow) {
    lm32 = cairn__alloc(&g->alloc, nv * n * sizeof *lm32);
    if (!lm32) return CAIRN_ERR_NOMEM;
    for (size_t v = 0; v < nv; v++) /* node-major: one row per bound */
      for (uint32_t i = 0; i < n; i++)
        lm32[v * n + i] = costs[i * nv + v] == CAIRN_COST_INF
                              ? UINT32_MAX
                              : (uint32_t)costs[i * nv + v];
  } else if (n) {
    lm = cairn__alloc(&g->alloc, nv * n * sizeof *lm);
    if (!lm) return CAIRN_ERR_NOMEM;
    for (size_t v = 0; v < nv; v++)
      for (uint32_t i = 0; i < n; i++) lm[v * n + i] = costs[i * nv + v];
  }
  cairn__free(&g->alloc, g->lm, g->lm ? nv * g->n_lm * sizeof *g->lm : 0);
  cairn__free(&g->alloc, g->lm32, g->lm32 ? nv * g->n_lm * sizeof *g->lm32 : 0);
  g->lm = lm;
  g->lm32 = lm32;
  g->n_lm = n;
  if (n) memcpy(g->lm_node, nodes, n * sizeof *nodes);
  g->version++;
  return CAIRN_OK;
}

cairn_status cairn_graph_set_landmarks32(cairn_graph *g, const uint32_t *nodes,
                                         uint32_t n, const uint32_t *costs) {
  if (!g || (n && (!nodes || !costs))) return CAIRN_ERR_ARG;
  if (n > CAIRN_GRAPH_MAX_LANDMARKS) return CAIRN_ERR_TOO_LARGE;
  if (!n) return cairn_graph_set_landmarks(g, NULL, 0, NULL);
  const size_t nv = g->n;
  for (uint32_t i = 0; i < n; i++)
    if (nodes[i] >= g->n || costs[i * nv + nodes[i]] != 0) return CAIRN_ERR_ARG;
  uint32_t *lm32 = cairn__alloc(&g->alloc, nv * n * sizeof *lm32);
  if (!lm32) return CAIRN_ERR_NOMEM;
  for (size_t v = 0; v < nv; v++) /* node-major, as cairn_graph_set_landmarks */
    for (uint32_t i = 0; i < n; i++) lm32[v * n + i] = costs[i * nv + v];
  cairn__free(&g->alloc, g->lm, g->lm ? nv * g->n_lm * sizeof *g->lm : 0);
  cairn__free(&g->alloc, g->lm32, g->lm32 ? nv * g->n_lm * sizeof *g->lm32 : 0);
  g->lm = NULL;
  g->lm32 = lm32;
  g->n_lm = n;
  memcpy(g->lm_node, nodes, n * sizeof *nodes);
  g->version++;
  return CAIRN_OK;
}

cairn_status cairn_graph_copy_landmarks(cairn_graph *dst, const cairn_graph *src) {
  if (!dst || !src || dst->n != src->n) return CAIRN_ERR_ARG;
  if (dst == src) return CAIRN_OK;
  const size_t cells = (size_t)src->n * src->n_lm;
  cairn_cost *lm = NULL;
  uint32_t *lm32 = NULL;
  if (src->lm && !(lm = cairn__alloc(&dst->alloc, cells * sizeof *lm))) return CAIRN_ERR_NOMEM;
  if (src->lm32 && !(lm32 = cairn__alloc(&dst->alloc, cells * sizeof *lm32))) {
    cairn__free(&dst->alloc, lm, lm ? cells * sizeof *lm : 0);
    return CAIRN_ERR_NOMEM;
  }
  if (lm) memcpy(lm, src->lm, cells * sizeof *lm);
  if (lm32) memcpy(lm32, src->lm32, cells * sizeof *lm32);
  const size_t was = (size_t)dst->n * dst->n_lm;
  cairn__free(&dst->alloc, dst->lm, dst->lm ? was * sizeof *dst->lm : 0);
  cairn__free(&dst->alloc, dst->lm32, dst->lm32 ? was * sizeof *dst->lm32 : 0);
  dst->lm = lm;
  dst->lm32 = lm32;
  dst->n_lm = src->n_lm;
  memcpy(dst->lm_node, src->lm_node, sizeof dst->lm_node);
  dst->version++;
  return CAIRN_OK;
}

cairn_status cairn_graph_compute_landmarks(cairn_graph *g, cairn_search *s,
                                           const uint32_t *nodes, uint32_t n) {
  if (!g || !s || (n && !nodes)) return CAIRN_ERR_ARG;
  if (n > CAIRN_GRAPH_MAX_LANDMARKS) return CAIRN_ERR_TOO_LARGE;
  if (!n) return cairn_graph_set_landmarks(g, NULL, 0, NULL);
  const size_t nv = g->n;
  cairn_cost *costs = cairn__alloc(&g->alloc, nv * n * sizeof *costs);
  if (!costs) return CAIRN_ERR_NOMEM;
  cairn_status st = CAIRN_OK;
  for (uint32_t i = 0; i < n && st == CAIRN_OK; i++) {
    if (nodes[i] >= g->n) {
      st = CAIRN_ERR_ARG;
      break;
    }
    cairn_graph_link src = {nodes[i], 0};
    st = cairn_graph_fill(s, g, &src, 1, NULL, 0);
    for (size_t v = 0; v < nv && st == CAIRN_OK; v++) {
      cairn_node_info info;
      cairn_search_node(s, (uint32_t)v, &info);
      costs[i * nv + v] = info.state == CAIRN_NODE_CLOSED ? info.g : CAIRN_COST_INF;
    }
  }
  if (st == CAIRN_OK) st = cairn_graph_set_landmarks(g, nodes, n, costs);
  cairn__free(&g->alloc, costs, nv * n * sizeof *costs);
  return st;
}

uint32_t cairn_graph_landmarks(const cairn_graph *g) { return g ? g->n_lm : 0; }

uint32_t cairn_graph_landmark_node(const cairn_graph *g, uint32_t i) {
  return g && i < g->n_lm ? g->lm_node[i] : UINT32_MAX;
}

cairn_cost cairn_graph_landmark_cost(const cairn_graph *g, uint32_t i, uint32_t v) {
  if (!g || i >= g->n_lm || v >= g->n) return CAIRN_COST_INF;
  return landmark_cost(g, v, i);
}

size_t cairn_graph_landmark_bytes(const cairn_graph *g) {
  if (!g) return 0;
  return (size_t)g->n * g->n_lm * (g->lm ? sizeof *g->lm : sizeof *g->lm32);
}
