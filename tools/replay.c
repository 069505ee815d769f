/* The tool's side of the replay recorder (replay.h): the map's glyphs from
 * its file, the scene's cells on the grid, the messages. */
#include "replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

struct cli_replay {
  cairn_replay *rec;
};

/* The map's glyphs, row by row (the grid's walls where the file has no
 * glyph): the grid keeps costs, and the viewer shades terrain. */
static char *read_glyphs(const cli_replay_scene *s) {
  int32_t w = cairn_grid_width(s->grid), h = cairn_grid_height(s->grid);
  char *g = malloc((size_t)w * (size_t)h);
  if (!g) return NULL;
  for (int32_t y = 0; y < h; y++)
    for (int32_t x = 0; x < w; x++)
      g[(size_t)y * (size_t)w + (size_t)x] = cairn_grid_cost(s->grid, x, y) ? '.' : '@';
  FILE *f = fopen(s->map_path, "rb");
  char *line = malloc(CAIRN_GRID_MAX_SIDE + 8);
  if (!f || !line) {
    if (f) fclose(f);
    free(line);
    return g; /* walls alone */
  }
  bool in_map = false;
  for (int32_t y = 0; y < h && fgets(line, CAIRN_GRID_MAX_SIDE + 8, f);) {
    if (!in_map) {
      in_map = strncmp(line, "map", 3) == 0;
      continue;
    }
    for (int32_t x = 0; x < w && line[x] && line[x] != '\n' && line[x] != '\r'; x++)
      g[(size_t)y * (size_t)w + (size_t)x] = line[x];
    y++;
  }
  fclose(f);
  free(line);
  return g;
}

/* The cells of p on the grid, into out (n cells of room); their count. */
static size_t on_grid(const cairn_grid *g, const cairn_point *p, size_t n, cairn_point *out) {
  size_t m = 0;
  for (size_t k = 0; k < n; k++)
    if (cairn_grid_contains(g, p[k].x, p[k].y)) out[m++] = p[k];
  return m;
}

cairn_status cli_replay_open(const char *path, long every, const cli_replay_scene *s,
                             const cairn_crowd *c, const cairn_agent *agents,
                             size_t n, cli_replay **out) {
  *out = NULL;
  cli_replay *r = calloc(1, sizeof *r);
  char *glyphs = read_glyphs(s);
  cairn_point *cells = malloc((s->n_gates + s->n_torches + 1) * sizeof *cells);
  cairn_status st = r && glyphs && cells ? CAIRN_OK : CAIRN_ERR_NOMEM;
  cairn_error err = {{0}, 0};
  if (st == CAIRN_OK) {
    cairn_replay_opts o = cairn_replay_defaults();
    o.every = (uint32_t)every;
    o.agents = agents;
    o.n_agents = n;
    o.glyphs = glyphs;
    o.gates = cells;
    o.n_gates = on_grid(s->grid, s->gates, s->n_gates, cells);
    o.torches = cells + o.n_gates;
    o.n_torches = on_grid(s->grid, s->torches, s->n_torches, cells + o.n_gates);
    o.torch_radius = (uint32_t)s->torch_radius;
    st = cairn_replay_create(c, path, &o, NULL, &r->rec, &err);
  }
  free(glyphs);
  free(cells);
  if (st != CAIRN_OK) {
    if (err.message[0]) cli_error("%s", err.message);
    else cli_error("%s: out of memory for the replay", path);
    free(r);
    return st;
  }
  *out = r;
  return CAIRN_OK;
}

cairn_status cli_replay_tick(cli_replay *r, long tick) {
  (void)tick; /* the recorder reads the crowd's own count */
  cairn_error err;
  cairn_status st = cairn_replay_tick(r->rec, &err);
  if (st != CAIRN_OK) cli_error("%s", err.message);
  return st;
}

cairn_status cli_replay_close(cli_replay *r, long last_tick) {
  if (!r) return CAIRN_OK;
  cairn_status st = CAIRN_OK;
  cairn_error err;
  if (last_tick >= 0) st = cairn_replay_close(r->rec, &err);
  else cairn_replay_destroy(r->rec);
  if (st != CAIRN_OK) cli_error("%s", err.message);
  free(r);
  return st;
}
