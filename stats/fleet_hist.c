/* Histograms of a fleet's samples and a node's tests against its group's
 * pooled histogram (stats/fleet.h). The pool is built once per group; a
 * node's "others" are the pool less the node's own counts, never built, so
 * judging a node costs O(d log P) for d distinct values of the node and P
 * of the pool instead of re-sorting every other node's samples. */
#include "config.h"

#include "stats/fleet.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "stats/compare.h"
#include "stats/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void stats_hist_free(struct tl_hist *h)
{
	free(h->v);
	free(h->c);
	free(h->cum);
	memset(h, 0, sizeof *h);
}

/* Coalesces h's sorted (v, c) pairs that are equal, in place. */
static void coalesce(struct tl_hist *h)
{
	size_t w = 0;

	for (size_t i = 0; i < h->n; i++) {
		if (w > 0 && h->v[w - 1] == h->v[i]) {
			h->c[w - 1] += h->c[i];
			continue;
		}
		h->v[w] = h->v[i];
		h->c[w++] = h->c[i];
	}
	/* a node's histogram is kept for the whole fleet: the room its raw
	 * samples needed (88 KB for 5 514) is given back */
	if (w < h->n && w > 0) {
		h->v = tl_xrealloc(h->v, w, sizeof *h->v);
		h->c = tl_xrealloc(h->c, w, sizeof *h->c);
	}
	h->n = w;
}

void stats_hist_from_samples(const double *x, size_t n, struct tl_hist *h)
{
	memset(h, 0, sizeof *h);
	h->v = tl_xmalloc((n ? n : 1) * sizeof *h->v);
	h->c = tl_xmalloc((n ? n : 1) * sizeof *h->c);
	for (size_t i = 0; i < n; i++)
		if (!isnan(x[i])) {
			h->v[h->n] = x[i];
			h->c[h->n++] = 1;
		}
	qsort(h->v, h->n, sizeof *h->v, cmp_double);
	h->total = h->n;
	coalesce(h);
}

double stats_hist_bucket_mid(double x)
{
	int e;
	double m, a = fabs(x), step;

	if (!isfinite(x) || a == 0 || a < 1e-300)
		return x;
	m = frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
	/* 2^SUB buckets across [2^(e-1), 2^e): width 2^(e-1-SUB) */
	step = ldexp(1.0, e - 1 - TL_HIST_SUB_BITS);
	m = ldexp(0.5, e) + (floor((a - ldexp(0.5, e)) / step) + 0.5) * step;
	return x < 0 ? -m : m;
}

void stats_hist_loglinear(struct tl_hist *h)
{
	/* Midpoints keep the order of the values (a bucket never passes its
	 * neighbour), so the list stays sorted. */
	for (size_t i = 0; i < h->n; i++)
		h->v[i] = stats_hist_bucket_mid(h->v[i]);
	coalesce(h);
	free(h->cum);
	h->cum = NULL;
}

struct pair {
	double v;
	uint64_t c;
};

static int cmp_pair(const void *a, const void *b)
{
	double x = ((const struct pair *)a)->v, y = ((const struct pair *)b)->v;

	return (x > y) - (x < y);
}

void stats_hist_merge(const struct tl_hist *const *parts, size_t nparts, struct tl_hist *out)
{
	size_t n = 0, k = 0;
	struct pair *all;

	for (size_t i = 0; i < nparts; i++)
		n += parts[i]->n;
	all = tl_xmalloc((n ? n : 1) * sizeof *all);
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < nparts; i++)
		for (size_t j = 0; j < parts[i]->n; j++) {
			all[k++] = (struct pair){parts[i]->v[j], parts[i]->c[j]};
			out->total += parts[i]->c[j];
		}
	qsort(all, n, sizeof *all, cmp_pair);
	out->v = tl_xmalloc((n ? n : 1) * sizeof *out->v);
	out->c = tl_xmalloc((n ? n : 1) * sizeof *out->c);
	for (size_t i = 0; i < n; i++) {
		out->v[i] = all[i].v;
		out->c[i] = all[i].c;
	}
	out->n = n;
	free(all);
	coalesce(out);
}

void stats_hist_index(struct tl_hist *h)
{
	uint64_t run = 0;

	free(h->cum);
	h->cum = tl_xmalloc((h->n ? h->n : 1) * sizeof *h->cum);
	for (size_t i = 0; i < h->n; i++)
		h->cum[i] = run += h->c[i];
}

/* The k-th (0-based) smallest value of h. */
static double hist_kth(const struct tl_hist *h, uint64_t k)
{
	uint64_t run = 0;

	for (size_t i = 0; i < h->n; i++)
		if ((run += h->c[i]) > k)
			return h->v[i];
	return NAN;
}

double stats_hist_median(const struct tl_hist *h)
{
	uint64_t i;
	double a;

	if (h->total == 0)
		return NAN;
	i = (h->total - 1) / 2;
	a = hist_kth(h, i);
	return h->total % 2 ? a : a + 0.5 * (hist_kth(h, i + 1) - a);
}

double stats_hist_median_grouped(const struct tl_hist *h)
{
	uint64_t run = 0;
	double half = 0.5 * (double)h->total;
	size_t k = 0;

	if (h->n < 2)
		return h->n ? h->v[0] : NAN;
	while (k + 1 < h->n && (double)(run + h->c[k]) < half)
		run += h->c[k++];
	{
		double below = k > 0 ? h->v[k - 1] : 2 * h->v[0] - h->v[1];
		double above = k + 1 < h->n ? h->v[k + 1] : 2 * h->v[k] - h->v[k - 1];
		double lo = 0.5 * (below + h->v[k]), hi = 0.5 * (h->v[k] + above);

		return lo + (hi - lo) * (half - (double)run) / (double)h->c[k];
	}
}

void stats_hist_thin(const struct tl_hist *h, uint64_t total, struct tl_hist *out)
{
	uint64_t run = 0, prev = 0;
	double r = h->total > total ? (double)total / (double)h->total : 1;

	memset(out, 0, sizeof *out);
	out->v = tl_xmalloc((h->n ? h->n : 1) * sizeof *out->v);
	out->c = tl_xmalloc((h->n ? h->n : 1) * sizeof *out->c);
	for (size_t i = 0; i < h->n; i++) {
		uint64_t at;

		run += h->c[i];
		/* the last running count lands on total exactly, whatever the
		 * rounding of the product */
		at = r == 1 ? run : run == h->total ? total : (uint64_t)floor((double)run * r + 0.5);
		if (at > prev) {
			out->v[out->n] = h->v[i];
			out->c[out->n++] = at - prev;
			prev = at;
		}
	}
	out->total = prev;
}

double stats_hist_ties(const struct tl_hist *pool)
{
	double ties = 0;

	for (size_t i = 0; i < pool->n; i++) {
		double run = (double)pool->c[i];

		ties += run * run * run - run;
	}
	return ties;
}

/* ------------------------------------------------------------------ */
/* The others: the pool less the node                                   */
/* ------------------------------------------------------------------ */

static size_t lower_bound(const struct tl_hist *h, double y)
{
	return stats_first_at_least(h->v, h->n, y);
}

static size_t upper_bound(const struct tl_hist *h, double y)
{
	return stats_first_above(h->v, h->n, y);
}

/* How many of h's values lie at most y. */
static uint64_t count_le(const struct tl_hist *h, double y)
{
	size_t i = upper_bound(h, y);

	return i ? h->cum[i - 1] : 0;
}

/* The node's count at exactly y. */
static uint64_t count_at(const struct tl_hist *h, double y)
{
	size_t i = lower_bound(h, y);

	return i < h->n && h->v[i] == y ? h->c[i] : 0;
}

/* First index i >= from with v[i] >= y, given v[from - 1] < y: galloping
 * from the last answer, so a walk over ascending y touches the pool's
 * arrays near where it already is (a binary search from scratch each time
 * misses the cache at every step on a pool of 10^5 values and more). */
static size_t lower_bound_from(const struct tl_hist *h, double y, size_t from)
{
	size_t lo = from, hi = from, step = 1;

	while (hi < h->n && h->v[hi] < y) {
		lo = hi + 1;
		hi = lo + step;
		step *= 2;
	}
	if (hi > h->n)
		hi = h->n;
	return lo + stats_first_at_least(h->v + lo, hi - lo, y);
}

struct others {
	const struct tl_hist *x, *pool;
	uint64_t m; /* how many */
};

/* Others at most pool->v[j]. */
static uint64_t others_le_at(const struct others *o, size_t j)
{
	return o->pool->cum[j] - count_le(o->x, o->pool->v[j]);
}

/* The k-th (0-based) smallest of the others. */
static double others_kth(const struct others *o, uint64_t k)
{
	size_t lo = 0, hi = o->pool->n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (others_le_at(o, mid) > k)
			hi = mid;
		else
			lo = mid + 1;
	}
	return o->pool->v[lo];
}

/* stats_quantile_sorted(others, m, 0.5), to the bit. */
static double others_median(const struct others *o)
{
	uint64_t i = (o->m - 1) / 2;
	double a = others_kth(o, i);

	if (o->m % 2)
		return a;
	return a + 0.5 * (others_kth(o, i + 1) - a);
}

/* The largest other below y; NaN when none. */
static double others_pred(const struct others *o, double y)
{
	size_t j = lower_bound(o->pool, y);

	while (j > 0) {
		j--;
		if (o->pool->c[j] > count_at(o->x, o->pool->v[j]))
			return o->pool->v[j];
	}
	return NAN;
}

/* ------------------------------------------------------------------ */
/* The three tests                                                      */
/* ------------------------------------------------------------------ */

static double gap_at(const struct others *o, size_t j, uint64_t n)
{
	uint64_t xle = count_le(o->x, o->pool->v[j]), ole = o->pool->cum[j] - xle;

	return fabs((double)ole / (double)o->m - (double)xle / (double)n);
}

/* sup |F_others - F_node| over the pool's values: between two values of
 * the node F_node stands still and F_others climbs, so the gap is largest
 * at one end of each such run. */
static double ks_d(const struct others *o)
{
	const struct tl_hist *x = o->x;
	double best = 0;
	size_t prev = 0;

	for (size_t t = 0; t <= x->n; t++) {
		size_t at = t < x->n ? lower_bound_from(o->pool, x->v[t], prev) : o->pool->n;

		if (at > prev)
			best = fmax(best, gap_at(o, at - 1, x->total));
		if (t > 0)
			best = fmax(best, gap_at(o, prev, x->total));
		prev = at;
	}
	return best;
}

/* scipy's asymptotic Mann-Whitney as stats_mann_whitney, U of the others. */
static void mwu(const struct others *o, double ties, double *u, double *p)
{
	const struct tl_hist *x = o->x;
	double ub = 0, n1 = (double)o->m, n2 = (double)x->total, nn = n1 + n2;

	size_t ip = 0;

	for (size_t t = 0; t < x->n; t++) {
		/* x's own values are in the pool: ip is x->v[t]'s index there */
		ip = lower_bound_from(o->pool, x->v[t], ip);
		uint64_t below = (ip ? o->pool->cum[ip - 1] : 0) - (t ? x->cum[t - 1] : 0);
		uint64_t at = o->pool->c[ip] - x->c[t];

		ub += (double)x->c[t] * ((double)below + 0.5 * (double)at);
	}
	double u1 = n1 * n2 - ub, u2 = ub, mu = n1 * n2 / 2;
	double var = n1 * n2 / 12 * ((nn + 1) - ties / (nn * (nn - 1)));

	*u = u1;
	if (!(var > 0)) {
		*p = 1;
		return;
	}
	*p = 2 * gsl_cdf_ugaussian_Q(((u1 > u2 ? u1 : u2) - mu - 0.5) / sqrt(var));
	if (*p > 1)
		*p = 1;
}

/* Pairs (node x, other y) with x - y <= s: for each node value the others
 * at or above x - s, which climbs with x. at[t] is where x->v[t] - s falls
 * in the pool. */
static uint64_t pairs_le(const struct others *o, double s, size_t *at)
{
	uint64_t total = 0;
	size_t ip = 0, ix = 0;

	for (size_t t = 0; t < o->x->n; t++) {
		double y = o->x->v[t] - s;
		uint64_t below;

		at[t] = ip = lower_bound_from(o->pool, y, ip);
		ix = lower_bound_from(o->x, y, ix);
		below = (ip ? o->pool->cum[ip - 1] : 0) - (ix ? o->x->cum[ix - 1] : 0);
		total += o->x->c[t] * (o->m - below);
	}
	return total;
}

/* The k-th smallest of the differences in (lo, hi], below which lie
 * below_lo: the window's pairs (node value t, pool values ihi[t] ..
 * ilo[t]) listed, weighed and sorted. */
static double window_kth(const struct others *o, uint64_t k, uint64_t below_lo,
			 const size_t *ilo, const size_t *ihi, size_t w, double hi)
{
	/* each pair: a difference and its weight */
	struct pair *dd = tl_xmalloc((w ? w : 1) * sizeof *dd);
	size_t nd = 0;
	uint64_t acc = below_lo;
	double ans = hi;

	for (size_t t = 0; t < o->x->n; t++)
		for (size_t j = ihi[t]; j < ilo[t]; j++) {
			uint64_t oc = o->pool->c[j] - count_at(o->x, o->pool->v[j]);

			if (oc)
				dd[nd++] = (struct pair){o->x->v[t] - o->pool->v[j], o->x->c[t] * oc};
		}
	qsort(dd, nd, sizeof *dd, cmp_pair);
	for (size_t i = 0; i < nd; i++)
		if ((acc += dd[i].c) >= k) {
			ans = dd[i].v;
			break;
		}
	free(dd);
	return ans;
}

/* The k-th (1-based) smallest difference node - other: bisection on the
 * value while the differences between the bounds are many, then those
 * few listed. at holds three arrays of o->x->n. */
static double kth_diff(const struct others *o, uint64_t k, double lo, double hi, size_t *at)
{
	size_t d = o->x->n, *ilo = at, *ihi = at + d, *imid = at + 2 * d;
	uint64_t below_lo = pairs_le(o, lo, ilo);

	pairs_le(o, hi, ihi);
	for (int it = 0; it < 200; it++) {
		size_t w = 0, *swap;
		double mid = lo + (hi - lo) / 2;
		uint64_t c;

		for (size_t t = 0; t < d; t++)
			w += ilo[t] - ihi[t];
		if (w <= 8 * d + 64)
			return window_kth(o, k, below_lo, ilo, ihi, w, hi);
		if (mid <= lo || mid >= hi)
			break; /* every difference left in the window is hi */
		c = pairs_le(o, mid, imid);
		if (c >= k) {
			hi = mid;
			swap = ihi, ihi = imid, imid = swap;
		} else {
			lo = mid;
			below_lo = c;
			swap = ilo, ilo = imid, imid = swap;
		}
	}
	return hi;
}

static double hl_shift(const struct others *o)
{
	const struct tl_hist *x = o->x;
	double ymax = others_pred(o, INFINITY);
	size_t j = 0;

	while (o->pool->c[j] <= count_at(x, o->pool->v[j]))
		j++;
	double ymin = o->pool->v[j], lo = x->v[0] - ymax, hi = x->v[x->n - 1] - ymin;
	uint64_t n = x->total * o->m;

	size_t *at = tl_xmalloc(3 * x->n * sizeof *at);

	lo -= fabs(lo) + 1;
	double m = kth_diff(o, (n + 1) / 2, lo, hi, at);

	if (n % 2 == 0)
		m = (m + kth_diff(o, n / 2 + 1, lo, hi, at)) / 2;
	free(at);
	return m;
}

int stats_hist_test(const struct tl_hist *x, const struct tl_hist *pool, double ties,
		    struct tl_hist_test *t)
{
	struct others o = {x, pool, pool->total - x->total};

	memset(t, 0, sizeof *t);
	t->n = x->total;
	t->n_others = o.m;
	if (x->total == 0 || o.m == 0)
		return -1;
	t->ks_d = ks_d(&o);
	t->ks_p = stats_ks_p(t->ks_d, (size_t)o.m, (size_t)x->total);
	mwu(&o, ties, &t->mwu_u, &t->mwu_p);
	/* the pairs are counted in 64 bits */
	t->hl = (double)x->total * (double)o.m < 0x1p63 ? hl_shift(&o) : NAN;
	t->others_median = others_median(&o);
	return 0;
}
