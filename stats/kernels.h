/* Self-checks of the chain and load kernels: pure functions over the
 * medians a run measured (no I/O, no clocks). A MUL or FMA chain is a line
 * in K whose slope is a few cycles; a load chase is a step function of the
 * buffer size with a step at each cache level's end. */
#ifndef TL_STATS_KERNELS_H
#define TL_STATS_KERNELS_H

#include <stdbool.h>
#include <stddef.h>

/* A chain is linear when its medians' R^2 in K reaches this ... */
#define TL_CHAIN_MIN_R2 0.999
/* ... and plausible when one operation costs this many ADDs (cycles). */
#define TL_CHAIN_MIN_CYCLES 2.0
#define TL_CHAIN_MAX_CYCLES 6.0

struct tl_chain_fit {
	size_t n;          /* points (distinct K values) */
	double ns_per_op;  /* slope of the medians in K; with one point, median / K */
	double intercept;  /* ns at K = 0 (NaN with one point) */
	double r2;         /* NaN with fewer than 3 points: two always fit */
	double cycles;     /* ns_per_op / ns_per_add: ADDs take one cycle; NaN without ADDs */
	bool linear;       /* r2 >= TL_CHAIN_MIN_R2 (true when r2 is NaN: nothing to judge) */
	bool plausible;    /* cycles in [MIN, MAX] (true when cycles is NaN) */
};

/* ns[i]: median of a chain of k[i] operations, after the timer's own cost
 * is taken off. ns_per_add may be NaN. Returns 0, or -1 when no point has
 * K > 0 or the K are not distinct enough to fit. */
int stats_chain_fit(const double *k, const double *ns, size_t n, double ns_per_add,
		    struct tl_chain_fit *f);

/* Levels of a load ladder: L1, L2, L3, memory (beyond the last cache). */
#define TL_LADDER_LEVELS 4
/* The step function must explain this share of the variance of log latency. */
#define TL_LADDER_MIN_R2 0.95
/* A level may be this much faster than the one before it and still count as
 * non-decreasing: the medians of two flat levels differ by noise. */
#define TL_LADDER_MONOTONE_TOL 0.05
/* A step is a latency at least this many times the level below's. */
#define TL_LADDER_MIN_STEP 1.2

#define TL_LADDER_MAX_POINTS 64

struct tl_ladder_fit {
	size_t n;
	int level[TL_LADDER_MAX_POINTS]; /* of each point: j < nends is ends[j]'s, nends memory */
	size_t count[TL_LADDER_LEVELS];
	double mean_ns[TL_LADDER_LEVELS]; /* geometric mean latency per level (NaN: no point) */
	size_t nlevels;                /* levels with points */
	double r2;                     /* of log latency, explained by the level means */
	bool flat;                     /* r2 >= TL_LADDER_MIN_R2 */
	bool monotone;                 /* level means non-decreasing (within the tolerance) */
	int worse_level;               /* first level faster than the one before (-1: none) */
	/* Where each step is: step j, between two neighbouring levels, begins
	 * at point cut[j], within the points of those two levels; the steps
	 * are placed together (increasing cuts, least squares of log latency
	 * around each run's mean), beside topo_cut[j], the first point of
	 * the upper level by the topology. They differ where the cache ends are
	 * not where the latency steps (a VM may report caches it does not give). */
	size_t nsteps;
	size_t cut[TL_LADDER_LEVELS - 1], topo_cut[TL_LADDER_LEVELS - 1];
	/* How much slower the upper side of the step is at cut[j]: the ratio of
	 * the geometric means of the fitted runs on either side of it. Under
	 * TL_LADDER_MIN_STEP there is no step to place. */
	double step_ratio[TL_LADDER_LEVELS - 1];
};

/* bytes[] ascending (distinct), ns[] the latency per load at each size,
 * ends[] the cache sizes ascending (L1d, L2, L3; nends <= 3, zeros left
 * out): a size <= ends[j] falls in level j. Returns 0, or -1 when n is 0 or
 * above TL_LADDER_MAX_POINTS, or sizes are not ascending. */
int stats_ladder_fit(const double *bytes, const double *ns, size_t n, const double *ends,
		     size_t nends, struct tl_ladder_fit *f);

/* The level a buffer of `bytes` falls in, by the same rule. */
int stats_ladder_level(double bytes, const double *ends, size_t nends);

#endif
