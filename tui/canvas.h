/* Plots draw into an in-memory canvas, then the screen code blits it.
 * Glyph tiers: braille and eighth blocks in UTF-8, plain characters in
 * ASCII. Pure: no curses, testable as strings. */
#ifndef TL_TUI_CANVAS_H
#define TL_TUI_CANVAS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tui_tier {
	TUI_TIER_UTF8,  /* braille dots, eighth blocks, box lines */
	TUI_TIER_ASCII, /* one glyph per cell */
};

/* UTF-8 when the locale's codeset is UTF-8 and the terminal is not the
 * Linux console (its font lacks braille); ASCII otherwise. */
enum tui_tier tui_tier_choose(const char *codeset, const char *term);

struct tui_canvas {
	int w, h;           /* in cells; sub-cell resolution is 2w x 4h */
	uint8_t *dots;      /* braille bits per cell */
	int8_t *owner;      /* last series that drew in the cell, -1 none */
	int8_t *marker;     /* series whose marker sits in the cell, -1 none */
};

/* Series s drawn as a ghost (a baseline): TUI_GHOST_SERIES + s, dim. */
#define TUI_GHOST_SERIES 16

int tui_canvas_init(struct tui_canvas *c, int w, int h);
void tui_canvas_free(struct tui_canvas *c);
/* tui_canvas_init for a plot whose x axis runs over [lo, *hi]: -1, nothing
 * to draw, when lo is not finite (no point yet) or memory is short; an
 * empty range is widened to one unit so points can be placed. */
int tui_canvas_init_range(struct tui_canvas *c, int w, int h, double lo, double *hi);
void tui_canvas_clear(struct tui_canvas *c);
/* One dot at sub-cell (px, py), py = 0 at the bottom; outside is ignored. */
void tui_canvas_dot(struct tui_canvas *c, int px, int py, int series);
/* A line of dots between two sub-cell points. */
void tui_canvas_line(struct tui_canvas *c, int x0, int y0, int x1, int y1, int series);
/* The series' marker glyph in cell (cx, cy), cy = 0 at the top. */
void tui_canvas_mark(struct tui_canvas *c, int cx, int cy, int series);
/* Text for cell (cx, cy), cy = 0 at the top: buf gets a NUL-terminated
 * UTF-8 or ASCII glyph (" " when empty); returns the series to colour it
 * with, or -1. */
int tui_canvas_cell(const struct tui_canvas *c, enum tui_tier tier, int cx, int cy, char buf[8]);

/* How a CDF's line is drawn: solid; as a baseline's ghost (three dots on,
 * three off); or in the series' own line style (solid, dashed, dotted,
 * dash-dot, by series), where colours do not tell the series apart. */
enum tui_cdf_line {
	TUI_CDF_SOLID,
	TUI_CDF_GHOST,
	TUI_CDF_STYLED,
};

/* The empirical CDF of sorted[0..n) across the canvas's width, x over
 * [lo, hi], as a line in series; and the series' marker on that curve in
 * column cx. */
void tui_canvas_cdf(struct tui_canvas *c, const double *sorted, size_t n, double lo, double hi,
		    int series, enum tui_cdf_line line);
void tui_canvas_cdf_mark(struct tui_canvas *c, const double *sorted, size_t n, double lo,
			 double hi, int cx, int series);

/* The glyph that marks series s in legends and on curves (distinct per
 * series so the chart reads without colour). */
const char *tui_series_glyph(enum tui_tier tier, int s);

/* One cell of a vertical bar: `eighths` is the bar's height in eighths of a
 * cell, row counts from the bottom (0). */
const char *tui_bar_glyph(enum tui_tier tier, long eighths, int row);

/* A duration in ns as short text: "0", "23.4 ns", "1.25 us", "3.2 ms", "1.5 s". */
void tui_fmt_ns(double ns, char *buf, int len);

#endif
