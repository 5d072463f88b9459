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
 * kernel, samples kept, removed as OS noise, the filter that ran
 * (tl_os_result.ran), t_e,std, resolution, then min/p50/p99/mean/sd in ns
 * after filter_cost and filter_os, and CV. an[i] is cell i's analysis. An
 * inactive forest, or a guard or fallback that ran, is explained under the
 * table. */
void tl_table_print(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
		    enum tl_os_method m, uint64_t seed);

/* The table's columns and one cell's row as the text the table prints, so
 * the Markdown and CSV summaries carry the same numbers. */
#define TL_TABLE_NCOLS 15
#define TL_TABLE_CELL_MAX (TL_ID_MAX + 4)
extern const char *const tl_table_headers[TL_TABLE_NCOLS];
/* Columns 0-2 (backend, flush, kernel) are names, the rest numbers. */
#define TL_TABLE_NAME_COLS 3
void tl_table_row(const struct tl_run *run, size_t cell, const struct tl_analysis *a,
		  char (*row)[TL_TABLE_CELL_MAX]);

#endif
