/**
 * @file cairn/layers.h
 * @brief Cost layers: penalties, claims, influence maps and per-faction
 * knowledge. Part of cairn/core.h.
 */
#ifndef CAIRN_LAYERS_H
#define CAIRN_LAYERS_H

#include <stddef.h>
#include <stdint.h>

#include "grid.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- cost layers ---------------------------------------------------- */

/** A penalty layer: per cell, a cost in fixed-point units (CAIRN_COST_ONE is
 * one straight step) that every step entering the cell pays on top of its
 * terrain (A*, Dijkstra and fills with opts.penalty), or
 * CAIRN_PENALTY_BLOCK: blocked for those searches only (a stopped unit),
 * the grid untouched. Penalties are >= 0, so every heuristic stays
 * admissible. Contributions add up (influence maps, claims, a caller's own)
 * and saturate at CAIRN_PENALTY_MAX; a block is a count, so two blockers
 * of one cell need two unblocks. Reads are safe from any thread while no
 * one writes; writes need exclusive access. */
typedef struct cairn_penalty cairn_penalty;
/** What cairn_penalty_get answers for a blocked cell. */
#define CAIRN_PENALTY_BLOCK UINT32_MAX
/** The largest penalty; sums saturate there. */
#define CAIRN_PENALTY_MAX (UINT32_MAX - 1)

/** A layer of zeros for grids of grid's size.
 * @param[in] grid a grid of the size wanted (not kept)
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the layer
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL, CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_penalty_create(const cairn_grid *grid,
                                  const cairn_allocator *alloc,
                                  cairn_penalty **out);
/** Destroys a layer. NULL is ignored.
 * @param[in] p the layer, or NULL */
CAIRN_CORE_API void cairn_penalty_destroy(cairn_penalty *p);
/** Adds delta (which may be negative) to a cell's penalty, saturating at 0
 * and CAIRN_PENALTY_MAX.
 * @param[in,out] p the layer
 * @param[in] x column
 * @param[in] y row
 * @param[in] delta cost units to add
 * @return CAIRN_OK; CAIRN_ERR_RANGE off the grid, CAIRN_ERR_ARG for NULL or
 * |delta| > UINT32_MAX */
CAIRN_CORE_API cairn_status cairn_penalty_add(cairn_penalty *p, int32_t x, int32_t y,
                               int64_t delta);
/** Blocks (block != 0) or unblocks a cell for searches using the layer.
 * @param[in,out] p the layer
 * @param[in] x column
 * @param[in] y row
 * @param[in] block nonzero blocks, 0 unblocks
 * @return CAIRN_OK; CAIRN_ERR_STATE to unblock a cell nobody blocked,
 * CAIRN_ERR_RANGE off the grid, CAIRN_ERR_ARG for NULL,
 * CAIRN_ERR_TOO_LARGE when the cell's block count is full */
CAIRN_CORE_API cairn_status cairn_penalty_block(cairn_penalty *p, int32_t x, int32_t y,
                                 int block);
/** The cell's penalty (CAIRN_PENALTY_BLOCK while blocked; 0 off the grid).
 * @param[in] p the layer
 * @param[in] x column
 * @param[in] y row
 * @return the penalty in cost units */
CAIRN_CORE_API uint32_t cairn_penalty_get(const cairn_penalty *p, int32_t x, int32_t y);
/** Every cell back to 0 and unblocked.
 * @param[in,out] p the layer */
CAIRN_CORE_API void cairn_penalty_clear(cairn_penalty *p);
/** Read-only view of what searches read, laid out as cairn_grid_cells
 * (padded, stride width + 2; border cells 0), for loops over many cells
 * (flow fields). Valid until the layer is destroyed.
 * @param[in] p the layer
 * @param[out] stride values from one padded row to the next
 * @return the padded penalties */
CAIRN_CORE_API const uint32_t *cairn_penalty_cells(const cairn_penalty *p, int32_t *stride);
/** Bytes the layer holds (20 a padded cell, and its tiles' versions).
 * @param[in] p the layer, or NULL (0)
 * @return the bytes */
CAIRN_CORE_API size_t cairn_penalty_memory(const cairn_penalty *p);
/** Whether the layer was made for a grid of grid's size.
 * @param[in] p the layer
 * @param[in] grid the grid
 * @return nonzero if it fits */
CAIRN_CORE_API int cairn_penalty_fits(const cairn_penalty *p, const cairn_grid *grid);
/** Side, in cells, of the tiles change tracking works in.
 *
 * Change tracking, for users that precompute over a layer (the
 * hierarchy's refresh): the version counts the writes that changed what
 * searches read (0 for a new layer). cairn_penalty_changed gives the
 * version of the last change to a cell of r, or 0 if none ever did; it is
 * kept per tile of CAIRN_PENALTY_TILE x CAIRN_PENALTY_TILE cells, so a
 * change to a cell near r (in a tile r overlaps) counts too. It costs the
 * tiles r overlaps. */
#define CAIRN_PENALTY_TILE 16
/** The layer's version (see CAIRN_PENALTY_TILE).
 * @param[in] p the layer
 * @return the writes that changed what searches read */
CAIRN_CORE_API uint64_t cairn_penalty_version(const cairn_penalty *p);
/** The version of the last change to a tile r overlaps (see
 * CAIRN_PENALTY_TILE).
 * @param[in] p the layer
 * @param[in] r the cells asked about
 * @return that version, or 0 if none ever changed */
CAIRN_CORE_API uint64_t cairn_penalty_changed(const cairn_penalty *p, cairn_rect r);
/** The cells whose penalty changed after version `since`, for users that
 * update what they derived from the layer cell by cell (flow fields):
 * writes the padded index (cairn_penalty_cells' layout) of up to cap of
 * them to out, each once, and returns how many there are. Every cell that
 * changed is listed; one whose last change came 2^32 or more changes
 * before the last change of its tile may be listed although it did not.
 * A cell changed and changed back counts as changed. Costs the layer's
 * tiles plus the cells of the tiles changed since then (the layer keeps 4
 * bytes per cell for this).
 * @param[in] p the layer
 * @param[in] since a version the caller saw
 * @param[out] out room for cap padded indices
 * @param[in] cap indices out can hold
 * @return the number of changed cells (may exceed cap) */
CAIRN_CORE_API size_t cairn_penalty_changes(const cairn_penalty *p, uint64_t since,
                             uint32_t *out, size_t cap);

/** Claimed cells (Lester's claimed nodes): units claim the cells of the
 * part of their paths still ahead of them, so other units' searches
 * (opts.claims) pay for crowding onto them and spread over routes of
 * equal cost, while claimed cells stay walkable (a one-cell pass remains
 * usable, in turn). Claims are per unit (ids below
 * CAIRN_CLAIMS_MAX_UNITS) and expire. A claim count per cell is what
 * searches read; it saturates at 65535. */
typedef struct cairn_claims cairn_claims;
/** Unit ids are below this. */
#define CAIRN_CLAIMS_MAX_UNITS (1u << 24)

/** Creates an empty claim table for grids of grid's size.
 * @param[in] grid a grid of the size wanted
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the table
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL, CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_claims_create(const cairn_grid *grid,
                                 const cairn_allocator *alloc,
                                 cairn_claims **out);
/** Destroys a claim table. NULL is ignored.
 * @param[in] c the table, or NULL */
CAIRN_CORE_API void cairn_claims_destroy(cairn_claims *c);
/** Unit `unit` claims n cells (its path ahead, cells off the grid refused
 * with CAIRN_ERR_RANGE and nothing changed) until tick `until`, replacing
 * its previous claims.
 * @param[in,out] c the table
 * @param[in] unit the unit's id
 * @param[in] cells the cells claimed
 * @param[in] n number of cells
 * @param[in] until the tick the claims last to
 * @return CAIRN_OK, CAIRN_ERR_RANGE, CAIRN_ERR_ARG for NULL or a unit id too
 * large, CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_claims_set(cairn_claims *c, uint32_t unit,
                              const cairn_point *cells, size_t n,
                              uint64_t until);
/** Drops a unit's claims (none: nothing happens).
 * @param[in,out] c the table
 * @param[in] unit the unit's id
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL or a unit id too large */
CAIRN_CORE_API cairn_status cairn_claims_release(cairn_claims *c, uint32_t unit);
/** A unit's claims, as cairn_claims_set last gave them (a save format reads
 * them to set them again): the cells, in the order given, up to cap of
 * them into out, their number into *n and the tick they last to into
 * *until; a unit with none (released, expired or never claimed) has
 * *n = 0 and *until = 0.
 * @param[in] c the table
 * @param[in] unit the unit's id
 * @param[out] out the cells, or NULL when cap is 0
 * @param[in] cap cells out holds
 * @param[out] n the number of cells
 * @param[out] until the tick the claims last to
 * @return CAIRN_OK; CAIRN_ERR_BUFFER when cap < *n (nothing written to
 * out); CAIRN_ERR_ARG for NULL c, n or until (or out NULL with cap > 0), or a
 * unit id too large */
CAIRN_CORE_API cairn_status cairn_claims_get(const cairn_claims *c, uint32_t unit,
                                             cairn_point *out, size_t cap, size_t *n,
                                             uint64_t *until);
/** Drops every claim whose tick is before now; returns how many units lost
 * theirs. Costs the number of claiming units, not the map.
 * @param[in,out] c the table
 * @param[in] now the current tick
 * @return units whose claims expired */
CAIRN_CORE_API size_t cairn_claims_expire(cairn_claims *c, uint64_t now);
/** Claims on a cell (0 off the grid).
 * @param[in] c the table
 * @param[in] x column
 * @param[in] y row
 * @return the claim count */
CAIRN_CORE_API uint32_t cairn_claims_count(const cairn_claims *c, int32_t x, int32_t y);

/** An influence map: a value per cell (danger, carnage, torchlight, a
 * defenders' zone) fed by events and fading with time, that it keeps
 * added into a penalty layer, value for cost unit. Only cells with a value
 * are stored in its active list, so an event costs time in proportion to
 * its area and a tick to the active cells, never to the map. All integer
 * arithmetic: the same calls give the same values on every machine. */
typedef struct cairn_influence cairn_influence;

/** The map adds into `into` (which must be for a grid of grid's size and
 * outlive it) and never touches the other contributions there.
 * @param[in] grid the grid (its open cells receive values)
 * @param[in,out] into the layer the values are added into
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the influence map
 * @return CAIRN_OK, CAIRN_ERR_ARG (NULL, a layer of another size),
 * CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_influence_create(const cairn_grid *grid,
                                    cairn_penalty *into,
                                    const cairn_allocator *alloc,
                                    cairn_influence **out);
/** Takes its contribution back out of the penalty layer. NULL is ignored.
 * @param[in] m the influence map, or NULL */
CAIRN_CORE_API void cairn_influence_destroy(cairn_influence *m);
/** Largest event radius. */
#define CAIRN_INFLUENCE_MAX_RADIUS 1024
/** An event at cell (x, y): every open cell within `radius` cells
 * (Euclidean, 0..CAIRN_INFLUENCE_MAX_RADIUS) gains amount x (1 - d / (radius
 * + 1)), in cost units (so a cell at the centre gets all of it), the value
 * saturating at CAIRN_PENALTY_MAX.
 * @param[in,out] m the influence map
 * @param[in] x centre column
 * @param[in] y centre row
 * @param[in] radius cells, 0..CAIRN_INFLUENCE_MAX_RADIUS
 * @param[in] amount cost units at the centre
 * @return CAIRN_OK; CAIRN_ERR_RANGE for a centre off the grid,
 * CAIRN_ERR_ARG for NULL or a bad radius, CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_influence_event(cairn_influence *m, int32_t x, int32_t y,
                                   int32_t radius, uint32_t amount);
/** One tick: every value is multiplied by keep / 65536 (0..65536, so 65536
 * keeps everything) after passing spread / 65536 of itself (0..16384) to
 * each of its four neighbours that are open (spreading runs first, from
 * the values before the tick). Values below one cost unit's 1/65536 of a
 * step, 1, drop out.
 * @param[in,out] m the influence map
 * @param[in] keep 0..65536
 * @param[in] spread 0..16384
 * @return CAIRN_OK; CAIRN_ERR_ARG for NULL or bad factors,
 * CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_influence_tick(cairn_influence *m, uint32_t keep,
                                  uint32_t spread);
/** The value of a cell (0 off the grid or untouched).
 * @param[in] m the influence map
 * @param[in] x column
 * @param[in] y row
 * @return the value in cost units */
CAIRN_CORE_API uint32_t cairn_influence_get(const cairn_influence *m, int32_t x, int32_t y);
/** Cells with a value.
 * @param[in] m the influence map
 * @return the active cell count */
CAIRN_CORE_API size_t cairn_influence_active(const cairn_influence *m);

/** Per-faction knowledge of a map (unexplored maps): each faction, not
 * each unit, has its own grid of what it knows, where cells it has not
 * seen count as open ground (unknown_cost, 1..255) and the cells it has
 * seen take the true map's costs. Searches for the faction run on
 * cairn_knowledge_grid (with its own islands, its own cost layers if any).
 * A reveal copies the true costs of a rectangle; when a known cost
 * changed it refreshes the faction's islands and advances the faction's
 * version, so paths and fields made on an older version are known to be
 * stale (a unit repaths when the version it planned on is not the current
 * one). Islands: a reveal that only opens cells (a door, a breach) merges
 * them locally: each group of opened cells joins the largest island it
 * touches and only the smaller ones are relabelled; one that closes a
 * cell relabels the whole map. Labels then stay one per island but need
 * not be consecutive: on a faction's grid cairn_grid_island_count is the
 * largest label, not the number of islands. */
typedef struct cairn_knowledge cairn_knowledge;

/** Creates a faction's knowledge, nothing seen yet.
 * @param[in] truth the true map (kept; it must outlive the knowledge)
 * @param[in] unknown_cost the cost of unseen cells, 1..255
 * @param[in] alloc allocator, or NULL for malloc
 * @param[out] out the knowledge
 * @return CAIRN_OK, CAIRN_ERR_ARG (NULL, unknown_cost 0), CAIRN_ERR_NOMEM */
CAIRN_CORE_API cairn_status cairn_knowledge_create(const cairn_grid *truth,
                                    uint8_t unknown_cost,
                                    const cairn_allocator *alloc,
                                    cairn_knowledge **out);
/** Destroys a faction's knowledge. NULL is ignored.
 * @param[in] k the knowledge, or NULL */
CAIRN_CORE_API void cairn_knowledge_destroy(cairn_knowledge *k);
/** The faction sees the cells of r (clipped to the map; an empty r sees
 * nothing). `*changed` (may be NULL) is set when a known cost changed.
 * @param[in,out] k the knowledge
 * @param[in] r the cells seen
 * @param[out] changed nonzero if a known cost changed, or NULL
 * @return CAIRN_OK, CAIRN_ERR_ARG for NULL */
CAIRN_CORE_API cairn_status cairn_knowledge_reveal(cairn_knowledge *k, cairn_rect r,
                                    int *changed);
/** The faction's map, valid until the knowledge is destroyed; read-only.
 * @param[in] k the knowledge
 * @return the faction's grid */
CAIRN_CORE_API const cairn_grid *cairn_knowledge_grid(const cairn_knowledge *k);
/** Advances with every reveal that changed a known cost; starts at 0.
 * @param[in] k the knowledge
 * @return the version */
CAIRN_CORE_API uint64_t cairn_knowledge_version(const cairn_knowledge *k);
/** Whether the faction has seen the cell (0 off the map).
 * @param[in] k the knowledge
 * @param[in] x column
 * @param[in] y row
 * @return nonzero if seen */
CAIRN_CORE_API int cairn_knowledge_seen(const cairn_knowledge *k, int32_t x, int32_t y);

#ifdef __cplusplus
}
#endif
#endif
