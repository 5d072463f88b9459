/* Comparisons of two distributions: two runs, a run against
 * a baseline, or the plain and injected samples of a jitter cell. Pure
 * functions, GSL inside, no I/O. Every shift is B - A. */
#ifndef TL_STATS_COMPARE_H
#define TL_STATS_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/* Hodges-Lehmann shift: the median of the na*nb differences b_j - a_i,
 * found exactly by selection on the sorted samples (never by listing the
 * pairs), so 10 000 x 10 000 samples cost O((na + nb) log) and no memory
 * for pairs. NaN when a sample is empty. */
void stats_hodges_lehmann(const double *a, size_t na, const double *b, size_t nb, double *shift);

/* Mann-Whitney U test, two-sided, by the normal approximation with the tie
 * correction and the continuity correction: scipy.stats.mannwhitneyu(a, b,
 * method="asymptotic") exactly. u is U of a (R_a - na(na+1)/2). p is 1 when
 * every value is tied. -1 when a sample is empty. */
int stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u,
		       double *p);

/* Two-sample Kolmogorov-Smirnov: d = sup |F_a - F_b| (ties handled: both
 * ECDFs are stepped past every copy of a value before comparing) and its
 * two-sided p as scipy.stats.ks_2samp's default: exact (lattice paths,
 * D rounded to the 1/lcm(na, nb) lattice) when both samples have at most
 * TL_KS_EXACT_MAX values, O(na nb); beyond that Kolmogorov's limit
 * distribution at (sqrt(en) + 0.12 + 0.11/sqrt(en)) d, en = na nb /
 * (na + nb) (Stephens' correction, as Numerical Recipes' kstwo; scipy's
 * asymptotic form differs in the third digit). -1 when a sample is empty. */
#define TL_KS_EXACT_MAX 10000
int stats_ks_2samp(const double *a, size_t na, const double *b, size_t nb, double *d, double *p);
/* That p for a D already found (the fleet finds D from histograms). */
double stats_ks_p(double d, size_t na, size_t nb);
/* Kolmogorov's Q(z) = 2 sum_{k>=1} (-1)^(k-1) exp(-2 k^2 z^2), 1 at z <= 0. */
double stats_kolmogorov_q(double z);

enum tl_verdict { TL_VERDICT_SAME, TL_VERDICT_DIFFERENT, TL_VERDICT_UNKNOWN };
const char *stats_verdict_name(enum tl_verdict v);

#define TL_COMPARE_LEVEL 0.95 /* interval coverage */

/* Where the shift is read. Hodges-Lehmann (the median of pairwise
 * differences) is efficient and robust on continuous data, but on a clock
 * whose step is near the data's spread every difference is a multiple of
 * the step: the estimate sits on the lattice and its interval collapses to
 * a point that can exclude the truth (a true 2 ns shift read as 0 on a
 * 10 ns clock). There the noise dithers the shift into the mean, so the
 * difference of means is used. The rule: more than TL_TIE_SHARE_LATTICE of
 * either side's values repeat a value already seen (continuous data have
 * none; a lattice clock's readings have many). */
enum tl_shift_method { TL_SHIFT_HL, TL_SHIFT_MEAN };
#define TL_TIE_SHARE_LATTICE 0.05
/* The mean's outer fences, in IQRs beyond the quartiles (Tukey's 3): far
 * enough out to keep every level of a lattice, near enough to leave out
 * OS spikes that would swamp a mean. */
#define TL_FENCE 3.0
/* "hodges-lehmann" or "mean": the name the JSON and the tables print. */
const char *stats_shift_method_name(enum tl_shift_method m);
/* Share of the values of sorted x that equal their predecessor. */
double stats_tie_share(const double *sorted, size_t n);

struct tl_comparison {
	size_t na, nb;
	enum tl_shift_method method;
	double tie_share;    /* the larger side's share of tied values (the rule's input) */
	union {
		double shift; /* B - A by method */
		double hl;    /* its name from when it was always Hodges-Lehmann */
	};
	size_t cut_a, cut_b; /* mean only: values beyond the fences, left out */
	double median_diff;  /* median(B) - median(A) */
	double lo, hi;       /* 95 % interval of shift: Welch's for means, Lehmann's
			      * (Mann-Whitney inverted) for Hodges-Lehmann, either
			      * widened by the subtracted baselines' uncertainty */
	double mwu_u, mwu_p; /* Mann-Whitney U of A and its two-sided p */
	double ks_d, ks_p;   /* Kolmogorov-Smirnov statistic and p */
	enum tl_verdict verdict;
	double need_more;    /* unknown only: about how many more samples (A and B
			      * together) would decide, NaN when none would (the
			      * threshold is 0 and the estimate is 0) */
};

/* Compares A and B. threshold (>= 0, B's units) is the band of "same": the
 * verdict is same when [lo, hi] lies inside [-threshold, +threshold],
 * otherwise different when the interval excludes 0, otherwise unknown.
 * The intervals are analytic, so the result depends on the data alone;
 * seed is accepted and unused (callers pass one; it drew a bootstrap,
 * which cost 33 s of CPU per 10 000-sample cell). O((na + nb) log)
 * except KS's exact p (O(na nb), as scipy's). Returns 0, or -1 when a
 * sample is empty. */
int stats_compare(const double *a, size_t na, const double *b, size_t nb, double threshold,
		  uint64_t seed, struct tl_comparison *c);

/* stats_compare on a clock whose step the caller knows (its measured
 * resolution, in the samples' unit; 0: unknown). The difference of means
 * fences each side at TL_FENCE x the larger of its IQR and the step; the
 * step is read from the data, which on one level with spikes beside it
 * shows only the spikes' gap (a fence that wide keeps them): the known step
 * caps it. */
int stats_compare_step(const double *a, size_t na, const double *b, size_t nb, double threshold,
		       uint64_t seed, double step, struct tl_comparison *c);

/* stats_compare of A and B each less its own baseline (ea, eb: a run's
 * empty cell, t_e,std), the interval carrying the uncertainty of both
 * subtracted levels. The level subtracted is the baseline's median for
 * Hodges-Lehmann (t_e,std as the paper defines it) and its fenced mean
 * for the mean (a median on a lattice sits on a level). ea or eb NULL (or
 * empty): nothing subtracted on that side. The rank tests see the samples
 * less the medians either way. Same returns as stats_compare. */
int stats_compare_offset(const double *a, size_t na, const double *ea, size_t nea,
			 const double *b, size_t nb, const double *eb, size_t neb,
			 double threshold, uint64_t seed, struct tl_comparison *c);

/* The shift B - A alone, by the method stats_compare would pick (said in
 * *method); NaN when a sample is empty. */
double stats_shift(const double *a, size_t na, const double *b, size_t nb,
		   enum tl_shift_method *method);

/* The shift's spread between time blocks ("batch means"). Samples taken
 * over a run whose level moves (a core clock drifting 1-2 % between
 * chunks on a VM) are not independent: an interval from the samples'
 * scatter alone is too narrow, and misses the truth more often than it
 * says. Each block of consecutive samples gives its own shift (by the
 * method given: the whole sample's, so a block's ties cannot switch it;
 * a difference of means keeps the values inside the whole side's fences,
 * as the whole estimate does), and the blocks' shifts, nearly
 * independent of each other, give
 * the half-width t_(m-1) sd / sqrt(m) of a 95 % interval for their mean.
 * a and b are in time order with their blocks' numbers in ablk and
 * bblk, nondecreasing; a block with fewer than TL_BLOCK_MIN_SIDE samples
 * on a side is skipped. step: the clock's step (0: unknown), as in
 * stats_compare_step. Returns 0, or -1 when fewer than TL_BLOCKS_MIN
 * blocks had both sides (half NaN). */
#define TL_BLOCKS_MIN 5
#define TL_BLOCK_MIN_SIDE 3
struct tl_block_spread {
	size_t blocks; /* blocks with both sides */
	double sd;     /* of the blocks' shifts */
	double half;   /* 95 % half-width for their mean */
};
/* The mean of m values and the 95 % half-width t_(m-1) sd / sqrt(m) of
 * the mean (batch means over blocks). -1 when m < 2 (both NaN). */
int stats_mean_t_half(const double *x, size_t m, double *mean, double *sd, double *half);
int stats_shift_blocks(const double *a, const size_t *ablk, size_t na, const double *b,
		       const size_t *bblk, size_t nb, enum tl_shift_method method, double step,
		       struct tl_block_spread *r);

/* The verdict rule alone, and need_more: the interval's half-width shrinks
 * as 1/sqrt(n), so reaching half-width h' takes n (h/h')^2 samples, h' being
 * the larger of |estimate| (then the interval excludes 0) and threshold -
 * |estimate| (then it fits inside the band). */
enum tl_verdict stats_verdict(double est, double lo, double hi, double threshold, size_t n,
			      double *need_more);

#endif
