#include "config.h"

#include "bench/analysis.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t tl_cell_seed(const struct tl_run *run, size_t cell, uint64_t seed)
{
	uint64_t key = 0;
	bool hidden = run->cells[cell].hidden;

	for (size_t i = 0; i < cell; i++)
		key += run->cells[i].hidden == hidden;
	if (hidden)
		key += (uint64_t)1 << 32;
	/* key + 1: the seeds saved files were analysed with stay what they were */
	return tl_seed_derive(seed, key + 1);
}

size_t tl_cell_done(const struct tl_run *run, size_t cell)
{
	const struct tl_cell *c = &run->cells[cell];
	size_t done = atomic_load(&c->done);
	return done < c->n ? done : c->n;
}

int tl_cell_analyse_kept(const struct tl_run *run, size_t cell, enum tl_os_method m,
			 uint64_t seed, struct tl_analysis *a, double *kept, size_t cap,
			 size_t *nkept)
{
	const struct tl_cell *c = &run->cells[cell];
	size_t done = tl_cell_done(run, cell);
	/* A baseline with no samples yet (a run stopped early) has no t_e,std:
	 * nothing is subtracted rather than turning every value into NaN. */
	double overhead = isnan(c->overhead_ns) ? 0.0 : c->overhead_ns;

	memset(a, 0, sizeof *a);
	if (nkept)
		*nkept = 0;
	if (kept && done > cap)
		done = cap;
	if (done == 0) {
		stats_summary(NULL, 0, &a->summary);
		a->os.method = m;
		a->os.beta = NAN;
		a->os.lowest_score = NAN;
		snprintf(a->os.ran, sizeof a->os.ran, "%s", stats_os_method_name(m));
		snprintf(a->os.note, sizeof a->os.note, "no samples");
		return 0;
	}
	return stats_analyse(c->ns, done, overhead, m, tl_cell_seed(run, cell, seed), a, kept,
			     nkept);
}

int tl_cell_analyse(const struct tl_run *run, size_t cell, enum tl_os_method m, uint64_t seed,
		    struct tl_analysis *a)
{
	return tl_cell_analyse_kept(run, cell, m, seed, a, NULL, 0, NULL);
}

struct tl_analysis *tl_run_analyse(const struct tl_run *run, enum tl_os_method m, uint64_t seed)
{
	struct tl_analysis *an = calloc(run->ncells ? run->ncells : 1, sizeof *an);

	for (size_t i = 0; an && i < run->ncells; i++) {
		if (tl_cell_analyse(run, i, m, seed, &an[i]) < 0) {
			free(an);
			return NULL;
		}
	}
	return an;
}

/* A mean the timer cannot tell from 0 (under one clock step, or within
 * three standard errors) makes sd/mean a ratio of noise: add:0's CV of
 * -5010 % says nothing, as an empty cell's would not. */
static bool mean_within_noise(const struct tl_cell *c, const struct tl_summary *s)
{
	double m = fabs(s->mean);
	double se = s->n > 0 ? s->sd / sqrt((double)s->n) : INFINITY;

	return (isfinite(c->resolution_ns) && m < c->resolution_ns) || !(m > 3.0 * se);
}

bool tl_cell_shows_cv(const struct tl_cell *c, const struct tl_analysis *a)
{
	return c->kernel.kind != TL_KERNEL_EMPTY && isfinite(a->summary.cv) &&
	       !mean_within_noise(c, &a->summary);
}

bool tl_cell_shows_drift(const struct tl_cell *c, const struct tl_analysis *a)
{
	return c->kernel.kind != TL_KERNEL_EMPTY && a->drift.drifts;
}
