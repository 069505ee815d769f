/* cairn march: not written yet (the path request queue comes first). */
#include "cli.h"
int cmd_march(int argc, char **argv) {
  (void)argc;
  (void)argv;
  cli_error("march: not implemented yet");
  return EXIT_RUNTIME;
}
