#include "config.h"

#include "bench/analysis.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

static uint64_t seed_of(bool hidden, uint64_t ordinal, uint64_t seed)
{
	uint64_t key = ordinal;

	if (hidden)
		key += (uint64_t)1 << 32;
	/* key + 1: the seeds saved files were analysed with stay what they were */
	return tl_seed_derive(seed, key + 1);
}

uint64_t tl_cell_seed(const struct tl_run *run, size_t cell, uint64_t seed)
{
	uint64_t key = 0;
	bool hidden = run->cells[cell].hidden;

	for (size_t i = 0; i < cell; i++)
		key += run->cells[i].hidden == hidden;
	return seed_of(hidden, key, seed);
}

uint64_t *tl_run_cell_seeds(const struct tl_run *run, uint64_t seed)
{
	uint64_t *s = tl_xcalloc(run->ncells ? run->ncells : 1, sizeof *s);
	uint64_t ordinal[2] = { 0, 0 };

	for (size_t i = 0; i < run->ncells; i++) {
		bool hidden = run->cells[i].hidden;
		s[i] = seed_of(hidden, ordinal[hidden]++, seed);
	}
	return s;
}

void tl_cell_groups_init(const struct tl_run *run, struct tl_cell_groups *g)
{
	size_t ng = run->ntimers * run->nflush;

	g->start = tl_xcalloc(ng + 2, sizeof *g->start);
	g->cell = tl_xcalloc(run->ncells ? run->ncells : 1, sizeof *g->cell);
	/* counts at start[g + 2], then their running sums shifted by one, so
	 * placing each cell at start[g + 1]++ leaves start[g] at its group */
	for (size_t i = 0; i < run->ncells; i++)
		g->start[tl_cell_group(run, run->cells[i].timer, run->cells[i].flush) + 2]++;
	for (size_t k = 2; k < ng + 2; k++)
		g->start[k] += g->start[k - 1];
	for (size_t i = 0; i < run->ncells; i++)
		g->cell[g->start[tl_cell_group(run, run->cells[i].timer, run->cells[i].flush) + 1]++] =
			i;
}

void tl_cell_groups_free(struct tl_cell_groups *g)
{
	free(g->start);
	free(g->cell);
	g->start = g->cell = NULL;
}

size_t tl_cell_done(const struct tl_run *run, size_t cell)
{
	const struct tl_cell *c = &run->cells[cell];
	size_t done = atomic_load(&c->done);
	return done < c->n ? done : c->n;
}

/* --os-filter cause: exactly the samples with a measured cause go; the
 * statistics run over the rest with no further filter. Drift stays that of
 * every sample (it is taken before any filter). */
static int analyse_cause(const struct tl_run *run, size_t cell, size_t done, double overhead,
			 uint64_t cseed, struct tl_analysis *a, double *kept, size_t *nkept,
			 bool drift)
{
	const struct tl_cell *c = &run->cells[cell];
	double *v = malloc(done * sizeof *v);
	size_t m = 0;
	int rc;

	if (!v)
		return -1;
	for (size_t i = 0; i < done; i++) {
		const char *why = tl_noise_cause_of(&c->noise, i);
		if (!why || !tl_noise_cause_measured(why))
			v[m++] = c->ns[i];
	}
	rc = stats_analyse(v, m, overhead, TL_OS_NONE, cseed, a, kept,
			   nkept);
	for (size_t i = 0; i < done; i++)
		v[i] = c->ns[i] - overhead;
	stats_drift(drift ? v : NULL, drift ? done : 0, TL_DRIFT_CHUNK, &a->drift);
	free(v);
	a->os.method = TL_OS_CAUSE;
	a->os.active = done > m;
	a->os.removed = done - m;
	a->summary.os_removed = done - m;
	if (run->noise_measured)
		snprintf(a->os.note, sizeof a->os.note,
			 "cause: removed the %zu of %zu samples with a measured cause (preempted, "
			 "voluntary, page_fault, migration)", done - m, done);
	else
		snprintf(a->os.note, sizeof a->os.note,
			 "cause: nothing removed, this run has no measured causes");
	return rc;
}

static int cell_analyse(const struct tl_run *run, size_t cell, enum tl_os_method m, uint64_t cseed,
			struct tl_analysis *a, double *kept, size_t cap, size_t *nkept, bool drift)
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
	if (m == TL_OS_CAUSE)
		return analyse_cause(run, cell, done, overhead, cseed, a, kept, nkept, drift);
	return (drift ? stats_analyse : stats_analyse_nodrift)(c->ns, done, overhead, m,
							      cseed, a,
							      kept, nkept);
}

int tl_cell_analyse_kept(const struct tl_run *run, size_t cell, enum tl_os_method m,
			 uint64_t seed, struct tl_analysis *a, double *kept, size_t cap,
			 size_t *nkept)
{
	return cell_analyse(run, cell, m, tl_cell_seed(run, cell, seed), a, kept, cap, nkept,
			    true);
}

int tl_cell_summarise_kept(const struct tl_run *run, size_t cell, enum tl_os_method m,
			   uint64_t seed, struct tl_analysis *a, double *kept, size_t cap,
			   size_t *nkept)
{
	return cell_analyse(run, cell, m, tl_cell_seed(run, cell, seed), a, kept, cap, nkept,
			    false);
}

int tl_cell_analyse(const struct tl_run *run, size_t cell, enum tl_os_method m, uint64_t seed,
		    struct tl_analysis *a)
{
	return tl_cell_analyse_kept(run, cell, m, seed, a, NULL, 0, NULL);
}

int tl_cell_analyse_seeded(const struct tl_run *run, size_t cell, enum tl_os_method m,
			   uint64_t cseed, struct tl_analysis *a)
{
	return cell_analyse(run, cell, m, cseed, a, NULL, 0, NULL, true);
}

int tl_cell_analyse_kept_seeded(const struct tl_run *run, size_t cell, enum tl_os_method m,
				uint64_t cseed, struct tl_analysis *a, double *kept, size_t cap,
				size_t *nkept)
{
	return cell_analyse(run, cell, m, cseed, a, kept, cap, nkept, true);
}

struct tl_analysis *tl_run_analyse(const struct tl_run *run, enum tl_os_method m, uint64_t seed)
{
	struct tl_analysis *an = calloc(run->ncells ? run->ncells : 1, sizeof *an);
	uint64_t *seeds = tl_run_cell_seeds(run, seed);

	for (size_t i = 0; an && i < run->ncells; i++) {
		if (tl_cell_analyse_seeded(run, i, m, seeds[i], &an[i]) < 0) {
			free(an);
			an = NULL;
		}
	}
	free(seeds);
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
	return !c->kernel.kind->times_nothing && isfinite(a->summary.cv) &&
	       !mean_within_noise(c, &a->summary);
}

bool tl_cell_shows_drift(const struct tl_cell *c, const struct tl_analysis *a)
{
	return !c->kernel.kind->times_nothing && a->drift.drifts;
}

/* The filter's survivors come back in sample order, and a one-feature
 * filter treats equal values alike, so walking the samples against them
 * tells which ones it removed. */
static void removed_mask(const double *ns, size_t n, double overhead, const double *kept,
			 size_t nkept, unsigned char *removed)
{
	size_t j = 0;
	for (size_t i = 0; i < n; i++) {
		bool k = j < nkept && ns[i] - overhead == kept[j];
		removed[i] = !k;
		j += k;
	}
}

static void top_add(struct tl_noise_agree *ag, const struct tl_cell_noise *cn, uint16_t cause,
		    size_t *counts)
{
	if (++counts[cause] > ag->top_count) {
		ag->top_count = counts[cause];
		snprintf(ag->top, sizeof ag->top, "%s", cn->names[cause]);
	}
}

int tl_cell_noise_agree(const struct tl_run *run, size_t cell, enum tl_os_method m,
			uint64_t seed, struct tl_noise_agree *ag)
{
	return tl_cell_noise_agree_seeded(run, cell, m, tl_cell_seed(run, cell, seed), ag);
}

int tl_cell_noise_agree_seeded(const struct tl_run *run, size_t cell, enum tl_os_method m,
			       uint64_t cseed, struct tl_noise_agree *ag)
{
	const struct tl_cell *c = &run->cells[cell];
	const struct tl_cell_noise *cn = &c->noise;
	size_t done = tl_cell_done(run, cell), nkept = 0, counts[TL_NOISE_NAMES] = { 0 };
	double overhead = isnan(c->overhead_ns) ? 0.0 : c->overhead_ns;
	double *kept = malloc((done ? done : 1) * sizeof *kept);
	unsigned char *removed = malloc(done ? done : 1);
	struct tl_analysis a;
	size_t f = 0, bare = 0;

	memset(ag, 0, sizeof *ag);
	if (done > TL_NOISE_AGREE_MAX) {
		free(kept);
		free(removed);
		ag->skipped = true;
		return 0;
	}
	if (!kept || !removed ||
	    cell_analyse(run, cell, m, cseed, &a, kept, done, &nkept, true) < 0) {
		free(kept);
		free(removed);
		return -1;
	}
	if (m == TL_OS_CAUSE) { /* its survivors are not a value filter's */
		for (size_t i = 0; i < done; i++) {
			const char *why = tl_noise_cause_of(cn, i);
			removed[i] = why && tl_noise_cause_measured(why);
		}
	} else {
		removed_mask(c->ns, done, overhead, kept, nkept, removed);
	}
	for (size_t i = 0; i < done; i++) {
		bool caused;
		while (f < cn->nflag && cn->flag[f].index < i)
			f++;
		caused = f < cn->nflag && cn->flag[f].index == i &&
			 strcmp(cn->names[cn->flag[f].cause], "unexplained") != 0;
		ag->removed += removed[i];
		ag->removed_with_cause += removed[i] && caused;
		ag->removed_without_cause += removed[i] && !caused;
		ag->kept_with_cause += !removed[i] && caused;
		if (removed[i] && f < cn->nflag && cn->flag[f].index == i)
			top_add(ag, cn, cn->flag[f].cause, counts);
		else
			bare += removed[i];
	}
	if (bare > ag->top_count) {
		ag->top_count = bare;
		snprintf(ag->top, sizeof ag->top, "none");
	}
	free(kept);
	free(removed);
	return 0;
}
