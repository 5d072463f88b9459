/* What io/plot.c gives the figure files (io/plot_run.c, io/plot_search.c):
 * colours from the theme, the series styles, axes with ticks, a legend. */
#ifndef TL_IO_PLOT_DRAW_H
#define TL_IO_PLOT_DRAW_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>

#include "io/plot.h"

#define TL_PLOT_NSTYLES 8

/* The figure's colours, resolved from the theme (a role the theme leaves to
 * the terminal gets black or white against the background). */
struct tl_plot_ink {
	double bg[3], fg[3], title[3], grid[3], muted[3];
	double series[TUI_NSERIES][3];
};

/* One panel's data space mapped onto a rectangle of the page. */
struct tl_plot_frame {
	double x, y, w, h;       /* the plotting area, in page units */
	double xlo, xhi, ylo, yhi;
	bool xlog;
	double ygap;             /* room between the y labels and the frame (an edge bin) */
};

void tl_plot_ink_from(const struct tui_theme *t, struct tl_plot_ink *ink);
void tl_plot_set(cairo_t *cr, const double rgb[3], double alpha);

double tl_plot_px(const struct tl_plot_frame *f, double v);
double tl_plot_py(const struct tl_plot_frame *f, double v);

/* Series i's line: colour, width, dash pattern (solid, dashed, dotted, ...). */
void tl_plot_series_line(cairo_t *cr, const struct tl_plot_ink *ink, size_t i, double width);
/* Series i's marker glyph (circle, square, triangle, diamond, x, +, ...) at
 * (x, y), size r; open markers are outlined in the background colour. */
void tl_plot_marker(cairo_t *cr, const struct tl_plot_ink *ink, size_t i, double x, double y,
		    double r);

/* s cut to fit maxw in the current font, "..." marking the cut. */
void tl_plot_fit(cairo_t *cr, const char *s, double maxw, char *out, size_t len);
/* Text with its anchor: ax 0 left, 0.5 centre, 1 right; ay likewise top..bottom. */
void tl_plot_text(cairo_t *cr, const char *s, double x, double y, double ax, double ay);
/* The line under a w x h figure that says how to read it, muted. */
void tl_plot_caption(cairo_t *cr, const struct tl_plot_ink *ink, const char *text, double w,
		     double h, double font);

/* Axes box, grid, ticks and labels; xlabel/ylabel may be NULL. */
void tl_plot_axes(cairo_t *cr, const struct tl_plot_ink *ink, const struct tl_plot_frame *f,
		  const char *xlabel, const char *ylabel, double font);

enum tl_plot_corner { TL_PLOT_TOP_LEFT, TL_PLOT_TOP_RIGHT, TL_PLOT_BOTTOM_RIGHT };
/* A legend box in a corner of the frame: each entry's line sample and
 * marker in its series style. */
void tl_plot_legend(cairo_t *cr, const struct tl_plot_ink *ink, const struct tl_plot_frame *f,
		    const char *const *labels, const size_t *series, size_t n,
		    enum tl_plot_corner corner, double font);

/* Draws the page: the background, the title line, then draw(cr, ctx, w, h, top)
 * under it (top: where the title ends). Writes the format to path atomically. */
int tl_plot_page(const struct tl_plot_opts *o, const char *path,
		 int (*draw)(cairo_t *cr, const struct tl_plot_ink *ink, void *ctx, double w,
			     double h, double top),
		 void *ctx, char *why, size_t whylen);

#endif
