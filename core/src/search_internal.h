/* Private to the core module (and its tests): the search context, its node
 * records and its indexed 4-ary heap, shared by the grid and graph loops. */
#ifndef CAIRN_SEARCH_INTERNAL_H
#define CAIRN_SEARCH_INTERNAL_H

#include "dead_ends_internal.h"
#include "landmarks_internal.h"
#include "layers_internal.h"

#include <math.h>
#include <stdlib.h>


/* One record per node. `stamp` says what the record means in the current
 * search: == gen open, == gen + 1 closed, anything else fresh (never seen),
 * so nothing is cleared between searches (Lester's whichList). */
typedef struct cairn__node {
  cairn_cost g;
  uint32_t stamp;
  uint32_t heap; /* position in the heap while open */
} cairn__node;

/* The key travels with the entry so sifting never touches node records for
 * comparisons. Order: lower f, then lower h (= larger g, the node nearer the
 * goal). h is saturated to 32 bits, which only coarsens ties on weighted
 * searches of the very largest maps. */
typedef struct cairn__entry {
  cairn_cost f;
  uint32_t h;
  uint32_t node;
} cairn__entry;

/* An entry of a fill's FIFO queue (uniform terrain, see search_fill.c). */
typedef struct cairn__fifo_entry {
  cairn_cost g;
  uint32_t node;
  uint32_t dir; /* the step that reached node (cairn__dx order), 8 for a source */
} cairn__fifo_entry;

typedef enum cairn__kind {
  CAIRN__NONE = 0,
  CAIRN__GRID,
  CAIRN__GRAPH
} cairn__kind;

typedef cairn_status (*cairn__step_fn)(cairn_search *s, uint64_t budget);

/* The gates of each side a search's bound takes (dead_ends_search.c):
 * the two ends of each chain. Four a side, spread over it, cut A*'s
 * expansions a further 0.2 to 14 % on the shared dungeon maps but cost
 * more a generated cell than that saved (9 to 11 % more instructions). */
#define CAIRN__DE_SIDE_GATES 2

struct cairn_search {
  cairn_allocator alloc;
  /* node records and parents, `cap` of each */
  cairn__node *nodes;
  uint32_t *parent;
  size_t cap;
  /* heap: at most one entry per node, so `cap` entries */
  cairn__entry *heap;
  size_t heap_len;
  uint32_t gen; /* even; advances by 2 per search */
  /* goal sets: node i is a goal of this search if goal_mark[i] == gen, and
   * then goal_id[i] is its index; allocated on first use, `cap` of each */
  uint32_t *goal_mark;
  uint32_t *goal_id;
  /* path buffers, grown to the longest path seen */
  cairn_point *path;
  uint32_t *path_nodes;
  size_t path_cap;
  size_t path_len;

  /* the search in progress */
  cairn__kind kind;
  cairn__step_fn step;
  cairn_status state; /* CAIRN_IN_PROGRESS or the final status */
  const cairn_grid *grid;
  uint64_t grid_edits; /* grid->edits at the begin: a change stops steps */
  const cairn_graph *graph;
  /* the graph whose landmark table bounds the search: the graph itself,
   * or a linked query's `bounds` */
  const cairn_graph *lm_graph;
  uint64_t graph_version; /* lm_graph's landmark version at the begin */
  uint32_t start, goal; /* node ids (padded indices on grids) */
  uint32_t found;       /* node the search ended on */
  int32_t gx, gy;       /* goal in padded grid coordinates */
  bool goal_set;        /* goal_mark decides what a goal is */
  bool full_map;        /* no goal: run until the open set empties */
  int moves;
  cairn_heuristic heuristic;
  cairn_cost h_straight, h_diag_extra; /* weighted octile/manhattan factors */
  double h_euclid;                    /* weighted Euclidean factor */
  cairn_cost turn;                    /* turn penalty in fixed point */
  uint64_t max_expanded;
  uint64_t expanded, generated;
  /* the cost layer's cells (opts.penalty), or NULL */
  const uint32_t *pen;
  /* claim counts (opts.claims) or NULL, the price of one claim, and the
   * radius around the start (padded sx, sy) where claims count; 0 = all */
  const uint16_t *claims;
  cairn_cost claim_pen;
  int32_t claim_r, sx, sy;
  /* the unit's size (opts.size): 1, or a k x k footprint (sized loops) */
  uint8_t size;
  /* bounds in padded coordinates, inclusive (bounded loops only); with a
   * size, of the footprint's top-left cell */
  bool bounded;
  int32_t bx0, by0, bx1, by1;
  /* fills with targets: how many are still unsettled */
  size_t targets_left;
  /* fills on uniform terrain: one FIFO ring per step length (straight,
   * diagonal), grown to the largest fill seen */
  cairn__fifo_entry *ring[2];
  size_t ring_cap[2], ring_head[2], ring_len[2];
  /* fills on uniform terrain: prune[d][m] = the moves not to relax out of
   * a cell reached by step d from a parent whose move set is m
   * (search_fill.c) */
  uint8_t prune[8][256];
  /* jump point search (search_jps.c): set for its searches; the node
   * being expanded (UINT32_MAX between expansions), the directions left to
   * scan from it, the cell its diagonal scan has reached (UINT32_MAX before
   * it starts), and a straight and a diagonal step on the one terrain */
  bool jump;
  const struct cairn_jumps *jt; /* its jump tables (cairn_jps_plus), or NULL */
  uint8_t jp_dirs;
  uint32_t jp_node, jp_at;
  cairn_cost jp_one, jp_diag;
  /* with landmarks in use: the jump points one expansion found, opened
   * only when it ends (or the list fills), so that the loads of their
   * landmark rows, asked for as each is found, overlap */
  uint32_t jp_pend[64];
  uint32_t jp_npend;
  /* linked graph queries: the virtual nodes' links and positions */
  const cairn_graph_link *from_start;
  size_t n_from_start;
  const cairn_graph_link *to_goal;
  cairn_cost direct;
  double goal_xy[2];
  /* graph A* with landmarks: how many, and each one's cost to the goal
   * (CAIRN_COST_INF where unknown) */
  uint32_t n_lm;
  cairn_cost lm_goal[CAIRN_GRAPH_MAX_LANDMARKS];
  /* grid A* and jump point search with a landmark table (opts.landmarks):
   * the table, its rows (lm_width entries a padded cell, the costs back to
   * the landmarks lm_back on), the landmarks the search uses (lm_used; 0:
   * none) with each one's column and the goal's cost from it and to it */
  const cairn_landmarks *lm;
  /* A* and jump point search with a dead-end table (opts.dead_ends): the
   * table, or NULL, and the areas of the start and the goal */
  const cairn_dead_ends *de;
  uint32_t de_sa, de_ga;
  /* plain: no layer, claims, avoided cells, turn penalty or size, so the
   * areas behind doors may be skipped too; the gates to test (all, or
   * the one-cell ones) */
  bool de_plain;
  const uint64_t *de_gates;
  /* the table's swamps are skipped (a plain, unbounded A*), but for those
   * of the start and the goal */
  bool de_swamps;
  uint16_t de_ss, de_gs;
  /* the gates a path must cross from the cells outside the goal's dead
   * ends, or inside the start's (dead_ends_search.c): each area's id
   * range, which side of it the gate bounds, the gate's cells (padded, a
   * row or a column) and the bound from them to the goal; de_gh_n of
   * them, 0 for none (cairn__de_gate_h) */
  struct cairn__de_gate {
    uint32_t lo, hi;
    bool inside;
    int32_t x0, y0, x1, y1;
    cairn_cost tail;
  } de_gh[2 * CAIRN__DE_SIDE_GATES];
  uint32_t de_gh_n;
  /* a fill from or to several cells: a byte an area, nonzero for the
   * areas that hold one of them or hold such an area (de_mark, NULL for
   * the start and goal above); de_room, de_room_cap: its buffer, kept */
  const uint8_t *de_mark;
  uint8_t *de_room;
  size_t de_room_cap;
  /* graph searches over a hierarchy's nodes: each node's dead-end area
   * (0 for none), or NULL; with it, `de` and its start and goal areas
   * above say the nodes never entered (set by the hierarchy between a
   * linked begin and its steps) */
  const uint32_t *node_area;
  const uint32_t *lm_d;
  uint32_t lm_width, lm_back, lm_used;
  uint32_t lm_col[CAIRN_LANDMARKS_MAX], lm_from[CAIRN_LANDMARKS_MAX],
      lm_to[CAIRN_LANDMARKS_MAX];
};

/* Grows node, parent and heap arrays to `n` nodes and starts a new search
 * number (clearing stamps only when the counter wraps). */
cairn_status cairn__search_prepare(cairn_search *s, size_t n);
/* Allocates the goal marks for `cap` nodes. */
cairn_status cairn__search_goal_marks(cairn_search *s);
/* Resets the per-search counters and the in-progress fields (options such
 * as turn and max_expanded are left to the caller to load). */
void cairn__search_reset(cairn_search *s, cairn__kind kind, cairn__step_fn step);
/* Ends the search with `st` (building the path when found) and returns it. */
cairn_status cairn__finish(cairn_search *s, cairn_status st);
/* Counts a graph's landmark changes (graph.c). */
uint64_t cairn__graph_version(const cairn_graph *g);
/* The blocking form of every search: given begin's outcome, steps until the
 * search ends and fills *out (with begin's error if it refused). */
cairn_status cairn__run_to_end(cairn_search *s, cairn_status begun,
                               cairn_result *out);
/* A step's budget clamped to the node limit; *limited says it was clamped,
 * so running it out means CAIRN_PARTIAL. */
uint64_t cairn__step_budget(const cairn_search *s, uint64_t budget,
                            bool *limited);
/* Builds s->path_nodes (and, for grids, s->path) from `found` back to the
 * start through the parent links. */
cairn_status cairn__search_reconstruct(cairn_search *s);
/* The same for a jump point search, whose links are diagonal steps then
 * straight ones (search_jps.c). */
cairn_status cairn__jps_write_path(cairn_search *s);
/* Checks opts (NULL: the defaults) and loads its cost factors into s. */
cairn_status cairn__search_load_opts(cairn_search *s, const cairn_search_opts *o);
/* CAIRN_OK if grid cell p is open and inside the search's bounds, if any. */
cairn_status cairn__search_check_in(const cairn_search *s, const cairn_grid *g,
                                    cairn_point p);
/* Common start of every grid search: validates opts and start, prepares s
 * and leaves it a grid search from `start` with no step chosen yet. */
cairn_status cairn__search_grid_begin(cairn_search *s, const cairn_grid *g,
                                      cairn_point start,
                                      const cairn_search_opts *o,
                                      bool avoid_ok);
/* The heap fills' steps (search_grid.c): [sized][moves == 4][bounded][reverse]. */
extern const cairn__step_fn cairn__search_fill_steps[2][2][2][2];
/* Fills s->prune, the uniform fills' pruning table (search_fill.c). */
void cairn__search_prune_table(cairn_search *s);

static inline bool cairn__is_open(const cairn_search *s, uint32_t i) {
  return s->nodes[i].stamp == s->gen;
}
static inline bool cairn__is_closed(const cairn_search *s, uint32_t i) {
  return s->nodes[i].stamp == s->gen + 1;
}
static inline bool cairn__is_fresh(const cairn_search *s, uint32_t i) {
  return s->nodes[i].stamp - s->gen > 1u;
}

/* Nodes on the parent chain from i back to where the search began, i
 * included (a search's start is its own parent). */
static inline size_t cairn__chain_len(const cairn_search *s, uint32_t i) {
  size_t n = 1;
  for (; s->parent[i] != i; i = s->parent[i]) n++;
  return n;
}

static inline bool cairn__entry_less(const cairn__entry *a,
                                     const cairn__entry *b) {
  return a->f < b->f || (a->f == b->f && a->h < b->h);
}

static inline uint32_t cairn__sat32(cairn_cost v) {
  return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* A 4-ary heap: half the depth of a binary one, and a node's four children
 * (16 bytes each) share one cache line, so a sift-down touches one line per
 * level. Measured faster than the binary heap (docs/PERFORMANCE.md). */
#define CAIRN__ARITY 4

static inline void cairn__heap_up(cairn_search *s, size_t pos) {
  cairn__entry e = s->heap[pos];
  while (pos > 0) {
    size_t up = (pos - 1) / CAIRN__ARITY;
    if (!cairn__entry_less(&e, &s->heap[up])) break;
    s->heap[pos] = s->heap[up];
    s->nodes[s->heap[pos].node].heap = (uint32_t)pos;
    pos = up;
  }
  s->heap[pos] = e;
  s->nodes[e.node].heap = (uint32_t)pos;
}

static inline void cairn__heap_down(cairn_search *s, size_t pos) {
  const size_t len = s->heap_len;
  cairn__entry e = s->heap[pos];
  for (;;) {
    size_t first = CAIRN__ARITY * pos + 1;
    if (first >= len) break;
    size_t last = first + CAIRN__ARITY < len ? first + CAIRN__ARITY : len;
    size_t best = first;
    for (size_t c = first + 1; c < last; c++)
      if (cairn__entry_less(&s->heap[c], &s->heap[best])) best = c;
    if (!cairn__entry_less(&s->heap[best], &e)) break;
    s->heap[pos] = s->heap[best];
    s->nodes[s->heap[pos].node].heap = (uint32_t)pos;
    pos = best;
  }
  s->heap[pos] = e;
  s->nodes[e.node].heap = (uint32_t)pos;
}

/* Opens a fresh node with cost g and heuristic h. */
static inline void cairn__open(cairn_search *s, uint32_t i, cairn_cost g,
                               cairn_cost h, uint32_t parent) {
  s->nodes[i].g = g;
  s->nodes[i].stamp = s->gen;
  s->parent[i] = parent;
  size_t pos = s->heap_len++;
  s->heap[pos].f = g + h;
  s->heap[pos].h = cairn__sat32(h);
  s->heap[pos].node = i;
  cairn__heap_up(s, pos);
  s->generated++;
}

/* Lowers the cost of an open node (f drops by the same amount). */
static inline void cairn__lower(cairn_search *s, uint32_t i, cairn_cost g,
                                uint32_t parent) {
  cairn__node *n = &s->nodes[i];
  size_t pos = n->heap;
  s->heap[pos].f -= n->g - g;
  n->g = g;
  s->parent[i] = parent;
  cairn__heap_up(s, pos);
}

/* Removes the best open node and closes it. The heap must not be empty. */
static inline uint32_t cairn__pop(cairn_search *s) {
  uint32_t top = s->heap[0].node;
  s->nodes[top].stamp = s->gen + 1;
  if (--s->heap_len) {
    s->heap[0] = s->heap[s->heap_len];
    cairn__heap_down(s, 0);
  }
  s->expanded++;
  return top;
}

/* The octile distance of a (dx, dy) offset in the heuristic's units. */
CAIRN_INLINE cairn_cost cairn__octile_h(const cairn_search *s, uint32_t dx, uint32_t dy) {
  const uint32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  return s->h_straight * (hi - lo) + s->h_diag_extra * lo;
}

/* The heuristic H from padded cell (x, y) to the search's goal. */
CAIRN_INLINE cairn_cost cairn__grid_h(const cairn_search *s, int H, int32_t x,
                               int32_t y) {
  uint32_t dx = (uint32_t)abs(x - s->gx), dy = (uint32_t)abs(y - s->gy);
  switch (H) {
  case CAIRN_H_OCTILE:
    return cairn__octile_h(s, dx, dy);
  case CAIRN_H_MANHATTAN:
    return s->h_straight * (dx + dy);
  case CAIRN_H_EUCLIDEAN:
    /* floor keeps it below the integer octile cost, so it stays consistent */
    return (cairn_cost)(sqrt((double)dx * dx + (double)dy * dy) * s->h_euclid);
  default:
    return 0;
  }
}

/* The landmarks' bound from padded cell c to the search's goal: over the
 * landmarks in use, the larger of cost(L, goal) - cost(L, c) and
 * cost(c, L) - cost(goal, L) (both saturated, which keeps the bound
 * consistent: see cairn/landmarks.h). */
CAIRN_INLINE cairn_cost cairn__lm_h(const cairn_search *s, uint32_t c) {
  const uint32_t *row = s->lm_d + (size_t)c * s->lm_width;
  uint32_t best = 0;
  for (uint32_t k = 0; k < s->lm_used; k++) {
    const uint32_t v = cairn__lm_bound(row, s->lm_col[k], s->lm_back, s->lm_from[k], s->lm_to[k]);
    if (v > best) best = v;
  }
  return best;
}

/* The octile distance, in the heuristic's units, from padded (x, y) to
 * the nearest cell of gate q. */
CAIRN_INLINE cairn_cost cairn__de_gate_dist(const cairn_search *s, const struct cairn__de_gate *q,
                                            int32_t x, int32_t y) {
  const uint32_t dx = (uint32_t)(x < q->x0 ? q->x0 - x : x > q->x1 ? x - q->x1 : 0);
  const uint32_t dy = (uint32_t)(y < q->y0 ? q->y0 - y : y > q->y1 ? y - q->y1 : 0);
  return cairn__octile_h(s, dx, dy);
}

/* The gates' bound at padded cell c = (x, y): for each gate on whose far
 * side from the goal c lies, the octile distance to the gate plus the
 * gate's tail, which every path from c to the goal pays (0 where none
 * applies). With the octile bound it is consistent: see
 * dead_ends_search.c. */
CAIRN_INLINE cairn_cost cairn__de_gate_h(const cairn_search *s, uint32_t c, int32_t x, int32_t y) {
  const uint32_t a = s->de->area[c];
  cairn_cost best = 0;
  for (uint32_t k = 0; k < s->de_gh_n; k++) {
    const struct cairn__de_gate *q = &s->de_gh[k];
    if ((a - q->lo < q->hi - q->lo) != q->inside) continue;
    const cairn_cost b = cairn__de_gate_dist(s, q, x, y) + q->tail;
    if (b > best) best = b;
  }
  return best;
}

/* h raised to the gates' bound at padded cell c = (x, y), for a search
 * with gates (s->de_gh_n). */
CAIRN_INLINE cairn_cost cairn__de_raise(const cairn_search *s, cairn_cost h, uint32_t c,
                                        int32_t x, int32_t y) {
  const cairn_cost b = cairn__de_gate_h(s, c, x, y);
  return b > h ? b : h;
}

/* The heuristic H at padded cell c = (x, y), raised to the landmarks'
 * bound when LM (a search with landmarks in use). */
CAIRN_INLINE cairn_cost cairn__grid_h_lm(const cairn_search *s, int H, bool LM, uint32_t c,
                                         int32_t x, int32_t y) {
  cairn_cost h = cairn__grid_h(s, H, x, y);
  if (LM) {
    cairn_cost b = cairn__lm_h(s, c);
    if (b > h) h = b;
  }
  return h;
}

/* cairn__grid_h_lm raised to the gates' bound in a search with gates (an
 * octile search with a dead-end table): the search's whole heuristic. */
CAIRN_INLINE cairn_cost cairn__grid_h_all(const cairn_search *s, int H, bool LM, uint32_t c,
                                          int32_t x, int32_t y) {
  const cairn_cost h = cairn__grid_h_lm(s, H, LM, c, x, y);
  return H == CAIRN_H_OCTILE && s->de_gh_n ? cairn__de_raise(s, h, c, x, y) : h;
}

/* Loads opts.landmarks (s->lm) for a search of grid g from start to goal
 * (padded): picks the landmarks with the best bounds at the start, as many
 * as the table's `active` says, or by default all for A* and
 * CAIRN__LM_JUMP_ACTIVE for jump point search (landmarks.c).
 * CAIRN_ERR_ARG for a table of another grid, CAIRN_ERR_STATE for one that
 * missed an edit; with no table, leaves none in use. */
cairn_status cairn__lm_begin(cairn_search *s, const cairn_grid *g, uint32_t start,
                             uint32_t goal, bool jump);
/* Loads opts.dead_ends (s->de) for a search of grid g from s->start to
 * s->goal: CAIRN_ERR_ARG for a table of another grid, CAIRN_ERR_STATE for
 * one that missed an edit; with none, s->de stays NULL (dead_ends_search.c). */
cairn_status cairn__de_begin(cairn_search *s, const cairn_grid *g, const cairn_search_opts *o);
/* The same for a fill: it may enter the areas that hold a source or a
 * target (or hold such an area). CAIRN_ERR_NOMEM besides. */
cairn_status cairn__de_begin_fill(cairn_search *s, const cairn_grid *g,
                                  const cairn_search_opts *o, const cairn_point *sources,
                                  size_t n_sources, const cairn_point *targets,
                                  size_t n_targets);

/* Whether this search may enter area y (dead_ends_internal.h). */
CAIRN_INLINE bool cairn__de_may_enter(const cairn_search *s, uint32_t y) {
  const cairn_dead_ends *de = s->de;
  if (s->de_mark) return s->de_mark[y] || (!s->de_plain && de->door[y]);
  return cairn__de_allowed(de, y, s->de_sa, s->de_ga, s->de_plain);
}

/* The moves out of gate cell c (of the open set `open`, over the
 * cairn__dx order, whose cell offsets are `off`) that stay out of the dead
 * ends and the swamps this search skips. */
CAIRN_INLINE unsigned cairn__de_moves(const cairn_search *s, uint32_t c, unsigned open,
                                      const int32_t off[8]) {
  const cairn_dead_ends *de = s->de;
  unsigned keep = open;
  while (open) {
    const int d = cairn__ctz(open);
    open &= open - 1;
    const uint32_t nb = (uint32_t)((int32_t)c + off[d]);
    if (!cairn__de_may_enter(s, de->area[nb])) keep &= ~(1u << d);
    const uint16_t w = de->swamp[nb];
    if (s->de_swamps && w && w != s->de_ss && w != s->de_gs) keep &= ~(1u << d);
  }
  return keep;
}

/* Whether cell c lies in a dead end this search skips. */
CAIRN_INLINE bool cairn__de_skips(const cairn_search *s, uint32_t c) {
  const cairn_dead_ends *de = s->de;
  return cairn__de_bit(de->dead_bits, c) && !cairn__de_may_enter(s, de->area[c]);
}

/* Jump point search's default number of landmarks in use: it opens few
 * nodes and does little for each, so every bound's loads and compares
 * weigh; 4 of 16 measured faster than all 16 on the maze and the open
 * maps (docs/PERFORMANCE.md, "Landmarks for the exact searches"). */
#define CAIRN__LM_JUMP_ACTIVE 4u

/* ---- grid moves (the grid loop and the uniform fills) ---------------- */

/* The legal moves of a unit of size k (> 1) at position c, as
 * cairn__moves_from gives them for size 1: to positions whose clearance
 * is at least k, a diagonal only where both straight ones are legal. */
CAIRN_INLINE unsigned cairn__sized_moves(const cairn_grid *g, uint32_t c, unsigned k, int MOVES) {
  const uint8_t *cl = g->clear;
  const uint32_t s = (uint32_t)g->stride;
  unsigned e = cl[c + 1] >= k, w = cl[c - 1] >= k, so = cl[c + s] >= k, n = cl[c - s] >= k;
  unsigned m = e | w << 1 | so << 2 | n << 3;
  if (MOVES == 4) return m;
  m |= (e & so & (cl[c + s + 1] >= k)) << 4;
  m |= (w & so & (cl[c + s - 1] >= k)) << 5;
  m |= (e & n & (cl[c - s + 1] >= k)) << 6;
  m |= (w & n & (cl[c - s - 1] >= k)) << 7;
  return m;
}

/* The dearest terrain a unit of size k covers at position i, whose
 * clearance is at least k (so every covered cell is on the grid). */
CAIRN_INLINE uint8_t cairn__block_cost(const cairn_grid *g, uint32_t i, unsigned k) {
  uint8_t most = 0;
  for (unsigned y = 0; y < k; y++) {
    const uint8_t *row = g->cost + i + y * (uint32_t)g->stride;
    for (unsigned x = 0; x < k; x++) most = row[x] > most ? row[x] : most;
  }
  return most;
}

/* The highest penalty of layer cells pen a unit of size k covers at
 * position i (CAIRN_PENALTY_BLOCK, the largest value, if any blocks). */
CAIRN_INLINE uint32_t cairn__block_pen(const cairn_grid *g, const uint32_t *pen, uint32_t i,
                                       unsigned k) {
  uint32_t most = 0;
  for (unsigned y = 0; y < k; y++) {
    const uint32_t *row = pen + i + y * (uint32_t)g->stride;
    for (unsigned x = 0; x < k; x++) most = row[x] > most ? row[x] : most;
  }
  return most;
}

/* The legal moves out of cell c as a bit set over the cairn__dx order: the
 * grid keeps them per cell (struct cairn_grid), one load instead of eight
 * neighbour tests; a 4-way search keeps the straight ones. */
CAIRN_INLINE unsigned cairn__moves_from(const cairn_grid *g, uint32_t c, int MOVES) {
  return MOVES == 4 ? g->moves[c] & 15u : g->moves[c];
}

/* Moves that stay inside the bounds, as a bit set over the cairn__dx order. A
 * diagonal between two cells of a rectangle has both straight components
 * inside it too, so masking is all the corner rule needs. */
CAIRN_INLINE unsigned cairn__bound_mask(const cairn_search *s, int32_t cx,
                                        int32_t cy) {
  unsigned e = cx < s->bx1, w = cx > s->bx0;
  unsigned so = cy < s->by1, n = cy > s->by0;
  return e | w << 1 | so << 2 | n << 3 | (e & so) << 4 | (w & so) << 5 |
         (e & n) << 6 | (w & n) << 7;
}

#endif
