/* Crowds, errors that say what: every status has its text; cairn_crowd_check
 * names the option create refuses; a refused add, order or handle leaves
 * its detail in cairn_crowd_error (emptied by the next call that succeeds)
 * and changes nothing; a removed agent's handle is CAIRN_ERR_STALE
 * everywhere. */
#include "test_crowd_util.h"

#include <math.h>
#include <string.h>

/* Every status of CAIRN_STATUS_LIST has its own value and its own text. */
static void every_status_has_text(void **state) {
  (void)state;
  static const struct {
    cairn_status st;
    int value;
    const char *text;
  } all[] = {
#define ROW(name, value, text) {name, value, text},
      CAIRN_STATUS_LIST(ROW)
#undef ROW
  };
  size_t n = sizeof all / sizeof all[0];
  for (size_t i = 0; i < n; i++) {
    assert_int_equal((int)all[i].st, all[i].value);
    assert_string_equal(cairn_status_str(all[i].st), all[i].text);
    assert_string_not_equal(all[i].text, "unknown status");
    for (size_t j = 0; j < i; j++) {
      assert_int_not_equal(all[i].value, all[j].value);
      assert_string_not_equal(all[i].text, all[j].text);
    }
  }
  assert_int_equal(CAIRN_ERR_STALE, -11);
  assert_string_equal(cairn_status_str((cairn_status)-99), "unknown status");
}

/* Each bad option: check and create answer the same, check names it. */
static void check_names_the_option(void **state) {
  (void)state;
  cairn_grid *g = NULL, *other = NULL;
  assert_int_equal(cairn_grid_create(16, 16, 1, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_grid_create(8, 16, 1, NULL, &other), CAIRN_OK);
  char d[160];
  assert_int_equal(cairn_crowd_check(g, NULL, d, sizeof d), CAIRN_OK);
  assert_string_equal(d, "");
  static const struct {
    const char *field;
  } fields[] = {{"opts.max_agents"}, {"opts.dt"},          {"opts.bin_size"},
                {"opts.neighbour_radius"}, {"opts.chunk"}, {"opts.waypoints"},
                {"opts.stuck_ticks"}, {"opts.avoid_radius"}, {"opts.claim_penalty"},
                {"opts.route_grid"}, {"opts.threads"}};
  for (size_t k = 0; k < sizeof fields / sizeof fields[0]; k++) {
    cairn_crowd_opts o = cairn_crowd_defaults();
    switch (k) {
    case 0: o.max_agents = 0; break;
    case 1: o.dt = NAN; break;
    case 2: o.bin_size = 0.25f; break;
    case 3: o.neighbour_radius = 2.0f; break;
    case 4: o.chunk = 0; break;
    case 5: o.waypoints = 1; break;
    case 6: o.stuck_ticks = 0; break;
    case 7: o.avoid_radius = 65; break;
    case 8: o.claim_penalty = -1.0f; break;
    case 9: o.route_grid = other; break;
    default: o.threads = -1; break;
    }
    assert_int_equal(cairn_crowd_check(g, &o, d, sizeof d), CAIRN_ERR_ARG);
    if (!strstr(d, fields[k].field)) fail_msg("detail '%s' does not name %s", d, fields[k].field);
    cairn_crowd *c = (cairn_crowd *)&d; /* create writes NULL on refusal */
    assert_int_equal(cairn_crowd_create(g, &o, NULL, &c), CAIRN_ERR_ARG);
    assert_null(c);
    /* a short buffer gets a cut, terminated detail; none is fine too */
    char tiny[8];
    memset(tiny, 'x', sizeof tiny);
    assert_int_equal(cairn_crowd_check(g, &o, tiny, sizeof tiny), CAIRN_ERR_ARG);
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
    assert_int_equal(cairn_crowd_check(g, &o, NULL, 0), CAIRN_ERR_ARG);
  }
  cairn_crowd_opts o = cairn_crowd_defaults();
  o.dt = 0.0f;
  assert_int_equal(cairn_crowd_check(g, &o, d, sizeof d), CAIRN_ERR_ARG);
  assert_string_equal(d, "opts.dt 0 is not in (0, 1] seconds");
  assert_int_equal(cairn_crowd_check(NULL, NULL, d, sizeof d), CAIRN_ERR_ARG);
  assert_string_equal(d, "no walk grid (NULL)");
  cairn_grid_destroy(other);
  cairn_grid_destroy(g);
}

/* A refused add says which value broke which rule, adds nothing; the next
 * call that succeeds empties the detail. */
static void add_says_what(void **state) {
  (void)state;
  const char *rows[] = {"........", "..##....", "........", "........"};
  cairn_grid *g = tu_grid(rows, 4);
  cairn_crowd *c = new_crowd(g, 2, 1);
  assert_string_equal(cairn_crowd_error(c), "");
  cairn_agent a = 1;
  cairn_agent_params p = {0.5f, 0.5f, 2.5f, 1.5f, 0, 0};
  uint64_t h = cairn_crowd_hash(c);
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
  assert_string_equal(cairn_crowd_error(c), "radius 2.5 is not in [0.05, 2]");
  p.radius = 0.8f; /* bins of one cell: discs up to 0.5 */
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
  assert_string_equal(cairn_crowd_error(c),
                      "radius 0.8 needs opts.bin_size 1.6 or more (it is 1): touching discs "
                      "must lie in neighbouring bins");
  p.radius = 0.3f;
  p.x = 0.2f; /* the disc reaches over the grid's edge */
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_BLOCKED);
  assert_string_equal(cairn_crowd_error(c),
                      "the disc at 0.2,0.5 of radius 0.3 reaches a blocked cell or the grid's "
                      "edge");
  p.x = 2.5f; /* beside the wall at (2, 1) */
  p.y = 0.8f;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_BLOCKED);
  p.x = 0.5f;
  p.y = 0.5f;
  assert_int_equal(a, 0);
  p.radius = 0.3f;
  p.max_speed = 12.0f;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
  assert_non_null(strstr(cairn_crowd_error(c), "max_speed 12"));
  p.max_speed = 1.5f;
  p.x = 2.5f;
  p.y = 1.5f;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_BLOCKED);
  assert_string_equal(cairn_crowd_error(c), "position 2.5,1.5 is on blocked cell 2,1");
  p.x = 9.0f;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_RANGE);
  assert_string_equal(cairn_crowd_error(c), "position 9,1.5 is off the 8x4 grid");
  p.x = NAN;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_ARG);
  assert_non_null(strstr(cairn_crowd_error(c), "not finite"));
  assert_int_equal(cairn_crowd_add(c, NULL, &a), CAIRN_ERR_ARG);
  assert_string_equal(cairn_crowd_error(c), "add: p is NULL");
  assert_int_equal(cairn_crowd_count(c), 0);
  assert_true(cairn_crowd_hash(c) == h);
  tc_add_at(c, 0.5f, 0.5f);
  assert_string_equal(cairn_crowd_error(c), "");
  tc_add_at(c, 1.5f, 0.5f);
  p.x = 4.5f;
  assert_int_equal(cairn_crowd_add(c, &p, &a), CAIRN_ERR_TOO_LARGE);
  assert_non_null(strstr(cairn_crowd_error(c), "all 2 slots are taken"));
  assert_string_equal(cairn_crowd_error(NULL), "no crowd (NULL)");
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* A removed agent's handle is CAIRN_ERR_STALE in every call that takes
 * one, the detail says so, and nothing changes; never-valid handles stay
 * CAIRN_ERR_ARG. */
static void stale_handles(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(16, 16, 1, NULL, &g), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 4, 1);
  cairn_agent a = tc_add_at(c, 2.5f, 2.5f), b = tc_add_at(c, 5.5f, 5.5f);
  assert_int_equal(cairn_crowd_remove(c, a), CAIRN_OK);
  cairn_agent again = tc_add_at(c, 7.5f, 7.5f); /* a's slot, a new generation */
  assert_int_equal(again & 0xffffffffu, a & 0xffffffffu);
  uint64_t h = cairn_crowd_hash(c);
  cairn_agent_info i;
  cairn_point goal = {10, 10};
  cairn_agent both[2] = {b, a};
  assert_int_equal(cairn_crowd_get(c, a, &i), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_remove(c, a), CAIRN_ERR_STALE);
  assert_string_equal(cairn_crowd_error(c), "agent: stale handle (the agent of slot 0 was removed)");
  assert_int_equal(cairn_crowd_set_position(c, a, 1.5f, 1.5f), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_order_path(c, both, 2, goal), CAIRN_ERR_STALE);
  assert_string_equal(cairn_crowd_error(c),
                      "agents[1]: stale handle (the agent of slot 0 was removed)");
  assert_int_equal(cairn_crowd_order_move(c, both, 2, goal), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_order_field(c, both, 2, &goal, 1), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_order_hold(c, both, 2), CAIRN_ERR_STALE);
  assert_int_equal(cairn_crowd_order_wander(c, both, 2, 1), CAIRN_ERR_STALE);
  assert_true(cairn_crowd_hash(c) == h);
  assert_int_equal(tc_info(c, b).order, CAIRN_ORDER_HOLD);
  assert_int_equal(tc_info(c, again).x, 7.5f);
  /* never an agent */
  assert_int_equal(cairn_crowd_remove(c, 0), CAIRN_ERR_ARG);
  assert_string_equal(cairn_crowd_error(c), "agent: handle 0 is never an agent");
  assert_int_equal(cairn_crowd_remove(c, (cairn_agent)3 | (cairn_agent)1 << 32), CAIRN_ERR_ARG);
  assert_string_equal(cairn_crowd_error(c), "agent: handle 0x100000003 never named an agent");
  assert_int_equal(cairn_crowd_order_hold(c, NULL, 1), CAIRN_ERR_ARG);
  assert_string_equal(cairn_crowd_error(c), "agents is NULL, n is 1");
  assert_true(cairn_crowd_hash(c) == h);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

/* Orders refused for their goals say so and change no agent. */
static void orders_say_what(void **state) {
  (void)state;
  cairn_grid *g = NULL;
  assert_int_equal(cairn_grid_create(16, 16, 1, NULL, &g), CAIRN_OK);
  assert_int_equal(cairn_grid_set_cost(g, 4, 4, 0), CAIRN_OK);
  cairn_crowd *c = new_crowd(g, 4, 1);
  cairn_agent a = tc_add_at(c, 2.5f, 2.5f);
  assert_int_equal(cairn_crowd_order_wander(c, &a, 1, 3), CAIRN_OK);
  uint64_t h = cairn_crowd_hash(c);
  cairn_point off = {300, 12}, wall = {4, 4};
  assert_int_equal(cairn_crowd_order_move(c, &a, 1, off), CAIRN_ERR_RANGE);
  assert_string_equal(cairn_crowd_error(c), "goal 300,12 is off the 16x16 grid");
  assert_int_equal(cairn_crowd_order_path(c, &a, 1, wall), CAIRN_ERR_BLOCKED);
  assert_string_equal(cairn_crowd_error(c), "goal 4,4 is on a blocked cell");
  assert_int_equal(cairn_crowd_order_field(c, &a, 1, NULL, 0), CAIRN_ERR_ARG);
  assert_non_null(strstr(cairn_crowd_error(c), "needs goals"));
  assert_int_equal(cairn_crowd_order_field(c, &a, 1, &wall, 1), CAIRN_ERR_BLOCKED);
  assert_non_null(strstr(cairn_crowd_error(c), "the field to 1 goals"));
  assert_true(cairn_crowd_hash(c) == h);
  assert_int_equal(tc_info(c, a).order, CAIRN_ORDER_WANDER);
  cairn_crowd_destroy(c);
  cairn_grid_destroy(g);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_status_has_text), cmocka_unit_test(check_names_the_option),
      cmocka_unit_test(add_says_what),         cmocka_unit_test(stale_handles),
      cmocka_unit_test(orders_say_what),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
