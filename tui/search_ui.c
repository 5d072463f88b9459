#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/search_engine.h"
#include "bench/size.h"
#include "io/host_json.h"
#include "io/results.h"
#include "tui/app.h"
#include "tui/curses.h"

/* Searches run on a worker pinned to the sampling CPU; the stats/ code
 * reports every evaluated point through the observer, which only appends
 * under a mutex and wakes the event loop. */

struct obs_ctx {
	struct tui_app *app;
	size_t row;
};

struct search_job {
	struct tui_app *app;
	int cpu;
	size_t n;
	uint64_t seed;
	struct obs_ctx *obs;
};

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

static void observe(void *ctx, int kind, uint64_t x, double y)
{
	struct obs_ctx *o = ctx;
	struct tui_app *app = o->app;
	struct tui_search_row *r = &app->rows_s[o->row];
	pthread_mutex_lock(&app->search_mu);
	if (kind == 0)
		push(&r->cv_x, &r->cv_y, &r->ncv, &r->capcv, x, y);
	else
		push(&r->ov_x, &r->ov_y, &r->nov, &r->capov, x, y);
	pthread_mutex_unlock(&app->search_mu);
	tui_wake(app);
}

static void set_state(struct tui_app *app, struct tui_search_row *r, int state, const char *why)
{
	pthread_mutex_lock(&app->search_mu);
	r->state = state;
	if (why)
		snprintf(r->why, sizeof r->why, "%.250s", why);
	pthread_mutex_unlock(&app->search_mu);
	tui_wake(app);
}

static void search_one(struct search_job *job, size_t i)
{
	struct tui_app *app = job->app;
	struct tui_search_row *row = &app->rows_s[i];
	const char *id = row->id;
	uint64_t bytes = row->bytes;
	struct tl_timer t;
	struct tl_flush f;
	struct tl_search_engine e;
	char why[512];

	set_state(app, row, 1, NULL);
	if (tl_timer_open(&t, id, why, sizeof why) < 0) {
		set_state(app, row, -1, why);
		return;
	}
	if (tl_flush_init(&f, bytes, why, sizeof why) < 0) {
		tl_timer_close(&t);
		set_state(app, row, -1, why);
		return;
	}
	tl_search_engine_init(&e, &t, &f, &app->search_stop);

	struct tl_search_params p;
	tl_search_params_default(&p);
	p.n = job->n;
	p.seed = job->seed;
	p.resolution_ns = tl_timer_resolution(&t, 1000) * t.ns_per_unit;
	p.overhead_ns = tl_search_engine_overhead(&e, 2001);
	double slope = NAN;
	if (isnan(p.overhead_ns) ||
	    tl_search_engine_ns_per_add(&e, 4000, 5, 501, &slope, NULL) < 0 || !(slope > 0)) {
		set_state(app, row, -1,
			  atomic_load(&app->search_stop) ? "stopped" : "ns per ADD could not be fitted");
		goto out;
	}
	p.ns_per_add = slope;

	struct tl_search_io io = {tl_search_engine_measure, &e, observe, &job->obs[i],
				  &app->search_stop};
	struct tl_search_result r1, r2;
	memset(&r1, 0, sizeof r1);
	memset(&r2, 0, sizeof r2);
	int rc = tl_search_tmin(&p, &io, &r1);
	pthread_mutex_lock(&app->search_mu);
	row->tmin = r1;
	row->state = rc < 0 ? -1 : 2;
	if (rc < 0)
		snprintf(row->why, sizeof row->why, "%s", r1.note);
	pthread_mutex_unlock(&app->search_mu);
	tui_wake(app);
	if (rc == 0 && r1.converged) {
		rc = tl_search_tdiff(&p, &io, r1.adds, &r2);
		pthread_mutex_lock(&app->search_mu);
		row->tdiff = r2;
		if (rc < 0)
			snprintf(row->why, sizeof row->why, "%s", r2.note);
		pthread_mutex_unlock(&app->search_mu);
	}
	set_state(app, row, rc < 0 ? -1 : 3, NULL);
out:
	tl_search_engine_free(&e);
	tl_flush_free(&f);
	tl_timer_close(&t);
}

/* Ratios to the reference backend under the same flush: how many times
 * smaller its t_min and t_diff are (the paper's "more precise/sensitive"). */
static void ratios(struct tui_app *app)
{
	for (size_t i = 0; i < app->nrows_s; i++) {
		struct tui_search_row *r = &app->rows_s[i];
		r->ratio_tmin = r->ratio_tdiff = NAN;
		for (size_t j = 0; j < app->nrows_s; j++) {
			const struct tui_search_row *ref = &app->rows_s[j];
			if (ref->timer != app->search_ref || ref->flush != r->flush)
				continue;
			r->ratio_tmin = tl_search_ratio(&ref->tmin, &r->tmin);
			r->ratio_tdiff = tl_search_ratio_tdiff(&ref->tmin, &ref->tdiff, &r->tmin,
							       &r->tdiff);
		}
	}
}

static void *search_main(void *arg)
{
	struct search_job *job = arg;
	struct tui_app *app = job->app;
	char why[256];
	if (tl_cpu_pin(job->cpu, why, sizeof why) < 0) {
		for (size_t i = 0; i < app->nrows_s; i++)
			set_state(app, &app->rows_s[i], -1, why);
	} else
		for (size_t i = 0; i < app->nrows_s && !atomic_load(&app->search_stop); i++)
			search_one(job, i);
	pthread_mutex_lock(&app->search_mu);
	ratios(app);
	pthread_mutex_unlock(&app->search_mu);
	free(job->obs);
	free(job);
	atomic_store(&app->search_done, true);
	tui_wake(app);
	return NULL;
}

bool tui_search_running(const struct tui_app *app)
{
	return app->search_live;
}

void tui_search_stop(struct tui_app *app)
{
	if (!app->search_live)
		return;
	atomic_store(&app->search_stop, true);
	tui_worker_join(app->search_thread, &app->search_live);
}

void tui_search_free(struct tui_app *app)
{
	tui_search_stop(app);
	for (size_t i = 0; i < app->nrows_s; i++) {
		struct tui_search_row *r = &app->rows_s[i];
		free(r->cv_x);
		free(r->cv_y);
		free(r->ov_x);
		free(r->ov_y);
	}
	free(app->rows_s);
	app->rows_s = NULL;
	app->nrows_s = 0;
}

static bool is_ref_candidate(const char *id, int pass)
{
	if (pass == 0)
		return strncmp(id, "papi-", 5) == 0;
	return strncmp(id, "clock-gettime", 13) == 0;
}

int tui_search_start(struct tui_app *app, char *why, size_t whylen)
{
	if (app->thread_live) {
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
	app->rows_s = calloc(nb * nf, sizeof *app->rows_s);
	struct search_job *job = calloc(1, sizeof *job);
	struct obs_ctx *obs = calloc(nb * nf, sizeof *obs);
	if (!app->rows_s || !job || !obs) {
		free(job);
		free(obs);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	size_t k = 0;
	for (size_t f = 0; f < lf->n; f++) {
		if (!lf->items[f].selected)
			continue;
		for (size_t b = 0; b < lb->n; b++) {
			if (!lb->items[b].selected)
				continue;
			app->rows_s[k].timer = b;
			app->rows_s[k].flush = f;
			snprintf(app->rows_s[k].id, TL_ID_MAX, "%s", lb->items[b].label);
			app->rows_s[k].bytes = lf->items[f].bytes;
			app->rows_s[k].ratio_tmin = app->rows_s[k].ratio_tdiff = NAN;
			obs[k].app = app;
			obs[k].row = k;
			k++;
		}
	}
	app->nrows_s = k;
	/* The reference: PAPI as in the paper, else clock_gettime, else the last. */
	app->search_ref = SIZE_MAX;
	for (int pass = 0; pass < 2 && app->search_ref == SIZE_MAX; pass++)
		for (size_t b = 0; b < lb->n; b++)
			if (lb->items[b].selected && is_ref_candidate(lb->items[b].label, pass)) {
				app->search_ref = b;
				break;
			}
	if (app->search_ref == SIZE_MAX)
		app->search_ref = app->rows_s[k - 1].timer;
	app->search_cur = app->rows_s[0].flush;

	job->app = app;
	int cpu = app->opts.cpu >= 0 ? app->opts.cpu : tl_cpu_default();
	job->cpu = cpu;
	job->n = app->opts.n;
	job->seed = app->opts.seed;
	job->obs = obs;
	atomic_store(&app->search_stop, false);
	atomic_store(&app->search_done, false);
	int rc = tui_worker_start(&app->search_thread, search_main, job);
	if (rc) {
		free(job);
		free(obs);
		snprintf(why, whylen, "cannot start the search thread: %s", strerror(rc));
		return -1;
	}
	app->search_live = true;
	app->t_start = tl_monotonic_s();
	tui_affinity_ui(app, cpu); /* job is the worker's now */
	return 0;
}

static void search_poll(struct tui_app *app)
{
	if (app->search_live && atomic_load(&app->search_done)) {
		tui_worker_join(app->search_thread, &app->search_live);
		tui_message(app, false, "search done in %.1f s; e exports the results",
			    tl_monotonic_s() - app->t_start);
	}
}

/* Flush indexes (into the setup list) that have rows, in row order. */
static size_t row_flushes(const struct tui_app *app, size_t *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < app->nrows_s && n < max; i++) {
		size_t j;
		for (j = 0; j < n && out[j] != app->rows_s[i].flush; j++)
			;
		if (j == n)
			out[n++] = app->rows_s[i].flush;
	}
	return n;
}

static int export_search(struct tui_app *app, char *path, size_t len, char *why, size_t whylen);

void tui_search_action(struct tui_app *app, enum tui_action a)
{
	size_t fl[64];
	size_t n = row_flushes(app, fl, 64), at = 0;
	for (size_t i = 0; i < n; i++)
		if (fl[i] == app->search_cur)
			at = i;
	if (a == TUI_ACT_LEFT && n)
		app->search_cur = fl[(at + n - 1) % n];
	if (a == TUI_ACT_RIGHT && n)
		app->search_cur = fl[(at + 1) % n];
	if (a == TUI_ACT_REF && app->nrows_s) {
		/* The next backend that has rows becomes the one others are compared to. */
		size_t nb = app->lists[0].n, ref = app->search_ref;
		for (size_t step = 1; step <= nb; step++) {
			size_t cand = (ref + step) % nb;
			bool has = false;
			for (size_t i = 0; i < app->nrows_s && !has; i++)
				has = app->rows_s[i].timer == cand;
			if (has) {
				ref = cand;
				break;
			}
		}
		pthread_mutex_lock(&app->search_mu);
		app->search_ref = ref; /* the worker reads it under the mutex */
		ratios(app);
		pthread_mutex_unlock(&app->search_mu);
		tui_message(app, false, "reference: %s", app->lists[0].items[app->search_ref].label);
	}
	if (a == TUI_ACT_EXPORT) {
		char path[1024], why[512];
		if (app->search_live)
			tui_message(app, true, "the search is still running: export when it ends");
		else if (!app->nrows_s)
			tui_message(app, true, "nothing to export: s starts a search");
		else if (export_search(app, path, sizeof path, why, sizeof why) < 0)
			tui_message(app, true, "export failed: %s", why);
		else
			tui_message(app, false, "exported to %s", path);
	}
	app->dirty = true;
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

/* One plot of the rows under the current flush: kind 0 CV against t
 * (log x), kind 1 overlap against delta; the threshold as a dotted line. */
static void draw_plot(struct tui_app *app, const struct tui_rect *r, int kind)
{
	int lab = 7, w = r->w - lab - 1, h = r->h - 2;
	const double thr = kind == 0 ? 0.01 : 0.05;
	tui_put(r->y, r->x, r->w, tui_attr(app, TUI_ROLE_TITLE),
		kind == 0 ? "CV against t (ADDs, log)  eps 1%" : "overlap against delta (ADDs)  alpha 5%");
	if (w < 4 || h < 2)
		return;
	double xlo = INFINITY, xhi = -INFINITY, yhi = kind == 0 ? 3 * thr : 1.0;
	for (size_t i = 0; i < app->nrows_s; i++) {
		const struct tui_search_row *row = &app->rows_s[i];
		if (row->flush != app->search_cur)
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
	tui_put(r->y + 1, r->x, lab, dim, lbl);
	tui_put(r->y + h, r->x, lab, dim, "0");
	struct tui_canvas cv;
	if (tui_canvas_init_range(&cv, w, h, xlo, &xhi) < 0)
		return;
	int ty = (int)lround(thr / yhi * (4 * h - 1));
	for (int px = 0; px < 2 * w; px += 3)
		tui_canvas_dot(&cv, px, ty, -1);
	for (size_t i = 0; i < app->nrows_s; i++) {
		const struct tui_search_row *row = &app->rows_s[i];
		if (row->flush != app->search_cur)
			continue;
		int s = (int)(row->timer % TUI_NSERIES);
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
	tui_put_canvas(app, r->y + 1, r->x + lab + 1, &cv);
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

static void fmt_result(char *buf, size_t len, const struct tl_search_result *r, int state,
		       int phase)
{
	if (r->converged) {
		snprintf(buf, len, "%8llu %9.1f%s", (unsigned long long)r->adds, r->ns,
			 r->on_floor ? "*" : " ");
	} else if (state == phase)
		snprintf(buf, len, "%18s", "searching...");
	else if (state > phase || state < 0 || r->note[0])
		snprintf(buf, len, "%18s", "none");
	else
		snprintf(buf, len, "%18s", "");
}

static void draw_table(struct tui_app *app)
{
	const struct tui_rect *r = &app->lay.table;
	int a = tui_attr(app, TUI_ROLE_MAIN_FG);
	int idw = r->w >= 120 ? 28 : 14;
	tui_putf(r->y, r->x, r->w, tui_attr(app, TUI_ROLE_TITLE) | A_BOLD,
		 "  %-*s %-8s %8s %9s  %8s %9s  %s", idw, "backend", "flush", "t_min", "ns",
		 "t_diff", "ns", "ratio");
	int y = r->y + 1;
	const char *ref = app->lists[0].items[app->search_ref].label;
	for (size_t i = 0; i < app->nrows_s && y < r->y + r->h; i++) {
		const struct tui_search_row *row = &app->rows_s[i];
		char fl[32], t1[48], t2[48], tail[300];
		tl_size_format(row->bytes, fl, sizeof fl);
		fmt_result(t1, sizeof t1, &row->tmin, row->state, 1);
		fmt_result(t2, sizeof t2, &row->tdiff, row->state, 2);
		const char *id = row->id;
		if (row->state < 0)
			snprintf(tail, sizeof tail, "failed: %s", row->why);
		else if (row->timer == app->search_ref)
			snprintf(tail, sizeof tail, "reference");
		else if (isfinite(row->ratio_tmin) || isfinite(row->ratio_tdiff))
			snprintf(tail, sizeof tail, "%.1fx / %.1fx", row->ratio_tmin, row->ratio_tdiff);
		else if (row->state == 3 && row->tmin.note[0])
			snprintf(tail, sizeof tail, "%s", row->tmin.note);
		else
			tail[0] = '\0';
		int s = (int)(row->timer % TUI_NSERIES);
		int x = r->x;
		x += tui_putf(y, x, r->w, tui_attr_series(app, s), "%s ",
			      tui_series_glyph(app->tier, s));
		tui_putf(y, x, r->x + r->w - x, row->state < 0 ? tui_attr(app, TUI_ROLE_ERROR) : a,
			 "%-*.*s %-8s %s %s  %s", idw, idw, id, fl, t1, t2, tail);
		y++;
	}
	/* The paper's sentence, one per compared row, in full. */
	for (size_t i = 0; i < app->nrows_s && y < r->y + r->h; i++) {
		const struct tui_search_row *row = &app->rows_s[i];
		if (row->timer == app->search_ref ||
		    !(isfinite(row->ratio_tmin) || isfinite(row->ratio_tdiff)))
			continue;
		char fl[32], precise[64], sensitive[64];
		const char *times = app->tier == TUI_TIER_UTF8 ? "×" : "x";
		tl_size_format(row->bytes, fl, sizeof fl);
		tl_search_ratio_text(precise, sizeof precise, row->ratio_tmin, "precise", times);
		tl_search_ratio_text(sensitive, sizeof sensitive, row->ratio_tdiff, "sensitive", times);
		tui_putf(y++, r->x, r->w, tui_attr(app, TUI_ROLE_HI), "%s: %s%s%s than %s (flush %s)",
			 row->id, precise, precise[0] && sensitive[0] ? ", " : "", sensitive, ref, fl);
	}
	/* And why a search found nothing: the CV floor or the bound it hit. */
	for (size_t i = 0; i < app->nrows_s && y < r->y + r->h; i++) {
		const struct tui_search_row *row = &app->rows_s[i];
		const struct tl_search_result *res = !row->tmin.converged ? &row->tmin : &row->tdiff;
		if (row->state != 3 || res->converged || !res->note[0])
			continue;
		tui_putf(y++, r->x, r->w, tui_attr(app, TUI_ROLE_WARN), "%s: %s",
			 row->id, res->note);
	}
	if (y < r->y + r->h)
		tui_put(y, r->x, r->w, tui_attr(app, TUI_ROLE_INACTIVE),
			"t in ADDs and ns; * on the timer-resolution floor; ratio = reference / this");
}

void tui_search_draw(struct tui_app *app)
{
	search_poll(app);
	if (!app->nrows_s) {
		tui_put_empty(app, "no search yet: select backends and flush sizes on Setup, then s");
		return;
	}
	pthread_mutex_lock(&app->search_mu);
	draw_plot(app, &app->lay.cv, 0);
	draw_plot(app, &app->lay.overlap, 1);
	draw_table(app);
	pthread_mutex_unlock(&app->search_mu);
}

static json_t *result_json(const struct tl_search_result *r)
{
	return json_pack("{s:o, s:o, s:s, s:I, s:o, s:b, s:b, s:s}", "adds",
			 r->converged ? json_integer((json_int_t)r->adds) : json_null(), "ns",
			 r->converged ? tl_json_real(r->ns) : json_null(), "method",
			 tl_search_method_name(r->method), "measurements", (json_int_t)r->measurements,
			 "seconds", tl_json_real(r->seconds), "converged", r->converged, "on_floor",
			 r->on_floor, "note", r->note);
}

static int export_search(struct tui_app *app, char *path, size_t len, char *why, size_t whylen)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	localtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	snprintf(path, len, "ticklab-search-%s-%d.json", stamp, (int)getpid());
	tui_info_ensure(app);
	json_t *results = json_array();
	for (size_t i = 0; i < app->nrows_s; i++) {
		const struct tui_search_row *r = &app->rows_s[i];
		json_array_append_new(
			results,
			json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:b}", "backend",
				  r->id, "flush_bytes",
				  (json_int_t)r->bytes, "tmin",
				  result_json(&r->tmin), "tdiff", result_json(&r->tdiff), "ratio_tmin",
				  tl_json_real(r->ratio_tmin), "ratio_tdiff", tl_json_real(r->ratio_tdiff),
				  "reference", r->timer == app->search_ref));
	}
	json_t *doc = json_pack("{s:{s:s, s:s}, s:o, s:o}", "ticklab", "version", PACKAGE_VERSION,
				"command", "search", "host", tl_host_to_json(&app->host), "results",
				results);
	return tui_export_json(path, doc, why, whylen);
}
