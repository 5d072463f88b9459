#include "config.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/host_words.h"
#include "bench/noise.h"
#include "bench/size.h"
#include "io/term_safe.h"
#include "tui/app.h"
#include "tui/curses.h"

#define INFO_LINES 160

struct info_line {
	enum tui_role role;
	int bold;
	int indent; /* where a wrapped line continues */
	char text[400];
};

struct info_buf {
	struct info_line l[INFO_LINES];
	int n;
};

/* Info's own state: the worker that measures the node, and the lines the
 * screen shows, laid out by poll for draw to read. */
struct info_state {
	struct tui_job job;        /* the worker (tui/worker.c) */
	bool probe_clock;          /* its order: the clock probe too, */
	int cpu;                   /* and the CPU the facts are of */
	struct tl_host result;     /* its answer, whole once the job finished */
	/* the noise probe's answer (with the clock probe: only when idle), and
	 * the copy the screen shows once the job finished */
	struct tl_noise_probe noise_result, noise;
	int noise_rc;
	char noise_why[256];
	bool noise_probed, have_noise;
	struct info_buf b;
	int top;                   /* first row shown (Up/Down scroll) */
	bool remeasuring;          /* the job chases the levels again (M) */
	bool remeasure_next;       /* M came while the facts were read: after them */
	bool have_result;          /* result holds the node's facts before it starts */
};

static struct info_state *state(struct tui_app *app)
{
	if (!app->priv[TUI_INFO])
		app->priv[TUI_INFO] = tl_xcalloc(1, sizeof(struct info_state));
	return app->priv[TUI_INFO];
}

static void add(struct info_buf *b, enum tui_role role, int bold, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add(struct info_buf *b, enum tui_role role, int bold, const char *fmt, ...)
{
	if (b->n >= INFO_LINES)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(b->l[b->n].text, sizeof b->l[b->n].text, fmt, ap);
	va_end(ap);
	b->l[b->n].role = role;
	b->l[b->n].bold = bold;
	b->l[b->n].indent = 16;
	b->n++;
}

/* What the chase saw beside the reported sizes, as `ticklab info` says it. */
static void add_levels(struct info_buf *b, const struct tl_host *h)
{
	char lines[16][TL_WORDS_LINE];
	size_t n;

	if (!h->ladder_probed)
		return;
	n = tl_levels_lines(&h->levels, lines, 16);
	for (size_t i = 0; i < n; i++) {
		bool caveat = lines[i][0] == '!';

		add(b, caveat ? TUI_ROLE_WARN : TUI_ROLE_MAIN_FG, caveat, "  %-12s %s",
		    i ? "" : "levels", lines[i]);
		if (b->n)
			b->l[b->n - 1].indent = 17;
	}
}

static int info_cpu(const struct tui_app *app)
{
	return app->opts.cpu >= 0 ? app->opts.cpu : tl_cpu_default();
}

/* The worker: every fact that needs measuring (the TSC step, the cost of a
 * syscall, the RDTSCP trial, the clock probe) happens here, off the UI. */
static void info_main(struct tui_job *job)
{
	struct info_state *st = job->arg;

	tl_host_read(NULL, st->cpu, &st->result);
	/* The clock probe samples on the sampling CPU (a few tenths of a
	 * second, bench/host.h): only when nothing else sampled there when it
	 * was asked for. */
	if (st->probe_clock) {
		tl_host_probe_clock(&st->result);
		tl_host_probe_ladder(&st->result);
		st->noise_rc = tl_noise_probe_run(st->result.cpu, TL_NOISE_PROBE_SECONDS,
						  &st->noise_result, st->noise_why,
						  sizeof st->noise_why);
		st->noise_probed = true;
	}
}

/* M: the levels chased again, kept as the node's record and published
 * (bench/levels.h), then the ladder's facts read from them. */
static void remeasure_main(struct tui_job *job)
{
	struct info_state *st = job->arg;

	if (!st->have_result)
		tl_host_read(NULL, st->cpu, &st->result);
	(void)tl_levels_remeasure_now(st->result.cpu,
				      st->result.have_topology ? &st->result.topo : NULL);
	tl_host_probe_ladder(&st->result);
}

static void info_remeasure(struct tui_app *app)
{
	struct info_state *st = state(app);

	if (st->job.live) {
		st->remeasure_next = true;
		tui_message(app, false, "the memory levels are measured again once the node's facts "
					"are in");
		return;
	}
	if (tui_busy()) {
		tui_message(app, true, "not while a run or a search samples: the chase pins the "
				       "sampling CPU");
		return;
	}
	st->have_result = app->node.have_host;
	if (st->have_result)
		st->result = app->node.host;
	st->cpu = info_cpu(app);
	st->probe_clock = false;
	st->noise_probed = false;
	st->remeasuring = true;
	tui_job_start(&st->job, app, remeasure_main, st, false);
	tui_message(app, false, "measuring the memory levels again (a few seconds)");
}

/* Starts the worker once. It inherits the UI thread's CPUs (off the
 * sampling CPU while a run samples). */
static void info_request(struct tui_app *app)
{
	struct info_state *st = state(app);
	bool idle = !tui_busy();

	/* Facts once; the clock probe again when it could not run before. */
	if (st->job.live || (app->node.have_host && (app->node.host.clock_probed || !idle)))
		return;
	st->probe_clock = idle;
	st->cpu = info_cpu(app);
	/* PAPI's description must first be made on this thread (backends/papi.c). */
	tl_papi_describe(st->result.papi, sizeof st->result.papi);
	tui_job_start(&st->job, app, info_main, st, false);
}

/* Takes the worker's facts. */
static void info_take(struct tui_app *app, struct info_state *st)
{
	app->node.host = st->result;
	app->node.have_host = true;
	if (st->remeasuring) {
		const struct tl_levels *lv = &st->result.levels;

		st->remeasuring = false;
		app->node.levels_gen++; /* Setup's poll re-sizes its cache multiples */
		tui_message(app, false, "memory levels measured again (%s); Setup's cache multiples "
					"follow them, a run already made keeps its own",
			    lv->kept[0] ? lv->kept : lv->source[0] ? lv->source : "not kept");
	}
	if (st->noise_probed) {
		st->noise = st->noise_result;
		st->have_noise = true;
	}
	app->dirty = true;
}

static void build(struct tui_app *app, struct info_buf *b);
static void fit_top(struct tui_app *app);

/* Joins the worker once it is done; shown: starts it (once) and lays out
 * the lines the draw shows. */
void tui_info_poll(struct tui_app *app, bool shown)
{
	struct info_state *st = app->priv[TUI_INFO];

	if (st && tui_job_finished(&st->job))
		info_take(app, st);
	if (st && st->remeasure_next && !st->job.live) {
		st->remeasure_next = false;
		info_remeasure(app);
	}
	if (!shown)
		return;
	build(app, &state(app)->b);
	fit_top(app);
}

void tui_info_free(struct tui_app *app)
{
	struct info_state *st = app->priv[TUI_INFO];

	if (st)
		tui_job_wait(&st->job);
	free(app->priv[TUI_INFO]);
	app->priv[TUI_INFO] = NULL;
}

/* For exports, which need the facts now: the worker's if one runs, else a
 * read without the clock probe. Never called from a draw. */
void tui_info_ensure(struct tui_app *app)
{
	struct info_state *st = app->priv[TUI_INFO];

	if (st && st->job.live) {
		tui_job_wait(&st->job);
		info_take(app, st);
	}
	if (!app->node.have_host) {
		tl_host_read(NULL, info_cpu(app), &app->node.host);
		app->node.have_host = true;
	}
}

static void spoiler_line(struct tui_app *app, struct info_buf *b, bool bad, const char *what,
			 const char *seen, const char *why)
{
	/* nothing found is neither fine nor bad: no tick on "turbo unknown" */
	bool unknown = !bad && tl_spoiler_unknown(seen);
	const char *mark = unknown ? "?"
			   : app->tier == TUI_TIER_UTF8 ? (bad ? "✗" : "✓") : (bad ? "!" : "-");
	/* A value wider than its column keeps its first words there and its
	 * parenthesis moves to the reason, so the columns stay aligned. */
	const char *paren = strlen(seen) > 18 ? strstr(seen, " (") : NULL;
	int head = paren ? (int)(paren - seen) : 18;
	enum tui_role role = bad ? TUI_ROLE_WARN : unknown ? TUI_ROLE_MAIN_FG : TUI_ROLE_OK;
	if (paren && head <= 18)
		add(b, role, bad, " %s %-11s %-18.*s %s %s", mark, what, head, seen, paren + 1, why);
	else
		add(b, role, bad, " %s %-11s %-18s %s", mark, what, seen, why);
	if (b->n)
		b->l[b->n - 1].indent = 34;
}

static void host_lines(struct tui_app *app, struct info_buf *b)
{
	const struct tl_host *h = &app->node.host;
	char s1[32], s2[32], s3[32];
	/* What spoils timing comes first: it is why one opens this screen. */
	char smt[160];

	add(b, TUI_ROLE_TITLE, 1, "What can spoil timing here (%zu of %d; ? = not known here)",
	    tl_host_spoiled(h), TL_SPOILER_COUNT);
	for (int i = 0; i < TL_SPOILER_COUNT; i++)
		spoiler_line(app, b, h->spoilers[i].bad, h->spoilers[i].what, h->spoilers[i].seen,
			     h->spoilers[i].why);
	add(b, TUI_ROLE_MAIN_FG, 0, " ");
	add(b, TUI_ROLE_TITLE, 1, "Node");
	tl_host_smt_words(h, smt, sizeof smt);
	add(b, TUI_ROLE_MAIN_FG, 0, "  CPU          %s (%s), sampling on CPU %d, %s", h->model,
	    h->vendor, h->cpu, smt);
	add(b, TUI_ROLE_MAIN_FG, 0, "  kernel       %s", h->kernel);
	if (h->have_topology) {
		tl_size_format(h->topo.l1d, s1, sizeof s1);
		tl_size_format(h->topo.l2, s2, sizeof s2);
		tl_size_format(h->topo.l3, s3, sizeof s3);
		add(b, TUI_ROLE_MAIN_FG, 0, "  caches       L1d %s  L2 %s  L3 %s", s1, s2, s3);
		add(b, TUI_ROLE_MAIN_FG, 0, "               from %s", h->topo.source);
		add_levels(b, h);
	} else
		add(b, TUI_ROLE_MAIN_FG, 0, "  caches       unknown: %s", h->topo_why);
	if (h->tsc_ghz > 0 && h->tsc_resolution_ns > 0)
		add(b, TUI_ROLE_MAIN_FG, 0,
		    "  TSC          %.4f GHz, step %.3g ns (%.3g ticks, measured with %s)",
		    h->tsc_ghz, h->tsc_resolution_ns, h->tsc_resolution_ticks, h->tsc_reader);
	else if (h->tsc_ghz > 0)
		add(b, TUI_ROLE_MAIN_FG, 0, "  TSC          %.3f GHz, step -", h->tsc_ghz);
	else
		add(b, TUI_ROLE_MAIN_FG, 0, "  TSC          none or unknown");
	if (tl_vdso_verdict(&h->cost) >= 0)
		add(b, TUI_ROLE_MAIN_FG, 0,
		    "  clocksource  %s; clock_gettime %.0f ns a call, the system call %.0f ns",
		    h->clocksource, h->cost.vdso_ns, h->cost.syscall_ns);
	else
		add(b, TUI_ROLE_MAIN_FG, 0, "  clocksource  %s", h->clocksource);
	add(b, TUI_ROLE_MAIN_FG, 0, "  hypervisor   %s", h->hypervisor);
	add(b, TUI_ROLE_MAIN_FG, 0, "  governor     %s;  turbo %s", h->governor, h->turbo);
	add(b, TUI_ROLE_MAIN_FG, 0, "  perf         paranoid %d, rdpmc %s, cpu PMU %s", h->paranoid,
	    h->rdpmc, h->pmu ? "yes" : "no");
	add(b, TUI_ROLE_MAIN_FG, 0, "  LFENCE       %s (%s)",
	    h->lfence == 1 ? "serializing" : h->lfence == 0 ? "NOT serializing" : "unknown",
	    h->lfence_how);
	const char *p = h->papi;
	int first = 1;
	while (*p) {
		size_t len = strcspn(p, "\n");
		add(b, TUI_ROLE_MAIN_FG, 0, "  %-12s %.*s", first ? "PAPI" : "", (int)len, p);
		first = 0;
		p += len;
		if (*p)
			p++;
	}
}

/* What the noise probe found, as `ticklab info` says it. */
static void noise_lines(const struct info_state *st, struct info_buf *b)
{
	char lines[8][TL_WORDS_LINE];
	size_t n;

	add(b, TUI_ROLE_MAIN_FG, 0, " ");
	add(b, TUI_ROLE_TITLE, 1, "Noise on the sampling CPU");
	if (!st->have_noise) {
		add(b, TUI_ROLE_INACTIVE, 0, "  not probed: a run was sampling when Info opened");
		return;
	}
	n = tl_noise_probe_lines(&st->noise, st->noise_rc, st->noise_why, lines, 8);
	for (size_t i = 0; i < n; i++) {
		add(b, TUI_ROLE_MAIN_FG, 0, "  %s", lines[i]);
		if (b->n)
			b->l[b->n - 1].indent = 4;
	}
}

/* A saved file's host object, shown as it was recorded. */
static void json_lines(struct tui_app *app, struct info_buf *b, json_t *host)
{
	const char *key;
	json_t *v;
	json_t *sp = json_object_get(host, "spoilers");
	size_t i;
	add(b, TUI_ROLE_TITLE, 1, "What could spoil timing where %s was recorded", app->res.path);
	json_array_foreach(sp, i, v)
	{
		char what[96], seen[160], why[256];

		/* A saved file's words: escaped, never sent to the terminal raw. */
		spoiler_line(app, b, json_is_true(json_object_get(v, "bad")),
			     tl_term_safe(json_string_value(json_object_get(v, "what")) ?: "?", what,
					  sizeof what),
			     tl_term_safe(json_string_value(json_object_get(v, "seen")), seen,
					  sizeof seen),
			     tl_term_safe(json_string_value(json_object_get(v, "why")), why,
					  sizeof why));
	}
	add(b, TUI_ROLE_MAIN_FG, 0, " ");
	add(b, TUI_ROLE_TITLE, 1, "Node");
	json_object_foreach(host, key, v)
	{
		char text[256];
		if (strcmp(key, "spoilers") == 0 || strcmp(key, "caches") == 0)
			continue;
		if (json_is_string(v))
			snprintf(text, sizeof text, "%s", json_string_value(v));
		else if (json_is_integer(v))
			snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
		else if (json_is_real(v))
			snprintf(text, sizeof text, "%g", json_real_value(v));
		else if (json_is_boolean(v))
			snprintf(text, sizeof text, "%s", json_is_true(v) ? "yes" : "no");
		else if (json_is_array(v) && json_array_size(v) && json_is_string(json_array_get(v, 0)))
			snprintf(text, sizeof text, "%s", json_string_value(json_array_get(v, 0)));
		else if (json_is_null(v))
			snprintf(text, sizeof text, "unknown");
		else
			continue;
		char safe_key[64], safe[256];

		add(b, TUI_ROLE_MAIN_FG, 0, "  %-20s %s", tl_term_safe(key, safe_key, sizeof safe_key),
		    tl_term_safe(text, safe, sizeof safe));
	}
}

static void backend_lines(struct tui_app *app, struct info_buf *b)
{
	const struct tui_list *l = &app->lists[0];
	add(b, TUI_ROLE_MAIN_FG, 0, " ");
	add(b, TUI_ROLE_TITLE, 1, "Backends on this node");
	int w = 18; /* every description starts in one column */
	for (size_t i = 0; i < l->n; i++)
		if ((int)strlen(l->items[i].label) > w)
			w = (int)strlen(l->items[i].label);
	for (size_t i = 0; i < l->n; i++) {
		add(b, l->items[i].available ? TUI_ROLE_MAIN_FG : TUI_ROLE_INACTIVE, 0, "  %-*s %s", w,
		    l->items[i].label, l->items[i].detail);
		if (b->n)
			b->l[b->n - 1].indent = w + 3;
	}
}

static void build(struct tui_app *app, struct info_buf *b)
{
	b->n = 0;
	if (app->res.replay && app->node.host_json)
		json_lines(app, b, app->node.host_json);
	else {
		info_request(app);
		if (app->node.have_host) {
			host_lines(app, b);
			noise_lines(state(app), b);
		}
		else
			add(b, TUI_ROLE_INACTIVE, 0,
			    "  measuring this node (TSC step, syscall cost, clock drift, cache levels, "
			    "2 s of noise)...");
	}
	if (!app->res.replay)
		backend_lines(app, b);
}

void tui_info_action(struct tui_app *app, enum tui_action a)
{
	struct info_state *st = state(app);

	if (a == TUI_ACT_REMEASURE) {
		info_remeasure(app);
		return;
	}
	if (a == TUI_ACT_UP && st->top > 0)
		st->top--;
	if (a == TUI_ACT_DOWN)
		st->top++;
	app->dirty = true;
}

/* Rows a line takes at width w when wrapped at spaces. */
static int wrap(const struct info_line *l, int w, const char **starts, int max)
{
	const char *p = l->text;
	int n = 0, avail = w;
	while (*p && n < max) {
		starts[n++] = p;
		int len = (int)strlen(p);
		if (len <= avail)
			break;
		const char *cut = p + avail;
		while (cut > p && *cut != ' ')
			cut--;
		if (cut == p)
			cut = p + avail;
		p = cut;
		while (*p == ' ')
			p++;
		avail = w - l->indent;
	}
	return n ? n : 1;
}

/* Rows of the whole text at the body's width. */
static int total_rows(const struct info_buf *b, int w)
{
	const char *starts[16];
	int total = 0;
	for (int i = 0; i < b->n; i++)
		total += wrap(&b->l[i], w, starts, 16);
	return total;
}

/* The scroll stops where the last row reaches the bottom. */
static void fit_top(struct tui_app *app)
{
	struct info_state *st = state(app);
	const struct tui_rect *r = &app->lay.body;
	int total = total_rows(&st->b, r->w - 1);
	if (st->top > total - r->h)
		st->top = total - r->h > 0 ? total - r->h : 0;
}

void tui_info_draw(const struct tui_app *app, struct tui_hits *hits)
{
	const struct info_state *st = app->priv[TUI_INFO];
	(void)hits;
	if (!st)
		return;
	const struct info_buf *bp = &st->b;
	const struct tui_rect *r = &app->lay.body;
	int w = r->w - 1, y = r->y, skip = st->top;
	const char *starts[16];
	/* What is below the fold is said on the last row, with the key. */
	int below = total_rows(bp, w) - skip - r->h, ymax = r->y + r->h - (below > 0);
	if (below > 0) {
		below++;
		tui_putf(ymax, r->x + 1, r->w - 1, tui_attr(app, TUI_ROLE_TITLE),
			 "%s %d more lines below (Down/j scrolls)%s",
			 app->tier == TUI_TIER_UTF8 ? "▼" : "v", below,
			 app->node.have_host && !app->res.replay ? ": the backends table" : "");
	}
	for (int i = 0; i < bp->n && y < ymax; i++) {
		const struct info_line *l = &bp->l[i];
		int attr = tui_attr(app, l->role) | (l->bold ? (int)A_BOLD : 0);
		int n = wrap(l, w, starts, 16);
		for (int k = 0; k < n && y < ymax; k++) {
			if (skip > 0) {
				skip--;
				continue;
			}
			int x = r->x + 1 + (k ? l->indent : 0);
			int len = k + 1 < n ? (int)(starts[k + 1] - starts[k]) : (int)strlen(starts[k]);
			char chunk[400];
			snprintf(chunk, sizeof chunk, "%.*s", len, starts[k]);
			tui_put(y++, x, r->x + r->w - x, attr, chunk);
		}
	}
}

/* Info opens at its top. */
static void info_enter(struct tui_app *app)
{
	state(app)->top = 0;
}

/* Esc returns where Info was opened from. */
static enum tui_screen info_back(const struct tui_app *app)
{
	return app->back != TUI_INFO ? app->back : TUI_SETUP;
}

const struct tui_screen_ops tui_info_screen = {
	.name = "Info",
	.enter = info_enter,
	.back = info_back,
	.poll = tui_info_poll,
	.draw = tui_info_draw,
	.action = tui_info_action,
	.free = tui_info_free,
};
