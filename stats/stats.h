/* Statistics: pure functions over arrays. GSL inside; no I/O, no curses. */
#ifndef TL_STATS_STATS_H
#define TL_STATS_STATS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A long analysis gives up soon after *stop turns true (a signal's flag,
 * set by the caller's handler: stats/ only reads it). NULL: never. */
static inline bool stats_stop_asked(const atomic_bool *stop)
{
	return stop && atomic_load_explicit(stop, memory_order_relaxed);
}

struct tl_summary {
	size_t n;          /* samples kept */
	size_t os_removed; /* removed as OS noise */
	double min, p1, p5, p50, p95, p99, max, mean, sd, cv; /* sd with n-1; cv = sd/mean */
};

/* Quantile of sorted data, linear interpolation at (n-1)p (numpy's default). */
double stats_quantile_sorted(const double *sorted, size_t n, double p);

/* A normal sd from the interquartile range of sorted data (IQR / 1.349):
 * a scale the slow tail does not move. */
double stats_iqr_sd_sorted(const double *sorted, size_t n);
/* Summary of x (not modified). n == 0 gives NaNs. */
void stats_summary(const double *x, size_t n, struct tl_summary *s);
/* stats_summary that sorts x in place instead of a copy (the same numbers):
 * for a caller whose array's order is no longer needed. */
void stats_summary_sort(double *x, size_t n, struct tl_summary *s);

/* Turns GSL's default error handler (print and abort()) off, once, before
 * any statistics run: every GSL status is checked where it is returned, so
 * hostile input gives an error, never a SIGABRT. */
void stats_init(void);
/* filter_cost: x[i] -= te_std. */
void stats_filter_cost(double *x, size_t n, double te_std);
/* Median of x (not modified); NaN for n == 0. */
double stats_median(const double *x, size_t n);

/* The step of the lattice a clock's durations lie on (stats/lattice.c): the
 * largest period q that keeps the durations d (raw units, sign ignored,
 * zeros and the top 10 % left out) in phase, refined by least squares, so
 * rounding jitter around a 10 ns step gives ~10, not 1. Durations with no
 * lattice give the smallest gap between distinct values. NaN when fewer
 * than two distinct non-zero durations were seen (the step cannot be
 * measured). */
double stats_lattice_step(const double *d, size_t n);

/* --- Drift: does a cell's level move while it is measured? (stats/drift.c) --- */
#define TL_DRIFT_CHUNK 100     /* samples per chunk: the runner's default chunk */
#define TL_DRIFT_MIN_CHUNKS 4  /* fewer chunks say nothing */
struct tl_drift {
	size_t chunk, nchunks;  /* nchunks 0: too few samples, every number NaN */
	double median;          /* of the nchunks * chunk samples looked at */
	double lo, hi;          /* lowest and highest chunk median */
	double sd;              /* sd (n-1) of the chunk medians */
	double noise_sd;        /* what independent noise alone would give them: a
				 * chunk median's standard error, bootstrapped (seeded;
				 * the median over chunks of the resampled variances) */
	double rel_sd, noise_rel_sd; /* both over median; NaN when median <= 0 */
	bool drifts;            /* sd > 3 noise_sd and median > 0 */
};
/* x in time order, cut into consecutive chunks of `chunk` (a trailing part
 * chunk is left out). */
void stats_drift(const double *x, size_t n, size_t chunk, struct tl_drift *d);

/* --- A moving level in two readings (stats/level.c) --- */
/* a[i] and b[i] were measured together (alternately, in one pass): per
 * block of `block` pairs, the level both sides moved by is taken out of
 * both, shrunk by the share of its spread that noise explains; a level
 * whose blocks spread less than 4x what noise gives them is left alone.
 * step > 0: shifts are whole multiples of it (a clock's grid). *moved
 * (may be NULL) gets the sd of the shifts taken out, in the readings'
 * unit. n below two blocks: left as it is. */
void stats_level_align(double *a, double *b, size_t n, size_t block, double step, double *moved);
/* x[0..n) in time order, `period` sides interleaved (2: A0, A1, A0, ...),
 * cut into blocks of `block` readings (a trailing part shorter than half
 * a block joins the last one): bad[j] = 1 for each block holding a
 * reading more than `fence` robust sds (the interquartile range of all
 * readings less their block's and side's level, read through the clock's
 * `step`) above its own side's level in the block, and not over 100 of
 * them (a lone spike, which the OS-noise filter takes out). bad needs
 * stats_block_count(n, block) entries. Returns how many are bad; 0 and
 * bad untouched when n is under two blocks or a block under 4 periods. */
size_t stats_disturbed_blocks(const double *x, size_t n, size_t period, size_t block, double step,
			      double fence, unsigned char *bad);
size_t stats_block_count(size_t n, size_t block);
/* block j's readings are [*from, *to) */
void stats_block_range(size_t j, size_t n, size_t block, size_t *from, size_t *to);
/* CV of x (time order) in two parts: *within from the spread inside
 * consecutive chunks of `chunk`, *drift from the chunk means' spread
 * beyond what that noise gives them (0 when none). Fewer than two chunks:
 * *within is the whole CV and *drift NaN; a mean <= 0: both NaN. */
void stats_cv_split(const double *x, size_t n, size_t chunk, double *within, double *drift);

/* --- OS-noise filter --- */
/* TL_OS_CAUSE: the samples with a measured cause (bench/noise.h) are taken
 * out before the statistics, which then filter as TL_OS_NONE does. */
enum tl_os_method { TL_OS_IFOREST, TL_OS_IQR, TL_OS_NONE, TL_OS_CAUSE };

struct tl_os_result {
	enum tl_os_method method;
	bool active;          /* false: nothing could be removed; note says why */
	double beta;          /* chosen threshold (iforest; NaN for iqr/none) */
	double lowest_score;  /* lowest isolation-forest score seen (NaN for iqr/none) */
	size_t removed;
	/* What decided the kept set (the forest's own verdict is active/beta):
	 * "iforest", "iforest+levels" (the forest's cut, lattice levels kept),
	 * "fence" (forest inactive: the far-out fence instead), "fence+levels",
	 * "iqr" or "none". */
	char ran[16];
	size_t levels_kept;   /* samples on a lattice level that were kept back */
	char note[256];       /* e.g. "OS-noise filter inactive: lowest score -0.53 > -0.60" */
};

/* Isolation-forest parameters: scikit-learn's defaults, so its scores are a
 * reference to test against. */
#define TL_IFOREST_TREES 100
#define TL_IFOREST_MAX_SAMPLES 256
/* The filter keeps a sample when the beta searches of most of this many
 * forests (seeds seed * TL_IFOREST_FORESTS + 0, 1, ...) keep it. */
#define TL_IFOREST_FORESTS 8
/* ... or of this many, when the first forests leave at least
 * stats_level_min_count(n) samples undecided (kept by more than a quarter
 * and fewer than three quarters of them): a host burst's cluster of a few
 * hundred slow readings is cut by some forests and not others, and eight
 * votes then decided it differently from seed to seed (CV 0.45 % in one,
 * 1.03 % in the next five). The extra forests' seeds are
 * TL_IFOREST_EXTRA_SEED | (seed * TL_IFOREST_FORESTS_MAX + k), apart from
 * every other seed's first forests. */
#define TL_IFOREST_FORESTS_MAX 24
#define TL_IFOREST_EXTRA_SEED ((uint64_t)1 << 63)
/* beta grid: beta_k = TL_BETA_START - TL_BETA_STEP * k. */
#define TL_BETA_START (-0.60)
#define TL_BETA_STEP 0.01
/* Tolerance for every score-vs-beta comparison: a score within 1e-9 of a
 * grid value counts as reaching it (beta_k is not an exact decimal). */
#define TL_BETA_TOL 1e-9

/* c(n) = 2(ln(n-1) + gamma) - 2(n-1)/n, c(2) = 1, c(1) = c(0) = 0. */
double stats_iforest_c(double n);

/* x ascending, in place (stats/sort.c): gsl_sort's order, faster on many
 * equal values. */
void stats_sort(double *x, size_t n);
/* Isolation-forest scores in (-1, 0) like scikit-learn's score_samples.
 * features: nfeat arrays (1 or 2) of n values, no NaNs. Seeded,
 * reproducible. -1 on bad arguments or out of memory. */
int stats_iforest_scores(const double *const *features, size_t nfeat, size_t n, uint64_t seed,
			 double *scores);
/* stats_iforest_scores that looks at *stop between blocks of points (one
 * feature: a million continuous values take seconds under load) and
 * returns 1, scores unfinished, once it is set. */
int stats_iforest_scores_until(const double *const *features, size_t nfeat, size_t n,
			       uint64_t seed, const atomic_bool *stop, double *scores);
/* The paper's beta search over scores, M_k bounded by stats_far_bound;
 * returns the chosen beta or sets
 * *active = false when the grid is empty or no jump exceeds the mean. */
double stats_beta_search(const double *values, const double *scores, size_t n, bool *active);
/* The same, filling res (active, beta, lowest_score, removed, note). When
 * inactive, res->beta is the lowest score, so "score >= beta" keeps all. */
void stats_beta_search_ex(const double *values, const double *scores, size_t n,
			  struct tl_os_result *res);
/* The search with M_k counted only up to bound (INFINITY: the paper's rule
 * as printed). */
void stats_beta_search_bounded(const double *values, const double *scores, size_t n,
			       double bound, struct tl_os_result *res);
/* Where one sample alone would decide the CV: median + sqrt(n - 1) x
 * 1.4826 MAD (MAD 0: the nearest other value's distance). The beta search
 * counts a kept value only up to it, so no sample beyond it survives an
 * active search. INFINITY when out of memory. */
double stats_far_bound(const double *values, size_t n);

/* A fitted forest, to score any point (point[f], f < nfeat). */
struct tl_iforest;
struct tl_iforest *stats_iforest_fit(const double *const *features, size_t nfeat, size_t n,
				     uint64_t seed);
double stats_iforest_score(const struct tl_iforest *forest, const double *point);
void stats_iforest_free(struct tl_iforest *forest);
/* Marks keep[i] = 1 for points that survive the filter. */
int stats_filter_os(enum tl_os_method method, const double *const *features, size_t nfeat,
		    size_t n, uint64_t seed, unsigned char *keep, struct tl_os_result *res);
/* stats_filter_os that gives up (returns 1, keep and res unfinished) soon
 * after *stop is set: between the forests and inside each one's scores. */
int stats_filter_os_until(enum tl_os_method method, const double *const *features, size_t nfeat,
			  size_t n, uint64_t seed, const atomic_bool *stop, unsigned char *keep,
			  struct tl_os_result *res);
/* The iforest method's two guards, so the filter removes noise
 * and not the timer's lattice:
 *  - a level, a value that at least TL_LEVEL_SHARE of the samples (and at
 *    least TL_LEVEL_MIN of them) hold exactly and that lies inside the
 *    far-out fence below (the body's lattice, not spikes of one size), is
 *    never removed;
 *  - when the forest is inactive (empty grid, no jump), the far-out fence
 *    of --os-filter iqr, [Q1 - 3 IQR, Q3 + 3 IQR] with IQR never below the
 *    smallest gap, removes what lies beyond it instead, so a lone spike
 *    is never kept because the grid was empty. */
#define TL_LEVEL_SHARE 0.01
#define TL_LEVEL_MIN 5
/* Samples a value needs to be a level among n. */
size_t stats_level_min_count(size_t n);
/* Whether a face must show res->note beside the numbers: the filter was
 * inactive, or something other than the named method decided. */
bool stats_os_said(const struct tl_os_result *res);
/* "iforest" | "iqr" | "none" | "cause" -> method; -1 when unknown. */
int stats_os_method_parse(const char *text);
const char *stats_os_method_name(enum tl_os_method m);

/* filter_cost then filter_os then summary: what a cell shows.
 * kept (may be NULL) receives the surviving values, *nkept their count. */
struct tl_analysis {
	struct tl_summary summary;
	struct tl_os_result os;
	struct tl_drift drift; /* of the samples after filter_cost, before filter_os */
};
int stats_analyse(const double *ns, size_t n, double overhead_ns, enum tl_os_method method,
		  uint64_t seed, struct tl_analysis *a, double *kept, size_t *nkept);
/* stats_analyse without the drift (a->drift as for no samples): the same
 * summary and filter, for a reader that needs no drift (a fleet reading
 * raw fingerprints), where the drift's bootstrap costs more than all the
 * rest. */
int stats_analyse_nodrift(const double *ns, size_t n, double overhead_ns,
			  enum tl_os_method method, uint64_t seed, struct tl_analysis *a,
			  double *kept, size_t *nkept);
/* Either of the two (drift or not) that gives up soon after *stop is set
 * (between its steps, and inside the OS filter): returns 1 then, with a
 * as for no samples and *nkept 0, for a caller that is about to exit and
 * wants no half answer. The same numbers as the two when it runs out. */
int stats_analyse_until(const double *ns, size_t n, double overhead_ns, enum tl_os_method method,
			uint64_t seed, bool drift, const atomic_bool *stop, struct tl_analysis *a,
			double *kept, size_t *nkept);

/* --- Distributions --- */
struct tl_histogram {
	size_t nbins;
	double lo, width;   /* bin i covers [lo + i*width, lo + (i+1)*width) */
	double *counts;     /* nbins */
	size_t total, below, above;
};
/* Bins are whole multiples of resolution (>0) so quantized data shows no
 * empty comb bins; at most max_bins; range [lo, hi] (lo==hi: from the data). */
int stats_histogram(const double *x, size_t n, double resolution, size_t max_bins, double lo,
		    double hi, struct tl_histogram *h);
void stats_histogram_free(struct tl_histogram *h);
/* Share of sorted[] <= v. */
double stats_ecdf(const double *sorted, size_t n, double v);
/* Bisection over ascending values: the first index with sorted[i] >= v,
 * and the first with sorted[i] > v (n when none). */
size_t stats_first_at_least(const double *sorted, size_t n, double v);
size_t stats_first_above(const double *sorted, size_t n, double v);

/* Algorithm 2's overlap: share of a1 strictly below max(a0). */
double stats_overlap(const double *a0, size_t n0, const double *a1, size_t n1);

/* Least-squares y = intercept + slope x with R^2. */
int stats_fit_linear(const double *x, const double *y, size_t n, double *slope,
		     double *intercept, double *r2);

#endif
