/* A search's figure: t_min and t_diff of every backend and flush, the median
 * of the repeats with its interval, or an arrow from the bound below which
 * nothing was found. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/plot_draw.h"

struct search_fig {
	const struct tl_search_plan *p;
	const struct tl_search_cell *cells;
	size_t ncells;
};

static const struct tl_search_stat *metric(const struct tl_search_cell *c, int kind)
{
	return kind == 0 ? &c->tmin : &c->tdiff;
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
		size_t i, int kind, const struct tl_plot_frame *f, double y, double font)
{
	const struct tl_search_stat *m = metric(&s->cells[i], kind);
	size_t series = s->cells[i].b;
	double cap = font * 0.35;

	cairo_save(cr);
	tl_plot_series_line(cr, ink, series, 1.6);
	if (m->found && isfinite(m->ns)) {
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
	double font = h / 40 < 14 ? h / 40 : 14, lo, hi, lw = 0;
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
	snprintf(buf, sizeof buf, "median of %u repeats with its interval (%s method); "
				  "arrow: nothing found below its start",
		 s->p->repeats, tl_search_method_name(s->p->sp.method));
	cairo_save(cr);
	cairo_set_font_size(cr, font * 0.85);
	tl_plot_set(cr, ink->muted, 1);
	tl_plot_text(cr, buf, w / 2, h - font * 0.4, 0.5, 1);
	cairo_restore(cr);
	return 0;
}

int tl_plot_search(const struct tl_search_plan *p, const struct tl_search_cell *cells,
		   const struct tl_plot_opts *o, const char *path, char *why, size_t whylen)
{
	struct search_fig s = {.p = p, .cells = cells, .ncells = p->nbackends * p->nflush};

	if (o->kind != TL_PLOT_SEARCH) {
		snprintf(why, whylen, "a search file draws kind search");
		return -1;
	}
	if (!s.ncells) {
		snprintf(why, whylen, "the search has no cells to draw");
		return -1;
	}
	return tl_plot_page(o, path, draw_search, &s, why, whylen);
}
