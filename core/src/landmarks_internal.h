/* Private to the core module (and its tests): the landmark table's layout,
 * read by the searches that use it (search_grid.c, search_jps.c). */
#ifndef CAIRN_LANDMARKS_INTERNAL_H
#define CAIRN_LANDMARKS_INTERNAL_H

#include "core_internal.h"

#include "cairn/landmarks.h"

struct cairn_landmarks {
  cairn_allocator alloc;
  const cairn_grid *grid;
  uint64_t version; /* the grid's edits when the costs were filled */
  bool current;     /* false after an update that found no open cell */
  int32_t asked, count, active; /* landmarks asked for, found, used a search */
  /* entries a padded cell: count, or 2 x count where the costs back to
   * the landmarks differ from the costs from them (several terrain costs);
   * `back` is where those start in a cell's row (0: they are the same) */
  uint32_t width, back;
  uint32_t cell[CAIRN_LANDMARKS_MAX]; /* padded indices */
  /* padded x width costs, saturated at UINT32_MAX (also: unreachable):
   * d[c * width + i] = cost from landmark i to c, d[c * width + back + i]
   * = cost from c to landmark i */
  uint32_t *d;
  size_t d_len;
  /* the allocation d lies in, d_len + CAIRN__LM_ALIGN entries: d starts on
   * a cache line, so a row of 16 landmarks is one line, not two */
  uint32_t *block;
};

/* Entries of slack that let d start on a 64-byte line. */
#define CAIRN__LM_ALIGN 16

/* Landmark column i's bound from a cell, whose row of the table is `row`,
 * to a goal whose cost from the landmark is gf and to it gt: the larger of
 * gf - cost(L, cell) and cost(cell, L) - gt, 0 where both are negative.
 * The saturated entries keep it consistent (cairn/landmarks.h). */
CAIRN_INLINE uint32_t cairn__lm_bound(const uint32_t *row, uint32_t i, uint32_t back, uint32_t gf,
                                      uint32_t gt) {
  const uint32_t from = row[i], to = row[i + back];
  const uint32_t a = gf > from ? gf - from : 0;
  const uint32_t b = to > gt ? to - gt : 0;
  return a > b ? a : b;
}

#endif
