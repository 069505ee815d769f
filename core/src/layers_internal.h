/* Private to the core module (and its tests): the penalty layer's layout,
 * which the search loops read directly. */
#ifndef CAIRN_LAYERS_INTERNAL_H
#define CAIRN_LAYERS_INTERNAL_H

#include "core_internal.h"

struct cairn_penalty {
  cairn_allocator alloc;
  int32_t width, height, stride;
  size_t padded;
  uint32_t *cell;   /* padded: what a step entering the cell pays, or
                       CAIRN_PENALTY_BLOCK (border cells 0: they are walls) */
  uint64_t *sum;    /* padded: the contributions' sum, before saturation */
  uint32_t *blocks; /* padded: how many blockers each cell has */
  /* change tracking: the version counts writes that changed what searches
   * read; tile[t] is the version of the last such change inside tile t
   * (CAIRN_PENALTY_TILE x CAIRN_PENALTY_TILE cells, row-major) */
  uint64_t version;
  uint64_t *tile;
  uint32_t *stamp;  /* padded: the low 32 bits of the version of the cell's
                       last change (0: none), for cairn_penalty_changes */
  int32_t tiles_w, tiles_h;
};

/* One unit's claims: padded cells, and the tick they expire. */
typedef struct cairn__claim_set {
  uint32_t *cell;
  size_t n, cap;
  uint64_t until;
  bool live;
} cairn__claim_set;

struct cairn_claims {
  cairn_allocator alloc;
  const cairn_grid *grid;
  uint16_t *count;        /* padded: claims per cell, what searches read */
  cairn__claim_set *unit; /* by unit id, grown to the largest id seen */
  size_t n_units;
  uint32_t *live;         /* ids of the units with claims */
  size_t n_live, cap_live;
};

/* Island labels (grid.c): cairn_grid_update_islands, and with sizes (not
 * NULL) each label's cell count in (*sizes)[label], the array (*cap
 * entries) grown as needed; cairn__grid_put_size sets one entry so. */
cairn_status cairn__grid_label_islands(cairn_grid *g, uint32_t **sizes, size_t *cap);
cairn_status cairn__grid_put_size(const cairn_allocator *a, uint32_t **sizes,
                                  size_t *cap, uint32_t label, uint32_t cells);

/* Adds delta to padded cell i's sum (saturating at 0) and refreshes it. */
void cairn__penalty_add_at(cairn_penalty *p, uint32_t i, int64_t delta);

#endif
