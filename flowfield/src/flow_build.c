/* Builders, fields, the row passes and the build that runs them (the
 * integration queues are flow_integrate.c, reading flow_read.c). */
#include "flow_internal.h"

#include <stdlib.h>
#include <string.h>

cairn_flow_opts cairn_flow_defaults(void) {
  cairn_flow_opts o;
  memset(&o, 0, sizeof o);
  o.moves = 8;
  o.los_radius = CAIRN_FLOW_DEFAULT_LOS;
  o.queue = CAIRN_FLOW_QUEUE_AUTO;
  return o;
}

/* ---- builder -------------------------------------------------------- */

cairn_status cairn_flow_builder_create(const cairn_allocator *alloc,
                                       cairn_flow_builder **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  cairn_allocator a = cairn_allocator_or_default(alloc);
  cairn_flow_builder *b = cairn__alloc_zero(&a, sizeof *b);
  if (!b) return CAIRN_ERR_NOMEM;
  b->alloc = a;
  *out = b;
  return CAIRN_OK;
}

static void builder_release(cairn_flow_builder *b) {
  cairn__free(&b->alloc, b->qa, b->cap * sizeof *b->qa);
  cairn__free(&b->alloc, b->qb, b->cap * sizeof *b->qb);
  cairn__free(&b->alloc, b->list, b->cap * sizeof *b->list);
  cairn__free(&b->alloc, b->seeds, b->cap * sizeof *b->seeds);
  cairn__free(&b->alloc, b->qc, b->cap * sizeof *b->qc);
  cairn__free(&b->alloc, b->mark, b->cap);
  b->qa = b->qb = b->list = b->seeds = b->qc = NULL;
  b->mark = NULL;
  b->cap = 0;
}

void cairn_flow_builder_destroy(cairn_flow_builder *b) {
  if (!b) return;
  builder_release(b);
  cairn__workers_free(&b->workers);
  cairn_allocator a = b->alloc;
  cairn__free(&a, b, sizeof *b);
}

cairn_status cairn__flow_builder_grow(cairn_flow_builder *b, size_t n) {
  if (n <= b->cap) return CAIRN_OK;
  builder_release(b);
  b->qa = cairn__alloc(&b->alloc, n * sizeof *b->qa);
  b->qb = cairn__alloc(&b->alloc, n * sizeof *b->qb);
  b->list = cairn__alloc(&b->alloc, n * sizeof *b->list);
  b->seeds = cairn__alloc(&b->alloc, n * sizeof *b->seeds);
  b->qc = cairn__alloc(&b->alloc, n * sizeof *b->qc);
  b->mark = cairn__alloc(&b->alloc, n);
  if (!b->qa || !b->qb || !b->list || !b->seeds || !b->qc || !b->mark) {
    b->cap = n; /* so the release frees what was taken */
    builder_release(b);
    return CAIRN_ERR_NOMEM;
  }
  b->cap = n;
  memset(b->qb, 0, n * sizeof *b->qb); /* heap positions start empty */
  memset(b->mark, 0, n);
  b->heap_len = 0;
  return CAIRN_OK;
}

static size_t padded_cells(const cairn_grid *g) {
  return (size_t)(cairn_grid_width(g) + 2) * (size_t)(cairn_grid_height(g) + 2);
}

cairn_status cairn_flow_builder_reserve(cairn_flow_builder *b,
                                        const cairn_grid *grid) {
  if (!b || !grid) return CAIRN_ERR_ARG;
  return cairn__flow_builder_grow(b, padded_cells(grid));
}

size_t cairn_flow_builder_memory(const cairn_flow_builder *b) {
  return b ? sizeof *b + b->cap * (5 * sizeof(uint32_t) + 1) : 0;
}

/* ---- fields --------------------------------------------------------- */

cairn_status cairn_field_create(const cairn_grid *grid,
                                const cairn_allocator *alloc,
                                cairn_field **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!grid) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn_allocator_or_default(alloc);
  cairn_field *f = cairn__alloc_zero(&a, sizeof *f);
  if (!f) return CAIRN_ERR_NOMEM;
  f->alloc = a;
  f->grid = grid;
  f->cells = cairn_grid_cells(grid, NULL);
  f->size = 1;
  f->grid_version = cairn_grid_version(grid);
  f->w = cairn_grid_width(grid);
  f->h = cairn_grid_height(grid);
  f->stride = f->w + 2;
  f->n = padded_cells(grid);
  f->cost = cairn__alloc(&a, f->n * sizeof *f->cost);
  f->dir = cairn__alloc(&a, f->n);
  f->los = cairn__alloc(&a, 2 * f->n);
  if (!f->cost || !f->dir || !f->los) {
    cairn_field_destroy(f);
    return CAIRN_ERR_NOMEM;
  }
  memset(f->dir, CAIRN_FLOW_NONE, f->n);
  memset(f->los, 0, 2 * f->n);
  *out = f;
  return CAIRN_OK;
}

void cairn_field_destroy(cairn_field *f) {
  if (!f) return;
  cairn_allocator a = f->alloc;
  cairn__free(&a, f->cost, f->n * sizeof *f->cost);
  cairn__free(&a, f->dir, f->n);
  cairn__free(&a, f->los, 2 * f->n);
  cairn__free(&a, f->goals, f->goals_cap * sizeof *f->goals);
  cairn__flow_sizes_free(f);
  cairn__free(&a, f, sizeof *f);
}

static int point_cmp(const void *pa, const void *pb) {
  const cairn_point *a = pa, *b = pb;
  if (a->y != b->y) return a->y < b->y ? -1 : 1;
  if (a->x != b->x) return a->x < b->x ? -1 : 1;
  return 0;
}

/* Checks the goals against the grid (a unit of `size` must fit on each),
 * then stores them sorted and unique. */
static cairn_status set_goals(cairn_field *f, const cairn_grid *g,
                              const cairn_point *goals, size_t n, int32_t size) {
  if (!goals || !n) return CAIRN_ERR_ARG;
  if (n > CAIRN_FLOW_MAX_GOALS) return CAIRN_ERR_TOO_LARGE;
  for (size_t k = 0; k < n; k++) {
    if (!cairn_grid_contains(g, goals[k].x, goals[k].y)) return CAIRN_ERR_RANGE;
    if (cairn_grid_clearance(g, goals[k].x, goals[k].y) < size) return CAIRN_ERR_BLOCKED;
  }
  if (n > f->goals_cap) {
    cairn_point *p = cairn__alloc(&f->alloc, n * sizeof *p);
    if (!p) return CAIRN_ERR_NOMEM;
    cairn__free(&f->alloc, f->goals, f->goals_cap * sizeof *f->goals);
    f->goals = p;
    f->goals_cap = n;
  }
  memcpy(f->goals, goals, n * sizeof *goals);
  qsort(f->goals, n, sizeof *f->goals, point_cmp);
  size_t m = 1;
  for (size_t k = 1; k < n; k++)
    if (point_cmp(&f->goals[k], &f->goals[m - 1]) != 0) f->goals[m++] = f->goals[k];
  f->n_goals = m;
  return CAIRN_OK;
}

/* ---- the row passes ------------------------------------------------ */

/* A pass over the padded rows runs as one task per band of rows: a band
 * holds at least FLOW_BAND_CELLS cells, so a task outweighs handing it
 * out, and there are about FLOW_BANDS_PER_WORKER bands per worker, so a
 * worker the system holds up delays a small share. Each band writes its
 * own rows and its own partial reduction, combined after the run: min and
 * max do not care in which order the bands ran or how many there were. */
#define FLOW_BAND_CELLS 4096u
#define FLOW_BANDS_PER_WORKER 4u
#define FLOW_MAX_BANDS 512u

typedef struct row_bands {
  cairn_field *f;
  cairn_flow_builder *b;
  const uint8_t *g;
  size_t rows, per; /* padded rows; rows per band (the last may have fewer) */
  uint32_t n;       /* bands */
} row_bands;

static row_bands bands_of(cairn_field *f, cairn_flow_builder *b,
                          const uint8_t *g, const cairn_jobs *jobs) {
  row_bands r = {f, b, g, (size_t)f->h + 2, 0, 0};
  const size_t stride = (size_t)f->stride;
  const uint32_t workers = jobs ? jobs->workers : 1u;
  size_t want = workers > 1 ? (size_t)workers * FLOW_BANDS_PER_WORKER : 1;
  if (want > FLOW_MAX_BANDS) want = FLOW_MAX_BANDS;
  size_t least = (FLOW_BAND_CELLS + stride - 1) / stride;
  r.per = (r.rows + want - 1) / want;
  if (r.per < least) r.per = least;
  r.n = (uint32_t)((r.rows + r.per - 1) / r.per);
  return r;
}

/* The rows [*y0, *y1) of band k. */
static void band_rows(const row_bands *r, uint32_t k, size_t *y0, size_t *y1) {
  *y0 = (size_t)k * r->per;
  *y1 = *y0 + r->per < r->rows ? *y0 + r->per : r->rows;
}

/* ---- row kernels ---------------------------------------------------- */

/* SSE2 where the target has it (CAIRN_SSE2): the passes around the
 * integration are most of what a second thread can share, so they are
 * kept cheap; each has a plain loop beside it, which gives the same
 * bytes. */

/* The 32-bit values of n cells: UINT32_MAX where g is passable, else
 * blocked. */
static void fill_row32(uint32_t *v, const uint8_t *g, size_t n, uint32_t blocked) {
  size_t x = 0;
#ifdef CAIRN_SSE2
  const __m128i zero = _mm_setzero_si128(), all = _mm_set1_epi32(-1);
  const __m128i bl = _mm_set1_epi32((int)blocked);
  for (; x + 16 <= n; x += 16) {
    /* 0xff in each byte of a blocked cell, widened to its four */
    const __m128i b8 = _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(g + x)), zero);
    const __m128i lo = _mm_unpacklo_epi8(b8, b8), hi = _mm_unpackhi_epi8(b8, b8);
    const __m128i m[4] = {_mm_unpacklo_epi16(lo, lo), _mm_unpackhi_epi16(lo, lo),
                          _mm_unpacklo_epi16(hi, hi), _mm_unpackhi_epi16(hi, hi)};
    for (int q = 0; q < 4; q++)
      _mm_storeu_si128((__m128i *)(void *)(v + x + 4 * (size_t)q),
                       _mm_or_si128(_mm_and_si128(m[q], bl), _mm_andnot_si128(m[q], all)));
  }
#endif
  for (; x < n; x++) v[x] = g[x] ? UINT32_MAX : blocked;
}

typedef struct terrain_range {
  unsigned tmin, tmax; /* the terrain's cheapest and dearest passable costs */
  uint32_t pmax;       /* the layer's dearest penalty short of a block */
} terrain_range;

/* The FIFO's 32-bit values (the builder's list) to UINT32_MAX on passable
 * cells, `blocked` on blocked ones; directions NONE (the FIFO sets them as
 * it goes, or the pass after); returns the terrain's cheapest and dearest
 * costs and the layer's dearest penalty. On the calling thread, as
 * cost_pass, not in bands over the build's threads: the integration after
 * it runs there and reads every value and direction, and those another
 * core wrote it would fetch from that core's cache (on the 2-core VM a
 * build at two threads took 1.2 times as long as at one with this pass
 * split over them, docs/PERFORMANCE.md). */
static terrain_range init_pass(cairn_field *f, cairn_flow_builder *b, const uint8_t *g,
                           uint32_t blocked) {
  const uint32_t *pen = f->pen;
  const size_t n = ((size_t)f->h + 2) * (size_t)f->stride;
  fill_row32(b->list, g, n, blocked);
  /* a blocked cell (0) counts as 255 for the cheapest (t - 1 wraps it to
   * 255 and keeps the order of the others), 0 for the dearest; bytes, so
   * the loop vectorises */
  uint8_t lo1 = 255, hi = 0;
  for (size_t i = 0; i < n; i++) {
    const uint8_t t = g[i], t1 = (uint8_t)(t - 1u);
    lo1 = t1 < lo1 ? t1 : lo1;
    hi = t > hi ? t : hi;
  }
  terrain_range found = {lo1 == 255 ? 255 : lo1 + 1u, hi, 0};
  if (pen)
    for (size_t i = 0; i < n; i++)
      if (pen[i] != CAIRN_PENALTY_BLOCK && pen[i] > found.pmax) found.pmax = pen[i];
  memset(f->dir, CAIRN_FLOW_NONE, n);
  return found;
}

/* The field's own values to INF on passable cells, 0 on blocked ones, and
 * directions NONE: where the integration runs on them (every queue but a
 * FIFO whose values fit 32 bits). On the calling thread (init_pass). */
static void cost_pass(cairn_field *f, const uint8_t *g) {
  const size_t n = ((size_t)f->h + 2) * (size_t)f->stride;
  for (size_t i = 0; i < n; i++) {
    f->cost[i] = g[i] ? CAIRN_COST_INF : 0;
    f->dir[i] = CAIRN_FLOW_NONE;
  }
}

/* The first legal move (in direction order) to a neighbour whose value
 * plus the step's price is exactly v, found without branches: all eight
 * tests, one bit each, then the lowest bit. Two facts keep the tests
 * short. A blocked neighbour holds 0 and has terrain 0, so its test reads
 * 0 == v, false for any cell but a goal. An unreachable one holds
 * CAIRN_COST_INF = 2^64 - 1, and INF + price wraps to price - 1, an odd
 * number, while every value is even (both step bases are), so that test
 * is false too. A diagonal also needs its two straight cells open. */
/* The same under a cost layer: a step also pays the entered cell's
 * penalty, and a blocked cell is no move. */
static uint8_t dir_of_layered(const cairn_field *f, const uint8_t *g, size_t i) {
  const cairn_cost v = f->cost[i];
  const ptrdiff_t s = (ptrdiff_t)f->stride;
  const ptrdiff_t off[8] = {1, -1, s, -s, s + 1, s - 1, -s + 1, -s - 1};
  unsigned open = cairn__flow_moves(g, i, f->stride, f->moves);
  while (open) {
    const int d = cairn__ctz(open);
    open &= open - 1;
    const size_t nb = (size_t)((ptrdiff_t)i + off[d]);
    const uint32_t p = f->pen[nb];
    if (p != CAIRN_PENALTY_BLOCK && f->cost[nb] != CAIRN_COST_INF &&
        f->cost[nb] + cairn__flow_base[d] * g[nb] + p == v)
      return (uint8_t)d;
  }
  return CAIRN_FLOW_NONE; /* not on an exact field */
}

uint8_t cairn__flow_dir_of(const cairn_field *f, const uint8_t *g, size_t i) {
  if (!g[i]) return CAIRN_FLOW_NONE;
  if (f->pen) {
    if (f->cost[i] == CAIRN_COST_INF) return CAIRN_FLOW_NONE;
    if (f->cost[i] == 0) return CAIRN_FLOW_GOAL;
    return dir_of_layered(f, g, i);
  }
  const cairn_cost v = f->cost[i];
  if (v == CAIRN_COST_INF) return CAIRN_FLOW_NONE;
  if (v == 0) return CAIRN_FLOW_GOAL;
  const cairn_cost *c = f->cost;
  const size_t s = (size_t)f->stride;
  const cairn_cost S = CAIRN_COST_ONE, D = CAIRN_COST_DIAG;
  unsigned m = (unsigned)(c[i + 1] + S * g[i + 1] == v) |
               (unsigned)(c[i - 1] + S * g[i - 1] == v) << 1 |
               (unsigned)(c[i + s] + S * g[i + s] == v) << 2 |
               (unsigned)(c[i - s] + S * g[i - s] == v) << 3;
  if (f->moves == 8) {
    const unsigned e = g[i + 1] != 0, w = g[i - 1] != 0;
    const unsigned so = g[i + s] != 0, n = g[i - s] != 0;
    m |= (e & so & (c[i + s + 1] + D * g[i + s + 1] == v)) << 4 |
         (w & so & (c[i + s - 1] + D * g[i + s - 1] == v)) << 5 |
         (e & n & (c[i - s + 1] + D * g[i - s + 1] == v)) << 6 |
         (w & n & (c[i - s - 1] + D * g[i - s - 1] == v)) << 7;
  }
  /* none cannot happen on an exact field */
  return m ? (uint8_t)cairn__ctz(m) : CAIRN_FLOW_NONE;
}

/* The bounding box of a band's reached cells (grid coordinates); empty:
 * INT32_MAX, INT32_MAX, -1, -1. */
typedef struct box_part {
  int32_t x0, y0, x1, y1;
} box_part;

typedef struct dir_job {
  row_bands r;
  const uint32_t *v32; /* finish: the FIFO's 32-bit values, or NULL */
  cairn_cost unit;     /* finish: the field's value of one unit of those */
  bool canonical;      /* finish: the directions are still to be taken from
                          v32 (a canonical integration's) */
  box_part part[FLOW_MAX_BANDS];
} dir_job;

/* The bands' boxes into the field's. */
static void set_box(cairn_field *f, const dir_job *j) {
  box_part all = {INT32_MAX, INT32_MAX, -1, -1};
  for (uint32_t k = 0; k < j->r.n; k++) {
    const box_part *p = &j->part[k];
    all.x0 = p->x0 < all.x0 ? p->x0 : all.x0;
    all.y0 = p->y0 < all.y0 ? p->y0 : all.y0;
    all.x1 = p->x1 > all.x1 ? p->x1 : all.x1;
    all.y1 = p->y1 > all.y1 ? p->y1 : all.y1;
  }
  f->bx0 = all.x0;
  f->by0 = all.y0;
  f->bx1 = all.x1;
  f->by1 = all.y1;
}

static void dir_task(void *arg, uint32_t k, uint32_t worker) {
  (void)worker;
  dir_job *j = arg;
  cairn_field *f = j->r.f;
  cairn_flow_builder *b = j->r.b;
  const uint8_t *g = j->r.g;
  const size_t stride = (size_t)f->stride;
  box_part box = {INT32_MAX, INT32_MAX, -1, -1};
  size_t y0, y1;
  band_rows(&j->r, k, &y0, &y1);
  for (size_t y = y0; y < y1; y++) {
    const size_t row = y * stride;
    memset(b->mark + row, 0, stride);
    memset(b->qb + row, 0, stride * sizeof *b->qb);
    if (y == 0 || y + 1 == j->r.rows) {
      memset(f->dir + row, CAIRN_FLOW_NONE, stride);
      continue;
    }
    f->dir[row] = f->dir[row + stride - 1] = CAIRN_FLOW_NONE;
    for (size_t x = 1; x + 1 < stride; x++) {
      uint8_t d = cairn__flow_dir_of(f, g, row + x);
      f->dir[row + x] = d;
      if (d == CAIRN_FLOW_NONE) continue;
      int32_t gx = (int32_t)x - 1, gy = (int32_t)y - 1;
      box.x0 = gx < box.x0 ? gx : box.x0;
      box.x1 = gx > box.x1 ? gx : box.x1;
      box.y0 = gy < box.y0 ? gy : box.y0;
      box.y1 = gy > box.y1 ? gy : box.y1;
    }
  }
  j->part[k] = box;
}

/* Directions from the finished values, bands of rows through jobs; also
 * the bounding box of the reached cells. Writes every padded cell
 * (clearing los flags) and clears what the integration left in the
 * builder: the settled marks, and qb, which the FIFOs and buckets use for
 * other things than the heap's positions (all 0 between calls, for
 * repairs). */
static void direction_pass(cairn_field *f, cairn_flow_builder *b,
                           const uint8_t *g, const cairn_jobs *jobs) {
  dir_job j;
  j.r = bands_of(f, b, g, jobs);
  cairn_jobs_run(jobs, j.r.n, dir_task, &j);
  set_box(f, &j);
}

/* The 32-bit values of a row into the field's: times the unit, with
 * UINT32_MAX (unreached) to INF, and blocked cells (g 0) to 0. */
static void widen_row(cairn_cost *out, const uint32_t *in, const uint8_t *g, size_t n,
                      cairn_cost unit) {
  size_t x = 0;
#ifdef CAIRN_SSE2
  /* unit is 2t, at most 510: a 32 x 32-bit product fits */
  const __m128i u = _mm_set1_epi32((int)unit), zero = _mm_setzero_si128();
  const __m128i all = _mm_set1_epi32(-1);
  for (; x + 4 <= n; x += 4) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(in + x));
    uint32_t g4;
    memcpy(&g4, g + x, 4);
    const __m128i gb = _mm_cmpeq_epi8(_mm_cvtsi32_si128((int)g4), zero);
    const __m128i b32 = _mm_unpacklo_epi16(_mm_unpacklo_epi8(gb, gb), _mm_unpacklo_epi8(gb, gb));
    const __m128i inf = _mm_cmpeq_epi32(v, all);
    /* lanes 0 and 1, then 2 and 3, as 64-bit products */
    const __m128i p0 = _mm_mul_epu32(_mm_unpacklo_epi32(v, zero), u);
    const __m128i p1 = _mm_mul_epu32(_mm_unpackhi_epi32(v, zero), u);
    const __m128i r0 = _mm_andnot_si128(_mm_unpacklo_epi32(b32, b32),
                                        _mm_or_si128(p0, _mm_unpacklo_epi32(inf, inf)));
    const __m128i r1 = _mm_andnot_si128(_mm_unpackhi_epi32(b32, b32),
                                        _mm_or_si128(p1, _mm_unpackhi_epi32(inf, inf)));
    _mm_storeu_si128((__m128i *)(void *)(out + x), r0);
    _mm_storeu_si128((__m128i *)(void *)(out + x + 2), r1);
  }
#endif
  for (; x < n; x++)
    out[x] = !g[x] ? 0 : in[x] == UINT32_MAX ? CAIRN_COST_INF : (cairn_cost)in[x] * unit;
}

/* The directions of a padded row's inner cells from the 32-bit values of
 * a canonical integration (v at the row's start, s the stride), where
 * blocked cells hold UINT32_MAX as unreached ones do: the lowest move to a
 * neighbour whose value plus the step's price is the cell's (a diagonal
 * with both straight cells beside it open), GOAL at 0, NONE at
 * UINT32_MAX. As cairn__flow_dir_of on the widened values (uniform
 * terrain t scales every price and value by 2t). No move or terrain
 * bits are read: a neighbour at UINT32_MAX is blocked (an open one next
 * to a reached cell is reached), and UINT32_MAX plus a price wraps to the
 * price less one, which no value is (values are sums of the two prices). */
#define DIR_S ((uint32_t)(CAIRN_COST_ONE / 2))
#define DIR_D ((uint32_t)(CAIRN_COST_DIAG / 2))

static uint8_t dir_of32(const uint32_t *v, size_t s) {
  const uint32_t c = v[0];
  if (c == 0) return CAIRN_FLOW_GOAL;
  if (c == UINT32_MAX) return CAIRN_FLOW_NONE;
  const unsigned oe = v[1] != UINT32_MAX, ow = v[-1] != UINT32_MAX;
  const unsigned os = v[s] != UINT32_MAX, on = v[-(ptrdiff_t)s] != UINT32_MAX;
  const unsigned m = (unsigned)(v[1] + DIR_S == c) | (unsigned)(v[-1] + DIR_S == c) << 1 |
                     (unsigned)(v[s] + DIR_S == c) << 2 |
                     (unsigned)(v[-(ptrdiff_t)s] + DIR_S == c) << 3 |
                     (oe & os & (v[s + 1] + DIR_D == c)) << 4 |
                     (ow & os & (v[s - 1] + DIR_D == c)) << 5 |
                     (oe & on & (v[-(ptrdiff_t)s + 1] + DIR_D == c)) << 6 |
                     (ow & on & (v[-(ptrdiff_t)s - 1] + DIR_D == c)) << 7;
  return m ? (uint8_t)cairn__ctz(m) : CAIRN_FLOW_NONE; /* none: not exact */
}

#ifdef CAIRN_SSE2
#define DIRS_SIMD 16u

static inline __m128i dir_ld(const uint32_t *p) {
  return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* The tests of four cells from v on, as 32-bit lane masks: the eight
 * moves in direction order, the goal, none. */
static inline void dir_masks4(const uint32_t *v, size_t s, __m128i m[10]) {
  const __m128i ps = _mm_set1_epi32((int)DIR_S), pd = _mm_set1_epi32((int)DIR_D);
  const __m128i all = _mm_set1_epi32(-1);
  const uint32_t *up = v - s, *dn = v + s;
  const __m128i c = dir_ld(v), e = dir_ld(v + 1), w = dir_ld(v - 1);
  const __m128i so = dir_ld(dn), no = dir_ld(up);
  const __m128i be = _mm_cmpeq_epi32(e, all), bw = _mm_cmpeq_epi32(w, all);
  const __m128i bs = _mm_cmpeq_epi32(so, all), bn = _mm_cmpeq_epi32(no, all);
  m[0] = _mm_cmpeq_epi32(_mm_add_epi32(e, ps), c);
  m[1] = _mm_cmpeq_epi32(_mm_add_epi32(w, ps), c);
  m[2] = _mm_cmpeq_epi32(_mm_add_epi32(so, ps), c);
  m[3] = _mm_cmpeq_epi32(_mm_add_epi32(no, ps), c);
  m[4] = _mm_andnot_si128(_mm_or_si128(be, bs),
                          _mm_cmpeq_epi32(_mm_add_epi32(dir_ld(dn + 1), pd), c));
  m[5] = _mm_andnot_si128(_mm_or_si128(bw, bs),
                          _mm_cmpeq_epi32(_mm_add_epi32(dir_ld(dn - 1), pd), c));
  m[6] = _mm_andnot_si128(_mm_or_si128(be, bn),
                          _mm_cmpeq_epi32(_mm_add_epi32(dir_ld(up + 1), pd), c));
  m[7] = _mm_andnot_si128(_mm_or_si128(bw, bn),
                          _mm_cmpeq_epi32(_mm_add_epi32(dir_ld(up - 1), pd), c));
  m[8] = _mm_cmpeq_epi32(c, _mm_setzero_si128());
  m[9] = _mm_cmpeq_epi32(c, all);
}

/* Sixteen cells from v on into d: the masks narrowed to bytes (saturating
 * packs keep 0 and -1), then the code chosen from the highest test to the
 * lowest, so the lowest move that holds wins, and goal and none last. */
static inline void dirs16(uint8_t *d, const uint32_t *v, size_t s) {
  /* sixteen cells all blocked or unreached (walls, sea, closed rooms: a
   * fifth to a quarter of a Moving AI map): NONE without the tests */
  const __m128i all = _mm_set1_epi32(-1);
  const __m128i none16 = _mm_packs_epi16(
      _mm_packs_epi32(_mm_cmpeq_epi32(dir_ld(v), all), _mm_cmpeq_epi32(dir_ld(v + 4), all)),
      _mm_packs_epi32(_mm_cmpeq_epi32(dir_ld(v + 8), all), _mm_cmpeq_epi32(dir_ld(v + 12), all)));
  if (_mm_movemask_epi8(none16) == 0xffff) {
    _mm_storeu_si128((__m128i *)(void *)d, _mm_set1_epi8((char)CAIRN_FLOW_NONE));
    return;
  }
  __m128i a[10], b[10], c[10], e[10];
  dir_masks4(v, s, a);
  dir_masks4(v + 4, s, b);
  dir_masks4(v + 8, s, c);
  dir_masks4(v + 12, s, e);
  __m128i code = _mm_set1_epi8(CAIRN_FLOW_NONE);
  for (int k = 7; k >= -2; k--) {
    const int t = k >= 0 ? k : k == -1 ? 8 : 9; /* moves 7..0, the goal, none */
    const int value = k >= 0 ? k : k == -1 ? CAIRN_FLOW_GOAL : CAIRN_FLOW_NONE;
    const __m128i m = _mm_packs_epi16(_mm_packs_epi32(a[t], b[t]), _mm_packs_epi32(c[t], e[t]));
    code = _mm_or_si128(_mm_and_si128(m, _mm_set1_epi8((char)value)), _mm_andnot_si128(m, code));
  }
  _mm_storeu_si128((__m128i *)(void *)d, code);
}
#endif

static void dirs_row32(uint8_t *d, const uint32_t *v, size_t s) {
  size_t x = 1;
#ifdef DIRS_SIMD
  for (; x + DIRS_SIMD < s; x += DIRS_SIMD) dirs16(d + x, v + x, s);
#endif
  for (; x + 1 < s; x++) d[x] = dir_of32(v + x, s);
}

/* The settled flags of the 64-bit FIFO off a row of directions. */
static void strip_settled(uint8_t *d, size_t n) {
  for (size_t x = 0; x < n; x++) d[x] = (uint8_t)(d[x] & ~FLOW_SETTLED_BIT);
}

/* After a FIFO integration, which set the directions itself: the 32-bit
 * values widened into the field's (when the integration ran on them, else
 * the settled flags stripped) and the bounding box of the reached cells
 * taken, bands of rows through jobs. */
static void finish_task(void *arg, uint32_t k, uint32_t worker) {
  (void)worker;
  dir_job *j = arg;
  cairn_field *f = j->r.f;
  const size_t stride = (size_t)f->stride;
  box_part box = {INT32_MAX, INT32_MAX, -1, -1};
  size_t y0, y1;
  band_rows(&j->r, k, &y0, &y1);
  for (size_t y = y0; y < y1; y++) {
    uint8_t *d = f->dir + y * stride;
    if (!j->v32) strip_settled(d, stride);
    else widen_row(f->cost + y * stride, j->v32 + y * stride, j->r.g + y * stride, stride,
                   j->unit);
    /* the border rows (and columns) stay NONE, as the initialisation set them */
    if (j->canonical && y > 0 && y + 1 < j->r.rows) dirs_row32(d, j->v32 + y * stride, stride);
    size_t first = 0, last = stride;
    while (first < stride && d[first] == CAIRN_FLOW_NONE) first++;
    if (first == stride) continue;
    while (d[last - 1] == CAIRN_FLOW_NONE) last--;
    const int32_t gy = (int32_t)y - 1;
    box.x0 = (int32_t)first - 1 < box.x0 ? (int32_t)first - 1 : box.x0;
    box.x1 = (int32_t)last - 2 > box.x1 ? (int32_t)last - 2 : box.x1;
    box.y0 = gy < box.y0 ? gy : box.y0;
    box.y1 = gy > box.y1 ? gy : box.y1;
  }
  j->part[k] = box;
}

static void finish_pass(cairn_field *f, cairn_flow_builder *b,
                        const uint8_t *g, const cairn_jobs *jobs,
                        const uint32_t *v32, cairn_cost unit, bool canonical) {
  dir_job j;
  j.r = bands_of(f, b, g, jobs);
  j.v32 = v32;
  j.unit = unit;
  j.canonical = canonical;
  cairn_jobs_run(jobs, j.r.n, finish_task, &j);
  set_box(f, &j);
}

/* Line of sight of the cells in one goal's window that have none yet. */
static void los_window(cairn_field *f, cairn_point goal) {
  const int32_t r = f->los_radius;
  int32_t xa = goal.x - r < 0 ? 0 : goal.x - r;
  int32_t ya = goal.y - r < 0 ? 0 : goal.y - r;
  int32_t xb = goal.x + r >= f->w ? f->w - 1 : goal.x + r;
  int32_t yb = goal.y + r >= f->h ? f->h - 1 : goal.y + r;
  for (int32_t y = ya; y <= yb; y++)
    for (int32_t x = xa; x <= xb; x++) {
      size_t i = cairn__flow_cell_index(f, x, y);
      uint8_t d = f->dir[i];
      if (d >= 8) continue; /* goal, none, or already seeing a goal */
      cairn_point c = {x, y};
      if (!cairn_grid_line_of_sight_sized(f->grid, c, goal, f->size)) continue;
      f->dir[i] = (uint8_t)(d | FLOW_LOS_BIT);
      f->los[2 * i] = (int8_t)(goal.x - x);
      f->los[2 * i + 1] = (int8_t)(goal.y - y);
    }
}

void cairn__flow_los_all(cairn_field *f) {
  if (f->los_radius <= 0) return;
  for (size_t k = 0; k < f->n_goals; k++) los_window(f, f->goals[k]);
}

cairn_status cairn__flow_check_opts(const cairn_flow_opts *o) {
  if (o->moves != 4 && o->moves != 8) return CAIRN_ERR_ARG;
  if (o->threads < 0 || o->threads > CAIRN_JOBS_MAX_WORKERS) return CAIRN_ERR_ARG;
  if (cairn_jobs_check(o->jobs) != CAIRN_OK) return CAIRN_ERR_ARG;
  if (o->los_radius < 0 || o->los_radius > CAIRN_FLOW_MAX_LOS)
    return CAIRN_ERR_ARG;
  if (o->queue < CAIRN_FLOW_QUEUE_AUTO || o->queue > CAIRN_FLOW_QUEUE_HEAP)
    return CAIRN_ERR_ARG;
  if (o->size < 0 || o->size > CAIRN_GRID_MAX_CLEARANCE) return CAIRN_ERR_ARG;
  return CAIRN_OK;
}

static void field_clear(cairn_field *f) {
  f->built = 0;
  f->n_goals = 0;
  memset(f->dir, CAIRN_FLOW_NONE, f->n);
}

/* The jobs a build's row passes run through: the caller's; none on a small
 * grid or at one thread; else the builder's pool, made the first time one
 * is needed and made again when a build asks another thread count. */
static cairn_status build_jobs(cairn_flow_builder *b, const cairn_flow_opts *o,
                               size_t cells, const cairn_jobs **out) {
  *out = o->jobs;
  if (o->jobs || o->threads == 1 || cells < FLOW_PARALLEL_MIN_CELLS) return CAIRN_OK;
  if (!b->workers.jobs || b->workers_threads != o->threads) {
    cairn__workers_free(&b->workers);
    cairn_status st = cairn__workers_init(&b->workers, NULL, o->threads, &b->alloc);
    if (st != CAIRN_OK) return st;
    b->workers_threads = o->threads;
  }
  *out = b->workers.jobs;
  return CAIRN_OK;
}

static cairn_status build_checked(cairn_flow_builder *b, cairn_field *f,
                                  const cairn_grid *grid,
                                  const cairn_point *goals, size_t n_goals,
                                  const cairn_flow_opts *o) {
  if (cairn_grid_width(grid) != f->w || cairn_grid_height(grid) != f->h)
    return CAIRN_ERR_ARG;
  if (o->penalty && !cairn_penalty_fits(o->penalty, grid)) return CAIRN_ERR_ARG;
  cairn_status st = cairn__flow_check_opts(o);
  const int32_t size = o->size > 1 ? o->size : 1;
  if (st == CAIRN_OK) st = set_goals(f, grid, goals, n_goals, size);
  if (st == CAIRN_OK) st = cairn__flow_builder_grow(b, f->n);
  const cairn_jobs *jobs = NULL;
  if (st == CAIRN_OK) st = build_jobs(b, o, f->n, &jobs);
  if (st != CAIRN_OK) return st;
  double t0 = cairn__now_ms();
  st = cairn__flow_sizes_prepare(f, grid, o->penalty, size);
  if (st != CAIRN_OK) return st;
  const uint8_t *g = size > 1 ? f->eroded : cairn_grid_cells(grid, NULL);
  f->grid = grid;
  f->cells = g;
  f->size = size;
  f->grid_version = cairn_grid_version(grid);
  f->moves = o->moves;
  f->los_radius = o->los_radius;
  f->penalty = o->penalty;
  f->pen = !o->penalty ? NULL : size > 1 ? f->epen : cairn_penalty_cells(o->penalty, NULL);
  f->layer_version = o->penalty ? cairn_penalty_version(o->penalty) : 0;
  /* a size-1 8-way field on uniform terrain walks the runs of canonical
   * paths and takes its directions in the pass after, from values where
   * blocked cells read as unreached; the others set them as they
   * integrate */
  const uint8_t *moves = size > 1 ? NULL : cairn_grid_moves(grid, NULL);
  const bool canonical = moves && f->moves == 8;
  const terrain_range terrain = init_pass(f, b, g, canonical ? UINT32_MAX : 0);
  const unsigned tmin = terrain.tmin, tmax = terrain.tmax;
  const uint32_t pmax = terrain.pmax;
  cairn_flow_queue q = o->queue;
  const bool even = tmin == tmax && !f->pen; /* one price per step length */
  if (q == CAIRN_FLOW_QUEUE_AUTO) q = even ? CAIRN_FLOW_QUEUE_FIFO : CAIRN_FLOW_QUEUE_BUCKETS;
  if (q == CAIRN_FLOW_QUEUE_FIFO && !even) return CAIRN_ERR_ARG;
  /* the bucket ring spans FLOW_BUCKETS buckets of one straight step at the
   * cheapest terrain: a layer's penalty can make a step longer than that,
   * and a value would wrap onto a bucket emptied too early; the heap then */
  const cairn_cost ring = (cairn_cost)(FLOW_BUCKETS - 2) * CAIRN_COST_ONE * tmin;
  if (q == CAIRN_FLOW_QUEUE_BUCKETS && CAIRN_COST_DIAG * tmax + pmax >= ring)
    q = CAIRN_FLOW_QUEUE_HEAP;
  bool fits = false;
  if (q == CAIRN_FLOW_QUEUE_FIFO)
    fits = canonical ? cairn__flow_integrate_canonical(f, b, moves)
                     : cairn__flow_integrate_fifo32(f, b, g, moves);
  if (q == CAIRN_FLOW_QUEUE_FIFO && fits) {
    finish_pass(f, b, g, jobs, b->list, 2 * (cairn_cost)tmin, canonical);
  } else if (q == CAIRN_FLOW_QUEUE_FIFO) {
    cost_pass(f, g);
    cairn__flow_integrate_fifo(f, b, g, tmin);
    finish_pass(f, b, g, jobs, NULL, 0, false);
  } else {
    cost_pass(f, g);
    if (q == CAIRN_FLOW_QUEUE_BUCKETS) cairn__flow_integrate_buckets(f, b, g, tmin);
    else cairn__flow_integrate_heap(f, b, g);
    direction_pass(f, b, g, jobs);
  }
  cairn__flow_los_all(f);
  f->queue = q;
  f->uniform = tmin == tmax && !f->pen ? tmin : 0;
  f->built = 1;
  f->build_ms = cairn__now_ms() - t0;
  f->repair_ms = 0;
  f->repaired = 0;
  return CAIRN_OK;
}

cairn_status cairn_field_build(cairn_flow_builder *b, cairn_field *f,
                               const cairn_grid *grid,
                               const cairn_point *goals, size_t n_goals,
                               const cairn_flow_opts *opts) {
  if (!b || !f || !grid) return CAIRN_ERR_ARG;
  cairn_flow_opts o = opts ? *opts : cairn_flow_defaults();
  cairn_status st = build_checked(b, f, grid, goals, n_goals, &o);
  if (st != CAIRN_OK) field_clear(f);
  return st;
}

typedef struct batch_job {
  cairn_flow_builder *const *builders; /* one per worker */
  const cairn_grid *grid;
  cairn_flow_request *reqs;
  cairn_flow_opts o; /* no jobs, one thread: a request is one task */
} batch_job;

static void batch_task(void *arg, uint32_t k, uint32_t worker) {
  batch_job *j = arg;
  cairn_flow_request *r = &j->reqs[k];
  r->status = r->field ? cairn_field_build(j->builders[worker], r->field, j->grid,
                                           r->goals, r->n_goals, &j->o)
                       : CAIRN_ERR_ARG;
}

/* Every request fails with st (no pool for the batch). */
static void batch_refuse(cairn_flow_request *reqs, size_t n, cairn_status st) {
  for (size_t k = 0; k < n; k++) {
    reqs[k].status = st;
    if (reqs[k].field) field_clear(reqs[k].field);
  }
}

cairn_status cairn_flow_build_batch(cairn_flow_builder *const *builders,
                                    size_t n_builders, const cairn_grid *grid,
                                    cairn_flow_request *reqs, size_t n,
                                    const cairn_flow_opts *opts) {
  if (!builders || !n_builders || !grid || (n && !reqs)) return CAIRN_ERR_ARG;
  for (size_t t = 0; t < n_builders; t++)
    if (!builders[t]) return CAIRN_ERR_ARG;
  batch_job j = {builders, grid, reqs, opts ? *opts : cairn_flow_defaults()};
  const cairn_jobs *jobs = j.o.jobs;
  if (cairn_jobs_check(jobs) != CAIRN_OK) return CAIRN_ERR_ARG;
  if (jobs && n_builders < jobs->workers) return CAIRN_ERR_ARG;
  if (n > UINT32_MAX) return CAIRN_ERR_TOO_LARGE;
  j.o.jobs = NULL;
  j.o.threads = 1;
  /* without jobs, a pool for this call: no more threads than builders or
   * requests, none at all for one (or none: 0 would mean every core) */
  size_t threads = n_builders < n ? n_builders : n;
  if (threads > CAIRN_JOBS_MAX_WORKERS) threads = CAIRN_JOBS_MAX_WORKERS;
  if (threads < 1) threads = 1;
  cairn__workers w;
  cairn_status st = cairn__workers_init(&w, jobs, (int)threads, &builders[0]->alloc);
  if (st != CAIRN_OK) {
    batch_refuse(reqs, n, st);
    return st;
  }
  cairn__workers_run(&w, (uint32_t)n, batch_task, &j);
  cairn__workers_free(&w);
  for (size_t k = 0; k < n; k++)
    if (reqs[k].status != CAIRN_OK) return reqs[k].status;
  return CAIRN_OK;
}
