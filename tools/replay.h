/* cairn horde --replay and cairn march --replay: the library's recorder
 * (cairn/crowd_replay.h, the format of docs/REPLAY.md) with what only the
 * tool does: the map's glyphs read from its file, the scene kept to the
 * map, errors printed. Only public headers. */
#ifndef CAIRN_REPLAY_H
#define CAIRN_REPLAY_H

#include "cairn/crowd.h"

/* What the header describes: the map (its glyphs read from map_path, the
 * grid's walls where the file has none), the gates and torches (those off
 * the grid left out). */
typedef struct cli_replay_scene {
  const char *map_path;
  const cairn_grid *grid;
  const cairn_point *gates, *torches;
  size_t n_gates, n_torches;
  int torch_radius;
} cli_replay_scene;

typedef struct cli_replay cli_replay;

/* Creates the file, writes the header and the frame of the crowd's tick
 * (cairn_replay_create). The crowd must outlive the recorder. On failure
 * the error (with the path) is printed and *out is NULL. */
cairn_status cli_replay_open(const char *path, long every, const cli_replay_scene *s,
                             const cairn_crowd *c, const cairn_agent *agents,
                             size_t n, cli_replay **out);
/* After tick `tick` (1, 2, ...; the crowd counts them): writes a frame
 * every `every` ticks. An error is printed with the path. */
cairn_status cli_replay_tick(cli_replay *r, long tick);
/* last_tick >= 0: writes the last tick's frame if it was not written and
 * closes the file; < 0 (the run failed): closes the file as it is. Frees r
 * (NULL is a no-op). An error is printed with the path. */
cairn_status cli_replay_close(cli_replay *r, long last_tick);

#endif
