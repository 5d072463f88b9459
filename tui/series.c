#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"
#include "tui/series.h"

static void drop_hists(struct tui_series *s)
{
	for (size_t i = 0; i < TUI_MAX_COLS; i++) {
		if (s->have[i])
			stats_histogram_free(&s->hist[i]);
		s->have[i] = false;
	}
}

void tui_series_reset(struct tui_app *app)
{
	struct tui_series *s = &TUI_LIVE(app)->series;

	drop_hists(s);
	s->hidden = 0;
	s->sel = 0;
	s->lo = INFINITY;
	s->hi = -INFINITY;
}

void tui_series_free(struct tui_app *app)
{
	drop_hists(&TUI_LIVE(app)->series);
}

bool tui_series_shown(const struct tui_app *app, size_t timer)
{
	return timer >= 64 || !(TUI_LIVE(app)->series.hidden >> timer & 1);
}

static uint64_t bit(size_t timer)
{
	return timer < 64 ? (uint64_t)1 << timer : 0;
}

/* The page follows the selection, so the selected column is on screen. */
static void select_next(struct tui_app *app)
{
	size_t n = app->res.run.ntimers, per = app->lay.ncols ? app->lay.ncols : 1;

	TUI_LIVE(app)->series.sel = (TUI_LIVE(app)->series.sel + 1) % n;
	TUI_LIVE(app)->page = TUI_LIVE(app)->series.sel - TUI_LIVE(app)->series.sel % per;
}

void tui_series_action(struct tui_app *app, enum tui_action a)
{
	struct tui_series *s = &TUI_LIVE(app)->series;
	size_t n = app->res.have ? app->res.run.ntimers : 0;
	const char *id;

	if (!n) {
		tui_message(app, true, "no run yet: Enter on Setup runs the selection live");
		return;
	}
	if (s->sel >= n)
		s->sel = 0;
	id = app->res.run.timers[s->sel].id;
	switch (a) {
	case TUI_ACT_AXIS:
		s->shared = !s->shared;
		tui_message(app, false, s->shared ? "histograms share one x-axis (the shown series' range)"
						  : "each histogram on its own x-axis");
		break;
	case TUI_ACT_SEL_NEXT:
		select_next(app);
		tui_message(app, false, "selected %s: v hides it, o shows it alone",
			    app->res.run.timers[s->sel].id);
		break;
	case TUI_ACT_HIDE:
		s->hidden ^= bit(s->sel);
		tui_message(app, false, "%s %s", id, tui_series_shown(app, s->sel) ? "shown" : "hidden");
		break;
	case TUI_ACT_SOLO:
		s->hidden = ~bit(s->sel);
		tui_message(app, false, "%s alone: a shows every backend", id);
		break;
	case TUI_ACT_SHOW_ALL:
		s->hidden = 0;
		tui_message(app, false, "every backend shown");
		break;
	default:
		break;
	}
}

/* One bin width for every column, so their bars line up: the coarsest
 * shown timer's step (finer bins would comb it), at least the range over
 * the bins. */
static double shared_step(const struct tui_app *app, const size_t *cells, size_t n, size_t bins)
{
	const struct tui_series *s = &TUI_LIVE(app)->series;
	double step = s->hi > s->lo ? (s->hi - s->lo) / (double)bins : 1.0;

	for (size_t i = 0; i < n; i++) {
		double res;

		if (cells[i] == SIZE_MAX || !tui_series_shown(app, app->res.run.cells[cells[i]].timer))
			continue;
		res = app->res.run.cells[cells[i]].resolution_ns;
		if (res > step && isfinite(res))
			step = res;
	}
	return step;
}

static void shared_hists(struct tui_app *app, const size_t *cells, size_t n, size_t bins)
{
	struct tui_series *s = &TUI_LIVE(app)->series;
	double step = shared_step(app, cells, n, bins ? bins : 1);

	for (size_t i = 0; i < n && i < TUI_MAX_COLS; i++) {
		const struct tui_view *v = cells[i] == SIZE_MAX ? NULL : tui_live_view(app, cells[i]);
		bool fresh = s->have[i] && s->cell[i] == cells[i] && v && s->done[i] == v->done &&
			     s->when[i] == v->when && s->hlo == s->lo && s->hhi == s->hi &&
			     s->bins == bins;

		if (fresh)
			continue;
		if (s->have[i])
			stats_histogram_free(&s->hist[i]);
		s->have[i] = false;
		if (!v || !v->nsorted || !isfinite(s->lo))
			continue;
		s->have[i] = stats_histogram(v->sorted, v->nsorted, step, bins ? bins : 1, s->lo, s->hi,
					     &s->hist[i]) == 0;
		s->cell[i] = cells[i];
		s->done[i] = v->done;
		s->when[i] = v->when;
	}
	s->hlo = s->lo;
	s->hhi = s->hi;
	s->bins = bins;
}

void tui_series_refresh(struct tui_app *app, const size_t *cells, size_t n, size_t bins)
{
	struct tui_series *s = &TUI_LIVE(app)->series;

	s->lo = INFINITY;
	s->hi = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		const struct tui_view *v = cells[i] == SIZE_MAX ? NULL : tui_live_view(app, cells[i]);

		if (!v || !v->nsorted || !tui_series_shown(app, app->res.run.cells[cells[i]].timer))
			continue;
		if (v->an.summary.min < s->lo)
			s->lo = v->an.summary.min;
		if (v->an.summary.p99 > s->hi)
			s->hi = v->an.summary.p99;
	}
	if (s->shared)
		shared_hists(app, cells, n, bins);
}

const struct tl_histogram *tui_series_hist(const struct tui_app *app, size_t col,
					   const struct tui_view *v)
{
	if (TUI_LIVE(app)->series.shared)
		return col < TUI_MAX_COLS && TUI_LIVE(app)->series.have[col] ? &TUI_LIVE(app)->series.hist[col] : NULL;
	return v && v->have_hist ? &v->hist : NULL;
}

void tui_series_mode(const struct tui_app *app, char *buf, size_t len)
{
	size_t hidden = 0;

	for (size_t t = 0; app->res.have && t < app->res.run.ntimers; t++)
		hidden += !tui_series_shown(app, t);
	if (hidden)
		snprintf(buf, len, "%s, %zu hidden", TUI_LIVE(app)->series.shared ? "shared axis" : "own axes",
			 hidden);
	else
		snprintf(buf, len, "%s", TUI_LIVE(app)->series.shared ? "shared axis" : "own axes");
}
