/**
 * @file cairn/crowd_replay.h
 * @brief Recording a crowd's run for the browser viewer
 * (tools/viewer/index.html): the replay format of docs/REPLAY.md. Part of
 * cairn/crowd.h.
 *
 * A recorder (cairn_replay) is made from a crowd between ticks. It writes
 * the header (the map, the scene's gates and torches, each recorded agent's
 * radius) and the frame of the crowd's current tick; then, called after
 * each cairn_crowd_tick, a frame every opts.every ticks (each recorded
 * agent's position to 1/opts.scale cell and its state); closing it writes
 * the last tick's frame when that one was not written.
 *
 * What is recorded: the agents of opts.agents, in that order, fixed for
 * the whole recording: one removed later reads CAIRN_REPLAY_GONE from then
 * on, and an agent added later is not recorded. Without opts.agents, every
 * slot of the crowd (opts.max_agents of it), in slot order: a slot without
 * an agent reads CAIRN_REPLAY_GONE, and an agent added later shows up in
 * the slot it takes (its radius in the header is the one the slot's agent
 * had at create, 0 for a slot empty then). An agent of any order and state
 * is recorded alike.
 *
 * Output: a file (path), or the caller's function (opts.write) that
 * receives the bytes in order: the header in pieces, then one call a
 * frame.
 *
 * Run: recording only reads the crowd, so the run is the same bits with or
 * without it (cairn_crowd_hash).
 *
 * Threads: a recorder is used from the thread that ticks its crowd,
 * between ticks. The crowd must outlive it.
 *
 * Memory: everything is sized at create (a frame's buffer of 8 + 11 bytes
 * an agent at most, and the last frame's positions: 8 bytes an agent), so
 * recording a tick allocates nothing.
 */
#ifndef CAIRN_CROWD_REPLAY_H
#define CAIRN_CROWD_REPLAY_H

#include "cairn/crowd.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The format's version: the magic is "CAIRNRP1". */
#define CAIRN_REPLAY_VERSION 1
/** The state byte of a recorded agent that is not there (removed, a slot
 * without an agent, or a non-finite position). */
#define CAIRN_REPLAY_GONE 255
/** Most position units per cell (cairn_replay_opts::scale). */
#define CAIRN_REPLAY_MAX_SCALE 4096

/** Receives the recording's bytes, in order (cairn_replay_opts::write).
 * @param user cairn_replay_opts::user
 * @param bytes the next n bytes of the recording
 * @param n their count, at least 1
 * @return CAIRN_OK, or an error: the recording stops, and the call that
 * wrote returns that error */
typedef cairn_status (*cairn_replay_write_fn)(void *user, const void *bytes, size_t n);

/** Options of a recording (cairn_replay_defaults gives them). Every
 * pointer is read during cairn_replay_create only. */
typedef struct cairn_replay_opts {
  uint32_t every; /**< a frame every this many ticks (>= 1; default 1) */
  uint32_t scale; /**< position units per cell (1..CAIRN_REPLAY_MAX_SCALE;
                     default 64: under 0.008 cells of error) */
  /** The agents recorded, in this order (live handles of the crowd, at
   * most CAIRN_CROWD_MAX_AGENTS); NULL (default) = every slot. */
  const cairn_agent *agents;
  size_t n_agents; /**< agents in opts.agents (>= 1 when it is set) */
  /** The map's characters, width x height, row by row ('.', 'G', 'T',
   * '\@' ...: the viewer shades terrain by them); NULL (default) = '.'
   * for an open cell of the walk grid and '\@' for a blocked one. */
  const char *glyphs;
  /** @{ */
  const cairn_point *gates, *torches; /**< cells the viewer marks (on the
                                         grid; NULL when none) */
  size_t n_gates, n_torches;          /**< their counts (each at most the
                                         grid's cells; default 0) */
  /** @} */
  uint32_t torch_radius; /**< the light drawn around each torch, in cells
                            (at most CAIRN_GRID_MAX_SIDE; default 0) */
  /** Where the bytes go when cairn_replay_create gets no path: this
   * function, called with `user`; NULL (default) when there is a path. */
  cairn_replay_write_fn write;
  void *user; /**< passed to every call of write */
} cairn_replay_opts;

/** The default options (the values the fields name).
 * @return the defaults: a frame every tick, 64 units a cell, every slot,
 * no scene */
CAIRN_CROWD_API cairn_replay_opts cairn_replay_defaults(void);

/** A recording in progress (see the overview). */
typedef struct cairn_replay cairn_replay;

/** Starts a recording: checks everything, then creates the file (or calls
 * opts->write), writes the header and the frame of the crowd's current
 * tick. On any error nothing is kept: no recorder, and a file it created
 * is removed (nothing is created when an argument is refused).
 * @param[in] crowd the crowd (kept: it must outlive the recorder)
 * @param[in] path the file to write (created or truncated), or NULL to
 * write through opts->write
 * @param[in] opts options, or NULL for the defaults
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the recorder
 * @param[out] err error detail ("PATH: problem"), or NULL
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL crowd or out, both or neither
 * of path and opts->write, an option out of range, a NULL list with a
 * count, or a handle that never named a slot; CAIRN_ERR_STALE for a stale
 * handle; CAIRN_ERR_RANGE for a gate or torch off the grid; CAIRN_ERR_IO
 * when the file cannot be created or written; opts->write's error;
 * CAIRN_ERR_NOMEM */
CAIRN_CROWD_API cairn_status cairn_replay_create(const cairn_crowd *crowd, const char *path,
                                                 const cairn_replay_opts *opts,
                                                 const cairn_allocator *alloc,
                                                 cairn_replay **out, cairn_error *err);

/** After a cairn_crowd_tick: writes the frame of the crowd's tick when
 * opts.every ticks have passed since the last frame (called after every
 * tick: the ticks T, T + every, T + 2 every, ... of a recording begun at
 * tick T); otherwise does nothing. Allocates nothing. After a write error
 * every later call returns it again, writing nothing.
 * @param[in,out] r the recorder
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL; CAIRN_ERR_IO (or
 * opts->write's error) when the frame could not be written */
CAIRN_CROWD_API cairn_status cairn_replay_tick(cairn_replay *r, cairn_error *err);

/** Ends the recording: writes the frame of the crowd's current tick when
 * it was not written, closes the file and frees the recorder (whatever the
 * outcome). NULL is a no-op (CAIRN_OK).
 * @param[in] r the recorder, or NULL
 * @param[out] err error detail, or NULL
 * @return CAIRN_OK; CAIRN_ERR_IO (or opts->write's error) when a write
 * failed, now or earlier */
CAIRN_CROWD_API cairn_status cairn_replay_close(cairn_replay *r, cairn_error *err);

/** Abandons the recording: closes the file as it is (the frames written so
 * far; the viewer plays them) and frees the recorder, writing nothing
 * more. For error paths, and when the crowd is gone. NULL is ignored.
 * @param[in] r the recorder, or NULL */
CAIRN_CROWD_API void cairn_replay_destroy(cairn_replay *r);

#ifdef __cplusplus
}
#endif
#endif
