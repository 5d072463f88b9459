/* The detect helper: per backend and flush, the smallest injected
 * variation D (extra ADDs) that a jitter:K,D,0.5 cell of n samples shows,
 * by the run's own test (Mann-Whitney U at alpha, shift in the injected
 * direction). The direct, model-free cousin of t_diff: no CV model, no
 * overlap rule, just "would `ticklab run` say detected?". */
#ifndef TL_BENCH_DETECT_H
#define TL_BENCH_DETECT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "backends/backend.h"
#include "bench/flush.h"
#include "bench/kernel.h"

#define TL_DETECT_K 500
#define TL_DETECT_ALPHA 0.05
/* The search stays where the jitter kernel delivers the whole of D
 * (bench/kernel.h): past it a "detected" would be of part of D. */
#define TL_DETECT_MAX_D TL_JITTER_OVERLAP_ADDS

struct tl_detect_params {
	uint64_t k;      /* plain ADDs (default TL_DETECT_K) */
	size_t n;        /* samples per evaluation, half injected (default 10000) */
	double alpha;    /* Mann-Whitney level (default TL_DETECT_ALPHA) */
	uint64_t max_d;  /* give up above this many ADDs */
	uint64_t seed;
};

struct tl_detect_result {
	bool found;
	uint64_t d;           /* smallest D detected (ADDs); found only */
	uint64_t below;       /* the largest D tried and not detected (0: none) */
	double ns_per_add;    /* the timer's, measured before the search */
	double d_ns;          /* d x ns_per_add */
	double p;             /* the MWU p at d (its last draw) */
	double shift_ns;      /* Hodges-Lehmann shift at d (its last draw) */
	unsigned evaluations; /* jitter cells measured */
	char why[160];        /* not found, or a failure */
	/* The controls beside every draw (an A/A arm, D = 0, and a P-swapped
	 * arm of n samples each, interleaved with the draw's own): */
	size_t n_side;        /* plain (= injected) samples of one arm: the split of n */
	unsigned controls_run; /* draws whose controls ran */
	unsigned aa_alarms;   /* draws whose A/A arm showed a shift */
	unsigned unreliable;  /* detected draws the controls overruled (counted as misses) */
	char control_why[200]; /* the last overruling's reason */
	double aa_p, lo, hi, sw_shift, sw_lo, sw_hi; /* the last detected draw's */
	/* At d (found only): the A/A arm's MWU p, the draw's 95 % interval
	 * and the P-swapped arm's shift and interval. */
	double found_aa_p, found_lo, found_hi, found_sw_shift, found_sw_lo, found_sw_hi;
};

void tl_detect_defaults(struct tl_detect_params *p);

struct tl_comparison;
/* 1 with why when a detection (Mann-Whitney p < alpha) is not sized: the
 * shift's 95 % interval is not above 0. The ranks then see the two
 * kinds differ in shape while the shift cannot say by how much or even
 * in which direction (on PAPI's clock here: p = 0.0003 with -0.00 ns
 * [-0.38, 0.38]), so the answer "sees D ns" would not be true. */
int tl_jitter_shift_unsized(const struct tl_comparison *main, double alpha, char *why,
			    size_t whylen);
/* What made a jitter result unreliable, for a row too narrow for why. */
enum tl_jitter_fault {
	TL_JITTER_FAULT_NONE,
	TL_JITTER_FAULT_UNSIZED,  /* detected, but the shift's interval is not above 0 */
	TL_JITTER_FAULT_AA_EMPTY, /* the A/A control had no samples on one side */
	TL_JITTER_FAULT_AA_SHIFT, /* the A/A control shows a shift */
	TL_JITTER_FAULT_SW_EMPTY, /* the P-swapped control had no samples on one side */
	TL_JITTER_FAULT_SW_APART, /* the P-swapped control's interval misses the main one's */
};
/* The fault in a few words ("the A/A control shows a shift"): the same
 * reason as the sentence in why, cut to what a narrow row holds. */
const char *tl_jitter_fault_short(enum tl_jitter_fault f);

/* Whether a jitter result (bench/kernel.h's arms) is "unreliable here",
 * never detected: the fault (> 0) with why when a detection is not sized
 * (tl_jitter_shift_unsized) or the controls fail -- the A/A arm (D = 0)
 * has no samples on one side or shows a shift (Mann-Whitney p < alpha),
 * or the P-swapped arm's shift interval does not meet the main one's (sw
 * NULL: not judged) -- else TL_JITTER_FAULT_NONE (0). A failed control means the lab's own
 * split, not the injected ADDs, would be what moved. */
int tl_jitter_unreliable(const struct tl_comparison *main, const struct tl_comparison *aa,
			 const struct tl_comparison *sw, double swapped_p, double alpha, char *why,
			 size_t whylen);

/* Searches on the calling thread (pin it first): doubles D from 1 until it
 * is detected, then bisects between the last miss and the first hit (to
 * 1/16 of D, or 1 ADD), each
 * evaluation a fresh seeded jitter:K,D,0.5 cell of n samples (flushing f
 * before each); a D is detected when two of (at most) three draws detect
 * it, and a draw that is unsized or whose A/A or P-swapped control fails
 * (tl_jitter_unreliable) counts as a miss. Each draw measures 3n
 * samples: its own n and n for each control, interleaved sample by sample.
 * Near the boundary detection is a rate, not a wall, so the answer
 * estimates the D where the test's power passes 1/2, within the scatter
 * of three draws. stop (may be NULL) ends it early.
 * Returns 0, or -1 with r->why saying what failed: the four buffers of n
 * samples (the user's n) could not be allocated, or a draw held only plain
 * or only injected samples. */
int tl_detect_run(struct tl_timer *t, const struct tl_flush *f, const struct tl_detect_params *p,
		  atomic_bool *stop, struct tl_detect_result *r);

#endif
