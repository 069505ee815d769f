/* Private to the flowfield module (and its tests): the field and builder
 * layouts shared by the build, repair, sampling, cache and tile code. */
#ifndef CAIRN_FLOW_INTERNAL_H
#define CAIRN_FLOW_INTERNAL_H

#include "cairn/flowfield.h"
#include "cairn_private.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* dir byte: the code (0..9) in the low 4 bits, the los flag in bit 4 */
#define FLOW_DIR_MASK 0x0fu
#define FLOW_LOS_BIT 0x10u
/* the settled flag of a cell during a FIFO integration, which sets the
 * directions as it goes (flow_integrate.c); the pass after it strips it */
#define FLOW_SETTLED_BIT 0x80u

/* Dial's buckets: one straight step (times the cheapest terrain) wide; the
 * dearest step (a diagonal at cost 255 over a bucket at cost 1) spans
 * 92682 * 255 / 65536 = 360.6 buckets, so 362 in a ring always suffice. */
#define FLOW_BUCKETS 362

/* Below this many padded cells a build without jobs runs its row passes
 * on the calling thread and makes no pool: the whole build takes about as
 * long as handing tasks to other threads (a 62 x 62 open map: 0.09 ms on
 * one thread, 0.13 ms through a pool of 2). The result is the same either
 * way. */
#define FLOW_PARALLEL_MIN_CELLS (1u << 16)

struct cairn_flow_builder {
  cairn_allocator alloc;
  size_t cap;      /* padded cells the arrays below hold */
  uint32_t *qa;    /* FIFO straight queue / bucket next / heap */
  uint32_t *qb;    /* FIFO diagonal queue / bucket prev / heap positions
                      (index + 1; all 0 between calls) */
  uint32_t *list;  /* repair: the cells it resets or lowers; FIFO build:
                      the 32-bit values */
  uint32_t *seeds; /* repair: the cells its Dijkstra starts from; FIFO
                      build: the straight queue's values */
  uint32_t *qc;    /* FIFO build: the diagonal queue's values */
  uint8_t *mark;   /* settled (FIFO, buckets) / repair sets; all 0
                      between calls */
  uint32_t heads[FLOW_BUCKETS];
  size_t heap_len;
  /* the row passes' jobs when the options give none: a pool made by the
   * first build that needs one, and the opts.threads it was made for */
  cairn__workers workers;
  int workers_threads;
};

struct cairn_field {
  cairn_allocator alloc;
  const cairn_grid *grid; /* the grid of the last build */
  const uint8_t *cells;   /* its padded costs (cairn_grid_cells), or the
                             eroded ones of a sized field: the terrain the
                             field moves on, kept so a sample does not ask
                             the grid for it */
  /* the grid's version (cairn_grid_version) at the last build or repair:
   * reads answer CAIRN_ERR_STATE (or their documented sentinel) once the
   * grid moved past it unreported (flow_stale) */
  uint64_t grid_version;
  int32_t w, h, stride;
  size_t n;               /* padded cells */
  /* Values over the padded grid. Blocked cells (and the border) hold 0, not
   * CAIRN_COST_INF, so "new value < stored value" alone keeps relaxations
   * out of walls; readers go by the direction code, which says NONE there. */
  cairn_cost *cost;
  uint8_t *dir;
  int8_t *los;            /* 2 per padded cell: dx, dy to the goal seen */
  cairn_point *goals;     /* sorted, unique */
  size_t n_goals, goals_cap;
  int moves;
  int32_t los_radius;
  const cairn_penalty *penalty; /* the build's cost layer, or NULL */
  const uint32_t *pen;          /* its padded cells (epen when sized) */
  /* the unit's size (opts.size, 1 .. 8), and for sizes above 1 the grid
   * eroded for it (flow_sizes.c): each position's dearest covered terrain,
   * 0 where the unit does not fit, and under a layer its highest covered
   * penalty; NULL for size 1 */
  int32_t size;
  uint8_t *eroded;
  uint32_t *epen;
  uint64_t layer_version;       /* the layer's version the field shows */
  int built;
  cairn_flow_queue queue;
  unsigned uniform;       /* the one terrain cost of every passable cell,
                             or 0 if they differ */
  double build_ms, repair_ms;
  size_t repaired;
  /* bounding box of the cells reached (grid coordinates), for the cache */
  int32_t bx0, by0, bx1, by1;
};

/* Whether the field's grid changed since its last build or repair (the
 * caller edited it without cairn_field_repair): one call and compare,
 * once per read, never per cell. */
static inline bool flow_stale(const cairn_field *f) {
  return cairn_grid_version(f->grid) != f->grid_version;
}

/* The value a reader sees at padded cell i: CAIRN_COST_INF where the
 * direction says NONE (blocked cells hold 0, see above). */
static inline cairn_cost flow_value(const cairn_field *f, size_t i) {
  return (f->dir[i] & FLOW_DIR_MASK) == CAIRN_FLOW_NONE ? CAIRN_COST_INF : f->cost[i];
}

/* The step bases in direction order (cairn_dirs.h). */
extern const cairn_cost cairn__flow_base[8];

/* CAIRN_ERR_ARG for options a build refuses (bad jobs included). */
cairn_status cairn__flow_check_opts(const cairn_flow_opts *o);

/* Grows the builder to n padded cells. */
cairn_status cairn__flow_builder_grow(cairn_flow_builder *b, size_t n);

/* The padded index of grid cell (x, y). */
static inline size_t cairn__flow_cell_index(const cairn_field *f, int32_t x,
                                            int32_t y) {
  return (size_t)(y + 1) * (size_t)f->stride + (size_t)(x + 1);
}

/* Legal moves out of padded cell i as a bit set in direction order. */
static inline unsigned cairn__flow_moves(const uint8_t *g, size_t i,
                                         int32_t stride, int moves) {
  const size_t s = (size_t)stride;
  unsigned e = g[i + 1] != 0, w = g[i - 1] != 0;
  unsigned so = g[i + s] != 0, n = g[i - s] != 0;
  unsigned m = e | w << 1 | so << 2 | n << 3;
  if (moves == 4) return m;
  m |= (e & so & (g[i + s + 1] != 0)) << 4;
  m |= (w & so & (g[i + s - 1] != 0)) << 5;
  m |= (e & n & (g[i - s + 1] != 0)) << 6;
  m |= (w & n & (g[i - s - 1] != 0)) << 7;
  return m;
}

/* The step offsets of a field's padded cells, in cairn__dx order. */
static inline void cairn__flow_offsets(const cairn_field *f, int32_t off[8]) {
  for (int d = 0; d < 8; d++) off[d] = cairn__dx[d] + cairn__dy[d] * f->stride;
}

/* Tells a queue that relaxation gave cell nb a lower value; old is the
 * value it had (CAIRN_COST_INF when none). */
typedef void (*flow_lowered_fn)(void *ctx, uint32_t nb, cairn_cost old);

/* Relaxes the moves around cell c, just settled at v[c]: every passable
 * neighbour whose value the step lowers gets it, and `lowered` is told.
 * The field runs back from the goals, so the step from a neighbour into c
 * pays c's terrain and c's penalty, and nobody steps into a cell the layer
 * blocks. The one relaxation of the heap and bucket builds and the heap
 * repair, inlined into each with its queue's `lowered` (the uniform FIFO
 * loops, with no terrain or layer, have their own). */
CAIRN_INLINE void cairn__flow_relax(const cairn_field *f, cairn_cost *v,
                                    const uint8_t *g, const int32_t *off,
                                    uint32_t c, flow_lowered_fn lowered,
                                    void *ctx) {
  const cairn_cost gc = v[c];
  const unsigned t = g[c];
  const cairn_cost pc = f->pen ? f->pen[c] : 0;
  unsigned open = pc == CAIRN_PENALTY_BLOCK ? 0 : cairn__flow_moves(g, c, f->stride, f->moves);
  while (open) {
    const int d = cairn__ctz(open);
    open &= open - 1;
    const uint32_t nb = (uint32_t)((int32_t)c + off[d]);
    const cairn_cost ng = gc + cairn__flow_base[d] * t + pc;
    if (ng >= v[nb]) continue;
    const cairn_cost old = v[nb];
    v[nb] = ng;
    lowered(ctx, nb, old);
  }
}

/* The direction code of padded cell i from the values around it. */
uint8_t cairn__flow_dir_of(const cairn_field *f, const uint8_t *g, size_t i);
/* Recomputes the line-of-sight flags of every goal's window. */
void cairn__flow_los_all(cairn_field *f);

/* Indexed binary heap over the builder's qa/qb, keyed by the field's
 * values (ties by cell index, so pops are deterministic). Not the search
 * context's 4-ary heap (core/src/search_internal.h): that one lives in the
 * context's node records and breaks ties on h; this one lives in the
 * builder's two queue arrays, which the FIFO and bucket builds reuse, and
 * sorts the repair's seeds too. */
void cairn__flow_heap_push(cairn_flow_builder *b, const cairn_cost *key,
                           uint32_t c);
void cairn__flow_heap_lower(cairn_flow_builder *b, const cairn_cost *key,
                            uint32_t c);
uint32_t cairn__flow_heap_pop(cairn_flow_builder *b, const cairn_cost *key);

/* Sized fields (flow_sizes.c). prepare: the eroded arrays of a build for
 * size (freed for size 1), from the grid and the layer (may be NULL);
 * refresh: after grid or layer cell (x, y) changed, the positions whose
 * footprint holds it; free and memory: their upkeep. */
cairn_status cairn__flow_sizes_prepare(cairn_field *f, const cairn_grid *grid,
                                       const cairn_penalty *layer, int32_t size);
void cairn__flow_sizes_refresh(cairn_field *f, int32_t x, int32_t y);
/* The grid eroded for a unit of `size` (padded, as cairn_grid_cells): each
 * position's dearest covered terrain, 0 where the unit does not fit, into
 * out; erode_at redoes the positions whose footprint holds cell (x, y). */
void cairn__flow_erode(const cairn_grid *grid, int32_t size, uint8_t *out);
void cairn__flow_erode_at(const cairn_grid *grid, int32_t size, uint8_t *out, int32_t x,
                          int32_t y);
void cairn__flow_sizes_free(cairn_field *f);
size_t cairn__flow_sizes_memory(const cairn_field *f);

/* The integration (flow_integrate.c): from values INF on passable cells and
 * settled marks all 0, sets every reachable value from f's goals; g is the
 * grid's padded terrain. FIFO: uniform terrain of cost t, no layer. Buckets:
 * the cheapest terrain tmin, every step under the ring's span. Heap: any.
 * The FIFOs also set the directions of the cells they reach (the 64-bit
 * one flags them FLOW_SETTLED_BIT) and GOAL on the goals, from direction bytes all NONE,
 * and leaves the builder as it found it; the other two leave the
 * directions to a pass over the values and marks and qb to be cleared. */
void cairn__flow_integrate_fifo(cairn_field *f, cairn_flow_builder *b,
                                const uint8_t *g, unsigned t);
/* The FIFO in 32-bit values (flow_integrate.c says how), from the
 * builder's list array (UINT32_MAX on passable cells, 0 on blocked ones)
 * and directions all NONE: true when done, false when a route grew too
 * long for them. moves: the grid's move bits (cairn_grid_moves) when g is
 * the grid's own terrain, else NULL (they are then read from g). */
bool cairn__flow_integrate_fifo32(cairn_field *f, cairn_flow_builder *b,
                                  const uint8_t *g, const uint8_t *moves);
/* The same for a size-1 field on 8 moves, walking the runs of canonical
 * paths (flow_integrate.c says why the values stay exact), with the grid's
 * move bits, from the list array at UINT32_MAX on every cell (blocked ones
 * too: no move leads there, and the direction pass after reads them as
 * walls): true when done, false when a route grew too long for 32-bit
 * values (or, never seen, more jump points waited at once than the grid
 * has cells). It leaves scratch in the direction bytes of the cells it
 * reached and the directions to that pass (flow_build.c), which gives the
 * field the other queues give, and the builder's qb all 0 again. */
bool cairn__flow_integrate_canonical(cairn_field *f, cairn_flow_builder *b,
                                     const uint8_t *moves);
void cairn__flow_integrate_buckets(cairn_field *f, cairn_flow_builder *b,
                                   const uint8_t *g, unsigned tmin);
void cairn__flow_integrate_heap(cairn_field *f, cairn_flow_builder *b,
                                const uint8_t *g);

#endif
