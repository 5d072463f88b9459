/* Tests of stats/compare.c: hand-derived tiny cases, the numbers of an
 * independent numpy implementation (tests/reference/compare_ref.py) on
 * fixed data with ties (KS p-values from scipy.stats.ks_2samp, MWU's from
 * both), and the bootstrap interval and verdict as
 * distributions over seeds. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>

#include "stats/compare.h"
#include "tests/tap.h"

#define N(x) (sizeof(x) / sizeof((x)[0]))

static const double A[] = { 10, 12, 12, 13, 15, 15, 15, 18, 20, 11, 12, 14 };
static const double B[] = { 13, 15, 15, 16, 17, 17, 20, 22, 15, 14, 19 };
/* numpy: round(normal(100, 3) * 2) / 2 and normal(101, 3), default_rng(12). */
static const double C[] = {
	100, 103, 102, 102, 105, 96.5, 98, 96, 99.5, 103, 100, 101.5, 94.5, 100.5, 97.5, 105.5,
	102.5, 103, 100, 102, 102, 99, 98.5, 99.5, 98, 98, 99, 98, 102.5, 95, 102.5, 98, 98.5, 96,
	99.5, 99.5, 100.5, 98.5, 100.5, 105.5, 101, 98.5, 103, 99.5, 102, 102, 99, 94, 99, 101.5,
	99, 101.5, 103, 98.5, 103.5, 105, 103, 103.5, 103.5, 107, 100.5, 100, 102, 97.5, 95.5, 97.5,
	101, 101.5, 95.5, 94.5, 99, 99.5, 100, 102, 103.5, 100.5, 102, 96.5, 96.5, 100.5, 102, 102,
	102, 102.5, 102.5, 94.5, 98, 101.5, 102, 95.5, 103.5, 98.5, 99.5, 101, 102, 95.5, 103, 100,
	97.5, 99, 93.5, 98, 100.5, 98, 99, 99.5, 100, 103, 100, 99, 101.5, 106, 99, 101.5, 95.5,
	104, 102, 104, 100, 97, 102.5, 102.5, 97.5, 95.5, 101.5, 99.5, 108, 98, 98.5, 99.5, 95,
	97.5, 105, 99.5, 98, 96, 101.5, 102, 101, 99, 101, 101, 98, 102, 93.5, 96, 99, 99.5, 96.5,
	101, 103, 101.5, 100.5, 102.5, 101, 96.5, 99.5, 104, 96.5, 100, 99, 97.5, 97, 100.5, 101,
	101, 95.5, 99, 101, 103, 102, 102.5, 103.5, 102.5, 97.5, 100, 98, 93, 95, 106.5, 96.5, 93.5,
	98, 104.5, 100, 101, 99, 100, 104, 102.5, 99.5, 102.5, 103, 99.5, 101, 101, 98, 103.5, 99.5,
	98
};
static const double D[] = {
	96, 97, 105.5, 97.5, 102.5, 100, 102.5, 103, 98.5, 100, 101.5, 101.5, 101, 100, 103, 105,
	102.5, 99, 102, 101, 102.5, 106.5, 100.5, 101, 98.5, 100, 99.5, 106, 102, 99.5, 107, 97,
	103.5, 104, 102.5, 100, 100.5, 100, 103.5, 94, 99.5, 101.5, 99.5, 95.5, 100.5, 98.5, 103.5,
	105, 101, 95, 100.5, 98, 103, 106, 102, 107, 105.5, 103, 98.5, 101.5, 97, 104.5, 101.5,
	105.5, 102.5, 95.5, 103.5, 104, 106.5, 98.5, 98.5, 101.5, 98.5, 97.5, 98, 109, 99.5, 98.5,
	100, 101.5, 105, 104, 103.5, 101.5, 102, 99.5, 97, 107.5, 100, 104.5, 100.5, 101, 101, 97,
	101, 102.5, 104, 103, 104.5, 102, 101.5, 95.5, 99.5, 106, 101.5, 103.5, 100.5, 99, 107.5,
	102.5, 105.5, 103, 100.5, 94.5, 101.5, 96.5, 94.5, 105, 103.5, 103, 101.5, 101, 102.5,
	101.5, 101.5, 103.5, 94, 104, 99.5, 104, 104.5, 98.5, 103.5, 103.5, 99, 99.5, 101.5, 94.5,
	99.5, 101.5, 99.5, 96, 100, 105.5, 105, 100.5, 98.5, 101, 101, 99
};

static void test_hand(void)
{
	double u, p, d, hl;
	static const double a1[] = { 1, 2, 3 }, b1[] = { 4, 5 };
	static const double a2[] = { 1, 2, 2 }, b2[] = { 2, 3 };
	static const double a3[] = { 1, 2, 3 }, b3[] = { 2, 3, 4, 5 };
	static const double a4[] = { 1, 2 }, b4[] = { 3, 7 };
	static const double a5[] = { 0 }, b5[] = { 1, 5, 2 };

	/* Every a below every b: ranks of a are 1, 2, 3, U = 6 - 6 = 0; mu = 3,
	 * var = 2*3/12 * 6 = 3, z = (6 - 3 - 0.5)/sqrt(3). */
	stats_mann_whitney(a1, 3, b1, 2, &u, &p);
	is_near(u, 0, 0, "MWU: a wholly below b gives U = 0");
	is_near(p, erfc(2.5 / sqrt(3) / sqrt(2)), 1e-12, "MWU p = 2 Q(2.5/sqrt 3) = 0.1489");
	/* Pooled 1 2 2 2 3: the three 2s share rank 3; R_a = 1 + 3 + 3 = 7,
	 * U = 7 - 6 = 1. Ties: t = 3 gives 24, var = 6/12 * (6 - 24/20) = 2.4. */
	stats_mann_whitney(a2, 3, b2, 2, &u, &p);
	is_near(u, 1, 0, "MWU with ties: average ranks give U = 1");
	is_near(p, erfc((5 - 3 - 0.5) / sqrt(2.4) / sqrt(2)), 1e-12,
		"MWU tie-corrected variance 2.4");
	/* ECDF gaps at 1, 2, 3, 4: 1/3, 2/3-1/4, 1-1/2, 1-3/4: D = 1/2. */
	stats_ks_2samp(a3, 3, b3, 4, &d, &p);
	is_near(d, 0.5, 1e-15, "KS D = 1/2 on {1,2,3} vs {2,3,4,5}");
	stats_ks_2samp(a1, 3, a1, 3, &d, &p);
	is_near(d, 0, 0, "KS D = 0 for equal samples");
	is_near(p, 1, 0, "and p = 1");
	/* Differences 2, 1, 6, 5: median (2 + 5)/2. */
	stats_hodges_lehmann(a4, 2, b4, 2, &hl);
	is_near(hl, 3.5, 0, "HL of {1,2} -> {3,7} = 3.5 (even count averages)");
	stats_hodges_lehmann(a5, 1, b5, 3, &hl);
	is_near(hl, 2, 0, "HL of {0} -> {1,5,2} = 2 (odd count)");
	stats_hodges_lehmann(a5, 0, b5, 3, &hl);
	ok(isnan(hl), "HL of an empty sample is NaN");
	ok(stats_mann_whitney(a5, 0, b5, 3, &u, &p) == -1, "MWU refuses an empty sample");
	is_near(stats_kolmogorov_q(0), 1, 0, "Q(0) = 1");
	/* Q(1) = 2 (e^-2 - e^-8 + e^-18 - ...) = 0.26999967167735456. */
	is_near(stats_kolmogorov_q(1), 0.26999967167735456, 1e-14, "Q(1) = 0.2699996717");
}

static void test_reference(void)
{
	double u, p, d, hl;

	stats_hodges_lehmann(A, N(A), B, N(B), &hl);
	is_near(hl, 3, 0, "HL(A,B) = numpy 3");
	stats_mann_whitney(A, N(A), B, N(B), &u, &p);
	is_near(u, 30, 0, "MWU U(A,B) = numpy 30");
	is_near(p, 0.027212269868445577, 1e-6 * 0.0272,
		"MWU p(A,B) = numpy 0.0272122699 = scipy 0.02721226986844556");
	stats_ks_2samp(A, N(A), B, N(B), &d, &p);
	is_near(d, 0.41666666666666669, 1e-12, "KS D(A,B) = numpy 5/12");
	/* scipy 1.10.1 (Debian python3-scipy): ks_2samp(A, B) (method auto =
	 * exact at these sizes) and mannwhitneyu(A, B, method="asymptotic"). */
	is_near(p, 0.16885342413677318, 1e-6 * 0.1689, "KS p(A,B) = scipy exact 0.1688534241");

	stats_hodges_lehmann(C, N(C), D, N(D), &hl);
	is_near(hl, 1, 0, "HL(C,D) = numpy 1 (30 000 pairs)");
	stats_mann_whitney(C, N(C), D, N(D), &u, &p);
	is_near(u, 11627, 0, "MWU U(C,D) = numpy 11627");
	is_near(p, 0.00031180264392676252, 1e-6 * 3.118e-4,
		"MWU p(C,D) = numpy 3.1180264e-4 = scipy 3.118026439267618e-4");
	stats_ks_2samp(C, N(C), D, N(D), &d, &p);
	is_near(d, 0.16166666666666674, 1e-12, "KS D(C,D) = numpy 0.1616666667");
	is_near(p, 0.020459627261141772, 1e-6 * 0.0205, "KS p(C,D) = scipy exact 0.0204596273");
}

/* Larger samples on a 0.1 lattice (ties everywhere), equal sizes (the
 * m == n path) and unequal ones; numbers from scipy 1.10.1:
 *   a = [((i*37) % 101)/10 for i in range(1000)]
 *   b = [((j*53) % 103)/10 + 0.5 for j in range(1000)], c = b[:700]
 *   ks_2samp(a, b), ks_2samp(a, c), mannwhitneyu(a, c, method="asymptotic") */
static void test_scipy_lattice(void)
{
	static double a[1000], b[1000];
	double d, p, u;

	for (int i = 0; i < 1000; i++) {
		a[i] = (double)((i * 37) % 101) / 10;
		b[i] = (double)((i * 53) % 103) / 10 + 0.5;
	}
	stats_ks_2samp(a, 1000, b, 1000, &d, &p);
	is_near(d, 0.068, 1e-12, "KS D(a,b) = scipy 0.068");
	is_near(p, 0.01960232095219542, 1e-6 * 0.0196, "KS p(a,b) = scipy 0.0196023210 (m = n)");
	stats_ks_2samp(a, 1000, b, 700, &d, &p);
	is_near(d, 0.06714285714285714, 1e-12, "KS D(a,c) = scipy 0.0671428571");
	is_near(p, 0.04642066792647378, 1e-6 * 0.0464, "KS p(a,c) = scipy 0.0464206679 (m != n)");
	stats_mann_whitney(a, 1000, b, 700, &u, &p);
	is_near(u, 311902, 0, "MWU U(a,c) = scipy 311902");
	is_near(p, 0.00013089119127061805, 1e-6 * 1.309e-4, "MWU p(a,c) = scipy 1.3089119e-4");
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* The selection must give exactly the median of the listed differences,
 * on continuous data and on a coarse lattice full of ties. */
static void test_hl_brute(void)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	enum { NA = 157, NB = 220 };
	static double a[NA], b[NB], diff[NA * NB];
	int bad_cont = 0, bad_lat = 0;

	gsl_rng_set(rng, 3);
	for (int set = 0; set < 20; set++) {
		int lattice = set % 2;

		for (int i = 0; i < NA; i++)
			a[i] = 50 + gsl_ran_gaussian(rng, 4);
		for (int j = 0; j < NB; j++)
			b[j] = 52 + gsl_ran_gaussian(rng, 4) + (j % 17 == 0 ? 300 : 0);
		if (lattice) {
			for (int i = 0; i < NA; i++)
				a[i] = 10 * round(a[i] / 10);
			for (int j = 0; j < NB; j++)
				b[j] = 10 * round(b[j] / 10);
		}
		size_t n = 0;
		for (int i = 0; i < NA; i++)
			for (int j = 0; j < NB; j++)
				diff[n++] = b[j] - a[i];
		qsort(diff, n, sizeof *diff, cmp_double);
		double want = (diff[n / 2 - 1] + diff[n / 2]) / 2, got;

		stats_hodges_lehmann(a, NA, b, NB, &got);
		if (got != want)
			*(lattice ? &bad_lat : &bad_cont) += 1;
	}
	gsl_rng_free(rng);
	is_int(bad_cont, 0, "HL = median of all listed pairs, bit for bit, 10 continuous data sets");
	is_int(bad_lat, 0, "HL = median of all listed pairs on a 10 ns lattice (ties), 10 data sets");
}

static void test_verdict_rule(void)
{
	double more;

	is_int(stats_verdict(0.1, -0.5, 0.6, 1, 100, &more), TL_VERDICT_SAME,
	       "interval inside +-threshold: same");
	is_int(stats_verdict(2, 1.5, 2.5, 1, 100, &more), TL_VERDICT_DIFFERENT,
	       "interval above 0 and past the threshold: different");
	is_int(stats_verdict(-2, -2.5, -1.5, 1, 100, &more), TL_VERDICT_DIFFERENT,
	       "interval below 0: different");
	is_int(stats_verdict(0.5, 0.2, 0.8, 1, 100, &more), TL_VERDICT_SAME,
	       "a real but small shift inside the band: same");
	is_int(stats_verdict(0, -2, 2, 1, 100, &more), TL_VERDICT_UNKNOWN,
	       "interval across 0 and past the band: unknown");
	/* h = 2 must shrink to 1 = threshold - 0: 4x the samples, 300 more. */
	is_near(more, 300, 0, "unknown says 300 more samples (width halves at 4x n)");
	stats_verdict(0, -2, 2, 0, 100, &more);
	ok(isnan(more), "no shift and no band: no sample count would decide");
}

/* Interval coverage and verdict rates over seeds, on normal data with a
 * known shift: a percentile bootstrap should cover the truth about 95 % of
 * the time; the bounds leave room for chance over 50 seeds. */
static void test_distribution(void)
{
	enum { SEEDS = 50, M = 80 };
	double a[M], b[M];
	const double sd = 2, shift4 = 6 * sd / sqrt(M);
	int cover = 0, same = 0, diff = 0, cover_shift = 0;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct tl_comparison c;

	for (int s = 0; s < SEEDS; s++) {
		gsl_rng_set(rng, 100 + (unsigned long)s);
		for (int i = 0; i < M; i++) {
			a[i] = 100 + gsl_ran_gaussian(rng, sd);
			b[i] = 100 + gsl_ran_gaussian(rng, sd);
		}
		/* A band of 3 sd/sqrt(n) is wide enough for "same" with no shift. */
		stats_compare(a, M, b, M, 3 * sd / sqrt(M) * 2, (uint64_t)s, &c);
		cover += c.lo <= 0 && 0 <= c.hi;
		same += c.verdict == TL_VERDICT_SAME;
		for (int i = 0; i < M; i++)
			b[i] += shift4;
		stats_compare(a, M, b, M, 0, (uint64_t)s, &c);
		cover_shift += c.lo <= shift4 && shift4 <= c.hi;
		diff += c.verdict == TL_VERDICT_DIFFERENT;
	}
	gsl_rng_free(rng);
	tap_diag("over %d seeds: no shift covered %d, same %d; shift 6sd/sqrt(n) covered %d, different %d",
	     SEEDS, cover, same, cover_shift, diff);
	ok(cover >= 40, "no shift: the interval covers 0 in >= 80%% of seeds (%d/%d)", cover, SEEDS);
	ok(cover_shift >= 40, "a known shift: covered in >= 80%% of seeds (%d/%d)", cover_shift, SEEDS);
	ok(same >= 45, "no shift: same in >= 90%% of seeds (%d/%d)", same, SEEDS);
	ok(diff >= 48, "shift 6 sd/sqrt(n): different in >= 95%% of seeds (%d/%d)", diff, SEEDS);

	/* Same data, same seed: the same interval. */
	struct tl_comparison c2;
	stats_compare(C, N(C), D, N(D), 0, 9, &c);
	stats_compare(C, N(C), D, N(D), 0, 9, &c2);
	ok(c.lo == c2.lo && c.hi == c2.hi, "the same data give the same interval");
	ok(c.lo <= c.shift && c.shift <= c.hi, "the shift lies in its interval [%g, %g]", c.lo, c.hi);
	is_near(c.median_diff, 1.5, 0, "difference of medians of C and D (numpy: 101.5 - 100)");
}


/* A clock of step q read at a random phase (as sim's): q floor(x/q + U). */
static double on_lattice(gsl_rng *rng, double x, double q)
{
	return q * floor(x / q + gsl_rng_uniform(rng));
}

/* A lattice clock's shift as a distribution: 2 ns on a 10 ns clock
 * with sd 5 noise, 2000 a side, 100 seeds. Hodges-Lehmann sits on the
 * lattice (0 or +-10, interval a point); the difference of means, which the
 * rule picks here (ties everywhere), covers 2 ns in about 95 % of seeds
 * (>= 88 of 100 asserted). Its Welch half-width is 1.96 sqrt(2 (sd^2 +
 * q^2/6) / n) (a random-phase reading's variance; see test_compare_lattice.sh),
 * checked within 10 %. Continuous data keep Hodges-Lehmann. */
static void test_lattice_shift(void)
{
	enum { SEEDS = 100, M = 2000 };
	static double a[M], b[M];
	const double q = 10, sd = 5, truth = 2;
	const double half = 1.96 * sqrt(2 * (sd * sd + q * q / 6) / M);
	int cover = 0, mean = 0, hl_on_lattice = 0, width_ok = 0;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	struct tl_comparison c;
	enum tl_shift_method m;
	double hl;

	for (int s = 0; s < SEEDS; s++) {
		gsl_rng_set(rng, 500 + (unsigned long)s);
		for (int i = 0; i < M; i++) {
			a[i] = on_lattice(rng, 500 + gsl_ran_gaussian(rng, sd), q);
			b[i] = on_lattice(rng, 500 + truth + gsl_ran_gaussian(rng, sd), q);
		}
		stats_compare(a, M, b, M, 0, 0, &c);
		stats_hodges_lehmann(a, M, b, M, &hl);
		mean += c.method == TL_SHIFT_MEAN;
		cover += c.lo <= truth && truth <= c.hi;
		width_ok += fabs((c.hi - c.lo) / 2 / half - 1) < 0.1;
		hl_on_lattice += fmod(fabs(hl), q / 2) == 0;
	}
	tap_diag("lattice: mean chosen %d, covered %d, half-width near %.3f in %d, HL on the "
		 "half-lattice %d (of %d)", mean, cover, half, width_ok, hl_on_lattice, SEEDS);
	is_int(mean, SEEDS, "a 10 ns clock with sd 5: the difference of means, every seed");
	ok(cover >= 88, "it covers the true 2 ns in >= 88 of 100 seeds (%d)", cover);
	is_int(width_ok, SEEDS, "its half-width is the analytic one within 10 %%, every seed");
	is_int(hl_on_lattice, SEEDS, "Hodges-Lehmann itself sits on the half-lattice (why it is not used)");
	ok(stats_shift(a, M, b, M, &m) == c.shift && m == TL_SHIFT_MEAN,
	   "stats_shift gives compare's estimate and names the method");
	for (int i = 0; i < M; i++) {
		a[i] = 500 + gsl_ran_gaussian(rng, sd);
		b[i] = 500 + truth + gsl_ran_gaussian(rng, sd);
	}
	stats_compare(a, M, b, M, 0, 0, &c);
	stats_hodges_lehmann(a, M, b, M, &hl);
	ok(c.method == TL_SHIFT_HL && c.shift == hl && c.tie_share == 0,
	   "continuous data (no ties): Hodges-Lehmann");
	gsl_rng_free(rng);
}

/* One level with a few spikes 2000 ns above it, against the same level
 * with none (the A/A control of a jitter cell on a noiseless 10 ns clock):
 * the spikes' gap is the only gap the data show. Fenced means must still
 * drop the spikes: 0 [0, 0], as by hand, not the +20 ns the spikes make. */
static void test_spike_gap(void)
{
	enum { NA = 600, NB = 67 };
	double a[NA], b[NB];
	struct tl_comparison c;

	for (int i = 0; i < NA; i++)
		a[i] = i < 6 ? 2170 : 170;
	for (int i = 0; i < NB; i++)
		b[i] = 170;
	stats_compare_step(a, NA, b, NB, 0, 0, 10, &c);
	ok(c.method == TL_SHIFT_MEAN && c.shift == 0 && c.lo == 0 && c.hi == 0,
	   "a level with spikes beside it, on a 10 ns step: shift %g [%g, %g], want 0 [0, 0]", c.shift,
	   c.lo, c.hi);
	/* a level on the other side shows the step: the spikes go without a hint */
	b[0] = 180;
	stats_compare(a, NA, b, NB, 0, 0, &c);
	ok(c.method == TL_SHIFT_MEAN && fabs(c.shift - 10.0 / NB) < 1e-9,
	   "the step read from either side: shift %g, want 10/67 = %g", c.shift, 10.0 / NB);
}

/* The block spread on hand-made blocks whose shifts are known: each block
 * of A holds one value three times, B's the same plus s_k, so every
 * block's shift is s_k by either method. s = 1..5: sd sqrt(2.5), half
 * t(0.975, 4) sqrt(2.5) / sqrt(5) with t = 2.7764451051977987 (scipy). */
static void test_blocks(void)
{
	double a[18], b[18];
	size_t ab[18], bb[18];
	struct tl_block_spread r;
	const double want = 2.7764451051977987 * sqrt(2.5) / sqrt(5.0);

	for (size_t k = 0; k < 6; k++)
		for (size_t i = 0; i < 3; i++) {
			a[3 * k + i] = 100.0 + (double)k * 7; /* the level moves block to block */
			b[3 * k + i] = a[3 * k + i] + (double)(k % 5 + 1);
			ab[3 * k + i] = bb[3 * k + i] = k;
		}
	/* Block 5 gets two samples on A's side only: skipped. */
	is_int(stats_shift_blocks(a, ab, 17, b, bb, 15, TL_SHIFT_HL, 0, &r), 0, "5 blocks: a spread");
	ok(r.blocks == 5 && fabs(r.sd - sqrt(2.5)) < 1e-12 && fabs(r.half - want) < 1e-9,
	   "HL blocks' shifts 1..5: %zu blocks, sd %.6f, half %.6f (want %.6f)", r.blocks, r.sd,
	   r.half, want);
	is_int(stats_shift_blocks(a, ab, 17, b, bb, 15, TL_SHIFT_MEAN, 1, &r), 0, "means: a spread");
	ok(r.blocks == 5 && fabs(r.half - want) < 1e-9, "mean blocks: the same half %.6f", r.half);
	is_int(stats_shift_blocks(a, ab, 12, b, bb, 12, TL_SHIFT_HL, 0, &r), -1,
	       "4 blocks are too few: no spread");
	ok(isnan(r.half) && r.blocks == 0, "and the half is NaN");
}

int main(void)
{
	test_hand();
	test_reference();
	test_scipy_lattice();
	test_hl_brute();
	test_verdict_rule();
	test_distribution();
	test_lattice_shift();
	test_spike_gap();
	test_blocks();
	return tap_done();
}
