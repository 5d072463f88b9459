#include "config.h"

#include "stats/kernels.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "stats/stats.h"

int stats_chain_fit(const double *k, const double *ns, size_t n, double ns_per_add,
		    struct tl_chain_fit *f)
{
	size_t used = 0;

	memset(f, 0, sizeof *f);
	f->n = n;
	f->intercept = f->r2 = f->cycles = NAN;
	for (size_t i = 0; i < n; i++)
		used += k[i] > 0;
	if (used == 0)
		return -1;
	if (n == 1) {
		f->ns_per_op = ns[0] / k[0];
	} else if (stats_fit_linear(k, ns, n, &f->ns_per_op, &f->intercept, &f->r2) < 0) {
		return -1;
	}
	/* Two points always lie on a line: R^2 says something from three on. */
	if (n < 3)
		f->r2 = NAN;
	if (isfinite(ns_per_add) && ns_per_add > 0)
		f->cycles = f->ns_per_op / ns_per_add;
	f->linear = isnan(f->r2) || f->r2 >= TL_CHAIN_MIN_R2;
	f->plausible = isnan(f->cycles) ||
		       (f->cycles >= TL_CHAIN_MIN_CYCLES && f->cycles <= TL_CHAIN_MAX_CYCLES);
	return 0;
}

int stats_ladder_level(double bytes, const double *ends, size_t nends)
{
	for (size_t j = 0; j < nends; j++)
		if (bytes <= ends[j])
			return (int)j;
	return (int)nends;
}

/* Sum of squares of y[a..b) around its mean, from prefix sums. */
static double sse(const double *s1, const double *s2, size_t a, size_t b)
{
	double m = (double)(b - a), sum = s1[b] - s1[a];
	double v = s2[b] - s2[a] - sum * sum / m;
	return v > 0 ? v : 0;
}

/* The steps placed together: cut[0] < cut[1] < ... each within the points
 * of the two levels it separates (after lo[s], before hi[s]), at the least
 * squares of the piecewise-constant fit around each run's mean. Placed one
 * at a time, two neighbouring steps could both take the one big jump and
 * name it twice, once beside the wrong cache's end. Ties go to lower cuts.
 * At most TL_LADDER_LEVELS - 1 steps over 64 points: a full search. */
struct step_search {
	const double *s1, *s2;
	size_t n, nsteps;
	const size_t *lo, *hi;
	size_t at[TL_LADDER_LEVELS - 1], best_at[TL_LADDER_LEVELS - 1];
	double best;
};

static void place_steps(struct step_search *q, size_t s, size_t from, double acc)
{
	if (s == q->nsteps) {
		acc += sse(q->s1, q->s2, from, q->n);
		if (acc < q->best - 1e-12) {
			q->best = acc;
			memcpy(q->best_at, q->at, sizeof q->at);
		}
		return;
	}
	for (size_t c = q->lo[s] + 1 > from + 1 ? q->lo[s] + 1 : from + 1; c < q->hi[s]; c++) {
		q->at[s] = c;
		place_steps(q, s + 1, c, acc + sse(q->s1, q->s2, from, c));
	}
}

static void fit_steps(const double *y, struct tl_ladder_fit *f)
{
	double s1[TL_LADDER_MAX_POINTS + 1] = { 0 }, s2[TL_LADDER_MAX_POINTS + 1] = { 0 };
	size_t lo[TL_LADDER_LEVELS - 1], hi[TL_LADDER_LEVELS - 1];
	struct step_search q = { s1, s2, f->n, f->nsteps, lo, hi, { 0 }, { 0 }, INFINITY };

	for (size_t i = 0; i < f->n; i++) {
		s1[i + 1] = s1[i] + y[i];
		s2[i + 1] = s2[i] + y[i] * y[i];
	}
	for (size_t s = 0; s < f->nsteps; s++) {
		lo[s] = s ? f->topo_cut[s - 1] : 0;
		hi[s] = s + 1 < f->nsteps ? f->topo_cut[s + 1] : f->n;
		q.best_at[s] = f->topo_cut[s]; /* always a valid placement */
	}
	place_steps(&q, 0, 0, 0.0);
	for (size_t s = 0; s < f->nsteps; s++) {
		size_t c = q.best_at[s], a = s ? q.best_at[s - 1] : 0;
		size_t b = s + 1 < f->nsteps ? q.best_at[s + 1] : f->n;
		f->cut[s] = c;
		f->step_ratio[s] = exp(gsl_stats_mean(y + c, 1, b - c) - gsl_stats_mean(y + a, 1, c - a));
	}
}

static double r2_of(double sse_fit, double sst)
{
	return sst > 0 ? 1.0 - sse_fit / sst : 1.0;
}

int stats_ladder_fit(const double *bytes, const double *ns, size_t n, const double *ends,
		     size_t nends, struct tl_ladder_fit *f)
{
	double y[TL_LADDER_MAX_POINTS], sum[TL_LADDER_LEVELS] = { 0 }, sst = 0, within = 0, ym;
	double prev = NAN;

	memset(f, 0, sizeof *f);
	if (n == 0 || n > TL_LADDER_MAX_POINTS || nends >= TL_LADDER_LEVELS)
		return -1;
	f->n = n;
	f->worse_level = -1;
	/* Latency spans 1 ns to hundreds: each level's step is a ratio, so the
	 * fit runs on log latency, where an L1-to-L2 step weighs as much as
	 * the step to memory. */
	for (size_t i = 0; i < n; i++) {
		if (i && !(bytes[i] > bytes[i - 1]))
			return -1;
		y[i] = log(ns[i] > 1e-3 ? ns[i] : 1e-3);
		f->level[i] = stats_ladder_level(bytes[i], ends, nends);
		f->count[f->level[i]]++;
		sum[f->level[i]] += y[i];
	}
	ym = gsl_stats_mean(y, 1, n);
	for (size_t i = 0; i < n; i++) {
		double d = y[i] - sum[f->level[i]] / (double)f->count[f->level[i]];
		sst += (y[i] - ym) * (y[i] - ym);
		within += d * d;
	}
	f->r2 = r2_of(within, sst);
	f->flat = f->r2 >= TL_LADDER_MIN_R2;
	f->monotone = true;
	for (int j = 0; j < TL_LADDER_LEVELS; j++) {
		f->mean_ns[j] = f->count[j] ? exp(sum[j] / (double)f->count[j]) : NAN;
		if (!f->count[j])
			continue;
		if (f->nlevels && f->mean_ns[j] < prev * (1 - TL_LADDER_MONOTONE_TOL) &&
		    f->monotone) {
			f->monotone = false;
			f->worse_level = j;
		}
		prev = f->mean_ns[j];
		f->nlevels++;
	}
	f->nsteps = f->nlevels - 1;
	for (size_t i = 1, s = 0; i < n; i++)
		if (f->level[i] != f->level[i - 1])
			f->topo_cut[s++] = i;
	fit_steps(y, f);
	return 0;
}
