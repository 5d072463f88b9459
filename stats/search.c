#include "config.h"

#include "stats/search.h"

#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "stats/search_impl.h"

void tl_search_params_default(struct tl_search_params *p)
{
	memset(p, 0, sizeof(*p));
	p->method = TL_SEARCH_FAST;
	p->eps = 0.01;
	p->alpha = 0.05;
	p->n = 10000;
	p->p = 30;
	p->q = 80;
	p->tmin_step = 10000;
	p->tdiff_step = 100;
	p->max_adds = 100000000;
	p->os = TL_OS_IFOREST;
	p->seed = 1;
	/* overhead_ns, ns_per_add, resolution_ns, fast_n, time_limit_s: 0 (unknown / no limit) */
}

const char *tl_search_method_name(enum tl_search_method m)
{
	return m == TL_SEARCH_PAPER ? "paper" : "fast";
}

const char *tl_tdiff_order_name(enum tl_tdiff_order o)
{
	return o == TL_TDIFF_PAPER ? "paper" : "interleaved";
}

int tl_tdiff_order_parse(const char *text)
{
	if (strcmp(text, "interleaved") == 0)
		return TL_TDIFF_INTERLEAVED;
	if (strcmp(text, "paper") == 0)
		return TL_TDIFF_PAPER;
	return -1;
}

int tl_search_method_parse(const char *text)
{
	if (strcmp(text, "fast") == 0)
		return TL_SEARCH_FAST;
	if (strcmp(text, "paper") == 0)
		return TL_SEARCH_PAPER;
	return -1;
}

static int params_check(const struct tl_search_params *p, char *why, size_t len)
{
	if (!(p->eps > 0 && p->eps < 1))
		snprintf(why, len, "eps %g: need 0 < eps < 1", p->eps);
	else if (!(p->alpha >= 0 && p->alpha < 1))
		snprintf(why, len, "alpha %g: need 0 <= alpha < 1", p->alpha);
	else if (p->n < 2)
		snprintf(why, len, "n %zu: need at least 2 measurements per point", p->n);
	else if (p->q < 1)
		snprintf(why, len, "q %u: need at least 1 pair", p->q);
	else if (p->tmin_step < 1 || p->tdiff_step < 1)
		snprintf(why, len, "steps must be at least 1 ADD");
	else if (p->max_adds < 1)
		snprintf(why, len, "max_adds must be at least 1");
	else
		return 0;
	return -1;
}

int srch_begin(struct tl_srch *s, const struct tl_search_params *p, const struct tl_search_io *io,
	       struct tl_search_result *r, size_t n)
{
	memset(s, 0, sizeof(*s));
	memset(r, 0, sizeof(*r));
	s->p = p;
	s->io = io;
	s->r = r;
	s->t0 = io->now ? io->now() : 0;
	s->fixed_s = p->measurement_s > 0 ? p->measurement_s : 0;
	s->cv_floor = INFINITY;
	r->method = p->method;
	r->ns = NAN;
	r->a0_sd_ns = r->a0_top_sds = NAN;
	r->stat = NAN;
	r->predicted_adds = NAN;
	r->best_cv = NAN;
	r->best_drift = NAN;
	r->order = p->order;
	r->cv_within = r->cv_drift = NAN;
	r->steady_adds = r->steady_lo = r->steady_hi = NAN;
	if (params_check(p, r->note, sizeof(r->note)) != 0)
		return -1;
	s->cap = n;
	s->raw = malloc(n * sizeof(double));
	s->kept = malloc(n * sizeof(double));
	s->kept2 = malloc(n * sizeof(double));
	s->raw2 = malloc(n * sizeof(double));
	s->mix = malloc(2 * n * sizeof(double));
	s->mix_adds = malloc(2 * n * sizeof(uint64_t));
	if (!s->raw || !s->kept || !s->kept2 || !s->raw2 || !s->mix || !s->mix_adds) {
		srch_end(s);
		snprintf(r->note, sizeof(r->note), "out of memory for %zu measurements", n);
		return -1;
	}
	return 0;
}

void srch_end(struct tl_srch *s)
{
	free(s->raw);
	free(s->kept);
	free(s->kept2);
	free(s->raw2);
	free(s->mix);
	free(s->mix_adds);
	free(s->within);
	s->raw = s->kept = s->kept2 = s->raw2 = s->mix = NULL;
	s->mix_adds = NULL;
	s->within = NULL;
	if (s->r)
		s->r->measurement_s = s->fixed_s;
	if (s->r)
		s->r->seconds = s->io->now ? s->io->now() - s->t0 : 0;
}

bool srch_stopped(const struct tl_srch *s)
{
	return s->io->stop && atomic_load(s->io->stop);
}

bool srch_out_of_time(const struct tl_srch *s)
{
	return s->p->time_limit_s > 0 && s->io->now && s->io->now() - s->t0 > s->p->time_limit_s;
}

bool srch_out_of_time_for(const struct tl_srch *s, uint64_t adds, size_t measurements)
{
	double per = s->fixed_s;

	if (!(s->p->time_limit_s > 0) || !s->io->now)
		return false;
	if (s->p->ns_per_add > 0)
		per += (double)adds * s->p->ns_per_add * 1e-9;
	return s->io->now() - s->t0 + per * (double)measurements > s->p->time_limit_s;
}

size_t srch_affordable(const struct tl_srch *s, uint64_t adds, size_t sets)
{
	double per = s->fixed_s, left, n;

	if (!(s->p->time_limit_s > 0) || !s->io->now || sets == 0)
		return s->cap;
	if (s->p->ns_per_add > 0)
		per += (double)adds * s->p->ns_per_add * 1e-9;
	left = s->p->time_limit_s - (s->io->now() - s->t0);
	if (left <= 0)
		return 0;
	if (!(per > 0))
		return s->cap;
	n = left / (per * (double)sets);
	return n >= (double)s->cap ? s->cap : (size_t)n;
}

/* What a measurement costs besides its kernel, from this evaluation. */
static void learn_cost(struct tl_srch *s, double t_start, uint64_t adds, size_t n)
{
	double per;

	if (!s->io->now || n == 0)
		return;
	per = (s->io->now() - t_start) / (double)n;
	if (s->p->ns_per_add > 0)
		per -= (double)adds * s->p->ns_per_add * 1e-9;
	s->fixed_s = per > 0 ? per : 0;
}

static void keep_within(struct tl_srch *s, uint64_t adds, double cv)
{
	if (!isfinite(cv))
		return;
	if (s->nwithin == s->capwithin) {
		s->capwithin = s->capwithin ? 2 * s->capwithin : 64;
		s->within = tl_xrealloc(s->within, s->capwithin, sizeof *s->within);
	}
	s->within[s->nwithin][0] = (double)adds;
	s->within[s->nwithin++][1] = cv;
}

/* Filters raw[0..n) (measured at `adds`) into s->kept or s->kept2 and
 * summarises them in pt; keeps the lowest CV seen. */
static void digest(struct tl_srch *s, const double *raw, uint64_t adds, size_t n, bool second,
		   struct tl_point *pt)
{
	double *dst = second ? s->kept2 : s->kept;
	struct tl_analysis a;
	size_t nk = 0;

	if (adds > s->hi_adds)
		s->hi_adds = adds;
	if (stats_analyse(raw, n, s->p->overhead_ns, s->p->os, s->p->seed, &a, dst, &nk) != 0)
		nk = 0;
	pt->adds = adds;
	pt->n = nk;
	s->cut[second] = false;
	if (nk && nk < n) {
		double top = raw[0], kept_top = dst[0];

		for (size_t i = 1; i < n; i++)
			top = fmax(top, raw[i]);
		for (size_t i = 1; i < nk; i++)
			kept_top = fmax(kept_top, dst[i]);
		s->cut[second] = top - s->p->overhead_ns > kept_top + 1e-9 * fabs(kept_top);
	}
	pt->mean = a.summary.mean;
	pt->sd = a.summary.sd;
	/* A mean at or below zero (overhead over-estimated at tiny K) has no
	 * meaningful CV: count it as failing, never as a pass. */
	pt->cv = (nk >= 2 && pt->mean > 0) ? pt->sd / pt->mean : INFINITY;
	pt->kurtosis = nk >= 4 ? 3.0 + gsl_stats_kurtosis(dst, 1, nk) : 3.0;
	if (!isfinite(pt->kurtosis))
		pt->kurtosis = 3.0;
	stats_cv_split(dst, nk, TL_DRIFT_CHUNK, &pt->cv_within, &pt->cv_drift);
	if (s->kind == TL_SEARCH_TMIN)
		keep_within(s, adds, pt->cv_within);
	if (pt->cv < s->cv_floor) {
		s->cv_floor = pt->cv;
		s->cv_floor_adds = adds;
		s->r->best_adds = adds;
		s->r->best_cv = pt->cv;
		s->r->best_drift = a.drift.drifts ? a.drift.rel_sd : NAN;
		s->r->cv_within = pt->cv_within;
		s->r->cv_drift = pt->cv_drift;
	}
}

/* Readings in a block of 64 (32 pairs interleaved: as the level blocks)
 * more than this many robust sds above the block's level mark a burst:
 * a normal reading lies there once in 10^9, the bursts seen on a
 * loaded KVM guest reach 5 to 40 */
#define CLEAN_BLOCK (2 * TL_TDIFF_LEVEL_BLOCK)
/* a burst is measured again at most this often (a burst of the host can
 * outlast one measuring again); one still there after
 * is the node's state and stays */
#define CLEAN_ROUNDS 4

bool srch_tail_own(const unsigned char *bad, size_t hit, size_t blocks)
{
	size_t runs = 0;

	/* one burst spans two blocks, and a set of a few hundred readings can
	 * hold two bursts: under 16 blocks no share tells a tail from them */
	if (blocks < 16 || hit <= 2 || 4 * hit <= blocks)
		return false;
	if (4 * hit > 3 * blocks)
		return true;
	/* a tail of the timer's own marks blocks apart, at random: a share p
	 * of them in about (1 - p) hit runs; a long burst (at load 13 one
	 * covered over a quarter of a pass) marks them in a few long runs.
	 * Under half the runs chance gives: a burst (at 4xL1, where half the
	 * blocks are marked apart, "over half of hit" took the tail for one
	 * and measured 1171 blocks again) */
	for (size_t j = 0; j < blocks; j++)
		runs += bad[j] && (j == 0 || !bad[j - 1]);
	return 2 * runs * blocks > hit * (blocks - hit);
}

/* readings measured and dropped before a block measured again: it comes
 * right after this file's own sorting, and on a KVM guest the first
 * readings after it read slow, so without them the same block was
 * marked again in round after round */
#define REDO_LEAD 8

/* Measures blocks from..to of x again: adds[] (period 2, interleaved) or
 * one K (period 1), after REDO_LEAD readings of the same pattern that
 * are dropped. 0, or 1 stopped. */
static int redo_block(struct tl_srch *s, double *x, size_t from, size_t to, size_t period,
		      uint64_t adds)
{
	const struct tl_search_io *io = s->io;
	size_t len = to - from, all = REDO_LEAD + len;
	double *got = tl_xmalloc(all * sizeof *got);
	uint64_t *k = tl_xmalloc(all * sizeof *k);
	int rc = 0;

	for (size_t i = 0; i < all; i++)
		k[i] = period == 1 ? adds
		       : i < REDO_LEAD ? s->mix_adds[from + i % period]
				       : s->mix_adds[from + i - REDO_LEAD];
	if (srch_stopped(s))
		rc = 1;
	else if (period == 1)
		rc = io->measure(io->measure_ctx, adds, false, all, got) != 0;
	else if (io->measure_mix)
		rc = io->measure_mix(io->measure_ctx, k, all, got) != 0;
	else
		for (size_t i = 0; i < all && !rc; i++)
			rc = io->measure(io->measure_ctx, k[i], false, 1, &got[i]) != 0;
	if (!rc)
		memcpy(x + from, got + REDO_LEAD, len * sizeof *x);
	free(got);
	free(k);
	return rc;
}

/* fast t_diff: the blocks of x[0..n) (time order, `period` sides) that a
 * host burst disturbed are measured again, up to CLEAN_ROUNDS times. A
 * burst is rare: it lands in some sets and not others, and so moved
 * t_diff 4x from repeat to repeat. When over a quarter of the blocks hold
 * such readings, the tail is the timer's own at this flush (at 4xL1 on a
 * KVM guest, single slow readings spread over the whole set), every set
 * has it, and the set stays as it is. The paper's criterion then judges
 * the set as it stands. 0, or 1 stopped. */
static int clean_bursts(struct tl_srch *s, double *x, size_t n, size_t period, uint64_t adds)
{
	size_t k = stats_block_count(n, CLEAN_BLOCK), hit = 0, from, to;
	unsigned char *bad, *redone;

	if (!s->clean || n < 2 * CLEAN_BLOCK)
		return 0;
	bad = tl_xmalloc(k);
	/* a block measured in two rounds is one block of the note's "X of Y" */
	redone = tl_xcalloc(k, 1);
	s->blocks_seen += k;
	for (int round = 0; round <= CLEAN_ROUNDS; round++) {
		hit = stats_disturbed_blocks(x, n, period, CLEAN_BLOCK, s->p->resolution_ns, TL_SEARCH_BURST_FENCE,
					     bad);
		if (!hit || (round == 0 && srch_tail_own(bad, hit, k)) || round == CLEAN_ROUNDS)
			break;
		for (size_t j = 0; j < k; j++) {
			if (!bad[j])
				continue;
			stats_block_range(j, n, CLEAN_BLOCK, &from, &to);
			if (redo_block(s, x, from, to, period, adds) != 0) {
				free(bad);
				free(redone);
				return 1;
			}
			s->r->measurements += to - from + REDO_LEAD;
			s->blocks_redone += !redone[j];
			redone[j] = 1;
		}
	}
	if (!srch_tail_own(bad, hit, k))
		s->blocks_left += hit;
	free(bad);
	free(redone);
	return 0;
}

int srch_sample(struct tl_srch *s, uint64_t adds, size_t n, bool second, struct tl_point *pt)
{
	double t_start = s->io->now ? s->io->now() : 0;

	if (n > s->cap)
		n = s->cap;
	if (srch_stopped(s))
		return 1;
	if (s->io->measure(s->io->measure_ctx, adds, false, n, s->raw) != 0)
		return 1;
	s->r->measurements += n;
	if (clean_bursts(s, s->raw, n, 1, adds) != 0)
		return 1;
	digest(s, s->raw, adds, n, second, pt);
	learn_cost(s, t_start, adds, n);
	return 0;
}

/* n readings of a0 and of a1 alternating in one pass, into s->raw (A0)
 * and s->raw2 (A1). 0, or 1 stopped. */
static int measure_mixed(struct tl_srch *s, uint64_t a0, uint64_t a1, size_t n)
{
	const struct tl_search_io *io = s->io;

	for (size_t i = 0; i < n; i++) {
		s->mix_adds[2 * i] = a0;
		s->mix_adds[2 * i + 1] = a1;
	}
	if (io->measure_mix) {
		if (io->measure_mix(io->measure_ctx, s->mix_adds, 2 * n, s->mix) != 0)
			return 1;
	} else {
		for (size_t i = 0; i < 2 * n; i++)
			if (io->measure(io->measure_ctx, s->mix_adds[i], false, 1, &s->mix[i]) != 0)
				return 1;
	}
	if (clean_bursts(s, s->mix, 2 * n, 2, 0) != 0)
		return 1;
	for (size_t i = 0; i < n; i++) {
		s->raw[i] = s->mix[2 * i];
		s->raw2[i] = s->mix[2 * i + 1];
	}
	return 0;
}

int srch_pair_mixed(struct tl_srch *s, uint64_t a0, uint64_t a1, size_t n, double *overlap,
		    size_t *n0, size_t *n1)
{
	struct tl_point p0, p1;
	double t_start = s->io->now ? s->io->now() : 0;

	if (n > s->cap)
		n = s->cap;
	if (a1 > a0 && a1 - a0 > s->hi_delta)
		s->hi_delta = a1 - a0;
	if (srch_stopped(s) || measure_mixed(s, a0, a1, n) != 0)
		return 1;
	s->r->measurements += 2 * n;
	stats_level_align(s->raw, s->raw2, n, TL_TDIFF_LEVEL_BLOCK, s->p->resolution_ns, NULL);
	digest(s, s->raw, a0, n, false, &p0);
	digest(s, s->raw2, a1, n, true, &p1);
	learn_cost(s, t_start, (a0 + a1) / 2, 2 * n);
	*n0 = p0.n;
	*n1 = p1.n;
	*overlap = (p0.n && p1.n) ? stats_overlap(s->kept, p0.n, s->kept2, p1.n) : 1.0;
	return 0;
}

int srch_pair(struct tl_srch *s, uint64_t a0, uint64_t a1, size_t n, double *overlap, size_t *n0,
	      size_t *n1)
{
	struct tl_point p0, p1;

	if (a1 > a0 && a1 - a0 > s->hi_delta)
		s->hi_delta = a1 - a0;
	if (srch_sample(s, a0, n, false, &p0) != 0 || srch_sample(s, a1, n, true, &p1) != 0)
		return 1;
	*n0 = p0.n;
	*n1 = p1.n;
	*overlap = (p0.n && p1.n) ? stats_overlap(s->kept, p0.n, s->kept2, p1.n) : 1.0;
	return 0;
}

int srch_chain(struct tl_srch *s, uint64_t a1, uint64_t delta, size_t n, size_t *n0, size_t *n1,
	       double *overlap)
{
	struct tl_point p1;

	if (delta > s->hi_delta)
		s->hi_delta = delta;
	if (srch_sample(s, a1, n, true, &p1) != 0)
		return 1;
	*n1 = p1.n;
	*overlap = (*n0 && p1.n) ? stats_overlap(s->kept, *n0, s->kept2, p1.n) : 1.0;
	memcpy(s->kept, s->kept2, p1.n * sizeof(*s->kept));
	s->cut[0] = s->cut[1];
	*n0 = p1.n;
	return 0;
}

void srch_observe(struct tl_srch *s, enum tl_search_kind kind, uint64_t x, double y)
{
	s->r->evaluations++;
	if (s->io->observe)
		s->io->observe(s->io->observe_ctx, kind, x, y);
}

double srch_tmin_floor_ns(const struct tl_search_params *p)
{
	return p->resolution_ns > 0 ? p->resolution_ns / sqrt(6.0) / p->eps : 0;
}

double srch_tdiff_floor_ns(const struct tl_search_params *p)
{
	return p->resolution_ns > 0 ? (1.0 - p->alpha) * p->resolution_ns : 0;
}

void srch_answer(struct tl_srch *s, enum tl_search_kind kind, uint64_t adds, double stat)
{
	struct tl_search_result *r = s->r;
	double fl = kind == TL_SEARCH_TMIN ? srch_tmin_floor_ns(s->p) : srch_tdiff_floor_ns(s->p);

	r->adds = adds;
	r->ns = s->p->ns_per_add > 0 ? (double)adds * s->p->ns_per_add : NAN;
	r->stat = stat;
	r->floor_ns = fl;
	/* On the floor: the timer's quantization alone explains the answer.
	 * For t_min the floor is a lower bound on sd, so within 25 % of it;
	 * for t_diff a quantized reading spreads over about two steps, so an
	 * answer below twice the rule-of-thumb floor is the timer's step. */
	/* An answer well below the t_min floor contradicts it (the floor is a
	 * least sd; one rounding per reading gives q/sqrt 12, 0.71 of it), so
	 * the floor is not what set it and no note says so. */
	if (fl > 0 && isfinite(r->ns))
		r->on_floor = kind == TL_SEARCH_TMIN ? r->ns <= 1.25 * fl && r->ns >= 0.65 * fl
						     : r->ns <= 2.0 * fl;
}

double tl_search_ratio(const struct tl_search_result *ref, const struct tl_search_result *r)
{
	if (!ref->converged || !r->converged || !(ref->ns > 0) || !(r->ns > 0))
		return NAN;
	return ref->ns / r->ns;
}

double tl_search_ratio_tdiff(const struct tl_search_result *ref_tmin,
			     const struct tl_search_result *ref_tdiff,
			     const struct tl_search_result *tmin,
			     const struct tl_search_result *tdiff)
{
	if (!ref_tmin->converged || !tmin->converged)
		return NAN;
	return tl_search_ratio(ref_tdiff, tdiff);
}

void tl_search_ratio_text(char *buf, size_t len, double ratio, const char *what,
			  const char *times)
{
	if (isnan(ratio)) {
		if (len)
			buf[0] = '\0';
		return;
	}
	/* Below 1 the reference is the better one: say "less", never "0.4x more". */
	snprintf(buf, len, "%.3g%s %s %s", ratio >= 1 ? ratio : 1 / ratio, times,
		 ratio >= 1 ? "more" : "less", what);
}

static int cmp_point(const void *a, const void *b)
{
	const double *x = a, *y = b;

	return (x[0] > y[0]) - (x[0] < y[0]);
}

int tl_search_cv_crossing(const double (*xy)[2], size_t n, double eps, double *adds, double *lo,
			  double *hi)
{
	double (*v)[2] = n ? tl_xmalloc(n * sizeof(*v)) : NULL;
	size_t m = 0;
	int found = 0;

	*adds = *lo = *hi = NAN;
	for (size_t i = 0; i < n; i++)
		if (isfinite(xy[i][0]) && isfinite(xy[i][1]) && xy[i][0] >= 0) {
			v[m][0] = xy[i][0];
			v[m++][1] = xy[i][1];
		}
	if (m)
		qsort(v, m, sizeof(*v), cmp_point);
	/* one entry per K, with its worst check */
	size_t k = 0;

	for (size_t i = 0; i < m; i++) {
		if (k && v[k - 1][0] == v[i][0]) {
			v[k - 1][1] = fmax(v[k - 1][1], v[i][1]);
			continue;
		}
		v[k][0] = v[i][0];
		v[k++][1] = v[i][1];
	}
	for (size_t i = 0; i < k && !found; i++) {
		if (v[i][1] > eps)
			continue;
		found = 1;
		*hi = v[i][0];
		if (i == 0) {
			/* nothing failed below: t_e,std is filtered out, so the mean
			 * is about c K and CV K = sd / c holds while sd does; from
			 * the nearest point (a slope from two nearby noisy CVs put
			 * 573 ADDs at 380 on the sim) */
			*lo = 0;
			*adds = v[0][1] > 0 ? *hi * v[0][1] / eps : *hi;
			break;
		}
		double k0 = v[i - 1][0], c0 = v[i - 1][1], c1 = v[i][1];

		*lo = k0;
		/* 1/CV = t/sd grows linearly in K while sd holds; a CV of 0 (a
		 * clock too coarse to see any spread) passes at the point itself */
		if (c1 > 0 && c0 > 0 && 1 / c1 > 1 / c0)
			*adds = k0 + (1 / eps - 1 / c0) / (1 / c1 - 1 / c0) * (*hi - k0);
		else
			*adds = *hi;
	}
	free(v);
	return found;
}
