#include "config.h"

#include "io/run_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/size.h"
#include "bench/analysis.h"
#include "io/json_build.h"
#include "io/markdown.h"
#include "io/results.h"
#include "stats/stats.h"

/* The samples t_e,std came from: the cell's empty baseline under the same
 * timer and flush, when it is another cell with samples (an empty cell is
 * its own baseline: its level is the thing compared). */
static const double *baseline_of(const struct tl_run *run, size_t i, size_t *n)
{
	size_t b = run->cells[i].baseline;

	*n = 0;
	if (b == i || b >= run->ncells || run->cells[b].kernel.kind != TL_KERNEL_EMPTY ||
	    !isfinite(run->cells[i].overhead_ns))
		return NULL;
	*n = tl_cell_done(run, b);
	return *n ? run->cells[b].ns : NULL;
}

long tl_run_match(const struct tl_run *b, const struct tl_run *a, size_t i)
{
	const struct tl_cell *c = &a->cells[i];

	for (size_t j = 0; j < b->ncells; j++) {
		const struct tl_cell *d = &b->cells[j];

		if (!d->hidden && strcmp(b->timers[d->timer].id, a->timers[c->timer].id) == 0 &&
		    b->flush_bytes[d->flush] == a->flush_bytes[c->flush] &&
		    strcmp(d->kernel.label, c->kernel.label) == 0)
			return (long)j;
	}
	return -1;
}

/* 1 compared, 0 nothing to compare (a side has no samples). Each side is
 * compared less its own t_e,std (filter_cost): the question is whether the
 * kernel's time moved, not the timer's; the bootstrap resamples the
 * baselines as well, since each t_e,std is a median with its own scatter. */
static int compare_cell(const struct tl_run *base, size_t i, const struct tl_run *new_, size_t j,
			double threshold_pct, uint64_t seed, struct tl_cell_compare *row)
{
	size_t na = tl_cell_done(base, i), nb = tl_cell_done(new_, j), nea, neb;
	const double *ea = baseline_of(base, i, &nea), *eb = baseline_of(new_, j, &neb);
	double *xa;

	if (na == 0 || nb == 0)
		return 0;
	xa = tl_xmalloc(na * sizeof *xa);
	memcpy(xa, base->cells[i].ns, na * sizeof *xa);
	stats_filter_cost(xa, na, ea ? stats_median(ea, nea) : 0);
	row->base_cell = i;
	row->new_cell = j;
	row->base_median = stats_median(xa, na);
	free(xa);
	/* Both sides hold samples: it cannot refuse. */
	stats_compare_offset(base->cells[i].ns, na, ea, nea, new_->cells[j].ns, nb, eb, neb,
			     threshold_pct / 100 * fabs(row->base_median), seed, &row->cmp);
	row->rel_pct = row->base_median != 0 ? 100 * row->cmp.hl / fabs(row->base_median) : NAN;
	return 1;
}

void tl_runs_compare_begin(const struct tl_run *base, double threshold_pct, uint64_t seed,
			   struct tl_run_compare *out)
{
	memset(out, 0, sizeof *out);
	out->threshold_pct = threshold_pct;
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

		if (base->cells[i].hidden || (j = tl_run_match(new_, base, i)) < 0)
			continue;
		rc = compare_cell(base, i, new_, (size_t)j, out->threshold_pct,
				  tl_seed_derive(out->seed, out->nrows), &out->rows[out->nrows]);
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
		    uint64_t seed, struct tl_run_compare *out)
{
	size_t next = 0;
	int rc;

	tl_runs_compare_begin(base, threshold_pct, seed, out);
	while ((rc = tl_runs_compare_step(base, new_, &next, out)) > 0)
		;
	return rc;
}

void tl_run_compare_free(struct tl_run_compare *rc)
{
	free(rc->rows);
	rc->rows = NULL;
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

struct row_text {
	char flush[32], shift[32], iv[64], rel[32], mwu[32], ks[32], verdict[64];
};

static void row_text(const struct tl_run *base, const struct tl_cell_compare *r,
		     struct row_text *t)
{
	tl_size_format(base->flush_bytes[base->cells[r->base_cell].flush], t->flush, sizeof t->flush);
	snprintf(t->shift, sizeof t->shift, "%.3g", r->cmp.hl);
	snprintf(t->iv, sizeof t->iv, "[%.3g, %.3g]", r->cmp.lo, r->cmp.hi);
	if (isfinite(r->rel_pct))
		snprintf(t->rel, sizeof t->rel, "%.2f%%", r->rel_pct);
	else
		snprintf(t->rel, sizeof t->rel, "-");
	snprintf(t->mwu, sizeof t->mwu, "%.2g", r->cmp.mwu_p);
	snprintf(t->ks, sizeof t->ks, "%.2g", r->cmp.ks_p);
	tl_cell_compare_verdict(r, t->verdict, sizeof t->verdict);
}

void tl_run_compare_print(FILE *f, const struct tl_run *base, const struct tl_run_compare *rc)
{
	fprintf(f, "NEW - BASE in ns after filter_cost: Hodges-Lehmann shift [95 %% bootstrap], "
		   "same = interval inside +-%g %% of BASE's median\n", rc->threshold_pct);
	fprintf(f, "%-24s %-8s %-22s %12s %-22s %8s %9s %9s  %s\n", "backend", "flush", "kernel",
		"shift", "interval", "shift%", "MWU p", "KS p", "verdict");
	for (size_t r = 0; r < rc->nrows; r++) {
		const struct tl_cell *c = &base->cells[rc->rows[r].base_cell];
		struct row_text t;

		row_text(base, &rc->rows[r], &t);
		fprintf(f, "%-24s %-8s %-22s %12s %-22s %8s %9s %9s  %s\n",
			base->timers[c->timer].id, t.flush, c->kernel.label, t.shift, t.iv, t.rel, t.mwu,
			t.ks, t.verdict);
	}
}

json_t *tl_cell_compare_json(const struct tl_run *base, const struct tl_cell_compare *row)
{
	const struct tl_cell *c = &base->cells[row->base_cell];
	const struct tl_comparison *cmp = &row->cmp;
	json_t *o = tl_json_object();

	tl_json_set(o, "backend", json_string(base->timers[c->timer].id));
	tl_json_set(o, "flush_bytes", json_integer((json_int_t)base->flush_bytes[c->flush]));
	tl_json_set(o, "kernel", json_string(c->kernel.label));
	tl_json_set(o, "n_base", json_integer((json_int_t)cmp->na));
	tl_json_set(o, "n_new", json_integer((json_int_t)cmp->nb));
	tl_json_set(o, "median_base_ns", tl_json_real(row->base_median));
	tl_json_set(o, "shift_ns", tl_json_real(cmp->hl));
	tl_json_set(o, "median_diff_ns", tl_json_real(cmp->median_diff));
	tl_json_set(o, "ci_lo_ns", tl_json_real(cmp->lo));
	tl_json_set(o, "ci_hi_ns", tl_json_real(cmp->hi));
	tl_json_set(o, "shift_pct", tl_json_real(row->rel_pct));
	tl_json_set(o, "mwu_p", tl_json_real(cmp->mwu_p));
	tl_json_set(o, "ks_p", tl_json_real(cmp->ks_p));
	tl_json_set(o, "verdict", json_string(stats_verdict_name(cmp->verdict)));
	tl_json_set(o, "need_more", tl_json_real(cmp->need_more));
	return o;
}

json_t *tl_run_compare_json(const struct tl_run *base, const struct tl_run_compare *rc)
{
	json_t *a = tl_json_array();

	for (size_t r = 0; r < rc->nrows; r++)
		tl_json_append(a, tl_cell_compare_json(base, &rc->rows[r]));
	return a;
}

void tl_run_compare_attach(json_t *doc, const struct tl_run *run, const struct tl_run *base,
			  const struct tl_run_compare *rc, const char *path)
{
	json_t *cells = json_object_get(doc, "cells"), *top = tl_json_object();
	size_t v = 0;

	for (size_t i = 0; i < run->ncells; i++) {
		const struct tl_cell_compare *row;

		if (run->cells[i].hidden)
			continue;
		row = tl_run_compare_find(rc, i);
		if (row)
			tl_json_set(json_array_get(cells, v), "baseline", tl_cell_compare_json(base, row));
		v++;
	}
	tl_json_set(top, "file", json_string(path ? path : ""));
	tl_json_set(top, "threshold_pct", json_real(rc->threshold_pct));
	tl_json_set(top, "seed", json_integer((json_int_t)rc->seed));
	tl_json_set(top, "cells_compared", json_integer((json_int_t)rc->nrows));
	tl_json_set(top, "cells_different", json_integer((json_int_t)rc->differ));
	tl_json_set(doc, "baseline", top);
}

int tl_run_compare_markdown(FILE *f, const struct tl_run *base, const struct tl_run_compare *rc,
			    const char *base_name, const char *new_name)
{
	if (base_name && new_name &&
	    (fputs("`", f) == EOF || tl_md_text(f, new_name) < 0 || fputs("` against `", f) == EOF ||
	     tl_md_text(f, base_name) < 0 ||
	     fprintf(f, "`: NEW - BASE in ns after filter_cost, Hodges-Lehmann shift with its 95 %% "
			"bootstrap interval; same = interval inside +-%g %% of BASE's median\n\n",
		     rc->threshold_pct) < 0))
		return -1;
	if (fputs("| backend | flush | kernel | shift ns | 95 % interval | shift % | MWU p | KS p | "
		  "verdict |\n|:---|:---|:---|---:|---:|---:|---:|---:|:---|\n",
		  f) == EOF)
		return -1;
	for (size_t r = 0; r < rc->nrows; r++) {
		const struct tl_cell *c = &base->cells[rc->rows[r].base_cell];
		struct row_text t;
		const char *cells[9];

		row_text(base, &rc->rows[r], &t);
		cells[0] = base->timers[c->timer].id;
		cells[1] = t.flush;
		cells[2] = c->kernel.label;
		cells[3] = t.shift;
		cells[4] = t.iv;
		cells[5] = t.rel;
		cells[6] = t.mwu;
		cells[7] = t.ks;
		cells[8] = t.verdict;
		for (int k = 0; k < 9; k++) {
			bool bold = k == 8 && rc->rows[r].cmp.verdict == TL_VERDICT_DIFFERENT;

			if (fputs(bold ? "| **" : "| ", f) == EOF || tl_md_text(f, cells[k]) < 0 ||
			    fputs(bold ? "** " : " ", f) == EOF)
				return -1;
		}
		if (fputs("|\n", f) == EOF)
			return -1;
	}
	return 0;
}

static int csv_num(FILE *f, double v)
{
	return (isfinite(v) ? fprintf(f, ",%.17g", v) : fprintf(f, ",")) < 0 ? -1 : 0;
}

int tl_run_compare_csv(FILE *f, const struct tl_run *base, const struct tl_run_compare *rc)
{
	if (fputs("backend,flush_bytes,kernel,n_base,n_new,median_base_ns,shift_ns,median_diff_ns,"
		  "ci_lo_ns,ci_hi_ns,shift_pct,mwu_p,ks_p,verdict,need_more\n",
		  f) == EOF)
		return -1;
	for (size_t r = 0; r < rc->nrows; r++) {
		const struct tl_cell_compare *row = &rc->rows[r];
		const struct tl_cell *c = &base->cells[row->base_cell];
		const struct tl_comparison *m = &row->cmp;
		double v[] = { row->base_median, m->hl, m->median_diff, m->lo, m->hi, row->rel_pct,
			       m->mwu_p, m->ks_p };

		if (tl_csv_field(f, base->timers[c->timer].id) < 0 ||
		    fprintf(f, ",%llu,", (unsigned long long)base->flush_bytes[c->flush]) < 0 ||
		    tl_csv_field(f, c->kernel.label) < 0 || fprintf(f, ",%zu,%zu", m->na, m->nb) < 0)
			return -1;
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
			if (csv_num(f, v[k]) < 0)
				return -1;
		if (fprintf(f, ",%s", stats_verdict_name(m->verdict)) < 0 || csv_num(f, m->need_more) < 0 ||
		    fputc('\n', f) == EOF)
			return -1;
	}
	return 0;
}
