/* Quantiles and the per-cell summary table (n, min, p1 ... max, mean, sd,
 * CV: the figures every face prints) and filter_cost (paper section 5.4.1). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats/stats.h"

/* Interpolates at (n-1)p, numpy.quantile's default "linear" rule, as
 * gsl_stats_quantile_from_sorted_data does; but as x + f (y - x), since
 * GSL's (1 - f) x + f y can land an ulp above y when x == y, and a p99 an
 * ulp above the max was seen here. p is clamped to [0, 1]. */
double stats_quantile_sorted(const double *sorted, size_t n, double p)
{
	double pos, f;
	size_t i;

	if (n == 0 || !sorted || isnan(p))
		return NAN;
	if (p < 0.0)
		p = 0.0;
	if (p > 1.0)
		p = 1.0;
	pos = (double)(n - 1) * p;
	i = (size_t)pos;
	if (i + 1 >= n)
		return sorted[n - 1];
	f = pos - (double)i;
	return sorted[i] + f * (sorted[i + 1] - sorted[i]);
}

double stats_iqr_sd_sorted(const double *sorted, size_t n)
{
	return (stats_quantile_sorted(sorted, n, 0.75) - stats_quantile_sorted(sorted, n, 0.25)) / 1.349;
}

static double *sorted_copy(const double *x, size_t n)
{
	double *s = malloc(n * sizeof(*s));
	if (!s)
		return NULL;
	memcpy(s, x, n * sizeof(*s));
	stats_sort(s, n);
	return s;
}

double stats_median(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double *s = sorted_copy(x, n);
	if (!s)
		return NAN;
	double m = stats_quantile_sorted(s, n, 0.5);
	free(s);
	return m;
}

static void summary_nan(struct tl_summary *s, size_t n)
{
	s->n = n;
	s->os_removed = 0;
	s->min = s->p1 = s->p5 = s->p50 = s->p95 = s->p99 = s->max = NAN;
	s->mean = s->sd = s->cv = NAN;
}

/* os_removed is set to 0: only the caller knows it (stats_analyse fills it).
 * sd uses n-1, so it (and CV) is NaN for n < 2; CV is sd/mean as is, even
 * when mean is near 0 (an `empty` kernel after filter_cost). Allocation
 * failure leaves NaNs rather than a wrong number. */
static void summary_sorted(const double *v, size_t n, struct tl_summary *s)
{
	s->min = v[0];
	s->max = v[n - 1];
	s->p1 = stats_quantile_sorted(v, n, 0.01);
	s->p5 = stats_quantile_sorted(v, n, 0.05);
	s->p50 = stats_quantile_sorted(v, n, 0.50);
	s->p95 = stats_quantile_sorted(v, n, 0.95);
	s->p99 = stats_quantile_sorted(v, n, 0.99);
	s->mean = gsl_stats_mean(v, 1, n);
	if (n >= 2) {
		s->sd = gsl_stats_sd_m(v, 1, n, s->mean);
		s->cv = s->sd / s->mean;
	}
}

void stats_summary(const double *x, size_t n, struct tl_summary *s)
{
	summary_nan(s, n);
	if (n == 0)
		return;
	double *v = sorted_copy(x, n);
	if (!v)
		return;
	summary_sorted(v, n, s);
	free(v);
}

void stats_summary_sort(double *x, size_t n, struct tl_summary *s)
{
	summary_nan(s, n);
	if (n == 0)
		return;
	stats_sort(x, n);
	summary_sorted(x, n, s);
}

void stats_filter_cost(double *x, size_t n, double te_std)
{
	for (size_t i = 0; i < n; i++)
		x[i] -= te_std;
}

void stats_init(void)
{
	gsl_set_error_handler_off();
}
