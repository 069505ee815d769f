/* Private to the hierarchy module: the layout of a saved hierarchy
 * (docs/hierarchy.md, "The file format"), shared by its writer
 * (hpa_save.c) and its reader (hpa_load.c).
 *
 * The header's fields, in file order, all little-endian: the magic (8
 * bytes), the format version, flags, the file's size (u64, the checksum
 * included), the map's width and height, its fingerprint (u64), the
 * cluster side, levels, block side, landmarks, the layer's fingerprint
 * (u64), where the next refresh starts, the level-1 and level-2 node
 * counts, the largest unit size (u32 unless said). Then each cluster,
 * without a layer the level-1 graph's rows, the level-1 landmarks, with
 * three levels each block, the level-2 graph's rows and the level-2
 * landmarks, with a largest unit size above 1 the sizes' section
 * (hpa_sizes_io.c); with HPA_FLAG_ROUTES a path cache's saved routes
 * (cairn_path_cache_save's bytes) and their size (u64); and the checksum
 * of everything before it. */
#ifndef CAIRN_HPA_FORMAT_H
#define CAIRN_HPA_FORMAT_H

#include "hpa_internal.h"

#define HPA_MAGIC "CAIRNHPA" /* its 8 bytes, without the NUL */

enum {
  HPA_MAGIC_BYTES = 8,
  HPA_HEADER_BYTES = 80, /* magic to max_size */
  HPA_SUM_BYTES = 8,     /* the checksum after the payload */
  HPA_FLAG_LAYER = 1,    /* saved under a cost layer */
  HPA_FLAG_WIDE = 2,     /* costs take 8 bytes (else 4) */
  HPA_FLAG_ROUTES = 4,   /* a path cache's routes follow the payload */
  HPA_FLAGS = 7,
  HPA_ROUTES_LEN_BYTES = 8, /* the routes' size, just before the checksum */
  HPA_CLUSTER_BDIST = 1  /* a cluster's terrain-only table follows */
};

/* The largest cost an abstract edge may have: the graph's limit of 1e9
 * straight steps (a build whose costs pass it fails too). */
#define HPA_EDGE_COST_MAX ((cairn_cost)1000000000 * CAIRN_COST_ONE)

/* The header's fields, in file order. */
typedef struct hpa_header {
  uint32_t version, flags;
  uint64_t bytes; /* the whole file, checksum included */
  uint32_t width, height;
  uint64_t map_fp;
  uint32_t cs, levels, bs, landmarks;
  uint64_t layer_fp;
  uint32_t refresh_at, nodes, nodes2;
  uint32_t max_size; /* largest unit size (cairn_hpa_opts.max_size) */
} hpa_header;

/* Costs take 4 bytes (UINT32_MAX for CAIRN_COST_INF) when every one in
 * the file fits, else 8 (HPA_FLAG_WIDE). */
static inline bool hpa_narrow_cost(cairn_cost c) {
  return c == CAIRN_COST_INF || c < UINT32_MAX;
}

static inline void hpa_put_cost(cairn__wbuf *w, cairn_cost c, bool wide) {
  if (wide)
    cairn__put_u64(w, c);
  else
    cairn__put_u32(w, c == CAIRN_COST_INF ? UINT32_MAX : (uint32_t)c);
}

/* Cost k of an array of them at p. */
static inline cairn_cost hpa_cost_at(const uint8_t *p, size_t k, bool wide) {
  if (wide) return cairn__le64(p + 8 * k);
  uint32_t v = cairn__le32(p + 4 * k);
  return v == UINT32_MAX ? CAIRN_COST_INF : v;
}

/* The layer's fingerprint: cairn's hash (cairn_save.h) over the size
 * (4-byte little-endian each) and every cell's penalty, 4 bytes
 * little-endian, in row order, as cairn_grid_fingerprint hashes costs. */
uint64_t cairn__hpa_layer_fingerprint(const cairn_penalty *p, int32_t w, int32_t h);

/* Fills err (when not NULL) with "name: ..." and returns st. */
cairn_status cairn__hpa_fail(cairn_error *err, cairn_status st, const char *name,
                             const char *fmt, ...) CAIRN_PRINTF(4, 5);
/* Empties err (when not NULL). */
void cairn__hpa_clear_error(cairn_error *err);

#endif
