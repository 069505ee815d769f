/* The sizes' section of a saved hierarchy (max_size > 1; docs/hierarchy.md,
 * "The file format"): what the sizes' pass of a build searches for, so a
 * load need not search again. For each cluster with entrances, in order:
 * its count of sized tables (1 byte, at most max_size - 1), the table each
 * size from 2 to max_size reads (1 byte each: 0 for the size-1 costs, else
 * 1 .. the count), the tables (n x n costs each, 4 or 8 bytes as the
 * file's other costs), and per pair the sizes whose graph keeps the edge
 * (1 byte, bit k - 1 for size k). The node and pair annotations (which
 * size fits each entrance, which size-1 paths serve a larger unit) follow
 * from the grid and the clusters in a linear pass and are derived again
 * (cairn__hpa_derive_sizes). */
#include "hpa_format.h"

#include <string.h>

void cairn__hpa_put_sizes(cairn__wbuf *w, const cairn_hpa *h, bool wide) {
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  for (uint32_t k = 0; k < n_clusters; k++) {
    const hpa_cluster *c = &h->clusters[k];
    const hpa_csize *z = &h->csz[k];
    if (!c->n) continue;
    const size_t nn = (size_t)c->n * c->n;
    cairn__put_u8(w, z->ntab);
    for (int32_t s = 2; s <= h->max_size; s++) cairn__put_u8(w, z->tab[s]);
    for (size_t q = 0; q < (size_t)z->ntab * nn; q++) hpa_put_cost(w, z->sd[q], wide);
    cairn__put_bytes(w, z->ke, nn);
  }
}

/* Whether table t of cluster c (read for the sizes that name it, the
 * smallest of them `k`) holds only costs a build could give: 0 from an
 * entrance to itself, and between two that fit k either none or one no
 * cheaper than the size-1 cost (a larger unit never pays less) and within
 * an edge's limit. Pairs with an end that does not fit are never read. */
static bool table_ok(const hpa_cluster *c, const hpa_csize *z, const cairn_cost *t,
                     unsigned k) {
  const uint32_t n = c->n;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; z->cap[i] >= k && j < n; j++) {
      const size_t p = (size_t)i * n + j;
      if (z->cap[j] < k) continue;
      if (i == j ? t[p] != 0
                 : t[p] != CAIRN_COST_INF &&
                       (c->dist[p] == CAIRN_COST_INF || t[p] < c->dist[p] ||
                        t[p] > HPA_EDGE_COST_MAX))
        return false;
    }
  return true;
}

/* Whether every kept-edge bit names a size up to max_size whose table has
 * a cost for the pair, both ends fitting it. */
static bool bits_ok(const cairn_hpa *h, const hpa_cluster *c, const hpa_csize *z) {
  const uint32_t n = c->n;
  for (uint32_t i = 0; i < n; i++)
    for (uint32_t j = 0; j < n; j++) {
      const uint8_t b = z->ke[(size_t)i * n + j];
      if (b & ~(uint8_t)(((1u << h->max_size) - 1u) & ~1u)) return false;
      for (unsigned k = 2; k <= (unsigned)h->max_size; k++)
        if ((b >> (k - 1)) & 1u && (i == j || hpa_dist_k(c, z, i, j, k) == CAIRN_COST_INF))
          return false;
    }
  return true;
}

/* Cluster id's record, its block allocated here. */
static cairn_status read_one(cairn_hpa *h, uint32_t id, cairn__rbuf *r, bool wide,
                             const char *name, cairn_error *err) {
  hpa_cluster *c = &h->clusters[id];
  hpa_csize *z = &h->csz[id];
  const size_t nn = (size_t)c->n * c->n, cost = wide ? 8 : 4;
  const unsigned ntab = cairn__get_u8(r);
  if (r->over || ntab > (unsigned)h->max_size - 1 ||
      !cairn__rbuf_has(r, (uint64_t)ntab * nn, cost))
    return cairn__hpa_fail(err, CAIRN_ERR_PARSE, name, "cluster %lu: %u sized tables",
                           (unsigned long)id, ntab);
  if (!cairn__hpa_sizes_alloc(h, c, z, ntab))
    return cairn__hpa_fail(err, CAIRN_ERR_NOMEM, name, "out of memory");
  bool ok = true;
  for (int32_t s = 2; s <= h->max_size; s++) {
    z->tab[s] = cairn__get_u8(r);
    ok = ok && z->tab[s] <= ntab;
  }
  const uint8_t *d = cairn__get_span(r, (size_t)ntab * nn * cost);
  const uint8_t *ke = cairn__get_span(r, nn);
  if (r->over || !ok)
    return cairn__hpa_fail(err, CAIRN_ERR_PARSE, name, "cluster %lu: sized tables out of range",
                           (unsigned long)id);
  for (size_t q = 0; q < (size_t)ntab * nn; q++) z->sd[q] = hpa_cost_at(d, q, wide);
  memcpy(z->ke, ke, nn);
  for (uint32_t i = 0; i < c->n; i++) z->cap[i] = (uint8_t)hpa_fit(h, c->cell[i]);
  for (unsigned t = 1; t <= ntab && ok; t++) {
    unsigned k = 0; /* the smallest size that reads table t */
    for (int32_t s = (int32_t)h->max_size; s >= 2; s--)
      if (z->tab[s] == t) k = (unsigned)s;
    ok = k && table_ok(c, z, z->sd + (size_t)(t - 1) * nn, k);
  }
  if (!ok || !bits_ok(h, c, z))
    return cairn__hpa_fail(err, CAIRN_ERR_PARSE, name, "cluster %lu: sized costs or edges out "
                           "of range", (unsigned long)id);
  return CAIRN_OK;
}

cairn_status cairn__hpa_read_sizes(cairn_hpa *h, cairn__rbuf *r, bool wide, const char *name,
                                   cairn_error *err) {
  const uint32_t n_clusters = (uint32_t)h->cw * (uint32_t)h->ch;
  for (uint32_t k = 0; k < n_clusters; k++) {
    if (!h->clusters[k].n) continue;
    cairn_status st = read_one(h, k, r, wide, name, err);
    if (st != CAIRN_OK) return st;
  }
  return CAIRN_OK;
}
