#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/search_impl.h"

/* One search from start to answer: the method's driver (search_paper.c or
 * search_fast.c) run over the primitives both share (search.c), then the
 * steady-clock t_min and the notes. */

static void finish_note(struct tl_search_result *r, enum tl_search_kind kind)
{
	size_t len = strlen(r->note);

	if (r->on_floor && len < sizeof(r->note) - 2)
		snprintf(r->note + len, sizeof(r->note) - len, "%son the timer-resolution floor (%s %.3g ns)",
			 len ? "; " : "", kind == TL_SEARCH_TMIN ? "(q/sqrt 6)/eps =" : "(1-alpha) q =", r->floor_ns);
	len = strlen(r->note);
	/* Why no t_min: the level itself moved between chunks there (on a VM,
	 * usually the core clock; `ticklab info` probes that). */
	if (kind == TL_SEARCH_TMIN && !r->converged && isfinite(r->best_drift) && len < sizeof(r->note) - 2)
		snprintf(r->note + len, sizeof(r->note) - len,
			 "%sthere the level drifts %.3g %% between 100-sample chunks, and CV cannot "
			 "fall much below it",
			 len ? "; " : "", 100.0 * r->best_drift);
}

/* t_min on a steady clock, from the within-chunk CVs; and the CV parts at
 * the answer itself when there is one (a t_min converged at K has its CV
 * there, not at the lowest CV seen). */
static void steady_tmin(struct tl_srch *s)
{
	struct tl_search_result *r = s->r;

	if (!tl_search_cv_crossing((const double (*)[2])s->within, s->nwithin, s->p->eps,
				   &r->steady_adds, &r->steady_lo, &r->steady_hi))
		r->steady_adds = r->steady_lo = r->steady_hi = NAN;
}

/* kind 0: t_min; kind 1: t_diff from A0 = tmin_adds. */
static int search_run(const struct tl_search_params *p, const struct tl_search_io *io,
		      enum tl_search_kind kind,
		      uint64_t tmin_adds, struct tl_search_result *r)
{
	struct tl_srch s;
	size_t n = p->method == TL_SEARCH_FAST && p->fast_n >= 2 ? p->fast_n : p->n;
	bool paper = p->method == TL_SEARCH_PAPER;
	int rc;

	/* a carry from an earlier t_min must not stand in for this one's */
	if (kind == TL_SEARCH_TMIN && io->carry) {
		io->carry->sets = 0;
		io->carry->flat = false;
		io->carry->stale = false;
	}
	if (srch_begin(&s, p, io, r, n) != 0)
		return -1;
	s.kind = kind;
	if (kind == TL_SEARCH_TMIN)
		rc = paper ? search_paper_tmin(&s) : search_fast_tmin(&s);
	else
		rc = paper ? search_paper_tdiff(&s, tmin_adds) : search_fast_tdiff(&s, tmin_adds);
	if (kind == TL_SEARCH_TMIN && s.nwithin)
		steady_tmin(&s);
	if (!r->converged) {
		r->bound_adds = kind == TL_SEARCH_TMIN ? s.hi_adds : s.hi_delta;
		r->out_of_time = r->out_of_time || (rc == 0 && srch_out_of_time(&s));
	}
	srch_end(&s);
	r->stopped = rc == 1;
	if (rc >= 0)
		finish_note(r, kind);
	return rc;
}

int tl_search_tmin(const struct tl_search_params *p, const struct tl_search_io *io,
		   struct tl_search_result *r)
{
	return search_run(p, io, TL_SEARCH_TMIN, 0, r);
}

int tl_search_tdiff(const struct tl_search_params *p, const struct tl_search_io *io,
		    uint64_t tmin_adds, struct tl_search_result *r)
{
	return search_run(p, io, TL_SEARCH_TDIFF, tmin_adds, r);
}
