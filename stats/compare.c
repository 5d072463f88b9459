/* Two-sample comparisons: the shift (Hodges-Lehmann, or a difference of
 * means on a lattice clock) with an analytic interval, Mann-Whitney U,
 * Kolmogorov-Smirnov and the three-way verdict. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
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

const char *stats_shift_method_name(enum tl_shift_method m)
{
	return m == TL_SHIFT_MEAN ? "mean" : "hodges-lehmann";
}

double stats_tie_share(const double *sorted, size_t n)
{
	size_t rep = 0;

	for (size_t i = 1; i < n; i++)
		rep += sorted[i] == sorted[i - 1];
	return n ? (double)rep / (double)n : 0;
}

/* One side's level and the variance of that level's estimate. */
struct level {
	double at, var;
	size_t n, cut;
};

/* The smallest positive gap between neighbours of sorted s: the clock's
 * step on a lattice (0 when every value is the same). */
static double step_of(const double *s, size_t n)
{
	double step = 0;

	for (size_t i = 1; i < n; i++) {
		double g = s[i] - s[i - 1];

		if (g > 0 && (step == 0 || g < step))
			step = g;
	}
	return step;
}

/* The mean of sorted s inside Tukey's outer fences (TL_FENCE x the larger
 * of the IQR and the step beyond the quartiles), and its squared standard
 * error. A fence that far out holds ~1e-6 of a normal body, so it removes
 * OS spikes without cutting into a lattice level (which would bias the
 * mean: a cut inside a level moves with the level's share, not the shift). */
static void fenced_mean(const double *s, size_t n, double step, struct level *l)
{
	double q1 = stats_quantile_sorted(s, n, 0.25), q3 = stats_quantile_sorted(s, n, 0.75);
	double w = TL_FENCE * fmax(q3 - q1, step), sum = 0, ss = 0;
	size_t i0 = 0, i1 = n;

	while (i0 < n && s[i0] < q1 - w)
		i0++;
	while (i1 > i0 && s[i1 - 1] > q3 + w)
		i1--;
	/* The quartiles lie inside the fences: i1 > i0. */
	for (size_t i = i0; i < i1; i++)
		sum += s[i];
	l->n = i1 - i0;
	l->cut = n - l->n;
	l->at = sum / (double)l->n;
	for (size_t i = i0; i < i1; i++)
		ss += (s[i] - l->at) * (s[i] - l->at);
	l->var = l->n > 1 ? ss / (double)(l->n - 1) / (double)l->n : 0;
}

/* The median of sorted s and its squared standard error from the
 * distribution-free interval of a median (order statistics n/2 -+ z
 * sqrt(n)/2, a binomial's normal limit): no density to estimate, so it
 * holds on continuous data and on a lattice alike. */
static void median_level(const double *s, size_t n, struct level *l)
{
	double z = gsl_cdf_ugaussian_Pinv((1 + TL_COMPARE_LEVEL) / 2), half = z * sqrt((double)n) / 2;
	double lo = floor((double)n / 2 - half), hi = ceil((double)n / 2 + half);
	size_t ilo = lo < 1 ? 1 : (size_t)lo, ihi = hi > (double)n ? n : (size_t)hi;
	double se = (s[ihi - 1] - s[ilo - 1]) / (2 * z);

	l->at = stats_quantile_sorted(s, n, 0.5);
	l->var = se * se;
	l->n = n;
	l->cut = 0;
}

/* Welch's interval for a sum of independent estimates: half-width t_df
 * sqrt(sum var), df by Welch-Satterthwaite over the terms. */
static double welch_half(const struct level *const *t, size_t nt)
{
	double v = 0, den = 0;

	for (size_t i = 0; i < nt; i++) {
		v += t[i]->var;
		if (t[i]->n > 1)
			den += t[i]->var * t[i]->var / (double)(t[i]->n - 1);
	}
	if (!(v > 0))
		return 0;
	double df = den > 0 ? v * v / den : 1e9;

	return gsl_cdf_tdist_Pinv((1 + TL_COMPARE_LEVEL) / 2, df) * sqrt(v);
}

/* The clock's step as the smallest positive gap of any of the sides: one
 * side alone can mislead, as a constant level with one spike has only the
 * spike's gap, and a fence that wide would keep the spike. */
static double common_step(const double *const *s, const size_t *n, size_t k)
{
	double step = 0;

	for (size_t i = 0; i < k; i++) {
		double g = n[i] ? step_of(s[i], n[i]) : 0;

		if (g > 0 && (step == 0 || g < step))
			step = g;
	}
	return step;
}

/* The difference of fenced means, each side less its baseline's fenced
 * mean (on a lattice a median sits on a level; a mean of dithered
 * readings does not), with Welch's interval over the four terms. */
static void shift_mean(const double *sa, size_t na, const double *sea, size_t nea,
		       const double *sb, size_t nb, const double *seb, size_t neb, double step_hint,
		       struct tl_comparison *c)
{
	struct level la, lb, lea = { 0 }, leb = { 0 };
	const struct level *terms[] = { &la, &lb, &lea, &leb };

	const double *sides[] = { sa, sb, sea, seb };
	const size_t ns[] = { na, nb, nea, neb };
	double step = common_step(sides, ns, 4);

	/* The clock's own step, where the caller knows it, bounds what the data
	 * show: a level with only spikes beside it shows the spikes' gap. */
	if (step_hint > 0 && (step == 0 || step_hint < step))
		step = step_hint;

	fenced_mean(sa, na, step, &la);
	fenced_mean(sb, nb, step, &lb);
	if (nea)
		fenced_mean(sea, nea, step, &lea);
	if (neb)
		fenced_mean(seb, neb, step, &leb);
	c->shift = (lb.at - leb.at) - (la.at - lea.at);
	c->cut_a = la.cut;
	c->cut_b = lb.cut;
	double h = welch_half(terms, 4);

	c->lo = c->shift - h;
	c->hi = c->shift + h;
}

/* Hodges-Lehmann of the offset samples (sa, sb already less their
 * baselines' medians) with the distribution-free interval that inverts
 * Mann-Whitney (Lehmann: the k-th and (na nb - k + 1)-th pairwise
 * differences, k from U's normal limit), each side widened in quadrature
 * by the two subtracted medians' standard errors. O((na + nb) log). */
static void shift_hl(const double *sa, size_t na, const double *sea, size_t nea, const double *sb,
		     size_t nb, const double *seb, size_t neb, struct tl_comparison *c)
{
	double *scratch = tl_xmalloc((na + nb) * sizeof *scratch);
	double z = gsl_cdf_ugaussian_Pinv((1 + TL_COMPARE_LEVEL) / 2);
	double n1 = (double)na, n2 = (double)nb, nn = n1 * n2;
	double kf = floor(nn / 2 - z * sqrt(nn * (n1 + n2 + 1) / 12));
	uint64_t k = kf < 1 ? 1 : (uint64_t)kf, npairs = (uint64_t)na * nb;
	struct level lea = { 0 }, leb = { 0 };

	c->shift = hl_scratch(sa, na, sb, nb, scratch);
	double lo = kth_diff(sa, na, sb, nb, k, scratch);
	double hi = kth_diff(sa, na, sb, nb, npairs - k + 1, scratch);

	free(scratch);
	if (nea)
		median_level(sea, nea, &lea);
	if (neb)
		median_level(seb, neb, &leb);
	double off = z * sqrt(lea.var + leb.var);

	c->lo = c->shift - hypot(c->shift - lo, off);
	c->hi = c->shift + hypot(hi - c->shift, off);
}

double stats_shift(const double *a, size_t na, const double *b, size_t nb,
		   enum tl_shift_method *method)
{
	double *sa, *sb, shift, ta, tb;

	*method = TL_SHIFT_HL;
	if (na == 0 || nb == 0)
		return NAN;
	sa = sorted_copy(a, na);
	sb = sorted_copy(b, nb);
	ta = stats_tie_share(sa, na);
	tb = stats_tie_share(sb, nb);
	if (fmax(ta, tb) > TL_TIE_SHARE_LATTICE) {
		struct level la, lb;

		const double *sides[] = { sa, sb };
		const size_t ns[] = { na, nb };
		double step = common_step(sides, ns, 2);

		*method = TL_SHIFT_MEAN;
		fenced_mean(sa, na, step, &la);
		fenced_mean(sb, nb, step, &lb);
		shift = lb.at - la.at;
	} else {
		shift = hl_sorted(sa, na, sb, nb);
	}
	free(sa);
	free(sb);
	return shift;
}

/* The fences of the difference of means (fenced_mean's), of the whole
 * side: each block's mean is then the mean of the same values the whole
 * sample's estimate keeps, and a block a preemption filled cannot move
 * its fences to keep the spike. */
struct fences {
	double lo, hi;
};

static struct fences side_fences(const double *x, size_t n, double step)
{
	double *s = sorted_copy(x, n);
	double q1 = stats_quantile_sorted(s, n, 0.25), q3 = stats_quantile_sorted(s, n, 0.75);
	double w = TL_FENCE * fmax(q3 - q1, step);

	free(s);
	return (struct fences){ q1 - w, q3 + w };
}

/* The mean of x's values inside f; NaN when fewer than TL_BLOCK_MIN_SIDE. */
static double fenced_block_mean(const double *x, size_t n, struct fences f)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (x[i] >= f.lo && x[i] <= f.hi) {
			sum += x[i];
			k++;
		}
	return k >= TL_BLOCK_MIN_SIDE ? sum / (double)k : NAN;
}

/* One block's shift by the method the whole sample was read with (a
 * block's own tie share could pick the other). */
static double block_shift(const double *a, size_t na, const double *b, size_t nb,
			  enum tl_shift_method method, const struct fences *f)
{
	if (method == TL_SHIFT_MEAN)
		return fenced_block_mean(b, nb, f[1]) - fenced_block_mean(a, na, f[0]);
	double *sa = sorted_copy(a, na), *sb = sorted_copy(b, nb), shift = hl_sorted(sa, na, sb, nb);

	free(sa);
	free(sb);
	return shift;
}

/* The end (exclusive) of the run of x's entries in block blk, from i. */
static size_t block_end(const size_t *blk, size_t n, size_t i, size_t at)
{
	while (i < n && blk[i] == at)
		i++;
	return i;
}

/* The step fenced_mean would use for the whole sample. */
static double whole_step(const double *a, size_t na, const double *b, size_t nb, double hint)
{
	double *sa = sorted_copy(a, na), *sb = sorted_copy(b, nb);
	const double *sides[] = { sa, sb };
	const size_t ns[] = { na, nb };
	double step = common_step(sides, ns, 2);

	free(sa);
	free(sb);
	return hint > 0 && (step == 0 || hint < step) ? hint : step;
}

int stats_shift_blocks(const double *a, const size_t *ablk, size_t na, const double *b,
		       const size_t *bblk, size_t nb, enum tl_shift_method method, double step,
		       struct tl_block_spread *r)
{
	size_t ia = 0, ib = 0, m = 0, cap = 0;
	double *shifts = NULL, mean;
	struct fences f[2] = { { -INFINITY, INFINITY }, { -INFINITY, INFINITY } };

	r->blocks = 0;
	r->half = r->sd = NAN;
	if (method == TL_SHIFT_MEAN && na && nb) {
		step = whole_step(a, na, b, nb, step);
		f[0] = side_fences(a, na, step);
		f[1] = side_fences(b, nb, step);
	}
	while (ia < na && ib < nb) {
		size_t at = ablk[ia] < bblk[ib] ? ablk[ia] : bblk[ib];
		size_t ea = block_end(ablk, na, ia, at), eb = block_end(bblk, nb, ib, at);
		double sh = NAN;

		if (ea - ia >= TL_BLOCK_MIN_SIDE && eb - ib >= TL_BLOCK_MIN_SIDE)
			sh = block_shift(a + ia, ea - ia, b + ib, eb - ib, method, f);
		if (isfinite(sh)) {
			if (m == cap) {
				cap = cap ? 2 * cap : 32;
				shifts = tl_xrealloc(shifts, cap, sizeof *shifts);
			}
			shifts[m++] = sh;
		}
		ia = ea;
		ib = eb;
	}
	if (m < TL_BLOCKS_MIN) {
		free(shifts);
		return -1;
	}
	stats_mean_t_half(shifts, m, &mean, &r->sd, &r->half);
	free(shifts);
	r->blocks = m;
	return 0;
}

int stats_mean_t_half(const double *x, size_t m, double *mean, double *sd, double *half)
{
	double sum = 0, ss = 0;

	*mean = *sd = *half = NAN;
	if (m < 2)
		return -1;
	for (size_t i = 0; i < m; i++)
		sum += x[i];
	*mean = sum / (double)m;
	for (size_t i = 0; i < m; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*sd = sqrt(ss / (double)(m - 1));
	*half = gsl_cdf_tdist_Pinv((1 + TL_COMPARE_LEVEL) / 2, (double)(m - 1)) * *sd /
		sqrt((double)m);
	return 0;
}

static int compare_impl(const double *a, size_t na, const double *ea, size_t nea,
			const double *b, size_t nb, const double *eb, size_t neb, double threshold,
			uint64_t seed, double step_hint, struct tl_comparison *c);

int stats_compare(const double *a, size_t na, const double *b, size_t nb, double threshold,
		  uint64_t seed, struct tl_comparison *c)
{
	return compare_impl(a, na, NULL, 0, b, nb, NULL, 0, threshold, seed, 0, c);
}

int stats_compare_step(const double *a, size_t na, const double *b, size_t nb, double threshold,
		       uint64_t seed, double step, struct tl_comparison *c)
{
	return compare_impl(a, na, NULL, 0, b, nb, NULL, 0, threshold, seed, step, c);
}

int stats_compare_offset(const double *a, size_t na, const double *ea, size_t nea,
			 const double *b, size_t nb, const double *eb, size_t neb,
			 double threshold, uint64_t seed, struct tl_comparison *c)
{
	return compare_impl(a, na, ea, nea, b, nb, eb, neb, threshold, seed, 0, c);
}

static double *sorted_or_null(const double *x, size_t n)
{
	return x && n ? sorted_copy(x, n) : NULL;
}

static int compare_impl(const double *a, size_t na, const double *ea, size_t nea,
			const double *b, size_t nb, const double *eb, size_t neb, double threshold,
			uint64_t seed, double step_hint, struct tl_comparison *c)
{
	double *sa, *sb, *sea, *seb, ma = 0, mb = 0;
	int rc = -1;

	/* The intervals are analytic (a bootstrap of Hodges-Lehmann cost 33 s
	 * of CPU per 10 000-sample cell), so nothing is drawn. */
	(void)seed;
	memset(c, 0, sizeof *c);
	c->na = na;
	c->nb = nb;
	if (na == 0 || nb == 0)
		return -1;
	sa = sorted_copy(a, na);
	sb = sorted_copy(b, nb);
	sea = sorted_or_null(ea, nea);
	seb = sorted_or_null(eb, neb);
	nea = sea ? nea : 0;
	neb = seb ? neb : 0;
	c->tie_share = fmax(stats_tie_share(sa, na), stats_tie_share(sb, nb));
	c->method = c->tie_share > TL_TIE_SHARE_LATTICE ? TL_SHIFT_MEAN : TL_SHIFT_HL;
	if (c->method == TL_SHIFT_MEAN)
		shift_mean(sa, na, sea, nea, sb, nb, seb, neb, step_hint, c);
	if (sea)
		ma = stats_quantile_sorted(sea, nea, 0.5);
	if (seb)
		mb = stats_quantile_sorted(seb, neb, 0.5);
	/* Subtracting a constant keeps the order: still sorted. */
	for (size_t i = 0; i < na; i++)
		sa[i] -= ma;
	for (size_t j = 0; j < nb; j++)
		sb[j] -= mb;
	if (c->method == TL_SHIFT_HL)
		shift_hl(sa, na, sea, nea, sb, nb, seb, neb, c);
	c->median_diff = stats_quantile_sorted(sb, nb, 0.5) - stats_quantile_sorted(sa, na, 0.5);
	if (stats_mann_whitney(sa, na, sb, nb, &c->mwu_u, &c->mwu_p) != 0 ||
	    stats_ks_2samp(sa, na, sb, nb, &c->ks_d, &c->ks_p) != 0)
		goto out;
	c->verdict = stats_verdict(c->shift, c->lo, c->hi, threshold, na + nb, &c->need_more);
	rc = 0;
out:
	free(sa);
	free(sb);
	free(sea);
	free(seb);
	return rc;
}
