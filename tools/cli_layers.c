/* The cost-layer options shared by `cairn path` and `cairn flow`. */
#include "cli_layers.h"

#include <stdint.h>
#include <stdio.h>

#include "cli.h"

bool cli_parse_influence(const char *v, cli_influence *in) {
  if (in->n == CLI_MAX_INFLUENCE) {
    cli_error("--influence: at most %d events", CLI_MAX_INFLUENCE);
    return false;
  }
  long x, y, r;
  double pen;
  char tail;
  if (sscanf(v, "%ld,%ld,%ld,%lf%c", &x, &y, &r, &pen, &tail) != 4 ||
      x < INT32_MIN || x > INT32_MAX || y < INT32_MIN || y > INT32_MAX) {
    cli_error("--influence: '%s' is not X,Y,RADIUS,PENALTY", v);
    return false;
  }
  if (r < 0 || r > CAIRN_INFLUENCE_MAX_RADIUS || !(pen >= 0 && pen <= 10000)) {
    cli_error("--influence: radius 0..%d and penalty 0..10000 steps",
              CAIRN_INFLUENCE_MAX_RADIUS);
    return false;
  }
  in->event[in->n].at.x = (int32_t)x;
  in->event[in->n].at.y = (int32_t)y;
  in->event[in->n].radius = r;
  in->event[in->n++].penalty = pen;
  return true;
}

bool cli_influence_layer(const cli_influence *in, const cairn_grid *g,
                         cairn_penalty **layer, cairn_influence **m) {
  *layer = NULL;
  *m = NULL;
  if (!in->n) return true;
  if (cairn_penalty_create(g, NULL, layer) != CAIRN_OK ||
      cairn_influence_create(g, *layer, NULL, m) != CAIRN_OK) {
    cli_error("out of memory");
    return false;
  }
  for (size_t k = 0; k < in->n; k++) {
    cairn_status st = cairn_influence_event(
        *m, in->event[k].at.x, in->event[k].at.y, (int32_t)in->event[k].radius,
        (uint32_t)(in->event[k].penalty * (double)CAIRN_COST_ONE));
    if (st != CAIRN_OK) {
      cli_error("--influence %d,%d: %s", in->event[k].at.x, in->event[k].at.y,
                cairn_status_str(st));
      return false;
    }
  }
  return true;
}
