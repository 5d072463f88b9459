/* The paper's Algorithms 1 (t_min) and 2 (t_diff), as published.
 *
 * Conventions where the pseudocode is loose (stated so results can be read):
 * - The paper evaluates two clocks per point (ns and cycles) and counts a
 *   point as failing only when both CVs exceed eps. A ticklab backend reads
 *   one clock, so a point fails when its one CV (of the ns feature) exceeds
 *   eps; compare backends of the two clock domains side by side instead.
 * - A point passes when CV <= eps (the pseudocode's failure test is CV > eps).
 * - Each refinement round restarts from the last failing point ("start") with
 *   step/10; the answer is the confirmed point of the final step-1 round
 *   ("end"), the smallest t found with CV below eps p+1 times in a row. The
 *   pseudocode's last lines can also be read as returning "start", one ADD
 *   lower; we report the point that actually passed.
 * - Algorithm 2 measures the pair with N measurements each, filters each
 *   with filter_cost and filter_os, and accepts a delta when all q pairs
 *   have overlap <= alpha; r->stat is the largest overlap of the q pairs.
 * - The bound: a candidate above max_adds (t_min), or a pair whose A1 would
 *   exceed it (t_diff), ends the search with converged = false. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/search_impl.h"

/* One point of Algorithm 1: 0 fail, 1 pass, -1 stopped. */
static int tmin_point(struct tl_srch *s, uint64_t t, double *cv)
{
	struct tl_point pt;

	if (srch_sample(s, t, s->p->n, false, &pt) != 0)
		return -1;
	*cv = pt.cv;
	srch_observe(s, 0, t, pt.cv);
	return pt.cv > s->p->eps ? 0 : 1;
}

/* The point passes once, then p more times in a row. */
static int tmin_confirmed(struct tl_srch *s, uint64_t t, double *cv_worst)
{
	double cv;
	int rc = tmin_point(s, t, &cv);

	*cv_worst = cv;
	if (rc != 1)
		return rc;
	for (unsigned i = 0; i < s->p->p; i++) {
		rc = tmin_point(s, t, &cv);
		if (cv > *cv_worst)
			*cv_worst = cv;
		if (rc != 1)
			return rc;
	}
	return 1;
}

static void note_bound(struct tl_srch *s, const char *what)
{
	if (isfinite(s->cv_floor))
		/* One check can dip below eps while its p repeats fail: say so,
		 * or a floor under eps reads as a contradiction. */
		snprintf(s->r->note, sizeof(s->r->note),
			 "no t_min below the %.3g-ADD bound (--max-adds): lowest CV %.3g %% at %llu ADDs%s",
			 (double)s->p->max_adds, 100.0 * s->cv_floor,
			 (unsigned long long)s->cv_floor_adds,
			 s->cv_floor < s->p->eps ? " in one check; its repeats failed" : "");
	else
		snprintf(s->r->note, sizeof(s->r->note), "no t_min below the %.3g-ADD bound (--max-adds): %s",
			 (double)s->p->max_adds, what);
}

static void keep_found(struct tl_srch *s, int kind, bool have, uint64_t end, double stat)
{
	if (have) {
		srch_answer(s, kind, end, stat);
		snprintf(s->r->note, sizeof(s->r->note),
			 "stopped: %s is an upper bound (step not refined to 1)",
			 kind == 0 ? "t_min" : "t_diff");
	} else {
		snprintf(s->r->note, sizeof(s->r->note), "stopped before any point passed");
	}
}

int search_paper_tmin(struct tl_srch *s)
{
	const struct tl_search_params *p = s->p;
	uint64_t start = 0, end = 0, t = 0, step = p->tmin_step;
	double cv_end = NAN, cv = NAN;
	bool have = false;

	while (step >= 1) {
		for (;;) {
			int rc;

			t += step;
			if (t > p->max_adds) {
				/* a coarser round already passed: keep it, unrefined */
				if (have) {
					srch_answer(s, 0, end, cv_end);
					s->r->converged = true;
					return 0;
				}
				note_bound(s, "no point passed");
				return 0;
			}
			rc = tmin_confirmed(s, t, &cv);
			if (rc < 0) {
				keep_found(s, 0, have, end, cv_end);
				return 1;
			}
			if (rc == 1) {
				end = t;
				cv_end = cv;
				have = true;
				break;
			}
			start = t;
		}
		t = start;
		step /= 10;
	}
	srch_answer(s, 0, end, cv_end);
	s->r->converged = true;
	return 0;
}

/* All q pairs at delta; 1 pass, 0 fail, -1 stopped. *worst: largest overlap. */
static int tdiff_point(struct tl_srch *s, uint64_t tmin, uint64_t d, double *worst)
{
	const struct tl_search_params *p = s->p;
	int res = 1;

	*worst = 0;
	for (unsigned i = 1; i <= p->q; i++) {
		double ov;
		size_t n0, n1;

		if (srch_pair(s, tmin + (uint64_t)(i - 1) * d, tmin + (uint64_t)i * d, p->n, &ov, &n0,
			      &n1) != 0)
			return -1;
		if (ov > *worst)
			*worst = ov;
		if (ov > p->alpha) {
			res = 0;
			break;
		}
	}
	srch_observe(s, 1, d, *worst);
	return res;
}

int search_paper_tdiff(struct tl_srch *s, uint64_t tmin)
{
	const struct tl_search_params *p = s->p;
	uint64_t start = 0, end = 0, d = 0, step = p->tdiff_step;
	double worst = NAN, worst_end = NAN;
	bool have = false;

	while (step >= 1) {
		for (;;) {
			int rc;

			d += step;
			if (tmin + (uint64_t)p->q * d > p->max_adds) {
				if (have) {
					srch_answer(s, 1, end, worst_end);
					s->r->converged = true;
					return 0;
				}
				if (isnan(worst))
					snprintf(s->r->note, sizeof(s->r->note),
						 "no t_diff below the %.3g-ADD bound (--max-adds): %u pairs %llu ADDs "
						 "apart would need longer kernels",
						 (double)p->max_adds, p->q, (unsigned long long)d);
				else
					snprintf(s->r->note, sizeof(s->r->note),
						 "no t_diff below the %.3g-ADD bound (--max-adds): overlap still %.3g at "
						 "%llu ADDs apart",
						 (double)p->max_adds, worst, (unsigned long long)(d - step));
				return 0;
			}
			rc = tdiff_point(s, tmin, d, &worst);
			if (rc < 0) {
				keep_found(s, 1, have, end, worst_end);
				return 1;
			}
			if (rc == 1) {
				end = d;
				worst_end = worst;
				have = true;
				break;
			}
			start = d;
		}
		d = start;
		step /= 10;
	}
	srch_answer(s, 1, end, worst_end);
	s->r->converged = true;
	return 0;
}
