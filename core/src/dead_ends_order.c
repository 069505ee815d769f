/* The dead-end areas' ids in an order no search decides: each area's
 * children by their least cell, ids in preorder over that (see
 * cairn__de_canonical in dead_ends_work.h). */
#include "dead_ends_work.h"

#include <string.h>

/* Scratch for m areas, one block. */
typedef struct order_work {
  uint64_t *key, *tmp; /* (parent, least cell) of each child, then sorted */
  uint32_t *least;     /* each area's least cell, its inner areas' too */
  uint32_t *fresh;     /* new id of each area, less lo */
  uint32_t *first;     /* each area's first child in key (m + 1 entries) */
  uint32_t *stack;     /* (area, next child) pairs */
  size_t bytes;
} order_work;

static bool work_alloc(const cairn_allocator *a, order_work *w, size_t m) {
  w->bytes = 2 * m * sizeof(uint64_t) + (m + (m + 1) + 2 * m + m) * sizeof(uint32_t);
  uint8_t *b = cairn__alloc(a, w->bytes);
  if (!b) return false;
  w->key = (uint64_t *)(void *)b;
  w->tmp = w->key + m;
  w->fresh = (uint32_t *)(void *)(w->tmp + m);
  w->first = w->fresh + m;
  w->stack = w->first + m + 1;
  w->least = w->stack + 2 * m;
  return true;
}

/* Sorts key[0 .. n) (bottom-up merge sort, tmp as room). */
static void sort_keys(uint64_t *key, uint64_t *tmp, size_t n) {
  uint64_t *from = key, *to = tmp;
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
      size_t i = lo, j = mid, o = lo;
      while (i < mid && j < hi) to[o++] = from[i] <= from[j] ? from[i++] : from[j++];
      while (i < mid) to[o++] = from[i++];
      while (j < hi) to[o++] = from[j++];
    }
    uint64_t *t = from;
    from = to;
    to = t;
  }
  if (from != key) memcpy(key, from, n * sizeof *key);
}

/* The area a (in [lo, hi)) hangs off, less lo; UINT32_MAX for a top one
 * (a root, or one whose gate lies outside the range). */
static uint32_t parent_in(const cairn_dead_ends *de, uint32_t lo, uint32_t hi, uint32_t a) {
  if (de->gate[a] == UINT32_MAX) return UINT32_MAX;
  const uint32_t p = de->area[de->gate[a]];
  return p >= lo && p < hi && p != a ? p - lo : UINT32_MAX;
}

/* New ids into w->fresh by preorder from each top area, in id order, each
 * area's children in the order of the sorted keys (child: the area of
 * each key). */
static void number(const cairn_dead_ends *de, uint32_t lo, uint32_t m, order_work *w,
                   const uint32_t *child, size_t nc) {
  memset(w->first, 0, (m + 1) * sizeof *w->first);
  for (size_t i = 0; i < nc; i++) w->first[(uint32_t)(w->key[i] >> 32) + 1]++;
  for (uint32_t p = 0; p < m; p++) w->first[p + 1] += w->first[p];
  uint32_t next_id = lo;
  for (uint32_t t = 0; t < m; t = de->end[lo + t] - lo) {
    /* a top area: its whole subtree is [t, end) in the ids as they are */
    uint32_t sp = 0;
    w->fresh[t] = next_id++;
    w->stack[sp++] = t;
    w->stack[sp++] = w->first[t];
    while (sp) {
      const uint32_t at = w->stack[sp - 1], v = w->stack[sp - 2];
      if (at == w->first[v + 1]) {
        sp -= 2;
        continue;
      }
      w->stack[sp - 1] = at + 1;
      const uint32_t c = child[at];
      w->fresh[c] = next_id++;
      w->stack[sp++] = c;
      w->stack[sp++] = w->first[c];
    }
  }
}

bool cairn__de_canonical(cairn_dead_ends *de, uint32_t lo, uint32_t hi, const uint32_t *cells,
                         size_t n) {
  const uint32_t m = hi - lo;
  if (m < 2) return true;
  order_work w;
  if (!work_alloc(&de->alloc, &w, m)) return false;
  /* each area's least cell, over it and the areas inside it: its own
   * least first, then each area's into its parent's, the inner ones (the
   * later ids: the range is in preorder) before the outer */
  for (uint32_t a = 0; a < m; a++) w.least[a] = UINT32_MAX;
  const size_t count = cells ? n : de->padded;
  for (size_t i = 0; i < count; i++) {
    const uint32_t c = cells ? cells[i] : (uint32_t)i, a = de->area[c];
    if (a >= lo && a < hi && c < w.least[a - lo]) w.least[a - lo] = c;
  }
  for (uint32_t a = m; a-- > 0;) {
    const uint32_t p = parent_in(de, lo, hi, lo + a);
    if (p != UINT32_MAX && w.least[a] < w.least[p]) w.least[p] = w.least[a];
  }
  /* the children, keyed by (parent, least cell) */
  size_t nc = 0;
  for (uint32_t a = 0; a < m; a++) {
    const uint32_t p = parent_in(de, lo, hi, lo + a);
    if (p != UINT32_MAX) w.key[nc++] = (uint64_t)p << 32 | w.least[a];
  }
  sort_keys(w.key, w.tmp, nc);
  /* each child back from its least cell: the cell's innermost area, then
   * out to the one whose parent is the key's (the keys' room, free after
   * the sort, holds them) */
  uint32_t *child = (uint32_t *)(void *)w.tmp;
  for (size_t i = 0; i < nc; i++) {
    const uint32_t p = (uint32_t)(w.key[i] >> 32);
    uint32_t a = de->area[(uint32_t)w.key[i]] - lo;
    for (uint32_t q; (q = parent_in(de, lo, hi, lo + a)) != p;) a = q;
    child[i] = a;
  }
  number(de, lo, m, &w, child, nc);
  bool same = true;
  for (uint32_t a = 0; a < m && same; a++) same = w.fresh[a] == lo + a;
  if (same) {
    cairn__free(&de->alloc, w.key, w.bytes);
    return true;
  }
  de_arrays r;
  if (!cairn__de_arrays_alloc(&de->alloc, &r, de->count)) {
    cairn__free(&de->alloc, w.key, w.bytes);
    return false;
  }
  for (uint32_t a = 1; a <= de->count; a++) {
    const uint32_t to = a >= lo && a < hi ? w.fresh[a - lo] : a;
    r.end[to] = a >= lo && a < hi ? to + (de->end[a] - a) : de->end[a];
    r.gate[to] = de->gate[a];
    r.cells[to] = de->cells[a];
    r.depth[to] = de->depth[a];
    r.first[to] = de->first[a];
    r.slack[to] = de->slack[a];
    r.margin[to] = de->margin[a];
    r.centre[to] = de->centre[a];
    r.door[to] = de->door[a];
  }
  if (cells) {
    for (size_t i = 0; i < n; i++) {
      const uint32_t a = de->area[cells[i]];
      if (a >= lo && a < hi) de->area[cells[i]] = w.fresh[a - lo];
    }
  } else {
    for (size_t c = 0; c < de->padded; c++) {
      const uint32_t a = de->area[c];
      if (a >= lo && a < hi) de->area[c] = w.fresh[a - lo];
    }
  }
  cairn__de_put_areas(de, &r);
  cairn__free(&de->alloc, w.key, w.bytes);
  return true;
}
