/* cairn flow: one flow field over a map, its size and build time, and
 * optionally the check against a plain Dijkstra. */
#include <stdlib.h>
#include <string.h>

#include "cairn/flowfield.h"
#include "cli.h"
#include "cli_layers.h"
#include "cli_png.h"

static const char *const value_opts[] = {"--map",     "--to",        "--terrain",
                                         "--moves",   "--threads",   "--influence",
                                         "--claims",  "--claim-penalty", "--png",
                                         "--size",    NULL};

/* Goals given at most (each X,Y is at least 3 characters plus ';'). */
#define FLOW_CLI_MAX_GOALS 65536

typedef struct flow_args {
  const char *map;
  cairn_point *goals;
  size_t n_goals;
  bool json, check, heat; /* heat: --png draws costs, not arrows */
  const char *png;        /* --png FILE: the field's picture */
  cairn_flow_opts opts;
  cairn_terrain terrain;
  cli_influence influence; /* --influence events: a cost layer */
  const char *claims;       /* --claims FILE: onto the same layer */
  double claim_penalty;     /* steps per claim */
} flow_args;

/* "X,Y;X,Y;...": fills a->goals (malloc'd). */
static bool parse_goals(const char *text, flow_args *a) {
  size_t n = 1;
  for (const char *p = text; *p; p++) n += *p == ';';
  if (n > FLOW_CLI_MAX_GOALS) {
    cli_error("--to: more than %d goals", FLOW_CLI_MAX_GOALS);
    return false;
  }
  cairn_point *g = realloc(a->goals, (a->n_goals + n) * sizeof *g);
  if (!g) {
    cli_error("out of memory");
    return false;
  }
  a->goals = g;
  char one[64];
  const char *p = text;
  for (size_t k = 0; k < n; k++) {
    const char *end = strchr(p, ';');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len >= sizeof one) len = sizeof one - 1;
    memcpy(one, p, len);
    one[len] = '\0';
    if (!cli_parse_point("--to", one, &a->goals[a->n_goals])) return false;
    a->n_goals++;
    p = end ? end + 1 : p + len;
  }
  return true;
}

static int parse_flow_args(int argc, char **argv, flow_args *a) {
  memset(a, 0, sizeof *a);
  a->opts = cairn_flow_defaults();
  a->claim_penalty = 1.0; /* a straight step per claim (--claims) */
  cairn_terrain_movingai(&a->terrain);
  cli_args c;
  cli_args_init(&c, argc, argv);
  while (cli_next(&c)) {
    const char *v;
    long n;
    if (cli_is(&c, "--json")) {
      a->json = true;
    } else if (cli_is(&c, "--check")) {
      a->check = true;
    } else if (cli_is(&c, "--heat")) {
      a->heat = true;
    } else if (!cli_is_any(&c, value_opts)) {
      cli_error("flow: unknown option '%s'", c.opt ? c.opt : c.val);
      return EXIT_USAGE;
    } else if (!(v = cli_value(&c))) {
      return EXIT_USAGE;
    } else if (cli_is(&c, "--map")) {
      a->map = v;
    } else if (cli_is(&c, "--to")) {
      if (!parse_goals(v, a)) return EXIT_USAGE;
    } else if (cli_is(&c, "--terrain")) {
      if (!cli_parse_terrain(v, &a->terrain)) return EXIT_USAGE;
    } else if (cli_is(&c, "--moves")) {
      if (!cli_parse_int("--moves", v, 4, 8, &n) || (n != 4 && n != 8)) {
        cli_error("--moves must be 4 or 8");
        return EXIT_USAGE;
      }
      a->opts.moves = (int)n;
    } else if (cli_is(&c, "--threads")) {
      if (!cli_parse_int("--threads", v, 1, CAIRN_JOBS_MAX_WORKERS, &n))
        return EXIT_USAGE;
      a->opts.threads = (int)n;
    } else if (cli_is(&c, "--size")) {
      if (!cli_parse_int("--size", v, 1, CAIRN_GRID_MAX_CLEARANCE, &n)) return EXIT_USAGE;
      a->opts.size = (int32_t)n;
    } else if (cli_is(&c, "--influence")) {
      if (!cli_parse_influence(v, &a->influence)) return EXIT_USAGE;
    } else if (cli_is(&c, "--png")) {
      a->png = v;
    } else if (cli_is(&c, "--claims")) {
      a->claims = v;
    } else if (cli_is(&c, "--claim-penalty")) {
      if (!cli_parse_double("--claim-penalty", v, 0, 1000, &a->claim_penalty))
        return EXIT_USAGE;
    }
  }
  if (!a->map || !a->n_goals) {
    cli_error("flow needs --map FILE --to X,Y[;X,Y...]");
    return EXIT_USAGE;
  }
  if (a->heat && !a->png) {
    cli_error("flow: --heat needs --png FILE");
    return EXIT_USAGE;
  }
  if (a->png && !cli_png_can_write(a->png)) return EXIT_RUNTIME;
  return EXIT_DONE;
}

/* Names the first bad goal; false if there is one. */
static bool check_goals(const cairn_grid *g, const flow_args *a) {
  for (size_t k = 0; k < a->n_goals; k++)
    if (!cli_check_position(g, "--to", a->goals[k], a->opts.size > 1 ? a->opts.size : 1))
      return false;
  return true;
}

/* Runs the check; prints its verdict; returns the exit code. */
static int run_check(const cairn_field *f, bool json, bool *ok) {
  cairn_search *s = NULL;
  cairn_field_fault fault;
  *ok = false;
  if (cairn_search_create(NULL, &s) != CAIRN_OK) {
    cli_error("out of memory");
    return EXIT_RUNTIME;
  }
  cairn_status st = cairn_field_verify(f, s, &fault);
  cairn_search_destroy(s);
  if (st != CAIRN_OK) {
    cli_error("check: %s", cairn_status_str(st));
    return EXIT_RUNTIME;
  }
  if (fault.ok) {
    *ok = true;
    if (!json) printf("check: ok\n");
    return EXIT_DONE;
  }
  printf("check: failed at %d,%d: %s (field %.6f, dijkstra %.6f)\n",
         fault.cell.x, fault.cell.y, fault.problem,
         fault.got == CAIRN_COST_INF ? -1.0 : cairn_cost_to_double(fault.got),
         fault.expected == CAIRN_COST_INF ? -1.0 : cairn_cost_to_double(fault.expected));
  return EXIT_BADINPUT;
}

static void print_result(const flow_args *a, const cairn_field_stats *st,
                         bool checked) {
  if (a->json) {
    printf("{\"cells\":%zu,\"reachable\":%zu,\"build_ms\":%.3f,\"max_cost\":%.6f,"
           "\"memory_bytes\":%zu",
           st->cells, st->reachable, st->build_ms,
           cairn_cost_to_double(st->max_cost), st->memory_bytes);
    if (st->size > 1) printf(",\"size\":%d", (int)st->size);
    if (checked) printf(",\"check\":\"ok\"");
    printf("}\n");
    return;
  }
  static const char *const queues[] = {"auto", "two FIFOs", "buckets", "heap"};
  printf("map        %s (%d x %d)\n", a->map, st->width, st->height);
  printf("goals      %zu\n", st->goals);
  printf("field      %zu of %zu cells reachable, max cost %.6f, %.1f MB\n",
         st->reachable, st->cells, cairn_cost_to_double(st->max_cost),
         (double)st->memory_bytes / 1e6);
  printf("build      %.3f ms (%d moves, queue: %s, size %d)\n", st->build_ms,
         a->opts.moves, queues[st->queue], st->size);
}

/* --png: the field (arrows, or with --heat its costs) over its cost layer. */
static int draw_png(const flow_args *a, const cairn_grid *g, const cairn_penalty *layer,
                    const cairn_field *f) {
  cli_png_scene sc = {.grid = g, .penalty = layer, .field = f, .field_heat = a->heat,
                      .caption = a->heat ? "flow field: cost to the goals" : "flow field"};
  return cli_png_save(&sc, a->png);
}

int cmd_flow(int argc, char **argv) {
  flow_args a;
  int rc = parse_flow_args(argc, argv, &a);
  if (rc != EXIT_DONE) {
    free(a.goals);
    return rc;
  }
  cairn_grid *g = cli_load_map(a.map, &a.terrain);
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  cairn_penalty *layer = NULL;
  cairn_influence *influence = NULL;
  cairn_claims *claims = NULL;
  rc = EXIT_BADINPUT;
  if (!g || !check_goals(g, &a)) goto done;
  if (!cli_influence_layer(&a.influence, g, &layer, &influence)) goto done;
  /* a field has no searching unit to measure a claim radius from: every
   * claim is a penalty on its cell */
  if (a.claims && (!cli_load_claims(a.claims, g, &claims) ||
                   !cli_claims_into_layer(claims, g, a.claim_penalty, &layer)))
    goto done;
  a.opts.penalty = layer;
  rc = EXIT_RUNTIME;
  cairn_status st = cairn_flow_builder_create(NULL, &b);
  if (st == CAIRN_OK) st = cairn_field_create(g, NULL, &f);
  if (st == CAIRN_OK) st = cairn_field_build(b, f, g, a.goals, a.n_goals, &a.opts);
  if (st != CAIRN_OK) {
    cli_error("%s: building the field failed: %s", a.map, cairn_status_str(st));
    goto done;
  }
  cairn_field_stats fs;
  cairn_field_get_stats(f, &fs);
  bool ok = false;
  if (a.check) {
    if (!a.json) print_result(&a, &fs, false);
    rc = run_check(f, a.json, &ok);
    if (a.json && ok) print_result(&a, &fs, true);
    if (rc == EXIT_DONE && a.png) rc = draw_png(&a, g, layer, f);
    goto done;
  }
  print_result(&a, &fs, false);
  rc = a.png ? draw_png(&a, g, layer, f) : EXIT_DONE;
done:
  cairn_field_destroy(f);
  cairn_influence_destroy(influence);
  cairn_penalty_destroy(layer);
  cairn_claims_destroy(claims);
  cairn_flow_builder_destroy(b);
  cairn_grid_destroy(g);
  free(a.goals);
  return rc;
}
