#include "config.h"

#include "stats/levels.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* Squared deviations of y[a..b] from their mean. */
static double sse(const double *y, size_t a, size_t b)
{
	double m = gsl_stats_mean(y + a, 1, b - a + 1), s = 0;

	for (size_t i = a; i <= b; i++)
		s += (y[i] - m) * (y[i] - m);
	return s;
}

static double median_of(const double *ns, size_t a, size_t b)
{
	double v[STATS_LEVELS_MAX_POINTS];
	size_t n = b - a + 1;

	memcpy(v, ns + a, n * sizeof *v);
	gsl_sort(v, 1, n);
	return gsl_stats_median_from_sorted_data(v, 1, n);
}

/* The step into memory: the last rise that lands at memory's latency and
 * at least a step above every size before it. Everything past it is
 * memory, however its latency creeps up with the TLB and DRAM pages: that
 * creep is not a level, and neither is a dip and its recovery. The last,
 * not the largest: a guest's share of a busy L3 can read 59 ns at 2-4 MiB
 * before memory's 125 ns at 8 MiB, and the rise into that slow L3 (8.6x
 * from L2) is larger than the one into memory (2x). Returns n when there
 * is none. */
static size_t memory_start(const double *ns, size_t n)
{
	size_t at = n;
	double highest = 0;

	for (size_t i = 0; i + 1 < n; i++) {
		highest = ns[i] > highest ? ns[i] : highest;
		if (ns[i + 1] >= STATS_LEVELS_MEMORY_NS && ns[i + 1] >= STATS_LEVELS_MIN_STEP * highest)
			at = i + 1;
	}
	/* A chase that starts in memory (no cache at all) is memory throughout. */
	if (at == n && n && ns[0] >= STATS_LEVELS_MEMORY_NS)
		at = 0;
	return at;
}

/* Optimal partition of y[0..m) into at most kmax runs (least squares in log
 * latency plus a penalty per run); cut[j] is where run j starts. */
static size_t segment(const double *y, size_t m, size_t kmax, size_t *cut)
{
	double best[STATS_LEVELS_MAX_CACHES + 1][STATS_LEVELS_MAX_POINTS + 1];
	size_t from[STATS_LEVELS_MAX_CACHES + 1][STATS_LEVELS_MAX_POINTS + 1];
	size_t k_best = 1;
	double total = INFINITY;

	/* best[k][e]: runs k covering y[0..e). */
	for (size_t k = 0; k <= kmax; k++)
		for (size_t e = 0; e <= m; e++)
			best[k][e] = INFINITY;
	best[0][0] = 0;
	for (size_t k = 1; k <= kmax; k++)
		for (size_t e = k; e <= m; e++)
			for (size_t s = k - 1; s < e; s++) {
				double c = best[k - 1][s] + sse(y, s, e - 1);

				if (c < best[k][e]) {
					best[k][e] = c;
					from[k][e] = s;
				}
			}
	for (size_t k = 1; k <= kmax && k <= m; k++)
		if (best[k][m] + STATS_LEVELS_PENALTY * (double)k < total) {
			total = best[k][m] + STATS_LEVELS_PENALTY * (double)k;
			k_best = k;
		}
	for (size_t k = k_best, e = m; k > 0; k--) {
		cut[k - 1] = from[k][e];
		e = from[k][e];
	}
	return k_best;
}

static void fill(struct stats_level *l, const double *x, const double *ns, size_t a, size_t b,
		 size_t n)
{
	l->first = a;
	l->last = b;
	l->ns = median_of(ns, a, b);
	l->lo_bytes = x[b];
	l->hi_bytes = b + 1 < n ? x[b + 1] : 0;
}

int stats_levels_find(const double *bytes, const double *ns, size_t n, size_t max_caches,
		      struct stats_levels *out)
{
	double x[STATS_LEVELS_MAX_POINTS], v[STATS_LEVELS_MAX_POINTS], y[STATS_LEVELS_MAX_POINTS];
	size_t m = 0, mem, cut[STATS_LEVELS_MAX_CACHES];

	memset(out, 0, sizeof *out);
	if (n > STATS_LEVELS_MAX_POINTS)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!(ns[i] > 0) || !isfinite(ns[i]) || !(bytes[i] > 0))
			continue;
		if (m && bytes[i] <= x[m - 1])
			return -1;
		x[m] = bytes[i];
		v[m] = ns[i];
		y[m] = log(ns[i]);
		m++;
	}
	if (m < 2)
		return -1;
	if (max_caches == 0 || max_caches > STATS_LEVELS_MAX_CACHES)
		max_caches = STATS_LEVELS_MAX_CACHES;
	mem = memory_start(v, m);
	if (mem < m) {
		out->memory_seen = true;
		fill(&out->memory, x, v, mem, m - 1, m);
		out->memory.lo_bytes = x[mem];
		out->memory.hi_bytes = x[m - 1];
	}
	if (mem == 0)
		return 0;
	out->ncaches = segment(y, mem, max_caches < mem ? max_caches : mem, cut);
	for (size_t j = 0; j < out->ncaches; j++)
		fill(&out->cache[j], x, v, cut[j], j + 1 < out->ncaches ? cut[j + 1] - 1 : mem - 1, m);
	return 0;
}

/* The geometric middle of a level's boundary: where a reported size is
 * compared. */
static double boundary_mid(const struct stats_level *l)
{
	return l->hi_bytes > 0 ? sqrt(l->lo_bytes * l->hi_bytes) : l->lo_bytes;
}

static double mismatch(const struct stats_levels *lv, const double *rep, unsigned mask,
		       size_t nrep, int *match)
{
	double d = 0;
	size_t j = 0;

	for (size_t r = 0; r < nrep; r++) {
		match[r] = -1;
		if (!(mask & (1u << r)))
			continue;
		match[r] = (int)j;
		d += fabs(log(rep[r] / boundary_mid(&lv->cache[j++])));
	}
	return d;
}

static unsigned popcount(unsigned v)
{
	unsigned c = 0;

	for (; v; v &= v - 1)
		c++;
	return c;
}

void stats_levels_match(const struct stats_levels *lv, const double *reported, size_t nrep,
			int *match)
{
	size_t take = lv->ncaches < nrep ? lv->ncaches : nrep;
	unsigned best_mask = 0;
	double best = INFINITY;

	/* Which reported levels the measured ones are: every order-keeping
	 * choice of `take` of them (nrep <= 3 or 4: a handful). */
	for (unsigned mask = 0; mask < (1u << nrep); mask++) {
		double d;

		if (popcount(mask) != take)
			continue;
		d = mismatch(lv, reported, mask, nrep, match);
		if (d < best) {
			best = d;
			best_mask = mask;
		}
	}
	(void)mismatch(lv, reported, best_mask, nrep, match);
}

bool stats_levels_agree(const struct stats_level *l, double reported)
{
	return reported >= l->lo_bytes / 2 && (l->hi_bytes <= 0 || reported <= 2 * l->hi_bytes);
}
