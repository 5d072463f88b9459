/* Drift: does the level of a cell move while it is being measured?
 *
 * On a VM (and under a governor that is not "performance") the core's clock
 * can change while the TSC keeps its rate, so a fixed ADD chain takes a few
 * per cent longer or shorter from one millisecond to the next. Within a
 * chunk of consecutive samples the level is steady; between chunks it jumps.
 * No kernel length can bring CV below that jump, so it explains a search
 * that finds no t_min. Independent noise also moves chunk medians, by about
 * 1.2533 sigma / sqrt(m) (the normal median's standard error), so the level
 * only counts as drifting when its chunk medians spread well beyond that. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "stats/stats.h"

/* The median's standard error over sigma*sqrt(m) for normal data: sqrt(pi/2). */
#define MEDIAN_SE 1.2533141373155003
/* sigma from the interquartile range of a normal distribution. */
#define IQR_PER_SIGMA 1.3489795003921634
/* Chunk medians must spread this many standard errors to count as drift. */
#define DRIFT_SIGNIFICANCE 3.0

static void drift_none(struct tl_drift *d, size_t chunk)
{
	memset(d, 0, sizeof *d);
	d->chunk = chunk;
	d->lo = d->hi = d->median = d->sd = d->noise_sd = d->rel_sd = d->noise_rel_sd = NAN;
}

int stats_drift(const double *x, size_t n, size_t chunk, struct tl_drift *d)
{
	drift_none(d, chunk);
	if (chunk < 2 || n / chunk < TL_DRIFT_MIN_CHUNKS)
		return 0;
	size_t k = n / chunk;
	double *buf = malloc(chunk * sizeof *buf), *med = malloc(k * sizeof *med),
	       *iqr = malloc(k * sizeof *iqr), *all = malloc(k * chunk * sizeof *all);
	int rc = -1;
	if (!buf || !med || !iqr || !all)
		goto out;
	for (size_t c = 0; c < k; c++) {
		memcpy(buf, x + c * chunk, chunk * sizeof *buf);
		gsl_sort(buf, 1, chunk);
		med[c] = stats_quantile_sorted(buf, chunk, 0.5);
		iqr[c] = stats_quantile_sorted(buf, chunk, 0.75) -
			 stats_quantile_sorted(buf, chunk, 0.25);
	}
	/* The trailing partial chunk is left out everywhere, so every number
	 * describes the same k * chunk samples. */
	memcpy(all, x, k * chunk * sizeof *all);
	gsl_sort(all, 1, k * chunk);
	d->median = stats_quantile_sorted(all, k * chunk, 0.5);
	d->nchunks = k;
	d->sd = gsl_stats_sd(med, 1, k);
	gsl_sort(med, 1, k);
	d->lo = med[0];
	d->hi = med[k - 1];
	gsl_sort(iqr, 1, k);
	double sigma = stats_quantile_sorted(iqr, k, 0.5) / IQR_PER_SIGMA;
	d->noise_sd = MEDIAN_SE * sigma / sqrt((double)chunk);
	if (d->median > 0) {
		d->rel_sd = d->sd / d->median;
		d->noise_rel_sd = d->noise_sd / d->median;
		d->drifts = d->sd > 0 && d->sd > DRIFT_SIGNIFICANCE * d->noise_sd;
	}
	rc = 0;
out:
	free(buf);
	free(med);
	free(iqr);
	free(all);
	return rc;
}
