/* Benchmark of stats/ (prints numbers, never pass/fail): isolation-forest
 * scoring for 10^4 and 10^6 points, quantized (10 ns) and continuous, and
 * summary + histogram and drift for 10^6 points. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "backends/backend.h"
#include "stats/stats.h"

/* Samples like a cell: 1000 ns +- 5 ns with 1 % spikes of 2 us. */
static void fill(double *x, size_t n, int quantized, gsl_rng *r)
{
	for (size_t i = 0; i < n; i++) {
		double v = 1000 + gsl_ran_gaussian(r, 5);
		if (gsl_rng_uniform(r) < 0.01)
			v += 2000;
		x[i] = quantized ? 10 * round(v / 10) : v;
	}
}

static int bench_iforest(size_t n, int quantized, gsl_rng *r)
{
	double *x = malloc(n * sizeof(*x)), *s = malloc(n * sizeof(*s));
	unsigned char *keep = malloc(n);
	if (!x || !s || !keep) {
		fprintf(stderr, "bench_stats: out of memory for %zu points\n", n);
		return -1;
	}
	fill(x, n, quantized, r);
	const double *f[1] = { x };
	double t0 = tl_monotonic_s();
	stats_iforest_scores(f, 1, n, 1, s);
	double t1 = tl_monotonic_s();
	struct tl_os_result res;
	stats_filter_os(TL_OS_IFOREST, f, 1, n, 1, keep, &res);
	double t2 = tl_monotonic_s();
	printf("iforest %-11s n=%-8zu scores %8.3f s   filter_os (scores + beta) %8.3f s   %s\n",
	       quantized ? "quantized" : "continuous", n, t1 - t0, t2 - t1, res.note);
	free(x);
	free(s);
	free(keep);
	return 0;
}

static int bench_summary(size_t n, gsl_rng *r)
{
	double *x = malloc(n * sizeof(*x));
	if (!x)
		return -1;
	fill(x, n, 1, r);
	struct tl_summary s;
	struct tl_histogram h;
	double t0 = tl_monotonic_s();
	stats_summary(x, n, &s);
	double t1 = tl_monotonic_s();
	int rc = stats_histogram(x, n, 10, 60, 0, 0, &h);
	double t2 = tl_monotonic_s();
	struct tl_drift d;
	stats_drift(x, n, TL_DRIFT_CHUNK, &d);
	double t3 = tl_monotonic_s();
	printf("summary   n=%zu %8.3f s   histogram (%zu bins) %8.3f s   total %8.3f s\n", n,
	       t1 - t0, rc == 0 ? h.nbins : 0, t2 - t1, t2 - t0);
	printf("drift     n=%zu %8.3f s   (%zu chunks of %zu; the TUI re-analyses with it)\n", n,
	       t3 - t2, d.nchunks, d.chunk);
	if (rc == 0)
		stats_histogram_free(&h);
	free(x);
	return 0;
}

int main(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	int rc = 0;
	if (!r)
		return 1;
	gsl_rng_set(r, 1);
	rc |= bench_iforest(10000, 1, r);
	rc |= bench_iforest(10000, 0, r);
	rc |= bench_iforest(1000000, 1, r);
	rc |= bench_iforest(1000000, 0, r);
	rc |= bench_summary(1000000, r);
	gsl_rng_free(r);
	return rc ? 1 : 0;
}
