/* The integration: the three queues (FIFO, Dial's buckets, the heap) that
 * settle a field's values from its goals, and the heap repair and tiles
 * share. */
#include "flow_internal.h"

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
 * first, and the stale entry is skipped by its mark. */
void cairn__flow_integrate_fifo(cairn_field *f, cairn_flow_builder *b,
                                const uint8_t *g, unsigned t) {
  cairn_cost *v = f->cost;
  uint8_t *mark = b->mark;
  uint32_t *qs = b->qa, *qd = b->qb;
  size_t hs = 0, ts = 0, hd = 0, td = 0;
  const size_t s = (size_t)f->stride;
  const cairn_cost S = CAIRN_COST_ONE * t, D = CAIRN_COST_DIAG * t;
  for (size_t k = 0; k < f->n_goals; k++) {
    size_t i = cairn__flow_cell_index(f, f->goals[k].x, f->goals[k].y);
    v[i] = 0;
    qs[ts++] = (uint32_t)i;
  }
  const bool eight = f->moves == 8;
  while (hs < ts || hd < td) {
    size_t c;
    if (hd == td || (hs < ts && v[qs[hs]] <= v[qd[hd]])) c = qs[hs++];
    else c = qd[hd++];
    if (mark[c]) continue;
    mark[c] = 1;
    const cairn_cost cs = v[c] + S;
    if (cs < v[c + 1]) { v[c + 1] = cs; qs[ts++] = (uint32_t)(c + 1); }
    if (cs < v[c - 1]) { v[c - 1] = cs; qs[ts++] = (uint32_t)(c - 1); }
    if (cs < v[c + s]) { v[c + s] = cs; qs[ts++] = (uint32_t)(c + s); }
    if (cs < v[c - s]) { v[c - s] = cs; qs[ts++] = (uint32_t)(c - s); }
    if (!eight) continue;
    const cairn_cost cd = v[c] + D;
    const bool e = g[c + 1], w = g[c - 1], so = g[c + s], n = g[c - s];
    if (e && so && cd < v[c + s + 1]) { v[c + s + 1] = cd; qd[td++] = (uint32_t)(c + s + 1); }
    if (w && so && cd < v[c + s - 1]) { v[c + s - 1] = cd; qd[td++] = (uint32_t)(c + s - 1); }
    if (e && n && cd < v[c - s + 1]) { v[c - s + 1] = cd; qd[td++] = (uint32_t)(c - s + 1); }
    if (w && n && cd < v[c - s - 1]) { v[c - s - 1] = cd; qd[td++] = (uint32_t)(c - s - 1); }
  }
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
