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

void tl_search_eta_init(struct tl_search_eta *e)
{
	e->shown = NAN;
	e->at = 0;
}

/* Measurements the finished repeats took (setup included), their median;
 * and the seconds a measurement costs beside its flush, the median over
 * cells; false when no repeat has finished. */
static bool unit_model(const struct tl_search_plan *p, const struct tl_search_cell *cells,
		       double *meas, double *other)
{
	size_t n = p->nbackends * p->nflush, k = 0, j = 0;
	double *m = tl_xcalloc(n * (p->repeats ? p->repeats : 1) + 1, sizeof(*m));
	double *g = tl_xcalloc(n + 1, sizeof(*g));

	for (size_t i = 0; i < n; i++) {
		const struct tl_search_cell *c = &cells[i];
		double cm = 0;

		if (c->state == TL_CELL_FAILED || !c->reps_done)
			continue;
		for (unsigned r = 0; r < c->nrep; r++) {
			const struct tl_search_rep *rep = &c->rep[r];
			double x;

			if (!rep->ran)
				continue;
			x = (double)(rep->setup_measurements + rep->tmin.measurements +
				     rep->tdiff.measurements);
			m[k++] = x;
			cm += x;
		}
		if (cm > 0)
			g[j++] = fmax(c->spent / cm - c->flush_cost_s, 0);
	}
	if (k && j) {
		*meas = stats_median(m, k);
		*other = stats_median(g, j);
	}
	free(m);
	free(g);
	return k && j;
}

/* Seconds the repeats left are expected to take (NaN before any finished). */
static double work_left(const struct tl_search_plan *p, const struct tl_search_cell *cells,
			double elapsed)
{
	unsigned nrep = p->repeats ? p->repeats : 1;
	size_t n = p->nbackends * p->nflush, units = 0;
	double meas, other, left = 0, cap = INFINITY;

	if (!unit_model(p, cells, &meas, &other))
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (cells[i].state != TL_CELL_FAILED && cells[i].reps_done < nrep)
			units += nrep - cells[i].reps_done;
	/* fast gives each repeat an equal part of what the budget leaves */
	if (p->sp.method == TL_SEARCH_FAST && units)
		cap = fmax(tl_search_plan_budget(p) - elapsed, 0) / (double)units;
	for (size_t i = 0; i < n; i++) {
		const struct tl_search_cell *c = &cells[i];
		double each;

		if (c->state == TL_CELL_FAILED || c->reps_done >= nrep)
			continue;
		each = c->reps_done ? c->spent / (double)c->reps_done
				    : meas * (c->flush_cost_s + other);
		if (c->state == TL_CELL_RUNNING) {
			/* a repeat running longer than expected says its cell costs more */
			double had = fmax(elapsed - c->run_started, 0);

			each = fmin(fmax(each, 1.1 * had), fmax(cap, had));
			left += each - had;
			each = fmin(each, cap);
			left += each * (double)(nrep - c->reps_done - 1);
			continue;
		}
		left += fmin(each, cap) * (double)(nrep - c->reps_done);
	}
	return left;
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
