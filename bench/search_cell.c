#include "config.h"

#include "bench/search_cell.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "bench/flush.h"
#include "bench/probe.h"
#include "bench/runner.h"
#include "bench/search_engine.h"
#include "stats/stats.h"

void tl_search_plan_default(struct tl_search_plan *p)
{
	memset(p, 0, sizeof(*p));
	tl_search_params_default(&p->sp);
	p->budget_s = 0; /* TL_SEARCH_BUDGET_S a cell, once the cells are known */
	p->repeats = TL_SEARCH_REPEATS;
	p->want_tdiff = true;
	p->cpu = -1;
}

static void free_list(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void tl_search_plan_free(struct tl_search_plan *p)
{
	free_list(p->backends, p->nbackends);
	free_list(p->flush_names, p->nflush);
	free(p->flush);
	p->backends = p->flush_names = NULL;
	p->flush = NULL;
	p->nbackends = p->nflush = 0;
}

static char **copy_list(const char *const *v, size_t n)
{
	char **out = tl_xcalloc(n, sizeof(*out));

	for (size_t i = 0; i < n; i++)
		out[i] = tl_xstrdup(v[i]);
	return out;
}

void tl_search_plan_set(struct tl_search_plan *p, const char *const *backends, size_t nb,
		       const char *const *flush_names, const uint64_t *flush, size_t nf)
{
	tl_search_plan_free(p);
	p->backends = copy_list(backends, nb);
	p->flush_names = copy_list(flush_names, nf);
	p->flush = tl_xcalloc(nf, sizeof(*p->flush));
	memcpy(p->flush, flush, nf * sizeof(*flush));
	p->nbackends = nb;
	p->nflush = nf;
	if (p->ref >= nb)
		p->ref = 0;
}

size_t tl_search_default_reference(const char *const *backends, size_t n)
{
	static const char *const prefer[] = {"papi-real-nsec", "papi-", "clock-gettime"};

	for (size_t k = 0; k < sizeof(prefer) / sizeof(prefer[0]); k++)
		for (size_t i = 0; i < n; i++)
			if (strncmp(backends[i], prefer[k], strlen(prefer[k])) == 0)
				return i;
	return 0;
}

int tl_search_plan_build(struct tl_search_plan *out, const struct tl_search_plan *params,
			 const char *const *backends, size_t nb, const char *const *flush_names,
			 const uint64_t *flush, size_t nf, const char *reference, char *why,
			 size_t whylen)
{
	struct tl_search_plan next;
	size_t ref = tl_search_default_reference(backends, nb);

	if (reference) {
		size_t i;

		for (i = 0; i < nb && strcmp(backends[i], reference) != 0; i++)
			;
		if (i == nb) {
			size_t at = (size_t)snprintf(why, whylen, "--reference '%s' is not one of the "
							 "--backend list (accepted: ", reference);

			for (size_t k = 0; k < nb && at < whylen; k++)
				at += (size_t)snprintf(why + at, whylen - at, "%s%s", k ? "," : "",
						       backends[k]);
			if (at < whylen)
				snprintf(why + at, whylen - at, ")");
			return -1;
		}
		ref = i;
	}
	tl_search_plan_default(&next);
	next.sp = params->sp;
	next.budget_s = params->budget_s;
	next.repeats = params->repeats ? params->repeats : TL_SEARCH_REPEATS;
	next.want_tdiff = params->want_tdiff;
	next.cpu = params->cpu >= 0 ? params->cpu : tl_cpu_default();
	tl_search_plan_set(&next, backends, nb, flush_names, flush, nf);
	next.budget_s = tl_search_plan_budget(&next);
	next.ref = ref;
	tl_search_plan_free(out);
	*out = next;
	return 0;
}

bool tl_search_plan_two_passes(const struct tl_search_plan *p)
{
	return p->sp.method == TL_SEARCH_FAST && p->want_tdiff && !p->own_a0;
}

double tl_search_plan_budget(const struct tl_search_plan *p)
{
	size_t n = p->nbackends * p->nflush;

	return p->budget_s > 0 ? p->budget_s : TL_SEARCH_BUDGET_S * (double)(n ? n : 1);
}

size_t tl_search_cell_index(const struct tl_search_plan *p, size_t b, size_t f)
{
	return f * p->nbackends + b;
}

void tl_search_cells_free(struct tl_search_cell *cells, size_t ncells)
{
	for (size_t i = 0; cells && i < ncells; i++) {
		for (unsigned r = 0; cells[i].rep && r < cells[i].nrep; r++)
			for (int k = 0; k < 2; k++)
				tl_search_points_free(&cells[i].rep[r].points[k]);
		free(cells[i].rep);
	}
	free(cells);
}

void tl_search_points_add(struct tl_search_points *pts, double x, double y)
{
	if (pts->n == pts->cap) {
		pts->cap = pts->cap ? 2 * pts->cap : 64;
		pts->xy = tl_xrealloc(pts->xy, pts->cap, sizeof *pts->xy);
	}
	pts->xy[pts->n][0] = x;
	pts->xy[pts->n][1] = y;
	pts->n++;
}

size_t tl_search_points_total(const struct tl_search_cell *cells, size_t ncells,
			      enum tl_search_kind kind)
{
	size_t n = 0;

	for (size_t i = 0; i < ncells; i++)
		for (unsigned r = 0; r < cells[i].nrep; r++)
			n += cells[i].rep[r].points[kind].n;
	return n;
}

void tl_search_points_free(struct tl_search_points *pts)
{
	free(pts->xy);
	pts->xy = NULL;
	pts->n = pts->cap = 0;
}

/* ------------------------------------------------------------------ */
/* Order                                                                */
/* ------------------------------------------------------------------ */

void tl_search_order(uint64_t seed, unsigned r, size_t *order, size_t n)
{
	uint64_t s = seed * 0x100000001b3ULL + r, draw = 0;

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(tl_seed_derive(s, draw++) % i), t = order[i - 1];

		order[i - 1] = order[j];
		order[j] = t;
	}
}

/* ------------------------------------------------------------------ */
/* ETA                                                                  */
/* ------------------------------------------------------------------ */

/* seconds over which a new estimate replaces the one shown (about two
 * thirds of the way): long against the repeats' scatter in cost, short
 * against a whole search */
#define ETA_TAU_S 4.0
/* a t_diff's seconds against its repeat's setup and t_min, before any
 * t_diff has run (part_cost) */
#define ETA_TDIFF_GUESS 0.8
/* first parts finished before there is an ETA: in two passes a part is
 * half a repeat, and one part's measurements scatter by a third */
#define ETA_MIN_PARTS 3

void tl_search_eta_init(struct tl_search_eta *e)
{
	e->shown = NAN;
	e->at = 0;
}


/* What the ETA knows of a part of a repeat (pass 1: setup and t_min, with
 * t_diff in one pass; pass 2: t_diff): the measurements the finished ones
 * took, their median (NaN: none finished); and the seconds a measurement
 * costs beside its flush, the median over cells. */
struct eta_model {
	double meas[2], other;
};

static double median_or_nan(double *v, size_t n)
{
	return n ? stats_median(v, n) : NAN;
}

/* false until ETA_MIN_PARTS first parts have finished. */
static bool unit_model(const struct tl_search_plan *p, const struct tl_search_cell *cells,
		       struct eta_model *m)
{
	size_t n = p->nbackends * p->nflush, k[2] = {0, 0}, j = 0;
	size_t cap = n * (p->repeats ? p->repeats : 1) + 1;
	double *v[2] = {tl_xcalloc(cap, sizeof(double)), tl_xcalloc(cap, sizeof(double))};
	double *g = tl_xcalloc(n + 1, sizeof(*g));
	bool two = tl_search_plan_two_passes(p);

	for (size_t i = 0; i < n; i++) {
		const struct tl_search_cell *c = &cells[i];
		double cm = 0;

		if (c->state == TL_CELL_FAILED || !c->tmin_done)
			continue;
		for (unsigned r = 0; r < c->nrep; r++) {
			const struct tl_search_rep *rep = &c->rep[r];
			double x;

			if (!rep->ran)
				continue;
			x = (double)(rep->setup_measurements + rep->tmin.measurements);
			if (!two)
				x += (double)rep->tdiff.measurements;
			v[0][k[0]++] = x;
			cm += x;
			if (two && rep->done_tdiff) {
				v[1][k[1]++] = (double)rep->tdiff.measurements;
				cm += (double)rep->tdiff.measurements;
			}
		}
		if (cm > 0)
			g[j++] = fmax(c->spent / cm - c->flush_cost_s, 0);
	}
	m->meas[0] = median_or_nan(v[0], k[0]);
	m->meas[1] = median_or_nan(v[1], k[1]);
	m->other = median_or_nan(g, j);
	free(v[0]);
	free(v[1]);
	free(g);
	/* a median of fewer than three parts is one part's scatter */
	return k[0] >= ETA_MIN_PARTS && j;
}

/* Seconds one part (0, 1 as above) of a repeat of c is expected to take. */
static double part_cost(const struct tl_search_cell *c, const struct eta_model *m, int part)
{
	double each1 = c->tmin_done ? c->spent_tmin / (double)c->tmin_done
				    : m->meas[0] * (c->flush_cost_s + m->other);

	if (part == 0)
		return each1;
	if (c->reps_done && c->spent > c->spent_tmin)
		return (c->spent - c->spent_tmin) / (double)c->reps_done;
	if (!isnan(m->meas[1]))
		return m->meas[1] * (c->flush_cost_s + m->other);
	/* no t_diff has run yet: on the KVM guest a repeat's t_diff took
	 * 0.54-1.1x of its t_min's seconds (median 0.84 over four full
	 * comparisons); what a share's t_min leaves goes to its t_diff, so the
	 * split's 0.4/0.6 is no bound on it */
	return ETA_TDIFF_GUESS * each1;
}

/* Seconds the parts `part` of c's repeats left are expected to take,
 * each at most cap. */
static double cell_left(const struct tl_search_cell *c, const struct eta_model *m, int part,
			bool two, unsigned nrep, double cap, double elapsed)
{
	size_t todo = nrep - (part == 0 ? c->tmin_done : c->reps_done);
	double each = part_cost(c, m, part), left = 0;

	if (!todo)
		return 0;
	if (c->state == TL_CELL_RUNNING && (c->phase == 2 && two) == (part == 1)) {
		/* a repeat running longer than expected says its cell costs more */
		double had = fmax(elapsed - c->run_started, 0);

		each = fmin(fmax(each, 1.1 * had), fmax(cap, had));
		left += each - had;
		todo--;
	}
	return left + fmin(each, cap) * (double)todo;
}

/* Seconds the parts left are expected to take (NaN before any finished). */
static double work_left(const struct tl_search_plan *p, const struct tl_search_cell *cells,
			double elapsed)
{
	unsigned nrep = p->repeats ? p->repeats : 1;
	size_t n = p->nbackends * p->nflush, n2 = 0;
	bool two = tl_search_plan_two_passes(p), fast = p->sp.method == TL_SEARCH_FAST;
	double units = 0, left1 = 0, left2 = 0, cap = INFINITY, budget_left;
	struct eta_model m;

	if (!unit_model(p, cells, &m))
		return NAN;
	/* a repeat still to run its t_min is a whole share; one with only
	 * its t_diff left, what t_min leaves of it */
	for (size_t i = 0; i < n; i++) {
		const struct tl_search_cell *c = &cells[i];

		if (c->state == TL_CELL_FAILED)
			continue;
		units += (double)(nrep - c->tmin_done);
		if (two)
			units += (1 - TL_SEARCH_TMIN_SHARE) * (double)(c->tmin_done - c->reps_done);
		n2 += two ? nrep - c->reps_done : 0;
	}
	budget_left = fmax(tl_search_plan_budget(p) - elapsed, 0);
	/* fast gives each repeat an equal part of what the budget leaves, and
	 * in two passes the first may take TL_SEARCH_TMIN_SHARE of it (its
	 * setup, small against it, aside) */
	if (fast && units > 0)
		cap = budget_left / units * (two ? TL_SEARCH_TMIN_SHARE : 1);
	for (size_t i = 0; i < n; i++)
		if (cells[i].state != TL_CELL_FAILED && cells[i].reps_done < nrep)
			left1 += cell_left(&cells[i], &m, 0, two, nrep, cap, elapsed);
	if (!two)
		return left1;
	/* the t_diff share what the first pass leaves of the budget equally */
	cap = fast && n2 ? fmax(budget_left - left1, 0) / (double)n2 : INFINITY;
	for (size_t i = 0; i < n; i++)
		if (cells[i].state != TL_CELL_FAILED && cells[i].reps_done < nrep)
			left2 += cell_left(&cells[i], &m, 1, two, nrep, cap, elapsed);
	return left1 + left2;
}

double tl_search_eta_update(struct tl_search_eta *e, const struct tl_search_plan *p,
			    const struct tl_search_cell *cells, double elapsed)
{
	/* paper is not bounded by the budget */
	double cap = p->sp.method == TL_SEARCH_FAST ? fmax(tl_search_plan_budget(p) - elapsed, 0)
						    : INFINITY;
	double est = work_left(p, cells, elapsed);

	if (isnan(est))
		return e->shown;
	est = fmin(est, cap);
	if (isnan(e->shown)) {
		e->shown = est;
	} else {
		double dt = fmax(elapsed - e->at, 0), counted = fmax(e->shown - dt, 0);

		e->shown = counted + (1 - exp(-dt / ETA_TAU_S)) * (est - counted);
	}
	e->shown = fmin(e->shown, cap);
	e->at = elapsed;
	return e->shown;
}
