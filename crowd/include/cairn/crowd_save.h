/**
 * @file cairn/crowd_save.h
 * @brief A crowd's whole state saved and loaded, bit for bit: save games,
 * and rollback for lockstep netcode. Part of cairn/crowd.h.
 *
 * What is saved: every agent (slots, generations and free slots, so
 * handles stay valid), its order, waypoints and group, its user value, how
 * it ends its order (the arrival mode and the stay radius, which the
 * orders to one goal share), a driven agent's velocity, the groups'
 * numbering, the path request queue with the search in progress (its open
 * set and costs for A*; for a route over a hierarchy, where its plan
 * started and how far it is refined), the claims, the budget's debt, the
 * goal sets of the fields followed, last tick's bins and the agents placed
 * or moved since (so queries between ticks answer alike), the events not
 * yet taken (cairn_crowd_events, in their order), the figures of
 * cairn_crowd_get_stats (events_lost included) and the tick. A crowd saved
 * at tick T and loaded gives, tick after tick, the same cairn_crowd_hash
 * (and the same agents, paths, events, queries, exports and figures) as
 * the crowd that was never interrupted, at any thread count.
 *
 * Fields of the caller's (cairn_order.field) are not saved: the crowd
 * holds them, it does not own them (their costs and repairs are the
 * caller's), and a save records a field by the goal set a load builds
 * again. While an agent follows one, cairn_crowd_save refuses
 * (CAIRN_ERR_STATE; cairn_crowd_save_check says which): order those
 * agents otherwise before saving (a field order on the same goals gives
 * them the cache's field).
 *
 * What is not saved: the objects the crowd points to. Load into a crowd
 * the caller created with the same walk grid (and route grid), options,
 * penalty layer, hierarchy and path cache, all in the state they had at
 * the save (a path cache's routes: cairn_path_cache_save and _load beside
 * the crowd's); the file records what must match and a load refuses a
 * mismatch (CAIRN_ERR_MISMATCH): the grids' size and fingerprint (every
 * cell's cost), whether a route grid, a penalty layer, a hierarchy and a
 * path cache are used (the layer's fingerprint; the hierarchy's cluster
 * size, levels, node and edge counts; the cache's unit size), and the
 * options that change results (max_agents, dt,
 * bin_size, neighbour_radius, path_budget, waypoints, stuck_ticks,
 * avoid_radius, claim_penalty, claim_radius, claim_ticks, max_events).
 * The job system, threads, chunk and field_cache_bytes may differ. The
 * crowd must have been told of every change to its grids and its layer
 * (cairn_crowd_grid_changed, cairn_crowd_layer_changed): a save or a load
 * before that is CAIRN_ERR_STATE. The fields followed are built again
 * through the crowd's cache (a field the cache repaired after edits is
 * exactly what a fresh build gives).
 *
 * Format (docs/crowd.md has the table): little-endian, the same on every
 * platform; a magic, the format version, the total size, the setup above,
 * the state, and a 64-bit checksum over everything before it.
 *
 * Refusals: every reader checks the size, the magic, the version and the
 * checksum (CAIRN_ERR_PARSE), then the setup (CAIRN_ERR_MISMATCH), then
 * every count and index against the crowd's limits and every invariant
 * the tick relies on (CAIRN_ERR_PARSE), before it changes anything. err
 * (cairn/io.h, may be NULL) gets "FILE: problem", FILE being "<memory>"
 * for a buffer; a load's line is also cairn_crowd_error's (emptied by a
 * load that succeeds). A load that fails for any reason, memory included,
 * leaves the crowd exactly as it was, but for that detail.
 *
 * Threads: as the crowd's other calls (single-threaded from the caller's
 * side). Memory: a save allocates nothing (cairn_crowd_save_file a path
 * name); a load builds the fields it needs through the cache, and, when a
 * search is in progress on both sides, a search or query context for the
 * loaded one (the crowd's own is used when it is idle), and a new claim
 * table when claims are on. cairn_crowd_load_file reads the file into a
 * buffer of the crowd's allocator.
 */
#ifndef CAIRN_CROWD_SAVE_H
#define CAIRN_CROWD_SAVE_H

#include "cairn/crowd.h"
#include "cairn/io.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The format version cairn_crowd_save writes (and the only one read). */
#define CAIRN_CROWD_SAVE_VERSION 4u

/** Whether cairn_crowd_save would refuse the crowd now, and why (as
 * cairn_crowd_check does for create: a save's crowd is const, so its
 * refusal leaves no cairn_crowd_error).
 * @param[in] c the crowd
 * @param[out] detail room for the detail ("the walk grid changed since
 * cairn_crowd_grid_changed", "3 agents follow a field of the caller's
 * ..."; "" when a save would be taken), or NULL
 * @param[in] cap bytes detail can hold (the detail is cut to fit)
 * @return CAIRN_OK; CAIRN_ERR_STATE when the grids or the penalty layer
 * changed since the crowd was last told (cairn_crowd_grid_changed,
 * cairn_crowd_layer_changed), or when an agent follows a field of the
 * caller's; CAIRN_ERR_ARG for NULL c */
CAIRN_CROWD_API cairn_status cairn_crowd_save_check(const cairn_crowd *c, char *detail,
                                                    size_t cap);

/** Saves the crowd's state into buf. Call it between ticks, after telling
 * the crowd of the last changes to its grids and its penalty layer (the
 * fields then show the map the file records), while no agent follows a
 * field of the caller's (see the overview).
 * @param[in] c the crowd
 * @param[out] buf where the bytes go, or NULL to ask the size
 * @param[in] cap bytes buf holds
 * @param[out] len the size of the save in bytes
 * @return CAIRN_OK; CAIRN_ERR_BUFFER (buf NULL or cap under *len, nothing
 * written); CAIRN_ERR_STATE for the refusals of cairn_crowd_save_check
 * (nothing written, *len 0); CAIRN_ERR_ARG for NULL c or len */
CAIRN_CROWD_API cairn_status cairn_crowd_save(const cairn_crowd *c, void *buf, size_t cap,
                                              size_t *len);

/** Saves the crowd's state to the file at path: written to a temporary
 * file beside it ("PATH.tmpN"), then renamed over path, so a save that
 * fails (the disk full, a refusal) never replaces a good file (on Windows,
 * where a rename does not replace, the old file is removed just before).
 * @param[in] c the crowd
 * @param[in] path the file
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK; CAIRN_ERR_IO; CAIRN_ERR_NOMEM; the refusals of
 * cairn_crowd_save (err gets cairn_crowd_save_check's detail);
 * CAIRN_ERR_ARG for NULL c or path */
CAIRN_CROWD_API cairn_status cairn_crowd_save_file(const cairn_crowd *c, const char *path,
                                                   cairn_error *err);

/** Replaces the crowd's state with the one saved in buf (see the overview
 * for what must match). Any crowd with the same setup takes it: one just
 * created, or the one saved, rolled back; what it held before goes (its
 * pending events too, and the caller's fields it held, which stay the
 * caller's). On failure the crowd is exactly as it was, and
 * cairn_crowd_error gives err's line.
 * @param[in,out] c the crowd
 * @param[in] buf the saved bytes
 * @param[in] len their number
 * @param[out] err error detail ("<memory>: problem"), or NULL
 * @return CAIRN_OK; CAIRN_ERR_PARSE (truncated, corrupt, another format
 * version, malformed); CAIRN_ERR_MISMATCH (another map, options, layer or
 * hierarchy, or a goal or search the map no longer fits); CAIRN_ERR_STATE
 * when the grids or the penalty layer changed since the crowd was last
 * told (call cairn_crowd_grid_changed and cairn_crowd_layer_changed
 * first, as after restoring the map and the layer for a rollback), and
 * when a route in progress would be planned again over a hierarchy that
 * is stale (cairn_hpa_edit or cairn_hpa_update first); CAIRN_ERR_NOMEM;
 * CAIRN_ERR_ARG for NULL c or buf */
CAIRN_CROWD_API cairn_status cairn_crowd_load(cairn_crowd *c, const void *buf, size_t len,
                                              cairn_error *err);

/** cairn_crowd_load from the file at path (messages name it).
 * @param[in,out] c the crowd
 * @param[in] path the file
 * @param[out] err error detail, or NULL
 * @return as cairn_crowd_load, and CAIRN_ERR_IO */
CAIRN_CROWD_API cairn_status cairn_crowd_load_file(cairn_crowd *c, const char *path,
                                                   cairn_error *err);

/** What a save says of itself: enough to create a crowd that takes it. */
typedef struct cairn_crowd_save_info {
  uint32_t version;         /**< the format version */
  uint64_t tick;            /**< the tick it was saved at */
  uint32_t agents;          /**< live agents */
  /** @{ */
  int32_t width, height;    /**< the walk grid's size */
  /** @} */
  uint64_t grid_fingerprint;    /**< the walk grid's (cairn_grid_fingerprint) */
  uint64_t route_fingerprint;   /**< the route grid's; 0 without one */
  uint64_t penalty_fingerprint; /**< the penalty layer's; 0 without one */
  int hpa;                  /**< 1 if it planned over a hierarchy */
  /** The hierarchy's options, when hpa is 1 (0 otherwise): with them and
   * cairn_hpa_defaults' others, cairn_hpa_create on the saved walk grid
   * makes the hierarchy again (as `cairn render --crowd` does). @{ */
  int32_t hpa_cluster;      /**< cluster side in cells */
  int hpa_levels;           /**< 2 or 3 */
  int32_t hpa_block;        /**< block side in clusters; 0 with 2 levels */
  int32_t hpa_max_size;     /**< largest unit size (opts.max_size) */
  /** @} */
  int path_cache;           /**< the unit size of the path cache its
                                 requests asked (opts.path_cache); 0 for none */
  /** The options recorded (those that change results); the rest, the
   * pointers (NULL) included, as cairn_crowd_defaults gives them. */
  cairn_crowd_opts opts;
} cairn_crowd_save_info;

/** Reads a save's description, checking its size, magic, version and
 * checksum as a load does.
 * @param[in] buf the saved bytes
 * @param[in] len their number
 * @param[out] out the description
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK; CAIRN_ERR_PARSE; CAIRN_ERR_ARG for NULL buf or out */
CAIRN_CROWD_API cairn_status cairn_crowd_read_info(const void *buf, size_t len,
                                                   cairn_crowd_save_info *out,
                                                   cairn_error *err);

/** cairn_crowd_read_info from the file at path.
 * @param[in] path the file
 * @param[out] out the description
 * @param[out] err error detail, or NULL
 * @return as cairn_crowd_read_info, and CAIRN_ERR_IO, CAIRN_ERR_NOMEM */
CAIRN_CROWD_API cairn_status cairn_crowd_read_info_file(const char *path,
                                                        cairn_crowd_save_info *out,
                                                        cairn_error *err);

#ifdef __cplusplus
}
#endif
#endif
