/* Two-sample comparisons: Hodges-Lehmann shift with a bootstrap interval,
 * Mann-Whitney U, Kolmogorov-Smirnov and the three-way verdict. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>

#include "base/xalloc.h"
#include "stats/compare.h"
#include "stats/stats.h"

static double *sorted_copy(const double *x, size_t n)
{
	double *s = tl_xmalloc(n * sizeof *s);

	memcpy(s, x, n * sizeof *s);
	gsl_sort(s, 1, n);
	return s;
}

/* Pairs with b_j - a_i <= d, a and b sorted. For a fixed b_j the difference
 * falls as a_i grows (also in floating point: rounding is monotone), so the
 * count per i only grows with i and one pointer sweep suffices. */
static uint64_t count_le(const double *a, size_t na, const double *b, size_t nb, double d)
{
	uint64_t cnt = 0;
	size_t j = 0;

	for (size_t i = 0; i < na; i++) {
		while (j < nb && b[j] - a[i] <= d)
			j++;
		cnt += j;
	}
	return cnt;
}

/* The differences in (lo, hi], listed: for each a_i they are b_j - a_i
 * for a contiguous run of j, found with the same monotone sweeps. */
static size_t list_between(const double *a, size_t na, const double *b, size_t nb, double lo,
			   double hi, double *out)
{
	size_t jl = 0, jh = 0, m = 0;

	for (size_t i = 0; i < na; i++) {
		while (jl < nb && b[jl] - a[i] <= lo)
			jl++;
		while (jh < nb && b[jh] - a[i] <= hi)
			jh++;
		for (size_t j = jl; j < jh; j++)
			out[m++] = b[j] - a[i];
	}
	return m;
}

/* The k-th smallest (1-based) of the na*nb differences: bisection keeps
 * count(<= lo) < k <= count(<= hi) until at most na + nb differences lie
 * in (lo, hi], then lists and sorts those, so the answer is one of the
 * differences, bit for bit, as when sorting all of them, after about
 * log2(na nb / (na + nb)) counts. Bisection alone would go on to adjacent
 * doubles (~60 counts) on continuous data. */
static double kth_diff(const double *a, size_t na, const double *b, size_t nb, uint64_t k,
		       double *scratch)
{
	double lo = b[0] - a[na - 1], hi = b[nb - 1] - a[0];
	uint64_t clo, chi = (uint64_t)na * nb, cap = na + nb;

	if ((clo = count_le(a, na, b, nb, lo)) >= k)
		return lo;
	while (chi - clo > cap) {
		double mid = lo + (hi - lo) / 2;
		uint64_t c;

		if (mid <= lo || mid >= hi)
			break;
		c = count_le(a, na, b, nb, mid);
		if (c >= k) {
			hi = mid;
			chi = c;
		} else {
			lo = mid;
			clo = c;
		}
	}
	if (chi - clo > cap) /* the bracket is two adjacent doubles: hi it is */
		return hi;
	size_t m = list_between(a, na, b, nb, lo, hi, scratch);

	gsl_sort(scratch, 1, m);
	return scratch[k - clo - 1];
}

/* scratch holds na + nb doubles. */
static double hl_scratch(const double *a, size_t na, const double *b, size_t nb, double *scratch)
{
	uint64_t n = (uint64_t)na * nb;
	double m = kth_diff(a, na, b, nb, (n + 1) / 2, scratch);

	return n % 2 ? m : (m + kth_diff(a, na, b, nb, n / 2 + 1, scratch)) / 2;
}

static double hl_sorted(const double *a, size_t na, const double *b, size_t nb)
{
	double *scratch = tl_xmalloc((na + nb) * sizeof *scratch);
	double m = hl_scratch(a, na, b, nb, scratch);

	free(scratch);
	return m;
}

void stats_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb, double *shift)
{
	double *sa, *sb;

	*shift = NAN;
	if (na == 0 || nb == 0)
		return;
	sa = sorted_copy(a, na);
	sb = sorted_copy(b, nb);
	*shift = hl_sorted(sa, na, sb, nb);
	free(sa);
	free(sb);
}

/* Sorted pooled values with their origin, for ranks and ECDFs. */
struct tagged {
	double v;
	int from_a;
};

static int cmp_tagged(const void *x, const void *y)
{
	double a = ((const struct tagged *)x)->v, b = ((const struct tagged *)y)->v;

	return (a > b) - (a < b);
}

static struct tagged *pool(const double *a, size_t na, const double *b, size_t nb)
{
	struct tagged *t = tl_xmalloc((na + nb) * sizeof *t);

	for (size_t i = 0; i < na; i++)
		t[i] = (struct tagged){a[i], 1};
	for (size_t j = 0; j < nb; j++)
		t[na + j] = (struct tagged){b[j], 0};
	qsort(t, na + nb, sizeof *t, cmp_tagged);
	return t;
}

int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
		       double *p)
{
	size_t n = na + nb;
	struct tagged *t;
	double ra = 0, ties = 0;

	if (na == 0 || nb == 0)
		return -1;
	t = pool(a, na, b, nb);
	/* Tied values share the mean of the ranks they span (1-based). */
	for (size_t i = 0; i < n;) {
		size_t j = i, in_a = 0;

		while (j < n && t[j].v == t[i].v)
			in_a += (size_t)t[j++].from_a;
		double run = (double)(j - i), rank = (double)(i + 1 + j) / 2;

		ra += rank * (double)in_a;
		ties += run * run * run - run;
		i = j;
	}
	free(t);
	double n1 = (double)na, n2 = (double)nb, nn = (double)n;
	double u1 = ra - n1 * (n1 + 1) / 2, u2 = n1 * n2 - u1;
	double mu = n1 * n2 / 2;
	double var = n1 * n2 / 12 * ((nn + 1) - ties / (nn * (nn - 1)));

	*u = u1;
	if (!(var > 0)) {
		*p = 1;
		return 0;
	}
	/* scipy's form: the larger U, less 0.5 for continuity, two-sided. */
	double z = ((u1 > u2 ? u1 : u2) - mu - 0.5) / sqrt(var);

	*p = 2 * gsl_cdf_ugaussian_Q(z);
	if (*p > 1)
		*p = 1;
	return 0;
}

double stats_kolmogorov_q(double z)
{
	double sum = 0, sign = 1;

	if (z <= 0)
		return 1;
	/* Below 0.2 the alternating series converges slowly and Q is 1 to
	 * double precision (Q(0.2) = 1 - 1e-26). */
	if (z < 0.2)
		return 1;
	for (int k = 1; k <= 100; k++) {
		double term = exp(-2.0 * k * k * z * z);

		sum += sign * term;
		if (term < 1e-17 * sum)
			break;
		sign = -sign;
	}
	sum *= 2;
	return sum < 0 ? 0 : sum > 1 ? 1 : sum;
}

/* P(D >= h/lcm) exactly (scipy's method="exact", which its "auto" picks
 * up to 10 000 a side): the share of the C(m+n, m) lattice paths from
 * (0, 0) to (m, n) that touch |x ng - y mg| >= h, found as the
 * probability that a uniformly random path has left the band by (x, y),
 * out(x, y) = (x out(x-1, y) + y out(x, y-1)) / (x + y), 1 outside the
 * band; every value is a probability, so nothing overflows. */
static double ks_exact_p(size_t m, size_t n, uint64_t h)
{
	uint64_t g = m, r = n;

	while (r) {
		uint64_t t = g % r;

		g = r;
		r = t;
	}
	uint64_t mg = m / g, ng = n / g;
	double *col = tl_xmalloc((n + 1) * sizeof *col);

	for (size_t y = 0; y <= n; y++) {
		uint64_t a = y * mg;

		col[y] = a >= h ? 1 : y == 0 ? 0 : col[y - 1];
	}
	for (size_t x = 1; x <= m; x++) {
		for (size_t y = 0; y <= n; y++) {
			uint64_t xn = x * ng, ym = y * mg, gap = xn > ym ? xn - ym : ym - xn;

			if (gap >= h)
				col[y] = 1;
			else if (y > 0)
				col[y] = ((double)x * col[y] + (double)y * col[y - 1]) / (double)(x + y);
			/* y == 0 inside the band: out(x, 0) = out(x-1, 0), kept */
		}
	}
	double p = col[n];

	free(col);
	return p;
}

int stats_ks_2samp(const double *a, size_t na, const double *b, size_t nb, double *d, double *p)
{
	size_t n = na + nb, ca = 0, cb = 0;
	struct tagged *t;
	double best = 0;

	if (na == 0 || nb == 0)
		return -1;
	t = pool(a, na, b, nb);
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && t[j].v == t[i].v) {
			if (t[j].from_a)
				ca++;
			else
				cb++;
			j++;
		}
		double gap = fabs((double)ca / (double)na - (double)cb / (double)nb);

		if (gap > best)
			best = gap;
		i = j;
	}
	free(t);
	*d = best;
	*p = stats_ks_p(best, na, nb);
	return 0;
}

double stats_ks_p(double d, size_t na, size_t nb)
{
	if (na <= TL_KS_EXACT_MAX && nb <= TL_KS_EXACT_MAX) {
		/* D on the lattice of 1/lcm(na, nb), as scipy rounds it. */
		uint64_t g = na, r = nb;

		while (r) {
			uint64_t tmp = g % r;

			g = r;
			r = tmp;
		}
		double lcm = (double)(na / g) * (double)nb;
		uint64_t h = (uint64_t)llround(d * lcm);
		double p = h == 0 ? 1 : ks_exact_p(na >= nb ? na : nb, na >= nb ? nb : na, h);

		return p > 1 ? 1 : p;
	}
	double en = sqrt((double)na * (double)nb / (double)(na + nb));

	return stats_kolmogorov_q((en + 0.12 + 0.11 / en) * d);
}

const char *stats_verdict_name(enum tl_verdict v)
{
	switch (v) {
	case TL_VERDICT_SAME:
		return "same";
	case TL_VERDICT_DIFFERENT:
		return "different";
	case TL_VERDICT_UNKNOWN:
		break;
	}
	return "unknown";
}

enum tl_verdict stats_verdict(double est, double lo, double hi, double threshold, size_t n,
			      double *need_more)
{
	*need_more = NAN;
	/* "Same" is tested first: a tiny shift measured very precisely is a
	 * real difference nobody should be stopped by. */
	if (lo >= -threshold && hi <= threshold)
		return TL_VERDICT_SAME;
	if (lo > 0 || hi < 0)
		return TL_VERDICT_DIFFERENT;
	double h = (hi - lo) / 2, m = fabs(est);
	double target = m > threshold - m ? m : threshold - m;

	if (target > 0 && h > 0) {
		double total = (double)n * (h / target) * (h / target);
		double more = ceil(total - (double)n);

		/* The interval is not symmetric, so the rule can say "enough"
		 * when it is not quite: at least one more sample. */
		*need_more = more < 1 ? 1 : more;
	}
	return TL_VERDICT_UNKNOWN;
}

/* A bootstrap resample of sorted x, already sorted: count how often each
 * index is drawn, then lay the values out in order, O(n) instead of a sort. */
static void resample_sorted(gsl_rng *rng, const double *x, size_t n, unsigned *cnt, double *out)
{
	size_t k = 0;

	memset(cnt, 0, n * sizeof *cnt);
	for (size_t i = 0; i < n; i++)
		cnt[gsl_rng_uniform_int(rng, n)]++;
	for (size_t i = 0; i < n; i++)
		for (unsigned c = 0; c < cnt[i]; c++)
			out[k++] = x[i];
}

/* One side's level offset: the median of its baseline samples e (sorted
 * in se), and a resampled median per bootstrap draw. */
struct offset {
	double *se, *re;
	size_t n;
	double med;
};

static void offset_init(struct offset *o, const double *e, size_t n)
{
	memset(o, 0, sizeof *o);
	if (!e || n == 0)
		return;
	o->n = n;
	o->se = sorted_copy(e, n);
	o->re = tl_xmalloc(n * sizeof *o->re);
	o->med = stats_quantile_sorted(o->se, n, 0.5);
}

/* How far a resampled offset moved from the one subtracted (0 without one). */
static double offset_draw(struct offset *o, gsl_rng *rng, unsigned *cnt)
{
	if (!o->n)
		return 0;
	resample_sorted(rng, o->se, o->n, cnt, o->re);
	return stats_quantile_sorted(o->re, o->n, 0.5) - o->med;
}

static void offset_free(struct offset *o)
{
	free(o->se);
	free(o->re);
}

int stats_compare(const double *a, size_t na, const double *b, size_t nb, double threshold,
		  uint64_t seed, struct tl_comparison *c)
{
	return stats_compare_offset(a, na, NULL, 0, b, nb, NULL, 0, threshold, seed, c);
}

int stats_compare_offset(const double *a, size_t na, const double *ea, size_t nea,
			 const double *b, size_t nb, const double *eb, size_t neb,
			 double threshold, uint64_t seed, struct tl_comparison *c)
{
	double *sa = NULL, *sb = NULL, *ra = NULL, *rb = NULL, *boot = NULL, *scratch = NULL;
	unsigned *cnt = NULL;
	gsl_rng *rng = NULL;
	struct offset oa = { 0 }, ob = { 0 };
	size_t nmax = na > nb ? na : nb;
	int rc = -1;

	memset(c, 0, sizeof *c);
	c->na = na;
	c->nb = nb;
	if (na == 0 || nb == 0)
		return -1;
	nmax = nmax > nea ? nmax : nea;
	nmax = nmax > neb ? nmax : neb;
	sa = sorted_copy(a, na);
	sb = sorted_copy(b, nb);
	ra = tl_xmalloc(na * sizeof *ra);
	rb = tl_xmalloc(nb * sizeof *rb);
	scratch = tl_xmalloc((na + nb) * sizeof *scratch);
	cnt = tl_xmalloc(nmax * sizeof *cnt);
	boot = tl_xmalloc(TL_COMPARE_BOOT * sizeof *boot);
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!rng)
		tl_fail("out of memory (a random number generator)");
	offset_init(&oa, ea, nea);
	offset_init(&ob, eb, neb);
	/* Subtracting a constant keeps the order: still sorted. */
	for (size_t i = 0; i < na; i++)
		sa[i] -= oa.med;
	for (size_t j = 0; j < nb; j++)
		sb[j] -= ob.med;
	/* mt19937 takes an unsigned long; fold the high half in so seeds
	 * differing only there still differ. */
	gsl_rng_set(rng, (unsigned long)(seed ^ (seed >> 32)));
	c->hl = hl_scratch(sa, na, sb, nb, scratch);
	c->median_diff = stats_quantile_sorted(sb, nb, 0.5) - stats_quantile_sorted(sa, na, 0.5);
	for (size_t r = 0; r < TL_COMPARE_BOOT; r++) {
		resample_sorted(rng, sa, na, cnt, ra);
		resample_sorted(rng, sb, nb, cnt, rb);
		/* A resampled offset moved by d shifts that side's samples by -d. */
		double shift = offset_draw(&oa, rng, cnt) - offset_draw(&ob, rng, cnt);

		boot[r] = hl_scratch(ra, na, rb, nb, scratch) + shift;
	}
	gsl_sort(boot, 1, TL_COMPARE_BOOT);
	c->lo = stats_quantile_sorted(boot, TL_COMPARE_BOOT, (1 - TL_COMPARE_LEVEL) / 2);
	c->hi = stats_quantile_sorted(boot, TL_COMPARE_BOOT, (1 + TL_COMPARE_LEVEL) / 2);
	if (stats_mann_whitney(sa, na, sb, nb, &c->mwu_u, &c->mwu_p) != 0 ||
	    stats_ks_2samp(sa, na, sb, nb, &c->ks_d, &c->ks_p) != 0)
		goto out;
	c->verdict = stats_verdict(c->hl, c->lo, c->hi, threshold, na + nb, &c->need_more);
	rc = 0;
out:
	gsl_rng_free(rng);
	offset_free(&oa);
	offset_free(&ob);
	free(sa);
	free(sb);
	free(ra);
	free(rb);
	free(scratch);
	free(cnt);
	free(boot);
	return rc;
}
