/* A run's figures: histograms (a panel per cell) and the CDFs overlaid, of
 * the very samples the summary describes (tl_cell_analyse_kept). */
#include "config.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
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
	char label[TL_ID_MAX + 128];   /* the parts that differ between the cells shown */
	char part[3][TL_ID_MAX + 32];  /* backend, flush, kernel */
	double *v; /* kept samples, sorted */
	size_t n;
	struct tl_analysis an;
	double resolution;
	double lo, hi; /* the body the axis shows: p(1-clip)..p(clip), > 0 on a log axis */
	size_t nonpos; /* log axis: samples <= 0, drawn in the edge bin left of it */
};

struct run_fig {
	const struct tl_plot_opts *o;
	struct series *s;
	size_t n;
	double lo, hi;     /* every series' body */
	char common[256];  /* the parts every cell shares, said once under the title */
	size_t outside, total; /* samples the drawn axes leave out, of all */
	size_t nonpos;         /* log axis: samples <= 0 of all, in the edge bin */
};

static void series_free(struct run_fig *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->s[i].v);
	free(r->s);
}

/* The series' body: the quantiles the clip names (the whole range when it
 * is 1); on a log axis from the lowest value above 0. */
static void series_body(struct series *s, double clip, bool log_x)
{
	const double *v = s->v;
	size_t n = s->n, first = 0;

	s->lo = NAN;
	s->hi = NAN;
	if (log_x)
		while (first < n && !(v[first] > 0))
			first++;
	s->nonpos = first;
	if (first == n)
		return;
	s->lo = clip < 1 ? gsl_stats_quantile_from_sorted_data(v, 1, n, 1 - clip) : v[0];
	s->hi = clip < 1 ? gsl_stats_quantile_from_sorted_data(v, 1, n, clip) : v[n - 1];
	if (log_x) {
		s->lo = fmax(s->lo, v[first]);
		s->hi = fmax(s->hi, s->lo);
	}
}

/* Each label keeps only what tells the cells apart; the rest goes to r->common. */
static void series_labels(struct run_fig *r)
{
	bool same[3] = {true, true, true};
	size_t len = 0;

	for (size_t i = 1; i < r->n; i++)
		for (int k = 0; k < 3; k++)
			same[k] &= strcmp(r->s[i].part[k], r->s[0].part[k]) == 0;
	if (r->n == 1)
		same[0] = false; /* one cell: its label says everything */
	r->common[0] = 0;
	for (int k = 0; k < 3; k++)
		if (same[k] && r->n && len < sizeof r->common)
			len += (size_t)snprintf(r->common + len, sizeof r->common - len, "%s%s",
						len ? ", " : "all cells: ", r->s[0].part[k]);
	for (size_t i = 0; i < r->n; i++) {
		char label[sizeof r->s[i].label] = "";
		size_t l = 0;

		for (int k = 0; k < 3; k++)
			if (!same[k] && l < sizeof label)
				l += (size_t)snprintf(label + l, sizeof label - l, "%s%s",
						      l ? ", " : "", r->s[i].part[k]);
		memcpy(r->s[i].label, label, sizeof label);
	}
}

static int series_load(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		       struct run_fig *r)
{
	uint64_t *seeds = tl_run_cell_seeds(run, seed);
	int rc = 0;

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
		s->v = tl_xmalloc((done ? done : 1) * sizeof *s->v);
		if (tl_cell_analyse_kept_seeded(run, c, m, seeds[c], &s->an, s->v, done, &s->n) < 0) {
			rc = -1;
			break;
		}
		r->n++;
		gsl_sort(s->v, 1, s->n);
		tl_run_flush_label(run, cell->flush, fl, sizeof fl);
		snprintf(s->part[0], sizeof s->part[0], "%s", run->timers[cell->timer].id);
		snprintf(s->part[1], sizeof s->part[1], "flush %s", fl);
		snprintf(s->part[2], sizeof s->part[2], "%s", cell->kernel.label);
		s->resolution = cell->resolution_ns;
		series_body(s, r->o->clip, r->o->log_x);
		if (s->n && isfinite(s->lo)) {
			r->lo = fmin(r->lo, s->lo);
			r->hi = fmax(r->hi, s->hi);
		}
	}
	free(seeds);
	if (rc < 0)
		return -1;
	series_labels(r);
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

/* The 1, 2 or 5 x 10^k at or below v (up: at or above). */
static double step125(double v, bool up)
{
	static const double m[] = {1, 2, 5, 10};
	double d = pow(10, floor(log10(v)));

	if (up) {
		for (int i = 0; i < 4; i++)
			if (m[i] * d >= v * 0.9999)
				return m[i] * d;
	}
	for (int i = 2; i >= 0; i--)
		if (m[i] * d <= v * 1.0001)
			return m[i] * d;
	return d;
}

/* A log axis from the 1-2-5 step at or below lo to the one at or above hi. */
static void decades(double *lo, double *hi)
{
	*lo = step125(*lo, false);
	*hi = step125(*hi, true);
	if (!(*hi > *lo))
		*hi = *lo * 10;
}

/* Samples of s outside [lo, hi], but for those in the log axis' edge bin. */
static size_t outside(const struct series *s, double lo, double hi, bool log_x)
{
	size_t k = 0;

	for (size_t j = 0; j < s->n; j++)
		k += (s->v[j] < lo || s->v[j] > hi) && !(log_x && !(s->v[j] > 0));
	return k;
}

/* What the axes leave out, as the figure and the command say it. */
static void clip_text(const struct run_fig *r, const char *axes, char *buf, size_t len)
{
	double share = r->total ? 100.0 * (double)r->outside / (double)r->total : 0;
	char q[64];

	if (r->o->clip < 1)
		snprintf(q, sizeof q, "p%g..p%g", 100 * (1 - r->o->clip), 100 * r->o->clip);
	else
		snprintf(q, sizeof q, "min..max");
	char edge[96] = "";

	if (r->o->log_x && r->nonpos)
		snprintf(edge, sizeof edge, "; %zu (%.2g%%) <= 0 drawn in the \"<= 0\" bin at the left",
			 r->nonpos, 100.0 * (double)r->nonpos / (double)(r->total ? r->total : 1));
	snprintf(buf, len, "x axis %s %s%s: %zu of %zu samples (%.2g%%) outside%s", q, axes,
		 r->o->log_x ? ", log" : "", r->outside, r->total, share, edge);
}

static void say_note(const struct run_fig *r, const char *text)
{
	if (r->o->note)
		snprintf(r->o->note, r->o->notelen, "%s", text);
}

static bool fits(cairo_t *cr, const char *text, double maxw)
{
	cairo_text_extents_t te;

	cairo_text_extents(cr, text, &te);
	return te.x_advance <= maxw;
}

/* The common parts and the clip, muted, under the title. */
static void subtitle(cairo_t *cr, const struct tl_plot_ink *ink, const struct run_fig *r,
		     const char *clip, double w, double y, double font)
{
	char buf[512], fit[512];

	snprintf(buf, sizeof buf, "%s%s%s", r->common, r->common[0] ? "  |  " : "", clip);
	cairo_save(cr);
	/* smaller before cut: the clip statement is what the line is for */
	for (double f = 0.85; f >= 0.6; f -= 0.05) {
		cairo_set_font_size(cr, font * f);
		if (fits(cr, buf, w - font))
			break;
	}
	tl_plot_set(cr, ink->muted, 1);
	tl_plot_fit(cr, buf, w - font, fit, sizeof fit);
	tl_plot_text(cr, fit, w / 2, y, 0.5, 0);
	cairo_restore(cr);
}

/* ------------------------------------------------------------------ */
/* Histograms                                                           */
/* ------------------------------------------------------------------ */

#define TITLE_LINES 3
#define LINE_MAX 160

/* label broken after its ", " into at most max lines no wider than maxw;
 * the line count. A part wider than maxw alone is cut with "..." (a last
 * resort the panel layout avoids). */
static size_t wrap(cairo_t *cr, const char *label, double maxw, char lines[][LINE_MAX],
		   size_t max)
{
	char line[LINE_MAX] = "", try[2 * LINE_MAX];
	const char *p = label;
	size_t n = 0;

	while (*p) {
		const char *comma = strstr(p, ", ");
		int len = comma ? (int)(comma - p) : (int)strlen(p);

		snprintf(try, sizeof try, "%s%s%.*s%s", line, line[0] ? " " : "", len, p,
			 comma ? "," : "");
		if (line[0] && !fits(cr, try, maxw) && n < max - 1) {
			tl_plot_fit(cr, line, maxw, lines[n++], LINE_MAX);
			snprintf(try, sizeof try, "%.*s%s", len, p, comma ? "," : "");
		}
		snprintf(line, sizeof line, "%.*s", LINE_MAX - 1, try);
		p = comma ? comma + 2 : p + len;
	}
	tl_plot_fit(cr, line, maxw, lines[n++], LINE_MAX);
	return n;
}


/* The most lines any panel's title takes at width maxw. */
static size_t title_lines(cairo_t *cr, const struct run_fig *r, double maxw, double font)
{
	char lines[TITLE_LINES][LINE_MAX];
	size_t most = 1;

	cairo_save(cr);
	cairo_set_font_size(cr, font * 0.85);
	for (size_t i = 0; i < r->n; i++) {
		size_t k = wrap(cr, r->s[i].label, maxw, lines, TITLE_LINES);

		most = k > most ? k : most;
	}
	cairo_restore(cr);
	return most;
}

/* Counts of sorted v in nb bins equally wide in log10 over [lo, hi]. */
static void log_counts(const struct series *s, double lo, double hi, size_t nb, double *counts,
		       size_t *below, size_t *above)
{
	double a = log10(lo), span = log10(hi) - a;

	for (size_t j = 0; j < s->n; j++) {
		double v = s->v[j];

		if (!(v >= lo)) {
			*below += 1;
		} else if (v > hi) {
			*above += 1;
		} else {
			size_t b = (size_t)((log10(v) - a) / span * (double)nb);

			counts[b < nb ? b : nb - 1] += 1;
		}
	}
}

/* The panel's bars: h's bins on a linear axis, log bins on a log one. */
static int panel_bins(const struct run_fig *r, const struct series *s, double lo, double hi,
		      struct tl_histogram *h)
{
	double res = s->resolution > 0 && isfinite(s->resolution) ? s->resolution : 0;

	if (!r->o->log_x) {
		widen(&lo, &hi);
		if (!(res > 0))
			res = (hi - lo) / HIST_BINS;
		return stats_histogram(s->v, s->n, res, HIST_BINS, lo, hi, h);
	}
	decades(&lo, &hi);
	memset(h, 0, sizeof *h);
	/* no bin narrower than the timer's step where the axis starts, or a
	 * quantized sample leaves every other bin empty (a comb) */
	size_t nb = HIST_BINS;

	if (res > 0 && s->lo > 0) {
		double fit = log10(hi / lo) / log10(1 + res / s->lo);

		nb = fit < 1 ? 1 : fit < HIST_BINS ? (size_t)fit : HIST_BINS;
	}
	h->nbins = nb;
	h->lo = lo;
	h->width = hi; /* on a log axis: the top edge, bins equal in log10 */
	h->counts = tl_xcalloc(nb, sizeof *h->counts);
	h->total = s->n;
	log_counts(s, lo, hi, nb, h->counts, &h->below, &h->above);
	return 0;
}

static double bin_edge(const struct run_fig *r, const struct tl_histogram *h, size_t b)
{
	if (r->o->log_x)
		return h->lo * pow(h->width / h->lo, (double)b / (double)h->nbins);
	return h->lo + h->width * (double)b;
}

static void panel_title(cairo_t *cr, const struct tl_plot_ink *ink, const struct series *s,
			size_t i, const struct tl_plot_frame *f, double left, double font)
{
	char lines[TITLE_LINES][LINE_MAX];

	cairo_save(cr);
	cairo_set_font_size(cr, font * 0.85);
	tl_plot_set(cr, ink->fg, 1);
	size_t k = wrap(cr, s->label, f->x + f->w - left - font * 1.1, lines, TITLE_LINES);

	for (size_t j = 0; j < k; j++)
		tl_plot_text(cr, lines[j], left + font * 1.1,
			     f->y - font * 0.3 - font * 1.05 * (double)(k - 1 - j), 0, 1);
	tl_plot_marker(cr, ink, i, left + font * 0.4,
		       f->y - font * 0.75 - font * 1.05 * (double)(k - 1), font * 0.3);
	cairo_restore(cr);
}

/* The log axis' edge bin: a band left of the frame, cut off from it by a
 * gap and labelled "<= 0", that holds the samples a log axis cannot. */
static void edge_band(cairo_t *cr, const struct tl_plot_ink *ink, const struct tl_plot_frame *f,
		      double font, double *x0, double *x1)
{
	*x0 = f->x - font * 2.2;
	*x1 = f->x - font * 0.5;
	cairo_save(cr);
	tl_plot_set(cr, ink->grid, 1);
	cairo_rectangle(cr, *x0, f->y, *x1 - *x0, f->h);
	cairo_fill(cr);
	cairo_set_font_size(cr, font * 0.8);
	tl_plot_set(cr, ink->fg, 1);
	tl_plot_text(cr, "<= 0", (*x0 + *x1) / 2, f->y + f->h + font * 0.4, 0.5, 0);
	cairo_restore(cr);
}

static void edge_bar(cairo_t *cr, const struct tl_plot_ink *ink, size_t i,
		     const struct tl_plot_frame *f, double pct, double font)
{
	double x0, x1, y = tl_plot_py(f, pct);

	edge_band(cr, ink, f, font, &x0, &x1);
	cairo_save(cr);
	tl_plot_set(cr, ink->series[i % TUI_NSERIES], 0.6);
	cairo_rectangle(cr, x0 + font * 0.2, y, x1 - x0 - font * 0.4, f->y + f->h - y);
	cairo_fill_preserve(cr);
	tl_plot_series_line(cr, ink, i, 1.4);
	cairo_stroke(cr);
	cairo_restore(cr);
}

static void hist_panel(cairo_t *cr, const struct tl_plot_ink *ink, struct run_fig *r,
		       size_t i, struct tl_plot_frame *f, double left, double font)
{
	const struct series *s = &r->s[i];
	struct tl_histogram h;
	double lo = r->o->own_axis ? s->lo : r->lo;
	double hi = r->o->own_axis ? s->hi : r->hi;
	double top = 0;
	char note[64];

	panel_title(cr, ink, s, i, f, left, font);
	r->total += s->n;
	if (!s->n || !isfinite(lo)) {
		r->outside += s->n;
		f->xlo = 1, f->xhi = 10, f->ylo = 0, f->yhi = 1;
		f->xlog = r->o->log_x;
		tl_plot_axes(cr, ink, f, NULL, NULL, font * 0.8);
		tl_plot_text(cr, s->n ? "nothing above 0" : "no samples", f->x + f->w / 2,
			     f->y + f->h / 2, 0.5, 0.5);
		return;
	}
	if (panel_bins(r, s, lo, hi, &h) < 0)
		return;
	for (size_t b = 0; b < h.nbins; b++)
		top = fmax(top, h.counts[b] / (double)h.total * 100);
	if (r->o->log_x && s->nonpos) {
		top = fmax(top, (double)s->nonpos / (double)h.total * 100);
		f->x += font * 2.4; /* room for the edge bin, between the y labels and the frame */
		f->w -= font * 2.4;
		f->ygap = font * 2.4;
	}
	f->xlo = h.lo, f->xhi = bin_edge(r, &h, h.nbins), f->ylo = 0, f->yhi = top * 1.15;
	f->xlog = r->o->log_x;
	if (!f->xlog)
		widen(&f->xlo, &f->xhi);
	widen(&f->ylo, &f->yhi);
	f->ylo = 0;
	/* on a log axis the samples <= 0 are not lost: they stand in the edge bin */
	size_t nonpos = f->xlog ? s->nonpos : 0;
	r->nonpos += nonpos;
	r->outside += h.below - nonpos + h.above;
	/* the y label short where the long one would reach past the panel */
	tl_plot_axes(cr, ink, f, r->o->log_x ? "ns (log scale)" : "ns",
		     f->h >= font * 6 ? "% of samples" : "%", font * 0.8);
	cairo_save(cr);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_clip(cr);
	/* the bars filled first, then their outline as one path (a fill takes
	 * the current path with it, outline and all) */
	tl_plot_set(cr, ink->series[i % TUI_NSERIES], 0.35);
	for (size_t b = 0; b < h.nbins; b++) {
		double x0 = tl_plot_px(f, bin_edge(r, &h, b));
		double x1 = tl_plot_px(f, bin_edge(r, &h, b + 1));
		double y = tl_plot_py(f, h.counts[b] / (double)h.total * 100);

		cairo_rectangle(cr, x0, y, x1 - x0, f->y + f->h - y);
	}
	cairo_fill(cr);
	for (size_t b = 0; b < h.nbins; b++) {
		double x0 = tl_plot_px(f, bin_edge(r, &h, b));
		double x1 = tl_plot_px(f, bin_edge(r, &h, b + 1));
		double y = tl_plot_py(f, h.counts[b] / (double)h.total * 100);

		if (b == 0)
			cairo_move_to(cr, x0, f->y + f->h);
		cairo_line_to(cr, x0, y);
		cairo_line_to(cr, x1, y);
	}
	cairo_line_to(cr, tl_plot_px(f, bin_edge(r, &h, h.nbins)), f->y + f->h);
	tl_plot_series_line(cr, ink, i, 1.4);
	cairo_stroke(cr);
	if (!f->xlog || s->an.summary.p50 > 0)
		tl_plot_marker(cr, ink, i, tl_plot_px(f, s->an.summary.p50), f->y + font * 0.6,
			       font * 0.35);
	cairo_restore(cr);
	if (f->xlog && s->nonpos)
		edge_bar(cr, ink, i, f, (double)s->nonpos / (double)h.total * 100, font);
	/* what the TUI shows as "+N>" at the axis' ends */
	for (int side = 0; side < 2; side++) {
		size_t k = side ? h.above : (h.below - (f->xlog ? s->nonpos : 0));

		if (!k)
			continue;
		snprintf(note, sizeof note, side ? "+%zu ->" : "<- +%zu", k);
		cairo_save(cr);
		cairo_set_font_size(cr, font * 0.8);
		tl_plot_set(cr, ink->fg, 1);
		tl_plot_text(cr, note, side ? f->x + f->w - font * 0.3 : f->x + font * 0.3,
			     f->y + font * 1.4, side ? 1 : 0, 0);
		cairo_restore(cr);
	}
	stats_histogram_free(&h);
}

/* Columns for n panels near the page's shape (a panel 1.4 times as wide as
 * tall), one fewer where that leaves fewer empty places. */
static size_t grid_cols(size_t n, double w, double h)
{
	size_t c = (size_t)ceil(sqrt((double)n * w / h / 1.4));

	if (c < 1)
		c = 1;
	if (c > n)
		c = n ? n : 1;
	if (c > 1) {
		size_t empty = (n + c - 1) / c * c - n, fewer = (n + c - 2) / (c - 1) * (c - 1) - n;

		if (fewer < empty)
			c--;
	}
	return c;
}

static int draw_hist(cairo_t *cr, const struct tl_plot_ink *ink, void *ctx, double w, double h,
		     double top)
{
	struct run_fig *r = ctx;
	double font = tl_plot_font(w, h);
	size_t cols = grid_cols(r->n, w, h), rows = (r->n + cols - 1) / cols;
	char clip[256];

	if (!rows)
		rows = 1;
	top += font * 1.2; /* the subtitle */
	double cw = w / (double)cols, ch = (h - top - font * 1.6) / (double)rows;
	/* every title whole: as many lines as the longest needs, the same in every panel */
	double extra = font * 1.05 * (double)(title_lines(cr, r, cw - font * 1.6, font) - 1);

	for (size_t i = 0; i < r->n; i++) {
		double left = cw * (double)(i % cols);
		struct tl_plot_frame f = {
			.x = left + font * 4.2,
			.y = top + ch * (double)(i / cols) + font * 1.6 + extra,
			.w = cw - font * 5.2,
			.h = ch - font * 4.4 - extra,
		};
		hist_panel(cr, ink, r, i, &f, left + font * 0.5, font);
	}
	clip_text(r, r->o->own_axis ? "of each cell (own axes)"
				    : "of each cell (shared)", clip, sizeof clip);
	subtitle(cr, ink, r, clip, w, top - font * 1.2, font);
	say_note(r, clip);
	tl_plot_caption(cr, ink,
			"ns after filter_cost (can be < 0) and the OS filter; <- +N, +N ->: samples "
			"beyond the axis; marker at top: median",
			w, h, font);
	return 0;
}

/* ------------------------------------------------------------------ */
/* CDF overlay                                                          */
/* ------------------------------------------------------------------ */

/* The x at share t of the frame's width, on its scale. */
static double frame_x(const struct tl_plot_frame *f, double t)
{
	if (f->xlog)
		return f->xlo * pow(f->xhi / f->xlo, t);
	return f->xlo + (f->xhi - f->xlo) * t;
}

static void cdf_curve(cairo_t *cr, const struct tl_plot_ink *ink, const struct run_fig *r,
		      size_t i, const struct tl_plot_frame *f, double font)
{
	const struct series *s = &r->s[i];

	if (!s->n)
		return;
	for (int k = 0; k <= CDF_POINTS; k++) {
		double x = frame_x(f, (double)k / CDF_POINTS);
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
		double x = frame_x(f, t);

		tl_plot_marker(cr, ink, i, tl_plot_px(f, x), tl_plot_py(f, stats_ecdf(s->v, s->n, x)),
			       font * 0.33);
	}
}

/* The CDFs in the log axis' edge bin: each rises there to its share of
 * samples <= 0, where its curve on the axis takes over. */
static void cdf_edge(cairo_t *cr, const struct tl_plot_ink *ink, const struct run_fig *r,
		     const struct tl_plot_frame *f, double font)
{
	double x0, x1;

	edge_band(cr, ink, f, font, &x0, &x1);
	for (size_t i = 0; i < r->n; i++) {
		const struct series *s = &r->s[i];

		if (!s->n)
			continue;
		double share = (double)s->nonpos / (double)s->n, y = tl_plot_py(f, share);
		double xm = (x0 + x1) / 2;

		cairo_move_to(cr, x0, tl_plot_py(f, 0));
		cairo_line_to(cr, xm, tl_plot_py(f, 0));
		cairo_line_to(cr, xm, y);
		cairo_line_to(cr, f->x, tl_plot_py(f, stats_ecdf(s->v, s->n, f->xlo)));
		tl_plot_series_line(cr, ink, i, 1.8);
		cairo_stroke(cr);
		if (s->nonpos)
			tl_plot_marker(cr, ink, i, xm, y, font * 0.33);
	}
}

/* The legend's width at font lf: beside the frame when the curves are many. */
static double legend_width(cairo_t *cr, const struct run_fig *r, double lf)
{
	cairo_text_extents_t te;
	double wmax = 0;

	cairo_save(cr);
	cairo_set_font_size(cr, lf);
	for (size_t i = 0; i < r->n; i++) {
		cairo_text_extents(cr, r->s[i].label, &te);
		wmax = fmax(wmax, te.x_advance);
	}
	cairo_restore(cr);
	return wmax + lf * 4.5;
}

#define CDF_LEGEND_INSIDE 4

static int draw_cdf(cairo_t *cr, const struct tl_plot_ink *ink, void *ctx, double w, double h,
		    double top)
{
	struct run_fig *r = ctx;
	double font = tl_plot_font(w, h), lf = font * 0.85;
	bool beside = r->n > CDF_LEGEND_INSIDE;
	double lw = beside ? fmin(legend_width(cr, r, lf), w * 0.45) : 0;
	struct tl_plot_frame f = {.x = font * 5, .y = top + font * 1.7, .w = w - font * 6.5 - lw,
				  .h = h - top - font * 6.6, .xlo = r->lo, .xhi = r->hi,
				  .ylo = 0, .yhi = 1, .xlog = r->o->log_x};
	const char **labels = tl_xcalloc(r->n, sizeof *labels);
	size_t *idx = tl_xcalloc(r->n, sizeof *idx);
	char clip[256];

	if (!isfinite(f.xlo))
		f.xlo = 1, f.xhi = 10;
	if (f.xlog)
		decades(&f.xlo, &f.xhi);
	else
		widen(&f.xlo, &f.xhi);
	for (size_t i = 0; i < r->n; i++) {
		r->total += r->s[i].n;
		r->outside += outside(&r->s[i], f.xlo, f.xhi, f.xlog);
		r->nonpos += f.xlog ? r->s[i].nonpos : 0;
	}
	if (r->nonpos) { /* room for the edge bin, between the y labels and the frame */
		f.x += font * 2.4;
		f.w -= font * 2.4;
		f.ygap = font * 2.4;
	}
	tl_plot_axes(cr, ink, &f, f.xlog ? "ns (log scale)" : "ns", "share of samples <= x", font);
	cairo_save(cr);
	cairo_rectangle(cr, f.x, f.y, f.w, f.h);
	cairo_clip(cr);
	for (size_t i = 0; i < r->n; i++) {
		cdf_curve(cr, ink, r, i, &f, font);
		labels[i] = r->s[i].label;
		idx[i] = i;
	}
	cairo_restore(cr);
	if (r->nonpos)
		cdf_edge(cr, ink, r, &f, font);
	if (beside) {
		/* a frame right of the plot: the legend's top-left corner sits in it */
		struct tl_plot_frame lfr = {.x = f.x + f.w + font * 0.2, .y = f.y - lf * 0.5,
					    .w = lw, .h = f.h};

		tl_plot_legend(cr, ink, &lfr, labels, idx, r->n, TL_PLOT_TOP_LEFT, lf);
	} else {
		tl_plot_legend(cr, ink, &f, labels, idx, r->n, TL_PLOT_BOTTOM_RIGHT, lf);
	}
	clip_text(r, "of each cell (shared)", clip, sizeof clip);
	subtitle(cr, ink, r, clip, w, top - font * 0.2, font);
	say_note(r, clip);
	tl_plot_caption(cr, ink, "ns after filter_cost (can be < 0) and the OS filter", w, h, font);
	free(labels);
	free(idx);
	return 0;
}

int tl_plot_run(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
		const struct tl_plot_opts *o, const char *path, char *why, size_t whylen)
{
	struct tl_plot_opts own = *o;
	struct run_fig r = {.o = &own};
	int rc;

	if (!(own.clip >= 0.5 && own.clip <= 1))
		own.clip = TL_PLOT_DEFAULT_CLIP;

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
	rc = tl_plot_page(&own, path, o->kind == TL_PLOT_HIST ? draw_hist : draw_cdf, &r, why, whylen);
	series_free(&r);
	return rc;
}
