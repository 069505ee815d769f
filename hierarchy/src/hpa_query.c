/* Queries on a hierarchy: join start and goal to their clusters' entrances
 * (a bounded Dijkstra each, inside the query context), A* over the abstract
 * graph with those joins as virtual links, then refinement of the route into
 * grid steps and smoothing. The shared hierarchy is only read. */
#include "hpa_internal.h"

#include <stdlib.h>
#include <string.h>


typedef struct hpa_leg {
  uint32_t off, len;
} hpa_leg;

struct cairn_hpa_query {
  cairn_allocator alloc;
  cairn_search *search;
  /* links of the virtual start and goal, one per entrance of their
   * cluster (index = local node), and the grid legs behind them */
  cairn_graph_link *from_start, *to_goal;
  size_t links_cap;
  size_t n_from, n_to;
  hpa_leg *leg_from, *leg_to; /* per entrance; len 0 when not reached */
  cairn_point *legs;          /* start -> entrance, entrance -> goal, direct */
  size_t legs_cap, legs_len;
  hpa_leg direct;
  cairn_cost direct_cost;
  cairn_point *trace;
  size_t trace_cap;
  /* the route and the path */
  uint32_t *route;
  size_t route_cap, route_len;
  cairn_point *raw; /* refined, before smoothing */
  size_t raw_cap, raw_len, raw_done; /* raw_done: smoothed up to here */
  cairn_point *path;
  size_t path_cap, path_len;
  cairn_cost path_cost; /* of path[0 .. path_len), kept as it grows */
  cairn_cost path_base; /* the same on terrain alone */
  cairn_cost *prefix;
  size_t prefix_cap;
  uint32_t *turns;
  size_t turns_cap;
  /* the third level: the start's and goal's links to their blocks' level-2
   * nodes and the level-1 node chains behind them (global ids) */
  cairn_graph_link *src, *from2, *to2;
  size_t src_cap, from2_cap, to2_cap, n_from2, n_to2;
  hpa_leg *leg2_from, *leg2_to;
  size_t leg2_from_cap, leg2_to_cap;
  uint32_t *chains, *ids, *route2;
  size_t chains_cap, chains_len, ids_cap, route2_cap, route2_len;
  /* the query in progress */
  const cairn_hpa *h;
  uint64_t version; /* h->version when planned */
  cairn_point start, goal;
  cairn_hpa_path_opts opts;
  unsigned size; /* the unit's (opts.size, 1 for 0) */
  cairn_status state;
  cairn_cost route_cost;
  uint32_t refined; /* route edges refined */
  uint64_t expanded;
  int plain;
  hpa_skip skip; /* opts.dead_ends */
};

/* ---- context -------------------------------------------------------- */

cairn_status cairn_hpa_query_create(const cairn_allocator *alloc,
                                    cairn_hpa_query **out) {
  if (!out) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn_allocator_or_default(alloc);
  cairn_hpa_query *q = cairn__alloc_zero(&a, sizeof *q);
  *out = q;
  if (!q) return CAIRN_ERR_NOMEM;
  q->alloc = a;
  q->state = CAIRN_ERR_STATE;
  cairn_status st = cairn_search_create(&a, &q->search);
  if (st != CAIRN_OK) {
    cairn__free(&a, q, sizeof *q);
    *out = NULL;
  }
  return st;
}

void cairn_hpa_query_destroy(cairn_hpa_query *q) {
  if (!q) return;
  cairn_allocator a = q->alloc;
  cairn_search_destroy(q->search);
  cairn__free(&a, q->from_start, q->links_cap * sizeof *q->from_start);
  cairn__free(&a, q->to_goal, q->links_cap * sizeof *q->to_goal);
  cairn__free(&a, q->leg_from, q->links_cap * sizeof *q->leg_from);
  cairn__free(&a, q->leg_to, q->links_cap * sizeof *q->leg_to);
  cairn__free(&a, q->legs, q->legs_cap * sizeof *q->legs);
  cairn__free(&a, q->trace, q->trace_cap * sizeof *q->trace);
  cairn__free(&a, q->route, q->route_cap * sizeof *q->route);
  cairn__free(&a, q->raw, q->raw_cap * sizeof *q->raw);
  cairn__free(&a, q->path, q->path_cap * sizeof *q->path);
  cairn__free(&a, q->prefix, q->prefix_cap * sizeof *q->prefix);
  cairn__free(&a, q->turns, q->turns_cap * sizeof *q->turns);
  cairn__free(&a, q->src, q->src_cap * sizeof *q->src);
  cairn__free(&a, q->from2, q->from2_cap * sizeof *q->from2);
  cairn__free(&a, q->to2, q->to2_cap * sizeof *q->to2);
  cairn__free(&a, q->leg2_from, q->leg2_from_cap * sizeof *q->leg2_from);
  cairn__free(&a, q->leg2_to, q->leg2_to_cap * sizeof *q->leg2_to);
  cairn__free(&a, q->chains, q->chains_cap * sizeof *q->chains);
  cairn__free(&a, q->ids, q->ids_cap * sizeof *q->ids);
  cairn__free(&a, q->route2, q->route2_cap * sizeof *q->route2);
  hpa_skip_free(&q->skip, &a);
  cairn__free(&a, q, sizeof *q);
}

size_t cairn_hpa_query_memory(const cairn_hpa_query *q) {
  if (!q) return 0;
  return sizeof *q + cairn_search_memory(q->search) +
         q->links_cap * (2 * sizeof(cairn_graph_link) + 2 * sizeof(hpa_leg)) +
         q->legs_cap * sizeof *q->legs + q->trace_cap * sizeof *q->trace +
         q->route_cap * sizeof *q->route + q->raw_cap * sizeof *q->raw +
         q->path_cap * sizeof *q->path + q->prefix_cap * sizeof *q->prefix +
         q->turns_cap * sizeof *q->turns +
         (q->src_cap + q->from2_cap + q->to2_cap) * sizeof(cairn_graph_link) +
         (q->leg2_from_cap + q->leg2_to_cap) * sizeof(hpa_leg) +
         (q->chains_cap + q->ids_cap + q->route2_cap) * sizeof(uint32_t) +
         hpa_skip_memory(&q->skip);
}

cairn_hpa_path_opts cairn_hpa_path_defaults(void) {
  cairn_hpa_path_opts o = {-1, 1, 1, NULL};
  return o;
}

/* Grows an array of the context; false on allocation failure. */
#define GROW(q, field, cap, n) \
  cairn__grow(&(q)->alloc, (void **)&(q)->field, &(q)->cap, (n), sizeof *(q)->field)

/* The link arrays (and their leg offsets) hold one entry per entrance. */
static bool grow_links(cairn_hpa_query *q, size_t n) {
  if (n <= q->links_cap) return true;
  size_t cap = q->links_cap ? q->links_cap : 16;
  while (cap < n) cap *= 2;
  const cairn_allocator *a = &q->alloc;
  cairn_graph_link *f = cairn__alloc(a, cap * sizeof *f);
  cairn_graph_link *t = cairn__alloc(a, cap * sizeof *t);
  hpa_leg *lf = cairn__alloc(a, cap * sizeof *lf);
  hpa_leg *lt = cairn__alloc(a, cap * sizeof *lt);
  if (!f || !t || !lf || !lt) {
    cairn__free(a, f, cap * sizeof *f);
    cairn__free(a, t, cap * sizeof *t);
    cairn__free(a, lf, cap * sizeof *lf);
    cairn__free(a, lt, cap * sizeof *lt);
    return false;
  }
  if (q->links_cap) { /* the start's links survive the goal's growth */
    memcpy(f, q->from_start, q->links_cap * sizeof *f);
    memcpy(t, q->to_goal, q->links_cap * sizeof *t);
    memcpy(lf, q->leg_from, q->links_cap * sizeof *lf);
    memcpy(lt, q->leg_to, q->links_cap * sizeof *lt);
  }
  cairn__free(a, q->from_start, q->links_cap * sizeof *q->from_start);
  cairn__free(a, q->to_goal, q->links_cap * sizeof *q->to_goal);
  cairn__free(a, q->leg_from, q->links_cap * sizeof *q->leg_from);
  cairn__free(a, q->leg_to, q->links_cap * sizeof *q->leg_to);
  q->from_start = f;
  q->to_goal = t;
  q->leg_from = lf;
  q->leg_to = lt;
  q->links_cap = cap;
  return true;
}

cairn_status cairn_hpa_query_reserve(cairn_hpa_query *q, const cairn_hpa *h) {
  if (!q || !h) return CAIRN_ERR_ARG;
  cairn_status st = cairn_search_reserve_grid(q->search, h->grid);
  if (st != CAIRN_OK) return st;
  uint32_t most = 0, most2 = 0, m = 0;
  for (uint32_t k = 0; k < (uint32_t)h->cw * (uint32_t)h->ch; k++)
    if (h->clusters[k].n > most) most = h->clusters[k].n;
  for (uint32_t b = 0; h->blocks && b < (uint32_t)h->bw * (uint32_t)h->bh; b++) {
    if (h->blocks[b].n > most2) most2 = h->blocks[b].n;
    if (h->blocks[b].m > m) m = h->blocks[b].m;
  }
  size_t cs2 = (size_t)h->cs * (size_t)h->cs;
  bool ok = grow_links(q, (size_t)most + 1) && GROW(q, trace, trace_cap, cs2 + 1) &&
            /* legs are usually a cluster side or two long; longer ones grow */
            GROW(q, legs, legs_cap, 4 * ((size_t)most + 1) * (size_t)h->cs) &&
            GROW(q, src, src_cap, (size_t)most + 1) &&
            GROW(q, from2, from2_cap, (size_t)most2 + 1) &&
            GROW(q, to2, to2_cap, (size_t)most2 + 1) &&
            GROW(q, leg2_from, leg2_from_cap, (size_t)most2 + 1) &&
            GROW(q, leg2_to, leg2_to_cap, (size_t)most2 + 1) &&
            GROW(q, ids, ids_cap, (size_t)m + 1);
  return ok ? CAIRN_OK : CAIRN_ERR_NOMEM;
}

/* ---- joining start and goal ----------------------------------------- */

/* The bounds of a search of a unit of size k whose positions stay inside
 * cluster c: the core's bounds hold the whole block, so k - 1 cells more
 * east and south (within the map). */
static cairn_rect cluster_rect(const cairn_hpa *h, const hpa_cluster *c, unsigned k) {
  cairn_rect r = {c->x0, c->y0, c->w + (int32_t)k - 1, c->h + (int32_t)k - 1};
  if (r.x + r.w > h->width) r.w = h->width - r.x;
  if (r.y + r.h > h->height) r.h = h->height - r.y;
  return r;
}

/* Whether local node i of cluster c fits the query's unit. */
static bool node_fits(const cairn_hpa_query *q, const hpa_cluster *c, uint32_t i) {
  return q->size <= 1 || hpa_sz(q->h, c)->cap[i] >= q->size;
}

/* Appends the search's path behind `cell` to the legs, in walking order:
 * traces run back to the fill's source, so a forward fill's trace is
 * reversed. Returns false on allocation failure. */
static bool put_leg(cairn_hpa_query *q, cairn_point cell, bool reverse,
                    hpa_leg *leg) {
  size_t n;
  cairn_status st = cairn_search_trace(q->search, cell, q->trace, q->trace_cap, &n);
  if (st == CAIRN_ERR_BUFFER) {
    if (!GROW(q, trace, trace_cap, n)) return false;
    st = cairn_search_trace(q->search, cell, q->trace, q->trace_cap, &n);
  }
  if (st != CAIRN_OK) return false;
  if (!GROW(q, legs, legs_cap, q->legs_len + n)) return false;
  leg->off = (uint32_t)q->legs_len;
  leg->len = (uint32_t)n;
  for (size_t k = 0; k < n; k++)
    q->legs[q->legs_len++] = q->trace[reverse ? n - 1 - k : k];
  return true;
}

/* Bounded fill from the start (forward) or the goal (to_sources) over its
 * cluster, with the cluster's entrances as targets: one link per entrance
 * reached, and its leg. */
static cairn_status join(cairn_hpa_query *q, bool from_start) {
  const cairn_hpa *h = q->h;
  cairn_point p = from_start ? q->start : q->goal;
  const hpa_cluster *c = &h->clusters[hpa_cluster_of(h, p)];
  if (!grow_links(q, (size_t)c->n + 1)) return CAIRN_ERR_NOMEM;
  if (!GROW(q, trace, trace_cap, (size_t)c->n + 1)) return CAIRN_ERR_NOMEM;
  cairn_point *targets = q->trace; /* free until the first trace */
  size_t nt = 0;
  for (uint32_t i = 0; i < c->n; i++)
    if (node_fits(q, c, i) && !hpa_skip_node(&q->skip, c->first + i))
      targets[nt++] = hpa_point(h, c->cell[i]);
  bool direct = from_start && hpa_cluster_of(h, q->goal) == hpa_cluster_of(h, p);
  if (direct) targets[nt++] = q->goal;
  cairn_search_opts o = cairn_search_defaults();
  o.bounds = cluster_rect(h, c, q->size);
  o.size = (int32_t)q->size;
  o.penalty = h->layer; /* the links pay the layer as it is now */
  o.dead_ends = q->opts.dead_ends;
  cairn_status st = cairn_dijkstra_fill(q->search, h->grid, &p, 1, targets, nt,
                                        !from_start, &o);
  if (st != CAIRN_OK) return st;
  cairn_result r;
  cairn_search_result(q->search, &r);
  q->expanded += r.expanded;
  cairn_graph_link *links = from_start ? q->from_start : q->to_goal;
  hpa_leg *legs = from_start ? q->leg_from : q->leg_to;
  size_t n = 0;
  for (uint32_t i = 0; i < c->n; i++) {
    cairn_point e = hpa_point(h, c->cell[i]);
    cairn_node_info info;
    cairn_search_cell(q->search, e, &info);
    legs[i].len = 0;
    if (!node_fits(q, c, i) || hpa_skip_node(&q->skip, c->first + i)) continue;
    if (info.state != CAIRN_NODE_CLOSED) continue;
    links[n].node = c->first + i;
    links[n].cost = info.g;
    n++;
    if (!put_leg(q, e, from_start, &legs[i])) return CAIRN_ERR_NOMEM;
  }
  if (from_start)
    q->n_from = n;
  else
    q->n_to = n;
  if (direct) {
    cairn_node_info info;
    cairn_search_cell(q->search, q->goal, &info);
    if (info.state == CAIRN_NODE_CLOSED) {
      q->direct_cost = info.g;
      if (!put_leg(q, q->goal, true, &q->direct)) return CAIRN_ERR_NOMEM;
    }
  }
  return CAIRN_OK;
}

/* ---- planning ------------------------------------------------------- */

static int32_t octile_cells(cairn_point a, cairn_point b) {
  int32_t dx = abs(a.x - b.x), dy = abs(a.y - b.y);
  int32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return hi + (lo * 41) / 100; /* hi - lo + 1.41 lo, rounded down */
}

static cairn_status copy_path(cairn_hpa_query *q, const cairn_result *r) {
  if (!GROW(q, path, path_cap, r->path_len)) return CAIRN_ERR_NOMEM;
  memcpy(q->path, r->path, r->path_len * sizeof *r->path);
  q->path_len = r->path_len;
  q->path_cost = r->cost;
  q->path_base = r->base_cost;
  return CAIRN_OK;
}

/* The nearby case: plain A* on the whole grid, exact, but given only as
 * many expansions as a hierarchical query costs (about the cells of two
 * clusters): CAIRN_PARTIAL says the path winds too far and the hierarchy
 * should answer after all. */
static cairn_status plan_plain(cairn_hpa_query *q) {
  cairn_result r;
  cairn_search_opts o = cairn_search_defaults();
  o.max_expanded = 2 * (uint64_t)q->h->cs * (uint64_t)q->h->cs;
  o.penalty = q->h->layer;
  o.size = (int32_t)q->size;
  o.dead_ends = q->opts.dead_ends;
  cairn_status st = cairn_astar(q->search, q->h->grid, q->start, q->goal, &o, &r);
  q->expanded += r.expanded;
  if (st == CAIRN_OK) {
    q->plain = 1;
    st = copy_path(q, &r);
    q->route_cost = r.cost;
  }
  return st;
}

/* The linked A* over graph g, leaving out the nodes the query's dead ends
 * skip on the level-1 and sized graphs (not on the third level's, whose
 * ids differ). Should they cut every route (an abstract node standing for
 * a crossing outside the area can lie inside it), it searches again with
 * all the nodes. */
static cairn_status linked_astar(cairn_hpa_query *q, const cairn_graph *g,
                                 const cairn_graph_query *gq, cairn_result *r) {
  cairn_status st = CAIRN_NO_PATH;
  if (q->skip.on && g != q->h->graph2) {
    st = cairn_graph_astar_linked_begin(q->search, g, gq, NULL);
    if (st == CAIRN_OK) {
      hpa_skip_search(&q->skip, q->search);
      while ((st = cairn_search_step(q->search, UINT64_MAX)) == CAIRN_IN_PROGRESS) {
      }
      cairn_search_result(q->search, r);
      q->expanded += r->expanded;
    }
  }
  if (st == CAIRN_NO_PATH) {
    st = cairn_graph_astar_linked(q->search, g, gq, NULL, r);
    q->expanded += r->expanded;
  }
  return st;
}

/* The core's linked A* over an abstract graph (either level) from the
 * query's start to its goal through the given links; the route (node ids,
 * the virtual start and goal included) goes to *route and its cost to
 * q->route_cost. */
static cairn_status search_linked(cairn_hpa_query *q, const cairn_graph *g,
                                  const cairn_graph_link *from, size_t n_from,
                                  const cairn_graph_link *to, size_t n_to,
                                  cairn_cost direct, uint32_t **route,
                                  size_t *cap, size_t *len) {
  cairn_graph_query gq;
  memset(&gq, 0, sizeof gq);
  gq.start_xy[0] = q->start.x;
  gq.start_xy[1] = q->start.y;
  gq.goal_xy[0] = q->goal.x;
  gq.goal_xy[1] = q->goal.y;
  gq.from_start = from;
  gq.n_from_start = n_from;
  gq.to_goal = to;
  gq.n_to_goal = n_to;
  gq.direct = direct;
  /* the graphs of larger units share the level-1 landmark table */
  if (q->size > 1 && g == q->h->gsize[q->size]) gq.bounds = q->h->graph;
  cairn_result r;
  cairn_status st = linked_astar(q, g, &gq, &r);
  if (st != CAIRN_OK) return st;
  if (!cairn__grow(&q->alloc, (void **)route, cap, r.path_len, sizeof **route))
    return CAIRN_ERR_NOMEM;
  memcpy(*route, r.nodes, r.path_len * sizeof *r.nodes);
  *len = r.path_len;
  q->route_cost = r.cost;
  return CAIRN_OK;
}

/* ---- the third level ----------------------------------------------- */

/* Dijkstra over block b's level-1 graph (forward from the start's links, or
 * over the transpose from the goal's, which gives costs to the goal), with
 * the block's level-2 nodes as targets: one level-2 link per node reached,
 * and the level-1 chain behind it in walking order (global ids). It mirrors
 * join one level up, but over graph nodes rather than grid cells: other
 * fills, traces and leg storage, so the two stay apart. */
static cairn_status join2(cairn_hpa_query *q, const hpa_block *b,
                          bool from_start) {
  const cairn_hpa *h = q->h;
  const cairn_graph_link *l1 = from_start ? q->from_start : q->to_goal;
  size_t n1 = from_start ? q->n_from : q->n_to;
  if (!GROW(q, src, src_cap, n1 + 1)) return CAIRN_ERR_NOMEM;
  for (size_t k = 0; k < n1; k++) {
    q->src[k].node = hpa_local_of(h, b, l1[k].node);
    q->src[k].cost = l1[k].cost;
  }
  size_t *n2 = from_start ? &q->n_from2 : &q->n_to2;
  bool ok = from_start ? GROW(q, from2, from2_cap, b->n + 1) &&
                             GROW(q, leg2_from, leg2_from_cap, b->n + 1)
                       : GROW(q, to2, to2_cap, b->n + 1) &&
                             GROW(q, leg2_to, leg2_to_cap, b->n + 1);
  if (!ok || !GROW(q, ids, ids_cap, (size_t)b->m + 1)) return CAIRN_ERR_NOMEM;
  cairn_graph_link *links = from_start ? q->from2 : q->to2;
  hpa_leg *legs = from_start ? q->leg2_from : q->leg2_to;
  size_t n = 0;
  if (n1) {
    cairn_status st = cairn_graph_fill(q->search, from_start ? b->fwd : b->rev,
                                       q->src, n1, b->node, b->n);
    if (st != CAIRN_OK) return st;
    cairn_result r;
    cairn_search_result(q->search, &r);
    q->expanded += r.expanded;
  }
  for (uint32_t j = 0; j < b->n && n1; j++) {
    cairn_node_info info;
    cairn_search_node(q->search, b->node[j], &info);
    legs[j].len = 0;
    if (info.state != CAIRN_NODE_CLOSED) continue;
    links[n].node = b->first + j;
    links[n].cost = info.g;
    n++;
    size_t len;
    cairn_search_trace_nodes(q->search, b->node[j], q->ids, q->ids_cap, &len);
    if (!GROW(q, chains, chains_cap, q->chains_len + len)) return CAIRN_ERR_NOMEM;
    legs[j].off = (uint32_t)q->chains_len;
    legs[j].len = (uint32_t)len;
    /* a forward trace runs back to the start's entrance: reverse it */
    for (size_t k = 0; k < len; k++)
      q->chains[q->chains_len++] =
          hpa_global_of(h, b, q->ids[from_start ? len - 1 - k : k]);
  }
  *n2 = n;
  return CAIRN_OK;
}

/* Appends level-1 ids to the route, skipping the first if it repeats the
 * route's last. */
static bool route_put(cairn_hpa_query *q, const uint32_t *ids, size_t n) {
  if (!GROW(q, route, route_cap, q->route_len + n)) return false;
  for (size_t k = 0; k < n; k++)
    if (!q->route_len || q->route[q->route_len - 1] != ids[k] || k)
      q->route[q->route_len++] = ids[k];
  return true;
}

/* Turns the level-2 route into the level-1 route refinement walks. */
static cairn_status expand_route2(cairn_hpa_query *q) {
  const cairn_hpa *h = q->h;
  const uint32_t n1 = cairn_graph_nodes(h->graph), n2 = cairn_graph_nodes(h->graph2);
  const uint32_t *r2 = q->route2;
  q->route_len = 0;
  uint32_t virt[2] = {n1, n1 + 1};
  if (!route_put(q, &virt[0], 1)) return CAIRN_ERR_NOMEM;
  for (size_t k = 1; k + 1 < q->route2_len; k++) {
    uint32_t u = r2[k - 1], v = r2[k];
    const hpa_block *bv = &h->blocks[h->l2_block[v]];
    if (u == n2) { /* start -> first level-2 node */
      hpa_leg leg = q->leg2_from[v - bv->first];
      if (!route_put(q, q->chains + leg.off, leg.len)) return CAIRN_ERR_NOMEM;
      continue;
    }
    const hpa_block *bu = &h->blocks[h->l2_block[u]];
    if (bu != bv) { /* a level-1 edge between blocks */
      uint32_t id = hpa_global_of(h, bv, bv->node[v - bv->first]);
      if (!route_put(q, &id, 1)) return CAIRN_ERR_NOMEM;
      continue;
    }
    uint32_t i = u - bu->first, j = v - bu->first;
    uint32_t from = bu->off[i * bu->n + j], to = bu->off[i * bu->n + j + 1];
    if (!GROW(q, route, route_cap, q->route_len + (to - from))) return CAIRN_ERR_NOMEM;
    for (uint32_t t = from; t < to; t++)
      q->route[q->route_len++] = hpa_global_of(h, bu, bu->seq[t]);
  }
  uint32_t last = r2[q->route2_len - 2];
  const hpa_block *bl = &h->blocks[h->l2_block[last]];
  hpa_leg leg = q->leg2_to[last - bl->first];
  if (!route_put(q, q->chains + leg.off, leg.len) || !route_put(q, &virt[1], 1))
    return CAIRN_ERR_NOMEM;
  return CAIRN_OK;
}

/* Start and goal in different blocks: search the level-2 graph, then
 * expand its route to level 1. */
static cairn_status plan_route3(cairn_hpa_query *q, const hpa_block *bs,
                                const hpa_block *bg) {
  const cairn_hpa *h = q->h;
  q->chains_len = 0;
  cairn_status st = join2(q, bs, true);
  if (st == CAIRN_OK) st = join2(q, bg, false);
  if (st != CAIRN_OK) return st;
  st = search_linked(q, h->graph2, q->from2, q->n_from2, q->to2, q->n_to2,
                     CAIRN_COST_INF, &q->route2, &q->route2_cap, &q->route2_len);
  return st == CAIRN_OK ? expand_route2(q) : st;
}

static cairn_status plan_route(cairn_hpa_query *q) {
  const cairn_hpa *h = q->h;
  q->legs_len = 0;
  q->direct.len = 0;
  q->direct_cost = CAIRN_COST_INF;
  cairn_status st = join(q, true);
  if (st == CAIRN_OK) st = join(q, false);
  if (st != CAIRN_OK) return st;
  if (q->size > 1) /* the level-2 graph is for size 1 */
    return search_linked(q, h->gsize[q->size], q->from_start, q->n_from, q->to_goal,
                         q->n_to, q->direct_cost, &q->route, &q->route_cap,
                         &q->route_len);
  if (h->levels == 3) {
    const hpa_block *bs = &h->blocks[hpa_block_of_cluster(h, hpa_cluster_of(h, q->start))];
    const hpa_block *bg = &h->blocks[hpa_block_of_cluster(h, hpa_cluster_of(h, q->goal))];
    if (bs != bg) return plan_route3(q, bs, bg);
  }
  return search_linked(q, h->graph, q->from_start, q->n_from, q->to_goal,
                       q->n_to, q->direct_cost, &q->route, &q->route_cap,
                       &q->route_len);
}

/* Off the grid, or a position where the unit does not fit. */
static cairn_status check_point(const cairn_grid *g, cairn_point p, unsigned size) {
  if (!cairn_grid_contains(g, p.x, p.y)) return CAIRN_ERR_RANGE;
  if (!cairn_grid_cost(g, p.x, p.y) || cairn_grid_clearance(g, p.x, p.y) < size)
    return CAIRN_ERR_BLOCKED;
  return CAIRN_OK;
}

/* The unit's size from the options: 0 reads as 1; 0 for a size the
 * hierarchy cannot answer. */
static unsigned unit_size(const cairn_hpa *h, const cairn_hpa_path_opts *o) {
  int32_t k = o->size ? o->size : 1;
  return k < 1 || k > h->max_size ? 0u : (unsigned)k;
}

/* Whether the layer blocks the goal for the unit (the core's A* answers
 * no path then). */
static bool goal_blocked(const cairn_hpa *h, cairn_point goal, unsigned size) {
  if (!h->pen) return false;
  uint32_t i = hpa_index(h, goal.x, goal.y);
  uint32_t p = size > 1 ? cairn__block_pen(h->grid, h->pen, i, size) : h->pen[i];
  return p == CAIRN_PENALTY_BLOCK;
}

static void fill_result(const cairn_hpa_query *q, cairn_hpa_result *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  out->status = q->state;
  out->cost = CAIRN_COST_INF;
  out->base_cost = CAIRN_COST_INF;
  out->route_cost = q->route_cost;
  out->expanded = q->expanded;
  out->plain = q->plain;
  out->route_len = q->plain ? 0 : (uint32_t)q->route_len;
  out->route2_len = q->plain ? 0 : (uint32_t)q->route2_len;
  out->route_refined = q->refined;
  if (q->state != CAIRN_OK && q->state != CAIRN_IN_PROGRESS) return;
  out->path = q->path_len ? q->path : NULL;
  out->path_len = q->path_len;
  if (q->state == CAIRN_OK && q->path_len) {
    out->cost = q->path_cost;
    out->base_cost = q->path_base;
  }
}

cairn_status cairn_hpa_plan(cairn_hpa_query *q, const cairn_hpa *h,
                            cairn_point start, cairn_point goal,
                            const cairn_hpa_path_opts *opts,
                            cairn_hpa_result *out) {
  if (!q) return CAIRN_ERR_ARG;
  q->h = h;
  q->version = h ? h->version : 0;
  q->state = CAIRN_ERR_ARG;
  q->route_len = q->raw_len = q->raw_done = q->path_len = 0;
  q->path_cost = q->path_base = 0;
  q->route2_len = 0;
  q->refined = 0;
  q->expanded = 0;
  q->plain = 0;
  q->route_cost = CAIRN_COST_INF;
  cairn_status st = CAIRN_OK;
  q->opts = opts ? *opts : cairn_hpa_path_defaults();
  q->size = h ? unit_size(h, &q->opts) : 1;
  if (!h || !q->size) st = CAIRN_ERR_ARG;
  else st = hpa_unfit(h);
  if (st == CAIRN_OK) st = check_point(h->grid, start, q->size);
  if (st == CAIRN_OK) st = check_point(h->grid, goal, q->size);
  if (q->opts.nearby < -1) st = CAIRN_ERR_ARG;
  if (st == CAIRN_OK)
    st = hpa_skip_begin(&q->skip, &q->alloc, h, q->opts.dead_ends, start, goal,
                        !h->layer && q->size <= 1);
  if (st != CAIRN_OK) {
    q->state = st;
    fill_result(q, out);
    return st;
  }
  if (q->opts.nearby == -1) q->opts.nearby = 2 * h->cs;
  q->start = start;
  q->goal = goal;
  if (cairn_grid_islands_fresh(h->grid) &&
      cairn_grid_island(h->grid, start.x, start.y) !=
          cairn_grid_island(h->grid, goal.x, goal.y)) {
    st = CAIRN_NO_PATH; /* answered from the island labels */
  } else if (goal_blocked(h, goal, q->size) && (start.x != goal.x || start.y != goal.y)) {
    st = CAIRN_NO_PATH; /* the layer blocks the goal, as for the core's A* */
  } else {
    st = CAIRN_PARTIAL;
    if (octile_cells(start, goal) <= q->opts.nearby ||
        (start.x == goal.x && start.y == goal.y))
      st = plan_plain(q);
    if (st == CAIRN_PARTIAL) {
      st = plan_route(q);
      if (st == CAIRN_OK) st = CAIRN_IN_PROGRESS;
    }
  }
  hpa_skip_end(&q->skip);
  q->state = st;
  fill_result(q, out);
  return st;
}

/* ---- refinement ----------------------------------------------------- */

/* Appends a leg (or a cached path) to the raw path; its first point is the
 * raw path's last one, unless the raw path is empty. */
static bool append(cairn_hpa_query *q, const cairn_point *p, size_t n) {
  size_t skip = q->raw_len ? 1 : 0;
  if (!GROW(q, raw, raw_cap, q->raw_len + n)) return false;
  for (size_t k = skip; k < n; k++) q->raw[q->raw_len++] = p[k];
  return true;
}

static bool append_leg(cairn_hpa_query *q, hpa_leg leg) {
  return append(q, q->legs + leg.off, leg.len);
}

/* Appends the kept size-1 path of pair i -> j of cluster c from pu. */
static bool append_kept(cairn_hpa_query *q, const hpa_cluster *c, uint32_t i, uint32_t j,
                        cairn_point pu) {
  uint32_t from = c->off[i * c->n + j], to = c->off[i * c->n + j + 1];
  if (!GROW(q, raw, raw_cap, q->raw_len + (to - from))) return false;
  cairn_point p = pu;
  for (uint32_t k = from; k < to; k++) {
    p.x += cairn__dx[c->steps[k]];
    p.y += cairn__dy[c->steps[k]];
    q->raw[q->raw_len++] = p;
  }
  return true;
}

/* Edge i -> j of cluster c for a unit above size 1: the kept size-1 path
 * where it serves the size at its cost (pc), else an A* of the unit whose
 * positions stay inside the cluster, which finds the table's cost (with
 * the layer as it is now; without it, should the layer now block every
 * way, as a kept path would ignore it too). */
static cairn_status refine_sized(cairn_hpa_query *q, const hpa_cluster *c, uint32_t i,
                                 uint32_t j, cairn_point pu, cairn_point pv) {
  const size_t pair = (size_t)i * c->n + j;
  if (hpa_sz(q->h, c)->pc[pair] >= q->size && c->off[pair + 1] != c->off[pair])
    return append_kept(q, c, i, j, pu) ? CAIRN_OK : CAIRN_ERR_NOMEM;
  cairn_search_opts o = cairn_search_defaults();
  o.size = (int32_t)q->size;
  o.bounds = cluster_rect(q->h, c, q->size);
  o.penalty = q->h->layer;
  o.dead_ends = q->opts.dead_ends;
  cairn_result r;
  cairn_status st = cairn_astar(q->search, q->h->grid, pu, pv, &o, &r);
  if (st == CAIRN_NO_PATH && o.penalty) {
    o.penalty = NULL;
    st = cairn_astar(q->search, q->h->grid, pu, pv, &o, &r);
  }
  q->expanded += r.expanded;
  if (st == CAIRN_NO_PATH) return CAIRN_ERR_STATE; /* not reached: the table says a way */
  if (st != CAIRN_OK) return st;
  return append(q, r.path, r.path_len) ? CAIRN_OK : CAIRN_ERR_NOMEM;
}

/* Grid steps of route edge u -> v: a leg of the start or the goal, a cached
 * path inside a cluster, or one step across a border. */
static cairn_status refine_edge(cairn_hpa_query *q, uint32_t u, uint32_t v) {
  const cairn_status nomem = CAIRN_ERR_NOMEM;
  const cairn_hpa *h = q->h;
  /* the virtual nodes are numbered after the graph's own, and a map
   * without entrances still has a graph of one node */
  const uint32_t n = cairn_graph_nodes(h->graph);
  if (u == n && v == n + 1) return append_leg(q, q->direct) ? CAIRN_OK : nomem;
  if (u == n) {
    const hpa_cluster *c = &h->clusters[h->node_cluster[v]];
    return append_leg(q, q->leg_from[v - c->first]) ? CAIRN_OK : nomem;
  }
  if (v == n + 1) {
    const hpa_cluster *c = &h->clusters[h->node_cluster[u]];
    return append_leg(q, q->leg_to[u - c->first]) ? CAIRN_OK : nomem;
  }
  uint32_t cu = h->node_cluster[u], cv = h->node_cluster[v];
  cairn_point pu = hpa_point(h, hpa_node_cell(h, u));
  cairn_point pv = hpa_point(h, hpa_node_cell(h, v));
  if (!q->raw_len && !append(q, &pu, 1)) return nomem;
  if (cu != cv) {
    cairn_point two[2] = {pu, pv};
    return append(q, two, 2) ? CAIRN_OK : nomem;
  }
  const hpa_cluster *c = &h->clusters[cu];
  uint32_t i = u - c->first, j = v - c->first;
  if (q->size > 1) return refine_sized(q, c, i, j, pu, pv);
  return append_kept(q, c, i, j, pu) ? CAIRN_OK : nomem;
}

/* Smooths the raw steps refined since the last call onto the path. */
static cairn_status flush(cairn_hpa_query *q) {
  size_t from = q->raw_done ? q->raw_done - 1 : 0; /* share the joint */
  size_t n = q->raw_len - from;
  if (n == 0) return CAIRN_OK;
  if (!GROW(q, path, path_cap, q->path_len + n) ||
      !GROW(q, prefix, prefix_cap, n) || !GROW(q, turns, turns_cap, n))
    return CAIRN_ERR_NOMEM;
  size_t skip = q->path_len ? 1 : 0;
  cairn_point *dst = q->path + q->path_len - skip;
  size_t m;
  if (q->opts.smooth) {
    m = cairn__hpa_smooth(q->h, q->raw + from, n, dst, q->prefix, q->turns, q->size);
  } else {
    memcpy(dst, q->raw + from, n * sizeof *dst);
    m = n;
  }
  for (size_t k = 1; k < m; k++) {
    q->path_cost += hpa_sized_step_cost(q->h, dst[k - 1], dst[k], q->size);
    q->path_base += hpa_sized_base_cost(q->h, dst[k - 1], dst[k], q->size);
  }
  q->path_len += m - skip;
  q->raw_done = q->raw_len;
  return CAIRN_OK;
}

cairn_status cairn_hpa_refine(cairn_hpa_query *q, uint32_t edges,
                              cairn_hpa_result *out) {
  if (!q) return CAIRN_ERR_ARG;
  if (q->state != CAIRN_IN_PROGRESS) {
    if (out) fill_result(q, out);
    return q->state; /* CAIRN_ERR_STATE until something was planned */
  }
  /* edited since the plan, or the grid changed behind the hierarchy's
   * back: its cluster paths may cross new walls */
  if (q->h->version != q->version || hpa_unfit(q->h) != CAIRN_OK) {
    q->state = CAIRN_ERR_STATE;
    if (out) fill_result(q, out);
    return q->state;
  }
  if (edges == 0) edges = 1;
  cairn_status st = CAIRN_OK;
  while (edges-- && q->refined + 1 < q->route_len) {
    st = refine_edge(q, q->route[q->refined], q->route[q->refined + 1]);
    if (st != CAIRN_OK) break;
    q->refined++;
  }
  if (st == CAIRN_OK) st = flush(q);
  if (st == CAIRN_OK && q->refined + 1 >= q->route_len) st = CAIRN_OK;
  else if (st == CAIRN_OK) st = CAIRN_IN_PROGRESS;
  q->state = st;
  fill_result(q, out);
  return st;
}

cairn_status cairn_hpa_find(cairn_hpa_query *q, const cairn_hpa *h,
                            cairn_point start, cairn_point goal,
                            const cairn_hpa_path_opts *opts,
                            cairn_hpa_result *out) {
  cairn_status st = cairn_hpa_plan(q, h, start, goal, opts, NULL);
  if (st == CAIRN_IN_PROGRESS) st = cairn_hpa_refine(q, UINT32_MAX, NULL);
  if (q) fill_result(q, out);
  else if (out) {
    memset(out, 0, sizeof *out);
    out->status = st;
    out->cost = out->base_cost = CAIRN_COST_INF;
  }
  return st;
}
