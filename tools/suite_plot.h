/* cairn suite's plots (PNG, 800 x 500): query time against path length per
 * algorithm, and suboptimality against path length. */
#ifndef CAIRN_SUITE_PLOT_H
#define CAIRN_SUITE_PLOT_H

#include "suite_report.h"

#define SUITE_PLOT_W 800
#define SUITE_PLOT_H 500

/* Writes both plots; exit code, the error printed. */
int suite_write_plots(const suite_data *d, const char *time_png, const char *subopt_png);

#endif
