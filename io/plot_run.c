/* A run's figures: histograms (a panel per cell) and the CDFs overlaid, of
 * the very samples the summary describes (tl_cell_analyse_kept). */
#include "config.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/size.h"
#include "bench/analysis.h"
#include "io/plot_draw.h"

#define HIST_BINS 60
#define CDF_POINTS 400
#define CDF_MARKS 6

struct series {
	char label[TL_ID_MAX + 128];
	double *v; /* kept samples, sorted */
	size_t n;
	struct tl_analysis an;
	double resolution;
};

struct run_fig {
	const struct tl_plot_opts *o;
	struct series *s;
	size_t n;
	double lo, hi; /* every series' min and p99 */
};

static void series_free(struct run_fig *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->s[i].v);
	free(r->s);
}

static int series_load(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		       struct run_fig *r)
{
	r->s = tl_xcalloc(run->ncells, sizeof *r->s);
	r->lo = INFINITY;
	r->hi = -INFINITY;
	for (size_t c = 0; c < run->ncells; c++) {
		const struct tl_cell *cell = &run->cells[c];
		struct series *s = &r->s[r->n];
		size_t done = tl_cell_done(run, c);
		char fl[32];

		if (cell->hidden)
			continue;
		s->v = tl_xmalloc(done * sizeof *s->v);
		if (tl_cell_analyse_kept(run, c, m, seed, &s->an, s->v, done, &s->n) < 0)
			return -1;
		r->n++;
		gsl_sort(s->v, 1, s->n);
		tl_size_format(run->flush_bytes[cell->flush], fl, sizeof fl);
		snprintf(s->label, sizeof s->label, "%s, flush %s, %s", run->timers[cell->timer].id,
			 fl, cell->kernel.label);
		s->resolution = cell->resolution_ns;
		if (s->n) {
			r->lo = fmin(r->lo, s->an.summary.min);
			r->hi = fmax(r->hi, s->an.summary.p99);
		}
	}
	return 0;
}

/* [lo, hi] widened where it is one point, so it has a width to draw. */
static void widen(double *lo, double *hi)
{
	if (!(*hi > *lo)) {
		double d = fabs(*lo) > 1 ? fabs(*lo) * 0.05 : 1;

		*lo -= d;
		*hi += d;
	}
}

/* ------------------------------------------------------------------ */
/* Histograms                                                           */
/* ------------------------------------------------------------------ */

static void hist_panel(cairo_t *cr, const struct tl_plot_ink *ink, const struct run_fig *r,
		       size_t i, struct tl_plot_frame *f, double font)
{
	const struct series *s = &r->s[i];
	struct tl_histogram h;
	double lo = r->o->own_axis ? s->an.summary.min : r->lo;
	double hi = r->o->own_axis ? s->an.summary.p99 : r->hi;
	double res = s->resolution > 0 && isfinite(s->resolution) ? s->resolution : 0, top = 0;
	char note[64], label[sizeof s->label + 4];

	cairo_save(cr);
	cairo_set_font_size(cr, font * 0.85);
	tl_plot_set(cr, ink->fg, 1);
	tl_plot_fit(cr, s->label, f->w - font * 1.1, label, sizeof label);
	tl_plot_text(cr, label, f->x + font * 1.1, f->y - font * 0.3, 0, 1);
	tl_plot_marker(cr, ink, i, f->x + font * 0.4, f->y - font * 0.75, font * 0.3);
	cairo_restore(cr);
	if (!s->n) {
		f->xlo = 0, f->xhi = 1, f->ylo = 0, f->yhi = 1;
		tl_plot_axes(cr, ink, f, NULL, NULL, font * 0.8);
		tl_plot_text(cr, "no samples", f->x + f->w / 2, f->y + f->h / 2, 0.5, 0.5);
		return;
	}
	widen(&lo, &hi);
	if (!(res > 0))
		res = (hi - lo) / HIST_BINS;
	if (stats_histogram(s->v, s->n, res, HIST_BINS, lo, hi, &h) < 0)
		return;
	for (size_t b = 0; b < h.nbins; b++)
		top = fmax(top, h.counts[b] / (double)h.total * 100);
	f->xlo = lo, f->xhi = lo + h.width * (double)h.nbins, f->ylo = 0, f->yhi = top * 1.15;
	widen(&f->xlo, &f->xhi);
	widen(&f->ylo, &f->yhi);
	f->ylo = 0;
	tl_plot_axes(cr, ink, f, "ns", "% of samples", font * 0.8);
	cairo_save(cr);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_clip(cr);
	for (size_t b = 0; b < h.nbins; b++) {
		double x0 = tl_plot_px(f, h.lo + h.width * (double)b);
		double x1 = tl_plot_px(f, h.lo + h.width * (double)(b + 1));
		double y = tl_plot_py(f, h.counts[b] / (double)h.total * 100);

		tl_plot_set(cr, ink->series[i % TUI_NSERIES], 0.35);
		cairo_rectangle(cr, x0, y, x1 - x0, f->y + f->h - y);
		cairo_fill(cr);
		if (b == 0)
			cairo_move_to(cr, x0, f->y + f->h);
		cairo_line_to(cr, x0, y);
		cairo_line_to(cr, x1, y);
	}
	cairo_line_to(cr, tl_plot_px(f, h.lo + h.width * (double)h.nbins), f->y + f->h);
	tl_plot_series_line(cr, ink, i, 1.4);
	cairo_stroke(cr);
	tl_plot_marker(cr, ink, i, tl_plot_px(f, s->an.summary.p50), f->y + font * 0.6, font * 0.35);
	cairo_restore(cr);
	/* what the TUI shows as "+N>" at the axis' right end */
	if (h.above) {
		snprintf(note, sizeof note, "+%zu beyond ->", h.above);
		cairo_save(cr);
		cairo_set_font_size(cr, font * 0.8);
		tl_plot_set(cr, ink->fg, 1);
		tl_plot_text(cr, note, f->x + f->w - font * 0.3, f->y + font * 1.4, 1, 0);
		cairo_restore(cr);
	}
	stats_histogram_free(&h);
}

static int draw_hist(cairo_t *cr, const struct tl_plot_ink *ink, void *ctx, double w, double h,
		     double top)
{
	struct run_fig *r = ctx;
	double font = h / 40 < 14 ? h / 40 : 14;
	size_t cols = (size_t)ceil(sqrt((double)r->n * w / h / 1.4)), rows;

	if (cols < 1)
		cols = 1;
	if (cols > r->n)
		cols = r->n ? r->n : 1;
	rows = (r->n + cols - 1) / cols;
	if (!rows)
		rows = 1;
	double cw = w / (double)cols, ch = (h - top - font * 1.6) / (double)rows;

	for (size_t i = 0; i < r->n; i++) {
		struct tl_plot_frame f = {
			.x = cw * (double)(i % cols) + font * 4.2,
			.y = top + ch * (double)(i / cols) + font * 1.6,
			.w = cw - font * 5.2,
			.h = ch - font * 4.4,
		};
		hist_panel(cr, ink, r, i, &f, font);
	}
	tl_plot_caption(cr, ink,
		r->o->own_axis
			? "ns after filter_cost (can be < 0) and the OS filter; each panel min..p99; "
			  "+N: samples beyond the axis; marker at top: median"
			: "ns after filter_cost (can be < 0) and the OS filter; one axis: lowest min.."
			  "highest p99; +N: samples beyond it; marker at top: median",
		w, h, font);
	return 0;
}

/* ------------------------------------------------------------------ */
/* CDF overlay                                                          */
/* ------------------------------------------------------------------ */

static void cdf_curve(cairo_t *cr, const struct tl_plot_ink *ink, const struct run_fig *r,
		      size_t i, const struct tl_plot_frame *f, double font)
{
	const struct series *s = &r->s[i];

	if (!s->n)
		return;
	for (int k = 0; k <= CDF_POINTS; k++) {
		double x = f->xlo + (f->xhi - f->xlo) * k / CDF_POINTS;
		double y = stats_ecdf(s->v, s->n, x);

		if (k == 0)
			cairo_move_to(cr, tl_plot_px(f, x), tl_plot_py(f, y));
		else
			cairo_line_to(cr, tl_plot_px(f, x), tl_plot_py(f, y));
	}
	tl_plot_series_line(cr, ink, i, 1.8);
	cairo_stroke(cr);
	/* markers staggered per series, so no two sit on one spot */
	for (int k = 0; k < CDF_MARKS; k++) {
		double t = (k + (double)(i + 1) / (double)(r->n + 1)) / CDF_MARKS;
		double x = f->xlo + (f->xhi - f->xlo) * t;

		tl_plot_marker(cr, ink, i, tl_plot_px(f, x), tl_plot_py(f, stats_ecdf(s->v, s->n, x)),
			       font * 0.33);
	}
}

static int draw_cdf(cairo_t *cr, const struct tl_plot_ink *ink, void *ctx, double w, double h,
		    double top)
{
	struct run_fig *r = ctx;
	double font = h / 40 < 14 ? h / 40 : 14;
	struct tl_plot_frame f = {.x = font * 5, .y = top + font * 0.5, .w = w - font * 6.5,
				  .h = h - top - font * 5.4, .xlo = r->lo, .xhi = r->hi,
				  .ylo = 0, .yhi = 1};
	const char **labels = tl_xcalloc(r->n, sizeof *labels);
	size_t *idx = tl_xcalloc(r->n, sizeof *idx);

	widen(&f.xlo, &f.xhi);
	tl_plot_axes(cr, ink, &f, "ns", "share of samples <= x", font);
	cairo_save(cr);
	cairo_rectangle(cr, f.x, f.y, f.w, f.h);
	cairo_clip(cr);
	for (size_t i = 0; i < r->n; i++) {
		cdf_curve(cr, ink, r, i, &f, font);
		labels[i] = r->s[i].label;
		idx[i] = i;
	}
	cairo_restore(cr);
	tl_plot_legend(cr, ink, &f, labels, idx, r->n, TL_PLOT_BOTTOM_RIGHT, font * 0.85);
	tl_plot_caption(cr, ink,
			"ns after filter_cost (can be < 0) and the OS filter; axis: lowest min.."
			"highest p99",
			w, h, font);
	free(labels);
	free(idx);
	return 0;
}

int tl_plot_run(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		const struct tl_plot_opts *o, const char *path, char *why, size_t whylen)
{
	struct run_fig r = {.o = o};
	int rc;

	if (o->kind != TL_PLOT_HIST && o->kind != TL_PLOT_CDF) {
		snprintf(why, whylen, "a run file draws hist or cdf");
		return -1;
	}
	if (series_load(run, m, seed, &r) < 0) {
		series_free(&r);
		snprintf(why, whylen, "out of memory analysing the samples");
		return -1;
	}
	if (!r.n) {
		series_free(&r);
		snprintf(why, whylen, "the run has no cells to draw");
		return -1;
	}
	rc = tl_plot_page(o, path, o->kind == TL_PLOT_HIST ? draw_hist : draw_cdf, &r, why, whylen);
	series_free(&r);
	return rc;
}
