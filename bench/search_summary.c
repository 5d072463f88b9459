/* From a cell's repeats to its answers: median, interval, "unstable" and
 * why, and the ratios against the reference (bench/search_cell.h). */
#include "config.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/search_cell.h"
#include "stats/stats.h"

/* Two repeats agree when each is within the 10 % a search resolves (the
 * fast-vs-paper agreement): their ratio is then at most 1.1 / 0.9. */
#define AGREE_RATIO (1.1 / 0.9)
/* "CV floor near eps": the lowest CV a repeat saw is within 30 % of eps,
 * so whether a point passes is a coin toss on the noise; above 1.3 eps it
 * is far above, and nothing passes for a reason the noise does not explain */
#define NEAR_EPS 0.7
#define FAR_EPS 1.3
/* t_diff's repeats saw another node when what they judged on moved this
 * much between them: its spread (the node's noise), or its slowest kept
 * reading in those sds. A fast repeat's pool of 2 x 1000 readings puts
 * its IQR within about 5 % and a normal set's top within 0.5 sd, so 1.5x
 * is the node, not the sampling. */
#define TDIFF_MOVED 1.5
/* ... and a top that moved counts only when it reaches past a normal
 * set's: the largest of 10^4 to 10^5 normal draws lies 3.7 to 4.4 sds up */
#define TDIFF_TOP_NORMAL 5.0
/* from this many answers on, a bootstrap of the median; below, Student t */
#define BOOT_MIN 10
#define BOOT_RESAMPLES 2000

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

const char *tl_search_interval_method(unsigned r)
{
	return r <= 1 ? "none" : r < BOOT_MIN ? "t95-log" : "bootstrap95-median";
}

/* Student t on the logs: answers are positive and spread in proportion to
 * their size (a search resolves a relative step), and with 3 repeats the
 * range would cover the median only 1 - 2 (1/2)^3 = 75 % of the time. */
static void interval_t(const double *xs, size_t n, double min_sd, double *lo, double *hi)
{
	double lg[64] = {0}, m, s, half;
	size_t k = n < 64 ? n : 64;

	for (size_t i = 0; i < k; i++)
		lg[i] = log(xs[i]);
	m = gsl_stats_mean(lg, 1, k);
	/* 3 repeats that happen to agree closely (a chi-square with 2 degrees
	 * of freedom falls below half its mean 22 % of the time) must not
	 * claim more than one search can resolve: min_sd is that scatter from
	 * sampling theory (see search_min_sd) */
	s = fmax(gsl_stats_sd_m(lg, 1, k, m), min_sd);
	half = gsl_cdf_tdist_Pinv(0.975, (double)(k - 1)) * s / sqrt((double)k);
	*lo = exp(m - half);
	*hi = exp(m + half);
}

/* Percentile bootstrap of the median; a fixed generator, so the same
 * answers give the same interval. */
static void interval_boot(const double *xs, size_t n, double *lo, double *hi)
{
	double *med = tl_xmalloc(BOOT_RESAMPLES * sizeof(*med)), *draw = tl_xmalloc(n * sizeof(*draw));
	uint64_t s = 0x2545f4914f6cdd1dULL;

	for (size_t b = 0; b < BOOT_RESAMPLES; b++) {
		for (size_t i = 0; i < n; i++) {
			s ^= s << 13;
			s ^= s >> 7;
			s ^= s << 17;
			draw[i] = xs[s % n];
		}
		med[b] = stats_median(draw, n);
	}
	qsort(med, BOOT_RESAMPLES, sizeof(*med), cmp_double);
	*lo = med[(size_t)(0.025 * BOOT_RESAMPLES)];
	*hi = med[(size_t)(0.975 * BOOT_RESAMPLES) - 1];
	free(med);
	free(draw);
}

/* The interval with the two uncertainties repeats cannot show: min_sd, the
 * least relative scatter one search's answer has (floors the t interval's
 * spread), and step, the clock's resolution in the answers' unit: every
 * repeat reads the same grid, so its rounding biases them alike (up to a
 * step), and the interval widens by that much on each side. */
static const char *interval_full(const double *xs, size_t n, double min_sd, double step, double *lo,
				 double *hi)
{
	double *v;
	const char *how;

	*lo = *hi = NAN;
	if (n == 0)
		return "none";
	v = tl_xmalloc(n * sizeof(*v));
	memcpy(v, xs, n * sizeof(*v));
	qsort(v, n, sizeof(*v), cmp_double);
	*lo = v[0];
	*hi = v[n - 1];
	how = tl_search_interval_method((unsigned)n);
	if (n >= BOOT_MIN)
		interval_boot(v, n, lo, hi);
	else if (n >= 2)
		interval_t(v, n, min_sd, lo, hi);
	/* never narrower than what the repeats themselves showed */
	if (n < BOOT_MIN) {
		*lo = fmin(*lo, v[0]);
		*hi = fmax(*hi, v[n - 1]);
	}
	if (step > 0 && isfinite(step)) {
		*lo = fmax(*lo - step, 0.0);
		*hi += step;
	}
	free(v);
	return how;
}

/* The least relative scatter of one t_min: the answer scales with the
 * worst of p+1 sample sds of n readings, each spread 1/sqrt(2n) (normal
 * tau), and the largest of m normal draws spreads (pi/sqrt 6)/sqrt(2 ln m)
 * of that (its Gumbel limit). At the paper's n = 10000, p = 30 that is
 * 0.35 %, at the tests' n = 300, p = 10 it is 2.4 %. */
static double tmin_min_sd(const struct tl_search_plan *p, const struct tl_search_cell *c)
{
	double n = (double)(c->fast_n ? c->fast_n : p->sp.n), m = (double)p->sp.p + 1.0;

	if (n < 2 || m < 2)
		return 0;
	return (M_PI / sqrt(6.0)) / sqrt(2.0 * log(m)) / sqrt(2.0 * n);
}

/* The least relative scatter of one t_diff of `adds` ADDs (normal tau).
 * Both methods answer in whole ADDs: a rounding of 1/sqrt 12 ADD. The
 * answer is (z_m - z_alpha) sd, z_m = Phi^-1(0.5^(1/m)) the median of the
 * largest of m = q n draws. fast predicts it from a pool of at least
 * TL_SEARCH_FAST_TDIFF_POOL sets of n'/2 (t_min's evaluations are carried
 * in halves): the pool's sd spreads 1/sqrt(2N) (scaling
 * z_m) and its alpha-quantile sqrt(alpha (1-alpha)/N)/phi(z_alpha) sd.
 * Algorithm 2 gets no such term: its answer is the first delta at which
 * q fresh pairs all pass, a first passage over several draws whose
 * scatter (3.9 % at n 500, q 80 over 40 sim seeds) is below one
 * maximum's Gumbel spread (5.4 % there) and which its repeats show. Three
 * fast repeats that all said 32 ADDs had a 95 % interval of
 * [31.9999, 32.0001] before this floor. */
static double tdiff_min_sd(const struct tl_search_plan *p, const struct tl_search_cell *c,
			   double adds)
{
	double n = (double)p->sp.n, m = (double)p->sp.q * n, a = p->sp.alpha, spread = 0;

	if (!(adds > 0))
		return 0;
	if (p->sp.method != TL_SEARCH_PAPER && n >= 2 && a > 0 && a < 0.5) {
		double zm = gsl_cdf_ugaussian_Pinv(pow(0.5, 1.0 / m)), za = gsl_cdf_ugaussian_Pinv(a);
		double pool = TL_SEARCH_FAST_TDIFF_POOL * (double)(c->fast_n ? c->fast_n : p->sp.n) / 2;

		spread = hypot(zm / sqrt(2.0 * pool),
			       sqrt(a * (1.0 - a) / pool) / gsl_ran_ugaussian_pdf(za)) / (zm - za);
	}
	return hypot(spread, 1.0 / (sqrt(12.0) * adds));
}

static double search_min_sd(const struct tl_search_plan *p, const struct tl_search_cell *c, int kind,
			    double adds)
{
	return kind == 0 ? tmin_min_sd(p, c) : tdiff_min_sd(p, c, adds);
}

/* ------------------------------------------------------------------ */
/* One metric over the repeats                                          */
/* ------------------------------------------------------------------ */

static const struct tl_search_result *rep_result(const struct tl_search_rep *rep, int kind,
						 bool *done)
{
	*done = rep->ran && (kind == 0 ? rep->done_tmin : rep->done_tdiff);
	return kind == 0 ? &rep->tmin : &rep->tdiff;
}

static void add_reason(char *why, size_t len, const char *text)
{
	size_t at = strlen(why);

	if (at + 3 < len)
		snprintf(why + at, len - at, "%s%s", at ? "; " : "", text);
}

/* Why fast t_diff's repeats disagree, from what each judged on
 * (tl_search_result's a0_sd_ns, a0_top_sds): the node's noise at A0
 * moved, or the one slowest reading kept there did. false: neither. */
static bool tdiff_moved(const struct tl_search_cell *c, unsigned nrep, char *text, size_t len)
{
	double sd_lo = INFINITY, sd_hi = 0, top_lo = INFINITY, top_hi = 0;

	for (unsigned r = 0; r < nrep; r++) {
		const struct tl_search_result *res = &c->rep[r].tdiff;

		if (!c->rep[r].ran || !c->rep[r].done_tdiff || !res->converged)
			continue;
		if (isfinite(res->a0_sd_ns) && res->a0_sd_ns > 0) {
			sd_lo = fmin(sd_lo, res->a0_sd_ns);
			sd_hi = fmax(sd_hi, res->a0_sd_ns);
		}
		if (isfinite(res->a0_top_sds) && res->a0_top_sds > 0) {
			top_lo = fmin(top_lo, res->a0_top_sds);
			top_hi = fmax(top_hi, res->a0_top_sds);
		}
	}
	bool noise = sd_hi > TDIFF_MOVED * sd_lo;
	bool top = top_hi > TDIFF_MOVED * top_lo && top_hi >= TDIFF_TOP_NORMAL;

	if (noise && top)
		snprintf(text, len, "the spread at A0 moved %.3g..%.3g ns between repeats (%.1fx) and its "
				    "slowest kept reading %.0f..%.0f sds: the node's noise changed, and "
				    "t_diff follows it",
			 sd_lo, sd_hi, sd_hi / sd_lo, top_lo, top_hi);
	else if (noise)
		snprintf(text, len, "the spread at A0 moved %.3g..%.3g ns between repeats (%.1fx): the "
				    "node's noise changed, and t_diff follows it",
			 sd_lo, sd_hi, sd_hi / sd_lo);
	else if (top)
		snprintf(text, len, "the slowest reading kept at A0 lay %.0f..%.0f sds above the median "
				    "from repeat to repeat: t_diff rests on that one reading",
			 top_lo, top_hi);
	return noise || top;
}

/* What the repeats saw that explains their disagreement. */
static void causes(const struct tl_search_cell *c, unsigned nrep, int kind, double eps,
		   bool mixed, struct tl_search_stat *st)
{
	double drift = NAN, cv = NAN;
	size_t timed = 0;
	bool tmin = kind == 0;
	char text[256];

	for (unsigned r = 0; r < nrep; r++) {
		const struct tl_search_rep *rep = &c->rep[r];
		bool done;
		const struct tl_search_result *res = rep_result(rep, kind, &done);

		if (!rep->ran)
			continue;
		if (isfinite(rep->tmin.best_drift))
			drift = fmax(isnan(drift) ? 0 : drift, rep->tmin.best_drift);
		/* t_min's CV floor explains t_min, and where some repeats found
		 * none, theirs is the floor to explain; t_diff starts from it but
		 * scatters for its own reason (the slowest of q n readings) */
		if (tmin && isfinite(rep->tmin.best_cv) && rep->tmin.best_cv >= NEAR_EPS * eps &&
		    (st->found == st->ran || !rep->tmin.converged))
			cv = fmin(isnan(cv) ? INFINITY : cv, rep->tmin.best_cv);
		timed += done && res->out_of_time;
	}
	/* an interleaved t_diff took the level out of its pairs: the drift
	 * is not what moved it */
	if (isfinite(drift) && !tmin && mixed)
		drift = NAN;
	if (isfinite(drift)) {
		snprintf(text, sizeof text, "the level drifts %.2g %% between chunks at the steadiest "
					    "point, so each repeat sees another clock",
			 100 * drift);
		add_reason(st->why, sizeof st->why, text);
	}
	if (isfinite(cv)) {
		/* the words follow the number: 1.1 % is close to 1 %, 48 % is not */
		if (cv <= FAR_EPS * eps)
			snprintf(text, sizeof text, "the lowest CV seen (%.2g %%) is close to eps "
						    "(%.2g %%): whether a point passes is down to noise",
				 100 * cv, 100 * eps);
		else
			snprintf(text, sizeof text, "the lowest CV seen (%.2g %%) is %.3gx eps (%.2g %%): "
						    "far from it, not a coin toss on the noise",
				 100 * cv, cv / eps, 100 * eps);
		add_reason(st->why, sizeof st->why, text);
	}
	if (!tmin && !timed && !isfinite(drift) && tdiff_moved(c, nrep, text, sizeof text))
		add_reason(st->why, sizeof st->why, text);
	else if (!tmin && !timed && !isfinite(drift))
		add_reason(st->why, sizeof st->why,
			   "t_diff rests on the slowest of q x n readings, which scatter from repeat "
			   "to repeat");
	if (timed) {
		snprintf(text, sizeof text, "the time limit ended %zu repeat(s) before they finished",
			 timed);
		add_reason(st->why, sizeof st->why, text);
	}
	if (tmin && !isfinite(drift) && !isfinite(cv) && !timed)
		add_reason(st->why, sizeof st->why, "no drift, CV floor or time limit measured");
}

static void check_unstable(const struct tl_search_cell *c, unsigned nrep, int kind, double eps,
			   bool mixed, const double *xs, struct tl_search_stat *st)
{
	char text[160];
	double lo = INFINITY, hi = 0;

	for (size_t i = 0; i < st->found; i++) {
		lo = fmin(lo, xs[i]);
		hi = fmax(hi, xs[i]);
	}
	if (st->found && st->found < st->ran) {
		snprintf(text, sizeof text, "found in %zu of %zu repeats", st->found, st->ran);
		add_reason(st->why, sizeof st->why, text);
	} else if (st->found >= 2 && hi > AGREE_RATIO * lo) {
		snprintf(text, sizeof text, "repeats span %.0f..%.0f ADDs, more than the 10 %% one "
					    "search resolves",
			 lo, hi);
		add_reason(st->why, sizeof st->why, text);
	} else {
		return;
	}
	st->unstable = true;
	causes(c, nrep, kind, eps, mixed, st);
}

static void stat_summarise(const struct tl_search_plan *p, const struct tl_search_cell *c, int kind,
			   struct tl_search_stat *st)
{
	double xs[256], ns[256], fcv[256], fadds[256], win[256], dri[256];
	double sta[256], stl[256], sth[256];
	size_t nf = 0, nw = 0, nd = 0;

	memset(st, 0, sizeof(*st));
	st->adds = st->ns = st->lo = st->hi = st->lo_ns = st->hi_ns = NAN;
	st->bound_adds = st->bound_ns = st->span_lo = st->span_hi = NAN;
	st->cv_floor = st->cv_floor_adds = NAN;
	st->cv_within = st->cv_drift = NAN;
	st->steady_adds = st->steady_lo = st->steady_hi = NAN;
	st->planned = p->repeats;
	for (unsigned r = 0; r < p->repeats && r < 256; r++) {
		bool done;
		const struct tl_search_result *res = rep_result(&c->rep[r], kind, &done);

		if (!done)
			continue;
		st->ran++;
		if (kind == 0 && isfinite(res->best_cv) && res->best_adds) {
			fcv[nf] = res->best_cv;
			fadds[nf++] = (double)res->best_adds;
		}
		if (kind == 0 && isfinite(res->cv_within))
			win[nw++] = res->cv_within;
		if (kind == 0 && isfinite(res->cv_drift))
			dri[nd++] = res->cv_drift;
		if (kind == 0 && isfinite(res->steady_adds)) {
			sta[st->steady_found] = res->steady_adds;
			stl[st->steady_found] = res->steady_lo;
			sth[st->steady_found++] = res->steady_hi;
		}
		st->measurements += res->measurements;
		st->seconds += res->seconds;
		if (res->converged) {
			xs[st->found] = (double)res->adds;
			ns[st->found++] = res->ns;
			st->span_lo = fmin(isnan(st->span_lo) ? INFINITY : st->span_lo, (double)res->adds);
			st->span_hi = fmax(isnan(st->span_hi) ? 0 : st->span_hi, (double)res->adds);
		} else if (res->bound_adds && !res->stopped &&
			   !(st->bound_adds <= (double)res->bound_adds)) {
			/* the smallest bound: none of the repeats found one below it */
			st->bound_adds = (double)res->bound_adds;
			st->bound_ns = (double)res->bound_adds * c->rep[r].ns_per_add;
		}
	}
	if (nf) {
		st->cv_floor = stats_median(fcv, nf);
		st->cv_floor_adds = stats_median(fadds, nf);
	}
	if (nw)
		st->cv_within = stats_median(win, nw);
	if (nd)
		st->cv_drift = stats_median(dri, nd);
	if (st->steady_found) {
		st->steady_adds = stats_median(sta, st->steady_found);
		st->steady_lo = st->steady_hi = sta[0];
		for (size_t i = 0; i < st->steady_found; i++) {
			st->steady_lo = fmin(st->steady_lo, stl[i]);
			st->steady_hi = fmax(st->steady_hi, sth[i]);
		}
	}
	/* a cell still to be searched again: what it shows is not its answer */
	st->provisional = st->ran < st->planned &&
			  (c->state == TL_CELL_WAITING || c->state == TL_CELL_RUNNING);
	if (st->found) {
		st->adds = stats_median(xs, st->found);
		st->ns = stats_median(ns, st->found);
		double min_sd = search_min_sd(p, c, kind, st->adds);

		interval_full(xs, st->found, min_sd, c->resolution_ns / c->ns_per_add, &st->lo, &st->hi);
		interval_full(ns, st->found, min_sd, c->resolution_ns, &st->lo_ns, &st->hi_ns);
		/* no search reports above its bound, so neither may its interval
		 * (two scattered repeats gave a t interval up to 7.7e21 ADDs) */
		if (st->hi > (double)p->sp.max_adds) {
			st->hi = (double)p->sp.max_adds;
			st->hi_ns = st->hi * c->ns_per_add;
		}
	}
	check_unstable(c, p->repeats, kind, p->sp.eps, p->sp.order == TL_TDIFF_INTERLEAVED, xs, st);
	st->status = tl_search_stat_status(st);
}

void tl_search_cv_floor_text(char *buf, size_t len, const struct tl_search_stat *s)
{
	if (!isfinite(s->cv_floor) || !isfinite(s->cv_floor_adds)) {
		if (len)
			buf[0] = '\0';
		return;
	}
	if (isfinite(s->cv_within) && isfinite(s->cv_drift))
		snprintf(buf, len,
			 "CV floor %.3g %% at %.0f ADDs (median of %zu repeat%s; within chunks %.2g %%, "
			 "drift %.2g %%)",
			 100 * s->cv_floor, s->cv_floor_adds, s->ran, s->ran == 1 ? "" : "s",
			 100 * s->cv_within, 100 * s->cv_drift);
	else
		snprintf(buf, len, "CV floor %.3g %% at %.0f ADDs (median of %zu repeat%s)",
			 100 * s->cv_floor, s->cv_floor_adds, s->ran, s->ran == 1 ? "" : "s");
}

/* The steady clock's t_min says something of its own when the paper's
 * has no interval, or lies well above it (a fifth: t_min's own noise). */
static bool steady_differs(const struct tl_search_stat *s)
{
	if (!(s->steady_adds > 0))
		return false;
	if (s->status != TL_STATUS_INTERVAL && s->status != TL_STATUS_SINGLE)
		return true;
	return s->steady_adds < 0.8 * s->adds;
}

void tl_search_steady_text(char *buf, size_t len, const struct tl_search_stat *s)
{
	char paper[96], where[96];
	size_t at;

	if (len)
		buf[0] = '\0';
	if (!steady_differs(s))
		return;
	if (s->steady_lo > 0)
		snprintf(where, sizeof where, "between the points %.0f and %.0f", s->steady_lo,
			 s->steady_hi);
	else
		snprintf(where, sizeof where, "K CV / eps from the nearest passing point");
	if (s->found)
		snprintf(paper, sizeof paper, "%.0f ADDs (found in %zu of %zu)", s->adds, s->found, s->ran);
	else
		snprintf(paper, sizeof paper, "none found");
	snprintf(buf, len,
		 "t_min on a steady clock (within-chunk CV): %.0f ADDs (%s; %zu of %zu repeats); the "
		 "paper's t_min (total CV): %s",
		 s->steady_adds, where, s->steady_found, s->ran, paper);
	at = strlen(buf);
	if (isfinite(s->cv_drift) && isfinite(s->cv_within) && s->cv_drift > s->cv_within && at < len)
		snprintf(buf + at, len - at,
			 "; the level drifts %.2g %% between chunks, more than the timer's own %.2g %%: "
			 "the node, not the timer, limits precision",
			 100 * s->cv_drift, 100 * s->cv_within);
}

enum tl_search_status tl_search_stat_status(const struct tl_search_stat *s)
{
	if (!s->ran)
		return TL_STATUS_NOT_RUN;
	if (!s->found)
		return isfinite(s->bound_adds) ? TL_STATUS_BOUND : TL_STATUS_NONE;
	if (s->found < s->ran)
		return TL_STATUS_PARTIAL;
	if (s->found >= 2 && s->span_hi > AGREE_RATIO * s->span_lo)
		return TL_STATUS_UNSTABLE;
	if (s->planned <= 1)
		return TL_STATUS_SINGLE;
	/* an interval rests on every planned repeat: one that was stopped or
	 * is still to run could land anywhere */
	if (s->found < 2 || s->found < s->planned || s->provisional)
		return TL_STATUS_PARTIAL;
	return TL_STATUS_INTERVAL;
}

const char *tl_search_status_name(enum tl_search_status st)
{
	static const char *const names[] = {"not_run", "interval95", "found_k_of_n", "unstable",
					    "single", "bound", "none"};

	return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "none";
}

void tl_search_stat_text(char *buf, size_t len, const struct tl_search_stat *s)
{
	if (s->provisional && s->ran) {
		if (s->found == s->ran)
			snprintf(buf, len, "so far, %zu of %zu ran", s->ran, s->planned);
		else
			snprintf(buf, len, "so far, %zu of %zu found", s->found, s->ran);
		return;
	}
	switch (s->status) {
	case TL_STATUS_INTERVAL:
		snprintf(buf, len, "%.0f-%.0f", s->lo, s->hi);
		break;
	case TL_STATUS_PARTIAL:
		if (s->ran < s->planned)
			snprintf(buf, len, "found in %zu of %zu (of %zu)", s->found, s->ran, s->planned);
		else
			snprintf(buf, len, "found in %zu of %zu", s->found, s->ran);
		break;
	case TL_STATUS_UNSTABLE:
		snprintf(buf, len, "unstable: %.0f..%.0f", s->span_lo, s->span_hi);
		break;
	case TL_STATUS_SINGLE:
		snprintf(buf, len, "1 repeat, no interval");
		break;
	case TL_STATUS_BOUND:
		snprintf(buf, len, "> %.0f", s->bound_adds);
		break;
	case TL_STATUS_NONE:
		snprintf(buf, len, "none");
		break;
	default:
		snprintf(buf, len, "-");
	}
}

static double median_of(const struct tl_search_cell *c, unsigned nrep, size_t offset)
{
	double v[256];
	size_t n = 0;

	for (unsigned r = 0; r < nrep && r < 256; r++)
		if (c->rep[r].ran && c->rep[r].ns_per_add > 0)
			v[n++] = *(const double *)((const char *)&c->rep[r] + offset);
	return n ? stats_median(v, n) : NAN;
}

static void cell_facts(struct tl_search_cell *c, unsigned nrep)
{
	c->overhead_ns = median_of(c, nrep, offsetof(struct tl_search_rep, overhead_ns));
	c->ns_per_add = median_of(c, nrep, offsetof(struct tl_search_rep, ns_per_add));
	c->fit_r2 = median_of(c, nrep, offsetof(struct tl_search_rep, fit_r2));
	c->resolution_ns = median_of(c, nrep, offsetof(struct tl_search_rep, resolution_ns));
	c->flush_s = median_of(c, nrep, offsetof(struct tl_search_rep, flush_s));
	c->fast_n = 0;
	c->setup_measurements = 0;
	for (unsigned r = 0; r < nrep; r++) {
		if (!c->rep[r].ran)
			continue;
		if (!c->fast_n)
			c->fast_n = c->rep[r].fast_n;
		c->setup_measurements += c->rep[r].setup_measurements;
	}
}

void tl_search_summarise(const struct tl_search_plan *p, struct tl_search_cell *cells)
{
	for (size_t i = 0; i < p->nbackends * p->nflush; i++) {
		cell_facts(&cells[i], p->repeats);
		stat_summarise(p, &cells[i], 0, &cells[i].tmin);
		stat_summarise(p, &cells[i], 1, &cells[i].tdiff);
	}
	tl_search_ratios(p, cells);
}

/* ------------------------------------------------------------------ */
/* Ratios                                                               */
/* ------------------------------------------------------------------ */

static bool has_answer(const struct tl_search_stat *s)
{
	return s->ran && 2 * s->found > s->ran;
}

static bool has_bound(const struct tl_search_stat *s)
{
	return s->ran && !has_answer(s) && s->bound_ns > 0;
}

void tl_search_stat_brief(char *buf, size_t len, const struct tl_search_stat *s)
{
	if (s->provisional && s->ran)
		snprintf(buf, len, "so far %zu/%zu", s->found, s->planned);
	else if (s->status == TL_STATUS_PARTIAL)
		snprintf(buf, len, "%zu of %zu found", s->found, s->ran);
	else if (s->status == TL_STATUS_UNSTABLE)
		snprintf(buf, len, "unstable");
	else if (s->status == TL_STATUS_SINGLE)
		snprintf(buf, len, "1 repeat");
	else
		tl_search_stat_text(buf, len, s);
}

/* "the reference found none below 45776 ADDs in 2 of 3 repeats" */
static void bound_basis(char *buf, size_t len, const char *who, const struct tl_search_stat *s)
{
	int at = snprintf(buf, len, "%s found none below %.0f ADDs (%.3g ns) in %zu of %zu repeats",
			  who, s->bound_adds, s->bound_ns, s->ran - s->found, s->ran);

	if (s->found && at > 0 && (size_t)at < len)
		snprintf(buf + at, len - (size_t)at, "; %zu found %.0f", s->found, s->adds);
}

/* "the reference: found in 2 of 3" for a side without a 95 % interval */
static void side_basis(char *buf, size_t len, const char *who, const struct tl_search_stat *s)
{
	char text[96];
	size_t at = strlen(buf);

	if (s->status == TL_STATUS_INTERVAL || at + 3 >= len)
		return;
	tl_search_stat_text(text, sizeof text, s);
	snprintf(buf + at, len - at, "%s%s: %s", at ? "; " : "", who, text);
}

static void ratio_of(const struct tl_search_stat *ref, const struct tl_search_stat *s,
		     struct tl_search_ratio *out)
{
	out->rel = 0;
	out->value = out->lo = out->hi = out->bound_ns = NAN;
	out->interval = false;
	out->basis[0] = '\0';
	if (has_answer(ref) && has_answer(s)) {
		out->rel = '=';
		out->value = ref->ns / s->ns;
		/* an interval on the ratio only from two 95 % intervals */
		out->interval = ref->status == TL_STATUS_INTERVAL && s->status == TL_STATUS_INTERVAL;
		if (out->interval) {
			out->lo = ref->lo_ns / s->hi_ns;
			out->hi = ref->hi_ns / s->lo_ns;
		}
		side_basis(out->basis, sizeof out->basis, "the reference", ref);
		side_basis(out->basis, sizeof out->basis, "this backend", s);
	} else if (has_bound(ref) && has_answer(s)) {
		/* the reference's answer lies above its bound, so the ratio does too */
		out->rel = '>';
		out->value = ref->bound_ns / s->ns;
		out->bound_ns = ref->bound_ns;
		bound_basis(out->basis, sizeof out->basis, "the reference", ref);
	} else if (has_answer(ref) && has_bound(s)) {
		out->rel = '<';
		out->value = ref->ns / s->bound_ns;
		out->bound_ns = s->bound_ns;
		bound_basis(out->basis, sizeof out->basis, "this backend", s);
	} else if (!ref->ran || !s->ran) {
		snprintf(out->why, sizeof out->why, "not searched");
	} else if (!has_answer(ref) && !has_answer(s)) {
		snprintf(out->why, sizeof out->why, "neither found one below its bound");
	} else {
		snprintf(out->why, sizeof out->why, "%s stopped before an answer or a bound",
			 has_answer(s) ? "the reference" : "this backend");
	}
}

/* ------------------------------------------------------------------ */
/* t_min at a relaxed eps                                               */
/* ------------------------------------------------------------------ */

/* the widest relaxed t_min bracket (hi / lo) worth giving */
#define RELAXED_BRACKET 4.0

static void relaxed_side(const struct tl_search_plan *p, const struct tl_search_cell *c, double eps,
			 struct tl_search_relaxed_side *out)
{
	double xs[256];

	memset(out, 0, sizeof *out);
	out->adds = out->ns = out->lo = out->hi = out->lo_ns = out->hi_ns = NAN;
	for (unsigned r = 0; r < p->repeats && r < 256; r++) {
		const struct tl_search_rep *rep = &c->rep[r];
		double a, lo, hi;

		if (!rep->ran || !rep->done_tmin || !rep->points[TL_SEARCH_TMIN].n)
			continue;
		out->ran++;
		if (!tl_search_cv_crossing((const double (*)[2])rep->points[TL_SEARCH_TMIN].xy,
					   rep->points[TL_SEARCH_TMIN].n, eps, &a, &lo, &hi))
			continue;
		xs[out->found++] = a;
		out->lo = fmin(isnan(out->lo) ? INFINITY : out->lo, lo);
		out->hi = fmax(isnan(out->hi) ? 0 : out->hi, hi);
	}
	if (!out->found)
		return;
	out->adds = stats_median(xs, out->found);
	out->ns = out->adds * c->ns_per_add;
	out->lo_ns = out->lo * c->ns_per_add;
	out->hi_ns = out->hi * c->ns_per_add;
}

/* The smallest eps both CV floors reach, with 5 % to spare so the
 * repeats' own floors (a median is shown) mostly reach it too, rounded up
 * to a half percent so a user can type it; NaN when no side lacks a
 * t_min at eps or a floor is unknown. */
static double relaxed_eps(const struct tl_search_plan *p, const struct tl_search_cell *c,
			  const struct tl_search_cell *ref)
{
	double a = c->tmin.cv_floor, b = ref->tmin.cv_floor, e;

	if (c->ratio_tmin.rel == '=' || !isfinite(a) || !isfinite(b))
		return NAN;
	e = ceil(200 * fmax(a, b) * 1.05) / 200;
	return e > p->sp.eps ? e : NAN;
}

static void relaxed_of(const struct tl_search_plan *p, const struct tl_search_cell *c,
		       const struct tl_search_cell *ref, struct tl_search_relaxed *out)
{
	memset(out, 0, sizeof *out);
	out->ratio = out->lo = out->hi = NAN;
	out->eps = relaxed_eps(p, c, ref);
	if (isnan(out->eps))
		return;
	relaxed_side(p, c, out->eps, &out->self);
	relaxed_side(p, ref, out->eps, &out->ref);
	if (!out->self.found || !out->ref.found)
		return;
	out->ratio = out->ref.ns / out->self.ns;
	/* a side with no failing point below its crossing may lie anywhere
	 * down to 0: that end of the ratio is open */
	out->lo = out->ref.lo_ns / out->self.hi_ns;
	out->hi = out->self.lo_ns > 0 ? out->ref.hi_ns / out->self.lo_ns : INFINITY;
	/* a bracket wider than RELAXED_BRACKET says little the value does not;
	 * it is not given (the text says why); one open above is a bound and
	 * says so */
	if (isfinite(out->hi) && !(out->hi <= RELAXED_BRACKET * out->lo))
		out->lo = out->hi = NAN;
}

void tl_search_relaxed_side_text(char *buf, size_t len, const struct tl_search_relaxed_side *s)
{
	char of[64] = "";

	if (!s->found) {
		snprintf(buf, len, "not reached in %zu repeat%s", s->ran, s->ran == 1 ? "" : "s");
		return;
	}
	if (s->found < s->ran)
		snprintf(of, sizeof of, ", found in %zu of %zu", s->found, s->ran);
	else
		snprintf(of, sizeof of, ", %zu of %zu repeats", s->found, s->ran);
	if (s->lo > 0 && s->hi <= RELAXED_BRACKET * s->lo)
		snprintf(buf, len, "%.0f ADDs (%.3g ns; CV curve bracket %.0f-%.0f%s)", s->adds, s->ns,
			 s->lo, s->hi, of);
	else if (s->lo > 0)
		snprintf(buf, len, "%.0f ADDs (%.3g ns; interpolated between points %.0fx apart, too "
				   "far for a bracket%s)",
			 s->adds, s->ns, s->hi / s->lo, of);
	else
		snprintf(buf, len, "%.0f ADDs (%.3g ns; bracket 0-%.0f: extrapolated below a first "
				   "point that passed%s)",
			 s->adds, s->ns, s->hi, of);
}

void tl_search_relaxed_text(char *buf, size_t len, const struct tl_search_relaxed *r,
			    const char *times)
{
	char a[240], b[240];

	if (len)
		buf[0] = '\0';
	if (!(r->eps > 0) || !isfinite(r->eps))
		return;
	tl_search_relaxed_side_text(a, sizeof a, &r->self);
	tl_search_relaxed_side_text(b, sizeof b, &r->ref);
	if (isnan(r->ratio)) {
		snprintf(buf, len, "t_min at eps = %.3g %% (the smallest both CV floors reach): this %s, "
				   "reference %s: no ratio",
			 100 * r->eps, a, b);
		return;
	}
	bool more = r->ratio >= 1;
	double v = more ? r->ratio : 1 / r->ratio;
	double lo = more ? r->lo : 1 / r->hi, hi = more ? r->hi : 1 / r->lo;
	char range[64];

	if (isnan(lo) && isnan(hi))
		snprintf(range, sizeof range, "no bracket: the curves' points lie over %gx apart",
			 RELAXED_BRACKET);
	else if (isfinite(hi) && lo > 0)
		snprintf(range, sizeof range, "bracket %.2g-%.2g%s", lo, hi, times);
	else if (lo > 0)
		snprintf(range, sizeof range, "bracket from %.2g%s, open above", lo, times);
	else if (isfinite(hi))
		snprintf(range, sizeof range, "bracket up to %.2g%s", hi, times);
	else
		snprintf(range, sizeof range, "no bracket: both sides extrapolated");
	snprintf(buf, len, "t_min at eps = %.3g %%: %.3g%s %s precise (%s; this %s, reference %s)",
		 100 * r->eps, v, times, more ? "more" : "less", range, a, b);
}

void tl_search_ratios(const struct tl_search_plan *p, struct tl_search_cell *cells)
{
	for (size_t i = 0; i < p->nbackends * p->nflush; i++) {
		struct tl_search_cell *c = &cells[i];
		const struct tl_search_cell *ref = &cells[tl_search_cell_index(p, p->ref, c->f)];

		memset(&c->ratio_tmin, 0, sizeof c->ratio_tmin);
		memset(&c->ratio_tdiff, 0, sizeof c->ratio_tdiff);
		c->ratio_tmin.relaxed.eps = c->ratio_tdiff.relaxed.eps = NAN;
		c->ratio_tmin.relaxed.ratio = c->ratio_tdiff.relaxed.ratio = NAN;
		c->ratio_tmin.value = c->ratio_tdiff.value = NAN;
		c->ratio_tmin.lo = c->ratio_tmin.hi = c->ratio_tdiff.lo = c->ratio_tdiff.hi = NAN;
		if (c->b == p->ref) {
			snprintf(c->ratio_tmin.why, sizeof c->ratio_tmin.why, "the reference");
			snprintf(c->ratio_tdiff.why, sizeof c->ratio_tdiff.why, "the reference");
			continue;
		}
		ratio_of(&ref->tmin, &c->tmin, &c->ratio_tmin);
		relaxed_of(p, c, ref, &c->ratio_tmin.relaxed);
		/* t_diff is measured from A0 = t_min: two t_diff from different
		 * starting points do not compare */
		if (has_answer(&ref->tmin) && has_answer(&c->tmin))
			ratio_of(&ref->tdiff, &c->tdiff, &c->ratio_tdiff);
		else
			snprintf(c->ratio_tdiff.why, sizeof c->ratio_tdiff.why,
				 "t_diff starts at t_min, which %s lacks",
				 has_answer(&c->tmin) ? "the reference" : "this backend");
	}
}

void tl_search_ratio_describe(char *buf, size_t len, const struct tl_search_ratio *r,
			      const char *what, const char *times)
{
	double v = r->value;
	bool more = v >= 1;
	double shown = more ? v : 1 / v;

	switch (r->rel) {
	case '=': {
		double lo = more ? r->lo : 1 / r->hi, hi = more ? r->hi : 1 / r->lo;

		if (r->interval && isfinite(lo) && isfinite(hi) && lo > 0)
			snprintf(buf, len, "%.3g%s %s %s (%.3g-%.3g%s)", shown, times,
				 more ? "more" : "less", what, lo, hi, times);
		else if (r->interval)
			/* an interval reaching 0 on either side has no finite ratio end */
			snprintf(buf, len, "%.3g%s %s %s (interval unbounded: the repeats scatter too "
					   "much to bound the ratio)",
				 shown, times, more ? "more" : "less", what);
		else
			snprintf(buf, len, "%.3g%s %s %s (medians, no interval: %s)", shown, times,
				 more ? "more" : "less", what, r->basis);
		break;
	}
	case '>':
		/* the true ratio is above v */
		snprintf(buf, len, more ? "at least %.3g%s more %s (%s)" : "at most %.3g%s less %s (%s)",
			 shown, times, what, r->basis);
		break;
	case '<':
		snprintf(buf, len, more ? "at most %.3g%s more %s (%s)" : "at least %.3g%s less %s (%s)",
			 shown, times, what, r->basis);
		break;
	default:
		snprintf(buf, len, "no %s ratio: %s", what, r->why);
	}
	/* no ratio at eps: the one at the relaxed eps, after it */
	size_t at = strlen(buf);

	if (r->rel == '=' || at + 3 >= len)
		return;
	tl_search_relaxed_text(buf + at + 2, len - at - 2, &r->relaxed, times);
	if (buf[at + 2])
		memcpy(buf + at, "; ", 2);
}

void tl_search_ratio_short(char *buf, size_t len, const struct tl_search_ratio *r)
{
	switch (r->rel) {
	case '=':
		snprintf(buf, len, r->interval ? "%.2g" : "%.2g (no interval)", r->value);
		break;
	case '>':
	case '<':
		/* a bound says which bound: the table beside it may show a value */
		snprintf(buf, len, "%s%.2g (%s %s %.3g ns)", r->rel == '>' ? ">=" : "<=", r->value,
			 r->rel == '>' ? "ref" : "this", ">", r->bound_ns);
		break;
	default:
		snprintf(buf, len, "-");
	}
	/* no ratio at eps: the one at the relaxed eps, labelled with it */
	const struct tl_search_relaxed *x = &r->relaxed;
	size_t at = strlen(buf);

	if (r->rel == '=' || !(x->eps > 0) || !isfinite(x->ratio) || at + 2 >= len)
		return;
	if (r->rel == 0)
		at = 0;
	else
		buf[at++] = ' ';
	snprintf(buf + at, len - at, "%.2g at eps %.3g%%", x->ratio, 100 * x->eps);
}
