/* The cost-layer options shared by `cairn path` and `cairn flow`. */
#ifndef CAIRN_CLI_LAYERS_H
#define CAIRN_CLI_LAYERS_H

#include <stdbool.h>

#include "cairn_core.h"

#define CLI_MAX_INFLUENCE 64

/* The --influence X,Y,RADIUS,PENALTY events of a command line: PENALTY
 * straight steps at cell X,Y, fading linearly to nothing past RADIUS. */
typedef struct cli_influence {
  struct {
    cairn_point at;
    long radius;
    double penalty;
  } event[CLI_MAX_INFLUENCE];
  size_t n;
} cli_influence;

/* Parses one --influence value into in; false (message printed) if bad. */
bool cli_parse_influence(const char *v, cli_influence *in);

/* The cost layer of the events (*layer stays NULL without any), fed by
 * the influence map *m; false, with the message printed, when an event is
 * off the map or memory runs out. Destroy both, the map first. */
bool cli_influence_layer(const cli_influence *in, const cairn_grid *g,
                         cairn_penalty **layer, cairn_influence **m);

#endif
