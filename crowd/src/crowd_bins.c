/* The bins: every live agent counted into a uniform grid of bins by a
 * counting sort run as tasks, each bin sorted by slot, and the state the
 * steering reads gathered in that order. */
#include "crowd_internal.h"

#include <string.h>

/* Horde agents that arrived have gone through the gate: they no longer
 * take part (nor block), unlike stopped units of other orders. */
static int takes_part(const cairn_crowd *c, uint32_t s) {
  return c->alive[s] && cairn__crowd_is_body(c, s);
}

static uint32_t bin_of(const cairn_crowd *c, float x, float y) {
  int32_t bx, by;
  cairn__crowd_bin_xy(c, x, y, &bx, &by);
  return (uint32_t)by * (uint32_t)c->nbx + (uint32_t)bx;
}

/* The bins are a counting sort, run as tasks: each slot's bin is counted
 * (atomically: bin_start is all zero between ticks; each worker also
 * counts its blocks' agents in a row of its own, so the block offsets need
 * no pass over the bins), the counts are scanned block by block, then each
 * slot takes a place in its bin from the end down (atomically), and each
 * bin is sorted by slot, so the order is the one a sequential stable sort
 * gives, whatever ran where.
 *
 * The slots are counted and placed in last tick's bin order (sslot), then
 * the slots that were not binned then: agents move less than a cell a
 * tick, so a task's run of slots falls into a few nearby bins, and the
 * atomics stay in a few cache lines instead of hitting random bins all
 * over the map. */

/* slot_bin's mark on a slot counted among those not binned last tick,
 * cleared when it is placed (bins stay below 2^30: grid sides of at most
 * CAIRN_GRID_MAX_SIDE, bins of at least half a cell) */
#define BIN_FRESH 0x80000000u
/* slot_bin of a slot binned last tick but not this one, until placing
 * turns it into CROWD_NO_BIN: while counting, the test for slots not
 * binned last tick (CROWD_NO_BIN) must not see it change */
#define BIN_GONE 0x7fffffffu

/* Worker w's row of per-block counts, zeroed by its first count task of
 * the tick (the row of a worker that ran none is stale, and skipped). */
static uint32_t *worker_blocks(cairn_crowd *c, uint32_t w) {
  size_t nblk = cairn__crowd_bin_blocks(c);
  uint32_t *row = c->wblk + (size_t)w * cairn__crowd_wblk_row(c);
  if (c->wblk_tick[w] != c->tick + 1) {
    memset(row, 0, sizeof *row * nblk);
    c->wblk_tick[w] = c->tick + 1;
  }
  return row;
}

/* slot_bin is read by count_new and place_new for every slot while other
 * tasks rewrite last tick's slots: relaxed atomics (plain moves) keep
 * those reads defined; either value gives the same answer. */
static void count_slot(cairn_crowd *c, uint32_t *blocks, uint32_t s, uint32_t mark,
                       uint32_t none) {
  uint32_t b = takes_part(c, s) ? bin_of(c, c->x[s], c->y[s]) : CROWD_NO_BIN;
  cairn__atomic_store(&c->slot_bin[s], b == CROWD_NO_BIN ? none : b | mark);
  if (b == CROWD_NO_BIN) return;
  cairn__atomic_inc(&c->bin_start[b]);
  blocks[b / CROWD_BIN_BLOCK]++;
}

/* A slot not binned last tick (new, or back from idling at a goal). */
static void count_new(cairn_crowd *c, uint32_t *blocks, uint32_t s) {
  if (cairn__atomic_load(&c->slot_bin[s]) == CROWD_NO_BIN)
    count_slot(c, blocks, s, BIN_FRESH, CROWD_NO_BIN);
}

static size_t n_bins(const cairn_crowd *c) { return (size_t)c->nbx * (size_t)c->nby; }

static void block_bounds(const cairn_crowd *c, size_t blk, size_t *b0, size_t *b1) {
  size_t nb = n_bins(c);
  *b0 = blk * CROWD_BIN_BLOCK;
  *b1 = nb - *b0 > CROWD_BIN_BLOCK ? *b0 + CROWD_BIN_BLOCK : nb;
}

/* On the caller, over the few blocks: each block's offset, summed from the
 * workers' rows; the total. */
void cairn__crowd_block_offsets(cairn_crowd *c) {
  size_t nblk = cairn__crowd_bin_blocks(c), row = cairn__crowd_wblk_row(c);
  uint32_t nw = cairn__workers_count(&c->workers);
  uint32_t run = 0;
  for (size_t i = 0; i < nblk; i++) {
    uint32_t t = 0;
    for (uint32_t w = 0; w < nw; w++)
      if (c->wblk_tick[w] == c->tick + 1) t += c->wblk[(size_t)w * row + i];
    c->blk_sum[i] = run;
    run += t;
  }
  c->n_binned = run;
  c->bin_start[n_bins(c)] = run;
}

/* bin_start[b] becomes the end of bin b. */
static void block_scan(cairn_crowd *c, size_t blk) {
  size_t b0, b1;
  block_bounds(c, blk, &b0, &b1);
  uint32_t run = c->blk_sum[blk];
  for (size_t b = b0; b < b1; b++) {
    run += c->bin_start[b];
    c->bin_start[b] = run;
  }
}

/* Takes the last free place of the slot's bin; once every slot has,
 * bin_start[b] is the start of bin b. */
static void place_slot(cairn_crowd *c, uint32_t s, uint32_t b) {
  uint32_t pos = cairn__atomic_dec(&c->bin_start[b]);
  c->order_of[pos] = s;
}

/* Last tick's binned slot s, if binned again. */
static void place_old(cairn_crowd *c, uint32_t s) {
  uint32_t b = c->slot_bin[s];
  if (b == BIN_GONE) cairn__atomic_store(&c->slot_bin[s], CROWD_NO_BIN);
  else if (b != CROWD_NO_BIN) place_slot(c, s, b);
}

static void place_new(cairn_crowd *c, uint32_t s) {
  uint32_t b = cairn__atomic_load(&c->slot_bin[s]);
  if (b == CROWD_NO_BIN || !(b & BIN_FRESH)) return;
  c->slot_bin[s] = b & ~BIN_FRESH;
  place_slot(c, s, b & ~BIN_FRESH);
}

/* Heap sort of v[0 .. n - 1], for the rare crowded bin. */
static void sift(uint32_t *v, size_t i, size_t n) {
  for (size_t j; (j = 2 * i + 1) < n; i = j) {
    if (j + 1 < n && v[j + 1] > v[j]) j++;
    if (v[i] >= v[j]) return;
    uint32_t t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

static void sort_slots(uint32_t *v, size_t n) {
  if (n <= 16) { /* the usual bin: a few agents */
    for (size_t i = 1; i < n; i++) {
      uint32_t t = v[i];
      size_t j = i;
      for (; j > 0 && v[j - 1] > t; j--) v[j] = v[j - 1];
      v[j] = t;
    }
    return;
  }
  for (size_t i = n / 2; i-- > 0;) sift(v, i, n);
  for (size_t e = n - 1; e > 0; e--) {
    uint32_t t = v[0];
    v[0] = v[e];
    v[e] = t;
    sift(v, 0, e);
  }
}


/* Ready for the next tick's counts. */
void cairn__crowd_clear_block(cairn_crowd *c, size_t blk) {
  size_t b0, b1;
  block_bounds(c, blk, &b0, &b1);
  memset(c->bin_start + b0, 0, sizeof *c->bin_start * (b1 - b0));
}

/* The binned agents' state in bin order, so neighbour scans read memory
 * in sequence. */
static void copy_sorted(cairn_crowd *c, uint32_t k) {
  uint32_t s = c->order_of[k];
  c->sx[k] = c->x[s];
  c->sy[k] = c->y[s];
  c->svx[k] = c->vx[s];
  c->svy[k] = c->vy[s];
  c->sr[k] = c->radius[s];
  c->sslot[k] = s;
  float prog = c->prog[s] + 0.0f; /* -0 would be +0 */
  uint32_t bits;
  memcpy(&bits, &prog, sizeof bits);
  c->skey[k] = (uint64_t)bits << 32 | s;
  crowd_sorted *a = &c->sa[k];
  a->speed = c->speed[s];
  a->best = c->best[s];
  a->stall = c->stall[s];
  a->field = c->field[s];
  a->wp_i = c->wp_i[s];
  a->order = c->order[s];
  a->state = c->state[s];
}

/* Each bin of the block sorted by slot, then its agents' state gathered
 * (their places are final once their bin is sorted). */
static void sort_block(cairn_crowd *c, size_t blk) {
  size_t b0, b1;
  block_bounds(c, blk, &b0, &b1);
  for (size_t b = b0; b < b1; b++) {
    uint32_t from = c->bin_start[b], to = c->bin_start[b + 1];
    if (to - from > 1) sort_slots(c->order_of + from, to - from);
  }
  for (uint32_t k = c->bin_start[b0]; k < c->bin_start[b1]; k++) copy_sorted(c, k);
}

/* Counting and placing: the first old_tasks tasks take last tick's
 * places, the rest every slot (for those not binned last tick). */
void cairn__crowd_count_task(void *arg, uint32_t t, uint32_t w) {
  cairn_crowd *c = arg;
  uint32_t *blocks = worker_blocks(c, w);
  uint64_t from, to;
  if (t < c->pass.old_tasks) {
    cairn__crowd_span(c->pass.prev, cairn__crowd_light_chunk(c), t, &from, &to);
    for (uint64_t k = from; k < to; k++) count_slot(c, blocks, c->sslot[k], 0, BIN_GONE);
  } else {
    cairn__crowd_span(c->high, cairn__crowd_light_chunk(c), t - c->pass.old_tasks, &from, &to);
    for (uint64_t s = from; s < to; s++) count_new(c, blocks, (uint32_t)s);
  }
}

void cairn__crowd_place_task(void *arg, uint32_t t, uint32_t w) {
  cairn_crowd *c = arg;
  uint64_t from, to;
  (void)w;
  if (t < c->pass.old_tasks) {
    cairn__crowd_span(c->pass.prev, cairn__crowd_light_chunk(c), t, &from, &to);
    for (uint64_t k = from; k < to; k++) place_old(c, c->sslot[k]);
  } else {
    cairn__crowd_span(c->high, cairn__crowd_light_chunk(c), t - c->pass.old_tasks, &from, &to);
    for (uint64_t s = from; s < to; s++) place_new(c, (uint32_t)s);
  }
}

void cairn__crowd_scan_task(void *arg, uint32_t t, uint32_t w) {
  (void)w;
  block_scan(arg, t);
}

void cairn__crowd_sort_task(void *arg, uint32_t t, uint32_t w) {
  (void)w;
  sort_block(arg, t);
}

