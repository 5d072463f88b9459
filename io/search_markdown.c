/* A search as a Markdown table (`search --markdown`, `report SEARCH.json
 * --markdown`): one row per backend x flush with t_min and t_diff, their
 * intervals and the ratios to the reference, read from the summarised
 * cells only, so it says what the search table says. */
#include "config.h"

#include "judge/lesson.h"
#include "io/search_markdown.h"

#include <math.h>
#include <stdio.h>

#include "io/atomic.h"
#include "io/markdown.h"
#include "io/results.h"
#include "stats/stats.h"

static void metric_text(const struct tl_search_stat *s, char *adds, char *iv, char *ns, size_t len)
{
	snprintf(adds, len, "-");
	snprintf(iv, len, "-");
	snprintf(ns, len, "-");
	if (s->ran)
		tl_search_stat_text(iv, len, s);
	if (s->found) {
		snprintf(adds, len, "%s%.0f", s->provisional ? "~" : "", s->adds);
		snprintf(ns, len, "%.1f", s->ns);
	} else if (s->ran) {
		snprintf(adds, len, "none");
	}
}

static int md_cells(FILE *f, const char *const *cells, int n)
{
	for (int k = 0; k < n; k++)
		if (fputs("| ", f) == EOF || tl_md_fputs(cells[k], f) < 0 || fputc(' ', f) == EOF)
			return -1;
	return fputs("|\n", f) == EOF ? -1 : 0;
}

int tl_search_markdown(FILE *f, const struct tl_search_plan *p, const struct tl_search_cell *cells)
{
	const struct tl_search_params *sp = &p->sp;
	char lesson[512];

	tl_lesson_search(p, cells, p->nbackends * p->nflush, "\u00d7", lesson, sizeof lesson);
	if (lesson[0] && (fputs("**In short:** ", f) == EOF || tl_md_fputs(lesson, f) < 0 ||
			  fputs("\n\n", f) == EOF))
		return -1;
	if (fprintf(f, "t_min (precision) and t_diff (sensitivity), method %s, eps %g, alpha %g, "
		       "n %zu, os-filter %s, %u repeats (interval %s); ratios to ",
		    tl_search_method_name(sp->method), sp->eps, sp->alpha, sp->n,
		    stats_os_method_name(sp->os), p->repeats, tl_search_interval_method(p->repeats)) < 0 ||
	    tl_md_fputs(p->backends[p->ref], f) < 0 || fputs("\n\n", f) == EOF ||
	    fputs("| backend | flush | ns/ADD | t_min ADDs | 95% interval / status | t_min ns | t_diff ADDs | "
		  "95% interval / status | t_diff ns | precision | sensitivity |\n"
		  "|:---|:---|---:|---:|---:|---:|---:|---:|---:|:---|:---|\n",
		  f) == EOF)
		return -1;
	for (size_t i = 0; i < p->nbackends * p->nflush; i++) {
		const struct tl_search_cell *c = &cells[i];
		char npa[32], ta[32], ti[48], tn[32], da[32], di[48], dn[32], pr[800], se[800];

		snprintf(npa, sizeof npa, "-");
		if (isfinite(c->ns_per_add))
			snprintf(npa, sizeof npa, "%.3f", c->ns_per_add);
		metric_text(&c->tmin, ta, ti, tn, sizeof ta);
		metric_text(&c->tdiff, da, di, dn, sizeof da);
		snprintf(pr, sizeof pr, "reference");
		snprintf(se, sizeof se, "reference");
		if (c->b != p->ref) {
			tl_search_ratio_describe(pr, sizeof pr, &c->ratio_tmin, "precise", "x");
			tl_search_ratio_describe(se, sizeof se, &c->ratio_tdiff, "sensitive", "x");
		}
		if (!p->want_tdiff)
			snprintf(se, sizeof se, "t_diff not searched");
		const char *row[] = { p->backends[c->b], p->flush_names[c->f], npa, ta, ti, tn,
				      da, di, dn, pr, se };
		if (md_cells(f, row, 11) < 0)
			return -1;
	}
	return 0;
}

struct ctx {
	const struct tl_search_plan *p;
	const struct tl_search_cell *cells;
};

static int emit(FILE *f, void *v)
{
	const struct ctx *c = v;

	return tl_search_markdown(f, c->p, c->cells);
}

int tl_search_markdown_commit(struct tl_out *o, const struct tl_search_plan *p,
			      const struct tl_search_cell *cells, char *why, size_t whylen)
{
	struct ctx c = { p, cells };

	return tl_out_commit(o, emit, &c, why, whylen);
}

int tl_search_markdown_write(const char *path, const struct tl_search_plan *p,
			     const struct tl_search_cell *cells, char *why, size_t whylen)
{
	struct ctx c = { p, cells };

	return tl_write_atomic(path, emit, &c, why, whylen);
}
