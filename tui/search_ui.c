#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "bench/search_cell.h"
#include "bench/search_params.h"
#include "bench/size.h"
#include "io/host_json.h"
#include "io/file_kind.h"
#include "io/json_read.h"
#include "io/plot.h"
#include "io/reason_words.h"
#include "io/results.h"
#include "base/xalloc.h"
#include "io/search_json.h"
#include "tui/app.h"
#include "tui/lesson_ui.h"
#include "tui/curses.h"
#include "tui/wrap.h"

/* Searches run on a worker pinned to the sampling CPU through the engine
 * `ticklab search` uses (bench/search_cell.h), with the same defaults. The
 * engine writes the cells of `work` under the job's lock; every evaluated
 * point is appended to its row's curve there, published, and the event
 * loop woken. Poll takes a copy (`shown`): the draw and the keys read that
 * one only, so no draw waits on the worker. */

/* One search of (backend, flush): its live curves and its results. */
struct tui_search_row {
	size_t timer, flush;       /* indexes into the setup lists (for grouping) */
	char id[TL_ID_MAX];        /* copies: the lists may grow while a search runs */
	uint64_t bytes;
	/* its answers are the cells[the row's index] (same order) */
	uint64_t *cv_x;            /* observed points */
	double *cv_y;
	size_t ncv, capcv;
	uint64_t *ov_x;
	double *ov_y;
	size_t nov, capov;
	/* the reasons behind its numbers, the table's sentences joined by
	 * '\n', rebuilt when a result arrives */
	char *why;
};

/* One search's rows and cells. */
struct search_data {
	struct tui_search_row *rows;
	struct tl_search_cell *cells;
	size_t nrows;
	size_t tried;              /* candidates evaluated */
};

/* The search screen's own state. */
struct search_state {
	struct tui_job job;        /* the worker (tui/worker.c); its lock guards work */
	/* what the engine runs; .ref is the reference (the UI changes it
	 * under the job's lock, the worker only reads) */
	struct tl_search_plan plan;
	struct search_data work;   /* the engine's: cells and curves, under the lock */
	struct search_data shown;  /* poll's copy of work: what draw and the keys read */
	unsigned long seen;        /* the work's publication shown */
	bool utf8;                 /* the reasons' times sign */
	double t_start;            /* the search's own clock: the run's t_start is Live's */
	struct tl_search_eta eta;  /* the engine's estimate of the time left, smoothed */
	/* the parameters the next search takes (o edits them); until edited,
	 * the defaults with N and the seed of the TUI's options */
	struct tl_search_plan params;
	bool params_set;
	bool replay;               /* rows came from a file */
	size_t cur;                /* flush whose curves are shown */
	size_t sel;                /* selected row: its reasons are shown, the table scrolls to it */
	size_t dpage;              /* page of the selected row's reasons */
	char progress[200];        /* "searching 5 of 24 ...", set when results arrive */
};

/* Made on first use (a saved search loads before the screens' init). */
static struct search_state *state(struct tui_app *app)
{
	if (!app->priv[TUI_SEARCH])
		app->priv[TUI_SEARCH] = tl_xcalloc(1, sizeof(struct search_state));
	return app->priv[TUI_SEARCH];
}

static const struct search_state *cstate(const struct tui_app *app)
{
	return app->priv[TUI_SEARCH];
}

static int push(uint64_t **xs, double **ys, size_t *n, size_t *cap, uint64_t x, double y)
{
	if (*n == *cap) {
		size_t c = *cap ? 2 * *cap : 64;
		uint64_t *nx = realloc(*xs, c * sizeof *nx);
		if (!nx)
			return -1;
		*xs = nx;
		double *ny = realloc(*ys, c * sizeof *ny);
		if (!ny)
			return -1;
		*ys = ny;
		*cap = c;
	}
	(*xs)[*n] = x;
	(*ys)[*n] = y;
	(*n)++;
	return 0;
}

static void rows_free(struct tui_search_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].cv_x);
		free(rows[i].cv_y);
		free(rows[i].ov_x);
		free(rows[i].ov_y);
		free(rows[i].why);
	}
	free(rows);
}

/* A copy of one curve, in the copy's own arrays. */
static void curve_copy(uint64_t **dx, double **dy, size_t *dn, size_t *dcap, const uint64_t *sx,
		       const double *sy, size_t n)
{
	if (n > *dcap) {
		*dx = tl_xrealloc(*dx, n, sizeof **dx);
		*dy = tl_xrealloc(*dy, n, sizeof **dy);
		*dcap = n;
	}
	if (n) {
		memcpy(*dx, sx, n * sizeof *sx);
		memcpy(*dy, sy, n * sizeof *sy);
	}
	*dn = n;
}

/* Poll's take (the job's lock held): work copied into shown. The cells
 * are copied whole but for their repeats, which only the export reads
 * (from work, once the worker is gone). */
static void take(void *ctx)
{
	struct search_state *st = ctx;
	struct search_data *d = &st->shown;
	const struct search_data *w = &st->work;

	if (d->nrows != w->nrows) {
		rows_free(d->rows, d->nrows);
		free(d->cells);
		d->rows = w->nrows ? tl_xcalloc(w->nrows, sizeof *d->rows) : NULL;
		d->cells = w->nrows ? tl_xcalloc(w->nrows, sizeof *d->cells) : NULL;
		d->nrows = w->nrows;
	}
	for (size_t i = 0; i < w->nrows; i++) {
		struct tui_search_row *r = &d->rows[i];
		const struct tui_search_row *s = &w->rows[i];

		r->timer = s->timer;
		r->flush = s->flush;
		memcpy(r->id, s->id, sizeof r->id);
		r->bytes = s->bytes;
		curve_copy(&r->cv_x, &r->cv_y, &r->ncv, &r->capcv, s->cv_x, s->cv_y, s->ncv);
		curve_copy(&r->ov_x, &r->ov_y, &r->nov, &r->capov, s->ov_x, s->ov_y, s->nov);
		free(r->why);
		r->why = s->why ? tl_xstrdup(s->why) : NULL;
		d->cells[i] = w->cells[i];
		d->cells[i].rep = NULL;
		d->cells[i].nrep = 0;
	}
	d->tried = w->tried;
}

/* What the worker published, into shown (on the UI thread). */
static bool sync_shown(struct search_state *st)
{
	return tui_job_take(&st->job, &st->seen, take, st);
}

static void on_point(void *ctx, size_t cell, enum tl_search_kind kind, uint64_t x, double y)
{
	struct search_state *st = ctx;
	struct tui_search_row *r = &st->work.rows[cell];

	tui_job_lock(&st->job);
	if (kind == TL_SEARCH_TMIN)
		push(&r->cv_x, &r->cv_y, &r->ncv, &r->capcv, x, y);
	else
		push(&r->ov_x, &r->ov_y, &r->nov, &r->capov, x, y);
	st->work.tried++;
	tui_job_publish(&st->job);
	tui_job_unlock(&st->job);
	tui_job_wake(&st->job);
}

static void on_lock(void *ctx)
{
	tui_job_lock(&((struct search_state *)ctx)->job);
}

static void on_unlock(void *ctx)
{
	struct search_state *st = ctx;

	tui_job_publish(&st->job);
	tui_job_unlock(&st->job);
}

/* One reason appended to its row's text (a line each). */
static void add_reason(void *ctx, const struct tl_search_cell *c, const char *text)
{
	struct tui_search_row *row = ctx;
	size_t at = row->why ? strlen(row->why) : 0, n = strlen(text);

	(void)c;
	row->why = tl_xrealloc(row->why, at + n + 2, 1);
	snprintf(row->why + at, n + 2, "%s%s", at ? "\n" : "", text);
}

/* A note: its plain sentence first where it has one, the note as the detail. */
static void add_note(void *ctx, const struct tl_search_cell *c, const char *text)
{
	const char *plain = tl_search_reason_plain(text);
	if (!plain) {
		add_reason(ctx, c, text);
		return;
	}
	size_t n = strlen(plain) + strlen(text) + 16;
	char *both = tl_xmalloc(n);
	snprintf(both, n, "%s Detail: %s", plain, text);
	add_reason(ctx, c, both);
	free(both);
}

/* Every row's reasons, in the words the CLI's table prints under its rows
 * (io/search_table.c): the comparison first, then the notes. A summary
 * changes the ratios of every row, so all are rebuilt. Caller holds the
 * job's lock. */
static void build_reasons(struct search_state *st)
{
	const char *times = st->utf8 ? "\u00d7" : "x";
	struct search_data *w = &st->work;

	for (size_t i = 0; i < w->nrows; i++) {
		struct tui_search_row *row = &w->rows[i];

		free(row->why);
		row->why = NULL;
		tl_search_cell_ratio_notes(&st->plan, w->cells, i, times, add_reason, row);
		tl_search_cell_notes(&st->plan, &w->cells[i], add_note, row);
	}
}

/* Repeats of cells done, over all planned: the unit of the progress. */
static void reps_count(const struct tl_search_plan *p, const struct search_data *d, size_t *done,
		       size_t *total)
{
	unsigned nrep = p->repeats ? p->repeats : 1;

	*done = 0;
	*total = d->nrows * nrep;
	for (size_t i = 0; i < d->nrows; i++) {
		const struct tl_search_cell *c = &d->cells[i];

		*done += c->state == TL_CELL_FAILED ? nrep : c->reps_done < nrep ? c->reps_done : nrep;
	}
}

/* The progress line, set when results arrive (never in a draw): cell
 * repeats done of planned, candidates tried, time and the ETA from the
 * time the finished ones took. */
static void progress_update(struct search_state *st)
{
	size_t done, total;
	double t = tl_monotonic_s() - st->t_start;
	char eta[48] = "ETA after the first";

	tui_job_progress(&st->job, &done, &total);
	/* the engine's estimate reads the repeats: the worker's cells, locked
	 * (here in poll, never in a draw) */
	tui_job_lock(&st->job);
	double left = tl_search_eta_update(&st->eta, &st->plan, st->work.cells, t);
	/* t_min runs for every repeat before any t_diff: the first pass shows here */
	size_t tmins = 0;

	for (size_t i = 0; i < st->work.nrows; i++)
		tmins += st->work.cells[i].tmin_done;
	tui_job_unlock(&st->job);

	if (done >= total)
		snprintf(eta, sizeof eta, "finishing");
	else if (!isnan(left))
		snprintf(eta, sizeof eta, "ETA %.0f s", left);
	if (st->job.live && !atomic_load(&st->job.done))
		snprintf(st->progress, sizeof st->progress,
			 "searching: %zu/%zu cell repeats done (%zu with t_min), %zu candidates tried, "
			 "%.0f s, %s",
			 done, total, tmins, st->shown.tried, t, eta);
	else
		snprintf(st->progress, sizeof st->progress,
			 "%s: %zu/%zu cell repeats, %zu candidates tried in %.1f s",
			 atomic_load(&st->job.stop) ? "stopped" : "done", done, total,
			 st->shown.tried, t);
}

/* The worker's progress report: cell repeats done of planned. */
static void progress_report(struct search_state *st)
{
	size_t done, total;

	reps_count(&st->plan, &st->work, &done, &total);
	tui_job_progress_set(&st->job, done, total);
}

static void on_changed(void *ctx, size_t cell)
{
	struct search_state *st = ctx;

	(void)cell;
	tui_job_lock(&st->job);
	build_reasons(st);
	progress_report(st);
	tui_job_publish(&st->job);
	tui_job_unlock(&st->job);
	tui_job_wake(&st->job);
}

static void search_main(struct tui_job *job)
{
	struct search_state *st = job->arg;
	struct tl_search_hooks hooks = {st, on_point, on_lock, on_unlock, on_changed, &job->stop};
	struct search_data *w = &st->work;
	char why[256];

	if (tl_cpu_pin(st->plan.cpu, why, sizeof why) < 0) {
		tui_job_lock(job);
		for (size_t i = 0; i < w->nrows; i++) {
			w->cells[i].state = TL_CELL_FAILED;
			snprintf(w->cells[i].why, sizeof w->cells[i].why, "%s", why);
		}
		tui_job_unlock(job);
	} else {
		tl_search_run(&st->plan, w->cells, &hooks);
	}
	/* a backend that fails marks its cells without a change hook */
	tui_job_lock(job);
	progress_report(st);
	tui_job_publish(job);
	tui_job_unlock(job);
}

bool tui_search_running(const struct tui_app *app)
{
	const struct search_state *st = cstate(app);

	return st && st->job.live;
}

void tui_search_stop(struct tui_app *app)
{
	struct search_state *st = state(app);

	if (st->job.live)
		tui_job_cancel(&st->job);
}

static void data_free(struct search_data *d, bool cells_own_reps)
{
	rows_free(d->rows, d->nrows);
	if (cells_own_reps)
		tl_search_cells_free(d->cells, d->nrows);
	else
		free(d->cells);
	memset(d, 0, sizeof *d);
}

void tui_search_free(struct tui_app *app)
{
	struct search_state *st = state(app);

	tui_search_stop(app);
	data_free(&st->work, true);
	data_free(&st->shown, false);
	st->seen = st->job.gen;
	tl_search_plan_free(&st->plan);
	if (st->replay) {
		json_decref(app->node.host_json);
		app->node.host_json = NULL;
	}
	st->replay = false;
	st->sel = st->dpage = 0;
	st->progress[0] = '\0';
}

/* The screen goes: its search, and its worker's lock. */
static void search_free(struct tui_app *app)
{
	struct search_state *st = state(app);

	tui_search_free(app);
	tui_job_release(&st->job);
	free(st);
	app->priv[TUI_SEARCH] = NULL;
}

/* The parameters the next search takes: the CLI's defaults with the TUI's
 * N and seed, until the user edits them. */
static const struct tl_search_plan *next_params(struct tui_app *app)
{
	struct search_state *st = state(app);
	if (!st->params_set) {
		tl_search_plan_default(&st->params);
		st->params.sp.n = app->opts.n;
		st->params.sp.seed = app->opts.seed;
	}
	return &st->params;
}

void tui_search_params_edit(struct tui_app *app)
{
	if (app->res.replay) {
		tui_message(app, true, "replay: a search measures; run ticklab tui to search");
		return;
	}
	app->line.mode = TUI_INPUT_SEARCH_PARAMS;
	tl_search_plan_params_text(next_params(app), app->line.buf, sizeof app->line.buf);
	app->line.len = strlen(app->line.buf);
	app->msg.text[0] = '\0';
	app->dirty = true;
}

void tui_search_params_done(struct tui_app *app, const char *text)
{
	struct search_state *st = state(app);
	struct tl_search_plan next = *next_params(app);
	char why[256], line[400];

	if (tl_search_plan_params(&next, text, why, sizeof why) < 0) {
		tui_message(app, true, "refused: %s", why);
		return;
	}
	st->params = next;
	st->params_set = true;
	tl_search_plan_describe(&next, line, sizeof line);
	tui_message(app, false, "the next search (s): %s", line);
}

/* Rows, plan and cells for the backends and flushes selected on Setup. */
static int plan_selected(struct tui_app *app, size_t nb, size_t nf)
{
	struct search_state *st = state(app);
	const struct tui_list *lb = &app->lists[0], *lf = &app->lists[1];
	const char **ids = calloc(nb, sizeof *ids), **names = calloc(nf, sizeof *names);
	uint64_t *bytes = calloc(nf, sizeof *bytes);
	char (*labels)[32] = calloc(nf, sizeof *labels);
	size_t k = 0, b = 0, f = 0;
	int rc = -1;

	st->work.rows = calloc(nb * nf, sizeof *st->work.rows);
	if (!ids || !names || !bytes || !labels || !st->work.rows)
		goto out;
	for (size_t i = 0; i < lb->n; i++)
		if (lb->items[i].selected)
			ids[b++] = lb->items[i].label;
	for (size_t i = 0; i < lf->n; i++)
		if (lf->items[i].selected) {
			tl_size_format(lf->items[i].bytes, labels[f], sizeof labels[f]);
			names[f] = labels[f];
			bytes[f++] = lf->items[i].bytes;
		}
	/* rows in the engine's cell order: flush-major, backends inside */
	for (size_t fi = 0; fi < lf->n; fi++) {
		if (!lf->items[fi].selected)
			continue;
		for (size_t bi = 0; bi < lb->n; bi++) {
			if (!lb->items[bi].selected)
				continue;
			struct tui_search_row *row = &st->work.rows[k++];
			row->timer = bi;
			row->flush = fi;
			snprintf(row->id, TL_ID_MAX, "%s", lb->items[bi].label);
			row->bytes = lf->items[fi].bytes;
		}
	}
	/* the plan `ticklab search` builds from the same parameters and selection */
	struct tl_search_plan params = *next_params(app);
	char why[256];

	params.cpu = app->opts.cpu;
	if (tl_search_plan_build(&st->plan, &params, ids, nb, names, bytes, nf, NULL, why,
				 sizeof why) < 0)
		goto out;
	st->work.cells = tl_search_cells_new(&st->plan);
	st->work.nrows = k;
	rc = 0;
out:
	free(ids);
	free(names);
	free(bytes);
	free(labels);
	return rc;
}

int tui_search_start(struct tui_app *app, char *why, size_t whylen)
{
	struct search_state *st = state(app);
	if (TUI_LIVE(app)->sampling.live) {
		snprintf(why, whylen, "a run is sampling on the same CPU: let it end first");
		return -1;
	}
	const struct tui_list *lb = &app->lists[0], *lf = &app->lists[1];
	size_t nb = 0, nf = 0;
	for (size_t i = 0; i < lb->n; i++)
		nb += lb->items[i].selected;
	for (size_t i = 0; i < lf->n; i++)
		nf += lf->items[i].selected;
	if (!nb || !nf) {
		snprintf(why, whylen, "select at least one %s on Setup first",
			 !nb ? "backend" : "flush size");
		return -1;
	}
	tui_search_free(app);
	if (plan_selected(app, nb, nf) < 0) {
		tui_search_free(app);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	st->cur = st->work.rows[0].flush;
	st->utf8 = app->tier == TUI_TIER_UTF8;
	progress_report(st); /* no worker yet: the pair before the first poll */
	tui_job_publish(&st->job);
	int rc = tui_job_start(&st->job, app, search_main, st, true);
	if (rc) {
		snprintf(why, whylen, "cannot start the search thread: %s", strerror(rc));
		return -1;
	}
	st->t_start = tl_monotonic_s();
	tl_search_eta_init(&st->eta);
	tui_affinity_ui(app, st->plan.cpu);
	return 0;
}

void tui_search_poll(struct tui_app *app, bool shown)
{
	struct search_state *st = state(app);
	bool live = st->job.live;

	(void)shown;
	if (live)
		app->dirty = true; /* its curves grow: the screen follows */
	if (tui_job_finished(&st->job)) {
		char lesson[TUI_MSG_MAX - 64];

		tui_lesson_search(app, &st->plan, st->work.cells, st->work.nrows, lesson, sizeof lesson);
		tui_message(app, false, "search done in %.1f s. %s%se exports the results",
			    tl_monotonic_s() - st->t_start, lesson, lesson[0] ? ". " : "");
	}
	if (sync_shown(st))
		app->dirty = true;
	if (live)
		progress_update(st);
}

/* Flush indexes (into the setup list) that have rows, in row order. */
static size_t row_flushes(const struct tui_app *app, size_t *out, size_t max)
{
	const struct search_state *st = cstate(app);
	size_t n = 0;
	for (size_t i = 0; i < st->shown.nrows && n < max; i++) {
		size_t j;
		for (j = 0; j < n && out[j] != st->shown.rows[i].flush; j++)
			;
		if (j == n)
			out[n++] = st->shown.rows[i].flush;
	}
	return n;
}

static int export_search(struct tui_app *app, char *path, size_t len, char *why, size_t whylen);

/* A search figure; the CV and overlap curves only when the search kept
 * points of their kind. */
static int write_search_figure(struct tui_app *app, const struct tl_plot_opts *o, const char *path,
		       char *why, size_t whylen)
{
	struct search_state *st = state(app);
	int rc = 1;
	tui_job_lock(&st->job);
	if (o->kind == TL_PLOT_SEARCH ||
	    tl_search_points_total(st->work.cells, st->work.nrows, o->kind == TL_PLOT_OVERLAP))
		rc = tl_plot_search(&st->plan, st->work.cells, o, path, why, whylen);
	tui_job_unlock(&st->job);
	return rc;
}

/* Beside the exported JSON, the figures `ticklab plot` would draw of it:
 * t_min and t_diff, and the curves whose points the search kept. */
static void export_figures(struct tui_app *app, const char *json)
{
	static const struct tui_figure figs[] = {{TL_PLOT_SEARCH, ".svg"},
						 {TL_PLOT_CV, "-cv.svg"},
						 {TL_PLOT_OVERLAP, "-overlap.svg"}};

	tui_export_figures(app, json, figs, sizeof figs / sizeof figs[0], write_search_figure);
}

/* Where the search screen's parts go: the plots above; below them the
 * parameters, the progress line, the header, a window of rows around the
 * selected one, the legend with the position, and the selected row's
 * reasons. Arithmetic on the layout only, so the keys and the draw agree
 * on what is visible. */
#define PLOT_MIN_H 9   /* title, legend, 6 rows of canvas, axis */
#define WHY_MIN_H 3    /* the reasons' least room while rows are hidden */
#define WHY_WANT_H 6   /* and what they get when the screen allows */
#define WHY_LINES 64

struct sgeom {
	struct tui_rect cv, ov, tab;
	int nparams, y_progress, y_head, y_rows, vis, y_legend, y_why, nwhy;
	size_t top;
};

static struct tui_rect mkrect(int y, int x, int h, int w)
{
	struct tui_rect r = {y, x, h < 0 ? 0 : h, w < 0 ? 0 : w};
	return r;
}

static void params_text(const struct tui_app *app, char *buf, size_t len)
{
	const struct search_state *st = cstate(app);
	char line[400];

	tl_search_plan_describe(&st->plan, line, sizeof line);
	snprintf(buf, len, "%s; o changes them", line);
}

/* The width tui_put_wrapped wraps continuation rows to (every row gets it). */
static int wrap_width(int w)
{
	return w - 2 > 8 ? w - 2 : w;
}

static void geom(const struct tui_app *app, struct sgeom *g)
{
	const struct search_state *st = cstate(app);
	const struct tui_rect *b = &app->lay.body;
	char params[420];
	int nrows = (int)st->shown.nrows;

	params_text(app, params, sizeof params);
	g->nparams = (int)tui_wrap(params, wrap_width(b->w), NULL, 0);
	int th = g->nparams + 3 + nrows + WHY_WANT_H;
	if (th > b->h - PLOT_MIN_H)
		th = b->h - PLOT_MIN_H;
	if (th < app->lay.table.h)
		th = app->lay.table.h;
	int ph = b->h - th, wl = b->w / 2;
	g->cv = mkrect(b->y, b->x, ph, wl - 1);
	g->ov = mkrect(b->y, b->x + wl, ph, b->w - wl);
	g->tab = mkrect(b->y + ph, b->x, th, b->w);
	int y = g->tab.y + g->nparams, end = g->tab.y + th;
	g->y_progress = y++;
	g->y_head = y++;
	int rest = end - y - 1; /* the legend line */
	g->vis = rest - WHY_MIN_H < nrows ? rest - WHY_MIN_H : nrows;
	if (g->vis < 1)
		g->vis = rest > 0 ? 1 : 0;
	g->y_rows = y;
	g->y_legend = y + g->vis;
	g->y_why = g->y_legend + 1;
	g->nwhy = end - g->y_why;
	g->top = g->vis > 0 && st->sel >= (size_t)g->vis ? st->sel + 1 - (size_t)g->vis
								 : 0;
}

/* The selected row's reasons as screen lines: each sentence wrapped at
 * whole words, its continuation indented. Returns how many (up to max);
 * cont[i] marks a continuation. Reads the shown copy: no lock. */
static size_t why_lines(const struct tui_app *app, int w, char lines[][TUI_WRAP_LINE],
			bool *cont, size_t max)
{
	const struct search_state *st = cstate(app);
	const char *why = st->sel < st->shown.nrows ? st->shown.rows[st->sel].why : NULL;
	size_t n = 0;

	for (const char *p = why; p && *p && n < max;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		const struct tl_search_cell *c = &st->shown.cells[st->sel];
		/* the first names its row as the CLI names every one */
		char head[TL_ID_MAX + 48] = "";
		if (p == why)
			snprintf(head, sizeof head, "%s @ %s: ", st->shown.rows[st->sel].id,
				 st->plan.flush_names[c->f]);
		size_t hl = strlen(head);
		char *text = tl_xmalloc(hl + len + 1);

		memcpy(text, head, hl);
		memcpy(text + hl, p, len);
		text[hl + len] = '\0';
		size_t k = tui_wrap(text, wrap_width(w), lines + n, max - n);
		for (size_t i = 0; i < k && n + i < max; i++)
			cont[n + i] = i > 0;
		n += k < max - n ? k : max - n;
		free(text);
		p = nl ? nl + 1 : p + len;
	}
	return n;
}

/* A row of backend b under flush f, or SIZE_MAX. */
static size_t row_of(const struct tui_app *app, size_t b, size_t f)
{
	const struct search_state *st = cstate(app);
	for (size_t i = 0; i < st->shown.nrows; i++)
		if (st->shown.cells[i].b == b && st->shown.rows[i].flush == f)
			return i;
	return SIZE_MAX;
}

/* The plots follow the selected row's flush; its reasons start at the top. */
static void select_row(struct tui_app *app, size_t i)
{
	struct search_state *st = state(app);
	if (i >= st->shown.nrows)
		return;
	st->sel = i;
	st->dpage = 0;
	st->cur = st->shown.rows[i].flush;
}

static void page_reasons(struct tui_app *app, bool down)
{
	struct search_state *st = state(app);
	bool cont[WHY_LINES];
	struct sgeom g;

	geom(app, &g);
	if (!down) {
		if (st->dpage > 0)
			st->dpage--;
		return;
	}
	char (*lines)[TUI_WRAP_LINE] = tl_xcalloc(WHY_LINES, sizeof *lines);
	size_t n = why_lines(app, g.tab.w, lines, cont, WHY_LINES);

	free(lines);
	if (g.nwhy > 0 && (st->dpage + 1) * (size_t)g.nwhy < n)
		st->dpage++;
}

/* Left/Right: the next flush, keeping the selected backend. */
static void step_flush(struct tui_app *app, bool right)
{
	struct search_state *st = state(app);
	size_t fl[64];
	size_t n = row_flushes(app, fl, 64), at = 0;

	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		if (fl[i] == st->cur)
			at = i;
	st->cur = fl[right ? (at + 1) % n : (at + n - 1) % n];
	if (st->sel < st->shown.nrows) {
		size_t r = row_of(app, st->shown.cells[st->sel].b, st->cur);
		if (r != SIZE_MAX)
			select_row(app, r);
	}
}

void tui_search_action(struct tui_app *app, enum tui_action a)
{
	struct search_state *st = state(app);
	size_t last = st->shown.nrows ? st->shown.nrows - 1 : 0;

	if (a == TUI_ACT_LEFT || a == TUI_ACT_RIGHT)
		step_flush(app, a == TUI_ACT_RIGHT);
	if (a == TUI_ACT_UP && st->sel > 0)
		select_row(app, st->sel - 1);
	if (a == TUI_ACT_DOWN && st->sel < last)
		select_row(app, st->sel + 1);
	if (a == TUI_ACT_FIRST)
		select_row(app, 0);
	if (a == TUI_ACT_LAST)
		select_row(app, last);
	if (a == TUI_ACT_PAGE_UP || a == TUI_ACT_PAGE_DOWN)
		page_reasons(app, a == TUI_ACT_PAGE_DOWN);
	if (a == TUI_ACT_REF && st->shown.nrows) {
		/* the next backend becomes the one the others are compared to */
		tui_job_lock(&st->job);
		st->plan.ref = (st->plan.ref + 1) % st->plan.nbackends;
		tl_search_ratios(&st->plan, st->work.cells);
		build_reasons(st);
		tui_job_publish(&st->job);
		tui_job_unlock(&st->job);
		sync_shown(st);
		tui_message(app, false, "reference: %s", st->plan.backends[st->plan.ref]);
	}
	if (a == TUI_ACT_EXPORT) {
		char path[1024], why[512];
		if (st->job.live)
			tui_message(app, true, "the search is still running: export when it ends");
		else if (!st->shown.nrows)
			tui_message(app, true, "nothing to export: s starts a search");
		else if (export_search(app, path, sizeof path, why, sizeof why) < 0)
			tui_message(app, true, "export failed: %s", why);
		else
			export_figures(app, path);
	}
	app->dirty = true;
}

/* What the marks mean, on the help overlay (tui.c) below the keys. */

/* A row's series: its backend's place in the search, so every backend of
 * one search has its own glyph and colour (the setup list's index is not:
 * the 1st and 9th backends of the list shared one). */
static int series_of(const struct tui_app *app, size_t i)
{
	const struct search_state *st = cstate(app);
	return (int)(st->shown.cells[i].b % TUI_NSERIES);
}

struct pt {
	double x, y;
	bool last;
};

static int pt_cmp(const void *a, const void *b)
{
	double x = ((const struct pt *)a)->x, y = ((const struct pt *)b)->x;
	return (x > y) - (x < y);
}

/* Under the title, which backend each glyph is, cut to share the width. */
static void draw_plot_legend(const struct tui_app *app, const struct tui_rect *r)
{
	const struct search_state *st = cstate(app);
	size_t n = 0;
	for (size_t i = 0; i < st->shown.nrows; i++)
		n += st->shown.rows[i].flush == st->cur;
	if (!n)
		return;
	int each = r->w / (int)n, x = r->x;
	if (each < 6)
		each = 6;
	for (size_t i = 0; i < st->shown.nrows && x + 4 < r->x + r->w; i++) {
		if (st->shown.rows[i].flush != st->cur)
			continue;
		int s = series_of(app, i), room = r->x + r->w - x;
		int w = each < room ? each : room;
		x += tui_putf(r->y + 1, x, 2, tui_attr_series(app, s), "%s ",
			      tui_series_glyph(app->tier, s));
		tui_putf(r->y + 1, x, w - 3, tui_attr(app, TUI_ROLE_INACTIVE), "%s", st->shown.rows[i].id);
		x += w - 2;
	}
}

/* One plot of the rows under the current flush: kind 0 CV against t
 * (log x), kind 1 overlap against delta; the threshold as a dotted line;
 * titled with the flush, the backends' glyphs under the title. */
static void draw_plot(const struct tui_app *app, const struct tui_rect *r, int kind)
{
	const struct search_state *st = cstate(app);
	int lab = 7, w = r->w - lab - 1, h = r->h - 3;
	const double thr = kind == 0 ? st->plan.sp.eps : st->plan.sp.alpha;
	char fl[32] = "?";
	for (size_t i = 0; i < st->shown.nrows; i++)
		if (st->shown.rows[i].flush == st->cur) {
			tl_size_format(st->shown.rows[i].bytes, fl, sizeof fl);
			break;
		}
	/* the units go where the half screen has room for them */
	bool roomy = r->w >= 50;
	tui_putf(r->y, r->x, r->w, tui_attr(app, TUI_ROLE_TITLE),
		 kind == 0 ? (roomy ? "CV against t (ADDs, log), flush %s, eps %g%%"
				    : "CV against t (log), flush %s, eps %g%%")
			   : (roomy ? "overlap against delta (ADDs), flush %s, alpha %g%%"
				    : "overlap vs delta, flush %s, alpha %g%%"),
		 fl, 100 * thr);
	draw_plot_legend(app, r);
	if (w < 4 || h < 2)
		return;
	double xlo = INFINITY, xhi = -INFINITY, yhi = kind == 0 ? 3 * thr : 1.0;
	for (size_t i = 0; i < st->shown.nrows; i++) {
		const struct tui_search_row *row = &st->shown.rows[i];
		if (row->flush != st->cur)
			continue;
		size_t n = kind == 0 ? row->ncv : row->nov;
		for (size_t j = 0; j < n; j++) {
			double x = (double)(kind == 0 ? row->cv_x[j] : row->ov_x[j]);
			double y = kind == 0 ? row->cv_y[j] : row->ov_y[j];
			if (kind == 0)
				x = log10(x > 1 ? x : 1);
			if (x < xlo)
				xlo = x;
			if (x > xhi)
				xhi = x;
			if (kind == 0 && isfinite(y) && y > yhi && y < 10 * thr)
				yhi = y;
		}
	}
	int dim = tui_attr(app, TUI_ROLE_INACTIVE);
	char lbl[32];
	snprintf(lbl, sizeof lbl, kind == 0 ? "%.1f%%" : "%.2f", kind == 0 ? 100 * yhi : yhi);
	tui_put(r->y + 2, r->x, lab, dim, lbl);
	tui_put(r->y + 1 + h, r->x, lab, dim, "0");
	struct tui_canvas cv;
	if (tui_canvas_init_range(&cv, w, h, xlo, &xhi) < 0)
		return;
	int ty = (int)lround(thr / yhi * (4 * h - 1));
	for (int px = 0; px < 2 * w; px += 3)
		tui_canvas_dot(&cv, px, ty, -1);
	for (size_t i = 0; i < st->shown.nrows; i++) {
		const struct tui_search_row *row = &st->shown.rows[i];
		if (row->flush != st->cur)
			continue;
		int s = series_of(app, i);
		size_t n = kind == 0 ? row->ncv : row->nov;
		struct pt *pts = malloc((n ? n : 1) * sizeof *pts);
		if (!pts)
			continue;
		for (size_t j = 0; j < n; j++) {
			double x = (double)(kind == 0 ? row->cv_x[j] : row->ov_x[j]);
			pts[j].x = kind == 0 ? log10(x > 1 ? x : 1) : x;
			pts[j].y = kind == 0 ? row->cv_y[j] : row->ov_y[j];
			pts[j].last = j + 1 == n;
		}
		/* The search visits t out of order; the curve is drawn along t. */
		qsort(pts, n, sizeof *pts, pt_cmp);
		int px0 = -1, py0 = 0;
		for (size_t j = 0; j < n; j++) {
			double y = pts[j].y;
			if (!isfinite(y))
				continue;
			if (y > yhi)
				y = yhi;
			int px = (int)lround((pts[j].x - xlo) / (xhi - xlo) * (2 * w - 1));
			int py = (int)lround(y / yhi * (4 * h - 1));
			if (px0 >= 0)
				tui_canvas_line(&cv, px0, py0, px, py, s);
			else
				tui_canvas_dot(&cv, px, py, s);
			px0 = px;
			py0 = py;
			if (pts[j].last) /* where the search stands now */
				tui_canvas_mark(&cv, px / 2, h - 1 - py / 4, s);
		}
		free(pts);
	}
	tui_put_canvas(app, r->y + 2, r->x + lab + 1, &cv);
	tui_canvas_free(&cv);
	char a[32], b[32];
	if (kind == 0) {
		snprintf(a, sizeof a, "%.3g", pow(10, xlo));
		snprintf(b, sizeof b, "%.3g", pow(10, xhi));
	} else {
		snprintf(a, sizeof a, "%.3g", xlo);
		snprintf(b, sizeof b, "%.3g", xhi);
	}
	tui_put(r->y + r->h - 1, r->x + lab + 1, w, dim, a);
	tui_put(r->y + r->h - 1, r->x + r->w - (int)strlen(b), (int)strlen(b), dim, b);
}

/* "   1600 [1560-1645]" for a median with its 95 % interval; otherwise the
 * median beside what it may claim ("12791 found in 1 of 3", "> 1e8",
 * "unstable: 700..900"), from tl_search_stat_text; "~" and "so far" while
 * the cell has repeats to come; "!" after a median the repeats do not back
 * (the legend and the reasons say why). */
static void fmt_result(char *buf, size_t len, const struct tl_search_cell *c, int kind, bool wide)
{
	const struct tl_search_stat *s = kind == 0 ? &c->tmin : &c->tdiff;
	const char *bang = s->unstable ? "!" : "";
	char st[64];

	if (wide)
		tl_search_stat_text(st, sizeof st, s);
	else
		tl_search_stat_brief(st, sizeof st, s);
	if (c->state == TL_CELL_RUNNING && c->phase == kind + 1 && !s->found)
		snprintf(buf, len, "searching...");
	else if (s->found && s->status == TL_STATUS_INTERVAL && !s->provisional)
		snprintf(buf, len, "%7.0f%s [%s]", s->adds, bang, st);
	else if (s->found)
		snprintf(buf, len, "%s%.0f%s %s", s->provisional ? "~" : "", s->adds, bang, st);
	else if (s->ran)
		snprintf(buf, len, "none%s%s%s", bang, s->status == TL_STATUS_BOUND ? " " : "",
			 s->status == TL_STATUS_BOUND ? st : "");
	else if (c->state == TL_CELL_FAILED)
		snprintf(buf, len, "none");
	else
		buf[0] = '\0';
}

static void fmt_ratio(char *buf, size_t len, const struct tl_search_ratio *r)
{
	tl_search_ratio_short(buf, len, r);
}

static void draw_params(const struct tui_app *app, const struct sgeom *g)
{
	const struct search_state *st = cstate(app);
	char text[420];

	params_text(app, text, sizeof text);
	tui_put_wrapped(g->tab.y, g->tab.x, g->tab.w, g->y_progress, 2,
			tui_attr(app, TUI_ROLE_INACTIVE), text);
	tui_put_wrapped(g->y_progress, g->tab.x, g->tab.w, g->y_progress + 1, 2,
			tui_attr(app, TUI_ROLE_HI),
			st->progress[0] ? st->progress : "searching: starting");
}

static void draw_row(const struct tui_app *app, const struct sgeom *g, size_t i, int y, int idw, int cw)
{
	const struct search_state *st = cstate(app);
	const struct tui_rect *r = &g->tab;
	const struct tui_search_row *row = &st->shown.rows[i];
	const struct tl_search_cell *c = &st->shown.cells[i];
	char fl[32], t1[96], t2[96], r1[64], r2[64], tail[300];
	bool sel = i == st->sel, utf8 = app->tier == TUI_TIER_UTF8;

	tl_size_format(row->bytes, fl, sizeof fl);
	fmt_result(t1, sizeof t1, c, 0, r->w >= 120);
	fmt_result(t2, sizeof t2, c, 1, r->w >= 120);
	fmt_ratio(r1, sizeof r1, &c->ratio_tmin);
	fmt_ratio(r2, sizeof r2, &c->ratio_tdiff);
	if (c->state == TL_CELL_FAILED)
		snprintf(tail, sizeof tail, "failed: %s", c->why);
	else if (c->b == st->plan.ref)
		snprintf(tail, sizeof tail, "reference");
	else
		snprintf(tail, sizeof tail, "%s / %s", r1, r2);
	int s = series_of(app, i), x = r->x;
	x += tui_put(y, x, 1, tui_attr(app, TUI_ROLE_HI) | A_BOLD, sel ? (utf8 ? "▸" : ">") : " ");
	x += tui_putf(y, x, 2, tui_attr_series(app, s), "%s ", tui_series_glyph(app->tier, s));
	const struct tl_backend *be = tl_backend_find(row->id);
	char id[TL_ID_MAX + 4];
	/* a simulated timer keeps its mark even when its id is cut */
	if (be && be->simulated)
		snprintf(id, sizeof id, "%.*s *", idw - 2, row->id);
	else
		snprintf(id, sizeof id, "%s", row->id);
	int a = c->state == TL_CELL_FAILED ? tui_attr(app, TUI_ROLE_ERROR)
					   : tui_attr(app, TUI_ROLE_MAIN_FG);
	tui_putf(y, x, r->x + r->w - x, sel ? a | (int)A_BOLD : a, "%-*.*s %-8s %-*s %-*s %s", idw, idw,
		 id, fl, cw, t1, cw, t2, tail);
}

static void draw_rows(const struct tui_app *app, const struct sgeom *g)
{
	const struct search_state *st = cstate(app);
	const struct tui_rect *r = &g->tab;
	/* narrow: one less for the id, as the selection mark took a column */
	int idw = r->w >= 120 ? 28 : 13, cw = r->w >= 120 ? 30 : 20;

	tui_putf(g->y_head, r->x, r->w, tui_attr(app, TUI_ROLE_TITLE) | A_BOLD,
		 "   %-*s %-8s %-*s %-*s %s", idw, "backend", "flush", cw, "t_min ADDs [95%]", cw,
		 "t_diff ADDs [95%]", "ratio");
	for (int k = 0; k < g->vis && g->top + (size_t)k < st->shown.nrows; k++)
		draw_row(app, g, g->top + (size_t)k, g->y_rows + k, idw, cw);
}

/* Which row of how many, which of its reasons, then what the marks mean,
 * as many of those as fit, each whole. */
static void draw_legend(const struct tui_app *app, const struct sgeom *g, size_t nwhy)
{
	const struct search_state *st = cstate(app);
	char buf[400], part[160];
	size_t at = 0;
	const char *more[] = {"~ so far", "[95% interval] only when all repeats agree",
			      "ratio = reference / this", "* simulated", "? explains"};

	if (!st->shown.nrows)
		return;
	at = (size_t)snprintf(buf, sizeof buf, "row %zu/%zu", st->sel + 1, st->shown.nrows);
	if ((size_t)g->vis < st->shown.nrows)
		at += (size_t)snprintf(buf + at, sizeof buf - at, " (%zu-%zu shown)", g->top + 1,
				       g->top + (size_t)g->vis);
	at += (size_t)snprintf(buf + at, sizeof buf - at, "  ! = unstable, why below");
	if (g->nwhy > 0 && nwhy > (size_t)g->nwhy) {
		size_t first = st->dpage * (size_t)g->nwhy;
		size_t lastl = first + (size_t)g->nwhy < nwhy ? first + (size_t)g->nwhy : nwhy;
		at += (size_t)snprintf(buf + at, sizeof buf - at, "  lines %zu-%zu/%zu PgUp/PgDn",
				       first + 1, lastl, nwhy);
	}
	for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
		int n = snprintf(part, sizeof part, "  %s", more[i]);
		if (n < 0 || at + (size_t)n > (size_t)g->tab.w || at + (size_t)n >= sizeof buf)
			break;
		memcpy(buf + at, part, (size_t)n + 1);
		at += (size_t)n;
	}
	tui_put(g->y_legend, g->tab.x, g->tab.w, tui_attr(app, TUI_ROLE_INACTIVE), buf);
}

/* The selected row's reasons, the page PgUp/PgDn chose. */
static void draw_reasons(const struct tui_app *app, const struct sgeom *g, char lines[][TUI_WRAP_LINE],
			 const bool *cont, size_t n)
{
	const struct search_state *st = cstate(app);
	const struct tl_search_cell *c = &st->shown.cells[st->sel];
	size_t first = st->dpage * (size_t)(g->nwhy > 0 ? g->nwhy : 0);
	int y = g->y_why;

	if (g->nwhy <= 0)
		return;
	if (!n) {
		tui_put(y, g->tab.x, g->tab.w, tui_attr(app, TUI_ROLE_INACTIVE),
			c->state == TL_CELL_FAILED    ? c->why
			: c->state != TL_CELL_DONE    ? "its reasons show when its repeats are in"
			: c->b == st->plan.ref ? "the reference: every ratio is reference / that row"
						       : "nothing to explain: every repeat found it and they agree");
		return;
	}
	if (first >= n)
		first = 0;
	int warn = tui_attr(app, TUI_ROLE_WARN);
	for (size_t i = first; i < n && y < g->y_why + g->nwhy; i++, y++)
		tui_put(y, g->tab.x + (cont[i] ? 2 : 0), g->tab.w - (cont[i] ? 2 : 0), warn, lines[i]);
}

void tui_search_draw(const struct tui_app *app, struct tui_hits *hits)
{
	const struct search_state *st = cstate(app);
	bool cont[WHY_LINES];
	struct sgeom g;

	(void)hits;
	if (!st->shown.nrows) {
		tui_put_empty(app, "no search yet: select backends and flush sizes on Setup, then s");
		return;
	}
	geom(app, &g);
	char (*lines)[TUI_WRAP_LINE] = tl_xcalloc(WHY_LINES, sizeof *lines);
	size_t n = why_lines(app, g.tab.w, lines, cont, WHY_LINES);
	draw_plot(app, &g.cv, 0);
	draw_plot(app, &g.ov, 1);
	draw_params(app, &g);
	draw_rows(app, &g);
	draw_legend(app, &g, n);
	draw_reasons(app, &g, lines, cont, n);
	free(lines);
}

int tui_search_export(struct tui_app *app, const char *path, char *why, size_t whylen)
{
	struct search_state *st = state(app);
	json_t *host = NULL;
	if (st->replay && app->node.host_json)
		host = json_incref(app->node.host_json);
	else {
		tui_info_ensure(app);
		host = tl_host_to_json(&app->node.host);
	}
	tui_job_lock(&st->job);
	json_t *doc = tl_search_to_json(&st->plan, st->work.cells, host,
					atomic_load(&st->job.stop));
	tui_job_unlock(&st->job);
	return tui_export_json(path, doc, why, whylen);
}

static int export_search(struct tui_app *app, char *path, size_t len, char *why, size_t whylen)
{
	tui_export_name(path, len, "search", "json");
	return tui_search_export(app, path, why, whylen);
}

/* What a saved search measured, in the progress line's words. */
static void replay_progress(struct tui_app *app)
{
	struct search_state *st = state(app);
	size_t done, total;
	double t = 0;

	reps_count(&st->plan, &st->work, &done, &total);
	for (size_t i = 0; i < st->work.nrows; i++)
		t += st->work.cells[i].tmin.seconds + st->work.cells[i].tdiff.seconds;
	st->work.tried = tl_search_points_total(st->work.cells, st->work.nrows, TL_SEARCH_TMIN) +
			    tl_search_points_total(st->work.cells, st->work.nrows, TL_SEARCH_TDIFF);
	snprintf(st->progress, sizeof st->progress,
		 "saved search: %zu/%zu cell repeats, %zu candidates tried, %.1f s searching",
		 done, total, st->work.tried, t);
}

/* Rows for cells read from a file: grouped by the file's own indexes. */
static int rows_from_plan(struct tui_app *app)
{
	struct search_state *st = state(app);
	const struct tl_search_plan *p = &st->plan;
	size_t n = p->nbackends * p->nflush;
	st->work.rows = calloc(n ? n : 1, sizeof *st->work.rows);
	if (!st->work.rows)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct tui_search_row *row = &st->work.rows[i];
		const struct tl_search_cell *c = &st->work.cells[i];
		row->timer = c->b;
		row->flush = c->f;
		snprintf(row->id, TL_ID_MAX, "%s", p->backends[c->b]);
		row->bytes = p->flush[c->f];
		/* a replayed search draws the curves its repeats kept */
		for (unsigned r = 0; r < c->nrep; r++)
			for (int k = 0; k < 2; k++)
				for (size_t j = 0; j < c->rep[r].points[k].n; j++) {
					const double *xy = c->rep[r].points[k].xy[j];

					if (!(xy[0] >= 0))
						continue;
					if (k == 0)
						push(&row->cv_x, &row->cv_y, &row->ncv, &row->capcv, (uint64_t)xy[0], xy[1]);
					else
						push(&row->ov_x, &row->ov_y, &row->nov, &row->capov, (uint64_t)xy[0], xy[1]);
				}
	}
	st->work.nrows = n;
	replay_progress(app);
	build_reasons(st);
	tui_job_publish(&st->job);
	return 0;
}

int tui_search_load(struct tui_app *app, const char *path, char *why, size_t whylen)
{
	struct search_state *st = state(app);
	/* report's opening and kind (io/file_kind.h): duplicate keys, FIFOs
	 * and sizes are refused in the same words, and a run's arrays are
	 * not built into a tree only to be dropped. */
	enum tl_file_kind kind;
	struct tl_bulk *bulk;
	json_t *doc = tl_file_load(path, &kind, &bulk, why, whylen);
	bool interrupted;
	if (!doc)
		return -1;
	tl_bulk_free(bulk);
	if (kind != TL_FILE_SEARCH) {
		json_decref(doc);
		return 1; /* the run loader reads a run, and says what is wrong with anything else */
	}
	tui_search_free(app);
	st->utf8 = app->tier == TUI_TIER_UTF8;
	int rc = tl_search_from_json(doc, path, &st->plan, &st->work.cells, &interrupted,
				     why, whylen);
	if (rc == 0 && rows_from_plan(app) < 0) {
		snprintf(why, whylen, "out of memory");
		rc = -1;
	}
	if (rc == 0) {
		json_t *host = json_object_get(doc, "host");
		app->node.host_json = json_is_object(host) ? json_incref(host) : NULL;
		st->replay = true;
		app->res.replay = true;
		app->res.interrupted = interrupted;
		snprintf(app->res.path, sizeof app->res.path, "%s", path);
		st->cur = 0;
		sync_shown(st);
	} else {
		tui_search_free(app);
	}
	json_decref(doc);
	return rc;
}

static const char *search_absent(const struct tui_app *app)
{
	const struct search_state *st = cstate(app);
	return st && st->shown.nrows ? NULL : "no search yet: s on Setup or Live searches";
}

/* A replayed search opens on Search. */
static const char *search_opens(const struct tui_app *app)
{
	const struct search_state *st = cstate(app);
	return st && st->replay ? "" : NULL;
}

/* A search plots one series per backend selected on Setup. */
static size_t search_nseries(const struct tui_app *app)
{
	size_t n = 0;

	for (size_t i = 0; i < app->lists[0].n; i++)
		n += app->lists[0].items[i].selected;
	return n;
}

/* Esc returns to the live results the search was started from (they are
 * still there). */
static enum tui_screen search_back(const struct tui_app *app)
{
	return app->back == TUI_LIVE && app->res.have ? TUI_LIVE : TUI_SETUP;
}

/* e exports the search (E has no CSV of it). */
static void search_export_key(struct tui_app *app, bool csv)
{
	if (!csv)
		tui_search_action(app, TUI_ACT_EXPORT);
}

static void search_init(struct tui_app *app)
{
	(void)state(app);
}

const struct tui_screen_ops tui_search_screen = {
	.name = "Search",
	.absent = search_absent,
	.opens = search_opens,
	.init = search_init,
	.nseries = search_nseries,
	.back = search_back,
	.export = search_export_key,
	.poll = tui_search_poll,
	.draw = tui_search_draw,
	.action = tui_search_action,
	.free = search_free,
};
