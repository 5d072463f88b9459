#include "config.h"

#include "bench/search_cell.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "base/note.h"
#include "base/xalloc.h"
#include "bench/flush.h"
#include "bench/probe.h"
#include "bench/runner.h"
#include "bench/search_engine.h"
#include "stats/stats.h"

/* A search run: its cells made, then (fast) two passes over the plan's
 * seeded order: setup and t_min of every repeat of every cell, then their
 * t_diff, each cell's repeats from one A0 (cell_a0); paper, one pass. The cells are summarised
 * (search_summary.c) when made and after each repeat's pass. The plan and
 * the cells' bookkeeping are search_cell.c's. */

/* evaluations a fast search of both metrics needs, with the repeat's own
 * overhead and slope measurements: the unit of the flush budget */
#define FAST_EVALS 16
#define FAST_MIN_N 40

struct tl_search_cell *tl_search_cells_new(const struct tl_search_plan *p)
{
	size_t n = p->nbackends * p->nflush;
	unsigned r = p->repeats ? p->repeats : 1;
	struct tl_search_cell *cells = tl_xcalloc(n, sizeof(*cells));

	for (size_t i = 0; i < n; i++) {
		cells[i].b = i % p->nbackends;
		cells[i].f = i / p->nbackends;
		cells[i].rep = tl_xcalloc(r, sizeof(*cells[i].rep));
		cells[i].nrep = r;
	}
	tl_search_summarise(p, cells);
	return cells;
}

/* ------------------------------------------------------------------ */
/* One repeat of one cell                                               */
/* ------------------------------------------------------------------ */

struct run_ctx {
	const struct tl_search_plan *plan;
	struct tl_search_cell *cells;
	const struct tl_search_hooks *h;
	size_t cell;
	struct tl_search_rep *rep;  /* the repeat searching now (its points grow) */
	double t0;                  /* when the search started (tl_monotonic_s) */
	double started;             /* when the repeat running now started (s into the search) */
	double share;               /* and the seconds it may take */
	double deadline;            /* past it nothing is measured (0: none) */
};

static void lock(const struct tl_search_hooks *h)
{
	if (h && h->lock)
		h->lock(h->ctx);
}

static void unlock(const struct tl_search_hooks *h)
{
	if (h && h->unlock)
		h->unlock(h->ctx);
}

static void changed(const struct run_ctx *rc)
{
	if (rc->h && rc->h->changed)
		rc->h->changed(rc->h->ctx, rc->cell);
}

static void set_phase(const struct run_ctx *rc, enum tl_search_state st, int phase)
{
	lock(rc->h);
	rc->cells[rc->cell].state = st;
	rc->cells[rc->cell].phase = phase;
	unlock(rc->h);
	changed(rc);
}

static void on_point(void *ctx, enum tl_search_kind kind, uint64_t x, double y)
{
	const struct run_ctx *rc = ctx;

	/* kept for the figures */
	if (rc->rep && (kind == TL_SEARCH_TMIN || kind == TL_SEARCH_TDIFF))
		tl_search_points_add(&rc->rep->points[kind], (double)x, y);
	if (rc->h && rc->h->point)
		rc->h->point(rc->h->ctx, rc->cell, kind, x, y);
}

static bool stopped(const struct tl_search_hooks *h)
{
	return h && h->stop && atomic_load(h->stop);
}

/* The budget covers the whole search, so asking for more repeats or cells
 * buys an interval or a row, not a longer session: each repeat of a cell
 * gets an equal part of what is left when it starts, less what is kept
 * for the t_diff of repeats that ran their t_min (units: the repeats
 * still to run in this pass, this one included). */
static double unit_share(const struct run_ctx *rc, double reserve, size_t units_left)
{
	double left = tl_search_plan_budget(rc->plan) - (tl_monotonic_s() - rc->t0) - reserve;

	return left > 0 && units_left ? left / (double)units_left : 0;
}

/* t_e,std, ns per ADD and resolution under this timer and flush; 0, 1
 * stopped, -1 failed (rep->why). */
static int rep_setup(struct tl_search_rep *rep, struct tl_search_engine *e,
		     const struct tl_search_plan *p, const struct tl_search_hooks *h, double share)
{
	struct tl_timer *t = e->timer;
	size_t n_over, n_fit;

	rep->flush_s = tl_search_engine_flush_seconds(e->flush);
	rep->fast_n = p->sp.n;
	if (p->sp.method == TL_SEARCH_FAST && rep->flush_s > 0) {
		double nf = share / (FAST_EVALS * rep->flush_s);

		if (nf < (double)rep->fast_n)
			rep->fast_n = nf < FAST_MIN_N ? FAST_MIN_N : (size_t)nf;
	}
	/* the repeat's own facts are medians, so fewer measurements suffice */
	n_over = rep->fast_n < 2001 ? rep->fast_n : 2001;
	n_fit = rep->fast_n / 4 < 1001 ? rep->fast_n / 4 : 1001;
	if (n_fit < 11)
		n_fit = 11;
	rep->resolution_ns = tl_timer_resolution(t, 1000) * t->ns_per_unit;
	rep->overhead_ns = tl_search_engine_overhead(e, n_over);
	if (isnan(rep->overhead_ns))
		return 1;
	if (tl_search_engine_ns_per_add(e, TL_SEARCH_FIT_KMAX, TL_SEARCH_FIT_POINTS, n_fit,
					&rep->ns_per_add, &rep->fit_r2) != 0) {
		if (stopped(h))
			return 1;
		snprintf(rep->why, sizeof rep->why,
			 "time did not grow with K over 0..%d ADDs: cannot convert ADDs to ns",
			 TL_SEARCH_FIT_KMAX);
		return -1;
	}
	rep->setup_measurements = e->measurements;
	return 0;
}

/* What a repeat's t_diff would start from on its own (tdiff_start). */
enum a0_kind { A0_TMIN, A0_STEADY, A0_LOWEST_CV };

/* Where t_diff starts: t_min; interleaved, t_min on a steady clock when
 * it is known (on a wandering clock t_min moves with the wander from
 * repeat to repeat, and so would everything measured from it); without
 * either, the steadiest point seen (the note says which), so a backend
 * with no t_min still gets a sensitivity. */
static uint64_t tdiff_start(const struct tl_search_rep *rep, const struct tl_search_params *sp,
			    char *text, size_t len, enum a0_kind *kind)
{
	const struct tl_search_result *t = &rep->tmin;

	text[0] = '\0';
	/* a steady t_min within a fifth of t_min's is t_min's own noise */
	if (sp->order == TL_TDIFF_INTERLEAVED && isfinite(t->steady_adds) && t->steady_adds >= 1 &&
	    (!t->converged || t->steady_adds < 0.8 * (double)t->adds)) {
		snprintf(text, len, "A0 from the steady-clock t_min, %.0f ADDs", t->steady_adds);
		*kind = A0_STEADY;
		return (uint64_t)llround(t->steady_adds);
	}
	*kind = A0_TMIN;
	if (t->converged)
		return t->adds;
	snprintf(text, len, "A0 from %llu ADDs (lowest CV seen), no t_min",
		 (unsigned long long)t->best_adds);
	*kind = A0_LOWEST_CV;
	return t->best_adds;
}

/* One A0 for every t_diff repeat of a cell: the median of where each
 * would start on its own. Each repeat's t_min sees the node's clock at
 * another moment (on a drifting VM they disagreed 3-35x at large flushes)
 * and t_diff grows with A0, so repeats started from their own t_min
 * scatter by as much as their t_min do; from one A0 they scatter only as
 * t_diff does. `run` marks the repeats whose t_diff will run. With one
 * starting point the repeat's own words stay. 0: none to start from. */
static uint64_t cell_a0(const struct tl_search_cell *c, const bool *run,
			const struct tl_search_params *sp, char *text, size_t len)
{
	double v[256];
	size_t k = 0, count[3] = {0, 0, 0};
	unsigned kinds = 0;
	char one[96] = "", said[96] = "";
	uint64_t a0 = 0;

	text[0] = '\0';
	for (unsigned r = 0; r < c->nrep && k < 256; r++) {
		enum a0_kind kind;
		uint64_t x;

		if (!run[r])
			continue;
		x = tdiff_start(&c->rep[r], sp, one, sizeof one, &kind);
		if (!x)
			continue;
		v[k++] = (double)x;
		kinds |= 1u << kind;
		count[kind]++;
		a0 = x;
		memcpy(said, one, sizeof said);
	}
	if (k < 2) {
		snprintf(text, len, "%s", said);
		return a0;
	}
	a0 = (uint64_t)llround(stats_median(v, k));
	a0 = a0 ? a0 : 1;
	if (kinds == 1u << A0_TMIN || kinds == 1u << A0_STEADY || kinds == 1u << A0_LOWEST_CV) {
		snprintf(text, len, "A0 = median of %zu repeats' %s, %llu ADDs", k,
			 kinds == 1u << A0_TMIN	    ? "t_min"
			 : kinds == 1u << A0_STEADY ? "steady-clock t_min"
						    : "lowest-CV points (no t_min)",
			 (unsigned long long)a0);
		return a0;
	}
	/* starts of more than one kind: how many of each */
	size_t at = (size_t)snprintf(text, len, "A0 = median of %zu repeats' starts (", k);
	static const char *const name[] = {"t_min", "steady-clock t_min", "lowest CV"};

	for (int kind = 0; kind < 3 && at < len; kind++)
		if (count[kind])
			at += (size_t)snprintf(text + at, len - at, "%s%zu %s", text[at - 1] == '(' ? "" : ", ",
					       count[kind], name[kind]);
	if (at < len)
		snprintf(text + at, len - at, "), %llu ADDs", (unsigned long long)a0);
	return a0;
}

static int rep_tdiff(struct tl_search_rep *rep, const struct tl_search_params *sp,
		     const struct tl_search_io *io, uint64_t a0, const char *text)
{
	struct tl_search_params tp = *sp;
	int rc;

	if (!a0) {
		snprintf(rep->tdiff.note, sizeof rep->tdiff.note, "not searched: no t_min to start from");
		return 0;
	}
	/* t_min has timed what a measurement costs here, load included */
	if (rep->tmin.measurement_s > tp.measurement_s)
		tp.measurement_s = rep->tmin.measurement_s;
	rc = tl_search_tdiff(&tp, io, a0, &rep->tdiff);
	rep->done_tdiff = rc >= 0;
	if (text[0])
		tl_note_append_keep(rep->tdiff.note, sizeof rep->tdiff.note, text);
	return rc;
}

/* What a repeat's searches measure with: its own filter seed (each repeat
 * independent, still reproducible) and its own setup's facts. */
static struct tl_search_params rep_params(const struct tl_search_plan *p, unsigned r,
					  const struct tl_search_rep *rep)
{
	struct tl_search_params sp = p->sp;

	sp.seed = p->sp.seed + r;
	sp.overhead_ns = rep->overhead_ns;
	sp.ns_per_add = rep->ns_per_add;
	sp.resolution_ns = rep->resolution_ns;
	sp.fast_n = rep->fast_n;
	sp.measurement_s = rep->flush_s + rep->overhead_ns * 1e-9;
	return sp;
}

/* The searches' io over the engine; the point hook keeps the points in
 * here->rep. t_min's sets near its answer are t_diff's model (counted in
 * t_min): carry holds them from a repeat's t_min to its t_diff. */
static struct tl_search_io rep_io(const struct run_ctx *here, struct tl_search_engine *e,
				  struct tl_search_carry *carry)
{
	struct tl_search_io io = {tl_search_engine_measure, e, on_point, (void *)here,
				  here->h ? here->h->stop : NULL, tl_monotonic_s, carry,
				  tl_search_engine_measure_mix, e->empty, e->n_empty};

	return io;
}

/* The first pass of a repeat, after its setup: t_min, and in one pass
 * (paper, own_a0) its t_diff from it at once. Into a local copy written back
 * under the lock. *tdiff_s: the seconds of its share left for a t_diff
 * run later (t_min may spend TL_SEARCH_TMIN_SHARE of what the setup left,
 * so an expensive flush or a timer that never settles cannot run away;
 * the limits are never below a millisecond, 0 would mean none). */
static int rep_search(const struct run_ctx *rc, struct tl_search_engine *e, unsigned r,
		      struct tl_search_rep *rep, struct tl_search_carry *carry, double *tdiff_s)
{
	const struct tl_search_plan *p = rc->plan;
	struct tl_search_params sp = rep_params(p, r, rep);
	struct run_ctx here = *rc;
	here.rep = rep;
	struct tl_search_io io = rep_io(&here, e, carry);
	double end = rc->t0 + rc->started + rc->share, left = end - tl_monotonic_s();
	int st;

	sp.time_limit_s = fmax(TL_SEARCH_TMIN_SHARE * left, 1e-3);
	*tdiff_s = fmax((1 - TL_SEARCH_TMIN_SHARE) * left, 0);
	set_phase(rc, TL_CELL_RUNNING, 1);
	st = tl_search_tmin(&sp, &io, &rep->tmin);
	rep->done_tmin = st >= 0;
	if (st == 0 && p->want_tdiff && !tl_search_plan_two_passes(p)) {
		char text[96];
		enum a0_kind kind;
		uint64_t a0 = tdiff_start(rep, &sp, text, sizeof text, &kind);

		sp.time_limit_s = fmax(end - tl_monotonic_s(), 1e-3);
		set_phase(rc, TL_CELL_RUNNING, 2);
		st = rep_tdiff(rep, &sp, &io, a0, text);
	}
	if (st < 0)
		snprintf(rep->why, sizeof rep->why, "%s", rep->done_tmin ? rep->tdiff.note : rep->tmin.note);
	return st;
}

/* A repeat the budget's end cut: each metric in kinds (bit 0 t_min, bit
 * 1 t_diff) it had not finished says so (it counts as stopped, with what
 * it found so far). */
static void budget_spent(struct tl_search_rep *rep, const struct tl_search_plan *p, unsigned kinds)
{
	char text[160];
	struct tl_search_result *r[2] = {&rep->tmin, &rep->tdiff};

	snprintf(text, sizeof text, "the search's budget of %g s ran out here", tl_search_plan_budget(p));
	for (int k = 0; k < 2; k++) {
		if (!(kinds >> k & 1) || r[k]->converged || (k == 1 && !p->want_tdiff))
			continue;
		r[k]->stopped = true;
		tl_note_append(r[k]->note, sizeof r[k]->note, text);
	}
}

/* A repeat finished both passes (or has nothing more to run): the cell's
 * state follows. Call locked. */
static void rep_finished(struct tl_search_cell *c, const struct tl_search_plan *p, int st,
			 const char *why)
{
	c->reps_done++;
	if (st < 0 && !c->why[0])
		snprintf(c->why, sizeof c->why, "%s", why);
	c->state = st < 0 || c->state == TL_CELL_FAILED ? TL_CELL_FAILED
		   : c->reps_done >= p->repeats	       ? TL_CELL_DONE
							: TL_CELL_WAITING;
}

/* Repeat r of cell rc->cell starts a pass: what the progress line and
 * the ETA read while it runs. */
static void rep_begin(const struct run_ctx *rc, unsigned r)
{
	struct tl_search_cell *c = &rc->cells[rc->cell];

	lock(rc->h);
	c->run_started = rc->started;
	c->run_share = rc->share;
	c->run_rep = r;
	unlock(rc->h);
}

/* The flush and engine a pass of a repeat measures with (made per pass:
 * a 4xL3 flush is too big to keep one per repeat). 0, or -1 (why). */
static int engine_open(const struct run_ctx *rc, struct tl_timer *t, struct tl_flush *f,
		       struct tl_search_engine *e, char *why, size_t whylen)
{
	if (tl_flush_init(f, rc->plan->flush[rc->cells[rc->cell].f], why, whylen) < 0)
		return -1;
	tl_search_engine_init(e, t, f, rc->h ? rc->h->stop : NULL);
	e->deadline = rc->deadline;
	return 0;
}

static void engine_close(struct tl_search_engine *e, struct tl_flush *f)
{
	tl_search_engine_free(e);
	tl_flush_free(f);
}

/* The first pass of repeat r of cell rc->cell with an open timer: setup
 * and t_min (t_diff too in one pass). 0, 1 stopped, -1 failed; *again:
 * its t_diff is still to run (two passes), *tdiff_s the seconds it keeps
 * for it. */
static int rep_run(const struct run_ctx *rc, struct tl_timer *t, unsigned r,
		   struct tl_search_carry *carry, bool *again, double *tdiff_s)
{
	struct tl_search_cell *c = &rc->cells[rc->cell];
	const struct tl_search_plan *p = rc->plan;
	bool two = tl_search_plan_two_passes(p);
	struct tl_search_rep rep;
	struct tl_search_engine e;
	struct tl_flush f;
	int st;

	memset(&rep, 0, sizeof rep);
	rep.ran = true;
	*again = false;
	*tdiff_s = 0;
	rep_begin(rc, r);
	set_phase(rc, TL_CELL_RUNNING, 0);
	if (engine_open(rc, t, &f, &e, rep.why, sizeof rep.why) < 0) {
		st = -1;
	} else {
		st = rep_setup(&rep, &e, p, rc->h, rc->share);
		if (st == 0)
			st = rep_search(rc, &e, r, &rep, carry, tdiff_s);
		*again = two && st == 0;
		/* a t_diff still to run says so itself when the budget cuts it */
		if (e.past_deadline)
			budget_spent(&rep, p, *again ? 1u : 3u);
		engine_close(&e, &f);
	}
	double took = tl_monotonic_s() - rc->t0 - rc->started;

	lock(rc->h);
	c->rep[r] = rep;
	c->tmin_done++;
	c->spent += took;
	c->spent_tmin += took;
	if (*again)
		c->state = c->state == TL_CELL_FAILED ? TL_CELL_FAILED : TL_CELL_WAITING;
	else
		rep_finished(c, p, st, rep.why);
	tl_search_summarise(p, rc->cells);
	unlock(rc->h);
	changed(rc);
	return st;
}

/* The second pass of repeat r of cell rc->cell: its t_diff from the
 * cell's A0, with the setup's facts and t_min's sets (carry) of the first
 * pass. 0, 1 stopped, -1 failed. */
static int rep_run_tdiff(const struct run_ctx *rc, struct tl_timer *t, unsigned r,
			 struct tl_search_carry *carry, uint64_t a0, const char *text)
{
	struct tl_search_cell *c = &rc->cells[rc->cell];
	const struct tl_search_plan *p = rc->plan;
	struct tl_search_rep rep;
	struct run_ctx here = *rc;
	int st = 0;

	lock(rc->h);
	rep = c->rep[r];
	unlock(rc->h);
	rep_begin(rc, r);
	here.rep = &rep;
	set_phase(rc, TL_CELL_RUNNING, 2);
	if (rc->deadline > 0 && tl_monotonic_s() > rc->deadline) {
		/* nothing more is measured: say so without making the flush */
		budget_spent(&rep, p, 2u);
	} else {
		struct tl_search_engine e;
		struct tl_flush f;

		if (engine_open(rc, t, &f, &e, rep.why, sizeof rep.why) < 0) {
			st = -1;
		} else {
			struct tl_search_params sp = rep_params(p, r, &rep);
			struct tl_search_io io = rep_io(&here, &e, carry);

			/* every other cell's t_min ran since this one's sets */
			carry->stale = true;

			sp.time_limit_s = fmax(rc->share - (tl_monotonic_s() - rc->t0 - rc->started), 1e-3);
			st = rep_tdiff(&rep, &sp, &io, a0, text);
			if (st < 0)
				snprintf(rep.why, sizeof rep.why, "%s", rep.tdiff.note);
			if (e.past_deadline)
				budget_spent(&rep, p, 2u);
			engine_close(&e, &f);
		}
	}
	lock(rc->h);
	c->rep[r] = rep;
	c->spent += tl_monotonic_s() - rc->t0 - rc->started;
	rep_finished(c, p, st, rep.why);
	tl_search_summarise(p, rc->cells);
	unlock(rc->h);
	changed(rc);
	return st;
}

static void fail_backend(const struct run_ctx *rc, size_t b, const char *why)
{
	const struct tl_search_plan *p = rc->plan;

	lock(rc->h);
	for (size_t f = 0; f < p->nflush; f++) {
		struct tl_search_cell *c = &rc->cells[tl_search_cell_index(p, b, f)];

		c->state = TL_CELL_FAILED;
		snprintf(c->why, sizeof c->why, "%s", why);
	}
	unlock(rc->h);
}

/* Each flush timed once before any repeat, so the ETA knows what a cell
 * not yet run will cost (a flush that cannot be set up says so later, in
 * its repeats). */
static void flush_costs(const struct tl_search_plan *p, struct tl_search_cell *cells,
			const struct tl_search_hooks *h)
{
	for (size_t f = 0; f < p->nflush; f++) {
		struct tl_flush fl;
		char why[TL_WHY_MAX];
		double s = 0;

		if (p->flush[f] && tl_flush_init(&fl, p->flush[f], why, sizeof why) == 0) {
			s = tl_search_engine_flush_seconds(&fl);
			tl_flush_free(&fl);
		}
		lock(h);
		for (size_t b = 0; b < p->nbackends; b++)
			cells[tl_search_cell_index(p, b, f)].flush_cost_s = s;
		unlock(h);
	}
}

/* Pass 1: setup and t_min of every repeat of every cell in the seeded
 * order (t_diff too in one pass). Each gets an equal part of what the
 * budget leaves beside what earlier ones keep for their t_diff
 * (*reserve). */
static int pass_tmin(struct run_ctx *rc, struct tl_timer *timers, const bool *open, size_t *order,
		     struct tl_search_carry *carry, bool *again, double *reserve)
{
	const struct tl_search_plan *p = rc->plan;
	struct tl_search_cell *cells = rc->cells;
	const struct tl_search_hooks *h = rc->h;
	size_t n = p->nbackends * p->nflush, units_left = 0;
	int result = 0;

	for (size_t i = 0; i < n; i++)
		units_left += open[cells[i].b] && cells[i].state != TL_CELL_FAILED ? p->repeats : 0;
	for (unsigned r = 0; r < p->repeats && !stopped(h); r++) {
		tl_search_order(p->sp.seed, r, order, n);
		for (size_t i = 0; i < n && !stopped(h); i++) {
			size_t at;
			double keep;

			rc->cell = order[i];
			at = rc->cell * p->repeats + r;
			if (!open[cells[rc->cell].b] || cells[rc->cell].state == TL_CELL_FAILED) {
				/* a cell failing in an earlier repeat frees its later shares */
				units_left -= cells[rc->cell].state == TL_CELL_FAILED && open[cells[rc->cell].b] &&
					      cells[rc->cell].tmin_done <= r ? 1 : 0;
				continue;
			}
			rc->started = tl_monotonic_s() - rc->t0;
			rc->share = unit_share(rc, *reserve, units_left);
			units_left--;
			if (rep_run(rc, &timers[cells[rc->cell].b], r, &carry[at], &again[at], &keep) < 0)
				result = -1;
			if (again[at])
				*reserve += keep;
			else
				tl_search_carry_free(&carry[at]);
		}
	}
	return result;
}

/* Pass 2: every t_diff still to run, in the same order, each cell's from
 * one A0; each gets an equal part of what the budget leaves. */
static int pass_tdiff(struct run_ctx *rc, struct tl_timer *timers, size_t *order,
		      struct tl_search_carry *carry, bool *again)
{
	const struct tl_search_plan *p = rc->plan;
	struct tl_search_cell *cells = rc->cells;
	size_t n = p->nbackends * p->nflush, units_left = 0;
	uint64_t *a0 = tl_xcalloc(n, sizeof(*a0));
	char (*text)[128] = tl_xcalloc(n, sizeof(*text));
	int result = 0;

	for (size_t i = 0; i < n; i++) {
		for (unsigned r = 0; r < p->repeats; r++)
			units_left += again[i * p->repeats + r];
		lock(rc->h);
		a0[i] = cell_a0(&cells[i], &again[i * p->repeats], &p->sp, text[i], sizeof text[i]);
		unlock(rc->h);
	}
	for (unsigned r = 0; r < p->repeats && !stopped(rc->h); r++) {
		tl_search_order(p->sp.seed, r, order, n);
		for (size_t i = 0; i < n && !stopped(rc->h); i++) {
			size_t at = order[i] * p->repeats + r;

			if (!again[at])
				continue;
			rc->cell = order[i];
			rc->started = tl_monotonic_s() - rc->t0;
			rc->share = unit_share(rc, 0, units_left);
			units_left--;
			if (rep_run_tdiff(rc, &timers[cells[rc->cell].b], r, &carry[at], a0[rc->cell],
					  text[rc->cell]) < 0)
				result = -1;
			tl_search_carry_free(&carry[at]);
			again[at] = false;
		}
	}
	free(a0);
	free(text);
	return result;
}

/* Stopped before their t_diff ran: those repeats say so (their t_min
 * stands). */
static void mark_unrun(const struct run_ctx *rc, const bool *again)
{
	const struct tl_search_plan *p = rc->plan;

	lock(rc->h);
	for (size_t i = 0; i < p->nbackends * p->nflush; i++)
		for (unsigned r = 0; r < p->repeats; r++) {
			struct tl_search_rep *rep = &rc->cells[i].rep[r];

			if (!again[i * p->repeats + r])
				continue;
			rep->tdiff.stopped = true;
			snprintf(rep->tdiff.note, sizeof rep->tdiff.note,
				 "stopped before its t_diff ran (every repeat's t_min runs first)");
		}
	tl_search_summarise(p, rc->cells);
	unlock(rc->h);
}

int tl_search_run(const struct tl_search_plan *p, struct tl_search_cell *cells,
		  const struct tl_search_hooks *h)
{
	size_t n = p->nbackends * p->nflush, nr = n * (p->repeats ? p->repeats : 1);
	struct tl_timer *timers = tl_xcalloc(p->nbackends, sizeof(*timers));
	bool *open = tl_xcalloc(p->nbackends, sizeof(*open));
	size_t *order = tl_xcalloc(n, sizeof(*order));
	/* each repeat's t_min sets, kept for its t_diff, and whether it is to run */
	struct tl_search_carry *carry = tl_xcalloc(nr, sizeof(*carry));
	bool *again = tl_xcalloc(nr, sizeof(*again));
	struct run_ctx rc = {p, cells, h, 0, NULL, tl_monotonic_s(), 0, 0, 0};
	double reserve = 0;
	int result = 0;

	/* past the budget and its margin nothing more is measured; paper runs
	 * the published algorithms to their end, however long */
	if (p->sp.method == TL_SEARCH_FAST)
		rc.deadline = rc.t0 + tl_search_plan_budget(p) * (1 + TL_SEARCH_BUDGET_MARGIN) +
			      TL_SEARCH_BUDGET_MARGIN_S;

	/* one timer per backend for the whole session: a simulated timer's
	 * draws then continue across repeats instead of repeating them */
	for (size_t b = 0; b < p->nbackends; b++) {
		char why[TL_WHY_MAX];

		open[b] = tl_timer_open(&timers[b], p->backends[b], why, sizeof why) == 0;
		if (!open[b]) {
			fail_backend(&rc, b, why);
			result = -1;
		}
	}
	flush_costs(p, cells, h);
	if (pass_tmin(&rc, timers, open, order, carry, again, &reserve) < 0)
		result = -1;
	if (pass_tdiff(&rc, timers, order, carry, again) < 0)
		result = -1;
	if (stopped(h))
		mark_unrun(&rc, again);
	for (size_t i = 0; i < nr; i++)
		tl_search_carry_free(&carry[i]);
	for (size_t b = 0; b < p->nbackends; b++)
		if (open[b])
			tl_timer_close(&timers[b]);
	free(carry);
	free(again);
	free(timers);
	free(open);
	free(order);
	if (stopped(h))
		return 1;
	return result;
}
