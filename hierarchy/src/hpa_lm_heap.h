/* The landmark fills' queue and one whole fill (hpa_landmarks.c fills
 * every row after a build, hpa_landmark_repair.c the rows whose landmark
 * an edit moved). Private to the hierarchy module. */
#ifndef CAIRN_HPA_LM_HEAP_H
#define CAIRN_HPA_LM_HEAP_H

#include "hpa_internal.h"

/* A landmark fill's queue: a 4-ary heap of (cost, node) entries without
 * an index, where an entry whose cost is no longer its node's is stale
 * and skipped. A node goes in each time its cost drops, which happens at
 * most once an edge (when the edge's tail is settled), so the graph's edge
 * count plus the source bounds it. Slots from len on hold a sentinel of
 * cost CAIRN_COST_INF (a pop puts it back in the slot it empties), so a
 * pop picks the least of four children without branches: on these small
 * graphs the heap's comparisons, not its memory, were the fills' cost
 * (mispredicted, they took about half the time of a default build). The
 * sentinels are written as the heap first grows into their slots: a
 * repair after an edit uses a few of them, and writing all of a large
 * graph's would cost it more than its search. */
typedef struct lm_entry {
  cairn_cost g;
  uint32_t node;
} lm_entry;

typedef struct lm_heap {
  lm_entry *e;
  size_t len, cap; /* cap: the edges, the source and four sentinels */
  size_t ready;    /* slots holding a sentinel or an entry */
} lm_heap;

/* An empty heap over e (cap slots). */
static inline void lm_heap_init(lm_heap *q, lm_entry *e, size_t cap) {
  q->e = e;
  q->len = 0;
  q->cap = cap;
  q->ready = 0;
}

/* Sentinels in the slots up to len + 4 at least (len + 4 < cap). */
static inline void lm_heap_ready(lm_heap *q) {
  size_t to = 2 * q->ready + 64;
  if (to > q->cap) to = q->cap;
  for (; q->ready < to; q->ready++) q->e[q->ready] = (lm_entry){CAIRN_COST_INF, 0};
}

static inline void lm_heap_push(lm_heap *q, cairn_cost g, uint32_t node) {
  if (q->len + 5 > q->ready) lm_heap_ready(q);
  size_t pos = q->len++;
  while (pos > 0) {
    const size_t up = (pos - 1) / 4;
    if (q->e[up].g <= g) break;
    q->e[pos] = q->e[up];
    pos = up;
  }
  q->e[pos] = (lm_entry){g, node};
}

static inline lm_entry lm_heap_pop(lm_heap *q) {
  const lm_entry top = q->e[0], last = q->e[--q->len];
  const size_t len = q->len;
  q->e[len].g = CAIRN_COST_INF;
  size_t pos = 0;
  for (;;) {
    const size_t first = 4 * pos + 1;
    if (first >= len) break;
    const lm_entry *c = q->e + first;
    const size_t a = c[1].g < c[0].g, b = c[3].g < c[2].g ? 3 : 2;
    const size_t best = first + (c[b].g < c[a].g ? b : a);
    if (q->e[best].g >= last.g) break;
    q->e[pos] = q->e[best];
    pos = best;
  }
  if (len) q->e[pos] = last;
  return top;
}

/* Dijkstra over g from what the queue holds: pops each node at its cost
 * in row (an entry above it is stale) and lowers its out-neighbours. */
static inline void lm_settle(const cairn_graph *g, lm_heap *q, cairn_cost *row) {
  const uint32_t *to;
  const cairn_cost *cost;
  while (q->len) {
    const lm_entry top = lm_heap_pop(q);
    if (top.g != row[top.node]) continue; /* stale */
    const uint32_t m = cairn_graph_neighbours(g, top.node, &to, &cost);
    for (uint32_t k = 0; k < m; k++) {
      const cairn_cost ng = top.g + cost[k];
      if (ng < row[to[k]]) {
        row[to[k]] = ng;
        lm_heap_push(q, ng, to[k]);
      }
    }
  }
}

/* Costs from landmark `node` to every node of g (n of them), into row. */
static inline void lm_fill_row(const cairn_graph *g, size_t n, lm_heap *q, uint32_t node,
                               cairn_cost *row) {
  for (size_t v = 0; v < n; v++) row[v] = CAIRN_COST_INF;
  row[node] = 0;
  q->len = 0;
  lm_heap_push(q, 0, node);
  lm_settle(g, q, row);
}

#endif
