/* Which series Live draws and on which x-axis: the histograms on one
 * shared range or each on its own, and backends hidden or shown alone, so
 * one slow timer's wide range need not squash the others. Private to tui/. */
#ifndef TL_TUI_SERIES_H
#define TL_TUI_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/stats.h"
#include "tui/keys.h"
#include "tui/layout.h"

struct tui_app;
struct tui_view;

struct tui_series {
	bool shared;            /* histograms on one x-axis (x toggles) */
	uint64_t hidden;        /* bit t: timer t's series is hidden (timers past 63 never are) */
	size_t sel;             /* the selected backend, a timer index (b moves it) */
	double lo, hi;          /* the shown columns' range: lowest min to highest p99 */
	/* the shared-axis histograms of the columns last refreshed, and what
	 * they were binned from (redone when any of it changes) */
	struct tl_histogram hist[TUI_MAX_COLS];
	bool have[TUI_MAX_COLS];
	size_t cell[TUI_MAX_COLS], done[TUI_MAX_COLS], bins;
	double when[TUI_MAX_COLS], hlo, hhi;
};

/* A new run or replay: everything shown, the first backend selected (the
 * axis mode is the user's and stays). */
void tui_series_reset(struct tui_app *app);
void tui_series_free(struct tui_app *app);
bool tui_series_shown(const struct tui_app *app, size_t timer);
/* x, b, v, o, a on Live. */
void tui_series_action(struct tui_app *app, enum tui_action a);
/* After the views of the page's cells are refreshed (never in a draw): the
 * shown columns' range and, in shared mode, their histograms over it. */
void tui_series_refresh(struct tui_app *app, const size_t *cells, size_t n, size_t bins);
/* What column col's histogram shows: the shared one in shared mode, else
 * the view's own; NULL when there is none yet. */
const struct tl_histogram *tui_series_hist(const struct tui_app *app, size_t col,
					   const struct tui_view *v);
/* "shared axis" or "own axes", with ", N hidden" when some are. */
void tui_series_mode(const struct tui_app *app, char *buf, size_t len);

#endif
