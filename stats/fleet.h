/* A node's figure against the rest of its fleet: robust scores (median and
 * MAD), pure functions, no I/O. */
#ifndef TL_STATS_FLEET_H
#define TL_STATS_FLEET_H

#include <stddef.h>

#define TL_MAD_NORMAL 1.4826 /* MAD -> sd for normal data */
#define TL_FLEET_FEW 4       /* fewer others: scored against their range, not their MAD */

struct tl_fleet_score {
	size_t n;           /* others with a value (NaNs are left out) */
	double median, mad; /* of the others */
	double lo, hi;      /* their smallest and largest */
	double scale;       /* TL_MAD_NORMAL * max(mad, floor) */
	double z;           /* (x - median) / scale; NaN when x or the others say nothing */
};

/* x against others[0..n) (NaNs ignored). The spread is floored at
 * max(floor_abs, floor_rel * |median|) so near-identical others do not make
 * a hair of difference a large score. With fewer than TL_FLEET_FEW others
 * z is the distance beyond their range (0 inside it) over the floor alone
 * (floor_rel of the nearest edge): a node stands out only beyond every
 * other. */
void stats_fleet_score(double x, const double *others, size_t n, double floor_abs,
		       double floor_rel, struct tl_fleet_score *s);

#endif
