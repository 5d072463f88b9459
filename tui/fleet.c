/* The Fleet screen: fingerprints of many nodes opened with
 * `ticklab tui --fleet DIR`, loaded and judged once by io/fleet.c, the path
 * `ticklab fleet` takes, so the figures here are its table's. One group of
 * hardware at a time (nodes are never compared across groups): a row per
 * node with the key figures, the CDFs of the nodes' add:K samples overlaid,
 * the flagged nodes highlighted and their reasons in words, wrapped. The
 * draw reads the verdicts and the samples sorted at load; it judges nothing. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/fleet.h"
#include "io/term_safe.h"
#include "judge/lesson.h"
#include "tui/app.h"
#include "tui/curses.h"
#include "tui/wrap.h"

#define NAME_MAX_COLS 20 /* a longer node name is shown cut (the reasons say it whole) */
#define CDF_MIN_ROWS 5   /* title, three rows of curves, the axis */
#define TABLE_MIN_ROWS 3 /* node rows kept when the body is short */
#define YLAB 5           /* "1.0  " left of the curves */
#define REASON_ROWS 64   /* wrapped rows of reasons one group may need */
#define CDF_KEEP_ROWS 12 /* the curves give rows to the notes down to this */

struct tui_fleet_view {
	struct tl_fleet fl;
	char source[256];   /* what was opened, for the header */
	char lesson[512];   /* the fleet's closing sentence, as `ticklab fleet` says it */
	double **sorted;    /* per node: its kept add:K samples, sorted (the CDF) */
	size_t *order;      /* node indexes, group by group */
	size_t *gfirst;     /* group g's nodes are order[gfirst[g] .. gfirst[g + 1]) */
	double *lo, *hi;    /* per group: the CDF's x range, lowest sample to highest p99 */
	size_t group;       /* the group shown */
	size_t cursor, top; /* within the group: the picked node, the first row shown */
};

/* The figures a row shows, in the fleet table's order: these always (as
 * many as fit), the others by priority while the width allows. */
static const enum tl_fig key_figs[] = {TL_FIG_NS_PER_ADD, TL_FIG_CV,   TL_FIG_DRIFT,
				       TL_FIG_CPU,        TL_FIG_TMIN, TL_FIG_TDIFF};
static const enum tl_fig more_figs[] = {TL_FIG_OS,   TL_FIG_TAIL, TL_FIG_PREEMPT, TL_FIG_PAPI,
					TL_FIG_CGT,  TL_FIG_FLUSH, TL_FIG_OVERHEAD};

static void view_free(struct tui_fleet_view *v)
{
	if (!v)
		return;
	for (size_t i = 0; v->sorted && i < v->fl.n; i++)
		free(v->sorted[i]);
	free(v->sorted);
	free(v->order);
	free(v->gfirst);
	free(v->lo);
	free(v->hi);
	tl_fleet_free(&v->fl);
	free(v);
}

/* The groups' node lists and CDF ranges, and each node's samples sorted. */
static int prepare(struct tui_fleet_view *v)
{
	const struct tl_fleet *fl = &v->fl;
	size_t ng = fl->ngroups ? fl->ngroups : 1, at = 0;

	v->sorted = calloc(fl->n ? fl->n : 1, sizeof *v->sorted);
	v->order = calloc(fl->n ? fl->n : 1, sizeof *v->order);
	v->gfirst = calloc(ng + 1, sizeof *v->gfirst);
	v->lo = calloc(ng, sizeof *v->lo);
	v->hi = calloc(ng, sizeof *v->hi);
	if (!v->sorted || !v->order || !v->gfirst || !v->lo || !v->hi)
		return -1;
	for (size_t g = 0; g < fl->ngroups; g++) {
		v->gfirst[g] = at;
		v->lo[g] = INFINITY;
		v->hi[g] = -INFINITY;
		for (size_t i = 0; i < fl->n; i++) {
			const struct tl_fp_figures *f = &fl->nodes[i].fig;

			if (fl->nodes[i].group != g)
				continue;
			v->order[at++] = i;
			if (!f->nsamples)
				continue;
			v->sorted[i] = malloc(f->nsamples * sizeof *v->sorted[i]);
			if (!v->sorted[i])
				return -1;
			/* the histogram, ascending, back to its values */
			for (size_t h = 0, k = 0; h < f->hist.n; h++)
				for (uint64_t c = 0; c < f->hist.c[h]; c++)
					v->sorted[i][k++] = f->hist.v[h];
			v->lo[g] = fmin(v->lo[g], v->sorted[i][0]);
			v->hi[g] = fmax(v->hi[g], stats_quantile_sorted(v->sorted[i], f->nsamples, 0.99));
		}
	}
	v->gfirst[fl->ngroups] = at;
	return 0;
}

/* Opens on the first flagged node, in its group. */
static void first_pick(struct tui_fleet_view *v)
{
	for (size_t g = 0; g < v->fl.ngroups; g++)
		for (size_t j = v->gfirst[g]; j < v->gfirst[g + 1]; j++)
			if (v->fl.nodes[v->order[j]].flagged) {
				v->group = g;
				v->cursor = j - v->gfirst[g];
				return;
			}
}

int tui_fleet_load(struct tui_app *app, char *const *paths, size_t n, char *why, size_t whylen)
{
	struct tui_fleet_view *v = calloc(1, sizeof *v);

	if (!v) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (tl_fleet_load(paths, n, true, NULL, &v->fl, why, whylen) < 0) {
		view_free(v);
		return -1;
	}
	tl_fleet_judge(&v->fl, NULL);
	tl_lesson_fleet(&v->fl, v->lesson, sizeof v->lesson);
	if (prepare(v) < 0) {
		view_free(v);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (n == 1)
		snprintf(v->source, sizeof v->source, "%s", paths[0]);
	else
		snprintf(v->source, sizeof v->source, "%zu paths", n);
	first_pick(v);
	app->priv[TUI_FLEET] = v;
	return 0;
}

static void tui_fleet_free(struct tui_app *app)
{
	view_free(app->priv[TUI_FLEET]);
	app->priv[TUI_FLEET] = NULL;
}

static size_t group_size(const struct tui_fleet_view *v)
{
	return v->fl.ngroups ? v->gfirst[v->group + 1] - v->gfirst[v->group] : 0;
}

static const struct tl_fleet_node *group_node(const struct tui_fleet_view *v, size_t j)
{
	return &v->fl.nodes[v->order[v->gfirst[v->group] + j]];
}

static void tui_fleet_action(struct tui_app *app, enum tui_action a)
{
	struct tui_fleet_view *v = app->priv[TUI_FLEET];

	if (!v || !v->fl.ngroups)
		return;
	if (a == TUI_ACT_UP && v->cursor > 0)
		v->cursor--;
	else if (a == TUI_ACT_DOWN && v->cursor + 1 < group_size(v))
		v->cursor++;
	else if (a == TUI_ACT_PANE) {
		v->group = (v->group + 1) % v->fl.ngroups;
		v->cursor = v->top = 0;
	}
	app->dirty = true;
}

/* ---- drawing: reads the verdicts, computes nothing but coordinates ---- */

struct column {
	enum tl_fig fig;
	int w;
};

struct table {
	struct column col[TL_FIG_COUNT];
	size_t ncol;
	int name_w;
};

static int value_text(const struct tl_fleet_node *nd, enum tl_fig k, char *buf, size_t len)
{
	char v[32];

	tl_fig_format(k, nd->fig.v[k], v, sizeof v);
	return snprintf(buf, len, "%s%s", v, nd->odd[k] ? "!" : "");
}

static int column_width(const struct tui_fleet_view *v, enum tl_fig k)
{
	int w = (int)strlen(tl_fig_info[k].label);
	char buf[48];

	for (size_t j = 0; j < group_size(v); j++) {
		int n = value_text(group_node(v, j), k, buf, sizeof buf);
		if (n > w)
			w = n;
	}
	return w + 2;
}

#define ROW_FIXED 3 /* the cursor mark, the node's glyph, a space */
#define KS_W 7      /* "  0.62!" */
#define FLAG_W 9    /* "  FLAGGED" */

/* The columns that fit in w: the key figures first, then the others. */
static void table_of(const struct tui_fleet_view *v, int w, struct table *t)
{
	int width[TL_FIG_COUNT];
	bool on[TL_FIG_COUNT] = {false};
	int used;

	t->name_w = 4;
	for (size_t j = 0; j < group_size(v); j++) {
		char safe[NAME_MAX_COLS * 4 + 8];
		int n = (int)strlen(tl_term_safe(group_node(v, j)->fig.node.name, safe, sizeof safe));

		t->name_w = n > t->name_w ? n : t->name_w;
	}
	if (t->name_w > NAME_MAX_COLS)
		t->name_w = NAME_MAX_COLS;
	used = ROW_FIXED + t->name_w + KS_W + FLAG_W;
	for (size_t k = 0; k < TL_FIG_COUNT; k++)
		width[k] = column_width(v, (enum tl_fig)k);
	for (size_t i = 0; i < sizeof key_figs / sizeof *key_figs; i++)
		if (used + width[key_figs[i]] <= w) {
			on[key_figs[i]] = true;
			used += width[key_figs[i]];
		}
	for (size_t i = 0; i < sizeof more_figs / sizeof *more_figs; i++)
		if (used + width[more_figs[i]] <= w) {
			on[more_figs[i]] = true;
			used += width[more_figs[i]];
		}
	t->ncol = 0;
	for (size_t k = 0; k < TL_FIG_COUNT; k++)
		if (on[k])
			t->col[t->ncol++] = (struct column){(enum tl_fig)k, width[k]};
}

static int series_of(size_t j)
{
	return (int)(j % TUI_NSERIES);
}

static void draw_table_head(const struct tui_app *app, int y, int x, int w, const struct table *t)
{
	int a = tui_attr(app, TUI_ROLE_TITLE), c = ROW_FIXED;

	c += tui_putf(y, x + c, w - c, a, "%-*s", t->name_w, "node");
	for (size_t i = 0; i < t->ncol; i++)
		c += tui_putf(y, x + c, w - c, a, "%*s", t->col[i].w, tl_fig_info[t->col[i].fig].label);
	c += tui_putf(y, x + c, w - c, a, "%*s ", KS_W - 1, "KS D");
	tui_putf(y, x + c, w - c, a, "  %-*s", FLAG_W - 2, "flag");
}

static void draw_row(const struct tui_app *app, int y, int x, int w, const struct table *t, size_t j,
		     bool picked)
{
	const struct tl_fleet_node *nd = group_node(app->priv[TUI_FLEET], j);
	int fg = tui_attr(app, TUI_ROLE_MAIN_FG), warn = tui_attr(app, TUI_ROLE_WARN) | (int)A_BOLD;
	int c = 0;
	char buf[48], name[NAME_MAX_COLS * 4 + 8];

	if (picked)
		tui_put(y, x, 1, tui_attr(app, TUI_ROLE_HI) | (int)A_BOLD,
			app->tier == TUI_TIER_UTF8 ? "▶" : ">");
	tui_put(y, x + 1, 1, tui_attr_series(app, series_of(j)),
		tui_series_glyph(app->tier, series_of(j)));
	c = ROW_FIXED;
	c += tui_putf(y, x + c, w - c, nd->flagged ? warn : fg | (picked ? (int)A_BOLD : 0), "%-*.*s",
		      t->name_w, t->name_w, tl_term_safe(nd->fig.node.name, name, sizeof name));
	for (size_t i = 0; i < t->ncol; i++) {
		enum tl_fig k = t->col[i].fig;

		value_text(nd, k, buf, sizeof buf);
		c += tui_putf(y, x + c, w - c, nd->odd[k] ? warn : fg, "%*s", t->col[i].w, buf);
	}
	if (nd->tested)
		snprintf(buf, sizeof buf, "%.2f%s", nd->ks_d, nd->odd_samples ? "!" : " ");
	else
		snprintf(buf, sizeof buf, "- ");
	c += tui_putf(y, x + c, w - c, nd->odd_samples ? warn : fg, "%*s", KS_W, buf);
	tui_putf(y, x + c, w - c, nd->flagged ? warn : tui_attr(app, TUI_ROLE_OK), "  %-*s",
		 FLAG_W - 2, nd->flagged ? "FLAGGED" : "ok");
}

/* Wrapped text from y, above ymax (the caller made room for it whole, at
 * the table's and the curves' expense); returns the next row. */
static int put_lines(int y, int ymax, int x, int w, int attr, const char *text)
{
	char rows[REASON_ROWS][TUI_WRAP_LINE];
	size_t n = tui_wrap(text, w - 2, rows, REASON_ROWS);

	for (size_t i = 0; i < n && i < REASON_ROWS && y < ymax; i++)
		tui_put(y++, x + (i ? 2 : 0), w - (i ? 2 : 0), attr, rows[i]);
	return y;
}

static size_t lines_of(const char *text, int w)
{
	return tui_wrap(text, w - 2, NULL, 0);
}

/* What is said under the curves: each flagged node's reasons, then each
 * note (a difference told apart but within the node's own noise, which the
 * CLI's table prints too), or that none stands out, or why the group was
 * not compared. */
static bool said(const struct tl_fleet_node *nd, bool notes)
{
	return notes ? nd->note[0] != '\0' : nd->flagged;
}

static void verdict_text(const struct tui_fleet_view *v, size_t j, bool notes, char *buf,
			 size_t len)
{
	const struct tl_fleet_node *nd = group_node(v, j);
	char name[512], reason[sizeof nd->reason > sizeof nd->note ? sizeof nd->reason
								      : sizeof nd->note];

	/* from files written elsewhere: escaped even though checked on load */
	snprintf(buf, len, "%s: %s", tl_term_safe(nd->fig.node.name, name, sizeof name),
		 tl_term_safe(notes ? nd->note : nd->reason, reason, sizeof reason));
}

/* The rows of the flagged nodes' reasons (or of the line saying none
 * stands out), and of the notes (each whole). */
static size_t verdict_rows(const struct tui_fleet_view *v, int w, bool notes)
{
	char text[1700];
	size_t rows = 0, n = 0;

	for (size_t j = 0; j < group_size(v); j++)
		if (said(group_node(v, j), notes)) {
			verdict_text(v, j, notes, text, sizeof text);
			rows += lines_of(text, w);
			n++;
		}
	return notes || n ? rows : 1;
}

static size_t notes_count(const struct tui_fleet_view *v)
{
	size_t n = 0;

	for (size_t j = 0; j < group_size(v); j++)
		n += said(group_node(v, j), true);
	return n;
}

/* The notes in room rows: whole while they fit, then one line naming how
 * many more there are (the reasons always come first and whole). */
static void draw_notes(const struct tui_app *app, int y, int ymax, int x, int w, int room)
{
	const struct tui_fleet_view *v = app->priv[TUI_FLEET];
	int dim = tui_attr(app, TUI_ROLE_INACTIVE), end = y + room < ymax ? y + room : ymax;
	size_t total = notes_count(v), shown = 0;
	char text[1700];

	for (size_t j = 0; j < group_size(v); j++) {
		if (!said(group_node(v, j), true))
			continue;
		verdict_text(v, j, true, text, sizeof text);
		/* the last row is kept for the count of the rest unless this is the last note */
		if ((int)lines_of(text, w) > end - y - (shown + 1 < total))
			break;
		y = put_lines(y, end, x, w, dim, text);
		shown++;
	}
	if (shown < total && y < end)
		tui_putf(y, x, w, dim, "%s%zu note(s): samples told apart, within own noise "
				       "(ticklab fleet prints them)",
			 shown ? "+" : "", total - shown);
}

static void draw_verdicts(const struct tui_app *app, int y, int ymax, int x, int w, int note_room)
{
	const struct tui_fleet_view *v = app->priv[TUI_FLEET];
	char text[1700];
	size_t flagged = 0;

	for (size_t j = 0; j < group_size(v); j++)
		if (said(group_node(v, j), false)) {
			verdict_text(v, j, false, text, sizeof text);
			y = put_lines(y, ymax, x, w, tui_attr(app, TUI_ROLE_WARN), text);
			flagged++;
		}
	if (!flagged && !v->fl.groups[v->group].note[0] && y < ymax)
		tui_putf(y, x, w, tui_attr(app, TUI_ROLE_OK),
			 "no node of this group stands out (|robust z| <= %.0f on every figure; "
			 "samples within the nodes' own noise)",
			 TL_FLEET_Z);
	if (!flagged)
		y++;
	draw_notes(app, y, ymax, x, w, note_room);
}

/* The nodes whose curves are drawn (the rows shown), the picked one and
 * then the flagged ones last, so they lie on top. */
static size_t curve_order(const struct tui_fleet_view *v, size_t first, size_t n, size_t *out)
{
	size_t m = 0;

	for (int pass = 0; pass < 3; pass++)
		for (size_t j = first; j < first + n; j++) {
			bool flagged = group_node(v, j)->flagged, picked = j == v->cursor;
			int p = flagged ? 2 : picked ? 1 : 0;

			if (p == pass)
				out[m++] = j;
		}
	return m;
}

static void draw_cdf(const struct tui_app *app, int y, int x, int w, int h, size_t first, size_t n)
{
	const struct tui_fleet_view *v = app->priv[TUI_FLEET];
	double lo = v->lo[v->group], hi = v->hi[v->group];
	int dim = tui_attr(app, TUI_ROLE_INACTIVE), cw = w - YLAB, ch = h - 2;
	size_t idx[TUI_NSERIES * 8], m;
	struct tui_canvas cv;
	const struct tui_rect box = {y, x, h, w};
	char title[320];

	snprintf(title, sizeof title, "CDF of each node's add:%d samples (%s, flush 0, ns after "
				      "filters, to p99)",
		 TL_FP_ADDS, group_node(v, first)->fig.barrier);
	if ((int)strlen(title) > w)
		snprintf(title, sizeof title, "CDF of each node's add:%d samples (%s, flush 0, to p99)",
			 TL_FP_ADDS, group_node(v, first)->fig.barrier);
	if ((int)strlen(title) > w)
		snprintf(title, sizeof title, "CDF of add:%d (%s, to p99)", TL_FP_ADDS,
			 group_node(v, first)->fig.barrier);
	tui_put(y, x, w, tui_attr(app, TUI_ROLE_TITLE), title);
	if (n > sizeof idx / sizeof *idx)
		n = sizeof idx / sizeof *idx;
	m = curve_order(v, first, n, idx);
	if (cw < 8 || ch < 2 || tui_canvas_init_range(&cv, cw, ch, lo, &hi) < 0) {
		tui_put(y + 1, x, w, dim, "no samples to draw");
		return;
	}
	tui_put_cdf_yaxis(app, &box, YLAB);
	for (size_t i = 0; i < m; i++) {
		const struct tl_fleet_node *nd = group_node(v, idx[i]);
		const double *s = v->sorted[v->order[v->gfirst[v->group] + idx[i]]];
		int series = series_of(idx[i]);

		if (!s)
			continue;
		tui_canvas_cdf(&cv, s, nd->fig.nsamples, lo, hi, series, TUI_CDF_SOLID);
		/* each node's glyph on its own curve, spaced apart */
		tui_canvas_cdf_mark(&cv, s, nd->fig.nsamples, lo, hi,
				    (int)((long)cw * (long)(idx[i] - first + 1) / (long)(n + 1)), series);
	}
	tui_put_canvas(app, y + 1, x + YLAB, &cv);
	tui_canvas_free(&cv);
	tui_put_ns_xaxis(app, &box, YLAB, lo, hi);
}

/* The header: the fleet and the group shown, wrapped whole. */
static void head_text(const struct tui_fleet_view *v, char *buf, size_t len)
{
	const struct tl_fleet_group *g = &v->fl.groups[v->group];
	char of[64] = "", model[sizeof g->model];

	if (v->fl.ngroups > 1)
		snprintf(of, sizeof of, " of %zu (Tab: next)", v->fl.ngroups);
	snprintf(buf, len, "group %zu%s: %s, TSC %.4g GHz, %zu node(s)%s%s", v->group + 1, of,
		 g->model[0] ? tl_term_safe(g->model, model, sizeof model) : "?", g->tsc_ghz, g->nnodes, g->note[0] ? "; " : "",
		 g->note);
}

/* The first line: what was opened, then the lesson in the CLI's words
 * ("In short: 1 of 4 nodes stands out: n3 (CPU% ...)"). */
static void head_title(const struct tui_fleet_view *v, char *buf, size_t len)
{
	char lesson[sizeof v->lesson];

	snprintf(buf, len, "Fleet of %zu node(s) from %s. In short: %s", v->fl.n, v->source,
		 tl_term_safe(v->lesson, lesson, sizeof lesson));
}

static int draw_head(const struct tui_app *app, int y, int ymax, int x, int w)
{
	const struct tui_fleet_view *v = app->priv[TUI_FLEET];
	char text[512];

	head_title(v, text, sizeof text);
	y = put_lines(y, ymax, x, w, tui_attr(app, TUI_ROLE_TITLE) | (int)A_BOLD, text);
	head_text(v, text, sizeof text);
	return put_lines(y, ymax, x, w,
			 tui_attr(app, v->fl.groups[v->group].note[0] ? TUI_ROLE_WARN : TUI_ROLE_MAIN_FG),
			 text);
}

static size_t head_rows(const struct tui_fleet_view *v, int w)
{
	char text[512];

	head_title(v, text, sizeof text);
	size_t n = lines_of(text, w);
	head_text(v, text, sizeof text);
	return n + lines_of(text, w);
}

/* How many table rows, CDF rows and rows of notes the body holds for the
 * group shown. */
static void fit_body(const struct tui_app *app, size_t *rows_out, int *cdf_out, int *notes_out)
{
	const struct tui_fleet_view *v = app->priv[TUI_FLEET];
	const struct tui_rect *r = &app->lay.body;
	int w = r->w - 2, y = r->y, ymax = r->y + r->h;
	size_t count, rows, notes = verdict_rows(v, w, true);
	int left, cdf_h, spare;

	count = group_size(v);
	/* rows: the header and the reasons whole, a line for the notes, then
	 * the table, then the CDF */
	left = (int)(ymax - y) - (int)head_rows(v, w) - (int)verdict_rows(v, w, false) - 2 -
	       (notes > 0);
	/* at most one row per series, so the curves in view differ in glyph and
	 * colour; the curves keep two fifths of what is left */
	rows = count < TUI_NSERIES ? count : TUI_NSERIES;
	cdf_h = left - 1 - (int)rows;
	if (cdf_h < CDF_MIN_ROWS || cdf_h < left * 2 / 5) {
		int keep = left * 2 / 5 > CDF_MIN_ROWS ? left * 2 / 5 : CDF_MIN_ROWS;
		int fit = left - 1 - keep;
		rows = fit > TABLE_MIN_ROWS ? (size_t)fit : TABLE_MIN_ROWS;
		rows = rows < count ? rows : count;
		cdf_h = left - 1 - (int)rows;
	}
	/* the notes whole take rows from the curves while these keep CDF_KEEP_ROWS */
	spare = cdf_h - CDF_KEEP_ROWS;
	if (notes > 1 && spare > 0) {
		int take = (int)notes - 1 < spare ? (int)notes - 1 : spare;

		cdf_h -= take;
		*notes_out = 1 + take;
	} else {
		*notes_out = notes > 0;
	}
	*rows_out = rows;
	*cdf_out = cdf_h;
}

/* The scroll that keeps the picked node in the table. */
static void fleet_poll(struct tui_app *app, bool shown)
{
	struct tui_fleet_view *v = app->priv[TUI_FLEET];
	size_t rows;
	int cdf_h, notes;

	if (!shown || !v || !v->fl.ngroups)
		return;
	fit_body(app, &rows, &cdf_h, &notes);
	if (v->cursor < v->top)
		v->top = v->cursor;
	if (v->cursor >= v->top + rows)
		v->top = v->cursor + 1 - rows;
}

static void tui_fleet_draw(const struct tui_app *app, struct tui_hits *hits)
{
	const struct tui_fleet_view *v = app->priv[TUI_FLEET];
	const struct tui_rect *r = &app->lay.body;
	int x = r->x + 1, w = r->w - 2, y = r->y, ymax = r->y + r->h;
	size_t count, rows;
	int cdf_h, notes;
	struct table t;

	(void)hits;
	if (!v || !v->fl.ngroups) {
		tui_put_empty(app, "no fleet: ticklab tui --fleet DIR opens one");
		return;
	}
	count = group_size(v);
	fit_body(app, &rows, &cdf_h, &notes);
	y = draw_head(app, y, ymax, x, w);
	table_of(v, w, &t);
	draw_table_head(app, y++, x, w, &t);
	for (size_t j = v->top; j < v->top + rows && j < count && y < ymax; j++)
		draw_row(app, y++, x, w, &t, j, j == v->cursor);
	if (rows < count && y < ymax)
		tui_putf(y, x + ROW_FIXED, w - ROW_FIXED, tui_attr(app, TUI_ROLE_INACTIVE),
			 "nodes %zu-%zu of %zu (Up/Down)", v->top + 1, v->top + rows, count);
	y++;
	if (cdf_h >= CDF_MIN_ROWS) {
		draw_cdf(app, y, x, w, cdf_h, v->top, rows);
		y += cdf_h + 1;
	}
	draw_verdicts(app, y, ymax, x, w, notes);
}

static const char *fleet_absent(const struct tui_app *app)
{
	return app->priv[TUI_FLEET] ? NULL : "no fleet: ticklab tui --fleet DIR opens one";
}

/* tui --fleet: the lab opens on it. */
static const char *fleet_opens(const struct tui_app *app)
{
	return app->priv[TUI_FLEET] ? "fleet: Up/Down picks a node, Tab the next group, ? every key"
				    : NULL;
}

const struct tui_screen_ops tui_fleet_screen = {
	.name = "Fleet",
	.absent = fleet_absent,
	.tab_needs_content = true,
	.opens = fleet_opens,
	.poll = fleet_poll,
	.draw = tui_fleet_draw,
	.action = tui_fleet_action,
	.free = tui_fleet_free,
};
