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
 *   The paper measures A0's N, then A1's (order paper); by default the
 *   two alternate in one pass and each block's level is taken out of both
 *   (order interleaved, stats_level_align), the criterion unchanged.
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
	srch_observe(s, TL_SEARCH_TMIN, t, pt.cv);
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

static void keep_found(struct tl_srch *s, enum tl_search_kind kind, bool have, uint64_t end,
		       double stat)
{
	if (have) {
		srch_answer(s, kind, end, stat);
		snprintf(s->r->note, sizeof(s->r->note),
			 "stopped: %s is an upper bound (step not refined to 1)",
			 kind == TL_SEARCH_TMIN ? "t_min" : "t_diff");
	} else {
		snprintf(s->r->note, sizeof(s->r->note), "stopped before any point passed");
	}
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

		uint64_t a0 = tmin + (uint64_t)(i - 1) * d, a1 = tmin + (uint64_t)i * d;

		if ((p->order == TL_TDIFF_PAPER ? srch_pair : srch_pair_mixed)(s, a0, a1, p->n, &ov, &n0,
									      &n1) != 0)
			return -1;
		if (ov > *worst)
			*worst = ov;
		if (ov > p->alpha) {
			res = 0;
			break;
		}
	}
	srch_observe(s, TL_SEARCH_TDIFF, d, *worst);
	return res;
}

/* Algorithm 2's bound: the pair's A1 would pass --max-adds. */
static void note_tdiff_bound(struct tl_srch *s, uint64_t d, uint64_t step, double worst)
{
	const struct tl_search_params *p = s->p;

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
}

/* The walk both algorithms share: x climbs by step until a point passes,
 * then restarts from the last failing x with step / 10, down to a step of
 * 1; the answer is the point that passed in the last round. t_min walks t
 * (Algorithm 1), t_diff walks delta above tmin (Algorithm 2). Returns 0
 * done (converged or at the bound), 1 stopped. */
static int refine_by_tenths(struct tl_srch *s, enum tl_search_kind kind, uint64_t tmin,
			    uint64_t step)
{
	const struct tl_search_params *p = s->p;
	uint64_t start = 0, end = 0, x = 0;
	double y = NAN, y_end = NAN;
	bool have = false;

	while (step >= 1) {
		for (;;) {
			int rc;

			x += step;
			if (kind == TL_SEARCH_TMIN ? x > p->max_adds : tmin + (uint64_t)p->q * x > p->max_adds) {
				/* a coarser round already passed: keep it, unrefined */
				if (have) {
					srch_answer(s, kind, end, y_end);
					s->r->converged = true;
				} else if (kind == TL_SEARCH_TMIN) {
					note_bound(s, "no point passed");
				} else {
					note_tdiff_bound(s, x, step, y);
				}
				return 0;
			}
			rc = kind == TL_SEARCH_TMIN ? tmin_confirmed(s, x, &y) : tdiff_point(s, tmin, x, &y);
			if (rc < 0) {
				keep_found(s, kind, have, end, y_end);
				return 1;
			}
			if (rc == 1) {
				end = x;
				y_end = y;
				have = true;
				break;
			}
			start = x;
		}
		x = start;
		step /= 10;
	}
	srch_answer(s, kind, end, y_end);
	s->r->converged = true;
	return 0;
}

int search_paper_tmin(struct tl_srch *s)
{
	return refine_by_tenths(s, TL_SEARCH_TMIN, 0, s->p->tmin_step);
}

int search_paper_tdiff(struct tl_srch *s, uint64_t tmin)
{
	return refine_by_tenths(s, TL_SEARCH_TDIFF, tmin, s->p->tdiff_step);
}
