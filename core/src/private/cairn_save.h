/* Private to cairn's modules: what every binary save format shares (the
 * hierarchy's today, a crowd's later). Values go out little-endian, byte
 * by byte, whatever the machine's byte order or alignment rules, so a file
 * written on x86-64 reads back on aarch64 or under MinGW; and one 64-bit
 * hash serves as the files' checksum and the grid's fingerprint.
 *
 * Writing: a cairn__wbuf over the caller's buffer counts every byte put,
 * and stores only those that fit, so a pass with no buffer measures the
 * size. Reading: a cairn__rbuf never reads past its end; a read past it
 * gives 0 and sets `over`, which the reader checks once a section is read
 * (so a parser need not test every value). Inline: no module calls into
 * another for them. */
#ifndef CAIRN_SAVE_H
#define CAIRN_SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- writing -------------------------------------------------------- */

typedef struct cairn__wbuf {
  uint8_t *p;  /* the buffer, or NULL to measure */
  size_t cap;  /* bytes p holds */
  size_t len;  /* bytes put so far (also those that did not fit) */
  bool over;   /* some did not fit */
} cairn__wbuf;

static inline cairn__wbuf cairn__wbuf_init(void *p, size_t cap) {
  cairn__wbuf w = {(uint8_t *)p, p ? cap : 0, 0, false};
  return w;
}

/* n bytes from src (in the order given). */
static inline void cairn__put_bytes(cairn__wbuf *w, const void *src, size_t n) {
  if (w->p && n <= w->cap && w->len <= w->cap - n) {
    if (n) memcpy(w->p + w->len, src, n);
  } else {
    w->over = true;
  }
  w->len += n;
}

/* v as n bytes, least significant first. */
static inline void cairn__put_le(cairn__wbuf *w, uint64_t v, int n) {
  uint8_t b[8];
  for (int i = 0; i < n; i++) b[i] = (uint8_t)(v >> (8 * i));
  cairn__put_bytes(w, b, (size_t)n);
}

static inline void cairn__put_u8(cairn__wbuf *w, uint8_t v) { cairn__put_le(w, v, 1); }
static inline void cairn__put_u16(cairn__wbuf *w, uint16_t v) { cairn__put_le(w, v, 2); }
static inline void cairn__put_u32(cairn__wbuf *w, uint32_t v) { cairn__put_le(w, v, 4); }
static inline void cairn__put_u64(cairn__wbuf *w, uint64_t v) { cairn__put_le(w, v, 8); }
/* IEEE 754 bits, as the machine holds them (every platform cairn builds
 * on uses IEEE 754 binary32 and binary64). */
static inline void cairn__put_f32(cairn__wbuf *w, float v) {
  uint32_t u;
  memcpy(&u, &v, sizeof u);
  cairn__put_u32(w, u);
}
static inline void cairn__put_f64(cairn__wbuf *w, double v) {
  uint64_t u;
  memcpy(&u, &v, sizeof u);
  cairn__put_u64(w, u);
}

/* ---- reading -------------------------------------------------------- */

typedef struct cairn__rbuf {
  const uint8_t *p;
  size_t len; /* bytes p holds */
  size_t at;  /* the cursor */
  bool over;  /* a read went past len (it gave 0) */
} cairn__rbuf;

static inline cairn__rbuf cairn__rbuf_init(const void *p, size_t len) {
  cairn__rbuf r = {(const uint8_t *)p, p ? len : 0, 0, false};
  return r;
}

/* Bytes left after the cursor. */
static inline size_t cairn__rbuf_left(const cairn__rbuf *r) {
  return r->over ? 0 : r->len - r->at;
}

/* Whether count items of elem bytes each are left (no overflow): what a
 * reader asks before it allocates for a count read from the input, so no
 * count makes it allocate more than the input could fill. */
static inline bool cairn__rbuf_has(const cairn__rbuf *r, uint64_t count,
                                   size_t elem) {
  size_t left = cairn__rbuf_left(r);
  return elem == 0 || count <= left / elem;
}

/* The next n bytes, the cursor moved past them, for readers that decode
 * an array in one loop (cairn__le16 and the like); NULL, with `over` set,
 * when fewer are left. */
static inline const uint8_t *cairn__get_span(cairn__rbuf *r, size_t n) {
  if (r->over || n > r->len - r->at) {
    r->over = true;
    return NULL;
  }
  const uint8_t *p = r->p + r->at;
  r->at += n;
  return p;
}

/* Little-endian values at b (no alignment needed). */
static inline uint16_t cairn__le16(const uint8_t *b) {
  return (uint16_t)(b[0] | b[1] << 8);
}
static inline uint32_t cairn__le32(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
         (uint32_t)b[3] << 24;
}
static inline uint64_t cairn__le64(const uint8_t *b) {
  return (uint64_t)cairn__le32(b) | (uint64_t)cairn__le32(b + 4) << 32;
}

/* n bytes into dst (zeroed past the end). */
static inline void cairn__get_bytes(cairn__rbuf *r, void *dst, size_t n) {
  if (!r->over && n <= r->len - r->at) {
    if (n) memcpy(dst, r->p + r->at, n);
    r->at += n;
    return;
  }
  r->over = true;
  if (n) memset(dst, 0, n);
}

/* n bytes, least significant first. */
static inline uint64_t cairn__get_le(cairn__rbuf *r, int n) {
  uint8_t b[8];
  cairn__get_bytes(r, b, (size_t)n);
  uint64_t v = 0;
  for (int i = n; i-- > 0;) v = v << 8 | b[i];
  return v;
}

static inline uint8_t cairn__get_u8(cairn__rbuf *r) { return (uint8_t)cairn__get_le(r, 1); }
static inline uint16_t cairn__get_u16(cairn__rbuf *r) { return (uint16_t)cairn__get_le(r, 2); }
static inline uint32_t cairn__get_u32(cairn__rbuf *r) { return (uint32_t)cairn__get_le(r, 4); }
static inline uint64_t cairn__get_u64(cairn__rbuf *r) { return cairn__get_le(r, 8); }
static inline float cairn__get_f32(cairn__rbuf *r) {
  uint32_t u = cairn__get_u32(r);
  float v;
  memcpy(&v, &u, sizeof v);
  return v;
}
static inline double cairn__get_f64(cairn__rbuf *r) {
  uint64_t u = cairn__get_u64(r);
  double v;
  memcpy(&v, &u, sizeof v);
  return v;
}

/* ---- the hash ------------------------------------------------------- */

/* cairn's 64-bit hash, the same on every platform and, once a format
 * uses it, in every version (changing it changes the formats' version):
 *
 *   The input is taken as little-endian 64-bit words (the last one padded
 *   with zero bytes). Four lanes start at the seeds below; word i goes to
 *   lane i mod 4 as lane = rotl64((lane ^ word) * K, 31). The result is
 *   mix(lane0 ^ mix(lane1 ^ mix(lane2 ^ mix(lane3 ^ bytes)))), where mix
 *   is splitmix64's finaliser and bytes the input's length.
 *
 * Each step, and mix, is a bijection of the lane for any one word, so
 * inputs of one length that differ in a single word (any single-bit flip
 * among them) never hash alike. It is no cryptographic hash: it catches
 * corruption, not forgery. Four independent lanes keep the multiplies in
 * flight together: a few GB/s, so checking a large file costs little. */
#define CAIRN__HASH_K UINT64_C(0x9e3779b97f4a7c15)

typedef struct cairn__hash {
  uint64_t lane[4];
  uint64_t words; /* whole words taken */
  uint8_t tail[8]; /* bytes waiting for a word */
  size_t n_tail;
} cairn__hash;

static inline uint64_t cairn__hash_mix(uint64_t x) {
  x ^= x >> 30;
  x *= UINT64_C(0xbf58476d1ce4e5b9);
  x ^= x >> 27;
  x *= UINT64_C(0x94d049bb133111eb);
  x ^= x >> 31;
  return x;
}

static inline void cairn__hash_init(cairn__hash *h) {
  h->lane[0] = UINT64_C(0x243f6a8885a308d3); /* digits of pi */
  h->lane[1] = UINT64_C(0x13198a2e03707344);
  h->lane[2] = UINT64_C(0xa4093822299f31d0);
  h->lane[3] = UINT64_C(0x082efa98ec4e6c89);
  h->words = 0;
  h->n_tail = 0;
}

static inline uint64_t cairn__hash_step(uint64_t lane, uint64_t word) {
  uint64_t x = (lane ^ word) * CAIRN__HASH_K;
  return x << 31 | x >> 33;
}

static inline void cairn__hash_word(cairn__hash *h, uint64_t word) {
  uint64_t *l = &h->lane[h->words & 3];
  *l = cairn__hash_step(*l, word);
  h->words++;
}

/* Adds n bytes. */
static inline void cairn__hash_add(cairn__hash *h, const void *data, size_t n) {
  const uint8_t *p = (const uint8_t *)data;
  while (n && h->n_tail) { /* finish a word begun by an earlier call */
    h->tail[h->n_tail++] = *p++;
    n--;
    if (h->n_tail == 8) {
      cairn__hash_word(h, cairn__le64(h->tail));
      h->n_tail = 0;
    }
  }
  /* whole groups of four words, one per lane, while the lanes are lined
   * up: the loop the compiler keeps in registers */
  if ((h->words & 3) == 0) {
    uint64_t a = h->lane[0], b = h->lane[1], c = h->lane[2], d = h->lane[3];
    size_t groups = n / 32;
    for (size_t g = 0; g < groups; g++, p += 32) {
      a = cairn__hash_step(a, cairn__le64(p));
      b = cairn__hash_step(b, cairn__le64(p + 8));
      c = cairn__hash_step(c, cairn__le64(p + 16));
      d = cairn__hash_step(d, cairn__le64(p + 24));
    }
    h->lane[0] = a, h->lane[1] = b, h->lane[2] = c, h->lane[3] = d;
    h->words += 4 * (uint64_t)groups;
    n -= 32 * groups;
  }
  for (; n >= 8; n -= 8, p += 8) cairn__hash_word(h, cairn__le64(p));
  if (n) { /* n < 8, and no word is begun (the first loop finished it) */
    memcpy(h->tail, p, n);
    h->n_tail = n;
  }
}

/* Adds v as n little-endian bytes. */
static inline void cairn__hash_le(cairn__hash *h, uint64_t v, int n) {
  uint8_t b[8];
  for (int i = 0; i < n; i++) b[i] = (uint8_t)(v >> (8 * i));
  cairn__hash_add(h, b, (size_t)n);
}

/* The hash of everything added (h is left as it was). */
static inline uint64_t cairn__hash_end(const cairn__hash *h) {
  cairn__hash t = *h;
  uint64_t bytes = t.words * 8 + t.n_tail;
  if (t.n_tail) {
    memset(t.tail + t.n_tail, 0, 8 - t.n_tail);
    cairn__hash_word(&t, cairn__le64(t.tail));
  }
  uint64_t x = cairn__hash_mix(t.lane[3] ^ bytes);
  x = cairn__hash_mix(t.lane[2] ^ x);
  x = cairn__hash_mix(t.lane[1] ^ x);
  return cairn__hash_mix(t.lane[0] ^ x);
}

/* The checksum of n bytes: cairn's hash of them. */
static inline uint64_t cairn__checksum(const void *data, size_t n) {
  cairn__hash h;
  cairn__hash_init(&h);
  cairn__hash_add(&h, data, n);
  return cairn__hash_end(&h);
}

#endif
