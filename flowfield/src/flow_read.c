/* Reading a built field: values, directions, line of sight, goals, stats. */
#include "flow_internal.h"

#include <string.h>

/* ---- reading -------------------------------------------------------- */

static bool inside(const cairn_field *f, int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < f->w && y < f->h;
}

/* The per-cell value reads check the grid's version like every other
 * read: a field whose grid changed unreported reads as unreachable
 * (CAIRN_COST_INF, CAIRN_FLOW_NONE, no line of sight), so a caller walking
 * the moves never steps into a new wall. The crowd's hot path takes what
 * it needs from cairn_field_sample instead (cost, next_goal). */
cairn_cost cairn_field_cost(const cairn_field *f, int32_t x, int32_t y) {
  if (!f || !inside(f, x, y) || flow_stale(f)) return CAIRN_COST_INF;
  return flow_value(f, cairn__flow_cell_index(f, x, y));
}

int cairn_field_dir(const cairn_field *f, int32_t x, int32_t y) {
  if (!f || !inside(f, x, y) || flow_stale(f)) return CAIRN_FLOW_NONE;
  return f->dir[cairn__flow_cell_index(f, x, y)] & FLOW_DIR_MASK;
}

int cairn_field_los(const cairn_field *f, int32_t x, int32_t y,
                    cairn_point *goal) {
  if (!f || !inside(f, x, y) || flow_stale(f)) return 0;
  size_t i = cairn__flow_cell_index(f, x, y);
  if (!(f->dir[i] & FLOW_LOS_BIT)) return 0;
  if (goal) {
    goal->x = x + f->los[2 * i];
    goal->y = y + f->los[2 * i + 1];
  }
  return 1;
}

cairn_status cairn_field_copy_costs(const cairn_field *f, cairn_cost *out,
                                    size_t len) {
  if (!f || !out) return CAIRN_ERR_ARG;
  if (len < (size_t)f->w * (size_t)f->h) return CAIRN_ERR_BUFFER;
  if (f->built && flow_stale(f)) return CAIRN_ERR_STATE;
  for (int32_t y = 0; y < f->h; y++)
    for (int32_t x = 0; x < f->w; x++)
      out[(size_t)y * (size_t)f->w + (size_t)x] = flow_value(f, cairn__flow_cell_index(f, x, y));
  return CAIRN_OK;
}

cairn_status cairn_field_check(const cairn_field *f) {
  if (!f) return CAIRN_ERR_ARG;
  return f->built && !flow_stale(f) ? CAIRN_OK : CAIRN_ERR_STATE;
}

const cairn_point *cairn_field_goals(const cairn_field *f, size_t *n) {
  if (n) *n = f ? f->n_goals : 0;
  return f ? f->goals : NULL;
}

int32_t cairn_field_unit_size(const cairn_field *f) { return f ? f->size : 0; }

void cairn_field_get_stats(const cairn_field *f, cairn_field_stats *out) {
  if (!out) return;
  memset(out, 0, sizeof *out);
  if (!f) return;
  out->width = f->w;
  out->height = f->h;
  out->cells = (size_t)f->w * (size_t)f->h;
  out->goals = f->n_goals;
  out->memory_bytes = sizeof *f + f->n * (sizeof *f->cost + 3) +
                      f->goals_cap * sizeof *f->goals + cairn__flow_sizes_memory(f);
  out->size = f->size;
  out->build_ms = f->build_ms;
  out->repair_ms = f->repair_ms;
  out->repaired = f->repaired;
  out->queue = f->queue;
  out->built = f->built;
  /* what the field holds, stale or not: figures, not reads */
  for (int32_t y = 0; y < f->h; y++)
    for (int32_t x = 0; x < f->w; x++) {
      cairn_cost v = flow_value(f, cairn__flow_cell_index(f, x, y));
      if (v == CAIRN_COST_INF) continue;
      out->reachable++;
      if (v > out->max_cost) out->max_cost = v;
    }
}
