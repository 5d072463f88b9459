/* The injected variation of a jitter:K,D,P cell, measured: the plain (K
 * ADDs) and injected (K+D ADDs) samples compared with stats_compare, beside
 * the true shift D x ns per ADD. `ticklab run`, `report` and the run JSON
 * all use this, so a saved run says what the live run said. */
#ifndef TL_JUDGE_JITTER_H
#define TL_JUDGE_JITTER_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/detect.h"
#include "bench/runner.h"
#include "stats/compare.h"

struct tl_analysis;

#define TL_JITTER_ALPHA 0.05

/* Time blocks the interval's spread is read from (stats_shift_blocks):
 * at most this many, each with about TL_JITTER_BLOCK_SIDE samples on the
 * smaller side of an arm at least. */
#define TL_JITTER_BLOCKS 20
#define TL_JITTER_BLOCK_SIDE 8

/* One control arm of the cell (bench/kernel.h): A = plain, B = dependent. */
struct tl_jitter_control {
	bool ok;                  /* both sides held samples */
	struct tl_comparison cmp; /* lo, hi: widened by the blocks' spread (blocks > 0) */
	size_t blocks;            /* time blocks the interval's spread came from (0: none) */
	size_t n_plain;           /* the arm's own plain samples (its comparison's A side is
				   * them for the A/A arm, the A/A arm's for the P-swapped) */
};

/* Where the true shift's ns per ADD came from. */
enum tl_jitter_truth {
	TL_TRUTH_NONE,        /* nothing to measure it from (K = 0, no calibration) */
	TL_TRUTH_CHAIN,       /* the slope of the run's add:K medians, same timer and flush */
	TL_TRUTH_CALIBRATION, /* the fastest of 15 timings of 1e6 ADDs before sampling */
	TL_TRUTH_PLAIN,       /* (median of the plain samples - t_e,std) / K */
};

struct tl_jitter {
	bool ok;              /* false: note says why nothing was compared */
	bool null_split;      /* D = 0: a seeded split stands for the injected set */
	double ns_per_add;    /* the truth's, from truth (NaN: none) */
	double true_shift_ns; /* D x ns_per_add */
	enum tl_jitter_truth truth;
	double ns_per_add_chain, chain_half; /* the run's add chain slope and its 95 %
					      * half-width (NaN: no two add:K cells) */
	double ns_per_add_harness, harness_half; /* the cell's own chain: its injected
						  * samples less the A/A arm's dependent
						  * ones, over D (a figure, never the
						  * truth: the shift's own samples), and
						  * its 95 % half-width (NaN: none) */
	double truth_half;     /* the truth's ns per ADD's 95 % half-width (NaN: unknown) */
	double ns_per_add_cal; /* the calibration's (NaN: none) */
	char truth_note[400];  /* the chain or the calibration is off the truth beyond the
				* spreads ("" when neither is) */
	struct tl_comparison cmp; /* A = the A/A arm's samples (D = 0; in a file from
				   * before the arms, the plain ones), B = injected, ns;
				   * lo, hi widened by the blocks' spread (blocks > 0) */
	size_t blocks;        /* time blocks of the main arm's spread (0: too few samples) */
	size_t n_plain;       /* the main arm's plain samples (cmp.na: the A/A arm's, with
			       * controls) */
	bool checked;         /* the interval was held against the truth */
	bool covers;          /* checked: it meets [truth -+ D x truth_half] */
	char miss[240];       /* checked and not covered: "measured 65.7 of 66.8 ns injected" + why */
	bool overlap_ok;      /* the plain samples' cost of the ADDs beside their chain:
			       * main arm's plain less the A/A arm's plain */
	double overlap, overlap_lo, overlap_hi;
	bool detected;        /* Mann-Whitney p < TL_JITTER_ALPHA and the controls hold */
	bool controls;        /* the cell ran its A/A and P-swapped arms (files saved
			       * before the arms did not) */
	struct tl_jitter_control aa, swapped;
	bool unreliable;      /* a control failed: reason says which; never detected */
	enum tl_jitter_fault fault; /* unreliable: which, for the short form */
	char reason[200];
	char note[160];
};

/* "detected", "not detected" or "unreliable here". */
const char *tl_jitter_verdict(const struct tl_jitter *j);

/* Compares the injected samples of cell's main arm with every sample of its
 * A/A arm (D = 0), K against K + D ADDs (raw ns: filter_cost moves both
 * alike and the rank tests need no outlier filter); the P-swapped arm's
 * injected samples the same way, and the A/A arm's two paths with each
 * other; the two controls judge it (tl_jitter_unreliable). A file from
 * before the arms compares its plain and injected samples. The comparisons draw nothing; the seed (through
 * tl_cell_seed) draws only the split that stands for the injected samples
 * in a file from before the arms at D = 0.
 * A cell that is not jitter, or has no samples on one side, gives ok =
 * false. */
void tl_jitter_analyse(const struct tl_run *run, size_t cell, uint64_t seed, struct tl_jitter *j);
/* tl_jitter_analyse with the cell's seed given (tl_run_cell_seeds' entry
 * for it): for a loop over the cells. */
void tl_jitter_analyse_seeded(const struct tl_run *run, size_t cell, uint64_t cseed,
			      struct tl_jitter *j);


/* What a cell's numbers are not read without, decided here once for every
 * face (report's table notes, the live screen's summary), beside the
 * verdicts: each face only words it. */
enum tl_cell_caveat {
	/* t_e,std over twice the kernel's p50: it is subtracted with its
	 * run-to-run noise, so p50 and min move between runs more than the
	 * body they measure */
	TL_CAVEAT_NOISY_OVERHEAD = 1u << 0,
	/* the level moved during the run: CV cannot fall much below the drift */
	TL_CAVEAT_DRIFT = 1u << 1,
	/* times below zero: t_e,std (a median) is taken off every sample */
	TL_CAVEAT_NEGATIVE = 1u << 2,
};
unsigned tl_cell_caveats(const struct tl_cell *c, const struct tl_analysis *a);

#endif
