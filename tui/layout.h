/* Screen layout: a pure function of the terminal size (and how many series a
 * screen shows), so it can be tested across sizes without a terminal. */
#ifndef TL_TUI_LAYOUT_H
#define TL_TUI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#define TUI_MIN_COLS 60
#define TUI_MIN_ROWS 21
#define TUI_MAX_COLS 8       /* backend columns side by side on the live screen */
#define TUI_COL_MIN_WIDTH 26 /* a summary line "p50 12345.6 p95 12345.6" fits */
#define TUI_SUMMARY_SHORT 8  /* summary lines with two values per line, and a note */
#define TUI_SUMMARY_LONG 15  /* one value per line, and a note over two lines */

struct tui_rect {
	int y, x, h, w;
};

struct tui_layout {
	int cols, rows;
	bool too_small;
	struct tui_rect msg;        /* the "too small" message (fits 20x5) */
	struct tui_rect title;      /* top line */
	struct tui_rect status;     /* bottom line: the keys of the screen */
	struct tui_rect prompt;     /* line above the status: filter, messages */
	struct tui_rect body;       /* between title and prompt */

	struct tui_rect list[3];    /* setup: backends, flush sizes, kernels */

	struct tui_rect progress;   /* live: progress, ETA, flush selector */
	size_t ncols;               /* live: backend columns that fit */
	struct tui_rect hist[TUI_MAX_COLS];
	struct tui_rect summary[TUI_MAX_COLS];
	struct tui_rect cdf;

	struct tui_rect cv;         /* search: CV against t */
	struct tui_rect overlap;    /* search: overlap against delta */
	struct tui_rect table;      /* search: per-backend results */
};

/* Lays out every screen for a cols x rows terminal; nseries is the number of
 * backends the live and search screens show. */
void tui_layout_compute(int cols, int rows, size_t nseries, struct tui_layout *l);

/* Whether a lies fully inside b / a and b share a cell. */
bool tui_rect_inside(const struct tui_rect *a, const struct tui_rect *b);
bool tui_rect_overlap(const struct tui_rect *a, const struct tui_rect *b);

#endif
