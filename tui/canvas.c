#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stats/stats.h"
#include "tui/canvas.h"

#define NGLYPHS 8

enum tui_tier tui_tier_choose(const char *codeset, const char *term)
{
	if (term && strncmp(term, "linux", 5) == 0)
		return TUI_TIER_ASCII;
	if (codeset && (strcasecmp(codeset, "UTF-8") == 0 || strcasecmp(codeset, "utf8") == 0))
		return TUI_TIER_UTF8;
	return TUI_TIER_ASCII;
}

int tui_canvas_init(struct tui_canvas *c, int w, int h)
{
	memset(c, 0, sizeof *c);
	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	size_t n = (size_t)w * (size_t)h;
	c->dots = calloc(n, 1);
	c->owner = malloc(n);
	c->marker = malloc(n);
	if (!c->dots || !c->owner || !c->marker) {
		tui_canvas_free(c);
		return -1;
	}
	c->w = w;
	c->h = h;
	tui_canvas_clear(c);
	return 0;
}

void tui_canvas_free(struct tui_canvas *c)
{
	free(c->dots);
	free(c->owner);
	free(c->marker);
	memset(c, 0, sizeof *c);
}

int tui_canvas_init_range(struct tui_canvas *c, int w, int h, double lo, double *hi)
{
	if (!isfinite(lo))
		return -1;
	if (!(*hi > lo))
		*hi = lo + 1;
	return tui_canvas_init(c, w, h);
}

void tui_canvas_clear(struct tui_canvas *c)
{
	size_t n = (size_t)c->w * (size_t)c->h;
	memset(c->dots, 0, n);
	memset(c->owner, -1, n);
	memset(c->marker, -1, n);
}

void tui_canvas_dot(struct tui_canvas *c, int px, int py, int series)
{
	/* Braille bit for (column in cell, row in cell from the top). */
	static const uint8_t bit[4][2] = {{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
	if (px < 0 || py < 0 || px >= 2 * c->w || py >= 4 * c->h)
		return;
	int top = 4 * c->h - 1 - py;
	size_t i = (size_t)(top / 4) * (size_t)c->w + (size_t)(px / 2);
	c->dots[i] |= bit[top % 4][px % 2];
	c->owner[i] = (int8_t)series;
}

void tui_canvas_line(struct tui_canvas *c, int x0, int y0, int x1, int y1, int series)
{
	int dx = abs(x1 - x0), dy = -abs(y1 - y0);
	int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy;
	for (;;) {
		tui_canvas_dot(c, x0, y0, series);
		if (x0 == x1 && y0 == y1)
			break;
		int e2 = 2 * err;
		if (e2 >= dy) {
			err += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			err += dx;
			y0 += sy;
		}
	}
}

void tui_canvas_mark(struct tui_canvas *c, int cx, int cy, int series)
{
	if (cx < 0 || cy < 0 || cx >= c->w || cy >= c->h)
		return;
	c->marker[(size_t)cy * (size_t)c->w + (size_t)cx] = (int8_t)series;
}

const char *tui_series_glyph(enum tui_tier tier, int s)
{
	static const char *const utf8[NGLYPHS] = {"●", "○", "◆", "■", "▲", "✚", "◇", "□"};
	static const char *const ascii[NGLYPHS] = {"*", "o", "+", "x", "#", "@", "%", "&"};
	if (s < 0)
		return " ";
	return tier == TUI_TIER_UTF8 ? utf8[s % NGLYPHS] : ascii[s % NGLYPHS];
}

int tui_canvas_cell(const struct tui_canvas *c, enum tui_tier tier, int cx, int cy, char buf[8])
{
	size_t i = (size_t)cy * (size_t)c->w + (size_t)cx;
	if (cx < 0 || cy < 0 || cx >= c->w || cy >= c->h) {
		strcpy(buf, " ");
		return -1;
	}
	if (c->marker[i] >= 0) {
		snprintf(buf, 8, "%s", tui_series_glyph(tier, c->marker[i]));
		return c->marker[i];
	}
	if (!c->dots[i]) {
		strcpy(buf, " ");
		return -1;
	}
	if (tier == TUI_TIER_ASCII) {
		snprintf(buf, 8, "%s", tui_series_glyph(tier, c->owner[i]));
		return c->owner[i];
	}
	unsigned cp = 0x2800u + c->dots[i];
	buf[0] = (char)(0xe0 | (cp >> 12));
	buf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
	buf[2] = (char)(0x80 | (cp & 0x3f));
	buf[3] = '\0';
	return c->owner[i];
}

const char *tui_bar_glyph(enum tui_tier tier, long eighths, int row)
{
	static const char *const utf8[9] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
	static const char *const ascii[9] = {" ", ".", ".", ".", "o", "o", "o", "o", "#"};
	long e = eighths - 8L * row;
	if (e < 0)
		e = 0;
	if (e > 8)
		e = 8;
	return tier == TUI_TIER_UTF8 ? utf8[e] : ascii[e];
}

void tui_fmt_ns(double ns, char *buf, int len)
{
	double a = fabs(ns);
	if (isnan(ns))
		snprintf(buf, (size_t)len, "-");
	else if (a == 0)
		snprintf(buf, (size_t)len, "0");
	else if (a < 1e3)
		snprintf(buf, (size_t)len, "%.1f ns", ns);
	else if (a < 1e6)
		snprintf(buf, (size_t)len, "%.3g us", ns / 1e3);
	else if (a < 1e9)
		snprintf(buf, (size_t)len, "%.3g ms", ns / 1e6);
	else
		snprintf(buf, (size_t)len, "%.3g s", ns / 1e9);
}

/* The CDF's height at v in sub-cell rows. */
static int cdf_py(const double *sorted, size_t n, double v, int h)
{
	return (int)lround(stats_ecdf(sorted, n, v) * (4 * h - 1));
}

/* Whether the line has a dot at sub-cell column px. */
static bool line_on(enum tui_cdf_line line, int series, int px)
{
	if (line == TUI_CDF_GHOST)
		return (px / 3) % 2 == 0;
	if (line == TUI_CDF_SOLID)
		return true;
	switch (series % 4) {
	case 1: return px % 6 < 4;
	case 2: return px % 3 == 0;
	case 3: return px % 8 < 4 || px % 8 == 6;
	default: return true;
	}
}

void tui_canvas_cdf(struct tui_canvas *c, const double *sorted, size_t n, double lo, double hi,
		    int series, enum tui_cdf_line line)
{
	int px0 = -1, py0 = 0;

	for (int px = 0; px < 2 * c->w; px++) {
		double v = lo + ((double)px + 0.5) / (2.0 * c->w) * (hi - lo);
		int py = cdf_py(sorted, n, v, c->h);

		if (px0 >= 0 && line_on(line, series, px))
			tui_canvas_line(c, px0, py0, px, py, series);
		px0 = px;
		py0 = py;
	}
}

void tui_canvas_cdf_mark(struct tui_canvas *c, const double *sorted, size_t n, double lo,
			 double hi, int cx, int series)
{
	double v = lo + ((double)cx + 0.5) / c->w * (hi - lo);

	tui_canvas_mark(c, cx, c->h - 1 - cdf_py(sorted, n, v, c->h) / 4, series);
}
