/* cairn_image_write_png in a build without libpng: every picture command
 * checks cairn_render_has_png first and says so, and this answers the
 * same to any other caller. */
#include <stdio.h>

#include "cairn_render.h"

bool cairn_render_has_png(void) { return false; }

cairn_status cairn_image_write_png(const cairn_image *img, const char *path,
                                   cairn_error *err) {
  if (!img || !path) return CAIRN_ERR_ARG;
  if (err) {
    snprintf(err->message, sizeof err->message,
             "%s: built without libpng, no PNG written", path);
    err->line = 0;
  }
  return CAIRN_ERR_IO;
}
