/* The defenders' torches of the night of the dead (cli_torches.h). */
#include "cli_torches.h"

#include <string.h>

size_t cli_place_torches(const cairn_point *gates, size_t n, cairn_point *t) {
  int32_t x0 = gates[0].x, x1 = x0, y0 = gates[0].y, y1 = y0;
  for (size_t k = 1; k < n; k++) {
    if (gates[k].x < x0) x0 = gates[k].x;
    if (gates[k].x > x1) x1 = gates[k].x;
    if (gates[k].y < y0) y0 = gates[k].y;
    if (gates[k].y > y1) y1 = gates[k].y;
  }
  int32_t mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
  cairn_point p[CLI_TORCHES] = {{x0 - 3, y0 - 3}, {x1 + 3, y0 - 3}, {x0 - 3, y1 + 3},
                                {x1 + 3, y1 + 3}, {mx, y0 - 3},     {mx, y1 + 3},
                                {x0 - 3, my},     {x1 + 3, my}};
  memcpy(t, p, sizeof p);
  return CLI_TORCHES;
}

cairn_status cli_light_torches(const cairn_grid *g, const cairn_point *torches, size_t n,
                               cli_torchlight *t) {
  cairn_status st = cairn_penalty_create(g, NULL, &t->layer);
  if (st == CAIRN_OK) st = cairn_influence_create(g, t->layer, NULL, &t->light);
  for (size_t k = 0; k < n && st == CAIRN_OK; k++)
    if (cairn_grid_contains(g, torches[k].x, torches[k].y))
      st = cairn_influence_event(t->light, torches[k].x, torches[k].y, CLI_TORCH_RADIUS,
                                 CLI_TORCH_PENALTY);
  return st;
}

void cli_douse_torches(cli_torchlight *t) {
  cairn_influence_destroy(t->light);
  cairn_penalty_destroy(t->layer);
  t->light = NULL;
  t->layer = NULL;
}
