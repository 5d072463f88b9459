/* The forms a comparison of two runs (judge/compare.h) takes: text table,
 * JSON rows, Markdown, CSV, so `ticklab compare BASE NEW` and `ticklab run
 * --baseline FILE` say the same thing the same way. */
#ifndef TL_IO_RUN_COMPARE_H
#define TL_IO_RUN_COMPARE_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "judge/compare.h"

/* A shift (or interval end, or percentage) in fixed notation, 2 decimals,
 * without a unit: "2.42", "-10.02"; what rounds to zero is "0" (never
 * "-0.00"); "-" when not finite. */
void tl_shift_text(double v, char *buf, size_t len);
/* How a row's two runs were put on one scale, with both rates. */
void tl_cell_compare_units(const struct tl_cell_compare *row, char *buf, size_t len);

/* The text table (one line per row, under a header saying the rule). */
void tl_run_compare_print(FILE *f, const struct tl_run *base, const struct tl_run_compare *rc);
/* A row as JSON {backend, flush_bytes, kernel, n_base, n_new, median_base_ns,
 * shift_ns, shift_method ("mean" or "hodges-lehmann"), tie_share, units
 * ("ticks" or "ns"), ns_per_unit_base, ns_per_unit_new, median_diff_ns, ci_lo_ns, ci_hi_ns, shift_pct, mwu_p, ks_p,
 * verdict, need_more}. */
json_t *tl_cell_compare_json(const struct tl_run *base, const struct tl_cell_compare *row);
/* Every row's JSON in an array. */
json_t *tl_run_compare_json(const struct tl_run *base, const struct tl_run_compare *rc);
/* run --baseline: each visible cell of run's JSON document (doc "cells",
 * in run order) that has a row gets "baseline": its row's JSON, and doc gets
 * "baseline": {file, threshold_pct, seed, cells_compared, cells_different}. */
void tl_run_compare_attach(json_t *doc, const struct tl_run *run, const struct tl_run *base,
			  const struct tl_run_compare *rc, const char *path);

/* A Markdown table of the rows, and the same as CSV. Return 0 or -1 on a
 * write error (for tl_write_atomic's emit). */
int tl_run_compare_markdown(FILE *f, const struct tl_run *base, const struct tl_run_compare *rc,
			    const char *base_name, const char *new_name);
int tl_run_compare_csv(FILE *f, const struct tl_run *base, const struct tl_run_compare *rc);

#endif
