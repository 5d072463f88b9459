/* Two readings of a level that moves while a set is measured.
 *
 * stats_level_align: A0 and A1 of Algorithm 2 measured alternately in one
 * pass see the same clock, block by block. What the block's level moved
 * both by is taken out of both, so the overlap compares A0 with A1 as a
 * steady clock would show them; the paper's criterion is then applied to
 * the aligned sets unchanged. Each block's shift is the interquartile mean
 * of its readings less the pass's, averaged over the two sides (spikes
 * leave an interquartile mean alone; on a coarse clock it moves smoothly
 * where a median jumps a whole step). An estimated shift carries noise of
 * its own, so the shifts are shrunk by the share of their spread that
 * noise explains (James-Stein), and a level that stays within noise is
 * left as it is.
 *
 * stats_disturbed_blocks: which blocks of a set (in time order) hold a
 * reading far above their own level. On a shared VM the host or a
 * neighbour slows the vCPU for bursts of a few hundred readings, spread
 * 5 to 40 sds above the timer's own noise; the isolation forest keeps
 * such a burst (a cluster does not isolate), and one of its readings then
 * is max(A0) of a pair, so a t_diff confirmed on it is the burst's size,
 * not the timer's (repeats of one cell read 9 and 41 ADDs). The level is
 * each block's own, so a clock that wanders is not a burst.
 *
 * stats_cv_split: a set's CV in two parts, the spread within consecutive
 * chunks (the timer and its noise) and the spread of the chunks' means
 * beyond what that noise gives them (the level moving: the node). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "base/xalloc.h"
#include "stats/stats.h"

/* shifts are taken out only when their spread passes this many times
 * what noise alone gives them */
#define ALIGN_GATE 4.0
/* stats_disturbed_blocks: readings this many robust sds above their level
 * are spikes, not a burst */
#define BURST_CEIL 100.0

/* Mean of the middle half of x[0..n) (sorted in buf). */
static double iq_mean(const double *x, size_t n, double *buf)
{
	size_t lo, hi;
	double s = 0;

	memcpy(buf, x, n * sizeof *buf);
	gsl_sort(buf, 1, n);
	lo = n / 4;
	hi = n - n / 4;
	if (hi <= lo)
		return buf[n / 2];
	for (size_t i = lo; i < hi; i++)
		s += buf[i];
	return s / (double)(hi - lo);
}

/* Blocks of `block` pairs; a trailing part shorter than half a block joins
 * the last whole one. */
static size_t block_count(size_t n, size_t block)
{
	size_t k = n / block;

	if (k == 0)
		return 1;
	return n - k * block >= block / 2 ? k + 1 : k;
}

static void block_range(size_t b, size_t k, size_t n, size_t block, size_t *from, size_t *to)
{
	*from = b * block;
	*to = b + 1 == k ? n : *from + block;
}

void stats_level_align(double *a, double *b, size_t n, size_t block, double step, double *moved)
{
	size_t k, from, to;
	double *buf, *shift, *res, ia, ib, noise, spread, keep;

	if (moved)
		*moved = 0;
	if (block < 4 || n < 2 * block)
		return;
	k = block_count(n, block);
	buf = tl_xmalloc(2 * n * sizeof *buf);
	res = tl_xmalloc(2 * n * sizeof *res);
	shift = tl_xmalloc(k * sizeof *shift);
	ia = iq_mean(a, n, buf);
	ib = iq_mean(b, n, buf);
	for (size_t j = 0; j < k; j++) {
		double sa, sb;

		block_range(j, k, n, block, &from, &to);
		sa = iq_mean(a + from, to - from, buf);
		sb = iq_mean(b + from, to - from, buf);
		shift[j] = 0.5 * ((sa - ia) + (sb - ib));
		for (size_t i = from; i < to; i++) {
			res[2 * i] = a[i] - sa;
			res[2 * i + 1] = b[i] - sb;
		}
	}
	/* within-block scale from the residuals' interquartile range (spikes
	 * would inflate a plain sd); an interquartile mean of m normal readings
	 * varies by about 1.2 sd^2 / m, halved by averaging the two sides */
	gsl_sort(res, 1, 2 * n);
	double sd_w = stats_iqr_sd_sorted(res, 2 * n);

	noise = 0.6 * sd_w * sd_w / (double)block;
	spread = k >= 2 ? gsl_stats_variance_m(shift, 1, k, 0.0) : 0;
	/* nine blocks of pure noise spread beyond 4x their expected variance
	 * about once in ten thousand: below that the level held still, and a
	 * correction would only add its own noise (and, on a coarse clock,
	 * break the ties with max(A0) that Algorithm 2 counts on) */
	keep = spread > ALIGN_GATE * noise ? 1.0 - noise / spread : 0.0;
	for (size_t j = 0; j < k && keep > 0; j++) {
		double sh = keep * shift[j];

		/* a clock of step q reads on a grid: shifts of whole steps keep
		 * every reading on it */
		if (step > 0)
			sh = step * round(sh / step);
		block_range(j, k, n, block, &from, &to);
		for (size_t i = from; i < to; i++) {
			a[i] -= sh;
			b[i] -= sh;
		}
	}
	if (moved)
		*moved = keep * sqrt(spread);
	free(buf);
	free(res);
	free(shift);
}

size_t stats_disturbed_blocks(const double *x, size_t n, size_t period, size_t block, double step,
			      double fence, unsigned char *bad)
{
	size_t k, from, to, hit = 0;
	double *buf, *res, *lvl, *side, sd_w;

	if (period < 1 || block < 4 * period || n < 2 * block)
		return 0;
	k = block_count(n, block);
	memset(bad, 0, k);
	buf = tl_xmalloc(n * sizeof *buf);
	res = tl_xmalloc(n * sizeof *res);
	side = tl_xmalloc(n * sizeof *side);
	lvl = tl_xmalloc(period * sizeof *lvl);
	for (size_t j = 0; j < k; j++) {
		block_range(j, k, n, block, &from, &to);
		/* each side's level in the block: its interquartile mean */
		for (size_t sd = 0; sd < period; sd++) {
			size_t m = 0;

			for (size_t i = from + sd; i < to; i += period)
				side[m++] = x[i];
			lvl[sd] = iq_mean(side, m, buf);
		}
		for (size_t i = from; i < to; i++)
			res[i] = x[i] - lvl[(i - from) % period];
	}
	/* on a clock of step q the quartiles fall on the grid and the range
	 * jumps by a whole step (1 or 2 ns for one sd of 1.2 ns): the residuals
	 * are spread evenly inside their step first (a golden-ratio sequence,
	 * deterministic), so the range follows the spread, plus q^2/12 */
	for (size_t i = 0; i < n; i++)
		buf[i] = res[i] + step * (fmod(0.6180339887498949 * (double)i, 1.0) - 0.5);
	gsl_sort(buf, 1, n);
	sd_w = stats_iqr_sd_sorted(buf, n);
	if (sd_w < 0.5 * step)
		sd_w = 0.5 * step;
	for (size_t j = 0; j < k && sd_w > 0; j++) {
		block_range(j, k, n, block, &from, &to);
		/* a reading far beyond any burst is a lone spike (an interrupt,
		 * a preemption), and the OS-noise filter takes those out */
		for (size_t i = from; i < to && !bad[j]; i++)
			bad[j] = res[i] > fence * sd_w && res[i] <= BURST_CEIL * sd_w;
		hit += bad[j];
	}
	free(buf);
	free(res);
	free(side);
	free(lvl);
	return hit;
}

size_t stats_block_count(size_t n, size_t block)
{
	return block ? block_count(n, block) : 0;
}

void stats_block_range(size_t j, size_t n, size_t block, size_t *from, size_t *to)
{
	block_range(j, block_count(n, block), n, block, from, to);
}

void stats_cv_split(const double *x, size_t n, size_t chunk, double *within, double *drift)
{
	size_t k = chunk ? n / chunk : 0;
	double mean, w = 0, *m;

	*within = *drift = NAN;
	if (n < 2)
		return;
	mean = gsl_stats_mean(x, 1, n);
	if (!(mean > 0))
		return;
	if (k < 2 || chunk < 2) {
		*within = gsl_stats_sd_m(x, 1, n, mean) / mean;
		return;
	}
	m = tl_xmalloc(k * sizeof *m);
	for (size_t c = 0; c < k; c++) {
		m[c] = gsl_stats_mean(x + c * chunk, 1, chunk);
		w += gsl_stats_variance_m(x + c * chunk, 1, chunk, m[c]);
	}
	w /= (double)k;
	/* a chunk mean carries w / chunk of the noise; what is beyond it moved */
	double between = gsl_stats_variance(m, 1, k) - w / (double)chunk;

	*within = sqrt(w) / mean;
	*drift = sqrt(between > 0 ? between : 0) / mean;
	free(m);
}
