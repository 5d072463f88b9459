/* The memory ladder on the live screen: m on Setup selects load
 * kernels over a ladder of sizes (Setup's preset, tui/setup.c); m on Live
 * plots ns per load against the
 * buffer size on a log axis, the cache ends marked. The ladders are
 * io/ladder.c's tl_ladder_collect over the cells' analyses, redone in the
 * event loop when cells get new samples; the draw only reads them. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/levels.h"
#include "bench/size.h"
#include "io/host_json.h"
#include "io/ladder.h"
#include "tui/app.h"
#include "tui/curses.h"

#define LADDER_MAX_SERIES 4 /* timers plotted together (legend and table fit) */
#define TABLE_MIN_COLS 120  /* wide enough for the table beside the plot */
#define YLAB 9              /* "123.4 ns " */

struct tui_ladder_view {
	double ends[3];
	const char *names[4];
	size_t nends;
	bool measured[3];       /* the end is where a chase saw the step, not CPUID's size */
	size_t flush;           /* the flush the ladders are of */
	double stamp;           /* the newest view analysis they include */
	bool computed;
	size_t nl;
	struct tl_ladder l[LADDER_MAX_SERIES];
};

/* Which ends a live run took from the chase (bench/levels.c sized the
 * Setup's topology by it where CPUID disagreed): labelled apart. */
static void mark_measured(const struct tui_app *app, struct tui_ladder_view *s)
{
	const struct tl_levels *lv = app->res.levels;

	for (size_t j = 0; lv && lv->measured && j < s->nends; j++)
		for (size_t k = 0; k < lv->nlevels; k++)
			if (!strcmp(lv->level[k].name, s->names[j]) && !lv->level[k].cpuid_agrees &&
			    lv->level[k].cpuid_bytes != (uint64_t)s->ends[j])
				s->measured[j] = true;
}

static struct tui_ladder_view *state(struct tui_app *app)
{
	if (!TUI_LIVE(app)->ladder && !(TUI_LIVE(app)->ladder = calloc(1, sizeof *TUI_LIVE(app)->ladder))) {
		tui_message(app, true, "memory ladder: out of memory");
		return NULL;
	}
	return TUI_LIVE(app)->ladder;
}

/* A new run (or replay): its cache ends (the file's host for a replay, so
 * the levels are those of the node that ran it), and the ladder view when
 * the run is a ladder: every kernel a load, two sizes at least. */
void tui_ladder_reset(struct tui_app *app)
{
	struct tui_ladder_view *s = state(app);
	struct tl_topology saved;
	const struct tl_topology *topo = app->node.have_topo ? &app->node.topo : NULL;
	size_t loads = 0, other = 0;

	if (!s)
		return;
	memset(s, 0, sizeof *s);
	if (app->res.replay)
		topo = tl_host_json_topology(app->node.host_json, &saved) ? &saved : NULL;
	s->nends = tl_topology_ends(topo, s->ends, s->names);
	if (!app->res.replay)
		mark_measured(app, s);
	for (size_t i = 0; i < app->res.run.ncells; i++) {
		const struct tl_cell *c = &app->res.run.cells[i];
		if (c->hidden)
			continue;
		if (c->kernel.kind == TL_KERNEL_LOAD)
			loads++;
		else
			other++;
	}
	TUI_LIVE(app)->ladder_on = loads >= 2 * app->res.run.ntimers * app->res.run.nflush && !other;
}

void tui_ladder_toggle(struct tui_app *app)
{
	TUI_LIVE(app)->ladder_on = !TUI_LIVE(app)->ladder_on;
	app->dirty = true;
}

/* The load cells of the current flush, for the timers the plot shows. */
static size_t ladder_cells(const struct tui_app *app, size_t *cells, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < app->res.run.ncells && n < max; i++) {
		const struct tl_cell *c = &app->res.run.cells[i];
		if (!c->hidden && c->kernel.kind == TL_KERNEL_LOAD && c->flush == TUI_LIVE(app)->cur_flush &&
		    c->timer < LADDER_MAX_SERIES)
			cells[n++] = i;
	}
	return n;
}

static void recompute(struct tui_app *app, struct tui_ladder_view *s, const size_t *cells,
		      size_t n, double newest)
{
	struct tl_analysis *an = calloc(app->res.run.ncells, sizeof *an);

	if (!an)
		return;
	for (size_t i = 0; i < app->res.run.ncells; i++)
		an[i].summary.p50 = NAN; /* not analysed yet: a gap, not a 0 */
	for (size_t i = 0; i < n; i++) {
		const struct tui_view *v = tui_live_view(app, cells[i]);
		if (v && v->done != SIZE_MAX && v->an.summary.n)
			an[cells[i]] = v->an;
	}
	s->nl = app->res.run.ntimers < LADDER_MAX_SERIES ? app->res.run.ntimers : LADDER_MAX_SERIES;
	for (size_t t = 0; t < s->nl; t++)
		tl_ladder_collect(&app->res.run, an, t, TUI_LIVE(app)->cur_flush, s->ends, s->nends, &s->l[t]);
	free(an);
	s->flush = TUI_LIVE(app)->cur_flush;
	s->stamp = newest;
	s->computed = true;
	app->dirty = true;
}

static bool shown(const struct tui_app *app)
{
	return TUI_LIVE(app)->ladder && TUI_LIVE(app)->ladder_on && app->res.have && app->screen == TUI_LIVE &&
	       app->lay.hist[0].w > 0;
}

size_t tui_ladder_cells(const struct tui_app *app, size_t *cells, size_t max)
{
	return shown(app) ? ladder_cells(app, cells, max) : 0;
}

/* Live's poll, once it brought the load cells' views up to date: the
 * ladders redone when any of them is newer than the ladders. */
void tui_ladder_poll(struct tui_app *app)
{
	struct tui_ladder_view *s = TUI_LIVE(app)->ladder;
	size_t *cells, n;
	double newest = 0;

	if (!shown(app))
		return;
	cells = calloc(app->res.run.ncells ? app->res.run.ncells : 1, sizeof *cells);
	if (!cells)
		return;
	n = ladder_cells(app, cells, app->res.run.ncells);
	for (size_t i = 0; i < n; i++) {
		const struct tui_view *v = tui_live_view(app, cells[i]);
		if (v && v->done != SIZE_MAX && v->when > newest)
			newest = v->when;
	}
	if (!s->computed || s->flush != TUI_LIVE(app)->cur_flush || newest > s->stamp)
		recompute(app, s, cells, n, newest);
	free(cells);
}

void tui_ladder_free(struct tui_app *app)
{
	free(TUI_LIVE(app)->ladder);
	TUI_LIVE(app)->ladder = NULL;
}

/* ---- drawing: reads the ladders, computes nothing but coordinates ---- */

struct axes {
	double xlo, xhi, ylo, yhi; /* log2 bytes, log ns */
	int w, h;                  /* canvas cells */
};

static int px_of(const struct axes *a, double bytes)
{
	return (int)lround((log2(bytes) - a->xlo) / (a->xhi - a->xlo) * (2 * a->w - 1));
}

static int py_of(const struct axes *a, double ns)
{
	return (int)lround((log(ns) - a->ylo) / (a->yhi - a->ylo) * (4 * a->h - 1));
}

/* Both axes are logarithmic; a flat ladder is given a factor of 4 in y. */
static bool axes_of(const struct tui_ladder_view *s, struct axes *a)
{
	double bl = INFINITY, bh = -INFINITY, nl = INFINITY, nh = -INFINITY;

	for (size_t t = 0; t < s->nl; t++)
		for (size_t i = 0; i < s->l[t].n; i++) {
			double b = s->l[t].bytes[i], v = s->l[t].ns[i];
			bl = fmin(bl, b);
			bh = fmax(bh, b);
			if (isfinite(v) && v > 0) {
				nl = fmin(nl, v);
				nh = fmax(nh, v);
			}
		}
	if (!isfinite(nl))
		return false;
	a->xlo = log2(bl);
	a->xhi = log2(bh) > a->xlo ? log2(bh) : a->xlo + 1;
	a->ylo = log(nl / 1.25);
	a->yhi = log(nh * 1.25);
	if (a->yhi - a->ylo < log(4.0)) {
		double mid = (a->yhi + a->ylo) / 2;
		a->ylo = mid - log(2.0);
		a->yhi = mid + log(2.0);
	}
	return true;
}

static void plot_series(struct tui_canvas *cv, const struct axes *a, const struct tl_ladder *l,
			int series)
{
	int px0 = -1, py0 = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (!isfinite(l->ns[i]) || l->ns[i] <= 0) {
			px0 = -1;
			continue;
		}
		int px = px_of(a, l->bytes[i]), py = py_of(a, l->ns[i]);
		if (px0 >= 0)
			tui_canvas_line(cv, px0, py0, px, py, series);
		tui_canvas_mark(cv, px / 2, a->h - 1 - py / 4, series);
		px0 = px;
		py0 = py;
	}
}

/* The cache ends inside the plotted sizes: a dim dotted line each. */
static void plot_ends(struct tui_canvas *cv, const struct axes *a, const struct tui_ladder_view *s)
{
	for (size_t j = 0; j < s->nends; j++) {
		double e = log2(s->ends[j]);
		if (e < a->xlo || e > a->xhi)
			continue;
		int px = px_of(a, s->ends[j]);
		for (int py = 0; py < 4 * a->h; py += 2)
			tui_canvas_dot(cv, px, py, -1);
	}
}

/* Each end's name (and size, where there is room) at the top of its line. */
static void label_ends(const struct tui_app *app, int y, int x0, const struct axes *a,
		       const struct tui_ladder_view *s)
{
	int hi = tui_attr(app, TUI_ROLE_HI);
	for (size_t j = 0; j < s->nends; j++) {
		double e = log2(s->ends[j]);
		char size[32], text[48];
		if (e < a->xlo || e > a->xhi)
			continue;
		tl_size_format((uint64_t)s->ends[j], size, sizeof size);
		if (s->measured[j]) /* a chase's step, not CPUID's size: said apart */
			snprintf(text, sizeof text, a->w >= 100 ? "%s end %s (chase)" : "%s*",
				 s->names[j], size);
		else
			snprintf(text, sizeof text, a->w >= 100 ? "%s end %s" : "%s", s->names[j],
				 size);
		int cx = px_of(a, s->ends[j]) / 2, len = (int)strlen(text);
		int x = cx + 1 + len <= a->w ? cx + 1 : cx - len;
		tui_put(y, x0 + (x < 0 ? 0 : x), len, hi, text);
	}
}

/* Powers of two under the axis, as many as fit without touching. */
static void label_sizes(const struct tui_app *app, int y, int x0, const struct axes *a)
{
	int dim = tui_attr(app, TUI_ROLE_INACTIVE), next = 0;
	for (int e = (int)ceil(a->xlo); e <= (int)floor(a->xhi); e++) {
		char size[32];
		tl_size_format(1ULL << e, size, sizeof size);
		int len = (int)strlen(size), cx = px_of(a, ldexp(1, e)) / 2 - len / 2;
		if (cx < 0)
			cx = 0;
		if (cx < next || cx + len > a->w)
			continue;
		tui_put(y, x0 + cx, len, dim, size);
		next = cx + len + 2;
	}
}

static void label_ns(const struct tui_app *app, int y0, int x, const struct axes *a)
{
	int dim = tui_attr(app, TUI_ROLE_INACTIVE);
	char v[24];
	tui_fmt_ns(exp(a->yhi), v, sizeof v);
	tui_put(y0, x, YLAB - 1, dim, v);
	tui_fmt_ns(exp((a->yhi + a->ylo) / 2), v, sizeof v);
	tui_put(y0 + a->h / 2, x, YLAB - 1, dim, v);
	tui_fmt_ns(exp(a->ylo), v, sizeof v);
	tui_put(y0 + a->h - 1, x, YLAB - 1, dim, v);
}

/* One line per series: its level means and whether the checks hold. */
/* One line for the ends a chase placed: where, and what CPUID said. */
static int draw_measured_note(const struct tui_app *app, int y, int x, int w, int ymax,
			      const struct tui_ladder_view *s)
{
	const struct tl_levels *lv = app->res.levels;
	char line[300] = "", a[32], b[32];
	size_t u = 0;

	for (size_t j = 0; lv && j < s->nends && u < sizeof line; j++)
		for (size_t k = 0; s->measured[j] && k < lv->nlevels && u < sizeof line; k++)
			if (!strcmp(lv->level[k].name, s->names[j])) {
				tl_size_format((uint64_t)s->ends[j], a, sizeof a);
				tl_size_format(lv->level[k].cpuid_bytes, b, sizeof b);
				u += (size_t)snprintf(line + u, sizeof line - u,
						      "%s%s* %s by a chase (CPUID says %s)",
						      u ? "; " : "", s->names[j], a, b);
			}
	if (!u || y >= ymax)
		return y;
	tui_put(y, x, w, tui_attr(app, TUI_ROLE_HI), line);
	return y + 1;
}

static int draw_levels(const struct tui_app *app, int y, int x, int w, int ymax,
		       const struct tui_ladder_view *s)
{
	for (size_t t = 0; t < s->nl && y < ymax; t++, y++) {
		const struct tl_ladder *l = &s->l[t];
		const struct tl_ladder_fit *f = &l->fit;
		char line[400];
		size_t u = 0;
		int sa = tui_attr_series(app, (int)t);
		int c = tui_putf(y, x, w, sa, "%s %s ", tui_series_glyph(app->tier, (int)t),
				 app->res.run.timers[t].id);
		if (!l->fitted) {
			tui_put(y, x + c, w - c, tui_attr(app, TUI_ROLE_INACTIVE),
				l->n ? "waiting for every size's samples" : "no load cells");
			continue;
		}
		for (size_t j = 0; j <= s->nends && u < sizeof line; j++)
			if (f->count[j])
				u += (size_t)snprintf(line + u, sizeof line - u, "  %s %.3g",
						      s->names[j], f->mean_ns[j]);
		if (u < sizeof line)
			u += (size_t)snprintf(line + u, sizeof line - u, " ns");
		if (u < sizeof line && f->nlevels >= 2)
			snprintf(line + u, sizeof line - u, "  flat %s, rising %s",
				 f->flat ? "ok" : "FAILS", f->monotone ? "ok" : "FAILS");
		tui_put(y, x + c, w - c, tui_attr(app, f->flat && f->monotone ? TUI_ROLE_MAIN_FG
										: TUI_ROLE_WARN),
			line);
	}
	return draw_measured_note(app, y, x, w, ymax, s);
}

/* Where the first series' steps disagree with the topology, said plainly
 * (as `ticklab run` says it): a missing step, or one at another size. */
static void draw_findings(const struct tui_app *app, int y, int x, int w, int ymax,
			  const struct tui_ladder_view *s)
{
	const struct tl_ladder *l = &s->l[0];
	const struct tl_ladder_fit *f = &l->fit;
	char text[600] = "", lo[32], hi[32], end[32];
	size_t u = 0;

	if (!l->fitted || f->nlevels < 2)
		return;
	for (size_t k = 0; k < f->nsteps && u < sizeof text; k++) {
		size_t at = f->cut[k], topo_at = f->topo_cut[k];
		int below = f->level[topo_at - 1];
		tl_size_format((uint64_t)s->ends[below], end, sizeof end);
		if (f->step_ratio[k] < TL_LADDER_MIN_STEP)
			u += (size_t)snprintf(text + u, sizeof text - u, "%sno step at %s's end %s (%.2fx)",
					      u ? "; " : "", s->names[below], end, f->step_ratio[k]);
		else if (at != topo_at) {
			tl_size_format((uint64_t)l->bytes[at - 1], lo, sizeof lo);
			tl_size_format((uint64_t)l->bytes[at], hi, sizeof hi);
			/* the table's own numbers on either side of the step */
			u += (size_t)snprintf(text + u, sizeof text - u,
					      "%sa step from %.3g ns at %s to %.3g ns at %s, not at %s's "
					      "end %s",
					      u ? "; " : "", l->ns[at - 1], lo, l->ns[at], hi,
					      s->names[below], end);
		}
	}
	if (u)
		tui_put_wrapped(y, x, w, ymax, 2, tui_attr(app, TUI_ROLE_WARN), text);
}

/* Beside the plot when there is room: size, ns per load of each series, level. */
static void draw_table(const struct tui_app *app, int y, int x, int w, int ymax,
		       const struct tui_ladder_view *s)
{
	const struct tl_ladder *l0 = &s->l[0];
	int a = tui_attr(app, TUI_ROLE_MAIN_FG), c = 0;

	c += tui_putf(y, x, w, tui_attr(app, TUI_ROLE_TITLE), "%-10s", "size");
	for (size_t t = 0; t < s->nl; t++)
		c += tui_putf(y, x + c, w - c, tui_attr_series(app, (int)t), " %9s",
			      tui_series_glyph(app->tier, (int)t));
	tui_put(y++, x + c, w - c, tui_attr(app, TUI_ROLE_TITLE), "  level");
	for (size_t i = 0; i < l0->n && y < ymax; i++, y++) {
		char size[32];
		tl_size_format((uint64_t)l0->bytes[i], size, sizeof size);
		c = tui_putf(y, x, w, a, "%-10s", size);
		for (size_t t = 0; t < s->nl; t++) {
			double v = i < s->l[t].n ? s->l[t].ns[i] : NAN;
			c += isfinite(v) ? tui_putf(y, x + c, w - c, a, " %9.2f", v)
					 : tui_putf(y, x + c, w - c, a, " %9s", "-");
		}
		tui_putf(y, x + c, w - c, tui_attr(app, TUI_ROLE_INACTIVE), "  %s",
			 s->names[stats_ladder_level(l0->bytes[i], s->ends, s->nends)]);
	}
}

void tui_ladder_draw(const struct tui_app *app)
{
	const struct tui_ladder_view *s = TUI_LIVE(app)->ladder;
	const struct tui_rect *b = &app->lay.body;
	int y = app->lay.progress.y + 1, ymax = b->y + b->h, x = b->x, w = b->w;
	char flush[96];
	struct axes a;
	struct tui_canvas cv;

	tl_run_flush_label(&app->res.run, TUI_LIVE(app)->cur_flush, flush, sizeof flush);
	int c = tui_putf(y, x, w, tui_attr(app, TUI_ROLE_TITLE),
			 "Memory ladder: ns per load (p50 / K) by buffer size, flush %s ", flush);
	if (!s || !s->computed || !s->l[0].n) {
		tui_put(y + 2, x + 2, w - 2, tui_attr(app, TUI_ROLE_INACTIVE),
			s && s->computed ? "no load kernels here: m on Setup selects the memory "
					   "ladder, m here shows the histograms"
					 : "waiting for samples");
		return;
	}
	for (size_t t = 0; t < s->nl; t++)
		c += tui_putf(y, x + c, w - c, tui_attr_series(app, (int)t), " %s %s",
			      tui_series_glyph(app->tier, (int)t), app->res.run.timers[t].id);
	int table_w = w >= TABLE_MIN_COLS ? 10 + 10 * (int)s->nl + 12 : 0;
	if (table_w)
		draw_table(app, y + 1, x + w - table_w, table_w, ymax, s);
	a.w = w - YLAB - (table_w ? table_w + 2 : 0);
	a.h = ymax - y - 4 - (int)s->nl;
	if (a.w < 10 || a.h < 3 || !axes_of(s, &a)) {
		draw_findings(app, draw_levels(app, y + 1, x, w, ymax, s), x, w, ymax, s);
		return;
	}
	if (tui_canvas_init(&cv, a.w, a.h) < 0)
		return;
	plot_ends(&cv, &a, s);
	for (size_t t = 0; t < s->nl; t++)
		plot_series(&cv, &a, &s->l[t], (int)t);
	tui_put_canvas(app, y + 1, x + YLAB, &cv);
	tui_canvas_free(&cv);
	label_ends(app, y + 1, x + YLAB, &a, s);
	label_ns(app, y + 1, x, &a);
	label_sizes(app, y + 1 + a.h, x + YLAB, &a);
	y = draw_levels(app, y + 2 + a.h, x, w - (table_w ? table_w + 2 : 0), ymax, s);
	draw_findings(app, y, x, w - (table_w ? table_w + 2 : 0), ymax, s);
}
