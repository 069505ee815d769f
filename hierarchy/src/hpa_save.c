/* Saving a built hierarchy: cairn_hpa_save and cairn_hpa_save_file, in
 * the format of hpa_format.h (docs/hierarchy.md, "The file format"), and
 * the pieces the reader shares.
 *
 * A file holds what a build searches for: each cluster's entrances, the
 * costs between them and the grid paths kept; each block's level-2
 * nodes, costs and level-1 chains; which edges each node of either level
 * has, in the graph's order (listing them again would cost a load as much
 * as the rest), but for level 1 under a layer; the landmark tables (a
 * fill of the abstract graph per landmark, much of a build's time). What
 * a linear pass derives from those is left out and made again on loading
 * (hpa_load.c). */
#include "hpa_format.h"
#include "path_cache_internal.h" /* the cache's grid */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#ifdef _WIN32
#include <windows.h> /* MoveFileExA: rename over an existing file */
#endif

/* ---- shared with the reader ----------------------------------------- */

cairn_status cairn__hpa_fail(cairn_error *err, cairn_status st, const char *name,
                             const char *fmt, ...) {
  if (!err) return st;
  size_t cap = sizeof err->message;
  int n = snprintf(err->message, cap, "%s: ", name);
  size_t at = n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message + at, cap - at, fmt, ap);
  va_end(ap);
  err->line = 0;
  return st;
}

void cairn__hpa_clear_error(cairn_error *err) {
  if (!err) return;
  err->message[0] = '\0';
  err->line = 0;
}

uint64_t cairn__hpa_layer_fingerprint(const cairn_penalty *p, int32_t w, int32_t ht) {
  int32_t stride;
  const uint32_t *cells = cairn_penalty_cells(p, &stride);
  cairn__hash hs;
  cairn__hash_init(&hs);
  cairn__hash_le(&hs, (uint32_t)w, 4);
  cairn__hash_le(&hs, (uint32_t)ht, 4);
  uint8_t chunk[1024];
  for (int32_t y = 0; y < ht; y++) {
    const uint32_t *row = cells + (size_t)(y + 1) * (size_t)stride + 1;
    for (int32_t x = 0; x < w;) {
      size_t n = 0;
      for (; x < w && n + 4 <= sizeof chunk; x++, n += 4)
        for (int b = 0; b < 4; b++) chunk[n + (size_t)b] = (uint8_t)(row[x] >> (8 * b));
      cairn__hash_add(&hs, chunk, n);
    }
  }
  return cairn__hash_end(&hs);
}

/* ---- saving --------------------------------------------------------- */

/* Whether every cost the file holds fits in 4 bytes. */
static bool all_narrow(const cairn_hpa *h) {
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  for (uint32_t k = 0; k < n_clusters; k++) {
    const hpa_cluster *c = &h->clusters[k];
    for (size_t i = 0; i < (size_t)c->n * c->n; i++)
      if (!hpa_narrow_cost(c->dist[i]) || (c->bdist && !hpa_narrow_cost(c->bdist[i])))
        return false;
    for (size_t i = 0; h->csz && i < (size_t)h->csz[k].ntab * c->n * c->n; i++)
      if (!hpa_narrow_cost(h->csz[k].sd[i])) return false;
  }
  const uint32_t n_blocks = h->levels == 3 ? (uint32_t)h->bw * (uint32_t)h->bh : 0;
  for (uint32_t k = 0; k < n_blocks; k++)
    for (size_t i = 0; i < (size_t)h->blocks[k].n * h->blocks[k].n; i++)
      if (!hpa_narrow_cost(h->blocks[k].dist[i])) return false;
  for (int level = 1; level <= h->levels - 1; level++) {
    const cairn_graph *g = level == 1 ? h->graph : h->graph2;
    const uint32_t nv = cairn_graph_nodes(g);
    for (uint32_t i = 0; i < cairn_graph_landmarks(g); i++)
      for (uint32_t v = 0; v < nv; v++)
        if (!hpa_narrow_cost(cairn_graph_landmark_cost(g, i, v))) return false;
  }
  return true;
}

static void put_header(cairn__wbuf *w, const hpa_header *hd) {
  cairn__put_bytes(w, HPA_MAGIC, HPA_MAGIC_BYTES);
  cairn__put_u32(w, hd->version);
  cairn__put_u32(w, hd->flags);
  cairn__put_u64(w, hd->bytes);
  cairn__put_u32(w, hd->width);
  cairn__put_u32(w, hd->height);
  cairn__put_u64(w, hd->map_fp);
  cairn__put_u32(w, hd->cs);
  cairn__put_u32(w, hd->levels);
  cairn__put_u32(w, hd->bs);
  cairn__put_u32(w, hd->landmarks);
  cairn__put_u64(w, hd->layer_fp);
  cairn__put_u32(w, hd->refresh_at);
  cairn__put_u32(w, hd->nodes);
  cairn__put_u32(w, hd->nodes2);
  cairn__put_u32(w, hd->max_size);
}

/* A cluster: entrance count, flags, steps; the entrances as cells from
 * its corner; the costs (and the terrain's); each pair's path length; the
 * steps. */
static void put_cluster(cairn__wbuf *w, const cairn_hpa *h, const hpa_cluster *c,
                        bool wide) {
  const size_t nn = (size_t)c->n * c->n;
  cairn__put_u16(w, (uint16_t)c->n);
  cairn__put_u8(w, c->bdist ? HPA_CLUSTER_BDIST : 0);
  cairn__put_u32(w, (uint32_t)c->n_steps);
  for (uint32_t i = 0; i < c->n; i++) {
    cairn_point p = hpa_point(h, c->cell[i]);
    cairn__put_u8(w, (uint8_t)(p.x - c->x0));
    cairn__put_u8(w, (uint8_t)(p.y - c->y0));
  }
  for (size_t k = 0; k < nn; k++) hpa_put_cost(w, c->dist[k], wide);
  for (size_t k = 0; c->bdist && k < nn; k++) hpa_put_cost(w, c->bdist[k], wide);
  for (size_t k = 0; k < nn; k++) cairn__put_u16(w, (uint16_t)(c->off[k + 1] - c->off[k]));
  cairn__put_bytes(w, c->steps, c->n_steps);
}

/* A block: level-2 node count, chain entries; the nodes (local ids); the
 * costs; each pair's chain length; the chains. */
static void put_block(cairn__wbuf *w, const hpa_block *b, bool wide) {
  const size_t nn = (size_t)b->n * b->n;
  cairn__put_u32(w, b->n);
  cairn__put_u32(w, (uint32_t)b->n_seq);
  for (uint32_t i = 0; i < b->n; i++) cairn__put_u32(w, b->node[i]);
  for (size_t k = 0; k < nn; k++) hpa_put_cost(w, b->dist[k], wide);
  for (size_t k = 0; k < nn; k++) cairn__put_u32(w, b->off[k + 1] - b->off[k]);
  for (size_t k = 0; k < b->n_seq; k++) cairn__put_u32(w, b->seq[k]);
}

/* A graph's rows over n nodes: each node's out-degree, then every edge's
 * target, node by node. The costs are not stored: a load takes them from
 * the clusters' or blocks' tables, the terrain and the level-1 graph. */
static void put_rows(cairn__wbuf *w, const cairn_graph *g, uint32_t n) {
  for (uint32_t v = 0; v < n; v++) cairn__put_u32(w, cairn_graph_neighbours(g, v, NULL, NULL));
  for (uint32_t v = 0; v < n; v++) {
    const uint32_t *to;
    uint32_t deg = cairn_graph_neighbours(g, v, &to, NULL);
    for (uint32_t k = 0; k < deg; k++) cairn__put_u32(w, to[k]);
  }
}

/* A graph's landmarks: their count, their nodes, a row of costs each. */
static void put_landmarks(cairn__wbuf *w, const cairn_graph *g, bool wide) {
  const uint32_t k = cairn_graph_landmarks(g), nv = cairn_graph_nodes(g);
  cairn__put_u32(w, k);
  for (uint32_t i = 0; i < k; i++) cairn__put_u32(w, cairn_graph_landmark_node(g, i));
  for (uint32_t i = 0; i < k; i++)
    for (uint32_t v = 0; v < nv; v++) hpa_put_cost(w, cairn_graph_landmark_cost(g, i, v), wide);
}

/* Everything but the checksum, with hd's size field. */
static void put_all(cairn__wbuf *w, const cairn_hpa *h, const hpa_header *hd) {
  const bool wide = hd->flags & HPA_FLAG_WIDE;
  put_header(w, hd);
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  for (uint32_t k = 0; k < n_clusters; k++) put_cluster(w, h, &h->clusters[k], wide);
  /* under a layer a load makes level 1's rows again, with the edge list
   * its refreshes keep */
  if (!h->layer) put_rows(w, h->graph, h->n_nodes);
  put_landmarks(w, h->graph, wide);
  if (h->levels == 3) {
    const uint32_t n_blocks = (uint32_t)h->bw * (uint32_t)h->bh;
    for (uint32_t k = 0; k < n_blocks; k++) put_block(w, &h->blocks[k], wide);
    put_rows(w, h->graph2, h->n2);
    put_landmarks(w, h->graph2, wide);
  }
  if (h->max_size > 1) cairn__hpa_put_sizes(w, h, wide);
}

static hpa_header header_of(const cairn_hpa *h) {
  hpa_header hd = {CAIRN_HPA_FORMAT_VERSION,
                   (h->layer ? HPA_FLAG_LAYER : 0u) | (all_narrow(h) ? 0u : HPA_FLAG_WIDE),
                   0,
                   (uint32_t)h->width,
                   (uint32_t)h->height,
                   cairn_grid_fingerprint(h->grid),
                   (uint32_t)h->cs,
                   (uint32_t)h->levels,
                   h->levels == 3 ? (uint32_t)h->bs : 0u,
                   (uint32_t)h->landmarks,
                   h->layer ? cairn__hpa_layer_fingerprint(h->layer, h->width, h->height) : 0,
                   h->refresh_at,
                   h->n_nodes,
                   h->levels == 3 ? h->n2 : 0u,
                   (uint32_t)h->max_size};
  return hd;
}

/* cairn_hpa_save, with pc's routes after the payload when pc is not
 * NULL. */
static cairn_status save_bytes(const cairn_hpa *h, const cairn_path_cache *pc, void *buf,
                               size_t cap, size_t *len) {
  if (!h || !len) return CAIRN_ERR_ARG;
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  if (h->stale) return CAIRN_ERR_STATE;
  for (uint32_t k = 0; k < n_clusters; k++)
    if (hpa_layer_stale(h, &h->clusters[k])) return CAIRN_ERR_STATE;
  size_t routes = 0;
  if (pc) {
    if (pc->grid != h->grid) return CAIRN_ERR_ARG; /* the struct: core's layout */
    if (cairn_path_cache_save(pc, NULL, 0, &routes) != CAIRN_ERR_BUFFER) return CAIRN_ERR_ARG;
  }
  hpa_header hd = header_of(h);
  if (pc) hd.flags |= HPA_FLAG_ROUTES;
  cairn__wbuf w = cairn__wbuf_init(NULL, 0); /* measure first */
  put_all(&w, h, &hd);
  hd.bytes = w.len + (pc ? routes + HPA_ROUTES_LEN_BYTES : 0) + HPA_SUM_BYTES;
  *len = (size_t)hd.bytes;
  if (!buf || cap < hd.bytes) return CAIRN_ERR_BUFFER;
  w = cairn__wbuf_init(buf, cap);
  put_all(&w, h, &hd);
  if (pc) {
    size_t n = 0;
    cairn_status st = cairn_path_cache_save(pc, w.p + w.len, routes, &n);
    if (st != CAIRN_OK) return st;
    w.len += n;
    cairn__put_u64(&w, n);
  }
  cairn__put_u64(&w, cairn__checksum(buf, w.len));
  return CAIRN_OK;
}

cairn_status cairn_hpa_save(const cairn_hpa *h, void *buf, size_t cap, size_t *len) {
  return save_bytes(h, NULL, buf, cap, len);
}

cairn_status cairn_hpa_save_with_routes(const cairn_hpa *h, const cairn_path_cache *pc,
                                        void *buf, size_t cap, size_t *len) {
  if (!pc) return CAIRN_ERR_ARG;
  return save_bytes(h, pc, buf, cap, len);
}

/* Writes n bytes to path through a temporary file renamed over it. */
static cairn_status write_file(const cairn_allocator *a, const char *path,
                               const void *bytes, size_t n, cairn_error *err) {
  size_t plen = strlen(path);
  char *tmp = cairn__alloc(a, plen + 5);
  if (!tmp) return cairn__hpa_fail(err, CAIRN_ERR_NOMEM, path, "out of memory");
  memcpy(tmp, path, plen);
  memcpy(tmp + plen, ".tmp", 5);
  cairn_status st = CAIRN_OK;
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    st = cairn__hpa_fail(err, CAIRN_ERR_IO, path, "cannot write %s: %s", tmp, strerror(errno));
  } else {
    bool wrote = fwrite(bytes, 1, n, f) == n;
    bool ok = fclose(f) == 0 && wrote;
    if (!ok)
      st = cairn__hpa_fail(err, CAIRN_ERR_IO, path, "cannot write %s: %s", tmp, strerror(errno));
#ifdef _WIN32
    if (ok && !MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
      st = cairn__hpa_fail(err, CAIRN_ERR_IO, path, "cannot rename %s over it", tmp);
#else
    if (ok && rename(tmp, path) != 0)
      st = cairn__hpa_fail(err, CAIRN_ERR_IO, path, "cannot rename %s over it: %s", tmp,
                           strerror(errno));
#endif
    if (st != CAIRN_OK) remove(tmp);
  }
  cairn__free(a, tmp, plen + 5);
  return st;
}

/* cairn_hpa_save_file, with pc's routes when pc is not NULL. */
static cairn_status save_file(const cairn_hpa *h, const cairn_path_cache *pc, const char *path,
                              cairn_error *err) {
  cairn__hpa_clear_error(err);
  if (!path) return cairn__hpa_fail(err, CAIRN_ERR_ARG, "(null)", "no path");
  if (!h) return cairn__hpa_fail(err, CAIRN_ERR_ARG, path, "no hierarchy");
  size_t n = 0;
  cairn_status st = save_bytes(h, pc, NULL, 0, &n);
  if (st == CAIRN_ERR_STATE)
    return cairn__hpa_fail(err, st, path, "the hierarchy is stale (a failed edit, or a layer "
                               "change not refreshed yet): nothing saved");
  if (st == CAIRN_ERR_ARG && pc)
    return cairn__hpa_fail(err, st, path, "the routes' cache is for another grid: nothing saved");
  if (st != CAIRN_ERR_BUFFER) return cairn__hpa_fail(err, st, path, "%s", cairn_status_str(st));
  uint8_t *buf = cairn__alloc(&h->alloc, n);
  if (!buf) return cairn__hpa_fail(err, CAIRN_ERR_NOMEM, path, "out of memory for %zu bytes", n);
  st = save_bytes(h, pc, buf, n, &n);
  if (st == CAIRN_OK) st = write_file(&h->alloc, path, buf, n, err);
  else cairn__hpa_fail(err, st, path, "%s", cairn_status_str(st));
  cairn__free(&h->alloc, buf, n);
  return st;
}

cairn_status cairn_hpa_save_file(const cairn_hpa *h, const char *path, cairn_error *err) {
  return save_file(h, NULL, path, err);
}

cairn_status cairn_hpa_save_file_with_routes(const cairn_hpa *h, const cairn_path_cache *pc,
                                             const char *path, cairn_error *err) {
  if (!pc) {
    cairn__hpa_clear_error(err);
    return cairn__hpa_fail(err, CAIRN_ERR_ARG, path ? path : "(null)", "no path cache");
  }
  return save_file(h, pc, path, err);
}
