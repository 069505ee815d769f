/* Building and updating the hierarchy: the public entry points (create,
 * destroy, update, edit, cost layers and their refresh, stats) and the
 * module's small helpers. The phases they run live beside this file:
 * entrances (hpa_entrances.c), clusters and the parallel pass over them
 * (hpa_cluster.c), the abstract graph (hpa_assemble.c), level 2
 * (hpa_level2.c) and landmarks (hpa_landmarks.c).
 *
 * The abstract graph is reassembled from the clusters after every build or
 * update: a linear pass, far cheaper than the Dijkstras. */
#include "hpa_internal.h"

#include <string.h>

/* ---- small helpers -------------------------------------------------- */

/* ---- public --------------------------------------------------------- */

cairn_hpa_opts cairn_hpa_defaults(void) {
  cairn_hpa_opts o = {.cluster = CAIRN_HPA_DEFAULT_CLUSTER,
                      .jobs = NULL,
                      .threads = 0,
                      .levels = 0,
                      .block = CAIRN_HPA_DEFAULT_BLOCK,
                      .landmarks = CAIRN_HPA_DEFAULT_LANDMARKS,
                      .max_size = 1};
  return o;
}

void cairn_hpa_destroy(cairn_hpa *h) {
  if (!h) return;
  cairn_allocator a = h->alloc;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  if (h->clusters) {
    for (uint32_t k = 0; k < n_clusters; k++) cairn__hpa_cluster_free(&a, &h->clusters[k]);
    cairn__free(&a, h->clusters, n_clusters * sizeof *h->clusters);
  }
  cairn__hpa_free_blocks(h);
  cairn__hpa_size_graphs_free(h);
  cairn__hpa_csz_free(h);
  cairn__hpa_edges_free(h, &h->kept);
  cairn__free(&a, h->lm_costs, h->lm_size * sizeof *h->lm_costs);
  for (int l = 0; l < 2; l++) {
    cairn__free(&a, h->lm_was[l], h->lm_was_cap[l] * sizeof *h->lm_was[l]);
    cairn__free(&a, h->lm_rows[l], h->lm_rows_cap[l] * sizeof *h->lm_rows[l]);
  }
  cairn_graph_destroy(h->graph);
  cairn__free(&a, h->node_cluster, (size_t)h->n_nodes * sizeof *h->node_cluster);
  cairn__workers_free(&h->workers);
  cairn__mutex_destroy(&h->alloc_lock);
  cairn__free(&a, h, sizeof *h);
}

cairn_status cairn__hpa_blocks_init(cairn_hpa *h, int32_t bs) {
  h->bs = bs;
  h->bw = (h->cw + bs - 1) / bs;
  h->bh = (h->ch + bs - 1) / bs;
  uint32_t n = (uint32_t)h->bw * (uint32_t)h->bh;
  h->blocks = cairn__alloc(&h->alloc, n * sizeof *h->blocks);
  if (!h->blocks) return CAIRN_ERR_NOMEM;
  memset(h->blocks, 0, n * sizeof *h->blocks);
  for (uint32_t k = 0; k < n; k++) {
    hpa_block *b = &h->blocks[k];
    b->cx0 = (int32_t)(k % (uint32_t)h->bw) * bs;
    b->cy0 = (int32_t)(k / (uint32_t)h->bw) * bs;
    b->cw = b->cx0 + bs > h->cw ? h->cw - b->cx0 : bs;
    b->ch = b->cy0 + bs > h->ch ? h->ch - b->cy0 : bs;
  }
  return CAIRN_OK;
}

/* The blocks holding any of the listed clusters, each once (ascending). */
static cairn_status rebuild_blocks(cairn_hpa *h, const uint32_t *clusters,
                                   size_t n, uint8_t *rebuilt) {
  uint32_t n_blocks = (uint32_t)h->bw * (uint32_t)h->bh;
  uint32_t *list = cairn__alloc(&h->alloc, n_blocks * sizeof *list);
  if (!list) return CAIRN_ERR_NOMEM;
  for (uint32_t b = 0; b < n_blocks; b++) list[b] = 0;
  /* under a layer a cluster's crossings can also decide which nodes of
   * the block across its border are level-2 nodes (crosses_block in
   * hpa_level2.c): the blocks of its neighbours too */
  const int32_t r = h->layer ? 1 : 0;
  for (size_t i = 0; i < n; i++) {
    const int32_t cx = (int32_t)(clusters[i] % (uint32_t)h->cw);
    const int32_t cy = (int32_t)(clusters[i] / (uint32_t)h->cw);
    for (int32_t y = cy - r; y <= cy + r; y++)
      for (int32_t x = cx - r; x <= cx + r; x++)
        if (x >= 0 && y >= 0 && x < h->cw && y < h->ch)
          list[hpa_block_of_cluster(h, (uint32_t)y * (uint32_t)h->cw + (uint32_t)x)] = 1;
  }
  size_t m = 0;
  for (uint32_t b = 0; b < n_blocks; b++) {
    if (rebuilt) rebuilt[b] = list[b] != 0;
    if (list[b]) list[m++] = b;
  }
  cairn_status st = cairn__hpa_build_blocks(h, list, m);
  cairn__free(&h->alloc, list, n_blocks * sizeof *list);
  return st;
}

static cairn_status hpa_init(cairn_hpa *h, const cairn_grid *grid,
                             int32_t cs) {
  h->grid = grid;
  h->cost = cairn_grid_cells(grid, &h->stride);
  h->moves = cairn_grid_moves(grid, NULL);
  h->clear = cairn_grid_clearances(grid, NULL);
  h->max_size = 1; /* create and load set theirs */
  h->width = cairn_grid_width(grid);
  h->height = cairn_grid_height(grid);
  h->cs = cs;
  h->cw = (h->width + cs - 1) / cs;
  h->ch = (h->height + cs - 1) / cs;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  h->clusters = cairn__alloc(&h->alloc, n_clusters * sizeof *h->clusters);
  if (!h->clusters) return CAIRN_ERR_NOMEM;
  memset(h->clusters, 0, n_clusters * sizeof *h->clusters);
  for (uint32_t k = 0; k < n_clusters; k++) {
    hpa_cluster *c = &h->clusters[k];
    c->x0 = (int32_t)(k % (uint32_t)h->cw) * cs;
    c->y0 = (int32_t)(k / (uint32_t)h->cw) * cs;
    c->w = c->x0 + cs > h->width ? h->width - c->x0 : cs;
    c->h = c->y0 + cs > h->height ? h->height - c->y0 : cs;
  }
  return CAIRN_OK;
}

/* Below this many cells a hierarchy left to pick its threads (threads 0)
 * owns no pool: its build takes a millisecond or two, and starting and
 * waking a thread costs more than the thread gains (den011d, 41 K cells:
 * 1.05 to 1.2 times one thread's build on two; arena, 2.4 K: twice). A
 * count the caller names, or the caller's jobs, are used whatever the
 * size. */
#define HPA_PARALLEL_MIN_CELLS (1u << 16)

/* The lock and the jobs of a new hierarchy; on failure neither is left. */
static cairn_status jobs_init(cairn_hpa *h, const cairn_hpa_opts *o, const cairn_grid *g) {
  cairn_status st = cairn__mutex_init(&h->alloc_lock);
  if (st != CAIRN_OK) return st;
  const size_t cells = (size_t)cairn_grid_width(g) * (size_t)cairn_grid_height(g);
  const bool small = cells < HPA_PARALLEL_MIN_CELLS;
  const int threads = !o->jobs && !o->threads && small ? 1 : o->threads;
  st = cairn__workers_init(&h->workers, o->jobs, threads, &h->alloc);
  if (st != CAIRN_OK) cairn__mutex_destroy(&h->alloc_lock);
  return st;
}

bool cairn__hpa_jobs_ok(const cairn_hpa_opts *o) {
  return o->threads >= 0 && o->threads <= CAIRN_JOBS_MAX_WORKERS &&
         cairn_jobs_check(o->jobs) == CAIRN_OK;
}

cairn_status cairn__hpa_new(const cairn_grid *grid, const cairn_hpa_opts *o,
                            int32_t cs, const cairn_allocator *alloc,
                            cairn_hpa **out) {
  cairn_allocator a = cairn_allocator_or_default(alloc);
  cairn_hpa *h = cairn__alloc_zero(&a, sizeof *h);
  *out = NULL;
  if (!h) return CAIRN_ERR_NOMEM;
  h->alloc = a;
  cairn_status st = jobs_init(h, o, grid);
  if (st != CAIRN_OK) { /* not for cairn_hpa_destroy: it frees both */
    cairn__free(&a, h, sizeof *h);
    return st;
  }
  st = hpa_init(h, grid, cs);
  if (st != CAIRN_OK) {
    cairn_hpa_destroy(h);
    return st;
  }
  *out = h;
  return CAIRN_OK;
}

cairn_status cairn_hpa_create(const cairn_grid *grid,
                              const cairn_hpa_opts *opts,
                              const cairn_allocator *alloc, cairn_hpa **out) {
  if (!out) return CAIRN_ERR_ARG;
  *out = NULL;
  cairn_hpa_opts o = opts ? *opts : cairn_hpa_defaults();
  if (o.cluster == 0) o.cluster = CAIRN_HPA_DEFAULT_CLUSTER;
  if (o.block == 0) o.block = CAIRN_HPA_DEFAULT_BLOCK;
  if (o.max_size == 0) o.max_size = 1;
  if (o.max_size < 1 || o.max_size > CAIRN_GRID_MAX_CLEARANCE) return CAIRN_ERR_ARG;
  if (!grid || o.cluster < CAIRN_HPA_MIN_CLUSTER ||
      o.cluster > CAIRN_HPA_MAX_CLUSTER || !cairn__hpa_jobs_ok(&o) ||
      (o.levels != 0 && o.levels != 2 && o.levels != 3) || o.block < 2 ||
      o.block > 64 || o.landmarks < -1 ||
      o.landmarks > CAIRN_GRAPH_MAX_LANDMARKS)
    return CAIRN_ERR_ARG;
  if (o.landmarks == 0) o.landmarks = CAIRN_HPA_DEFAULT_LANDMARKS;
  double t0 = cairn__now_ms();
  cairn_hpa *h;
  cairn_status st = cairn__hpa_new(grid, &o, o.cluster, alloc, &h);
  if (st != CAIRN_OK) return st;
  cairn_allocator a = h->alloc;
  h->landmarks = o.landmarks < 0 ? 0 : o.landmarks;
  h->max_size = o.max_size;
  if (!cairn__hpa_csz_init(h)) st = CAIRN_ERR_NOMEM;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  uint32_t *all = cairn__alloc(&a, n_clusters * sizeof *all);
  if (!all) st = CAIRN_ERR_NOMEM;
  if (st == CAIRN_OK) {
    for (uint32_t k = 0; k < n_clusters; k++) all[k] = k;
    st = cairn__hpa_build_clusters(h, all, n_clusters);
  }
  if (st == CAIRN_OK) st = cairn__hpa_assemble(h);
  if (st == CAIRN_OK) st = cairn__hpa_landmarks(h, 1);
  if (st == CAIRN_OK) st = cairn__hpa_size_graphs(h);
  if (st == CAIRN_OK) {
    h->levels = o.levels ? o.levels : n_clusters >= CAIRN_HPA_AUTO_LEVEL3 ? 3 : 2;
    if (h->levels == 3) st = cairn__hpa_blocks_init(h, o.block);
    if (h->levels == 3 && st == CAIRN_OK) st = rebuild_blocks(h, all, n_clusters, NULL);
    if (h->levels == 3 && st == CAIRN_OK) st = cairn__hpa_landmarks(h, 2);
  }
  cairn__free(&a, all, n_clusters * sizeof *all);
  if (st != CAIRN_OK) {
    cairn_hpa_destroy(h);
    return st;
  }
  h->build_ms = cairn__now_ms() - t0;
  h->rebuilt = n_clusters;
  h->grid_version = cairn_grid_version(grid);
  *out = h;
  return CAIRN_OK;
}

/* Marks in `mark` (one byte per cluster) the clusters a change of the
 * cells in r can affect: a cell on a cluster border moves that border's
 * entrances, so the clusters within one cell of the change; with units
 * above size 1, of the change and of the positions whose block covers a
 * changed cell (max_size - 1 up and left), whose fit and block costs
 * move. */
static void mark_clusters(const cairn_hpa *h, cairn_rect r, uint8_t *mark) {
  const int32_t more = h->max_size - 1;
  int32_t x0 = r.x - 1 - more, y0 = r.y - 1 - more;
  int32_t x1 = r.x + r.w, y1 = r.y + r.h; /* inclusive, one cell out */
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > h->width - 1) x1 = h->width - 1;
  if (y1 > h->height - 1) y1 = h->height - 1;
  for (int32_t cy = y0 / h->cs; cy <= y1 / h->cs; cy++)
    for (int32_t cx = x0 / h->cs; cx <= x1 / h->cs; cx++)
      mark[cy * h->cw + cx] = 1;
}

/* Rebuilds the marked clusters, all at once (the abstract graph is
 * reassembled from every cluster, so no changed cell may be left behind),
 * then the blocks holding them and the islands (of grid, unless NULL).
 * Success brings the hierarchy to the grid's version when it was told the
 * changed cells (grid given: an edit or update) or rebuilt everything. */
static cairn_status rebuild_marked(cairn_hpa *h, cairn_grid *grid,
                                   uint8_t *mark, double t0) {
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  const bool full = h->stale;
  /* after a failed rebuild some clusters are empty: redo everything */
  if (full) memset(mark, 1, n_clusters);
  size_t n = 0;
  for (uint32_t k = 0; k < n_clusters; k++) n += mark[k];
  uint32_t *ids = cairn__alloc(&h->alloc, (n ? n : 1) * sizeof *ids);
  cairn_status st = ids ? CAIRN_OK : CAIRN_ERR_NOMEM;
  /* the landmark tables before, to repair (a whole rebuild fills them;
   * so does an edit that finds no memory for them) */
  hpa_lm_before before[2];
  memset(before, 0, sizeof before);
  uint8_t *blocks = NULL;
  const size_t n_blocks = h->levels == 3 ? (size_t)h->bw * (size_t)h->bh : 0;
  if (st == CAIRN_OK && !full) {
    (void)cairn__hpa_lm_before(h, 1, &before[0]);
    if (n_blocks && cairn__hpa_lm_before(h, 2, &before[1]) == CAIRN_OK && before[1].k)
      blocks = cairn__alloc(&h->alloc, n_blocks);
  }
  if (st == CAIRN_OK) {
    size_t k = 0;
    for (uint32_t c = 0; c < n_clusters; c++)
      if (mark[c]) ids[k++] = c;
    st = cairn__hpa_build_clusters(h, ids, n);
  }
  if (st == CAIRN_OK) st = cairn__hpa_assemble(h);
  if (st == CAIRN_OK && h->levels == 3) st = rebuild_blocks(h, ids, n, blocks);
  cairn__free(&h->alloc, ids, (n ? n : 1) * sizeof *ids);
  if (st == CAIRN_OK && grid && !cairn_grid_islands_fresh(grid))
    st = cairn_grid_update_islands(grid);
  if (st == CAIRN_OK) st = cairn__hpa_landmarks_repair(h, 1, &before[0], mark);
  if (st == CAIRN_OK) st = cairn__hpa_size_graphs(h);
  if (st == CAIRN_OK && h->levels == 3)
    st = cairn__hpa_landmarks_repair(h, 2, &before[1], blocks);
  cairn__hpa_lm_before_free(h, &before[0]);
  cairn__hpa_lm_before_free(h, &before[1]);
  cairn__free(&h->alloc, blocks, blocks ? n_blocks : 0);
  h->stale = st != CAIRN_OK;
  if (st == CAIRN_OK && (grid || full)) h->grid_version = cairn_grid_version(h->grid);
  h->update_ms = cairn__now_ms() - t0;
  h->rebuilt = (uint32_t)n;
  return st;
}

/* CAIRN_ERR_STATE when a call that is no report of the changed cells (a
 * layer change, a refresh) finds the grid changed behind the hierarchy's
 * back: rebuilding some clusters from the new cells would leave the rest
 * on the old ones. A stale hierarchy is rebuilt whole, which takes in any
 * change. */
static cairn_status grid_behind(const cairn_hpa *h) {
  if (!h->stale && cairn_grid_version(h->grid) != h->grid_version)
    return CAIRN_ERR_STATE;
  return CAIRN_OK;
}

uint8_t *cairn__hpa_new_marks(cairn_hpa *h) {
  size_t n = (size_t)h->cw * (size_t)h->ch;
  uint8_t *mark = cairn__alloc(&h->alloc, n);
  if (mark) memset(mark, 0, n);
  return mark;
}

cairn_status cairn_hpa_update(cairn_hpa *h, cairn_grid *grid,
                              cairn_rect r) {
  if (!h || grid != h->grid) return CAIRN_ERR_ARG;
  if (r.w <= 0 || r.h <= 0) return CAIRN_ERR_ARG;
  if (r.x >= h->width || r.y >= h->height || r.x + r.w <= 0 || r.y + r.h <= 0)
    return CAIRN_ERR_RANGE;
  double t0 = cairn__now_ms();
  uint8_t *mark = cairn__hpa_new_marks(h);
  if (!mark) {
    h->stale = true;
    h->version++;
    return CAIRN_ERR_NOMEM;
  }
  mark_clusters(h, r, mark);
  cairn_status st = rebuild_marked(h, grid, mark, t0);
  cairn__free(&h->alloc, mark, (size_t)h->cw * (size_t)h->ch);
  return st;
}

cairn_status cairn_hpa_edit(cairn_hpa *h, cairn_grid *grid,
                            const cairn_point *cells, const uint8_t *costs,
                            size_t n) {
  if (!h || grid != h->grid || (n && (!cells || !costs))) return CAIRN_ERR_ARG;
  if (n == 0) return CAIRN_OK;
  for (size_t i = 0; i < n; i++)
    if (!cairn_grid_contains(grid, cells[i].x, cells[i].y)) return CAIRN_ERR_RANGE;
  double t0 = cairn__now_ms();
  uint8_t *mark = cairn__hpa_new_marks(h);
  for (size_t i = 0; i < n; i++) {
    cairn_grid_set_cost(grid, cells[i].x, cells[i].y, costs[i]);
    cairn_rect r = {cells[i].x, cells[i].y, 1, 1};
    if (mark) mark_clusters(h, r, mark);
  }
  if (!mark) {
    h->stale = true;
    h->version++;
    return CAIRN_ERR_NOMEM;
  }
  cairn_status st = rebuild_marked(h, grid, mark, t0);
  cairn__free(&h->alloc, mark, (size_t)h->cw * (size_t)h->ch);
  return st;
}

/* ---- cost layers ---------------------------------------------------- */

cairn_status cairn_hpa_set_layer(cairn_hpa *h, const cairn_penalty *layer) {
  if (!h || (layer && !cairn_penalty_fits(layer, h->grid))) return CAIRN_ERR_ARG;
  if (grid_behind(h) != CAIRN_OK) return CAIRN_ERR_STATE;
  double t0 = cairn__now_ms();
  uint8_t *mark = cairn__hpa_new_marks(h);
  if (!mark) return CAIRN_ERR_NOMEM;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  /* the clusters the old layer made, and those the new one touches */
  for (uint32_t k = 0; k < n_clusters; k++)
    mark[k] = h->clusters[k].bdist != NULL || (h->csz && h->csz[k].slayered);
  h->layer = layer;
  h->pen = layer ? cairn_penalty_cells(layer, NULL) : NULL;
  h->refresh_at = 0;
  for (uint32_t k = 0; k < n_clusters; k++)
    if (cairn__hpa_cluster_layered(h, &h->clusters[k]) ||
        (h->max_size > 1 && cairn__hpa_sizes_layered(h, &h->clusters[k])))
      mark[k] = 1;
  if (!layer) { /* the kept landmark table is for layers only */
    cairn__free(&h->alloc, h->lm_costs, h->lm_size * sizeof *h->lm_costs);
    h->lm_costs = NULL;
    h->lm_size = 0;
    h->lm_n = 0;
  }
  cairn_status st = rebuild_marked(h, NULL, mark, t0);
  cairn__free(&h->alloc, mark, n_clusters);
  return st;
}

/* Picks up to max (0: no limit) stale clusters into ids, in a round from
 * h->refresh_at; returns how many, and the stale ones left in *left. */
static size_t pick_stale(const cairn_hpa *h, uint32_t max, uint32_t *ids,
                         uint32_t *left) {
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  size_t n = 0;
  *left = 0;
  for (uint32_t i = 0; i < n_clusters; i++) {
    uint32_t k = (h->refresh_at + i) % n_clusters;
    if (!hpa_layer_stale(h, &h->clusters[k])) continue;
    if (max == 0 || n < max)
      ids[n++] = k;
    else
      (*left)++;
  }
  return n;
}

cairn_status cairn_hpa_refresh(cairn_hpa *h, uint32_t max_clusters,
                               uint32_t *pending) {
  if (pending) *pending = 0;
  if (!h) return CAIRN_ERR_ARG;
  if (grid_behind(h) != CAIRN_OK) return CAIRN_ERR_STATE;
  if (!h->layer) return CAIRN_OK;
  double t0 = cairn__now_ms();
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  if (h->stale) { /* a failed update or refresh left clusters empty */
    uint8_t *mark = cairn__hpa_new_marks(h);
    if (!mark) return CAIRN_ERR_NOMEM;
    memset(mark, 1, n_clusters);
    cairn_status st = rebuild_marked(h, NULL, mark, t0);
    cairn__free(&h->alloc, mark, n_clusters);
    return st;
  }
  uint32_t *ids = cairn__alloc(&h->alloc, 2 * (size_t)n_clusters * sizeof *ids);
  if (!ids) return CAIRN_ERR_NOMEM;
  uint32_t left;
  size_t n = pick_stale(h, max_clusters, ids, &left);
  cairn_status st = CAIRN_OK;
  if (n) {
    /* entrances follow the grid alone, so they hold unless the grid
     * changed behind the hierarchy's back: then a full assembly */
    uint32_t *was = ids + n_clusters; /* the entrance counts before */
    bool same = h->kept.e != NULL && h->kept.n == h->n_nodes;
    for (size_t i = 0; i < n; i++) was[i] = h->clusters[ids[i]].n;
    st = cairn__hpa_build_clusters(h, ids, n);
    for (size_t i = 0; i < n && same; i++) same = h->clusters[ids[i]].n == was[i];
    if (st == CAIRN_OK) st = same ? cairn__hpa_reassemble(h, ids, n) : cairn__hpa_assemble(h);
    /* landmarks measure terrain alone: the kept table still holds */
    if (st == CAIRN_OK) st = cairn__hpa_put_landmarks(h);
    if (st == CAIRN_OK) st = cairn__hpa_size_graphs(h);
    if (st == CAIRN_OK && h->levels == 3) st = rebuild_blocks(h, ids, n, NULL);
    h->stale = st != CAIRN_OK;
    h->refresh_at = (ids[n - 1] + 1) % n_clusters;
    h->update_ms = cairn__now_ms() - t0;
    h->rebuilt = (uint32_t)n;
  }
  cairn__free(&h->alloc, ids, 2 * (size_t)n_clusters * sizeof *ids);
  if (pending) *pending = st == CAIRN_OK ? left : n_clusters;
  return st;
}

void cairn_hpa_get_stats(const cairn_hpa *h, cairn_hpa_stats *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!h) return;
  uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  size_t mem = sizeof *h + n_clusters * sizeof *h->clusters;
  for (uint32_t k = 0; k < n_clusters; k++) {
    const hpa_cluster *c = &h->clusters[k];
    size_t nn = (size_t)c->n * c->n;
    mem += c->n * sizeof *c->cell + nn * sizeof *c->dist +
           (nn + 1) * sizeof *c->off + c->n_steps + (c->bdist ? nn * sizeof *c->bdist : 0);
  }
  size_t m = cairn_graph_edges(h->graph);
  /* the CSR graph: offsets, targets, costs, positions */
  mem += ((size_t)h->n_nodes + 1) * sizeof(uint32_t) +
         m * (sizeof(uint32_t) + sizeof(cairn_cost)) +
         2 * (size_t)h->n_nodes * sizeof(double);
  mem += (size_t)h->n_nodes * sizeof *h->node_cluster;
  mem += cairn_graph_landmark_bytes(h->graph) + cairn_graph_landmark_bytes(h->graph2);
  mem += cairn__hpa_blocks_memory(h) + h->lm_size * sizeof *h->lm_costs;
  for (int l = 0; l < 2; l++) mem += (h->lm_was_cap[l] + h->lm_rows_cap[l]) * sizeof(cairn_cost);
  mem += cairn__hpa_sizes_memory(h);
  if (h->kept.e) /* the edge list kept for refreshes */
    mem += h->kept.m * sizeof *h->kept.e + ((size_t)n_clusters + 1) * sizeof *h->kept.seg +
           2 * (size_t)h->kept.n * sizeof *h->kept.xy;
  out->landmarks = cairn_graph_landmarks(h->graph);
  out->levels = h->levels;
  if (h->levels == 3) {
    out->block = h->bs;
    out->blocks = (uint32_t)h->bw * (uint32_t)h->bh;
    out->nodes2 = h->n2;
    out->edges2 = cairn_graph_edges(h->graph2);
  }
  out->cluster = h->cs;
  out->max_size = h->max_size;
  out->clusters = n_clusters;
  out->nodes = h->n_nodes;
  out->edges = m;
  out->memory_bytes = mem;
  out->build_ms = h->build_ms;
  out->update_ms = h->update_ms;
  out->rebuilt_clusters = h->rebuilt;
  for (uint32_t k = 0; k < n_clusters; k++) {
    out->layered_clusters += h->clusters[k].bdist != NULL;
    out->stale_clusters += hpa_layer_stale(h, &h->clusters[k]);
  }
}

cairn_status cairn_hpa_node(const cairn_hpa *h, uint32_t node,
                            cairn_point *out) {
  if (!h || !out) return CAIRN_ERR_ARG;
  if (hpa_unfit(h) != CAIRN_OK) return CAIRN_ERR_STATE;
  if (node >= h->n_nodes) return CAIRN_ERR_RANGE;
  *out = hpa_point(h, hpa_node_cell(h, node));
  return CAIRN_OK;
}

const cairn_graph *cairn_hpa_graph(const cairn_hpa *h) {
  return h ? h->graph : NULL;
}
