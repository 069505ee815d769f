/**
 * @file cairn/hierarchy.h
 * @brief HPA*: two-tier search over clusters of a grid.
 *
 * The grid is cut into square clusters. Entrances are cells on the borders
 * between neighbouring clusters (placed per maximal open border segment as
 * Botea, Mueller and Schaeffer's HPA* places them, plus diagonal crossings
 * at cluster corners, which no corner cutting leaves as the only way across
 * there). Every cluster stores the exact cost between each pair of its
 * entrances, computed with a Dijkstra confined to the cluster, and the grid
 * path behind each cost. A query joins its start and goal to the entrances
 * of their clusters, searches the abstract graph with the core's A*, then
 * replaces every abstract edge with its grid steps and smooths the result.
 *
 * Costs are the core's (cairn_cost, cairn/core.h). The abstract cost of a
 * route equals the cost of its refined grid path; smoothing only lowers it.
 * The answer is not guaranteed optimal: docs/PERFORMANCE.md gives the
 * suboptimality measured on the Moving AI maps.
 *
 * Ownership: cairn_hpa_create keeps a pointer to the grid; the grid must
 * outlive the hierarchy, and cells change only through cairn_hpa_edit (or
 * cairn_grid_set_cost followed by cairn_hpa_update over the changed cells).
 * An update or edit after a failed one rebuilds every cluster.
 *
 * Staleness: the hierarchy records the grid's version (cairn_grid_version)
 * when it last matched the grid: at create, after each successful edit or
 * update (whose cells are taken as every change since), and after a
 * rebuild of every cluster. A grid changed without telling it moves past
 * that version, and then every read answers CAIRN_ERR_STATE rather than a
 * path through a new wall: cairn_hpa_find, cairn_hpa_plan, each
 * cairn_hpa_refine step of a route in progress, cairn_hpa_node, and
 * cairn_hpa_set_layer and cairn_hpa_refresh, which would rebuild some
 * clusters on the new cells and leave the rest on the old. Reporting the
 * cells (cairn_hpa_update, or cairn_hpa_edit) makes them answer again.
 * The check is one call into the grid and a compare per query or step.
 *
 * Threads: a cairn_hpa is read-only during queries, so any number of threads
 * can query one hierarchy at once, each with its own cairn_hpa_query; start
 * and goal join the abstract graph inside the query context, never by
 * editing the shared graph. Edits and updates need exclusive access: no
 * query may run meanwhile; a query between incremental steps answers
 * CAIRN_ERR_STATE at its next cairn_hpa_refine (plan again). Builds,
 * edits and updates, layer changes and refreshes, and the landmarks after
 * them run their per-cluster, per-block and per-landmark work as tasks
 * through opts.jobs (the caller's job system), or a pool the hierarchy
 * owns (opts.threads). The hierarchy is the same, bit for bit, at any
 * worker count and under any scheduler (whatever order the tasks run in
 * and whichever workers run them). The caller's allocator is only ever
 * entered by one thread at a time.
 *
 * Levels: clusters (level 1) and, on large maps, blocks of clusters (level
 * 2, a third tier above the grid) that long queries search first.
 *
 * Unit sizes: built with cairn_hpa_opts.max_size = S, one hierarchy
 * answers units of k x k cells for every k up to S
 * (cairn_hpa_path_opts.size), each path valid for its unit as the core's
 * sized A* defines it (cairn_search_opts.size); see max_size.
 *
 * Memory: a query context grows to the largest grid and path it has seen
 * (cairn_hpa_query_reserve grows it up front); after that, queries allocate
 * nothing.
 *
 * Files: cairn_hpa_save writes a built hierarchy, and cairn_hpa_load reads
 * it back for the same map in a fraction of a build's time.
 */
#ifndef CAIRN_HIERARCHY_H
#define CAIRN_HIERARCHY_H

#include "cairn/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Smallest cluster side accepted, in cells. */
#define CAIRN_HPA_MIN_CLUSTER 4
/** Largest cluster side accepted, in cells. */
#define CAIRN_HPA_MAX_CLUSTER 128
/** The default cluster side, chosen by measurement (docs/PERFORMANCE.md). */
#define CAIRN_HPA_DEFAULT_CLUSTER 16

/** A hierarchy over a grid (see the file's overview). */
typedef struct cairn_hpa cairn_hpa;

/** Default block side, in clusters.
 *
 * A third level groups CAIRN_HPA_DEFAULT_BLOCK x CAIRN_HPA_DEFAULT_BLOCK
 * clusters into blocks; by default it is built on maps with at least
 * CAIRN_HPA_AUTO_LEVEL3 clusters (docs/PERFORMANCE.md: where it pays).
 * Its graph carries landmarks too. */
#define CAIRN_HPA_DEFAULT_BLOCK 4
/** Clusters from which the third level is built by default. */
#define CAIRN_HPA_AUTO_LEVEL3 4096

/** Default landmarks of each abstract graph.
 *
 * Landmarks of the abstract graphs (the core's ALT bound,
 * cairn_graph_set_landmarks): the entrances nearest points spread around
 * the map's edge. They make the abstract search expand far fewer nodes
 * (docs/PERFORMANCE.md) for one fill of the abstract graph each, at every
 * build and after every edit. */
#define CAIRN_HPA_DEFAULT_LANDMARKS 16

/** Options of cairn_hpa_create (cairn_hpa_defaults gives them). */
typedef struct cairn_hpa_opts {
  int32_t cluster; /**< cluster side in cells; 0 = the default */
  /** Where builds, edits, updates, refreshes and landmarks run their
   * parallel work: the caller's job system (cairn_jobs, cairn/core.h; it
   * must outlive the hierarchy), or NULL for a pool the hierarchy owns
   * with `threads` threads (0 = every core, but the calling thread alone
   * on grids under 65,536 cells, whose build takes a millisecond or two;
   * 1 = the calling thread alone; at most CAIRN_JOBS_MAX_WORKERS). The
   * result never depends on which. */
  const cairn_jobs *jobs;
  int threads; /**< pool threads when jobs is NULL (see jobs) */
  /** 2: clusters only; 3: clusters and blocks of clusters; 0 (default):
   * 3 on maps of at least CAIRN_HPA_AUTO_LEVEL3 clusters, else 2 */
  int levels;
  int32_t block;   /**< block side in clusters (2..64); 0 = the default */
  /** landmarks: 1..CAIRN_GRAPH_MAX_LANDMARKS, -1 for none (cheaper builds
   * and edits, slower queries), 0 = CAIRN_HPA_DEFAULT_LANDMARKS */
  int32_t landmarks;
  /** Largest unit size the hierarchy answers for (units of k x k cells,
   * cairn_search_opts.size): 1..CAIRN_GRID_MAX_CLEARANCE; 0 reads as 1,
   * the default, which builds exactly the hierarchy of a build without
   * sizes. Above 1, every entrance and crossing is annotated with the
   * largest size that fits it, each cluster keeps its entrance costs for
   * every size from 2 to max_size (sharing the size-1 costs wherever the
   * size-1 paths fit the larger unit at the same cost), and borders get
   * extra crossings where the size-1 ones are too narrow for a larger
   * unit (Harabor and Botea's annotated hierarchy, HAA*). See
   * docs/hierarchy.md, "Units of several sizes", for its cost. */
  int32_t max_size;
} cairn_hpa_opts;

/** The default options.
 * @return cluster 16, levels and landmarks by default, the hierarchy's own
 * pool over every core, max_size 1 */
CAIRN_HIERARCHY_API cairn_hpa_opts cairn_hpa_defaults(void);

/** Builds the hierarchy over an 8-way grid. Refreshes nothing in the grid:
 * if its islands are stale, unreachable queries are found by searching.
 * @param[in] grid the grid (kept: it must outlive the hierarchy)
 * @param[in] opts options, or NULL for cairn_hpa_defaults
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the hierarchy
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL grid or
 * out, or a cluster side outside [CAIRN_HPA_MIN_CLUSTER,
 * CAIRN_HPA_MAX_CLUSTER], levels other than 0, 2 or 3, a block side
 * outside [2, 64], landmarks outside [-1, CAIRN_GRAPH_MAX_LANDMARKS],
 * threads outside [0, CAIRN_JOBS_MAX_WORKERS], max_size outside
 * [0, CAIRN_GRID_MAX_CLEARANCE], or jobs that
 * cairn_jobs_check refuses; CAIRN_ERR_NOMEM (memory, a lock or the pool's
 * threads cannot be had) */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_create(const cairn_grid *grid,
                              const cairn_hpa_opts *opts,
                              const cairn_allocator *alloc, cairn_hpa **out);
/** Destroys a hierarchy (not its grid). NULL is ignored.
 * @param[in] h the hierarchy, or NULL */
CAIRN_HIERARCHY_API void cairn_hpa_destroy(cairn_hpa *h);

/** What a hierarchy holds and what its last builds cost. */
typedef struct cairn_hpa_stats {
  int32_t cluster;          /**< side in cells */
  uint32_t clusters;        /**< clusters across x clusters down */
  uint32_t nodes;           /**< abstract nodes (entrance cells) */
  size_t edges;             /**< directed abstract edges */
  int levels;               /**< 2 or 3 */
  int32_t block;            /**< block side in clusters (levels == 3) */
  uint32_t blocks;          /**< blocks (levels == 3) */
  uint32_t nodes2;          /**< level-2 nodes (levels == 3) */
  size_t edges2;            /**< directed level-2 edges (levels == 3) */
  uint32_t landmarks;       /**< landmarks of the level-1 graph (the level-2
                               graph has as many, or fewer) */
  size_t memory_bytes;      /**< everything the hierarchy holds */
  double build_ms;          /**< wall time of the create, or of the load
                               (cairn_hpa_load; cairn_hpa_load_file's
                               includes reading the file) */
  double update_ms;         /**< wall time of the last edit or update */
  uint32_t rebuilt_clusters; /**< clusters the last edit, update or refresh
                                redid */
  uint32_t layered_clusters; /**< clusters built with the layer's penalties */
  uint32_t stale_clusters;   /**< clusters the layer changed since they were
                                built (cairn_hpa_refresh catches up) */
  int32_t max_size;          /**< largest unit size answered (opts.max_size) */
} cairn_hpa_stats;

/** Fills `*out` with the hierarchy's figures.
 * @param[in] h the hierarchy
 * @param[out] out the figures */
CAIRN_HIERARCHY_API void cairn_hpa_get_stats(const cairn_hpa *h, cairn_hpa_stats *out);

/** Sets n cells of the hierarchy's grid (costs 0 = blocked, 1..255), then
 * rebuilds only the clusters those cells can affect: the cluster of each
 * cell, and the neighbour across each cluster border the cell lies on, since
 * the entrances of that border move. Island labels are refreshed, and the
 * landmarks recomputed (a fill of each abstract graph per landmark: most
 * of an edit's time on large maps; opts.landmarks = -1 makes edits cheap,
 * docs/PERFORMANCE.md). grid must be the one the hierarchy was built on
 * (CAIRN_ERR_ARG otherwise). On
 * CAIRN_ERR_NOMEM the grid holds the new costs and the hierarchy is marked
 * stale: queries answer CAIRN_ERR_STATE until an update succeeds. The
 * cells are taken as every change of the grid since the hierarchy last
 * matched it (see Staleness in the overview): on success it shows the
 * grid's current version again; n = 0 changes and reports nothing.
 * @param[in,out] h the hierarchy
 * @param[in,out] grid the hierarchy's grid
 * @param[in] cells the cells to set
 * @param[in] costs their new costs
 * @param[in] n number of cells
 * @return CAIRN_OK, CAIRN_ERR_ARG (NULL, another grid), CAIRN_ERR_RANGE (a
 * cell off the grid), CAIRN_ERR_NOMEM */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_edit(cairn_hpa *h, cairn_grid *grid,
                            const cairn_point *cells, const uint8_t *costs,
                            size_t n);
/** For callers that changed the grid themselves: rebuilds the clusters the
 * cells inside `changed` can affect and refreshes the island labels.
 * `changed` must hold every cell changed since the hierarchy last matched
 * the grid: on success it shows the grid's current version
 * (cairn_grid_version) and its reads answer again.
 * @param[in,out] h the hierarchy
 * @param[in,out] grid the hierarchy's grid
 * @param[in] changed the cells that changed
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_RANGE, CAIRN_ERR_NOMEM (as
 * cairn_hpa_edit) */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_update(cairn_hpa *h, cairn_grid *grid,
                              cairn_rect changed);

/* ---- cost layers ---------------------------------------------------- */

/** Binds a penalty layer (cairn/core.h: influence maps, blocks, a caller's
 * own penalties) that the hierarchy's answers pay on top of terrain, or
 * unbinds it (NULL). CAIRN_ERR_ARG if the layer is for a grid of another
 * size. The clusters the old or the new layer touches are rebuilt now,
 * and the level-1 landmarks measured again.
 *
 * Freshness: what a query pays and plans with.
 * - Its cost, and the links from the start and to the goal inside their
 *   clusters, and the plain A* of nearby queries, and the smoother, always
 *   use the layer as it is at the call.
 * - The abstract graph uses each cluster as it was when last built: the
 *   costs between its entrances and the grid paths behind them follow the
 *   layer only when cairn_hpa_refresh rebuilds the cluster, and so do
 *   the crossings into it (a crossing pays the cell it enters; a refresh
 *   also redoes those of a rebuilt cluster's neighbours that share its
 *   borders). So a change to the layer reaches the route after at most
 *   ceil(S / N) refreshes of N clusters each, S being the clusters stale
 *   when it was made; cairn_hpa_get_stats counts them (stale_clusters).
 *   Once none is stale, the abstract graph is edge for edge the one a
 *   fresh build on the layer gives.
 * - The level-1 landmarks are measured on terrain alone, and penalties
 *   only add, so their bound stays admissible whatever the layer does: a
 *   refresh never measures them again. The level-2 graph has none under a
 *   layer; its blocks follow their clusters (and the clusters beside
 *   their borders) at each refresh.
 * A layer blocking a cell (CAIRN_PENALTY_BLOCK) closes it to the abstract
 * graph once the clusters around it are refreshed, and to the links and the
 * smoother at once. Claims (cairn_claims) are a per-unit penalty within a
 * radius of the searching unit and have no place in a shared graph: use
 * them with the core's A*.
 *
 * The layer must outlive the binding; writing to it while a query runs is
 * a data race (as for the grid).
 * @param[in,out] h the hierarchy
 * @param[in] layer the layer, or NULL to unbind
 * @return CAIRN_OK, CAIRN_ERR_ARG, CAIRN_ERR_STATE (nothing changed: the
 * grid changed since the hierarchy last matched it; cairn_hpa_update
 * first), CAIRN_ERR_NOMEM (the hierarchy is then stale, as after a failed
 * edit) */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_set_layer(cairn_hpa *h, const cairn_penalty *layer);

/** Rebuilds up to max_clusters clusters (0: all) whose part of the layer
 * changed since they were built, in a round over the clusters that
 * resumes where the last refresh stopped (so none waits more than
 * ceil(stale / max_clusters) calls), and sets *pending (may be NULL) to
 * the stale clusters left. Without a layer it does nothing. The rebuilt
 * clusters keep their entrances (they follow walls alone), so only their
 * share of the abstract graph's edges, and that of their west, north and
 * north-west neighbours (whose crossings enter them), is made again; the
 * rest of the edge list is copied from the last assembly, which the
 * hierarchy keeps under a layer (16 bytes an edge, in memory_bytes).
 * Exclusive access, as an edit. On CAIRN_ERR_NOMEM the hierarchy is stale
 * (queries answer CAIRN_ERR_STATE) until a refresh succeeds. Its cost:
 * about one cluster's build each, plus making the CSR graph from the edge
 * list and putting the landmark table on it (docs/PERFORMANCE.md).
 * @param[in,out] h the hierarchy
 * @param[in] max_clusters most clusters to rebuild; 0 = all
 * @param[out] pending stale clusters left, or NULL
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL, CAIRN_ERR_STATE (nothing
 * rebuilt: the grid changed since the hierarchy last matched it;
 * cairn_hpa_update first), CAIRN_ERR_NOMEM */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_refresh(cairn_hpa *h, uint32_t max_clusters,
                               uint32_t *pending);

/* ---- saving and loading --------------------------------------------- */

/** The version of the file format cairn_hpa_save writes and
 * cairn_hpa_load reads (docs/hierarchy.md, "The file format"). */
#define CAIRN_HPA_FORMAT_VERSION 3

/** Writes the hierarchy, everything a query reads, into buf: the map's
 * size and fingerprint (cairn_grid_fingerprint), the options it was built
 * with, the clusters, blocks and landmarks, and under a cost layer the
 * layer's fingerprint; then a checksum of every byte. Little-endian
 * throughout, so a file moves between platforms. Deterministic: one
 * hierarchy gives the same bytes at any thread count, and a loaded one
 * saves the bytes it was loaded from.
 *
 * Size it with a first call: buf NULL (or cap too small) answers
 * CAIRN_ERR_BUFFER with *len set to the bytes needed, and writes nothing.
 * Read-only on h (queries may run meanwhile); allocates nothing.
 * @param[in] h the hierarchy
 * @param[out] buf where the bytes go, or NULL to size them
 * @param[in] cap bytes buf holds
 * @param[out] len the bytes written; with CAIRN_ERR_BUFFER, the bytes
 * needed
 * @return CAIRN_OK; CAIRN_ERR_BUFFER (nothing written); CAIRN_ERR_ARG for
 * a NULL h or len; CAIRN_ERR_STATE while the hierarchy is stale (a failed
 * edit, update or refresh) or a cluster is stale under its layer
 * (cairn_hpa_refresh first: a file holds no half-followed layer) */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_save(const cairn_hpa *h, void *buf, size_t cap,
                            size_t *len);
/** cairn_hpa_save into the file at path. The bytes are put together in
 * memory (through the hierarchy's allocator, from the calling thread),
 * written to path with ".tmp" appended, which is then renamed over path,
 * so a failed save never leaves a partial file where a good one was (the
 * temporary file is removed on failure).
 * @param[in] h the hierarchy
 * @param[in] path the file to write
 * @param[out] err "PATH: problem" on failure, or NULL
 * @return CAIRN_OK; CAIRN_ERR_ARG (NULL h or path), CAIRN_ERR_STATE (as
 * cairn_hpa_save), CAIRN_ERR_NOMEM, CAIRN_ERR_IO (the file cannot be
 * written or renamed) */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_save_file(const cairn_hpa *h, const char *path,
                                 cairn_error *err);

/** Most bytes cairn_hpa_load_file reads (2^40): larger files are refused
 * with CAIRN_ERR_TOO_LARGE before they are read. */
#define CAIRN_HPA_FILE_MAX ((uint64_t)1 << 40)

/** Loads a hierarchy that cairn_hpa_save wrote, for grid, without building
 * anything expensive: what a build searches for, and which edges each
 * graph node has, is read; only what a linear pass derives (the edges'
 * costs, the node numbering, the blocks' graphs) is made again.
 * The loaded hierarchy answers every query exactly as the saved one did
 * (costs, paths, expansions), and edits, updates, layer changes and
 * refreshes act on it exactly as on the saved one.
 *
 * Checked, in this order, each with its message in err ("NAME: problem",
 * NAME "<memory>"): CAIRN_ERR_PARSE for a wrong magic ("not a cairn
 * hierarchy"), another format version ("format version 2, this build reads
 * 3"), fewer bytes than the header says ("truncated: 1234 of 5678 bytes")
 * or more, a checksum that does not match ("checksum mismatch"), a header
 * field out of range; then CAIRN_ERR_MISMATCH for a file made for another
 * map ("made for a 512x512 map with fingerprint ..., this map is ...") or
 * another layer; then CAIRN_ERR_PARSE for any payload value out of its
 * limits. Every count is checked before anything is allocated for it:
 * against the bytes left in buf (nothing is allocated that the input could
 * not fill), and against the limits the grid gives: a cluster holds at
 * most 2 (w + h) entrances, all on its cells, in ascending order; a kept
 * path walks inside its cluster from its entrance to its other one in at
 * most w h - 1 steps; a block holds at most as many level-2 nodes as it
 * holds level-1 nodes, and its chains name only those; a stored graph
 * edge is one a build could make (a kept pair of one cluster or block, a
 * step between open cells of two clusters without cutting a corner, a
 * level-1 edge between two blocks); at most CAIRN_GRAPH_MAX_LANDMARKS
 * landmarks a level, each a node of it. The
 * checksum is checked before the payload is read, and the payload's
 * bounds still are (a checksum can be forged).
 *
 * The layer: a hierarchy saved under a cost layer (cairn_hpa_set_layer)
 * records the layer's fingerprint, and loads only with a layer of the same
 * size and penalties, which it binds as cairn_hpa_set_layer does (the layer
 * must outlive the binding); a hierarchy saved without one loads only
 * with layer NULL. Anything else is CAIRN_ERR_MISMATCH.
 * @param[in] buf the saved bytes
 * @param[in] len bytes in buf
 * @param[in] grid the grid (kept, as cairn_hpa_create keeps it): the map
 * the file was made for, cell for cell
 * @param[in] layer the layer the file was saved under, or NULL
 * @param[in] opts only jobs and threads are read (the rest come from the
 * file); NULL for cairn_hpa_defaults
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the hierarchy; NULL on any failure, which leaves
 * nothing allocated
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK; CAIRN_ERR_PARSE, CAIRN_ERR_MISMATCH (above);
 * CAIRN_ERR_ARG for a NULL grid or out, NULL buf with len > 0, jobs or
 * threads cairn_hpa_create refuses, or a layer of another size;
 * CAIRN_ERR_NOMEM */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_load(const void *buf, size_t len,
                            const cairn_grid *grid, const cairn_penalty *layer,
                            const cairn_hpa_opts *opts,
                            const cairn_allocator *alloc, cairn_hpa **out,
                            cairn_error *err);
/** Reads the file at path and loads it as cairn_hpa_load does; messages
 * name the file. On POSIX systems a regular file is mapped read-only for
 * the load (no copy of it is made, and it is unmapped before the call
 * returns); elsewhere, or when it cannot be mapped, it is read into memory
 * through alloc. Either way the file must not be cut short in place while
 * the call runs (cairn_hpa_save_file replaces a file by renaming, which a
 * mapping survives).
 * @param[in] path the file
 * @param[in] grid the grid (kept)
 * @param[in] layer the layer the file was saved under, or NULL
 * @param[in] opts as cairn_hpa_load
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the hierarchy; NULL on any failure
 * @param[out] err error detail, or NULL
 * @return as cairn_hpa_load; CAIRN_ERR_ARG for a NULL path, CAIRN_ERR_IO
 * (the file cannot be read), CAIRN_ERR_TOO_LARGE (above
 * CAIRN_HPA_FILE_MAX) */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_load_file(const char *path,
                                 const cairn_grid *grid, const cairn_penalty *layer,
                                 const cairn_hpa_opts *opts,
                                 const cairn_allocator *alloc, cairn_hpa **out,
                                 cairn_error *err);

/** Saves the hierarchy and a path cache's routes (cairn/path_cache.h) in
 * one file, so a game ships its precalculated routes with its hierarchy:
 * cairn_hpa_save's bytes, with flag 4 in the header, and before the
 * checksum the routes (cairn_path_cache_save's bytes) and their size (8
 * bytes). cairn_hpa_load reads such bytes like any others and leaves the
 * routes; cairn_hpa_load_routes puts them in a cache.
 * @param[in] h the hierarchy
 * @param[in] pc a path cache of the hierarchy's grid
 * @param[out] buf where the bytes go, or NULL to size them
 * @param[in] cap bytes buf holds
 * @param[out] len the bytes written; with CAIRN_ERR_BUFFER, those needed
 * @return as cairn_hpa_save; CAIRN_ERR_ARG also for a NULL pc or a cache
 * of another grid */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_save_with_routes(const cairn_hpa *h,
                                                            const cairn_path_cache *pc,
                                                            void *buf, size_t cap,
                                                            size_t *len);
/** cairn_hpa_save_with_routes into the file at path, as cairn_hpa_save_file
 * writes (a temporary file renamed over path).
 * @param[in] h the hierarchy
 * @param[in] pc a path cache of the hierarchy's grid
 * @param[in] path the file to write
 * @param[out] err "PATH: problem" on failure, or NULL
 * @return as cairn_hpa_save_file; CAIRN_ERR_ARG also for a NULL pc or a
 * cache of another grid */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_save_file_with_routes(const cairn_hpa *h,
                                                                 const cairn_path_cache *pc,
                                                                 const char *path,
                                                                 cairn_error *err);
/** Replaces pc's routes with those saved in a hierarchy's bytes
 * (cairn_hpa_save_with_routes); bytes without routes empty the cache. The
 * hierarchy's header and checksum are checked first (CAIRN_ERR_PARSE, with
 * cairn_hpa_load's messages), then the routes as cairn_path_cache_load
 * checks them: their cells, steps and costs against the cache's grid
 * (CAIRN_ERR_PARSE "routes: truncated, corrupt or inconsistent"), the
 * grid, unit size and moves they were saved for (CAIRN_ERR_MISMATCH), the
 * cache's budget (CAIRN_ERR_TOO_LARGE). On failure the cache keeps what
 * it held.
 * @param[in] buf the saved bytes
 * @param[in] len their number
 * @param[in,out] pc the cache
 * @param[out] err error detail ("<memory>: problem"), or NULL
 * @return CAIRN_OK; the refusals above; CAIRN_ERR_ARG for a NULL pc, or
 * NULL buf with len > 0; CAIRN_ERR_NOMEM */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_load_routes(const void *buf, size_t len,
                                                       cairn_path_cache *pc,
                                                       cairn_error *err);
/** cairn_hpa_load_routes from the file at path (read into memory); the
 * messages name the file.
 * @param[in] path the file
 * @param[in,out] pc the cache
 * @param[out] err error detail, or NULL
 * @return as cairn_hpa_load_routes; CAIRN_ERR_ARG for a NULL path,
 * CAIRN_ERR_IO (the file cannot be read), CAIRN_ERR_TOO_LARGE (above
 * CAIRN_HPA_FILE_MAX) */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_load_file_routes(const char *path,
                                                            cairn_path_cache *pc,
                                                            cairn_error *err);

/* ---- queries -------------------------------------------------------- */

/** All mutable state of a query: one per thread. */
typedef struct cairn_hpa_query cairn_hpa_query;

/** Creates a query context.
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the context
 * @return CAIRN_OK, CAIRN_ERR_ARG for a NULL out, CAIRN_ERR_NOMEM */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_query_create(const cairn_allocator *alloc,
                                    cairn_hpa_query **out);
/** Destroys a query context. NULL is ignored.
 * @param[in] q the context, or NULL */
CAIRN_HIERARCHY_API void cairn_hpa_query_destroy(cairn_hpa_query *q);
/** Bytes the context holds.
 * @param[in] q the context
 * @return its memory in bytes */
CAIRN_HIERARCHY_API size_t cairn_hpa_query_memory(const cairn_hpa_query *q);
/** Grows the context up front for queries on h (the search records for the
 * whole grid, the link tables for the largest cluster and block), so the
 * first queries do not pay for it; paths still grow to the longest seen.
 * @param[in,out] q the context
 * @param[in] h the hierarchy it will query
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL, CAIRN_ERR_NOMEM */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_query_reserve(cairn_hpa_query *q, const cairn_hpa *h);

/** Options of a query (cairn_hpa_path_defaults gives them). */
typedef struct cairn_hpa_path_opts {
  /** Queries whose octile distance is at most this many cells run plain A*
   * instead (exact, and cheaper over short distances). -1 = the default,
   * twice the cluster side; 0 = always hierarchical. */
  int32_t nearby;
  int smooth; /**< nonzero (default): shortcut detours, keeping 8-way moves */
  /** The unit's size k (cairn_search_opts.size): it covers the k x k cells
   * whose top-left one is its position; 0 reads as 1 (the default). Above
   * the hierarchy's max_size (or negative): CAIRN_ERR_ARG. A start or
   * goal where the unit does not fit: CAIRN_ERR_BLOCKED. The path is one
   * the core's A* with the same size accepts (every position and move
   * legal for the unit, its cost the unit's cost: the dearest terrain and
   * highest penalty under the block); smoothing takes a shortcut only
   * through positions and moves legal for it. A query of size above 1
   * plans on the clusters' graph for its size even where a third level
   * is built (the level-2 graph is for size 1). */
  int32_t size;
  /** A dead-end table of the hierarchy's grid (cairn/dead_ends.h), or
   * NULL (default). The query then leaves out every dead-end area that
   * holds neither the start nor the goal: its joins to the clusters'
   * entrances, its abstract search over the clusters' graph (there only
   * the areas whose gate lies inside one cluster; a route it cannot find
   * so is searched again without the table) and the searches
   * of its refinement and of the nearby case. Behind doors only without a
   * layer and for units of size 1, as for the core's searches. The third
   * level's plan does not use it. A table of another grid:
   * CAIRN_ERR_ARG; one that missed an edit: CAIRN_ERR_STATE. */
  const struct cairn_dead_ends *dead_ends;
} cairn_hpa_path_opts;

/** The default query options.
 * @return nearby -1 (twice the cluster side), smoothing on, size 1, no
 * dead-end table */
CAIRN_HIERARCHY_API cairn_hpa_path_opts cairn_hpa_path_defaults(void);

/** The answer of a query. */
typedef struct cairn_hpa_result {
  cairn_status status;   /**< CAIRN_OK, CAIRN_NO_PATH, CAIRN_IN_PROGRESS
                            (route planned, not all refined) or an error */
  cairn_cost cost;       /**< cost of `path` (the layer's penalties
                            included); CAIRN_COST_INF if none */
  cairn_cost base_cost;  /**< cost of `path` on terrain alone */
  cairn_cost route_cost; /**< the abstract route's cost (before smoothing) */
  const cairn_point *path; /**< grid cells from start, valid until the next
                              call on the query context */
  size_t path_len;       /**< cells in path */
  uint32_t route_len;    /**< level-1 abstract nodes on the route, start and
                            goal included; 0 when plain A* answered */
  uint32_t route2_len;   /**< level-2 nodes on the route when the third level
                            planned it, start and goal included; else 0 */
  uint32_t route_refined; /**< abstract edges refined so far */
  uint64_t expanded;     /**< nodes expanded: grid fills, abstract A* and any
                            plain A* */
  int plain;             /**< 1 if plain A* answered (nearby or same cell) */
} cairn_hpa_result;

/** Plans, refines the whole route and smooths it. A goal in
 * another island answers CAIRN_NO_PATH without searching when the grid's
 * islands are fresh.
 * @param[in,out] q the query context
 * @param[in] h the hierarchy
 * @param[in] start the start cell
 * @param[in] goal the goal cell
 * @param[in] opts options, or NULL for cairn_hpa_path_defaults
 * @param[out] out the result; its path lives in q
 * @return CAIRN_OK, CAIRN_NO_PATH; refusals: CAIRN_ERR_RANGE
 * (off the grid), CAIRN_ERR_BLOCKED, CAIRN_ERR_ARG, CAIRN_ERR_STATE (the
 * hierarchy is stale after a failed edit, or its grid changed since it
 * last matched it), CAIRN_ERR_NOMEM */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_find(cairn_hpa_query *q, const cairn_hpa *h,
                            cairn_point start, cairn_point goal,
                            const cairn_hpa_path_opts *opts,
                            cairn_hpa_result *out);

/** Incremental form: plan the abstract route (the result has status
 * CAIRN_IN_PROGRESS and no path yet, or the final answer when plain A*
 * answered or there is no path), then refine it a few clusters at a time so
 * a unit can start walking after the first. Each call of cairn_hpa_refine
 * turns up to `edges` more abstract edges into grid steps (at least 1) and
 * returns CAIRN_IN_PROGRESS until the goal is reached, then CAIRN_OK; the
 * result's path holds every step refined so far (smoothed piecewise when
 * smoothing is on). Once a query has its final answer (found, no path,
 * or an error, a plan's refusal included) refine returns that answer again;
 * before any plan, CAIRN_ERR_STATE, and after an edit, update, refresh or
 * layer change of the hierarchy since the plan too (its node ids and
 * cluster paths changed), or a change of the grid the hierarchy was not
 * told of (each step checks). Abandoning a route costs nothing: plan
 * another.
 * @param[in,out] q the query context
 * @param[in] h the hierarchy (it must not change before the route is
 * refined)
 * @param[in] start the start cell
 * @param[in] goal the goal cell
 * @param[in] opts options, or NULL for cairn_hpa_path_defaults
 * @param[out] out the result so far
 * @return CAIRN_IN_PROGRESS (planned), or the final answer: CAIRN_OK,
 * CAIRN_NO_PATH, or the refusals of cairn_hpa_find */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_plan(cairn_hpa_query *q, const cairn_hpa *h,
                            cairn_point start, cairn_point goal,
                            const cairn_hpa_path_opts *opts,
                            cairn_hpa_result *out);
/** Refines up to `edges` more abstract edges of the planned route (see
 * cairn_hpa_plan).
 * @param[in,out] q the query context
 * @param[in] edges abstract edges to refine (at least 1 is)
 * @param[out] out the result so far
 * @return CAIRN_IN_PROGRESS, CAIRN_OK, the query's final answer again;
 * CAIRN_ERR_STATE before any plan, after the hierarchy changed, or when
 * its grid changed since it last matched it (the route is dropped),
 * CAIRN_ERR_ARG for NULL, CAIRN_ERR_NOMEM */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_refine(cairn_hpa_query *q, uint32_t edges,
                              cairn_hpa_result *out);

/* ---- inspection (tests, pictures) ----------------------------------- */

/** Position of abstract node `node` (< stats.nodes). Node ids change after
 * edits.
 * @param[in] h the hierarchy
 * @param[in] node the node id
 * @param[out] out its cell
 * @return CAIRN_OK; CAIRN_ERR_RANGE past the end, CAIRN_ERR_ARG for NULL,
 * CAIRN_ERR_STATE while the hierarchy is stale or its grid changed since it
 * last matched it */
CAIRN_HIERARCHY_API cairn_status cairn_hpa_node(const cairn_hpa *h, uint32_t node,
                            cairn_point *out);
/** The abstract graph itself (node positions are entrance cells). It shows
 * the grid as the hierarchy last matched it: after a change the hierarchy
 * was not told of, cairn_hpa_node answers CAIRN_ERR_STATE.
 * @param[in] h the hierarchy
 * @return the level-1 graph, valid until the next edit, update, refresh or
 * layer change */
CAIRN_HIERARCHY_API const cairn_graph *cairn_hpa_graph(const cairn_hpa *h);

#ifdef __cplusplus
}
#endif
#endif
