/* Summaries people paste: a run as a Markdown table (what hyperfine's
 * --export-markdown gives: a report or a slide takes it as is) and as a
 * one-row-per-cell CSV written beside the raw-sample CSV. The numbers are
 * the run table's own text (io/table.h), so all three agree. */
#ifndef TL_IO_MARKDOWN_H
#define TL_IO_MARKDOWN_H

#include <stdint.h>
#include <stdio.h>

#include "bench/runner.h"
#include "io/run_compare.h"
#include "io/term_safe.h"
#include "stats/stats.h"

/* The summary table, then the jitter verdicts and (rc not NULL) the
 * baseline verdicts as tables of their own. 0, or -1 on a write error. */
int tl_run_markdown(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
		    enum tl_os_method m, uint64_t seed, const struct tl_run_compare *rc,
		    const struct tl_run *base);

/* backend,flush_bytes,kernel,n,os_removed,overhead_ns,resolution_ns,min_ns,
 * p50_ns,p99_ns,mean_ns,sd_ns,cv,jitter_shift_ns,jitter_ci_lo_ns,
 * jitter_ci_hi_ns,jitter_mwu_p,jitter_detected; numbers at full precision,
 * empty where a value does not apply. */
int tl_run_summary_csv(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
		       uint64_t seed);

/* The summary CSV's path beside the raw one: x.csv -> x.summary.csv,
 * anything else gets ".summary.csv" appended. NULL for "-" (stdout holds
 * the raw rows); free() it. */
char *tl_summary_csv_path(const char *csv_path);

#endif
