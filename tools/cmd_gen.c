/* cairn gen: the demo map generators. --kind settlement writes the night
 * of the dead's settlement (cairn_settlement_generate in the crowd).
 * The default is a hamlet's outskirts: forest, swamp,
 * a river with fords, and a walled hamlet with gates and houses. The same
 * seed always gives the same map. Characters: '.' open, 'T' trees, 'W'
 * water, 'S' swamp, '@' walls and houses. */
#include <stdlib.h>
#include <string.h>

#include "cairn_crowd.h"
#include "cli.h"

static const char *const value_opts[] = {"--out", "--kind", "--width", "--height", "--seed", NULL};

typedef struct canvas {
  int w, h;
  char *c;
  uint64_t rng;
} canvas;

static uint32_t rnd(canvas *m, uint32_t n) {
  uint64_t z = (m->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) % n);
}

static void put(canvas *m, int x, int y, char ch) {
  if (x >= 0 && y >= 0 && x < m->w && y < m->h) m->c[y * m->w + x] = ch;
}

static char at(const canvas *m, int x, int y) {
  if (x < 0 || y < 0 || x >= m->w || y >= m->h) return '@';
  return m->c[y * m->w + x];
}

/* A rough disc: cells within r, with a ragged edge. Only paints over open
 * ground, so later features do not erase earlier ones. */
static void blob(canvas *m, int cx, int cy, int r, char ch) {
  for (int y = cy - r; y <= cy + r; y++)
    for (int x = cx - r; x <= cx + r; x++) {
      int d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
      int edge = r * r - (int)rnd(m, (uint32_t)(r + 1)) * r / 2;
      if (d2 <= edge && at(m, x, y) == '.') put(m, x, y, ch);
    }
}

/* A river meandering from top to bottom, with `fords` shallow crossings. */
static void river(canvas *m, int x0, int fords) {
  int x = x0;
  int ford_row[8];
  for (int k = 0; k < fords; k++) ford_row[k] = (k + 1) * m->h / (fords + 1);
  for (int y = 0; y < m->h; y++) {
    bool ford = false;
    for (int k = 0; k < fords; k++)
      ford = ford || (y >= ford_row[k] - 1 && y <= ford_row[k] + 1);
    for (int dx = 0; dx < 3; dx++) put(m, x + dx, y, ford ? '.' : 'W');
    x += (int)rnd(m, 3) - 1;
    if (x < x0 - 6) x = x0 - 6;
    if (x > x0 + 6) x = x0 + 6;
  }
}

/* The walled hamlet: a ring wall with gates, and houses inside. */
static void hamlet(canvas *m, int x0, int y0, int x1, int y1) {
  for (int y = y0; y <= y1; y++)
    for (int x = x0; x <= x1; x++) {
      bool wall = x == x0 || x == x1 || y == y0 || y == y1;
      put(m, x, y, wall ? '@' : '.');
    }
  int my = (y0 + y1) / 2, mx = (x0 + x1) / 2;
  for (int d = -1; d <= 1; d++) {
    put(m, x0, my + d, '.'); /* west gate */
    put(m, mx + d, y0, '.'); /* north gate */
    put(m, mx + d, y1, '.'); /* south gate */
  }
  for (int hy = y0 + 3; hy + 3 < y1 - 1; hy += 7)
    for (int hx = x0 + 3; hx + 4 < x1 - 1; hx += 8) {
      if (abs(hx + 2 - mx) < 3 || abs(hy + 1 - my) < 3) continue; /* streets */
      for (int y = hy; y < hy + 3; y++)
        for (int x = hx; x < hx + 4; x++) put(m, x, y, '@');
    }
}

static void generate(canvas *m) {
  memset(m->c, '.', (size_t)m->w * (size_t)m->h);
  int hx0 = m->w * 3 / 4 - 2, hy0 = m->h / 4, hx1 = m->w - 4, hy1 = m->h * 3 / 4;
  hamlet(m, hx0, hy0, hx1, hy1);
  river(m, m->w / 2, 3);
  int area = m->w * m->h;
  for (int k = 0; k < area / 300; k++) /* forest */
    blob(m, (int)rnd(m, (uint32_t)(hx0 - 2)), (int)rnd(m, (uint32_t)m->h),
         2 + (int)rnd(m, 4), 'T');
  for (int k = 0; k < area / 1500 + 1; k++) /* swamp */
    blob(m, (int)rnd(m, (uint32_t)(hx0 - 4)), (int)rnd(m, (uint32_t)m->h),
         3 + (int)rnd(m, 4), 'S');
}

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
  canvas m = {(int)w, (int)h, malloc((size_t)w * (size_t)h), (uint64_t)seed};
  cairn_grid *g = NULL;
  cairn_terrain t;
  cairn_terrain_movingai(&t);
  int rc = EXIT_RUNTIME;
  if (!m.c) {
    cli_error("out of memory");
    goto done;
  }
  if (settlement)
    cairn_settlement_generate((int32_t)w, (int32_t)h, (uint64_t)seed, m.c);
  else
    generate(&m);
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
      memcpy(text + len, m.c + y * w, (size_t)w);
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
  free(m.c);
  cairn_grid_destroy(g);
  return rc;
}
