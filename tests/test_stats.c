/* Tests of the summary, quantiles, histogram, ECDF, overlap and linear fit
 * in stats/ against hand-derived values and numpy (tests/reference/stats_ref.py). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/stats.h"
#include "tests/tap.h"

/* sorted: 1 1 2 3 3 4 5 5 5 6 9; n = 11, quantile position 10p. */
static const double X[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5 };
#define NX (sizeof(X) / sizeof(X[0]))

static void test_summary(void)
{
	struct tl_summary s;
	double copy[NX];
	memcpy(copy, X, sizeof(X));
	stats_summary(copy, NX, &s);
	ok(memcmp(copy, X, sizeof(X)) == 0, "summary leaves its input alone");
	is_int(s.n, 11, "summary n");
	is_int(s.os_removed, 0, "summary os_removed is 0 (the caller's to fill)");
	is_near(s.min, 1, 0, "min");
	is_near(s.max, 9, 0, "max");
	/* p1: position 0.1 between 1 and 1; p5: 0.5, same pair. */
	is_near(s.p1, 1, 1e-12, "p1 = 1");
	is_near(s.p5, 1, 1e-12, "p5 = 1");
	is_near(s.p50, 4, 1e-12, "p50 = sorted[5] = 4");
	/* p95: position 9.5 between 6 and 9 -> 7.5; p99: 9.9 -> 6 + 0.9*3 = 8.7. */
	is_near(s.p95, 7.5, 1e-12, "p95 = 7.5 (numpy: 7.5)");
	is_near(s.p99, 8.7, 1e-12, "p99 = 8.7 (numpy: 8.7000000000000011)");
	is_near(s.mean, 4, 1e-12, "mean = 44/11 = 4");
	/* squared deviations sum to 56, so var = 56/10 and sd = sqrt(5.6). */
	is_near(s.sd, sqrt(5.6), 1e-12, "sd (n-1) = sqrt(5.6) (numpy ddof=1: 2.3664319132398464)");
	is_near(s.cv, sqrt(5.6) / 4, 1e-12, "cv = sd/mean (numpy: 0.59160797830996159)");

	stats_summary(X, 0, &s);
	ok(s.n == 0 && isnan(s.mean) && isnan(s.p50) && isnan(s.cv), "n = 0 gives NaNs");
	stats_summary(X + 5, 1, &s);
	ok(s.n == 1 && s.min == 9 && s.p50 == 9 && s.max == 9 && s.mean == 9,
	   "n = 1: every quantile is the value");
	ok(isnan(s.sd) && isnan(s.cv), "n = 1: sd and cv (n-1) are NaN");
}

static void test_quantile(void)
{
	double s[] = { 1, 1, 2, 3, 3, 4, 5, 5, 5, 6, 9 };
	is_near(stats_quantile_sorted(s, 11, 0.25), 2.5, 1e-12, "q(0.25): position 2.5 -> 2.5");
	is_near(stats_quantile_sorted(s, 11, 0.75), 5, 1e-12, "q(0.75): position 7.5 -> 5");
	is_near(stats_quantile_sorted(s, 11, 0), 1, 0, "q(0) = min");
	is_near(stats_quantile_sorted(s, 11, 1), 9, 0, "q(1) = max");
	is_near(stats_quantile_sorted(s, 11, -3), 1, 0, "p < 0 clamps to min");
	is_near(stats_quantile_sorted(s, 11, 7), 9, 0, "p > 1 clamps to max");
	ok(isnan(stats_quantile_sorted(s, 0, 0.5)), "q of nothing is NaN");

	double even[] = { 4, 1, 3, 2 };
	is_near(stats_median(even, 4), 2.5, 1e-12, "median of 4 1 3 2 = 2.5");
	ok(even[0] == 4 && even[1] == 1, "median leaves its input alone");
	is_near(stats_median(X, NX), 4, 1e-12, "median of X = 4");
	ok(isnan(stats_median(X, 0)), "median of nothing is NaN");

	double c[] = { 40, 41.5, 100 };
	stats_filter_cost(c, 3, 33);
	ok(c[0] == 7 && c[1] == 8.5 && c[2] == 67, "filter_cost subtracts t_e,std");
}

/* 1000, 1010, ..., 1200 ns (21 values), value index j appearing j+1 times:
 * 1 + 2 + ... + 21 = 231 samples on a 10 ns grid. */
static size_t comb_data(double *x)
{
	size_t n = 0;
	for (int j = 0; j <= 20; j++)
		for (int c = 0; c <= j; c++)
			x[n++] = 1000 + 10 * j;
	return n;
}

static int interior_empty(const struct tl_histogram *h)
{
	size_t first = h->nbins, last = 0, empty = 0;
	for (size_t b = 0; b < h->nbins; b++)
		if (h->counts[b] > 0) {
			if (first == h->nbins)
				first = b;
			last = b;
		}
	for (size_t b = first; b < last; b++)
		empty += h->counts[b] == 0;
	return (int)empty;
}

/* Values a hostile file could hold. Once, +-1e308 made a
 * NaN bin count (UBSan: "-nan is outside the range of 'unsigned long'") and
 * 1e17 with a 10 ns step made GSL abort ("xmin must be less than xmax");
 * both are refused now, and nothing aborts (GSL's handler is off). */
static void test_histogram_hostile(void)
{
	double wide[] = { 1e308, -1e308, 1e308, 1e308, 1e308 };
	double big[] = { 1e17, 1e17, 1e17, 1e17, 1e17 };
	double huge_step[] = { 1, 2, 3 };
	struct tl_histogram h;

	ok(stats_histogram(wide, 5, 10, 50, 0, 0, &h) < 0 && h.counts == NULL,
	   "+-1e308: refused (no finite layout)");
	ok(stats_histogram(big, 5, 10, 50, 0, 0, &h) < 0, "1e17 with a 10 ns step: refused");
	ok(stats_histogram(big, 5, 10, 50, 1e17, 1e17, &h) < 0, "the same as an explicit range");
	ok(stats_histogram(huge_step, 3, NAN, 50, 0, 0, &h) < 0, "a NaN step: refused");
	ok(stats_histogram(big, 5, 1e9, 50, 0, 0, &h) == 0 && h.total == 5,
	   "1e17 in 1 s bins (far above its ulp) still works");
	stats_histogram_free(&h);
}

static void test_histogram(void)
{
	double x[231];
	size_t n = comb_data(x);
	struct tl_histogram h;

	/* 50 bins over 200 ns would be 4.2 ns wide: a comb. Ours: span = 200 + 10,
	 * width = 10 * ceil(210 / 500) = 10, 21 bins, first edge 995. */
	ok(stats_histogram(x, n, 10, 50, 0, 0, &h) == 0, "histogram of 10 ns data");
	is_int(h.nbins, 21, "one bin per 10 ns step");
	is_near(h.width, 10, 1e-12, "width = the resolution");
	is_near(h.lo, 995, 1e-12, "first edge half a step below the minimum");
	is_int(interior_empty(&h), 0, "no empty interior (comb) bins");
	int right = 1;
	for (size_t b = 0; b < h.nbins; b++)
		right &= h.counts[b] == (double)(b + 1);
	ok(right, "bin j counts j + 1 samples");
	ok(h.total == 231 && h.below == 0 && h.above == 0, "all 231 samples in range");
	stats_histogram_free(&h);

	/* max 8 bins: width = 10 * ceil(210 / 80) = 30, 7 bins of three steps;
	 * bin j holds indices 3j..3j+2: (3j+1)+(3j+2)+(3j+3) = 9j + 6. */
	ok(stats_histogram(x, n, 10, 8, 0, 0, &h) == 0, "histogram with 8 bins at most");
	is_int(h.nbins, 7, "7 bins");
	is_near(h.width, 30, 1e-12, "width = 3 steps");
	right = 1;
	for (size_t b = 0; b < h.nbins; b++)
		right &= h.counts[b] == 9.0 * (double)b + 6;
	ok(right, "bin j counts 9j + 6");
	is_int(interior_empty(&h), 0, "no empty interior bins at 3 steps per bin");
	stats_histogram_free(&h);

	/* Range [1050, 1100]: edges 1045 ... 1105, 6 bins. below: 1000..1040,
	 * 1+2+3+4+5 = 15; above: 1110..1200, 12+...+21 = 165; in: 6+...+11 = 51. */
	ok(stats_histogram(x, n, 10, 100, 1050, 1100, &h) == 0, "histogram over a fixed range");
	is_int(h.nbins, 6, "6 bins for 1050..1100");
	is_int(h.below, 15, "15 below");
	is_int(h.above, 165, "165 above");
	double in = 0;
	for (size_t b = 0; b < h.nbins; b++)
		in += h.counts[b];
	is_near(in, 51, 0, "51 inside");
	is_int(h.total, 231, "total counts every sample");
	stats_histogram_free(&h);

	/* Like real samples: 26-tick TSC steps converted at 2.6 GHz (so not
	 * exact multiples of 10 in binary) minus a 33.3 ns overhead, every
	 * step from 0 to 59 present. 1-ulp noise must not push a value over
	 * an edge: edges sit 5 ns from every value. 40 bins at most: width
	 * 10 * ceil(600 / 400) = 20, 30 bins of exactly two steps each. */
	double t[60 * 3];
	size_t nt = 0;
	for (int step = 0; step < 60; step++)
		for (int c = 0; c < 3; c++)
			t[nt++] = (double)(26 * (100 + step)) / 2.6 - 33.3;
	ok(stats_histogram(t, nt, 10, 40, 0, 0, &h) == 0, "histogram of converted tick data");
	is_int(h.nbins, 30, "30 bins of 20 ns");
	right = 1;
	for (size_t b = 0; b < h.nbins; b++)
		right &= h.counts[b] == 6;
	ok(right, "every bin holds two steps x 3 samples");
	stats_histogram_free(&h);

	ok(stats_histogram(x, n, 0, 10, 0, 0, &h) < 0, "resolution 0 is refused");
	ok(stats_histogram(x, n, 10, 0, 0, 0, &h) < 0, "max_bins 0 is refused");
	ok(stats_histogram(x, n, 10, 10, 5, 1, &h) < 0, "lo > hi is refused");
	double one = 42;
	ok(stats_histogram(&one, 1, 1, 10, 0, 0, &h) == 0 && h.nbins == 1 && h.counts[0] == 1,
	   "a single value gets one bin");
	stats_histogram_free(&h);
	test_histogram_hostile();
}

static void test_ecdf(void)
{
	double s[] = { 1, 1, 2, 3, 3, 4, 5, 5, 5, 6, 9 };
	is_near(stats_ecdf(s, 11, 0), 0, 0, "ECDF below the minimum is 0");
	is_near(stats_ecdf(s, 11, 1), 2.0 / 11, 1e-15, "ECDF(1) = 2/11 (ties counted)");
	is_near(stats_ecdf(s, 11, 4.5), 6.0 / 11, 1e-15, "ECDF(4.5) = 6/11");
	is_near(stats_ecdf(s, 11, 5), 9.0 / 11, 1e-15, "ECDF(5) = 9/11");
	is_near(stats_ecdf(s, 11, 9), 1, 0, "ECDF(max) = 1");
	ok(isnan(stats_ecdf(s, 0, 1)), "ECDF of nothing is NaN");
}

static void test_overlap(void)
{
	double a0[] = { 10, 20, 30 }, a1[] = { 25, 30, 35, 40 }, far[] = { 31, 50 };
	is_near(stats_overlap(a0, 3, a1, 4), 0.25, 0, "only 25 is strictly below max(A0) = 30");
	is_near(stats_overlap(a0, 3, far, 2), 0, 0, "A1 above A0: no overlap");
	is_near(stats_overlap(a1, 4, a0, 3), 1, 0, "A0 entirely below max(A1): overlap 1");
	ok(isnan(stats_overlap(a0, 0, a1, 4)), "empty A0 gives NaN");
}

static void test_fit(void)
{
	double x[] = { 0, 256, 512, 1024, 2048, 4096, 8192 };
	double y[7], slope, icept, r2;
	for (int i = 0; i < 7; i++)
		y[i] = 31 + 0.34 * x[i];
	ok(stats_fit_linear(x, y, 7, &slope, &icept, &r2) == 0, "fit exact data");
	is_near(slope, 0.34, 1e-12, "exact slope");
	is_near(icept, 31, 1e-9, "exact intercept");
	is_near(r2, 1, 1e-12, "R^2 = 1 on exact data");

	/* numpy.polyfit(x, y, 1) on the same data (tests/reference/stats_ref.py). */
	double yn[] = { 31.0, 118.5, 205.2, 378.9, 733.1, 1420.4, 2801.7 };
	ok(stats_fit_linear(x, yn, 7, &slope, &icept, &r2) == 0, "fit noisy data");
	is_near(slope, 0.33820341870300757, 1e-12, "slope matches numpy.polyfit");
	is_near(icept, 33.465037593985386, 1e-9, "intercept matches numpy.polyfit");
	is_near(r2, 0.99998857369073024, 1e-12, "R^2 matches numpy");

	ok(stats_fit_linear(x, yn, 1, &slope, &icept, &r2) < 0, "one point: no fit");
	double same[] = { 5, 5, 5 };
	ok(stats_fit_linear(same, yn, 3, &slope, &icept, &r2) < 0, "constant x: no fit");
}

/* Chunk c of 100 samples is levels[c] + (i mod 4): sorted, 25 each of +0..+3,
 * so (numpy's rule, position 99p) its median is +1.5 (between positions 49
 * and 50), its quartiles +0.75 and +2.25, IQR 1.5. */
static void fill_levels(double *x, const double *levels, size_t nchunks)
{
	for (size_t c = 0; c < nchunks; c++)
		for (size_t i = 0; i < 100; i++)
			x[c * 100 + i] = levels[c] + (double)(i % 4);
}

static void test_drift(void)
{
	static const double moving[] = {100, 100, 102, 104}, steady[] = {100, 100, 100, 100};
	double x[450];
	struct tl_drift d;

	/* Chunk medians 101.5, 101.5, 103.5, 105.5: mean 103, squared deviations
	 * 2.25 + 2.25 + 0.25 + 6.25 = 11, sd sqrt(11/3). The 400 values hold
	 * 100..103 fifty times, 104..107 ... and positions 199 and 200 both fall
	 * on 103, so the median is 103. A chunk (0..3 in equal shares, sd 1.1)
	 * has a median standard error of roughly 1.25 * 1.1 / 10 = 0.14, far
	 * under sd / 3. */
	fill_levels(x, moving, 4);
	stats_drift(x, 400, 100, &d);
	is_int(d.nchunks, 4, "drift: 400 samples make 4 chunks of 100");
	is_near(d.lo, 101.5, 1e-12, "drift: lowest chunk median 101.5");
	is_near(d.hi, 105.5, 1e-12, "drift: highest chunk median 105.5");
	is_near(d.median, 103, 1e-12, "drift: median of all 400 is 103");
	is_near(d.sd, sqrt(11.0 / 3.0), 1e-12, "drift: sd of chunk medians sqrt(11/3)");
	ok(d.noise_sd > 0.05 && d.noise_sd < 0.6, "drift: resampled, a chunk median moves %.3f", d.noise_sd);
	is_near(d.rel_sd, sqrt(11.0 / 3.0) / 103.0, 1e-12, "drift: relative sd over the median");
	ok(d.drifts, "drift: 1.91 > 3 x %.3f is drift", d.noise_sd);

	/* A trailing part chunk is left out, however wild. */
	for (size_t i = 400; i < 450; i++)
		x[i] = 1e6;
	struct tl_drift e;
	stats_drift(x, 450, 100, &e);
	ok(e.nchunks == 4 && e.sd == d.sd && e.median == d.median && e.hi == d.hi,
	   "drift: the 50 samples past the last whole chunk are ignored");

	fill_levels(x, steady, 4);
	stats_drift(x, 400, 100, &d);
	ok(d.sd == 0 && d.rel_sd == 0 && !d.drifts, "drift: equal chunk medians do not drift");

	fill_levels(x, moving, 4);
	for (size_t i = 0; i < 400; i++)
		x[i] -= 103.0;
	stats_drift(x, 400, 100, &d);
	ok(isnan(d.rel_sd) && !d.drifts && fabs(d.sd - sqrt(11.0 / 3.0)) < 1e-12,
	   "drift: a median of 0 (an empty kernel after filter_cost) has no relative drift");

	stats_drift(x, 399, 100, &d);
	ok(d.nchunks == 0 && isnan(d.sd) && isnan(d.lo) && !d.drifts,
	   "drift: fewer than 4 whole chunks say nothing");
	/* Independent normal noise (sd 5 around 1000) does not drift; the same
	 * noise with the level 2 % higher in the second half does. */
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	static double y[10000];
	gsl_rng_set(rng, 1);
	for (size_t i = 0; i < 10000; i++)
		y[i] = 1000 + gsl_ran_gaussian(rng, 5);
	stats_drift(y, 10000, 100, &d);
	ok(!d.drifts && d.sd < 3 * d.noise_sd, "drift: independent noise is not drift (sd %.3f, noise %.3f)",
	   d.sd, d.noise_sd);
	/* The normal median's standard error, 1.2533 * 5 / sqrt(100) = 0.627. */
	ok(fabs(d.noise_sd - 0.627) < 0.15, "drift: bootstrapped standard error %.3f near the normal median's 0.627",
	   d.noise_sd);
	for (size_t i = 5000; i < 10000; i++)
		y[i] += 20;
	stats_drift(y, 10000, 100, &d);
	ok(d.drifts && d.lo < 1001 && d.hi > 1019, "drift: a 2 %% step half way is drift (%.1f..%.1f)",
	   d.lo, d.hi);
	/* A coarse timer: independent samples 140 or 150 ns at even odds. Chunk
	 * medians flip between 140, 145 and 150 while every IQR is 10 or 0;
	 * resampled they flip just as much, so this is not drift. */
	gsl_rng_set(rng, 2);
	for (size_t i = 0; i < 10000; i++)
		y[i] = gsl_rng_uniform(rng) < 0.5 ? 140 : 150;
	stats_drift(y, 10000, 100, &d);
	ok(!d.drifts && d.lo < d.hi, "drift: a coarse step flipping at random is not drift (%.0f..%.0f)",
	   d.lo, d.hi);
	gsl_rng_free(rng);
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* stats_sort puts values in qsort's ascending order: few distinct values
 * (a lattice), all distinct, all equal, sorted and reversed input, every
 * length to 100 and some long ones; NaN goes to gsl_sort as before. */
static void test_sort(void)
{
	static double a[20000], b[20000];
	size_t cases = 0, bad = 0;
	unsigned long r = 7;

	for (size_t n = 0; n <= 20000; n = n < 100 ? n + 1 : n * 3)
		for (int kind = 0; kind < 5; kind++) {
			for (size_t i = 0; i < n; i++) {
				r = r * 6364136223846793005UL + 1442695040888963407UL;
				a[i] = kind == 0 ? (double)((r >> 33) % 7) * 10.0
				       : kind == 1 ? (double)(r >> 11) / 9007199254740992.0 - 0.5
				       : kind == 2 ? 3.25
				       : kind == 3 ? (double)i
						   : (double)(n - i) / 3.0;
			}
			memcpy(b, a, n * sizeof *a);
			stats_sort(a, n);
			qsort(b, n, sizeof *b, cmp_dbl);
			cases++;
			bad += memcmp(a, b, n * sizeof *a) != 0;
		}
	ok(bad == 0, "stats_sort orders %zu arrays as qsort does (%zu differ)", cases, bad);
	a[0] = 2;
	a[1] = NAN;
	a[2] = 1;
	stats_sort(a, 3);
	ok(a[0] == 1 || isnan(a[0]), "an array with a NaN is still sorted around it (gsl_sort's way)");
}

int main(void)
{
	stats_init();
	test_sort();
	test_summary();
	test_quantile();
	test_histogram();
	test_ecdf();
	test_overlap();
	test_fit();
	test_drift();
	return tap_done();
}
