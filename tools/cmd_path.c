/* cairn path: one query, its stats, its path. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/hierarchy.h"
#include "cli.h"
#include "cli_layers.h"
#include "cli_png.h"

static const char *const value_opts[] = {
    "--map",          "--from",  "--to",      "--algo",    "--heuristic", "--weight",
    "--turn-penalty", "--moves", "--terrain", "--cluster", "--nearby",
    "--levels",       "--landmarks", "--influence", "--claims",
    "--claim-penalty", "--claim-radius", "--png", "--threads",
    "--save-hierarchy", "--load-hierarchy", "--size", "--dead-ends", NULL};

typedef enum path_algo {
  ALGO_ASTAR,
  ALGO_DIJKSTRA,
  ALGO_HPA,
  ALGO_JPS,
  ALGO_JPS_PLUS,
  ALGO_AUTO /* resolved to one of the others once the map is read */
} path_algo;
static const char *const algo_names[] = {"astar", "dijkstra", "hpa", "jps", "jps+", "auto"};

typedef struct path_args {
  const char *map;
  cairn_point from, to;
  bool have_from, have_to, smooth, draw, json, no_smooth;
  path_algo algo;
  long cluster, nearby, levels; /* hpa; 0, -1 and 0 say the defaults */
  long landmarks;               /* hpa's, or astar's, jps's, jps+'s table; -1 default, 0 none */
  long threads;                 /* hpa build; 0 = every core */
  int dead_ends;                /* --dead-ends on|off: 1, 0; -1 not given (off) */
  const char *save_hpa, *load_hpa; /* --save-hierarchy, --load-hierarchy */
  cli_influence influence; /* --influence events */
  const char *claims;       /* --claims FILE (grid searches) */
  const char *png;          /* --png FILE: the picture */
  cairn_search_opts opts;
  cairn_terrain terrain;
} path_args;

static int parse_path_args(int argc, char **argv, path_args *p) {
  memset(p, 0, sizeof *p);
  p->opts = cairn_search_defaults();
  p->opts.claim_penalty = 1.0; /* a straight step per claim (--claims) */
  p->nearby = -1;
  p->landmarks = -1;
  p->dead_ends = -1;
  cairn_terrain_movingai(&p->terrain);
  bool heuristic_set = false;
  /* the first option given that only a grid search (resp. hpa) takes */
  const char *grid_only = NULL, *hpa_only = NULL;
  cli_args a;
  cli_args_init(&a, argc, argv);
  while (cli_next(&a)) {
    const char *v;
    long n;
    if (cli_is(&a, "--smooth")) {
      p->smooth = true;
    } else if (cli_is(&a, "--draw")) {
      p->draw = true;
    } else if (cli_is(&a, "--json")) {
      p->json = true;
    } else if (cli_is(&a, "--no-smooth")) {
      p->no_smooth = true;
      if (!hpa_only) hpa_only = "--no-smooth";
    } else if (!cli_is_any(&a, value_opts)) {
      cli_error("path: unknown option '%s'", a.opt ? a.opt : a.val);
      return EXIT_USAGE;
    } else if (!(v = cli_value(&a))) {
      return EXIT_USAGE;
    } else if (cli_is(&a, "--map")) {
      p->map = v;
    } else if (cli_is(&a, "--from")) {
      if (!cli_parse_point("--from", v, &p->from)) return EXIT_USAGE;
      p->have_from = true;
    } else if (cli_is(&a, "--to")) {
      if (!cli_parse_point("--to", v, &p->to)) return EXIT_USAGE;
      p->have_to = true;
    } else if (cli_is(&a, "--algo")) {
      int k = 0;
      while (k < 6 && strcmp(v, algo_names[k]) != 0) k++;
      if (k == 6) {
        cli_error("--algo: '%s' is not astar, dijkstra, hpa, jps, jps+ or auto", v);
        return EXIT_USAGE;
      }
      p->algo = (path_algo)k;
    } else if (cli_is(&a, "--heuristic")) {
      if (cairn_heuristic_parse(v, &p->opts.heuristic) != CAIRN_OK) {
        cli_error("--heuristic: '%s' is not octile, manhattan, euclidean or zero", v);
        return EXIT_USAGE;
      }
      heuristic_set = true;
      if (!grid_only) grid_only = "--heuristic";
    } else if (cli_is(&a, "--weight")) {
      if (!cli_parse_double("--weight", v, 1, 1000, &p->opts.weight)) return EXIT_USAGE;
      if (!grid_only) grid_only = "--weight";
    } else if (cli_is(&a, "--turn-penalty")) {
      if (!cli_parse_double("--turn-penalty", v, 0, 1000, &p->opts.turn_penalty))
        return EXIT_USAGE;
      if (!grid_only) grid_only = "--turn-penalty";
    } else if (cli_is(&a, "--moves")) {
      if (!cli_parse_int("--moves", v, 4, 8, &n) || (n != 4 && n != 8)) {
        cli_error("--moves must be 4 or 8");
        return EXIT_USAGE;
      }
      p->opts.moves = (int)n;
      if (n == 4 && !grid_only) grid_only = "--moves 4";
    } else if (cli_is(&a, "--size")) {
      if (!cli_parse_int("--size", v, 1, CAIRN_GRID_MAX_CLEARANCE, &n)) return EXIT_USAGE;
      p->opts.size = (int32_t)n; /* the hierarchy is built for it too */
    } else if (cli_is(&a, "--terrain")) {
      if (!cli_parse_terrain(v, &p->terrain)) return EXIT_USAGE;
    } else if (cli_is(&a, "--cluster")) {
      if (!cli_parse_int("--cluster", v, CAIRN_HPA_MIN_CLUSTER,
                         CAIRN_HPA_MAX_CLUSTER, &p->cluster))
        return EXIT_USAGE;
      if (!hpa_only) hpa_only = "--cluster";
    } else if (cli_is(&a, "--nearby")) {
      if (!cli_parse_int("--nearby", v, 0, 1000000, &p->nearby)) return EXIT_USAGE;
      if (!hpa_only) hpa_only = "--nearby";
    } else if (cli_is(&a, "--levels")) {
      if (!cli_parse_int("--levels", v, 2, 3, &p->levels)) return EXIT_USAGE;
      if (!hpa_only) hpa_only = "--levels";
    } else if (cli_is(&a, "--influence")) {
      if (!cli_parse_influence(v, &p->influence)) return EXIT_USAGE;
    } else if (cli_is(&a, "--png")) {
      p->png = v;
    } else if (cli_is(&a, "--claims")) {
      p->claims = v;
      if (!grid_only) grid_only = "--claims";
    } else if (cli_is(&a, "--claim-penalty")) {
      if (!cli_parse_double("--claim-penalty", v, 0, 1000, &p->opts.claim_penalty))
        return EXIT_USAGE;
      if (!grid_only) grid_only = "--claim-penalty";
    } else if (cli_is(&a, "--claim-radius")) {
      long r;
      if (!cli_parse_int("--claim-radius", v, 0, CAIRN_GRID_MAX_SIDE, &r)) return EXIT_USAGE;
      p->opts.claim_radius = (int32_t)r;
      if (!grid_only) grid_only = "--claim-radius";
    } else if (cli_is(&a, "--landmarks")) {
      if (!cli_parse_int("--landmarks", v, 0, CAIRN_GRAPH_MAX_LANDMARKS,
                         &p->landmarks))
        return EXIT_USAGE;
    } else if (cli_is(&a, "--dead-ends")) {
      if (!cli_parse_on_off("--dead-ends", v, &p->dead_ends)) return EXIT_USAGE;
    } else if (cli_is(&a, "--threads")) {
      /* any algorithm takes it, so scripts may pass it always; only the
       * hierarchy's build runs in parallel */
      if (!cli_parse_int("--threads", v, 1, CAIRN_JOBS_MAX_WORKERS, &p->threads))
        return EXIT_USAGE;
    } else if (cli_is(&a, "--save-hierarchy")) {
      p->save_hpa = v;
      if (!hpa_only) hpa_only = "--save-hierarchy";
    } else if (cli_is(&a, "--load-hierarchy")) {
      p->load_hpa = v;
      if (!hpa_only) hpa_only = "--load-hierarchy";
    }
  }
  if (!p->map || !p->have_from || !p->have_to) {
    cli_error("path needs --map FILE --from X,Y --to X,Y");
    return EXIT_USAGE;
  }
  if (p->algo == ALGO_HPA && grid_only) {
    cli_error("path: %s does not apply to --algo hpa", grid_only);
    return EXIT_USAGE;
  }
  if (p->algo != ALGO_HPA && hpa_only) {
    cli_error("path: %s needs --algo hpa", hpa_only);
    return EXIT_USAGE;
  }
  if ((p->algo == ALGO_JPS || p->algo == ALGO_JPS_PLUS) &&
      (p->opts.moves == 4 || p->opts.turn_penalty != 0.0 || p->opts.size > 1 ||
       p->influence.n || p->claims)) {
    cli_error("path: --algo %s takes 8 moves, one cell, no --turn-penalty, "
              "--influence or --claims", algo_names[p->algo]);
    return EXIT_USAGE;
  }
  if (p->dead_ends == 1 && p->algo == ALGO_DIJKSTRA) {
    cli_error("path: --dead-ends on takes --algo astar, jps, jps+, hpa or auto");
    return EXIT_USAGE;
  }
  if (p->load_hpa && (p->cluster || p->levels || p->landmarks != -1)) {
    cli_error("path: --cluster, --levels and --landmarks do not apply to "
              "--load-hierarchy (the file holds the hierarchy's options)");
    return EXIT_USAGE;
  }
  const bool grid_landmarks = p->algo != ALGO_HPA && p->landmarks > 0;
  if (grid_landmarks && (p->algo == ALGO_DIJKSTRA || p->opts.weight != 1.0 ||
                         (heuristic_set && p->opts.heuristic != CAIRN_H_OCTILE))) {
    cli_error("path: --landmarks raises the octile heuristic of an exact search: it takes "
              "no --algo dijkstra, --weight or other --heuristic");
    return EXIT_USAGE;
  }
  /* 4-way moves default to Manhattan, the exact heuristic for them (the
   * landmarks raise the octile one) */
  if (!heuristic_set && p->opts.moves == 4 && !grid_landmarks)
    p->opts.heuristic = CAIRN_H_MANHATTAN;
  if (p->algo == ALGO_DIJKSTRA) p->opts.heuristic = CAIRN_H_ZERO;
  if (p->png && !cli_png_can_write(p->png)) return EXIT_RUNTIME;
  return EXIT_DONE;
}

static void print_points(const cairn_point *pts, size_t n) {
  putchar('[');
  for (size_t i = 0; i < n; i++)
    printf("%s[%d,%d]", i ? "," : "", pts[i].x, pts[i].y);
  putchar(']');
}

/* What an hpa query adds to the output; NULL for a grid search. */
typedef struct hpa_info {
  cairn_hpa_stats stats;
  cairn_hpa_result res;
  int32_t nearby; /* resolved: the default is twice the cluster side */
} hpa_info;

static void print_json(const cairn_result *r, double us, const hpa_info *h,
                       const cairn_point *smooth, size_t n_smooth,
                       double smooth_len) {
  bool found = r->status == CAIRN_OK;
  printf("{\"found\":%s,\"cost\":", found ? "true" : "false");
  if (found) printf("%.6f", cairn_cost_to_double(r->cost));
  else printf("null");
  printf(",\"steps\":%u,\"expanded\":%llu,\"generated\":", r->steps,
         (unsigned long long)r->expanded);
  /* the hierarchy does not count generated nodes */
  if (h) printf("null");
  else printf("%llu", (unsigned long long)r->generated);
  printf(",\"us\":%.1f,\"base_cost\":", us);
  if (found) printf("%.6f", cairn_cost_to_double(r->base_cost));
  else printf("null");
  if (h)
    printf(",\"cluster\":%d,\"nearby\":%d,\"preprocess_ms\":%.3f,"
           "\"abstract_nodes\":%u,\"abstract_edges\":%zu,\"memory_bytes\":%zu,"
           "\"route_len\":%u,\"plain\":%s,\"levels\":%d,\"level2_nodes\":%u,"
           "\"level2_edges\":%zu,\"route2_len\":%u,\"landmarks\":%u,\"max_size\":%d",
           h->stats.cluster, h->nearby, h->stats.build_ms, h->stats.nodes,
           h->stats.edges, h->stats.memory_bytes, h->res.route_len,
           h->res.plain ? "true" : "false", h->stats.levels, h->stats.nodes2,
           h->stats.edges2, h->res.route2_len, h->stats.landmarks, h->stats.max_size);
  printf(",\"path\":");
  print_points(r->path, found ? r->path_len : 0);
  if (smooth) {
    printf(",\"smoothed\":");
    print_points(smooth, n_smooth);
    printf(",\"smoothed_length\":%.6f", smooth_len);
  }
  printf("}\n");
}

/* ASCII picture of the path's bounding box (plus a margin), capped so a
 * long path does not flood the terminal. */
static void draw(const cairn_grid *g, const cairn_result *r) {
  int32_t x0 = INT32_MAX, y0 = INT32_MAX, x1 = -1, y1 = -1;
  for (size_t i = 0; i < r->path_len; i++) {
    cairn_point p = r->path[i];
    if (p.x < x0) x0 = p.x;
    if (p.y < y0) y0 = p.y;
    if (p.x > x1) x1 = p.x;
    if (p.y > y1) y1 = p.y;
  }
  x0 = x0 > 2 ? x0 - 2 : 0;
  y0 = y0 > 2 ? y0 - 2 : 0;
  x1 = x1 + 2 < cairn_grid_width(g) ? x1 + 2 : cairn_grid_width(g) - 1;
  y1 = y1 + 2 < cairn_grid_height(g) ? y1 + 2 : cairn_grid_height(g) - 1;
  if (x1 - x0 >= 160 || y1 - y0 >= 100) {
    printf("(path area %d x %d is too large to draw)\n", x1 - x0 + 1, y1 - y0 + 1);
    return;
  }
  int32_t w = x1 - x0 + 1, h = y1 - y0 + 1;
  char *canvas = malloc((size_t)w * (size_t)h);
  if (!canvas) return;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++) {
      uint8_t c = cairn_grid_cost(g, x0 + x, y0 + y);
      canvas[y * w + x] = c == 0 ? '#' : c == 1 ? '.' : c < 10 ? (char)('0' + c) : '+';
    }
  for (size_t i = 0; i < r->path_len; i++)
    canvas[(r->path[i].y - y0) * w + (r->path[i].x - x0)] = '*';
  canvas[(r->path[0].y - y0) * w + (r->path[0].x - x0)] = 'S';
  canvas[(r->path[r->path_len - 1].y - y0) * w + (r->path[r->path_len - 1].x - x0)] = 'G';
  printf("area x %d..%d, y %d..%d ('#' blocked, '.' cost 1, digits cost, '*' path)\n",
         x0, x1, y0, y1);
  for (int32_t y = 0; y < h; y++) printf("  %.*s\n", (int)w, canvas + y * w);
  free(canvas);
}

static void print_text(const path_args *p, const cairn_grid *g,
                       const cairn_result *r, double us, const hpa_info *h,
                       const cairn_point *smooth, size_t n_smooth,
                       double smooth_len) {
  printf("map        %s (%d x %d)\n", p->map, cairn_grid_width(g), cairn_grid_height(g));
  printf("query      %d,%d -> %d,%d\n", p->from.x, p->from.y, p->to.x, p->to.y);
  if (h) {
    printf("search     hpa, cluster %d, nearby %d, 8 moves, size %d, detour smoothing %s%s\n",
           h->stats.cluster, h->nearby, p->opts.size ? p->opts.size : 1,
           p->no_smooth ? "off" : "on", p->dead_ends == 1 ? ", dead ends skipped" : "");
    printf("hierarchy  %u clusters, %u nodes, %zu edges, %u landmarks, sizes to %d, "
           "%.1f MB, %s in %.1f ms\n",
           h->stats.clusters, h->stats.nodes, h->stats.edges, h->stats.landmarks,
           h->stats.max_size,
           (double)h->stats.memory_bytes / 1e6, p->load_hpa ? "loaded" : "built",
           h->stats.build_ms);
    if (h->stats.levels == 3)
      printf("level 3    %u blocks of %d x %d clusters, %u nodes, %zu edges\n",
             h->stats.blocks, h->stats.block, h->stats.block, h->stats.nodes2,
             h->stats.edges2);
    if (h->res.plain)
      printf("route      plain A* answered (start and goal within %d cells)\n", h->nearby);
    else if (h->res.route_len && h->res.route2_len)
      printf("route      %u level-2 nodes, %u abstract nodes, start and goal included\n",
             h->res.route2_len, h->res.route_len);
    else if (h->res.route_len)
      printf("route      %u abstract nodes, start and goal included\n",
             h->res.route_len);
    else
      printf("route      none\n");
  } else {
    printf("search     %s, heuristic %s, weight %g, %d moves, size %d%s\n",
           p->algo >= ALGO_JPS                  ? algo_names[p->algo]
           : p->opts.heuristic == CAIRN_H_ZERO ? "dijkstra"
                                               : "astar",
           cairn_heuristic_name(p->opts.heuristic), p->opts.weight, p->opts.moves,
           p->opts.size, p->dead_ends == 1 ? ", dead ends skipped" : "");
  }
  printf("result     %s\n", r->status == CAIRN_OK ? "found" : cairn_status_str(r->status));
  if (h)
    printf("expanded   %llu nodes in %.1f us\n", (unsigned long long)r->expanded, us);
  else
    printf("expanded   %llu nodes (%llu generated) in %.1f us\n",
           (unsigned long long)r->expanded, (unsigned long long)r->generated, us);
  if (r->status != CAIRN_OK) return;
  printf("cost       %.6f\n", cairn_cost_to_double(r->cost));
  if (r->base_cost != r->cost)
    printf("base cost  %.6f (without cost layers and turn penalties)\n",
           cairn_cost_to_double(r->base_cost));
  printf("steps      %u\n", r->steps);
  if (smooth)
    printf("smoothed   %zu waypoints, length %.6f\n", n_smooth, smooth_len);
  if (p->draw) draw(g, r);
  printf("path      ");
  for (size_t i = 0; i < r->path_len; i++)
    printf("%s%d,%d", i % 12 == 0 && i ? "\n           " : " ", r->path[i].x,
           r->path[i].y);
  printf("\n");
}

/* The hierarchy over g, built with the layer bound, or loaded from
 * --load-hierarchy for that layer; then saved to --save-hierarchy (after a
 * refresh: a file holds no cluster the layer left stale). Exit code, the
 * error printed: a file that cannot be loaded is bad input. */
static int get_hpa(const path_args *p, const cairn_grid *g, cairn_hpa **hpa) {
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.cluster = (int32_t)p->cluster;
  ho.levels = (int)p->levels;
  ho.threads = (int)p->threads;
  ho.max_size = p->opts.size > 1 ? p->opts.size : 1; /* answers --size */
  if (p->landmarks >= 0) ho.landmarks = p->landmarks ? (int32_t)p->landmarks : -1;
  cairn_error err;
  cairn_status st;
  if (p->load_hpa) {
    st = cairn_hpa_load_file(p->load_hpa, g, p->opts.penalty, &ho, NULL, hpa, &err);
    if (st != CAIRN_OK) {
      cli_error("%s", err.message);
      return st == CAIRN_ERR_NOMEM ? EXIT_RUNTIME : EXIT_BADINPUT;
    }
    cairn_hpa_stats hs;
    cairn_hpa_get_stats(*hpa, &hs);
    if (hs.max_size < ho.max_size) {
      cli_error("%s: the hierarchy answers units up to size %d, not %d (build it with "
                "--size %d)", p->load_hpa, hs.max_size, ho.max_size, ho.max_size);
      return EXIT_BADINPUT;
    }
  } else {
    st = cairn_hpa_create(g, &ho, NULL, hpa);
    if (st == CAIRN_OK && p->opts.penalty) st = cairn_hpa_set_layer(*hpa, p->opts.penalty);
    if (st != CAIRN_OK) {
      cli_error("%s: building the hierarchy failed: %s", p->map, cairn_status_str(st));
      return EXIT_RUNTIME;
    }
  }
  if (!p->save_hpa) return EXIT_DONE;
  st = cairn_hpa_refresh(*hpa, 0, NULL);
  if (st != CAIRN_OK) {
    cli_error("%s: refreshing the hierarchy failed: %s", p->map, cairn_status_str(st));
    return EXIT_RUNTIME;
  }
  if (cairn_hpa_save_file(*hpa, p->save_hpa, &err) != CAIRN_OK) {
    cli_error("%s", err.message);
    return EXIT_RUNTIME;
  }
  return EXIT_DONE;
}

/* Answers the query with the hierarchy, in the grid searches' result form
 * (r's path lives in *q); *us times the query alone. */
static cairn_status find_hpa(const path_args *p, const cairn_hpa *hpa,
                             const cairn_dead_ends *de, cairn_hpa_query **q, hpa_info *h,
                             cairn_result *r, double *us) {
  cairn_status st;
  if ((st = cairn_hpa_query_create(NULL, q)) != CAIRN_OK ||
      (st = cairn_hpa_query_reserve(*q, hpa)) != CAIRN_OK) {
    cli_error("out of memory");
    return st;
  }
  cairn_hpa_get_stats(hpa, &h->stats);
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  po.nearby = (int32_t)p->nearby;
  po.smooth = !p->no_smooth;
  po.size = p->opts.size;
  po.dead_ends = de;
  h->nearby = po.nearby < 0 ? 2 * h->stats.cluster : po.nearby;
  double t0 = cli_now_us();
  st = cairn_hpa_find(*q, hpa, p->from, p->to, &po, &h->res);
  *us = cli_now_us() - t0;
  cli_result_of_hpa(st, &h->res, r);
  if (st < 0) cli_error("search failed: %s", cairn_status_str(st));
  return st;
}

int cmd_path(int argc, char **argv) {
  path_args p;
  int rc = parse_path_args(argc, argv, &p);
  if (rc != EXIT_DONE) return rc;
  cairn_grid *g = cli_load_map(p.map, &p.terrain);
  if (!g) return EXIT_BADINPUT;
  cairn_search *s = NULL;
  cairn_hpa *hpa = NULL;
  cairn_hpa_query *q = NULL;
  hpa_info h;
  cairn_point *smooth = NULL;
  cairn_penalty *layer = NULL;
  cairn_influence *influence = NULL;
  cairn_claims *claims = NULL;
  cairn_jumps *jumps = NULL;
  cairn_landmarks *lm = NULL;
  cairn_dead_ends *de = NULL;
  rc = EXIT_RUNTIME;
  if (!cli_check_position(g, "--from", p.from, p.opts.size) ||
      !cli_check_position(g, "--to", p.to, p.opts.size)) {
    rc = EXIT_BADINPUT;
    goto done;
  }
  cairn_result r;
  cairn_status st;
  double us = 0;
  if (!cli_influence_layer(&p.influence, g, &layer, &influence)) {
    rc = EXIT_BADINPUT;
    goto done;
  }
  p.opts.penalty = layer;
  if (p.claims && !cli_load_claims(p.claims, g, &claims)) {
    rc = EXIT_BADINPUT;
    goto done;
  }
  p.opts.claims = claims;
  if (p.algo == ALGO_AUTO) { /* as scen_auto_choice */
    const bool plain = p.opts.moves == 8 && p.opts.turn_penalty == 0.0 && p.opts.size <= 1 &&
                       p.opts.weight == 1.0 && !layer && !claims;
    /* no landmark table for one query: it costs a fill per landmark, and
     * the search at most one */
    p.algo = plain && cairn_grid_uniform(g) ? ALGO_JPS_PLUS : ALGO_ASTAR;
  }
  /* off unless asked: for one query the table's depth-first search over
   * the whole map costs more than the search it shortens */
  if (p.dead_ends == 1 && cairn_dead_ends_create(g, NULL, &de) != CAIRN_OK) {
    cli_error("out of memory");
    goto done;
  }
  p.opts.dead_ends = de;
  if (p.algo == ALGO_HPA) {
    memset(&h, 0, sizeof h);
    if ((rc = get_hpa(&p, g, &hpa)) != EXIT_DONE) goto done;
    rc = EXIT_RUNTIME;
    st = find_hpa(&p, hpa, de, &q, &h, &r, &us);
    if (st < 0) goto done;
  } else {
    if (cairn_search_create(NULL, &s) != CAIRN_OK) {
      cli_error("out of memory");
      goto done;
    }
    cairn_search_reserve_grid(s, g);
    const bool jump = p.algo == ALGO_JPS || p.algo == ALGO_JPS_PLUS;
    if (jump && !cairn_grid_uniform(g)) {
      cli_error("%s: --algo %s needs a map of one terrain cost, and this one has "
                "several (--algo astar takes any)", p.map, algo_names[p.algo]);
      rc = EXIT_BADINPUT;
      goto done;
    }
    if (p.algo == ALGO_JPS_PLUS && cairn_jumps_create(g, NULL, &jumps) != CAIRN_OK) {
      cli_error("out of memory");
      goto done;
    }
    if (p.landmarks > 0 && !(p.opts.landmarks = lm = cli_landmarks(g, p.landmarks)))
      goto done;
    double t0 = cli_now_us();
    if (p.algo == ALGO_JPS_PLUS) st = cairn_jps_plus(s, jumps, p.from, p.to, &p.opts, &r);
    else if (p.algo == ALGO_JPS) st = cairn_jps(s, g, p.from, p.to, &p.opts, &r);
    else st = cairn_astar(s, g, p.from, p.to, &p.opts, &r);
    us = cli_now_us() - t0;
    if (st < 0) {
      cli_error("search failed: %s", cairn_status_str(st));
      goto done;
    }
  }
  size_t n_smooth = 0;
  double smooth_len = 0;
  if (p.smooth && st == CAIRN_OK) {
    smooth = malloc(r.path_len * sizeof *smooth);
    if (!smooth || cairn_smooth_path_sized(g, p.opts.size > 1 ? p.opts.size : 1, r.path,
                                           r.path_len, smooth, r.path_len, &n_smooth,
                                           &smooth_len) != CAIRN_OK) {
      cli_error("smoothing failed");
      goto done;
    }
  }
  const hpa_info *hi = p.algo == ALGO_HPA ? &h : NULL;
  if (p.json) print_json(&r, us, hi, smooth, n_smooth, smooth_len);
  else print_text(&p, g, &r, us, hi, smooth, n_smooth, smooth_len);
  rc = EXIT_DONE;
  if (p.png) {
    char caption[160];
    snprintf(caption, sizeof caption, "%s %d,%d to %d,%d (%s)", p.map, p.from.x, p.from.y,
             p.to.x, p.to.y, algo_names[p.algo]);
    cli_png_scene sc = {.grid = g, .penalty = layer, .search = s, .hpa = hpa,
                        .path = st == CAIRN_OK ? r.path : NULL,
                        .path_len = st == CAIRN_OK ? r.path_len : 0, .smooth = smooth,
                        .smooth_len = n_smooth, .query = true, .from = p.from, .to = p.to,
                        .caption = caption};
    rc = cli_png_save(&sc, p.png);
  }
done:
  free(smooth);
  cairn_influence_destroy(influence);
  cairn_penalty_destroy(layer);
  cairn_claims_destroy(claims);
  cairn_jumps_destroy(jumps);
  cairn_landmarks_destroy(lm);
  cairn_dead_ends_destroy(de);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(hpa);
  cairn_search_destroy(s);
  cairn_grid_destroy(g);
  return rc;
}
