/* Per-faction knowledge: the map a faction has seen, as a grid it searches on, merged as it explores. */
#include "layers_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- per-faction knowledge ------------------------------------------ */

struct cairn_knowledge {
  cairn_allocator alloc;
  const cairn_grid *truth;
  cairn_grid *known;
  uint8_t *seen; /* padded */
  uint64_t version;
  /* cells per island label of the known grid (size[0] unused), for the
   * local merge of a reveal that only opens cells; counted by every full
   * relabel (sizes_fresh false when a failed merge left them wrong) */
  uint32_t *size;
  size_t size_cap;
  bool sizes_fresh;
};

cairn_status cairn_knowledge_create(const cairn_grid *truth,
                                    uint8_t unknown_cost,
                                    const cairn_allocator *alloc,
                                    cairn_knowledge **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  if (!truth || !unknown_cost) return CAIRN_ERR_ARG;
  cairn_allocator a = cairn__allocator(alloc);
  cairn_knowledge *k = cairn__alloc_zero(&a, sizeof *k);
  if (!k) return CAIRN_ERR_NOMEM;
  k->alloc = a;
  k->truth = truth;
  cairn_status st = cairn_grid_create(truth->width, truth->height, unknown_cost, alloc, &k->known);
  k->seen = st == CAIRN_OK ? cairn__alloc(&a, truth->padded) : NULL;
  if (st == CAIRN_OK && !k->seen) st = CAIRN_ERR_NOMEM;
  if (st != CAIRN_OK) {
    cairn_knowledge_destroy(k);
    return st;
  }
  memset(k->seen, 0, truth->padded);
  /* labelled again with sizes, for the first opening reveal's merge */
  k->sizes_fresh = cairn__grid_label_islands(k->known, &k->size, &k->size_cap) == CAIRN_OK;
  *out = k;
  return CAIRN_OK;
}

void cairn_knowledge_destroy(cairn_knowledge *k) {
  if (!k) return;
  cairn_allocator a = k->alloc;
  cairn__free(&a, k->seen, k->seen ? k->truth->padded : 0);
  cairn__free(&a, k->size, k->size_cap * sizeof *k->size);
  cairn_grid_destroy(k->known);
  cairn__free(&a, k, sizeof *k);
}

/* What the reveal of c does to passability: 0 nothing, 1 it only opens
 * cells, 2 it closes some. */
static int reveal_kind(const cairn_knowledge *k, cairn_rect c) {
  int kind = 0;
  for (int32_t y = c.y; y < c.y + c.h; y++) {
    uint32_t i = cairn__grid_index(k->truth, c.x, y);
    for (int32_t x = 0; x < c.w; x++, i++) {
      bool was = k->known->cost[i] != 0, now = k->truth->cost[i] != 0;
      if (was && !now) return 2;
      if (!was && now) kind = 1;
    }
  }
  return kind;
}

static int cmp_label(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Scratch of a merge: the cells of one group of opened cells (they lie in
 * the revealed rectangle: area entries) and the labels beside them (4 x
 * area). */
typedef struct merge_scratch {
  uint32_t *group, *touch;
  size_t area;
} merge_scratch;

/* The group of opened (open, still unlabelled) cells 4-connected to cell
 * `start` into ms->group, and the labels beside it into ms->touch, sorted;
 * returns the group's size, *nt the labels'. Marks the group with label
 * UINT32_MAX meanwhile. */
static size_t opened_group(cairn_grid *g, uint32_t start, merge_scratch *ms,
                           size_t *nt) {
  const int32_t s = g->stride;
  const int32_t off[4] = {1, -1, s, -s};
  size_t n = 0, t = 0;
  g->island[start] = UINT32_MAX;
  ms->group[n++] = start;
  for (size_t k = 0; k < n; k++)
    for (int d = 0; d < 4; d++) {
      uint32_t c = (uint32_t)((int32_t)ms->group[k] + off[d]);
      if (!g->cost[c] || g->island[c] == UINT32_MAX) continue;
      if (g->island[c]) {
        ms->touch[t++] = g->island[c];
      } else {
        g->island[c] = UINT32_MAX;
        ms->group[n++] = c;
      }
    }
  qsort(ms->touch, t, sizeof *ms->touch, cmp_label);
  *nt = t;
  return n;
}

/* One group of opened cells, and every island it touches, joins the
 * largest of those islands (ties: the lowest label), or a new label if it
 * touches none: only the group and the smaller islands are relabelled. */
static cairn_status merge_group(cairn_knowledge *k, uint32_t start, merge_scratch *ms) {
  cairn_grid *g = k->known;
  const int32_t s = g->stride;
  const int32_t off[4] = {1, -1, s, -s};
  size_t nt;
  const size_t n = opened_group(g, start, ms, &nt);
  uint32_t target = 0;
  for (size_t j = 0; j < nt; j++)
    if (!target || k->size[ms->touch[j]] > k->size[target]) target = ms->touch[j];
  if (!target) {
    cairn_status st = cairn__grid_put_size(&k->alloc, &k->size, &k->size_cap,
                                           g->island_count + 1, 0);
    if (st != CAIRN_OK) return st;
    target = ++g->island_count;
  }
  /* the flood pushes each relabelled cell once: the group and the
   * touched islands but the target */
  size_t moved = n;
  for (size_t j = 0; j < nt; j++)
    if (ms->touch[j] != target && (!j || ms->touch[j] != ms->touch[j - 1]))
      moved += k->size[ms->touch[j]];
  uint32_t *stack = cairn__alloc(&k->alloc, moved * sizeof *stack);
  if (!stack) return CAIRN_ERR_NOMEM;
  size_t top = 0;
  for (size_t j = 0; j < n; j++) {
    g->island[ms->group[j]] = target;
    stack[top++] = ms->group[j];
  }
  k->size[target] += (uint32_t)n;
  /* every open neighbour with another label lies in a touched island;
   * opened cells of later groups (label 0) are left to their own merge,
   * which then finds the target beside them. Each cell is pushed once,
   * when relabelled. */
  while (top) {
    uint32_t i = stack[--top];
    for (int d = 0; d < 4; d++) {
      uint32_t c = (uint32_t)((int32_t)i + off[d]);
      if (!g->cost[c] || !g->island[c] || g->island[c] == target) continue;
      k->size[g->island[c]]--;
      g->island[c] = target;
      k->size[target]++;
      stack[top++] = c;
    }
  }
  cairn__free(&k->alloc, stack, moved * sizeof *stack);
  return CAIRN_OK;
}

/* The islands after a reveal of c that only opened cells (the labels were
 * fresh before it), group by group of opened cells (merge_group), so a
 * door opening onto the main island costs the rooms behind it, not the
 * map. Labels stay one per island but need not be consecutive any more:
 * cairn_grid_island_count is then the largest. */
static cairn_status merge_opened(cairn_knowledge *k, cairn_rect c) {
  cairn_grid *g = k->known;
  if (!k->sizes_fresh) return CAIRN_ERR_STATE; /* the caller relabels */
  merge_scratch ms;
  ms.area = (size_t)c.w * (size_t)c.h;
  ms.group = cairn__alloc(&k->alloc, ms.area * sizeof *ms.group);
  ms.touch = cairn__alloc(&k->alloc, 4 * ms.area * sizeof *ms.touch);
  cairn_status st = ms.group && ms.touch ? CAIRN_OK : CAIRN_ERR_NOMEM;
  for (int32_t y = c.y; y < c.y + c.h && st == CAIRN_OK; y++)
    for (uint32_t i = cairn__grid_index(g, c.x, y), x = 0; x < (uint32_t)c.w && st == CAIRN_OK;
         x++, i++)
      if (g->cost[i] && !g->island[i]) st = merge_group(k, i, &ms);
  cairn__free(&k->alloc, ms.group, ms.group ? ms.area * sizeof *ms.group : 0);
  cairn__free(&k->alloc, ms.touch, ms.touch ? 4 * ms.area * sizeof *ms.touch : 0);
  if (st == CAIRN_OK) g->islands_fresh = true;
  return st;
}

cairn_status cairn_knowledge_reveal(cairn_knowledge *k, cairn_rect r,
                                    int *changed) {
  if (changed) *changed = 0;
  if (!k) return CAIRN_ERR_ARG;
  const cairn_grid *t = k->truth;
  int32_t x0 = r.x < 0 ? 0 : r.x, y0 = r.y < 0 ? 0 : r.y;
  int64_t x1 = (int64_t)r.x + r.w, y1 = (int64_t)r.y + r.h; /* exclusive */
  if (x1 > t->width) x1 = t->width;
  if (y1 > t->height) y1 = t->height;
  if (r.w <= 0 || r.h <= 0 || x1 <= x0 || y1 <= y0) return CAIRN_OK;
  cairn_rect c = {x0, y0, (int32_t)(x1 - x0), (int32_t)(y1 - y0)};
  bool differs = false;
  for (int32_t y = c.y; y < c.y + c.h && !differs; y++) {
    uint32_t i = cairn__grid_index(t, c.x, y);
    differs = memcmp(t->cost + i, k->known->cost + i, (size_t)c.w) != 0;
  }
  for (int32_t y = c.y; y < c.y + c.h; y++)
    memset(k->seen + cairn__grid_index(t, c.x, y), 1, (size_t)c.w);
  if (!differs) return CAIRN_OK;
  /* opening cells only merges islands, locally; closing may split one,
   * which takes a full relabel, as do the labels of larger sizes */
  const int kind = k->known->islands_fresh && k->known->island_sizes == 1 ? reveal_kind(k, c) : 2;
  cairn_status st = cairn_grid_set_rect(k->known, c, t->cost + cairn__grid_index(t, c.x, c.y),
                                        (size_t)t->stride);
  /* a merge that runs out of memory leaves the labels stale: relabel */
  if (st == CAIRN_OK && kind == 1 && merge_opened(k, c) != CAIRN_OK) k->sizes_fresh = false;
  if (st == CAIRN_OK && !k->known->islands_fresh) {
    st = cairn__grid_label_islands(k->known, &k->size, &k->size_cap);
    k->sizes_fresh = st == CAIRN_OK;
  }
  if (st != CAIRN_OK) return st;
  k->version++;
  if (changed) *changed = 1;
  return CAIRN_OK;
}

const cairn_grid *cairn_knowledge_grid(const cairn_knowledge *k) {
  return k ? k->known : NULL;
}

uint64_t cairn_knowledge_version(const cairn_knowledge *k) {
  return k ? k->version : 0;
}

int cairn_knowledge_seen(const cairn_knowledge *k, int32_t x, int32_t y) {
  if (!k || !cairn_grid_contains(k->truth, x, y)) return 0;
  return k->seen[cairn__grid_index(k->truth, x, y)];
}
