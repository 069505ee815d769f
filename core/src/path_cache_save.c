/* cairn_path_cache_save, cairn_path_cache_load: the stored routes as
 * bytes, so a game ships them precalculated.
 *
 * Layout (little-endian):
 *   "CRNPATHS", u32 format version, u32 width, u32 height,
 *   u64 grid fingerprint, u32 unit size, u32 moves, u32 routes;
 *   per route: u32 goal cell (y * width + x), u32 nodes, then per node
 *   u32 cell, u32 next node (UINT32_MAX at the goal), u64 cost to the
 *   goal along the route, u64 excess bound;
 *   u64 hash of every byte before it. */
#include <string.h>

#include "cairn_alloc.h"
#include "cairn_dirs.h"
#include "cairn_save.h"
#include "core_internal.h"
#include "path_cache_internal.h"
#include "search_internal.h"

#define MAGIC "CRNPATHS"
#define FORMAT 1u
#define HEADER 40u
#define NODE_BYTES 24u

/* The file's number for grid index i: grid indices are padded by one
 * cell each side, the file's are not. */
static uint32_t file_cell(const cairn_grid *g, uint32_t i) {
  const cairn_point p = cairn__grid_point(g, i);
  return (uint32_t)p.y * (uint32_t)g->width + (uint32_t)p.x;
}

static void put_route(cairn__wbuf *w, const cairn_grid *g, const route *r) {
  cairn__put_u32(w, file_cell(g, r->goal));
  cairn__put_u32(w, r->n);
  for (uint32_t k = 0; k < r->n; k++) {
    cairn__put_u32(w, file_cell(g, r->cell[k]));
    cairn__put_u32(w, r->next[k]);
    cairn__put_u64(w, r->d[k]);
    cairn__put_u64(w, r->ex[k]);
  }
}

static void put_all(cairn__wbuf *w, const cairn_path_cache *pc) {
  const cairn_grid *g = pc->grid;
  cairn__put_bytes(w, MAGIC, 8);
  cairn__put_u32(w, FORMAT);
  cairn__put_u32(w, (uint32_t)g->width);
  cairn__put_u32(w, (uint32_t)g->height);
  cairn__put_u64(w, cairn_grid_fingerprint(g));
  cairn__put_u32(w, cairn__pc_unit_size(pc));
  cairn__put_u32(w, (uint32_t)pc->opts.search.moves);
  cairn__put_u32(w, (uint32_t)pc->n_routes);
  for (size_t k = 0; k < pc->n_routes; k++) put_route(w, g, pc->routes[k]);
}

cairn_status cairn_path_cache_save(const cairn_path_cache *pc, void *buf, size_t cap,
                                   size_t *len) {
  if (len) *len = 0;
  if (!pc || !len) return CAIRN_ERR_ARG;
  cairn__wbuf m = cairn__wbuf_init(NULL, 0);
  put_all(&m, pc);
  *len = m.len + 8;
  if (!buf || cap < *len) return CAIRN_ERR_BUFFER;
  cairn__wbuf w = cairn__wbuf_init(buf, cap);
  put_all(&w, pc);
  cairn__hash h;
  cairn__hash_init(&h);
  cairn__hash_add(&h, buf, w.len);
  cairn__put_u64(&w, cairn__hash_end(&h));
  return CAIRN_OK;
}

/* The grid index of an unpadded cell number, or UINT32_MAX off the grid. */
static uint32_t index_of(const cairn_grid *g, uint32_t cell) {
  const uint32_t w = (uint32_t)g->width;
  if (cell >= w * (uint32_t)g->height) return UINT32_MAX;
  return cairn__grid_index(g, (int32_t)(cell % w), (int32_t)(cell / w));
}

/* Reads one route's nodes into r (room made), checking them as the header
 * says; CAIRN_ERR_PARSE for any that fails. */
static cairn_status read_nodes(const cairn_path_cache *pc, cairn__rbuf *in, route *r,
                               uint32_t n) {
  const cairn_grid *g = pc->grid;
  const unsigned k = cairn__pc_unit_size(pc);
  uint32_t goals = 0;
  for (uint32_t i = 0; i < n; i++) {
    const uint8_t *b = cairn__get_span(in, NODE_BYTES);
    if (!b) return CAIRN_ERR_PARSE;
    const uint32_t c = index_of(g, cairn__le32(b));
    if (c == UINT32_MAX || g->clear[c] < k || cairn__pc_node_of(r, c) != NO_NODE)
      return CAIRN_ERR_PARSE;
    r->cell[i] = c;
    r->next[i] = cairn__le32(b + 4);
    r->d[i] = cairn__le64(b + 8);
    r->ex[i] = cairn__le64(b + 16);
    r->n = i + 1;
    cairn__pc_route_index(r, i);
    if (r->next[i] == NO_NODE) goals++;
    if ((r->next[i] == NO_NODE) != (c == r->goal) || r->d[i] > ((cairn_cost)1 << 60) ||
        r->ex[i] > r->d[i] || (r->next[i] != NO_NODE && r->next[i] >= n))
      return CAIRN_ERR_PARSE;
  }
  if (goals != 1) return CAIRN_ERR_PARSE;
  /* each step legal, and no cheaper than the costs say: the costs then
   * fall strictly along every route, so no route loops */
  for (uint32_t i = 0; i < n; i++) {
    const uint32_t nx = r->next[i];
    if (nx == NO_NODE) {
      if (r->d[i]) return CAIRN_ERR_PARSE;
      continue;
    }
    if (!cairn__pc_legal_step(pc, r->cell[i], r->cell[nx]) ||
        r->d[i] < r->d[nx] + cairn__pc_step_cost(pc, r->cell[i], r->cell[nx]))
      return CAIRN_ERR_PARSE;
  }
  return CAIRN_OK;
}

/* Reads one route; *out NULL on failure. */
static cairn_status read_route(cairn_path_cache *pc, cairn__rbuf *in, route **out) {
  *out = NULL;
  const uint32_t goal = index_of(pc->grid, cairn__get_u32(in));
  const uint32_t n = cairn__get_u32(in);
  if (in->over || goal == UINT32_MAX || !n || !cairn__rbuf_has(in, n, NODE_BYTES) ||
      n > UINT32_MAX / 4)
    return CAIRN_ERR_PARSE;
  route *r = cairn__alloc_zero(&pc->alloc, sizeof *r);
  if (!r) return CAIRN_ERR_NOMEM;
  r->goal = goal;
  if (!cairn__pc_route_reserve(&pc->alloc, r, n)) {
    cairn__pc_route_free(&pc->alloc, r);
    return CAIRN_ERR_NOMEM;
  }
  const cairn_status st = read_nodes(pc, in, r, n);
  if (st != CAIRN_OK) {
    cairn__pc_route_free(&pc->alloc, r);
    return st;
  }
  *out = r;
  return CAIRN_OK;
}

static cairn_status check_header(const cairn_path_cache *pc, cairn__rbuf *in, uint32_t *routes) {
  const cairn_grid *g = pc->grid;
  const uint8_t *magic = cairn__get_span(in, 8);
  if (!magic || memcmp(magic, MAGIC, 8) != 0 || cairn__get_u32(in) != FORMAT)
    return CAIRN_ERR_PARSE;
  const uint32_t w = cairn__get_u32(in), h = cairn__get_u32(in);
  const uint64_t print = cairn__get_u64(in);
  const uint32_t size = cairn__get_u32(in), moves = cairn__get_u32(in);
  *routes = cairn__get_u32(in);
  if (in->over) return CAIRN_ERR_PARSE;
  if (w != (uint32_t)g->width || h != (uint32_t)g->height ||
      print != cairn_grid_fingerprint(g) || size != cairn__pc_unit_size(pc) ||
      moves != (uint32_t)pc->opts.search.moves)
    return CAIRN_ERR_MISMATCH;
  return cairn__rbuf_has(in, *routes, 8) ? CAIRN_OK : CAIRN_ERR_PARSE;
}

/* Frees the routes read into list (n entries, NULL where none) and it. */
static void free_list(cairn_path_cache *pc, route **list, size_t n) {
  for (size_t k = 0; list && k < n; k++)
    if (list[k]) cairn__pc_route_free(&pc->alloc, list[k]);
  cairn__free(&pc->alloc, list, n * sizeof *list);
}

cairn_status cairn_path_cache_load(cairn_path_cache *pc, const void *buf, size_t len) {
  if (!pc || !buf) return CAIRN_ERR_ARG;
  if (len < HEADER + 8) return CAIRN_ERR_PARSE;
  cairn__hash h;
  cairn__hash_init(&h);
  cairn__hash_add(&h, buf, len - 8);
  if (cairn__le64((const uint8_t *)buf + len - 8) != cairn__hash_end(&h)) return CAIRN_ERR_PARSE;
  cairn__rbuf in = cairn__rbuf_init(buf, len - 8);
  uint32_t n = 0;
  cairn_status st = check_header(pc, &in, &n);
  if (st != CAIRN_OK) return st;
  route **list = n ? cairn__alloc_zero(&pc->alloc, n * sizeof *list) : NULL;
  if (n && !list) return CAIRN_ERR_NOMEM;
  size_t bytes = 0;
  for (size_t i = 0; i < n && st == CAIRN_OK; i++) {
    st = read_route(pc, &in, &list[i]);
    if (st != CAIRN_OK) break;
    bytes += cairn__pc_route_bytes(list[i]->cap, list[i]->slots);
    for (size_t j = 0; j < i; j++) /* one route a goal */
      if (list[j]->goal == list[i]->goal) st = CAIRN_ERR_PARSE;
  }
  if (st == CAIRN_OK && cairn__rbuf_left(&in)) st = CAIRN_ERR_PARSE;
  if (st == CAIRN_OK && bytes > pc->opts.budget) st = CAIRN_ERR_TOO_LARGE;
  if (st == CAIRN_OK && n > pc->cap_routes &&
      !cairn__grow(&pc->alloc, (void **)&pc->routes, &pc->cap_routes, n, sizeof *pc->routes))
    st = CAIRN_ERR_NOMEM;
  if (st != CAIRN_OK) {
    free_list(pc, list, n);
    return st;
  }
  cairn_path_cache_clear(pc);
  for (size_t k = 0; k < n; k++) pc->routes[k] = list[k];
  pc->n_routes = n;
  pc->bytes = bytes;
  pc->version = cairn_grid_version(pc->grid);
  cairn__free(&pc->alloc, list, n * sizeof *list);
  return CAIRN_OK;
}
