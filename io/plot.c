/* The page and the drawing helpers every figure shares. */
#include "config.h"

#include "io/plot_draw.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "io/results.h"
#include "io/term_safe.h"

double tl_plot_font(double w, double h)
{
	double scale = fmin(w / TL_PLOT_DEFAULT_W, h / TL_PLOT_DEFAULT_H);

	/* Past the default page the text grows faster than the page, for the
	 * back of a room: 28.8 px at 1920x1080 (the title 15 % more). */
	if (scale > 1)
		return fmin(h / 36, 16 * scale);
	return fmin(h / 40, 14 * scale);
}

bool tl_plot_available(void)
{
	return true;
}

int tl_plot_format_of(const char *path, enum tl_plot_format *f, char *why, size_t whylen)
{
	static const struct {
		const char *ext;
		enum tl_plot_format f;
	} exts[] = {{".svg", TL_PLOT_SVG}, {".png", TL_PLOT_PNG}, {".pdf", TL_PLOT_PDF}};
	const char *dot = strrchr(path, '.');

	for (size_t i = 0; dot && i < sizeof exts / sizeof exts[0]; i++)
		if (strcasecmp(dot, exts[i].ext) == 0) {
			*f = exts[i].f;
			return 0;
		}
	snprintf(why, whylen, "-o '%s': the name must end in .svg, .png or .pdf (the format is "
			      "taken from it)", path);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Colours and series styles                                            */
/* ------------------------------------------------------------------ */

static void rgb_of(int v, double out[3])
{
	out[0] = ((v >> 16) & 0xff) / 255.0;
	out[1] = ((v >> 8) & 0xff) / 255.0;
	out[2] = (v & 0xff) / 255.0;
}

static double luma(const double c[3])
{
	return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

/* A role the theme leaves to the terminal ("") has no colour on paper: it
 * gets the fallback, which reads against the background. */
static void role_or(const struct tui_theme *t, enum tui_role r, const double fallback[3],
		    double out[3])
{
	if (t->rgb[r] >= 0)
		rgb_of(t->rgb[r], out);
	else
		memcpy(out, fallback, 3 * sizeof *out);
}

void tl_plot_ink_from(const struct tui_theme *t, struct tl_plot_ink *ink)
{
	static const double white[3] = {1, 1, 1}, black[3] = {0, 0, 0};
	double fg_guess[3];

	/* A dark theme with the terminal's background ("default") keeps its light
	 * text, so the page goes dark too. */
	role_or(t, TUI_ROLE_MAIN_FG, black, fg_guess);
	role_or(t, TUI_ROLE_MAIN_BG, luma(fg_guess) > 0.5 ? black : white, ink->bg);
	role_or(t, TUI_ROLE_MAIN_FG, luma(ink->bg) > 0.5 ? black : white, ink->fg);
	role_or(t, TUI_ROLE_TITLE, ink->fg, ink->title);
	for (int i = 0; i < 3; i++) {
		ink->grid[i] = 0.85 * ink->bg[i] + 0.15 * ink->fg[i];
		ink->muted[i] = 0.4 * ink->bg[i] + 0.6 * ink->fg[i];
	}
	for (int s = 0; s < TUI_NSERIES; s++)
		role_or(t, (enum tui_role)(TUI_ROLE_SERIES + s), ink->fg, ink->series[s]);
}

void tl_plot_set(cairo_t *cr, const double rgb[3], double alpha)
{
	cairo_set_source_rgba(cr, rgb[0], rgb[1], rgb[2], alpha);
}

double tl_plot_px(const struct tl_plot_frame *f, double v)
{
	double lo = f->xlo, hi = f->xhi;

	if (f->xlog) {
		v = log10(v);
		lo = log10(lo);
		hi = log10(hi);
	}
	return f->x + (v - lo) / (hi - lo) * f->w;
}

double tl_plot_py(const struct tl_plot_frame *f, double v)
{
	return f->y + f->h - (v - f->ylo) / (f->yhi - f->ylo) * f->h;
}

/* Past the eighth series the colours come round again, each with the next
 * style, so series i and i + 8 still differ. */
static size_t style_of(size_t i)
{
	return (i + i / TUI_NSERIES) % TL_PLOT_NSTYLES;
}

void tl_plot_series_line(cairo_t *cr, const struct tl_plot_ink *ink, size_t i, double width)
{
	/* in line widths: solid, dashed, dotted, dash-dot, long dash, dash-dot-dot,
	 * short dash, long-short */
	static const double dashes[TL_PLOT_NSTYLES][6] = {
		{0}, {6, 3}, {1, 2.5}, {6, 2, 1, 2}, {12, 4}, {6, 2, 1, 2, 1, 2}, {3, 3}, {12, 3, 3, 3},
	};
	static const int ndash[TL_PLOT_NSTYLES] = {0, 2, 2, 4, 2, 6, 2, 4};
	double d[6];
	size_t s = style_of(i);

	for (int k = 0; k < ndash[s]; k++)
		d[k] = dashes[s][k] * width;
	tl_plot_set(cr, ink->series[i % TUI_NSERIES], 1);
	cairo_set_line_width(cr, width);
	cairo_set_line_cap(cr, s == 2 ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_BUTT);
	cairo_set_dash(cr, d, ndash[s], 0);
}

static void polygon(cairo_t *cr, double x, double y, double r, int sides, double turn)
{
	for (int k = 0; k < sides; k++) {
		double a = turn + 2 * M_PI * k / sides;

		if (k == 0)
			cairo_move_to(cr, x + r * cos(a), y + r * sin(a));
		else
			cairo_line_to(cr, x + r * cos(a), y + r * sin(a));
	}
	cairo_close_path(cr);
}

void tl_plot_marker(cairo_t *cr, const struct tl_plot_ink *ink, size_t i, double x, double y,
		    double r)
{
	size_t s = style_of(i);
	bool stroke_only = s == 4 || s == 5;

	cairo_save(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	cairo_new_path(cr);
	switch (s) {
	case 0: cairo_arc(cr, x, y, r, 0, 2 * M_PI); break;
	case 1: cairo_rectangle(cr, x - r * 0.85, y - r * 0.85, 1.7 * r, 1.7 * r); break;
	case 2: polygon(cr, x, y + r * 0.2, r * 1.15, 3, -M_PI / 2); break;
	case 3: polygon(cr, x, y, r * 1.2, 4, 0); break;
	case 4:
		cairo_move_to(cr, x - r, y - r);
		cairo_line_to(cr, x + r, y + r);
		cairo_move_to(cr, x - r, y + r);
		cairo_line_to(cr, x + r, y - r);
		break;
	case 5:
		cairo_move_to(cr, x - r * 1.2, y);
		cairo_line_to(cr, x + r * 1.2, y);
		cairo_move_to(cr, x, y - r * 1.2);
		cairo_line_to(cr, x, y + r * 1.2);
		break;
	case 6: polygon(cr, x, y - r * 0.2, r * 1.15, 3, M_PI / 2); break;
	default: polygon(cr, x, y, r * 1.1, 5, -M_PI / 2); break;
	}
	tl_plot_set(cr, ink->series[i % TUI_NSERIES], 1);
	cairo_set_line_width(cr, stroke_only ? r * 0.55 : r * 0.3);
	if (stroke_only) {
		cairo_stroke(cr);
	} else {
		/* filled in the colour, outlined in the text colour: the shape
		 * stays visible where the colour is close to the background */
		cairo_fill_preserve(cr);
		tl_plot_set(cr, ink->fg, 0.9);
		cairo_stroke(cr);
	}
	cairo_restore(cr);
}

void tl_plot_fit(cairo_t *cr, const char *s, double maxw, char *out, size_t len)
{
	cairo_text_extents_t te;
	char safe[512];
	size_t n;

	s = tl_draw_safe(s, safe, sizeof safe);
	n = strlen(s);
	snprintf(out, len, "%s", s);
	cairo_text_extents(cr, out, &te);
	while (te.x_advance > maxw && n > 1) {
		/* cut at a whole character: half of one is not UTF-8 */
		do
			n--;
		while (n > 1 && ((unsigned char)s[n] & 0xC0) == 0x80);
		snprintf(out, len, "%.*s...", (int)n, s);
		cairo_text_extents(cr, out, &te);
	}
}

void tl_plot_text(cairo_t *cr, const char *s, double x, double y, double ax, double ay)
{
	cairo_text_extents_t te;
	cairo_font_extents_t fe;
	char safe[512];

	/* labels come from files (backend ids, kernels, a title): cairo takes
	 * valid UTF-8 only, and draws a control character as a box */
	s = tl_draw_safe(s, safe, sizeof safe);
	cairo_text_extents(cr, s, &te);
	cairo_font_extents(cr, &fe);
	cairo_move_to(cr, x - ax * te.x_advance, y - ay * (fe.ascent + fe.descent) + fe.ascent);
	cairo_show_text(cr, s);
}

void tl_plot_caption(cairo_t *cr, const struct tl_plot_ink *ink, const char *text, double w,
		     double h, double font)
{
	cairo_save(cr);
	cairo_set_font_size(cr, font * 0.85);
	tl_plot_set(cr, ink->muted, 1);
	tl_plot_text(cr, text, w / 2, h - font * 0.4, 0.5, 1);
	cairo_restore(cr);
}

/* ------------------------------------------------------------------ */
/* Axes                                                                 */
/* ------------------------------------------------------------------ */

/* 1, 2 or 5 times a power of ten, near range / want. */
static double nice_step(double range, int want)
{
	double raw = range / want, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void tick_label(double v, double step, char *buf, size_t len)
{
	int dec = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);

	if (fabs(v) < step * 1e-6)
		v = 0;
	if (fabs(v) >= 1e6 || (v != 0 && fabs(v) < 1e-3))
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.*f", dec, v);
}

/* 1, 10, 100, 1k, 10k, ... : short enough that neighbours never touch */
static void decade_label(double v, char *buf, size_t len)
{
	static const char *const suffix[] = {"", "k", "M", "G", "T"};
	int e = (int)lround(log10(v)), k = e >= 0 ? e / 3 : 0;

	if (e < 0 || k > 4)
		snprintf(buf, len, "1e%d", e);
	else
		snprintf(buf, len, "%.0f%s", pow(10, e - 3 * k), suffix[k]);
}

/* m x d (m 2 or 5, d a power of ten) in decade_label's style: 20, 500, 2k */
static void step_label(double d, int m, char *buf, size_t len)
{
	static const char *const suffix[] = {"", "k", "M", "G", "T"};
	int e = (int)lround(log10(d)), k = e >= 0 ? e / 3 : 0;

	if (e < 0 || k > 4)
		snprintf(buf, len, "%de%d", m, e);
	else
		snprintf(buf, len, "%.0f%s", m * pow(10, e - 3 * k), suffix[k]);
}

static void xtick(cairo_t *cr, const struct tl_plot_ink *ink, const struct tl_plot_frame *f,
		  double v, const char *label, double font)
{
	double x = tl_plot_px(f, v);

	tl_plot_set(cr, ink->grid, 1);
	cairo_move_to(cr, x, f->y);
	cairo_line_to(cr, x, f->y + f->h);
	cairo_stroke(cr);
	tl_plot_set(cr, ink->fg, 1);
	tl_plot_text(cr, label, x, f->y + f->h + font * 0.4, 0.5, 0);
}

static void xticks(cairo_t *cr, const struct tl_plot_ink *ink, const struct tl_plot_frame *f,
		   double font)
{
	char buf[32];

	if (f->xlog) {
		/* under two decades the 2s and 5s too, so a body of 40..300 ns has ticks */
		bool sub = f->xhi / f->xlo < 100;

		for (double d = pow(10, floor(log10(f->xlo))); d <= f->xhi * 1.0001; d *= 10)
			for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {
				double v = d * m;

				if ((m > 1 && !sub) || v < f->xlo * 0.9999 || v > f->xhi * 1.0001)
					continue;
				decade_label(d, buf, sizeof buf);
				if (m > 1)
					step_label(d, m, buf, sizeof buf);
				xtick(cr, ink, f, v, buf, font);
			}
		return;
	}
	int want = f->w / (font * 6) > 2 ? (int)(f->w / (font * 6)) : 2;
	double step = nice_step(f->xhi - f->xlo, want);

	for (double v = ceil(f->xlo / step) * step; v <= f->xhi + step * 1e-9; v += step) {
		tick_label(v, step, buf, sizeof buf);
		xtick(cr, ink, f, v, buf, font);
	}
}

static void yticks(cairo_t *cr, const struct tl_plot_ink *ink, const struct tl_plot_frame *f,
		   double font)
{
	char buf[32];
	int want = f->h / (font * 3) > 2 ? (int)(f->h / (font * 3)) : 2;
	double step = nice_step(f->yhi - f->ylo, want);

	for (double v = ceil(f->ylo / step) * step; v <= f->yhi + step * 1e-9; v += step) {
		double y = tl_plot_py(f, v);

		tl_plot_set(cr, ink->grid, 1);
		cairo_move_to(cr, f->x, y);
		cairo_line_to(cr, f->x + f->w, y);
		cairo_stroke(cr);
		tick_label(v, step, buf, sizeof buf);
		tl_plot_set(cr, ink->fg, 1);
		tl_plot_text(cr, buf, f->x - f->ygap - font * 0.4, y, 1, 0.5);
	}
}

void tl_plot_axes(cairo_t *cr, const struct tl_plot_ink *ink, const struct tl_plot_frame *f,
		  const char *xlabel, const char *ylabel, double font)
{
	cairo_save(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	cairo_set_line_width(cr, 0.6);
	cairo_set_font_size(cr, font);
	xticks(cr, ink, f, font);
	if (f->yhi > f->ylo)
		yticks(cr, ink, f, font);
	tl_plot_set(cr, ink->fg, 1);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, f->x, f->y, f->w, f->h);
	cairo_stroke(cr);
	if (xlabel)
		tl_plot_text(cr, xlabel, f->x + f->w / 2, f->y + f->h + font * 1.7, 0.5, 0);
	if (ylabel) {
		cairo_save(cr);
		cairo_translate(cr, f->x - f->ygap - font * 3.4, f->y + f->h / 2);
		cairo_rotate(cr, -M_PI / 2);
		tl_plot_text(cr, ylabel, 0, 0, 0.5, 1);
		cairo_restore(cr);
	}
	cairo_restore(cr);
}

void tl_plot_legend(cairo_t *cr, const struct tl_plot_ink *ink, const struct tl_plot_frame *f,
		    const char *const *labels, const size_t *series, size_t n,
		    enum tl_plot_corner corner, double font)
{
	cairo_text_extents_t te;
	double wmax = 0, row = font * 1.5, sample = font * 3;

	cairo_save(cr);
	cairo_set_font_size(cr, font);
	for (size_t i = 0; i < n; i++) {
		char safe[512];

		cairo_text_extents(cr, tl_draw_safe(labels[i], safe, sizeof safe), &te);
		if (te.x_advance > wmax)
			wmax = te.x_advance;
	}
	double bw = wmax + sample + font * 1.5, bh = row * (double)n + font * 0.5;
	double bx = corner == TL_PLOT_TOP_LEFT ? f->x + font * 0.5 : f->x + f->w - bw - font * 0.5;
	double by = corner == TL_PLOT_BOTTOM_RIGHT ? f->y + f->h - bh - font * 0.5 : f->y + font * 0.5;

	tl_plot_set(cr, ink->bg, 0.9);
	cairo_rectangle(cr, bx, by, bw, bh);
	cairo_fill_preserve(cr);
	tl_plot_set(cr, ink->muted, 1);
	cairo_set_line_width(cr, 0.6);
	cairo_stroke(cr);
	for (size_t i = 0; i < n; i++) {
		double y = by + font * 0.25 + row * ((double)i + 0.5), x = bx + font * 0.5;

		tl_plot_series_line(cr, ink, series[i], 1.6);
		cairo_move_to(cr, x, y);
		cairo_line_to(cr, x + sample, y);
		cairo_stroke(cr);
		tl_plot_marker(cr, ink, series[i], x + sample / 2, y, font * 0.3);
		tl_plot_set(cr, ink->fg, 1);
		tl_plot_text(cr, labels[i], x + sample + font * 0.5, y, 0, 0.5);
	}
	cairo_restore(cr);
}

/* ------------------------------------------------------------------ */
/* The page                                                             */
/* ------------------------------------------------------------------ */

struct page {
	const struct tl_plot_opts *o;
	enum tl_plot_format format;
	int (*draw)(cairo_t *, const struct tl_plot_ink *, void *, double, double, double);
	void *ctx;
	int draw_rc;
};

static cairo_status_t to_file(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static void paint(cairo_surface_t *s, struct page *pg)
{
	struct tl_plot_ink ink;
	cairo_t *cr = cairo_create(s);
	double w = pg->o->width, h = pg->o->height, font = tl_plot_font(w, h);

	tl_plot_ink_from(&pg->o->theme, &ink);
	tl_plot_set(cr, ink.bg, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	cairo_set_font_size(cr, font * 1.15);
	tl_plot_set(cr, ink.title, 1);
	tl_plot_text(cr, pg->o->title ? pg->o->title : "", w / 2, font * 0.6, 0.5, 0);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(cr, font);
	pg->draw_rc = pg->draw(cr, &ink, pg->ctx, w, h, font * 2.4);
	cairo_destroy(cr);
}

static int emit(FILE *f, void *ctx)
{
	struct page *pg = ctx;
	cairo_surface_t *s;
	cairo_status_t st = CAIRO_STATUS_SUCCESS;

	switch (pg->format) {
	case TL_PLOT_SVG:
		s = cairo_svg_surface_create_for_stream(to_file, f, pg->o->width, pg->o->height);
		break;
	case TL_PLOT_PDF:
		s = cairo_pdf_surface_create_for_stream(to_file, f, pg->o->width, pg->o->height);
		break;
	default:
		s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pg->o->width, pg->o->height);
		break;
	}
	paint(s, pg);
	/* an image is written out before finish, which would end its use */
	if (pg->format == TL_PLOT_PNG && cairo_surface_status(s) == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_write_to_png_stream(s, to_file, f);
	cairo_surface_finish(s);
	if (pg->format != TL_PLOT_PNG || cairo_surface_status(s) != CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(s);
	cairo_surface_destroy(s);
	return st == CAIRO_STATUS_SUCCESS && pg->draw_rc == 0 && !ferror(f) ? 0 : -1;
}

int tl_plot_page(const struct tl_plot_opts *o, const char *path,
		 int (*draw)(cairo_t *cr, const struct tl_plot_ink *ink, void *ctx, double w,
			     double h, double top),
		 void *ctx, char *why, size_t whylen)
{
	struct page pg = {.o = o, .draw = draw, .ctx = ctx};
	struct tl_out *out;

	if (tl_plot_format_of(path, &pg.format, why, whylen) < 0)
		return -1;
	out = tl_out_open(path, why, whylen);
	if (!out)
		return -1;
	return tl_out_commit(out, emit, &pg, why, whylen);
}
