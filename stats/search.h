/* t_min and t_diff searches (paper Algorithms 1 and 2, and the model-based
 * `fast` method). The logic is pure; measurements come through a callback
 * so the same code runs on the engine, on `sim`, and in tests. */
#ifndef TL_STATS_SEARCH_H
#define TL_STATS_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/stats.h"

/* Takes n measurements of `adds` ADDs (adds == 0 with empty == true: the
 * empty kernel), in ns, into out. Returns 0, or -1 when stopped. */
typedef int (*tl_measure_fn)(void *ctx, uint64_t adds, bool empty, size_t n, double *out_ns);

enum tl_search_method { TL_SEARCH_FAST, TL_SEARCH_PAPER };

/* How t_diff's two sets are measured. interleaved: A0 and A1 alternate in
 * one pass and each block's level is taken out of both (stats_level_align),
 * so a clock that wanders moves both alike and not the answer; paper: A0's
 * n measurements, then A1's, as Algorithm 2 is published, so a level that
 * moves between the sets moves the answer. */
enum tl_tdiff_order { TL_TDIFF_INTERLEAVED, TL_TDIFF_PAPER };
/* pairs per level block of an interleaved pass: 64 readings, short against
 * a VM's clock wander, long enough that a block's level is known to about
 * a tenth of the noise */
#define TL_TDIFF_LEVEL_BLOCK 32
/* fast t_diff measures a block of 2 TL_TDIFF_LEVEL_BLOCK readings again
 * when one lies more than this many robust sds above the block's level:
 * a normal reading lies there once in 10^9, the host bursts of a loaded
 * KVM guest reach 5 to 40 (stats_disturbed_blocks) */
#define TL_SEARCH_BURST_FENCE 6.0

struct tl_search_params {
	enum tl_search_method method;
	double eps;            /* CV threshold, 0.01 */
	double alpha;          /* overlap threshold, 0.05 */
	size_t n;              /* measurements per candidate (paper: 10000) */
	unsigned p;            /* t_min confirmations, 30 */
	unsigned q;            /* t_diff pairs, 80 */
	uint64_t tmin_step;    /* initial step, 10000 ADDs */
	uint64_t tdiff_step;   /* initial step, 100 ADDs */
	uint64_t max_adds;     /* upper bound: "no t_min below the ...-ADD bound" */
	enum tl_os_method os;
	uint64_t seed;
	double overhead_ns;    /* t_e,std under the same flush */
	double ns_per_add;     /* to report answers in ns (from a linear fit) */
	double resolution_ns;  /* the timer's step, for the floor and agreement */
	/* fast only: measurements per evaluation (0: n). The CLI lowers it when a
	 * flush is expensive; predictions are still made for the paper's n. */
	size_t fast_n;
	/* fast only: wall seconds one search may take (0: no limit). When it is
	 * spent the search ends with what it has and says so in the note. */
	double time_limit_s;
	/* fast only: seconds one measurement costs besides its kernel (flush,
	 * timer reads; 0 unknown), the time limit's forecast before the search
	 * has timed an evaluation of its own */
	double measurement_s;
	enum tl_tdiff_order order; /* t_diff's; interleaved by default */
};

void tl_search_params_default(struct tl_search_params *p);

struct tl_search_result {
	bool converged;
	uint64_t adds;         /* the answer in ADDs */
	double ns;             /* the answer in ns */
	size_t measurements;   /* timed measurements used */
	double seconds;        /* wall time */
	double stat;           /* CV (t_min) or overlap alpha (t_diff) at the answer */
	bool on_floor;         /* sits on the timer-resolution floor */
	char note[256];        /* "no t_min below the 1e+08-ADD bound (--max-adds): lowest CV 2.8 %" etc. */
	/* extras */
	enum tl_search_method method;
	bool stopped;          /* the stop flag ended it; adds is the best found so far */
	size_t evaluations;    /* candidate points evaluated (CV or pair checks) */
	double predicted_adds; /* fast: the model's prediction before confirmation */
	double floor_ns;       /* the resolution floor in ns (0 when unknown) */
	uint64_t best_adds;    /* t_min: the point with the lowest CV seen (a start
				* for t_diff when t_min did not converge) */
	double best_cv;        /* t_min: that lowest CV (the "CV floor") */
	double measurement_s;  /* what a measurement cost besides its kernel, as
				* last timed (the next search's first forecast) */
	double best_drift;     /* t_min: the drift there (stats_drift's rel_sd) when the
				* level moved beyond noise, else NaN: why the floor */
	/* Not converged: the largest K (t_min) or delta (t_diff) the search
	 * evaluated without an answer, so "none" can be read as "> bound_adds"
	 * and a ratio against it becomes a bound instead of a blank. */
	uint64_t bound_adds;
	bool out_of_time;      /* the fast method's time limit ended it */
	enum tl_tdiff_order order; /* t_diff: how its sets were measured */
	/* t_min: best_cv (the steadiest point's CV) in its two parts, within
	 * 100-reading chunks (the timer's noise) and between them (the level
	 * moving: the node); NaN unknown */
	double cv_within, cv_drift;
	/* t_min on a steady clock: where the within-chunk CV curve reaches eps
	 * (tl_search_cv_crossing over every evaluated point), with the points
	 * around it; NaN when the curve never reaches eps */
	double steady_adds, steady_lo, steady_hi;
	/* fast t_diff: what its answer was judged on, the sets at A0 (and A1)
	 * each centred: their robust sd (the IQR's) and the slowest reading
	 * kept, in those sds above the median. Repeats that disagree say by
	 * these whether the node's noise moved or one slow reading did; NaN
	 * unknown (paper's method, or too few readings) */
	double a0_sd_ns, a0_top_sds;
};

/* Which answer a point or result belongs to; also the index of its
 * points (bench/search_cell.h). */
enum tl_search_kind {
	TL_SEARCH_TMIN,  /* precision: x is K in ADDs, y the CV */
	TL_SEARCH_TDIFF, /* sensitivity: x is delta in ADDs, y the overlap (alpha) */
};

/* Sets at A0 fast t_diff's model starts from, t_min's near ones included:
 * t_min leaves 1 to 5 near its answer. 3 doubled the median t_diff cost
 * in two of bench_search's four sim cases and did not lower the worst
 * disagreement with Algorithm 2 (1.61 against 1.29 of the allowance on
 * the plain sd 8 noise case). Its answer's least scatter goes by it too
 * (bench/search_summary.c). */
#define TL_SEARCH_FAST_TDIFF_POOL 2

/* What a fast t_min search leaves for the fast t_diff search that follows
 * it: the filtered sets it measured and where. t_diff's model needs the
 * spread at t_min, which t_min's last evaluations (within a few % of its
 * answer) already measured; reading them here instead of measuring new
 * sets is what makes fast's t_diff cost less than the paper's at small q.
 * Those sets stay counted in t_min's measurements. Each evaluation is kept
 * as its two halves (two sets at its K), so a t_min settled by one
 * evaluation leaves the two sets at A0 that t_diff's model starts from. */
#define TL_SEARCH_CARRY_SETS 12
struct tl_search_carry {
	size_t sets;
	uint64_t adds[TL_SEARCH_CARRY_SETS]; /* K each set was measured at */
	size_t n[TL_SEARCH_CARRY_SETS];      /* readings kept by the filters */
	bool cut[TL_SEARCH_CARRY_SETS];      /* the filter removed its top */
	/* the set's level moved between its chunks beyond its noise
	 * (stats_cv_split's drift part over a third of the within part) */
	bool moved[TL_SEARCH_CARRY_SETS];
	double *x[TL_SEARCH_CARRY_SETS];     /* owned, n[i] filtered readings (ns) */
	size_t size[TL_SEARCH_CARRY_SETS];   /* allocated length of x[i] */
	/* t_min's model found no growth of the spread with t over its points:
	 * sets further from the answer describe it too */
	bool flat;
	/* set by the caller when t_diff runs a while after this t_min (other
	 * searches between): the sets still describe the spread at A0, but
	 * the level may have moved since, so none of them is a pair's A0 (the
	 * first is measured anew, next to its A1) and none says the level
	 * holds still (fast takes the order asked, never the paper's chain
	 * from them) */
	bool stale;
};

/* Frees the sets and empties c (c itself is the caller's). */
void tl_search_carry_free(struct tl_search_carry *c);

/* Live progress for the TUI: every evaluated point. */
typedef void (*tl_search_observer)(void *ctx, enum tl_search_kind kind, uint64_t x, double y);

struct tl_search_io {
	tl_measure_fn measure;
	void *measure_ctx;
	tl_search_observer observe; /* may be NULL */
	void *observe_ctx;
	atomic_bool *stop;          /* may be NULL; Ctrl-C keeps what was found */
	double (*now)(void);        /* wall seconds for time limits and `seconds`;
				     * NULL: no clock (no time limit, seconds 0).
				     * Given, not read here: stats/ reads no clock */
	/* may be NULL: a fast t_min fills it, a fast t_diff from (about) the
	 * same t_min reads it; any t_min search empties it first */
	struct tl_search_carry *carry;
	/* may be NULL: n measurements, the i-th of adds[i] ADDs, in one pass in
	 * that order (interleaved t_diff); without it each is measured alone */
	int (*measure_mix)(void *ctx, const uint64_t *adds, size_t n, double *out_ns);
	/* may be NULL: the empty-kernel readings (ns, n_empty of them, in the
	 * order taken) that t_e,std is the median of. The setup measures them
	 * for either method; fast t_min reads their spread as its model's
	 * first point, so its first evaluation is at the predicted t_min, and
	 * does not count them (nor does paper, which does not read them) */
	const double *empty_ns;
	size_t n_empty;
};

/* Both return 0 when the search ended (see r->converged), 1 when the stop
 * flag ended it (r keeps what was found so far), -1 on bad parameters or no
 * memory (r->note says which). */
int tl_search_tmin(const struct tl_search_params *p, const struct tl_search_io *io,
		   struct tl_search_result *r);
/* tmin_adds: the t_min found (A0 starts there). */
int tl_search_tdiff(const struct tl_search_params *p, const struct tl_search_io *io,
		    uint64_t tmin_adds, struct tl_search_result *r);

const char *tl_search_method_name(enum tl_search_method m);
/* "interleaved" | "paper" */
const char *tl_tdiff_order_name(enum tl_tdiff_order o);
/* the name -> order; -1 when unknown */
int tl_tdiff_order_parse(const char *text);
/* "fast" | "paper" -> method; -1 when unknown. */
int tl_search_method_parse(const char *text);

/* Ratio reference / this of one metric in ns (the paper's "N x more
 * precise"), NAN unless both searches converged. */
double tl_search_ratio(const struct tl_search_result *ref, const struct tl_search_result *r);
/* The t_diff ratio also needs both t_min found: t_diff is measured from
 * A0 = t_min, and two t_diff from different starting points do not compare. */
double tl_search_ratio_tdiff(const struct tl_search_result *ref_tmin,
			     const struct tl_search_result *ref_tdiff,
			     const struct tl_search_result *tmin,
			     const struct tl_search_result *tdiff);
/* "7.1x more precise" / "2.0x less sensitive" (times: "x" or "\u00d7");
 * an empty string for a NAN ratio. */
void tl_search_ratio_text(char *buf, size_t len, double ratio, const char *what,
			  const char *times);

/* Where a t_min search's CV curve (its evaluated (K, CV) points, in any
 * order, repeated checks at one K allowed) first reaches eps: the answer
 * at a relaxed eps without new measurements. A K passes when every check
 * there had CV <= eps (Algorithm 1 accepts a point only when all its
 * checks pass). *adds interpolates 1/CV linearly in K between the last
 * failing K below the first pass (*lo) and that pass (*hi): exact when
 * the spread is constant and the time linear in K. No failing point below
 * the pass: *lo = 0 and *adds = K CV / eps at that pass (the mean is
 * about c K once t_e,std is filtered out). Returns 1 when the
 * curve reaches eps, else 0 (*adds, *lo, *hi NaN). */
int tl_search_cv_crossing(const double (*xy)[2], size_t n, double eps, double *adds, double *lo,
			  double *hi);

#endif
