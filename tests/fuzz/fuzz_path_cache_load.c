/* libFuzzer target: any bytes as saved routes (cairn_path_cache_load) for
 * a fixed 32 x 32 map built here (rooms, walls, terrain 1 and 2), into a
 * cache with the default options that already holds one route. Each input
 * is loaded as it is, then again with its trailing checksum made right (a
 * forger's copy), so the mutations reach the route checks and not only
 * the checksum's. A refusal must be CAIRN_ERR_PARSE, CAIRN_ERR_MISMATCH
 * or CAIRN_ERR_TOO_LARGE and leave the cache as it was (its stats and its
 * save). What loads must hold the file's routes and cells, answer
 * requests from every cell of a few rows toward the file's goals and a
 * few fixed ones with valid paths (a forged file may give dear paths,
 * never ones that leave the map, cross a wall or cut a corner), save,
 * load into a fresh cache and save the same bytes again; then take a
 * reported edit that blocks a cell of a path, and route around it.
 *
 * The seeds (tests/fuzz/corpus/path_cache_load, each under the fuzzer's
 * 8 KiB) are saves of this map: an empty cache, caches after groups of
 * requests to 1, 2 and 4 goals, and the last with every cost and bound
 * doubled (resealed: costs above the steps' are allowed); they are
 * written by this file compiled with -DPATH_CACHE_LOAD_SEEDS:
 *   cc -DPATH_CACHE_LOAD_SEEDS -Icore/include -Icore/src/private \
 *      tests/fuzz/fuzz_path_cache_load.c -Lbuild/core -lcairn_core -lm \
 *      -lpthread -o seeds &&
 *   ./seeds tests/fuzz/corpus/path_cache_load */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/core.h"
#include "cairn_private.h" /* cairn__checksum, to forge */
#include "fuzz_rooms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) \
  do {              \
    if (!(cond)) abort(); \
  } while (0)

enum { SIDE = FUZZ_ROOMS_SIDE, CAP = SIDE * SIDE, FILE_GOALS = 2, HEADER = 40, NODE_BYTES = 24 };

/* Goals every load is asked for (the seeds' goals, all open cells), and
 * the rows whose every cell asks. */
static const cairn_point goals[] = {{30, 30}, {2, 28}, {29, 1}, {10, 19}};
enum { GOALS = sizeof goals / sizeof *goals };
static const int32_t rows[] = {2, 13, 26};

static cairn_path_cache *make_cache(const cairn_grid *g) {
  cairn_path_cache *pc = NULL;
  CHECK(cairn_path_cache_create(g, NULL, NULL, &pc) == CAIRN_OK);
  return pc;
}

/* The saved bytes of pc (malloc'd). */
static uint8_t *save(const cairn_path_cache *pc, size_t *len) {
  CHECK(cairn_path_cache_save(pc, NULL, 0, len) == CAIRN_ERR_BUFFER);
  uint8_t *buf = malloc(*len);
  CHECK(buf != NULL);
  CHECK(cairn_path_cache_save(pc, buf, *len, len) == CAIRN_OK);
  return buf;
}

static uint32_t le32(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* What a file that loaded holds (its layout is then known good): routes,
 * cells, and the goals of its first FILE_GOALS routes. */
typedef struct contents {
  uint32_t routes;
  size_t cells;
  cairn_point goal[FILE_GOALS];
  int n_goals;
} contents;

static contents read_contents(const uint8_t *data) {
  contents c = {le32(data + HEADER - 4), 0, {{0, 0}}, 0};
  const uint8_t *at = data + HEADER;
  for (uint32_t k = 0; k < c.routes; k++) {
    const uint32_t goal = le32(at), nodes = le32(at + 4);
    if (c.n_goals < FILE_GOALS)
      c.goal[c.n_goals++] = (cairn_point){(int32_t)(goal % SIDE), (int32_t)(goal / SIDE)};
    c.cells += nodes;
    at += 8 + (size_t)nodes * NODE_BYTES;
  }
  return c;
}

/* What a step into cell b costs, as the searches charge it (no layer). */
static cairn_cost step_cost(const cairn_grid *g, cairn_point a, cairn_point b) {
  const cairn_cost base = a.x != b.x && a.y != b.y ? CAIRN_COST_DIAG : CAIRN_COST_ONE;
  return base * cairn_grid_cost(g, b.x, b.y);
}

/* Whether a unit may step from a to b: neighbours, b open, and a diagonal
 * only where both straight steps are open (no corner cut). */
static int legal_step(const cairn_grid *g, cairn_point a, cairn_point b) {
  const int32_t dx = b.x - a.x, dy = b.y - a.y;
  if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return 0;
  if (!cairn_grid_cost(g, b.x, b.y)) return 0;
  if (dx == 0 || dy == 0) return 1;
  return cairn_grid_cost(g, a.x + dx, a.y) && cairn_grid_cost(g, a.x, a.y + dy);
}

/* One request, and what must hold of its answer: a path from start to
 * goal in legal steps whose cost is the one stated, or a refusal that
 * the cells explain. Returns the status. */
static cairn_status request(cairn_path_cache *pc, cairn_search *s, const cairn_grid *g,
                            cairn_point start, cairn_point goal, cairn_point *path) {
  cairn_cached_path out;
  const cairn_status st = cairn_path_cache_find(pc, s, start, goal, path, CAP, &out);
  CHECK(st == out.status);
  const int blocked = !cairn_grid_cost(g, start.x, start.y) || !cairn_grid_cost(g, goal.x, goal.y);
  if (st != CAIRN_OK) {
    CHECK(st == (blocked ? CAIRN_ERR_BLOCKED : CAIRN_NO_PATH));
    return st;
  }
  CHECK(!blocked && out.len >= 1 && out.len <= CAP);
  CHECK(out.how >= CAIRN_CACHE_SEARCHED && out.how <= CAIRN_CACHE_JOINED);
  CHECK(path[0].x == start.x && path[0].y == start.y);
  CHECK(path[out.len - 1].x == goal.x && path[out.len - 1].y == goal.y);
  cairn_cost cost = 0;
  for (size_t k = 1; k < out.len; k++) {
    CHECK(legal_step(g, path[k - 1], path[k]));
    cost += step_cost(g, path[k - 1], path[k]);
  }
  CHECK(cost == out.cost);
  return st;
}

/* Requests from every cell of the rows toward the file's goals and the
 * fixed ones. */
static void requests(cairn_path_cache *pc, cairn_search *s, const cairn_grid *g,
                     const contents *c, cairn_point *path) {
  cairn_point to[FILE_GOALS + GOALS];
  int n = 0;
  for (int k = 0; k < c->n_goals; k++) to[n++] = c->goal[k];
  for (int k = 0; k < GOALS; k++) to[n++] = goals[k];
  for (size_t r = 0; r < sizeof rows / sizeof *rows; r++)
    for (int k = 0; k < n; k++)
      for (int32_t x = 0; x < SIDE; x++) request(pc, s, g, (cairn_point){x, rows[r]}, to[k], path);
}

/* What was saved loads into a fresh cache that saves the same bytes:
 * requests keep the routes as a load checks them. */
static void round_trip(const cairn_path_cache *pc, const cairn_grid *g) {
  size_t len = 0, len2 = 0;
  uint8_t *once = save(pc, &len);
  cairn_path_cache *again = make_cache(g);
  CHECK(cairn_path_cache_load(again, once, len) == CAIRN_OK);
  uint8_t *twice = save(again, &len2);
  CHECK(len == len2 && memcmp(once, twice, len) == 0);
  free(once);
  free(twice);
  cairn_path_cache_destroy(again);
}

/* A reported edit that blocks a middle cell of a path (or, with none,
 * flips one cell), and the same request after it: the routes over the
 * cell must have gone, or the path would cross a wall. */
static void edit(cairn_path_cache *pc, cairn_search *s, cairn_grid *g, cairn_point *path) {
  const cairn_point start = {1, 2}, goal = goals[0];
  cairn_cached_path out;
  cairn_point cell = {11, 11};
  uint8_t cost = cairn_grid_cost(g, 11, 11) ? 0 : 1;
  if (cairn_path_cache_find(pc, s, start, goal, path, CAP, &out) == CAIRN_OK && out.len >= 3) {
    cell = path[out.len / 2];
    cost = 0;
  }
  CHECK(cairn_grid_set_cost(g, cell.x, cell.y, cost) == CAIRN_OK);
  CHECK(cairn_path_cache_edited(pc, (cairn_rect){cell.x, cell.y, 1, 1}) == CAIRN_OK);
  request(pc, s, g, start, goal, path);
}

/* Everything a loaded cache must do; c says what its file held. */
static void exercise(cairn_path_cache *pc, cairn_grid *g, const contents *c) {
  cairn_path_cache_stats st;
  CHECK(cairn_path_cache_get_stats(pc, &st) == CAIRN_OK);
  CHECK(st.routes == c->routes && st.cells == c->cells);
  cairn_search *s = NULL;
  CHECK(cairn_search_create(NULL, &s) == CAIRN_OK);
  cairn_point *path = malloc(CAP * sizeof *path);
  CHECK(path != NULL);
  requests(pc, s, g, c, path);
  round_trip(pc, g);
  edit(pc, s, g, path);
  free(path);
  cairn_search_destroy(s);
}

/* One load of the bytes, and what must hold of it. The cache holds a
 * route first, so that a refusal that dropped it would show. */
static void load_one(const uint8_t *data, size_t size) {
  cairn_grid *g = fuzz_rooms_grid(1);
  cairn_path_cache *pc = make_cache(g);
  cairn_search *s = NULL;
  CHECK(cairn_search_create(NULL, &s) == CAIRN_OK);
  cairn_point path[CAP];
  CHECK(request(pc, s, g, (cairn_point){1, 1}, goals[1], path) == CAIRN_OK);
  cairn_search_destroy(s);
  cairn_path_cache_stats before, after;
  CHECK(cairn_path_cache_get_stats(pc, &before) == CAIRN_OK);
  size_t len = 0, len2 = 0;
  uint8_t *held = save(pc, &len);
  cairn_status st = cairn_path_cache_load(pc, data, size);
  if (st == CAIRN_OK) {
    const contents c = read_contents(data);
    exercise(pc, g, &c);
  } else {
    CHECK(st == CAIRN_ERR_PARSE || st == CAIRN_ERR_MISMATCH || st == CAIRN_ERR_TOO_LARGE);
    CHECK(cairn_path_cache_get_stats(pc, &after) == CAIRN_OK);
    CHECK(after.routes == before.routes && after.cells == before.cells);
    uint8_t *still = save(pc, &len2);
    CHECK(len == len2 && memcmp(held, still, len) == 0);
    free(still);
  }
  free(held);
  cairn_path_cache_destroy(pc);
  cairn_grid_destroy(g);
}

/* Below the header and the checksum a load refuses before the checksum. */
enum { MIN_FILE = HEADER + 8 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  load_one(data, size);
  if (size < MIN_FILE) return 0;
  uint8_t *forged = malloc(size);
  CHECK(forged != NULL);
  memcpy(forged, data, size);
  uint64_t sum = cairn__checksum(forged, size - 8);
  for (int i = 0; i < 8; i++) forged[size - 8 + (size_t)i] = (uint8_t)(sum >> (8 * i));
  /* a checksum that was right already was loaded above */
  if (memcmp(forged + size - 8, data + size - 8, 8) != 0) load_one(forged, size);
  free(forged);
  return 0;
}

#ifdef PATH_CACHE_LOAD_SEEDS
/* Doubles every node's cost and excess bound in the saved bytes and seals
 * them again: still a file a load takes (the costs only have to cover the
 * steps), whose routes say more than they cost, as a forger may. */
static void inflate(uint8_t *buf, size_t len) {
  const uint8_t *end = buf + len - 8;
  for (uint8_t *at = buf + HEADER; at < end;) {
    const uint32_t nodes = le32(at + 4);
    at += 8;
    for (uint32_t k = 0; k < nodes; k++, at += NODE_BYTES)
      for (int f = 8; f < NODE_BYTES; f += 8) {
        uint64_t v = 0;
        for (int i = 8; i-- > 0;) v = v << 8 | at[f + i];
        for (int i = 0; i < 8; i++) at[f + i] = (uint8_t)((2 * v) >> (8 * i));
      }
  }
  const uint64_t sum = cairn__checksum(buf, len - 8);
  for (int i = 0; i < 8; i++) buf[len - 8 + (size_t)i] = (uint8_t)(sum >> (8 * i));
}

/* Writes the seed corpus into the folder argv[1]. */
static void write_seed(const char *dir, const char *name, const cairn_path_cache *pc,
                       int inflated) {
  size_t len;
  uint8_t *buf = save(pc, &len);
  if (inflated) inflate(buf, len);
  char path[512];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL && fwrite(buf, 1, len, f) == len && fclose(f) == 0);
  printf("%s: %zu bytes\n", path, len);
  fflush(stdout);
  CHECK(len < 8192);
  free(buf);
}

/* A group of units from cells around (cx, cy) toward goal: the first
 * searches, the others walk or join its route. */
static void group(cairn_path_cache *pc, cairn_search *s, const cairn_grid *g, int32_t cx,
                  int32_t cy, cairn_point goal, cairn_point *path) {
  for (int32_t dy = -2; dy <= 2; dy += 2)
    for (int32_t dx = -2; dx <= 2; dx += 2) {
      const cairn_point at = {cx + dx, cy + dy};
      if (cairn_grid_cost(g, at.x, at.y)) request(pc, s, g, at, goal, path);
    }
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  cairn_grid *g = fuzz_rooms_grid(1);
  for (int k = 0; k < GOALS; k++) CHECK(cairn_grid_cost(g, goals[k].x, goals[k].y));
  cairn_search *s = NULL;
  CHECK(cairn_search_create(NULL, &s) == CAIRN_OK);
  static cairn_point path[CAP];
  /* groups from the map's corners and middle, toward the first n goals */
  const cairn_point from[] = {{3, 3}, {20, 4}, {4, 20}, {20, 20}};
  const struct {
    const char *name;
    int goals, inflated;
  } seeds[] = {{"empty", 0, 0},
               {"one_goal", 1, 0},
               {"two_goals", 2, 0},
               {"four_goals", 4, 0},
               {"four_goals_inflated", 4, 1}};
  for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++) {
    cairn_path_cache *pc = make_cache(g);
    for (int k = 0; k < seeds[i].goals; k++)
      for (size_t f = 0; f < sizeof from / sizeof *from; f++)
        if (f % (size_t)seeds[i].goals == (size_t)k)
          group(pc, s, g, from[f].x, from[f].y, goals[k], path);
    write_seed(argv[1], seeds[i].name, pc, seeds[i].inflated);
    cairn_path_cache_destroy(pc);
  }
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
  return 0;
}
#endif
