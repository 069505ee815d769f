/* A grid A* in progress, saved and resumed: what a sliced search knows
 * (every cell it reached, with its cost and parent, and the open set in
 * its heap's order, which decides ties) in a little-endian byte form, so
 * that a search resumed from it steps exactly as the saved one would
 * have. The crowd's save format holds its head request's search so. */
#include "search_internal.h"

#include "cairn_save.h"

#include <string.h>

#define STATE_VERSION 1u

/* Bytes: version, width, height, start, goal (4 bytes each), node and
 * heap counts (4 each), then 17 a node and 16 a heap entry. */
#define STATE_HEAD 28u
#define STATE_NODE 17u
#define STATE_ENTRY 16u

/* Whether s holds a grid A* (one goal) in progress. */
static bool astar_in_progress(const cairn_search *s) {
  return s->kind == CAIRN__GRID && s->state == CAIRN_IN_PROGRESS && s->grid &&
         !s->goal_set && !s->full_map && !s->jump && !s->lm && !s->de;
}

/* A node this search reached: open, or closed by an expansion (a cell the
 * search avoids is closed with no cost, and begin closes it again). */
static bool reached(const cairn_search *s, uint32_t i) {
  return cairn__is_open(s, i) || (cairn__is_closed(s, i) && s->nodes[i].g != CAIRN_COST_INF);
}

/* The cell number (row-major, no padding) of padded index i. */
static uint32_t cell_of(const cairn_grid *g, uint32_t i) {
  cairn_point p = cairn__grid_point(g, i);
  return (uint32_t)p.y * (uint32_t)g->width + (uint32_t)p.x;
}

cairn_status cairn_search_save_state(const cairn_search *s, void *buf, size_t cap,
                                     size_t *len) {
  if (!s || !len) return CAIRN_ERR_ARG;
  *len = 0;
  if (!astar_in_progress(s)) return CAIRN_ERR_STATE;
  const cairn_grid *g = s->grid;
  uint32_t n = 0;
  for (uint32_t i = 0; i < (uint32_t)g->padded; i++) n += reached(s, i);
  *len = STATE_HEAD + (size_t)n * STATE_NODE + s->heap_len * STATE_ENTRY;
  if (!buf || cap < *len) return CAIRN_ERR_BUFFER;
  cairn__wbuf w = cairn__wbuf_init(buf, cap);
  cairn__put_u32(&w, STATE_VERSION);
  cairn__put_u32(&w, (uint32_t)g->width);
  cairn__put_u32(&w, (uint32_t)g->height);
  cairn__put_u32(&w, cell_of(g, s->start));
  cairn__put_u32(&w, cell_of(g, s->goal));
  cairn__put_u32(&w, n);
  for (uint32_t i = 0; i < (uint32_t)g->padded; i++) {
    if (!reached(s, i)) continue;
    cairn__put_u32(&w, cell_of(g, i));
    cairn__put_u64(&w, s->nodes[i].g);
    cairn__put_u32(&w, cell_of(g, s->parent[i]));
    cairn__put_u8(&w, cairn__is_closed(s, i));
  }
  cairn__put_u32(&w, (uint32_t)s->heap_len);
  for (size_t k = 0; k < s->heap_len; k++) {
    cairn__put_u64(&w, s->heap[k].f);
    cairn__put_u32(&w, s->heap[k].h);
    cairn__put_u32(&w, cell_of(g, s->heap[k].node));
  }
  return CAIRN_OK;
}

/* The padded index of cell number v, if v is an open cell of g that the
 * search has not closed as avoided (UINT32_MAX otherwise). */
static uint32_t index_of(const cairn_search *s, const cairn_grid *g, uint32_t v) {
  size_t cells = (size_t)g->width * (size_t)g->height;
  if (v >= cells) return UINT32_MAX;
  uint32_t i = cairn__grid_index(g, (int32_t)(v % (uint32_t)g->width),
                                 (int32_t)(v / (uint32_t)g->width));
  if (!g->cost[i] || (cairn__is_closed(s, i) && s->nodes[i].g == CAIRN_COST_INF))
    return UINT32_MAX;
  return i;
}

/* Whether padded indices a and b are one move apart (8 ways). */
static bool adjacent(const cairn_grid *g, uint32_t a, uint32_t b) {
  uint32_t d = a > b ? a - b : b - a;
  uint32_t st = (uint32_t)g->stride;
  return d == 1 || d == st || d == st - 1 || d == st + 1;
}

/* The nodes: stamps and costs first (a second pass checks the parents,
 * which may come later in the list). Marks each record's heap position
 * UINT32_MAX, so the heap's pass can tell an open node it has placed. */
static cairn_status load_nodes(cairn_search *s, const cairn_grid *g, const uint8_t *p,
                               uint32_t n, uint64_t *closed) {
  *closed = 0;
  for (uint32_t k = 0; k < n; k++, p += STATE_NODE) {
    uint32_t i = index_of(s, g, cairn__le32(p));
    cairn_cost gv = cairn__le64(p + 4);
    uint8_t shut = p[16];
    if (i == UINT32_MAX || !cairn__is_fresh(s, i) || gv == CAIRN_COST_INF || shut > 1)
      return CAIRN_ERR_PARSE;
    s->nodes[i].g = gv;
    s->nodes[i].stamp = s->gen + shut;
    s->nodes[i].heap = UINT32_MAX;
    *closed += shut;
  }
  return CAIRN_OK;
}

/* Every parent is an expanded neighbour with a lower cost (the start its
 * own parent, at cost 0), so parent chains end at the start. */
static cairn_status load_parents(cairn_search *s, const cairn_grid *g, const uint8_t *p,
                                 uint32_t n) {
  for (uint32_t k = 0; k < n; k++, p += STATE_NODE) {
    uint32_t i = index_of(s, g, cairn__le32(p));
    uint32_t up = index_of(s, g, cairn__le32(p + 12));
    if (up == UINT32_MAX) return CAIRN_ERR_PARSE;
    if (i == s->start ? up != i || s->nodes[i].g != 0
                      : !cairn__is_closed(s, up) || !adjacent(g, i, up) ||
                            !(s->nodes[up].g < s->nodes[i].g))
      return CAIRN_ERR_PARSE;
    s->parent[i] = up;
  }
  return cairn__is_fresh(s, s->start) ? CAIRN_ERR_PARSE : CAIRN_OK;
}

/* The open set: each open node once, in a valid heap order. */
static cairn_status load_heap(cairn_search *s, const cairn_grid *g, const uint8_t *p,
                              uint32_t n) {
  for (uint32_t k = 0; k < n; k++, p += STATE_ENTRY) {
    uint32_t i = index_of(s, g, cairn__le32(p + 12));
    if (i == UINT32_MAX || !cairn__is_open(s, i) || s->nodes[i].heap != UINT32_MAX)
      return CAIRN_ERR_PARSE;
    s->heap[k].f = cairn__le64(p);
    s->heap[k].h = cairn__le32(p + 8);
    s->heap[k].node = i;
    s->nodes[i].heap = k;
    if (k && cairn__entry_less(&s->heap[k], &s->heap[(k - 1) / CAIRN__ARITY]))
      return CAIRN_ERR_PARSE;
  }
  s->heap_len = n;
  return CAIRN_OK;
}

/* Reads the state into s, begun afresh (gen just advanced: every record
 * fresh but the avoided cells and the start). */
static cairn_status load_state(cairn_search *s, const cairn_grid *g, cairn__rbuf *r,
                               uint32_t n_nodes) {
  const uint8_t *nodes = cairn__get_span(r, (size_t)n_nodes * STATE_NODE);
  uint32_t n_heap = cairn__get_u32(r);
  if (r->over || !cairn__rbuf_has(r, n_heap, STATE_ENTRY)) return CAIRN_ERR_PARSE;
  const uint8_t *heap = cairn__get_span(r, (size_t)n_heap * STATE_ENTRY);
  if (r->over || cairn__rbuf_left(r) != 0) return CAIRN_ERR_PARSE;
  /* the start as begin opened it goes: the saved records replace it */
  s->nodes[s->start].stamp = s->gen - 2;
  s->heap_len = 0;
  uint64_t closed;
  cairn_status st = load_nodes(s, g, nodes, n_nodes, &closed);
  if (st == CAIRN_OK) st = load_parents(s, g, nodes, n_nodes);
  if (st == CAIRN_OK) st = load_heap(s, g, heap, n_heap);
  if (st == CAIRN_OK && (uint64_t)n_heap + closed != n_nodes) st = CAIRN_ERR_PARSE;
  s->expanded = closed;
  s->generated = n_nodes;
  return st;
}

cairn_status cairn_astar_resume(cairn_search *s, const cairn_grid *grid,
                                const cairn_search_opts *opts, const void *buf,
                                size_t len) {
  if (!s || !grid || !buf) return CAIRN_ERR_ARG;
  cairn__rbuf r = cairn__rbuf_init(buf, len);
  uint32_t version = cairn__get_u32(&r), w = cairn__get_u32(&r), h = cairn__get_u32(&r);
  uint32_t start = cairn__get_u32(&r), goal = cairn__get_u32(&r);
  uint32_t n_nodes = cairn__get_u32(&r);
  if (r.over || version != STATE_VERSION || !cairn__rbuf_has(&r, n_nodes, STATE_NODE))
    return CAIRN_ERR_PARSE;
  if (w != (uint32_t)grid->width || h != (uint32_t)grid->height) return CAIRN_ERR_MISMATCH;
  size_t cells = (size_t)grid->width * (size_t)grid->height;
  if (start >= cells || goal >= cells) return CAIRN_ERR_PARSE;
  cairn_point a = {(int32_t)(start % w), (int32_t)(start / w)};
  cairn_point b = {(int32_t)(goal % w), (int32_t)(goal / w)};
  cairn_status st = cairn_astar_begin(s, grid, a, b, opts);
  if (st != CAIRN_OK) return st;
  /* begin settled it (another island, a goal the layer blocks): the saved
   * search, still going, was on another map */
  if (s->state != CAIRN_IN_PROGRESS) st = CAIRN_ERR_MISMATCH;
  if (st == CAIRN_OK) st = load_state(s, grid, &r, n_nodes);
  if (st != CAIRN_OK) {
    s->kind = CAIRN__NONE; /* nothing half-loaded is ever stepped */
    s->state = st;
  }
  return st;
}
