/* cairn march: the strategy move. Several groups, each placed around a
 * random start on a map (or, with --mix, groups of several sizes, some
 * scattered, some sent near), are ordered at once to random goals (or all
 * to --goal): by default the crowd's AUTO order picks each group's way;
 * --algo astar|hpa gives a path request per group (a path each for a
 * scattered one) through the crowd's budgeted queue, --algo field a
 * shared field per group. --arrive says how they end it (stop, leave, or
 * stay around the goal as a cluster). The summary adds the queue's
 * figures and the time spent planning. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/crowd.h"
#include "cli.h"
#include "cli_png.h"
#include "replay.h"

static const char *const value_opts[] = {"--map",    "--groups", "--units", "--ticks",
                                         "--threads", "--seed",  "--budget", "--png",
                                         "--algo",    "--arrive", "--goal",   "--replay",
                                         "--every",   "--save",   "--load",   "--size",
                                         "--sizes",   "--from",   NULL};

/* How each group is sent (--algo). */
typedef enum march_algo { MARCH_AUTO, MARCH_ASTAR, MARCH_HPA, MARCH_FIELD } march_algo;
static const char *const algo_names[] = {"auto", "astar", "hpa", "field"};

#define MARCH_MAX_SIZES 8 /* entries in --sizes */
#define MARCH_MAX_SIZE 4  /* a disc of the crowd's largest radius */

typedef struct march_args {
  const char *map;
  long groups, units, ticks, threads, seed, budget;
  bool json;
  march_algo algo;
  bool hpa;  /* the crowd plans over a hierarchy: --algo hpa or auto */
  bool mix;  /* --mix: groups of several sizes, gathered and scattered, near and far */
  bool path_cache; /* --path-cache: requests ask a cache of shared routes first */
  const char *png; /* --png FILE: the end of the march */
  const char *replay; /* --replay FILE, a frame every `every` ticks */
  long every;         /* 0: not given (1) */
  cairn_arrival arrive; /* --arrive: how units end the move */
  bool arrive_given;    /* else a group stops, units sent to one cell stay */
  bool has_goal;        /* --goal X,Y: every group to this cell */
  cairn_point goal;
  bool has_from;        /* --from X,Y: every group placed around this cell */
  cairn_point from;
  const char *save, *load; /* the crowd's state: written at the end, read at the start */
  bool budget_given, algo_given;
  /* --sizes: group k's units are of size sizes[k % n_sizes] (--size K: one) */
  int32_t sizes[MARCH_MAX_SIZES];
  int n_sizes;
} march_args;

/* "1,2,...": unit sizes 1..MARCH_MAX_SIZE, at most MARCH_MAX_SIZES. */
static bool parse_sizes(const char *opt, const char *v, march_args *a) {
  a->n_sizes = 0;
  for (const char *p = v; *p;) {
    char one[16];
    size_t len = strcspn(p, ",");
    long k;
    if (len == 0 || len >= sizeof one || a->n_sizes == MARCH_MAX_SIZES) {
      cli_error("%s: '%s' is not a list of at most %d sizes in 1..%d", opt, v,
                MARCH_MAX_SIZES, MARCH_MAX_SIZE);
      return false;
    }
    memcpy(one, p, len);
    one[len] = 0;
    if (!cli_parse_int(opt, one, 1, MARCH_MAX_SIZE, &k)) return false;
    a->sizes[a->n_sizes++] = (int32_t)k;
    p += len + (p[len] == ',');
  }
  return a->n_sizes > 0;
}

/* The largest size of the march. */
static int32_t largest(const march_args *a) {
  int32_t m = 1;
  for (int k = 0; k < a->n_sizes; k++) m = a->sizes[k] > m ? a->sizes[k] : m;
  return m;
}

/* --load: the units are the saved crowd's, and --budget and --algo default
 * to the saved run's (given, they must agree: the load refuses others). */
static int saved_setup(march_args *a) {
  cairn_crowd_save_info info;
  cairn_error err;
  if (cairn_crowd_read_info_file(a->load, &info, &err) != CAIRN_OK) {
    cli_error("%s", err.message);
    return EXIT_BADINPUT;
  }
  a->groups = 1;
  a->units = (long)info.opts.max_agents;
  if (!a->budget_given) a->budget = (long)info.opts.path_budget;
  if (!a->algo_given) a->hpa = info.hpa != 0; /* the saved orders are resolved already */
  return a->png && !cli_png_can_write(a->png) ? EXIT_RUNTIME : EXIT_DONE;
}

static int parse_args(int argc, char **argv, march_args *a) {
  memset(a, 0, sizeof *a);
  a->arrive = CAIRN_ARRIVAL_STOP;
  a->ticks = 20000; /* long maps: 1,000 cells take 7,000 ticks at 1.5 cells/s */
  a->seed = 1;
  a->budget = 20000;
  a->sizes[0] = 1;
  a->n_sizes = 1;
  a->hpa = true; /* --algo auto */
  cli_args c;
  cli_args_init(&c, argc, argv);
  while (cli_next(&c)) {
    const char *v;
    if (cli_is(&c, "--json")) {
      a->json = true;
      continue;
    }
    if (cli_is(&c, "--mix")) {
      a->mix = true;
      continue;
    }
    if (cli_is(&c, "--path-cache")) {
      a->path_cache = true;
      continue;
    }
    if (!c.opt || !cli_is_any(&c, value_opts)) {
      cli_error("march: unknown option '%s'", c.opt ? c.opt : c.val);
      return EXIT_USAGE;
    }
    if (!(v = cli_value(&c))) return EXIT_USAGE;
    if (cli_is(&c, "--map")) a->map = v;
    else if (cli_is(&c, "--png")) a->png = v;
    else if (cli_is(&c, "--save")) a->save = v;
    else if (cli_is(&c, "--load")) a->load = v;
    else if (cli_is(&c, "--replay")) a->replay = v;
    else if (cli_is(&c, "--every")) {
      if (!cli_parse_int("--every", v, 1, 1000000, &a->every)) return EXIT_USAGE;
    } else if (cli_is(&c, "--groups")) {
      if (!cli_parse_int("--groups", v, 1, 4096, &a->groups)) return EXIT_USAGE;
    } else if (cli_is(&c, "--units")) {
      if (!cli_parse_int("--units", v, 1, 4096, &a->units)) return EXIT_USAGE;
    } else if (cli_is(&c, "--ticks")) {
      if (!cli_parse_int("--ticks", v, 1, 10000000, &a->ticks)) return EXIT_USAGE;
    } else if (cli_is(&c, "--threads")) {
      if (!cli_parse_int("--threads", v, 1, CAIRN_JOBS_MAX_WORKERS, &a->threads))
        return EXIT_USAGE;
    } else if (cli_is(&c, "--seed")) {
      if (!cli_parse_int("--seed", v, 0, 2147483647L, &a->seed)) return EXIT_USAGE;
    } else if (cli_is(&c, "--budget")) {
      if (!cli_parse_int("--budget", v, 1, 100000000L, &a->budget)) return EXIT_USAGE;
      a->budget_given = true;
    } else if (cli_is(&c, "--algo")) {
      int k = 0;
      while (k < 4 && strcmp(v, algo_names[k])) k++;
      if (k == 4) {
        cli_error("march: --algo must be auto, astar, hpa or field, not '%s'", v);
        return EXIT_USAGE;
      }
      a->algo = (march_algo)k;
      a->hpa = a->algo == MARCH_HPA || a->algo == MARCH_AUTO;
      a->algo_given = true;
    } else if (cli_is(&c, "--arrive")) {
      if (!strcmp(v, "stop")) a->arrive = CAIRN_ARRIVAL_STOP;
      else if (!strcmp(v, "leave")) a->arrive = CAIRN_ARRIVAL_LEAVE;
      else if (!strcmp(v, "stay")) a->arrive = CAIRN_ARRIVAL_STAY;
      else {
        cli_error("march: --arrive must be stop, leave or stay, not '%s'", v);
        return EXIT_USAGE;
      }
      a->arrive_given = true;
    } else if (cli_is(&c, "--size") || cli_is(&c, "--sizes")) {
      if (!parse_sizes(c.opt, v, a)) return EXIT_USAGE;
    } else if (cli_is(&c, "--from")) {
      if (!cli_parse_point("--from", v, &a->from)) return EXIT_USAGE;
      a->has_from = true;
    } else if (cli_is(&c, "--goal")) {
      if (!cli_parse_point("--goal", v, &a->goal)) return EXIT_USAGE;
      a->has_goal = true;
    }
  }
  if (!a->map || (!a->load && (!a->groups || !a->units))) {
    cli_error("march needs --map FILE --groups G --units N (or --map FILE --load STATE)");
    return EXIT_USAGE;
  }
  if (a->every && !a->replay) {
    cli_error("march: --every needs --replay FILE");
    return EXIT_USAGE;
  }
  if (a->load && a->replay) {
    cli_error("march: --replay records a march from its start, not with --load");
    return EXIT_USAGE;
  }
  if (a->path_cache && (a->load || a->save)) {
    cli_error("march: --path-cache does not go with --save or --load (the crowd's file does "
              "not hold the cache's routes)");
    return EXIT_USAGE;
  }
  if (a->load) return saved_setup(a);
  if (a->png && !cli_png_can_write(a->png)) return EXIT_RUNTIME;
  return EXIT_DONE;
}

static uint64_t next_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The largest island's label. */
static uint32_t main_island(const cairn_grid *g) {
  uint32_t n = cairn_grid_island_count(g), best = 0;
  size_t *size = calloc((size_t)n + 1, sizeof *size), top = 0;
  if (!size) return 0;
  for (int32_t y = 0; y < cairn_grid_height(g); y++)
    for (int32_t x = 0; x < cairn_grid_width(g); x++) {
      uint32_t k = cairn_grid_island(g, x, y);
      if (k && ++size[k] > top) {
        top = size[k];
        best = k;
      }
    }
  free(size);
  return best;
}

/* A random position of the island where a unit of `size` fits (the
 * island's own cell if none is found in many tries). */
static cairn_point random_cell(const cairn_grid *g, uint32_t island, int32_t size,
                               uint64_t *rs) {
  for (int tries = 0;; tries++) {
    cairn_point p = {(int32_t)(next_rand(rs) % (uint64_t)cairn_grid_width(g)),
                     (int32_t)(next_rand(rs) % (uint64_t)cairn_grid_height(g))};
    if (cairn_grid_island(g, p.x, p.y) != island) continue;
    if (cairn_grid_clearance(g, p.x, p.y) >= size || tries > 100000) return p;
  }
}

/* Whether the size x size cells from (x, y) are free of other units. */
static bool cells_free(const uint8_t *taken, int32_t w, int32_t x, int32_t y, int32_t size) {
  for (int32_t dy = 0; dy < size; dy++)
    for (int32_t dx = 0; dx < size; dx++)
      if (taken[(size_t)(y + dy) * (size_t)w + (size_t)(x + dx)]) return false;
  return true;
}

/* Units of `size` on free positions of the island nearest the start, ring
 * by ring (a unit's size x size cells its own), each a disc of radius 0.3
 * (size 1) or 0.45 x size centred on its cells; `taken` marks the cells
 * already used. */
static size_t place_group(cairn_crowd *c, const cairn_grid *g, uint32_t island,
                          cairn_point at, long units, int32_t size, uint8_t *taken,
                          cairn_agent *out) {
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  float half = 0.5f * (float)size, r = size == 1 ? 0.3f : 0.45f * (float)size;
  size_t n = 0;
  for (int32_t ring = 0; n < (size_t)units && ring < w + h; ring++)
    for (int32_t y = at.y - ring; y <= at.y + ring && n < (size_t)units; y++)
      for (int32_t x = at.x - ring; x <= at.x + ring && n < (size_t)units; x++) {
        if (x != at.x - ring && x != at.x + ring && y != at.y - ring && y != at.y + ring)
          continue;
        if (!cairn_grid_contains(g, x, y) || cairn_grid_island(g, x, y) != island ||
            cairn_grid_clearance(g, x, y) < size || !cells_free(taken, w, x, y, size))
          continue;
        cairn_agent_params p = {(float)x + half, (float)y + half, r, 1.5f, 0, 0};
        if (cairn_crowd_add(c, &p, &out[n]) != CAIRN_OK) return n;
        for (int32_t dy = 0; dy < size; dy++)
          memset(taken + (size_t)(y + dy) * (size_t)w + (size_t)x, 1, (size_t)size);
        n++;
      }
  return n;
}

/* Units of `size` on free positions of the island drawn at random, one
 * by one (a scattered group). */
static size_t scatter_group(cairn_crowd *c, const cairn_grid *g, uint32_t island, long units,
                            int32_t size, uint8_t *taken, uint64_t *rs, cairn_agent *out) {
  const int32_t w = cairn_grid_width(g);
  size_t n = 0;
  for (long tries = 0; n < (size_t)units && tries < 64 * units; tries++) {
    cairn_point p = random_cell(g, island, size, rs);
    if (cairn_grid_clearance(g, p.x, p.y) < size || !cells_free(taken, w, p.x, p.y, size))
      continue;
    n += place_group(c, g, island, p, 1, size, taken, out + n);
  }
  return n;
}

/* One group of the march: its units, and whether they are scattered over
 * the island and sent to a goal near their start. Without --mix, every
 * group is --units gathered units sent far; with it, group k has
 * --units / 16, / 4, / 1 or 1 unit by k % 4 (at least 1), is scattered
 * when k / 4 is odd, and is sent near when k % 3 == 0: eight groups or
 * more mix every count gathered and scattered, near and far. */
typedef struct march_group {
  long units;
  bool scattered, nearby;
} march_group;

static march_group group_of(const march_args *a, long k) {
  march_group m = {a->units, false, false};
  if (!a->mix) return m;
  static const long div[4] = {16, 4, 1, 0};
  m.units = div[k % 4] ? a->units / div[k % 4] : 1;
  if (m.units < 1) m.units = 1;
  m.scattered = (k / 4) % 2 == 1;
  m.nearby = k % 3 == 0;
  return m;
}

/* A far goal is at least `dist` cells (Manhattan) from the start; a near
 * one from dist / 8 to dist / 2. */
static bool goal_distance_ok(cairn_point from, cairn_point to, int32_t dist, bool nearby) {
  const int32_t d = abs(from.x - to.x) + abs(from.y - to.y);
  return nearby ? d >= dist / 8 && d <= dist / 2 : d >= dist;
}

/* The order --algo gives a group: AUTO; a path for a gathered group, a
 * path each for a scattered one (A* or the hierarchy, as the crowd
 * plans); or one shared field. Without --arrive, as AUTO does: a group
 * on one path stops on its formation points, units sent each to the one
 * goal cell stay around it. */
static cairn_order order_of(const march_args *a, march_group m, const cairn_point *goal) {
  cairn_order o = cairn_order_defaults();
  o.arrival = a->arrive;
  if (!a->arrive_given)
    o.arrival = a->algo == MARCH_AUTO                     ? CAIRN_ARRIVAL_DEFAULT
                : a->algo != MARCH_FIELD && !m.scattered ? CAIRN_ARRIVAL_STOP
                                                          : CAIRN_ARRIVAL_STAY;
  o.goal = *goal;
  switch (a->algo) {
  case MARCH_AUTO: o.kind = CAIRN_ORDER_AUTO; break;
  case MARCH_FIELD:
    o.kind = CAIRN_ORDER_FIELD;
    o.goals = goal;
    o.n_goals = 1;
    break;
  default:
    o.kind = CAIRN_ORDER_PATH;
    o.group = !m.scattered;
  }
  return o;
}

/* The march saved in path (--load): the crowd's state, and the handles of
 * its units, slots 0.. of the first generation (a march never removes
 * one), into agents (*n of them). Exit code. */
static int load_march(cairn_crowd *c, const char *path, cairn_agent *agents, long total,
                      long *n) {
  cairn_error err;
  cairn_status st = cairn_crowd_load_file(c, path, &err);
  if (st != CAIRN_OK) {
    cli_error("%s", err.message);
    return st == CAIRN_ERR_NOMEM ? EXIT_RUNTIME : EXIT_BADINPUT;
  }
  *n = 0;
  for (long k = 0; k < total; k++) {
    cairn_agent_info ai;
    cairn_agent a = (cairn_agent)k | (cairn_agent)1 << 32;
    if (cairn_crowd_get(c, a, &ai) == CAIRN_OK) agents[(*n)++] = a;
  }
  if (*n != (long)cairn_crowd_count(c)) {
    cli_error("%s: not a march of cairn march (its units are not slots 0.. of the "
              "first generation)", path);
    return EXIT_BADINPUT;
  }
  return EXIT_DONE;
}

/* The way each unit walked, added up after every tick (it reads the
 * crowd only), for the summary by size. */
typedef struct march_walk {
  const cairn_crowd *c;
  const cairn_agent *agents;
  long n;
  float *x, *y;  /* where each unit stood after the last tick */
  double *walked;
} march_walk;

static cairn_status walk_tick(void *user, long t, const cairn_crowd_stats *st) {
  (void)t;
  (void)st;
  march_walk *w = user;
  for (long k = 0; k < w->n; k++) {
    cairn_agent_info i;
    if (cairn_crowd_get(w->c, w->agents[k], &i) != CAIRN_OK) continue;
    w->walked[k] += hypot((double)i.x - w->x[k], (double)i.y - w->y[k]);
    w->x[k] = i.x;
    w->y[k] = i.y;
  }
  return CAIRN_OK;
}

/* The units' figures by size (a disc of radius r is a unit of ceil(2r)
 * cells a side) into by[0 .. MARCH_MAX_SIZE); the sizes present. */
static size_t tally_sizes(const march_walk *w, cli_size_tally *by) {
  cli_size_tally all[MARCH_MAX_SIZE + 1];
  memset(all, 0, sizeof all);
  for (long k = 0; k < w->n; k++) {
    cairn_agent_info i;
    if (cairn_crowd_get(w->c, w->agents[k], &i) != CAIRN_OK) continue;
    int32_t size = (int32_t)ceilf(2.0f * i.radius);
    size = size < 1 ? 1 : size > MARCH_MAX_SIZE ? MARCH_MAX_SIZE : size;
    all[size].units++;
    all[size].arrived += i.state == CAIRN_AGENT_ARRIVED;
    all[size].walked += w->walked[k];
  }
  size_t n = 0;
  for (int32_t size = 1; size <= MARCH_MAX_SIZE; size++)
    if (all[size].units) {
      by[n] = all[size];
      by[n].size = size;
      by[n].walked /= all[size].units;
      n++;
    }
  return n;
}

/* A --goal the units can reach: on the map, open, on the island they
 * start on, holding the largest unit; else a message and 0. */
static bool goal_ok(const cairn_grid *g, uint32_t island, cairn_point p, int32_t size,
                    const char *map) {
  if (!cairn_grid_contains(g, p.x, p.y) || cairn_grid_island(g, p.x, p.y) != island) {
    cli_error("%s: --goal %d,%d is off the map, blocked, or off the island the units start on",
              map, p.x, p.y);
    return false;
  }
  return cli_check_position(g, "--goal", p, size);
}

int cmd_march(int argc, char **argv) {
  march_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc != EXIT_DONE) return rc;
  cairn_grid *g = cli_load_map(a.map, NULL);
  if (!g) return EXIT_BADINPUT;
  long total = a.groups * a.units;
  cairn_crowd *c = NULL;
  cairn_agent *agents = malloc((size_t)total * sizeof *agents);
  uint8_t *taken = calloc((size_t)cairn_grid_width(g) * (size_t)cairn_grid_height(g), 1);
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = (uint32_t)total;
  o.threads = (int)a.threads;
  o.path_budget = (uint64_t)a.budget;
  o.bin_size = (float)largest(&a); /* touching discs of radius up to size / 2 */
  rc = EXIT_RUNTIME;
  cairn_hpa *h = NULL;
  march_walk walk = {NULL, NULL, 0, NULL, NULL, NULL}; /* freed at done */
  cli_size_tally by_size[MARCH_MAX_SIZE];
  cairn_status st = agents && taken ? CAIRN_OK : CAIRN_ERR_NOMEM;
  /* the hierarchy's builds and edits run on as many threads as the tick */
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.threads = o.threads;
  ho.max_size = largest(&a); /* every group's units plan on it */
  cli_crowd_summary sum = {0};
  sum.max_queue = -1;
  sum.hierarchy_ms = -1;
  if (st == CAIRN_OK && a.hpa) {
    const double t0 = cli_now_us();
    st = cairn_hpa_create(g, &ho, NULL, &h);
    sum.hierarchy_ms = (cli_now_us() - t0) / 1e3;
  }
  o.hpa = h;
  cairn_path_cache *routes = NULL;
  if (st == CAIRN_OK && a.path_cache) st = cairn_path_cache_create(g, NULL, NULL, &routes);
  o.path_cache = routes;
  sum.path_cache = routes;
  bool told = false; /* the refusal is printed already */
  if (st == CAIRN_OK) {
    st = cli_crowd_create("march", g, &o, &c);
    told = st != CAIRN_OK;
  }
  uint32_t island = main_island(g);
  uint64_t rs = (uint64_t)a.seed;
  int32_t far = (cairn_grid_width(g) + cairn_grid_height(g)) / 4;
  if (st == CAIRN_OK && a.load) {
    if ((rc = load_march(c, a.load, agents, total, &sum.agents)) != EXIT_DONE) goto done;
    rc = EXIT_RUNTIME;
  }
  if (st == CAIRN_OK && !a.load && a.has_goal && !goal_ok(g, island, a.goal, largest(&a), a.map)) {
    rc = EXIT_BADINPUT;
    goto done;
  }
  if (st == CAIRN_OK && !a.load && a.has_from &&
      (!cairn_grid_contains(g, a.from.x, a.from.y) ||
       cairn_grid_island(g, a.from.x, a.from.y) != island)) {
    cli_error("%s: --from %d,%d is off the map, blocked, or off its largest island", a.map,
              a.from.x, a.from.y);
    rc = EXIT_BADINPUT;
    goto done;
  }
  for (long k = 0; k < a.groups && st == CAIRN_OK && !a.load; k++) {
    const int32_t size = a.sizes[k % a.n_sizes];
    const march_group m = group_of(&a, k);
    cairn_point from = random_cell(g, island, size, &rs), to = random_cell(g, island, size, &rs);
    if (a.has_from) from = a.from;
    for (int tries = 0; tries < 64 && !goal_distance_ok(from, to, far, m.nearby); tries++)
      to = random_cell(g, island, size, &rs);
    cairn_agent *grp = agents + sum.agents;
    size_t n = m.scattered ? scatter_group(c, g, island, m.units, size, taken, &rs, grp)
                           : place_group(c, g, island, from, m.units, size, taken, grp);
    sum.agents += (long)n;
    cairn_point goal = a.has_goal ? a.goal : to;
    cairn_order order = order_of(&a, m, &goal);
    if (n) st = cairn_crowd_order(c, grp, n, &order);
  }
  if (st == CAIRN_OK && sum.agents == 0) {
    cli_error("%s: no open cell to place a unit on", a.map);
    rc = EXIT_BADINPUT;
    goto done;
  }
  if (st == CAIRN_OK && a.replay) {
    cli_replay_scene scene = {.map_path = a.map, .grid = g};
    st = cli_replay_open(a.replay, a.every ? a.every : 1, &scene, c, agents,
                         (size_t)sum.agents, &sum.replay);
    told = st != CAIRN_OK;
  }
  /* by size, when the march has units larger than a cell */
  walk.c = c;
  walk.agents = agents;
  walk.n = sum.agents;
  const bool sized = largest(&a) > 1 || a.load;
  if (st == CAIRN_OK && sized) {
    walk.x = malloc((size_t)sum.agents * sizeof *walk.x);
    walk.y = malloc((size_t)sum.agents * sizeof *walk.y);
    walk.walked = calloc((size_t)sum.agents, sizeof *walk.walked);
    if (!walk.x || !walk.y || !walk.walked) st = CAIRN_ERR_NOMEM;
    for (long k = 0; k < sum.agents && st == CAIRN_OK; k++) {
      cairn_agent_info i;
      if (cairn_crowd_get(c, agents[k], &i) != CAIRN_OK) continue;
      walk.x[k] = i.x;
      walk.y[k] = i.y;
    }
    sum.after_tick = walk_tick;
    sum.user = &walk;
  }
  if (st == CAIRN_OK) st = cli_crowd_run(c, a.ticks, &sum);
  if (st == CAIRN_OK && sized) {
    sum.n_sizes = tally_sizes(&walk, by_size);
    sum.by_size = by_size;
    if (sum.n_sizes == 1 && by_size[0].size == 1) sum.n_sizes = 0; /* a plain march */
  }
  if (a.replay && cli_replay_close(sum.replay, st == CAIRN_OK ? sum.ticks : -1) != CAIRN_OK &&
      st == CAIRN_OK) {
    st = CAIRN_ERR_IO;
    told = true;
  }
  if (st != CAIRN_OK) {
    if (!told) cli_crowd_error("march", c, st);
    goto done;
  }
  cli_crowd_print(&sum, a.json, true);
  rc = EXIT_DONE;
  if (a.png) {
    char caption[120];
    snprintf(caption, sizeof caption, "march: tick %ld, %u of %ld arrived", sum.ticks,
             sum.arrived, sum.agents);
    cli_png_scene pic = {.grid = g, .crowd = c, .agents = agents,
                         .n_agents = (size_t)sum.agents, .caption = caption};
    rc = cli_png_save(&pic, a.png);
  }
  if (rc == EXIT_DONE && a.save) {
    cairn_error err;
    if (cairn_crowd_save_file(c, a.save, &err) != CAIRN_OK) {
      cli_error("%s", err.message);
      rc = EXIT_RUNTIME;
    }
  }
done:
  free(walk.x);
  free(walk.y);
  free(walk.walked);
  cairn_crowd_destroy(c);
  cairn_path_cache_destroy(routes);
  cairn_hpa_destroy(h);
  cairn_grid_destroy(g);
  free(agents);
  free(taken);
  return rc;
}
