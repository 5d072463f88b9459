/* The search table: one row per backend x flush with each metric's median,
 * interval and how many repeats found it, then the notes, what is unstable
 * and why, and the ratios (or bounds on them) in the paper's words. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"
#include "bench/search_params.h"
#include "judge/lesson.h"
#include "io/search_json.h"
#include "stats/stats.h"

/* The median where one was found (marked "~" while provisional), then
 * what it may claim (tl_search_stat_text): an interval only when every
 * repeat found it and they agree. */
static void print_metric(FILE *out, const struct tl_search_stat *s, bool stopped)
{
	char iv[64] = "-", found[48] = "-", med[32];

	if (s->ran)
		snprintf(found, sizeof found, "%zu/%zu%s", s->found, s->ran, s->unstable ? "!" : "");
	if (s->ran)
		tl_search_stat_text(iv, sizeof iv, s);
	if (s->found) {
		snprintf(med, sizeof med, "%s%.0f", s->provisional ? "~" : "", s->adds);
		fprintf(out, " %9s %-22s %9.1f %5s", med, iv, s->ns, found);
		return;
	}
	fprintf(out, " %9s %-22s %9s %5s", !s->ran ? "-" : stopped ? "stopped" : "none", iv, "-", found);
}

/* Each distinct note of one metric, once, with the repeats it came from. */
static void emit_notes(const struct tl_search_plan *p, const struct tl_search_cell *c, int kind,
		       tl_search_reason_fn fn, void *ctx)
{
	char text[TL_WHY_MAX + 64];

	for (unsigned r = 0; r < p->repeats; r++) {
		const char *note = kind == 0 ? c->rep[r].tmin.note : c->rep[r].tdiff.note;
		bool seen = false;

		if (!c->rep[r].ran || !note[0])
			continue;
		for (unsigned q = 0; q < r && !seen; q++)
			seen = c->rep[q].ran &&
			       strcmp(note, kind == 0 ? c->rep[q].tmin.note : c->rep[q].tdiff.note) == 0;
		if (!seen) {
			snprintf(text, sizeof text, "%s (repeat %u): %s", kind == 0 ? "t_min" : "t_diff",
				 r + 1, note);
			fn(ctx, c, text);
		}
	}
}

static bool any_stopped(const struct tl_search_cell *c, unsigned nrep)
{
	for (unsigned r = 0; r < nrep; r++)
		if (c->rep[r].tmin.stopped || c->rep[r].tdiff.stopped)
			return true;
	return false;
}

static bool simulated(const char *id)
{
	const struct tl_backend *b = tl_backend_find(id);

	return b && b->simulated;
}

static void print_rows(FILE *out, const struct tl_search_plan *p, const struct tl_search_cell *cells)
{
	fprintf(out, "%-16s %-8s %6s %6s | %9s %-22s %9s %5s | %9s %-22s %9s %5s\n", "backend",
		"flush", "n_f", "ns/ADD", "tmin ADD", "95% interval | status", "tmin ns", "found",
		"tdiff ADD", "95% interval | status", "tdiff ns", "found");
	for (size_t i = 0; i < p->nbackends * p->nflush; i++) {
		const struct tl_search_cell *c = &cells[i];
		bool stop = any_stopped(c, p->repeats);

		/* a simulated timer keeps its mark even when its id is cut */
		if (simulated(p->backends[c->b]))
			fprintf(out, "%-14.14s * ", p->backends[c->b]);
		else
			fprintf(out, "%-16.16s ", p->backends[c->b]);
		fprintf(out, "%-8.8s %6zu %6.3f |", p->flush_names[c->f], c->fast_n, c->ns_per_add);
		print_metric(out, &c->tmin, stop);
		fputs(" |", out);
		print_metric(out, &c->tdiff, stop);
		fputc('\n', out);
	}
	for (size_t b = 0; b < p->nbackends; b++)
		if (simulated(p->backends[b])) {
			fprintf(out, "* simulated timer: not a measurement of this machine\n");
			break;
		}
}

void tl_search_cell_notes(const struct tl_search_plan *p, const struct tl_search_cell *c,
			  tl_search_reason_fn fn, void *ctx)
{
	char text[sizeof c->tmin.why + 200];

	if (c->why[0])
		fn(ctx, c, c->why);
	emit_notes(p, c, 0, fn, ctx);
	emit_notes(p, c, 1, fn, ctx);
	if (c->tmin.unstable) {
		snprintf(text, sizeof text, "t_min UNSTABLE: %s", c->tmin.why);
		fn(ctx, c, text);
	}
	if (c->tmin.ran && c->tmin.status != TL_STATUS_INTERVAL && c->tmin.status != TL_STATUS_SINGLE) {
		char floor[160];

		tl_search_cv_floor_text(floor, sizeof floor, &c->tmin);
		if (floor[0]) {
			snprintf(text, sizeof text, "t_min has no 95 %% interval at eps %g; %s", p->sp.eps,
				 floor);
			fn(ctx, c, text);
		}
	}
	if (c->tmin.ran) {
		tl_search_steady_text(text, sizeof text, &c->tmin);
		if (text[0])
			fn(ctx, c, text);
	}
	if (c->tdiff.unstable) {
		snprintf(text, sizeof text, "t_diff UNSTABLE: %s", c->tdiff.why);
		fn(ctx, c, text);
	}
}

/* Where one side of a ratio has no t_min at eps: the smallest eps both
 * sides' CV floors reach, t_min there on each side (from their CV curves)
 * and the ratio, said as such, so the pair still has a number. */
static void emit_relaxed(const struct tl_search_plan *p, const struct tl_search_cell *c,
			 const struct tl_search_cell *ref, tl_search_reason_fn fn, void *ctx)
{
	const struct tl_search_relaxed *x = &c->ratio_tmin.relaxed;
	char text[400];

	(void)p;
	/* the ratio line above carries the numbers (tl_search_ratio_describe);
	 * this one says where eps' came from and how to measure there */
	if (!(x->eps > 0) || !isfinite(x->eps))
		return;
	snprintf(text, sizeof text,
		 "t_min at eps = %.3g %% is read off the CV curves already measured: CV floors %.3g %% "
		 "and %.3g %% (the reference's at %.0f ADDs); --eps %g searches both there",
		 100 * x->eps, 100 * c->tmin.cv_floor, 100 * ref->tmin.cv_floor,
		 ref->tmin.cv_floor_adds, x->eps);
	fn(ctx, c, text);
}

void tl_search_cell_ratio_notes(const struct tl_search_plan *p, const struct tl_search_cell *cells,
				size_t i, const char *times, tl_search_reason_fn fn, void *ctx)
{
	const struct tl_search_cell *c = &cells[i];
	char precise[800], sensitive[800], text[1700];

	if (c->b == p->ref || !c->tmin.ran)
		return;
	tl_search_ratio_describe(precise, sizeof precise, &c->ratio_tmin, "precise", times);
	tl_search_ratio_describe(sensitive, sizeof sensitive, &c->ratio_tdiff, "sensitive", times);
	snprintf(text, sizeof text, "%s; %s (reference %s)", precise,
		 p->want_tdiff ? sensitive : "t_diff not searched", p->backends[p->ref]);
	fn(ctx, c, text);
	emit_relaxed(p, c, &cells[tl_search_cell_index(p, p->ref, c->f)], fn, ctx);
}

struct print_ctx {
	FILE *out;
	const struct tl_search_plan *p;
};

/* The table's form of a reason: "backend @ flush: text". */
static void print_reason(void *ctx, const struct tl_search_cell *c, const char *text)
{
	const struct print_ctx *pc = ctx;

	fprintf(pc->out, "%s @ %s: %s\n", pc->p->backends[c->b], pc->p->flush_names[c->f], text);
}

void tl_search_table_print(FILE *out, const struct tl_search_plan *p,
			   const struct tl_search_cell *cells)
{
	char params[400];

	tl_search_plan_describe(p, params, sizeof params);
	fprintf(out, "%s, reference %s\n", params, p->backends[p->ref]);
	print_rows(out, p, cells);
	struct print_ctx pc = {out, p};
	for (size_t i = 0; i < p->nbackends * p->nflush; i++)
		tl_search_cell_notes(p, &cells[i], print_reason, &pc);
	for (size_t i = 0; i < p->nbackends * p->nflush; i++)
		tl_search_cell_ratio_notes(p, cells, i, "x", print_reason, &pc);
	char lesson[512];

	tl_lesson_search(p, cells, p->nbackends * p->nflush, "x", lesson, sizeof lesson);
	if (lesson[0])
		fprintf(out, "In short: %s\n", lesson);
}
