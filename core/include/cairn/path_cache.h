/**
 * @file cairn/path_cache.h
 * @brief Shared paths: units that head for one goal from one region reuse
 * the routes found before them instead of each searching the map.
 *
 * The cache keeps, per goal, a route tree: every cell a returned path
 * passed through, with the next cell towards the goal. The first request
 * for a goal runs an exact search and stores its path. A later request
 * from a cell on the tree walks the tree. Otherwise the unit looks for the
 * tree within opts.join_radius straight steps (a Dijkstra search that
 * stops at the first tree cell it settles), joins it there, and the
 * steps it walked become part of the tree. Farther away, it searches
 * exactly and stores that path too.
 *
 * Exactness: a searched path is optimal. A joined one is within a bound
 * that the result states (cairn_cached_path.excess), the smaller of two:
 * - if the unit walked `j` to join at cell p, and `r` is the cost of
 *   walking the same cells back from p, its path costs at most
 *   j + r + excess(p) more than the cheapest one (the cheapest route from
 *   the unit is no cheaper than the one from p less r);
 * - the path's cost less the octile distance to the goal at the cheapest
 *   terrain (no route costs less).
 * Set opts.max_excess to cap it: a join that would exceed it searches
 * exactly instead, and 0 makes every answer exact.
 *
 * Memory: routes are kept within opts.budget bytes; when a new one does
 * not fit, the least recently used go first (a route bigger than the
 * whole budget is returned but not kept). Requests that store a route
 * allocate; those that walk a stored one do not.
 *
 * Edits: call cairn_path_cache_edited with the rectangle of every change
 * to the grid's costs or to opts.search.penalty. It drops only the routes
 * the change touches, or could shorten: a route from cell p (stored cost
 * D) survives a change in rectangle r when no step of it enters r and a
 * detour through r costs at least D even at the cheapest terrain. An edit
 * to the grid that was not reported clears the whole cache at the next
 * request (the grid's version tells).
 *
 * Threads: a cache is one object with its search context's rules: one
 * thread at a time.
 */
#ifndef CAIRN_PATH_CACHE_H
#define CAIRN_PATH_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "search.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Routes shared by the units of one grid. */
typedef struct cairn_path_cache cairn_path_cache;

/** Options of a cache (cairn_path_cache_defaults gives them). */
typedef struct cairn_path_cache_opts {
  /** Bytes the stored routes may take (default 4 MiB, at least 4096). */
  size_t budget;
  /** The farthest a unit walks to join a route, in straight steps at
   * terrain cost 1, 0 .. 1000 (default 16). 0: a unit joins only when it
   * stands on a route. */
  double join_radius;
  /** The largest excess a joined path may carry, in straight steps at
   * terrain cost 1 (default: no cap, a negative value). 0: every answer
   * is exact. */
  double max_excess;
  /** The searches' options: moves, size, bounds, penalty, landmarks and
   * dead ends are used. The heuristic is octile (Manhattan with 4 moves)
   * at weight 1; a turn penalty, claims or avoided cells are refused
   * (CAIRN_ERR_ARG): they belong to one unit, not to a shared route. The
   * tables and the layer it points to must outlive the cache. */
  cairn_search_opts search;
} cairn_path_cache_opts;

/** What one request returned. */
typedef struct cairn_cached_path {
  cairn_status status; /**< CAIRN_OK (found) or CAIRN_NO_PATH */
  cairn_cost cost;     /**< the path's cost; CAIRN_COST_INF if none */
  /** An upper bound on cost minus the cheapest path's cost: 0 when the
   * path is exact. */
  cairn_cost excess;
  /** How it was found: 0 searched, 1 walked a stored route from the start,
   * 2 joined one, 3 missed (cairn_path_cache_lookup: nothing stored serves
   * the start). */
  int how;
  uint64_t expanded; /**< nodes the request's searches expanded */
  size_t len;        /**< points in the path, start and goal included */
} cairn_cached_path;

/** How a request was answered (cairn_cached_path.how). */
enum {
  CAIRN_CACHE_SEARCHED = 0,
  CAIRN_CACHE_WALKED = 1,
  CAIRN_CACHE_JOINED = 2,
  CAIRN_CACHE_MISSED = 3
};

/** What a cache holds and has done. */
typedef struct cairn_path_cache_stats {
  uint32_t routes;   /**< goals with a stored route */
  size_t cells;      /**< cells on stored routes */
  size_t bytes;      /**< memory of the stored routes */
  uint64_t searched; /**< requests answered by an exact search */
  uint64_t walked;   /**< requests answered by walking a stored route */
  uint64_t joined;   /**< requests answered by joining a stored route */
  uint64_t missed;   /**< lookups the stored routes could not answer */
  uint64_t stored;   /**< paths handed in by cairn_path_cache_store */
  uint64_t evicted;  /**< routes dropped for the budget */
  uint64_t dropped;  /**< routes dropped by reported edits */
  uint64_t cleared;  /**< times an unreported edit cleared the cache */
} cairn_path_cache_stats;

/** The defaults: 4 MiB, join radius 16, no excess cap, the search
 * defaults.
 * @return the default options */
CAIRN_CORE_API cairn_path_cache_opts cairn_path_cache_defaults(void);

/** Makes an empty cache for `grid`, which must outlive it.
 * @param[in] grid the grid
 * @param[in] opts options, or NULL for the defaults (copied)
 * @param[in] alloc the allocator, or NULL for malloc
 * @param[out] out the cache (NULL on failure)
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL grid or out, or options out of
 * range; CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_path_cache_create(const cairn_grid *grid,
                                                    const cairn_path_cache_opts *opts,
                                                    const cairn_allocator *alloc,
                                                    cairn_path_cache **out);
/** Releases the cache.
 * @param[in] pc the cache, or NULL (ignored) */
CAIRN_CORE_API void cairn_path_cache_destroy(cairn_path_cache *pc);

/** A path from start to goal, from the stored routes or a new search (see
 * the file's description), written into path (start first).
 * @param[in,out] pc the cache
 * @param[in,out] s a search context, for the searches it runs
 * @param[in] start the unit's cell
 * @param[in] goal the goal cell
 * @param[out] path room for cap points
 * @param[in] cap points path can hold
 * @param[out] out what was found; out->len is set also when the buffer
 * is too small
 * @return CAIRN_OK, CAIRN_NO_PATH; CAIRN_ERR_BUFFER when the path has more
 * than cap points (nothing written, the route kept, so a retry with room
 * walks it); CAIRN_ERR_RANGE for a cell off the grid or its bounds,
 * CAIRN_ERR_BLOCKED for one the unit does not fit, CAIRN_ERR_ARG for
 * NULL, CAIRN_ERR_NOMEM (the cache stays usable, maybe emptier) */
CAIRN_CORE_API cairn_status cairn_path_cache_find(cairn_path_cache *pc, cairn_search *s,
                                                  cairn_point start, cairn_point goal,
                                                  cairn_point *path, size_t cap,
                                                  cairn_cached_path *out);

/** A path from start to goal from the stored routes alone: a walk along
 * one, or a join within opts.join_radius (as cairn_path_cache_find), and
 * never the exact search. For callers that search in slices of their own
 * (a crowd's budgeted queue): on a miss they search, and hand the path in
 * with cairn_path_cache_store.
 * @param[in,out] pc the cache
 * @param[in,out] s a search context, for the join search
 * @param[in] start the unit's cell
 * @param[in] goal the goal cell
 * @param[out] path room for cap points
 * @param[in] cap points path can hold
 * @param[out] out what was found (how CAIRN_CACHE_MISSED on a miss)
 * @return CAIRN_OK (walked or joined); CAIRN_PARTIAL when no stored route
 * serves the start (nothing written: a path may still exist); otherwise
 * as cairn_path_cache_find */
CAIRN_CORE_API cairn_status cairn_path_cache_lookup(cairn_path_cache *pc, cairn_search *s,
                                                    cairn_point start, cairn_point goal,
                                                    cairn_point *path, size_t cap,
                                                    cairn_cached_path *out);

/** Hands in a path the caller found, to be stored as a route to its last
 * point: it must be a cheapest path under the cache's search options
 * (for instance cairn_astar or a sliced search with opts.search, the same
 * layer, no claims, no avoided cells), since walks and joins rely on
 * stored routes being exact. Its cells and steps are checked (on the
 * grid and its bounds, legal for the unit, not blocked by the layer);
 * its cost is not. It is kept within the budget as a searched path is.
 * @param[in,out] pc the cache
 * @param[in] path the points, start first, goal last
 * @param[in] len points in path (at least 1)
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL, len 0 or an illegal step;
 * CAIRN_ERR_RANGE / CAIRN_ERR_BLOCKED for a cell off the grid or one the
 * unit does not fit; CAIRN_ERR_NOMEM (nothing stored) */
CAIRN_CORE_API cairn_status cairn_path_cache_store(cairn_path_cache *pc, const cairn_point *path,
                                                   size_t len);

/** The grid the cache was made for.
 * @param[in] pc the cache
 * @return the grid; NULL for NULL */
CAIRN_CORE_API const cairn_grid *cairn_path_cache_grid(const cairn_path_cache *pc);

/** The cache's options as it uses them (the heuristic set for the moves).
 * @param[in] pc the cache
 * @param[out] out the options
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL */
CAIRN_CORE_API cairn_status cairn_path_cache_get_opts(const cairn_path_cache *pc,
                                                      cairn_path_cache_opts *out);

/** Reports a change of the grid's costs, or of the options' penalty
 * layer, inside rectangle r (clipped to the grid): the routes it touches
 * or could shorten are dropped, the others kept.
 * @param[in,out] pc the cache
 * @param[in] r the changed cells
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL */
CAIRN_CORE_API cairn_status cairn_path_cache_edited(cairn_path_cache *pc, cairn_rect r);

/** Saves the stored routes, so that a game can ship them precalculated:
 * little-endian bytes, the same on every platform, with the grid's size
 * and fingerprint, the unit's size, the moves and a checksum (24 bytes a
 * route cell, 8 a route, 48 of header and trailer).
 * @param[in] pc the cache
 * @param[out] buf where the bytes go, or NULL to ask their number
 * @param[in] cap bytes buf holds
 * @param[out] len the bytes needed
 * @return CAIRN_OK; CAIRN_ERR_BUFFER (buf NULL or cap under *len, nothing
 * written); CAIRN_ERR_ARG for NULL pc or len */
CAIRN_CORE_API cairn_status cairn_path_cache_save(const cairn_path_cache *pc, void *buf,
                                                  size_t cap, size_t *len);
/** Replaces the cache's routes with saved ones. Every route is checked:
 * its cells open for the unit, each step a legal move, the stored costs
 * no lower than the steps they cover, one goal per route. On failure the
 * cache keeps what it held.
 * @param[in,out] pc the cache
 * @param[in] buf the saved bytes
 * @param[in] len their number
 * @return CAIRN_OK; CAIRN_ERR_PARSE for bytes that are truncated, corrupt
 * (the checksum) or inconsistent; CAIRN_ERR_MISMATCH for routes saved on
 * another grid (size or fingerprint: the map or its terrain changed) or
 * for another unit size or moves; CAIRN_ERR_TOO_LARGE when they do not
 * fit opts.budget; CAIRN_ERR_ARG for NULL; CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_path_cache_load(cairn_path_cache *pc, const void *buf,
                                                  size_t len);

/** Drops every route.
 * @param[in,out] pc the cache, or NULL (ignored) */
CAIRN_CORE_API void cairn_path_cache_clear(cairn_path_cache *pc);

/** What the cache holds and has done.
 * @param[in] pc the cache
 * @param[out] out its stats
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL */
CAIRN_CORE_API cairn_status cairn_path_cache_get_stats(const cairn_path_cache *pc,
                                                       cairn_path_cache_stats *out);

#ifdef __cplusplus
}
#endif
#endif
