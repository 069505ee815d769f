/**
 * @file cairn/flow_cache.h
 * @brief The field cache: fields shared between requests for one goal
 * set. Part of cairn/flowfield.h.
 */
#ifndef CAIRN_FLOW_CACHE_H
#define CAIRN_FLOW_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cairn/core.h"
#include "flow_field.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- cache ---------------------------------------------------------- */

/** Fields shared between requests for the same goal set (sorted, duplicates
 * removed) and unit size on one grid with one set of options (its size
 * the default one): reference counted, at most
 * max_bytes of fields held (cairn_field_stats.memory_bytes), least recently
 * used unheld fields evicted first. */
typedef struct cairn_flow_cache cairn_flow_cache;

/** Creates an empty cache.
 * @param[in] grid the grid (kept: it must outlive the cache)
 * @param[in] max_bytes most bytes of fields held
 * @param[in] opts the options of every field, or NULL for
 * cairn_flow_defaults
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the cache
 * @return CAIRN_OK, CAIRN_ERR_ARG (NULL, bad opts), CAIRN_ERR_NOMEM */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_cache_create(const cairn_grid *grid, size_t max_bytes,
                                     const cairn_flow_opts *opts,
                                     const cairn_allocator *alloc,
                                     cairn_flow_cache **out);
/** Destroys every field, held or not. NULL is ignored.
 * @param[in] c the cache, or NULL */
CAIRN_FLOWFIELD_API void cairn_flow_cache_destroy(cairn_flow_cache *c);
/** The field for these goals: the cached one (its count raised), or a new
 * one built with b. A new field that does not fit evicts unheld fields;
 * CAIRN_ERR_NOMEM if it still does not fit. Build refusals as
 * cairn_field_build.
 * @param[in,out] c the cache
 * @param[in,out] b the builder for a new field
 * @param[in] goals the goal cells
 * @param[in] n number of goals
 * @param[out] out the field, held until cairn_flow_cache_release
 * @return CAIRN_OK, CAIRN_ERR_NOMEM, the refusals of cairn_field_build,
 * CAIRN_ERR_STATE (nothing handed out) when the grid changed since the
 * cache's create or its last successful cairn_flow_cache_update */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_cache_acquire(cairn_flow_cache *c,
                                      cairn_flow_builder *b,
                                      const cairn_point *goals, size_t n,
                                      const cairn_field **out);
/** cairn_flow_cache_acquire for a unit of another size than the cache
 * options' (cairn_flow_opts.size): fields are keyed by goal set and size,
 * so infantry and rams heading for one gate share nothing but each
 * size's field is shared by every unit of that size. A goal where the
 * unit does not fit is CAIRN_ERR_BLOCKED.
 * @param[in,out] c the cache
 * @param[in,out] b the builder for a new field
 * @param[in] goals the goal cells
 * @param[in] n number of goals
 * @param[in] size the unit's size, 1 .. CAIRN_GRID_MAX_CLEARANCE (0 reads
 *   as 1; else CAIRN_ERR_ARG)
 * @param[out] out the field, held until cairn_flow_cache_release
 * @return as cairn_flow_cache_acquire */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_cache_acquire_sized(cairn_flow_cache *c,
                                                                cairn_flow_builder *b,
                                                                const cairn_point *goals,
                                                                size_t n, int32_t size,
                                                                const cairn_field **out);
/** Lowers the count; an unheld field stays cached until evicted.
 * @param[in,out] c the cache
 * @param[in] f a field the cache handed out
 * @return CAIRN_OK; CAIRN_ERR_ARG for a field the cache did not hand out or
 * one already fully released */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_cache_release(cairn_flow_cache *c,
                                      const cairn_field *f);
/** Drops every unheld field now (memory back at once, instead of at the
 * next eviction).
 * @param[in,out] c the cache
 * @return how many fields were dropped */
CAIRN_FLOWFIELD_API size_t cairn_flow_cache_trim(cairn_flow_cache *c);
/** After the caller changed n cells of the grid: fields whose reached area
 * (bounding box of reachable cells, grown by one) holds none of them are
 * untouched; unheld affected fields are dropped; held ones are repaired
 * (a held field whose goal got blocked is detached: its holders keep the
 * old field until they release it, and new requests build afresh).
 * `*repaired` and `*dropped` (either may be NULL) get the counts.
 * The cells are taken as every change since the last update: on success
 * the cache and every field it still serves show the grid's current
 * version (cairn_grid_version), so acquire and the fields' reads answer
 * again; a detached field stays behind, and its reads answer
 * CAIRN_ERR_STATE. An update naming no cell reports no change. On an
 * error the cache keeps refusing until an update succeeds.
 * @param[in,out] c the cache
 * @param[in,out] b the builder for the repairs
 * @param[in] changed the cells whose cost changed
 * @param[in] n number of cells
 * @param[out] repaired fields repaired, or NULL
 * @param[out] dropped fields dropped, or NULL
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_RANGE, CAIRN_ERR_NOMEM */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_cache_update(cairn_flow_cache *c,
                                     cairn_flow_builder *b,
                                     const cairn_point *changed, size_t n,
                                     size_t *repaired, size_t *dropped);

/** After the cache's layer (opts.penalty) changed: every field the cache
 * holds is brought to the layer's current version. Fields whose reached
 * box grown by one holds no tile the layer changed since their version
 * are only marked current (a change there borders no reached cell);
 * affected unheld fields are dropped, held ones repaired in place
 * (cairn_field_repair_layer; a held field whose goal's grid cell got
 * blocked is detached, as in cairn_flow_cache_update). Freshness: a field
 * the cache hands out shows the layer as of this call's last run, or of
 * its own build if that came later; call this once per tick after the
 * layer's writes. O(fields) when the layer did not change. Without a
 * layer: nothing to do. `*repaired` and `*dropped` (either may be NULL)
 * get the counts. CAIRN_ERR_STATE (nothing done) when the grid changed
 * since the cache was last told (cairn_flow_cache_update first).
 * @param[in,out] c the cache
 * @param[in,out] b the builder for the repairs
 * @param[out] repaired fields repaired, or NULL
 * @param[out] dropped fields dropped, or NULL
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_STATE, CAIRN_ERR_NOMEM */
CAIRN_FLOWFIELD_API cairn_status cairn_flow_cache_layer_changed(cairn_flow_cache *c,
                                            cairn_flow_builder *b,
                                            size_t *repaired, size_t *dropped);

/** A cache's figures. */
typedef struct cairn_flow_cache_stats {
  size_t fields;       /**< cached (held or not) */
  size_t held;         /**< with a count above 0 */
  size_t bytes;        /**< memory of the cached fields */
  /** @{ */
  uint64_t hits, misses, evictions, repairs, drops; /**< counts so far */
  /** @} */
} cairn_flow_cache_stats;

/** Fills `*out` with the cache's figures.
 * @param[in] c the cache
 * @param[out] out the figures */
CAIRN_FLOWFIELD_API void cairn_flow_cache_get_stats(const cairn_flow_cache *c,
                                cairn_flow_cache_stats *out);

#ifdef __cplusplus
}
#endif
#endif
