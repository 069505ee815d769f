/* Fields for units of several cells (cairn_flow_opts.size).
 *
 * A unit of size k moves on the grid eroded for it: a position is open
 * where the unit fits (clearance >= k) and costs the dearest terrain it
 * covers there, and a move is legal where it is legal on that grid (the
 * core's rule, cairn_search_opts.size). So a sized field is a size-1 field
 * over the eroded terrain (and, under a layer, over the highest penalty
 * the unit covers): the field keeps both arrays, refreshes them at every
 * build and repair, and the integration, directions, repair and samples
 * read them where a size-1 field reads the grid's. */
#include "flow_internal.h"

#include <string.h>

static size_t eroded_bytes(const cairn_field *f) { return f->n; }
static size_t epen_bytes(const cairn_field *f) { return f->n * sizeof(uint32_t); }

void cairn__flow_sizes_free(cairn_field *f) {
  cairn__free(&f->alloc, f->eroded, f->eroded ? eroded_bytes(f) : 0);
  cairn__free(&f->alloc, f->epen, f->epen ? epen_bytes(f) : 0);
  f->eroded = NULL;
  f->epen = NULL;
}

size_t cairn__flow_sizes_memory(const cairn_field *f) {
  return (f->eroded ? eroded_bytes(f) : 0) + (f->epen ? epen_bytes(f) : 0);
}

/* The row-then-column maxima of k x k windows, in place: after the rows,
 * each cell holds the dearest of the k cells from it rightwards, and the
 * column pass, top down, reads only rows below that it has not rewritten
 * yet. 2k reads a cell instead of k * k. Cells whose block leaves the grid
 * read the border's zeros, and are masked by the clearance anyway. */
#define WINDOW_MAX(T, out, in, n, stride, k)                              \
  do {                                                                    \
    for (size_t i_ = 0; i_ < (n); i_++) {                                 \
      T m_ = 0;                                                           \
      for (size_t d_ = 0; d_ < (k) && i_ + d_ < (n); d_++)                \
        m_ = (in)[i_ + d_] > m_ ? (in)[i_ + d_] : m_;                     \
      (out)[i_] = m_;                                                     \
    }                                                                     \
    for (size_t i_ = 0; i_ < (n); i_++)                                   \
      for (size_t d_ = 1; d_ < (k) && i_ + d_ * (stride) < (n); d_++)     \
        (out)[i_] = (out)[i_ + d_ * (stride)] > (out)[i_] ? (out)[i_ + d_ * (stride)] : (out)[i_]; \
  } while (0)

void cairn__flow_erode(const cairn_grid *grid, int32_t size, uint8_t *out) {
  int32_t stride;
  const uint8_t *cost = cairn_grid_cells(grid, &stride);
  const uint8_t *clear = cairn_grid_clearances(grid, NULL);
  const size_t n = (size_t)stride * (size_t)(cairn_grid_height(grid) + 2);
  const size_t k = (size_t)size;
  WINDOW_MAX(uint8_t, out, cost, n, (size_t)stride, k);
  for (size_t i = 0; i < n; i++)
    if (clear[i] < k) out[i] = 0;
}

void cairn__flow_erode_at(const cairn_grid *grid, int32_t size, uint8_t *out, int32_t x,
                          int32_t y) {
  int32_t stride;
  const uint8_t *cost = cairn_grid_cells(grid, &stride);
  const uint8_t *clear = cairn_grid_clearances(grid, NULL);
  const size_t s = (size_t)stride;
  for (int32_t py = y - size + 1 < 0 ? 0 : y - size + 1; py <= y; py++)
    for (int32_t px = x - size + 1 < 0 ? 0 : x - size + 1; px <= x; px++) {
      const size_t i = (size_t)(py + 1) * s + (size_t)(px + 1);
      uint8_t most = 0;
      for (size_t dy = 0; clear[i] >= size && dy < (size_t)size; dy++)
        for (size_t dx = 0; dx < (size_t)size; dx++) {
          const uint8_t c = cost[i + dy * s + dx];
          most = c > most ? c : most;
        }
      out[i] = most;
    }
}

cairn_status cairn__flow_sizes_prepare(cairn_field *f, const cairn_grid *grid,
                                       const cairn_penalty *layer, int32_t size) {
  if (size <= 1) {
    cairn__flow_sizes_free(f);
    return CAIRN_OK;
  }
  if (!f->eroded) f->eroded = cairn__alloc(&f->alloc, eroded_bytes(f));
  if (layer && !f->epen) f->epen = cairn__alloc(&f->alloc, epen_bytes(f));
  if (!f->eroded || (layer && !f->epen)) return CAIRN_ERR_NOMEM;
  cairn__flow_erode(grid, size, f->eroded);
  if (layer) {
    const uint8_t *clear = cairn_grid_clearances(grid, NULL);
    const uint32_t *pen = cairn_penalty_cells(layer, NULL);
    const size_t k = (size_t)size;
    WINDOW_MAX(uint32_t, f->epen, pen, f->n, (size_t)f->stride, k);
    for (size_t i = 0; i < f->n; i++)
      if (clear[i] < k) f->epen[i] = 0;
  }
  return CAIRN_OK;
}

void cairn__flow_sizes_refresh(cairn_field *f, int32_t x, int32_t y) {
  const int32_t k = f->size;
  cairn__flow_erode_at(f->grid, k, f->eroded, x, y);
  if (!f->epen) return;
  const uint8_t *clear = cairn_grid_clearances(f->grid, NULL);
  const uint32_t *pen = cairn_penalty_cells(f->penalty, NULL);
  const size_t s = (size_t)f->stride;
  for (int32_t py = y - k + 1 < 0 ? 0 : y - k + 1; py <= y; py++)
    for (int32_t px = x - k + 1 < 0 ? 0 : x - k + 1; px <= x; px++) {
      const size_t i = cairn__flow_cell_index(f, px, py);
      uint32_t most = 0;
      for (size_t dy = 0; clear[i] >= k && dy < (size_t)k; dy++)
        for (size_t dx = 0; dx < (size_t)k; dx++) {
          const uint32_t p = pen[i + dy * s + dx];
          most = p > most ? p : most;
        }
      f->epen[i] = most;
    }
}
