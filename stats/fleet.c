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
