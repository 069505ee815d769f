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

/* The 8-way integration of a size-1 field in 32-bit values, walking the
 * runs of canonical paths (Sturtevant and Rabin, "Canonical orderings on
 * grids", IJCAI 2016) as jump point search does (Harabor and Grastien,
 * AAAI 2011): the values above, written a run at a time, with only the
 * cells where a path may turn queued.
 *
 * Canonical paths. A move that continues a shortest path can be put in an
 * order where diagonals come first. With no corner cutting (a diagonal
 * needs both straight cells beside it open), take a cell c reached from p:
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
 * Every shortest path can be rewritten, one east-then-north-east into
 * north-east-then-east at a time (each moves a diagonal earlier, so the
 * rewriting ends), into one that moves only so. Such a path is a chain of
 * runs: a diagonal run, from each of whose cells a straight run leaves
 * along each of its two parts; straight runs, each cell of which may turn
 * (a straight run and a diagonal one to the side) where the cell before it
 * has a wall on that side. Those are the jump points.
 *
 * The walk. A goal, and each jump point, waits in Dial's buckets (one
 * straight step wide) with the ways it leaves by; its bucket's turn walks
 * those runs whole, from its value then, writing each cell's value as it
 * passes where that is lower and queueing the jump points it meets.
 * Writes only lower values, so every value is a path's cost, never below
 * the exact one. A run stops at a cell whose value is below its offer:
 * every offer after is then above what that cell's value plus the steps
 * gives, so above the exact value too. Every write lands at least a
 * straight step above the value the walk started from, in a later bucket,
 * so a jump point queued at its exact value is at it when its turn comes;
 * and a run walked from an exact value offers each cell along a shortest
 * path its exact value (no stop before: no value is below exact). By
 * induction along a canonical shortest path, run after run, every cell
 * gets its exact value. A jump point whose value fell into an earlier
 * bucket since it was queued is skipped: the ways it was queued with are
 * then no shortest path's.
 *
 * Ties. Each cell keeps in its direction byte (free until the pass after)
 * a bit for each way a run left it by at its present value; a run that
 * reaches it at that value by a way already marked stops there, as what
 * would follow is the same walk again (the same cell, value and way, and
 * the same turns, which depend on the cell before alone). A jump point is
 * queued only with ways not yet marked, and marks them. Without this the
 * equal-cost paths of random maps walk the same runs over and over (64
 * steps a cell on random512-40-0, against 1.1 with it).
 *
 * About 1.1 steps a cell on the shared maps and a few hundred jump points
 * queued at once. A run along a row reads and writes its cells in order;
 * a FIFO's wavefront (the integrations above) touches three rows at each
 * cell and queues every cell. The directions are left to the pass after
 * (flow_build.c). */

/* Buckets one straight step (2^15 in 32-bit values) wide; a value must
 * stay below the last bucket, the one UINT32_MAX (unreached) is in. */
#define FLOW_RUN_SHIFT 15
#define FLOW_RUN_LIMIT (0xffff8000u - 1u)

/* Move bits, in direction order (cairn_dirs.h). */
#define M_E 1u
#define M_W 2u
#define M_S 4u
#define M_N 8u
#define M_SE 16u
#define M_SW 32u
#define M_NE 64u
#define M_NW 128u

/* A straight way's two sides (direction order: E W S N), and the turns a
 * wall on that side of the cell before opens. */
static const uint8_t run_side[4][2] = {{M_N, M_S}, {M_N, M_S}, {M_E, M_W}, {M_E, M_W}};
static const uint8_t run_turn[4][2] = {{M_N | M_NE, M_S | M_SE},
                                       {M_N | M_NW, M_S | M_SW},
                                       {M_E | M_SE, M_W | M_SW},
                                       {M_E | M_NE, M_W | M_NW}};
/* A diagonal's two straight parts (directions 4..7: SE SW NE NW). */
static const uint8_t run_part[4][2] = {{2, 0}, {2, 1}, {3, 0}, {3, 1}};

typedef struct run_walk {
  uint32_t *v;         /* the values (the builder's list) */
  uint8_t *ways;       /* the ways runs left each cell by at its value */
  const uint8_t *moves; /* the grid's move bits */
  ptrdiff_t off[8];
  /* queued jump points: cell, ways and the next in its bucket, in the
   * builder's qa, seeds and qc; a ring of bucket heads in qb */
  uint32_t *cell, *set, *next, *head;
  uint32_t ring, used, cap, free_list;
  size_t pending;
  bool full; /* more jump points at once than cells: give up */
} run_walk;

static void run_queue(run_walk *r, uint32_t x, unsigned ways, uint32_t val) {
  uint32_t e = r->free_list;
  if (e != UINT32_MAX) {
    r->free_list = r->next[e];
  } else if (r->used < r->cap) {
    e = r->used++;
  } else {
    r->full = true;
    return;
  }
  uint32_t *h = &r->head[(val >> FLOW_RUN_SHIFT) % r->ring];
  r->cell[e] = x;
  r->set[e] = ways;
  r->next[e] = *h;
  *h = e;
  r->pending++;
}

/* The straight run from c (value val) along way d (0..3). */
CAIRN_INLINE void run_straight(run_walk *r, uint32_t c, unsigned d, uint32_t val) {
  uint32_t *v = r->v;
  uint8_t *ways = r->ways;
  const uint8_t *mv = r->moves;
  const ptrdiff_t o = r->off[d];
  const unsigned bit = 1u << d, side0 = run_side[d][0], side1 = run_side[d][1];
  const unsigned turn0 = run_turn[d][0], turn1 = run_turn[d][1];
  const uint32_t S = (uint32_t)(CAIRN_COST_ONE / 2);
  for (uint32_t p = c; mv[p] & bit;) {
    const uint32_t x = (uint32_t)((ptrdiff_t)p + o);
    val += S;
    if (val > v[x]) return;
    if (val < v[x]) {
      v[x] = val;
      ways[x] = (uint8_t)bit;
    } else {
      if (ways[x] & bit) return; /* walked from here at this value */
      ways[x] = (uint8_t)(ways[x] | bit);
    }
    const unsigned before = mv[p];
    unsigned t = (before & side0 ? 0u : turn0) | (before & side1 ? 0u : turn1);
    t &= mv[x] & ~(unsigned)ways[x];
    if (t) {
      ways[x] = (uint8_t)(ways[x] | t);
      run_queue(r, x, t, val);
    }
    p = x;
  }
}

/* The straight runs that leave a diagonal run's cells, the way an
 * argument. */
static void run_any(run_walk *r, uint32_t c, unsigned d, uint32_t val) {
  run_straight(r, c, d, val);
}

/* The diagonal run from c (value val) along way d (4..7), and the straight
 * runs from each of its cells. */
static void run_diagonal(run_walk *r, uint32_t c, unsigned d, uint32_t val) {
  uint32_t *v = r->v;
  uint8_t *ways = r->ways;
  const uint8_t *mv = r->moves;
  const ptrdiff_t o = r->off[d];
  const unsigned bit = 1u << d, a = run_part[d - 4][0], b = run_part[d - 4][1];
  const unsigned parts = 1u << a | 1u << b;
  const uint32_t D = (uint32_t)(CAIRN_COST_DIAG / 2);
  for (uint32_t x = c; mv[x] & bit;) {
    x = (uint32_t)((ptrdiff_t)x + o);
    val += D;
    if (val > v[x]) return;
    unsigned go = parts;
    if (val < v[x]) {
      v[x] = val;
      ways[x] = (uint8_t)(bit | parts);
    } else {
      if (ways[x] & bit) return;
      go &= ~(unsigned)ways[x];
      ways[x] = (uint8_t)(ways[x] | bit | parts);
    }
    if (go >> a & 1u) run_any(r, x, a, val);
    if (go >> b & 1u) run_any(r, x, b, val);
  }
}

/* The straight runs from jump points, one copy for each way, its tables
 * folded into constants: where runs are short and jump points many
 * (mazes, dense random obstacles), a build took 1.1 to 1.2 times as long
 * with the way an argument. The straight runs leaving a diagonal run keep
 * it (run_any): copies there cost the long runs of open maps more than
 * they gave the short ones (docs/PERFORMANCE.md). */
static void run_e(run_walk *r, uint32_t c, uint32_t val) { run_straight(r, c, 0, val); }
static void run_w(run_walk *r, uint32_t c, uint32_t val) { run_straight(r, c, 1, val); }
static void run_s(run_walk *r, uint32_t c, uint32_t val) { run_straight(r, c, 2, val); }
static void run_n(run_walk *r, uint32_t c, uint32_t val) { run_straight(r, c, 3, val); }

/* The runs from jump point (or goal) x along `ways`, from its value. */
static void run_from(run_walk *r, uint32_t x, unsigned ways) {
  const uint32_t val = r->v[x];
  if (ways & M_E) run_e(r, x, val);
  if (ways & M_W) run_w(r, x, val);
  if (ways & M_S) run_s(r, x, val);
  if (ways & M_N) run_n(r, x, val);
  for (unsigned d = 4; d < 8; d++)
    if (ways >> d & 1u) run_diagonal(r, x, d, val);
}

bool cairn__flow_integrate_canonical(cairn_field *f, cairn_flow_builder *b,
                                     const uint8_t *moves) {
  const ptrdiff_t s = (ptrdiff_t)f->stride;
  /* a push lands fewer than 1.5 (w + h) + 1 buckets ahead: a diagonal run
   * and a straight one, shorter than the grid's sides */
  run_walk r = {.v = b->list,
                .ways = f->dir,
                .moves = moves,
                .off = {1, -1, s, -s, s + 1, s - 1, -s + 1, -s - 1},
                .cell = b->qa,
                .set = b->seeds,
                .next = b->qc,
                .head = b->qb,
                .ring = (uint32_t)(3 * ((size_t)f->w + (size_t)f->h) / 2 + 2),
                .cap = (uint32_t)(b->cap < UINT32_MAX ? b->cap : UINT32_MAX - 1),
                .free_list = UINT32_MAX};
  memset(r.head, 0xff, r.ring * sizeof *r.head);
  for (size_t k = 0; k < f->n_goals; k++) {
    const uint32_t i = (uint32_t)cairn__flow_cell_index(f, f->goals[k].x, f->goals[k].y);
    r.v[i] = 0;
    run_queue(&r, i, moves[i], 0);
  }
  bool fits = true;
  for (uint32_t k = 0, slot = 0; r.pending && !r.full;
       k++, slot = slot + 1 == r.ring ? 0 : slot + 1) {
    /* every value this bucket's runs write is below (k + ring) * 2^15 */
    if ((uint64_t)(k + r.ring) << FLOW_RUN_SHIFT > FLOW_RUN_LIMIT) {
      fits = false;
      break;
    }
    while (r.head[slot] != UINT32_MAX && !r.full) {
      const uint32_t e = r.head[slot];
      r.head[slot] = r.next[e];
      r.pending--;
      const uint32_t x = r.cell[e], ways = r.set[e];
      r.next[e] = r.free_list;
      r.free_list = e;
      /* fallen to an earlier bucket: no shortest path turns here so */
      if (r.v[x] >> FLOW_RUN_SHIFT == k) run_from(&r, x, ways);
    }
  }
  /* qb holds heap positions between calls: all 0 */
  memset(r.head, 0, r.ring * sizeof *r.head);
  return fits && !r.full;
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
