/* cairn render: a picture of a map and one thing computed on it: a query's
 * path with the search behind it, a scenario row, a flow field, the
 * hierarchy's clusters, the map's dead ends, or a saved crowd with the
 * crowding its fields pay for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cairn/dead_ends.h"
#include "cairn/flowfield.h"
#include "cairn/hierarchy.h"
#include "cli.h"
#include "cli_layers.h"
#include "cli_png.h"
#include "cli_torches.h"
#include "cairn/crowd.h"
#include "scen_run.h"

static const char *const value_opts[] = {"--map",  "--png",   "--from",    "--to",
                                         "--algo", "--scen",  "--index",   "--flow",
                                         "--px",   "--cluster", "--terrain", "--influence",
                                         "--size", "--crowd", NULL};

#define RENDER_MAX_GOALS 4096

typedef struct render_args {
  const char *map, *png, *scen, *flow, *crowd;
  cairn_point from, to;
  bool have_from, have_to, smooth, heat, clusters, dead_ends;
  int algo; /* scen_algo */
  long index, px, cluster;
  long size; /* the unit's size: a path or field for k x k cells */
  cairn_terrain terrain;
  cli_influence influence;
} render_args;

/* Options that take no value; false when a is none of them. */
static bool parse_flag(const cli_args *c, render_args *a) {
  if (cli_is(c, "--smooth")) a->smooth = true;
  else if (cli_is(c, "--heat")) a->heat = true;
  else if (cli_is(c, "--clusters")) a->clusters = true;
  else if (cli_is(c, "--dead-ends")) a->dead_ends = true;
  else return false;
  return true;
}

static bool parse_value(const cli_args *c, const char *v, render_args *a) {
  if (cli_is(c, "--map")) a->map = v;
  else if (cli_is(c, "--png")) a->png = v;
  else if (cli_is(c, "--scen")) a->scen = v;
  else if (cli_is(c, "--flow")) a->flow = v;
  else if (cli_is(c, "--crowd")) a->crowd = v;
  else if (cli_is(c, "--from")) return a->have_from = cli_parse_point("--from", v, &a->from);
  else if (cli_is(c, "--to")) return a->have_to = cli_parse_point("--to", v, &a->to);
  else if (cli_is(c, "--index")) return cli_parse_int("--index", v, 0, 100000000L, &a->index);
  else if (cli_is(c, "--px"))
    return cli_parse_int("--px", v, 16, CAIRN_IMAGE_MAX_SIDE / 2, &a->px);
  else if (cli_is(c, "--cluster"))
    return cli_parse_int("--cluster", v, CAIRN_HPA_MIN_CLUSTER, CAIRN_HPA_MAX_CLUSTER,
                         &a->cluster);
  else if (cli_is(c, "--terrain")) return cli_parse_terrain(v, &a->terrain);
  else if (cli_is(c, "--influence")) return cli_parse_influence(v, &a->influence);
  else if (cli_is(c, "--size"))
    return cli_parse_int("--size", v, 1, CAIRN_GRID_MAX_CLEARANCE, &a->size);
  else if (cli_is(c, "--algo")) {
    a->algo = scen_algo_parse(v);
    if (a->algo >= ALGO_JPS) a->algo = -1; /* the pictures draw the other three */
    if (a->algo < 0) cli_error("--algo: '%s' is not astar, dijkstra or hpa (render draws those)", v);
    return a->algo >= 0;
  }
  return true;
}

/* What the picture shows must be one thing at most, and complete. */
static int check_args(const render_args *a) {
  int what = (a->have_from || a->have_to) + (a->scen != NULL) + (a->flow != NULL);
  if (!a->png || (!a->map && !a->scen)) {
    cli_error("render needs --map FILE (or --scen FILE) and --png OUT.png");
    return EXIT_USAGE;
  }
  if (what > 1) {
    cli_error("render: draw one of --from/--to, --scen or --flow at a time");
    return EXIT_USAGE;
  }
  /* the tint would hide a search's heat map or a field, and the query's
   * picture is drawn and written in one go (cli_png_query) */
  if (a->dead_ends && (what || a->clusters)) {
    cli_error("render: --dead-ends is drawn alone, not with --from/--to, --scen, --flow "
              "or --clusters");
    return EXIT_USAGE;
  }
  if (a->crowd && (what || a->dead_ends || a->clusters || a->influence.n)) {
    cli_error("render: --crowd is drawn alone, not with --from/--to, --scen, --flow, "
              "--dead-ends, --clusters or --influence");
    return EXIT_USAGE;
  }
  if (a->have_from != a->have_to) {
    cli_error("render: --from and --to go together");
    return EXIT_USAGE;
  }
  if (a->heat && !a->flow) {
    cli_error("render: --heat needs --flow X,Y");
    return EXIT_USAGE;
  }
  if ((a->smooth || a->algo != ALGO_ASTAR) && !a->have_from && !a->scen) {
    cli_error("render: --algo and --smooth need --from/--to or --scen");
    return EXIT_USAGE;
  }
  if (a->size > 1 && !a->have_from && !a->scen && !a->flow) {
    cli_error("render: --size needs --from/--to, --scen or --flow");
    return EXIT_USAGE;
  }
  if (a->size > 1 && a->algo == ALGO_HPA) {
    cli_error("render: --size does not apply to --algo hpa");
    return EXIT_USAGE;
  }
  if (a->cluster && !a->clusters && a->algo != ALGO_HPA) {
    cli_error("render: --cluster needs --clusters or --algo hpa");
    return EXIT_USAGE;
  }
  return EXIT_DONE;
}

static int parse_args(int argc, char **argv, render_args *a) {
  memset(a, 0, sizeof *a);
  a->size = 1;
  cairn_terrain_movingai(&a->terrain);
  cli_args c;
  cli_args_init(&c, argc, argv);
  while (cli_next(&c)) {
    const char *v;
    if (parse_flag(&c, a)) continue;
    if (!c.opt || !cli_is_any(&c, value_opts)) {
      cli_error("render: unknown option '%s'", c.opt ? c.opt : c.val);
      return EXIT_USAGE;
    }
    if (!(v = cli_value(&c)) || !parse_value(&c, v, a)) return EXIT_USAGE;
  }
  return check_args(a);
}

/* "X,Y;X,Y...": the goals of --flow, each on an open cell of g (*out
 * malloc'd). Exit code. */
static int flow_goals(const char *text, const cairn_grid *g, int32_t size, cairn_point **out,
                      size_t *n) {
  *n = 0;
  *out = malloc(RENDER_MAX_GOALS * sizeof **out);
  if (!*out) return EXIT_RUNTIME;
  char one[64];
  for (const char *p = text; *p && *n < RENDER_MAX_GOALS;) {
    size_t len = strcspn(p, ";");
    if (len >= sizeof one) len = sizeof one - 1;
    memcpy(one, p, len);
    one[len] = '\0';
    cairn_point q;
    if (!cli_parse_point("--flow", one, &q)) return EXIT_USAGE;
    if (!cli_check_position(g, "--flow", q, size)) return EXIT_BADINPUT;
    (*out)[(*n)++] = q;
    p += len + (p[len] == ';');
  }
  if (*n == 0) {
    cli_error("--flow needs X,Y[;X,Y...]");
    return EXIT_USAGE;
  }
  return EXIT_DONE;
}

static int draw_flow(const render_args *a, const cairn_grid *g, cli_png_scene *s,
                     const cairn_penalty *layer) {
  cairn_point *goals = NULL;
  size_t n = 0;
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  int rc = flow_goals(a->flow, g, (int32_t)a->size, &goals, &n);
  cairn_flow_opts o = cairn_flow_defaults();
  o.penalty = layer;
  o.size = (int32_t)a->size;
  if (rc == EXIT_DONE) {
    cairn_status st = cairn_flow_builder_create(NULL, &b);
    if (st == CAIRN_OK) st = cairn_field_create(g, NULL, &f);
    if (st == CAIRN_OK) st = cairn_field_build(b, f, g, goals, n, &o);
    if (st != CAIRN_OK) {
      cli_error("%s: building the field failed: %s", a->map, cairn_status_str(st));
      rc = EXIT_RUNTIME;
    }
  }
  if (rc == EXIT_DONE) {
    s->field = f;
    s->field_heat = a->heat;
    s->caption = a->heat ? "flow field: cost to the goals" : "flow field";
    rc = cli_png_save(s, a->png);
  }
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  free(goals);
  return rc;
}

/* Checks a query's endpoints for a unit of `size`; exit code. */
static int check_query(const cairn_grid *g, cairn_point from, cairn_point to, int32_t size) {
  if (!cli_check_position(g, "--from", from, size) || !cli_check_position(g, "--to", to, size))
    return EXIT_BADINPUT;
  return EXIT_DONE;
}

static int draw_query(const render_args *a, const cli_png_scene *base,
                      const cairn_hpa *hpa, const cairn_penalty *layer) {
  int rc = check_query(base->grid, a->from, a->to, (int32_t)a->size);
  if (rc != EXIT_DONE) return rc;
  cairn_search_opts o = cairn_search_defaults();
  o.penalty = layer;
  o.size = (int32_t)a->size;
  if (a->algo == ALGO_DIJKSTRA) o.heuristic = CAIRN_H_ZERO;
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  return cli_png_query(a->png, base, a->from, a->to, &o, a->algo == ALGO_HPA ? hpa : NULL,
                       &po, a->smooth, scen_algo_names[a->algo]);
}

/* ---- --dead-ends ------------------------------------------------------ */

/* Hues far apart from each other, from the open ground's cream and from
 * the walls' near-black, so a tinted area reads as neither. */
static const cairn_rgba area_hues[] = {
    {230, 25, 75, 255},  {60, 180, 75, 255},  {0, 130, 200, 255},  {245, 130, 48, 255},
    {145, 30, 180, 255}, {70, 200, 200, 255}, {240, 50, 230, 255}, {150, 110, 40, 255},
    {0, 128, 128, 255},  {128, 128, 0, 255},  {100, 100, 230, 255}};
#define AREA_HUES (sizeof area_hues / sizeof area_hues[0])
#define AREA_ALPHA 150 /* the terrain under an area still shows */

/* The tint of area `id`. The ids are arbitrary, so a hash picks the hue:
 * the same map always gives an area the same colour, and the hues spread
 * over the palette whatever the numbering. */
static cairn_rgba area_colour(uint32_t id) {
  uint32_t h = id * 2654435761u; /* Knuth's multiplicative hash */
  cairn_rgba c = area_hues[(h >> 16) % AREA_HUES];
  c.a = AREA_ALPHA;
  return c;
}

/* Swamps in one olive green, over any area's tint: they are corners a
 * search skips, not areas behind a gate. */
static const cairn_rgba swamp_tint = {110, 120, 20, AREA_ALPHA};

static cairn_rgba area_at(void *user, int32_t x, int32_t y) {
  if (cairn_dead_ends_swamp(user, x, y)) return swamp_tint;
  uint32_t id = cairn_dead_ends_area(user, x, y);
  return id ? area_colour(id) : (cairn_rgba){0, 0, 0, 0};
}

/* A dark line on each cell edge where two different areas meet (an area
 * and one nested in it): with a handful of hues two such areas may share
 * one, and the line still tells them apart. Only on maps drawn at 4 or
 * more pixels a cell: under a shrink one pixel holds several cells. */
static void draw_area_edges(cairn_image *img, const cairn_view *v, const cairn_dead_ends *de) {
  static const cairn_rgba edge = {30, 30, 30, 200};
  if (v->shrink > 1 || v->scale < 4) return;
  for (int32_t y = 0; y < v->map_h; y++)
    for (int32_t x = 0; x < v->map_w; x++) {
      uint32_t id = cairn_dead_ends_area(de, x, y);
      uint32_t right = cairn_dead_ends_area(de, x + 1, y);
      uint32_t below = cairn_dead_ends_area(de, x, y + 1);
      cairn_rect r = cairn_view_cell_rect(v, x, y);
      if (id && right && right != id)
        cairn_draw_rect(img, (cairn_rect){r.x + r.w - 1, r.y, 2, r.h}, edge);
      if (id && below && below != id)
        cairn_draw_rect(img, (cairn_rect){r.x, r.y + r.h - 1, r.w, 2}, edge);
    }
}

/* Tints the map's areas on a picture cli_png_draw made of s: the same
 * view (cli_png.h: the map fitted in max_px), so the cells line up. */
static void draw_areas(cairn_image *img, const cli_png_scene *s, cairn_dead_ends *de) {
  cairn_view v =
      cairn_view_fit(cairn_grid_width(s->grid), cairn_grid_height(s->grid), s->max_px);
  cairn_render_cells(img, &v, area_at, de);
  draw_area_edges(img, &v, de);
}

/* The map with each dead-end area tinted by its id, the swamps olive;
 * exit code. */
static int draw_dead_ends(const render_args *a, const cli_png_scene *base) {
  cairn_dead_ends *de = NULL;
  cairn_status st = cairn_dead_ends_create(base->grid, NULL, &de);
  if (st != CAIRN_OK) {
    cli_error("%s: finding the dead ends failed: %s", a->map, cairn_status_str(st));
    return EXIT_RUNTIME;
  }
  cairn_dead_ends_stats ds;
  cairn_dead_ends_get_stats(de, &ds);
  char caption[120];
  snprintf(caption, sizeof caption, "dead ends: %lu areas, %zu of %zu open cells; %lu swamps",
           (unsigned long)ds.areas, ds.cells, ds.open, (unsigned long)ds.swamps);
  cli_png_scene s = *base;
  s.caption = caption;
  cairn_image *img = NULL;
  cairn_error err;
  int rc = EXIT_RUNTIME;
  if ((st = cli_png_draw(&s, &img)) != CAIRN_OK) {
    cli_error("%s: drawing the picture failed: %s", a->png, cairn_status_str(st));
  } else {
    draw_areas(img, &s, de);
    if (cairn_image_write_png(img, a->png, &err) == CAIRN_OK) rc = EXIT_DONE;
    else cli_error("%s", err.message);
  }
  cairn_image_destroy(img);
  cairn_dead_ends_destroy(de);
  return rc;
}

/* The hierarchy when the picture needs one (*out NULL otherwise). */
static int build_hpa(const render_args *a, const cairn_grid *g, const cairn_penalty *layer,
                     cairn_hpa **out) {
  *out = NULL;
  if (!a->clusters && a->algo != ALGO_HPA) return EXIT_DONE;
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.cluster = (int32_t)a->cluster;
  cairn_status st = cairn_hpa_create(g, &ho, NULL, out);
  if (st == CAIRN_OK && layer) st = cairn_hpa_set_layer(*out, layer);
  if (st != CAIRN_OK) {
    cli_error("building the hierarchy failed: %s", cairn_status_str(st));
    return EXIT_RUNTIME;
  }
  return EXIT_DONE;
}

/* --scen FILE --index I: that row's start and goal become the query. */
static int scen_query(render_args *a, scen_file *f) {
  int rc = scen_file_load(a->scen, a->map, f);
  if (rc != EXIT_DONE) return rc;
  if ((size_t)a->index >= cairn_scen_count(f->sc)) {
    cli_error("%s: --index %ld is past its %zu rows", a->scen, a->index,
              cairn_scen_count(f->sc));
    return EXIT_BADINPUT;
  }
  const cairn_scen_entry *e = cairn_scen_get(f->sc, (size_t)a->index);
  a->from = e->start;
  a->to = e->goal;
  a->have_from = a->have_to = true;
  return EXIT_DONE;
}

/* The handles of a crowd's live agents (malloc'd), *n of them. */
static cairn_agent *crowd_agents(const cairn_crowd *c, size_t *n) {
  size_t cap = cairn_crowd_count(c);
  cairn_agent *agents = malloc((cap ? cap : 1) * sizeof *agents);
  cairn_crowd_arrays out = {0};
  out.agent = agents;
  if (agents && cairn_crowd_export(c, &out, cap, n) == CAIRN_OK) return agents;
  free(agents);
  return NULL;
}

/* The hierarchy a saved crowd planned over, made again on g from the
 * options its save records (and the crowd's layer). */
static cairn_status crowd_hierarchy(cairn_grid *g, const cairn_crowd_save_info *info,
                                    const cairn_penalty *layer, cairn_hpa **out) {
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.cluster = info->hpa_cluster;
  ho.levels = info->hpa_levels;
  ho.block = info->hpa_block;
  ho.max_size = info->hpa_max_size;
  ho.threads = 1;
  cairn_status st = cairn_hpa_create(g, &ho, NULL, out);
  if (st == CAIRN_OK && layer) st = cairn_hpa_set_layer(*out, layer);
  return st;
}

/* The crowd saved in a->crowd, on the map as it was saved: the setup from
 * the file, the hierarchy it planned over made again (*hpa), a night of
 * cairn horde (a penalty layer on a map with gates) with its torches lit
 * again. Exit code; *out the crowd. */
static int load_crowd(const render_args *a, cairn_grid *g, cli_torchlight *torch,
                      cairn_point *torches, cairn_point **gates, size_t *n_gates,
                      cairn_hpa **hpa, cairn_crowd **out) {
  cairn_crowd_save_info info;
  cairn_error err;
  if (cairn_crowd_read_info_file(a->crowd, &info, &err) != CAIRN_OK) {
    cli_error("%s", err.message);
    return EXIT_BADINPUT;
  }
  if (info.route_fingerprint) {
    cli_error("%s: planned over a route grid, which render cannot make again", a->crowd);
    return EXIT_BADINPUT;
  }
  if (cli_find_glyphs(a->map, 'G', gates, n_gates) != 0) return EXIT_BADINPUT;
  cairn_status st = CAIRN_OK;
  if (info.penalty_fingerprint && *n_gates)
    st = cli_light_torches(g, torches, cli_place_torches(*gates, *n_gates, torches), torch);
  info.opts.threads = 1;
  info.opts.penalty = torch->layer;
  if (st == CAIRN_OK && info.hpa) st = crowd_hierarchy(g, &info, torch->layer, hpa);
  info.opts.hpa = *hpa;
  if (st == CAIRN_OK) st = cairn_crowd_create(g, &info.opts, NULL, out);
  if (st != CAIRN_OK) {
    cli_error("%s: %s", a->crowd, cairn_status_str(st));
    return st == CAIRN_ERR_NOMEM ? EXIT_RUNTIME : EXIT_BADINPUT;
  }
  if ((st = cairn_crowd_load_file(*out, a->crowd, &err)) != CAIRN_OK) {
    cli_error("%s", err.message);
    return st == CAIRN_ERR_NOMEM ? EXIT_RUNTIME : EXIT_BADINPUT;
  }
  return EXIT_DONE;
}

/* A saved crowd: its agents, the crowding its fields pay for (blue), and
 * for a night its gates and torches. Exit code. */
static int draw_crowd(const render_args *a, cairn_grid *g, cli_png_scene *s) {
  cli_torchlight torch = {NULL, NULL};
  cairn_point torches[CLI_TORCHES], *gates = NULL;
  size_t n_gates = 0, n = 0;
  cairn_crowd *c = NULL;
  cairn_hpa *hpa = NULL;
  cairn_agent *agents = NULL;
  int rc = load_crowd(a, g, &torch, torches, &gates, &n_gates, &hpa, &c);
  if (rc == EXIT_DONE && !(agents = crowd_agents(c, &n))) {
    cli_error("render: out of memory");
    rc = EXIT_RUNTIME;
  }
  if (rc == EXIT_DONE) {
    char caption[160];
    cairn_crowd_stats cs;
    cairn_crowd_get_stats(c, &cs);
    snprintf(caption, sizeof caption, "%s: tick %llu, %zu agents, %u arrived", a->crowd,
             (unsigned long long)cs.ticks, n, cs.arrived);
    s->caption = caption;
    s->penalty = torch.layer;
    s->gates = gates;
    s->n_gates = n_gates;
    s->torches = torch.layer ? torches : NULL;
    s->n_torches = torch.layer ? CLI_TORCHES : 0;
    s->crowd = c;
    s->agents = agents;
    s->n_agents = n;
    rc = cli_png_save(s, a->png);
  }
  free(agents);
  cairn_crowd_destroy(c);
  cairn_hpa_destroy(hpa);
  cli_douse_torches(&torch);
  free(gates);
  return rc;
}

static int render(render_args *a, cairn_grid *g) {
  cairn_penalty *layer = NULL;
  cairn_influence *influence = NULL;
  cairn_hpa *hpa = NULL;
  int rc = EXIT_BADINPUT;
  if (!cli_influence_layer(&a->influence, g, &layer, &influence)) goto done;
  if ((rc = build_hpa(a, g, layer, &hpa)) != EXIT_DONE) goto done;
  cli_png_scene s = {.grid = g, .max_px = (int32_t)a->px, .penalty = layer, .hpa = hpa};
  if (a->have_from) {
    rc = draw_query(a, &s, hpa, layer);
  } else if (a->flow) {
    rc = draw_flow(a, g, &s, layer);
  } else if (a->dead_ends) {
    rc = draw_dead_ends(a, &s);
  } else if (a->crowd) {
    rc = draw_crowd(a, g, &s);
  } else {
    s.caption = hpa ? "hierarchy: clusters and entrances" : a->map;
    rc = cli_png_save(&s, a->png);
  }
done:
  cairn_hpa_destroy(hpa);
  cairn_influence_destroy(influence);
  cairn_penalty_destroy(layer);
  return rc;
}

int cmd_render(int argc, char **argv) {
  render_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc != EXIT_DONE) return rc;
  if (!cli_png_can_write(a.png)) return EXIT_RUNTIME;
  scen_file f;
  memset(&f, 0, sizeof f);
  cairn_grid *g = NULL, *own = NULL;
  if (a.scen) {
    rc = scen_query(&a, &f);
    g = f.g;
  } else {
    g = own = cli_load_map(a.map, &a.terrain);
    rc = g ? EXIT_DONE : EXIT_BADINPUT;
  }
  if (rc == EXIT_DONE) rc = render(&a, g);
  cairn_grid_destroy(own);
  if (a.scen) scen_file_free(&f);
  return rc;
}
