/* Tests of the fleet's linear statistics (stats/fleet.c, stats/fleet_hist.c)
 * against the direct ones they replace, on random groups with ties and
 * NaNs: every node's leave-one-out robust score equals stats_fleet_score
 * on the others listed out; a node's histogram against the pooled one
 * gives stats_ks_2samp's D and p, stats_mann_whitney's p,
 * stats_hodges_lehmann's shift and stats_median of the others listed out
 * (those are checked against scipy in tests/test_compare.c, and this
 * test's data against scipy directly by tests/test_fleet_scipy.sh). The
 * log-linear buckets keep their stated bound on random values, and
 * merging histograms equals the histogram of the merged samples.
 * With an argument: writes one case (node; others; D p mwu_p hl median)
 * to that file for the scipy check. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/compare.h"
#include "stats/fleet.h"
#include "stats/stats.h"
#include "tests/tap.h"

static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

static void check_scores(gsl_rng *r, size_t n, int round)
{
	double *x = malloc(n * sizeof *x), *others = malloc(n * sizeof *others);
	struct tl_fleet_score *all = malloc(n * sizeof *all);
	size_t bad = 0;

	for (size_t i = 0; i < n; i++) {
		/* few distinct values (ties), a NaN now and then, an outlier */
		double u = gsl_rng_uniform(r);

		x[i] = u < 0.1 ? NAN : u > 0.95 ? 100 + gsl_rng_uniform(r) * 50
						: (double)gsl_rng_uniform_int(r, 6) * 0.5 + 10;
	}
	stats_fleet_score_all(x, n, 0.5, 0.01, all);
	for (size_t i = 0; i < n; i++) {
		struct tl_fleet_score s;
		size_t m = 0;

		for (size_t j = 0; j < n; j++)
			if (j != i)
				others[m++] = x[j];
		stats_fleet_score(x[i], others, m, 0.5, 0.01, &s);
		if (s.n != all[i].n || !same(s.median, all[i].median) || !same(s.mad, all[i].mad) ||
		    !same(s.lo, all[i].lo) || !same(s.hi, all[i].hi) || !same(s.scale, all[i].scale) ||
		    !same(s.z, all[i].z)) {
			if (!bad)
				tap_diag("n %zu node %zu: z %g vs %g, median %g vs %g, mad %g vs %g", n, i,
					 all[i].z, s.z, all[i].median, s.median, all[i].mad, s.mad);
			bad++;
		}
	}
	ok(bad == 0, "round %d: leave-one-out scores of %zu nodes equal the direct ones (%zu differ)",
	   round, n, bad);
	free(x);
	free(others);
	free(all);
}

/* A node's samples: lattice values base + k*step (ties), k ~ Poisson. */
static void draw(gsl_rng *r, double *x, size_t n, double base, double step, double mu)
{
	for (size_t i = 0; i < n; i++)
		x[i] = base + step * (double)gsl_ran_poisson(r, mu);
}

static void check_test(gsl_rng *r, size_t nodes, size_t per, double shift, const char *dump)
{
	double *all = malloc(nodes * per * sizeof *all), *others = malloc(nodes * per * sizeof *others);
	struct tl_hist *h = calloc(nodes, sizeof *h), pool;
	const struct tl_hist **parts = malloc(nodes * sizeof *parts);
	size_t worst_node = 0;
	double dd = 0, dp = 0, dm = 0, dh = 0, dmed = 0;

	for (size_t k = 0; k < nodes; k++) {
		draw(r, all + k * per, per, 500 + (k == 1 ? shift : 0), 10.0 / 21, 6);
		stats_hist_from_samples(all + k * per, per, &h[k]);
		stats_hist_index(&h[k]);
		parts[k] = &h[k];
	}
	stats_hist_merge(parts, nodes, &pool);
	stats_hist_index(&pool);
	for (size_t k = 0; k < nodes; k++) {
		struct tl_hist_test t;
		double d, p, u, mp, hl, med;
		size_t m = 0;

		for (size_t j = 0; j < nodes * per; j++)
			if (j / per != k)
				others[m++] = all[j];
		stats_ks_2samp(others, m, all + k * per, per, &d, &p);
		stats_mann_whitney(others, m, all + k * per, per, &u, &mp);
		stats_hodges_lehmann(others, m, all + k * per, per, &hl);
		med = stats_median(others, m);
		stats_hist_test(&h[k], &pool, stats_hist_ties(&pool), &t);
		dd = fmax(dd, fabs(t.ks_d - d));
		dp = fmax(dp, fabs(t.ks_p - p) / fmax(p, 1e-300));
		dm = fmax(dm, fabs(t.mwu_p - mp) / fmax(mp, 1e-300));
		if (fabs(t.hl - hl) > dh)
			worst_node = k;
		dh = fmax(dh, fabs(t.hl - hl));
		dmed = fmax(dmed, fabs(t.others_median - med));
		if (dump && k == 1) {
			FILE *f = fopen(dump, "w");

			for (size_t j = 0; j < per; j++)
				fprintf(f, "%s%.17g", j ? " " : "", all[per + j]);
			fprintf(f, "\n");
			for (size_t j = 0; j < m; j++)
				fprintf(f, "%s%.17g", j ? " " : "", others[j]);
			fprintf(f, "\n%.17g %.17g %.17g %.17g %.17g\n", t.ks_d, t.ks_p, t.mwu_p, t.hl,
				t.others_median);
			fclose(f);
		}
	}
	ok(dd == 0, "%zu nodes x %zu: KS D from the histograms equals stats_ks_2samp's (max diff %g)",
	   nodes, per, dd);
	ok(dp < 1e-9, "  KS p equals it (max relative diff %g)", dp);
	ok(dm < 1e-9, "  Mann-Whitney p equals stats_mann_whitney's (max relative diff %g)", dm);
	ok(dh < 1e-9, "  Hodges-Lehmann shift equals stats_hodges_lehmann's (max diff %g ns, node %zu)",
	   dh, worst_node);
	ok(dmed == 0, "  the others' median equals stats_median's (max diff %g)", dmed);
	for (size_t k = 0; k < nodes; k++)
		stats_hist_free(&h[k]);
	stats_hist_free(&pool);
	free(h);
	free(parts);
	free(all);
	free(others);
}

static void check_loglinear(gsl_rng *r)
{
	enum { N = 20000 };
	double *x = malloc(N * sizeof *x), worst = 0;
	struct tl_hist h, g;
	size_t order_bad = 0;

	for (size_t i = 0; i < N; i++)
		x[i] = (gsl_rng_uniform(r) < 0.1 ? -1 : 1) * exp(gsl_ran_gaussian(r, 8.0));
	for (size_t i = 0; i < N; i++) {
		double m = stats_hist_bucket_mid(x[i]);

		worst = fmax(worst, fabs(m - x[i]) / fabs(x[i]));
	}
	ok(worst <= TL_HIST_REL_ERR, "log-linear buckets: every value within %g of itself (worst %g)",
	   TL_HIST_REL_ERR, worst);
	stats_hist_from_samples(x, N, &h);
	for (size_t i = 1; i < h.n; i++)
		order_bad += stats_hist_bucket_mid(h.v[i]) < stats_hist_bucket_mid(h.v[i - 1]);
	ok(order_bad == 0, "  and keep the order of the values (%zu inversions)", order_bad);
	stats_hist_loglinear(&h);
	ok(h.total == N && h.n < N, "  %d values in %zu buckets, none lost", N, h.n);
	/* merged halves = the whole */
	{
		struct tl_hist a, b, m;
		const struct tl_hist *parts[2] = {&a, &b};
		bool eq;

		stats_hist_from_samples(x, N / 3, &a);
		stats_hist_from_samples(x + N / 3, N - N / 3, &b);
		stats_hist_merge(parts, 2, &m);
		stats_hist_from_samples(x, N, &g);
		eq = m.n == g.n && m.total == g.total;
		for (size_t i = 0; eq && i < m.n; i++)
			eq = m.v[i] == g.v[i] && m.c[i] == g.c[i];
		ok(eq, "merging two histograms equals the histogram of all their samples");
		stats_hist_free(&a);
		stats_hist_free(&b);
		stats_hist_free(&m);
		stats_hist_free(&g);
	}
	stats_hist_free(&h);
	free(x);
}

/* A histogram's median against stats_median of its samples listed out;
 * thinning against its stated bound: the counts sum to the total asked,
 * every value is one of the original's, and the empirical CDFs differ by
 * at most 0.5 / total at every value. One case by hand too. */
static void check_median_thin(gsl_rng *r)
{
	size_t med_bad = 0, thin_bad = 0;
	double worst = 0;

	for (int round = 0; round < 40; round++) {
		size_t n = 1 + gsl_rng_uniform_int(r, 3000);
		uint64_t total = 1 + gsl_rng_uniform_int(r, 700);
		double *x = malloc(n * sizeof *x);
		struct tl_hist h, t;
		uint64_t run = 0, trun = 0;
		size_t j = 0;

		draw(r, x, n, 500, 10, 4);
		stats_hist_from_samples(x, n, &h);
		med_bad += stats_hist_median(&h) != stats_median(x, n);
		stats_hist_thin(&h, total, &t);
		thin_bad += t.total != (n > total ? total : n);
		for (size_t i = 0; i < h.n; i++) {
			run += h.c[i];
			if (j < t.n && t.v[j] == h.v[i])
				trun += t.c[j++];
			worst = fmax(worst, fabs((double)run / (double)h.total -
						 (double)trun / (double)t.total) * (double)t.total);
		}
		thin_bad += j != t.n; /* a value not in h, or out of order */
		stats_hist_free(&h);
		stats_hist_free(&t);
		free(x);
	}
	ok(med_bad == 0, "a histogram's median equals stats_median of its samples (%zu differ)",
	   med_bad);
	ok(thin_bad == 0 && worst <= 0.5, "thinned histograms hold the total asked, the same values, "
	   "and CDFs within 0.5/total (worst %.3f/total)", worst);
	{
		/* {10:1, 20:2, 30:1} to 2: running counts 1, 3, 4 -> 0.5, 1.5, 2 -> 1, 2, 2 */
		double v[] = {10, 20, 20, 30};
		struct tl_hist h, t;

		stats_hist_from_samples(v, 4, &h);
		stats_hist_thin(&h, 2, &t);
		ok(t.n == 2 && t.v[0] == 10 && t.c[0] == 1 && t.v[1] == 20 && t.c[1] == 1 &&
		   t.total == 2, "by hand: {10:1, 20:2, 30:1} thinned to 2 is {10:1, 20:1}");
		ok(stats_hist_median(&h) == 20, "  and its median is 20");
		ok(stats_hist_median_grouped(&h) == 20, "  grouped too: 15 + 10 (2 - 1) / 2 = 20");
		stats_hist_free(&h);
		stats_hist_free(&t);
		/* {10:2, 20:1, 30:3}: the middle (3 of 6) in 20's step [15, 25]
		 * after 2 below it: 15 + 10 (3 - 2) / 1 = 25; {10:3, 20:1}: 10's
		 * step mirrors 20's, [5, 15]: 5 + 10 (2 - 0) / 3 */
		{
			double w[] = {10, 10, 20, 30, 30, 30}, u[] = {10, 10, 10, 20};

			stats_hist_from_samples(w, 6, &h);
			stats_hist_from_samples(u, 4, &t);
			ok(stats_hist_median_grouped(&h) == 25 &&
			   fabs(stats_hist_median_grouped(&t) - (5 + 20.0 / 3)) < 1e-12,
			   "  by hand: grouped medians 25 and 5 + 20/3 (%g, %g)",
			   stats_hist_median_grouped(&h), stats_hist_median_grouped(&t));
		}
		stats_hist_free(&h);
		stats_hist_free(&t);
	}
}

int main(int argc, char **argv)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(r, 24);
	if (argc > 1) {
		check_test(r, 4, 400, 2.0, argv[1]);
		gsl_rng_free(r);
		return tap_done();
	}
	for (int round = 0; round < 6; round++) {
		static const size_t sizes[] = {1, 2, 3, 4, 5, 9, 30, 101};

		for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
			check_scores(r, sizes[s], round);
	}
	check_test(r, 3, 300, 0, NULL);          /* exact KS p: both sides small */
	check_test(r, 5, 500, 3.0, NULL);        /* one node shifted */
	check_test(r, 12, 2000, 1.0, NULL);      /* others past 10 000: asymptotic p */
	check_loglinear(r);
	check_median_thin(r);
	gsl_rng_free(r);
	return tap_done();
}
