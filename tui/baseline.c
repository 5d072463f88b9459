#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_sort.h>

#include "bench/analysis.h"
#include "io/results.h"
#include "io/host_json.h"
#include "io/run_compare.h"
#include "stats/compare.h"
#include "tui/app.h"
#include "tui/baseline.h"

enum { BL_NONE, BL_WAIT, BL_BUSY, BL_DONE, BL_EMPTY, BL_FAILED };

struct ghost {
	double *sorted; /* the baseline cell's kept samples, as Live keeps its own */
	size_t n;
	double min, p99;
};

/* One compared row from the child; under PIPE_BUF, so each write is whole. */
struct msg {
	size_t cell;
	struct tl_cell_compare row;
};

struct tui_baseline {
	char path[1024];
	struct tl_run run;
	struct tl_results_meta meta;
	struct ghost *ghost;          /* one per baseline cell */
	long *base_of;                /* per live cell: its baseline cell, or -1 */
	unsigned char *state;         /* per live cell */
	struct tl_cell_compare *rows; /* per live cell, once BL_DONE */
	size_t ncells;
	bool started;
	struct tui_job job;           /* the comparing child (tui_job_fork) */
	unsigned char buf[sizeof(struct msg)];
	size_t have;
};

static void ghosts(struct tui_baseline *bl)
{
	const struct tl_run *run = &bl->run;
	struct tl_analysis an;

	for (size_t i = 0; i < run->ncells; i++) {
		struct ghost *g = &bl->ghost[i];
		size_t n = tl_cell_done(run, i), kept = 0;

		if (run->cells[i].hidden || !n || !(g->sorted = malloc(n * sizeof *g->sorted)))
			continue;
		if (tl_cell_analyse_kept(run, i, bl->meta.os, bl->meta.seed, &an, g->sorted, n,
					 &kept) < 0 ||
		    !an.summary.n) {
			free(g->sorted);
			g->sorted = NULL;
			continue;
		}
		gsl_sort(g->sorted, 1, kept);
		g->n = kept;
		g->min = an.summary.min;
		g->p99 = an.summary.p99;
	}
}

int tui_baseline_load(struct tui_app *app, const char *path, char *why, size_t whylen)
{
	struct tui_baseline *bl = calloc(1, sizeof *bl);

	if (!bl) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (tl_run_load(path, &bl->run, &bl->meta, why, whylen) < 0) {
		free(bl);
		return -1;
	}
	snprintf(bl->path, sizeof bl->path, "%s", path);
	bl->ghost = calloc(bl->run.ncells ? bl->run.ncells : 1, sizeof *bl->ghost);
	if (!bl->ghost) {
		tl_run_unload(&bl->run, &bl->meta);
		free(bl);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	ghosts(bl);
	tui_baseline_free(app);
	TUI_LIVE(app)->baseline = bl;
	if (app->res.have)
		tui_baseline_reset(app);
	return 0;
}

static void child_end(struct tui_baseline *bl)
{
	tui_job_cancel(&bl->job);
	bl->have = 0;
}

static void cells_free(struct tui_baseline *bl)
{
	free(bl->base_of);
	free(bl->state);
	free(bl->rows);
	bl->base_of = NULL;
	bl->state = NULL;
	bl->rows = NULL;
	bl->ncells = 0;
}

void tui_baseline_free(struct tui_app *app)
{
	struct tui_baseline *bl = TUI_LIVE(app)->baseline;

	if (!bl)
		return;
	child_end(bl);
	cells_free(bl);
	for (size_t i = 0; i < bl->run.ncells; i++)
		free(bl->ghost[i].sorted);
	free(bl->ghost);
	tl_run_unload(&bl->run, &bl->meta);
	free(bl);
	TUI_LIVE(app)->baseline = NULL;
}

void tui_baseline_reset(struct tui_app *app)
{
	struct tui_baseline *bl = TUI_LIVE(app)->baseline;
	size_t n = app->res.run.ncells;

	if (!bl)
		return;
	child_end(bl);
	cells_free(bl);
	bl->started = false;
	bl->base_of = calloc(n ? n : 1, sizeof *bl->base_of);
	bl->state = calloc(n ? n : 1, 1);
	bl->rows = calloc(n ? n : 1, sizeof *bl->rows);
	if (!bl->base_of || !bl->state || !bl->rows) {
		cells_free(bl);
		tui_message(app, true, "out of memory: no comparison with the baseline");
		return;
	}
	bl->ncells = n;
	long *match = tl_run_matches(&bl->run, &app->res.run);
	for (size_t i = 0; i < n; i++) {
		bl->base_of[i] = match[i];
		bl->state[i] = bl->base_of[i] >= 0 ? BL_WAIT : BL_NONE;
	}
	free(match);
}

/* Whether the baseline was taken on this node: the replayed file's host,
 * or this node's facts when already measured (never measured here: a
 * draw or a key never waits). */
static bool same_node(const struct tui_app *app)
{
	json_t *here = app->res.replay ? json_incref(app->node.host_json)
		       : app->node.have_host ? tl_host_to_json(&app->node.host) : NULL;
	bool same = tl_hosts_same_node(TUI_LIVE(app)->baseline->meta.host, here);

	json_decref(here);
	return same;
}

bool tui_baseline_compare(const struct tui_app *app, struct tl_run_compare *out,
			  const struct tl_run **base)
{
	const struct tui_baseline *bl = TUI_LIVE(app)->baseline;

	memset(out, 0, sizeof *out);
	if (!bl)
		return false;
	*base = &bl->run;
	if (tl_runs_compare(&bl->run, &app->res.run, TL_COMPARE_DEFAULT_THRESHOLD_PCT, app->res.seed,
			    same_node(app), out) < 0) {
		tl_run_compare_free(out);
		return false;
	}
	return true;
}

/* The child: compares row by row and sends each as it comes. It stays a
 * forked child rather than a thread (tui_job_fork says why): the
 * comparison allocates through base/xalloc (sorted copies of both sides
 * and scratch), and running out of memory there must end the comparison,
 * not the lab. */
static void child_main(struct tui_job *job)
{
	struct tui_app *app = job->app;
	struct tui_baseline *bl = TUI_LIVE(app)->baseline;
	int fd = job->fd;
	struct tl_run_compare rc;
	size_t next = 0;
	int r;

	tl_runs_compare_begin(&bl->run, TL_COMPARE_DEFAULT_THRESHOLD_PCT, app->res.seed,
			      same_node(app), &rc);
	while ((r = tl_runs_compare_step(&bl->run, &app->res.run, &next, &rc)) > 0) {
		struct msg m;

		memset(&m, 0, sizeof m);
		m.row = rc.rows[rc.nrows - 1];
		m.cell = m.row.new_cell;
		if (write(fd, &m, sizeof m) != (ssize_t)sizeof m)
			_exit(1);
		tui_wake(app);
	}
	if (r < 0)
		_exit(1);
}

static void start(struct tui_app *app)
{
	struct tui_baseline *bl = TUI_LIVE(app)->baseline;
	size_t busy = 0;

	bl->started = true;
	for (size_t i = 0; i < bl->ncells; i++)
		busy += bl->state[i] == BL_WAIT;
	if (!busy)
		return;
	if (tui_job_fork(&bl->job, app, child_main, NULL) < 0) {
		tui_message(app, true, "cannot compare with the baseline: %s", strerror(errno));
		return;
	}
	for (size_t i = 0; i < bl->ncells; i++)
		if (bl->state[i] == BL_WAIT)
			bl->state[i] = BL_BUSY;
}

static void finished(struct tui_app *app)
{
	struct tui_baseline *bl = TUI_LIVE(app)->baseline;
	size_t done = 0, differ = 0;

	tui_job_wait(&bl->job);
	bool ok = bl->job.status == 0;
	for (size_t i = 0; i < bl->ncells; i++) {
		if (bl->state[i] == BL_BUSY)
			bl->state[i] = ok ? BL_EMPTY : BL_FAILED;
		if (bl->state[i] == BL_DONE) {
			done++;
			differ += bl->rows[i].cmp.verdict == TL_VERDICT_DIFFERENT;
		}
	}
	if (ok)
		tui_message(app, false, "compared with the baseline: %zu cells, %zu different", done,
			    differ);
	else
		tui_message(app, true, "comparing with the baseline failed (out of memory)");
}

void tui_baseline_poll(struct tui_app *app)
{
	struct tui_baseline *bl = TUI_LIVE(app)->baseline;

	if (!bl || !bl->state || !app->res.have)
		return;
	if (!bl->started && !TUI_LIVE(app)->sampling.live)
		start(app);
	while (bl->job.live) {
		ssize_t n = read(bl->job.fd, bl->buf + bl->have, sizeof bl->buf - bl->have);

		if (n > 0) {
			bl->have += (size_t)n;
			if (bl->have == sizeof bl->buf) {
				struct msg m;

				memcpy(&m, bl->buf, sizeof m);
				bl->have = 0;
				if (m.cell < bl->ncells) {
					bl->rows[m.cell] = m.row;
					bl->state[m.cell] = BL_DONE;
				}
				app->dirty = true;
			}
		} else if (n == 0) {
			finished(app);
			app->dirty = true;
		} else if (errno != EINTR) {
			break; /* EAGAIN: the next row is still being computed */
		}
	}
}

bool tui_baseline_ghost(const struct tui_app *app, size_t cell, const double **sorted, size_t *n,
			double *min, double *p99)
{
	const struct tui_baseline *bl = TUI_LIVE(app)->baseline;
	const struct ghost *g;

	if (!bl || cell >= bl->ncells || bl->base_of[cell] < 0)
		return false;
	g = &bl->ghost[bl->base_of[cell]];
	if (!g->n)
		return false;
	*sorted = g->sorted;
	*n = g->n;
	*min = g->min;
	*p99 = g->p99;
	return true;
}

/* The longest of forms (NULL-ended) that fits w columns, else the last. */
static void fit(char *buf, size_t len, int w, char forms[][128], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(forms[i]) <= w || i + 1 == n) {
			snprintf(buf, len, "%s", forms[i]);
			return;
		}
}

bool tui_baseline_line(const struct tui_app *app, size_t cell, int w, char *buf, size_t len,
		       bool *bad, bool *dim)
{
	const struct tui_baseline *bl = TUI_LIVE(app)->baseline;
	static const char *const waiting[] = {
		[BL_NONE] = "baseline: no such cell", [BL_WAIT] = "baseline: when the run is done",
		[BL_BUSY] = "baseline: comparing...", [BL_EMPTY] = "baseline: no samples",
		[BL_FAILED] = "baseline: failed",
	};
	char f[5][128];

	if (!bl || cell >= bl->ncells)
		return false;
	*bad = false;
	*dim = bl->state[cell] != BL_DONE;
	if (*dim) {
		snprintf(buf, len, "%s", waiting[bl->state[cell]]);
		return true;
	}
	const struct tl_cell_compare *r = &bl->rows[cell];
	const struct tl_comparison *c = &r->cmp;
	const char *v = stats_verdict_name(c->verdict);

	*bad = c->verdict == TL_VERDICT_DIFFERENT;
	if (c->verdict == TL_VERDICT_UNKNOWN && isfinite(c->need_more)) {
		snprintf(f[0], sizeof f[0], "base: unknown, need ~%.0f more samples", c->need_more);
		snprintf(f[1], sizeof f[1], "base: unknown, ~%.0f more", c->need_more);
		snprintf(f[2], sizeof f[2], "base: unknown");
		fit(buf, len, w, f, 3);
		return true;
	}
	/* As ticklab compare prints them, so the two can be read side by side. */
	char sh[32], lo[32], hi[32], rel[32];

	tl_shift_text(c->shift, sh, sizeof sh);
	tl_shift_text(c->lo, lo, sizeof lo);
	tl_shift_text(c->hi, hi, sizeof hi);
	tl_shift_text(r->rel_pct, rel, sizeof rel);
	snprintf(f[0], sizeof f[0], "base: %s %s ns [%s, %s] by %s", v, sh, lo, hi,
		 stats_shift_method_name(c->method));
	snprintf(f[1], sizeof f[1], "base: %s %s ns [%s, %s]", v, sh, lo, hi);
	snprintf(f[2], sizeof f[2], "base: %s %s ns (%s%%)", v, sh, rel);
	snprintf(f[3], sizeof f[3], "base: %s %s ns", v, sh);
	snprintf(f[4], sizeof f[4], "base: %s", v);
	fit(buf, len, w, f, 5);
	return true;
}

const char *tui_baseline_path(const struct tui_app *app)
{
	return TUI_LIVE(app)->baseline ? TUI_LIVE(app)->baseline->path : NULL;
}
