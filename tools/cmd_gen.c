/* cairn gen: maps and scenario files. --kind settlement is the night of
 * the dead's settlement; the default, outskirts, a hamlet's outskirts (the
 * demo maps of the scenarios module); terrain a terrain variant of a map
 * (--from) and scen a scenario file for a map (--map), both in gen_*.c.
 * The same seed always gives the same file. */
#include <stdlib.h>
#include <string.h>

#include "cairn_scenarios.h"
#include "cli.h"
#include "gen.h"

static const char *const value_opts[] = {"--out",  "--kind", "--width", "--height", "--seed",
                                         "--from", "--map",  "--rows",  NULL};

typedef enum gen_kind { KIND_OUTSKIRTS, KIND_SETTLEMENT, KIND_TERRAIN, KIND_SCEN } gen_kind;

typedef struct gen_args {
  const char *out, *from, *map;
  long w, h, seed, rows;
  gen_kind kind;
} gen_args;

static bool parse_kind(const char *v, gen_kind *k) {
  static const char *const names[] = {"outskirts", "settlement", "terrain", "scen"};
  for (int i = 0; i < 4; i++)
    if (strcmp(v, names[i]) == 0) {
      *k = (gen_kind)i;
      return true;
    }
  cli_error("--kind must be outskirts, settlement, terrain or scen");
  return false;
}

static bool parse_value(cli_args *a, const char *v, gen_args *p) {
  if (cli_is(a, "--out")) p->out = v;
  else if (cli_is(a, "--from")) p->from = v;
  else if (cli_is(a, "--map")) p->map = v;
  else if (cli_is(a, "--kind")) return parse_kind(v, &p->kind);
  else if (cli_is(a, "--width")) return cli_parse_int("--width", v, 40, CAIRN_GRID_MAX_SIDE, &p->w);
  else if (cli_is(a, "--height")) return cli_parse_int("--height", v, 30, CAIRN_GRID_MAX_SIDE, &p->h);
  else if (cli_is(a, "--seed")) return cli_parse_int("--seed", v, 0, 2147483647L, &p->seed);
  /* at most 100,000 rows: the largest Moving AI file has 11,960, and each
   * 16 rows cost a whole-map Dijkstra fill */
  else if (cli_is(a, "--rows")) return cli_parse_int("--rows", v, 1, 100000L, &p->rows);
  return true;
}

/* Each kind's own options, and only those. */
static bool check_kind(const gen_args *p) {
  bool demo = p->kind == KIND_OUTSKIRTS || p->kind == KIND_SETTLEMENT;
  if (!p->out) {
    cli_error("gen needs --out FILE");
    return false;
  }
  if (!demo && (p->w || p->h)) {
    cli_error("gen: --width and --height are for the outskirts and settlement kinds");
    return false;
  }
  if ((p->kind == KIND_TERRAIN) != (p->from != NULL)) {
    cli_error(p->from ? "gen: --from is for --kind terrain" : "gen --kind terrain needs --from MAP.map");
    return false;
  }
  if ((p->kind == KIND_SCEN) != (p->map != NULL) || (p->kind == KIND_SCEN) != (p->rows != 0)) {
    cli_error(p->kind == KIND_SCEN ? "gen --kind scen needs --map FILE.map and --rows N"
                                   : "gen: --map and --rows are for --kind scen");
    return false;
  }
  return true;
}

static int parse_gen_args(int argc, char **argv, gen_args *p) {
  memset(p, 0, sizeof *p);
  p->seed = 1;
  cli_args a;
  cli_args_init(&a, argc, argv);
  while (cli_next(&a)) {
    const char *v;
    if (!a.opt || !cli_is_any(&a, value_opts)) {
      cli_error("gen: unexpected '%s'", a.opt ? a.opt : a.val);
      return EXIT_USAGE;
    }
    if (!(v = cli_value(&a)) || !parse_value(&a, v, p)) return EXIT_USAGE;
  }
  return check_kind(p) ? EXIT_DONE : EXIT_USAGE;
}

/* The demo maps, through the library's own parser and writer, so the file
 * is valid. */
static int gen_demo(const gen_args *p) {
  bool settlement = p->kind == KIND_SETTLEMENT;
  /* the settlement (the night of the dead) is 256 x 256 by default and
   * needs 64 x 64 at least; the outskirts 120 x 60 */
  long w = p->w ? p->w : settlement ? 256 : 120;
  long h = p->h ? p->h : settlement ? 256 : 60;
  if (settlement && (w < 64 || h < 64)) {
    cli_error("--kind settlement needs --width and --height of 64 or more");
    return EXIT_USAGE;
  }
  size_t cap = (size_t)(w + 1) * (size_t)h + 64;
  char *chars = malloc((size_t)w * (size_t)h), *text = malloc(cap);
  cairn_grid *g = NULL;
  int rc = EXIT_RUNTIME;
  cairn_error err;
  if (!chars || !text) {
    cli_error("out of memory");
    goto done;
  }
  if (settlement)
    cairn_settlement_generate((int32_t)w, (int32_t)h, (uint64_t)p->seed, chars);
  else
    cairn_outskirts_generate((int32_t)w, (int32_t)h, (uint64_t)p->seed, chars);
  size_t len = (size_t)snprintf(text, cap, "type octile\nheight %ld\nwidth %ld\nmap\n", h, w);
  for (long y = 0; y < h; y++) {
    memcpy(text + len, chars + y * w, (size_t)w);
    len += (size_t)w;
    text[len++] = '\n';
  }
  if (cairn_map_parse(text, len, p->out, NULL, NULL, &g, &err) != CAIRN_OK ||
      cairn_map_save(g, p->out, NULL, &err) != CAIRN_OK) {
    cli_error("%s", err.message);
    goto done;
  }
  rc = EXIT_DONE;
done:
  free(chars);
  free(text);
  cairn_grid_destroy(g);
  return rc;
}

int cmd_gen(int argc, char **argv) {
  gen_args p;
  int rc = parse_gen_args(argc, argv, &p);
  if (rc != EXIT_DONE) return rc;
  switch (p.kind) {
  case KIND_TERRAIN: return gen_terrain(p.from, (uint64_t)p.seed, p.out);
  case KIND_SCEN: return gen_scen(p.map, p.rows, (uint64_t)p.seed, p.out);
  default: return gen_demo(&p);
  }
}
