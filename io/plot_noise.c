/* How the paper's OS filter and the measured causes agree, as a figure: per
 * cell, one bar of the samples the filter removed, split into those with a
 * measured cause and those without, and beside it the samples with a cause
 * the filter kept. A lecture can point at it: the filter guesses from the
 * values, the causes were recorded while the samples ran. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/analysis.h"
#include "backends/backend.h"
#include "bench/size.h"
#include "io/plot.h"
#include "io/plot_draw.h"
#include "stats/stats.h"

struct noise_fig {
	struct tl_noise_agree *ag;
	char (*label)[TL_ID_MAX + 128];
	size_t n;
	double xmax;
	const char *method;
};

/* The three parts, in their series colours, the legend's order. */
static const char *const part_names[] = { "removed, with a measured cause",
					  "removed, no cause measured",
					  "kept, with a measured cause" };

static void bar(cairo_t *cr, const struct tl_plot_ink *ink, size_t series, double x, double y,
		double w, double h)
{
	if (w <= 0)
		return;
	tl_plot_set(cr, ink->series[series % TUI_NSERIES], 0.85);
	cairo_rectangle(cr, x, y, w, h);
	cairo_fill(cr);
}

static void row_text(const struct tl_noise_agree *a, char *text, size_t len)
{
	char top[TL_NOISE_NAME + 48] = "";

	if (a->skipped) {
		snprintf(text, len, "not computed: over %zu samples", TL_NOISE_AGREE_MAX);
		return;
	}
	if (a->removed_with_cause && strcmp(a->top, "none") != 0)
		snprintf(top, sizeof top, "; most %s", a->top);
	if (a->removed)
		snprintf(text, len, "removed %zu: %zu with a cause (%.0f %%%s), %zu without; kept %zu "
				    "with a cause",
			 a->removed, a->removed_with_cause,
			 100.0 * (double)a->removed_with_cause / (double)a->removed, top,
			 a->removed_without_cause, a->kept_with_cause);
	else
		snprintf(text, len, "removed none; kept %zu with a cause", a->kept_with_cause);
}

/* The row's geometry: one line per cell, its label, its two bars (removed:
 * caused then uncaused; under it, kept with a cause) and their counts. */
struct layout {
	double font, row_h, label_w, bar_x, bar_w;
	size_t shown;
};

static double widest(cairo_t *cr, const struct noise_fig *r, size_t n, bool labels)
{
	double wmax = 0;
	char text[256];

	for (size_t i = 0; i < n; i++) {
		cairo_text_extents_t e;

		if (labels)
			cairo_text_extents(cr, r->label[i], &e);
		else {
			row_text(&r->ag[i], text, sizeof text);
			cairo_text_extents(cr, text, &e);
		}
		wmax = fmax(wmax, e.x_advance);
	}
	return wmax;
}

/* The largest font (at most the page's, at least 0.55 of it) at which every
 * row fits; the rows that do not fit at the smallest are cut, and said. */
static void plan(cairo_t *cr, const struct noise_fig *r, double font, double w, double h,
		 struct layout *l)
{
	double fmin_ = font * 0.55;

	l->shown = r->n;
	for (l->font = font * 0.9;; l->font -= font * 0.05) {
		l->row_h = l->font * 2.4;
		if (l->row_h * (double)r->n <= h || l->font <= fmin_)
			break;
	}
	if (l->row_h * (double)r->n > h)
		l->shown = (size_t)(h / l->row_h);
	if (!l->shown)
		l->shown = 1;
	cairo_save(cr);
	cairo_set_font_size(cr, l->font);
	l->label_w = fmin(widest(cr, r, l->shown, true), w * 0.4);
	double text_w = widest(cr, r, l->shown, false);
	cairo_restore(cr);
	l->bar_x = font * 1.5 + l->label_w + l->font;
	l->bar_w = fmax(w - l->bar_x - text_w - l->font * 1.5, w * 0.12);
}

static void draw_row(cairo_t *cr, const struct tl_plot_ink *ink, const struct noise_fig *r,
		     size_t i, double y, const struct layout *l, double w)
{
	const struct tl_noise_agree *a = &r->ag[i];
	double scale = l->bar_w / r->xmax, bh = l->row_h * 0.3;
	double wc = (double)a->removed_with_cause * scale, wu = (double)a->removed_without_cause * scale;
	double wk = (double)a->kept_with_cause * scale;
	char text[256], fit[256];

	cairo_set_font_size(cr, l->font);
	tl_plot_set(cr, ink->fg, 1);
	tl_plot_fit(cr, r->label[i], l->label_w, fit, sizeof fit);
	tl_plot_text(cr, fit, l->bar_x - l->font, y + l->row_h / 2, 1, 0.5);
	row_text(a, text, sizeof text);
	if (!a->skipped) {
		bar(cr, ink, 0, l->bar_x, y + l->row_h * 0.15, wc, bh);
		bar(cr, ink, 1, l->bar_x + wc, y + l->row_h * 0.15, wu, bh);
		bar(cr, ink, 2, l->bar_x, y + l->row_h * 0.55, wk, bh);
	}
	tl_plot_set(cr, a->skipped ? ink->muted : ink->fg, 1);
	tl_plot_fit(cr, text, w - (l->bar_x + fmax(wc + wu, wk) + l->font * 0.5) - l->font * 0.5, fit,
		    sizeof fit);
	tl_plot_text(cr, fit, l->bar_x + fmax(wc + wu, wk) + l->font * 0.5, y + l->row_h / 2, 0, 0.5);
}

static void legend(cairo_t *cr, const struct tl_plot_ink *ink, double x, double y, double font)
{
	for (size_t k = 0; k < 3; k++) {
		bar(cr, ink, k, x, y - font * 0.35, font * 0.8, font * 0.7);
		tl_plot_set(cr, ink->fg, 1);
		tl_plot_text(cr, part_names[k], x + font * 1.1, y, 0, 0.5);
		cairo_text_extents_t e;
		cairo_text_extents(cr, part_names[k], &e);
		x += font * 2.2 + e.x_advance;
	}
}

static int draw(cairo_t *cr, const struct tl_plot_ink *ink, void *ctx, double w, double h,
		double top)
{
	const struct noise_fig *r = ctx;
	double font = tl_plot_font(w, h);
	double y0 = top + font * 2.0, avail = h - y0 - font * 2.2;
	struct layout l;
	char caption[320];

	cairo_save(cr);
	cairo_set_font_size(cr, font * 0.85);
	legend(cr, ink, font * 1.5, top + font * 0.8, font * 0.85);
	plan(cr, r, font, w, avail, &l);
	for (size_t i = 0; i < l.shown; i++)
		draw_row(cr, ink, r, i, y0 + l.row_h * (double)i, &l, w);
	cairo_restore(cr);
	if (l.shown < r->n)
		snprintf(caption, sizeof caption,
			 "%zu of %zu cells shown (the first; a larger --size shows more). Bars in "
			 "samples, one scale; filter %s; causes recorded as each sample ran",
			 l.shown, r->n, r->method);
	else
		snprintf(caption, sizeof caption,
			 "all %zu cells; bars in samples (one scale for every cell); the filter is %s, "
			 "the causes were recorded while each sample ran",
			 r->n, r->method);
	tl_plot_caption(cr, ink, caption, w, h, font);
	return 0;
}

int tl_plot_noise(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		  const struct tl_plot_opts *o, const char *path, char *why, size_t whylen)
{
	struct noise_fig *r = tl_xcalloc(1, sizeof *r);
	uint64_t *seeds = tl_run_cell_seeds(run, seed);
	int rc = -1;

	r->ag = tl_xcalloc(run->ncells ? run->ncells : 1, sizeof *r->ag);
	r->label = tl_xcalloc(run->ncells ? run->ncells : 1, sizeof *r->label);

	r->method = stats_os_method_name(m);
	if (!run->noise_measured) {
		snprintf(why, whylen, "the run has no measured causes (no cells[].noise): a run "
				      "of this ticklab records them; --kind hist or cdf draw it");
		goto out;
	}
	for (size_t i = 0; i < run->ncells; i++) {
		const struct tl_cell *c = &run->cells[i];
		const struct tl_timer *t = &run->timers[c->timer];
		char size[32];

		if (c->hidden)
			continue;
		if (tl_cell_noise_agree_seeded(run, i, m, seeds[i], &r->ag[r->n]) < 0) {
			snprintf(why, whylen, "out of memory (the noise agreement of a cell)");
			goto out;
		}
		tl_run_flush_label(run, c->flush, size, sizeof size);
		snprintf(r->label[r->n], sizeof r->label[r->n], "%s, flush %s, %s", t->id, size,
			 c->kernel.label);
		const struct tl_noise_agree *a = &r->ag[r->n];
		r->xmax = fmax(r->xmax, (double)(a->removed > a->kept_with_cause ? a->removed
										 : a->kept_with_cause));
		r->n++;
	}
	if (!r->n) {
		snprintf(why, whylen, "no cell to draw");
		goto out;
	}
	if (!(r->xmax > 0))
		r->xmax = 1;
	rc = tl_plot_page(o, path, draw, r, why, whylen);
out:
	free(seeds);
	free(r->ag);
	free(r->label);
	free(r);
	return rc;
}
