#include "config.h"

#include "judge/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/size.h"
#include "bench/analysis.h"
#include "stats/stats.h"

/* The cell t_e,std came from: the cell's empty baseline under the same
 * timer and flush, when it is another cell with samples (an empty cell is
 * its own baseline: its level is the thing compared); -1 when none. */
static long baseline_of(const struct tl_run *run, size_t i)
{
	size_t b = run->cells[i].baseline;

	if (b == i || b >= run->ncells || run->cells[b].kernel.kind != TL_KERNEL_EMPTY ||
	    !isfinite(run->cells[i].overhead_ns) || tl_cell_done(run, b) == 0)
		return -1;
	return (long)b;
}

static const char *host_str(const json_t *h, const char *key)
{
	const char *s = json_string_value(json_object_get(h, key));

	return s ? s : "";
}

bool tl_hosts_same_node(const json_t *a, const json_t *b)
{
	static const char *const keys[] = { "vendor", "model", "kernel", "hypervisor" };

	if (!json_is_object(a) || !json_is_object(b))
		return false;
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
		if (strcmp(host_str(a, keys[k]), host_str(b, keys[k])) != 0)
			return false;
	return true;
}

bool tl_rates_same_clock(double a, double b)
{
	return a > 0 && b > 0 && fabs(a / b - 1) <= TL_SAME_RATE_REL;
}

/* Cell i's samples in ns: its own ns, or in ticks (raw) times one rate. */
static double *cell_ns(const struct tl_run *run, long i, double rate, size_t *n)
{
	double *x;

	*n = i < 0 ? 0 : tl_cell_done(run, (size_t)i);
	if (*n == 0)
		return NULL;
	x = tl_xmalloc(*n * sizeof *x);
	if (rate > 0)
		for (size_t k = 0; k < *n; k++)
			x[k] = run->cells[i].raw[k] * rate;
	else
		memcpy(x, run->cells[i].ns, *n * sizeof *x);
	return x;
}

/* A visible cell of a run, keyed the way tl_run_match looks for it. */
struct match_key {
	const char *id, *label;
	size_t cell;
};

static int key_cmp(const void *x, const void *y)
{
	const struct match_key *p = x, *q = y;
	int c = strcmp(p->id, q->id);

	if (!c)
		c = strcmp(p->label, q->label);
	return c ? c : (p->cell > q->cell) - (p->cell < q->cell);
}

long *tl_run_matches(const struct tl_run *b, const struct tl_run *a)
{
	struct match_key *k = tl_xcalloc(b->ncells ? b->ncells : 1, sizeof *k);
	long *m = tl_xcalloc(a->ncells ? a->ncells : 1, sizeof *m);
	size_t nk = 0;

	for (size_t j = 0; j < b->ncells; j++)
		if (!b->cells[j].hidden)
			k[nk++] = (struct match_key){ b->timers[b->cells[j].timer].id,
						      b->cells[j].kernel.label, j };
	/* by backend id and kernel label, then in b's order: the first of a
	 * key's run whose flush matches is tl_run_match's answer */
	qsort(k, nk, sizeof *k, key_cmp);
	for (size_t i = 0; i < a->ncells; i++) {
		const struct tl_cell *c = &a->cells[i];
		struct match_key want = { a->timers[c->timer].id, c->kernel.label, 0 };
		size_t lo = 0, hi = nk;

		m[i] = -1;
		if (c->hidden)
			continue;
		while (lo < hi) { /* the first key not below want */
			size_t mid = lo + (hi - lo) / 2;

			if (key_cmp(&k[mid], &want) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < nk && m[i] < 0 && strcmp(k[lo].id, want.id) == 0 &&
		       strcmp(k[lo].label, want.label) == 0;
		     lo++) {
			const struct tl_cell *d = &b->cells[k[lo].cell];

			if (tl_flush_matches(tl_run_flush_name(b, d->flush), b->flush_bytes[d->flush],
					     tl_run_flush_name(a, c->flush), a->flush_bytes[c->flush]))
				m[i] = (long)k[lo].cell;
		}
	}
	free(k);
	return m;
}

long tl_run_match(const struct tl_run *b, const struct tl_run *a, size_t i)
{
	const struct tl_cell *c = &a->cells[i];

	for (size_t j = 0; j < b->ncells; j++) {
		const struct tl_cell *d = &b->cells[j];

		if (!d->hidden && strcmp(b->timers[d->timer].id, a->timers[c->timer].id) == 0 &&
		    tl_flush_matches(tl_run_flush_name(b, d->flush), b->flush_bytes[d->flush],
				     tl_run_flush_name(a, c->flush), a->flush_bytes[c->flush]) &&
		    strcmp(d->kernel.label, c->kernel.label) == 0)
			return (long)j;
	}
	return -1;
}

/* 1 compared, 0 nothing to compare (a side has no samples). Each side is
 * compared less its own t_e,std (filter_cost): the question is whether the
 * kernel's time moved, not the timer's; the interval carries the
 * baselines' uncertainty too. The same clock on the same node (rates equal
 * within calibration error) is compared in its ticks times BASE's rate:
 * identical tick counts then give identical ns, where each run's own
 * calibration would separate them by ~1e-6 and let the rank tests see it. */
static int compare_cell(const struct tl_run *base, size_t i, const struct tl_run *new_, size_t j,
			const struct tl_run_compare *rc, uint64_t seed, struct tl_cell_compare *row)
{
	double ra = base->timers[base->cells[i].timer].ns_per_unit;
	double rb = new_->timers[new_->cells[j].timer].ns_per_unit;
	bool ticks = rc->same_node && tl_rates_same_clock(ra, rb);
	size_t na, nb, nea, neb;
	double *a = cell_ns(base, (long)i, ticks ? ra : 0, &na);
	double *b = cell_ns(new_, (long)j, ticks ? ra : 0, &nb);
	double *ea = cell_ns(base, baseline_of(base, i), ticks ? ra : 0, &nea);
	double *eb = cell_ns(new_, baseline_of(new_, j), ticks ? ra : 0, &neb);
	double *xa;
	int done = 0;

	if (na == 0 || nb == 0)
		goto out;
	row->ticks = ticks;
	row->rate_base = ra;
	row->rate_new = rb;
	xa = tl_xmalloc(na * sizeof *xa);
	memcpy(xa, a, na * sizeof *xa);
	stats_filter_cost(xa, na, ea ? stats_median(ea, nea) : 0);
	row->base_cell = i;
	row->new_cell = j;
	row->new_flush_bytes = new_->flush_bytes[new_->cells[j].flush];
	row->base_median = stats_median(xa, na);
	free(xa);
	/* Both sides hold samples: it cannot refuse. */
	stats_compare_offset(a, na, ea, nea, b, nb, eb, neb,
			     rc->threshold_pct / 100 * fabs(row->base_median), seed, &row->cmp);
	row->rel_pct = row->base_median != 0 ? 100 * row->cmp.shift / fabs(row->base_median) : NAN;
	done = 1;
out:
	free(a);
	free(b);
	free(ea);
	free(eb);
	return done;
}

void tl_runs_compare_begin(const struct tl_run *base, double threshold_pct, uint64_t seed,
			   bool same_node, struct tl_run_compare *out)
{
	memset(out, 0, sizeof *out);
	out->threshold_pct = threshold_pct;
	out->same_node = same_node;
	out->seed = seed;
	out->rows = tl_xcalloc(base->ncells ? base->ncells : 1, sizeof *out->rows);
}

int tl_runs_compare_step(const struct tl_run *base, const struct tl_run *new_, size_t *next,
			 struct tl_run_compare *out)
{
	for (; *next < base->ncells; (*next)++) {
		size_t i = *next;
		long j;
		int rc;

		if (!out->match)
			out->match = tl_run_matches(new_, base);
		if (base->cells[i].hidden || (j = out->match[i]) < 0)
			continue;
		rc = compare_cell(base, i, new_, (size_t)j, out, tl_seed_derive(out->seed, out->nrows),
				  &out->rows[out->nrows]);
		if (rc < 0) {
			tl_run_compare_free(out);
			return -1;
		}
		if (rc == 0)
			continue;
		out->differ += out->rows[out->nrows].cmp.verdict == TL_VERDICT_DIFFERENT;
		out->nrows++;
		(*next)++;
		return 1;
	}
	return 0;
}

int tl_runs_compare(const struct tl_run *base, const struct tl_run *new_, double threshold_pct,
		    uint64_t seed, bool same_node, struct tl_run_compare *out)
{
	size_t next = 0;
	int rc;

	tl_runs_compare_begin(base, threshold_pct, seed, same_node, out);
	while ((rc = tl_runs_compare_step(base, new_, &next, out)) > 0)
		;
	return rc;
}

void tl_run_compare_free(struct tl_run_compare *rc)
{
	free(rc->rows);
	free(rc->match);
	rc->rows = NULL;
	rc->match = NULL;
	rc->nrows = rc->differ = 0;
}

const struct tl_cell_compare *tl_run_compare_find(const struct tl_run_compare *rc, size_t new_cell)
{
	for (size_t r = 0; rc && r < rc->nrows; r++)
		if (rc->rows[r].new_cell == new_cell)
			return &rc->rows[r];
	return NULL;
}

void tl_cell_compare_verdict(const struct tl_cell_compare *row, char *buf, size_t len)
{
	if (row->cmp.verdict == TL_VERDICT_UNKNOWN && isfinite(row->cmp.need_more))
		snprintf(buf, len, "unknown: need ~%.0f more samples", row->cmp.need_more);
	else
		snprintf(buf, len, "%s", stats_verdict_name(row->cmp.verdict));
}
