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

#define MAX_ROWS 16

struct noise_fig {
	struct tl_noise_agree ag[MAX_ROWS];
	char label[MAX_ROWS][TL_ID_MAX + 128];
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

/* One cell: its label over a removed bar (caused then uncaused) and, under
 * it, the kept-with-a-cause bar; the counts at the bars' ends. */
static void draw_row(cairo_t *cr, const struct tl_plot_ink *ink, const struct noise_fig *r,
		     size_t i, const struct tl_plot_frame *f, double row_h, double font)
{
	const struct tl_noise_agree *a = &r->ag[i];
	double y = f->y + row_h * (double)i, bh = fmin(row_h * 0.28, font * 1.3);
	double scale = f->w / r->xmax;
	double wc = (double)a->removed_with_cause * scale, wu = (double)a->removed_without_cause * scale;
	double wk = (double)a->kept_with_cause * scale;
	char text[160];

	tl_plot_set(cr, ink->fg, 1);
	tl_plot_text(cr, r->label[i], f->x, y + font * 0.2, 0, 0);
	if (a->skipped) {
		snprintf(text, sizeof text, "not computed: over %zu samples", TL_NOISE_AGREE_MAX);
		tl_plot_set(cr, ink->muted, 1);
		tl_plot_text(cr, text, f->x, y + row_h * 0.5, 0, 0.5);
		return;
	}
	double y1 = y + font * 1.4, y2 = y1 + bh + font * 0.2;

	bar(cr, ink, 0, f->x, y1, wc, bh);
	bar(cr, ink, 1, f->x + wc, y1, wu, bh);
	bar(cr, ink, 2, f->x, y2, wk, bh);
	if (a->removed)
		snprintf(text, sizeof text, "removed %zu: %zu with a cause (%.0f %%), %zu without",
			 a->removed, a->removed_with_cause,
			 100.0 * (double)a->removed_with_cause / (double)a->removed,
			 a->removed_without_cause);
	else
		snprintf(text, sizeof text, "removed none");
	tl_plot_set(cr, ink->fg, 1);
	tl_plot_text(cr, text, f->x + wc + wu + font * 0.4, y1 + bh / 2, 0, 0.5);
	snprintf(text, sizeof text, "kept %zu with a cause", a->kept_with_cause);
	tl_plot_text(cr, text, f->x + wk + font * 0.4, y2 + bh / 2, 0, 0.5);
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
	struct tl_plot_frame f = { .x = font * 1.5, .y = top + font * 2.2, .w = w * 0.55,
				   .h = h - top - font * 4.6 };
	double row_h = fmin(f.h / (double)r->n, font * 5);
	char caption[200];

	cairo_save(cr);
	cairo_set_font_size(cr, font * 0.9);
	legend(cr, ink, f.x, top + font * 0.9, font * 0.9);
	for (size_t i = 0; i < r->n; i++)
		draw_row(cr, ink, r, i, &f, row_h, font * 0.9);
	cairo_restore(cr);
	snprintf(caption, sizeof caption,
		 "bars in samples (one scale for every cell); the filter is %s, the causes were "
		 "recorded while each sample ran",
		 r->method);
	tl_plot_caption(cr, ink, caption, w, h, font);
	return 0;
}

int tl_plot_noise(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		  const struct tl_plot_opts *o, const char *path, char *why, size_t whylen)
{
	struct noise_fig *r = tl_xcalloc(1, sizeof *r);
	int rc = -1;

	r->method = stats_os_method_name(m);
	if (!run->noise_measured) {
		snprintf(why, whylen, "the run has no measured causes (no cells[].noise): a run "
				      "of this ticklab records them; --kind hist or cdf draw it");
		goto out;
	}
	for (size_t i = 0; i < run->ncells && r->n < MAX_ROWS; i++) {
		const struct tl_cell *c = &run->cells[i];
		const struct tl_timer *t = &run->timers[c->timer];
		char size[32];

		if (c->hidden)
			continue;
		if (tl_cell_noise_agree(run, i, m, seed, &r->ag[r->n]) < 0) {
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
	free(r);
	return rc;
}
