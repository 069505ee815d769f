/* The cost-layer options shared by `cairn path` and `cairn flow`. */
#ifndef CAIRN_CLI_LAYERS_H
#define CAIRN_CLI_LAYERS_H

#include <stdbool.h>

#include "cairn/core.h"

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

/* --claims FILE: one unit's claimed path per line, as "X,Y X,Y ..."
 * (blank lines and # comments skipped; line k's path is the k-th unit's).
 * Loads them into *out, claimed until the end of time; false, with
 * "FILE:LINE: problem" printed, for an unreadable file, a bad cell, a cell
 * off the map or more than CLI_MAX_CLAIM_CELLS cells on a line. */
#define CLI_MAX_CLAIM_CELLS (1 << 24)
bool cli_load_claims(const char *path, const cairn_grid *g, cairn_claims **out);

/* For searches without a searching unit (flow fields): every claim on a
 * cell adds `price` straight steps to *layer (created when NULL). */
bool cli_claims_into_layer(const cairn_claims *c, const cairn_grid *g,
                           double price, cairn_penalty **layer);

#endif
