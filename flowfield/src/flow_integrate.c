/* The integration: the three queues (FIFO, Dial's buckets, the heap) that
 * settle a field's values from its goals, and the heap repair and tiles
 * share. */
#include "flow_internal.h"

#include <string.h>

const cairn_cost cairn__flow_base[8] = {
    CAIRN_COST_ONE,  CAIRN_COST_ONE,  CAIRN_COST_ONE,  CAIRN_COST_ONE,
    CAIRN_COST_DIAG, CAIRN_COST_DIAG, CAIRN_COST_DIAG, CAIRN_COST_DIAG};

/* ---- heap (repair, tiles, and QUEUE_HEAP builds) ---------------------- */

static inline bool heap_less(const cairn_cost *key, uint32_t a, uint32_t b) {
  return key[a] < key[b] || (key[a] == key[b] && a < b);
}

static void heap_up(cairn_flow_builder *b, const cairn_cost *key, size_t k) {
  uint32_t *h = b->qa, *pos = b->qb;
  uint32_t c = h[k];
  while (k > 0) {
    size_t p = (k - 1) / 2;
    if (!heap_less(key, c, h[p])) break;
    h[k] = h[p];
    pos[h[k]] = (uint32_t)k + 1;
    k = p;
  }
  h[k] = c;
  pos[c] = (uint32_t)k + 1;
}

void cairn__flow_heap_push(cairn_flow_builder *b, const cairn_cost *key,
                           uint32_t c) {
  b->qa[b->heap_len] = c;
  heap_up(b, key, b->heap_len++);
}

void cairn__flow_heap_lower(cairn_flow_builder *b, const cairn_cost *key,
                            uint32_t c) {
  if (b->qb[c]) heap_up(b, key, b->qb[c] - 1);
  else cairn__flow_heap_push(b, key, c);
}

uint32_t cairn__flow_heap_pop(cairn_flow_builder *b, const cairn_cost *key) {
  uint32_t *h = b->qa, *pos = b->qb;
  uint32_t top = h[0];
  pos[top] = 0;
  uint32_t last = h[--b->heap_len];
  size_t n = b->heap_len, k = 0;
  if (!n) return top;
  for (;;) {
    size_t l = 2 * k + 1;
    if (l >= n) break;
    size_t m = l + 1 < n && heap_less(key, h[l + 1], h[l]) ? l + 1 : l;
    if (!heap_less(key, h[m], last)) break;
    h[k] = h[m];
    pos[h[k]] = (uint32_t)k + 1;
    k = m;
  }
  h[k] = last;
  pos[last] = (uint32_t)k + 1;
  return top;
}

/* ---- integration ---------------------------------------------------- */

/* Two FIFO queues, one per step length: on uniform terrain every cell
 * settled adds its value plus one of two fixed prices, and cells settle in
 * order of value, so each queue receives values in order and merging the
 * two heads gives Dijkstra's order with O(1) work per step. A queue's
 * values rise with every push, so no cell enters one queue twice, and each
 * needs at most one slot per cell. The head's key is the cell's current
 * value: a cell lowered after it was queued is settled by its cheaper entry
 * first, and the stale entry is skipped by its settled bit.
 *
 * The directions come out of the same loop. Every neighbour p with
 * v[p] + price = v[c] (the moves cairn__flow_dir_of accepts) is settled
 * before c, since its value is lower, and when it settled it offered c
 * exactly v[c]: an offer that lowers c sets c's direction to the step back
 * to p, an offer that equals c's value keeps the lower of the two codes.
 * So each cell ends with the lowest code among its exact moves, as the
 * direction pass would find. */

/* Offer value nv to cell nb through the move whose step back is `code`
 * (legal when ok is 1); a lowered cell joins queue q. A blocked cell holds
 * 0 and a goal 0, so neither is ever lowered nor tied. */
CAIRN_INLINE void fifo_offer(cairn_cost *v, uint8_t *dir, uint32_t *q,
                             size_t *tail, size_t nb, cairn_cost nv,
                             unsigned ok, unsigned code) {
  const cairn_cost old = v[nb];
  if (!ok || nv > old) return;
  if (nv < old) {
    v[nb] = nv;
    q[(*tail)++] = (uint32_t)nb;
    dir[nb] = (uint8_t)code;
  } else if (code < dir[nb]) {
    dir[nb] = (uint8_t)code;
  }
}

void cairn__flow_integrate_fifo(cairn_field *f, cairn_flow_builder *b,
                                const uint8_t *g, unsigned t) {
  cairn_cost *v = f->cost;
  uint8_t *dir = f->dir;
  uint32_t *qs = b->qa, *qd = b->qb;
  size_t hs = 0, ts = 0, hd = 0, td = 0;
  const size_t s = (size_t)f->stride;
  const cairn_cost S = CAIRN_COST_ONE * t, D = CAIRN_COST_DIAG * t;
  for (size_t k = 0; k < f->n_goals; k++) {
    size_t i = cairn__flow_cell_index(f, f->goals[k].x, f->goals[k].y);
    v[i] = 0;
    dir[i] = CAIRN_FLOW_GOAL;
    qs[ts++] = (uint32_t)i;
  }
  const bool eight = f->moves == 8;
  while (hs < ts || hd < td) {
    const cairn_cost ks = hs < ts ? v[qs[hs]] : CAIRN_COST_INF;
    const cairn_cost kd = hd < td ? v[qd[hd]] : CAIRN_COST_INF;
    const unsigned straight = hd == td || (hs < ts && ks <= kd);
    const size_t c = straight ? qs[hs] : qd[hd];
    hs += straight;
    hd += !straight;
    if (dir[c] & FLOW_SETTLED_BIT) continue;
    dir[c] = (uint8_t)(dir[c] | FLOW_SETTLED_BIT);
    const cairn_cost cs = v[c] + S;
    fifo_offer(v, dir, qs, &ts, c + 1, cs, 1, 1);
    fifo_offer(v, dir, qs, &ts, c - 1, cs, 1, 0);
    fifo_offer(v, dir, qs, &ts, c + s, cs, 1, 3);
    fifo_offer(v, dir, qs, &ts, c - s, cs, 1, 2);
    if (!eight) continue;
    const cairn_cost cd = v[c] + D;
    const unsigned e = g[c + 1] != 0, w = g[c - 1] != 0;
    const unsigned so = g[c + s] != 0, n = g[c - s] != 0;
    fifo_offer(v, dir, qd, &td, c + s + 1, cd, e & so, 7);
    fifo_offer(v, dir, qd, &td, c + s - 1, cd, w & so, 6);
    fifo_offer(v, dir, qd, &td, c - s + 1, cd, e & n, 5);
    fifo_offer(v, dir, qd, &td, c - s - 1, cd, w & n, 4);
  }
  /* qb holds heap positions between calls: all 0 */
  memset(qd, 0, td * sizeof *qd);
}

/* The same integration in 32-bit values, on the builder's `list` array:
 * half the memory traffic of the field's 64-bit values. A value there is
 * the field's divided by 2t (both step bases are even, and every step on
 * uniform terrain t costs t times its base), so comparisons and ties are
 * the same; blocked cells hold 0, unreached ones UINT32_MAX. A route so
 * long that a value could pass FLOW_V32_LIMIT (about 92 000 diagonal
 * steps) stops it: false, with the builder's queues cleared again and the
 * directions half set, for the 64-bit loop to start over.
 *
 * Each queue entry carries the value it was pushed with (seeds for the
 * straight queue, qc for the diagonal one), and the slot past a queue's
 * tail holds UINT32_MAX: the merge reads the two heads' keys from the
 * queues themselves, not through the cells, an empty queue loses every
 * comparison, and an entry whose cell has since been lowered is stale
 * exactly when its key differs from the cell's value.
 *
 * Measured and left: a loop that only lowers (ties, about one offer a
 * cell, cost the loop about 30 % through a branch far harder to predict)
 * with the directions taken after in a vectorised row pass: ahead on two
 * free cores, behind on one thread or when the second core is shared, as
 * on the 2-core test machine. Branch-free offers (values, queue slot and
 * direction always stored): twice as slow, likely because each cell's
 * loads then wait on the stores of the cell settled just before. The direction chosen when a
 * cell settles, from its eight neighbours' values without branches, with
 * offers that only lower: 1.5 times as slow. */
#define FLOW_V32_LIMIT (UINT32_MAX - 1u - (uint32_t)(CAIRN_COST_DIAG / 2))

typedef struct fifo32_queue {
  uint32_t *cell, *key;
  size_t tail;
} fifo32_queue;

CAIRN_INLINE void fifo_offer32(uint32_t *v, uint8_t *dir, fifo32_queue *q,
                               size_t nb, uint32_t nv, unsigned ok,
                               unsigned code) {
  const uint32_t old = v[nb];
  if (!ok || nv > old) return;
  if (nv < old) {
    v[nb] = nv;
    q->cell[q->tail] = (uint32_t)nb;
    q->key[q->tail++] = nv;
    q->key[q->tail] = UINT32_MAX;
    dir[nb] = (uint8_t)code;
  } else if (code < dir[nb]) {
    dir[nb] = (uint8_t)code;
  }
}

bool cairn__flow_integrate_fifo32(cairn_field *f, cairn_flow_builder *b,
                                  const uint8_t *g, const uint8_t *moves) {
  uint32_t *v = b->list;
  uint8_t *dir = f->dir;
  fifo32_queue qs = {b->qa, b->seeds, 0}, qd = {b->qb, b->qc, 0};
  size_t hs = 0, hd = 0;
  const size_t s = (size_t)f->stride;
  const uint32_t S = (uint32_t)(CAIRN_COST_ONE / 2), D = (uint32_t)(CAIRN_COST_DIAG / 2);
  for (size_t k = 0; k < f->n_goals; k++) {
    size_t i = cairn__flow_cell_index(f, f->goals[k].x, f->goals[k].y);
    v[i] = 0;
    dir[i] = CAIRN_FLOW_GOAL;
    qs.cell[qs.tail] = (uint32_t)i;
    qs.key[qs.tail++] = 0;
  }
  qs.key[qs.tail] = UINT32_MAX;
  qd.key[0] = UINT32_MAX;
  const bool eight = f->moves == 8;
  bool fits = true;
  for (;;) {
    const uint32_t ks = qs.key[hs], kd = qd.key[hd];
    size_t c;
    uint32_t vc;
    if (ks <= kd) {
      if (ks == UINT32_MAX) break; /* both empty */
      c = qs.cell[hs++];
      vc = ks;
    } else {
      c = qd.cell[hd++];
      vc = kd;
    }
    if (v[c] != vc) continue; /* lowered since: settled by its other entry */
    if (vc > FLOW_V32_LIMIT) {
      fits = false;
      break;
    }
    const uint32_t cs = vc + S;
    fifo_offer32(v, dir, &qs, c + 1, cs, 1, 1);
    fifo_offer32(v, dir, &qs, c - 1, cs, 1, 0);
    fifo_offer32(v, dir, &qs, c + s, cs, 1, 3);
    fifo_offer32(v, dir, &qs, c - s, cs, 1, 2);
    if (!eight) continue;
    const uint32_t cd = vc + D;
    const unsigned m = moves ? moves[c] : cairn__flow_moves(g, c, f->stride, 8);
    fifo_offer32(v, dir, &qd, c + s + 1, cd, m >> 4 & 1, 7);
    fifo_offer32(v, dir, &qd, c + s - 1, cd, m >> 5 & 1, 6);
    fifo_offer32(v, dir, &qd, c - s + 1, cd, m >> 6 & 1, 5);
    fifo_offer32(v, dir, &qd, c - s - 1, cd, m >> 7 & 1, 4);
  }
  memset(qd.cell, 0, qd.tail * sizeof *qd.cell);
  return fits;
}

/* The 8-way integration of a size-1 field in 32-bit values, offering only
 * the moves of canonical paths (Sturtevant and Rabin, "Canonical orderings
 * on grids", IJCAI 2016): the values above, but about one offer a cell
 * where the loop above makes eight, and cells settled a bucket at a time.
 *
 * A move that continues a shortest path can be put in an order where
 * diagonals come first. With no corner cutting (a diagonal needs both
 * straight cells beside it open), take a cell c reached from p:
 * - by a diagonal: any move but the diagonal again or one of its two
 *   straight parts reaches its cell cheaper from p directly (p's straight
 *   neighbours are open, the diagonal into c needed them);
 * - by a straight step, east say: north from c reaches p's north
 *   neighbour, one step from p, cheaper unless that neighbour is blocked;
 *   north-east from c is worth no more than north-east from p then east,
 *   legal unless p's north neighbour is blocked; west, north-west and
 *   south-west go back to p or next to it. So east, plus north and
 *   north-east where p's north is blocked, plus south and south-east
 *   where p's south is.
 * So every shortest path can be rewritten, one east-then-north-east into
 * north-east-then-east at a time (each moves a diagonal earlier, so the
 * rewriting ends), into one where every move is among those its cell
 * allows, and along that path each cell is offered its exact value through
 * the move the path takes: the values are the full integration's. A cell
 * reached at its value by several moves continues with all of theirs, so
 * each cell keeps the set of moves it may continue with (in the field's
 * direction bytes, which are free until the pass after, a bit per move,
 * all eight on a goal): an offer that lowers it sets the set, an offer
 * equal to its value adds to it (both come before the cell settles, from
 * cells of lower value).
 *
 * The directions are not set here: a cell's lowest exact move need not be
 * one the canonical offers come through, so they are taken from the values
 * in a pass after (flow_build.c), band by band on the build's threads.
 *
 * The order: Dial's buckets one straight step wide, as the bucket build's
 * (every step costs at least that, so nothing in a bucket lowers or ties
 * anything else in it, and all of a cell's exact offers come from earlier
 * buckets), each emptied in the order its cells were queued. Settling in
 * exact value order, as the merge of the two FIFOs above does, visits the
 * wavefront in a scattered order (few cells share an octile value), and
 * its cache misses cost more than the offers saved; a bucket in queue
 * order walks the wavefront as a BFS does. A straight offer lands in the
 * next bucket, a diagonal one in the next or the one after: three FIFOs
 * (straight, diagonal to the next, diagonal to the one after), each
 * filled in bucket order, so bucket k is a run at the head of each. A cell
 * is queued when an offer moves it into another bucket, so it waits in
 * each queue at most once (a queue's buckets only rise, a cell's only
 * fall); an entry whose cell has since fallen to an earlier bucket is
 * skipped. */

/* Buckets one straight step (2^15 in 32-bit values) wide; a value must
 * stay below the last bucket, the one UINT32_MAX (unreached) is in. */
#define FLOW_CANON_SHIFT 15
#define FLOW_CANON_LIMIT (0xffff8000u - 1u - (uint32_t)(CAIRN_COST_DIAG / 2))

/* Move bits, in direction order (cairn_dirs.h). */
#define M_E 1u
#define M_W 2u
#define M_S 4u
#define M_N 8u
#define M_SE 16u
#define M_SW 32u
#define M_NE 64u
#define M_NW 128u

/* The canonical loop's queues: cells, in the order they were queued. */
typedef struct canon_queue {
  uint32_t *cell;
  size_t tail;
} canon_queue;

/* Offer value nv, in bucket kn, to cell nb, which may then continue with
 * the moves `next`: a lowered cell takes them, and joins queue q unless it
 * already waits in bucket kn; a tie adds them. Only legal moves are
 * offered (or a cell itself, which refuses), so nb is open and no goal. */
CAIRN_INLINE void canon_offer(uint32_t *v, uint8_t *next, canon_queue *q,
                              size_t nb, uint32_t nv, uint32_t kn,
                              unsigned bits) {
  const uint32_t old = v[nb];
  if (nv < old) {
    v[nb] = nv;
    next[nb] = (uint8_t)bits;
    if (old >> FLOW_CANON_SHIFT != kn) q->cell[q->tail++] = (uint32_t)nb;
  } else if (nv == old) {
    next[nb] = (uint8_t)(next[nb] | bits);
  }
}

bool cairn__flow_integrate_canonical(cairn_field *f, cairn_flow_builder *b,
                                     const uint8_t *moves) {
  uint32_t *v = b->list;
  uint8_t *next = f->dir;
  canon_queue qs = {b->qa, 0}, q1 = {b->qb, 0}, q2 = {b->seeds, 0};
  size_t hs = 0, h1 = 0, h2 = 0;
  const ptrdiff_t s = (ptrdiff_t)f->stride;
  /* the straight steps, and for "none" (4) the cell itself: an offer it
   * refuses, so the usual single straight move needs no branch */
  const ptrdiff_t off[5] = {1, -1, s, -s, 0};
  const uint32_t S = (uint32_t)(CAIRN_COST_ONE / 2), D = (uint32_t)(CAIRN_COST_DIAG / 2);
  for (size_t k = 0; k < f->n_goals; k++) {
    size_t i = cairn__flow_cell_index(f, f->goals[k].x, f->goals[k].y);
    v[i] = 0;
    next[i] = 0xff;
    qs.cell[qs.tail++] = (uint32_t)i;
  }
  /* q2's tail when the bucket before this one began: its cells up to there
   * are this bucket's */
  size_t t2_before = 0;
  bool fits = true;
  for (uint32_t k = 0; hs < qs.tail || h1 < q1.tail || h2 < q2.tail; k++) {
    /* every value in bucket k is below (k + 1) * 2^15 */
    if (k >= FLOW_CANON_LIMIT >> FLOW_CANON_SHIFT) {
      fits = false;
      break;
    }
    const size_t ends[3] = {qs.tail, q1.tail, t2_before};
    t2_before = q2.tail;
    const uint32_t kn = k + 1;
    for (int which = 0; which < 3; which++) {
      const uint32_t *cells = which == 0 ? qs.cell : which == 1 ? q1.cell : q2.cell;
      size_t *head = which == 0 ? &hs : which == 1 ? &h1 : &h2;
      for (size_t h = *head; h < ends[which]; h++) {
        const size_t c = cells[h];
        const uint32_t vc = v[c];
        if (vc >> FLOW_CANON_SHIFT != k) continue; /* settled in an earlier bucket */
        const unsigned mv = moves[c];
        const unsigned m = next[c] & mv;
        const uint8_t *nx = cairn__canon_next[mv & 15u];
        const uint32_t cs = vc + S;
        /* Nearly every cell goes on with one straight move: offered
         * without a branch on which; more (walls, diagonals) are rare.
         * Branches on the moves themselves cost twice as much, their
         * order being the wavefront's, and so does an offer without
         * branches (the queue's tail then waits on each value read). */
        unsigned ms = m & 15u;
        const unsigned d0 = (unsigned)cairn__ctz(ms | 16u);
        canon_offer(v, next, &qs, (size_t)((ptrdiff_t)c + off[d0]), cs, kn, nx[d0]);
        ms &= ms - 1;
        while (ms) {
          const unsigned d = (unsigned)cairn__ctz(ms);
          ms &= ms - 1;
          canon_offer(v, next, &qs, (size_t)((ptrdiff_t)c + off[d]), cs, kn, nx[d]);
        }
        if (!(m & 0xf0u)) continue;
        const uint32_t cd = vc + D, kd = cd >> FLOW_CANON_SHIFT;
        canon_queue *qd = kd == kn ? &q1 : &q2;
        if (m & M_SE) canon_offer(v, next, qd, (size_t)((ptrdiff_t)c + s + 1), cd, kd, nx[4]);
        if (m & M_SW) canon_offer(v, next, qd, (size_t)((ptrdiff_t)c + s - 1), cd, kd, nx[5]);
        if (m & M_NE) canon_offer(v, next, qd, (size_t)((ptrdiff_t)c - s + 1), cd, kd, nx[6]);
        if (m & M_NW) canon_offer(v, next, qd, (size_t)((ptrdiff_t)c - s - 1), cd, kd, nx[7]);
      }
      *head = ends[which];
    }
  }
  /* qb holds heap positions between calls: all 0 */
  memset(q1.cell, 0, q1.tail * sizeof *q1.cell);
  return fits;
}

/* Dial's buckets of width W = one straight step on the cheapest terrain:
 * a relaxation adds at least W, so nothing in the lowest non-empty bucket
 * can lower anything else in it, and every cell there is final, whatever
 * order it leaves in. Buckets are doubly linked lists threaded through
 * qa (next) and qb (prev), so a lowered cell moves in O(1). */
static void bucket_link(cairn_flow_builder *b, uint32_t k, uint32_t c) {
  uint32_t h = b->heads[k];
  b->qa[c] = h;
  b->qb[c] = UINT32_MAX;
  if (h != UINT32_MAX) b->qb[h] = c;
  b->heads[k] = c;
}

static void bucket_unlink(cairn_flow_builder *b, uint32_t k, uint32_t c) {
  uint32_t nx = b->qa[c], pv = b->qb[c];
  if (pv == UINT32_MAX) b->heads[k] = nx;
  else b->qa[pv] = nx;
  if (nx != UINT32_MAX) b->qb[nx] = pv;
}

/* The buckets' side of a relaxation: the cell moves to its new bucket. */
typedef struct bucket_queue {
  cairn_flow_builder *b;
  const cairn_cost *v;
  cairn_cost width; /* W */
  size_t queued;
} bucket_queue;

static inline void bucket_lowered(void *ctx, uint32_t nb, cairn_cost old) {
  bucket_queue *q = ctx;
  if (old != CAIRN_COST_INF) {
    bucket_unlink(q->b, (uint32_t)((old / q->width) % FLOW_BUCKETS), nb);
    q->queued--;
  }
  bucket_link(q->b, (uint32_t)((q->v[nb] / q->width) % FLOW_BUCKETS), nb);
  q->queued++;
}

void cairn__flow_integrate_buckets(cairn_field *f, cairn_flow_builder *b,
                                   const uint8_t *g, unsigned tmin) {
  cairn_cost *v = f->cost;
  uint8_t *mark = b->mark;
  int32_t off[8];
  cairn__flow_offsets(f, off);
  for (int k = 0; k < FLOW_BUCKETS; k++) b->heads[k] = UINT32_MAX;
  bucket_queue q = {b, v, CAIRN_COST_ONE * tmin, 0};
  for (size_t k = 0; k < f->n_goals; k++) {
    uint32_t i = (uint32_t)cairn__flow_cell_index(f, f->goals[k].x, f->goals[k].y);
    v[i] = 0;
    bucket_link(b, 0, i);
    q.queued++;
  }
  uint64_t cur = 0; /* absolute bucket number being emptied */
  while (q.queued) {
    uint32_t k = (uint32_t)(cur % FLOW_BUCKETS);
    uint32_t c = b->heads[k];
    if (c == UINT32_MAX) {
      cur++;
      continue;
    }
    bucket_unlink(b, k, c);
    q.queued--;
    mark[c] = 1;
    cairn__flow_relax(f, v, g, off, c, bucket_lowered, &q);
  }
}

/* The heap's side of a relaxation: the cell moves up. */
typedef struct heap_queue {
  cairn_flow_builder *b;
  const cairn_cost *v;
} heap_queue;

static inline void heap_lowered(void *ctx, uint32_t nb, cairn_cost old) {
  heap_queue *q = ctx;
  (void)old;
  cairn__flow_heap_lower(q->b, q->v, nb);
}

void cairn__flow_integrate_heap(cairn_field *f, cairn_flow_builder *b,
                                const uint8_t *g) {
  cairn_cost *v = f->cost;
  int32_t off[8];
  cairn__flow_offsets(f, off);
  b->heap_len = 0;
  for (size_t k = 0; k < f->n_goals; k++) {
    uint32_t i = (uint32_t)cairn__flow_cell_index(f, f->goals[k].x, f->goals[k].y);
    v[i] = 0;
    cairn__flow_heap_push(b, v, i);
  }
  heap_queue q = {b, v};
  while (b->heap_len)
    cairn__flow_relax(f, v, g, off, cairn__flow_heap_pop(b, v), heap_lowered, &q);
}
