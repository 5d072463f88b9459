/* Distributions and comparisons: the histogram and ECDF the TUI draws
 * (paper figs 2, 3, 5, 6), Algorithm 2's overlap share, and the linear fit
 * of time against K that is the lab's self-check (slope = one ADD). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_fit.h>
#include <gsl/gsl_histogram.h>
#include <gsl/gsl_statistics_double.h>

#include "base/xalloc.h"
#include "stats/stats.h"

/* Slack for ceil() of ratios that are whole numbers on paper but land a few
 * ulps above one in floating point (e.g. 30/10): without it a 10 ns range
 * would get one bin too many or a width of two steps. */
#define CEIL_SLACK 1e-9

static double ceil_slack(double v)
{
	double c = ceil(v - CEIL_SLACK);
	return c < 1.0 ? 1.0 : c;
}

static void data_range(const double *x, size_t n, double *lo, double *hi)
{
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		if (isnan(x[i]))
			continue;
		if (!any || x[i] < *lo)
			*lo = x[i];
		if (!any || x[i] > *hi)
			*hi = x[i];
		any = true;
	}
}

/* Layout: width = resolution * ceil(span / (resolution * max_bins)) with
 * span = hi - lo + resolution, and the first edge at lo - resolution/2.
 * Every edge then sits half a step between two quantized values, so each
 * bin holds the same whole number of timer steps (no empty "comb" bins on
 * 10 ns data) and no value ever falls on an edge. below/above count values
 * outside the bin edges; NaNs are skipped; total counts the rest. */
int stats_histogram(const double *x, size_t n, double resolution, size_t max_bins, double lo,
		    double hi, struct tl_histogram *h)
{
	memset(h, 0, sizeof(*h));
	if (!(resolution > 0.0) || !isfinite(resolution) || max_bins == 0 || !(lo <= hi))
		return -1;
	if (lo == hi)
		data_range(x, n, &lo, &hi);
	double span = hi - lo + resolution;
	double width = resolution * ceil_slack(span / (resolution * (double)max_bins));
	/* Values far apart (+-1e308: an infinite span) or so large that a bin
	 * is below their ulp (1e17 with 10 ns steps) have no layout: refused
	 * here, before a NaN bin count or a range GSL would reject. */
	if (!isfinite(span) || !isfinite(width) || !(width > 0.0) || !isfinite(lo))
		return -1;
	double nb = ceil_slack(span / width);
	if (!(nb >= 1.0))
		return -1;
	size_t nbins = nb > (double)max_bins ? max_bins : (size_t)nb;
	double edge0 = lo - resolution / 2.0;
	double edge1 = edge0 + (double)nbins * width;
	/* Bins narrower than about 1e-9 of the values cannot be told apart
	 * (1e17 ns in 10 ns bins: the ulp is 16). */
	if (!isfinite(edge1) || !(edge0 < edge1) || width < fabs(edge0) * 0x1p-30 ||
	    width < fabs(edge1) * 0x1p-30)
		return -1;

	gsl_histogram *g = gsl_histogram_alloc(nbins);
	if (!g)
		tl_fail("out of memory (a histogram of %zu bins)", nbins);
	double *counts = tl_xmalloc(nbins * sizeof(*counts));
	if (gsl_histogram_set_ranges_uniform(g, edge0, edge1) != GSL_SUCCESS) {
		gsl_histogram_free(g);
		free(counts);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (isnan(x[i]))
			continue;
		h->total++;
		if (x[i] < g->range[0])
			h->below++;
		else if (x[i] >= g->range[nbins])
			h->above++;
		else if (gsl_histogram_increment(g, x[i]) != GSL_SUCCESS) {
			gsl_histogram_free(g);
			free(counts);
			memset(h, 0, sizeof(*h));
			return -1;
		}
	}
	for (size_t b = 0; b < nbins; b++)
		counts[b] = gsl_histogram_get(g, b);
	gsl_histogram_free(g);
	h->nbins = nbins;
	h->lo = edge0;
	h->width = width;
	h->counts = counts;
	return 0;
}

void stats_histogram_free(struct tl_histogram *h)
{
	if (!h)
		return;
	free(h->counts);
	h->counts = NULL;
	h->nbins = 0;
}

size_t stats_first_at_least(const double *sorted, size_t n, double v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sorted[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t stats_first_above(const double *sorted, size_t n, double v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sorted[mid] <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The share of values <= v. */
double stats_ecdf(const double *sorted, size_t n, double v)
{
	if (n == 0)
		return NAN;
	return (double)stats_first_above(sorted, n, v) / (double)n;
}

/* Algorithm 2: the A1 samples A0 could also have produced are those below
 * A0's largest sample. Strictly below: an A1 sample equal to A0's top is
 * not counted, which matters on a coarse timer where ties are common.
 * NaN when either sample is empty. */
double stats_overlap(const double *a0, size_t n0, const double *a1, size_t n1)
{
	if (n0 == 0 || n1 == 0)
		return NAN;
	double top = gsl_stats_max(a0, 1, n0);
	size_t below = 0;
	for (size_t i = 0; i < n1; i++)
		below += a1[i] < top;
	return (double)below / (double)n1;
}

/* R^2 = 1 - SS_res / SS_tot; 1 when every y is equal (the flat line fits
 * exactly). -1 when n < 2 or every x is equal (no slope exists). */
int stats_fit_linear(const double *x, const double *y, size_t n, double *slope,
		     double *intercept, double *r2)
{
	if (n < 2)
		return -1;
	double xmin = gsl_stats_min(x, 1, n), xmax = gsl_stats_max(x, 1, n);
	if (!(xmax > xmin))
		return -1;
	double c0, c1, cov00, cov01, cov11, sumsq;
	if (gsl_fit_linear(x, 1, y, 1, n, &c0, &c1, &cov00, &cov01, &cov11, &sumsq))
		return -1;
	double ym = gsl_stats_mean(y, 1, n), sst = 0.0;
	for (size_t i = 0; i < n; i++)
		sst += (y[i] - ym) * (y[i] - ym);
	*slope = c1;
	*intercept = c0;
	*r2 = sst > 0.0 ? 1.0 - sumsq / sst : 1.0;
	return 0;
}
