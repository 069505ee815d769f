/* Private to the core module: the path cache's layout, shared by
 * path_cache.c (requests, edits) and path_cache_save.c (save, load). */
#ifndef CAIRN_PATH_CACHE_INTERNAL_H
#define CAIRN_PATH_CACHE_INTERNAL_H

#include "cairn/path_cache.h"

#include <stdbool.h>

#define NO_NODE UINT32_MAX

/* One goal's tree: node k is grid cell cell[k], whose path to the goal
 * goes on to node next[k] (NO_NODE at the goal) for at most d[k], at most
 * ex[k] above the cheapest. d is an upper bound, not the exact sum: an
 * exact path laid over a node later lowers what walking from the nodes
 * behind it costs, and never raises it. */
typedef struct route {
  uint32_t goal;     /* grid index */
  uint64_t used;     /* the cache's clock at the last request */
  uint32_t n, cap;   /* nodes */
  uint32_t *cell, *next;
  cairn_cost *d, *ex;
  uint32_t *slot;    /* open addressing, cell -> node + 1 (0 empty) */
  uint32_t slots;    /* a power of two, at least twice cap */
} route;

struct cairn_path_cache {
  cairn_allocator alloc;
  const cairn_grid *grid;
  cairn_path_cache_opts opts;
  uint64_t version; /* the grid's, when the routes were last known good */
  uint64_t clock;
  route **routes;
  size_t n_routes, cap_routes;
  size_t bytes;     /* of all routes */
  cairn_point *goals;   /* a join search's goals */
  size_t goals_cap;
  uint32_t *ix;         /* a path's cells as grid indices */
  size_t ix_cap;
  cairn_path_cache_stats stats;
};

/* Bytes a route with room for cap nodes and `slots` slots takes. */
size_t cairn__pc_route_bytes(uint32_t cap, uint32_t slots);
/* Room for cap nodes in r: new arrays with the nodes copied and the
 * slots rebuilt; r untouched when out of memory. */
bool cairn__pc_route_reserve(const cairn_allocator *a, route *r, uint32_t cap);
/* Frees r and its arrays. */
void cairn__pc_route_free(const cairn_allocator *a, route *r);
/* Enters node `node` (its cell set, room made) in r's slots. */
void cairn__pc_route_index(route *r, uint32_t node);
/* The node of grid index cell in r, or NO_NODE. */
uint32_t cairn__pc_node_of(const route *r, uint32_t cell);
/* What a step from grid index `from` to its neighbour `to` costs, as the
 * searches charge it: the step times the terrain entered, plus the layer. */
cairn_cost cairn__pc_step_cost(const cairn_path_cache *pc, uint32_t from, uint32_t to);
/* Whether a unit of the cache's size may step from grid index a to its
 * neighbour b (the grid's moves for the unit; the layer aside). */
bool cairn__pc_legal_step(const cairn_path_cache *pc, uint32_t a, uint32_t b);
/* The unit's size, 1 for 0. */
unsigned cairn__pc_unit_size(const cairn_path_cache *pc);

#endif
