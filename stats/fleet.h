/* A node's figure against the rest of its fleet: robust scores (median and
 * MAD), pure functions, no I/O. */
#ifndef TL_STATS_FLEET_H
#define TL_STATS_FLEET_H

#include <stddef.h>
#include <stdint.h>

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

/* stats_fleet_score of every x[i] against all the others x[j], j != i,
 * at once: the same numbers, in O(n log n) for the whole group rather than
 * O(n) per node (the group is sorted once; a median without one value is
 * read off the sorted values by index, and so is a MAD). */
void stats_fleet_score_all(const double *x, size_t n, double floor_abs, double floor_rel,
			   struct tl_fleet_score *out);

/* A histogram: distinct values ascending, each with its count. Exact for
 * samples on a timer's lattice (few distinct values); made coarse by
 * stats_hist_loglinear otherwise. cum (NULL until stats_hist_index) is the
 * running count: cum[i] = c[0] + ... + c[i]. */
struct tl_hist {
	double *v;
	uint64_t *c;
	uint64_t *cum;
	size_t n;
	uint64_t total;
};

/* Log-linear buckets (HdrHistogram's layout): 2^TL_HIST_SUB_BITS buckets
 * per power of two of |x|, each value replaced by its bucket's midpoint, so
 * a value moves by at most 2^-(TL_HIST_SUB_BITS+1) of itself (0.2 %) and
 * values keep their order up to a bucket. */
#define TL_HIST_SUB_BITS 8
#define TL_HIST_REL_ERR (1.0 / (2 << TL_HIST_SUB_BITS))
double stats_hist_bucket_mid(double x);

/* From n samples (NaNs left out); a copy is sorted. */
void stats_hist_from_samples(const double *x, size_t n, struct tl_hist *h);
/* Every value to its log-linear bucket's midpoint, counts of a bucket merged. */
void stats_hist_loglinear(struct tl_hist *h);
/* The sum of histograms (k-way: all pairs sorted and coalesced). */
void stats_hist_merge(const struct tl_hist *const *parts, size_t nparts, struct tl_hist *out);
/* Fills cum. */
void stats_hist_index(struct tl_hist *h);
/* The median of h's values, as stats_median of them listed out; NaN when
 * empty. */
double stats_hist_median(const struct tl_hist *h);
/* The median read between the lattice steps: the value holding the middle
 * sample taken as spread evenly over its step (from halfway to the value
 * below to halfway to the value above; an end value's step mirrors its
 * one neighbour's), and the median found in it by its count, the grouped
 * median of textbooks. It moves with a shift of the node smaller than the
 * timer's step, where stats_hist_median jumps a whole step or not at all.
 * NaN when empty; the one value when h has one. */
double stats_hist_median_grouped(const struct tl_hist *h);
/* h with its counts made to sum to total (when h holds more; else a copy):
 * each running count scaled and rounded, so out's empirical CDF is within
 * 0.5 / total of h's at every value. A node with many samples then weighs
 * in a pool no more than one with total. */
void stats_hist_thin(const struct tl_hist *h, uint64_t total, struct tl_hist *out);
void stats_hist_free(struct tl_hist *h);

/* A node's samples (x) against the rest of its group: the group's pooled
 * histogram (pool, indexed, x included) less x, never built. The numbers
 * are those of stats/compare.h on the raw samples with a = the others, b =
 * the node: the same D and KS p; MWU p by the same normal approximation
 * with the tie correction of the pool (the combined sample is the pool);
 * the Hodges-Lehmann shift (node - others) and the others' median. ties is
 * sum (t^3 - t) over pool's counts (stats_hist_ties, once per group). -1
 * when x or the others are empty. Both x and pool indexed (stats_hist_index). */
struct tl_hist_test {
	uint64_t n, n_others;
	double ks_d, ks_p, mwu_u, mwu_p, hl, others_median;
};
double stats_hist_ties(const struct tl_hist *pool);
int stats_hist_test(const struct tl_hist *x, const struct tl_hist *pool, double ties,
		    struct tl_hist_test *t);

#endif
