/* cairn horde: the night of the dead. Undead spawn near the map's edges at
 * dusk and converge on the settlement's gates (the 'G' cells) along one
 * shared flow field, avoiding the defenders' torches; the summary says how
 * many arrived and at which gate, how many ever stood in a wall or got
 * lost, how much they overlapped, and how long the ticks took (also while
 * every agent was still on the field). --png draws the horde when half
 * had arrived (or at midnight, if that comes first) beside the end. Counting and drawing only read the crowd: the state hash
 * is the same with or without them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/crowd.h"
#include "cli.h"
#include "cli_png.h"
#include "cli_torches.h"
#include "replay.h"

#ifndef CAIRN_MAPS_DIR
#define CAIRN_MAPS_DIR "maps"
#endif

#define HORDE_NIGHT_TICKS 6000 /* 10 minutes at 0.1 s a tick */
/* without --map: the shipped 256 x 256 settlement up to this many agents,
 * the 1024 x 1024 one above */
#define HORDE_SMALL_MAP_AGENTS 20000
/* the largest unit: a disc of the crowd's largest radius */
#define HORDE_MAX_SIZE 4

static const char *const value_opts[] = {"--map", "--agents", "--ticks",
                                         "--threads", "--seed", "--replay",
                                         "--every", "--png", "--frames", "--gif",
                                         "--save", "--load", "--size", "--density",
                                         "--density-gain", "--density-ticks", NULL};
/* the night's congestion layer (cairn_crowd_opts.density_*): on unless
 * --density off, the measured settings (docs/PERFORMANCE.md) */
#define HORDE_DENSITY_GAIN 2.0
#define HORDE_DENSITY_TICKS 30

typedef struct horde_args {
  const char *map;
  long agents, ticks, threads, seed;
  long size; /* the undead's unit size: 1, or giants of size x size cells */
  bool json;
  const char *replay; /* --replay FILE, a frame every `every` ticks */
  long every;         /* 0: not given (replay 1, pictures 60) */
  const char *png, *frames, *gif; /* the end of the night; every `every` ticks */
  const char *save, *load; /* the crowd's state: written at the end, read at the start */
  bool agents_given;
  int density;         /* --density on|off: 1, 0 */
  double density_gain; /* --density-gain G */
  long density_ticks;  /* --density-ticks K */
} horde_args;

static int parse_args(int argc, char **argv, horde_args *a) {
  a->map = NULL; /* chosen by --agents below */
  a->agents = 10000;
  a->ticks = HORDE_NIGHT_TICKS;
  a->threads = 0;
  a->seed = 1;
  a->size = 1;
  a->json = false;
  a->replay = NULL;
  a->every = 0;
  a->png = a->frames = a->gif = NULL;
  a->save = a->load = NULL;
  a->agents_given = false;
  a->density = 1;
  a->density_gain = HORDE_DENSITY_GAIN;
  a->density_ticks = HORDE_DENSITY_TICKS;
  cli_args c;
  cli_args_init(&c, argc, argv);
  while (cli_next(&c)) {
    const char *v;
    if (cli_is(&c, "--json")) {
      a->json = true;
      continue;
    }
    if (!c.opt || !cli_is_any(&c, value_opts)) {
      cli_error("horde: unknown option '%s'", c.opt ? c.opt : c.val);
      return EXIT_USAGE;
    }
    if (!(v = cli_value(&c))) return EXIT_USAGE;
    if (cli_is(&c, "--map")) a->map = v;
    else if (cli_is(&c, "--agents")) {
      if (!cli_parse_int("--agents", v, 1, CAIRN_CROWD_MAX_AGENTS, &a->agents)) return EXIT_USAGE;
      a->agents_given = true;
    } else if (cli_is(&c, "--save")) {
      a->save = v;
    } else if (cli_is(&c, "--load")) {
      a->load = v;
    } else if (cli_is(&c, "--ticks")) {
      if (!cli_parse_int("--ticks", v, 1, 10000000, &a->ticks)) return EXIT_USAGE;
    } else if (cli_is(&c, "--threads")) {
      if (!cli_parse_int("--threads", v, 1, CAIRN_JOBS_MAX_WORKERS, &a->threads))
        return EXIT_USAGE;
    } else if (cli_is(&c, "--size")) {
      if (!cli_parse_int("--size", v, 1, HORDE_MAX_SIZE, &a->size)) return EXIT_USAGE;
    } else if (cli_is(&c, "--seed")) {
      if (!cli_parse_int("--seed", v, 0, 2147483647L, &a->seed)) return EXIT_USAGE;
    } else if (cli_is(&c, "--replay")) {
      a->replay = v;
    } else if (cli_is(&c, "--png")) {
      a->png = v;
    } else if (cli_is(&c, "--frames")) {
      a->frames = v;
    } else if (cli_is(&c, "--gif")) {
      a->gif = v;
    } else if (cli_is(&c, "--every")) {
      if (!cli_parse_int("--every", v, 1, 1000000, &a->every)) return EXIT_USAGE;
    } else if (cli_is(&c, "--density")) {
      if (!cli_parse_on_off("--density", v, &a->density)) return EXIT_USAGE;
    } else if (cli_is(&c, "--density-gain")) {
      if (!cli_parse_double("--density-gain", v, 0.01, 100, &a->density_gain)) return EXIT_USAGE;
    } else if (cli_is(&c, "--density-ticks")) {
      if (!cli_parse_int("--density-ticks", v, 1, 1000, &a->density_ticks)) return EXIT_USAGE;
    }
  }
  if (a->load && a->replay) {
    cli_error("horde: --replay records a night from its start, not with --load");
    return EXIT_USAGE;
  }
  if (a->every && !a->replay && !a->frames && !a->gif) {
    cli_error("horde: --every needs --replay FILE, --frames DIR or --gif FILE");
    return EXIT_USAGE;
  }
  /* a saved night's agents are its crowd's slots (--agents, if given, must
   * agree: the load refuses another count) */
  if (a->load && !a->agents_given) {
    cairn_crowd_save_info info;
    cairn_error err;
    if (cairn_crowd_read_info_file(a->load, &info, &err) != CAIRN_OK) {
      cli_error("%s", err.message);
      return EXIT_BADINPUT;
    }
    a->agents = (long)info.opts.max_agents;
  }
  if (!a->map)
    a->map = a->agents > HORDE_SMALL_MAP_AGENTS ? CAIRN_MAPS_DIR "/settlement-1024.map"
                                                : CAIRN_MAPS_DIR "/settlement.map";
  if (a->png && !cli_png_can_write(a->png)) return EXIT_RUNTIME;
  if (a->frames && !cli_png_available(a->frames)) return EXIT_RUNTIME;
  return EXIT_DONE;
}

/* The cells marked c in the map file (the grid keeps costs, not glyphs). */
int cli_find_glyphs(const char *path, char ch, cairn_point **out, size_t *n) {
  *out = NULL;
  *n = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  char line[CAIRN_GRID_MAX_SIDE + 8];
  int in_map = 0;
  int32_t y = 0;
  size_t cap = 0;
  while (fgets(line, sizeof line, f)) {
    if (!in_map) {
      in_map = strncmp(line, "map", 3) == 0;
      continue;
    }
    for (int32_t x = 0; line[x] && line[x] != '\n' && line[x] != '\r'; x++) {
      if (line[x] != ch) continue;
      if (*n == cap) {
        cap = cap ? cap * 2 : 64;
        cairn_point *p = realloc(*out, cap * sizeof *p);
        if (!p) {
          fclose(f);
          return -1;
        }
        *out = p;
      }
      (*out)[(*n)++] = (cairn_point){x, y};
    }
    y++;
  }
  fclose(f);
  return 0;
}

static uint64_t next_rand(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static float rand01(uint64_t *s) { return (float)(next_rand(s) >> 40) / 16777216.0f; }

/* Positions within `depth` of the map's edge on a gate's island where a
 * unit of `size` fits. */
static size_t edge_cells(const cairn_grid *g, uint32_t island, int32_t depth, int32_t size,
                         cairn_point *out) {
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  size_t n = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      int32_t e = x < y ? x : y;
      if (w - 1 - x < e) e = w - 1 - x;
      if (h - 1 - y < e) e = h - 1 - y;
      if (e < depth && cairn_grid_island(g, x, y) == island &&
          cairn_grid_clearance(g, x, y) >= size)
        out[n++] = (cairn_point){x, y};
    }
  return n;
}

/* One undead of unit `size` at position p: a radius for the size (0.2 to
 * 0.3 cells for size 1, 0.8 to 0.95 of half the side above), its disc
 * anywhere on the unit's cells, a speed of 1.2 to 2 cells a second. */
static cairn_agent_params undead_at(cairn_point p, int32_t size, uint64_t *rs) {
  float ux = rand01(rs), uy = rand01(rs), ur = rand01(rs), us = rand01(rs);
  float half = 0.5f * (float)size;
  float r = size == 1 ? 0.2f + 0.1f * ur : half * (0.8f + 0.15f * ur);
  float room = half - r; /* how far the centre may stray from the cells' middle */
  cairn_agent_params a = {(float)p.x + half + room * (2.0f * ux - 1.0f),
                          (float)p.y + half + room * (2.0f * uy - 1.0f), r,
                          1.2f + 0.8f * us, 1, 0};
  return a;
}

/* N undead on distinct positions near the edges (the band deepens until
 * it holds twice N), seeded. */
static cairn_status spawn(cairn_crowd *c, const cairn_grid *g, uint32_t island, long n,
                          int32_t size, uint64_t seed, cairn_agent *agents) {
  size_t cells = (size_t)cairn_grid_width(g) * (size_t)cairn_grid_height(g);
  cairn_point *cand = malloc(cells * sizeof *cand);
  if (!cand) return CAIRN_ERR_NOMEM;
  size_t m = 0;
  for (int32_t depth = 16; m < 2 * (size_t)n; depth += 8) {
    m = edge_cells(g, island, depth, size, cand);
    if (depth > cairn_grid_width(g) + cairn_grid_height(g)) break;
  }
  cairn_status st = m >= (size_t)n ? CAIRN_OK : CAIRN_ERR_TOO_LARGE;
  uint64_t rs = seed;
  for (long k = 0; k < n && st == CAIRN_OK; k++) {
    size_t j = (size_t)k + (size_t)(next_rand(&rs) % (m - (size_t)k));
    cairn_point t = cand[k];
    cand[k] = cand[j];
    cand[j] = t;
    cairn_agent_params p = undead_at(cand[k], size, &rs);
    st = cairn_crowd_add(c, &p, &agents[k]);
  }
  free(cand);
  return st;
}

/* The gate cells where a unit of `size` fits, into out (room for n);
 * their count. */
static size_t fitting_gates(const cairn_grid *g, const cairn_point *gates, size_t n,
                            int32_t size, cairn_point *out) {
  size_t m = 0;
  for (size_t k = 0; k < n; k++)
    if (cairn_grid_clearance(g, gates[k].x, gates[k].y) >= size) out[m++] = gates[k];
  return m;
}

/* The positions of an island where a unit of `size` fits: where the
 * horde can stand. */
static size_t island_cells(const cairn_grid *g, uint32_t island, int32_t size) {
  int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  size_t n = 0;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      n += cairn_grid_island(g, x, y) == island && cairn_grid_clearance(g, x, y) >= size;
  return n;
}

/* Row order, as cli_find_glyphs lists the cells. */
static int cmp_row(cairn_point a, cairn_point b) {
  if (a.y != b.y) return a.y < b.y ? -1 : 1;
  return (a.x > b.x) - (a.x < b.x);
}

/* The index of cell p among the n gate cells (row order), or -1. */
static long find_cell(const cairn_point *cells, size_t n, cairn_point p) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = cmp_row(cells[mid], p);
    if (c == 0) return (long)mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return -1;
}

/* The gates: 8-connected groups of 'G' cells (in row order), numbered in
 * the row order of each group's first cell. gate_of[k] gets cell k's gate,
 * first[g] gate g's first cell; returns the number of gates (0 on a memory
 * failure). */
static size_t group_gates(const cairn_point *cells, size_t n, uint32_t *gate_of,
                          cairn_point *first) {
  size_t *stack = malloc(n * sizeof *stack), gates = 0;
  if (!stack) return 0;
  for (size_t k = 0; k < n; k++) gate_of[k] = UINT32_MAX;
  for (size_t k = 0; k < n; k++) {
    if (gate_of[k] != UINT32_MAX) continue;
    first[gates] = cells[k];
    gate_of[k] = (uint32_t)gates;
    size_t top = 0;
    stack[top++] = k;
    while (top) {
      cairn_point p = cells[stack[--top]];
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          long j = find_cell(cells, n, (cairn_point){p.x + dx, p.y + dy});
          if (j < 0 || gate_of[j] != UINT32_MAX) continue;
          gate_of[j] = (uint32_t)gates;
          stack[top++] = (size_t)j;
        }
    }
    gates++;
  }
  free(stack);
  return gates;
}

/* What the night watches while it runs: each arrival at the gate nearest
 * the agent when it arrives, and the picture's midnight panel. It only
 * reads the crowd. */
typedef struct night_watch {
  const cairn_crowd *crowd;
  const cairn_agent *agents;
  uint32_t *pending; /* agents not yet arrived */
  size_t n_pending;
  uint32_t counted;  /* arrivals tallied */
  const cairn_point *cells; /* the gate cells and their gates */
  const uint32_t *gate_of;
  size_t n_cells;
  uint32_t *by_gate;
  /* each gate's box (its cells', 3 cells wider each way: x0, y0, x1, y1)
   * and the most agents in one of them after a tick */
  float (*queue_box)[4];
  size_t n_boxes;
  long max_queue;
  /* --png: the scene, the tick of midnight (the left panel's latest),
   * the left panel */
  cli_png_scene *pic;
  long midnight, agents_n;
  cairn_image *panel;
  cairn_status panel_st; /* drawing it failed */
} night_watch;

/* The gate whose nearest cell is nearest (x, y); ties go to the first. */
static uint32_t nearest_gate(const night_watch *w, float x, float y) {
  double best = INFINITY;
  uint32_t g = 0;
  for (size_t k = 0; k < w->n_cells; k++) {
    double dx = (double)x - (w->cells[k].x + 0.5), dy = (double)y - (w->cells[k].y + 0.5);
    double d = dx * dx + dy * dy;
    if (d < best) {
      best = d;
      g = w->gate_of[k];
    }
  }
  return g;
}

/* Tallies the agents that arrived since the last call (arrived: the
 * crowd's count now; an arrived agent stays). */
static void tally(night_watch *w, uint32_t arrived) {
  if (arrived <= w->counted) return;
  size_t keep = 0;
  for (size_t k = 0; k < w->n_pending; k++) {
    uint32_t i = w->pending[k];
    cairn_agent_info ai;
    if (w->counted < arrived && cairn_crowd_get(w->crowd, w->agents[i], &ai) == CAIRN_OK &&
        ai.state == CAIRN_AGENT_ARRIVED) {
      w->by_gate[nearest_gate(w, ai.x, ai.y)]++;
      w->counted++;
    } else {
      w->pending[keep++] = i;
    }
  }
  w->n_pending = keep;
}

/* "the night of the dead at midnight: tick 3000, 9321 of 10000 arrived" */
static void caption_of(char *buf, size_t n, const char *when, long t, const cairn_crowd *c,
                       long agents) {
  cairn_crowd_stats cs;
  cairn_crowd_get_stats(c, &cs);
  snprintf(buf, n, "the night of the dead%s: tick %ld, %u of %ld arrived", when, t,
           cs.arrived, agents);
}

/* A panel of the picture at tick t (*out; the status kept on failure). */
static void draw_panel(night_watch *w, const char *when, long t, cairn_image **out) {
  char caption[120];
  caption_of(caption, sizeof caption, when, t, w->crowd, w->agents_n);
  cli_png_scene sc = *w->pic;
  sc.caption = caption;
  cairn_status st = cli_png_draw(&sc, out);
  if (st != CAIRN_OK && w->panel_st == CAIRN_OK) w->panel_st = st;
}

/* The boxes of the gates whose queues the night counts: each gate's cells
 * (gate_of over the n cells, n_gates gates), 3 cells wider each way. */
static void queue_boxes(const cairn_point *cells, const uint32_t *gate_of, size_t n,
                        float (*box)[4], size_t n_gates) {
  for (size_t k = 0; k < n_gates; k++) box[k][0] = box[k][1] = INFINITY;
  for (size_t k = 0; k < n_gates; k++) box[k][2] = box[k][3] = -INFINITY;
  for (size_t k = 0; k < n; k++) {
    float *b = box[gate_of[k]];
    const float x = (float)cells[k].x, y = (float)cells[k].y;
    if (x - 3.0f < b[0]) b[0] = x - 3.0f;
    if (y - 3.0f < b[1]) b[1] = y - 3.0f;
    if (x + 4.0f > b[2]) b[2] = x + 4.0f;
    if (y + 4.0f > b[3]) b[3] = y + 4.0f;
  }
}

/* The agents on the field within 3 cells of each gate: the most of them. */
static void count_queues(night_watch *w) {
  for (size_t k = 0; k < w->n_boxes; k++) {
    const float *b = w->queue_box[k];
    size_t n = 0;
    cairn_status st = cairn_crowd_query_rect(w->crowd, b[0], b[1], b[2], b[3], NULL, 0, &n);
    if ((st == CAIRN_OK || st == CAIRN_ERR_BUFFER) && (long)n > w->max_queue)
      w->max_queue = (long)n;
  }
}

static cairn_status watch_tick(void *user, long t, const cairn_crowd_stats *st) {
  night_watch *w = user;
  tally(w, st->arrived);
  count_queues(w);
  /* the left panel: the horde at its height, when half had arrived (the
   * night's busiest gates), or at midnight if that comes first */
  if (w->pic && !w->panel && 2 * (long)st->arrived >= w->agents_n)
    draw_panel(w, ", half arrived", t, &w->panel);
  if (w->pic && !w->panel && t == w->midnight) draw_panel(w, " at midnight", t, &w->panel);
  return CAIRN_OK;
}

/* The picture: the left panel (drawn during the run, or now when the run
 * ended before half arrived and before midnight) beside the end. Exit
 * code. */
static int save_night(night_watch *w, long last, const char *path) {
  cairn_image *end = NULL;
  if (!w->panel) draw_panel(w, ", over before midnight", last, &w->panel);
  draw_panel(w, " at the end", last, &end);
  int rc = EXIT_RUNTIME;
  if (w->panel_st != CAIRN_OK) {
    cli_error("%s: drawing the picture failed: %s", path, cairn_status_str(w->panel_st));
  } else {
    const cairn_image *panels[2] = {w->panel, end};
    rc = cli_png_save_row(panels, 2, path);
  }
  cairn_image_destroy(end);
  return rc;
}

/* The night saved in path (--load) instead of a new one: the crowd's state,
 * and the handles of its agents, slots 0.. of the first generation (a
 * night never removes one). Exit code. */
static int load_night(cairn_crowd *c, const char *path, cairn_agent *agents, long n) {
  cairn_error err;
  cairn_status st = cairn_crowd_load_file(c, path, &err);
  if (st != CAIRN_OK) {
    cli_error("%s", err.message);
    return st == CAIRN_ERR_NOMEM ? EXIT_RUNTIME : EXIT_BADINPUT;
  }
  for (long k = 0; k < n; k++) {
    cairn_agent_info ai;
    agents[k] = (cairn_agent)k | (cairn_agent)1 << 32;
    if (cairn_crowd_get(c, agents[k], &ai) != CAIRN_OK) {
      cli_error("%s: not a night of cairn horde (agent %ld is missing)", path, k);
      return EXIT_BADINPUT;
    }
  }
  return EXIT_DONE;
}

/* The night's state into path (--save). Exit code. */
static int save_state(const cairn_crowd *c, const char *path) {
  cairn_error err;
  if (cairn_crowd_save_file(c, path, &err) == CAIRN_OK) return EXIT_DONE;
  cli_error("%s", err.message);
  return EXIT_RUNTIME;
}

int cmd_horde(int argc, char **argv) {
  horde_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc != EXIT_DONE) return rc;
  cairn_grid *g = cli_load_map(a.map, NULL);
  if (!g) return EXIT_BADINPUT;
  cairn_point *gates = NULL, torches[CLI_TORCHES], *gate_first = NULL, *goals = NULL;
  uint32_t *gate_of = NULL;
  size_t n_gates = 0, n_goals = 0;
  cli_torchlight torch = {NULL, NULL};
  cairn_crowd *c = NULL;
  cairn_agent *agents = NULL;
  night_watch watch = {0};
  rc = EXIT_RUNTIME;
  if (cli_find_glyphs(a.map, 'G', &gates, &n_gates) != 0 || n_gates == 0) {
    cli_error("%s: no gates ('G' cells) on the map", a.map);
    rc = EXIT_BADINPUT;
    goto done;
  }
  /* every agent spawns on its own open cell of the gates' island */
  uint32_t island = cairn_grid_island(g, gates[0].x, gates[0].y);
  const int32_t size = (int32_t)a.size;
  size_t room = island_cells(g, island, size);
  if ((size_t)a.agents > room) {
    if (size == 1)
      cli_error("%s: %ld agents need as many open cells reachable from its gates; it has %zu",
                a.map, a.agents, room);
    else
      cli_error("%s: %ld agents of size %d need as many places reachable from its gates; it "
                "has %zu",
                a.map, a.agents, (int)size, room);
    goto done;
  }
  goals = malloc(n_gates * sizeof *goals);
  n_goals = goals ? fitting_gates(g, gates, n_gates, size, goals) : 0;
  if (goals && n_goals == 0) {
    cli_error("%s: no gate cell holds a unit of size %d (its %dx%d cells open)", a.map,
              (int)size, (int)size, (int)size);
    rc = EXIT_BADINPUT;
    goto done;
  }
  gate_of = malloc(n_gates * sizeof *gate_of);
  gate_first = malloc(n_gates * sizeof *gate_first);
  watch.by_gate = calloc(n_gates, sizeof *watch.by_gate);
  watch.pending = malloc((size_t)a.agents * sizeof *watch.pending);
  watch.queue_box = malloc(n_gates * sizeof *watch.queue_box);
  size_t n_groups = gate_of && gate_first && watch.by_gate && watch.pending && goals &&
                            watch.queue_box
                        ? group_gates(gates, n_gates, gate_of, gate_first)
                        : 0;
  if (n_groups == 0) {
    cli_error("horde: out of memory");
    goto done;
  }
  watch.gate_of = gate_of;
  queue_boxes(gates, gate_of, n_gates, watch.queue_box, n_groups);
  watch.n_boxes = n_groups;
  cairn_status st = cli_light_torches(g, torches, cli_place_torches(gates, n_gates, torches),
                                  &torch);
  agents = malloc((size_t)a.agents * sizeof *agents);
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.max_agents = (uint32_t)a.agents;
  o.threads = (int)a.threads;
  o.penalty = torch.layer;
  o.bin_size = (float)size; /* touching discs of radius up to size / 2 */
  o.density_gain = a.density ? (float)a.density_gain : 0.0f;
  o.density_ticks = (uint32_t)a.density_ticks;
  if (o.bin_size < 1.0f) o.bin_size = 1.0f;
  if (st == CAIRN_OK && !agents) st = CAIRN_ERR_NOMEM;
  bool said = false; /* the error is printed already */
  if (st == CAIRN_OK) {
    st = cli_crowd_create("horde", g, &o, &c);
    said = st != CAIRN_OK;
  }
  if (st == CAIRN_OK && a.load) {
    if ((rc = load_night(c, a.load, agents, a.agents)) != EXIT_DONE) goto done;
    rc = EXIT_RUNTIME;
  } else {
    if (st == CAIRN_OK) st = spawn(c, g, island, a.agents, size, (uint64_t)a.seed, agents);
    if (st == CAIRN_OK) st = cairn_crowd_order_field(c, agents, (size_t)a.agents, goals, n_goals);
  }
  cli_crowd_summary sum = {0};
  sum.agents = a.agents;
  sum.n_gates = n_groups;
  sum.gate_first = gate_first;
  sum.by_gate = watch.by_gate;
  if (st == CAIRN_OK && a.replay) {
    cli_replay_scene scene = {a.map,   g,         gates,       torches,
                              n_gates, CLI_TORCHES, CLI_TORCH_RADIUS};
    st = cli_replay_open(a.replay, a.every ? a.every : 1, &scene, c, agents,
                         (size_t)a.agents, &sum.replay);
  }
  cli_png_scene pic = {.grid = g, .penalty = torch.layer, .gates = gates,
                       .n_gates = n_gates, .torches = torches,
                       .n_torches = CLI_TORCHES, .crowd = c, .agents = agents,
                       .n_agents = (size_t)a.agents, .caption = "the night of the dead:"};
  watch.crowd = c;
  watch.agents = agents;
  watch.cells = gates;
  watch.n_cells = n_gates;
  watch.agents_n = a.agents;
  for (long k = 0; k < a.agents; k++) watch.pending[k] = (uint32_t)k;
  watch.n_pending = (size_t)a.agents;
  /* midnight: tick 3000 of the night, or half of a shorter run */
  watch.midnight = a.ticks >= HORDE_NIGHT_TICKS ? HORDE_NIGHT_TICKS / 2 : a.ticks / 2;
  if (a.png) watch.pic = &pic;
  sum.after_tick = watch_tick;
  sum.user = &watch;
  if (st == CAIRN_OK && (a.frames || a.gif) &&
      cli_png_movie_open(a.frames, a.gif, a.every ? a.every : 60, &pic, &sum.movie) != EXIT_DONE) {
    st = CAIRN_ERR_IO;
    said = true;
  }
  if (st == CAIRN_OK) {
    cairn_crowd_stats cs;
    cairn_crowd_get_stats(c, &cs);
    tally(&watch, cs.arrived);
    if (watch.pic && watch.midnight == 0) draw_panel(&watch, " at midnight", 0, &watch.panel);
    st = cli_crowd_run(c, a.ticks, &sum);
  }
  if (cli_png_movie_close(sum.movie, st == CAIRN_OK ? sum.ticks : -1) != CAIRN_OK &&
      st == CAIRN_OK)
    st = CAIRN_ERR_IO;
  if (a.replay && cli_replay_close(sum.replay, st == CAIRN_OK ? sum.ticks : -1) != CAIRN_OK &&
      st == CAIRN_OK)
    st = CAIRN_ERR_IO;
  if (st != CAIRN_OK) {
    if (!said) cli_crowd_error("horde", c, st);
    goto done;
  }
  sum.max_queue = watch.max_queue;
  cli_crowd_print(&sum, a.json, false);
  rc = a.png ? save_night(&watch, sum.ticks, a.png) : EXIT_DONE;
  if (rc == EXIT_DONE && a.save) rc = save_state(c, a.save);
done:
  cairn_image_destroy(watch.panel);
  free(gate_of);
  free(watch.by_gate);
  free(watch.pending);
  free(watch.queue_box);
  free(gate_first);
  cairn_crowd_destroy(c);
  cli_douse_torches(&torch);
  cairn_grid_destroy(g);
  free(gates);
  free(goals);
  free(agents);
  return rc;
}
