/*
 * bench_bfs.h - the floor a whole-map field is measured against: a plain
 * 4-connected breadth-first search, shared by bench_flow.c (the
 * flow/bfs_floor entries) and bench_field_maps.c. Header only, internal
 * to bench/.
 */
#ifndef CAIRN_BENCH_BFS_H
#define CAIRN_BENCH_BFS_H

#include <stddef.h>
#include <stdint.h>

/* Breadth-first search in steps from src over a padded grid g of n cells
 * (blocked border, as cairn_grid_cells): the least any exact field could
 * cost (one queue, four neighbours, no prices). The initialisation pass
 * is timed too, as in the field builds. dist and q hold n cells each;
 * returns the cells reached. */
static inline size_t bench_bfs4(const uint8_t *g, size_t n, size_t stride, uint32_t src,
                                uint32_t *dist, uint32_t *q) {
  for (size_t i = 0; i < n; i++) dist[i] = g[i] ? UINT32_MAX : 0;
  size_t head = 0, tail = 0;
  dist[src] = 0;
  q[tail++] = src;
  while (head < tail) {
    uint32_t c = q[head++];
    uint32_t d = dist[c] + 1;
    const uint32_t nb[4] = {c + 1, c - 1, c + (uint32_t)stride, c - (uint32_t)stride};
    for (int k = 0; k < 4; k++)
      if (dist[nb[k]] == UINT32_MAX) {
        dist[nb[k]] = d;
        q[tail++] = nb[k];
      }
  }
  return tail;
}

#endif
