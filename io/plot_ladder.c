/* The memory ladder as a figure: ns per load against buffer size on log
 * axes (sizes in binary units), the steps a chase measured as shaded bands
 * and the sizes CPUID/hwloc report as dashed lines, so a lecture sees where
 * the node's levels really end beside where it was told they do. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/analysis.h"
#include "bench/size.h"
#include "io/ladder.h"
#include "io/plot.h"
#include "io/plot_draw.h"

#define MAX_LINES 16

struct ladder_fig {
	const struct tl_run *run;
	struct tl_ladder l[MAX_LINES];
	char label[MAX_LINES][200];
	size_t n;
	const struct tl_plot_mark *marks;
	size_t nmarks;
	double xlo, xhi, ylo, yhi; /* log2 bytes, log10 ns */
};

static double fx(const struct tl_plot_frame *f, double bytes)
{
	return f->x + (log2(bytes) - f->xlo) / (f->xhi - f->xlo) * f->w;
}

static double fy(const struct tl_plot_frame *f, double ns)
{
	return f->y + f->h - (log10(ns) - f->ylo) / (f->yhi - f->ylo) * f->h;
}

static void grid_line(cairo_t *cr, const struct tl_plot_ink *ink, double x0, double y0, double x1,
		      double y1)
{
	tl_plot_set(cr, ink->grid, 1);
	cairo_move_to(cr, x0, y0);
	cairo_line_to(cr, x1, y1);
	cairo_stroke(cr);
}

/* Powers of 4 in bytes along x (4KiB, 16KiB, ...), 1-2-5 decades along y. */
static void axes(cairo_t *cr, const struct tl_plot_ink *ink, const struct tl_plot_frame *f,
		 double font)
{
	char buf[32];

	cairo_save(cr);
	cairo_set_line_width(cr, 0.6);
	cairo_set_font_size(cr, font);
	for (double e = ceil(f->xlo / 2) * 2; e <= f->xhi + 1e-9; e += 2) {
		double x = f->x + (e - f->xlo) / (f->xhi - f->xlo) * f->w;

		grid_line(cr, ink, x, f->y, x, f->y + f->h);
		tl_size_format((uint64_t)pow(2, e), buf, sizeof buf);
		tl_plot_set(cr, ink->fg, 1);
		tl_plot_text(cr, buf, x, f->y + f->h + font * 0.4, 0.5, 0);
	}
	for (double d = pow(10, floor(f->ylo)); log10(d) <= f->yhi + 1e-9; d *= 10)
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
			double v = d * m, y;

			if (log10(v) < f->ylo - 1e-9 || log10(v) > f->yhi + 1e-9)
				continue;
			y = fy(f, v);
			grid_line(cr, ink, f->x, y, f->x + f->w, y);
			snprintf(buf, sizeof buf, "%g", v);
			tl_plot_set(cr, ink->fg, 1);
			tl_plot_text(cr, buf, f->x - font * 0.4, y, 1, 0.5);
		}
	tl_plot_set(cr, ink->fg, 1);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_stroke(cr);
	tl_plot_text(cr, "buffer size (bytes, log)", f->x + f->w / 2, f->y + f->h + font * 1.7, 0.5,
		     0);
	cairo_translate(cr, f->x - font * 3.4, f->y + f->h / 2);
	cairo_rotate(cr, -M_PI / 2);
	tl_plot_text(cr, "ns per load (p50 / K, log)", 0, 0, 0.5, 1);
	cairo_restore(cr);
}

/* Measured steps: a band from the level's last size to the next, named at
 * the top; reported sizes: a dashed line named at the bottom. */
static void draw_marks(cairo_t *cr, const struct tl_plot_ink *ink, const struct ladder_fig *r,
		       const struct tl_plot_frame *f, double font)
{
	static const double dash[] = { 5, 4 };
	char text[128], size[32];

	cairo_save(cr);
	cairo_set_font_size(cr, font * 0.85);
	for (size_t i = 0, row = 0; i < r->nmarks; i++) {
		const struct tl_plot_mark *m = &r->marks[i];
		double x0 = fx(f, m->lo), x1 = fx(f, m->hi);

		if (log2(m->lo) > f->xhi) { /* CPUID's 508 MiB L3, past every size chased */
			tl_size_format((uint64_t)m->lo, size, sizeof size);
			snprintf(text, sizeof text, "%s %s (%s) further right", m->name, size,
				 m->measured ? "chase" : "CPUID");
			tl_plot_set(cr, ink->muted, 1);
			tl_plot_text(cr, text, f->x + f->w - font * 0.3,
				     f->y + f->h - font * (1.6 + 1.1 * (double)row++), 1, 1);
			continue;
		}
		if (log2(m->lo) < f->xlo)
			continue;
		tl_size_format((uint64_t)m->lo, size, sizeof size);
		if (m->measured) {
			tl_plot_set(cr, ink->series[1], 0.18);
			cairo_rectangle(cr, x0, f->y, (x1 > x0 ? x1 - x0 : 2), f->h);
			cairo_fill(cr);
			snprintf(text, sizeof text, "%s ends (chase)", m->name);
			tl_plot_set(cr, ink->fg, 1);
			/* neighbouring bands' names on alternate rows, so none overlap */
			tl_plot_text(cr, text, (x0 + x1) / 2, f->y + font * (0.3 + 1.1 * (double)(i % 2)),
				     0.5, 0);
		} else {
			tl_plot_set(cr, ink->muted, 1);
			cairo_set_dash(cr, dash, 2, 0);
			cairo_set_line_width(cr, 1.2);
			cairo_move_to(cr, x0, f->y);
			cairo_line_to(cr, x0, f->y + f->h);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
			snprintf(text, sizeof text, "%s %s (CPUID)", m->name, size);
			tl_plot_text(cr, text, x0 - font * 0.3, f->y + f->h - font * 0.4, 1, 1);
		}
	}
	cairo_restore(cr);
}

static void draw_line(cairo_t *cr, const struct tl_plot_ink *ink, const struct tl_ladder *l,
		      size_t i, const struct tl_plot_frame *f, double font)
{
	bool pen = false;

	for (size_t k = 0; k < l->n; k++) {
		if (!(l->ns[k] > 0) || !isfinite(l->ns[k]))
			continue;
		if (!pen)
			cairo_move_to(cr, fx(f, l->bytes[k]), fy(f, l->ns[k]));
		else
			cairo_line_to(cr, fx(f, l->bytes[k]), fy(f, l->ns[k]));
		pen = true;
	}
	tl_plot_series_line(cr, ink, i, 1.8);
	cairo_stroke(cr);
	for (size_t k = 0; k < l->n; k++)
		if (l->ns[k] > 0 && isfinite(l->ns[k]))
			tl_plot_marker(cr, ink, i, fx(f, l->bytes[k]), fy(f, l->ns[k]), font * 0.33);
}

static int draw(cairo_t *cr, const struct tl_plot_ink *ink, void *ctx, double w, double h,
		double top)
{
	struct ladder_fig *r = ctx;
	double font = tl_plot_font(w, h);
	struct tl_plot_frame f = { .x = font * 5, .y = top + font * 0.5, .w = w - font * 6.5,
				   .h = h - top - font * 5.4, .xlo = r->xlo, .xhi = r->xhi,
				   .ylo = r->ylo, .yhi = r->yhi };
	const char *labels[MAX_LINES];
	size_t idx[MAX_LINES];

	axes(cr, ink, &f, font);
	cairo_save(cr);
	cairo_rectangle(cr, f.x, f.y, f.w, f.h);
	cairo_clip(cr);
	draw_marks(cr, ink, r, &f, font);
	for (size_t i = 0; i < r->n; i++) {
		draw_line(cr, ink, &r->l[i], i, &f, font);
		labels[i] = r->label[i];
		idx[i] = i;
	}
	cairo_restore(cr);
	tl_plot_legend(cr, ink, &f, labels, idx, r->n, TL_PLOT_TOP_LEFT, font * 0.85);
	tl_plot_caption(cr, ink,
			"shaded: where a chase measured a level's step; dashed: the size CPUID/hwloc "
			"reports",
			w, h, font);
	return 0;
}

/* The figure's ranges: every point and every mark inside, in whole powers. */
static void ranges(struct ladder_fig *r)
{
	double bl = INFINITY, bh = 0, nl = INFINITY, nh = 0;

	for (size_t i = 0; i < r->n; i++)
		for (size_t k = 0; k < r->l[i].n; k++) {
			double b = r->l[i].bytes[k], v = r->l[i].ns[k];

			bl = fmin(bl, b);
			bh = fmax(bh, b);
			if (v > 0 && isfinite(v)) {
				nl = fmin(nl, v);
				nh = fmax(nh, v);
			}
		}
	r->xlo = floor(log2(bl)) - 0.5;
	r->xhi = ceil(log2(bh)) + 0.5;
	if (!(nh > 0)) {
		nl = 1;
		nh = 100;
	}
	r->ylo = floor(log10(nl));
	r->yhi = ceil(log10(nh));
	if (r->yhi <= r->ylo)
		r->yhi = r->ylo + 1;
}

int tl_plot_ladder(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		   const struct tl_plot_mark *marks, size_t nmarks, const struct tl_plot_opts *o,
		   const char *path, char *why, size_t whylen)
{
	struct ladder_fig *r = tl_xcalloc(1, sizeof *r);
	struct tl_analysis *an = tl_run_analyse(run, m, seed);
	struct tl_cell_groups g;
	int rc = -1;

	r->run = run;
	r->marks = marks;
	r->nmarks = nmarks;
	tl_cell_groups_init(run, &g);
	for (size_t t = 0; an && t < run->ntimers; t++)
		for (size_t fl = 0; fl < run->nflush && r->n < MAX_LINES; fl++) {
			size_t k = tl_cell_group(run, t, fl);
			char size[32];

			if (tl_ladder_collect_in(run, an, t, fl, g.cell + g.start[k],
						 g.start[k + 1] - g.start[k], NULL, 0, &r->l[r->n]) == 0)
				continue;
			tl_run_flush_label(run, fl, size, sizeof size);
			snprintf(r->label[r->n], sizeof r->label[r->n], "%s, flush %s",
				 run->timers[t].id, size);
			r->n++;
		}
	if (!an)
		snprintf(why, whylen, "out of memory analysing the samples");
	else if (!r->n)
		snprintf(why, whylen, "the run has no load cells: a ladder is a run of load:SIZE "
			 "kernels (e.g. -k load:4KiB..2xL3)");
	else {
		ranges(r);
		rc = tl_plot_page(o, path, draw, r, why, whylen);
	}
	tl_cell_groups_free(&g);
	free(an);
	free(r);
	return rc;
}
