/* Two runs compared cell by cell (stats/compare.c underneath): the engine
 * of `ticklab compare BASE NEW` and of `ticklab run --baseline FILE`, and
 * each row's verdict. The forms the answer takes (text table, JSON rows,
 * Markdown, CSV) are io/run_compare.h's. */
#ifndef TL_JUDGE_COMPARE_H
#define TL_JUDGE_COMPARE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "bench/runner.h"
#include "stats/compare.h"

#define TL_COMPARE_DEFAULT_THRESHOLD_PCT 1.0
/* Two calibrations of one clock agree to about 1e-6 (calibration error); rates
 * closer than this are one clock's, so one of them serves both runs. */
#define TL_SAME_RATE_REL 1e-4

struct tl_cell_compare {
	size_t base_cell, new_cell; /* indexes into each run's cells */
	double base_median;         /* BASE's median after filter_cost, ns */
	double rel_pct;             /* the shift in % of |base_median| */
	struct tl_comparison cmp;   /* A = BASE, B = NEW, ns after filter_cost */
	bool ticks;                 /* compared as BASE's and NEW's ticks times BASE's rate
				     * (one clock on one node), else each in its own ns */
	double rate_base, rate_new; /* each run's ns per unit (its own calibration) */
	/* NEW's bytes for the flush: cells match by the name the user gave,
	 * and a 4xL3 may have been other bytes on the day NEW ran. */
	uint64_t new_flush_bytes;
};

struct tl_run_compare {
	double threshold_pct;
	uint64_t seed;
	bool same_node; /* the runs' hosts match (tl_hosts_same_node) */
	struct tl_cell_compare *rows;
	size_t nrows, differ;
	long *match; /* tl_run_matches(new, base), made by the first step */
};

/* Every visible cell of base with a match in new (same backend id, flush
 * size and kernel label), in base's order; row r is given the seed
 * tl_seed_derive(seed, r). Samples are compared after filter_cost (each run
 * removes its own t_e,std). same_node (tl_hosts_same_node of the two runs'
 * hosts): a backend whose two rates agree within TL_SAME_RATE_REL is
 * compared in its ticks with BASE's rate (row.ticks); otherwise each side
 * in ns by its own rate. Returns 0 (nrows may be 0), -1 out of memory. */
int tl_runs_compare(const struct tl_run *base, const struct tl_run *new_, double threshold_pct,
		    uint64_t seed, bool same_node, struct tl_run_compare *out);
void tl_run_compare_free(struct tl_run_compare *rc);
/* tl_runs_compare a row at a time, for a caller that shows each row as it
 * comes: begin allocates out; each step compares
 * base's cells from *next on until one gives a row and returns 1 (the row
 * is out->rows[out->nrows - 1]), 0 when no cell is left, -1 out of memory
 * (out is freed). The rows and their seeds are tl_runs_compare's. */
void tl_runs_compare_begin(const struct tl_run *base, double threshold_pct, uint64_t seed,
			   bool same_node, struct tl_run_compare *out);
int tl_runs_compare_step(const struct tl_run *base, const struct tl_run *new_, size_t *next,
			 struct tl_run_compare *out);
/* The visible cell of b matching a's cell i (same backend id, flush size
 * and kernel label), or -1. */
long tl_run_match(const struct tl_run *b, const struct tl_run *a, size_t i);
/* tl_run_match of every cell of a (-1 for a hidden one): a new array of
 * a->ncells (free()), made in O(n log n) where a call per cell scans b for
 * each. */
long *tl_run_matches(const struct tl_run *b, const struct tl_run *a);

/* Whether two run files' "host" objects name the same node: vendor, model,
 * kernel and hypervisor all equal (a run file holds no host name; another
 * machine matching all four has the same clock rate within calibration
 * error, so one rate still serves both). False when either is missing. */
bool tl_hosts_same_node(const json_t *a, const json_t *b);
/* Rates (ns per unit) equal within TL_SAME_RATE_REL. */
bool tl_rates_same_clock(double a, double b);

/* The row of rc for new's cell i, or NULL. */
const struct tl_cell_compare *tl_run_compare_find(const struct tl_run_compare *rc, size_t new_cell);

/* "different", "same" or "unknown: need ~N more samples". */
void tl_cell_compare_verdict(const struct tl_cell_compare *row, char *buf, size_t len);

#endif
