/* The defenders' torches of the night of the dead, shared by `cairn
 * horde` (which lights them) and `cairn render --crowd` (which lights
 * them again to draw a saved night on the layer it was saved with). */
#ifndef CAIRN_CLI_TORCHES_H
#define CAIRN_CLI_TORCHES_H

#include "cairn/core.h"

#define CLI_TORCHES 8
#define CLI_TORCH_RADIUS 6
#define CLI_TORCH_PENALTY (6 * CAIRN_COST_ONE) /* at the flame: six steps dearer */

/* The torchlight: an influence map over its own penalty layer, one event
 * per torch (dearest at the flame, nothing past CLI_TORCH_RADIUS), never
 * fading through the night. */
typedef struct cli_torchlight {
  cairn_penalty *layer;
  cairn_influence *light;
} cli_torchlight;

/* Torches three cells out from the wall (the gates' bounding box): at its
 * corners and in the middle of each side, between that side's gates;
 * CLI_TORCHES of them into t (n >= 1 gates). */
size_t cli_place_torches(const cairn_point *gates, size_t n, cairn_point *t);
/* Lights the torches on the grid (those off it left out). */
cairn_status cli_light_torches(const cairn_grid *g, const cairn_point *torches, size_t n,
                               cli_torchlight *t);
void cli_douse_torches(cli_torchlight *t);

#endif
