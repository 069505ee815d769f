/* The smallest useful cairn program: a path around a wall. */
#include <stdio.h>

#include <cairn_core.h>

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
  cairn_search_destroy(search);
  cairn_grid_destroy(grid);
  return st == CAIRN_OK ? 0 : 1;
}
