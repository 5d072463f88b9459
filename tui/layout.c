#include "config.h"

#include <string.h>

#include "tui/layout.h"

static struct tui_rect rect(int y, int x, int h, int w)
{
	struct tui_rect r = {y, x, h < 0 ? 0 : h, w < 0 ? 0 : w};
	return r;
}

bool tui_rect_inside(const struct tui_rect *a, const struct tui_rect *b)
{
	return a->y >= b->y && a->x >= b->x && a->y + a->h <= b->y + b->h &&
	       a->x + a->w <= b->x + b->w;
}

bool tui_rect_overlap(const struct tui_rect *a, const struct tui_rect *b)
{
	if (a->h <= 0 || a->w <= 0 || b->h <= 0 || b->w <= 0)
		return false;
	return a->y < b->y + b->h && b->y < a->y + a->h && a->x < b->x + b->w &&
	       b->x < a->x + a->w;
}

static void layout_setup(struct tui_layout *l)
{
	const struct tui_rect *b = &l->body;
	if (b->w >= 120) {
		/* Wide: three lists side by side; backends get half for their reasons. */
		int wb = b->w / 2, wf = (b->w - wb) / 2;
		l->list[0] = rect(b->y, b->x, b->h, wb - 1);
		l->list[1] = rect(b->y, b->x + wb, b->h, wf - 1);
		l->list[2] = rect(b->y, b->x + wb + wf, b->h, b->w - wb - wf);
	} else {
		/* Narrow: backends across the top, flush and kernels below. */
		int hb = b->h * 11 / 20;
		int wf = b->w / 2;
		l->list[0] = rect(b->y, b->x, hb, b->w);
		l->list[1] = rect(b->y + hb, b->x, b->h - hb, wf - 1);
		l->list[2] = rect(b->y + hb, b->x + wf, b->h - hb, b->w - wf);
	}
}

static void layout_live(struct tui_layout *l, size_t nseries)
{
	const struct tui_rect *b = &l->body;
	l->progress = rect(b->y, b->x, 1, b->w);
	int h = b->h - 1;
	int cdf_h = h * 35 / 100;
	if (cdf_h < 5)
		cdf_h = 5;
	int col_h = h - cdf_h;
	int sum_h = col_h >= 27 ? TUI_SUMMARY_LONG : TUI_SUMMARY_SHORT;

	size_t fit = (size_t)((b->w + 1) / (TUI_COL_MIN_WIDTH + 1));
	if (fit < 1)
		fit = 1;
	if (fit > TUI_MAX_COLS)
		fit = TUI_MAX_COLS;
	l->ncols = nseries < fit ? (nseries ? nseries : 1) : fit;

	int y = b->y + 1;
	int each = (b->w + 1) / (int)l->ncols; /* one blank column between columns */
	for (size_t i = 0; i < l->ncols; i++) {
		int x = b->x + (int)i * each;
		int w = i + 1 == l->ncols ? b->x + b->w - x : each - 1;
		l->hist[i] = rect(y, x, col_h - sum_h, w);
		l->summary[i] = rect(y + col_h - sum_h, x, sum_h, w);
	}
	l->cdf = rect(y + col_h, b->x, cdf_h, b->w);
}

static void layout_search(struct tui_layout *l, size_t nseries)
{
	const struct tui_rect *b = &l->body;
	int th = 2 * (int)nseries + 2; /* header, rows, ratio sentences, note */
	if (th > b->h / 2)
		th = b->h / 2;
	if (th < 4)
		th = 4;
	int ph = b->h - th;
	int wl = b->w / 2;
	l->cv = rect(b->y, b->x, ph, wl - 1);
	l->overlap = rect(b->y, b->x + wl, ph, b->w - wl);
	l->table = rect(b->y + ph, b->x, th, b->w);
}

void tui_layout_compute(int cols, int rows, size_t nseries, struct tui_layout *l)
{
	memset(l, 0, sizeof *l);
	l->cols = cols;
	l->rows = rows;
	l->too_small = cols < TUI_MIN_COLS || rows < TUI_MIN_ROWS;
	/* The message needs at most 20x5; it is clipped, not moved off screen. */
	int mw = cols < 20 ? (cols > 0 ? cols : 0) : 20;
	int mh = rows < 5 ? (rows > 0 ? rows : 0) : 5;
	l->msg = rect((rows - mh) / 2, (cols - mw) / 2, mh, mw);
	if (l->too_small)
		return;

	l->title = rect(0, 0, 1, cols);
	l->status = rect(rows - 1, 0, 1, cols);
	l->prompt = rect(rows - 2, 0, 1, cols);
	l->body = rect(1, 0, rows - 3, cols);
	layout_setup(l);
	layout_live(l, nseries);
	layout_search(l, nseries);
}
