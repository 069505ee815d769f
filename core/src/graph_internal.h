/* Private to the core module: the graph layout, shared by its building
 * (graph.c) and its searches and landmarks (graph_search.c). */
#ifndef CAIRN_GRAPH_INTERNAL_H
#define CAIRN_GRAPH_INTERNAL_H

#include "search_internal.h"

/* Bound on any g and on any h. A search's g values are costs of simple paths
 * (edge costs are positive), so create refuses graphs whose simple paths could
 * cost more; then g + h and g + edge never overflow 64 bits. */
#define GRAPH_COST_MAX ((cairn_cost)1 << 62)

struct cairn_graph {
  cairn_allocator alloc;
  uint32_t n;          /* nodes */
  size_t m;            /* directed edges stored */
  uint32_t *offset;    /* n + 1: out-edges of v are [offset[v], offset[v+1]) */
  uint32_t *target;    /* m */
  cairn_cost *cost;    /* m, fixed point */
  double *xy;          /* 2 * n positions, NULL when the heuristic is zero */
  cairn_graph_heuristic heuristic;
  double h_factor;     /* h_scale * CAIRN_COST_ONE */
  /* landmarks: row v holds the cost from each landmark i to v, node by
   * node so one bound reads one short row: in lm32 (UINT32_MAX for
   * unreachable) when every finite cost fits, half the memory and cache
   * traffic of lm (CAIRN_COST_INF), which holds them otherwise */
  uint32_t n_lm;
  uint32_t lm_node[CAIRN_GRAPH_MAX_LANDMARKS]; /* the landmarks themselves */
  uint32_t *lm32;
  cairn_cost *lm;
  /* bumped when the landmarks change: a sliced search begun before reads
   * the old table's size, so its next step is refused */
  uint64_t version;
};

#endif
