/* Private to the core module (and its tests): the jump tables' layout,
 * read by the search that uses them (search_jps.c). */
#ifndef CAIRN_JUMPS_INTERNAL_H
#define CAIRN_JUMPS_INTERNAL_H

#include "core_internal.h"

struct cairn_jumps {
  cairn_allocator alloc;
  const cairn_grid *grid;
  uint64_t version; /* the grid's edits when the tables last matched it */
  int32_t off[8];   /* the padded index step of each direction */
  /* 8 entries a padded cell, in cairn__dx's direction order (jumps.c says
   * what they mean); 0 for blocked and border cells */
  int16_t *e;
};

#endif
