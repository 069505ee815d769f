/* libFuzzer target: a crowd save from any bytes, loaded into a small
 * crowd built here (a 16 x 12 map with walls, six agents at most, claims
 * on, a tiny path budget, four waypoints and a ring of eight events, so
 * saves hold searches in flight, group continuations, claims, pending
 * events and lost ones). A refusal must be a parse or mismatch status
 * with a message naming "<memory>", which is also the crowd's
 * cairn_crowd_error, and leave the crowd as it was (its hash). An
 * accepted state must run: saved again, loaded into a second crowd, it
 * gives the same hash and the same bytes, and both tick on alike and
 * drain the same events.
 *
 * Bytes: the first says how the rest is taken: bit 0 set, as it is (the
 * frame's checks: size, magic, version, checksum); clear, sealed first
 * (its size field and checksum made right), so the reader's own checks
 * of the state see the fuzzer's changes.
 *
 * The seeds (corpus/crowd_load/) are saves of this setup, written by the
 * same file built with -DCROWD_LOAD_SEEDS (see seeds_main below). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/crowd.h"

#include "cairn_save.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond) \
  do {              \
    if (!(cond)) abort(); \
  } while (0)

/* The map: a border of open cells, a wall across the middle with a gap,
 * a pillar. */
static cairn_grid *the_grid(void) {
  static cairn_grid *g;
  if (g) return g;
  CHECK(cairn_grid_create(16, 12, 1, NULL, &g) == CAIRN_OK);
  for (int32_t x = 2; x < 14; x++)
    if (x != 9) CHECK(cairn_grid_set_cost(g, x, 6, 0) == CAIRN_OK);
  CHECK(cairn_grid_set_cost(g, 4, 3, 0) == CAIRN_OK);
  CHECK(cairn_grid_set_cost(g, 12, 9, 3) == CAIRN_OK);
  CHECK(cairn_grid_update_islands(g) == CAIRN_OK);
  return g;
}

static cairn_crowd *new_crowd(void) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 6;
  o.threads = 1;
  o.path_budget = 6;
  o.waypoints = 4;
  o.claim_penalty = 1.0f;
  o.max_events = 8;
  /* the congestion layer, where any body counts: saves hold its cells */
  o.density_gain = 1.0f;
  o.density_comfort = 0.0f;
  o.density_ticks = 3;
  cairn_crowd *c = NULL;
  CHECK(cairn_crowd_create(the_grid(), &o, NULL, &c) == CAIRN_OK);
  return c;
}

/* The crowd's save in a malloc'd buffer. */
static uint8_t *save_of(const cairn_crowd *c, size_t *len) {
  CHECK(cairn_crowd_save(c, NULL, 0, len) == CAIRN_ERR_BUFFER);
  uint8_t *b = malloc(*len);
  CHECK(b != NULL);
  size_t got = 0;
  CHECK(cairn_crowd_save(c, b, *len, &got) == CAIRN_OK && got == *len);
  return b;
}

/* The size field and the checksum of a save made right. */
static void seal(uint8_t *b, size_t len) {
  if (len < 32) return;
  for (int k = 0; k < 8; k++) b[16 + k] = (uint8_t)((uint64_t)len >> (8 * k));
  uint64_t sum = cairn__checksum(b, len - 8);
  for (int k = 0; k < 8; k++) b[len - 8 + (size_t)k] = (uint8_t)(sum >> (8 * k));
}

/* The events a and b hold: the same, field by field, in order. */
static void check_same_events(cairn_crowd *a, cairn_crowd *b) {
  cairn_crowd_event ea[8], eb[8];
  size_t na, nb;
  CHECK(cairn_crowd_events(a, ea, 8, &na) == CAIRN_OK);
  CHECK(cairn_crowd_events(b, eb, 8, &nb) == CAIRN_OK);
  CHECK(na == nb);
  for (size_t k = 0; k < na; k++)
    CHECK(ea[k].agent == eb[k].agent && ea[k].user == eb[k].user && ea[k].tick == eb[k].tick &&
          ea[k].kind == eb[k].kind);
}

/* An accepted state: saved again, loaded elsewhere, the same; both go on
 * alike. */
static void check_taken(cairn_crowd *a) {
  size_t len, len2;
  uint8_t *bytes = save_of(a, &len);
  cairn_crowd *b = new_crowd();
  cairn_error err;
  CHECK(cairn_crowd_load(b, bytes, len, &err) == CAIRN_OK);
  CHECK(cairn_crowd_hash(b) == cairn_crowd_hash(a));
  uint8_t *again = save_of(b, &len2);
  CHECK(len2 == len && memcmp(again, bytes, len) == 0);
  for (int t = 0; t < 4; t++) {
    cairn_status sa = cairn_crowd_tick(a), sb = cairn_crowd_tick(b);
    CHECK(sa == sb);
    CHECK(cairn_crowd_hash(a) == cairn_crowd_hash(b));
    check_same_events(a, b);
  }
  free(again);
  free(bytes);
  cairn_crowd_destroy(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  size_t len = size - 1;
  uint8_t *bytes = malloc(len ? len : 1);
  CHECK(bytes != NULL);
  if (len) memcpy(bytes, data + 1, len);
  if (!(data[0] & 1)) seal(bytes, len);
  cairn_crowd *c = new_crowd();
  uint64_t before = cairn_crowd_hash(c);
  cairn_error err;
  cairn_status st = cairn_crowd_load(c, bytes, len, &err);
  if (st == CAIRN_OK) {
    check_taken(c);
  } else {
    CHECK(st == CAIRN_ERR_PARSE || st == CAIRN_ERR_MISMATCH);
    CHECK(strncmp(err.message, "<memory>: ", 10) == 0);
    CHECK(strncmp(cairn_crowd_error(c), err.message, 100) == 0);
    CHECK(cairn_crowd_hash(c) == before);
  }
  cairn_crowd_destroy(c);
  free(bytes);
  return 0;
}

#ifdef CROWD_LOAD_SEEDS
/* Writes the seeds: cc -DCROWD_LOAD_SEEDS tests/fuzz/fuzz_crowd_load.c
 * -Icore/include -Icrowd/include -Iflowfield/include -Ihierarchy/include
 * -Icore/src/private with the libraries, run in corpus/crowd_load/. Each
 * seed: a mode byte (0: sealed, 1: as is), then a save after some ticks
 * of some orders; four are broken on purpose (cut short, a bit flipped,
 * an event of no kind sealed in, a runaway velocity). */
static void write_bytes(const char *name, const uint8_t *b, size_t len, uint8_t mode) {
  FILE *f = fopen(name, "wb");
  CHECK(f != NULL);
  CHECK(fwrite(&mode, 1, 1, f) == 1 && fwrite(b, 1, len, f) == len);
  fclose(f);
}

static void write_seed(const char *name, const cairn_crowd *c, uint8_t mode) {
  size_t len;
  uint8_t *b = save_of(c, &len);
  write_bytes(name, b, len, mode);
  free(b);
}

/* The density's cells above 0: the save's last part holds as many. */
static size_t dense_cells(const cairn_crowd *c) {
  int32_t stride;
  const uint32_t *d = cairn_crowd_density(c, &stride);
  size_t n = 0;
  for (size_t i = 0; i < (size_t)stride * 14; i++) n += d[i] > 0;
  return n;
}

/* The broken seeds, from a save with events pending (the last event's
 * kind is the 4 bytes before the density's count and cells, 12 bytes a
 * cell, and the checksum). */
static void write_broken(const cairn_crowd *c) {
  CHECK(cairn_crowd_events_pending(c) > 0);
  size_t len;
  uint8_t *b = save_of(c, &len);
  size_t kind = len - 8 - 12 * dense_cells(c) - 4 - 4;
  write_bytes("truncated", b, len / 2, 1);
  b[len / 3] ^= 0x10;
  write_bytes("flipped", b, len, 1);
  b[len / 3] ^= 0x10;
  b[kind] = 9;
  write_bytes("bad_event", b, len, 0);
  free(b);
}

/* Where the 4 bytes of v are in b, if they are there once; else len. */
static size_t only_place(const uint8_t *b, size_t len, float v) {
  size_t at = len, seen = 0;
  for (size_t k = 0; k + 4 <= len; k++)
    if (memcmp(b + k, &v, 4) == 0) at = k, seen++;
  return seen == 1 ? at : len;
}

static cairn_agent add(cairn_crowd *c, float x, float y, uint64_t user) {
  cairn_agent_params p = {x, y, 0.3f, 1.5f, 0, user};
  cairn_agent a;
  CHECK(cairn_crowd_add(c, &p, &a) == CAIRN_OK);
  return a;
}

static void ticks(cairn_crowd *c, int n) {
  for (int t = 0; t < n; t++) CHECK(cairn_crowd_tick(c) == CAIRN_OK);
}

/* Six agents in a row on a field, their velocities made finite but more
 * than any tick leaves (3.4e38 cells a second, the signs alternating):
 * the loader refuses them, as a huge one would overflow the avoidance
 * into NaN positions. Each velocity is found by its value, where that
 * value is in the save once. */
static void write_runaway(void) {
  cairn_crowd *c = new_crowd();
  cairn_agent a[6];
  for (int k = 0; k < 6; k++) a[k] = add(c, 2.5f + 0.5f * (float)k, 2.5f, 300 + (uint64_t)k);
  cairn_point goal = {12, 10};
  CHECK(cairn_crowd_order_field(c, a, 6, &goal, 1) == CAIRN_OK);
  ticks(c, 3);
  size_t len, changed = 0;
  uint8_t *b = save_of(c, &len);
  for (int k = 0; k < 6; k++) {
    cairn_agent_info info;
    CHECK(cairn_crowd_get(c, a[k], &info) == CAIRN_OK);
    const float v[2] = {info.vx, info.vy};
    for (int i = 0; i < 2; i++) {
      size_t at = only_place(b, len, v[i]);
      if (v[i] == 0.0f || at == len) continue;
      const float huge = (k + i) % 2 ? -3.4e38f : 3.4e38f;
      memcpy(b + at, &huge, 4);
      changed++;
    }
  }
  CHECK(changed >= 4);
  write_bytes("runaway_velocity", b, len, 0);
  free(b);
  cairn_crowd_destroy(c);
}

/* Units that stay around one cell, a driven one, an agent removed and
 * one placed since the last tick (the loose list), events pending. */
static void write_staying(void) {
  cairn_crowd *c = new_crowd();
  cairn_agent a[5];
  for (int k = 0; k < 4; k++) a[k] = add(c, 1.5f + (float)(2 * k), 1.5f, 100 + (uint64_t)k);
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_PATH;
  o.goal = (cairn_point){5, 3};
  o.arrival = CAIRN_ARRIVAL_STAY;
  CHECK(cairn_crowd_order(c, a, 3, &o) == CAIRN_OK);
  CHECK(cairn_crowd_drive(c, a[3], 0.5f, 0.25f) == CAIRN_OK);
  ticks(c, 40);
  CHECK(cairn_crowd_remove(c, a[2]) == CAIRN_OK);
  a[4] = add(c, 12.5f, 10.5f, 200);
  CHECK(cairn_crowd_set_position(c, a[0], 2.5f, 9.5f) == CAIRN_OK);
  write_seed("staying", c, 0);
  cairn_crowd_destroy(c);
}

int main(void) {
  cairn_crowd *c = new_crowd();
  write_seed("empty", c, 1);
  cairn_agent a[6];
  for (int k = 0; k < 6; k++)
    a[k] = add(c, 1.5f + (float)(2 * k), k % 2 ? 1.5f : 10.5f, 10 + (uint64_t)k);
  cairn_point gate = {9, 6}, corner = {15, 0}, far = {1, 11};
  CHECK(cairn_crowd_order_field(c, a, 2, &gate, 1) == CAIRN_OK);
  CHECK(cairn_crowd_order_move(c, a + 2, 2, corner) == CAIRN_OK);
  CHECK(cairn_crowd_order_path(c, a + 4, 2, far) == CAIRN_OK);
  write_seed("ordered", c, 0);
  ticks(c, 3);
  write_seed("searching", c, 0);
  write_seed("searching_as_is", c, 1);
  ticks(c, 20);
  CHECK(cairn_crowd_remove(c, a[1]) == CAIRN_OK);
  CHECK(cairn_crowd_order_wander(c, a + 2, 1, 7) == CAIRN_OK);
  write_seed("walking", c, 0);
  ticks(c, 60);
  for (int k = 0; k < 7; k++) { /* more events than the ring holds: some lost */
    CHECK(cairn_crowd_remove(c, a[5]) == CAIRN_OK);
    a[5] = add(c, 11.5f, 1.5f, 20 + (uint64_t)k);
  }
  write_seed("later", c, 0);
  write_broken(c);
  cairn_crowd_destroy(c);
  write_staying();
  write_runaway();
  return 0;
}
#endif
