/* Clearance (cairn_grid_clearance): against the definition itself, the
 * largest all-open square at each cell counted cell by cell, on hand-made
 * grids, on random ones, and after thousands of random edits by
 * cairn_grid_set_cost and cairn_grid_set_rect; a map file's grid too. The
 * move sets and the bit planes the grid keeps beside them, after the same
 * kind of edits on grids wider and taller than a plane's word. */
#include "test_util.h"

#include "core_internal.h" /* the move sets and the bit planes */

#include <string.h>

/* The definition: the side of the largest square of open cells whose
 * top-left corner is (x, y), capped at CAIRN_GRID_MAX_CLEARANCE, found by
 * testing every cell of every square. */
static int reference(const cairn_grid *g, int32_t x, int32_t y) {
  int k = 0;
  while (k < CAIRN_GRID_MAX_CLEARANCE) {
    for (int32_t dy = 0; dy <= k; dy++)
      for (int32_t dx = 0; dx <= k; dx++)
        if (!cairn_grid_cost(g, x + dx, y + dy)) return k;
    k++;
  }
  return k;
}

/* Every cell, the padded view and off-map cells agree with the reference. */
static void assert_clearances(const cairn_grid *g) {
  const int32_t w = cairn_grid_width(g), h = cairn_grid_height(g);
  int32_t stride;
  const uint8_t *all = cairn_grid_clearances(g, &stride);
  assert_non_null(all);
  for (int32_t y = -1; y <= h; y++)
    for (int32_t x = -1; x <= w; x++) {
      int want = reference(g, x, y);
      if (want != cairn_grid_clearance(g, x, y))
        fail_msg("(%d, %d): clearance %d, the definition gives %d", x, y,
                 cairn_grid_clearance(g, x, y), want);
      assert_int_equal(all[(size_t)(y + 1) * (size_t)stride + (size_t)(x + 1)], want);
    }
}

static void hand_made(void **state) {
  (void)state;
  const char *rows[] = {"..........",
                        "..........",
                        "...#......",
                        "..........",
                        ".2.......3",
                        "..........",
                        "..........",
                        "..........",
                        "..........",
                        ".........."};
  cairn_grid *g = tu_grid(rows, 10);
  assert_int_equal(cairn_grid_clearance(g, 0, 0), 3);  /* (3, 2) is a wall */
  assert_int_equal(cairn_grid_clearance(g, 4, 0), 6);  /* to the east edge */
  assert_int_equal(cairn_grid_clearance(g, 0, 3), 7);  /* to the south edge */
  assert_int_equal(cairn_grid_clearance(g, 3, 2), 0);  /* the wall */
  assert_int_equal(cairn_grid_clearance(g, 9, 9), 1);  /* the corner */
  assert_int_equal(cairn_grid_clearance(g, 1, 4), 6);  /* terrain is open */
  assert_int_equal(cairn_grid_clearance(g, 10, 0), 0); /* off the map */
  assert_int_equal(cairn_grid_clearance(NULL, 0, 0), 0);
  int32_t stride = -1;
  assert_null(cairn_grid_clearances(NULL, &stride));
  assert_int_equal(stride, 0);
  assert_clearances(g);
  cairn_grid_destroy(g);
  /* open and large: capped */
  cairn_grid *open = NULL;
  assert_int_equal(cairn_grid_create(20, 20, 1, NULL, &open), CAIRN_OK);
  assert_int_equal(cairn_grid_clearance(open, 0, 0), CAIRN_GRID_MAX_CLEARANCE);
  assert_int_equal(cairn_grid_clearance(open, 15, 0), 5);
  assert_clearances(open);
  cairn_grid_destroy(open);
}

/* Random maps, then random edits, one cell or a rectangle at a time,
 * each followed by the whole check: the clearances a grid keeps equal a
 * fresh computation, whatever the edits. */
/* One random edit of g (w x h): single_pct % of the time a cell, set to
 * terrain 1..3 or (one time in three) a wall; else a random rectangle
 * whose cells are walls with probability walls_pct % (a share drawn for
 * the rectangle when negative), terrain 1..3 otherwise. cells: room for
 * w x h. */
static void random_edit(uint64_t *rng, cairn_grid *g, int w, int h, int single_pct,
                        int walls_pct, uint8_t *cells) {
  if ((int)tu_below(rng, 100) < single_pct) {
    int32_t x = (int32_t)tu_below(rng, (uint32_t)w), y = (int32_t)tu_below(rng, (uint32_t)h);
    uint8_t c = tu_below(rng, 3) ? (uint8_t)(1 + tu_below(rng, 3)) : 0;
    assert_int_equal(cairn_grid_set_cost(g, x, y, c), CAIRN_OK);
    return;
  }
  cairn_rect r = {(int32_t)tu_below(rng, (uint32_t)w), (int32_t)tu_below(rng, (uint32_t)h), 0, 0};
  r.w = 1 + (int32_t)tu_below(rng, (uint32_t)(w - r.x));
  r.h = 1 + (int32_t)tu_below(rng, (uint32_t)(h - r.y));
  const int walls = walls_pct >= 0 ? walls_pct : (int)tu_below(rng, 100);
  for (int i = 0; i < r.w * r.h; i++)
    cells[i] = (int)tu_below(rng, 100) < walls ? 0 : (uint8_t)(1 + tu_below(rng, 3));
  assert_int_equal(cairn_grid_set_rect(g, r, cells, (size_t)r.w), CAIRN_OK);
}

static void after_random_edits(void **state) {
  (void)state;
  uint64_t rng = 0xc1ea7;
  uint8_t cells[40 * 40];
  for (int map = 0; map < 12; map++) {
    int w = 1 + (int)tu_below(&rng, 40), h = 1 + (int)tu_below(&rng, 40);
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 40), 3);
    assert_clearances(g);
    for (int e = 0; e < 300; e++) {
      random_edit(&rng, g, w, h, 75, 50, cells);
      assert_clearances(g);
    }
    cairn_grid_destroy(g);
  }
}

/* A grid read from a .map has its clearances from the start. */
static void from_a_map(void **state) {
  (void)state;
  const char *text = "type octile\nheight 4\nwidth 5\nmap\n.....\n..@..\n.....\nTT...\n";
  cairn_grid *g = NULL;
  cairn_error err;
  assert_int_equal(cairn_map_parse(text, strlen(text), "mem", NULL, NULL, &g, &err), CAIRN_OK);
  assert_int_equal(cairn_grid_clearance(g, 0, 0), 2);
  assert_int_equal(cairn_grid_clearance(g, 0, 2), 1); /* T below is a tree: blocked */
  assert_int_equal(cairn_grid_clearance(g, 0, 3), 0);
  assert_clearances(g);
  cairn_grid_destroy(g);
}

/* Whether (x, y) is open, off-grid cells blocked. */
static unsigned open_at(const cairn_grid *g, int32_t x, int32_t y) {
  return cairn_grid_cost(g, x, y) != 0;
}

/* Every padded cell's move set and both planes' every bit, against the
 * definitions: a move to each open neighbour, a diagonal only with both
 * straight cells beside it open, none from a blocked cell; a plane bit set
 * exactly for the open cells (the padding and the words either side
 * clear). */
static void assert_moves_and_planes(const cairn_grid *g) {
  const int32_t w = g->width, h = g->height;
  for (int32_t y = -1; y <= h; y++)
    for (int32_t x = -1; x <= w; x++) {
      const uint32_t i = (uint32_t)(y + 1) * (uint32_t)g->stride + (uint32_t)(x + 1);
      unsigned want = 0;
      if (open_at(g, x, y)) {
        const unsigned e = open_at(g, x + 1, y), wv = open_at(g, x - 1, y);
        const unsigned so = open_at(g, x, y + 1), no = open_at(g, x, y - 1);
        want = e | wv << 1 | so << 2 | no << 3 | (e & so & open_at(g, x + 1, y + 1)) << 4 |
               (wv & so & open_at(g, x - 1, y + 1)) << 5 | (e & no & open_at(g, x + 1, y - 1)) << 6 |
               (wv & no & open_at(g, x - 1, y - 1)) << 7;
      }
      assert_int_equal(g->moves[i], want);
    }
  for (int32_t y = -1; y <= h; y++)
    for (size_t b = 0; b < 64 * g->row_words; b++) {
      const int32_t x = (int32_t)b - 65; /* bit x + 65 holds cell x */
      const unsigned bit = (unsigned)(g->rows[(size_t)(y + 1) * g->row_words + b / 64] >> (b % 64)) & 1u;
      assert_int_equal(bit, x >= 0 && x < w && y >= 0 && y < h && open_at(g, x, y));
    }
  for (int32_t x = -1; x <= w; x++)
    for (size_t b = 0; b < 64 * g->col_words; b++) {
      const int32_t y = (int32_t)b - 65;
      const unsigned bit = (unsigned)(g->cols[(size_t)(x + 1) * g->col_words + b / 64] >> (b % 64)) & 1u;
      assert_int_equal(bit, x >= 0 && x < w && y >= 0 && y < h && open_at(g, x, y));
    }
}

/* Move sets and planes on random grids of up to 150 x 150 cells (rows and
 * columns over two plane words), after random single cells and random
 * rectangles, the rectangles often crossing a word's edge. */
static void moves_after_random_edits(void **state) {
  (void)state;
  uint64_t rng = 0x3a0e5;
  static uint8_t cells[150 * 150];
  for (int map = 0; map < 10; map++) {
    int w = 1 + (int)tu_below(&rng, 150), h = 1 + (int)tu_below(&rng, 150);
    cairn_grid *g = tu_random_grid(&rng, w, h, (int)tu_below(&rng, 40), 3);
    assert_moves_and_planes(g);
    for (int e = 0; e < 60; e++) {
      random_edit(&rng, g, w, h, 33, -1, cells);
      assert_moves_and_planes(g);
    }
    cairn_grid_destroy(g);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hand_made),
      cmocka_unit_test(after_random_edits),
      cmocka_unit_test(from_a_map),
      cmocka_unit_test(moves_after_random_edits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
