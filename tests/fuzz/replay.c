/* Runs a fuzz target over files named on the command line (its seed
 * corpus, or a crash file) without libFuzzer, so every build, gcc ones
 * included, replays the corpus as a test. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "replay: cannot open %s\n", path);
    return 1;
  }
  uint8_t *buf = NULL;
  size_t len = 0, cap = 0;
  for (;;) {
    if (len == cap) {
      cap = cap ? 2 * cap : 4096;
      uint8_t *nb = realloc(buf, cap);
      if (!nb) break;
      buf = nb;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0) break;
  }
  int bad = ferror(f) || !buf;
  fclose(f);
  if (!bad) LLVMFuzzerTestOneInput(buf, len);
  free(buf);
  if (bad) fprintf(stderr, "replay: cannot read %s\n", path);
  return bad;
}

int main(int argc, char **argv) {
  int bad = 0;
  for (int i = 1; i < argc; i++) bad |= replay(argv[i]);
  printf("%d inputs\n", argc - 1);
  return bad;
}
