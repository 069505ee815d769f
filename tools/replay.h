/* Recording a crowd run for the browser viewer (tools/viewer/): the map,
 * gates and torches once, then every K-th tick the agents' positions
 * (1/64 cell, delta-coded varints) and states. The format is in
 * docs/REPLAY.md. Only public headers. */
#ifndef CAIRN_REPLAY_H
#define CAIRN_REPLAY_H

#include "cairn/crowd.h"

#define CLI_REPLAY_SCALE 64 /* position units per cell */
#define CLI_REPLAY_GONE 255 /* the state byte of an agent no longer there */

/* What the header describes: the map (its glyphs read from map_path, the
 * grid's walls where the file has none), the gates and torches. */
typedef struct cli_replay_scene {
  const char *map_path;
  const cairn_grid *grid;
  const cairn_point *gates, *torches;
  size_t n_gates, n_torches;
  int torch_radius;
  float dt;
} cli_replay_scene;

typedef struct cli_replay cli_replay;

/* Creates the file, writes the header and the frame of tick 0. Every
 * buffer is sized here, so recording a tick allocates nothing. The crowd
 * and the agents must outlive the recorder. On failure the error (with
 * the path) is printed and *out is NULL. */
cairn_status cli_replay_open(const char *path, long every, const cli_replay_scene *s,
                             const cairn_crowd *c, const cairn_agent *agents,
                             size_t n, cli_replay **out);
/* After tick `tick` (1, 2, ...): writes a frame when tick is a multiple of
 * `every`. */
cairn_status cli_replay_tick(cli_replay *r, long tick);
/* Writes the last tick's frame if it was not written, closes the file and
 * frees r (NULL is a no-op). An error is printed with the path. */
cairn_status cli_replay_close(cli_replay *r, long last_tick);

#endif
