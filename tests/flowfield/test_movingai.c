/* Flow fields on one shared Moving AI map, its scenario file and map loaded
 * through the scenario harness of cairn scen (tools/scen_run.h): four goals
 * spread over the file (longer buckets later), each field verified against
 * the core's Dijkstra and the row's published optimal length read off the
 * field at its start (within the harness's tolerance), then one field of
 * eight goals, verified likewise. Rows whose start or goal is blocked (the
 * harness's rule, as the data's README says) are passed over.
 *
 * usage: test_movingai NAME.map.scen  (ctest runs one test per map) */
#define _POSIX_C_SOURCE 200809L /* opendir */
#include "test_util.h"

#include <dirent.h>
#include <stdio.h>

#include "cairn/flowfield.h"
#include "cli.h" /* EXIT_DONE */
#include "scen_run.h"

static const char *movingai_name = NULL;

static void check_field(cairn_flow_builder *b, cairn_field *f, cairn_search *s,
                        const cairn_grid *g, const cairn_point *goals,
                        size_t n) {
  assert_int_equal(cairn_field_build(b, f, g, goals, n, NULL), CAIRN_OK);
  cairn_field_fault fault;
  assert_int_equal(cairn_field_verify(f, s, &fault), CAIRN_OK);
  if (!fault.ok)
    fail_msg("%s: %zu goal(s) from %d,%d: cell %d,%d: %s", movingai_name, n,
             goals[0].x, goals[0].y, fault.cell.x, fault.cell.y, fault.problem);
}

static void movingai_map(void **state) {
  (void)state;
  char path[2048];
  snprintf(path, sizeof path, "%s/scen", CAIRN_MOVINGAI_DIR);
  DIR *dir = opendir(path);
  if (!dir) {
    print_message("skipped: %s (Moving AI data absent)\n", path);
    skip();
  }
  closedir(dir);
  assert_non_null(movingai_name);
  snprintf(path, sizeof path, "%s/scen/%s", CAIRN_MOVINGAI_DIR, movingai_name);
  scen_file sf;
  if (scen_file_load(path, NULL, &sf) != EXIT_DONE)
    fail_msg("%s: %s", movingai_name, sf.error);
  const cairn_scen *scen = sf.sc;
  const cairn_grid *g = sf.g;
  cairn_flow_builder *b = NULL;
  cairn_field *f = NULL;
  cairn_search *s = NULL;
  assert_int_equal(cairn_flow_builder_create(NULL, &b), CAIRN_OK);
  assert_int_equal(cairn_field_create(g, NULL, &f), CAIRN_OK);
  assert_int_equal(cairn_search_create(NULL, &s), CAIRN_OK);
  size_t rows = cairn_scen_count(scen), done = 0;
  cairn_point multi[8];
  size_t n_multi = 0;
  /* four goals spread over the file (longer buckets later), each checked,
   * and the scenario's optimal length read off the field at its start */
  for (size_t k = 0; k < 4; k++) {
    const cairn_scen_entry *e = cairn_scen_get(scen, (rows - 1) * (2 * k + 1) / 8);
    if (scen_row_blocked(g, e)) continue;
    check_field(b, f, s, g, &e->goal, 1);
    double c = cairn_cost_to_double(cairn_field_cost(f, e->start.x, e->start.y));
    if (!scen_cost_matches(c, e->optimal))
      fail_msg("%s line %u: field %.6f, optimal %.6f", movingai_name, e->line, c, e->optimal);
    done++;
  }
  for (size_t k = 0; k < 8 && rows; k++) {
    const cairn_scen_entry *e = cairn_scen_get(scen, (rows - 1) * k / 7);
    if (cairn_grid_cost(g, e->goal.x, e->goal.y)) multi[n_multi++] = e->goal;
  }
  if (n_multi) check_field(b, f, s, g, multi, n_multi);
  assert_true(done > 0);
  print_message("%s: %zu single-goal fields and one of %zu goals checked\n",
                movingai_name, done, n_multi);
  cairn_search_destroy(s);
  cairn_field_destroy(f);
  cairn_flow_builder_destroy(b);
  scen_file_free(&sf);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_movingai NAME.map.scen\n");
    return 2;
  }
  movingai_name = argv[1];
  const struct CMUnitTest tests[] = {cmocka_unit_test(movingai_map)};
  return cmocka_run_group_tests_name(movingai_name, tests, NULL, NULL);
}
