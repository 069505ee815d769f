/**
 * @file cairn/graph.h
 * @brief Graphs in compressed sparse rows, graph A* and fills, landmarks.
 * Part of cairn/core.h.
 */
#ifndef CAIRN_GRAPH_H
#define CAIRN_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "search.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- graphs --------------------------------------------------------- */

/** A directed graph in compressed sparse rows: waypoint networks, region
 * tables, hex maps. Node positions feed the heuristic. */
typedef struct cairn_graph cairn_graph;

/** One edge given to cairn_graph_create. */
typedef struct cairn_graph_edge {
  /** @{ */
  uint32_t from, to; /**< the node ids it joins */
  /** @} */
  double cost; /**< in cost units, > 0 and <= 1e9 (else CAIRN_ERR_ARG);
                  rounded to the nearest 1/65536 (at least 1/65536) */
} cairn_graph_edge;

/** A graph's heuristic. */
typedef enum cairn_graph_heuristic {
  CAIRN_GH_ZERO = 0,  /**< Dijkstra; always admissible */
  CAIRN_GH_EUCLIDEAN, /**< h_scale x straight-line distance of the positions */
  CAIRN_GH_HEX,       /**< h_scale x hex distance; positions are axial (q, r) */
  CAIRN_GH_OCTILE     /**< h_scale x octile distance (straight 1, diagonal
                         CAIRN_COST_DIAG / CAIRN_COST_ONE): waypoints on an
                         8-way grid, such as a hierarchy's entrances */
} cairn_graph_heuristic;

/** Most nodes a graph may have (2^28). */
#define CAIRN_GRAPH_MAX_NODES (1u << 28)
/** Most stored edges a graph may have (2^30). */
#define CAIRN_GRAPH_MAX_EDGES (1u << 30)

/** What cairn_graph_create builds. */
typedef struct cairn_graph_desc {
  uint32_t n_nodes; /**< nodes, 1 .. CAIRN_GRAPH_MAX_NODES */
  const double *xy; /**< 2 * n_nodes positions, or NULL (then use GH_ZERO) */
  size_t n_edges;   /**< edges in edges */
  const cairn_graph_edge *edges; /**< the edges (copied) */
  int undirected; /**< nonzero: every edge also runs to -> from */
  cairn_graph_heuristic heuristic; /**< the heuristic of graph A* */
  /** Multiplies the heuristic. Ignored with CAIRN_GH_ZERO; otherwise it must
   * be finite and >= 0 (else CAIRN_ERR_ARG), and 0 means the zero heuristic.
   * Admissible only if no path is cheaper than h_scale per unit of
   * distance; the builder does not check. The search uses the rounded edge
   * costs (see cairn_graph_edge.cost), which can be up to 1/131072 below the
   * given ones, so compute h_scale from the rounded costs (or leave a
   * margin) to stay admissible. */
  double h_scale;
} cairn_graph_desc;

/** Builds the CSR graph. With CAIRN_GH_ZERO, xy and h_scale are ignored;
 * with h_scale == 0 the graph gets the zero heuristic (xy is still
 * checked).
 * @param[in] desc the nodes, edges and heuristic (copied)
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the graph
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL desc or out, no nodes, NULL
 * edges with n_edges > 0, an edge with an endpoint >= n_nodes or a cost
 * outside (0, 1e9], an unknown heuristic, or (heuristic other than
 * CAIRN_GH_ZERO) NULL xy, a non-finite position or a bad h_scale;
 * CAIRN_ERR_TOO_LARGE above CAIRN_GRAPH_MAX_NODES nodes or
 * CAIRN_GRAPH_MAX_EDGES stored edges (n_edges x 2 when undirected), or if
 * a simple path could cost more than 2^62 fixed-point units: the bound is
 * min((n_nodes - 1) x dearest edge, sum of all given edges), both taken
 * over the rounded costs; CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_graph_create(const cairn_graph_desc *desc,
                                const cairn_allocator *alloc,
                                cairn_graph **out);
/** A graph's rows (compressed sparse rows), as cairn_graph_rows_begin
 * hands them out for the caller to fill: the out-edges of node v are
 * target[k] at cost[k] (fixed point) for k in [offset[v], offset[v + 1]),
 * in the order a search tries them. */
typedef struct cairn_graph_rows {
  uint32_t *offset; /**< n + 1 entries: offset[0] = 0, never falling,
                         offset[n] = m */
  uint32_t *target; /**< m entries, each below n */
  cairn_cost *cost; /**< m entries, 1 .. 1e9 x CAIRN_COST_ONE */
  double *xy;       /**< 2 n finite positions, or NULL (made without) */
} cairn_graph_rows;

/** Makes a graph straight from rows the caller writes, for callers whose
 * edges come grouped by source (cairn's hierarchy, a converted navmesh):
 * no edge list, no sort, no copy. This hands out the arrays of a graph of
 * n nodes and m edges; the caller fills every entry, then calls
 * cairn_graph_rows_done before anything else uses the graph.
 * @param[in] n nodes, 1 .. CAIRN_GRAPH_MAX_NODES
 * @param[in] m edges, at most CAIRN_GRAPH_MAX_EDGES
 * @param[in] with_xy nonzero: the graph has positions (rows->xy)
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the graph, unfinished
 * @param[out] rows its arrays, to fill
 * @return CAIRN_OK; CAIRN_ERR_ARG (NULL out or rows, no nodes);
 * CAIRN_ERR_TOO_LARGE; CAIRN_ERR_NOMEM. On failure *out is NULL. */
CAIRN_CORE_API cairn_status cairn_graph_rows_begin(uint32_t n, size_t m, int with_xy,
                                                   const cairn_allocator *alloc,
                                                   cairn_graph **out, cairn_graph_rows *rows);
/** Checks the rows the caller filled as cairn_graph_create checks its
 * edges (the limits of cairn_graph_rows, and the bound on simple paths),
 * then sets the heuristic as cairn_graph_desc's (CAIRN_GH_ZERO when the
 * graph has no positions). On failure the graph is destroyed.
 * @param[in,out] g the graph from cairn_graph_rows_begin; NULL on failure
 * @param[in] heuristic as cairn_graph_desc.heuristic
 * @param[in] h_scale as cairn_graph_desc.h_scale
 * @return CAIRN_OK; CAIRN_ERR_ARG (NULL, a value out of its limits, a bad
 * heuristic or scale); CAIRN_ERR_TOO_LARGE (simple paths could cost more
 * than 2^62) */
CAIRN_CORE_API cairn_status cairn_graph_rows_done(cairn_graph **g,
                                                  cairn_graph_heuristic heuristic,
                                                  double h_scale);
/** Destroys a graph. NULL is ignored.
 * @param[in] g the graph, or NULL */
CAIRN_CORE_API void cairn_graph_destroy(cairn_graph *g);
/** Number of nodes.
 * @param[in] g the graph
 * @return the node count */
CAIRN_CORE_API uint32_t cairn_graph_nodes(const cairn_graph *g);
/** Number of stored (directed) edges.
 * @param[in] g the graph
 * @return the edge count */
CAIRN_CORE_API size_t cairn_graph_edges(const cairn_graph *g);
/** Out-edges of a node: `*targets` and `*costs` point into the graph. Returns
 * the count. For an id out of range (or a NULL g) it returns 0 and sets
 * `*targets` and `*costs` to NULL. Either pointer argument may be NULL (not
 * written).
 * @param[in] g the graph
 * @param[in] node the node id
 * @param[out] targets the edges' target nodes, or NULL
 * @param[out] costs the edges' fixed-point costs, or NULL
 * @return the number of out-edges */
CAIRN_CORE_API uint32_t cairn_graph_neighbours(const cairn_graph *g, uint32_t node,
                                const uint32_t **targets,
                                const cairn_cost **costs);

/** A hex map of width x height cells in "odd-r" offset layout (odd rows shifted
 * half a cell right). cost[r * width + q] is 0 for blocked or 1..255, the
 * cost of entering the cell (one step = cost units). Node id = r * width + q;
 * positions are axial coordinates, heuristic CAIRN_GH_HEX with scale 1.
 * @param[in] width columns
 * @param[in] height rows
 * @param[in] cost width * height terrain costs
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the graph
 * @return CAIRN_OK; CAIRN_ERR_ARG (NULL, a side below 1);
 * CAIRN_ERR_TOO_LARGE if a side exceeds CAIRN_GRID_MAX_SIDE, or if the
 * directed edges between passable neighbours would exceed
 * CAIRN_GRAPH_MAX_EDGES (at six a cell: maps of more than about 179M,
 * 2^30 / 6, passable cells); CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_hex_graph_create(int32_t width, int32_t height,
                                    const uint8_t *cost,
                                    const cairn_allocator *alloc,
                                    cairn_graph **out);

/** A* on a graph; the result's nodes/path_len hold the node ids. opts may be
 * NULL; only max_expanded is used (the heuristic is the graph's own).
 * @param[in,out] s the search context
 * @param[in] g the graph
 * @param[in] start the start node
 * @param[in] goal the goal node
 * @param[in] opts options, or NULL
 * @param[out] out the result; its nodes live in s
 * @return CAIRN_OK, CAIRN_NO_PATH, CAIRN_PARTIAL; CAIRN_ERR_ARG for NULL,
 * CAIRN_ERR_RANGE for a node out of range, CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_graph_astar(cairn_search *s, const cairn_graph *g,
                               uint32_t start, uint32_t goal,
                               const cairn_search_opts *opts,
                               cairn_result *out);
/** The sliced form of cairn_graph_astar (step with cairn_search_step).
 * @param[in,out] s the search context
 * @param[in] g the graph (read at every step)
 * @param[in] start the start node
 * @param[in] goal the goal node
 * @param[in] opts options, or NULL
 * @return CAIRN_OK (begun), or the refusals of cairn_graph_astar */
CAIRN_CORE_API cairn_status cairn_graph_astar_begin(cairn_search *s, const cairn_graph *g,
                                     uint32_t start, uint32_t goal,
                                     const cairn_search_opts *opts);

/** A link between a virtual point and a graph node (cairn_graph_query).
 *
 * A* between two points that are not nodes of the graph: the query links a
 * virtual start to some nodes and some nodes to a virtual goal, inside the
 * search context, so the shared graph is never edited and any number of
 * threads can query it at once (a hierarchy joins a unit's start and goal to
 * its cluster entrances this way). In the result, nodes[0] is the virtual
 * start, numbered cairn_graph_nodes(g), and nodes[path_len - 1] the virtual
 * goal, numbered cairn_graph_nodes(g) + 1; the nodes between are graph
 * nodes. The link arrays must stay valid until the search ends (the sliced
 * form reads them at every step). */
typedef struct cairn_graph_link {
  uint32_t node;   /**< a graph node */
  cairn_cost cost; /**< fixed point, < 2^62 */
} cairn_graph_link;

/** A linked query: a virtual start and goal joined to the graph (see
 * cairn_graph_link). */
typedef struct cairn_graph_query {
  /** @{ */
  double start_xy[2], goal_xy[2]; /**< positions, for the graph's heuristic */
  /** @} */
  const cairn_graph_link *from_start; /**< start -> node */
  size_t n_from_start;                /**< links in from_start */
  const cairn_graph_link *to_goal; /**< node -> goal; one link per node */
  size_t n_to_goal;                /**< links in to_goal */
  cairn_cost direct; /**< start -> goal without the graph, or CAIRN_COST_INF */
  /** NULL (default): the search is bounded by g's own landmark table, if
   * any. Otherwise a graph over the same nodes (else CAIRN_ERR_ARG) whose
   * landmark table bounds it instead, g's own unused: one table serves
   * several graphs (a hierarchy's graphs for units of each size). Its
   * costs between any two nodes must not exceed g's, or the route found
   * may not be g's cheapest. A sliced search stops with CAIRN_ERR_STATE
   * when this graph's landmarks change. */
  const cairn_graph *bounds;
} cairn_graph_query;

/** A* from the virtual start to the virtual goal of q. opts: only
 * max_expanded is used.
 * @param[in,out] s the search context
 * @param[in] g the graph
 * @param[in] q the links and positions
 * @param[in] opts options, or NULL
 * @param[out] out the result; its nodes live in s
 * @return CAIRN_OK, CAIRN_NO_PATH, CAIRN_PARTIAL; CAIRN_ERR_ARG for a NULL
 * argument, a link naming a node out of range, a cost of 2^62 or more, two
 * goal links on one node, non-finite positions (when the heuristic uses
 * them); CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_graph_astar_linked(cairn_search *s, const cairn_graph *g,
                                      const cairn_graph_query *q,
                                      const cairn_search_opts *opts,
                                      cairn_result *out);
/** The sliced form of cairn_graph_astar_linked.
 * @param[in,out] s the search context
 * @param[in] g the graph
 * @param[in] q the links and positions (read at every step)
 * @param[in] opts options, or NULL
 * @return CAIRN_OK (begun), or the refusals of cairn_graph_astar_linked */
CAIRN_CORE_API cairn_status cairn_graph_astar_linked_begin(cairn_search *s,
                                            const cairn_graph *g,
                                            const cairn_graph_query *q,
                                            const cairn_search_opts *opts);

/** Dijkstra over a graph from several sources, each with a starting cost
 * (the links of a virtual source: a start joined to waypoints), until the
 * open set empties or, with n_targets > 0, every target is settled (a
 * target out of range or unreachable makes it run to the end). The graph's
 * heuristic is not used. Afterwards cairn_search_node gives each node's
 * cost and cairn_search_trace_nodes the path behind it. A source listed
 * twice keeps its cheaper cost.
 * @param[in,out] s the search context
 * @param[in] g the graph
 * @param[in] sources the source nodes and their starting costs
 * @param[in] n_sources number of sources
 * @param[in] targets nodes to stop at, or NULL
 * @param[in] n_targets number of targets; 0 = fill everything
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL arguments, no sources, a source
 * out of range or a cost of 2^62 or more; CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_graph_fill(cairn_search *s, const cairn_graph *g,
                              const cairn_graph_link *sources,
                              size_t n_sources, const uint32_t *targets,
                              size_t n_targets);

/** What the last graph search knows of a node (the graph search form of
 * cairn_search_cell).
 * @param[in] s the search context
 * @param[in] node the node id (a linked search's virtual ones included)
 * @param[out] out what it knows
 * @return CAIRN_OK; CAIRN_ERR_STATE if the last search was not on a graph,
 * CAIRN_ERR_RANGE for a node past the graph's (or a linked search's
 * virtual) nodes, CAIRN_ERR_ARG for NULL */
CAIRN_CORE_API cairn_status cairn_search_node(const cairn_search *s, uint32_t node,
                               cairn_node_info *out);

/** The nodes behind a reached node of the last graph search, from `node`
 * back to the source its path starts at (so reversed). Writes at most cap
 * ids and sets `*n` to the full count.
 * @param[in] s the search context
 * @param[in] node a node the search reached
 * @param[out] out room for cap ids
 * @param[in] cap ids out can hold
 * @param[out] n ids the whole path has
 * @return CAIRN_OK; CAIRN_ERR_BUFFER (nothing written) if that is more than
 * cap, CAIRN_NO_PATH if the node was not reached, CAIRN_ERR_RANGE /
 * CAIRN_ERR_STATE as cairn_search_node, CAIRN_ERR_ARG for NULL */
CAIRN_CORE_API cairn_status cairn_search_trace_nodes(const cairn_search *s, uint32_t node,
                                      uint32_t *out, size_t cap, size_t *n);

/** Most landmarks a graph may have.
 *
 * Landmarks (ALT: Goldberg and Harrelson's A*, landmarks and the triangle
 * inequality). With the exact cost from a landmark L to every node, any
 * nodes v and t satisfy cost(v, t) >= cost(L, t) - cost(L, v): a lower
 * bound that sees what positions cannot (walls, detours, dear terrain).
 * Graph A*, plain and linked, then takes the larger of the best landmark
 * bound and the graph's own heuristic; both are consistent, so the search
 * stays exact and expands fewer nodes wherever the positions underestimate.
 * Fills ignore landmarks. A linked search bounds its virtual goal through
 * its goal links. Setting landmarks changes the graph: no search may run on
 * it meanwhile; a sliced search in progress across the call answers
 * CAIRN_ERR_STATE at its next step. */
#define CAIRN_GRAPH_MAX_LANDMARKS 16
/** Takes n landmark nodes (n <= CAIRN_GRAPH_MAX_LANDMARKS; 0 removes them)
 * and their costs: costs[i * nodes(g) + v] is the exact cost from nodes[i]
 * to v (CAIRN_COST_INF where unreachable), as a cairn_graph_fill from that
 * node computes them. They must be exact: the bound is not admissible on
 * underestimates. The table is copied.
 * @param[in,out] g the graph
 * @param[in] nodes the landmark nodes
 * @param[in] n number of landmarks
 * @param[in] costs n * cairn_graph_nodes(g) exact costs
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL arguments with n > 0, a node out
 * of range, a landmark whose own cost is not 0 or a finite cost of 2^62 or
 * more; CAIRN_ERR_TOO_LARGE above the maximum; CAIRN_ERR_NOMEM (the graph
 * keeps its previous landmarks) */
CAIRN_CORE_API cairn_status cairn_graph_set_landmarks(cairn_graph *g, const uint32_t *nodes,
                                       uint32_t n, const cairn_cost *costs);
/** The same with 4-byte costs, UINT32_MAX where unreachable: half the
 * memory for a caller whose costs all fit (a saved table read back, say),
 * and the graph keeps the table in that width as it does any such table.
 * @param[in,out] g the graph
 * @param[in] nodes the landmark nodes
 * @param[in] n number of landmarks
 * @param[in] costs n * cairn_graph_nodes(g) exact costs
 * @return as cairn_graph_set_landmarks */
CAIRN_CORE_API cairn_status cairn_graph_set_landmarks32(cairn_graph *g, const uint32_t *nodes,
                                         uint32_t n, const uint32_t *costs);
/** Gives dst the landmark table of src, which has as many nodes: the same
 * landmarks and costs, copied as src holds them (no check, no widening).
 * For a graph whose edges cost at least what src's do between the same
 * nodes (a hierarchy's graph for a larger unit), where src's exact costs
 * are lower bounds; the caller vouches for that.
 * @param[in,out] dst the graph that takes the table
 * @param[in] src the graph that has it (no landmarks: dst loses its own)
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL or a different node count;
 * CAIRN_ERR_NOMEM (dst keeps its previous landmarks) */
CAIRN_CORE_API cairn_status cairn_graph_copy_landmarks(cairn_graph *dst, const cairn_graph *src);
/** The same, computing the costs with one fill per landmark on s (a caller
 * with threads can run the fills itself, one context each, and call
 * cairn_graph_set_landmarks).
 * @param[in,out] g the graph
 * @param[in,out] s the search context the fills run in
 * @param[in] nodes the landmark nodes
 * @param[in] n number of landmarks
 * @return as cairn_graph_set_landmarks */
CAIRN_CORE_API cairn_status cairn_graph_compute_landmarks(cairn_graph *g, cairn_search *s,
                                           const uint32_t *nodes, uint32_t n);
/** Landmarks the graph has (0: none).
 * @param[in] g the graph
 * @return the landmark count */
CAIRN_CORE_API uint32_t cairn_graph_landmarks(const cairn_graph *g);
/** Landmark i's node, as cairn_graph_set_landmarks took it (save formats
 * read the table back through this and cairn_graph_landmark_cost).
 * @param[in] g the graph
 * @param[in] i the landmark, below cairn_graph_landmarks(g)
 * @return its node id; UINT32_MAX for a NULL g or an i out of range */
CAIRN_CORE_API uint32_t cairn_graph_landmark_node(const cairn_graph *g, uint32_t i);
/** The cost from landmark i to node v, as cairn_graph_set_landmarks took
 * it.
 * @param[in] g the graph
 * @param[in] i the landmark, below cairn_graph_landmarks(g)
 * @param[in] v the node
 * @return the cost; CAIRN_COST_INF where v is unreachable from it, and for
 * a NULL g or an i or v out of range */
CAIRN_CORE_API cairn_cost cairn_graph_landmark_cost(const cairn_graph *g, uint32_t i,
                                                    uint32_t v);
/** Bytes the graph's landmark table holds.
 * @param[in] g the graph
 * @return the table's size in bytes */
CAIRN_CORE_API size_t cairn_graph_landmark_bytes(const cairn_graph *g);

#ifdef __cplusplus
}
#endif
#endif
