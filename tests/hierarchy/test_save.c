/* Saving and loading a hierarchy (cairn_hpa_save, cairn_hpa_load and
 * their file forms): a loaded hierarchy is the built one field by field
 * and answers every query alike (costs, paths, expansions) on maps with
 * two and three levels, with and without landmarks, under a layer, at any
 * thread count, for units of every size up to max_size, and stays so through the same edits and refreshes; a
 * save of a loaded hierarchy gives the bytes it was loaded from. Every
 * truncation and every single flipped bit of a file is refused with
 * CAIRN_ERR_PARSE, a file for another map or layer with
 * CAIRN_ERR_MISMATCH, each with its message; payloads with a forged
 * checksum are refused or load, never crash; sizing with
 * CAIRN_ERR_BUFFER; allocation failures while loading leak nothing and
 * leave *out NULL. */
#include "test_hpa_util.h"

#include "hpa_format.h"

#include <stdio.h>

/* ---- helpers -------------------------------------------------------- */

static cairn_hpa *build_sized(const cairn_grid *g, int32_t cluster, int levels,
                              int32_t block, int32_t landmarks, int32_t max_size) {
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.max_size = max_size;
  o.cluster = cluster;
  o.threads = 1;
  o.levels = levels;
  o.block = block;
  o.landmarks = landmarks;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(g, &o, NULL, &h), CAIRN_OK);
  return h;
}

static cairn_hpa *build_opts(const cairn_grid *g, int32_t cluster, int levels,
                             int32_t block, int32_t landmarks) {
  return build_sized(g, cluster, levels, block, landmarks, 1);
}

/* The saved bytes (malloc'd), sized first. */
static uint8_t *save_bytes(const cairn_hpa *h, size_t *len) {
  size_t n = 0;
  assert_int_equal(cairn_hpa_save(h, NULL, 0, &n), CAIRN_ERR_BUFFER);
  assert_true(n > 0);
  uint8_t *buf = malloc(n);
  assert_non_null(buf);
  size_t got = 0;
  assert_int_equal(cairn_hpa_save(h, buf, n, &got), CAIRN_OK);
  assert_int_equal(got, n);
  *len = n;
  return buf;
}

static cairn_hpa *load_ok(const uint8_t *buf, size_t len, const cairn_grid *g,
                          const cairn_penalty *layer, int threads) {
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.threads = threads;
  cairn_hpa *h = NULL;
  cairn_error err;
  cairn_status st = cairn_hpa_load(buf, len, g, layer, &o, NULL, &h, &err);
  if (st != CAIRN_OK) fail_msg("load: %s (%s)", cairn_status_str(st), err.message);
  assert_non_null(h);
  assert_string_equal(err.message, "");
  return h;
}

static bool starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A refused load: the status, *out NULL, a message naming the input and
 * holding `what`. */
static void refused_load(const uint8_t *buf, size_t len, const cairn_grid *g,
                         const cairn_penalty *layer, cairn_status want, const char *what) {
  cairn_hpa *h = (cairn_hpa *)&h; /* not NULL: the call must clear it */
  cairn_error err;
  cairn_status st = cairn_hpa_load(buf, len, g, layer, NULL, NULL, &h, &err);
  if (st != want)
    fail_msg("load of %zu bytes: %s, wanted %s (%s)", len, cairn_status_str(st),
             cairn_status_str(want), err.message);
  assert_null(h);
  assert_true(starts_with(err.message, "<memory>: "));
  if (what && !strstr(err.message, what)) fail_msg("message '%s' lacks '%s'", err.message, what);
}

/* The same landmark tables on both levels. */
static void assert_same_landmarks(const cairn_hpa *a, const cairn_hpa *b) {
  for (int level = 1; level <= 2; level++) {
    const cairn_graph *ga = level == 1 ? a->graph : a->graph2;
    const cairn_graph *gb = level == 1 ? b->graph : b->graph2;
    if (!ga) {
      assert_null(gb);
      continue;
    }
    tu_assert_same_landmarks(ga, gb);
  }
  assert_int_equal(a->lm_n, b->lm_n);
  assert_int_equal(a->lm_size, b->lm_size);
  if (a->lm_size) assert_memory_equal(a->lm_costs, b->lm_costs, a->lm_size * sizeof *a->lm_costs);
}

/* Under a layer: the same kept edge list and cluster tables. */
static void assert_same_layer_state(const cairn_hpa *a, const cairn_hpa *b) {
  assert_true(a->layer != NULL && b->layer != NULL);
  assert_int_equal(a->refresh_at, b->refresh_at);
  assert_int_equal(a->kept.m, b->kept.m);
  assert_int_equal(a->kept.n, b->kept.n);
  assert_memory_equal(a->kept.e, b->kept.e, a->kept.m * sizeof *a->kept.e);
  uint32_t n_clusters = (uint32_t)a->cw * (uint32_t)a->ch;
  assert_memory_equal(a->kept.seg, b->kept.seg, (n_clusters + 1) * sizeof *a->kept.seg);
  for (uint32_t k = 0; k < n_clusters; k++) {
    const hpa_cluster *ca = &a->clusters[k], *cb = &b->clusters[k];
    assert_int_equal(ca->bdist != NULL, cb->bdist != NULL);
    if (ca->bdist)
      assert_memory_equal(ca->bdist, cb->bdist, (size_t)ca->n * ca->n * sizeof *ca->bdist);
  }
}

/* b (loaded) is a (built) field by field and answers `queries` random
 * queries alike, for each size up to max_size in turn where start and
 * goal fit it (else size 1); ga and gb are their grids (equal costs). */
static void assert_loaded_same(const cairn_hpa *a, const cairn_grid *ga, const cairn_hpa *b,
                               const cairn_grid *gb, uint64_t *rng, int queries) {
  assert_same_hierarchy(a, b);
  assert_same_landmarks(a, b);
  if (a->layer) assert_same_layer_state(a, b);
  cairn_hpa_stats sa, sb;
  cairn_hpa_get_stats(a, &sa);
  cairn_hpa_get_stats(b, &sb);
  assert_int_equal(sa.memory_bytes, sb.memory_bytes);
  assert_int_equal(sa.layered_clusters, sb.layered_clusters);
  assert_int_equal(sa.stale_clusters, sb.stale_clusters);
  assert_true(cairn_grid_fingerprint(ga) == cairn_grid_fingerprint(gb));
  cairn_hpa_query *qa = new_query(), *qb = new_query();
  for (int i = 0; i < queries && cairn_grid_passable(ga); i++) {
    cairn_point s = tu_random_open(rng, ga), t = tu_random_open(rng, ga);
    cairn_hpa_path_opts o = popts(i % 2 ? 0 : -1, i % 3 != 0);
    o.size = 1 + i % a->max_size;
    if (cairn_grid_clearance(ga, s.x, s.y) < o.size || cairn_grid_clearance(ga, t.x, t.y) < o.size)
      o.size = 1;
    cairn_hpa_result ra, rb;
    cairn_status st = cairn_hpa_find(qa, a, s, t, &o, &ra);
    assert_int_equal(cairn_hpa_find(qb, b, s, t, &o, &rb), st);
    assert_true(st == CAIRN_OK || st == CAIRN_NO_PATH);
    assert_same_result(&ra, &rb);
    assert_true(ra.base_cost == rb.base_cost);
    if (st == CAIRN_OK && o.size == 1)
      assert_true(tu_path_cost(ga, ra.path, ra.path_len, s, t, 8) == ra.base_cost);
  }
  cairn_hpa_query_destroy(qa);
  cairn_hpa_query_destroy(qb);
}

/* A map whose west half is walled off: empty clusters and blocks. */
static cairn_grid *half_walled(uint64_t *rng, int w, int h) {
  cairn_grid *g = tu_random_grid(rng, w, h, 15, 2);
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w / 2; x++) assert_int_equal(cairn_grid_set_cost(g, x, y, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(g), CAIRN_OK);
  return g;
}

/* The layer's cells on a new layer (a copy with its own version). */
static cairn_penalty *copy_layer(const cairn_penalty *p, const cairn_grid *g) {
  cairn_penalty *q = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &q), CAIRN_OK);
  for (int32_t y = 0; y < cairn_grid_height(g); y++)
    for (int32_t x = 0; x < cairn_grid_width(g); x++) {
      uint32_t v = cairn_penalty_get(p, x, y);
      if (v == CAIRN_PENALTY_BLOCK)
        assert_int_equal(cairn_penalty_block(q, x, y, 1), CAIRN_OK);
      else if (v)
        assert_int_equal(cairn_penalty_add(q, x, y, v), CAIRN_OK);
    }
  return q;
}

/* The same random penalties and blocks on every layer of ps. */
static void stir_layers(uint64_t *rng, const cairn_grid *g, cairn_penalty **ps, int n,
                        int changes) {
  for (int c = 0; c < changes; c++) {
    cairn_point p = tu_random_open(rng, g);
    bool block = tu_below(rng, 5) == 0;
    int64_t add = (int64_t)(1 + tu_below(rng, 20)) * (int64_t)CAIRN_COST_ONE;
    for (int i = 0; i < n; i++) {
      if (block && cairn_penalty_get(ps[i], p.x, p.y) != CAIRN_PENALTY_BLOCK)
        assert_int_equal(cairn_penalty_block(ps[i], p.x, p.y, 1), CAIRN_OK);
      else if (!block)
        assert_int_equal(cairn_penalty_add(ps[i], p.x, p.y, add), CAIRN_OK);
    }
  }
}

/* The small map whose file the refusal tests take apart: three levels,
 * landmarks, a partial edge cluster. */
static cairn_grid *small_map(void) {
  uint64_t rng = 0x5a7e;
  return tu_random_grid(&rng, 17, 14, 20, 3);
}

static cairn_hpa *small_hpa(const cairn_grid *g) { return build_opts(g, 4, 3, 2, 2); }

/* ---- round trips ---------------------------------------------------- */

typedef struct config {
  int w, h, wall_pct, max_cost;
  int32_t cluster;
  int levels;
  int32_t block, landmarks;
  bool half_walled;
  int32_t max_size; /* 0: 1 */
} config;

static const config configs[] = {
    {64, 48, 20, 1, 8, 2, 0, 0, false, 1},   /* uniform terrain, default landmarks */
    {70, 70, 25, 3, 8, 3, 2, 4, false, 1},   /* uneven, three levels */
    {50, 37, 15, 2, 16, 3, 2, -1, false, 1}, /* no landmarks, partial clusters */
    {61, 45, 10, 1, 4, 3, 3, 16, true, 1},   /* empty clusters and blocks */
    {33, 80, 30, 4, 5, 2, 0, 1, false, 1},
    {64, 48, 8, 1, 8, 2, 0, 0, false, 4},  /* unit sizes 1 to 4 */
    {70, 70, 10, 3, 8, 3, 2, 4, false, 3}, /* sizes, uneven, three levels */
    {61, 45, 10, 1, 4, 3, 3, 16, true, 2}, /* sizes, empty clusters */
};

static cairn_grid *config_grid(const config *c, uint64_t *rng) {
  return c->half_walled ? half_walled(rng, c->w, c->h)
                        : tu_random_grid(rng, c->w, c->h, c->wall_pct, c->max_cost);
}

/* In memory, at 1, 2 and 3 load threads; the loaded one saves the same
 * bytes. */
static void round_trip_memory(void **state) {
  (void)state;
  uint64_t rng = 0x10ad;
  for (size_t i = 0; i < sizeof configs / sizeof *configs; i++) {
    const config *c = &configs[i];
    cairn_grid *g = config_grid(c, &rng);
    cairn_hpa *h = build_sized(g, c->cluster, c->levels, c->block, c->landmarks,
                               c->max_size ? c->max_size : 1);
    size_t len;
    uint8_t *buf = save_bytes(h, &len);
    for (int threads = 1; threads <= 3; threads++) {
      cairn_hpa *l = load_ok(buf, len, g, NULL, threads);
      assert_loaded_same(h, g, l, g, &rng, threads == 1 ? 300 : 60);
      size_t len2;
      uint8_t *again = save_bytes(l, &len2);
      assert_int_equal(len2, len);
      assert_memory_equal(again, buf, len);
      free(again);
      cairn_hpa_destroy(l);
    }
    free(buf);
    cairn_hpa_destroy(h);
    cairn_grid_destroy(g);
  }
}

/* Through a file, written over an older one; no temporary file left. */
static void round_trip_file(void **state) {
  (void)state;
  uint64_t rng = 0xf11e;
  const char *path = "test_save_round.hpa";
  cairn_grid *g = tu_random_grid(&rng, 60, 52, 20, 2);
  cairn_hpa *old = build_opts(g, 16, 2, 0, 2);
  cairn_hpa *h = build_opts(g, 8, 3, 2, 0);
  cairn_error err;
  assert_int_equal(cairn_hpa_save_file(old, path, &err), CAIRN_OK);
  assert_int_equal(cairn_hpa_save_file(h, path, &err), CAIRN_OK);
  assert_string_equal(err.message, "");
  FILE *f = fopen("test_save_round.hpa.tmp", "rb");
  assert_null(f);
  cairn_hpa *l = NULL;
  assert_int_equal(cairn_hpa_load_file(path, g, NULL, NULL, NULL, &l, &err), CAIRN_OK);
  assert_loaded_same(h, g, l, g, &rng, 300);
  size_t len;
  uint8_t *buf = save_bytes(h, &len);
  f = fopen(path, "rb");
  assert_non_null(f);
  uint8_t *disk = malloc(len + 1);
  assert_non_null(disk);
  assert_int_equal(fread(disk, 1, len + 1, f), len);
  fclose(f);
  assert_memory_equal(disk, buf, len);
  free(disk);
  free(buf);
  remove(path);
  cairn_hpa_destroy(l);
  cairn_hpa_destroy(h);
  cairn_hpa_destroy(old);
  cairn_grid_destroy(g);
}

/* The same batches of edits on the built hierarchy and on the loaded one
 * (each on its own grid): the same hierarchy and answers after each. */
static void edits_after_load(void **state) {
  (void)state;
  uint64_t rng = 0xed17;
  for (int v = 0; v < 4; v++) { /* levels 2 and 3, max_size 1, then 3 */
    const int levels = 2 + v % 2;
    cairn_grid *ga = tu_random_grid(&rng, 56, 49, v < 2 ? 20 : 8, 3);
    cairn_grid *gb = copy_grid(ga);
    cairn_hpa *a = build_sized(ga, 8, levels, 2, 4, v < 2 ? 1 : 3);
    size_t len;
    uint8_t *buf = save_bytes(a, &len);
    cairn_hpa *b = load_ok(buf, len, gb, NULL, 2);
    free(buf);
    cairn_point cells[MAX_BATCH];
    uint8_t costs[MAX_BATCH];
    for (int e = 0; e < 12; e++) {
      size_t n = make_batch(&rng, ga, 8, e % B_KINDS, 3, cells, costs);
      assert_int_equal(cairn_hpa_edit(a, ga, cells, costs, n), CAIRN_OK);
      assert_int_equal(cairn_hpa_edit(b, gb, cells, costs, n), CAIRN_OK);
      assert_loaded_same(a, ga, b, gb, &rng, 40);
    }
    cairn_hpa_destroy(a);
    cairn_hpa_destroy(b);
    cairn_grid_destroy(ga);
    cairn_grid_destroy(gb);
  }
}

/* A loaded hierarchy is as fresh as a built one (its grid's version
 * taken at the load) and, like one, refuses after an edit of its grid it
 * was not told of, answering again once told. */
static void stale_after_load(void **state) {
  (void)state;
  uint64_t rng = 0x57a1e;
  cairn_grid *g = tu_random_grid(&rng, 40, 40, 15, 3);
  cairn_hpa *a = build_opts(g, 8, 2, 2, 0);
  size_t len;
  uint8_t *buf = save_bytes(a, &len);
  cairn_hpa_destroy(a);
  /* the grid moved on since the save, cells set back as they were */
  cairn_point c = tu_random_open(&rng, g);
  uint8_t was = cairn_grid_cost(g, c.x, c.y);
  assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, 0), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, was), CAIRN_OK);
  cairn_hpa *b = load_ok(buf, len, g, NULL, 1);
  free(buf);
  cairn_hpa_query *q = new_query();
  cairn_point s = tu_random_open(&rng, g), t = tu_random_open(&rng, g);
  cairn_hpa_path_opts o = popts(-1, 0);
  cairn_hpa_result r;
  cairn_status st = cairn_hpa_find(q, b, s, t, &o, &r);
  assert_true(st == CAIRN_OK || st == CAIRN_NO_PATH);
  assert_int_equal(cairn_grid_set_cost(g, c.x, c.y, 0), CAIRN_OK);
  assert_int_equal(cairn_hpa_find(q, b, s, t, &o, &r), CAIRN_ERR_STATE);
  uint8_t wall = 0;
  assert_int_equal(cairn_hpa_edit(b, g, &c, &wall, 1), CAIRN_OK);
  st = cairn_hpa_find(q, b, s, t, &o, &r);
  assert_true(st == CAIRN_OK || st == CAIRN_NO_PATH);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(b);
  cairn_grid_destroy(g);
}

/* Under a layer: the file loads with a layer of the same cells (another
 * object), not without one or with another; refreshes after the same
 * layer changes act alike; a save waits for the refresh. */
static void layer_round_trip(void **state) {
  (void)state;
  uint64_t rng = 0x1a7e;
  for (int v = 0; v < 4; v++) { /* levels 2 and 3, max_size 1, then 3 */
    const int levels = 2 + v % 2;
    cairn_grid *g = tu_random_grid(&rng, 64, 58, v < 2 ? 18 : 8, 2);
    cairn_hpa *a = build_sized(g, 8, levels, 2, 4, v < 2 ? 1 : 3);
    cairn_penalty *pa = NULL;
    assert_int_equal(cairn_penalty_create(g, NULL, &pa), CAIRN_OK);
    stir_layers(&rng, g, &pa, 1, 60);
    assert_int_equal(cairn_hpa_set_layer(a, pa), CAIRN_OK);
    /* clusters sharing a tile of the layer with its cells are stale until
     * a refresh, and a file holds no stale cluster */
    cairn_hpa_stats st;
    cairn_hpa_get_stats(a, &st);
    size_t len;
    assert_int_equal(cairn_hpa_save(a, NULL, 0, &len),
                     st.stale_clusters ? CAIRN_ERR_STATE : CAIRN_ERR_BUFFER);
    assert_int_equal(cairn_hpa_refresh(a, 0, NULL), CAIRN_OK);
    uint8_t *buf = save_bytes(a, &len);
    refused_load(buf, len, g, NULL, CAIRN_ERR_MISMATCH, "loaded without one");
    cairn_penalty *other = copy_layer(pa, g);
    cairn_point p = tu_random_open(&rng, g);
    assert_int_equal(cairn_penalty_add(other, p.x, p.y, 1), CAIRN_OK);
    refused_load(buf, len, g, other, CAIRN_ERR_MISMATCH, "this layer's is");
    cairn_penalty_destroy(other);
    cairn_penalty *pb = copy_layer(pa, g);
    cairn_hpa *b = load_ok(buf, len, g, pb, 1);
    free(buf);
    assert_loaded_same(a, g, b, g, &rng, 200);
    cairn_penalty *both[2] = {pa, pb};
    for (int round = 0; round < 4; round++) {
      stir_layers(&rng, g, both, 2, 8);
      size_t n = 0;
      cairn_hpa_get_stats(a, &st);
      assert_true(st.stale_clusters > 0);
      assert_int_equal(cairn_hpa_save(a, NULL, 0, &n), CAIRN_ERR_STATE);
      uint32_t left_a, left_b;
      assert_int_equal(cairn_hpa_refresh(a, 5, &left_a), CAIRN_OK);
      assert_int_equal(cairn_hpa_refresh(b, 5, &left_b), CAIRN_OK);
      assert_int_equal(left_a, left_b);
      if (left_a) continue;
      assert_loaded_same(a, g, b, g, &rng, 60);
    }
    assert_int_equal(cairn_hpa_refresh(a, 0, NULL), CAIRN_OK);
    assert_int_equal(cairn_hpa_refresh(b, 0, NULL), CAIRN_OK);
    assert_loaded_same(a, g, b, g, &rng, 100);
    size_t la, lb;
    uint8_t *sa = save_bytes(a, &la), *sb = save_bytes(b, &lb);
    assert_int_equal(la, lb);
    assert_memory_equal(sa, sb, la);
    free(sa);
    free(sb);
    /* a file without a layer refuses one */
    assert_int_equal(cairn_hpa_set_layer(a, NULL), CAIRN_OK);
    buf = save_bytes(a, &len);
    refused_load(buf, len, g, pa, CAIRN_ERR_MISMATCH, "saved without a cost layer");
    free(buf);
    cairn_hpa_destroy(a);
    cairn_hpa_destroy(b);
    cairn_penalty_destroy(pa);
    cairn_penalty_destroy(pb);
    cairn_grid_destroy(g);
  }
}

/* ---- refusals ------------------------------------------------------- */

/* Every length short of the whole: CAIRN_ERR_PARSE, "truncated". */
static void every_truncation(void **state) {
  (void)state;
  cairn_grid *g = small_map();
  cairn_hpa *h = small_hpa(g);
  size_t len;
  uint8_t *buf = save_bytes(h, &len);
  print_message("the small file: %zu bytes\n", len);
  assert_true(len > 1000 && len < 16384); /* small: each of its truncations is loaded */
  refused_load(buf, 10, g, NULL, CAIRN_ERR_PARSE, "truncated: 10 of at least 88 bytes");
  char want[64];
  snprintf(want, sizeof want, "truncated: %zu of %zu bytes", len - 1, len);
  refused_load(buf, len - 1, g, NULL, CAIRN_ERR_PARSE, want);
  for (size_t n = 0; n < len; n++) refused_load(buf, n, g, NULL, CAIRN_ERR_PARSE, "truncated");
  refused_load(NULL, 0, g, NULL, CAIRN_ERR_PARSE, "truncated: 0 of");
  /* and one byte too many */
  uint8_t *more = malloc(len + 1);
  assert_non_null(more);
  memcpy(more, buf, len);
  more[len] = 0;
  refused_load(more, len + 1, g, NULL, CAIRN_ERR_PARSE, "where the header says");
  free(more);
  free(buf);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* Every single flipped bit: CAIRN_ERR_PARSE (the magic, the version and
 * the size have their own messages, the rest is the checksum's). */
static void every_bit_flip(void **state) {
  (void)state;
  cairn_grid *g = small_map();
  cairn_hpa *h = small_hpa(g);
  size_t len;
  uint8_t *buf = save_bytes(h, &len);
  for (size_t bit = 0; bit < 8 * len; bit++) {
    buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    size_t at = bit / 8;
    const char *what = at < 8 ? "wrong magic" : at < 12 ? "format version"
                       : at < 16 || at >= 24 ? "checksum mismatch" : NULL;
    refused_load(buf, len, g, NULL, CAIRN_ERR_PARSE, what);
    buf[bit / 8] ^= (uint8_t)(1u << (bit % 8));
  }
  cairn_hpa *l = load_ok(buf, len, g, NULL, 1); /* all flipped back */
  cairn_hpa_destroy(l);
  free(buf);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* Rewrites the checksum after a change, as a forger would. */
static void forge(uint8_t *buf, size_t len) {
  uint64_t sum = cairn__checksum(buf, len - 8);
  for (int i = 0; i < 8; i++) buf[len - 8 + (size_t)i] = (uint8_t)(sum >> (8 * i));
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* ---- routes ---------------------------------------------------------- */

/* A cache of g's with the routes of 30 units sent to one goal. */
static cairn_path_cache *cache_with_routes(const cairn_grid *g, uint64_t *rng,
                                           cairn_point *goal) {
  cairn_path_cache *pc = NULL;
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &pc), CAIRN_OK);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  *goal = tu_random_open(rng, g);
  cairn_point path[4096];
  cairn_cached_path got;
  for (int i = 0; i < 30; i++) {
    cairn_status st = cairn_path_cache_find(pc, s, tu_random_open(rng, g), *goal, path, 4096, &got);
    assert_true(st == CAIRN_OK || st == CAIRN_NO_PATH);
  }
  cairn_search_destroy(s);
  cairn_path_cache_stats ps;
  cairn_path_cache_get_stats(pc, &ps);
  assert_true(ps.routes > 0);
  return pc;
}

/* The bytes of a cache's routes (malloc'd). */
static uint8_t *route_bytes(const cairn_path_cache *pc, size_t *len) {
  assert_int_equal(cairn_path_cache_save(pc, NULL, 0, len), CAIRN_ERR_BUFFER);
  uint8_t *buf = malloc(*len);
  assert_non_null(buf);
  assert_int_equal(cairn_path_cache_save(pc, buf, *len, len), CAIRN_OK);
  return buf;
}

/* A cache's routes saved with the hierarchy: the hierarchy loads as if
 * they were not there, the routes load into another cache byte for byte
 * and answer a unit on them by walking; bytes without routes empty a
 * cache; truncated, flipped, forged or foreign routes are refused and the
 * cache keeps its routes; a cache of another grid is not saved. */
static void routes_ride_along(void **state) {
  (void)state;
  uint64_t rng = 0x2073;
  cairn_grid *g = tu_random_grid(&rng, 70, 50, 22, 3);
  cairn_hpa *h = build_opts(g, 8, 2, 0, 4);
  cairn_point goal;
  cairn_path_cache *pc = cache_with_routes(g, &rng, &goal);
  size_t plain_len, len, rlen;
  uint8_t *plain = save_bytes(h, &plain_len);
  uint8_t *want = route_bytes(pc, &rlen);
  assert_int_equal(cairn_hpa_save_with_routes(h, pc, NULL, 0, &len), CAIRN_ERR_BUFFER);
  assert_int_equal(len, plain_len + rlen + 8);
  uint8_t *buf = malloc(len);
  assert_non_null(buf);
  assert_int_equal(cairn_hpa_save_with_routes(h, pc, buf, len, &len), CAIRN_OK);
  /* the hierarchy: the same as one saved alone */
  cairn_hpa *l = load_ok(buf, len, g, NULL, 1);
  assert_loaded_same(h, g, l, g, &rng, 100);
  cairn_hpa_destroy(l);
  /* the routes, into a fresh cache */
  cairn_path_cache *back = NULL;
  assert_int_equal(cairn_path_cache_create(g, NULL, NULL, &back), CAIRN_OK);
  cairn_error err;
  assert_int_equal(cairn_hpa_load_routes(buf, len, back, &err), CAIRN_OK);
  size_t blen;
  uint8_t *got = route_bytes(back, &blen);
  assert_int_equal(blen, rlen);
  assert_memory_equal(got, want, rlen);
  free(got);
  cairn_search *s = NULL;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  cairn_point path[4096];
  cairn_cached_path cp;
  assert_int_equal(cairn_path_cache_find(back, s, goal, goal, path, 4096, &cp), CAIRN_OK);
  assert_int_equal(cp.how, CAIRN_CACHE_WALKED);
  assert_int_equal(cp.expanded, 0);
  cairn_search_destroy(s);
  /* refusals: the cache keeps its routes */
  uint8_t *bad = malloc(len);
  assert_non_null(bad);
  for (size_t cut = plain_len - 8; cut < len; cut += 7) {
    assert_int_equal(cairn_hpa_load_routes(buf, cut, back, &err), CAIRN_ERR_PARSE);
    assert_true(starts_with(err.message, "<memory>: "));
  }
  memcpy(bad, buf, len);
  bad[plain_len] ^= 0x10; /* inside the routes, checksum forged */
  forge(bad, len);
  assert_int_equal(cairn_hpa_load_routes(bad, len, back, &err), CAIRN_ERR_PARSE);
  assert_non_null(strstr(err.message, "routes:"));
  memcpy(bad, buf, len);
  bad[len - 16 + 5] = 0x7f; /* the routes' size, past the file */
  forge(bad, len);
  assert_int_equal(cairn_hpa_load_routes(bad, len, back, &err), CAIRN_ERR_PARSE);
  assert_non_null(strstr(err.message, "bad routes"));
  refused_load(bad, len, g, NULL, CAIRN_ERR_PARSE, "bad routes");
  /* the routes' flag with no room for their size (a file of the header,
   * 7 bytes and the checksum, size and sum forged): refused, not read
   * before the start of the file (a fuzzer's find) */
  const size_t tiny = HPA_HEADER_BYTES + 7 + HPA_SUM_BYTES;
  memset(bad + HPA_HEADER_BYTES, 0, tiny - HPA_HEADER_BYTES);
  for (int i = 0; i < 8; i++) bad[16 + i] = (uint8_t)(tiny >> (8 * i));
  forge(bad, tiny);
  assert_int_equal(cairn_hpa_load_routes(bad, tiny, back, &err), CAIRN_ERR_PARSE);
  assert_non_null(strstr(err.message, "bad routes: no room"));
  refused_load(bad, tiny, g, NULL, CAIRN_ERR_PARSE, "bad routes: no room");
  got = route_bytes(back, &blen);
  assert_memory_equal(got, want, rlen);
  free(got);
  /* another map's cache: not saved; not loaded into */
  cairn_grid *other = tu_random_grid(&rng, 70, 50, 22, 3);
  cairn_path_cache *foreign = NULL;
  assert_int_equal(cairn_path_cache_create(other, NULL, NULL, &foreign), CAIRN_OK);
  assert_int_equal(cairn_hpa_save_with_routes(h, foreign, NULL, 0, &blen), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_load_routes(buf, len, foreign, &err), CAIRN_ERR_MISMATCH);
  /* bytes without routes empty a cache */
  assert_int_equal(cairn_hpa_load_routes(plain, plain_len, back, &err), CAIRN_OK);
  cairn_path_cache_stats ps;
  cairn_path_cache_get_stats(back, &ps);
  assert_int_equal(ps.routes, 0);
  /* through a file */
  const char *path_name = "test_save_routes.hpa";
  assert_int_equal(cairn_hpa_save_file_with_routes(h, pc, path_name, &err), CAIRN_OK);
  assert_int_equal(cairn_hpa_load_file_routes(path_name, back, &err), CAIRN_OK);
  got = route_bytes(back, &blen);
  assert_memory_equal(got, want, rlen);
  free(got);
  l = NULL;
  assert_int_equal(cairn_hpa_load_file(path_name, g, NULL, NULL, NULL, &l, &err), CAIRN_OK);
  cairn_hpa_destroy(l);
  remove(path_name);
  assert_int_equal(cairn_hpa_load_file_routes(path_name, back, &err), CAIRN_ERR_IO);
  assert_true(starts_with(err.message, path_name));
  assert_int_equal(cairn_hpa_load_routes(buf, len, NULL, &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_save_with_routes(h, NULL, NULL, 0, &blen), CAIRN_ERR_ARG);
  cairn_path_cache_destroy(foreign);
  cairn_grid_destroy(other);
  cairn_path_cache_destroy(back);
  cairn_path_cache_destroy(pc);
  free(bad);
  free(buf);
  free(want);
  free(plain);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* Another version; another map (one cell, or its size); another file. */
static void version_and_map(void **state) {
  (void)state;
  cairn_grid *g = small_map();
  cairn_hpa *h = small_hpa(g);
  size_t len;
  uint8_t *buf = save_bytes(h, &len);
  uint8_t *copy = malloc(len);
  assert_non_null(copy);
  memcpy(copy, buf, len);
  put32(copy + 8, CAIRN_HPA_FORMAT_VERSION + 1);
  forge(copy, len);
  char want[160];
  snprintf(want, sizeof want, "format version %d, this build reads %d",
           CAIRN_HPA_FORMAT_VERSION + 1, CAIRN_HPA_FORMAT_VERSION);
  refused_load(copy, len, g, NULL, CAIRN_ERR_PARSE, want);
  memcpy(copy, "CAIRNMAP", 8);
  refused_load(copy, len, g, NULL, CAIRN_ERR_PARSE, "not a cairn hierarchy");
  const char *text = "type octile\nheight 1\nwidth 1\nmap\n.\n";
  refused_load((const uint8_t *)text, strlen(text), g, NULL, CAIRN_ERR_PARSE, "wrong magic");
  free(copy);
  /* one cell changed */
  cairn_grid *other = copy_grid(g);
  cairn_point p = pt(3, 4);
  assert_int_equal(cairn_grid_set_cost(other, p.x, p.y, cairn_grid_cost(g, p.x, p.y) == 1 ? 2 : 1),
                   CAIRN_OK);
  snprintf(want, sizeof want, "made for a 17x14 map with fingerprint %016llx, this map is 17x14",
           (unsigned long long)cairn_grid_fingerprint(g));
  refused_load(buf, len, other, NULL, CAIRN_ERR_MISMATCH, want);
  cairn_grid_destroy(other);
  /* another size */
  uint64_t rng = 9;
  other = tu_random_grid(&rng, 14, 17, 20, 3);
  refused_load(buf, len, other, NULL, CAIRN_ERR_MISMATCH, "this map is 14x17");
  cairn_grid_destroy(other);
  free(buf);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* Where node v's first stored edge target lies in a save of h (no layer,
 * 4-byte costs): after the header, every cluster and the degrees. */
static size_t target_at(const cairn_hpa *h, uint32_t v) {
  size_t at = HPA_HEADER_BYTES;
  for (uint32_t k = 0; k < (uint32_t)h->cw * (uint32_t)h->ch; k++) {
    const hpa_cluster *c = &h->clusters[k];
    at += 7 + 2 * (size_t)c->n + 6 * (size_t)c->n * c->n + c->n_steps;
  }
  assert_true(cairn_graph_neighbours(h->graph, v, NULL, NULL) > 0);
  size_t before = 0;
  for (uint32_t u = 0; u < v; u++) before += cairn_graph_neighbours(h->graph, u, NULL, NULL);
  return at + 4 * (size_t)h->n_nodes + 4 * before;
}

/* Where level-2 node x's first stored edge target lies in a save of h
 * (len bytes, 4-byte costs): the level-2 rows end where the level-2
 * landmarks, the last section, begin. */
static size_t target2_at(const cairn_hpa *h, size_t len, uint32_t x) {
  const cairn_graph *g = h->graph2;
  const size_t k = cairn_graph_landmarks(g), n = cairn_graph_nodes(g);
  const size_t end = len - 8 - (4 + 4 * k + 4 * k * n);
  size_t before = 0;
  for (uint32_t u = x; u < n; u++) before += cairn_graph_neighbours(g, u, NULL, NULL);
  assert_true(cairn_graph_neighbours(g, x, NULL, NULL) > 0);
  return end - 4 * before;
}

/* The sizes' section behind a forged checksum (max_size 3): the last
 * cluster's count of tables out of range, a kept-edge bit for a size past
 * max_size, one from an entrance to itself, a sized cost below the size-1
 * one: each refused with CAIRN_ERR_PARSE naming the cluster; the intact
 * file loads. */
static void forged_sizes(void **state) {
  (void)state;
  uint64_t rng = 0x512e;
  cairn_grid *g = tu_random_grid(&rng, 40, 36, 8, 2);
  cairn_hpa *h = build_sized(g, 8, 2, 0, 2, 3);
  size_t len;
  uint8_t *buf = save_bytes(h, &len);
  cairn_hpa_destroy(load_ok(buf, len, g, NULL, 1));
  uint32_t last = (uint32_t)h->cw * (uint32_t)h->ch;
  while (!h->clusters[last - 1].n) last--;
  const hpa_cluster *c = &h->clusters[last - 1];
  const size_t nn = (size_t)c->n * c->n, cost = (buf[12] & 2) ? 8 : 4;
  const size_t ke = len - 8 - nn, tables = ke - (size_t)h->csz[last - 1].ntab * nn * cost;
  const size_t ntab = tables - 2 - 1; /* the tab bytes of sizes 2 and 3 */
  char want[64];
  snprintf(want, sizeof want, "cluster %u: ", last - 1);
  uint8_t *copy = malloc(len);
  assert_non_null(copy);
  struct {
    size_t at;
    uint8_t value;
  } named[] = {{ntab, 3}, {ke, 0x08}, {ke, 0x02}};
  for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
    memcpy(copy, buf, len);
    copy[named[i].at] = named[i].value;
    forge(copy, len);
    refused_load(copy, len, g, NULL, CAIRN_ERR_PARSE, want);
  }
  /* a size-2 cost below the size-1 one, where the cluster has a table */
  bool tried = false;
  for (uint32_t k = 0; k < last && !tried; k++) {
    const hpa_cluster *d = &h->clusters[k];
    const hpa_csize *dz = &h->csz[k];
    if (!dz->ntab) continue;
    /* find its table: walk the sizes' section back from its end */
    size_t at, end = len - 8;
    for (uint32_t j = last; j-- > k;) {
      const hpa_cluster *e = &h->clusters[j];
      if (!e->n) continue;
      size_t enn = (size_t)e->n * e->n;
      end -= enn + (size_t)h->csz[j].ntab * enn * cost + 3;
    }
    at = end + 3; /* its first table */
    size_t pair = SIZE_MAX;
    for (size_t q = 0; q < (size_t)d->n * d->n && pair == SIZE_MAX && dz->tab[2] == 1; q++)
      if (q / d->n != q % d->n && dz->cap[q / d->n] >= 2 && dz->cap[q % d->n] >= 2 &&
          dz->sd[q] != CAIRN_COST_INF)
        pair = q;
    if (pair == SIZE_MAX) continue;
    memcpy(copy, buf, len);
    for (size_t b = 0; b < cost; b++) copy[at + pair * cost + b] = 0;
    copy[at + pair * cost] = 1; /* a cost of 1/65536 of a step */
    forge(copy, len);
    snprintf(want, sizeof want, "cluster %u: ", k);
    refused_load(copy, len, g, NULL, CAIRN_ERR_PARSE, want);
    tried = true;
  }
  assert_true(tried);
  free(copy);
  free(buf);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* Changes behind a forged checksum: each named one is refused with
 * CAIRN_ERR_PARSE; random ones are refused or load, and what loads
 * answers queries and destroys cleanly (AddressSanitizer watches). */
static void forged_payloads(void **state) {
  (void)state;
  cairn_grid *g = small_map();
  cairn_hpa *h = small_hpa(g);
  size_t len;
  uint8_t *buf = save_bytes(h, &len);
  uint8_t *copy = malloc(len + 1);
  assert_non_null(copy);
  struct {
    size_t at;
    uint8_t value;
    const char *what;
  } named[] = {
      {12, 8, "bad header"},     /* an unknown flag */
      {40, 3, "bad header"},     /* cluster side 3 */
      {44, 4, "bad header"},     /* four levels */
      {71, 0x7f, "bad header"},  /* more nodes than cells */
      {76, 9, "bad header"},     /* a largest unit size of 9 */
      {76, 0, "bad header"},     /* a largest unit size of 0 */
      {80, 0xff, "cluster 0"},   /* its entrance count */
      {82, 2, "cluster 0"},      /* an unknown cluster flag */
  };
  for (size_t i = 0; i < sizeof named / sizeof *named; i++) {
    memcpy(copy, buf, len);
    copy[named[i].at] = named[i].value;
    forge(copy, len);
    refused_load(copy, len, g, NULL, CAIRN_ERR_PARSE, named[i].what);
  }
  /* the level-1 graph's rows: an edge to its own node, to no node, and
   * to a node neither in its cluster nor a step away */
  uint32_t from = 0;
  while (!cairn_graph_neighbours(h->graph, from, NULL, NULL)) from++;
  const uint32_t far_node = h->clusters[(uint32_t)h->cw * (uint32_t)h->ch - 1].first;
  const uint32_t bad_to[] = {from, h->n_nodes, far_node};
  for (size_t i = 0; i < sizeof bad_to / sizeof *bad_to; i++) {
    memcpy(copy, buf, len);
    put32(copy + target_at(h, from), bad_to[i]);
    forge(copy, len);
    char want[96];
    snprintf(want, sizeof want, "the level-1 graph: no edge can join node %u to node %u",
             (unsigned)from, (unsigned)bad_to[i]);
    refused_load(copy, len, g, NULL, CAIRN_ERR_PARSE, want);
  }
  /* the level-2 graph's rows: the same three */
  assert_int_equal(h->levels, 3);
  from = 0;
  while (!cairn_graph_neighbours(h->graph2, from, NULL, NULL)) from++;
  const uint32_t bad_to2[] = {from, h->n2, h->blocks[(uint32_t)h->bw * (uint32_t)h->bh - 1].first};
  for (size_t i = 0; i < sizeof bad_to2 / sizeof *bad_to2; i++) {
    memcpy(copy, buf, len);
    put32(copy + target2_at(h, len, from), bad_to2[i]);
    forge(copy, len);
    char want[96];
    snprintf(want, sizeof want, "the level-2 graph: no edge can join node %u to node %u",
             (unsigned)from, (unsigned)bad_to2[i]);
    refused_load(copy, len, g, NULL, CAIRN_ERR_PARSE, want);
  }
  /* a byte past the payload, the size and checksum made to fit */
  memcpy(copy, buf, len - 8);
  copy[len - 8] = 0;
  put32(copy + 16, (uint32_t)len + 1);
  forge(copy, len + 1);
  refused_load(copy, len + 1, g, NULL, CAIRN_ERR_PARSE, "left after the payload");
  /* anything in the payload */
  uint64_t rng = 0xf0f0;
  int loaded = 0;
  cairn_hpa_query *q = new_query();
  for (int t = 0; t < 3000; t++) {
    memcpy(copy, buf, len);
    int changes = 1 + (int)tu_below(&rng, 3);
    for (int c = 0; c < changes; c++) {
      size_t at = HPA_HEADER_BYTES + tu_below(&rng, (uint32_t)(len - HPA_HEADER_BYTES - 8));
      uint32_t v = tu_below(&rng, 2) ? (uint32_t)tu_rand(&rng) : copy[at] ^ (1u << tu_below(&rng, 8));
      copy[at] = (uint8_t)v;
    }
    forge(copy, len);
    cairn_hpa *l = NULL;
    cairn_error err;
    cairn_status st = cairn_hpa_load(copy, len, g, NULL, NULL, NULL, &l, &err);
    if (st != CAIRN_OK) {
      assert_int_equal(st, CAIRN_ERR_PARSE);
      assert_null(l);
      continue;
    }
    loaded++;
    for (int k = 0; k < 5; k++) {
      cairn_hpa_result r;
      cairn_status qs = cairn_hpa_find(q, l, tu_random_open(&rng, g), tu_random_open(&rng, g),
                                       NULL, &r);
      assert_true(qs == CAIRN_OK || qs == CAIRN_NO_PATH || qs < 0);
    }
    cairn_hpa_destroy(l);
  }
  print_message("forged payloads: %d of 3000 loaded\n", loaded);
  cairn_hpa_query_destroy(q);
  free(copy);
  free(buf);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* ---- sizing, arguments, state --------------------------------------- */

static void buffer_sizing(void **state) {
  (void)state;
  cairn_grid *g = small_map();
  cairn_hpa *h = small_hpa(g);
  size_t len = 0;
  assert_int_equal(cairn_hpa_save(h, NULL, 0, &len), CAIRN_ERR_BUFFER);
  uint8_t *buf = malloc(len + 16);
  assert_non_null(buf);
  memset(buf, 0xab, len + 16);
  size_t got = 0;
  assert_int_equal(cairn_hpa_save(h, buf, len - 1, &got), CAIRN_ERR_BUFFER);
  assert_int_equal(got, len);
  for (size_t i = 0; i < len + 16; i++) assert_int_equal(buf[i], 0xab); /* untouched */
  assert_int_equal(cairn_hpa_save(h, buf, len + 16, &got), CAIRN_OK);
  assert_int_equal(got, len);
  assert_int_equal(buf[len], 0xab);
  assert_int_equal(cairn_hpa_save(NULL, buf, len, &got), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_save(h, buf, len, NULL), CAIRN_ERR_ARG);
  /* a stale hierarchy (a failed edit) saves nothing */
  h->stale = true;
  assert_int_equal(cairn_hpa_save(h, buf, len, &got), CAIRN_ERR_STATE);
  cairn_error err;
  assert_int_equal(cairn_hpa_save_file(h, "test_save_stale.hpa", &err), CAIRN_ERR_STATE);
  assert_non_null(strstr(err.message, "test_save_stale.hpa: "));
  assert_null(fopen("test_save_stale.hpa", "rb"));
  h->stale = false;
  free(buf);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

static void bad_arguments(void **state) {
  (void)state;
  cairn_grid *g = small_map();
  cairn_hpa *h = small_hpa(g);
  size_t len;
  uint8_t *buf = save_bytes(h, &len);
  cairn_hpa *l = NULL;
  cairn_error err;
  assert_int_equal(cairn_hpa_load(buf, len, g, NULL, NULL, NULL, NULL, &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_load(buf, len, NULL, NULL, NULL, NULL, &l, &err), CAIRN_ERR_ARG);
  assert_null(l);
  assert_int_equal(cairn_hpa_load(NULL, 5, g, NULL, NULL, NULL, &l, NULL), CAIRN_ERR_ARG);
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.threads = -1;
  assert_int_equal(cairn_hpa_load(buf, len, g, NULL, &o, NULL, &l, &err), CAIRN_ERR_ARG);
  o.threads = CAIRN_JOBS_MAX_WORKERS + 1;
  assert_int_equal(cairn_hpa_load(buf, len, g, NULL, &o, NULL, &l, &err), CAIRN_ERR_ARG);
  uint64_t rng = 1;
  cairn_grid *other = tu_random_grid(&rng, 5, 5, 0, 1);
  cairn_penalty *p = NULL;
  assert_int_equal(cairn_penalty_create(other, NULL, &p), CAIRN_OK);
  assert_int_equal(cairn_hpa_load(buf, len, g, p, NULL, NULL, &l, &err), CAIRN_ERR_ARG);
  assert_null(l);
  cairn_penalty_destroy(p);
  cairn_grid_destroy(other);
  /* files */
  assert_int_equal(cairn_hpa_load_file("no_such_dir_cairn/x.hpa", g, NULL, NULL, NULL, &l, &err),
                   CAIRN_ERR_IO);
  assert_true(starts_with(err.message, "no_such_dir_cairn/x.hpa: cannot open"));
  assert_null(l);
  assert_int_equal(cairn_hpa_load_file(NULL, g, NULL, NULL, NULL, &l, &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_save_file(h, "no_such_dir_cairn/x.hpa", &err), CAIRN_ERR_IO);
  assert_true(starts_with(err.message, "no_such_dir_cairn/x.hpa: cannot write"));
  assert_int_equal(cairn_hpa_save_file(NULL, "x.hpa", &err), CAIRN_ERR_ARG);
  assert_int_equal(cairn_hpa_save_file(h, NULL, &err), CAIRN_ERR_ARG);
  /* a file that is no hierarchy names itself */
  FILE *f = fopen("test_save_junk.hpa", "wb");
  assert_non_null(f);
  fputs("hello", f);
  fclose(f);
  assert_int_equal(cairn_hpa_load_file("test_save_junk.hpa", g, NULL, NULL, NULL, &l, &err),
                   CAIRN_ERR_PARSE);
  assert_string_equal(err.message, "test_save_junk.hpa: not a cairn hierarchy (wrong magic)");
  /* an empty file cannot be mapped: it is read, and found short */
  f = fopen("test_save_junk.hpa", "wb");
  assert_non_null(f);
  fclose(f);
  assert_int_equal(cairn_hpa_load_file("test_save_junk.hpa", g, NULL, NULL, NULL, &l, &err),
                   CAIRN_ERR_PARSE);
  assert_true(starts_with(err.message, "test_save_junk.hpa: truncated"));
  assert_null(l);
  remove("test_save_junk.hpa");
  free(buf);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

/* ---- allocation failures -------------------------------------------- */

typedef struct oom_load {
  const uint8_t *buf;
  size_t len;
  const cairn_grid *g;
  const char *path; /* load the file instead, when set */
  int threads;
} oom_load;

static cairn_status load_under(void *ctx, const cairn_allocator *al) {
  const oom_load *o = ctx;
  cairn_hpa_opts opts = cairn_hpa_defaults();
  opts.threads = o->threads;
  cairn_hpa *h = (cairn_hpa *)&h;
  cairn_error err;
  cairn_status st = o->path ? cairn_hpa_load_file(o->path, o->g, NULL, &opts, al, &h, &err)
                            : cairn_hpa_load(o->buf, o->len, o->g, NULL, &opts, al, &h, &err);
  if (st != CAIRN_OK) {
    assert_null(h);
    assert_non_null(strstr(err.message, "out of memory"));
    return st;
  }
  cairn_hpa_destroy(h);
  return st;
}

static void oom_while_loading(void **state) {
  (void)state;
  cairn_grid *g = small_map();
  cairn_hpa *h = small_hpa(g);
  size_t len;
  uint8_t *buf = save_bytes(h, &len);
  oom_load o = {buf, len, g, NULL, 1};
  tu_oom_check("hierarchy load", load_under, &o, 40);
  o.threads = 2;
  tu_oom_check("hierarchy load, 2 threads", load_under, &o, 40);
  o.path = "test_save_oom.hpa";
  o.threads = 1;
  cairn_error err;
  assert_int_equal(cairn_hpa_save_file(h, o.path, &err), CAIRN_OK);
  tu_oom_check("hierarchy load_file", load_under, &o, 40);
  remove(o.path);
  free(buf);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(round_trip_memory),
      cmocka_unit_test(round_trip_file),
      cmocka_unit_test(edits_after_load),
      cmocka_unit_test(stale_after_load),
      cmocka_unit_test(layer_round_trip),
      cmocka_unit_test(every_truncation),
      cmocka_unit_test(every_bit_flip),
      cmocka_unit_test(version_and_map),
      cmocka_unit_test(forged_payloads),
      cmocka_unit_test(forged_sizes),
      cmocka_unit_test(buffer_sizing),
      cmocka_unit_test(bad_arguments),
      cmocka_unit_test(routes_ride_along),
      cmocka_unit_test(oom_while_loading),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
