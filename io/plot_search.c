/* A search's figures: t_min and t_diff of every backend and flush, the
 * median of the repeats with its interval, or an arrow from the bound below
 * which nothing was found; and the curves the searches walked, CV against K
 * and overlap against delta, from the points each repeat kept. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "io/plot_draw.h"

struct search_fig {
	const struct tl_search_plan *p;
	const struct tl_search_cell *cells;
	size_t ncells;
	enum tl_search_kind kind;   /* the curves: t_min's CV or t_diff's overlap */
	const struct tl_plot_opts *o;
};

static const struct tl_search_stat *metric(const struct tl_search_cell *c,
					   enum tl_search_kind kind)
{
	return kind == TL_SEARCH_TMIN ? &c->tmin : &c->tdiff;
}

static void extend(double *lo, double *hi, double v)
{
	if (isfinite(v) && v > 0) {
		*lo = fmin(*lo, v);
		*hi = fmax(*hi, v);
	}
}

/* Decades around every value either metric shows, so both panels compare. */
static void ns_range(const struct search_fig *s, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < s->ncells; i++)
		for (int k = 0; k < 2; k++) {
			const struct tl_search_stat *m = metric(&s->cells[i], k);

			extend(lo, hi, m->ns);
			extend(lo, hi, m->lo_ns);
			extend(lo, hi, m->hi_ns);
			extend(lo, hi, m->bound_ns);
		}
	if (!isfinite(*lo)) {
		*lo = 1;
		*hi = 1000;
	}
	*lo = pow(10, floor(log10(*lo)));
	*hi = pow(10, ceil(log10(*hi * 1.0001)));
	if (*hi <= *lo)
		*hi = *lo * 10;
}

static void row_label(const struct search_fig *s, size_t i, char *buf, size_t len)
{
	const struct tl_search_cell *c = &s->cells[i];

	snprintf(buf, len, "%s, flush %s", s->p->backends[c->b], s->p->flush_names[c->f]);
}

static void arrow(cairo_t *cr, double x0, double x1, double y, double r)
{
	cairo_move_to(cr, x0, y);
	cairo_line_to(cr, x1, y);
	cairo_stroke(cr);
	cairo_move_to(cr, x1, y);
	cairo_line_to(cr, x1 - r * 1.6, y - r);
	cairo_line_to(cr, x1 - r * 1.6, y + r);
	cairo_close_path(cr);
	cairo_fill(cr);
}

static void row(cairo_t *cr, const struct tl_plot_ink *ink, const struct search_fig *s,
		size_t i, enum tl_search_kind kind, const struct tl_plot_frame *f, double y,
		double font)
{
	const struct tl_search_stat *m = metric(&s->cells[i], kind);
	size_t series = s->cells[i].b;
	double cap = font * 0.35;

	cairo_save(cr);
	tl_plot_series_line(cr, ink, series, 1.6);
	if (m->found && isfinite(m->ns) && m->status == TL_STATUS_INTERVAL && !m->provisional) {
		if (isfinite(m->lo_ns) && isfinite(m->hi_ns) && m->lo_ns > 0) {
			double x0 = tl_plot_px(f, m->lo_ns), x1 = tl_plot_px(f, m->hi_ns);

			cairo_move_to(cr, x0, y);
			cairo_line_to(cr, x1, y);
			cairo_move_to(cr, x0, y - cap);
			cairo_line_to(cr, x0, y + cap);
			cairo_move_to(cr, x1, y - cap);
			cairo_line_to(cr, x1, y + cap);
			cairo_stroke(cr);
		}
		tl_plot_marker(cr, ink, series, tl_plot_px(f, m->ns), y, font * 0.38);
	} else if (m->found && isfinite(m->ns)) {
		/* no 95 % interval to draw: the repeats' span dashed (when they
		 * disagree), a hollow ring round the median, and the status
		 * written beside it, so the point is never read as precise */
		char text[96];
		double x = tl_plot_px(f, m->ns), per = m->ns / m->adds;

		if (m->status == TL_STATUS_UNSTABLE && per > 0) {
			double dash = font * 0.3;

			cairo_set_dash(cr, &dash, 1, 0);
			cairo_move_to(cr, tl_plot_px(f, m->span_lo * per), y);
			cairo_line_to(cr, tl_plot_px(f, m->span_hi * per), y);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
		}
		tl_plot_marker(cr, ink, series, x, y, font * 0.38);
		tl_plot_set(cr, ink->bg, 1);
		cairo_arc(cr, x, y, font * 0.2, 0, 2 * M_PI);
		cairo_fill(cr);
		tl_search_stat_text(text, sizeof text, m);
		tl_plot_set(cr, ink->fg, 1);
		cairo_set_font_size(cr, font * 0.75);
		tl_plot_text(cr, text, x, y - font * 0.55, 0.5, 1);
	} else if (m->ran && isfinite(m->bound_ns) && m->bound_ns > 0) {
		/* nothing found below the bound: the answer lies to the right */
		arrow(cr, tl_plot_px(f, m->bound_ns), f->x + f->w - font * 0.3, y, font * 0.3);
		tl_plot_set(cr, ink->fg, 1);
		cairo_set_font_size(cr, font * 0.75);
		tl_plot_text(cr, "none found below", tl_plot_px(f, m->bound_ns), y - font * 0.3, 0, 1);
	} else {
		tl_plot_set(cr, ink->muted, 1);
		cairo_set_font_size(cr, font * 0.75);
		tl_plot_text(cr, m->ran ? "no answer" : "not searched", f->x + font * 0.5, y, 0, 0.5);
	}
	cairo_restore(cr);
}

static int draw_search(cairo_t *cr, const struct tl_plot_ink *ink, void *ctx, double w,
		       double h, double top)
{
	struct search_fig *s = ctx;
	double font = tl_plot_font(w, h), lo, hi, lw = 0;
	int panels = s->p->want_tdiff ? 2 : 1;
	char buf[256];
	cairo_text_extents_t te;

	ns_range(s, &lo, &hi);
	cairo_set_font_size(cr, font * 0.85);
	for (size_t i = 0; i < s->ncells; i++) {
		row_label(s, i, buf, sizeof buf);
		cairo_text_extents(cr, buf, &te);
		lw = fmax(lw, te.x_advance);
	}
	lw = fmin(lw + font * 1.8, w * 0.4);
	double pw = (w - lw - font * 1.5) / panels, ph = h - top - font * 6.5;
	double rowh = ph / (double)(s->ncells ? s->ncells : 1);

	for (int k = 0; k < panels; k++) {
		struct tl_plot_frame f = {.x = lw + pw * k + font * 0.5, .y = top + font * 1.6,
					  .w = pw - font * 2.5, .h = ph, .xlo = lo, .xhi = hi,
					  .xlog = true};

		tl_plot_axes(cr, ink, &f, "ns (log scale)", NULL, font * 0.85);
		tl_plot_set(cr, ink->fg, 1);
		cairo_set_font_size(cr, font);
		tl_plot_text(cr, k == 0 ? "t_min (precision)" : "t_diff (sensitivity)",
			     f.x + f.w / 2, f.y - font * 0.3, 0.5, 1);
		cairo_set_font_size(cr, font * 0.85);
		for (size_t i = 0; i < s->ncells; i++) {
			double y = f.y + rowh * ((double)i + 0.5);

			if (k == 0) {
				char fit[sizeof buf + 4];

				tl_plot_set(cr, ink->fg, 1);
				row_label(s, i, buf, sizeof buf);
				tl_plot_fit(cr, buf, lw - font * 1.8, fit, sizeof fit);
				tl_plot_text(cr, fit, f.x - font * 1.4, y, 1, 0.5);
				tl_plot_marker(cr, ink, s->cells[i].b, f.x - font * 0.7, y, font * 0.3);
			}
			row(cr, ink, s, i, k, &f, y, font);
		}
	}
	snprintf(buf, sizeof buf, "median of %u repeats (%s); bar: 95 %% interval (all found, "
				  "agreeing), else status written; arrow: none below",
		 s->p->repeats, tl_search_method_name(s->p->sp.method));
	tl_plot_caption(cr, ink, buf, w, h, font);
	return 0;
}

/* ---- the curves: every evaluated point of every repeat ---- */

static int by_x(const void *a, const void *b)
{
	const double *u = a, *v = b;

	return (u[0] > v[0]) - (u[0] < v[0]);
}

/* One repeat's points in x order, joined, each with the cell's marker;
 * points above the frame are drawn at its edge (clipped). */
static void curve(cairo_t *cr, const struct tl_plot_ink *ink, const struct tl_plot_frame *f,
		  const struct tl_search_points *pts, size_t series, double font)
{
	double(*xy)[2] = tl_xmalloc(pts->n * sizeof *xy);
	size_t n = 0;

	for (size_t i = 0; i < pts->n; i++)
		if (pts->xy[i][0] > 0 && isfinite(pts->xy[i][1])) {
			xy[n][0] = pts->xy[i][0];
			xy[n++][1] = pts->xy[i][1];
		}
	qsort(xy, n, sizeof *xy, by_x);
	cairo_save(cr);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_clip(cr);
	tl_plot_series_line(cr, ink, series, 1.3);
	for (size_t i = 0; i < n; i++) {
		double x = tl_plot_px(f, xy[i][0]), y = tl_plot_py(f, fmin(xy[i][1], f->yhi));

		if (i)
			cairo_line_to(cr, x, y);
		else
			cairo_move_to(cr, x, y);
	}
	cairo_stroke(cr);
	for (size_t i = 0; i < n; i++)
		tl_plot_marker(cr, ink, series, tl_plot_px(f, xy[i][0]),
			       tl_plot_py(f, fmin(xy[i][1], f->yhi)), font * 0.22);
	cairo_restore(cr);
	free(xy);
}

/* Points of every repeat's curve above top: drawn on the frame's edge. */
static void count_above(const struct search_fig *s, double top, size_t *above, size_t *total)
{
	for (size_t i = 0; i < s->ncells; i++)
		for (unsigned r = 0; r < s->cells[i].nrep; r++) {
			const struct tl_search_points *pts = &s->cells[i].rep[r].points[s->kind];

			for (size_t j = 0; j < pts->n; j++)
				if (pts->xy[j][0] > 0 && isfinite(pts->xy[j][1])) {
					*total += 1;
					*above += pts->xy[j][1] > top;
				}
		}
}

static void clip_note(const struct search_fig *s, double top, double ymax, size_t above,
		      size_t total, char *buf, size_t len)
{
	if (s->kind == TL_SEARCH_TMIN)
		snprintf(buf, len, "CV axis cut at 8 x eps = %g: %zu of %zu points (up to %.3g) "
				   "drawn on the top edge", top, above, total, ymax);
	else
		snprintf(buf, len, "overlap axis cut at %g: %zu of %zu points drawn on the top edge",
			 top, above, total);
}

static int draw_curves(cairo_t *cr, const struct tl_plot_ink *ink, void *ctx, double w,
		       double h, double top)
{
	struct search_fig *s = ctx;
	enum tl_search_kind kind = s->kind;
	double font = tl_plot_font(w, h);
	double thr = kind == TL_SEARCH_TMIN ? s->p->sp.eps : s->p->sp.alpha;
	double xlo = INFINITY, xhi = -INFINITY, yhi = 0;
	char buf[256], (*labels)[160] = tl_xcalloc(s->ncells, sizeof *labels);
	const char **lp = tl_xcalloc(s->ncells, sizeof *lp);
	size_t *series = tl_xcalloc(s->ncells, sizeof *series), nl = 0;

	for (size_t i = 0; i < s->ncells; i++)
		for (unsigned r = 0; r < s->cells[i].nrep; r++) {
			const struct tl_search_points *pts = &s->cells[i].rep[r].points[kind];

			for (size_t j = 0; j < pts->n; j++)
				if (pts->xy[j][0] > 0 && isfinite(pts->xy[j][1])) {
					extend(&xlo, &xhi, pts->xy[j][0]);
					yhi = fmax(yhi, pts->xy[j][1]);
				}
		}
	if (!isfinite(xlo)) {
		xlo = 1;
		xhi = 10;
	}
	xlo = pow(10, floor(log10(xlo)));
	xhi = pow(10, ceil(log10(xhi * 1.0001)));
	/* the first guesses' CV can be many times eps: the view stays where the
	 * threshold is read (a point above the top is drawn on the edge) */
	double ymax = yhi;
	size_t above = 0, total = 0;

	yhi = kind == TL_SEARCH_TMIN ? fmin(fmax(yhi, 2 * thr), 8 * thr) : 1.0;
	count_above(s, yhi, &above, &total);
	struct tl_plot_frame f = {.x = font * 5, .y = top + font * 1.2, .w = w - font * 6.5,
				  .h = h - top - font * 6.2, .xlo = xlo, .xhi = xhi, .ylo = 0,
				  .yhi = yhi, .xlog = true};

	tl_plot_axes(cr, ink, &f,
		     kind == TL_SEARCH_TMIN ? "K, ADDs in the timed region (log scale)"
					    : "delta, ADDs added to one side (log scale)",
		     kind == TL_SEARCH_TMIN ? "CV of the samples" : "overlap (Mann-Whitney p)",
		     font * 0.85);
	/* the threshold the search stops at */
	cairo_save(cr);
	tl_plot_set(cr, ink->muted, 1);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, f.x, tl_plot_py(&f, thr));
	cairo_line_to(cr, f.x + f.w, tl_plot_py(&f, thr));
	cairo_stroke(cr);
	cairo_set_font_size(cr, font * 0.75);
	snprintf(buf, sizeof buf, kind == TL_SEARCH_TMIN ? "eps %g" : "alpha %g", thr);
	tl_plot_text(cr, buf, f.x + f.w - font * 0.3, tl_plot_py(&f, thr) - font * 0.2, 1, 1);
	cairo_restore(cr);
	for (size_t i = 0; i < s->ncells; i++) {
		bool any = false;

		for (unsigned r = 0; r < s->cells[i].nrep; r++) {
			curve(cr, ink, &f, &s->cells[i].rep[r].points[kind], i, font);
			any |= s->cells[i].rep[r].points[kind].n > 0;
		}
		if (any) {
			row_label(s, i, labels[nl], sizeof labels[nl]);
			lp[nl] = labels[nl];
			series[nl++] = i;
		}
	}
	tl_plot_legend(cr, ink, &f, lp, series, nl, TL_PLOT_TOP_RIGHT, font * 0.8);
	snprintf(buf, sizeof buf, "every point evaluated, each of %u repeats its own line (%s "
				  "method); the line across: the threshold",
		 s->p->repeats, tl_search_method_name(s->p->sp.method));
	tl_plot_caption(cr, ink, buf, w, h, font);
	clip_note(s, yhi, ymax, above, total, buf, sizeof buf);
	if (above) {
		/* said on the figure, over the frame's top edge where those points sit */
		cairo_save(cr);
		cairo_set_font_size(cr, font * 0.8);
		tl_plot_set(cr, ink->fg, 1);
		tl_plot_text(cr, buf, f.x, f.y - font * 0.2, 0, 1);
		cairo_restore(cr);
	}
	if (s->o->note)
		snprintf(s->o->note, s->o->notelen, "%s", above ? buf : "");
	free(labels);
	free(lp);
	free(series);
	return 0;
}

int tl_plot_search(const struct tl_search_plan *p, const struct tl_search_cell *cells,
		   const struct tl_plot_opts *o, const char *path, char *why, size_t whylen)
{
	struct search_fig s = {.p = p, .cells = cells, .ncells = p->nbackends * p->nflush};

	if (!s.ncells) {
		snprintf(why, whylen, "the search has no cells to draw");
		return -1;
	}
	if (o->kind == TL_PLOT_SEARCH)
		return tl_plot_page(o, path, draw_search, &s, why, whylen);
	if (o->kind != TL_PLOT_CV && o->kind != TL_PLOT_OVERLAP) {
		snprintf(why, whylen, "a search file draws kinds search, cv and overlap");
		return -1;
	}
	s.kind = o->kind == TL_PLOT_CV ? TL_SEARCH_TMIN : TL_SEARCH_TDIFF;
	s.o = o;
	if (!tl_search_points_total(cells, s.ncells, s.kind)) {
		snprintf(why, whylen, "the search file keeps no evaluated %s points",
			 s.kind == TL_SEARCH_TDIFF ? "t_diff" : "t_min");
		return -1;
	}
	return tl_plot_page(o, path, draw_curves, &s, why, whylen);
}
