/* filter_os (paper section 5.4.2): the isolation-forest score threshold beta
 * found by the paper's search, the alternative Tukey-fence filter, and
 * stats_analyse, which turns raw ns samples into what a cell shows. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "base/xalloc.h"
#include "stats/stats.h"

/* Scores lie in (-1, 0), so the grid from -0.60 down has at most 41 steps. */
#define MAX_GRID 64
/* Fence multiplier of the iqr method: Tukey's "far out" fence. */
#define IQR_FENCE 3.0

static void os_reset(struct tl_os_result *res, enum tl_os_method m)
{
	res->method = m;
	res->active = false;
	res->beta = NAN;
	res->lowest_score = NAN;
	res->removed = 0;
	res->levels_kept = 0;
	snprintf(res->ran, sizeof(res->ran), "%s", stats_os_method_name(m));
	res->note[0] = '\0';
}

static double grid_beta(int k)
{
	/* By multiplication, never by repeated subtraction, so beta_40 is as
	 * close to -1.00 as beta_1 is to -0.61. */
	return TL_BETA_START - TL_BETA_STEP * (double)k;
}

static void note_inactive_grid(struct tl_os_result *res)
{
	if (res->lowest_score > TL_BETA_START + TL_BETA_TOL)
		/* Two decimals like the grid, unless that would print "-0.60 > -0.60". */
		snprintf(res->note, sizeof(res->note),
			 "OS-noise filter inactive: lowest score %.*f > %.2f",
			 res->lowest_score > TL_BETA_START + 0.005 ? 2 : 4, res->lowest_score,
			 TL_BETA_START);
	else
		snprintf(res->note, sizeof(res->note),
			 "OS-noise filter inactive: lowest score %.4f leaves one threshold "
			 "(%.2f); the search needs two",
			 res->lowest_score, TL_BETA_START);
}

/* The paper's search, with these conventions where the paper is silent
 * (tests/reference/check_run.py holds the same ones, so both agree):
 *  - grid beta_k = -0.60 - 0.01 k for k = 0, 1, ... while beta_k >= lowest
 *    score; a point is kept at beta when score >= beta (both comparisons
 *    with TL_BETA_TOL of slack); a beta that keeps no point is left out;
 *  - M_k = largest kept value (values[], the ns feature); d_k = M_{k+1} - M_k;
 *  - the chosen beta is beta_k for the first k with d_k > mean(d): the last
 *    threshold before the jump that lets the OS-noise points in (that jump
 *    is exceeded by a relative 1e-9 so equal steps never count as a jump);
 *  - M_k counts a value only up to stats_far_bound: the mean of the d_k is
 *    (M_last - M_0) / (nb - 1), so in the paper's rule one 13 ms preemption
 *    made every smaller spike's jump "below the mean" and let spikes of
 *    tens of us (or ms) through. Capped, a spike beyond the bound always
 *    makes the first jump above the mean when it joins (the jumps before it
 *    sum to at most the capped range), so it is never kept;
 *  - fewer than two betas, or no d_k above the mean: keep every point and
 *    say the filter was inactive. */
void stats_beta_search_bounded(const double *values, const double *scores, size_t n,
			       double bound, struct tl_os_result *res)
{
	os_reset(res, TL_OS_IFOREST);
	if (n == 0) {
		snprintf(res->note, sizeof(res->note), "OS-noise filter inactive: no samples");
		return;
	}
	/* Each point joins at the first grid step whose threshold it passes and
	 * stays in from there (the grid falls), so per step the count and the
	 * largest value of the points joining there, summed and maxed along
	 * the grid, give each step's kept count and M_k in one pass, without
	 * sorting n indexes (8 B per sample). */
	double lowest = INFINITY;
	for (size_t i = 0; i < n; i++)
		if (scores[i] < lowest)
			lowest = scores[i];
	res->lowest_score = lowest;
	res->beta = lowest;

	int ng = 0;
	while (ng < MAX_GRID && grid_beta(ng) >= lowest - TL_BETA_TOL)
		ng++;
	double join_top[MAX_GRID];
	size_t join_n[MAX_GRID];
	for (int k = 0; k < ng; k++) {
		join_top[k] = -INFINITY;
		join_n[k] = 0;
	}
	for (size_t i = 0; i < n; i++) {
		/* A guess from the grid's formula, then the comparison the grid
		 * itself makes decides, so rounding cannot move a point. */
		double guess = ceil((TL_BETA_START - TL_BETA_TOL - scores[i]) / TL_BETA_STEP);
		int k = !(guess > 0) ? 0 : guess > ng ? ng : (int)guess;
		while (k > 0 && scores[i] >= grid_beta(k - 1) - TL_BETA_TOL)
			k--;
		while (k < ng && !(scores[i] >= grid_beta(k) - TL_BETA_TOL))
			k++;
		if (k == ng)
			continue;
		join_n[k]++;
		if (values[i] > join_top[k])
			join_top[k] = values[i];
	}

	double beta[MAX_GRID], top[MAX_GRID];
	int nb = 0;
	size_t kept = 0;
	double cur = -INFINITY;
	for (int k = 0; k < ng; k++) {
		kept += join_n[k];
		if (join_top[k] > cur)
			cur = join_top[k];
		if (kept == 0)
			continue;
		beta[nb] = grid_beta(k);
		top[nb] = cur < bound ? cur : bound;
		nb++;
	}
	if (nb < 2) {
		note_inactive_grid(res);
		return;
	}
	double mean = (top[nb - 1] - top[0]) / (double)(nb - 1); /* mean of the d_k */
	double vtol = 1e-9 * (1.0 + fabs(top[0]) + fabs(top[nb - 1]));
	int pick = -1;
	for (int j = 0; j + 1 < nb; j++) {
		if (top[j + 1] - top[j] > mean + vtol) {
			pick = j;
			break;
		}
	}
	if (pick < 0) {
		snprintf(res->note, sizeof(res->note),
			 "OS-noise filter inactive: no jump above the mean over %d thresholds "
			 "(lowest score %.2f)",
			 nb, lowest);
		return;
	}
	res->active = true;
	res->beta = beta[pick];
	for (size_t i = 0; i < n; i++)
		res->removed += scores[i] < res->beta - TL_BETA_TOL;
	snprintf(res->note, sizeof(res->note),
		 "iforest: beta %.2f removed %zu of %zu (lowest score %.2f)", res->beta,
		 res->removed, n, lowest);
}

/* One sample at distance D from the mean adds D^2 / (n - 1) to the
 * variance, as much as the whole body's sigma^2 once D = sqrt(n - 1) sigma:
 * beyond that a single sample decides the CV. sigma is 1.4826 MAD (the
 * normal body's sd, robust to the spikes themselves); when more than half
 * the samples share the median (a coarse timer) MAD is 0 and the nearest
 * other value's distance stands in. work: n doubles of scratch. */
static double far_bound(const double *values, size_t n, double *work)
{
	memcpy(work, values, n * sizeof(*work));
	double med = gsl_stats_median(work, 1, n), near = INFINITY;

	for (size_t i = 0; i < n; i++) {
		work[i] = fabs(values[i] - med);
		if (work[i] > 0.0 && work[i] < near)
			near = work[i];
	}
	double mad = gsl_stats_median(work, 1, n);
	if (mad == 0.0)
		mad = isfinite(near) ? near : 0.0;
	return med + sqrt((double)(n > 1 ? n - 1 : 1)) * 1.4826 * mad;
}

double stats_far_bound(const double *values, size_t n)
{
	double *work = n ? malloc(n * sizeof(*work)) : NULL;
	if (!work)
		return INFINITY;
	double b = far_bound(values, n, work);
	free(work);
	return b;
}

void stats_beta_search_ex(const double *values, const double *scores, size_t n,
			  struct tl_os_result *res)
{
	stats_beta_search_bounded(values, scores, n, stats_far_bound(values, n), res);
}

double stats_beta_search(const double *values, const double *scores, size_t n, bool *active)
{
	struct tl_os_result res;
	stats_beta_search_ex(values, scores, n, &res);
	if (active)
		*active = res.active;
	return res.beta;
}

size_t stats_level_min_count(size_t n)
{
	size_t k = (size_t)ceil(TL_LEVEL_SHARE * (double)n);

	return k < TL_LEVEL_MIN ? TL_LEVEL_MIN : k;
}

bool stats_os_said(const struct tl_os_result *res)
{
	if (res->method == TL_OS_NONE || !res->note[0])
		return false;
	return !res->active || strcmp(res->ran, stats_os_method_name(res->method)) != 0;
}

/* Tukey's far-out fence [Q1 - 3 IQR, Q3 + 3 IQR] of sorted v. On a coarse
 * timer most samples can share one value, so IQR can be 0 and the fence
 * would cut every other step: the IQR used is never below the smallest gap
 * between distinct values (the timer's visible step). */
static void fence_of(const double *v, size_t n, double *lo, double *hi)
{
	double q1 = stats_quantile_sorted(v, n, 0.25), q3 = stats_quantile_sorted(v, n, 0.75);
	double step = 0.0;

	for (size_t i = 1; i < n; i++) {
		double g = v[i] - v[i - 1];
		if (g > 0.0 && (step == 0.0 || g < step))
			step = g;
	}
	double iqr = q3 - q1 > step ? q3 - q1 : step;
	*lo = q1 - IQR_FENCE * iqr;
	*hi = q3 + IQR_FENCE * iqr;
}

/* The lattice levels of x: its values held by at least
 * stats_level_min_count(n) samples and inside the far-out fence (the
 * body's lattice; a simulator's spikes of one fixed size are not one),
 * ascending, in a new array (*nlev of them; at most n / TL_LEVEL_MIN).
 * Exact equality: a timer's tick count converted by one rate gives the
 * same double every time. */
static double *lattice_levels(const double *x, size_t n, size_t *nlev)
{
	double *v = tl_xmalloc(n * sizeof(*v)), lo, hi;
	size_t need = stats_level_min_count(n), m = 0;

	memcpy(v, x, n * sizeof(*v));
	stats_sort(v, n);
	fence_of(v, n, &lo, &hi);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && v[j] == v[i]; j++)
			;
		if (j - i >= need && v[i] >= lo && v[i] <= hi)
			v[m++] = v[i];
	}
	*nlev = m;
	return v;
}

static bool on_level(const double *lev, size_t nlev, double x)
{
	size_t lo = stats_first_at_least(lev, nlev, x);

	return lo < nlev && lev[lo] == x;
}

/* Puts back every removed sample whose value is a lattice level; returns
 * how many. */
static size_t keep_levels(const double *x, size_t n, unsigned char *keep)
{
	size_t nlev, back = 0;
	double *lev = lattice_levels(x, n, &nlev);

	for (size_t i = 0; nlev && i < n; i++)
		if (!keep[i] && on_level(lev, nlev, x[i])) {
			keep[i] = 1;
			back++;
		}
	free(lev);
	return back;
}

/* fence_of per feature, a point kept when inside on every feature (keep[]
 * is only cleared here). *flo, *fhi: the fence of feature 0. */
static void far_out_fence(const double *const *features, size_t nfeat, size_t n,
			  unsigned char *keep, double *flo, double *fhi)
{
	double *v = tl_xmalloc(n * sizeof(*v));

	for (size_t f = 0; f < nfeat; f++) {
		memcpy(v, features[f], n * sizeof(*v));
		stats_sort(v, n);
		double lo, hi;
		fence_of(v, n, &lo, &hi);
		if (f == 0) {
			*flo = lo;
			*fhi = hi;
		}
		for (size_t i = 0; i < n; i++)
			if (features[f][i] < lo || features[f][i] > hi)
				keep[i] = 0;
	}
	free(v);
}

static size_t count_removed(const unsigned char *keep, size_t n)
{
	size_t r = 0;

	for (size_t i = 0; i < n; i++)
		r += !keep[i];
	return r;
}

/* The forest inactive: its note (why) stays first, then what ran instead. */
static void fence_fallback(const double *const *features, size_t nfeat, size_t n,
			   unsigned char *keep, struct tl_os_result *res)
{
	double lo, hi;
	char why[sizeof(res->note)];

	memset(keep, 1, n);
	far_out_fence(features, nfeat, n, keep, &lo, &hi);
	res->levels_kept = keep_levels(features[0], n, keep);
	res->removed = count_removed(keep, n);
	snprintf(res->ran, sizeof(res->ran), "%s", res->levels_kept ? "fence+levels" : "fence");
	snprintf(why, sizeof(why), "%s", res->note);
	snprintf(res->note, sizeof(res->note), "%.120s; fence [%.6g, %.6g] removed %zu of %zu%s", why,
		 lo, hi, res->removed, n, res->levels_kept ? " (lattice levels kept)" : "");
}

/* One forest's verdict as a vote: the paper's cut, or the far-out fence
 * (fence[]) when its search is inactive. */
static void vote_forest(const double *scores, size_t n, const struct tl_os_result *one,
			const unsigned char *fence, unsigned char *votes)
{
	for (size_t i = 0; i < n; i++)
		votes[i] += one->active ? scores[i] >= one->beta - TL_BETA_TOL : fence[i];
}

TL_PRINTF(2, 3) static void note_append(struct tl_os_result *res, const char *fmt, ...)
{
	size_t len = strlen(res->note);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->note + len, sizeof(res->note) - len, fmt, ap);
	va_end(ap);
}

/* Forest f of the filter seeded seed: the first ones as they always were,
 * the extra ones apart from any seed's first. */
static uint64_t forest_seed(uint64_t seed, int f)
{
	if (f < TL_IFOREST_FORESTS)
		return seed * TL_IFOREST_FORESTS + (uint64_t)f;
	return TL_IFOREST_EXTRA_SEED | (seed * TL_IFOREST_FORESTS_MAX + (uint64_t)f);
}

/* Samples that more than a quarter and fewer than three quarters of the
 * nforests forests so far kept. */
static size_t undecided(const unsigned char *votes, size_t n, int nforests)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += 4 * votes[i] > nforests && 4 * votes[i] < 3 * nforests;
	return k;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* The paper's forest and beta search, TL_IFOREST_FORESTS times (seeds
 * seed * TL_IFOREST_FORESTS + 0, 1, ...), a sample kept when most of them
 * keep it; then the lattice levels are put back. One forest's cut is a step
 * function of scores that move about a grid step from seed to seed, so on a
 * gradual tail one seed cut at 180 ns and the next at 340 ns; the majority
 * cut moves far less, and the levels are judged once, on its kept set. */
static int filter_iforest(const double *const *features, size_t nfeat, size_t n, uint64_t seed,
			  const atomic_bool *stop, unsigned char *keep, struct tl_os_result *res)
{
	double *scores = NULL, betas[TL_IFOREST_FORESTS_MAX];
	unsigned char *votes = NULL, *fence = malloc(n);
	double lo, hi, lowest = INFINITY;
	int nactive = 0;
	struct tl_os_result one;

	if (!fence)
		goto oom;
	/* The fence's sorted copy is freed before scores exists, and the bound
	 * is found in scores' memory: no third array of n at the peak. */
	memset(fence, 1, n);
	far_out_fence(features, nfeat, n, fence, &lo, &hi);
	scores = malloc(n * sizeof(*scores));
	votes = calloc(n, 1);
	if (!scores || !votes)
		goto oom;
	double bound = far_bound(features[0], n, scores);
	int nforests = TL_IFOREST_FORESTS;
	for (int f = 0; f < nforests; f++) {
		int rc = stats_iforest_scores_until(features, nfeat, n, forest_seed(seed, f), stop,
						    scores);

		if (rc < 0)
			goto oom;
		if (rc > 0) {
			free(scores);
			free(votes);
			free(fence);
			snprintf(res->note, sizeof(res->note), "OS-noise filter stopped");
			return 1;
		}
		stats_beta_search_bounded(features[0], scores, n, bound, &one);
		if (one.lowest_score < lowest)
			lowest = one.lowest_score;
		if (one.active)
			betas[nactive++] = one.beta;
		vote_forest(scores, n, &one, fence, votes);
		if (f + 1 == TL_IFOREST_FORESTS && undecided(votes, n, f + 1) >= stats_level_min_count(n))
			nforests = TL_IFOREST_FORESTS_MAX;
	}
	free(scores);
	free(fence);
	/* Inactive forests vote with the fence, so the kept set moves by one
	 * forest's worth when one more finds a jump, not from the vote to the
	 * fence at once; only when none does is the fence all there is. */
	if (nactive == 0) {
		/* No forest found a jump: the last one's note says why. */
		free(votes);
		*res = one;
		res->lowest_score = lowest;
		fence_fallback(features, nfeat, n, keep, res);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		keep[i] = 2 * votes[i] > nforests;
	free(votes);
	qsort(betas, (size_t)nactive, sizeof(betas[0]), cmp_double);
	res->active = true;
	res->beta = betas[nactive / 2];
	res->lowest_score = lowest;
	res->levels_kept = keep_levels(features[0], n, keep);
	res->removed = count_removed(keep, n);
	snprintf(res->ran, sizeof(res->ran), "%s", res->levels_kept ? "iforest+levels" : "iforest");
	/* beta: the median of the forests that found a jump. */
	/* Short: a pane a third of 200 columns wide gives the note one line. */
	snprintf(res->note, sizeof(res->note), "iforest: beta %.2f removed %zu of %zu (lowest score %.2f",
		 res->beta, res->removed, n, lowest);
	if (nactive < nforests)
		note_append(res, "; %d of %d forests", nactive, nforests);
	else if (nforests > TL_IFOREST_FORESTS)
		note_append(res, "; %d forests", nforests);
	note_append(res, ")");
	if (res->levels_kept)
		note_append(res, "; %zu more on lattice levels (values >= %zu samples hold) kept",
			    res->levels_kept, stats_level_min_count(n));
	return 0;
oom:
	free(scores);
	free(votes);
	free(fence);
	snprintf(res->note, sizeof(res->note), "OS-noise filter failed: out of memory");
	return -1;
}

static int filter_iqr(const double *const *features, size_t nfeat, size_t n,
		      unsigned char *keep, struct tl_os_result *res)
{
	double flo, fhi;

	memset(keep, 1, n);
	far_out_fence(features, nfeat, n, keep, &flo, &fhi);
	res->removed = count_removed(keep, n);
	res->active = true;
	snprintf(res->note, sizeof(res->note),
		 "iqr: kept [%.6g, %.6g] (Q1 - 3 IQR, Q3 + 3 IQR), removed %zu of %zu", flo, fhi,
		 res->removed, n);
	return 0;
}

int stats_filter_os(enum tl_os_method method, const double *const *features, size_t nfeat,
		    size_t n, uint64_t seed, unsigned char *keep, struct tl_os_result *res)
{
	return stats_filter_os_until(method, features, nfeat, n, seed, NULL, keep, res);
}

int stats_filter_os_until(enum tl_os_method method, const double *const *features, size_t nfeat,
			  size_t n, uint64_t seed, const atomic_bool *stop, unsigned char *keep,
			  struct tl_os_result *res)
{
	os_reset(res, method);
	if (nfeat < 1 || nfeat > 2) {
		snprintf(res->note, sizeof(res->note),
			 "OS-noise filter: %zu features given, 1 or 2 accepted", nfeat);
		return -1;
	}
	if (n == 0) {
		snprintf(res->note, sizeof(res->note), "OS-noise filter inactive: no samples");
		return 0;
	}
	switch (method) {
	case TL_OS_IFOREST:
		return filter_iforest(features, nfeat, n, seed, stop, keep, res);
	case TL_OS_IQR:
		return filter_iqr(features, nfeat, n, keep, res);
	case TL_OS_NONE:
	case TL_OS_CAUSE: /* its samples were taken out before (bench/analysis.c) */
		memset(keep, 1, n);
		snprintf(res->note, sizeof(res->note), "OS-noise filter off (none)");
		return 0;
	}
	snprintf(res->note, sizeof(res->note), "OS-noise filter: unknown method %d", (int)method);
	return -1;
}

static const char *const method_names[] = {
	[TL_OS_IFOREST] = "iforest",
	[TL_OS_IQR] = "iqr",
	[TL_OS_NONE] = "none",
	[TL_OS_CAUSE] = "cause",
};

int stats_os_method_parse(const char *text)
{
	if (!text)
		return -1;
	for (size_t m = 0; m < sizeof(method_names) / sizeof(method_names[0]); m++)
		if (strcmp(text, method_names[m]) == 0)
			return (int)m;
	return -1;
}

const char *stats_os_method_name(enum tl_os_method m)
{
	if ((unsigned)m < sizeof(method_names) / sizeof(method_names[0]))
		return method_names[m];
	return "unknown";
}

/* a as for no samples: what a failed or stopped analysis leaves. */
static void analysis_none(struct tl_analysis *a, enum tl_os_method method)
{
	os_reset(&a->os, method);
	stats_summary(NULL, 0, &a->summary);
	stats_drift(NULL, 0, TL_DRIFT_CHUNK, &a->drift);
}

static int analyse(const double *ns, size_t n, double overhead_ns, enum tl_os_method method,
		   uint64_t seed, struct tl_analysis *a, double *kept, size_t *nkept, bool drift,
		   const atomic_bool *stop)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));
	unsigned char *keep = malloc(n ? n : 1);
	int rc = -1;
	if (nkept)
		*nkept = 0;
	if (!v || !keep)
		goto fail;
	memcpy(v, ns, n * sizeof(*v));
	stats_filter_cost(v, n, overhead_ns);
	/* Before filter_os: the chunks must stay whole runs of consecutive samples. */
	if (drift)
		stats_drift(v, n, TL_DRIFT_CHUNK, &a->drift);
	else
		stats_drift(NULL, 0, TL_DRIFT_CHUNK, &a->drift);
	if (stats_stop_asked(stop)) {
		rc = 1;
		goto fail;
	}
	const double *feat[1] = { v };
	rc = stats_filter_os_until(method, feat, 1, n, seed, stop, keep, &a->os);
	if (rc > 0)
		goto fail;
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (rc < 0 || keep[i])
			v[m++] = v[i];
	/* kept wants sample order; the summary then sorts v itself, not a copy. */
	if (kept)
		memcpy(kept, v, m * sizeof(*v));
	stats_summary_sort(v, m, &a->summary);
	a->summary.os_removed = n - m;
	if (nkept)
		*nkept = m;
	free(v);
	free(keep);
	return rc;
fail:
	free(v);
	free(keep);
	analysis_none(a, method);
	return rc;
}

int stats_analyse(const double *ns, size_t n, double overhead_ns, enum tl_os_method method,
		  uint64_t seed, struct tl_analysis *a, double *kept, size_t *nkept)
{
	return analyse(ns, n, overhead_ns, method, seed, a, kept, nkept, true, NULL);
}

int stats_analyse_nodrift(const double *ns, size_t n, double overhead_ns,
			  enum tl_os_method method, uint64_t seed, struct tl_analysis *a,
			  double *kept, size_t *nkept)
{
	return analyse(ns, n, overhead_ns, method, seed, a, kept, nkept, false, NULL);
}

int stats_analyse_until(const double *ns, size_t n, double overhead_ns, enum tl_os_method method,
			uint64_t seed, bool drift, const atomic_bool *stop, struct tl_analysis *a,
			double *kept, size_t *nkept)
{
	return analyse(ns, n, overhead_ns, method, seed, a, kept, nkept, drift, stop);
}
