/* The pictures of the cairn tool: what `--png FILE`, `--frames DIR` and
 * `--gif FILE` draw, composed from the renderer's layers (tools/render).
 * Commands fill a scene with what they computed and call these; nothing
 * here searches or ticks.
 *
 * A picture is the map view (cells scaled up to 16 pixels, or shrunk, to fit
 * max_px; a 1024 x 1024 map is drawn 1:1) with a band below it: a caption
 * and a legend of what was drawn. Cell (x, y) of the map covers pixels
 * x * scale .. (x + 1) * scale - 1 (and the same for y), so a test can read
 * a known cell's colour back. Errors are printed as "cairn: FILE: problem"
 * and returned as exit codes (cli.h). */
#ifndef CAIRN_CLI_PNG_H
#define CAIRN_CLI_PNG_H

#include <stdbool.h>

#include "cairn_render.h"

/* What one picture holds; NULL pointers and zero counts are not drawn. */
typedef struct cli_png_scene {
  const cairn_grid *grid; /* required: the terrain and walls */
  int32_t max_px;         /* image side the map fits in; 0: 1024 */
  const char *caption;    /* the band's first line (NULL: none) */
  const cairn_penalty *penalty;  /* a cost layer as a red overlay */
  const cairn_field *field;      /* a flow field ... */
  bool field_heat;               /* ... as a cost heat map, else arrows */
  const cairn_search *search;    /* its last grid search: expanded nodes */
  const cairn_hpa *hpa;          /* cluster borders and entrances */
  const cairn_point *path;       /* a search's path */
  size_t path_len;
  int32_t unit_size;             /* above 1: the path's unit covers unit_size x
                                    unit_size cells from each point (drawn) */
  const cairn_point *smooth;     /* its smoothed waypoints */
  size_t smooth_len;
  bool query;                    /* mark from and to (start and goal) */
  cairn_point from, to;
  const cairn_point *gates;      /* goal cells of a crowd (goal colour) */
  size_t n_gates;
  const cairn_point *torches;    /* torch cells (drawn as small flames) */
  size_t n_torches;
  const cairn_crowd *crowd;      /* agents as dots coloured by state */
  const cairn_agent *agents;
  size_t n_agents;
} cli_png_scene;

/* The height of the band under the map for an image `width` pixels wide. */
int32_t cli_png_band_height(int32_t width);

/* Draws the scene into a new image (*out; cairn_image_destroy it). */
cairn_status cli_png_draw(const cli_png_scene *s, cairn_image **out);

/* Whether a file can be created at path (its folder exists and is
 * writable); prints "cairn: PATH: ..." when not. Commands call it before
 * their work, so a bad --png fails at once. */
bool cli_can_write(const char *path);
/* Whether this build writes PNGs (it has libpng); prints "cairn: WHAT:
 * ..." when not. */
bool cli_png_available(const char *what);
/* Both: a PNG can be written at path. */
bool cli_png_can_write(const char *path);

/* Draws the scene and writes it to path. Exit code (EXIT_RUNTIME with the
 * file named on any failure). */
int cli_png_save(const cli_png_scene *s, const char *path);

/* Writes n images (cli_png_draw's, for one) side by side as one PNG, left
 * to right with their tops aligned and CLI_PNG_GAP pixels of the band's
 * colour, a grey rule down their middle, between them: the first keeps its
 * pixels where it drew them, the second starts at the first's width plus
 * the gap. Exit code (EXIT_RUNTIME with the file named on any failure). */
#define CLI_PNG_GAP 16
int cli_png_save_row(const cairn_image *const *imgs, size_t n, const char *path);

/* Solves one query on base->grid and writes its picture: base's layers (its
 * cost layer, its hierarchy), then for a grid search (opts, NULL for the
 * defaults) the nodes it expanded, for an HPA* query (hpa not NULL, po its
 * options) the clusters and entrances; then the path (and with smooth its
 * string-pulled waypoints), the start and the goal. A query without a path
 * still draws (the search's reach shows why). The caption is prefixed to
 * the query and its cost. Exit code. */
int cli_png_query(const char *path, const cli_png_scene *base, cairn_point from,
                  cairn_point to, const cairn_search_opts *opts,
                  const cairn_hpa *hpa, const cairn_hpa_path_opts *po,
                  bool smooth, const char *caption);

/* ---- crowd runs as frames and animations ---------------------------- */

/* A crowd run's pictures: a PNG every `every` ticks into a folder (named
 * DIR/tick-NNNNNN.png) and/or every such frame into one animated GIF (its
 * map fitted in 512 pixels, 10 frames a second). Tick 0 is drawn at open,
 * and the last tick at close when it was not drawn already. */
typedef struct cli_png_movie cli_png_movie;

/* frames_dir and gif may each be NULL (not both). The folder is created
 * when missing. The scene (crowd and agents included) must outlive the
 * movie; its caption is followed by the tick and arrivals. Exit code. */
int cli_png_movie_open(const char *frames_dir, const char *gif, long every,
                       const cli_png_scene *scene, cli_png_movie **out);
/* After tick t: draws a frame when t is a multiple of every.
 * CAIRN_ERR_IO (printed, naming the file) when writing fails. */
cairn_status cli_png_movie_tick(cli_png_movie *m, long t);
/* Draws tick `last` if not drawn yet (last < 0: a failed run, nothing
 * more), finishes the GIF and frees m (NULL is fine). CAIRN_ERR_IO
 * (printed) when writing fails. */
cairn_status cli_png_movie_close(cli_png_movie *m, long last);

#endif
