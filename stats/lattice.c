/* The step of a clock, from durations it reported: a backend's resolution
 * is what its readings show, not what its documentation claims.
 *
 * A clock that advances q at a time reports durations on the lattice
 * {k q}. The smallest gap between two distinct durations is not q when the
 * readings are converted and rounded: kvm-clock's nanoseconds come from a
 * 10 ns TSC step rounded to whole ns, so durations cluster at 20/21,
 * 29/30/31, 40/41 and the smallest gap says 1 ns. The lattice is found
 * instead as the largest period that the durations keep in phase: for a
 * candidate q, |mean of exp(2 pi i d/q)| is 1 on an exact lattice, close to
 * it with rounding jitter, and falls for q/2 (the jitter's phase doubles)
 * and for 2q (odd multiples cancel even ones). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>

#include "base/xalloc.h"
#include "stats/stats.h"

/* Candidate periods are spaced by this factor: fine enough that the peak
 * of durations up to ~100 steps long falls between two candidates. */
#define LATTICE_GRID 1.001
/* The longest durations (interrupts) narrow the peaks without adding
 * information: only durations up to this quantile are used. */
#define LATTICE_QUANTILE 0.9
/* Periods below the durations' spread / LATTICE_SPAN are not tried
 * (bounds the work on continuous data). */
#define LATTICE_SPAN 1000.0
/* A multiple of the best period is the step when it keeps this share of
 * the best coherence: rounding jitter of +-10% of the step costs 0.8 of
 * it at the step, while twice the step cancels odd against even
 * multiples. */
#define LATTICE_KEEP 0.8
/* Below this best coherence the durations have no lattice at all. */
#define LATTICE_NONE 0.5
/* A period about as long as the durations' whole range is coherent on any
 * data (every phase lands in one turn): the durations must also sit near
 * its multiples, their rms distance below this share of it. Uniform
 * (continuous) data sit q/sqrt 12 = 0.29 q away; rounding jitter of +-10 %
 * of the step, 0.06 q. */
#define LATTICE_RMS 0.15

struct lattice_points {
	double *v;      /* distinct positive durations, ascending */
	double *w;      /* how often each occurred */
	size_t n;
};

/* Each distinct duration counts once: coherence is blind to a common
 * offset, so one value holding most samples would look coherent at every
 * period. */
static double coherence(const struct lattice_points *p, double q)
{
	double c = 0, s = 0;

	for (size_t i = 0; i < p->n; i++) {
		double phase = 2 * M_PI * p->v[i] / q;
		c += cos(phase);
		s += sin(phase);
	}
	return p->n ? hypot(c, s) / (double)p->n : 0.0;
}

/* Least-squares step once every duration has its multiple k_i of q counted
 * from the shortest: the fit has an intercept, since durations are k q plus
 * whatever constant the reads add. */
static double refine(const struct lattice_points *p, double q)
{
	double sw = 0, sk = 0, sv = 0, skk = 0, skv = 0, var;

	for (size_t i = 0; i < p->n; i++) {
		double k = nearbyint((p->v[i] - p->v[0]) / q);
		sw += p->w[i];
		sk += p->w[i] * k;
		sv += p->w[i] * p->v[i];
		skk += p->w[i] * k * k;
		skv += p->w[i] * k * p->v[i];
	}
	var = skk - sk * sk / sw;
	return var > 0 ? (skv - sk * sv / sw) / var : q;
}

/* Sorted |d| > 0 up to the quantile, folded into distinct values. */
static void lattice_collect(const double *d, size_t n, struct lattice_points *p)
{
	double *x = tl_xmalloc(n * sizeof *x);
	size_t m = 0, keep;

	p->v = x;
	p->w = tl_xmalloc(n * sizeof *p->w);
	p->n = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(d[i]) && fabs(d[i]) > 0)
			x[m++] = fabs(d[i]);
	stats_sort(x, m);
	keep = m ? (size_t)ceil(LATTICE_QUANTILE * (double)m) : 0;
	/* A clock so coarse that 90 % of durations are one value still shows
	 * its step between that value and the next. */
	while (keep && keep < m && x[keep - 1] == x[0])
		keep++;
	for (size_t i = 0; i < keep; i++) {
		if (p->n && x[i] == p->v[p->n - 1]) {
			p->w[p->n - 1] += 1;
			continue;
		}
		p->v[p->n] = x[i];
		p->w[p->n++] = 1;
	}
}

static double smallest_gap(const struct lattice_points *p)
{
	double g = INFINITY;

	for (size_t i = 1; i < p->n; i++)
		if (p->v[i] - p->v[i - 1] < g)
			g = p->v[i] - p->v[i - 1];
	return g;
}

/* Highest coherence within a factor of 1.02 either side of grid index g. */
static size_t peak_near(const double *coh, size_t ngrid, double g)
{
	double reach = log(1.02) / log(LATTICE_GRID);
	size_t from = g > reach ? (size_t)(g - reach) : 0, to = (size_t)(g + reach), at = from;

	if (to >= ngrid)
		to = ngrid - 1;
	for (size_t i = from; i <= to; i++)
		if (coh[i] > coh[at])
			at = i;
	return at;
}

/* The best period may be a fraction of the step (on an exact lattice q/2,
 * q/3 ... are as coherent as q): the largest multiple of it that is still
 * nearly as coherent is the step. Only multiples are tried, so a chance
 * peak elsewhere cannot be taken. */
static size_t largest_multiple(const double *coh, size_t ngrid, size_t best_at)
{
	size_t chosen = best_at;

	for (double m = 2;; m++) {
		double g = (double)best_at + log(m) / log(LATTICE_GRID);
		size_t at;

		if (g >= (double)ngrid)
			break;
		at = peak_near(coh, ngrid, g);
		if (coh[at] >= LATTICE_KEEP * coh[best_at])
			chosen = at;
	}
	return chosen;
}

/* RMS distance of the distinct durations from the lattice of period q
 * through their circular mean phase, in units of q. */
static double lattice_rms(const struct lattice_points *p, double q)
{
	double c = 0, s = 0, at, ss = 0;

	for (size_t i = 0; i < p->n; i++) {
		c += cos(2 * M_PI * p->v[i] / q);
		s += sin(2 * M_PI * p->v[i] / q);
	}
	at = atan2(s, c) / (2 * M_PI) * q;
	for (size_t i = 0; i < p->n; i++) {
		double e = remainder(p->v[i] - at, q) / q;

		ss += e * e;
	}
	return sqrt(ss / (double)p->n);
}

double stats_lattice_step(const double *d, size_t n)
{
	struct lattice_points p;
	double step = NAN, hi, lo, best = 0, *coh = NULL;
	size_t ngrid, best_at = 0;

	lattice_collect(d, n, &p);
	if (p.n < 2)
		goto out;
	/* Two distinct durations differ by at least one step. */
	hi = p.v[p.n - 1] - p.v[0];
	lo = fmax(smallest_gap(&p), hi / LATTICE_SPAN) / LATTICE_GRID;
	ngrid = (size_t)ceil(log(hi / lo) / log(LATTICE_GRID)) + 2;
	coh = tl_xmalloc(ngrid * sizeof *coh);
	for (size_t g = 0; g < ngrid; g++) {
		coh[g] = coherence(&p, lo * pow(LATTICE_GRID, (double)g));
		if (coh[g] >= best) {
			best = coh[g];
			best_at = g;
		}
	}
	if (best >= LATTICE_NONE)
		step = refine(&p, lo * pow(LATTICE_GRID,
					   (double)largest_multiple(coh, ngrid, best_at)));
	if (!(best >= LATTICE_NONE) || lattice_rms(&p, step) > LATTICE_RMS)
		step = smallest_gap(&p);
out:
	free(coh);
	free(p.v);
	free(p.w);
	return step;
}
