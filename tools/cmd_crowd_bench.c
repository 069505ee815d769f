/* cairn crowd-bench: the standard local-avoidance scenarios that RVO2 and
 * DetourCrowd are judged on, on generated open maps. Every agent has
 * radius 0.4 cells and top speed 1.5 cells/s, the tick is 0.1 s, and each
 * follows a path of its own to its goal; an agent arrives when its centre
 * is within 0.5 cells of its goal.
 * - circle: N agents on a circle of radius 160 cells, each to the point
 *   opposite; arrived agents stay as bodies.
 * - crossing: two streams of N/2 on lattices of spacing 1 (20 deep, 25
 *   wide), 80 cells to go, crossing at right angles; arrived agents leave.
 * - bottleneck: N agents filling a 40 x 40 room (25 columns against the
 *   door wall) leave through a door 2 cells wide to a goal 20 cells
 *   beyond; arrived agents leave.
 * The run measures what the scenarios' literature reports: the ticks to
 * 50, 90 and 100 % arrived, overlap, the least separation, the mean speed
 * and, through the door, the flow. It only reads the crowd between ticks
 * (and removes those that leave). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/crowd.h"
#include "cli.h"
#include "cli_png.h"

#define BENCH_RADIUS 0.4f
#define BENCH_SPEED 1.5f
#define BENCH_ARRIVE 0.5f
#define CIRCLE_R 160.0
#define CIRCLE_MAX 1256 /* discs 0.8 apart on its 1005-cell rim */
#define LATTICE_WIDE 25
#define ROOM 40           /* the bottleneck's room, cells a side */
#define DOOR_X 41         /* its door wall's column */
#define DOOR_Y 20         /* the door's first cell (2 cells: 20, 21) */
#define ROOM_MAX (ROOM * ROOM)
#define CROSSING_MAX 1800 /* lattices 36 deep: 2 cells from the map's edge */
#define BENCH_TIMED 100000 /* ticks whose time is kept for the median */

typedef enum bench_kind { BENCH_CIRCLE, BENCH_CROSSING, BENCH_BOTTLENECK } bench_kind;
static const char *const kind_names[] = {"circle", "crossing", "bottleneck"};

typedef struct bench_args {
  bench_kind kind;
  long agents, threads, ticks;
  double neighbours; /* the crowd's neighbour radius and bin side (cells) */
  int orca;          /* --avoid orca: 1; steer: 0 */
  double horizon;    /* --horizon S: ORCA's time horizon */
  long orca_n;       /* --orca-neighbours N: the nearest ORCA weighs */
  bool json;
  const char *png; /* the crowd when half had arrived */
} bench_args;

static const char *const value_opts[] = {"--scenario", "--agents", "--threads", "--ticks",
                                         "--png", "--neighbours", "--avoid", "--horizon",
                                         "--orca-neighbours", NULL};

static int parse_args(int argc, char **argv, bench_args *a) {
  memset(a, 0, sizeof *a);
  a->agents = 1000;
  a->ticks = 20000;
  /* ORCA with the settings measured in docs/PERFORMANCE.md; the
   * neighbour radius (0: not given) 3 for ORCA, 1 for the steering */
  a->orca = 1;
  a->neighbours = 0.0;
  a->horizon = 3.0;
  a->orca_n = 6;
  bool given = false;
  cli_args c;
  cli_args_init(&c, argc, argv);
  while (cli_next(&c)) {
    if (cli_is(&c, "--json")) {
      a->json = true;
      continue;
    }
    if (!c.opt || !cli_is_any(&c, value_opts)) {
      cli_error("crowd-bench: unknown option '%s'", c.opt ? c.opt : c.val);
      return EXIT_USAGE;
    }
    const char *v = cli_value(&c);
    if (!v) return EXIT_USAGE;
    if (cli_is(&c, "--scenario")) {
      int k = 0;
      while (k < 3 && strcmp(v, kind_names[k])) k++;
      if (k == 3) {
        cli_error("crowd-bench: --scenario must be circle, crossing or bottleneck, not '%s'", v);
        return EXIT_USAGE;
      }
      a->kind = (bench_kind)k;
      given = true;
    } else if (cli_is(&c, "--agents")) {
      if (!cli_parse_int("--agents", v, 2, 100000, &a->agents)) return EXIT_USAGE;
    } else if (cli_is(&c, "--threads")) {
      if (!cli_parse_int("--threads", v, 1, CAIRN_JOBS_MAX_WORKERS, &a->threads))
        return EXIT_USAGE;
    } else if (cli_is(&c, "--ticks")) {
      if (!cli_parse_int("--ticks", v, 1, 10000000, &a->ticks)) return EXIT_USAGE;
    } else if (cli_is(&c, "--png")) {
      a->png = v;
    } else if (cli_is(&c, "--neighbours")) {
      if (!cli_parse_double("--neighbours", v, 1.0, 8.0, &a->neighbours)) return EXIT_USAGE;
    } else if (cli_is(&c, "--avoid")) {
      if (strcmp(v, "steer") && strcmp(v, "orca")) {
        cli_error("crowd-bench: --avoid must be steer or orca, not '%s'", v);
        return EXIT_USAGE;
      }
      a->orca = v[0] == 'o';
    } else if (cli_is(&c, "--orca-neighbours")) {
      if (!cli_parse_int("--orca-neighbours", v, 1, CAIRN_CROWD_MAX_ORCA, &a->orca_n))
        return EXIT_USAGE;
    } else if (cli_is(&c, "--horizon")) {
      if (!cli_parse_double("--horizon", v, 0.1, 20.0, &a->horizon)) return EXIT_USAGE;
    }
  }
  if (!given) {
    cli_error("crowd-bench needs --scenario circle|crossing|bottleneck");
    return EXIT_USAGE;
  }
  if (a->neighbours == 0.0) a->neighbours = a->orca ? 3.0 : 1.0;
  const long most = a->kind == BENCH_CIRCLE       ? CIRCLE_MAX
                    : a->kind == BENCH_BOTTLENECK ? ROOM_MAX
                                                  : CROSSING_MAX;
  if (a->agents > most) {
    cli_error("crowd-bench: --agents %ld: the %s holds at most %ld", a->agents,
              kind_names[a->kind], most);
    return EXIT_USAGE;
  }
  if (a->png && !cli_png_can_write(a->png)) return EXIT_RUNTIME;
  return EXIT_DONE;
}

/* ---- the scenarios ----------------------------------------------------- */

/* A scenario: its map, each agent's start and goal (x, y in cells), and
 * whether arrived agents leave. The goals are cell centres (a path's goal
 * is a cell); door_x, for the bottleneck, is the door's outer edge. */
typedef struct bench_setup {
  cairn_grid *grid;
  float *start, *goal;
  long n;
  bool leave;
  float door_x;
} bench_setup;

static cairn_status open_map(int32_t w, int32_t h, bench_setup *s) {
  return cairn_grid_create(w, h, 1, NULL, &s->grid);
}

/* The circle around the cell corner (170, 170): agent k on the centre of
 * the cell at angle 2 pi k / n (the nearest free cell when another took
 * it, so each has its own), its goal the centre of the opposite cell. */
static cairn_status circle(bench_setup *s) {
  const int32_t side = 340, mid = 170;
  cairn_status st = open_map(side, side, s);
  uint8_t *taken = calloc((size_t)side * (size_t)side, 1);
  if (st != CAIRN_OK || !taken) {
    free(taken);
    return st != CAIRN_OK ? st : CAIRN_ERR_NOMEM;
  }
  for (long k = 0; k < s->n; k++) {
    const double t = 2.0 * 3.14159265358979323846 * (double)k / (double)s->n;
    const double px = mid + CIRCLE_R * cos(t), py = mid + CIRCLE_R * sin(t);
    int32_t bx = 0, by = 0;
    double best = INFINITY;
    for (int32_t dy = -2; dy <= 2; dy++)
      for (int32_t dx = -2; dx <= 2; dx++) {
        const int32_t x = (int32_t)floor(px) + dx, y = (int32_t)floor(py) + dy;
        const double ex = x + 0.5 - px, ey = y + 0.5 - py, d = ex * ex + ey * ey;
        if (!taken[(size_t)y * (size_t)side + (size_t)x] && d < best) {
          best = d;
          bx = x;
          by = y;
        }
      }
    taken[(size_t)by * (size_t)side + (size_t)bx] = 1;
    s->start[2 * k] = (float)bx + 0.5f;
    s->start[2 * k + 1] = (float)by + 0.5f;
    s->goal[2 * k] = (float)(2 * mid - bx) - 0.5f; /* the cell opposite */
    s->goal[2 * k + 1] = (float)(2 * mid - by) - 0.5f;
  }
  free(taken);
  return CAIRN_OK;
}

/* Two streams around the cell (60, 60): A on a lattice 20 deep (x) and 25
 * wide (y) centred 40 cells west, to the same lattice 80 cells east; B the
 * same turned by 90 degrees (from the north, going south). The lattices
 * sit on cell centres, half a cell off the exact centre along one side. */
static cairn_status crossing(bench_setup *s) {
  cairn_status st = open_map(120, 120, s);
  if (st != CAIRN_OK) return st;
  const long half = s->n / 2, deep = (half + LATTICE_WIDE - 1) / LATTICE_WIDE;
  for (long k = 0; k < s->n; k++) {
    const long m = k < half ? k : k - half, i = m / LATTICE_WIDE, j = m % LATTICE_WIDE;
    /* deep / 2 in whole cells: an odd depth stays on cell centres too */
    const float along = 60.0f - 40.0f - (float)(deep / 2) + (float)i + 0.5f;
    const float across = 60.5f + (float)(j - LATTICE_WIDE / 2);
    const bool b = k >= half;
    s->start[2 * k] = b ? across : along;
    s->start[2 * k + 1] = b ? along : across;
    s->goal[2 * k] = b ? across : along + 80.0f;
    s->goal[2 * k + 1] = b ? along + 80.0f : across;
  }
  s->leave = true;
  return CAIRN_OK;
}

/* The room: cells 1..40 each way inside walls, the door wall's column 41
 * open at rows 20 and 21, an open yard 29 cells deep beyond it, the goal
 * the centre of cell (61, 20). The agents fill columns from the door wall
 * back, 40 to a column. */
static cairn_status bottleneck(bench_setup *s) {
  const int32_t w = DOOR_X + 31, h = ROOM + 2;
  cairn_status st = open_map(w, h, s);
  for (int32_t y = 0; st == CAIRN_OK && y < h; y++)
    for (int32_t x = 0; st == CAIRN_OK && x < w; x++) {
      const bool edge = x == 0 || y == 0 || x == w - 1 || y == h - 1;
      const bool wall = x == DOOR_X && !(y == DOOR_Y || y == DOOR_Y + 1);
      if (edge || wall) st = cairn_grid_set_cost(s->grid, x, y, 0);
    }
  if (st != CAIRN_OK) return st;
  for (long k = 0; k < s->n; k++) {
    s->start[2 * k] = (float)(DOOR_X - 1 - k / ROOM) + 0.5f;
    s->start[2 * k + 1] = (float)(1 + k % ROOM) + 0.5f;
    s->goal[2 * k] = (float)(DOOR_X + 20) + 0.5f;
    s->goal[2 * k + 1] = (float)DOOR_Y + 0.5f;
  }
  s->leave = true;
  s->door_x = (float)(DOOR_X + 1);
  return CAIRN_OK;
}

static cairn_status set_up(bench_kind kind, long n, bench_setup *s) {
  memset(s, 0, sizeof *s);
  s->n = n;
  s->start = malloc((size_t)n * 2 * sizeof *s->start);
  s->goal = malloc((size_t)n * 2 * sizeof *s->goal);
  if (!s->start || !s->goal) return CAIRN_ERR_NOMEM;
  if (kind == BENCH_CIRCLE) return circle(s);
  if (kind == BENCH_CROSSING) return crossing(s);
  return bottleneck(s);
}

static void tear_down(bench_setup *s) {
  cairn_grid_destroy(s->grid);
  free(s->start);
  free(s->goal);
}

/* ---- the run ------------------------------------------------------------ */

/* What the run measures, and the arrays it reads the crowd into. */
typedef struct bench_run {
  long n, ticks;
  cli_arrivals arrive;
  long arrived;
  uint8_t *done;         /* per agent: within 0.5 of its goal once */
  uint8_t *passed;       /* per agent: through the door */
  long *pass_tick, n_pass;
  double min_sep;        /* least centre distance / (sum of the radii) */
  double speed_sum;      /* speed / top speed, over agent-ticks on the way */
  uint64_t speed_n, overlaps, agent_ticks;
  uint64_t in_wall, lost; /* agent-ticks in a wall; agents gone astray */
  float *pos, *vel;
  cairn_agent *agent;
  uint64_t *user;
  cairn_agent *gone;     /* arrived this tick, to remove */
  cairn_crowd_hit hits[64];
  double *tick_us;       /* each tick's time, the first BENCH_TIMED ticks */
  long timed;
} bench_run;

/* Adds the agents and gives each its path order. */
static cairn_status populate(cairn_crowd *c, const bench_setup *s) {
  for (long k = 0; k < s->n; k++) {
    cairn_agent_params p = {s->start[2 * k], s->start[2 * k + 1], BENCH_RADIUS, BENCH_SPEED, 0,
                            (uint64_t)k};
    cairn_agent a;
    cairn_status st = cairn_crowd_add(c, &p, &a);
    if (st != CAIRN_OK) return st;
    cairn_order o = cairn_order_defaults();
    o.kind = CAIRN_ORDER_PATH;
    o.group = 0;
    o.arrival = CAIRN_ARRIVAL_STOP;
    o.goal.x = (int32_t)floorf(s->goal[2 * k]);
    o.goal.y = (int32_t)floorf(s->goal[2 * k + 1]);
    st = cairn_crowd_order(c, &a, 1, &o);
    if (st != CAIRN_OK) return st;
  }
  return CAIRN_OK;
}

/* The least separation among the bodies near agent k at (x, y). */
static void separation(const cairn_crowd *c, bench_run *r, uint64_t k, float x, float y) {
  size_t n = 0;
  const float reach = 2.0f * BENCH_RADIUS;
  cairn_crowd_query_radius(c, x, y, reach, r->hits, 64, &n);
  if (n > 64) n = 64;
  for (size_t i = 0; i < n; i++) {
    if (r->hits[i].user == k) continue;
    const double dx = (double)r->hits[i].x - x, dy = (double)r->hits[i].y - y;
    const double sep = sqrt(dx * dx + dy * dy) / reach;
    if (sep < r->min_sep) r->min_sep = sep;
  }
}

/* Reads the crowd after tick t: arrivals (and those that leave), the
 * door's passages, speeds and separations. */
static cairn_status observe(cairn_crowd *c, const bench_setup *s, bench_run *r, long t) {
  cairn_crowd_arrays out = {r->pos, r->vel, NULL, NULL, r->agent, r->user};
  size_t live = 0, n_gone = 0;
  cairn_status st = cairn_crowd_export(c, &out, (size_t)s->n, &live);
  if (st != CAIRN_OK) return st;
  for (size_t i = 0; i < live; i++) {
    const uint64_t k = r->user[i];
    const float x = r->pos[2 * i], y = r->pos[2 * i + 1];
    if (r->done[k]) continue; /* arrived and staying: a body only */
    if (s->door_x > 0.0f && !r->passed[k] && x >= s->door_x) {
      r->passed[k] = 1;
      r->pass_tick[r->n_pass++] = t;
    }
    const float vx = r->vel[2 * i], vy = r->vel[2 * i + 1];
    r->speed_sum += sqrt((double)vx * vx + (double)vy * vy) / BENCH_SPEED;
    r->speed_n++;
    const double dx = (double)x - s->goal[2 * k], dy = (double)y - s->goal[2 * k + 1];
    if (dx * dx + dy * dy <= (double)BENCH_ARRIVE * BENCH_ARRIVE) {
      r->done[k] = 1;
      r->arrived++;
      if (s->leave) r->gone[n_gone++] = r->agent[i];
    }
  }
  for (size_t i = 0; i < live; i++) separation(c, r, r->user[i], r->pos[2 * i], r->pos[2 * i + 1]);
  for (size_t i = 0; i < n_gone; i++)
    if ((st = cairn_crowd_remove(c, r->gone[i])) != CAIRN_OK) return st;
  cli_arrivals_note(&r->arrive, t, (double)r->arrived, (double)s->n);
  return CAIRN_OK;
}

static cairn_status alloc_run(bench_run *r, long n) {
  memset(r, 0, sizeof *r);
  r->n = n;
  cli_arrivals_init(&r->arrive);
  r->min_sep = INFINITY;
  const size_t m = (size_t)n;
  r->done = calloc(m, 1);
  r->passed = calloc(m, 1);
  r->pass_tick = malloc(m * sizeof *r->pass_tick);
  r->pos = malloc(2 * m * sizeof *r->pos);
  r->vel = malloc(2 * m * sizeof *r->vel);
  r->agent = malloc(m * sizeof *r->agent);
  r->user = malloc(m * sizeof *r->user);
  r->gone = malloc(m * sizeof *r->gone);
  r->tick_us = malloc(BENCH_TIMED * sizeof *r->tick_us);
  return r->done && r->passed && r->pass_tick && r->pos && r->vel && r->agent && r->user &&
                 r->gone && r->tick_us
             ? CAIRN_OK
             : CAIRN_ERR_NOMEM;
}

static void free_run(bench_run *r) {
  free(r->done);
  free(r->passed);
  free(r->pass_tick);
  free(r->pos);
  free(r->vel);
  free(r->agent);
  free(r->user);
  free(r->gone);
  free(r->tick_us);
}

/* The picture of the crowd now. Exit code. */
static int draw(const cairn_crowd *c, const bench_setup *s, bench_run *r, const char *path,
                bench_kind kind, long t) {
  cairn_crowd_arrays out = {NULL, NULL, NULL, NULL, r->agent, NULL};
  size_t live = 0;
  if (cairn_crowd_export(c, &out, (size_t)s->n, &live) != CAIRN_OK) return EXIT_RUNTIME;
  char caption[120];
  snprintf(caption, sizeof caption, "crowd-bench %s: tick %ld, %ld of %ld arrived",
           kind_names[kind], t, r->arrived, s->n);
  cli_png_scene sc = {.grid = s->grid, .caption = caption, .crowd = c, .agents = r->agent,
                      .n_agents = live};
  return cli_png_save(&sc, path);
}

/* Ticks until every agent arrived, none moves any more, or the limit. */
static cairn_status run(cairn_crowd *c, const bench_setup *s, const bench_args *a,
                        bench_run *r, int *png_rc) {
  *png_rc = EXIT_DONE;
  bool drawn = false;
  for (long t = 1; t <= a->ticks; t++) {
    const double t0 = cli_now_us();
    cairn_crowd_tick(c);
    if (r->timed < BENCH_TIMED) r->tick_us[r->timed++] = cli_now_us() - t0;
    cairn_crowd_stats cs;
    cairn_crowd_get_stats(c, &cs);
    r->in_wall += cs.in_wall;
    r->lost += cs.non_finite;
    r->overlaps += cs.overlaps;
    r->agent_ticks += cs.active;
    cairn_status st = observe(c, s, r, t);
    if (st != CAIRN_OK) return st;
    r->ticks = t;
    if (a->png && !drawn && r->arrive.t50 >= 0) {
      *png_rc = draw(c, s, r, a->png, a->kind, t);
      drawn = true;
    }
    if (r->arrived == s->n) break;
    if (cs.moving + cs.waiting + cs.queued == 0) break; /* the rest stand */
  }
  if (a->png && !drawn) *png_rc = draw(c, s, r, a->png, a->kind, r->ticks);
  return CAIRN_OK;
}

/* ---- the report --------------------------------------------------------- */

static int cmp_long(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

/* Agents through the door a second per cell of its width, between the
 * 10th and the 90th percentile of the passages; -1 without enough. */
static double door_flow(bench_run *r, float dt) {
  if (r->n_pass < 10) return -1.0;
  qsort(r->pass_tick, (size_t)r->n_pass, sizeof *r->pass_tick, cmp_long);
  const long lo = r->n_pass / 10, hi = (r->n_pass * 9) / 10;
  const double span = (double)(r->pass_tick[hi] - r->pass_tick[lo]) * dt;
  return span > 0 ? (double)(hi - lo) / span / 2.0 : -1.0;
}

/* The median tick time (sorts the times kept). */
static double median_ms(const bench_run *r) {
  if (!r->timed) return 0.0;
  qsort(r->tick_us, (size_t)r->timed, sizeof *r->tick_us, cli_cmp_double);
  return r->tick_us[r->timed / 2] / 1000.0;
}

static void report(const bench_args *a, const bench_run *r, double flow, uint64_t hash) {
  const double overlap = r->agent_ticks ? 100.0 * (double)r->overlaps / (double)r->agent_ticks : 0;
  const double speed = r->speed_n ? r->speed_sum / (double)r->speed_n : 0;
  const double sep = r->min_sep < 1e30 ? r->min_sep : 0; /* INFINITY: no two ever near */
  const long stuck = r->n - r->arrived;
  if (a->json) {
    printf("{\"scenario\":\"%s\",\"agents\":%ld,\"ticks\":%ld,\"arrived\":%ld", kind_names[a->kind],
           r->n, r->ticks, r->arrived);
    cli_arrivals_json(&r->arrive);
    printf(",\"overlap_pct\":%.3f,\"min_sep\":%.3f,\"stuck\":%ld,\"mean_speed_ratio\":%.3f,"
           "\"in_wall\":%llu,\"lost\":%llu",
           overlap, sep, stuck, speed, (unsigned long long)r->in_wall,
           (unsigned long long)r->lost);
    if (a->kind == BENCH_BOTTLENECK) {
      if (flow >= 0) printf(",\"flow\":%.3f", flow);
      else printf(",\"flow\":null");
    }
    printf(",\"median_tick_ms\":%.3f,\"state_hash\":\"%016llx\"}\n", median_ms(r),
           (unsigned long long)hash);
    return;
  }
  printf("scenario    %s, %ld agents of radius %.1f, top speed %.1f cells/s\n",
         kind_names[a->kind], r->n, (double)BENCH_RADIUS, (double)BENCH_SPEED);
  printf("arrived     %ld after %ld ticks\n", r->arrived, r->ticks);
  printf("arrivals    ");
  cli_arrivals_text(&r->arrive);
  printf("\n");
  printf("overlap     %.3f %% of agent-ticks; least separation %.3f of the radii's sum\n",
         overlap, sep);
  printf("speed       %.3f of the top speed on average; %ld never arrived\n", speed, stuck);
  printf("in a wall   %llu agent-ticks, lost %llu\n", (unsigned long long)r->in_wall,
         (unsigned long long)r->lost);
  if (a->kind == BENCH_BOTTLENECK) {
    if (flow >= 0) printf("flow        %.3f agents a second per cell of door\n", flow);
    else printf("flow        too few passages to say\n");
  }
  printf("tick        %.3f ms (median)\n", median_ms(r));
  printf("state hash  %016llx\n", (unsigned long long)hash);
}

int cmd_crowd_bench(int argc, char **argv) {
  bench_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc != EXIT_DONE) return rc;
  bench_setup s;
  bench_run r;
  cairn_crowd *c = NULL;
  cairn_status st = set_up(a.kind, a.agents, &s);
  if (st == CAIRN_OK) st = alloc_run(&r, a.agents);
  else memset(&r, 0, sizeof r);
  rc = EXIT_RUNTIME;
  if (st != CAIRN_OK) {
    cli_error("crowd-bench: %s", cairn_status_str(st));
    goto done;
  }
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = (uint32_t)a.agents;
  o.threads = (int)a.threads;
  o.neighbour_radius = (float)a.neighbours;
  o.bin_size = (float)a.neighbours;
  o.avoidance = a.orca ? CAIRN_AVOID_ORCA : CAIRN_AVOID_STEER;
  o.orca_horizon = (float)a.horizon;
  o.orca_neighbours = (uint32_t)a.orca_n;
  if (cli_crowd_create("crowd-bench", s.grid, &o, &c) != CAIRN_OK) goto done;
  st = populate(c, &s);
  int png_rc = EXIT_DONE;
  if (st == CAIRN_OK) st = run(c, &s, &a, &r, &png_rc);
  if (st != CAIRN_OK) {
    cli_crowd_error("crowd-bench", c, st);
    goto done;
  }
  report(&a, &r, door_flow(&r, o.dt), cairn_crowd_hash(c));
  rc = png_rc;
done:
  cairn_crowd_destroy(c);
  free_run(&r);
  tear_down(&s);
  return rc;
}
