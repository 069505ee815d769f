/* A grid A* saved in progress and resumed (cairn_search_save_state,
 * cairn_astar_resume): resumed after any number of expansions, in its own
 * context or another, under a penalty layer, claims and avoided cells, it
 * ends with the path, cost and expansions of the search never stopped, and
 * slicing a search into other budgets changes nothing; states that do not
 * fit (truncated, a duplicate cell, a broken parent, an open set out of
 * order, another grid) are refused; the size query; and a unit's claims
 * read back (cairn_claims_get). */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "cairn/core.h"
#include "cairn_save.h"

typedef struct world {
  cairn_grid *grid;
  cairn_penalty *layer;
  cairn_claims *claims;
  cairn_point avoid[3];
  cairn_search_opts opts;
  cairn_point a, b;
} world;

/* A random map with a layer, claims and avoided cells, and two far cells
 * of one island. */
static void world_make(world *w, int with_layers) {
  memset(w, 0, sizeof *w);
  uint64_t rng = 5;
  w->grid = tu_random_grid(&rng, 70, 60, 25, 4);
  do {
    w->a = tu_random_open(&rng, w->grid);
    w->b = tu_random_open(&rng, w->grid);
  } while (abs(w->a.x - w->b.x) + abs(w->a.y - w->b.y) < 70 ||
           cairn_grid_island(w->grid, w->a.x, w->a.y) !=
               cairn_grid_island(w->grid, w->b.x, w->b.y));
  w->opts = cairn_search_defaults();
  if (!with_layers) return;
  assert_int_equal(cairn_penalty_create(w->grid, NULL, &w->layer), CAIRN_OK);
  for (int k = 0; k < 400; k++) {
    cairn_point p = tu_random_open(&rng, w->grid);
    cairn_penalty_add(w->layer, p.x, p.y, (int64_t)(1 + k % 5) * CAIRN_COST_ONE);
  }
  assert_int_equal(cairn_claims_create(w->grid, NULL, &w->claims), CAIRN_OK);
  cairn_point cells[40];
  for (int k = 0; k < 40; k++) cells[k] = tu_random_open(&rng, w->grid);
  assert_int_equal(cairn_claims_set(w->claims, 3, cells, 40, 100), CAIRN_OK);
  for (int k = 0; k < 3; k++) w->avoid[k] = tu_random_open(&rng, w->grid);
  w->opts.penalty = w->layer;
  w->opts.claims = w->claims;
  w->opts.claim_penalty = 2.0;
  w->opts.avoid = w->avoid;
  w->opts.n_avoid = 3;
}

static void world_free(world *w) {
  cairn_claims_destroy(w->claims);
  cairn_penalty_destroy(w->layer);
  cairn_grid_destroy(w->grid);
}

/* The search run to its end in steps of `budget`; the result. */
static cairn_result run(cairn_search *s, uint64_t budget) {
  cairn_status st;
  while ((st = cairn_search_step(s, budget)) == CAIRN_IN_PROGRESS) {
  }
  cairn_result r;
  cairn_search_result(s, &r);
  assert_int_equal(r.status, st);
  return r;
}

static void assert_same_result(const cairn_result *x, const cairn_result *y) {
  assert_int_equal(x->status, y->status);
  assert_int_equal(x->cost, y->cost);
  assert_int_equal(x->expanded, y->expanded);
  assert_int_equal(x->generated, y->generated);
  assert_int_equal(x->path_len, y->path_len);
  assert_memory_equal(x->path, y->path, x->path_len * sizeof *x->path);
}

/* The saved state of a search begun on w and stepped `steps` nodes. */
static uint8_t *state_after(const world *w, cairn_search *s, uint64_t steps, size_t *len) {
  assert_int_equal(cairn_astar_begin(s, w->grid, w->a, w->b, &w->opts), CAIRN_OK);
  assert_int_equal(cairn_search_step(s, steps), CAIRN_IN_PROGRESS);
  assert_int_equal(cairn_search_save_state(s, NULL, 0, len), CAIRN_ERR_BUFFER);
  uint8_t *buf = malloc(*len);
  size_t got;
  assert_int_equal(cairn_search_save_state(s, buf, *len - 1, &got), CAIRN_ERR_BUFFER);
  assert_int_equal(cairn_search_save_state(s, buf, *len, &got), CAIRN_OK);
  assert_int_equal(got, *len);
  return buf;
}

static void resumes_as_if_never_stopped(int with_layers) {
  world w;
  world_make(&w, with_layers);
  cairn_search *s, *t;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  assert_int_equal(cairn_search_create(NULL, &t), CAIRN_OK);
  assert_int_equal(cairn_astar_begin(s, w.grid, w.a, w.b, &w.opts), CAIRN_OK);
  cairn_result whole = run(s, UINT64_MAX);
  assert_int_equal(whole.status, CAIRN_OK);
  assert_true(whole.expanded > 200);
  for (uint64_t budget = 1; budget < 400; budget = budget * 3 + 1) {
    assert_int_equal(cairn_astar_begin(s, w.grid, w.a, w.b, &w.opts), CAIRN_OK);
    cairn_result sliced = run(s, budget);
    assert_same_result(&sliced, &whole);
  }
  for (uint64_t steps = 1; steps < whole.expanded; steps += whole.expanded / 7) {
    size_t len;
    uint8_t *buf = state_after(&w, s, steps, &len);
    /* in another context, and in its own after a search elsewhere */
    assert_int_equal(cairn_astar_resume(t, w.grid, &w.opts, buf, len), CAIRN_OK);
    cairn_result r = run(t, 37);
    assert_same_result(&r, &whole);
    assert_int_equal(cairn_astar_begin(s, w.grid, w.b, w.a, &w.opts), CAIRN_OK);
    assert_int_equal(cairn_astar_resume(s, w.grid, &w.opts, buf, len), CAIRN_OK);
    size_t again;
    assert_int_equal(cairn_search_save_state(s, NULL, 0, &again), CAIRN_ERR_BUFFER);
    assert_int_equal(again, len);
    r = run(s, UINT64_MAX);
    assert_same_result(&r, &whole);
    free(buf);
  }
  cairn_search_destroy(s);
  cairn_search_destroy(t);
  world_free(&w);
}

static void resume_plain(void **state) {
  (void)state;
  resumes_as_if_never_stopped(0);
}

static void resume_with_layers(void **state) {
  (void)state;
  resumes_as_if_never_stopped(1);
}

/* Byte offsets in the state: the header, then 17 bytes a node (cell,
 * cost, parent, closed), then the heap's count and 16 bytes an entry. */
#define HEAD 24u
#define NODE 17u

static void refuses_what_does_not_fit(void **state) {
  (void)state;
  world w;
  world_make(&w, 0);
  cairn_search *s;
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  size_t len, got;
  assert_int_equal(cairn_search_save_state(s, NULL, 0, &got), CAIRN_ERR_STATE);
  uint8_t *buf = state_after(&w, s, 50, &len);
  uint8_t *bad = malloc(len);
  for (size_t n = 0; n < len; n++) /* every truncation */
    assert_int_equal(cairn_astar_resume(s, w.grid, &w.opts, buf, n), CAIRN_ERR_PARSE);
  assert_int_equal(cairn_search_step(s, 1), CAIRN_ERR_STATE); /* no search left */
  uint32_t nodes = cairn__le32(buf + 20);
  assert_true(nodes > 3);
  /* a cell listed twice */
  memcpy(bad, buf, len);
  memcpy(bad + HEAD + NODE, bad + HEAD, 4);
  assert_int_equal(cairn_astar_resume(s, w.grid, &w.opts, bad, len), CAIRN_ERR_PARSE);
  /* a parent that is not a neighbour */
  memcpy(bad, buf, len);
  for (uint32_t k = 0; k < nodes; k++) {
    uint8_t *p = bad + HEAD + (size_t)k * NODE;
    if (memcmp(p, p + 12, 4) != 0) { /* not the start */
      uint32_t far = cairn__le32(buf + 16); /* the goal */
      memcpy(p + 12, &far, 4);
      break;
    }
  }
  assert_int_equal(cairn_astar_resume(s, w.grid, &w.opts, bad, len), CAIRN_ERR_PARSE);
  /* the open set out of heap order: its first two entries swapped */
  memcpy(bad, buf, len);
  size_t heap = HEAD + (size_t)nodes * NODE + 4;
  assert_true(cairn__le32(buf + heap - 4) >= 2);
  uint8_t tmp[16];
  memcpy(tmp, bad + heap, 16);
  memcpy(bad + heap, bad + heap + 16, 16);
  memcpy(bad + heap + 16, tmp, 16);
  cairn_status st = cairn_astar_resume(s, w.grid, &w.opts, bad, len);
  assert_true(st == CAIRN_ERR_PARSE); /* the root must be the least */
  /* a version from elsewhere */
  memcpy(bad, buf, len);
  bad[0] ^= 0x40;
  assert_int_equal(cairn_astar_resume(s, w.grid, &w.opts, bad, len), CAIRN_ERR_PARSE);
  /* another grid's size */
  cairn_grid *other = NULL;
  assert_int_equal(cairn_grid_create(71, 60, 1, NULL, &other), CAIRN_OK);
  assert_int_equal(cairn_astar_resume(s, other, &w.opts, buf, len), CAIRN_ERR_MISMATCH);
  /* and the good one still resumes */
  assert_int_equal(cairn_astar_resume(s, w.grid, &w.opts, buf, len), CAIRN_OK);
  assert_int_equal(run(s, UINT64_MAX).status, CAIRN_OK);
  assert_int_equal(cairn_search_save_state(s, NULL, 0, &got), CAIRN_ERR_STATE); /* ended */
  assert_int_equal(cairn_astar_resume(NULL, w.grid, NULL, buf, len), CAIRN_ERR_ARG);
  assert_int_equal(cairn_search_save_state(NULL, NULL, 0, &got), CAIRN_ERR_ARG);
  cairn_grid_destroy(other);
  free(bad);
  free(buf);
  cairn_search_destroy(s);
  world_free(&w);
}

static void claims_read_back(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(10, 8, 1, NULL, &g), CAIRN_OK);
  cairn_claims *c = NULL;
  assert_int_equal(cairn_claims_create(g, NULL, &c), CAIRN_OK);
  cairn_point cells[4] = {{1, 2}, {3, 4}, {1, 2}, {9, 7}}, out[4];
  size_t n;
  uint64_t until;
  assert_int_equal(cairn_claims_get(c, 5, NULL, 0, &n, &until), CAIRN_OK);
  assert_int_equal(n, 0);
  assert_int_equal(until, 0);
  assert_int_equal(cairn_claims_set(c, 5, cells, 4, 77), CAIRN_OK);
  assert_int_equal(cairn_claims_get(c, 5, out, 3, &n, &until), CAIRN_ERR_BUFFER);
  assert_int_equal(n, 4);
  assert_int_equal(cairn_claims_get(c, 5, out, 4, &n, &until), CAIRN_OK);
  assert_int_equal(until, 77);
  assert_memory_equal(out, cells, sizeof cells);
  assert_int_equal(cairn_claims_get(c, 4, out, 4, &n, &until), CAIRN_OK);
  assert_int_equal(n, 0);
  assert_int_equal(cairn_claims_expire(c, 78), 1);
  assert_int_equal(cairn_claims_get(c, 5, out, 4, &n, &until), CAIRN_OK);
  assert_int_equal(n, 0);
  assert_int_equal(cairn_claims_get(c, CAIRN_CLAIMS_MAX_UNITS, out, 4, &n, &until),
                   CAIRN_ERR_ARG);
  assert_int_equal(cairn_claims_get(c, 1, NULL, 4, &n, &until), CAIRN_ERR_ARG);
  assert_int_equal(cairn_claims_get(NULL, 1, out, 4, &n, &until), CAIRN_ERR_ARG);
  cairn_claims_destroy(c);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(resume_plain),
      cmocka_unit_test(resume_with_layers),
      cmocka_unit_test(refuses_what_does_not_fit),
      cmocka_unit_test(claims_read_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
