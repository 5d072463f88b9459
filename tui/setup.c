#include "config.h"

#include <math.h>
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "bench/levels.h"
#include "bench/probe.h"
#include "bench/size.h"
#include "tui/app.h"
#include "tui/wrap.h"
#include "tui/curses.h"

#define LIST_BACKENDS 0
#define LIST_FLUSH 1
#define LIST_KERNELS 2

static struct tui_item *list_add(struct tui_list *l)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct tui_item *it = tl_xrealloc(l->items, cap, sizeof *it);
		l->items = it;
		l->cap = cap;
	}
	struct tui_item *it = &l->items[l->n++];
	memset(it, 0, sizeof *it);
	return it;
}

/* Whether the backend works here and, when it does, what it costs and how
 * fine it is: the same probe as `ticklab info`. */
static void probe_backend(struct tui_item *it, const char *id)
{
	static struct tl_syscall_cost cost;
	struct tl_probe p;
	char a[32], b[32];

	/* About a millisecond, once: what a system call costs here. */
	if (!(cost.syscall_ns > 0))
		tl_syscall_cost_measure(&cost);
	snprintf(it->label, sizeof it->label, "%s", id);
	tl_backend_probe(id, &cost, &p);
	it->available = p.available;
	if (!p.available) {
		snprintf(it->detail, sizeof it->detail, "unavailable: %.290s", p.reason);
		return;
	}
	tui_fmt_ns(p.overhead_ns, a, sizeof a);
	if (isfinite(p.resolution_ns))
		tui_fmt_ns(p.resolution_ns, b, sizeof b);
	else
		snprintf(b, sizeof b, "-");
	snprintf(it->detail, sizeof it->detail, "t_e %s  res %s  %s%s%s", a, b,
		 p.syscall_per_read ? "a syscall per read: " : "", p.backend->how,
		 p.backend->simulated ? "  (simulated)" : "");
}

static int by_bytes(const void *a, const void *b)
{
	uint64_t x = ((const struct tui_item *)a)->bytes, y = ((const struct tui_item *)b)->bytes;
	return (x > y) - (x < y);
}

static void add_flush(struct tui_app *app, const char *text, bool selected)
{
	uint64_t bytes;
	char why[256], human[32];
	if (tl_size_parse(text, app->node.have_topo ? &app->node.topo : NULL, &bytes, why, sizeof why) < 0)
		return; /* a preset this node cannot have (no L3, say) is left out */
	struct tui_list *l = &app->lists[LIST_FLUSH];
	tl_size_format(bytes, human, sizeof human);
	for (size_t i = 0; i < l->n; i++)
		if (l->items[i].bytes == bytes) {
			/* 4xL2 says why the size is there; a bare 4MiB equal to it
			 * does not: the cache multiple names the row */
			if (strstr(text, "xL") && !strstr(l->items[i].label, "xL")) {
				snprintf(l->items[i].label, sizeof l->items[i].label, "%s", text);
				snprintf(l->items[i].detail, sizeof l->items[i].detail, "= %s", human);
			}
			return;
		}
	struct tui_item *it = list_add(l);
	snprintf(it->label, sizeof it->label, "%s", text);
	if (strcmp(human, text) != 0)
		snprintf(it->detail, sizeof it->detail, "= %s", human);
	it->bytes = bytes;
	it->available = true;
	it->selected = selected;
}

/* D in ADDs with its ns beside when this node's ns per ADD was measured;
 * without it the ADDs alone (no guessed clock rate). */
static void jitter_adds_detail(const struct tui_app *app, const struct tl_kernel *k, char *buf,
			       size_t len)
{
	char ns[48] = "", v[32];

	if (app->node.ns_per_add > 0) {
		tui_fmt_ns((double)k->d * app->node.ns_per_add, v, sizeof v);
		snprintf(ns, sizeof ns, " (%s)", v);
	}
	snprintf(buf, len, "D = %llu ADDs%s on %g%% of samples, K = %llu ADDs",
		 (unsigned long long)k->d, ns, 100 * k->p, (unsigned long long)k->k);
}

/* The ns per ADD of the preselected barrier timer, as a run measures it
 * before converting a D in ns (bench/runner.c): a few ms, once. Left 0
 * (unknown) where no such timer opens or the value is not a positive one. */
static void measure_ns_per_add(struct tui_app *app, const char *id)
{
	struct tl_timer t;
	char why[TL_WHY_MAX];

	app->node.ns_per_add = 0;
	if (!id || tl_timer_open(&t, id, why, sizeof why) < 0)
		return;
	double v = tl_ns_per_add(&t);
	tl_timer_close(&t);
	if (isfinite(v) && v > 0)
		app->node.ns_per_add = v;
}

/* The kernels text names, as rows: -1 with why, else how many were already
 * listed (those rows are selected, not added again). */
static int add_kernels(struct tui_app *app, const char *text, bool selected, char *why,
		       size_t whylen)
{
	struct tl_kernel *k = NULL;
	size_t n = 0;
	int listed = 0;
	if (tl_kernel_parse_list_topo(text, app->node.have_topo ? &app->node.topo : NULL, &k, &n, why,
				      whylen) < 0)
		return -1;
	struct tui_list *l = &app->lists[LIST_KERNELS];
	for (size_t j = 0; j < n; j++) {
		struct tui_item *it = NULL;
		/* A kernel already listed is that row (selected when asked),
		 * never a second one: a run takes each kernel once, as the
		 * CLI's -k does. */
		for (size_t i = 0; i < l->n && !it; i++)
			if (!strcmp(l->items[i].label, k[j].label))
				it = &l->items[i];
		if (it) {
			it->selected = it->selected || selected;
			listed++;
			continue;
		}
		it = list_add(l);
		snprintf(it->label, sizeof it->label, "%s", k[j].label);
		it->kernel = k[j];
		it->available = true;
		it->selected = selected;
		if (k[j].kind == TL_KERNEL_EMPTY)
			snprintf(it->detail, sizeof it->detail, "the timer's own cost");
		else if (k[j].kind == TL_KERNEL_JITTER)
			/* units on every number: the preset's 5 is ADDs, not ns */
			if (k[j].d_ns > 0)
				snprintf(it->detail, sizeof it->detail,
					 "D = %g ns on %g%% of samples, K = %llu ADDs", k[j].d_ns,
					 100 * k[j].p, (unsigned long long)k[j].k);
			else
				jitter_adds_detail(app, &k[j], it->detail, sizeof it->detail);
		else
			snprintf(it->detail, sizeof it->detail, "%llu dependent %ss",
				 (unsigned long long)k[j].k, tl_kernel_op(k[j].kind));
	}
	free(k);
	return listed;
}

int tui_setup_add_kernels(struct tui_app *app, const char *text, bool selected, char *why,
			  size_t whylen)
{
	return add_kernels(app, text, selected, why, whylen);
}

/* After Info measured the levels again: the topology NxLk goes by, and each
 * flush and kernel named by a cache multiple sized anew. The rows keep their
 * place (the cursor stays on its row); a run already made keeps its bytes
 * and the levels it was sized by (tui_results). */
static void setup_resize(struct tui_app *app)
{
	char why[256], note[512], human[32];
	const struct tl_topology *topo;
	struct tui_list *lf = &app->lists[LIST_FLUSH], *lk = &app->lists[LIST_KERNELS];

	app->node.have_topo = tl_levels_sizes(app->opts.cpu, true, &app->node.topo, note,
					      sizeof note, why, sizeof why) == 0;
	topo = app->node.have_topo ? &app->node.topo : NULL;
	for (size_t i = 0; i < lf->n; i++) {
		struct tui_item *it = &lf->items[i];
		uint64_t bytes;

		if (!strstr(it->label, "xL") ||
		    tl_size_parse(it->label, topo, &bytes, why, sizeof why) < 0)
			continue;
		it->bytes = bytes;
		tl_size_format(bytes, human, sizeof human);
		snprintf(it->detail, sizeof it->detail, "= %s", human);
	}
	for (size_t i = 0; i < lk->n; i++) {
		struct tui_item *it = &lk->items[i];
		struct tl_kernel *k = NULL;
		size_t n = 0;

		if (strstr(it->label, "xL") &&
		    tl_kernel_parse_list_topo(it->label, topo, &k, &n, why, sizeof why) == 0 &&
		    n == 1)
			it->kernel = k[0];
		free(k);
	}
	app->dirty = true;
}


void tui_setup_init(struct tui_app *app)
{
	static const char *const titles[3] = {"Backends", "Flush sizes", "Kernels"};
	char why[256], note[512];
	for (int i = 0; i < 3; i++)
		app->lists[i].title = titles[i];
	/* NxLk flushes and load sizes go by the levels a chase sees where
	 * CPUID's disagree, decided as the CLI decides them */
	app->node.have_topo = tl_levels_sizes(app->opts.cpu, true, &app->node.topo, note, sizeof note, why,
					 sizeof why) == 0;
	if (note[0])
		tui_message(app, false, "cache multiples go by %s", note);

	/* Preselected: the paper's pair where this node has it. */
	char said[2 * TL_WHY_MAX];
	const char *barrier = tl_backend_default_barrier(said, sizeof said);
	for (size_t i = 0; tl_backends[i]; i++) {
		struct tui_item *it = list_add(&app->lists[LIST_BACKENDS]);
		probe_backend(it, tl_backends[i]->id);
		it->selected = it->available && ((barrier && strcmp(it->label, barrier) == 0) ||
						 strcmp(it->label, "papi-real-nsec") == 0);
	}
	measure_ns_per_add(app, barrier);
	if (barrier && strcmp(barrier, "barrier-tsc") && strcmp(barrier, "barrier-cntvct"))
		tui_message(app, false, "%s", said);
	static const char *const flush[] = {"0",     "32KiB", "128KiB", "1MiB", "4MiB",
					    "4xL1",  "4xL2",  "4xL3",   "16MiB", "27.5MiB",
					    "64MiB", "110MiB"};
	for (size_t i = 0; i < sizeof flush / sizeof flush[0]; i++)
		add_flush(app, flush[i], i == 0);
	/* smallest first: the cache multiples land where their sizes do */
	qsort(app->lists[LIST_FLUSH].items, app->lists[LIST_FLUSH].n,
	      sizeof app->lists[LIST_FLUSH].items[0], by_bytes);
	static const char *const kern[] = {"empty", "add:100", "add:500", "add:1000", "add:5000",
					   "add:20000", "jitter:500,5,0.1"};
	for (size_t i = 0; i < sizeof kern / sizeof kern[0]; i++)
		add_kernels(app, kern[i], i <= 2, why, sizeof why);
}

static void filter_clear(struct tui_list *l)
{
	if (l->md)
		pcre2_match_data_free(l->md);
	if (l->re)
		pcre2_code_free(l->re);
	l->md = l->re = NULL;
	l->pattern[0] = '\0';
}

void tui_setup_free(struct tui_app *app)
{
	for (int i = 0; i < 3; i++) {
		filter_clear(&app->lists[i]);
		free(app->lists[i].items);
		app->lists[i].items = NULL;
		app->lists[i].n = app->lists[i].cap = 0;
		app->lists[i].cursor = app->lists[i].top = 0;
	}
}

/* Bytes of text that fit in room columns when a row cut short ends at a
 * space and keeps ell columns for its ellipsis: no word is shown in part
 * (only a single word wider than the row is). *cut: some was left off. */
static size_t fit_words(const char *text, long room, int ell, bool *cut)
{
	size_t bytes = 0;
	long cols = 0;
	for (; text[bytes]; cols++) {
		bytes++;
		while ((text[bytes] & 0xc0) == 0x80)
			bytes++;
	}
	*cut = cols > room;
	if (!*cut)
		return bytes;
	size_t fit = 0;
	for (long c = 0; text[fit] && c < room - ell; c++) {
		fit++;
		while ((text[fit] & 0xc0) == 0x80)
			fit++;
	}
	size_t at = fit;
	while (at > 0 && text[at] != ' ')
		at--;
	while (at > 0 && text[at - 1] == ' ')
		at--;
	return at > 0 ? at : fit;
}

/* What a row shows of an item: its label and as much of its detail as the
 * row has room for (draw_list's layout), so a filter never matches words
 * cut off the screen. Before the first draw, all of it. */
static void shown_text(const struct tui_list *l, size_t i, char *buf, size_t len)
{
	const struct tui_item *it = &l->items[i];
	size_t lab = strlen(it->label);
	long room = (long)sizeof it->detail;
	if (l->row_cols > 0)
		room = (long)l->row_cols - 4 - (long)(lab > (size_t)l->label_cols ? lab : (size_t)l->label_cols) - 1;
	bool cut;
	size_t bytes = fit_words(it->detail, room, 1, &cut);
	snprintf(buf, len, "%s  %.*s", it->label, (int)bytes, it->detail);
}

bool tui_list_visible(const struct tui_list *l, size_t i)
{
	if (!l->re)
		return true;
	char text[TL_ID_MAX + 330];
	shown_text(l, i, text, sizeof text);
	return pcre2_match(l->re, (PCRE2_SPTR)text, strlen(text), 0, 0, l->md, NULL) >= 0;
}

/* Moves the cursor to a visible row, searching in direction dir first. */
static void cursor_fix(struct tui_list *l, int dir)
{
	if (!l->n)
		return;
	if (l->cursor >= l->n)
		l->cursor = l->n - 1;
	for (size_t step = 0; step < l->n; step++) {
		size_t i = dir >= 0 ? (l->cursor + step) % l->n : (l->cursor + l->n - step) % l->n;
		if (tui_list_visible(l, i)) {
			l->cursor = i;
			return;
		}
	}
}

static void cursor_move(struct tui_list *l, int dir)
{
	for (size_t i = l->cursor;;) {
		if (dir > 0 ? i + 1 >= l->n : i == 0)
			return;
		i = dir > 0 ? i + 1 : i - 1;
		if (tui_list_visible(l, i)) {
			l->cursor = i;
			return;
		}
	}
}

/* Compiles the pattern once; the list keeps it until the next one.
 * Returns 0, or -1 with the regex error in why (the list unchanged). */
static int filter_compile(struct tui_list *l, const char *pattern, char *why, size_t whylen)
{
	if (!*pattern) {
		filter_clear(l);
		return 0;
	}
	int err;
	PCRE2_SIZE off;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, PCRE2_CASELESS,
				       &err, &off, NULL);
	if (!re) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(err, msg, sizeof msg);
		snprintf(why, whylen, "regex error at offset %zu: %s", (size_t)off, (char *)msg);
		return -1;
	}
	filter_clear(l);
	l->re = re;
	l->md = pcre2_match_data_create_from_pattern(re, NULL);
	snprintf(l->pattern, sizeof l->pattern, "%s", pattern);
	cursor_fix(l, 1);
	return 0;
}

static void filter_set(struct tui_app *app, struct tui_list *l, const char *pattern)
{
	char why[320];
	if (filter_compile(l, pattern, why, sizeof why) < 0) {
		tui_message(app, true, "%s", why);
		return;
	}
	if (!*pattern) {
		tui_message(app, false, "%s: filter cleared", l->title);
		return;
	}
	size_t shown = 0;
	for (size_t i = 0; i < l->n; i++)
		shown += tui_list_visible(l, i);
	tui_message(app, false, "%s: /%s/ shows %zu of %zu", l->title, pattern, shown, l->n);
}

/* A pattern half typed ("[a") may not compile yet: the last one that did
 * stays until Enter says what is wrong. */
void tui_setup_filter_typed(struct tui_app *app)
{
	char why[320];
	app->line.buf[app->line.len] = '\0';
	filter_compile(&app->lists[app->focus], app->line.buf, why, sizeof why);
}

static void custom_add(struct tui_app *app, const char *text)
{
	char why[512];
	struct tui_list *l = &app->lists[app->focus];
	if (app->focus == LIST_FLUSH) {
		uint64_t bytes;
		if (tl_size_parse(text, app->node.have_topo ? &app->node.topo : NULL, &bytes, why,
				  sizeof why) < 0) {
			tui_message(app, true, "refused: %s", why);
			return;
		}
		size_t before = l->n;
		add_flush(app, text, true);
		if (l->n == before) {
			for (size_t i = 0; i < l->n; i++)
				if (l->items[i].bytes == bytes)
					l->items[i].selected = true;
			tui_message(app, false, "%s is already listed: selected", text);
			return;
		}
		l->cursor = l->n - 1;
		tui_message(app, false, "added flush size %s", text);
	} else if (app->focus == LIST_KERNELS) {
		size_t before = l->n;
		int listed = add_kernels(app, text, true, why, sizeof why);
		if (listed < 0) {
			tui_message(app, true, "refused: %s", why);
			return;
		}
		l->cursor = l->n - 1;
		if (listed)
			tui_message(app, false, "added %zu kernel%s, selected %d already listed",
				    l->n - before, l->n - before == 1 ? "" : "s", listed);
		else
			tui_message(app, false, "added %zu kernel%s", l->n - before,
				    l->n - before == 1 ? "" : "s");
	} else {
		struct tui_item probe;
		memset(&probe, 0, sizeof probe);
		probe_backend(&probe, text);
		if (!probe.available) {
			tui_message(app, true, "refused: %s", probe.detail);
			return;
		}
		struct tui_item *it = list_add(l);
		*it = probe;
		it->selected = true;
		l->cursor = l->n - 1;
		tui_message(app, false, "added backend %s", text);
	}
	filter_clear(l);
}

void tui_setup_input_done(struct tui_app *app, bool accept)
{
	enum tui_input what = app->line.mode;
	app->line.mode = TUI_INPUT_NONE;
	app->line.buf[app->line.len] = '\0';
	if (!accept) {
		if (what == TUI_INPUT_FILTER) {
			char why[320];
			struct tui_list *l = &app->lists[app->focus];
			filter_compile(l, l->before, why, sizeof why);
			l->cursor = l->cursor_before;
			cursor_fix(l, 1);
		}
		tui_message(app, false, " ");
		return;
	}
	if (what == TUI_INPUT_FILTER) {
		filter_set(app, &app->lists[app->focus], app->line.buf);
	} else if (what == TUI_INPUT_CUSTOM) {
		if (app->line.len)
			custom_add(app, app->line.buf);
	} else if (what == TUI_INPUT_SEARCH_PARAMS) {
		tui_search_params_done(app, app->line.buf);
	} else if (what == TUI_INPUT_N) {
		char *end;
		unsigned long long v = strtoull(app->line.buf, &end, 10);
		if (!app->line.len || *end || v < 2 || v > 100000000ULL)
			tui_message(app, true, "refused: N '%s' must be a whole number from 2 to 100000000",
				    app->line.buf);
		else {
			app->opts.n = (size_t)v;
			tui_message(app, false, "N = %zu samples per cell", app->opts.n);
		}
	}
}

static void start_input(struct tui_app *app, enum tui_input what, const char *initial)
{
	app->line.mode = what;
	snprintf(app->line.buf, sizeof app->line.buf, "%s", initial);
	app->line.len = strlen(app->line.buf);
	app->msg.text[0] = '\0';
}

void tui_setup_action(struct tui_app *app, enum tui_action a)
{
	struct tui_list *l = &app->lists[app->focus];
	switch (a) {
	case TUI_ACT_UP:
		cursor_move(l, -1);
		break;
	case TUI_ACT_DOWN:
		cursor_move(l, 1);
		break;
	case TUI_ACT_LEFT:
		app->focus = (app->focus + 2) % 3;
		break;
	case TUI_ACT_RIGHT:
	case TUI_ACT_PANE:
		app->focus = (app->focus + 1) % 3;
		break;
	case TUI_ACT_SELECT:
		if (l->n && tui_list_visible(l, l->cursor)) {
			struct tui_item *it = &l->items[l->cursor];
			if (!it->available)
				tui_message(app, true, "%s is %s", it->label, it->detail);
			else
				it->selected = !it->selected;
		}
		break;
	case TUI_ACT_FILTER:
		memcpy(l->before, l->pattern, sizeof l->before);
		l->cursor_before = l->cursor;
		start_input(app, TUI_INPUT_FILTER, l->pattern);
		break;
	case TUI_ACT_ADD:
		start_input(app, TUI_INPUT_CUSTOM, "");
		break;
	case TUI_ACT_SETN: {
		char n[32];
		snprintf(n, sizeof n, "%zu", app->opts.n);
		start_input(app, TUI_INPUT_N, n);
		break;
	}
	case TUI_ACT_LADDER:
		tui_ladder_preset(app);
		break;
	default:
		break;
	}
	app->dirty = true;
}

void tui_setup_click(struct tui_app *app, int y, int x, bool toggle)
{
	for (int which = 0; which < 3; which++) {
		const struct tui_rect *r = &app->lay.list[which];
		struct tui_list *l = &app->lists[which];
		if (y < r->y || y >= r->y + r->h || x < r->x || x >= r->x + r->w)
			continue;
		app->focus = which;
		if (y == r->y)
			break; /* the title: focus only */
		size_t want = l->top + (size_t)(y - r->y - 1), vis = 0;
		for (size_t i = 0; i < l->n; i++) {
			if (!tui_list_visible(l, i))
				continue;
			if (vis++ == want) {
				l->cursor = i;
				if (toggle)
					tui_setup_action(app, TUI_ACT_SELECT);
				break;
			}
		}
		break;
	}
	app->dirty = true;
}

/* Rows an item takes wrapped when label and description share cols
 * columns (at least one: a row without a description is its label). */
static size_t row_lines(const char *label, const char *detail, int pad, long cols)
{
	char wl[1][TUI_WRAP_LINE];
	long lab = (long)strlen(label), w = cols - (lab > pad ? lab : pad);
	size_t n = w > 8 ? tui_wrap(detail, (int)w, wl, 0) : 99;
	return n ? n : 1;
}

/* How a list's rows are laid out at its size: whether every row wraps in
 * words (a wide terminal's spare height), else how many extra rows each
 * item other than the cursor's may take (cap). Read by poll and draw alike. */
struct list_shape {
	int pad, rows;
	long room, cap;
	size_t nvis;
	bool wrap;
};

static void list_shape(const struct tui_app *app, int which, struct list_shape *sh)
{
	const struct tui_list *l = &app->lists[which];
	const struct tui_rect *r = &app->lay.list[which];
	bool focused = app->focus == which;
	int pad = which == LIST_BACKENDS ? 22 : 8, rows = r->h - 1;
	size_t nvis = 0;
	for (size_t i = 0; i < l->n; i++)
		nvis += tui_list_visible(l, i);
	/* When every row fits wrapped in words, rows wrap; otherwise a row cut
	 * short ends in an ellipsis and the cursor's whole description shows
	 * in the rows left under the list. */
	long room = (long)r->w - 4 - pad - 1;
	size_t need = 0;
	for (size_t i = 0; i < l->n; i++)
		if (tui_list_visible(l, i))
			need += row_lines(l->items[i].label, l->items[i].detail, pad, room + pad);
	bool wrap = rows > 0 && room > 8 && need <= (size_t)rows;
	/* Not all fit wrapped but every item fits on a row: the spare rows go
	 * to the cursor's item first, then to the others in order (120x35). */
	long spare = 0;
	if (!wrap && rows > 0 && room > 8 && nvis <= (size_t)rows && l->cursor < l->n) {
		spare = (long)rows - (long)nvis;
		if (focused && tui_list_visible(l, l->cursor)) {
			const struct tui_item *c = &l->items[l->cursor];
			long more = (long)row_lines(c->label, c->detail, pad, room + pad) - 1;
			spare -= more < spare ? more : spare;
		}
	}
	/* the others share what is left evenly: each up to cap more rows */
	long cap = 0;
	for (long c = 7; c > 0 && spare > 0; c--) {
		long sum = 0;
		for (size_t i = 0; i < l->n; i++)
			if (tui_list_visible(l, i) && !(focused && i == l->cursor)) {
				long more = (long)row_lines(l->items[i].label, l->items[i].detail, pad,
							    room + pad) - 1;
				sum += more < c ? more : c;
			}
		if (sum <= spare) {
			cap = c;
			break;
		}
	}
	*sh = (struct list_shape){ .pad = pad, .rows = rows, .room = room, .cap = cap, .nvis = nvis,
				   .wrap = wrap };
}

/* The list as the layout shows it: what a row holds (and so what the
 * filter matches), and the scroll that keeps the cursor on screen. */
static void fit_list(struct tui_app *app, int which)
{
	struct tui_list *l = &app->lists[which];
	const struct tui_rect *r = &app->lay.list[which];
	int pad = which == LIST_BACKENDS ? 22 : 8;
	if (l->row_cols != r->w || l->label_cols != pad) {
		/* what is shown changed: so may what the filter matches */
		l->row_cols = r->w;
		l->label_cols = pad;
		cursor_fix(l, 1);
	}
	int rows = r->h - 1;
	if (rows <= 0)
		return;
	/* Keep the cursor on screen: count visible rows before it. */
	size_t vis_before = 0;
	for (size_t i = 0; i < l->cursor && i < l->n; i++)
		vis_before += tui_list_visible(l, i);
	if (vis_before < l->top)
		l->top = vis_before;
	if (vis_before >= l->top + (size_t)rows)
		l->top = vis_before - (size_t)rows + 1;
	struct list_shape sh;
	list_shape(app, which, &sh);
	if (sh.wrap || sh.nvis <= (size_t)rows)
		l->top = 0;
}

void tui_setup_poll(struct tui_app *app, bool shown)
{
	if (app->node.sized_gen != app->node.levels_gen) {
		app->node.sized_gen = app->node.levels_gen;
		setup_resize(app);
	}
	if (!shown)
		return;
	for (int i = 0; i < 3; i++)
		fit_list(app, i);
}

static void draw_list(const struct tui_app *app, int which)
{
	const struct tui_list *l = &app->lists[which];
	const struct tui_rect *r = &app->lay.list[which];
	bool focused = app->focus == which;
	struct list_shape sh;
	size_t nsel = 0;
	list_shape(app, which, &sh);
	for (size_t i = 0; i < l->n; i++)
		nsel += l->items[i].selected;
	int pad = sh.pad, rows = sh.rows;
	size_t nvis = sh.nvis;
	long room = sh.room, cap = sh.cap;
	bool wrap = sh.wrap;
	int head = focused ? tui_attr_selected(app) : tui_attr(app, TUI_ROLE_TITLE);
	tui_fill(r->y, r->x, r->w, head);
	int used = tui_putf(r->y, r->x, r->w, head, " %s  %zu selected", l->title, nsel);
	if (l->re)
		tui_putf(r->y, r->x + used, r->w - used, head, "  /%s/ %zu of %zu", l->pattern, nvis,
			 l->n);

	if (rows <= 0)
		return;
	bool utf8 = app->tier == TUI_TIER_UTF8;
	const char *ell = utf8 ? "…" : "...";
	char wl[8][TUI_WRAP_LINE];
	int y = r->y + 1;
	size_t vis = 0;
	const struct tui_item *under = NULL;
	for (size_t i = 0; i < l->n && y < r->y + r->h; i++) {
		if (!tui_list_visible(l, i))
			continue;
		if (vis++ < l->top)
			continue;
		const struct tui_item *it = &l->items[i];
		bool cur = focused && i == l->cursor;
		int attr = cur ? tui_attr_selected(app)
			       : !it->available ? tui_attr(app, TUI_ROLE_INACTIVE)
						: tui_attr(app, TUI_ROLE_MAIN_FG);
		const char *box = it->selected ? "[x]" : "[ ]";
		tui_fill(y, r->x, r->w, attr);
		int w = tui_putf(y, r->x, r->w, attr | (it->selected ? (int)A_BOLD : 0), "%s %-*s ", box,
				 pad, it->label);
		if (wrap) {
			size_t n = tui_wrap(it->detail, r->w - w, wl, 8);
			if (n == 0) /* no description: the row is its label */
				y++;
			for (size_t k = 0; k < n && k < 8 && y < r->y + r->h; k++) {
				if (k)
					tui_fill(y, r->x, r->w, attr);
				tui_put(y++, r->x + w, r->w - w, attr, wl[k]);
			}
			continue;
		}
		size_t n = room > 8 ? tui_wrap(it->detail, r->w - w, wl, 8) : 0;
		long lines = 1;
		if (n > 1 && room > 8 && nvis <= (size_t)rows) {
			long more = (long)n - 1;
			if (cur && focused) /* its share was taken before the loop */
				lines += more < (long)rows - (long)nvis ? more : (long)rows - (long)nvis;
			else
				lines += more < cap ? more : cap;
		}
		if (lines > 1) {
			for (long k = 0; k + 1 < lines && y < r->y + r->h; k++) {
				if (k)
					tui_fill(y, r->x, r->w, attr);
				tui_put(y++, r->x + w, r->w - w, attr, wl[k]);
			}
			tui_fill(y, r->x, r->w, attr);
		}
		/* the rest on the last row given, cut at a word with an ellipsis */
		char rest[TUI_WRAP_LINE * 2] = "";
		size_t len = 0;
		for (size_t k = (size_t)lines - 1; k < n && k < 8 && len < sizeof rest; k++)
			len += (size_t)snprintf(rest + len, sizeof rest - len, "%s%s", len ? " " : "",
						wl[k]);
		const char *text = lines > 1 ? rest : it->detail;
		bool cut;
		size_t bytes = fit_words(text, r->w - w, utf8 ? 1 : 3, &cut);
		tui_putf(y, r->x + w, r->w - w, attr, "%.*s%s", (int)bytes, text, cut ? ell : "");
		if (cut && cur)
			under = it;
		y++;
	}
	if (under && r->y + r->h - y >= 2) {
		size_t n = tui_wrap(under->detail, r->w - 2, wl, 8);
		int dim = tui_attr(app, TUI_ROLE_INACTIVE);
		if ((int)n <= r->y + r->h - y - 1)
			for (size_t k = 0; k < n && k < 8; k++)
				tui_put(++y, r->x + 2, r->w - 2, dim, wl[k]);
	}
	if (!nvis)
		tui_put(r->y + 1, r->x + 1, r->w - 1, tui_attr(app, TUI_ROLE_INACTIVE),
			"(nothing matches; / then Enter on an empty line clears)");
}

void tui_setup_draw(const struct tui_app *app, struct tui_hits *hits)
{
	(void)hits;
	for (int i = 0; i < 3; i++)
		draw_list(app, i);
}

/* A click picks the row under it and toggles it. */
static bool setup_click(struct tui_app *app, int y, int x, bool click)
{
	if (click)
		tui_setup_click(app, y, x, true);
	return click;
}

const struct tui_screen_ops tui_setup_screen = {
	.name = "Setup",
	.init = tui_setup_init,
	.click = setup_click,
	.poll = tui_setup_poll,
	.draw = tui_setup_draw,
	.action = tui_setup_action,
	.free = tui_setup_free,
};

/* ---- the memory ladder preset (m): Setup's lists for the ladder on Live ---- */

/* The ranges the preset tries, widest first: past the last cache a node has. */
static const char *const preset_ranges[] = {"load:4KiB..2xL3", "load:4KiB..4xL2",
					    "load:4KiB..4xL1", "load:4KiB..64MiB"};

static size_t kernel_item(const struct tui_list *l, const char *label)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i].label, label) == 0)
			return i;
	return SIZE_MAX;
}

/* A selected backend's resolution from its Setup detail ("res 10.0 ns"),
 * in ns; INFINITY when the detail does not say. */
static double item_resolution(const struct tui_item *it)
{
	const char *r = strstr(it->detail, "res ");
	double v;
	char unit[4];

	if (!r || sscanf(r + 4, "%lf %3s", &v, unit) != 2)
		return INFINITY;
	return !strcmp(unit, "us") ? v * 1e3 : !strcmp(unit, "ms") ? v * 1e6 : v;
}

/* The ladder on one timer, whatever else is selected: a demo needs one
 * curve, and every backend more multiplies the run. The barrier timer when
 * it is among the selected, else the selected one that resolves finest. */
static void one_timer(struct tui_app *app)
{
	struct tui_list *lb = &app->lists[0];
	char said[2 * TL_WHY_MAX];
	const char *barrier = tl_backend_default_barrier(said, sizeof said);
	size_t pick = SIZE_MAX;

	for (size_t i = 0; i < lb->n; i++) {
		const struct tui_item *it = &lb->items[i];

		if (!it->available || !it->selected)
			continue;
		if (barrier && !strcmp(it->label, barrier)) {
			pick = i;
			break;
		}
		if (pick == SIZE_MAX || item_resolution(it) < item_resolution(&lb->items[pick]))
			pick = i;
	}
	if (pick == SIZE_MAX)
		return; /* nothing available is selected: Enter says what to select */
	for (size_t i = 0; i < lb->n; i++)
		lb->items[i].selected = i == pick;
}

/* Selects exactly the ladder's kernels (adding those not listed) and flush
 * 0: a flush between samples would evict the buffer every level chases. */
void tui_ladder_preset(struct tui_app *app)
{
	const struct tl_topology *topo = app->node.have_topo ? &app->node.topo : NULL;
	struct tui_list *lk = &app->lists[2], *lf = &app->lists[1];
	struct tl_kernel *k = NULL;
	size_t n = 0, r = 0;
	char why[512];

	while (r < sizeof preset_ranges / sizeof *preset_ranges &&
	       tl_kernel_parse_list_topo(preset_ranges[r], topo, &k, &n, why, sizeof why) < 0)
		r++;
	if (!n) {
		tui_message(app, true, "memory ladder: %s", why);
		return;
	}
	for (size_t i = 0; i < lk->n; i++)
		lk->items[i].selected = false;
	for (size_t j = 0; j < n; j++) {
		size_t at = kernel_item(lk, k[j].label);
		if (at != SIZE_MAX)
			lk->items[at].selected = true;
		else if (tui_setup_add_kernels(app, k[j].label, true, why, sizeof why) < 0)
			tui_message(app, true, "memory ladder: %s", why);
	}
	for (size_t i = 0; i < lf->n; i++)
		lf->items[i].selected = lf->items[i].bytes == 0;
	one_timer(app);
	tui_message(app, false, "memory ladder: %zu load sizes (%s), flush 0; Enter runs, m on Live "
				"switches the ladder and the histograms",
		    n, preset_ranges[r] + 5);
	free(k);
}

/* ---- the remembered setup (tui/memory.c) ---- */

void tui_setup_unselect_all(struct tui_app *app, int which)
{
	struct tui_list *l = &app->lists[which];
	for (size_t i = 0; i < l->n; i++)
		l->items[i].selected = false;
}

bool tui_setup_pick(struct tui_app *app, int which, const char *text)
{
	struct tui_list *l = &app->lists[which];
	char why[512];
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->items[i].label, text) == 0) {
			if (!l->items[i].available)
				return false;
			l->items[i].selected = true;
			return true;
		}
	if (which == LIST_FLUSH) {
		uint64_t bytes;
		if (tl_size_parse(text, app->node.have_topo ? &app->node.topo : NULL, &bytes, why,
				  sizeof why) < 0)
			return false;
		add_flush(app, text, true);
		for (size_t i = 0; i < l->n; i++) /* an equal size under another name */
			if (l->items[i].bytes == bytes)
				l->items[i].selected = true;
		return true;
	}
	if (which == LIST_KERNELS)
		return add_kernels(app, text, true, why, sizeof why) == 0;
	struct tui_item probe;
	memset(&probe, 0, sizeof probe);
	probe_backend(&probe, text);
	if (!probe.available)
		return false;
	struct tui_item *it = list_add(l);
	*it = probe;
	it->selected = true;
	return true;
}
