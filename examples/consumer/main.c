/* The smallest useful cairn program: a path around a wall, with A* and with
 * the HPA* hierarchy. */
#include <stdio.h>

#include <cairn/core.h>
#include <cairn/hierarchy.h>

int main(void) {
  cairn_grid *grid = NULL;
  cairn_search *search = NULL;
  if (cairn_grid_create(10, 10, 1, NULL, &grid) != CAIRN_OK) return 1;
  for (int y = 0; y < 9; y++) cairn_grid_set_cost(grid, 5, y, 0); /* a wall */
  cairn_grid_update_islands(grid);
  if (cairn_search_create(NULL, &search) != CAIRN_OK) return 1;
  cairn_point from = {0, 0}, to = {9, 0};
  cairn_result r;
  cairn_status st = cairn_astar(search, grid, from, to, NULL, &r);
  printf("%s: cost %.4f in %u steps\n", cairn_status_str(st),
         cairn_cost_to_double(r.cost), r.steps);
  /* clusters of 4, and always hierarchical: the route goes round the wall */
  cairn_hpa_opts ho = cairn_hpa_defaults();
  ho.cluster = 4;
  cairn_hpa_path_opts po = cairn_hpa_path_defaults();
  po.nearby = 0;
  cairn_hpa *hpa = NULL;
  cairn_hpa_query *q = NULL;
  cairn_hpa_result hr;
  cairn_status hst = cairn_hpa_create(grid, &ho, NULL, &hpa);
  if (hst == CAIRN_OK) hst = cairn_hpa_query_create(NULL, &q);
  if (hst == CAIRN_OK) hst = cairn_hpa_find(q, hpa, from, to, &po, &hr);
  if (hst == CAIRN_OK)
    printf("hpa: cost %.4f in %zu steps\n", cairn_cost_to_double(hr.cost),
           hr.path_len - 1);
  cairn_hpa_query_destroy(q);
  cairn_hpa_destroy(hpa);
  cairn_search_destroy(search);
  cairn_grid_destroy(grid);
  return st == CAIRN_OK && hst == CAIRN_OK ? 0 : 1;
}
