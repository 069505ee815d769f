/* Loading a saved hierarchy: cairn_hpa_load and cairn_hpa_load_file, for
 * the format of hpa_format.h (docs/hierarchy.md, "The file format").
 *
 * What the file holds is read; what a linear pass derives from it is made
 * again by the code a build runs (the node numbering, the edge costs, the
 * blocks' local ids and graphs, and under a layer the level-1 graph), so
 * the loaded hierarchy is the saved one, field by field. Clusters, blocks
 * and the graphs' rows are independent once each one's bytes are found,
 * so they are read as tasks of the hierarchy's jobs, like a build's; a
 * quick pass over their counts first allocates their arrays on the
 * calling thread, since the caller's allocator takes one thread at a time
 * and tasks waiting on it would run one after another anyway.
 *
 * Reading trusts nothing: the checksum is checked first, and then every
 * count is bounded by the bytes left and by the grid before anything is
 * allocated for it, and every id, cell, step and edge is checked (a
 * fuzzer, or anyone, can write a valid checksum). A task reports only its
 * status; the first item that failed is read again on the calling thread
 * to say why, so the message is the one a sequential read gives. */
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* open, fstat, mmap */
#endif
#include "hpa_format.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define HPA_MMAP 1
#endif

#define fail cairn__hpa_fail /* the messages' short name, in this file */

/* A cluster's cells and a frame of one cell round them, a byte each:
 * 1 inside, 0 on the frame, so a walk can test a step with one load. A
 * step moves one cell, so a walk that leaves the cluster lands on the
 * frame first and stops there: no walk reads past it. */
#define FRAME_SIDE (CAIRN_HPA_MAX_CLUSTER + 2)
typedef struct hpa_frame {
  uint8_t inside[FRAME_SIDE * FRAME_SIDE];
  int32_t step[8]; /* each direction code's move in the frame */
} hpa_frame;

static void frame_init(hpa_frame *f, int32_t w, int32_t h) {
  memset(f->inside, 0, (size_t)(w + 2));
  for (int32_t y = 1; y <= h; y++) {
    uint8_t *row = f->inside + (size_t)y * FRAME_SIDE;
    row[0] = 0;
    memset(row + 1, 1, (size_t)w);
    row[w + 1] = 0;
  }
  memset(f->inside + (size_t)(h + 1) * FRAME_SIDE, 0, (size_t)(w + 2));
  for (int d = 0; d < 8; d++) f->step[d] = cairn__dx[d] + FRAME_SIDE * cairn__dy[d];
}

/* A load in progress. */
typedef struct hpa_loader {
  cairn_hpa *h;
  const uint8_t *buf; /* the whole input */
  cairn__rbuf r;      /* the sequential cursor over the payload (the
                         header and the checksum left out) */
  const char *name;
  cairn_error *err;
  bool wide;          /* costs in 8 bytes */
  size_t *at;         /* where each item of the level being read starts
                         (one more: where the last ends) */
  struct hpa_rows *rows; /* the graph whose rows are being read */
  hpa_frame frame;       /* for the clusters of the full side */
} hpa_loader;

/* ---- the header ----------------------------------------------------- */

static void get_header(const uint8_t *p, hpa_header *hd) {
  cairn__rbuf r = cairn__rbuf_init(p, HPA_HEADER_BYTES);
  r.at = HPA_MAGIC_BYTES;
  hd->version = cairn__get_u32(&r);
  hd->flags = cairn__get_u32(&r);
  hd->bytes = cairn__get_u64(&r);
  hd->width = cairn__get_u32(&r);
  hd->height = cairn__get_u32(&r);
  hd->map_fp = cairn__get_u64(&r);
  hd->cs = cairn__get_u32(&r);
  hd->levels = cairn__get_u32(&r);
  hd->bs = cairn__get_u32(&r);
  hd->landmarks = cairn__get_u32(&r);
  hd->layer_fp = cairn__get_u64(&r);
  hd->refresh_at = cairn__get_u32(&r);
  hd->nodes = cairn__get_u32(&r);
  hd->nodes2 = cairn__get_u32(&r);
  hd->max_size = cairn__get_u32(&r);
}

/* What is wrong with a header whose size, version and checksum hold, or
 * NULL. */
static const char *header_problem(const hpa_header *hd) {
  if (hd->flags & ~(uint32_t)HPA_FLAGS) return "unknown flags";
  if (hd->width < 1 || hd->width > CAIRN_GRID_MAX_SIDE || hd->height < 1 ||
      hd->height > CAIRN_GRID_MAX_SIDE)
    return "map size out of range";
  if (hd->cs < CAIRN_HPA_MIN_CLUSTER || hd->cs > CAIRN_HPA_MAX_CLUSTER)
    return "cluster side out of range";
  if (hd->levels != 2 && hd->levels != 3) return "levels other than 2 or 3";
  if (hd->levels == 3 ? hd->bs < 2 || hd->bs > 64 : hd->bs != 0)
    return "block side out of range";
  if (hd->landmarks > CAIRN_GRAPH_MAX_LANDMARKS) return "landmarks out of range";
  if (hd->max_size < 1 || hd->max_size > CAIRN_GRID_MAX_CLEARANCE)
    return "largest unit size out of range";
  if (!(hd->flags & HPA_FLAG_LAYER) && hd->layer_fp)
    return "a layer fingerprint without a layer";
  uint64_t cw = (hd->width + hd->cs - 1) / hd->cs, ch = (hd->height + hd->cs - 1) / hd->cs;
  if (hd->refresh_at >= cw * ch) return "refresh position past the clusters";
  if (hd->nodes > (uint64_t)hd->width * hd->height || hd->nodes2 > hd->nodes)
    return "more nodes than cells";
  return NULL;
}

/* The magic, then the version, the size, the checksum and the fields, in
 * that order: CAIRN_ERR_PARSE. */
static cairn_status read_header(const uint8_t *p, size_t len, const char *name,
                                cairn_error *err, hpa_header *hd) {
  size_t m = len < HPA_MAGIC_BYTES ? len : HPA_MAGIC_BYTES;
  if (m && memcmp(p, HPA_MAGIC, m) != 0)
    return fail(err, CAIRN_ERR_PARSE, name, "not a cairn hierarchy (wrong magic)");
  if (len < HPA_HEADER_BYTES + HPA_SUM_BYTES)
    return fail(err, CAIRN_ERR_PARSE, name, "truncated: %zu of at least %d bytes", len,
                HPA_HEADER_BYTES + HPA_SUM_BYTES);
  get_header(p, hd);
  if (hd->version != CAIRN_HPA_FORMAT_VERSION)
    return fail(err, CAIRN_ERR_PARSE, name, "format version %lu, this build reads %d",
                (unsigned long)hd->version, CAIRN_HPA_FORMAT_VERSION);
  if (hd->bytes > len)
    return fail(err, CAIRN_ERR_PARSE, name, "truncated: %zu of %llu bytes", len,
                (unsigned long long)hd->bytes);
  if (hd->bytes < len)
    return fail(err, CAIRN_ERR_PARSE, name, "%zu bytes where the header says %llu", len,
                (unsigned long long)hd->bytes);
  if (cairn__le64(p + len - HPA_SUM_BYTES) != cairn__checksum(p, len - HPA_SUM_BYTES))
    return fail(err, CAIRN_ERR_PARSE, name, "checksum mismatch");
  const char *bad = header_problem(hd);
  if (bad) return fail(err, CAIRN_ERR_PARSE, name, "bad header: %s", bad);
  if (hd->flags & HPA_FLAG_ROUTES) {
    const size_t room = len - HPA_HEADER_BYTES - HPA_SUM_BYTES;
    if (room < HPA_ROUTES_LEN_BYTES)
      return fail(err, CAIRN_ERR_PARSE, name, "bad routes: no room for their length");
    const uint64_t routes = cairn__le64(p + len - HPA_SUM_BYTES - HPA_ROUTES_LEN_BYTES);
    if (routes > room - HPA_ROUTES_LEN_BYTES)
      return fail(err, CAIRN_ERR_PARSE, name, "bad routes: %llu bytes, more than the file holds",
                  (unsigned long long)routes);
  }
  return CAIRN_OK;
}

/* Where the payload ends in a file whose header read_header passed: before
 * the routes, if any (*routes of them, else 0), their size and the
 * checksum. The routes start there. */
static size_t payload_end(const uint8_t *p, size_t len, const hpa_header *hd, size_t *routes) {
  size_t end = len - HPA_SUM_BYTES;
  *routes = 0;
  if (hd->flags & HPA_FLAG_ROUTES) {
    end -= HPA_ROUTES_LEN_BYTES;
    *routes = (size_t)cairn__le64(p + end);
    end -= *routes;
  }
  return end;
}

/* The map and the layer the file was made for: CAIRN_ERR_MISMATCH. */
static cairn_status check_map(const hpa_header *hd, const cairn_grid *grid,
                              const cairn_penalty *layer, const char *name,
                              cairn_error *err) {
  int32_t w = cairn_grid_width(grid), ht = cairn_grid_height(grid);
  uint64_t fp = cairn_grid_fingerprint(grid);
  if (hd->width != (uint32_t)w || hd->height != (uint32_t)ht || hd->map_fp != fp)
    return fail(err, CAIRN_ERR_MISMATCH, name,
                "made for a %lux%lu map with fingerprint %016llx, this map is %dx%d "
                "with fingerprint %016llx",
                (unsigned long)hd->width, (unsigned long)hd->height,
                (unsigned long long)hd->map_fp, (int)w, (int)ht, (unsigned long long)fp);
  bool had = hd->flags & HPA_FLAG_LAYER;
  if (had && !layer)
    return fail(err, CAIRN_ERR_MISMATCH, name,
                "saved under a cost layer (fingerprint %016llx), loaded without one",
                (unsigned long long)hd->layer_fp);
  if (!had && layer)
    return fail(err, CAIRN_ERR_MISMATCH, name, "saved without a cost layer, loaded with one");
  uint64_t lfp = had ? cairn__hpa_layer_fingerprint(layer, w, ht) : 0;
  if (had && lfp != hd->layer_fp)
    return fail(err, CAIRN_ERR_MISMATCH, name,
                "saved under a cost layer with fingerprint %016llx, this layer's is "
                "%016llx",
                (unsigned long long)hd->layer_fp, (unsigned long long)lfp);
  return CAIRN_OK;
}

/* ---- items read in parallel ------------------------------------------ */

/* Reads item i (a cluster or a block, its arrays allocated) from its
 * bytes; err is NULL in a task. It allocates nothing, so it can run on
 * any worker, and again. */
typedef cairn_status (*hpa_item_fn)(const hpa_loader *l, size_t i, cairn_error *err);

typedef struct item_pass {
  const hpa_loader *l;
  hpa_item_fn fn;
  int8_t *status; /* each item's */
} item_pass;

/* A pass whose workers need no scratch. */
static cairn_status no_scratch(void *ctx, void *scratch) {
  (void)ctx;
  (void)scratch;
  return CAIRN_OK;
}

static void no_scratch_fini(void *ctx, void *scratch) {
  (void)ctx;
  (void)scratch;
}

static cairn_status item_run(void *ctx, void *scratch, size_t i) {
  (void)scratch;
  item_pass *p = ctx;
  cairn_status st = p->fn(p->l, i, NULL);
  p->status[i] = (int8_t)st;
  return st;
}

/* Reads items 0 .. n-1 as a pass; if any failed, the first of them again
 * with messages. */
static cairn_status read_items(const hpa_loader *l, size_t n, hpa_item_fn fn,
                               uint32_t per_task) {
  cairn_hpa *h = l->h;
  int8_t *status = cairn__alloc_zero(&h->alloc, n);
  if (!status) return fail(l->err, CAIRN_ERR_NOMEM, l->name, "out of memory");
  item_pass ip = {l, fn, status};
  hpa_pass p = {&ip, 1, per_task, no_scratch, item_run, no_scratch_fini};
  cairn_status st = cairn__hpa_run_pass(h, &p, n);
  size_t i = 0;
  while (st != CAIRN_OK && i < n && status[i] == CAIRN_OK) i++;
  if (st != CAIRN_OK && i == n) /* the pass's own memory */
    st = fail(l->err, st, l->name, "out of memory");
  else if (st != CAIRN_OK)
    st = fn(l, i, l->err);
  cairn__free(&h->alloc, status, n);
  return st;
}

/* A graph a build makes from the loaded data is refused only when the
 * data is inconsistent. */
static cairn_status graph_status(const hpa_loader *l, cairn_status st,
                                 cairn_error *err, const char *what) {
  if (st == CAIRN_OK) return st;
  if (st == CAIRN_ERR_NOMEM) return fail(err, st, l->name, "out of memory");
  return fail(err, CAIRN_ERR_PARSE, l->name, "%s is refused (%s)", what,
              cairn_status_str(st));
}

/* ---- clusters ------------------------------------------------------- */

/* A cluster's counts, at the start of its bytes. */
typedef struct cluster_head {
  uint32_t n, flags;
  uint64_t n_steps, bytes; /* bytes: after the counts */
} cluster_head;

static cluster_head get_cluster_head(cairn__rbuf *r, bool wide) {
  cluster_head c;
  c.n = cairn__get_u16(r);
  c.flags = cairn__get_u8(r);
  c.n_steps = cairn__get_u32(r);
  uint64_t nn = (uint64_t)c.n * c.n;
  c.bytes = 2 * (uint64_t)c.n + nn * (wide ? 8u : 4u) * (c.flags & HPA_CLUSTER_BDIST ? 2u : 1u) +
            2 * nn + c.n_steps;
  return c;
}

static bool cluster_alloc(const cairn_hpa *h, hpa_cluster *c, const cluster_head *ch);

/* Where each cluster's bytes start (l->at), each one's counts checked (at
 * most 2 (w + h) entrances, known flags, its bytes there) and its arrays
 * allocated, on the calling thread: the tasks that read them then call
 * no allocator. */
static cairn_status cluster_spans(hpa_loader *l) {
  cairn_hpa *h = l->h;
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  for (uint32_t k = 0; k < n_clusters; k++) {
    hpa_cluster *c = &h->clusters[k];
    l->at[k] = l->r.at;
    cluster_head ch = get_cluster_head(&l->r, l->wide);
    if (l->r.over)
      return fail(l->err, CAIRN_ERR_PARSE, l->name, "cluster %lu past the end",
                  (unsigned long)k);
    if (ch.n > 2 * (uint32_t)(c->w + c->h) || (ch.flags & ~(uint32_t)HPA_CLUSTER_BDIST) ||
        ((ch.flags & HPA_CLUSTER_BDIST) && !h->layer))
      return fail(l->err, CAIRN_ERR_PARSE, l->name,
                  "cluster %lu: %lu entrances (at most %ld), flags %lu", (unsigned long)k,
                  (unsigned long)ch.n, 2L * (c->w + c->h), (unsigned long)ch.flags);
    if (!cairn__get_span(&l->r, ch.bytes > SIZE_MAX ? SIZE_MAX : (size_t)ch.bytes))
      return fail(l->err, CAIRN_ERR_PARSE, l->name, "cluster %lu: %llu bytes past the end",
                  (unsigned long)k, (unsigned long long)ch.bytes);
    if (!cluster_alloc(h, c, &ch)) return fail(l->err, CAIRN_ERR_NOMEM, l->name, "out of memory");
    c->layer_seen = cairn_penalty_version(h->layer);
  }
  l->at[n_clusters] = l->r.at;
  return CAIRN_OK;
}

/* The cluster's tables and steps, allocated for its counts; on failure
 * none. */
static bool cluster_alloc(const cairn_hpa *h, hpa_cluster *c, const cluster_head *ch) {
  const cairn_allocator *a = &h->alloc;
  const bool bdist = ch->flags & HPA_CLUSTER_BDIST;
  void *tables = cairn__alloc(a, hpa_tables_bytes(ch->n, bdist));
  uint8_t *steps = cairn__alloc(a, (size_t)ch->n_steps);
  if (!tables || !steps) {
    cairn__free(a, tables, hpa_tables_bytes(ch->n, bdist));
    cairn__free(a, steps, (size_t)ch->n_steps);
    return false;
  }
  hpa_tables_place(c, tables, ch->n, bdist);
  c->steps = steps;
  c->n = ch->n;
  c->n_steps = (size_t)ch->n_steps;
  return true;
}

/* Whether an abstract edge's cost is one the graph takes. */
static bool edge_cost_ok(cairn_cost c) { return c >= 1 && c <= HPA_EDGE_COST_MAX; }

/* The entrances: inside the cluster, in ascending cell order. */
static cairn_status read_cells(const hpa_loader *l, cairn__rbuf *r, hpa_cluster *c,
                               size_t k, cairn_error *err) {
  const uint8_t *p = cairn__get_span(r, 2 * (size_t)c->n);
  for (uint32_t i = 0; i < c->n; i++) {
    int32_t x = p[2 * i], y = p[2 * i + 1];
    if (x >= c->w || y >= c->h)
      return fail(err, CAIRN_ERR_PARSE, l->name, "cluster %lu: entrance %lu off the cluster",
                  (unsigned long)k, (unsigned long)i);
    c->cell[i] = hpa_index(l->h, c->x0 + x, c->y0 + y);
    if (i && c->cell[i] <= c->cell[i - 1])
      return fail(err, CAIRN_ERR_PARSE, l->name, "cluster %lu: entrances out of order",
                  (unsigned long)k);
  }
  return CAIRN_OK;
}

/* The costs, and each pair's path length (the offsets). A kept pair (one
 * with a path) joins two entrances in at most w h - 1 steps at a cost an
 * edge may have; a terrain cost is one an edge may have or none. */
static cairn_status read_pairs(const hpa_loader *l, cairn__rbuf *r, hpa_cluster *c,
                               size_t k, cairn_error *err) {
  const size_t nn = (size_t)c->n * c->n, cost = l->wide ? 8 : 4;
  const uint8_t *d = cairn__get_span(r, nn * cost);
  const uint8_t *bd = c->bdist ? cairn__get_span(r, nn * cost) : NULL;
  const uint8_t *lens = cairn__get_span(r, nn * 2);
  const uint32_t longest = (uint32_t)c->w * (uint32_t)c->h - 1;
  for (size_t q = 0; q < nn; q++) c->dist[q] = hpa_cost_at(d, q, l->wide);
  for (size_t q = 0; bd && q < nn; q++) c->bdist[q] = hpa_cost_at(bd, q, l->wide);
  uint64_t at = 0;
  for (uint32_t i = 0, q = 0; i < c->n; i++)
    for (uint32_t j = 0; j < c->n; j++, q++) {
      uint32_t len = cairn__le16(lens + 2 * (size_t)q);
      if (len > longest || (len && (i == j || !edge_cost_ok(c->dist[q]))) ||
          (bd && i != j && c->bdist[q] != CAIRN_COST_INF && !edge_cost_ok(c->bdist[q])))
        return fail(err, CAIRN_ERR_PARSE, l->name, "cluster %lu: pair %lu -> %lu out of range",
                    (unsigned long)k, (unsigned long)i, (unsigned long)j);
      c->off[q] = (uint32_t)at;
      at += len;
    }
  if (at != c->n_steps)
    return fail(err, CAIRN_ERR_PARSE, l->name,
                "cluster %lu: paths of %llu steps, the cluster says %llu", (unsigned long)k,
                (unsigned long long)at, (unsigned long long)c->n_steps);
  c->off[nn] = (uint32_t)at;
  return CAIRN_OK;
}

/* Whether the n steps at `steps` of a path from cell (x, y) (from the
 * cluster's corner) are direction codes that stay inside the cluster and
 * end at (ex, ey). The walk is most of a load's checking. */
static bool walk_ok(const hpa_frame *f, const uint8_t *steps, uint32_t n, int32_t x,
                    int32_t y, int32_t ex, int32_t ey) {
  int32_t at = (y + 1) * FRAME_SIDE + x + 1;
  uint32_t bad = 0;
  for (uint32_t t = 0; t < n; t++) {
    uint32_t s = steps[t];
    bad |= s >> 3;
    at += f->step[s & 7];
    if (!f->inside[at]) return false;
  }
  return !bad && at == (ey + 1) * FRAME_SIDE + ex + 1;
}

/* The steps: each kept path walks inside the cluster between its two
 * entrances, whose cells (from the cluster's corner) are the byte pairs
 * at xy. */
static cairn_status read_steps(const hpa_loader *l, cairn__rbuf *r, hpa_cluster *c,
                               const uint8_t *xy, size_t k, cairn_error *err) {
  const uint8_t *s = cairn__get_span(r, c->n_steps);
  if (c->n_steps) memcpy(c->steps, s, c->n_steps);
  hpa_frame own; /* a cluster cut short by the map's edge: its own frame */
  const hpa_frame *f = &l->frame;
  if (c->w != l->h->cs || c->h != l->h->cs) {
    frame_init(&own, c->w, c->h);
    f = &own;
  }
  for (uint32_t i = 0; i < c->n; i++) {
    for (uint32_t j = 0; j < c->n; j++) {
      size_t q = (size_t)i * c->n + j;
      if (c->off[q] == c->off[q + 1]) continue;
      if (!walk_ok(f, c->steps + c->off[q], c->off[q + 1] - c->off[q], xy[2 * i],
                   xy[2 * i + 1], xy[2 * j], xy[2 * j + 1]))
        return fail(err, CAIRN_ERR_PARSE, l->name,
                    "cluster %lu: the path %lu -> %lu does not join its entrances "
                    "inside the cluster",
                    (unsigned long)k, (unsigned long)i, (unsigned long)j);
    }
  }
  return CAIRN_OK;
}

static cairn_status read_cluster(const hpa_loader *l, size_t k, cairn_error *err) {
  hpa_cluster *c = &l->h->clusters[k];
  cairn__rbuf r = cairn__rbuf_init(l->buf + l->at[k], l->at[k + 1] - l->at[k]);
  get_cluster_head(&r, l->wide); /* checked, and the arrays sized, by cluster_spans */
  const uint8_t *xy = l->buf + l->at[k] + r.at; /* the entrances' bytes */
  cairn_status st = read_cells(l, &r, c, k, err);
  if (st == CAIRN_OK) st = read_pairs(l, &r, c, k, err);
  if (st == CAIRN_OK) st = read_steps(l, &r, c, xy, k, err);
  return st;
}

/* ---- the graphs' rows ----------------------------------------------- */

/* The cost of level-1 edge v -> t from the clusters and the terrain, or 0
 * when no build could have made that edge: an intra-cluster edge needs
 * its pair kept; a crossing joins open cells a step apart in two clusters,
 * a diagonal one only where both cells beside it are open too. Cells are
 * padded indices, so a step is one of eight index differences, and the
 * padding keeps a row's end from passing for a step to the next row. */
static cairn_cost row_cost(const cairn_hpa *h, uint32_t v, uint32_t t) {
  const hpa_cluster *c = &h->clusters[h->node_cluster[v]];
  const uint32_t i = v - c->first, j = t - c->first;
  if (j < c->n) {
    size_t q = (size_t)i * c->n + j;
    return i != j && c->off[q] != c->off[q + 1] ? c->dist[q] : 0;
  }
  const hpa_cluster *ct = &h->clusters[h->node_cluster[t]];
  const uint32_t a = c->cell[i], b = ct->cell[t - ct->first];
  const int64_t s = h->stride, d = (int64_t)b - (int64_t)a;
  const int64_t dy = d > 1 ? 1 : d < -1 ? -1 : 0, dx = d - dy * s;
  if (dx < -1 || dx > 1 || !d || !h->cost[a] || !h->cost[b]) return 0;
  const bool diag = dx && dy;
  if (diag && (!h->cost[a + dx] || !h->cost[a + dy * s])) return 0;
  return hpa_enter_cost(h, b, diag);
}

/* The cost of level-2 edge x -> y, x node i of block b and level-1 node
 * v, from the block's table or the level-1 graph, or 0 when no build
 * could have made that edge: one inside the block needs its pair kept;
 * one leaving it is a level-1 edge from v to y's level-1 node. */
static cairn_cost row2_cost(const cairn_hpa *h, const hpa_block *b, uint32_t i, uint32_t v,
                            uint32_t y, const uint32_t *l2_of) {
  const uint32_t j = y - b->first;
  if (j < b->n) {
    size_t q = (size_t)i * b->n + j;
    return i != j && b->off[q] != b->off[q + 1] ? b->dist[q] : 0;
  }
  const uint32_t *to;
  const cairn_cost *cost;
  uint32_t deg = cairn_graph_neighbours(h->graph, v, &to, &cost);
  for (uint32_t k = 0; k < deg; k++)
    if (l2_of[to[k]] == y) return cost[k];
  return 0;
}

/* A level's graph being read from its rows: the file's targets, the
 * graph's arrays (the offsets already set from the degrees). */
typedef struct hpa_rows {
  const uint8_t *to;
  cairn_graph_rows csr;
  uint32_t n;
  int level;
  const uint32_t *l2_of; /* level 2: the level-2 id of each level-1 node */
} hpa_rows;

/* Edge e of node v, to t at `cost` (0: refused). */
static cairn_status put_row_edge(const hpa_loader *l, size_t e, uint32_t v, uint32_t t,
                                 cairn_cost cost, cairn_error *err) {
  const hpa_rows *r = l->rows;
  if (!cost)
    return fail(err, CAIRN_ERR_PARSE, l->name,
                "the level-%d graph: no edge can join node %lu to node %lu", r->level,
                (unsigned long)v, (unsigned long)t);
  r->csr.target[e] = t;
  r->csr.cost[e] = cost;
  return CAIRN_OK;
}

/* The level-1 rows of cluster k's nodes. */
static cairn_status read_cluster_rows(const hpa_loader *l, size_t k, cairn_error *err) {
  const hpa_cluster *c = &l->h->clusters[k];
  const hpa_rows *r = l->rows;
  cairn_status st = CAIRN_OK;
  for (uint32_t v = c->first; v < c->first + c->n && st == CAIRN_OK; v++)
    for (size_t e = r->csr.offset[v]; e < r->csr.offset[v + 1] && st == CAIRN_OK; e++) {
      uint32_t t = cairn__le32(r->to + 4 * e);
      st = put_row_edge(l, e, v, t, t < r->n ? row_cost(l->h, v, t) : 0, err);
    }
  return st;
}

/* The level-2 rows of block bi's nodes. */
static cairn_status read_block_rows(const hpa_loader *l, size_t bi, cairn_error *err) {
  const hpa_block *b = &l->h->blocks[bi];
  const hpa_rows *r = l->rows;
  cairn_status st = CAIRN_OK;
  for (uint32_t i = 0, x = b->first; i < b->n && st == CAIRN_OK; i++, x++) {
    const uint32_t v = hpa_global_of(l->h, b, b->node[i]);
    for (size_t e = r->csr.offset[x]; e < r->csr.offset[x + 1] && st == CAIRN_OK; e++) {
      uint32_t y = cairn__le32(r->to + 4 * e);
      st = put_row_edge(l, e, x, y, y < r->n ? row2_cost(l->h, b, i, v, y, r->l2_of) : 0, err);
    }
  }
  return st;
}

/* The graph of r->n nodes (numbered, at least one) of level r->level from
 * its stored rows: the degrees, then the targets, read cluster by cluster
 * or block by block as tasks. */
static cairn_status read_rows(hpa_loader *l, hpa_rows *r, cairn_graph **g) {
  const cairn_hpa *h = l->h;
  const uint32_t n = r->n;
  const uint8_t *deg = 4 * (uint64_t)n <= cairn__rbuf_left(&l->r)
                           ? cairn__get_span(&l->r, 4 * (size_t)n) : NULL;
  if (!deg)
    return fail(l->err, CAIRN_ERR_PARSE, l->name, "the level-%d graph past the end", r->level);
  uint64_t m = 0;
  for (uint32_t v = 0; v < n; v++) m += cairn__le32(deg + 4 * (size_t)v);
  if (m <= cairn__rbuf_left(&l->r) / 4) r->to = cairn__get_span(&l->r, 4 * (size_t)m);
  if (!r->to)
    return fail(l->err, CAIRN_ERR_PARSE, l->name, "the level-%d graph: %llu edges past the end",
                r->level, (unsigned long long)m);
  cairn_status st = cairn_graph_rows_begin(n, (size_t)m, 1, &h->alloc, g, &r->csr);
  if (st != CAIRN_OK) return graph_status(l, st, l->err, "a graph");
  if (r->level == 1)
    cairn__hpa_positions(h, r->csr.xy);
  else
    cairn__hpa_positions2(h, r->csr.xy);
  r->csr.offset[0] = 0;
  for (uint32_t v = 0; v < n; v++)
    r->csr.offset[v + 1] = r->csr.offset[v] + cairn__le32(deg + 4 * (size_t)v);
  l->rows = r;
  st = r->level == 1 ? read_items(l, (size_t)h->cw * (size_t)h->ch, read_cluster_rows, 64)
                     : read_items(l, (size_t)h->bw * (size_t)h->bh, read_block_rows, 4);
  l->rows = NULL;
  if (st == CAIRN_OK)
    return graph_status(l, cairn_graph_rows_done(g, CAIRN_GH_OCTILE, 1.0), l->err,
                        r->level == 1 ? "the level-1 graph" : "the level-2 graph");
  cairn_graph_destroy(*g);
  *g = NULL;
  return st;
}

/* The level-1 graph: read from its rows, or under a layer (or without
 * nodes) made again as a build makes it. */
static cairn_status level1_graph(hpa_loader *l) {
  cairn_hpa *h = l->h;
  uint32_t n;
  uint32_t *node_cluster = h->layer ? NULL : cairn__hpa_number(h, &n);
  if (h->layer || !n) {
    cairn__free(&h->alloc, node_cluster, 0);
    return graph_status(l, cairn__hpa_assemble(h), l->err, "the abstract graph");
  }
  if (!node_cluster) return fail(l->err, CAIRN_ERR_NOMEM, l->name, "out of memory");
  h->node_cluster = node_cluster; /* row_cost reads it */
  cairn_graph *g = NULL;
  hpa_rows r = {NULL, {NULL, NULL, NULL, NULL}, n, 1, NULL};
  cairn_status st = read_rows(l, &r, &g);
  h->node_cluster = NULL;
  if (st != CAIRN_OK) {
    cairn__free(&h->alloc, node_cluster, (size_t)n * sizeof *node_cluster);
    return st;
  }
  cairn__hpa_set_graph(h, g, node_cluster, n);
  return CAIRN_OK;
}

/* The level-2 graph from its rows, or without nodes made again as a
 * build makes it (one node, no edges). */
static cairn_status level2_graph(hpa_loader *l) {
  cairn_hpa *h = l->h;
  const cairn_allocator *a = &h->alloc;
  uint32_t *l2_block, *l2_of;
  const uint32_t n = cairn__hpa_number2(h, &l2_block, &l2_of);
  if (!l2_block) return fail(l->err, CAIRN_ERR_NOMEM, l->name, "out of memory");
  cairn_graph *g = NULL;
  hpa_rows r = {NULL, {NULL, NULL, NULL, NULL}, n, 2, l2_of};
  cairn_status st = n ? read_rows(l, &r, &g) : CAIRN_OK;
  if (st == CAIRN_OK && n) {
    cairn__hpa_set_graph2(h, g, l2_block, l2_of, n);
    return st;
  }
  cairn__free(a, l2_block, (size_t)n * sizeof *l2_block);
  cairn__free(a, l2_of, (size_t)h->n_nodes * sizeof *l2_of);
  if (st != CAIRN_OK) return st;
  return graph_status(l, cairn__hpa_assemble2(h), l->err, "the level-2 graph");
}

/* ---- landmarks ------------------------------------------------------ */

/* What the graph said of a level's landmark table, with a message. */
static cairn_status landmark_status(const hpa_loader *l, cairn_status st, int level) {
  if (st == CAIRN_OK) return st;
  if (st == CAIRN_ERR_NOMEM) return fail(l->err, st, l->name, "out of memory");
  return fail(l->err, CAIRN_ERR_PARSE, l->name, "level %d: the landmark table is refused",
              level);
}

/* A table of 4-byte costs as the file holds it (UINT32_MAX where
 * unreachable) onto g: half the memory of a cairn_cost table on the way. */
static cairn_status read_landmarks32(hpa_loader *l, cairn_graph *g, const uint32_t *nodes,
                                     uint32_t k, size_t size) {
  const cairn_allocator *a = &l->h->alloc;
  uint32_t *costs = cairn__alloc(a, size * sizeof *costs);
  if (!costs) return CAIRN_ERR_NOMEM;
  const uint8_t *p = cairn__get_span(&l->r, size * 4);
  for (size_t q = 0; q < size; q++) costs[q] = cairn__le32(p + 4 * q);
  cairn_status st = cairn_graph_set_landmarks32(g, nodes, k, costs);
  cairn__free(a, costs, size * sizeof *costs);
  return st;
}

/* A level's landmarks onto g (n nodes in the level). Under a layer the
 * level-1 table is kept too (h->lm_*), as a build keeps it. */
static cairn_status read_landmarks(hpa_loader *l, cairn_graph *g, uint32_t n, int level) {
  cairn_hpa *h = l->h;
  uint32_t k = cairn__get_u32(&l->r);
  const uint32_t nv = cairn_graph_nodes(g);
  const uint64_t cost = l->wide ? 8 : 4;
  if (l->r.over || k > (uint32_t)h->landmarks || (k && !n) ||
      !cairn__rbuf_has(&l->r, 4 * (uint64_t)k + cost * k * nv, 1))
    return fail(l->err, CAIRN_ERR_PARSE, l->name, "level %d: %lu landmarks out of range",
                level, (unsigned long)k);
  uint32_t nodes[CAIRN_GRAPH_MAX_LANDMARKS];
  for (uint32_t i = 0; i < k; i++) nodes[i] = cairn__get_u32(&l->r);
  const size_t size = (size_t)k * nv;
  if (!l->wide && !(level == 1 && h->layer && k)) /* 4-byte costs, not kept */
    return landmark_status(l, read_landmarks32(l, g, nodes, k, size), level);
  cairn_cost *costs = cairn__alloc(&h->alloc, size * sizeof *costs);
  if (!costs) return fail(l->err, CAIRN_ERR_NOMEM, l->name, "out of memory");
  const uint8_t *p = cairn__get_span(&l->r, size * (size_t)cost);
  for (size_t q = 0; q < size; q++) costs[q] = hpa_cost_at(p, q, l->wide);
  cairn_status st = landmark_status(l, cairn_graph_set_landmarks(g, nodes, k, costs), level);
  if (st == CAIRN_OK && level == 1 && h->layer && k) { /* kept for refreshes */
    h->lm_costs = costs;
    h->lm_size = size;
    h->lm_n = k;
    memcpy(h->lm_nodes, nodes, k * sizeof *nodes);
    return CAIRN_OK;
  }
  cairn__free(&h->alloc, costs, size * sizeof *costs);
  return st;
}

/* ---- blocks --------------------------------------------------------- */

static bool block_alloc(const cairn_hpa *h, hpa_block *b, uint32_t n, size_t n_seq);

/* The blocks' local ids and graphs, made from the level-1 graph as a
 * build makes them: allocated block by block on the calling thread
 * (allocations from many threads would each take the allocator's lock,
 * and with some allocators come from fresh memory), then filled as tasks,
 * a block each. */
typedef struct graphs_pass {
  const cairn_hpa *h;
  const cairn_graph_rows *rows; /* two a block */
} graphs_pass;

static cairn_status graphs_fill(void *ctx, void *scratch, size_t bi) {
  (void)scratch;
  const graphs_pass *p = ctx;
  return cairn__hpa_block_graphs_fill(p->h, &p->h->blocks[bi], p->rows + 2 * bi);
}

static cairn_status block_graphs(hpa_loader *l) {
  cairn_hpa *h = l->h;
  const size_t n_blocks = (size_t)h->bw * (size_t)h->bh;
  cairn_graph_rows *rows = cairn__alloc_zero(&h->alloc, 2 * n_blocks * sizeof *rows);
  cairn_status st = rows ? CAIRN_OK : CAIRN_ERR_NOMEM;
  for (size_t bi = 0; bi < n_blocks && st == CAIRN_OK; bi++)
    st = cairn__hpa_block_graphs_begin(h, &h->blocks[bi], rows + 2 * bi);
  graphs_pass gp = {h, rows};
  hpa_pass p = {&gp, 1, 8, no_scratch, graphs_fill, no_scratch_fini};
  if (st == CAIRN_OK) st = cairn__hpa_run_pass(h, &p, n_blocks);
  cairn__free(&h->alloc, rows, 2 * n_blocks * sizeof *rows);
  return graph_status(l, st, l->err, "a block's graph");
}

/* Each block (its graphs made): where its bytes start (l->at), its counts
 * checked (at most as many level-2 nodes as it holds level-1 nodes), its
 * bytes there; and its arrays allocated, on the calling thread, so the
 * tasks that read them call no allocator. */
static cairn_status block_spans(hpa_loader *l) {
  cairn_hpa *h = l->h;
  const uint32_t n_blocks = (uint32_t)h->bw * (uint32_t)h->bh;
  for (uint32_t k = 0; k < n_blocks; k++) {
    hpa_block *b = &h->blocks[k];
    l->at[k] = l->r.at;
    uint64_t n = cairn__get_u32(&l->r), n_seq = cairn__get_u32(&l->r), nn = n * n;
    if (l->r.over || n > b->m || (!b->m && n_seq))
      return fail(l->err, CAIRN_ERR_PARSE, l->name, "block %lu: %llu level-2 nodes of %lu",
                  (unsigned long)k, (unsigned long long)n, (unsigned long)b->m);
    uint64_t bytes = 4 * n + nn * (l->wide ? 8u : 4u) + 4 * nn + 4 * n_seq;
    if (!cairn__get_span(&l->r, bytes > SIZE_MAX ? SIZE_MAX : (size_t)bytes))
      return fail(l->err, CAIRN_ERR_PARSE, l->name, "block %lu: %llu bytes past the end",
                  (unsigned long)k, (unsigned long long)bytes);
    if (b->m && !block_alloc(h, b, (uint32_t)n, (size_t)n_seq))
      return fail(l->err, CAIRN_ERR_NOMEM, l->name, "out of memory");
  }
  l->at[n_blocks] = l->r.at;
  return CAIRN_OK;
}

/* The block's arrays for n level-2 nodes and n_seq chain entries; on
 * failure none is left (the block's graphs stay). A block without
 * level-1 nodes holds none, as a build leaves it. */
static bool block_alloc(const cairn_hpa *h, hpa_block *b, uint32_t n, size_t n_seq) {
  const cairn_allocator *a = &h->alloc;
  const size_t nn = (size_t)n * n;
  uint32_t *node = cairn__alloc(a, n * sizeof *node);
  cairn_cost *dist = cairn__alloc(a, nn * sizeof *dist);
  uint32_t *off = cairn__alloc(a, (nn + 1) * sizeof *off);
  uint32_t *seq = cairn__alloc(a, n_seq * sizeof *seq);
  bool ok = node && dist && off && seq;
  if (ok) {
    b->node = node;
    b->dist = dist;
    b->off = off;
    b->seq = seq;
    b->n = n;
    b->n_seq = n_seq;
  } else {
    cairn__free(a, node, n * sizeof *node);
    cairn__free(a, dist, nn * sizeof *dist);
    cairn__free(a, off, (nn + 1) * sizeof *off);
    cairn__free(a, seq, n_seq * sizeof *seq);
  }
  return ok;
}

/* The nodes (ascending local ids), costs and chains of a block whose local
 * ids and graphs are made. Each kept pair's chain names only the block's
 * level-1 nodes and ends at its target. */
static cairn_status read_block_paths(const hpa_loader *l, cairn__rbuf *r, hpa_block *b,
                                     size_t bi, cairn_error *err) {
  const size_t nn = (size_t)b->n * b->n;
  const uint8_t *ids = cairn__get_span(r, 4 * (size_t)b->n);
  const uint8_t *d = cairn__get_span(r, nn * (l->wide ? 8 : 4));
  const uint8_t *lens = cairn__get_span(r, 4 * nn);
  const uint8_t *seq = cairn__get_span(r, 4 * b->n_seq);
  bool ok = true;
  for (uint32_t i = 0; i < b->n && ok; i++) {
    b->node[i] = cairn__le32(ids + 4 * (size_t)i);
    ok = b->node[i] < b->m && (!i || b->node[i] > b->node[i - 1]);
  }
  for (size_t q = 0; q < b->n_seq && ok; q++) {
    b->seq[q] = cairn__le32(seq + 4 * q);
    ok = b->seq[q] < b->m;
  }
  for (size_t k = 0; k < nn && ok; k++) b->dist[k] = hpa_cost_at(d, k, l->wide);
  uint64_t at = 0;
  size_t q = 0;
  for (uint32_t i = 0; i < b->n && ok; i++)
    for (uint32_t j = 0; j < b->n && ok; j++, q++) {
      uint32_t len = cairn__le32(lens + 4 * q);
      b->off[q] = (uint32_t)at;
      at += len;
      ok = !len || (i != j && len <= b->m && edge_cost_ok(b->dist[q]) && at <= b->n_seq &&
                    b->seq[at - 1] == b->node[j]);
    }
  if (!ok || at != b->n_seq)
    return fail(err, CAIRN_ERR_PARSE, l->name, "block %lu: nodes or chains out of range",
                (unsigned long)bi);
  b->off[nn] = (uint32_t)at;
  return CAIRN_OK;
}

/* Block bi's level-2 nodes, costs and chains, its arrays allocated. */
static cairn_status read_block(const hpa_loader *l, size_t bi, cairn_error *err) {
  hpa_block *b = &l->h->blocks[bi];
  if (!b->m) return CAIRN_OK;
  cairn__rbuf r = cairn__rbuf_init(l->buf + l->at[bi], l->at[bi + 1] - l->at[bi]);
  r.at = 8; /* the counts, checked by block_spans */
  return read_block_paths(l, &r, b, bi, err);
}

/* ---- the levels ----------------------------------------------------- */

/* The sizes' section (after both levels): each cluster's sized tables
 * and kept edges read, the annotations derived, then the graphs of each
 * size. */
static cairn_status sizes(hpa_loader *l) {
  cairn_hpa *h = l->h;
  if (h->max_size <= 1) return CAIRN_OK;
  cairn_status st = cairn__hpa_read_sizes(h, &l->r, l->wide, l->name, l->err);
  if (st != CAIRN_OK) return st;
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  uint32_t *all = cairn__alloc(&h->alloc, (size_t)n_clusters * sizeof *all);
  if (!all) return fail(l->err, CAIRN_ERR_NOMEM, l->name, "out of memory");
  for (uint32_t k = 0; k < n_clusters; k++) all[k] = k;
  st = cairn__hpa_derive_sizes(h, all, n_clusters);
  cairn__free(&h->alloc, all, (size_t)n_clusters * sizeof *all);
  if (st == CAIRN_OK) st = cairn__hpa_size_graphs(h);
  if (st != CAIRN_OK) return fail(l->err, st, l->name, "unit sizes: %s", cairn_status_str(st));
  return CAIRN_OK;
}

/* Level 1: the clusters, the graph over them, its landmarks. */
static cairn_status read_level1(hpa_loader *l, const hpa_header *hd) {
  cairn_hpa *h = l->h;
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  frame_init(&l->frame, h->cs, h->cs);
  cairn_status st = cluster_spans(l);
  if (st == CAIRN_OK) st = read_items(l, n_clusters, read_cluster, 32);
  if (st != CAIRN_OK) return st;
  uint64_t nodes = 0;
  for (uint32_t k = 0; k < n_clusters; k++) nodes += h->clusters[k].n;
  if (nodes != hd->nodes)
    return fail(l->err, CAIRN_ERR_PARSE, l->name, "%llu entrances, the header says %lu",
                (unsigned long long)nodes, (unsigned long)hd->nodes);
  st = level1_graph(l);
  if (st == CAIRN_OK) st = read_landmarks(l, h->graph, h->n_nodes, 1);
  return st;
}

/* Level 2: the blocks, the graph over them, its landmarks. */
static cairn_status read_level2(hpa_loader *l, const hpa_header *hd) {
  cairn_hpa *h = l->h;
  cairn_status st = cairn__hpa_blocks_init(h, (int32_t)hd->bs);
  if (st != CAIRN_OK) return fail(l->err, st, l->name, "out of memory");
  const uint32_t n_blocks = (uint32_t)h->bw * (uint32_t)h->bh;
  st = block_graphs(l);
  if (st == CAIRN_OK) st = block_spans(l);
  if (st == CAIRN_OK) st = read_items(l, n_blocks, read_block, 4);
  if (st == CAIRN_OK) st = level2_graph(l);
  if (st == CAIRN_OK && h->n2 != hd->nodes2)
    st = fail(l->err, CAIRN_ERR_PARSE, l->name, "%lu level-2 nodes, the header says %lu",
              (unsigned long)h->n2, (unsigned long)hd->nodes2);
  if (st == CAIRN_OK) st = read_landmarks(l, h->graph2, h->n2, 2);
  return st;
}

/* ---- loading -------------------------------------------------------- */

/* The checks of cairn_hpa_load before anything is allocated. */
static cairn_status load_check(const void *buf, size_t len, const char *name,
                               const cairn_grid *grid, const cairn_penalty *layer,
                               const cairn_hpa_opts *o, cairn_hpa **out,
                               cairn_error *err, hpa_header *hd) {
  if (!out) return fail(err, CAIRN_ERR_ARG, name, "no place for the hierarchy");
  *out = NULL;
  if (!grid || (!buf && len))
    return fail(err, CAIRN_ERR_ARG, name, !grid ? "no grid" : "no bytes");
  if (!cairn__hpa_jobs_ok(o)) return fail(err, CAIRN_ERR_ARG, name, "bad jobs or threads");
  if (layer && !cairn_penalty_fits(layer, grid))
    return fail(err, CAIRN_ERR_ARG, name, "the layer is for a map of another size");
  cairn_status st = read_header(buf, len, name, err, hd);
  if (st == CAIRN_OK) st = check_map(hd, grid, layer, name, err);
  return st;
}

/* Reads the payload into h, whose geometry and options are set. */
static cairn_status read_payload(hpa_loader *l, const hpa_header *hd) {
  cairn_hpa *h = l->h;
  const size_t n_clusters = (size_t)h->cw * (size_t)h->ch;
  /* the items of either level: clusters outnumber blocks */
  l->at = cairn__alloc(&h->alloc, (n_clusters + 1) * sizeof *l->at);
  if (!l->at) return fail(l->err, CAIRN_ERR_NOMEM, l->name, "out of memory");
  cairn_status st = read_level1(l, hd);
  if (st == CAIRN_OK && h->levels == 3) st = read_level2(l, hd);
  if (st == CAIRN_OK) st = sizes(l);
  if (st == CAIRN_OK && cairn__rbuf_left(&l->r))
    st = fail(l->err, CAIRN_ERR_PARSE, l->name, "%zu bytes left after the payload",
              cairn__rbuf_left(&l->r));
  cairn__free(&h->alloc, l->at, (n_clusters + 1) * sizeof *l->at);
  l->at = NULL;
  return st;
}

/* cairn_hpa_load, the input named `name`; t0 is when the load began (the
 * file's reading included), for the stats' build_ms. */
static cairn_status load_named(const void *buf, size_t len, const char *name,
                               const cairn_grid *grid, const cairn_penalty *layer,
                               const cairn_hpa_opts *opts, const cairn_allocator *alloc,
                               cairn_hpa **out, cairn_error *err, double t0) {
  cairn__hpa_clear_error(err);
  cairn_hpa_opts o = opts ? *opts : cairn_hpa_defaults();
  hpa_header hd;
  memset(&hd, 0, sizeof hd);
  cairn_status st = load_check(buf, len, name, grid, layer, &o, out, err, &hd);
  if (st != CAIRN_OK) return st;
  cairn_hpa *h;
  st = cairn__hpa_new(grid, &o, (int32_t)hd.cs, alloc, &h);
  if (st != CAIRN_OK) return fail(err, st, name, "%s", cairn_status_str(st));
  h->landmarks = (int32_t)hd.landmarks;
  h->levels = (int)hd.levels;
  h->max_size = (int32_t)hd.max_size;
  if (!cairn__hpa_csz_init(h)) {
    cairn_hpa_destroy(h);
    return fail(err, CAIRN_ERR_NOMEM, name, "out of memory");
  }
  h->layer = layer;
  h->pen = layer ? cairn_penalty_cells(layer, NULL) : NULL;
  h->refresh_at = hd.refresh_at;
  size_t routes;
  hpa_loader l = {h, buf, cairn__rbuf_init(buf, payload_end(buf, len, &hd, &routes)), name, err,
                  (hd.flags & HPA_FLAG_WIDE) != 0, NULL, NULL, {{0}, {0}}};
  l.r.at = HPA_HEADER_BYTES;
  st = read_payload(&l, &hd);
  if (st != CAIRN_OK) {
    cairn_hpa_destroy(h);
    return st;
  }
  /* the file matched the grid cell for cell (its fingerprint): the loaded
   * hierarchy is as fresh as one built now */
  h->grid_version = cairn_grid_version(grid);
  h->version = 1;
  h->build_ms = cairn__now_ms() - t0;
  *out = h;
  return CAIRN_OK;
}

cairn_status cairn_hpa_load(const void *buf, size_t len, const cairn_grid *grid,
                            const cairn_penalty *layer, const cairn_hpa_opts *opts,
                            const cairn_allocator *alloc, cairn_hpa **out,
                            cairn_error *err) {
  return load_named(buf, len, "<memory>", grid, layer, opts, alloc, out, err, cairn__now_ms());
}

/* ---- files ---------------------------------------------------------- */

/* The whole file into *buf (allocated, *cap bytes, *len used). */
static cairn_status read_file(const char *path, const cairn_allocator *a, uint8_t **buf,
                              size_t *len, size_t *cap, cairn_error *err) {
  *buf = NULL;
  *len = *cap = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return fail(err, CAIRN_ERR_IO, path, "cannot open: %s", strerror(errno));
  /* the size as a hint, so most files are read into one block */
  long hint = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
  if (fseek(f, 0, SEEK_SET) != 0) hint = -1;
  cairn_status st = CAIRN_OK;
  for (;;) {
    if (*len == *cap) {
      if ((uint64_t)*cap > CAIRN_HPA_FILE_MAX) {
        st = fail(err, CAIRN_ERR_TOO_LARGE, path, "larger than %llu bytes",
                  (unsigned long long)CAIRN_HPA_FILE_MAX);
        break;
      }
      uint64_t want = *cap ? 2 * (uint64_t)*cap : 65536;
      if (!*cap && hint >= 0) want = (uint64_t)hint + 1; /* one more, to see the end */
      if (want > CAIRN_HPA_FILE_MAX + 1) want = CAIRN_HPA_FILE_MAX + 1;
      uint8_t *p = want <= SIZE_MAX ? cairn__realloc(a, *buf, *cap, (size_t)want) : NULL;
      if (!p) {
        st = fail(err, CAIRN_ERR_NOMEM, path, "out of memory reading the file");
        break;
      }
      *buf = p;
      *cap = (size_t)want;
    }
    size_t got = fread(*buf + *len, 1, *cap - *len, f);
    *len += got;
    if (got == 0) {
      if (ferror(f)) st = fail(err, CAIRN_ERR_IO, path, "read error: %s", strerror(errno));
      break;
    }
  }
  fclose(f);
  if (st != CAIRN_OK) {
    cairn__free(a, *buf, *cap);
    *buf = NULL;
    *len = *cap = 0;
  }
  return st;
}

#ifdef HPA_MMAP
/* The file mapped read-only into *map (*len bytes), so its bytes are read
 * where the page cache holds them instead of copied into a buffer first:
 * a copy the size of the file, and as many fresh pages, saved. CAIRN_OK
 * with *map NULL when it cannot be mapped (an empty file, a pipe, a system
 * that refuses): the caller then reads it (read_file), which also says
 * why it cannot be opened. A file cut short by another process while it
 * is mapped would fault; files are written whole and renamed into place
 * (cairn_hpa_save_file), never cut in place. */
static cairn_status map_file(const char *path, const uint8_t **map, size_t *len,
                             cairn_error *err) {
  *map = NULL;
  *len = 0;
  int fd = open(path, O_RDONLY);
  if (fd < 0) return CAIRN_OK;
  struct stat sb;
  cairn_status st = CAIRN_OK;
  if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0) {
    if ((uint64_t)sb.st_size > CAIRN_HPA_FILE_MAX || (uint64_t)sb.st_size > SIZE_MAX) {
      st = fail(err, CAIRN_ERR_TOO_LARGE, path, "larger than %llu bytes",
                (unsigned long long)CAIRN_HPA_FILE_MAX);
    } else {
      void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        *map = p;
        *len = (size_t)sb.st_size;
      }
    }
  }
  close(fd);
  return st;
}
#endif

cairn_status cairn_hpa_load_file(const char *path, const cairn_grid *grid,
                                 const cairn_penalty *layer, const cairn_hpa_opts *opts,
                                 const cairn_allocator *alloc, cairn_hpa **out,
                                 cairn_error *err) {
  cairn__hpa_clear_error(err);
  if (out) *out = NULL;
  if (!path) return fail(err, CAIRN_ERR_ARG, "(null)", "no path");
  if (!out || !grid)
    return fail(err, CAIRN_ERR_ARG, path, !out ? "no place for the hierarchy" : "no grid");
  double t0 = cairn__now_ms();
  cairn_allocator a = cairn_allocator_or_default(alloc);
  uint8_t *buf;
  size_t len, cap;
#ifdef HPA_MMAP
  const uint8_t *map;
  cairn_status st = map_file(path, &map, &len, err);
  if (st != CAIRN_OK) return st;
  if (map) {
    st = load_named(map, len, path, grid, layer, opts, &a, out, err, t0);
    munmap((void *)(uintptr_t)map, len);
    return st;
  }
  st = read_file(path, &a, &buf, &len, &cap, err);
#else
  cairn_status st = read_file(path, &a, &buf, &len, &cap, err);
#endif
  if (st != CAIRN_OK) return st;
  st = load_named(buf, len, path, grid, layer, opts, &a, out, err, t0);
  cairn__free(&a, buf, cap);
  return st;
}

/* ---- routes --------------------------------------------------------- */

/* cairn_hpa_load_routes, the input named `name`. */
static cairn_status load_routes_named(const uint8_t *buf, size_t len, const char *name,
                                      cairn_path_cache *pc, cairn_error *err) {
  if (!pc) return fail(err, CAIRN_ERR_ARG, name, "no path cache");
  if (!buf && len) return fail(err, CAIRN_ERR_ARG, name, "no bytes");
  hpa_header hd;
  memset(&hd, 0, sizeof hd);
  cairn_status st = read_header(buf, len, name, err, &hd);
  if (st != CAIRN_OK) return st;
  if (!(hd.flags & HPA_FLAG_ROUTES)) {
    cairn_path_cache_clear(pc);
    return CAIRN_OK;
  }
  size_t n;
  const size_t at = payload_end(buf, len, &hd, &n);
  st = cairn_path_cache_load(pc, buf + at, n);
  switch (st) {
  case CAIRN_OK: return CAIRN_OK;
  case CAIRN_ERR_PARSE:
    return fail(err, st, name, "routes: truncated, corrupt or inconsistent");
  case CAIRN_ERR_MISMATCH:
    return fail(err, st, name, "routes: saved for another map, unit size or moves than the "
                               "cache's");
  case CAIRN_ERR_TOO_LARGE:
    return fail(err, st, name, "routes: %zu bytes, more than the cache's budget", n);
  default: return fail(err, st, name, "routes: %s", cairn_status_str(st));
  }
}

cairn_status cairn_hpa_load_routes(const void *buf, size_t len, cairn_path_cache *pc,
                                   cairn_error *err) {
  cairn__hpa_clear_error(err);
  return load_routes_named(buf, len, "<memory>", pc, err);
}

cairn_status cairn_hpa_load_file_routes(const char *path, cairn_path_cache *pc,
                                        cairn_error *err) {
  cairn__hpa_clear_error(err);
  if (!path) return fail(err, CAIRN_ERR_ARG, "(null)", "no path");
  if (!pc) return fail(err, CAIRN_ERR_ARG, path, "no path cache");
  cairn_allocator a = cairn_allocator_or_default(NULL);
  uint8_t *buf;
  size_t len, cap;
  cairn_status st = read_file(path, &a, &buf, &len, &cap, err);
  if (st != CAIRN_OK) return st;
  st = load_routes_named(buf, len, path, pc, err);
  cairn__free(&a, buf, cap);
  return st;
}
