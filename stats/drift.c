/* Drift: does the level of a cell move while it is being measured?
 *
 * On a VM (and under a governor that is not "performance") the core's clock
 * can change while the TSC keeps its rate, so a fixed ADD chain takes a few
 * per cent longer or shorter from one millisecond to the next. Within a
 * chunk of consecutive samples the level is steady; between chunks it jumps.
 * No kernel length can bring CV below that jump, so it explains a search
 * that finds no t_min. Independent noise also moves chunk medians, so the
 * level only counts as drifting when its chunk medians spread well beyond
 * the standard error each chunk's own samples give its median, estimated by
 * resampling the chunk (bootstrap). Not a formula such as the normal
 * median's 1.2533 sigma / sqrt(m): on a timer with a coarse step the medians
 * of independent samples flip between two neighbouring steps while the
 * interquartile range is 0. Not a shuffle of the whole cell either: with
 * two clock levels in equal shares a shuffled chunk's median falls between
 * the levels and jumps, hiding exactly the drift it should reveal. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "base/xalloc.h"
#include "stats/stats.h"

/* Chunk medians must spread this many standard errors to count as drift. */
#define DRIFT_SIGNIFICANCE 3.0
/* Resamples per chunk, at most this many chunks (evenly spaced) resampled,
 * and a fixed seed: the same samples always give the same answer. */
#define DRIFT_RESAMPLES 32
#define DRIFT_MAX_RESAMPLED_CHUNKS 256
#define DRIFT_SEED 1

static void drift_none(struct tl_drift *d, size_t chunk)
{
	memset(d, 0, sizeof *d);
	d->chunk = chunk;
	d->lo = d->hi = d->median = d->sd = d->noise_sd = d->rel_sd = d->noise_rel_sd = NAN;
}

/* The chunk medians of x[0 .. k*chunk) into med[k]; buf holds one chunk. */
static void chunk_medians(const double *x, size_t k, size_t chunk, double *buf, double *med)
{
	for (size_t c = 0; c < k; c++) {
		memcpy(buf, x + c * chunk, chunk * sizeof *buf);
		gsl_sort(buf, 1, chunk);
		med[c] = stats_quantile_sorted(buf, chunk, 0.5);
	}
}

/* The standard error of one chunk's median from its own samples: the
 * variance of the medians of DRIFT_RESAMPLES resamples with replacement.
 * Over up to DRIFT_MAX_RESAMPLED_CHUNKS chunks the median of those variances
 * is taken, not their mean: a chunk that straddles a clock step holds two
 * levels, its resampled median jumps between them, and a mean would let a
 * few such chunks hide the very steps being looked for. var holds one
 * value per resampled chunk. */
static double bootstrap_sd(const double *x, size_t k, size_t chunk, double *buf, double *med,
			   double *var)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	size_t used = k < DRIFT_MAX_RESAMPLED_CHUNKS ? k : DRIFT_MAX_RESAMPLED_CHUNKS;

	if (!rng)
		tl_fail("out of memory (a random number generator)");
	gsl_rng_set(rng, DRIFT_SEED);
	for (size_t u = 0; u < used; u++) {
		const double *c = x + (u * k / used) * chunk;

		for (int b = 0; b < DRIFT_RESAMPLES; b++) {
			for (size_t i = 0; i < chunk; i++)
				buf[i] = c[gsl_rng_uniform_int(rng, chunk)];
			gsl_sort(buf, 1, chunk);
			med[b] = stats_quantile_sorted(buf, chunk, 0.5);
		}
		var[u] = gsl_stats_variance(med, 1, DRIFT_RESAMPLES);
	}
	gsl_rng_free(rng);
	gsl_sort(var, 1, used);
	return sqrt(stats_quantile_sorted(var, used, 0.5));
}

void stats_drift(const double *x, size_t n, size_t chunk, struct tl_drift *d)
{
	drift_none(d, chunk);
	if (chunk < 2 || n / chunk < TL_DRIFT_MIN_CHUNKS)
		return;
	size_t k = n / chunk;
	size_t nmed = k > DRIFT_RESAMPLES ? k : DRIFT_RESAMPLES;
	double *buf = tl_xmalloc(chunk * sizeof *buf), *med = tl_xmalloc(nmed * sizeof *med),
	       *var = tl_xmalloc(DRIFT_MAX_RESAMPLED_CHUNKS * sizeof *var);
	/* The trailing partial chunk is left out everywhere, so every number
	 * describes the same k * chunk samples. */
	chunk_medians(x, k, chunk, buf, med);
	d->nchunks = k;
	d->sd = gsl_stats_sd(med, 1, k);
	gsl_sort(med, 1, k);
	d->lo = med[0];
	d->hi = med[k - 1];
	d->median = stats_median(x, k * chunk);
	d->noise_sd = bootstrap_sd(x, k, chunk, buf, med, var);
	if (d->median > 0) {
		d->rel_sd = d->sd / d->median;
		d->noise_rel_sd = d->noise_sd / d->median;
		d->drifts = d->sd > 0 && d->sd > DRIFT_SIGNIFICANCE * d->noise_sd;
	}
	free(buf);
	free(med);
	free(var);
}
