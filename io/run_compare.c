#include "config.h"

#include "io/run_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/size.h"
#include "bench/analysis.h"
#include "io/json_build.h"
#include "io/term_safe.h"
#include "stats/stats.h"

void tl_shift_text(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	snprintf(buf, len, "%.2f", v);
	/* No "-0.00" and no "0.00" beside a real zero: what rounds to 0 is 0. */
	if (strtod(buf, NULL) == 0)
		snprintf(buf, len, "0");
}

/* "4xL3 (16MiB)", and "4xL3 (16MiB; NEW 8MiB)" when the two runs resolved
 * the name to other bytes: the cell is the same question, asked of
 * another buffer, and the reader must know. */
static void flush_text(const struct tl_run *base, const struct tl_cell_compare *r, char *buf,
		       size_t len)
{
	size_t f = base->cells[r->base_cell].flush;
	char label[96], other[32];

	tl_run_flush_label(base, f, label, sizeof label);
	if (r->new_flush_bytes == base->flush_bytes[f]) {
		snprintf(buf, len, "%s", label);
		return;
	}
	tl_size_format(r->new_flush_bytes, other, sizeof other);
	if (label[strlen(label) - 1] == ')')
		snprintf(buf, len, "%.*s; NEW %s)", (int)strlen(label) - 1, label, other);
	else
		snprintf(buf, len, "%s (NEW %s)", label, other);
}

struct row_text {
	char flush[160], shift[40], iv[80], rel[40], mwu[32], ks[32], verdict[64];
};

static void row_text(const struct tl_run *base, const struct tl_cell_compare *r,
		     struct row_text *t)
{
	char sh[32], lo[32], hi[32], rel[32];

	flush_text(base, r, t->flush, sizeof t->flush);
	tl_shift_text(r->cmp.shift, sh, sizeof sh);
	snprintf(t->shift, sizeof t->shift, "%s ns", sh);
	tl_shift_text(r->cmp.lo, lo, sizeof lo);
	tl_shift_text(r->cmp.hi, hi, sizeof hi);
	snprintf(t->iv, sizeof t->iv, "[%s, %s] ns", lo, hi);
	tl_shift_text(r->rel_pct, rel, sizeof rel);
	if (isfinite(r->rel_pct))
		snprintf(t->rel, sizeof t->rel, "%s%%", rel);
	else
		snprintf(t->rel, sizeof t->rel, "-");
	snprintf(t->mwu, sizeof t->mwu, "%.2g", r->cmp.mwu_p);
	snprintf(t->ks, sizeof t->ks, "%.2g", r->cmp.ks_p);
	tl_cell_compare_verdict(r, t->verdict, sizeof t->verdict);
}

void tl_cell_compare_units(const struct tl_cell_compare *row, char *buf, size_t len)
{
	if (row->ticks)
		snprintf(buf, len, "ticks of one clock on one node, times BASE's rate %.9g ns/tick "
				   "(NEW's own: %.9g)", row->rate_base, row->rate_new);
	else
		snprintf(buf, len, "ns, each run by its own rate (BASE %.9g, NEW %.9g ns/unit)",
			 row->rate_base, row->rate_new);
}

/* A row of a backend id's first: sorted by (id, row), the head of each
 * id's run (a scan of the rows before each row is quadratic). */
struct row_id {
	const char *id;
	size_t r;
};

static int row_id_cmp(const void *x, const void *y)
{
	const struct row_id *p = x, *q = y;
	int c = strcmp(p->id, q->id);

	return c ? c : (p->r > q->r) - (p->r < q->r);
}

static bool *first_of_backend(const struct tl_run *base, const struct tl_run_compare *rc)
{
	struct row_id *k = tl_xcalloc(rc->nrows ? rc->nrows : 1, sizeof *k);
	bool *first = tl_xcalloc(rc->nrows ? rc->nrows : 1, sizeof *first);

	for (size_t r = 0; r < rc->nrows; r++)
		k[r] = (struct row_id){ base->timers[base->cells[rc->rows[r].base_cell].timer].id, r };
	qsort(k, rc->nrows, sizeof *k, row_id_cmp);
	for (size_t q = 0; q < rc->nrows; q++)
		first[k[q].r] = q == 0 || strcmp(k[q].id, k[q - 1].id) != 0;
	free(k);
	return first;
}

void tl_run_compare_print(FILE *f, const struct tl_run *base, const struct tl_run_compare *rc)
{
	fprintf(f, "NEW - BASE after filter_cost, 95 %% interval: by 'mean' (difference of fenced "
		   "means, Welch; ties common: a lattice clock) or 'hodges-lehmann' (Lehmann); "
		   "same = interval inside +-%g %% of BASE's median\n", rc->threshold_pct);
	fprintf(f, "%-24s %-8s %-22s %12s %-26s %-14s %8s %9s %9s  %s\n", "backend", "flush",
		"kernel", "shift", "interval", "by", "shift%", "MWU p", "KS p", "verdict");
	for (size_t r = 0; r < rc->nrows; r++) {
		const struct tl_cell *c = &base->cells[rc->rows[r].base_cell];
		struct row_text t;

		row_text(base, &rc->rows[r], &t);
		fprintf(f, "%-24s %-8s %-22s %12s %-26s %-14s %8s %9s %9s  %s\n",
			base->timers[c->timer].id, t.flush, c->kernel.label, t.shift, t.iv,
			stats_shift_method_name(rc->rows[r].cmp.method), t.rel, t.mwu, t.ks, t.verdict);
	}
	/* Each backend's units once: how its two runs were put on one scale. */
	bool *first = first_of_backend(base, rc);
	for (size_t r = 0; r < rc->nrows; r++) {
		char units[256];

		if (!first[r])
			continue;
		tl_cell_compare_units(&rc->rows[r], units, sizeof units);
		fprintf(f, "  %s: compared in %s\n",
			base->timers[base->cells[rc->rows[r].base_cell].timer].id, units);
	}
	free(first);
}

json_t *tl_cell_compare_json(const struct tl_run *base, const struct tl_cell_compare *row)
{
	const struct tl_cell *c = &base->cells[row->base_cell];
	const struct tl_comparison *cmp = &row->cmp;
	json_t *o = tl_json_object();

	tl_json_set(o, "backend", json_string(base->timers[c->timer].id));
	tl_json_set(o, "flush_bytes", json_integer((json_int_t)base->flush_bytes[c->flush]));
	if (tl_run_flush_name(base, c->flush))
		tl_json_set(o, "flush_name", json_string(tl_run_flush_name(base, c->flush)));
	if (row->new_flush_bytes != base->flush_bytes[c->flush])
		tl_json_set(o, "flush_bytes_new", json_integer((json_int_t)row->new_flush_bytes));
	tl_json_set(o, "kernel", json_string(c->kernel.label));
	tl_json_set(o, "n_base", json_integer((json_int_t)cmp->na));
	tl_json_set(o, "n_new", json_integer((json_int_t)cmp->nb));
	tl_json_set(o, "median_base_ns", tl_json_real(row->base_median));
	tl_json_set(o, "shift_ns", tl_json_real(cmp->shift));
	tl_json_set(o, "shift_method", json_string(stats_shift_method_name(cmp->method)));
	tl_json_set(o, "tie_share", tl_json_real(cmp->tie_share));
	tl_json_set(o, "units", json_string(row->ticks ? "ticks" : "ns"));
	tl_json_set(o, "ns_per_unit_base", tl_json_real(row->rate_base));
	tl_json_set(o, "ns_per_unit_new", tl_json_real(row->rate_new));
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
	/* each cell's row, found once: tl_run_compare_find per cell scans them all */
	const struct tl_cell_compare **row_of = tl_xcalloc(run->ncells ? run->ncells : 1,
							   sizeof *row_of);
	size_t v = 0;

	for (size_t r = rc->nrows; r-- > 0;)
		if (rc->rows[r].new_cell < run->ncells)
			row_of[rc->rows[r].new_cell] = &rc->rows[r];
	for (size_t i = 0; i < run->ncells; i++) {
		const struct tl_cell_compare *row = row_of[i];

		if (run->cells[i].hidden)
			continue;
		if (row)
			tl_json_set(json_array_get(cells, v), "baseline", tl_cell_compare_json(base, row));
		v++;
	}
	free(row_of);
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
	    (tl_md_fputs(new_name, f) < 0 || fputs(" against ", f) == EOF ||
	     tl_md_fputs(base_name, f) < 0 ||
	     fprintf(f, ": NEW - BASE in ns after filter_cost with its 95 %% interval, by the "
			"difference of fenced means (Welch) where ties are common (a lattice clock), "
			"else Hodges-Lehmann (Lehmann); same = interval inside +-%g %% of BASE's "
			"median\n\n",
		     rc->threshold_pct) < 0))
		return -1;
	if (fputs("| backend | flush | kernel | shift | 95 % interval | by | shift % | MWU p | KS p | "
		  "verdict |\n|:---|:---|:---|---:|---:|:---|---:|---:|---:|:---|\n",
		  f) == EOF)
		return -1;
	for (size_t r = 0; r < rc->nrows; r++) {
		const struct tl_cell *c = &base->cells[rc->rows[r].base_cell];
		struct row_text t;
		const char *cells[10];

		row_text(base, &rc->rows[r], &t);
		cells[0] = base->timers[c->timer].id;
		cells[1] = t.flush;
		cells[2] = c->kernel.label;
		cells[3] = t.shift;
		cells[4] = t.iv;
		cells[5] = stats_shift_method_name(rc->rows[r].cmp.method);
		cells[6] = t.rel;
		cells[7] = t.mwu;
		cells[8] = t.ks;
		cells[9] = t.verdict;
		for (int k = 0; k < 10; k++) {
			bool bold = k == 9 && rc->rows[r].cmp.verdict == TL_VERDICT_DIFFERENT;

			if (fputs(bold ? "| **" : "| ", f) == EOF || tl_md_fputs(cells[k], f) < 0 ||
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
		  "ci_lo_ns,ci_hi_ns,shift_pct,mwu_p,ks_p,verdict,need_more,shift_method,units\n",
		  f) == EOF)
		return -1;
	for (size_t r = 0; r < rc->nrows; r++) {
		const struct tl_cell_compare *row = &rc->rows[r];
		const struct tl_cell *c = &base->cells[row->base_cell];
		const struct tl_comparison *m = &row->cmp;
		double v[] = { row->base_median, m->shift, m->median_diff, m->lo, m->hi, row->rel_pct,
			       m->mwu_p, m->ks_p };

		if (tl_csv_fputs(base->timers[c->timer].id, f) < 0 ||
		    fprintf(f, ",%llu,", (unsigned long long)base->flush_bytes[c->flush]) < 0 ||
		    tl_csv_fputs(c->kernel.label, f) < 0 || fprintf(f, ",%zu,%zu", m->na, m->nb) < 0)
			return -1;
		for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
			if (csv_num(f, v[k]) < 0)
				return -1;
		if (fprintf(f, ",%s", stats_verdict_name(m->verdict)) < 0 || csv_num(f, m->need_more) < 0 ||
		    fprintf(f, ",%s,%s\n", stats_shift_method_name(m->method),
			    row->ticks ? "ticks" : "ns") < 0)
			return -1;
	}
	return 0;
}
