/* The save formats' shared pieces (core/src/private/cairn_save.h) and the
 * grid's fingerprint: cairn's 64-bit hash against values computed by an
 * independent implementation of its definition (docs/core.md,
 * "Fingerprints"), so neither may drift between versions or platforms;
 * piecewise hashing equal to one-shot; every single-bit flip seen; the
 * fingerprint following the costs and the size and nothing else; the
 * little-endian writer and the bounded reader, byte for byte. */
#include "test_util.h"

#include "cairn_private.h"

#include <string.h>

/* Values of the definition, from a separate implementation of it. */
static void hash_known_values(void **state) {
  (void)state;
  uint8_t bytes[100];
  for (int i = 0; i < 100; i++) bytes[i] = (uint8_t)i;
  assert_true(cairn__checksum(NULL, 0) == UINT64_C(0x48c28a68cf86b24f));
  assert_true(cairn__checksum("cairn", 5) == UINT64_C(0x18fb0ed4bd1b3f79));
  assert_true(cairn__checksum(bytes, 100) == UINT64_C(0x32bb19625ae98363));
  const char *rows[] = {"..#..", ".2.3.", "....."};
  cairn_grid *g = tu_grid(rows, 3);
  assert_true(cairn_grid_fingerprint(g) == UINT64_C(0x36a8adeb6552417b));
  cairn_grid_destroy(g);
  const char *one[] = {"."};
  g = tu_grid(one, 1);
  assert_true(cairn_grid_fingerprint(g) == UINT64_C(0xb305b280bf862801));
  cairn_grid_destroy(g);
  assert_true(cairn_grid_fingerprint(NULL) == 0);
}

/* Bytes added in any pieces hash as when added at once. */
static void hash_in_pieces(void **state) {
  (void)state;
  uint64_t rng = 42;
  uint8_t data[1000];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)tu_rand(&rng);
  for (size_t n = 0; n <= sizeof data; n += 1 + n / 3) {
    uint64_t want = cairn__checksum(data, n);
    cairn__hash h;
    cairn__hash_init(&h);
    size_t at = 0;
    while (at < n) {
      size_t piece = 1 + tu_below(&rng, 70);
      if (piece > n - at) piece = n - at;
      cairn__hash_add(&h, data + at, piece);
      at += piece;
    }
    assert_true(cairn__hash_end(&h) == want);
    assert_true(cairn__hash_end(&h) == want); /* reading it changes nothing */
  }
}

/* No single flipped bit goes unseen, nor a changed length. */
static void hash_sees_every_flip(void **state) {
  (void)state;
  uint64_t rng = 7;
  uint8_t data[77];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)tu_rand(&rng);
  uint64_t base = cairn__checksum(data, sizeof data);
  for (size_t bit = 0; bit < 8 * sizeof data; bit++) {
    data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
    assert_true(cairn__checksum(data, sizeof data) != base);
    data[bit / 8] ^= (uint8_t)(1u << (bit % 8));
  }
  assert_true(cairn__checksum(data, sizeof data) == base);
  uint8_t zeros[16] = {0};
  assert_true(cairn__checksum(zeros, 15) != cairn__checksum(zeros, 16));
}

/* The costs and the size decide the fingerprint; islands, glyphs and
 * the edit count do not. */
static void fingerprint_follows_the_map(void **state) {
  (void)state;
  uint64_t rng = 3;
  cairn_grid *a = tu_random_grid(&rng, 37, 23, 25, 4);
  cairn_grid *b = NULL;
  assert_int_equal(cairn_grid_create(37, 23, 1, NULL, &b), CAIRN_OK);
  for (int32_t y = 0; y < 23; y++)
    for (int32_t x = 0; x < 37; x++)
      assert_int_equal(cairn_grid_set_cost(b, x, y, cairn_grid_cost(a, x, y)), CAIRN_OK);
  uint64_t fa = cairn_grid_fingerprint(a);
  assert_true(cairn_grid_fingerprint(b) == fa); /* stale islands, many edits */
  assert_int_equal(cairn_grid_update_islands(b), CAIRN_OK);
  assert_true(cairn_grid_fingerprint(b) == fa);
  for (int k = 0; k < 50; k++) { /* any one cell */
    int32_t x = (int32_t)tu_below(&rng, 37), y = (int32_t)tu_below(&rng, 23);
    uint8_t old = cairn_grid_cost(b, x, y), c = (uint8_t)((old + 1 + tu_below(&rng, 254)) % 256);
    assert_int_equal(cairn_grid_set_cost(b, x, y, c), CAIRN_OK);
    assert_true(cairn_grid_fingerprint(b) != fa);
    assert_int_equal(cairn_grid_set_cost(b, x, y, old), CAIRN_OK);
    assert_true(cairn_grid_fingerprint(b) == fa);
  }
  /* the same cells in another shape */
  cairn_grid *wide = NULL, *tall = NULL;
  assert_int_equal(cairn_grid_create(6, 1, 1, NULL, &wide), CAIRN_OK);
  assert_int_equal(cairn_grid_create(3, 2, 1, NULL, &tall), CAIRN_OK);
  assert_true(cairn_grid_fingerprint(wide) != cairn_grid_fingerprint(tall));
  cairn_grid_destroy(wide);
  cairn_grid_destroy(tall);
  cairn_grid_destroy(a);
  cairn_grid_destroy(b);
}

/* The writer lays values out least significant byte first and measures
 * without a buffer; the reader gives them back and stops at its end. */
static void buffers_little_endian(void **state) {
  (void)state;
  cairn__wbuf m = cairn__wbuf_init(NULL, 0);
  cairn__put_u32(&m, 1);
  cairn__put_u64(&m, 2);
  assert_int_equal(m.len, 12);
  assert_true(m.over);
  uint8_t buf[32];
  memset(buf, 0xee, sizeof buf);
  cairn__wbuf w = cairn__wbuf_init(buf, sizeof buf);
  cairn__put_u8(&w, 0x01);
  cairn__put_u16(&w, 0x0302);
  cairn__put_u32(&w, 0x07060504);
  cairn__put_u64(&w, UINT64_C(0x0f0e0d0c0b0a0908));
  cairn__put_f32(&w, 1.5f);
  cairn__put_f64(&w, -2.25);
  assert_false(w.over);
  assert_int_equal(w.len, 27);
  for (int i = 0; i < 15; i++) assert_int_equal(buf[i], i + 1);
  const uint8_t f32[4] = {0x00, 0x00, 0xc0, 0x3f}; /* 1.5f */
  const uint8_t f64[8] = {0, 0, 0, 0, 0, 0, 0x02, 0xc0}; /* -2.25 */
  assert_memory_equal(buf + 15, f32, 4);
  assert_memory_equal(buf + 19, f64, 8);
  cairn__put_u64(&w, 0xdeadbeef); /* does not fit: nothing written */
  assert_true(w.over);
  assert_int_equal(w.len, 35);
  assert_int_equal(buf[27], 0xee);
  cairn__rbuf r = cairn__rbuf_init(buf, 27);
  assert_int_equal(cairn__get_u8(&r), 0x01);
  assert_int_equal(cairn__get_u16(&r), 0x0302);
  assert_int_equal(cairn__get_u32(&r), 0x07060504);
  assert_true(cairn__get_u64(&r) == UINT64_C(0x0f0e0d0c0b0a0908));
  assert_true(cairn__get_f32(&r) == 1.5f);
  assert_true(cairn__get_f64(&r) == -2.25);
  assert_int_equal(cairn__rbuf_left(&r), 0);
  assert_false(r.over);
  assert_true(cairn__rbuf_has(&r, 0, 8));
  assert_false(cairn__rbuf_has(&r, 1, 1));
  assert_int_equal(cairn__get_u32(&r), 0); /* past the end: 0, flagged */
  assert_true(r.over);
  assert_null(cairn__get_span(&r, 0));
  cairn__rbuf s = cairn__rbuf_init(buf, 27);
  assert_false(cairn__rbuf_has(&s, UINT64_MAX, 8)); /* no overflow */
  assert_true(cairn__rbuf_has(&s, 3, 9));
  assert_false(cairn__rbuf_has(&s, 4, 7));
  assert_true(cairn__get_span(&s, 27) == buf);
  assert_int_equal(cairn__le16(buf + 1), 0x0302);
  assert_int_equal(cairn__le32(buf + 3), 0x07060504);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hash_known_values),
      cmocka_unit_test(hash_in_pieces),
      cmocka_unit_test(hash_sees_every_flip),
      cmocka_unit_test(fingerprint_follows_the_map),
      cmocka_unit_test(buffers_little_endian),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
