/* The Live screen: a run sampled by a worker (tui/worker.c) or loaded from
 * a file, its views (each shown cell's analysis, kept up to date from a
 * snapshot while sampling goes on), the keys that move through it and its
 * drawing. Exports are tui/export.c's. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>

#include "bench/estimate.h"
#include "bench/size.h"
#include "bench/analysis.h"
#include "base/xalloc.h"
#include "io/results.h"
#include "stats/stats.h"
#include "bench/selection.h"
#include "tui/app.h"
#include "tui/curses.h"
#include "tui/lesson_ui.h"
#include "tui/wrap.h"

/* Analyses of a growing cell are redone at most this often: the OS-noise
 * filter is the expensive part, and the eye does not need more. */
#define REANALYSE_S 0.4
/* How long a frame may wait for the sampling CPU's timed window to close. */
#define WINDOW_WAIT_S 0.005

/* Live's state, made on first use (a replay loads before the screens' init). */
struct tui_live *tui_live_mut(struct tui_app *app)
{
	if (!app->priv[TUI_LIVE])
		app->priv[TUI_LIVE] = tl_xcalloc(1, sizeof(struct tui_live));
	return app->priv[TUI_LIVE];
}

static void on_chunk(void *ctx, struct tl_run *run, size_t cell)
{
	struct tui_job *job = ctx;

	(void)cell;
	tui_job_progress_set(job, atomic_load(&run->samples_done), run->samples_total);
	tui_job_wake(job); /* one non-blocking byte: sampling never waits on us */
}

/* The run is the job's argument and its answer the job's rc and why. */
static void run_main(struct tui_job *job)
{
	job->rc = tl_run_execute(job->arg, on_chunk, job, job->why, sizeof job->why);
}

size_t tui_live_pages(const struct tui_app *app)
{
	size_t per = app->lay.ncols ? app->lay.ncols : 1;
	return app->res.have ? (app->res.run.ntimers + per - 1) / per : 0;
}

bool tui_live_running(const struct tui_app *app)
{
	return TUI_LIVE(app)->sampling.live;
}

/* Distinct kernels of the visible cells, in run order. */
static int collect_kernels(struct tui_app *app)
{
	free(TUI_LIVE(app)->kernels);
	TUI_LIVE(app)->kernels = calloc(app->res.run.ncells ? app->res.run.ncells : 1, sizeof *TUI_LIVE(app)->kernels);
	TUI_LIVE(app)->nkernels = 0;
	if (!TUI_LIVE(app)->kernels)
		return -1;
	for (size_t i = 0; i < app->res.run.ncells; i++) {
		const struct tl_cell *c = &app->res.run.cells[i];
		size_t k;
		if (c->hidden)
			continue;
		for (k = 0; k < TUI_LIVE(app)->nkernels && strcmp(TUI_LIVE(app)->kernels[k], c->kernel.label); k++)
			;
		if (k == TUI_LIVE(app)->nkernels)
			snprintf(TUI_LIVE(app)->kernels[TUI_LIVE(app)->nkernels++], 64, "%s", c->kernel.label);
	}
	return 0;
}

static int views_alloc(struct tui_app *app)
{
	TUI_LIVE(app)->views = calloc(app->res.run.ncells ? app->res.run.ncells : 1, sizeof *TUI_LIVE(app)->views);
	if (!TUI_LIVE(app)->views)
		return -1;
	for (size_t i = 0; i < app->res.run.ncells; i++)
		TUI_LIVE(app)->views[i].done = SIZE_MAX;
	TUI_LIVE(app)->cur_flush = TUI_LIVE(app)->cur_kernel = TUI_LIVE(app)->page = 0;
	tui_ladder_reset(app);
	tui_series_reset(app);
	tui_baseline_reset(app);
	return collect_kernels(app);
}

/* The selected rows' labels as one list, "a,b,c" as the CLI's -b/-f/-k
 * take them (NULL when none is selected, or no memory). */
static char *join_selected(const struct tui_list *l)
{
	size_t len = 1;
	char *text, *at;

	for (size_t i = 0; i < l->n; i++)
		if (l->items[i].selected)
			len += strlen(l->items[i].label) + 1;
	if (len == 1 || !(text = malloc(len)))
		return NULL;
	at = text;
	for (size_t i = 0; i < l->n; i++)
		if (l->items[i].selected)
			at += sprintf(at, "%s%s", at == text ? "" : ",", l->items[i].label);
	return text;
}

/* Setup's selected rows go through the one parser the CLI's -b/-f/-k go
 * through (bench/selection.c): the same names give the same bytes and
 * kernels in both faces. The run copies its configuration
 * (tl_run_prepare), so the selection lives only as long as this call. */
static int prepare_from_setup(struct tui_app *app, char *why, size_t whylen)
{
	/* Setup's lists, in their order: backends, flush sizes, kernels */
	char *b = join_selected(&app->lists[0]);
	char *f = join_selected(&app->lists[1]);
	char *k = join_selected(&app->lists[2]);
	struct tl_selection sel;
	int rc = -1;

	if (!b || !f || !k) {
		snprintf(why, whylen, "select at least one %s (Space), then Enter",
			 !b ? "backend" : !f ? "flush size" : "kernel");
		goto out;
	}
	if (tl_selection_parse(&sel, b, f, k, app->opts.cpu, why, whylen) < 0)
		goto out;
	tui_live_free(app);
	struct tl_run_config cfg = {
		.n = app->opts.n, .cpu = app->opts.cpu, .seed = app->opts.seed, .chunk = 0,
		.cancel = tui_term_quit_flag(),
	};
	tl_selection_config(&sel, &cfg);
	rc = tl_run_prepare(&app->res.run, &cfg, why, whylen);
	tl_selection_free(&sel);
out:
	free(b);
	free(f);
	free(k);
	return rc;
}

/* A run whose flushes make it long is said before it starts, and starts on
 * a second Enter with the same shape: what was asked twice was meant. */
static int long_run_asked(struct tui_app *app, char *why, size_t whylen)
{
	struct tl_run_estimate e;
	uint64_t shape = app->res.run.ncells * 1000003u + app->res.run.cfg.n;
	char words[512];

	for (size_t i = 0; i < app->res.run.nflush; i++)
		shape = shape * 31 + app->res.run.flush_bytes[i];
	tl_run_estimate(&app->res.run, &e);
	TUI_LIVE(app)->eta_estimate_s = e.seconds; /* the ETA until samples give a rate */
	if (e.seconds <= TL_LONG_RUN_S || shape == TUI_LIVE(app)->long_asked) {
		TUI_LIVE(app)->long_asked = 0;
		return 0;
	}
	TUI_LIVE(app)->long_asked = shape;
	tl_run_estimate_words(&app->res.run, &e, words, sizeof words);
	snprintf(why, whylen, "a long run, %s: Enter again starts it; fewer samples (n) or a "
		 "smaller flush shortens it", words);
	tl_run_free(&app->res.run);
	memset(&app->res.run, 0, sizeof app->res.run);
	return -2;
}

int tui_live_start(struct tui_app *app, char *why, size_t whylen)
{
	int asked;

	if (prepare_from_setup(app, why, whylen) < 0)
		return -1;
	if ((asked = long_run_asked(app, why, whylen)) < 0)
		return asked;
	if (tui_term_quitting()) { /* nothing sampled yet: nothing to keep */
		tl_run_free(&app->res.run);
		memset(&app->res.run, 0, sizeof app->res.run);
		snprintf(why, whylen, "interrupted before sampling");
		return -1;
	}
	app->res.have = true;
	app->res.replay = false;
	app->res.interrupted = false;
	app->res.levels = tl_levels_cached();
	app->res.os = TL_OS_IFOREST;
	app->res.seed = app->opts.seed;
	if (views_alloc(app) < 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	tui_job_progress_set(&TUI_LIVE(app)->sampling, 0, app->res.run.samples_total);
	int rc = tui_job_start(&TUI_LIVE(app)->sampling, app, run_main, &app->res.run, true);
	if (rc) {
		snprintf(why, whylen, "cannot start the sampling thread: %s", strerror(rc));
		return -1;
	}
	TUI_LIVE(app)->t_start = tl_monotonic_s();
	TUI_LIVE(app)->t_end = 0;
	TUI_LIVE(app)->paused_s = 0;
	TUI_LIVE(app)->eta_done0 = 0;
	tui_affinity_ui(app, app->res.run.cpu);
	return 0;
}

int tui_live_load(struct tui_app *app, const char *path, char *why, size_t whylen)
{
	tui_live_free(app);
	memset(&app->res.run, 0, sizeof app->res.run);
	memset(&app->res.meta, 0, sizeof app->res.meta);
	if (tl_run_load(path, &app->res.run, &app->res.meta, why, whylen) < 0)
		return -1;
	app->res.have = true;
	app->res.replay = true;
	app->res.levels = NULL; /* the file's own host says what sized it */
	app->res.os = app->res.meta.os;
	app->res.seed = app->res.meta.seed;
	app->res.interrupted = app->res.meta.interrupted;
	app->node.host_json = app->res.meta.host;
	snprintf(app->res.path, sizeof app->res.path, "%s", path);
	if (views_alloc(app) < 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	return 0;
}

/* After the sampling thread: every view is analysed again from all its samples. */
static void live_joined(struct tui_app *app)
{
	TUI_LIVE(app)->t_end = tl_monotonic_s();
	for (size_t i = 0; i < app->res.run.ncells; i++)
		TUI_LIVE(app)->views[i].done = SIZE_MAX;
}

void tui_live_stop(struct tui_app *app)
{
	if (!TUI_LIVE(app)->sampling.live)
		return;
	atomic_store(&app->res.run.stop, true);
	atomic_store(&app->res.run.paused, false);
	tui_job_wait(&TUI_LIVE(app)->sampling);
	live_joined(app);
}

/* Drops what an analysis derived but keeps the sample buffer for the next one. */
static void view_reset(struct tui_view *v)
{
	v->nsorted = 0;
	if (v->have_hist)
		stats_histogram_free(&v->hist);
	v->have_hist = false;
	v->caveats = 0;
}

static void view_free(struct tui_view *v)
{
	view_reset(v);
	free(v->sorted);
	v->sorted = NULL;
	v->capsorted = 0;
	tui_noise_view_free(&v->noise);
}

/* Room for `need` kept samples: a growing cell's buffer grows by half
 * again (never past the cell's n), so re-analyses while sampling reuse it
 * instead of allocating the whole cell every time. */
static int view_reserve(struct tui_view *v, size_t need, size_t limit)
{
	if (need == 0)
		need = 1; /* a buffer, so the analysis always gets one and its cap */
	if (need <= v->capsorted)
		return 0;
	size_t cap = v->capsorted + v->capsorted / 2;
	if (cap < need)
		cap = need;
	if (cap > limit)
		cap = limit > need ? limit : need;
	double *p = realloc(v->sorted, cap * sizeof *p);
	if (!p)
		return -1;
	v->sorted = p;
	v->capsorted = cap;
	return 0;
}

void tui_live_free(struct tui_app *app)
{
	tui_live_stop(app);
	if (TUI_LIVE(app)->views)
		for (size_t i = 0; i < app->res.run.ncells; i++)
			view_free(&TUI_LIVE(app)->views[i]);
	free(TUI_LIVE(app)->views);
	TUI_LIVE(app)->views = NULL;
	free(TUI_LIVE(app)->kernels);
	TUI_LIVE(app)->kernels = NULL;
	TUI_LIVE(app)->nkernels = 0;
	if (app->res.have) {
		/* one free for a sampled run and a loaded one; only a loaded one has meta */
		tl_run_unload(&app->res.run, app->res.replay ? &app->res.meta : NULL);
		app->node.host_json = NULL;
	}
	app->res.have = false;
}

/* Seconds the run has been sampling (or warming up), pauses left out. */
static double active_s(const struct tui_app *app, double now)
{
	return now - TUI_LIVE(app)->t_start - TUI_LIVE(app)->paused_s -
	       (atomic_load(&app->res.run.paused) ? now - TUI_LIVE(app)->paused_at : 0);
}

static void views_for_frame(struct tui_app *app);
static void ladder_turn(struct tui_app *app);

void tui_live_poll(struct tui_app *app, bool shown)
{
	size_t done = atomic_load(&app->res.run.samples_done);

	/* The ETA's rate is taken from the first samples on: the warm-up and the
	 * resolution probe before them would stretch it. */
	if (TUI_LIVE(app)->sampling.live && !TUI_LIVE(app)->eta_done0 && done) {
		TUI_LIVE(app)->eta_done0 = done;
		TUI_LIVE(app)->eta_active0 = active_s(app, tl_monotonic_s());
	}
	if (tui_job_finished(&TUI_LIVE(app)->sampling)) {
		live_joined(app);
		/* the causes are in once the run closed: every view redone */
		for (size_t i = 0; i < app->res.run.ncells; i++)
			TUI_LIVE(app)->views[i].done = SIZE_MAX;
		if (TUI_LIVE(app)->sampling.rc < 0)
			tui_message(app, true, "sampling failed: %s", TUI_LIVE(app)->sampling.why);
		else {
			char lesson[TUI_MSG_MAX - 96];

			tui_lesson_run(app, lesson, sizeof lesson);
			tui_message(app, false, "run done: %zu samples in %.1f s. %s%se exports, s searches",
				    (size_t)atomic_load(&app->res.run.samples_done),
				    TUI_LIVE(app)->t_end - TUI_LIVE(app)->t_start, lesson,
				    lesson[0] ? ". " : "");
		}
	}
	ladder_turn(app);
	tui_baseline_poll(app);
	if (shown && app->res.have)
		views_for_frame(app);
}

size_t tui_live_cell(const struct tui_app *app, size_t timer, size_t flush, const char *kernel)
{
	for (size_t i = 0; i < app->res.run.ncells; i++) {
		const struct tl_cell *c = &app->res.run.cells[i];
		if (!c->hidden && c->timer == timer && c->flush == flush &&
		    strcmp(c->kernel.label, kernel) == 0)
			return i;
	}
	return SIZE_MAX;
}

/* Brings view `cell` up to date from run (the live run or a snapshot):
 * the summary and the very samples the filters kept (after filter_cost),
 * both from tl_cell_analyse_kept, sorted for the CDF, and the histogram. */
static void view_update(struct tui_app *app, const struct tl_run *run, size_t cell, size_t bins)
{
	struct tui_view *v = &TUI_LIVE(app)->views[cell];
	const struct tl_cell *c = &run->cells[cell];
	size_t done = tl_cell_done(run, cell);
	view_reset(v);
	v->done = atomic_load(&c->done);
	v->when = tl_monotonic_s();
	v->cost = 0;
	v->overhead_ns = c->overhead_ns;
	if (view_reserve(v, done, c->n) < 0) {
		/* No room for the plots: the numbers still show. */
		tl_cell_analyse(run, cell, app->res.os, app->res.seed, &v->an);
		v->caveats = tl_cell_caveats(c, &v->an);
		return;
	}
	size_t nkept = 0;
	int rc = tl_cell_analyse_until(run, cell, app->res.os, app->res.seed, tui_term_quit_flag(),
				       &v->an, v->sorted, v->capsorted, &nkept);
	if (rc > 0) { /* a signal: the exit is waiting, not this view */
		v->done = SIZE_MAX;
		return;
	}
	if (rc < 0 || !v->an.summary.n)
		return;
	v->caveats = tl_cell_caveats(c, &v->an);
	const struct tl_summary *s = &v->an.summary;
	v->nsorted = nkept;
	gsl_sort(v->sorted, 1, v->nsorted);
	double res = c->resolution_ns > 0 && isfinite(c->resolution_ns) ? c->resolution_ns : 0;
	if (!(res > 0))
		res = s->p99 > s->min ? (s->p99 - s->min) / (double)bins : 1.0;
	v->have_hist = stats_histogram(v->sorted, v->nsorted, res, bins ? bins : 1, s->min,
				       s->p99 >= s->min ? s->p99 : s->min, &v->hist) == 0;
	if (c->kernel.kind == TL_KERNEL_JITTER && done == c->n && !v->have_jit) {
		tl_jitter_analyse(run, cell, app->res.seed, &v->jit);
		v->have_jit = v->jit.ok;
	}
	tui_noise_view_update(&v->noise, run, cell);
	v->cost = tl_monotonic_s() - v->when;
}


/* Refreshes the views the screen shows. */
static void views_refresh(struct tui_app *app, const size_t *cells, size_t n, size_t bins)
{
	struct tl_run snap;
	bool live = TUI_LIVE(app)->sampling.live;
	bool have_snap = false;
	double now = tl_monotonic_s();
	for (size_t i = 0; i < n; i++) {
		size_t ci = cells[i];
		if (ci == SIZE_MAX)
			continue;
		if (tui_term_quitting())
			break; /* the signal's turn: it keeps the samples, not this */
		struct tui_view *v = &TUI_LIVE(app)->views[ci];
		size_t done = atomic_load(&app->res.run.cells[ci].done);
		/* A big cell's analysis takes long: the UI spends at most a fifth
		 * of its time on it, so keys stay answered. */
		double every = v->cost * 5 > REANALYSE_S ? v->cost * 5 : REANALYSE_S;
		bool stale = v->done == SIZE_MAX || (done != v->done && now - v->when >= every) ||
			     (v->have_hist && v->hist.nbins > bins);
		if (!stale)
			continue;
		if (!live) {
			view_update(app, &app->res.run, ci, bins);
			continue;
		}
		if (!have_snap) {
			tl_run_snapshot(&app->res.run, &snap);
			have_snap = true;
		}
		view_update(app, &snap, ci, bins);
	}
	if (have_snap)
		tl_run_snapshot_free(&snap);
}

/* The ladder's load cells (when it is on screen) brought up to date,
 * then its turn. */
static void ladder_turn(struct tui_app *app)
{
	size_t *cells = calloc(app->res.run.ncells ? app->res.run.ncells : 1, sizeof *cells);

	if (cells) {
		size_t n = tui_ladder_cells(app, cells, app->res.run.ncells);

		views_refresh(app, cells, n, (size_t)(app->lay.hist[0].w > 0 ? app->lay.hist[0].w : 1));
		free(cells);
	}
	tui_ladder_poll(app);
}

void tui_live_action(struct tui_app *app, enum tui_action a)
{
	size_t ntimers = app->res.run.ntimers;
	switch (a) {
	case TUI_ACT_LEFT:
		if (app->res.run.nflush)
			TUI_LIVE(app)->cur_flush = (TUI_LIVE(app)->cur_flush + app->res.run.nflush - 1) % app->res.run.nflush;
		break;
	case TUI_ACT_RIGHT:
		if (app->res.run.nflush)
			TUI_LIVE(app)->cur_flush = (TUI_LIVE(app)->cur_flush + 1) % app->res.run.nflush;
		break;
	case TUI_ACT_UP:
		if (TUI_LIVE(app)->nkernels)
			TUI_LIVE(app)->cur_kernel = (TUI_LIVE(app)->cur_kernel + TUI_LIVE(app)->nkernels - 1) % TUI_LIVE(app)->nkernels;
		break;
	case TUI_ACT_DOWN:
		if (TUI_LIVE(app)->nkernels)
			TUI_LIVE(app)->cur_kernel = (TUI_LIVE(app)->cur_kernel + 1) % TUI_LIVE(app)->nkernels;
		break;
	case TUI_ACT_PANE:
		TUI_LIVE(app)->page += app->lay.ncols;
		if (TUI_LIVE(app)->page >= ntimers)
			TUI_LIVE(app)->page = 0;
		break;
	case TUI_ACT_PAUSE:
		if (!TUI_LIVE(app)->sampling.live) {
			tui_message(app, false, "nothing is sampling");
		} else {
			bool p = !atomic_load(&app->res.run.paused);
			atomic_store(&app->res.run.paused, p);
			/* the ETA counts sampling time only: a pause must not grow it */
			if (p)
				TUI_LIVE(app)->paused_at = tl_monotonic_s();
			else
				TUI_LIVE(app)->paused_s += tl_monotonic_s() - TUI_LIVE(app)->paused_at;
			tui_message(app, false, p ? "paused: p resumes" : "resumed");
		}
		break;
	case TUI_ACT_LADDER:
		tui_ladder_toggle(app);
		break;
	case TUI_ACT_AXIS:
	case TUI_ACT_SEL_NEXT:
	case TUI_ACT_HIDE:
	case TUI_ACT_SOLO:
	case TUI_ACT_SHOW_ALL:
		tui_series_action(app, a);
		break;
	default:
		break;
	}
	app->dirty = true;
}

/* ---- drawing ---- */

/* Seconds while they are few (the progress line is short), then minutes or hours. */
static void seconds_words(double s, char *buf, size_t len)
{
	if (s < 600)
		snprintf(buf, len, "%.0fs", s);
	else
		tl_duration_words(s, buf, len);
}

/* "ETA 12 min": from the rate since the first samples were seen, or over
 * the whole run while those are all there is; before any, the estimate the
 * run started with (its flushes timed on its own buffers), marked "~". */
static void eta_words(const struct tui_app *app, size_t done, size_t total, char *buf, size_t len)
{
	double el = active_s(app, tl_monotonic_s()), eta;
	char words[32];

	if (!done) {
		if (!(TUI_LIVE(app)->eta_estimate_s > 0)) {
			snprintf(buf, len, "starting");
			return;
		}
		seconds_words(TUI_LIVE(app)->eta_estimate_s > el ? TUI_LIVE(app)->eta_estimate_s - el : 0, words,
			      sizeof words);
		snprintf(buf, len, "ETA ~%s", words);
		return;
	}
	if (TUI_LIVE(app)->eta_done0 && done > TUI_LIVE(app)->eta_done0 && el > TUI_LIVE(app)->eta_active0)
		eta = (el - TUI_LIVE(app)->eta_active0) * (double)(total - done) /
		      (double)(done - TUI_LIVE(app)->eta_done0);
	else
		eta = el * (double)(total - done) / (double)done;
	seconds_words(eta, words, sizeof words);
	snprintf(buf, len, "ETA %s", words);
}

static void draw_progress(const struct tui_app *app, struct tui_hits *hits)
{
	const struct tui_rect *r = &app->lay.progress;
	size_t done = atomic_load(&app->res.run.samples_done), total = app->res.run.samples_total;
	double frac = total ? (double)done / (double)total : 1.0;
	char flush[96], left[96];
	tl_run_flush_label(&app->res.run, TUI_LIVE(app)->cur_flush, flush, sizeof flush);
	int barw = r->w >= 120 ? 30 : 12;
	int x = r->x;
	int full = (int)(frac * barw * 8 + 0.5);
	for (int i = 0; i < barw; i++) {
		long e = full - 8L * i;
		const char *g = app->tier == TUI_TIER_UTF8
					? (e >= 8 ? "█" : e <= 0 ? "░" : tui_bar_glyph(app->tier, e, 0))
					: (e >= 4 ? "#" : "-");
		x += tui_put(r->y, x, r->x + r->w - x, tui_attr_series(app, 1), g);
	}
	if (app->res.replay)
		snprintf(left, sizeof left, " replay%s", app->res.interrupted ? " (interrupted session)" : "");
	else if (TUI_LIVE(app)->sampling.live) {
		char eta[40];

		eta_words(app, done, total, eta, sizeof eta);
		snprintf(left, sizeof left, " %3.0f%% %zu/%zu %s%s", 100 * frac, done, total, eta,
			 atomic_load(&app->res.run.paused) ? " PAUSED" : "");
	} else
		snprintf(left, sizeof left, " %3.0f%% done in %.1fs", 100 * frac,
			 TUI_LIVE(app)->t_end - TUI_LIVE(app)->t_start);
	x += tui_put(r->y, x, r->x + r->w - x, tui_attr(app, TUI_ROLE_HI), left);
	/* the page indicator keeps the row's right end; the rest gets what is left */
	char page[40] = "";
	size_t pages = tui_live_pages(app);
	if (pages > 1)
		snprintf(page, sizeof page, "  page %zu/%zu, Tab ",
			 TUI_LIVE(app)->page / (app->lay.ncols ? app->lay.ncols : 1) + 1, pages);
	int pw = (int)strlen(page), end = r->x + r->w - pw;
	bool u = app->tier == TUI_TIER_UTF8;
	struct {
		const char *text;
		int nav; /* index into hits->nav_x, -1: not clickable */
	} parts[] = {{"  flush ", -1}, {u ? "◀" : "<", 0}, {" ", -1}, {flush, -1}, {" ", -1},
		     {u ? "▶" : ">", 1}, {"  kernel ", -1}, {u ? "▲" : "^", 2}, {" ", -1},
		     {TUI_LIVE(app)->nkernels ? TUI_LIVE(app)->kernels[TUI_LIVE(app)->cur_kernel] : "-", -1}, {" ", -1},
		     {u ? "▼" : "v", 3}};
	memset(hits->nav_x, 0, sizeof hits->nav_x);
	hits->nav_y = r->y;
	int fg = tui_attr(app, TUI_ROLE_MAIN_FG);
	for (size_t i = 0; i < sizeof parts / sizeof parts[0] && x < end; i++) {
		int used = tui_put(r->y, x, end - x, fg, parts[i].text);
		if (parts[i].nav >= 0 && used > 0) {
			/* a click one column either side still counts: arrows are small */
			hits->nav_x[parts[i].nav][0] = x - 1;
			hits->nav_x[parts[i].nav][1] = x + used + 1;
		}
		x += used;
	}
	if (x < end)
		x += tui_putf(r->y, x, end - x, fg, "  CPU %d", app->res.run.cpu);
	if (pw && end > r->x) {
		tui_put(r->y, end, pw, tui_attr(app, TUI_ROLE_HI) | A_BOLD, page);
		hits->nav_x[4][0] = end;
		hits->nav_x[4][1] = end + pw;
	}
}

static void draw_hist(const struct tui_app *app, const struct tui_rect *r, size_t timer, int series,
		      const struct tui_view *v, const struct tl_histogram *h)
{
	const struct tl_timer *t = &app->res.run.timers[timer];
	int sa = tui_attr_series(app, series);
	int x = r->x;
	/* the selected backend (b) is the one v and o act on */
	int sel = timer == TUI_LIVE(app)->series.sel && app->res.run.ntimers > 1 ? (int)A_REVERSE : 0;
	x += tui_putf(r->y, x, r->w, sa | A_BOLD | sel, "%s %s", tui_series_glyph(app->tier, series),
		      t->id);
	if (t->backend && t->backend->simulated)
		tui_put(r->y, x, r->x + r->w - x, tui_attr(app, TUI_ROLE_WARN), " (simulated)");
	int rows = r->h - 2;
	if (!tui_series_shown(app, timer)) {
		tui_put(r->y + 1, r->x, r->w, tui_attr(app, TUI_ROLE_INACTIVE),
			"hidden: v shows it, a all");
		return;
	}
	if (!v || !h || !h->nbins || rows <= 0) {
		tui_put(r->y + 1, r->x, r->w, tui_attr(app, TUI_ROLE_INACTIVE),
			v && v->done != SIZE_MAX ? "waiting for samples" : "");
		return;
	}
	double peak = 0;
	for (size_t b = 0; b < h->nbins; b++)
		if (h->counts[b] > peak)
			peak = h->counts[b];
	for (int col = 0; col < r->w; col++) {
		size_t b = (size_t)col * h->nbins / (size_t)r->w;
		/* A bin wider than one column fills its columns; narrower ones never happen. */
		long e = peak > 0 ? (long)(h->counts[b] / peak * rows * 8 + 0.5) : 0;
		if (h->counts[b] > 0 && e == 0)
			e = 1;
		for (int row = 0; row < rows; row++)
			tui_put(r->y + rows - row, r->x + col, 1, sa, tui_bar_glyph(app->tier, e, row));
	}
	tui_noise_view_draw_marks(app, r, rows, peak, h, &v->noise);
	char lo[24], hi[24];
	tui_fmt_ns(h->lo, lo, sizeof lo);
	tui_fmt_ns(h->lo + h->width * (double)h->nbins, hi, sizeof hi);
	int y = r->y + r->h - 1;
	tui_put(y, r->x, r->w, tui_attr(app, TUI_ROLE_INACTIVE), lo);
	/* The caused column at the right edge is named under itself: its '^'
	 * ends the axis row, so a full-height column never reads as a bin. */
	char tail[3][64], above[32] = "";
	size_t past = r->w >= 2 ? tui_noise_view_past(&v->noise, h) : 0;

	if (h->above)
		snprintf(above, sizeof above, " +%zu>", h->above);
	snprintf(tail[0], sizeof tail[0], "%s%s  %zu caused ^", hi, above, past);
	snprintf(tail[1], sizeof tail[1], "%s%s %zu^", hi, above, past);
	snprintf(tail[2], sizeof tail[2], "%s%s", hi, above);
	for (int k = past ? 0 : 2; k < 3; k++) {
		int tl = (int)strlen(tail[k]);

		if (tl < r->w - (int)strlen(lo) - 1) {
			tui_put(y, r->x + r->w - tl, tl, tui_attr(app, TUI_ROLE_INACTIVE), tail[k]);
			break;
		}
	}
}

/* A summary statistic at one decimal. A measured value that rounds to
 * zero stays "0.0" (a number, like its neighbours), but never "-0.0": an
 * empty cell's mean of -0.03 ns is no negative time. */
static void fmt1(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", fabs(v) < 0.05 ? 0.0 : v);
}

/* A shift at one decimal, as tl_shift_text does at two: what rounds to
 * zero is "0" (never "-0.0", "+0.0" or "0.0"); sign: "+" before positives. */
/* The lecture's answer under each backend: whether this timer sees the
 * injected ADDs, with the measured shift and its interval, in the
 * sentence the CLI prints (io/jitter.h). A cell whose controls fail is
 * drawn unreliable, never sees or cannot. */
static void draw_verdict(const struct tui_app *app, int y, const struct tui_rect *r,
			 const struct tl_cell *c, const struct tui_view *v)
{
	const struct tl_jitter *j = &v->jit;

	if (!v->have_jit) {
		tui_put(y, r->x, r->w, tui_attr(app, TUI_ROLE_INACTIVE), "verdict when the cell is done");
		return;
	}
	char line[240];
	int attr = tui_attr(app, j->detected && !j->unreliable ? TUI_ROLE_MAIN_FG : TUI_ROLE_WARN) |
		   A_BOLD;

	tl_jitter_sentence(c, j, r->w, line, sizeof line);
	tui_put(y, r->x, r->w, attr, line);
}

/* The cell's two controls, one row each, as the CLI's controls line says
 * them; a failed one in the warning colour. */
static int draw_controls(const struct tui_app *app, int y, const struct tui_rect *r,
			 const struct tl_cell *c, const struct tui_view *v)
{
	static const enum tl_jitter_arm arms[] = { TL_JITTER_AA, TL_JITTER_SWAPPED };
	const struct tl_jitter *j = &v->jit;

	for (size_t i = 0; i < 2; i++) {
		char line[240];
		bool failed = j->unreliable &&
			      (arms[i] == TL_JITTER_AA ? j->fault == TL_JITTER_FAULT_AA_EMPTY ||
							 j->fault == TL_JITTER_FAULT_AA_SHIFT
						       : j->fault == TL_JITTER_FAULT_SW_EMPTY ||
							 j->fault == TL_JITTER_FAULT_SW_APART);

		tl_jitter_control_text(c, j, arms[i], r->w, line, sizeof line);
		tui_put(y++, r->x, r->w,
			tui_attr(app, failed ? TUI_ROLE_WARN : TUI_ROLE_INACTIVE), line);
	}
	return 2;
}

/* A warning in the summary: the first form wrapped when the rows left take
 * it whole, else the longest other form that fits one row with a space to
 * spare (columns touch: a cut word would read as the next column's). */
static void put_fitting(const struct tui_app *app, int *y, const struct tui_rect *r,
			const char *const *forms)
{
	char rows[8][TUI_WRAP_LINE];
	int w = r->w - 1, left = r->y + r->h - *y, attr = tui_attr(app, TUI_ROLE_WARN);
	size_t n = tui_wrap(forms[0], w, rows, 8);
	if (n == 1 || (int)n <= left) {
		for (size_t i = 0; i < n && i < 8; i++)
			tui_put((*y)++, r->x, w, attr, rows[i]);
		return;
	}
	for (size_t i = 1; forms[i]; i++)
		if ((int)strlen(forms[i]) <= w || !forms[i + 1]) {
			tui_put((*y)++, r->x, w, attr, forms[i]);
			return;
		}
}

static void draw_summary(const struct tui_app *app, const struct tui_rect *r, const struct tl_cell *c,
			 const struct tui_view *v)
{
	int a = tui_attr(app, TUI_ROLE_MAIN_FG), dim = tui_attr(app, TUI_ROLE_INACTIVE);
	if (!v || v->done == SIZE_MAX || !v->an.summary.n) {
		tui_put(r->y, r->x, r->w, dim, "no samples yet");
		return;
	}
	const struct tl_summary *s = &v->an.summary;
	struct {
		const char *k;
		double v;
	} f[] = {{"min", s->min}, {"max", s->max}, {"p1", s->p1},     {"p5", s->p5},
		 {"p50", s->p50}, {"p95", s->p95}, {"p99", s->p99},   {"mean", s->mean},
		 {"sd", s->sd}};
	char cv[24], te[24], res[24], val[24], val2[24];
	if (tl_cell_shows_cv(c, &v->an))
		snprintf(cv, sizeof cv, "%.2f%%", 100 * s->cv);
	else
		snprintf(cv, sizeof cv, "-");
	fmt1(te, sizeof te, v->overhead_ns);
	if (isnan(c->resolution_ns))
		snprintf(res, sizeof res, "-");
	else
		snprintf(res, sizeof res, "%.2f", c->resolution_ns);
	int y = r->y;
	bool longform = r->h >= TUI_SUMMARY_LONG;
	/* Which filter decided is named when it is not the method chosen (a
	 * fallback or the lattice-level guard ran); its note follows below. */
	if (stats_os_said(&v->an.os) && strcmp(v->an.os.ran, stats_os_method_name(v->an.os.method)))
		tui_putf(y++, r->x, r->w, a, "n %zu  os_rm %zu  %s", s->n, s->os_removed,
			 v->an.os.ran);
	else
		tui_putf(y++, r->x, r->w, a, "n %zu  os_rm %zu", s->n, s->os_removed);
	y += tui_noise_view_draw_line(app, y, r->x, r->w, &v->noise); /* what os_rm's were */
	/* A done jitter cell's controls take the rows of its outer quantiles
	 * (min/max and p1/p5 two to a row, p1 and p5 one to a row): the lesson
	 * reads the verdict and its controls, not the tails. */
	bool controls = c->kernel.kind == TL_KERNEL_JITTER && v->have_jit && v->jit.controls;
	if (c->kernel.kind == TL_KERNEL_JITTER)
		draw_verdict(app, y++, r, c, v);
	if (controls)
		y += draw_controls(app, y, r, c, v);
	char bl[160];
	bool bad, bdim;
	if (tui_baseline_line(app, (size_t)(c - app->res.run.cells), r->w, bl, sizeof bl, &bad, &bdim))
		tui_put(y++, r->x, r->w,
			bdim ? dim : tui_attr(app, bad ? TUI_ROLE_WARN : TUI_ROLE_OK) | (int)A_BOLD, bl);
	if (longform) {
		for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
			if (controls && (!strcmp(f[i].k, "p1") || !strcmp(f[i].k, "p5")))
				continue;
			fmt1(val, sizeof val, f[i].v);
			int fa = strcmp(f[i].k, "p50") == 0 ? a | (int)A_BOLD : a;
			tui_putf(y++, r->x, r->w, fa, "%-5s %12s ns", f[i].k, val);
		}
		tui_putf(y++, r->x, r->w, a | A_BOLD, "%-5s %12s", "CV", cv);
	} else {
		for (size_t i = controls ? 4 : 0; i + 1 < sizeof f / sizeof f[0]; i += 2) {
			fmt1(val, sizeof val, f[i].v);
			fmt1(val2, sizeof val2, f[i + 1].v);
			tui_putf(y++, r->x, r->w, a, "%-4s%8s %-4s%8s", f[i].k, val, f[i + 1].k, val2);
		}
		fmt1(val, sizeof val, s->sd);
		tui_putf(y++, r->x, r->w, a | A_BOLD, "%-4s%8s %-4s%8s", "sd", val, "CV", cv);
	}
	if (y < r->y + r->h)
		tui_putf(y++, r->x, r->w, dim, "t_e,std %s res %s", te, res);
	/* An overhead larger than the kernel's own time (a syscall timer on
	 * add:500) is subtracted with its run-to-run noise: the median then
	 * moves between runs by more than the body it measures, and an odd
	 * min (500 ADDs in 40 ns) is that subtraction, not the CPU. Said
	 * before the drift: that noise is often what the drift shows. */
	if ((v->caveats & TL_CAVEAT_NOISY_OVERHEAD) && y < r->y + r->h) {
		char n0[160], n1[64];
		snprintf(n0, sizeof n0,
			 "t_e,std is %.0fx the kernel's time: subtracting a noisy overhead moves "
			 "p50 and min from run to run",
			 v->overhead_ns / s->p50);
		snprintf(n1, sizeof n1, "t_e,std %.0fx the kernel: noisy", v->overhead_ns / s->p50);
		put_fitting(app, &y, r, (const char *[]){n0, n1, "t_e > kernel: noisy", NULL});
	}
	/* CV's floor when the level moved during the run (stats_drift); the
	 * info screen's clock probe tells whether the core clock is why. */
	if ((v->caveats & TL_CAVEAT_DRIFT) && y < r->y + r->h) {
		char d[3][48];
		snprintf(d[0], sizeof d[0], "drift %.2f%% (level moved)", 100.0 * v->an.drift.rel_sd);
		snprintf(d[1], sizeof d[1], "drift %.2f%% (moved)", 100.0 * v->an.drift.rel_sd);
		snprintf(d[2], sizeof d[2], "drift %.2f%%", 100.0 * v->an.drift.rel_sd);
		put_fitting(app, &y, r, (const char *[]){d[0], d[1], d[2], NULL});
	}
	/* Negative times are the filter_cost's doing, and said so: t_e,std
	 * (a median) is taken off every sample. */
	if ((v->caveats & TL_CAVEAT_NEGATIVE) && y < r->y + r->h)
		put_fitting(app, &y, r,
			    c->kernel.kind == TL_KERNEL_EMPTY
				    ? (const char *[]){"min < 0: t_e,std is taken off, so empty is "
						       "centred on 0",
						       "min < 0: centred on 0", NULL}
				    : (const char *[]){"min < 0: the timer's own cost varies more than "
						       "this kernel's",
						       "min < 0: t_e varies more", "min < 0", NULL});
	/* The pitfall is said, not hidden: an inactive filter's note, or what
	 * ran instead, wrapped. */
	if (stats_os_said(&v->an.os)) {
		const char *p = v->an.os.note;
		char lines[8][TUI_WRAP_LINE], head[200];
		/* A note the rows left cannot hold whole shows its first clause
		 * ("OS-noise filter inactive"), never a sentence cut mid-phrase;
		 * report and the JSON keep the whole note. */
		int left = r->y + r->h - y;
		if (r->w > 1 && left > 0 && (int)tui_wrap(p, r->w, lines, 0) > left) {
			if (strncmp(p, "OS-noise filter", 15) == 0) {
				snprintf(head, sizeof head, "%.*s", (int)strcspn(p, ":("), p);
			} else { /* what ran, in the rows there are, and a sign of more */
				size_t n = tui_wrap(p, r->w - 1, lines, 8);
				int k = left < (int)n ? left : (int)n;
				size_t used = 0;
				head[0] = '\0';
				for (int i = 0; i < k && i < 8; i++)
					used += (size_t)snprintf(head + used, sizeof head - used, "%s%s",
								 i ? " " : "", lines[i]);
				if (used < sizeof head - 4)
					snprintf(head + used, sizeof head - used, "%s",
						 app->tier == TUI_TIER_UTF8 ? "…" : "~");
			}
			p = head;
		}
		y = tui_put_wrapped(y, r->x, r->w, r->y + r->h, 0, tui_attr(app, TUI_ROLE_WARN), p);
	}
}

/* Column i of the page: its view (NULL when the cell is not in this run)
 * and its series, the same in the histograms and the CDF legend. */
static const struct tui_view *column_view(const struct tui_app *app, const size_t *cells, size_t i)
{
	return cells[i] == SIZE_MAX ? NULL : &TUI_LIVE(app)->views[cells[i]];
}

static bool column_shown(const struct tui_app *app, const size_t *cells, size_t i)
{
	return cells[i] != SIZE_MAX && tui_series_shown(app, app->res.run.cells[cells[i]].timer);
}

static int column_series(const struct tui_app *app, size_t i)
{
	return (int)((TUI_LIVE(app)->page + i) % TUI_NSERIES);
}

/* The baseline's CDF of the cell, dashed and dim in the series' colour. */
static void draw_ghost(struct tui_canvas *cv, const struct tui_app *app, size_t cell, int series,
		       double lo, double hi)
{
	const double *gs;
	size_t gn;
	double gmin, gp99;

	if (tui_baseline_ghost(app, cell, &gs, &gn, &gmin, &gp99))
		tui_canvas_cdf(cv, gs, gn, lo, hi, TUI_GHOST_SERIES + series, TUI_CDF_GHOST);
}

static void draw_cdf(const struct tui_app *app, const size_t *cells, size_t n)
{
	const struct tui_rect *r = &app->lay.cdf;
	int lab = 5;
	int w = r->w - lab - 1, h = r->h - 2;
	int x = r->x;
	x += tui_put(r->y, x, r->w, tui_attr(app, TUI_ROLE_TITLE), "CDF (ns after filters, to p99)");
	for (size_t i = 0; i < n; i++) {
		if (!column_shown(app, cells, i))
			continue;
		int series = column_series(app, i);
		x += tui_putf(r->y, x, r->x + r->w - x, tui_attr_series(app, series), "  %s %s",
			      tui_series_glyph(app->tier, series),
			      app->res.run.timers[app->res.run.cells[cells[i]].timer].id);
	}
	/* The histograms end at p99: their "+N>" says how many samples lie past it. */
	bool above = false;
	for (size_t i = 0; i < n; i++) {
		const struct tui_view *v = column_view(app, cells, i);
		const struct tl_histogram *hg = tui_series_hist(app, i, v);
		above |= column_shown(app, cells, i) && hg && hg->above;
	}
	static const char *const legend[] = {"  +N> on an axis: N samples above p99, off it",
					     "  +N>: N above p99", NULL};
	for (size_t i = 0; above && legend[i]; i++)
		if ((int)strlen(legend[i]) <= r->x + r->w - x) {
			tui_put(r->y, r->x + r->w - (int)strlen(legend[i]), (int)strlen(legend[i]),
				tui_attr(app, TUI_ROLE_INACTIVE), legend[i]);
			break;
		}
	if (w < 4 || h < 2)
		return;
	/* the shown series' range: a hidden slow timer no longer squashes the rest */
	double lo = TUI_LIVE(app)->series.lo, hi = TUI_LIVE(app)->series.hi;
	for (size_t i = 0; i < n; i++) {
		const double *gs;
		size_t gn;
		double gmin, gp99;
		if (column_shown(app, cells, i) &&
		    tui_baseline_ghost(app, cells[i], &gs, &gn, &gmin, &gp99)) {
			lo = gmin < lo ? gmin : lo;
			hi = gp99 > hi ? gp99 : hi;
		}
	}
	tui_put_cdf_yaxis(app, r, lab);
	struct tui_canvas cv;
	if (tui_canvas_init_range(&cv, w, h, lo, &hi) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct tui_view *v = column_view(app, cells, i);
		int series = column_series(app, i);
		if (column_shown(app, cells, i))
			draw_ghost(&cv, app, cells[i], series, lo, hi);
		if (!v || !v->nsorted || !column_shown(app, cells, i))
			continue;
		/* Without 256 colours the curves differ by line style and carry
		 * their glyph every third of the way, as the plots' do. */
		bool plain = app->colours < 256;
		int cx0 = (int)((long)w * (long)(i + 1) / (long)(n + 1));

		tui_canvas_cdf(&cv, v->sorted, v->nsorted, lo, hi, series,
			       plain ? TUI_CDF_STYLED : TUI_CDF_SOLID);
		/* The series' glyph on its own curve, spaced apart per series. */
		for (int k = 0; k < (plain ? 3 : 1); k++)
			tui_canvas_cdf_mark(&cv, v->sorted, v->nsorted, lo, hi, (cx0 + k * w / 3) % w,
					    series);
	}
	tui_put_canvas(app, r->y + 1, r->x + lab + 1, &cv);
	tui_canvas_free(&cv);
	tui_put_ns_xaxis(app, r, lab + 1, lo, hi);
}

/* The cells of the page shown (SIZE_MAX where the kernel has none); returns
 * how many columns. */
static size_t shown_cells(const struct tui_app *app, size_t cells[TUI_MAX_COLS])
{
	size_t n = app->lay.ncols;
	if (TUI_LIVE(app)->page >= app->res.run.ntimers)
		return 0;
	if (n > app->res.run.ntimers - TUI_LIVE(app)->page)
		n = app->res.run.ntimers - TUI_LIVE(app)->page;
	const char *kern = TUI_LIVE(app)->nkernels ? TUI_LIVE(app)->kernels[TUI_LIVE(app)->cur_kernel] : "";
	for (size_t i = 0; i < n; i++)
		cells[i] = tui_live_cell(app, TUI_LIVE(app)->page + i, TUI_LIVE(app)->cur_flush, kern);
	return n;
}

/* What the screen is about to show, brought up to date: the page fitted to
 * the layout, the shown cells' views (the analyses, throttled), the series'
 * histograms. Only while Live is on screen, as drawing used to. */
static void views_for_frame(struct tui_app *app)
{
	size_t cells[TUI_MAX_COLS];
	size_t n = app->lay.ncols;
	/* pages start at multiples of the columns that fit now: after a resize
	 * a wider screen shows every backend it has room for, from the first */
	if (TUI_LIVE(app)->page >= app->res.run.ntimers || n >= app->res.run.ntimers || !n)
		TUI_LIVE(app)->page = 0;
	else
		TUI_LIVE(app)->page -= TUI_LIVE(app)->page % n;
	n = shown_cells(app, cells);
	size_t bins = (size_t)(app->lay.hist[0].w > 0 ? app->lay.hist[0].w : 1);
	views_refresh(app, cells, n, bins);
	tui_series_refresh(app, cells, n, bins);
}

void tui_live_draw(const struct tui_app *app, struct tui_hits *hits)
{
	if (!app->res.have) {
		tui_put_empty(app, "no run yet: pick backends, flush sizes and kernels on Setup, then Enter");
		return;
	}
	size_t cells[TUI_MAX_COLS];
	size_t n = shown_cells(app, cells);
	draw_progress(app, hits);
	if (TUI_LIVE(app)->ladder_on) {
		tui_ladder_draw(app);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct tui_view *v = column_view(app, cells, i);
		draw_hist(app, &app->lay.hist[i], TUI_LIVE(app)->page + i, column_series(app, i), v,
			  tui_series_hist(app, i, v));
		if (cells[i] != SIZE_MAX)
			draw_summary(app, &app->lay.summary[i], &app->res.run.cells[cells[i]], v);
	}
	draw_cdf(app, cells, n);
}

/* The frame goes out only while no timed window is open on the sampling
 * CPU; a frame that cannot find a gap soon is skipped, never forced. The
 * window is one timed call (bench/runner.c), so a gap comes after every
 * sample and for the whole of every flush. */
bool tui_live_may_draw(const struct tui_app *app)
{
	if (!TUI_LIVE(app)->sampling.live || atomic_load(&app->res.run.paused))
		return true;
	double until = tl_monotonic_s() + WINDOW_WAIT_S;
	do {
		for (int i = 0; i < 256; i++)
			if (!atomic_load_explicit(&app->res.run.in_timed_window, memory_order_acquire))
				return true;
	} while (tl_monotonic_s() < until);
	return false;
}

static const char *live_absent(const struct tui_app *app)
{
	return app->res.have ? NULL : "no run yet: Enter on Setup runs the selection live";
}

/* Live owns the ladder view and the baseline's ghosts: they go with it. */
static void live_free(struct tui_app *app)
{
	tui_live_free(app);
	tui_ladder_free(app);
	tui_series_free(app);
	tui_baseline_free(app);
	free(app->priv[TUI_LIVE]);
	app->priv[TUI_LIVE] = NULL;
}

/* A replayed run opens on Live. */
static const char *live_opens(const struct tui_app *app)
{
	return app->res.replay ? "" : NULL;
}

/* Its histograms' axis mode, and the baseline compared with, first on the
 * title row. */
static void live_title(const struct tui_app *app, char *buf, size_t len)
{
	const char *bl = tui_baseline_path(app), *slash = bl ? strrchr(bl, '/') : NULL;

	if (!app->res.have)
		return;
	tui_series_mode(app, buf, len);
	if (bl)
		snprintf(buf + strlen(buf), len - strlen(buf), "  vs %s", slash ? slash + 1 : bl);
}

/* A click on the progress row's arrows and page indicator: the action of
 * the key they stand for. */
static bool live_click(struct tui_app *app, int y, int x, bool click)
{
	static const enum tui_action nav[5] = {TUI_ACT_LEFT, TUI_ACT_RIGHT, TUI_ACT_UP,
					       TUI_ACT_DOWN, TUI_ACT_PANE};
	const struct tui_hits *h = &app->shell.hits;

	(void)click;
	if (!app->res.have || y != h->nav_y)
		return false;
	for (int i = 0; i < 5; i++)
		if (x >= h->nav_x[i][0] && x < h->nav_x[i][1]) {
			tui_live_action(app, nav[i]);
			return true;
		}
	return false;
}

static void live_init(struct tui_app *app)
{
	(void)tui_live_mut(app);
}

const struct tui_screen_ops tui_live_screen = {
	.name = "Live",
	.absent = live_absent,
	.opens = live_opens,
	.init = live_init,
	.title = live_title,
	.click = live_click,
	.poll = tui_live_poll,
	.draw = tui_live_draw,
	.action = tui_live_action,
	.free = live_free,
};
