/* Crowds saved and loaded (cairn/crowd_save.h): a crowd saved at tick T
 * and loaded into a new crowd (or rolled back into itself) ticks on to the
 * same hash, tick for tick, and to a byte-identical save, for a horde
 * under a penalty layer with grid edits, group moves with searches in
 * flight, per-unit paths with claims, routes over a hierarchy, wanderers,
 * units that stay around one goal (CAIRN_ARRIVAL_STAY, by a group path,
 * paths of their own and a field) and driven agents, at 1 and 2 threads;
 * right after the load it answers as the saved crowd did (its export, its
 * queries around an agent teleported just before the save, its figures),
 * and it drains the same events, with the user values they had, as the
 * run never interrupted; save, load, save gives the same bytes; every
 * truncation, every bit flip, a runaway velocity, another map or other
 * options are refused and leave the crowd exactly as it was, as does a
 * load whose memory runs out at any allocation; a removed agent's handle
 * stays stale; a crowd following a field of the caller's, or whose grid
 * changed unreported, is not saved, and a load's refusal is the crowd's
 * error detail too; the size query and the files. */
#include "test_crowd_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/crowd.h"
#include "crowd_internal.h"

#include "cairn_save.h"

enum { HORDE, GROUPS, CLAIMS, HPA, WANDER, STAY, DRIVEN, N_KINDS };
static const char *const kind_name[N_KINDS] = {"horde",  "groups", "claims", "hpa",
                                               "wander", "stay",   "driven"};

#define MAX_AGENTS 400
#define TOTAL_TICKS 110
#define DRAIN_EVERY 7 /* ticks between drains of the events: saves fall
                         while some are pending */

/* A crowd on its map, with what it points to. */
typedef struct scene {
  int kind;
  cairn_grid *grid;
  cairn_penalty *layer;
  cairn_hpa *hpa;
  cairn_crowd *crowd;
  cairn_agent agents[MAX_AGENTS];
  size_t n;
  uint64_t rng;     /* the scene's orders */
  cairn_point goal; /* STAY: where the units stay (an open cell near the
                       middle) */
  uint64_t events;  /* events drained */
} scene;

/* What a run gives after each tick: the hash, and a digest of the events
 * drained then (0 when none were). */
typedef struct trace {
  uint64_t hash[TOTAL_TICKS + 1];
  uint64_t events[TOTAL_TICKS + 1];
} trace;

static cairn_crowd_opts scene_opts(const scene *s, int threads) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = MAX_AGENTS;
  o.threads = threads;
  o.penalty = s->layer;
  o.hpa = s->hpa;
  o.waypoints = 6; /* group paths continue: WP_PARTIAL, WP_ASKED */
  /* small budgets: searches span ticks, so saves fall inside them */
  o.path_budget = s->kind == HPA ? 6 : 120;
  if (s->kind == CLAIMS) o.claim_penalty = 1.5f;
  if (s->kind == WANDER) { /* ORCA: its settings are part of the setup */
    o.avoidance = CAIRN_AVOID_ORCA;
    o.neighbour_radius = o.bin_size = 3.0f;
  }
  if (s->kind == HORDE) { /* the congestion layer saved and loaded with it */
    o.density_gain = 2.0f;
    o.density_comfort = 0.5f;
    o.density_ticks = 4;
  }
  if (s->kind == GROUPS) o.max_events = 3; /* a ring that fills: events lost */
  return o;
}

/* The scene's map, layer and hierarchy, and an empty crowd on them. */
static void scene_setup(scene *s, int kind, int threads, const cairn_allocator *al) {
  memset(s, 0, sizeof *s);
  s->kind = kind;
  uint64_t rng = 1000 + (uint64_t)kind;
  s->grid = tu_random_grid(&rng, 72, 64, 18, kind == HORDE ? 3 : 1);
  if (kind == HORDE) {
    assert_int_equal(cairn_penalty_create(s->grid, NULL, &s->layer), CAIRN_OK);
    for (int32_t y = 20; y < 30; y++)
      for (int32_t x = 30; x < 40; x++)
        cairn_penalty_add(s->layer, x, y, 3 * (int64_t)CAIRN_COST_ONE);
  }
  if (kind == HPA) {
    cairn_hpa_opts ho = cairn_hpa_defaults();
    ho.cluster = 8;
    ho.threads = 1;
    assert_int_equal(cairn_hpa_create(s->grid, &ho, NULL, &s->hpa), CAIRN_OK);
  }
  cairn_crowd_opts o = scene_opts(s, threads);
  assert_int_equal(cairn_crowd_create(s->grid, &o, al, &s->crowd), CAIRN_OK);
  s->rng = 77 + (uint64_t)kind;
  s->goal = pt(36, 32);
  while (cairn_grid_cost(s->grid, s->goal.x, s->goal.y) == 0) s->goal.x++;
}

static void scene_free(scene *s) {
  cairn_crowd_destroy(s->crowd);
  cairn_hpa_destroy(s->hpa);
  cairn_penalty_destroy(s->layer);
  cairn_grid_destroy(s->grid);
}

/* An agent on cell p, its user value its number plus 1000. */
static cairn_agent add_on(scene *s, cairn_point p) {
  cairn_agent_params ap = {(float)p.x + 0.5f, (float)p.y + 0.5f,
                           0.2f + 0.02f * (float)(s->n % 8), 1.0f + 0.1f * (float)(s->n % 9),
                           (uint16_t)s->n, 1000 + (uint64_t)s->n};
  cairn_agent a = 0;
  assert_int_equal(cairn_crowd_add(s->crowd, &ap, &a), CAIRN_OK);
  return a;
}

static cairn_agent add_random(scene *s) {
  return add_on(s, tu_random_open(&s->rng, s->grid));
}

static int same_island(const scene *s, cairn_point a, cairn_point b) {
  return cairn_grid_island(s->grid, a.x, a.y) == cairn_grid_island(s->grid, b.x, b.y);
}

/* An agent on an open cell within 14 cells of the scene's goal, on its
 * island. */
static cairn_agent add_near_goal(scene *s) {
  for (;;) {
    cairn_point p = tu_random_open(&s->rng, s->grid);
    if (abs(p.x - s->goal.x) <= 14 && abs(p.y - s->goal.y) <= 14 && same_island(s, p, s->goal))
      return add_on(s, p);
  }
}

/* A far open cell on p's island. */
static cairn_point far_goal(scene *s, cairn_point from) {
  for (;;) {
    cairn_point g = tu_random_open(&s->rng, s->grid);
    if (abs(g.x - from.x) + abs(g.y - from.y) > 40 && same_island(s, g, from)) return g;
  }
}

static cairn_point cell_of_agent(const scene *s, cairn_agent a) {
  cairn_agent_info i = tc_info(s->crowd, a);
  return pt((int32_t)i.x, (int32_t)i.y);
}

/* Groups of 10 ordered to far goals: agents [from, to). */
static void move_groups(scene *s, size_t from, size_t to) {
  for (size_t k = from; k < to; k += 10) {
    size_t n = to - k < 10 ? to - k : 10;
    cairn_point goal = far_goal(s, cell_of_agent(s, s->agents[k]));
    assert_int_equal(cairn_crowd_order_move(s->crowd, s->agents + k, n, goal), CAIRN_OK);
  }
}

static void paths_each(scene *s, size_t from, size_t to) {
  for (size_t k = from; k < to; k++) {
    cairn_point goal = far_goal(s, cell_of_agent(s, s->agents[k]));
    assert_int_equal(cairn_crowd_order_path(s->crowd, &s->agents[k], 1, goal), CAIRN_OK);
  }
}

static void order(scene *s, size_t from, size_t to, const cairn_order *o) {
  assert_int_equal(cairn_crowd_order(s->crowd, s->agents + from, to - from, o), CAIRN_OK);
}

/* A march's end: agents [from, to) to the scene's goal, where they stay
 * (the crowd's radius, grown by every order to the goal, or radius r). */
static void stay_at_goal(scene *s, size_t from, size_t to, int group, float r) {
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_PATH;
  o.goal = s->goal;
  o.group = group;
  o.arrival = CAIRN_ARRIVAL_STAY;
  o.arrival_radius = r;
  order(s, from, to, &o);
}

/* Agents [from, to) driven at a velocity of their own. */
static void drive(scene *s, size_t from, size_t to, float scale) {
  for (size_t k = from; k < to; k++) {
    float vx = scale * (float)((int)(k % 5) - 2), vy = scale * (float)((int)(k % 3) - 1);
    assert_int_equal(cairn_crowd_drive(s->crowd, s->agents[k], vx, vy), CAIRN_OK);
  }
}

/* STAY: a group of 60 sent to one point, 40 on a field to it, 10 on
 * paths of their own with a radius given, 10 more later (t 40); all
 * start within 14 cells of it, so they arrive and settle in the run. */
static void populate_stay(scene *s) {
  for (s->n = 0; s->n < 120;) s->agents[s->n++] = add_near_goal(s);
  stay_at_goal(s, 0, 60, 1, 0.0f);
  cairn_order f = cairn_order_defaults();
  f.kind = CAIRN_ORDER_FIELD;
  f.goals = &s->goal;
  f.n_goals = 1;
  f.arrival = CAIRN_ARRIVAL_STAY;
  order(s, 60, 100, &f);
  stay_at_goal(s, 100, 110, 0, 3.0f);
}

/* DRIVEN: 100 wanderers, 10 driven agents, 10 more driven by the general
 * order. */
static void populate_driven(scene *s) {
  for (s->n = 0; s->n < 120;) s->agents[s->n++] = add_random(s);
  assert_int_equal(cairn_crowd_order_wander(s->crowd, s->agents, 100, 9), CAIRN_OK);
  drive(s, 100, 110, 0.6f);
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_DRIVEN;
  o.vx = 0.5f;
  o.vy = -0.4f;
  order(s, 110, 120, &o);
}

/* The agents and their first orders. */
static void scene_populate(scene *s) {
  if (s->kind == STAY) {
    populate_stay(s);
    return;
  }
  if (s->kind == DRIVEN) {
    populate_driven(s);
    return;
  }
  size_t n = s->kind == HORDE ? 300 : s->kind == WANDER ? 200 : 120;
  for (s->n = 0; s->n < n;) s->agents[s->n++] = add_random(s);
  cairn_point goals[3] = {pt(2, 2), pt(69, 60), pt(35, 33)};
  for (int k = 0; k < 3; k++) /* open goals on the island of agent 0 */
    while (cairn_grid_cost(s->grid, goals[k].x, goals[k].y) == 0 ||
           !same_island(s, goals[k], cell_of_agent(s, s->agents[0])))
      goals[k] = tu_random_open(&s->rng, s->grid);
  switch (s->kind) {
  case HORDE:
    assert_int_equal(cairn_crowd_order_field(s->crowd, s->agents, 200, goals, 2), CAIRN_OK);
    assert_int_equal(cairn_crowd_order_field(s->crowd, s->agents + 200, 80, goals + 2, 1),
                     CAIRN_OK);
    assert_int_equal(cairn_crowd_order_wander(s->crowd, s->agents + 280, 20, 5), CAIRN_OK);
    break;
  case GROUPS: move_groups(s, 0, n); break;
  case CLAIMS: paths_each(s, 0, n); break;
  case HPA:
    move_groups(s, 0, 60);
    paths_each(s, 60, n);
    break;
  default: assert_int_equal(cairn_crowd_order_wander(s->crowd, s->agents, n, 9), CAIRN_OK);
  }
}

/* The horde's map edits before tick t: a wall across the middle at 20,
 * opened again (at cost 2) at 45. */
static size_t grid_edits(int kind, uint64_t t, cairn_point *cells, uint8_t *cost) {
  if (kind != HORDE || (t != 20 && t != 45)) return 0;
  size_t n = 0;
  for (int32_t x = 10; x < 60; x++) {
    if (x % 7 == 0) continue; /* gaps */
    cells[n] = pt(x, 32);
    cost[n++] = t == 20 ? 0 : 2;
  }
  return n;
}

static void set_cells(scene *s, const cairn_point *cells, const uint8_t *cost, size_t n,
                      int tell_crowd) {
  if (!n) return;
  for (size_t k = 0; k < n; k++)
    assert_int_equal(cairn_grid_set_cost(s->grid, cells[k].x, cells[k].y, cost[k]), CAIRN_OK);
  assert_int_equal(cairn_grid_update_islands(s->grid), CAIRN_OK);
  if (tell_crowd) assert_int_equal(cairn_crowd_grid_changed(s->crowd, cells, n), CAIRN_OK);
}

static void apply_edits(scene *s, uint64_t t, int tell_crowd) {
  cairn_point cells[64];
  uint8_t cost[64] = {0};
  size_t n = grid_edits(s->kind, t, cells, cost);
  set_cells(s, cells, cost, n, tell_crowd);
}

/* The map as it was at tick t (the cells edits touch back to their first
 * costs, then the edits before t), the crowd told. */
static void rewind_grid(scene *s, const uint8_t *first, uint64_t t) {
  cairn_point cells[64];
  uint8_t cost[64];
  size_t n = grid_edits(s->kind, 20, cells, cost);
  for (size_t k = 0; k < n; k++) cost[k] = first[k];
  set_cells(s, cells, cost, n, 1);
  for (uint64_t e = 0; e < t; e++) apply_edits(s, e, 1);
}

/* Orders given between ticks, after a load as before: handles from the
 * first run stay valid in the loaded crowd. */
static void scene_orders(scene *s, uint64_t t) {
  if (t == 25) /* new user values: the events after it carry them */
    for (size_t k = 0; k < 10; k++)
      assert_int_equal(cairn_crowd_set_user(s->crowd, s->agents[k], 5000 + k), CAIRN_OK);
  if (t == 50) { /* an event of every scene: one removed, another in its place */
    assert_int_equal(cairn_crowd_remove(s->crowd, s->agents[s->n - 1]), CAIRN_OK);
    s->agents[s->n - 1] = add_random(s);
  }
  if (s->kind == GROUPS && t == 30) move_groups(s, 0, 30);
  if (s->kind == GROUPS && t == 70) {
    assert_int_equal(cairn_crowd_remove(s->crowd, s->agents[3]), CAIRN_OK);
    assert_int_equal(cairn_crowd_remove(s->crowd, s->agents[50]), CAIRN_OK);
    s->agents[3] = add_random(s);
    s->agents[50] = add_random(s);
    assert_int_equal(cairn_crowd_order_hold(s->crowd, s->agents + 40, 5), CAIRN_OK);
    move_groups(s, 3, 4);
  }
  if (s->kind == CLAIMS && t == 40) paths_each(s, 0, 20);
  if (s->kind == HPA && t == 35) move_groups(s, 0, 20);
  if (s->kind == STAY && t == 40) stay_at_goal(s, 110, 120, 0, 0.0f); /* the radius grows */
  if (s->kind == DRIVEN && t == 30) drive(s, 100, 105, -0.7f);
  if (s->kind == DRIVEN && t == 60) {
    assert_int_equal(cairn_crowd_order_hold(s->crowd, s->agents + 105, 3), CAIRN_OK);
    assert_int_equal(cairn_crowd_order_wander(s->crowd, s->agents + 108, 2, 4), CAIRN_OK);
  }
}

static uint64_t mix(uint64_t h, uint64_t v) {
  for (int k = 0; k < 8; k++) {
    h ^= (v >> (8 * k)) & 0xffu;
    h *= 0x100000001b3ull;
  }
  return h;
}

static uint64_t fmix(uint64_t h, float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return mix(h, u);
}

/* ---- what a crowd answers between ticks ---------------------------- */

/* Where the queries look: an agent's cell before and after a teleport. */
typedef struct probe {
  float x0, y0, x1, y1;
} probe;

/* Right before a save (in every run that passes the save's tick): one
 * agent teleported to another open cell (it stands outside last tick's
 * bins until the next tick: a query must find it where it is, not where
 * it was binned). */
static probe teleport(scene *s, uint64_t t) {
  cairn_agent a = s->agents[(t * 13 + 5) % s->n];
  cairn_agent_info i = tc_info(s->crowd, a);
  cairn_point to = tu_random_open(&s->rng, s->grid);
  probe p = {i.x, i.y, (float)to.x + 0.5f, (float)to.y + 0.5f};
  assert_int_equal(cairn_crowd_set_position(s->crowd, a, p.x1, p.y1), CAIRN_OK);
  return p;
}

static uint64_t hits_digest(uint64_t h, const cairn_crowd_hit *hit, size_t n) {
  h = mix(h, n);
  for (size_t k = 0; k < n; k++)
    h = fmix(fmix(mix(mix(h, hit[k].agent), hit[k].user), hit[k].x), hit[k].y);
  return h;
}

/* The queries around p: discs of 2.5 cells, boxes of 3 each way, and the
 * whole map. */
static uint64_t queries_digest(const cairn_crowd *c, probe p, uint64_t h) {
  static cairn_crowd_hit hit[MAX_AGENTS];
  size_t n;
  const float xs[2] = {p.x0, p.x1}, ys[2] = {p.y0, p.y1};
  for (int k = 0; k < 2; k++) {
    assert_int_equal(cairn_crowd_query_radius(c, xs[k], ys[k], 2.5f, hit, MAX_AGENTS, &n),
                     CAIRN_OK);
    h = hits_digest(h, hit, n);
    assert_int_equal(cairn_crowd_query_rect(c, xs[k] - 3, ys[k] - 3, xs[k] + 3, ys[k] + 3, hit,
                                            MAX_AGENTS, &n),
                     CAIRN_OK);
    h = hits_digest(h, hit, n);
  }
  assert_int_equal(cairn_crowd_query_rect(c, 0, 0, 72, 64, hit, MAX_AGENTS, &n), CAIRN_OK);
  return hits_digest(h, hit, n);
}

/* Every live agent's export. */
static uint64_t export_digest(const cairn_crowd *c, uint64_t h) {
  static float pos[2 * MAX_AGENTS], vel[2 * MAX_AGENTS], radius[MAX_AGENTS];
  static cairn_agent_state st[MAX_AGENTS];
  static cairn_agent agent[MAX_AGENTS];
  static uint64_t user[MAX_AGENTS];
  cairn_crowd_arrays out = {pos, vel, radius, st, agent, user};
  size_t n;
  assert_int_equal(cairn_crowd_export(c, &out, MAX_AGENTS, &n), CAIRN_OK);
  h = mix(h, n);
  for (size_t k = 0; k < n; k++) {
    h = fmix(fmix(fmix(fmix(fmix(h, pos[2 * k]), pos[2 * k + 1]), vel[2 * k]), vel[2 * k + 1]),
             radius[k]);
    h = mix(mix(mix(h, (uint64_t)st[k]), agent[k]), user[k]);
  }
  return h;
}

/* The figures a game reads between ticks. */
static uint64_t stats_digest(const cairn_crowd *c, uint64_t h) {
  cairn_crowd_stats s;
  cairn_crowd_get_stats(c, &s);
  const uint64_t v[] = {s.ticks,       s.agents,   s.active,      s.moving,
                        s.waiting,     s.arrived,  s.unreachable, s.stuck,
                        s.overlaps,    s.in_wall,  s.non_finite,  s.repaths,
                        s.events_lost, s.queued,   s.tick_nodes,  s.max_tick_nodes,
                        s.served};
  for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) h = mix(h, v[k]);
  for (int k = 0; k < 257; k++) h = mix(h, s.wait_hist[k]);
  return mix(h, cairn_crowd_events_pending(c));
}

/* What the crowd answers between ticks, as one digest. */
static uint64_t reads_digest(const cairn_crowd *c, probe p) {
  return stats_digest(c, export_digest(c, queries_digest(c, p, 0xcbf29ce484222325ull)));
}

/* ---- resuming -------------------------------------------------------- */

static void assert_same_save(const cairn_crowd *c, const uint8_t *want, size_t want_len) {
  size_t len;
  uint8_t *buf = tc_save_of(c, &len);
  assert_int_equal(len, want_len);
  assert_memory_equal(buf, want, len);
  free(buf);
}

static const uint64_t save_ticks[] = {0, 9, 21, 33, 47, 58, 71, 86, 100};
#define N_SAVES (sizeof save_ticks / sizeof save_ticks[0])

static int is_save_tick(uint64_t t) {
  for (size_t k = 0; k < N_SAVES; k++)
    if (save_ticks[k] == t) return 1;
  return 0;
}

/* The events drained after tick t (every DRAIN_EVERY ticks): a digest of
 * every field of each, in order; 0 when none were drained. */
static uint64_t drain(scene *s, uint64_t t) {
  if (t % DRAIN_EVERY) return 0;
  cairn_crowd_event ev[16];
  uint64_t h = 0xcbf29ce484222325ull;
  size_t n;
  do {
    assert_int_equal(cairn_crowd_events(s->crowd, ev, 16, &n), CAIRN_OK);
    for (size_t k = 0; k < n; k++)
      h = mix(mix(mix(mix(h, ev[k].agent), ev[k].user), ev[k].tick), (uint64_t)ev[k].kind);
    s->events += n;
  } while (n == 16);
  return h;
}

/* Ticks from..to, edits and orders first, and at a save's tick the
 * teleport before it (at `from` it was done before the save); after each
 * tick its hash and the events drained. */
static void scene_run(scene *s, uint64_t from, uint64_t to, trace *tr) {
  for (uint64_t t = from; t < to; t++) {
    if (t != from && is_save_tick(t)) teleport(s, t);
    apply_edits(s, t, 1);
    scene_orders(s, t);
    assert_int_equal(cairn_crowd_tick(s->crowd), CAIRN_OK);
    tr->hash[t + 1] = cairn_crowd_hash(s->crowd);
    tr->events[t + 1] = drain(s, t + 1);
  }
}

/* A save and what the scene's own code needs to go on from it, with what
 * the crowd answered right then. */
typedef struct snapshot {
  uint8_t *bytes;
  size_t len;
  uint64_t tick, rng;
  cairn_agent agents[MAX_AGENTS];
  size_t n;
  probe where; /* the agent teleported before the save */
  uint64_t hash, reads;
} snapshot;

static void take(scene *s, uint64_t t, snapshot *out) {
  out->where = teleport(s, t);
  out->hash = cairn_crowd_hash(s->crowd);
  out->reads = reads_digest(s->crowd, out->where);
  out->bytes = tc_save_of(s->crowd, &out->len);
  out->tick = t;
  out->rng = s->rng;
  memcpy(out->agents, s->agents, sizeof s->agents);
  out->n = s->n;
}

/* The scene picks up from snapshot k: its crowd loaded, its own state. */
static void resume(scene *s, const snapshot *k) {
  cairn_error err;
  cairn_status st = cairn_crowd_load(s->crowd, k->bytes, k->len, &err);
  if (st != CAIRN_OK) fail_msg("load at tick %llu: %s", (unsigned long long)k->tick, err.message);
  s->rng = k->rng;
  memcpy(s->agents, k->agents, sizeof s->agents);
  s->n = k->n;
}

/* From snapshot k to the end: the same answers right after the load, the
 * same hash and the same events drained after every tick as the first
 * run, and the same final save. */
static void assert_goes_on_alike(scene *s, const snapshot *k, const trace *a,
                                 const uint8_t *end, size_t end_len) {
  static trace b;
  assert_int_equal(cairn_crowd_hash(s->crowd), k->hash);
  if (reads_digest(s->crowd, k->where) != k->reads)
    fail_msg("loaded at tick %llu: the export, queries or figures differ",
             (unsigned long long)k->tick);
  scene_run(s, k->tick, TOTAL_TICKS, &b);
  for (uint64_t t = k->tick + 1; t <= TOTAL_TICKS; t++) {
    if (b.hash[t] != a->hash[t])
      fail_msg("loaded at tick %llu: hash differs at tick %llu", (unsigned long long)k->tick,
               (unsigned long long)t);
    if (b.events[t] != a->events[t])
      fail_msg("loaded at tick %llu: the events drained after tick %llu differ",
               (unsigned long long)k->tick, (unsigned long long)t);
  }
  assert_same_save(s->crowd, end, end_len);
}

/* What the scene's first run must show to test what it claims. */
static void assert_scene_did(const scene *s) {
  cairn_crowd_stats st;
  cairn_crowd_get_stats(s->crowd, &st);
  assert_true(s->events >= (s->kind == HORDE || s->kind == STAY ? 20 : 1));
  if (s->kind == GROUPS) assert_true(st.events_lost > 0);
  if (s->kind == STAY) assert_true(st.arrived >= 20);
  if (s->kind == DRIVEN) assert_true(st.moving >= 10);
}

/* Saves at save_ticks during a run of TOTAL_TICKS at threads_a: each
 * loaded into a new crowd at threads_b, and the first crowd rolled back to
 * each, goes on as the first run did. */
static void resume_equal(int kind, int threads_a, int threads_b) {
  scene a;
  scene_setup(&a, kind, threads_a, NULL);
  uint8_t first[64] = {0};
  {
    cairn_point cells[64];
    uint8_t cost[64];
    size_t n = grid_edits(kind, 20, cells, cost);
    for (size_t k = 0; k < n; k++)
      first[k] = (uint8_t)cairn_grid_cost(a.grid, cells[k].x, cells[k].y);
  }
  scene_populate(&a);
  static trace ta;
  static snapshot snap[N_SAVES];
  int in_flight = 0;
  uint64_t t = 0;
  for (size_t k = 0; k < N_SAVES; k++) {
    scene_run(&a, t, save_ticks[k], &ta);
    t = save_ticks[k];
    in_flight += a.crowd->in_search;
    take(&a, t, &snap[k]);
  }
  scene_run(&a, t, TOTAL_TICKS, &ta);
  assert_scene_did(&a);
  size_t end_len;
  uint8_t *end = tc_save_of(a.crowd, &end_len);
  printf("%s, %d -> %d threads: %d of %zu saves inside a search, the last %zu bytes, "
         "%llu events\n",
         kind_name[kind], threads_a, threads_b, in_flight, N_SAVES, snap[N_SAVES - 1].len,
         (unsigned long long)a.events);
  if (kind == GROUPS || kind == CLAIMS || kind == HPA) assert_true(in_flight >= 2);
  for (size_t k = 0; k < N_SAVES; k++) {
    scene b;
    scene_setup(&b, kind, threads_b, NULL);
    /* the map as it was at the save, the new crowd told (its cache
     * refuses a grid that changed unreported) */
    for (uint64_t e = 0; e < snap[k].tick; e++) apply_edits(&b, e, 1);
    resume(&b, &snap[k]);
    assert_same_save(b.crowd, snap[k].bytes, snap[k].len); /* save, load, save */
    assert_goes_on_alike(&b, &snap[k], &ta, end, end_len);
    scene_free(&b);
  }
  /* rollback: the first crowd, at the end, back to each save */
  for (size_t k = N_SAVES; k-- > 0;) {
    rewind_grid(&a, first, snap[k].tick);
    resume(&a, &snap[k]);
    assert_same_save(a.crowd, snap[k].bytes, snap[k].len);
    assert_goes_on_alike(&a, &snap[k], &ta, end, end_len);
  }
  for (size_t k = 0; k < N_SAVES; k++) free(snap[k].bytes);
  free(end);
  scene_free(&a);
}

static void resume_horde(void **state) {
  (void)state;
  resume_equal(HORDE, 1, 2);
  resume_equal(HORDE, 2, 1);
}
static void resume_groups(void **state) {
  (void)state;
  resume_equal(GROUPS, 1, 2);
  resume_equal(GROUPS, 2, 1);
}
static void resume_claims(void **state) {
  (void)state;
  resume_equal(CLAIMS, 1, 2);
  resume_equal(CLAIMS, 2, 1);
}
static void resume_hpa(void **state) {
  (void)state;
  resume_equal(HPA, 1, 2);
  resume_equal(HPA, 2, 1);
}
static void resume_wander(void **state) {
  (void)state;
  resume_equal(WANDER, 1, 2);
}
static void resume_stay(void **state) {
  (void)state;
  resume_equal(STAY, 1, 2);
  resume_equal(STAY, 2, 1);
}
static void resume_driven(void **state) {
  (void)state;
  resume_equal(DRIVEN, 1, 2);
  resume_equal(DRIVEN, 2, 1);
}

/* ---- refusals ---------------------------------------------------- */

/* A small crowd: 24 x 20 with walls, claims on, a budget so small that
 * searches span ticks; ten agents: four on a field, six on paths of their
 * own; before tick 5 two of the field's agents take another goal set. */
static cairn_grid *small_grid(void) {
  uint64_t rng = 31;
  return tu_random_grid(&rng, 24, 20, 15, 2);
}

static cairn_crowd_opts small_opts(void) {
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = 12;
  o.threads = 1;
  o.path_budget = 15;
  o.claim_penalty = 1.0f;
  return o;
}

static cairn_crowd *small_crowd(const cairn_grid *g, const cairn_allocator *al,
                                uint64_t ticks) {
  cairn_crowd_opts o = small_opts();
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, al, &c), CAIRN_OK);
  uint64_t rng = 8;
  cairn_agent a[10];
  for (int k = 0; k < 10; k++) {
    cairn_point p = tu_random_open(&rng, g);
    cairn_agent_params ap = {(float)p.x + 0.5f, (float)p.y + 0.5f, 0.3f, 1.5f, 0, 0};
    assert_int_equal(cairn_crowd_add(c, &ap, &a[k]), CAIRN_OK);
  }
  cairn_point goal = tu_random_open(&rng, g), other = tu_random_open(&rng, g);
  assert_int_equal(cairn_crowd_order_field(c, a, 4, &goal, 1), CAIRN_OK);
  for (int k = 4; k < 10; k++)
    assert_int_equal(cairn_crowd_order_path(c, &a[k], 1, tu_random_open(&rng, g)), CAIRN_OK);
  for (uint64_t t = 0; t < ticks; t++) {
    if (t == 5) assert_int_equal(cairn_crowd_order_field(c, a, 2, &other, 1), CAIRN_OK);
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  }
  return c;
}

/* Loading `bytes` into c fails with `want` and leaves c as it was (its
 * hash and its save, `before`). */
static void assert_refused(cairn_crowd *c, const uint8_t *bytes, size_t len, cairn_status want,
                           const uint8_t *before, size_t before_len, int full_check) {
  uint64_t h = cairn_crowd_hash(c);
  cairn_error err;
  cairn_status st = cairn_crowd_load(c, bytes, len, &err);
  if (st != want)
    fail_msg("load of %zu bytes: %s, not %s (%s)", len, cairn_status_str(st),
             cairn_status_str(want), err.message);
  assert_true(strncmp(err.message, "<memory>: ", 10) == 0);
  assert_int_equal(cairn_crowd_hash(c), h);
  if (full_check) assert_same_save(c, before, before_len);
}

/* Two crowds a tick apart continue alike: c (after refused loads) and a
 * twin made afresh. */
static void assert_goes_on_as_twin(cairn_crowd *c, const cairn_grid *g, uint64_t ticks) {
  cairn_crowd *twin = small_crowd(g, NULL, ticks);
  for (int t = 0; t < 30; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    assert_int_equal(cairn_crowd_tick(twin), CAIRN_OK);
    assert_int_equal(cairn_crowd_hash(c), cairn_crowd_hash(twin));
  }
  cairn_crowd_destroy(twin);
}

static void refuses_truncations_and_bit_flips(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *src = small_crowd(g, NULL, 7), *dst = small_crowd(g, NULL, 3);
  assert_true(src->in_search && dst->in_search); /* a search on both sides */
  size_t len, before_len;
  uint8_t *bytes = tc_save_of(src, &len), *before = tc_save_of(dst, &before_len);
  printf("a small save: %zu bytes\n", len);
  for (size_t n = 0; n < len; n++)
    assert_refused(dst, bytes, n, CAIRN_ERR_PARSE, before, before_len, n % 64 == 0);
  uint8_t *bad = malloc(len + 1);
  memcpy(bad, bytes, len);
  bad[len] = 0;
  assert_refused(dst, bad, len + 1, CAIRN_ERR_PARSE, before, before_len, 1);
  for (size_t bit = 0; bit < len * 8; bit++) {
    bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    assert_refused(dst, bad, len, CAIRN_ERR_PARSE, before, before_len, bit % 512 == 0);
    bad[bit / 8] ^= (uint8_t)(1u << (bit % 8));
  }
  /* another version, the checksum right: refused by the version */
  bad[8] = CAIRN_CROWD_SAVE_VERSION + 1;
  tc_reseal(bad, len);
  cairn_error err;
  assert_int_equal(cairn_crowd_load(dst, bad, len, &err), CAIRN_ERR_PARSE);
  char says[32];
  snprintf(says, sizeof says, "version %u", CAIRN_CROWD_SAVE_VERSION + 1);
  assert_non_null(strstr(err.message, says));
  assert_same_save(dst, before, before_len);
  assert_goes_on_as_twin(dst, g, 3);
  free(bad);
  free(before);
  free(bytes);
  cairn_crowd_destroy(src);
  cairn_crowd_destroy(dst);
  cairn_grid_destroy(g);
}

/* Every byte of a save set to 0x00, 0x01, 0x7f and 0xff in turn, the
 * checksum sealed again: the reader refuses it, or takes a state the tick
 * can run (ASan watches). */
static void survives_sealed_corruption(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *src = small_crowd(g, NULL, 7), *dst = small_crowd(g, NULL, 3);
  size_t len, before_len;
  uint8_t *bytes = tc_save_of(src, &len), *before = tc_save_of(dst, &before_len);
  uint8_t *bad = malloc(len);
  const uint8_t values[4] = {0x00, 0x01, 0x7f, 0xff};
  size_t taken = 0, refused = 0;
  for (size_t at = 0; at + 8 < len; at++)
    for (int v = 0; v < 4; v++) {
      memcpy(bad, bytes, len);
      if (bad[at] == values[v]) continue;
      bad[at] = values[v];
      tc_reseal(bad, len);
      cairn_error err;
      uint64_t h = cairn_crowd_hash(dst);
      cairn_status st = cairn_crowd_load(dst, bad, len, &err);
      if (st == CAIRN_OK) {
        taken++;
        for (int t = 0; t < 3; t++) cairn_crowd_tick(dst);
        assert_int_equal(cairn_crowd_load(dst, before, before_len, &err), CAIRN_OK);
        continue;
      }
      refused++;
      assert_true(st == CAIRN_ERR_PARSE || st == CAIRN_ERR_MISMATCH);
      assert_int_equal(cairn_crowd_hash(dst), h);
    }
  printf("sealed corruptions: %zu taken, %zu refused\n", taken, refused);
  assert_true(refused > 1000);
  assert_same_save(dst, before, before_len);
  free(bad);
  free(before);
  free(bytes);
  cairn_crowd_destroy(src);
  cairn_crowd_destroy(dst);
  cairn_grid_destroy(g);
}

/* The only place of the 4 bytes of f in a save. */
static size_t place_of_float(const uint8_t *b, size_t len, float f) {
  size_t at = len;
  for (size_t k = 0; k + 4 <= len; k++)
    if (memcmp(b + k, &f, 4) == 0) {
      assert_int_equal(at, len); /* once */
      at = k;
    }
  assert_true(at < len);
  return at;
}

/* A velocity no tick leaves (over one cell a tick on an axis), finite or
 * not, is refused: a huge one overflowed the avoidance into NaN
 * positions. One just within is taken and ticks on. */
static void refuses_runaway_velocities(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *src = small_crowd(g, NULL, 7), *dst = small_crowd(g, NULL, 3);
  const float mark = 7.123f; /* 0.71 cells a tick at dt 0.1: one a tick can leave */
  src->vy[2] = mark;
  size_t len, before_len;
  uint8_t *bytes = tc_save_of(src, &len), *before = tc_save_of(dst, &before_len);
  size_t at = place_of_float(bytes, len, mark);
  const float bad[] = {3e38f, -3e38f, 10.5f, -10.5f, INFINITY, NAN};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    memcpy(bytes + at, &bad[k], 4);
    tc_reseal(bytes, len);
    assert_refused(dst, bytes, len, CAIRN_ERR_PARSE, before, before_len, 1);
  }
  const float within = 9.9f; /* 0.99 cells a tick */
  memcpy(bytes + at, &within, 4);
  tc_reseal(bytes, len);
  cairn_error err;
  assert_int_equal(cairn_crowd_load(dst, bytes, len, &err), CAIRN_OK);
  for (int t = 0; t < 20; t++) {
    assert_int_equal(cairn_crowd_tick(dst), CAIRN_OK);
    cairn_crowd_stats st;
    cairn_crowd_get_stats(dst, &st);
    assert_int_equal(st.non_finite, 0);
  }
  free(before);
  free(bytes);
  cairn_crowd_destroy(src);
  cairn_crowd_destroy(dst);
  cairn_grid_destroy(g);
}

/* A crowd like the small one but for what `change` alters. */
static void assert_mismatch(const uint8_t *bytes, size_t len, const cairn_grid *g,
                            const cairn_crowd_opts *o, const char *says) {
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, o, NULL, &c), CAIRN_OK);
  size_t before_len;
  uint8_t *before = tc_save_of(c, &before_len);
  cairn_error err;
  assert_int_equal(cairn_crowd_load(c, bytes, len, &err), CAIRN_ERR_MISMATCH);
  if (!strstr(err.message, says)) fail_msg("'%s' does not say '%s'", err.message, says);
  assert_same_save(c, before, before_len);
  free(before);
  cairn_crowd_destroy(c);
}

static void refuses_another_map_or_options(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *src = small_crowd(g, NULL, 7);
  size_t len;
  uint8_t *bytes = tc_save_of(src, &len);
  cairn_crowd_opts o = small_opts();
  /* the map: one cell's cost, the size */
  cairn_grid *other = small_grid();
  cairn_point p = {0, 0};
  while (cairn_grid_cost(other, p.x, p.y) != 1) p.x++;
  assert_int_equal(cairn_grid_set_cost(other, p.x, p.y, 2), CAIRN_OK);
  assert_mismatch(bytes, len, other, &o, "walk grid's fingerprint");
  cairn_grid *wide = NULL;
  assert_int_equal(cairn_grid_create(25, 20, 1, NULL, &wide), CAIRN_OK);
  assert_mismatch(bytes, len, wide, &o, "walk grid's width");
  /* a route grid, a layer, a hierarchy the save did not have */
  cairn_crowd_opts x = o;
  x.route_grid = g;
  assert_mismatch(bytes, len, g, &x, "route grid");
  cairn_penalty *layer = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &layer), CAIRN_OK);
  x = o;
  x.penalty = layer;
  assert_mismatch(bytes, len, g, &x, "penalty layer");
  cairn_hpa *h = NULL;
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.threads = 1;
  assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_OK);
  x = o;
  x.hpa = h;
  assert_mismatch(bytes, len, g, &x, "hierarchy");
  /* the options that change results */
  x = o;
  x.max_agents = 13;
  assert_mismatch(bytes, len, g, &x, "max_agents");
  x = o;
  x.dt = 0.05f;
  assert_mismatch(bytes, len, g, &x, "dt");
  x = o;
  x.path_budget = 16;
  assert_mismatch(bytes, len, g, &x, "path_budget");
  x = o;
  x.claim_penalty = 0.0f;
  assert_mismatch(bytes, len, g, &x, "claim_penalty");
  x = o;
  x.waypoints = 8;
  assert_mismatch(bytes, len, g, &x, "waypoints");
  x = o;
  x.max_events = 10; /* when events are lost */
  assert_mismatch(bytes, len, g, &x, "max_events");
  /* what may differ: threads, chunk, the cache's budget */
  x = o;
  x.threads = 2;
  x.chunk = 3;
  x.field_cache_bytes = 1 << 20;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &x, NULL, &c), CAIRN_OK);
  cairn_error err;
  assert_int_equal(cairn_crowd_load(c, bytes, len, &err), CAIRN_OK);
  assert_int_equal(cairn_crowd_hash(c), cairn_crowd_hash(src));
  cairn_crowd_destroy(c);
  cairn_hpa_destroy(h);
  cairn_penalty_destroy(layer);
  cairn_grid_destroy(wide);
  cairn_grid_destroy(other);
  free(bytes);
  cairn_crowd_destroy(src);
  cairn_grid_destroy(g);
}

/* A hierarchy for saves over one: cluster 8 on g, with max_size and levels
 * as asked. */
static cairn_hpa *hierarchy(const cairn_grid *g, int32_t max_size, int levels) {
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.cluster = 8;
  ho.threads = 1;
  ho.max_size = max_size;
  ho.levels = levels;
  cairn_hpa *h = NULL;
  assert_int_equal(cairn_hpa_create(g, &ho, NULL, &h), CAIRN_OK);
  return h;
}

/* A save over a hierarchy describes it well enough to build it again, and
 * refuses a crowd whose hierarchy answers other sizes or has other levels,
 * naming the hierarchy. */
static void hierarchy_recorded(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_hpa *h = hierarchy(g, 2, 3);
  cairn_crowd_opts o = small_opts();
  o.hpa = h;
  cairn_crowd *c = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_OK);
  size_t len;
  uint8_t *bytes = tc_save_of(c, &len);
  cairn_crowd_save_info info;
  cairn_error err;
  assert_int_equal(cairn_crowd_read_info(bytes, len, &info, &err), CAIRN_OK);
  cairn_hpa_stats hs;
  cairn_hpa_get_stats(h, &hs);
  assert_int_equal(info.hpa, 1);
  assert_int_equal(info.hpa_cluster, 8);
  assert_int_equal(info.hpa_levels, 3);
  assert_int_equal(info.hpa_block, hs.block);
  assert_true(hs.block > 0);
  assert_int_equal(info.hpa_max_size, 2);
  /* the hierarchy made again from the description takes the save */
  cairn_hpa *again = hierarchy(g, info.hpa_max_size, info.hpa_levels);
  cairn_crowd_opts x = o;
  x.hpa = again;
  cairn_crowd *twin = NULL;
  assert_int_equal(cairn_crowd_create(g, &x, NULL, &twin), CAIRN_OK);
  assert_int_equal(cairn_crowd_load(twin, bytes, len, &err), CAIRN_OK);
  assert_int_equal(cairn_crowd_hash(twin), cairn_crowd_hash(c));
  cairn_crowd_destroy(twin);
  /* another largest size: refused by name */
  cairn_hpa *small = hierarchy(g, 1, 3);
  x.hpa = small;
  assert_mismatch(bytes, len, g, &x, "hierarchy's");
  cairn_hpa *two = hierarchy(g, 2, 2);
  x.hpa = two;
  assert_mismatch(bytes, len, g, &x, "hierarchy's");
  /* a save without one says 0 for each */
  cairn_crowd *plain = small_crowd(g, NULL, 3);
  size_t plain_len;
  uint8_t *plain_bytes = tc_save_of(plain, &plain_len);
  assert_int_equal(cairn_crowd_read_info(plain_bytes, plain_len, &info, &err), CAIRN_OK);
  assert_int_equal(info.hpa + info.hpa_cluster + info.hpa_levels + info.hpa_block, 0);
  assert_int_equal(info.hpa_max_size, 0);
  free(plain_bytes);
  cairn_crowd_destroy(plain);
  cairn_hpa_destroy(two);
  cairn_hpa_destroy(small);
  cairn_hpa_destroy(again);
  free(bytes);
  cairn_crowd_destroy(c);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
}

static void sizes_and_arguments(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *c = small_crowd(g, NULL, 4);
  size_t len = 0, got = 0;
  assert_int_equal(cairn_crowd_save(c, NULL, 0, &len), CAIRN_ERR_BUFFER);
  assert_true(len > 100);
  uint8_t *buf = malloc(len);
  assert_int_equal(cairn_crowd_save(c, buf, 0, &got), CAIRN_ERR_BUFFER);
  assert_int_equal(got, len);
  assert_int_equal(cairn_crowd_save(c, buf, len - 1, &got), CAIRN_ERR_BUFFER);
  assert_int_equal(got, len);
  assert_int_equal(cairn_crowd_save(c, buf, len, &got), CAIRN_OK);
  assert_int_equal(got, len);
  assert_int_equal(cairn_crowd_save(NULL, buf, len, &got), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_save(c, buf, len, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_load(NULL, buf, len, NULL), CAIRN_ERR_ARG);
  assert_int_equal(cairn_crowd_load(c, NULL, len, NULL), CAIRN_ERR_ARG);
  cairn_crowd_save_info info;
  cairn_error err;
  assert_int_equal(cairn_crowd_read_info(buf, len, &info, &err), CAIRN_OK);
  assert_int_equal(info.version, CAIRN_CROWD_SAVE_VERSION);
  assert_int_equal(info.tick, 4);
  assert_int_equal(info.agents, 10);
  assert_int_equal(info.width, 24);
  assert_int_equal(info.height, 20);
  assert_int_equal(info.opts.max_agents, 12);
  assert_int_equal(info.opts.path_budget, 15);
  assert_true(info.opts.claim_penalty == 1.0f);
  assert_int_equal(info.opts.max_events, 4096);
  assert_int_equal(info.hpa, 0);
  assert_int_equal(info.penalty_fingerprint, 0);
  assert_int_equal(cairn_crowd_read_info(buf, len - 1, &info, &err), CAIRN_ERR_PARSE);
  assert_non_null(strstr(err.message, "<memory>: truncated"));
  /* a layer written but not yet taken in: no save */
  cairn_penalty *layer = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &layer), CAIRN_OK);
  cairn_crowd_opts o = small_opts();
  o.penalty = layer;
  cairn_crowd *lc = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &lc), CAIRN_OK);
  assert_int_equal(cairn_crowd_save(lc, NULL, 0, &got), CAIRN_ERR_BUFFER);
  assert_int_equal(cairn_penalty_add(layer, 3, 3, 100), CAIRN_OK);
  assert_int_equal(cairn_crowd_save(lc, NULL, 0, &got), CAIRN_ERR_STATE);
  size_t llen;
  uint8_t *lbytes = malloc(1);
  assert_int_equal(cairn_crowd_load(lc, lbytes, 1, &err), CAIRN_ERR_STATE); /* nor a load */
  free(lbytes);
  assert_int_equal(cairn_crowd_layer_changed(lc), CAIRN_OK);
  lbytes = tc_save_of(lc, &llen);
  assert_int_equal(cairn_crowd_load(lc, lbytes, llen, &err), CAIRN_OK);
  free(lbytes);
  cairn_crowd_destroy(lc);
  cairn_penalty_destroy(layer);
  free(buf);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

static int file_exists(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f) fclose(f);
  return f != NULL;
}

/* Files: saved and loaded; a failed save leaves the good file; a file
 * that cannot be read, or a damaged one, is refused naming the file. */
static void files(void **state) {
  (void)state;
  const char *path = "test_crowd_save.crowd";
  cairn_grid *g = small_grid();
  cairn_crowd *src = small_crowd(g, NULL, 7), *dst = small_crowd(g, NULL, 2);
  cairn_error err;
  assert_int_equal(cairn_crowd_save_file(src, path, &err), CAIRN_OK);
  assert_false(file_exists("test_crowd_save.crowd.tmp0"));
  cairn_crowd_save_info info;
  assert_int_equal(cairn_crowd_read_info_file(path, &info, &err), CAIRN_OK);
  assert_int_equal(info.tick, 7);
  assert_int_equal(cairn_crowd_load_file(dst, path, &err), CAIRN_OK);
  assert_int_equal(cairn_crowd_hash(dst), cairn_crowd_hash(src));
  /* a save that fails (the layer moved under it) replaces nothing */
  cairn_penalty *layer = NULL;
  assert_int_equal(cairn_penalty_create(g, NULL, &layer), CAIRN_OK);
  cairn_crowd_opts o = small_opts();
  o.penalty = layer;
  cairn_crowd *lc = NULL;
  assert_int_equal(cairn_crowd_create(g, &o, NULL, &lc), CAIRN_OK);
  assert_int_equal(cairn_penalty_add(layer, 3, 3, 100), CAIRN_OK);
  assert_int_equal(cairn_crowd_save_file(lc, path, &err), CAIRN_ERR_STATE);
  assert_non_null(strstr(err.message, path));
  assert_false(file_exists("test_crowd_save.crowd.tmp0"));
  assert_int_equal(cairn_crowd_load_file(dst, path, &err), CAIRN_OK);
  /* unreadable, damaged */
  assert_int_equal(cairn_crowd_load_file(dst, "no/such/dir/x.crowd", &err), CAIRN_ERR_IO);
  assert_non_null(strstr(err.message, "no/such/dir/x.crowd"));
  assert_int_equal(cairn_crowd_save_file(src, "no/such/dir/x.crowd", &err), CAIRN_ERR_IO);
  FILE *f = fopen(path, "r+b");
  assert_non_null(f);
  fseek(f, 100, SEEK_SET);
  fputc(0x5a, f);
  fclose(f);
  uint64_t h = cairn_crowd_hash(dst);
  assert_int_equal(cairn_crowd_load_file(dst, path, &err), CAIRN_ERR_PARSE);
  assert_non_null(strstr(err.message, "test_crowd_save.crowd: corrupt"));
  assert_int_equal(cairn_crowd_hash(dst), h);
  assert_int_equal(cairn_crowd_read_info_file(path, &info, &err), CAIRN_ERR_PARSE);
  remove(path);
  cairn_crowd_destroy(lc);
  cairn_penalty_destroy(layer);
  cairn_crowd_destroy(src);
  cairn_crowd_destroy(dst);
  cairn_grid_destroy(g);
}

/* ---- what a save refuses, what a load tells ---------------------------- */

/* A field the caller built to goal, as a game does. */
static cairn_field *caller_field_to(const cairn_grid *g, cairn_point goal) {
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
  assert_int_equal(cairn_field_create(g, NULL, &f), CAIRN_OK);
  cairn_flow_opts fo = cairn_flow_defaults();
  fo.threads = 1;
  assert_int_equal(cairn_field_build(b, f, g, &goal, 1, &fo), CAIRN_OK);
  cairn_flow_builder_destroy(b);
  return f;
}

/* While agents follow a field of the caller's the crowd is not saved
 * (CAIRN_ERR_STATE, the detail from cairn_crowd_save_check and in the
 * file's message, no file written); ordered onto the cache's field to the
 * same goal, it is. A load into a crowd that holds a caller's field lets
 * it go untouched: the caller's field still reads, and is the caller's to
 * free. */
static void caller_fields_are_not_saved(void **state) {
  (void)state;
  const char *path = "test_crowd_save_caller.crowd";
  cairn_grid *g = small_grid();
  cairn_crowd *c = small_crowd(g, NULL, 3);
  uint64_t rng = 5;
  cairn_point goal = tu_random_open(&rng, g);
  cairn_field *f = caller_field_to(g, goal);
  /* three of small_crowd's agents (slots 1, 2 and 7, first generation) */
  const cairn_agent gen1 = (cairn_agent)1 << 32;
  cairn_agent a[3] = {1 | gen1, 2 | gen1, 7 | gen1};
  cairn_order o = cairn_order_defaults();
  o.kind = CAIRN_ORDER_FIELD;
  o.field = f;
  assert_int_equal(cairn_crowd_order(c, a, 3, &o), CAIRN_OK);
  assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
  size_t len = 1;
  assert_int_equal(cairn_crowd_save(c, NULL, 0, &len), CAIRN_ERR_STATE);
  assert_int_equal(len, 0);
  char why[160];
  assert_int_equal(cairn_crowd_save_check(c, why, sizeof why), CAIRN_ERR_STATE);
  assert_non_null(strstr(why, "3 agents follow a field of the caller's"));
  cairn_error err;
  remove(path);
  assert_int_equal(cairn_crowd_save_file(c, path, &err), CAIRN_ERR_STATE);
  assert_non_null(strstr(err.message, path));
  assert_non_null(strstr(err.message, "field of the caller's"));
  assert_false(file_exists(path));
  /* the cache's field to the same goal: saved, and taken back */
  assert_int_equal(cairn_crowd_order_field(c, a, 3, &goal, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_save_check(c, why, sizeof why), CAIRN_OK);
  assert_string_equal(why, "");
  size_t n;
  uint8_t *bytes = tc_save_of(c, &n);
  /* a crowd holding the caller's field loads it */
  cairn_crowd *d = small_crowd(g, NULL, 1);
  assert_int_equal(cairn_crowd_order(d, a, 2, &o), CAIRN_OK);
  assert_int_equal(cairn_crowd_load(d, bytes, n, &err), CAIRN_OK);
  assert_same_save(d, bytes, n);
  for (int k = 0; k < CAIRN_CROWD_MAX_FIELDS; k++) assert_true(d->fields[k].field != f);
  cairn_flow_sample smp;
  assert_int_equal(cairn_field_sample(f, (float)goal.x + 0.5f, (float)goal.y + 0.5f, &smp),
                   CAIRN_OK);
  for (int t = 0; t < 5; t++) {
    assert_int_equal(cairn_crowd_tick(c), CAIRN_OK);
    assert_int_equal(cairn_crowd_tick(d), CAIRN_OK);
    assert_int_equal(cairn_crowd_hash(c), cairn_crowd_hash(d));
  }
  free(bytes);
  cairn_crowd_destroy(d);
  cairn_crowd_destroy(c);
  cairn_field_destroy(f);
  cairn_grid_destroy(g);
}

/* A grid edit the crowd was not told of: no save and no load
 * (CAIRN_ERR_STATE, saying which grid), the load's refusal being also
 * cairn_crowd_error's; told, both go through and the detail is gone. */
static void unreported_edits_are_refused(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *c = small_crowd(g, NULL, 4);
  size_t len;
  uint8_t *bytes = tc_save_of(c, &len);
  cairn_point p = {0, 0};
  while (cairn_grid_cost(g, p.x, p.y) != 1) p.x++;
  assert_int_equal(cairn_grid_set_cost(g, p.x, p.y, 2), CAIRN_OK);
  char why[160];
  size_t got;
  assert_int_equal(cairn_crowd_save(c, NULL, 0, &got), CAIRN_ERR_STATE);
  assert_int_equal(cairn_crowd_save_check(c, why, sizeof why), CAIRN_ERR_STATE);
  assert_non_null(strstr(why, "walk grid changed since cairn_crowd_grid_changed"));
  cairn_error err;
  uint64_t h = cairn_crowd_hash(c);
  assert_int_equal(cairn_crowd_load(c, bytes, len, &err), CAIRN_ERR_STATE);
  assert_non_null(strstr(err.message, "<memory>: the walk grid changed"));
  assert_string_equal(cairn_crowd_error(c), err.message);
  assert_int_equal(cairn_crowd_hash(c), h);
  /* told: the save is taken (the map it was made on had the old cost, so
   * the load now says which grid differs) */
  assert_int_equal(cairn_crowd_grid_changed(c, &p, 1), CAIRN_OK);
  free(tc_save_of(c, &got));
  assert_int_equal(cairn_crowd_load(c, bytes, len, &err), CAIRN_ERR_MISMATCH);
  assert_non_null(strstr(cairn_crowd_error(c), "walk grid's fingerprint"));
  assert_int_equal(cairn_grid_set_cost(g, p.x, p.y, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_grid_changed(c, &p, 1), CAIRN_OK);
  assert_int_equal(cairn_crowd_load(c, bytes, len, &err), CAIRN_OK);
  assert_string_equal(cairn_crowd_error(c), "");
  assert_string_equal(err.message, "");
  assert_same_save(c, bytes, len);
  /* a file that cannot be read: its line too */
  assert_int_equal(cairn_crowd_load_file(c, "no/such/dir/y.crowd", NULL), CAIRN_ERR_IO);
  assert_non_null(strstr(cairn_crowd_error(c), "no/such/dir/y.crowd: cannot open"));
  free(bytes);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* A route over a stale hierarchy (its grid edited behind it, the crowd
 * told) does not resume: CAIRN_ERR_STATE, as the hierarchy's own reads
 * answer; once the hierarchy is updated, the load takes it. */
static void stale_hierarchy_refuses_the_route(void **state) {
  (void)state;
  scene a, b;
  scene_setup(&a, HPA, 1, NULL);
  scene_populate(&a);
  while (!a.crowd->in_search) assert_int_equal(cairn_crowd_tick(a.crowd), CAIRN_OK);
  size_t len;
  uint8_t *bytes = tc_save_of(a.crowd, &len);
  scene_setup(&b, HPA, 1, NULL);
  cairn_point p = {0, 0};
  while (cairn_grid_cost(b.grid, p.x, p.y) != 1) p.x++;
  assert_int_equal(cairn_grid_set_cost(b.grid, p.x, p.y, 2), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(b.grid, p.x, p.y, 1), CAIRN_OK); /* the same map */
  assert_int_equal(cairn_crowd_grid_changed(b.crowd, &p, 1), CAIRN_OK);
  cairn_error err;
  assert_int_equal(cairn_crowd_load(b.crowd, bytes, len, &err), CAIRN_ERR_STATE);
  assert_non_null(strstr(err.message, "the hierarchy is stale"));
  assert_int_equal(cairn_hpa_update(b.hpa, b.grid, (cairn_rect){p.x, p.y, 1, 1}), CAIRN_OK);
  assert_int_equal(cairn_crowd_load(b.crowd, bytes, len, &err), CAIRN_OK);
  assert_same_save(b.crowd, bytes, len);
  free(bytes);
  scene_free(&b);
  scene_free(&a);
}

/* ---- handles ------------------------------------------------------- */

/* A removed agent's handle stays stale in the loaded crowd
 * (CAIRN_ERR_STALE, with the crowd's detail), and its removal waits
 * there as an event with its user value; the slot's new agent answers. */
static void stale_handles_stay_stale(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *c = small_crowd(g, NULL, 2);
  cairn_agent gone = (cairn_agent)4 | (cairn_agent)1 << 32;
  assert_int_equal(cairn_crowd_set_user(c, gone, 77), CAIRN_OK);
  assert_int_equal(cairn_crowd_remove(c, gone), CAIRN_OK);
  cairn_agent_params ap = {1.5f, 1.5f, 0.3f, 1.5f, 0, 78};
  uint64_t rng = 3;
  cairn_point p = tu_random_open(&rng, g);
  ap.x = (float)p.x + 0.5f;
  ap.y = (float)p.y + 0.5f;
  cairn_agent fresh;
  assert_int_equal(cairn_crowd_add(c, &ap, &fresh), CAIRN_OK);
  assert_int_equal(fresh & 0xffffffffu, 4); /* the slot again, a new generation */
  size_t len;
  uint8_t *bytes = tc_save_of(c, &len);
  cairn_crowd *d = small_crowd(g, NULL, 0);
  cairn_error err;
  assert_int_equal(cairn_crowd_load(d, bytes, len, &err), CAIRN_OK);
  cairn_agent_info info;
  assert_int_equal(cairn_crowd_get(d, gone, &info), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_remove(d, gone), CAIRN_ERR_STALE);
  assert_non_null(strstr(cairn_crowd_error(d), "stale"));
  assert_int_equal(cairn_crowd_get(d, fresh, &info), CAIRN_OK);
  assert_int_equal(info.user, 78);
  cairn_crowd_event ev[64];
  size_t n = 0;
  assert_int_equal(cairn_crowd_events(d, ev, 64, &n), CAIRN_OK);
  size_t k = 0;
  while (k < n && ev[k].kind != CAIRN_EVENT_REMOVED) k++;
  assert_true(k < n);
  assert_int_equal(ev[k].agent, gone);
  assert_int_equal(ev[k].user, 77);
  assert_int_equal(ev[k].tick, 2);
  free(bytes);
  cairn_crowd_destroy(d);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* A load whose memory runs out at allocation k, for every k, says
 * CAIRN_ERR_NOMEM and leaves the crowd as it was; the one that gets its
 * memory takes the state; nothing leaks. The load builds a field its
 * crowd does not hold, a claim table and a search context (the crowd's
 * own is busy). */
static void out_of_memory_changes_nothing(void **state) {
  (void)state;
  cairn_grid *g = small_grid();
  cairn_crowd *src = small_crowd(g, NULL, 7);
  size_t len, before_len;
  uint8_t *bytes = tc_save_of(src, &len);
  tu_alloc t;
  cairn_allocator al = tu_alloc_init(&t, -1);
  cairn_crowd *dst = small_crowd(g, &al, 3);
  assert_true(dst->in_search);
  uint8_t *before = tc_save_of(dst, &before_len);
  long k = 0;
  for (;; k++) {
    t.budget = k;
    uint64_t h = cairn_crowd_hash(dst);
    cairn_error err;
    cairn_status st = cairn_crowd_load(dst, bytes, len, &err);
    t.budget = -1;
    if (st == CAIRN_OK) break;
    assert_int_equal(st, CAIRN_ERR_NOMEM);
    assert_int_equal(cairn_crowd_hash(dst), h);
    assert_same_save(dst, before, before_len);
  }
  printf("a load under a failing allocator: %ld allocations\n", k);
  assert_true(k >= 3);
  assert_int_equal(cairn_crowd_hash(dst), cairn_crowd_hash(src));
  assert_same_save(dst, bytes, len);
  cairn_crowd_destroy(dst);
  assert_int_equal(t.live_bytes, 0);
  assert_int_equal(t.live_blocks, 0);
  assert_int_equal(t.bad_sizes, 0);
  free(before);
  free(bytes);
  cairn_crowd_destroy(src);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(resume_horde),  cmocka_unit_test(resume_groups),
      cmocka_unit_test(resume_claims), cmocka_unit_test(resume_hpa),
      cmocka_unit_test(hierarchy_recorded),
      cmocka_unit_test(resume_wander), cmocka_unit_test(resume_stay),
      cmocka_unit_test(resume_driven),
      cmocka_unit_test(refuses_truncations_and_bit_flips),
      cmocka_unit_test(survives_sealed_corruption),
      cmocka_unit_test(refuses_runaway_velocities),
      cmocka_unit_test(refuses_another_map_or_options),
      cmocka_unit_test(sizes_and_arguments),
      cmocka_unit_test(files),
      cmocka_unit_test(caller_fields_are_not_saved),
      cmocka_unit_test(unreported_edits_are_refused),
      cmocka_unit_test(stale_hierarchy_refuses_the_route),
      cmocka_unit_test(stale_handles_stay_stale),
      cmocka_unit_test(out_of_memory_changes_nothing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
