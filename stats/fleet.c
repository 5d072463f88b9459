#include "config.h"

#include "stats/fleet.h"

#include <math.h>
#include <stdlib.h>

#include "base/xalloc.h"
#include "stats/stats.h"

void stats_fleet_score(double x, const double *others, size_t n, double floor_abs,
		       double floor_rel, struct tl_fleet_score *s)
{
	double *v = tl_xmalloc(n * sizeof *v);
	size_t k = 0;

	s->n = 0;
	s->median = s->mad = s->lo = s->hi = s->scale = s->z = NAN;
	for (size_t i = 0; i < n; i++)
		if (isfinite(others[i]))
			v[k++] = others[i];
	s->n = k;
	if (k == 0) {
		free(v);
		return;
	}
	s->median = stats_median(v, k);
	s->lo = s->hi = v[0];
	for (size_t i = 0; i < k; i++) {
		s->lo = fmin(s->lo, v[i]);
		s->hi = fmax(s->hi, v[i]);
		v[i] = fabs(v[i] - s->median);
	}
	s->mad = stats_median(v, k);
	free(v);
	if (k < TL_FLEET_FEW) {
		/* Two or three values say nothing of their spread (their MAD is
		 * half a gap that load alone can open): a node must lie beyond
		 * every other, by more than the floor allows. */
		double edge = isfinite(x) && x < s->lo ? s->lo : isfinite(x) && x > s->hi ? s->hi : x;

		s->scale = TL_MAD_NORMAL * fmax(floor_abs, floor_rel * fabs(edge));
		if (isfinite(x) && s->scale > 0)
			s->z = (x - edge) / s->scale;
		return;
	}
	s->scale = TL_MAD_NORMAL * fmax(s->mad, fmax(floor_abs, floor_rel * fabs(s->median)));
	if (isfinite(x) && s->scale > 0)
		s->z = (x - s->median) / s->scale;
}

/* ------------------------------------------------------------------ */
/* Every node of a group at once                                        */
/* ------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* stats_quantile_sorted(., m, 0.5) of s without its element r (r == k:
 * nothing left out), to the bit. */
static double median_without(const double *s, size_t k, size_t r)
{
	size_t m = r < k ? k - 1 : k, i = (m - 1) / 2;
	double a = s[i < r ? i : i + 1];

	if (m % 2)
		return a;
	return a + 0.5 * (s[i + 1 < r ? i + 1 : i + 2] - a);
}

/* The sorted |s - med| for the few medians a group's nodes see (a median
 * without one value takes at most three values). */
struct dev_cache {
	double med[4];
	double *dev[4];
	size_t used;
};

static const double *devs(struct dev_cache *dc, const double *s, size_t k, double med)
{
	size_t i;

	for (i = 0; i < dc->used; i++)
		if (dc->med[i] == med || (isnan(med) && isnan(dc->med[i])))
			return dc->dev[i];
	if (dc->used == 4) {
		free(dc->dev[3]);
		dc->used = 3;
	}
	i = dc->used++;
	dc->med[i] = med;
	dc->dev[i] = tl_xmalloc((k ? k : 1) * sizeof *dc->dev[i]);
	for (size_t j = 0; j < k; j++)
		dc->dev[i][j] = fabs(s[j] - med);
	qsort(dc->dev[i], k, sizeof *dc->dev[i], cmp_double);
	return dc->dev[i];
}

static void score_one(double x, const double *s, size_t k, struct dev_cache *dc,
		      double floor_abs, double floor_rel, struct tl_fleet_score *sc)
{
	size_t r = isfinite(x) ? stats_first_at_least(s, k, x) : k, m = r < k ? k - 1 : k;

	sc->n = m;
	sc->median = sc->mad = sc->lo = sc->hi = sc->scale = sc->z = NAN;
	if (m == 0)
		return;
	sc->median = median_without(s, k, r);
	sc->lo = s[r == 0 ? 1 : 0];
	sc->hi = s[r == k - 1 && r < k ? k - 2 : k - 1];
	{
		const double *d = devs(dc, s, k, sc->median);
		size_t rd = r < k ? stats_first_at_least(d, k, fabs(x - sc->median)) : k;

		sc->mad = median_without(d, k, rd);
	}
	if (m < TL_FLEET_FEW) {
		double edge = isfinite(x) && x < sc->lo ? sc->lo : isfinite(x) && x > sc->hi ? sc->hi : x;

		sc->scale = TL_MAD_NORMAL * fmax(floor_abs, floor_rel * fabs(edge));
		if (isfinite(x) && sc->scale > 0)
			sc->z = (x - edge) / sc->scale;
		return;
	}
	sc->scale = TL_MAD_NORMAL * fmax(sc->mad, fmax(floor_abs, floor_rel * fabs(sc->median)));
	if (isfinite(x) && sc->scale > 0)
		sc->z = (x - sc->median) / sc->scale;
}

void stats_fleet_score_all(const double *x, size_t n, double floor_abs, double floor_rel,
			   struct tl_fleet_score *out)
{
	double *s = tl_xmalloc((n ? n : 1) * sizeof *s);
	struct dev_cache dc = {.used = 0};
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			s[k++] = x[i];
	qsort(s, k, sizeof *s, cmp_double);
	for (size_t i = 0; i < n; i++)
		score_one(x[i], s, k, &dc, floor_abs, floor_rel, &out[i]);
	for (size_t i = 0; i < dc.used; i++)
		free(dc.dev[i]);
	free(s);
}
