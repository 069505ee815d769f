/* libFuzzer target: any bytes as a saved hierarchy (cairn_hpa_load) for a
 * fixed 32 x 32 map built here (walls, uneven terrain), loaded without a
 * layer and, when the file says it was saved under one, with the fixed
 * layer built here. Each input is loaded as it is, then again with its
 * size field and checksum made to fit (a forger's copy), so the mutations
 * reach the payload's checks and not only the checksum's. A refusal must
 * be CAIRN_ERR_PARSE or CAIRN_ERR_MISMATCH with a message naming
 * "<memory>" and *out NULL. What loads must answer queries without a
 * crash (a forged file may plan odd routes, never read outside its arrays
 * or leave the map), save, load again, and save the same bytes again;
 * then take an edit. The routes a file may carry load into a path cache
 * of the map or are refused with a file's status.
 *
 * Queries run for every unit size the file answers (its max_size), each
 * path legal for its unit as far as the map goes.
 *
 * The seeds (tests/fuzz/corpus/hpa_load, each under the fuzzer's 8 KiB)
 * are saves of this map with two and three levels, with and without
 * landmarks, under the layer, and for units up to sizes 2 (with and
 * without the layer) and 3; they are written by this file compiled
 * with -DHPA_LOAD_SEEDS:
 *   cc -DHPA_LOAD_SEEDS -Icore/include -Ihierarchy/include -Icore/src/private \
 *      tests/fuzz/fuzz_hpa_load.c -Lbuild/hierarchy -Lbuild/core \
 *      -lcairn_hierarchy -lcairn_core -lm -lpthread -o seeds &&
 *   ./seeds tests/fuzz/corpus/hpa_load */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/core.h"
#include "cairn/hierarchy.h"
#include "cairn_private.h" /* cairn__checksum, to forge */
#include "fuzz_rooms.h"

/* The map's doors: three cells wide, so that units of sizes 2 and 3 go
 * from room to room and the sized seeds hold sized tables. */
#define FUZZ_DOOR 3

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) \
  do {              \
    if (!(cond)) abort(); \
  } while (0)

/* The layer: a penalised band and two blocked cells. */
static cairn_penalty *make_layer(const cairn_grid *g) {
  cairn_penalty *p = NULL;
  CHECK(cairn_penalty_create(g, NULL, &p) == CAIRN_OK);
  for (int32_t x = 4; x < 28; x++)
    CHECK(cairn_penalty_add(p, x, 12, 3 * (int64_t)CAIRN_COST_ONE) == CAIRN_OK);
  CHECK(cairn_penalty_block(p, 9, 20, 1) == CAIRN_OK);
  CHECK(cairn_penalty_block(p, 21, 5, 1) == CAIRN_OK);
  return p;
}

/* The saved bytes of h (malloc'd), or NULL if h saves nothing. */
static uint8_t *save(const cairn_hpa *h, size_t *len) {
  CHECK(cairn_hpa_save(h, NULL, 0, len) == CAIRN_ERR_BUFFER);
  uint8_t *buf = malloc(*len);
  CHECK(buf != NULL);
  CHECK(cairn_hpa_save(h, buf, *len, len) == CAIRN_OK);
  return buf;
}

/* A load that failed: a file's refusal, said clearly. */
static void check_refusal(cairn_status st, const cairn_hpa *h, const cairn_error *err) {
  CHECK(st == CAIRN_ERR_PARSE || st == CAIRN_ERR_MISMATCH);
  CHECK(h == NULL);
  CHECK(strncmp(err->message, "<memory>: ", 10) == 0 && err->message[10] != '\0');
}

/* Queries, a save and a load of the save, and an edit of a loaded h. */
static void exercise(cairn_hpa *h, cairn_grid *g, const cairn_penalty *layer) {
  cairn_hpa_query *q = NULL;
  CHECK(cairn_hpa_query_create(NULL, &q) == CAIRN_OK);
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  cairn_hpa_stats hs;
  cairn_hpa_get_stats(h, &hs);
  CHECK(hs.max_size >= 1 && hs.max_size <= CAIRN_GRID_MAX_CLEARANCE);
  const cairn_point ends[4][2] = {{{1, 1}, {30, 30}}, {{30, 2}, {3, 29}},
                                  {{16, 0}, {16, 31}}, {{5, 17}, {7, 18}}};
  for (int32_t size = 1; size <= hs.max_size; size++)
    for (int i = 0; i < 4; i++) {
      po.nearby = i % 2 ? 0 : -1;
      po.size = size;
      cairn_hpa_result r;
      cairn_status st = cairn_hpa_find(q, h, ends[i][0], ends[i][1], &po, &r);
      CHECK(st == r.status || st < 0);
      CHECK(st != CAIRN_OK || (r.path_len >= 1 && r.path != NULL));
      /* the unit's whole block on the map */
      for (size_t k = 0; st == CAIRN_OK && k < r.path_len; k++)
        CHECK(cairn_grid_contains(g, r.path[k].x, r.path[k].y) &&
              cairn_grid_contains(g, r.path[k].x + size - 1, r.path[k].y + size - 1));
    }
  size_t len = 0, len2 = 0;
  uint8_t *once = save(h, &len);
  cairn_hpa *again = NULL;
  cairn_error err;
  CHECK(cairn_hpa_load(once, len, g, layer, NULL, NULL, &again, &err) == CAIRN_OK);
  uint8_t *twice = save(again, &len2);
  CHECK(len == len2 && memcmp(once, twice, len) == 0);
  free(once);
  free(twice);
  cairn_hpa_destroy(again);
  cairn_point cell = {11, 11};
  uint8_t cost = cairn_grid_cost(g, 11, 11) ? 0 : 1;
  cairn_status st = cairn_hpa_edit(h, g, &cell, &cost, 1);
  CHECK(st == CAIRN_OK || st < 0);
  cairn_hpa_result r;
  cairn_hpa_find(q, h, ends[0][0], ends[0][1], NULL, &r);
  cairn_hpa_query_destroy(q);
}

/* One load of the bytes, and what must hold of it. */
static void load_one(const uint8_t *data, size_t size) {
  cairn_grid *g = fuzz_rooms_grid(FUZZ_DOOR);
  cairn_penalty *layer = NULL;
  cairn_hpa_opts o = cairn_hpa_defaults();
  o.threads = 1;
  cairn_hpa *h = (cairn_hpa *)&o; /* not NULL: a refusal must clear it */
  cairn_error err;
  cairn_status st = cairn_hpa_load(data, size, g, NULL, &o, NULL, &h, &err);
  if (st == CAIRN_ERR_MISMATCH && strstr(err.message, "saved under a cost layer")) {
    layer = make_layer(g);
    h = (cairn_hpa *)&o;
    st = cairn_hpa_load(data, size, g, layer, &o, NULL, &h, &err);
  }
  if (st == CAIRN_OK) {
    CHECK(h != NULL && err.message[0] == '\0');
    exercise(h, g, layer);
    cairn_hpa_destroy(h);
  } else {
    check_refusal(st, h, &err);
  }
  /* the routes a file may carry, into a cache of the map: loaded, or
   * refused with a file's status */
  cairn_path_cache *pc = NULL;
  CHECK(cairn_path_cache_create(g, NULL, NULL, &pc) == CAIRN_OK);
  st = cairn_hpa_load_routes(data, size, pc, &err);
  CHECK(st == CAIRN_OK || st == CAIRN_ERR_PARSE || st == CAIRN_ERR_MISMATCH ||
        st == CAIRN_ERR_TOO_LARGE);
  if (st != CAIRN_OK) CHECK(strncmp(err.message, "<memory>: ", 10) == 0);
  cairn_path_cache_destroy(pc);
  cairn_penalty_destroy(layer);
  cairn_grid_destroy(g);
}

/* The header's size field is at byte 16, the checksum in the last 8. */
enum { SIZE_AT = 16, MIN_FILE = 84 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  load_one(data, size);
  if (size < MIN_FILE) return 0;
  uint8_t *forged = malloc(size);
  CHECK(forged != NULL);
  memcpy(forged, data, size);
  for (int i = 0; i < 8; i++) forged[SIZE_AT + i] = (uint8_t)((uint64_t)size >> (8 * i));
  uint64_t sum = cairn__checksum(forged, size - 8);
  for (int i = 0; i < 8; i++) forged[size - 8 + (size_t)i] = (uint8_t)(sum >> (8 * i));
  load_one(forged, size);
  free(forged);
  return 0;
}

#ifdef HPA_LOAD_SEEDS
/* Writes the seed corpus into the folder argv[1]. */
static void write_seed(const char *dir, const char *name, const cairn_hpa *h, size_t cut,
                       const cairn_path_cache *pc) {
  size_t len;
  uint8_t *buf = save(h, &len);
  if (pc) {
    free(buf);
    CHECK(cairn_hpa_save_with_routes(h, pc, NULL, 0, &len) == CAIRN_ERR_BUFFER);
    buf = malloc(len);
    CHECK(buf != NULL && cairn_hpa_save_with_routes(h, pc, buf, len, &len) == CAIRN_OK);
  }
  if (cut) len = cut < len ? cut : len;
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL && fwrite(buf, 1, len, f) == len && fclose(f) == 0);
  printf("%s: %zu bytes\n", path, len);
  fflush(stdout);
  CHECK(len < 8192);
  free(buf);
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  cairn_grid *g = fuzz_rooms_grid(FUZZ_DOOR);
  struct {
    const char *name;
    int32_t cluster, levels, block, landmarks, max_size;
    int layered;
    size_t cut;
    int routes;
  } seeds[] = {
      {"two_levels.hpa", 8, 2, 0, 4, 1, 0, 0, 0},
      {"three_levels.hpa", 8, 3, 2, 2, 1, 0, 0, 0},
      {"odd_clusters.hpa", 12, 2, 0, -1, 1, 0, 0, 0},
      {"layered.hpa", 8, 3, 2, 2, 1, 1, 0, 0},
      {"truncated.hpa", 8, 2, 0, 4, 1, 0, 700, 0},
      {"routes.hpa", 8, 2, 0, 0, 1, 0, 0, 1},
      {"sizes_2.hpa", 8, 2, 0, 2, 2, 0, 0, 0},
      {"sizes_3.hpa", 8, 2, 0, 2, 3, 0, 0, 0},
      {"sizes_2_layered.hpa", 8, 3, 2, 2, 2, 1, 0, 0},
  };
  /* the routes of four units to one goal */
  cairn_path_cache *pc = NULL;
  cairn_search *s = NULL;
  CHECK(cairn_path_cache_create(g, NULL, NULL, &pc) == CAIRN_OK);
  CHECK(cairn_search_create(NULL, &s) == CAIRN_OK);
  const cairn_point from[4] = {{1, 1}, {30, 2}, {3, 29}, {16, 0}}, goal = {30, 30};
  for (int i = 0; i < 4; i++) {
    cairn_point path[1024];
    cairn_cached_path got;
    cairn_path_cache_find(pc, s, from[i], goal, path, 1024, &got);
  }
  cairn_search_destroy(s);
  for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
    cairn_hpa_opts o = cairn_hpa_defaults();
    o.cluster = seeds[i].cluster;
    o.levels = seeds[i].levels;
    o.block = seeds[i].block;
    o.landmarks = seeds[i].landmarks;
    o.max_size = seeds[i].max_size;
    o.threads = 1;
    cairn_hpa *h = NULL;
    CHECK(cairn_hpa_create(g, &o, NULL, &h) == CAIRN_OK);
    cairn_penalty *p = seeds[i].layered ? make_layer(g) : NULL;
    if (p) {
      CHECK(cairn_hpa_set_layer(h, p) == CAIRN_OK);
      CHECK(cairn_hpa_refresh(h, 0, NULL) == CAIRN_OK);
    }
    write_seed(argv[1], seeds[i].name, h, seeds[i].cut, seeds[i].routes ? pc : NULL);
    cairn_hpa_destroy(h);
    cairn_penalty_destroy(p);
  }
  cairn_path_cache_destroy(pc);
  cairn_grid_destroy(g);
  return 0;
}
#endif
