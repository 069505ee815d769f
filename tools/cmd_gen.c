/* cairn gen: the demo maps of the scenarios module, written as Moving AI
 * .map files. --kind settlement is the night of the dead's settlement; the
 * default, outskirts, a hamlet's outskirts. The same seed always gives the
 * same map. */
#include <stdlib.h>
#include <string.h>

#include "cairn_scenarios.h"
#include "cli.h"

static const char *const value_opts[] = {"--out", "--kind", "--width", "--height", "--seed", NULL};

int cmd_gen(int argc, char **argv) {
  const char *out = NULL;
  long w = 0, h = 0, seed = 1;
  bool settlement = false;
  cli_args a;
  cli_args_init(&a, argc, argv);
  while (cli_next(&a)) {
    const char *v;
    if (!a.opt || !cli_is_any(&a, value_opts)) {
      cli_error("gen: unexpected '%s'", a.opt ? a.opt : a.val);
      return EXIT_USAGE;
    }
    if (!(v = cli_value(&a))) return EXIT_USAGE;
    if (cli_is(&a, "--out")) out = v;
    else if (cli_is(&a, "--kind")) {
      if (strcmp(v, "settlement") == 0) settlement = true;
      else if (strcmp(v, "outskirts") == 0) settlement = false;
      else {
        cli_error("--kind must be outskirts or settlement");
        return EXIT_USAGE;
      }
    }
    else if (cli_is(&a, "--width")) {
      if (!cli_parse_int("--width", v, 40, CAIRN_GRID_MAX_SIDE, &w)) return EXIT_USAGE;
    } else if (cli_is(&a, "--height")) {
      if (!cli_parse_int("--height", v, 30, CAIRN_GRID_MAX_SIDE, &h)) return EXIT_USAGE;
    } else if (cli_is(&a, "--seed")) {
      if (!cli_parse_int("--seed", v, 0, 2147483647L, &seed)) return EXIT_USAGE;
    }
  }
  if (!out) {
    cli_error("gen needs --out FILE.map");
    return EXIT_USAGE;
  }
  /* the settlement (the night of the dead) is 256 x 256 by default and
   * needs 64 x 64 at least; the outskirts 120 x 60 */
  if (!w) w = settlement ? 256 : 120;
  if (!h) h = settlement ? 256 : 60;
  if (settlement && (w < 64 || h < 64)) {
    cli_error("--kind settlement needs --width and --height of 64 or more");
    return EXIT_USAGE;
  }
  char *chars = malloc((size_t)w * (size_t)h);
  cairn_grid *g = NULL;
  cairn_terrain t;
  cairn_terrain_movingai(&t);
  int rc = EXIT_RUNTIME;
  if (!chars) {
    cli_error("out of memory");
    goto done;
  }
  if (settlement)
    cairn_settlement_generate((int32_t)w, (int32_t)h, (uint64_t)seed, chars);
  else
    cairn_outskirts_generate((int32_t)w, (int32_t)h, (uint64_t)seed, chars);
  cairn_error err;
  /* through the library's own parser and writer, so the file is valid */
  {
    size_t cap = (size_t)(w + 1) * (size_t)h + 64;
    char *text = malloc(cap);
    if (!text) {
      cli_error("out of memory");
      goto done;
    }
    size_t len = (size_t)snprintf(text, cap, "type octile\nheight %ld\nwidth %ld\nmap\n", h, w);
    for (long y = 0; y < h; y++) {
      memcpy(text + len, chars + y * w, (size_t)w);
      len += (size_t)w;
      text[len++] = '\n';
    }
    cairn_status st = cairn_map_parse(text, len, out, &t, NULL, &g, &err);
    free(text);
    if (st != CAIRN_OK) {
      cli_error("%s", err.message);
      goto done;
    }
  }
  if (cairn_map_save(g, out, &t, &err) != CAIRN_OK) {
    cli_error("%s", err.message);
    goto done;
  }
  rc = EXIT_DONE;
done:
  free(chars);
  cairn_grid_destroy(g);
  return rc;
}
