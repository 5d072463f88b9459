/* The per-cell summary table `ticklab run`, `ticklab report` and the
 * default comparison all print, so a saved run re-analysed prints the
 * same text the live run did. */
#ifndef TL_IO_TABLE_H
#define TL_IO_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include "bench/runner.h"
#include "stats/stats.h"

/* One row per visible cell (hidden baselines are left out): backend, flush,
 * kernel, samples kept, removed as OS noise, t_e,std, resolution, then
 * min/p50/p99/mean/sd in ns after filter_cost and filter_os, and CV. an[i]
 * is cell i's analysis. Inactive OS filters are explained under the table. */
void tl_table_print(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
		    enum tl_os_method m, uint64_t seed);

#endif
