/* The injected variation of a jitter:K,D,P cell, measured: the plain (K
 * ADDs) and injected (K+D ADDs) samples compared with stats_compare, beside
 * the true shift D x ns per ADD. `ticklab run`, `report` and the run JSON
 * all use this, so a saved run says what the live run said. */
#ifndef TL_IO_JITTER_H
#define TL_IO_JITTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/runner.h"
#include "stats/compare.h"

#define TL_JITTER_ALPHA 0.05

/* One control arm of the cell (bench/kernel.h): A = plain, B = dependent. */
struct tl_jitter_control {
	bool ok;                  /* both sides held samples */
	struct tl_comparison cmp;
};

struct tl_jitter {
	bool ok;              /* false: note says why nothing was compared */
	bool null_split;      /* D = 0: a seeded split stands for the injected set */
	double ns_per_add;    /* (median of the plain samples - t_e,std) / K; NaN for K = 0 */
	double true_shift_ns; /* D x ns_per_add */
	struct tl_comparison cmp; /* A = plain, B = injected, ns */
	bool detected;        /* Mann-Whitney p < TL_JITTER_ALPHA and the controls hold */
	bool controls;        /* the cell ran its A/A and P-swapped arms (files saved
			       * before the arms did not) */
	struct tl_jitter_control aa, swapped;
	bool unreliable;      /* a control failed: reason says which; never detected */
	char reason[200];
	char note[120];
};

/* "detected", "not detected" or "unreliable here". */
const char *tl_jitter_verdict(const struct tl_jitter *j);

/* Compares cell's plain and injected samples of its main arm (raw ns:
 * filter_cost moves both alike and the rank tests need no outlier
 * filter), and the same for its A/A and P-swapped arms, which judge it
 * (tl_jitter_unreliable). The bootstraps are seeded from tl_cell_seed.
 * A cell that is not jitter, or has no samples on one side, gives ok =
 * false. */
void tl_jitter_analyse(const struct tl_run *run, size_t cell, uint64_t seed, struct tl_jitter *j);

/* {"d", "ns_per_add", "true_shift_ns", "n_plain", "n_injected", "shift_ns" (HL),
 *  "median_diff_ns", "ci_lo_ns", "ci_hi_ns", "mwu_p", "ks_p", "alpha", "detected",
 *  "null_split", "verdict", "unreliable" (the reason, or null), "controls"
 *  {"aa", "swapped": {"p", "d", "n_plain", "n_injected", "shift_ns", "ci_lo_ns",
 *  "ci_hi_ns", "mwu_p"}} (null in a file saved before the arms), "note"}. */
json_t *tl_jitter_to_json(const struct tl_jitter *j, uint64_t d, double p);

/* One line under the run table, e.g.
 * "jitter sim flush 0 jitter:100,50,0.25: +50 ADDs = 15.0 ns; shift 14.9 ns
 *  [14.6, 15.2] (HL, 95 %); MWU p = 1e-40: detected at alpha = 0.05". */
void tl_jitter_print(FILE *f, const struct tl_run *run, size_t cell, const struct tl_jitter *j);

#endif
