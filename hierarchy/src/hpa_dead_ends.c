/* A query's dead ends (cairn_hpa_path_opts.dead_ends): the dead-end area
 * of each abstract node, listed once per hierarchy version and table, and
 * the areas of the query's start and goal, which say the nodes it skips
 * (hpa_query.c hands them to its search context between the linked begin
 * and its steps). */
#include "hpa_internal.h"

#include <string.h>

void hpa_skip_free(hpa_skip *k, const cairn_allocator *a) {
  cairn__free(a, k->area, k->area_cap * sizeof *k->area);
  memset(k, 0, sizeof *k);
}

size_t hpa_skip_memory(const hpa_skip *k) { return k->area_cap * sizeof *k->area; }

/* The innermost area holding area a (a first) whose gate lies in one
 * cluster, 0 for none. The abstract search may skip only those: a
 * cluster's costs run inside it, where walking along a door that leaves
 * it is no route, so the graph's best route may pass through an area
 * behind such a door. Behind a gate inside one cluster it may not: a
 * route that goes in and out through the gate can be cut short along it
 * by the cluster's own edge. */
static uint32_t skippable(const cairn_hpa *h, const cairn_dead_ends *de, uint32_t a) {
  for (; a && de->gate[a] != UINT32_MAX; a = de->area[de->gate[a]]) {
    const cairn_point first = hpa_point(h, de->gate[a]);
    const cairn_point last = hpa_point(h, cairn__de_gate_last(de, a));
    if (hpa_cluster_of(h, first) == hpa_cluster_of(h, last)) return a;
  }
  return 0;
}

/* Each level-1 node's dead-end area for the abstract search (skippable;
 * 0 outside every dead end), for this hierarchy version and table: a pass
 * over the nodes, redone after each rebuild or update of either. */
static cairn_status list_areas(hpa_skip *k, const cairn_allocator *a, const cairn_hpa *h,
                               const cairn_dead_ends *de) {
  if (k->h == h && k->de == de && k->h_version == h->version && k->de_version == de->version)
    return CAIRN_OK;
  k->h = NULL;
  const uint32_t n = h->n_nodes;
  if (!cairn__grow(a, (void **)&k->area, &k->area_cap, (size_t)n + 1, sizeof *k->area))
    return CAIRN_ERR_NOMEM;
  for (uint32_t u = 0; u < n; u++) {
    const uint32_t c = hpa_node_cell(h, u);
    k->area[u] = cairn__de_bit(de->dead_bits, c) ? skippable(h, de, de->area[c]) : 0;
  }
  k->h = h;
  k->de = de;
  k->h_version = h->version;
  k->de_version = de->version;
  return CAIRN_OK;
}

cairn_status hpa_skip_begin(hpa_skip *k, const cairn_allocator *a, const cairn_hpa *h,
                            const cairn_dead_ends *de, cairn_point start, cairn_point goal,
                            bool plain) {
  k->on = false;
  if (!de) return CAIRN_OK;
  if (de->grid != h->grid) return CAIRN_ERR_ARG;
  if (!cairn_dead_ends_current(de)) return CAIRN_ERR_STATE;
  cairn_status st = list_areas(k, a, h, de);
  if (st != CAIRN_OK) return st;
  k->sa = de->area[hpa_index(h, start.x, start.y)];
  k->ga = de->area[hpa_index(h, goal.x, goal.y)];
  k->plain = plain;
  k->on = true;
  return CAIRN_OK;
}

bool hpa_skip_node(const hpa_skip *k, uint32_t u) {
  if (!k->on || !k->area[u]) return false;
  return !cairn__de_allowed(k->de, k->area[u], k->sa, k->ga, k->plain);
}

void hpa_skip_search(const hpa_skip *k, cairn_search *s) {
  s->node_area = k->area;
  s->de = k->de;
  s->de_sa = k->sa;
  s->de_ga = k->ga;
  s->de_plain = k->plain;
  s->de_mark = NULL;
}

void hpa_skip_end(hpa_skip *k) { k->on = false; }
