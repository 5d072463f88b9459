/* A node's figure against the rest of its fleet: robust scores (median and
 * MAD), pure functions, no I/O. */
#ifndef TL_STATS_FLEET_H
#define TL_STATS_FLEET_H

#include <stddef.h>

#define TL_MAD_NORMAL 1.4826 /* MAD -> sd for normal data */

struct tl_fleet_score {
	size_t n;           /* others with a value (NaNs are left out) */
	double median, mad; /* of the others */
	double lo, hi;      /* their smallest and largest */
	double scale;       /* TL_MAD_NORMAL * max(mad, floor) */
	double z;           /* (x - median) / scale; NaN when x or the others say nothing */
};

/* x against others[0..n) (NaNs ignored). The spread is floored at
 * max(floor_abs, floor_rel * |median|) so near-identical others do not make
 * a hair of difference a large score. */
void stats_fleet_score(double x, const double *others, size_t n, double floor_abs,
		       double floor_rel, struct tl_fleet_score *s);

#endif
