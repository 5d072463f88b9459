/* The `fast` searches: predict t_min and t_diff from a model of tau fitted
 * to a few evaluated points, then confirm with real runs near the answer.
 *
 * t_min. After filter_cost and filter_os a point at K ADDs has mean
 * t = c K + mean(tau) (c: ns per ADD) and sd(tau); CV < eps means
 * t > sd/eps, so K = (sd/eps - mean(tau))/c. Two corrections make it land
 * where Algorithm 1 lands:
 * - Algorithm 1 accepts a point only when p+1 CVs in a row, each from n
 *   measurements, are below eps. A sample sd has relative spread
 *   sqrt((kurtosis - 1)/(4n)), and the median of the largest of p+1 such
 *   draws sits z = Phi^-1(0.5^(1/(p+1))) spreads above the mean, so the
 *   target is sd (1 + z sqrt((kurt-1)/(4n))) / t = eps, with the paper's n
 *   even when fewer measurements are taken per evaluation here.
 * - tau depends on t (on a VM its spread grows with the kernel's length,
 *   sd^2 = s0^2 + (k t)^2), so the model is re-fitted at every evaluated
 *   point (the growth term only when it exceeds the points' sampling
 *   noise) and each point is checked for real: a point passes when
 *   CV (1 + z ...) <= eps. The search keeps a bracket (largest failing K,
 *   smallest passing K), asks the model for the next K (1 % past its
 *   boundary). When the model points at or below a point that just
 *   failed it steps up 2 % (a single CV scatters by about 3 % at
 *   n = 500; the old factor-4 jump cost a walk back down and up to 5500
 *   measurements), otherwise outside the bracket a geometric step; it ends
 *   when a pass agrees with the model (its answer at most 2 % below) or
 *   the bracket is within 2 %.
 * - The first point. The setup measures the empty kernel for t_e,std
 *   (io->empty_ns, for either method); filtered as an evaluation is, its
 *   spread is the model's point at t = 0, so the first K evaluated is the
 *   model's boundary, not a fixed 1000 ADDs that only told the model the
 *   spread. A start at 1000 ADDs and one confirmation were the floor of
 *   two evaluations (48-85x fewer measurements than Algorithm 1 on the
 *   sim); a half-size first point or a 4 % agreement saved a sixth.
 * - Settled (tmin_settled): the point measured at the model's boundary
 *   ends the search when the model refitted with it still puts the
 *   boundary within two of that point's standard errors of it. There a
 *   single check passes about as often as it fails, so its pass or fail
 *   says little; that the spread there is the one the model had is what
 *   one point can confirm, and a spread that grew with t moves the model
 *   beyond that and the walk above goes on. The answer is the point
 *   measured; its scatter over repeats (the empty set's and that point's
 *   sampling) is what the repeats' interval shows.
 * - CV is not monotone in t on real machines: two failing points above
 *   the steadiest one, both clearly worse than it, end the climb ("no
 *   t_min: CV falls to X % at K, then rises"); no evaluation may run more
 *   than FAST_MAX_KERNEL_S of kernel; max_adds bounds the rest.
 *
 * t_diff. Algorithm 2 accepts delta when, for q pairs of n-sample sets,
 * each pair has at most alpha of A1 below max(A0): c delta must exceed
 * max(A0) - Q_alpha(A1) for all q pairs. Where the smallest such delta lands
 * is governed by the largest A0 maximum among q sets of n, i.e. the median
 * of the maximum of q n draws: it depends on n and q, and the prediction
 * uses the paper's n and q even when the sets measured here are smaller.
 * The model needs the spread at A0 = t_min, and fast t_min has just
 * measured it: its last evaluations sit within a few % of its answer, and
 * each is carried as its two halves (one evaluation that settles t_min
 * leaves two sets at A0).
 * So the pool is t_min's filtered sets (io->carry) within 10 % of A0, or
 * within 50 % when t_min's own model found the spread constant in t; they
 * stay counted in t_min's measurements, and only when fewer than two are
 * near is a fresh set measured at A0 (counted here). Measuring five new
 * sets here instead cost a flat 4500 measurements (n 500), 16-25x fewer
 * than the paper at q 20, where Algorithm 2 is cheap; t_min + t_diff
 * together is the honest ratio and bench_search prints it. The sets are
 * centred on their means and pooled. The
 * maximum of m normal draws has median sd Phi^-1(0.5^(1/m)); the sets'
 * observed maxima against that (median ratio over sets) correct for the
 * filter's trimming and the real tails, carried to m = q n, but only when
 * they depart from the normal model by more than their own scatter: a
 * median of a few maxima is noisy, and on a 10 ns clock each maximum sits
 * on the grid. Q_alpha comes from the pool (see tdiff_pool for coarse
 * clocks), and on a clock of step q the normal model is for the reading
 * before its floor (see pool_predict).
 * The prediction is then confirmed with one real pair of Algorithm 2 at
 * the predicted delta: A0 is t_min's own set at A0 (its maximum judges
 * A1, as any A0's does; the model reads that maximum only when the maxima
 * overrule the normal model), A1 one new set. A failing pair moves delta
 * up (the re-fitted model, at least 2 % or one ADD), adds its set to the
 * pool, and the next pair chains on from it. What one pair can tell:
 * when the model is right a pair fails with probability about
 * 1 - 0.5^(1/q) (3 % at q 20: one more set, delta 2 % up); a delta at
 * which a single pair fails with probability f is accepted with
 * probability 1 - f, so only a model that is far off (f of a half or
 * more) is caught. Three pairs, as before, accept it with (1 - f)^3 and
 * could not tell a delta 10 % low from the right one either: what keeps
 * fast within 10 % of Algorithm 2 is the model, and tests/test_search.c
 * and tests/test_search_coverage.c check it against Algorithm 2 and the
 * analytic answer over seeds. Only upward moves are confirmed: a passing
 * pair says nothing about whether all q would pass lower down.
 * Interleaved order (the default): where t_min's sets at A0 show the level
 * moving between their chunks (or none is near A0), the pool is one pass
 * of A0 against itself and each confirmation a pass of A0 against A1,
 * both level-aligned (stats_level_align), so the wander is in neither the
 * model nor the check; where they show it still, the chain above is the
 * same measurement at half the cost, and the result says it ran so. */
#include "config.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "stats/search_impl.h"

#define FAST_MAX_EVALS 12
/* fast never runs more kernel time than this in one evaluation */
#define FAST_MAX_KERNEL_S 5.0
/* confirmation pairs a round measures, chained: one new set each. One:
 * a pair only catches a model that is far off (see above), and at q 20
 * the three of before made fast's t_diff cost 4 sets of n */
#define FAST_CONFIRM_PAIRS 1
/* sets at A0 before the first t_diff prediction (stats/search.h) */
#define FAST_TDIFF_POOL TL_SEARCH_FAST_TDIFF_POOL
/* t_min's sets this close to A0 (a share of it) stand in for sets at A0 */
#define FAST_CARRY_NEAR 0.10
/* ... or this close, when t_min's model saw the spread constant in t */
#define FAST_CARRY_FLAT 0.5
/* the maxima overrule the normal model only beyond this many of their own
 * standard errors (see ratio_or_normal) */
#define FAST_RATIO_SE 4.0
/* t_diff: a failing confirmation moves delta up by at least this share
 * (or one ADD); 5 % alone used up half of the 10 % agreement */
#define FAST_TDIFF_WALK 0.02
/* ... and, once the model has predicted a delta, by at most this factor:
 * one pair can fail on a single reading far past the model (on the KVM
 * guest at 4xL1, overlap 0.997 at 138 ADDs), and the model refitted with
 * that set jumped 3-4x (to 506 ADDs where the sibling repeats passed at
 * 106 and 109); stepping by 1.5x lets the next fresh pair decide. In 17
 * alternating runs there (flush 0 and 4xL1), cells whose three repeats lay
 * over 3x apart: 6 of 68, against 13 of 68 with the jump, the worst 4.7x
 * against 23.3x (within 2x: 50 and 48 of 68, the same) */
#define FAST_TDIFF_JUMP 1.5
/* t_min: a point that just failed below the model is followed by one this
 * much higher (about a single CV's scatter at n = 500), and a pass ends
 * the search when the model's boundary is at most this far below it */
#define FAST_TMIN_WALK 0.02
#define FAST_TMIN_AGREE 0.02
#define FAST_MAX_CHUNKS 64
/* t_diff's sets are made smaller to fit the time limit, down to this: fewer
 * leave no maximum or quantile worth the name */
#define FAST_TDIFF_MIN_SET 20

/* Median of the largest of m standard normal draws. */
static double normal_max_median(double m)
{
	return m <= 1 ? 0.0 : gsl_cdf_ugaussian_Pinv(pow(0.5, 1.0 / m));
}

struct tmin_fit {
	double t[FAST_MAX_EVALS + 1], var[FAST_MAX_EVALS + 1]; /* + the empty set */
	double rel[FAST_MAX_EVALS + 1]; /* relative sampling spread of each var */
	size_t n;
};

/* Constant variance: the points pooled, weighted by their precision. */
static double var_pooled(const struct tmin_fit *f)
{
	double w = 0, v = 0;

	for (size_t i = 0; i < f->n; i++) {
		double wi = 1.0 / (f->rel[i] * f->rel[i]);

		w += wi;
		v += wi * f->var[i];
	}
	return v / w;
}

/* sd^2 = a + b t^2 by least squares over the points, kept only when the
 * growth is larger than three times the points' sampling noise (a few
 * spikes more or less in a set must not read as "spread grows with t");
 * otherwise b = 0 and a is the pooled variance. */
static void var_model(const struct tmin_fit *f, double *a, double *b)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0, k = (double)f->n;
	size_t lo = 0, hi = 0;

	*a = var_pooled(f);
	*b = 0;
	if (f->n < 2)
		return;
	for (size_t i = 0; i < f->n; i++) {
		double x = f->t[i] * f->t[i];

		sx += x;
		sy += f->var[i];
		sxx += x * x;
		sxy += x * f->var[i];
		if (f->t[i] < f->t[lo])
			lo = i;
		if (f->t[i] > f->t[hi])
			hi = i;
	}
	double den = k * sxx - sx * sx;

	if (fabs(den) <= 1e-12 * sxx * k)
		return;
	double bb = (k * sxy - sx * sy) / den, aa = (sy - bb * sx) / k;
	double noise = hypot(f->rel[lo] * f->var[lo], f->rel[hi] * f->var[hi]);

	if (bb > 0 && aa > 0 && f->var[hi] - f->var[lo] > 3.0 * noise) {
		*a = aa;
		*b = bb;
	}
}

/* The model's K for CV = eps/m1 from the points so far (0: no answer:
 * the fitted growth alone keeps CV above eps). */
static double tmin_predict(const struct tmin_fit *fit, double m1, double eps, double tau_mean,
			   double c)
{
	double a, b;

	var_model(fit, &a, &b);
	if (eps * eps <= b * m1 * m1)
		return 0;
	if (!(a > 0))
		return 1;
	return (m1 * sqrt(a) / sqrt(eps * eps - b * m1 * m1) - tau_mean) / c;
}

/* The next K inside the bracket (lo failing, hi passing, 0 = unknown):
 * the model's choice when it falls inside, else a geometric step. */
static uint64_t tmin_next(double pred, uint64_t lo, uint64_t hi, uint64_t max_adds)
{
	double l = lo ? (double)lo * 1.01 + 1 : 1, h = hi ? (double)hi * 0.99 : 10.0 * (double)lo;
	double k = pred;

	if (!hi && !lo)
		h = (double)max_adds;
	if (pred > 0 && lo && !hi && k < l)
		/* the model puts the boundary at or below a point that just
		 * failed: it is off by about the check's own noise (a single CV
		 * scatters by 3 % at n = 500), so step up by that much, not by a
		 * factor of 4 that then costs a walk back down */
		k = (double)lo * (1.0 + FAST_TMIN_WALK) + 1;
	else if (pred > 0 && hi && !lo && k > h)
		k = (double)hi * (1.0 - FAST_TMIN_WALK);
	else if (!(k >= l && k <= h))
		k = hi && lo ? sqrt((double)lo * (double)hi) : hi ? (double)hi / 3 : (double)lo * 4;
	if (k > (double)max_adds)
		k = (double)max_adds;
	return k < 1 ? 1 : (uint64_t)ceil(k);
}

void tl_search_carry_free(struct tl_search_carry *c)
{
	for (size_t i = 0; i < TL_SEARCH_CARRY_SETS; i++)
		free(c->x[i]);
	memset(c, 0, sizeof(*c));
}

/* a set whose chunk means spread by more than this share of its
 * within-chunk sd saw the level move (noise alone gives about a tenth) */
#define FAST_MOVED_SHARE 0.3

/* The carry's slot for one more set measured at k: the next free one,
 * else the one furthest from k (t_diff reads the sets near t_min, and
 * t_min's last points are nearest it). */
static size_t carry_slot(const struct tl_search_carry *c, uint64_t k)
{
	size_t far = 0;

	if (c->sets < TL_SEARCH_CARRY_SETS)
		return c->sets;
	for (size_t i = 1; i < c->sets; i++)
		if (fabs((double)c->adds[i] - (double)k) > fabs((double)c->adds[far] - (double)k))
			far = i;
	return far;
}

static void carry_put(struct tl_search_carry *c, uint64_t k, const double *x, size_t n, bool cut,
		      bool moved)
{
	size_t i = carry_slot(c, k);

	if (i == c->sets)
		c->sets++;
	if (c->size[i] < n) {
		free(c->x[i]);
		c->x[i] = tl_xcalloc(n, sizeof(*c->x[i]));
		c->size[i] = n;
	}
	memcpy(c->x[i], x, n * sizeof(*c->x[i]));
	c->n[i] = n;
	c->adds[i] = k;
	c->cut[i] = cut;
	c->moved[i] = moved;
}

/* Leaves the set just measured at k (s->kept, pt->n readings) for t_diff,
 * as its two halves in time order: t_diff's model starts from two sets at
 * A0 (TL_SEARCH_FAST_TDIFF_POOL), and a t_min settled by one evaluation
 * leaves one; the halves are two sets of the same readings, so t_diff
 * measures none anew. Whether the level moved is judged on the whole set
 * (a half holds too few chunks to say). */
static void carry_keep(struct tl_srch *s, uint64_t k, const struct tl_point *pt)
{
	size_t n = pt->n, h = n / 2;
	struct tl_search_carry *c = s->io->carry;
	bool moved = pt->cv_drift > FAST_MOVED_SHARE * pt->cv_within;

	if (!c || n < 2)
		return;
	if (h < FAST_TDIFF_MIN_SET) {
		carry_put(c, k, s->kept, n, s->cut[0], moved);
		return;
	}
	/* the filter's cut is known for the whole set: either half may hold
	 * where it cut, so both say so */
	carry_put(c, k, s->kept, h, s->cut[0], moved);
	carry_put(c, k, s->kept + h, n - h, s->cut[0], moved);
}

/* Tells t_diff whether the spread grew with t over the points so far. */
static void carry_flat(struct tl_srch *s, const struct tmin_fit *fit)
{
	double a, b;

	if (!s->io->carry)
		return;
	var_model(fit, &a, &b);
	s->io->carry->flat = fit->n >= 2 && b == 0;
}

/* The point just measured at k (the fit's last) settles t_min when the
 * model, refitted with it, still puts the boundary within rel/sqrt 2 of k
 * (rel: that point's variance's relative sampling spread, 6.3 % at
 * n = 500). K goes as sd, so a set's K estimate scatters by rel/2; k is the
 * model's K before the point, and with a first point of as many readings
 * the refitted K moves by half the difference of the two estimates, which
 * scatters by rel/(2 sqrt 2): the bound is two of that. A point beyond it
 * says the spread at k is not the one the model had (it grew with t, or
 * the first point was off), and the walk goes on. One check of
 * CV (1 + z ...) <= eps at the boundary passes about as often as it
 * fails, so its pass or fail says little. Needs a point the model was
 * fitted without (the setup's empty-kernel set, or an earlier one). With
 * 2 rel (four of that spread) a first point off by the isolation
 * forest's trimming settled 13 % from Algorithm 1 on the sim. */
static bool tmin_settled(const struct tmin_fit *fit, double pred, uint64_t k)
{
	double tol;

	if (fit->n < 2 || !(pred > 0))
		return false;
	tol = fmax(FAST_TMIN_AGREE, fit->rel[fit->n - 1] / M_SQRT2);
	return fabs(pred / (double)k - 1.0) <= tol;
}

/* the empty-kernel set is the model's first point only with this many
 * readings: fewer put the first evaluation anywhere */
#define FAST_PRIOR_MIN 20

/* The setup's empty-kernel readings (io->empty_ns), filtered as an
 * evaluation is, as the model's point at t = 0: the spread every kernel
 * carries before any growth with t. Returns the model's K from it alone
 * (0: no prior, or it gives none), the first point to evaluate. */
static double tmin_prior(struct tl_srch *s, struct tmin_fit *fit, double z)
{
	const struct tl_search_params *p = s->p;
	size_t n = s->io->empty_ns ? s->io->n_empty : 0, nk = 0;
	struct tl_analysis a;
	double *kept, kurt;

	if (n < FAST_PRIOR_MIN)
		return 0;
	kept = tl_xmalloc(n * sizeof(*kept));
	if (stats_analyse_nodrift(s->io->empty_ns, n, p->overhead_ns, p->os, p->seed, &a, kept, &nk) != 0 ||
	    nk < FAST_PRIOR_MIN || !(a.summary.sd > 0)) {
		free(kept);
		return 0;
	}
	kurt = 3.0 + gsl_stats_kurtosis(kept, 1, nk);
	free(kept);
	if (!isfinite(kurt))
		kurt = 3.0;
	fit->t[0] = fmax(a.summary.mean, 0.0);
	fit->var[0] = a.summary.sd * a.summary.sd;
	fit->rel[0] = sqrt(fmax(kurt - 1.0, 0.5) / (double)nk);
	fit->n = 1;

	double m1 = 1.0 + z * sqrt(fmax(kurt - 1.0, 0.5) / (4.0 * (double)p->n));

	return tmin_predict(fit, m1, p->eps, fit->t[0], p->ns_per_add);
}

int search_fast_tmin(struct tl_srch *s)
{
	const struct tl_search_params *p = s->p;
	double z = normal_max_median((double)p->p + 1.0);
	double c = p->ns_per_add, cv_hi = NAN;
	uint64_t k = p->tmin_step / 10 ? p->tmin_step / 10 : 1, lo = 0, hi = 0;
	struct tmin_fit fit = { .n = 0 };
	int rises = 0;
	struct tl_point pt;

	if (!(c > 0)) {
		snprintf(s->r->note, sizeof(s->r->note),
			 "fast t_min needs ns_per_add (a linear fit of medians against K)");
		return -1;
	}
	double prior = tmin_prior(s, &fit, z);

	if (prior > 0) {
		k = tmin_next(prior, 0, 0, p->max_adds);
		s->r->predicted_adds = prior;
	}
	if (k > p->max_adds)
		k = p->max_adds;
	for (int it = 0; it < FAST_MAX_EVALS; it++) {
		double kernel_s = (double)k * c * 1e-9 * (double)s->cap;

		if (srch_out_of_time_for(s, k, s->cap)) {
			s->r->out_of_time = true;
			if (hi)
				snprintf(s->r->note, sizeof(s->r->note),
					 "out of time (%.2g s for this metric): t_min lies between %llu and %llu ADDs, "
					 "not narrowed further",
					 p->time_limit_s, (unsigned long long)lo, (unsigned long long)hi);
			else
				snprintf(s->r->note, sizeof(s->r->note),
					 "out of time (%.2g s for this metric) before trying %llu ADDs: the steadiest "
					 "point, CV %.3g %% at %llu ADDs, was not steady enough",
					 p->time_limit_s, (unsigned long long)k, 100.0 * s->cv_floor,
					 (unsigned long long)s->cv_floor_adds);
			goto answer;
		}
		if (kernel_s > FAST_MAX_KERNEL_S) {
			snprintf(s->r->note, sizeof(s->r->note),
				 "no t_min below %llu ADDs (lowest CV %.3g %%): the next point would run "
				 "%.0f s of kernel alone, so the search stopped there",
				 (unsigned long long)k, 100.0 * s->cv_floor, kernel_s);
			goto answer;
		}
		if (srch_sample(s, k, s->cap, false, &pt) != 0) {
			if (hi) {
				srch_answer(s, TL_SEARCH_TMIN, hi, cv_hi);
				snprintf(s->r->note, sizeof(s->r->note), "stopped: t_min <= %llu ADDs",
					 (unsigned long long)hi);
			}
			return 1;
		}
		srch_observe(s, TL_SEARCH_TMIN, k, pt.cv);
		carry_keep(s, k, &pt);
		/* Algorithm 1 accepts a point after p+1 passes in a row: a pass
		 * here needs CV below eps by the spread of the worst of p+1 */
		double m1 = 1.0 + z * sqrt(fmax(pt.kurtosis - 1.0, 0.5) / (4.0 * (double)p->n));
		bool pass = isfinite(pt.cv) && pt.cv * m1 <= p->eps;

		if (pass && (!hi || k < hi)) {
			hi = k;
			cv_hi = pt.cv;
		} else if (!pass && k > lo && (!hi || k < hi)) {
			lo = k;
		}
		if (hi && (hi <= lo + 1 || (double)hi <= 1.02 * (double)lo))
			goto answer;
		double pred = 0;

		if (isfinite(pt.cv) && pt.n >= 2 && fit.n <= FAST_MAX_EVALS) {
			fit.t[fit.n] = pt.mean;
			fit.var[fit.n] = pt.sd * pt.sd;
			fit.rel[fit.n] = sqrt(fmax(pt.kurtosis - 1.0, 0.5) / (double)pt.n);
			fit.n++;
			pred = tmin_predict(&fit, m1, p->eps, pt.mean - c * (double)k, c);
			carry_flat(s, &fit);
			if (isnan(s->r->predicted_adds))
				s->r->predicted_adds = pred;
			if (tmin_settled(&fit, pred, k)) {
				hi = k;
				cv_hi = pt.cv;
				goto answer;
			}
			/* the model agrees with a pass it just saw (its answer is at
			 * most FAST_TMIN_AGREE below, and not 2 % above): done */
			if (pass && hi == k && pred >= (1.0 - FAST_TMIN_AGREE) * (double)k && pred <= 1.02 * (double)k)
				goto answer;
		}
		if (!hi && lo >= p->max_adds)
			break;
		/* CV is not monotone in t (interrupts and drift grow with the
		 * kernel): two failing points above the steadiest one, both
		 * clearly worse, end the climb instead of walking to max_adds */
		if (!hi && !pass && k > s->cv_floor_adds && pt.cv > 1.2 * s->cv_floor)
			rises++;
		if (!hi && rises >= 2) {
			snprintf(s->r->note, sizeof(s->r->note),
				 "no t_min: CV falls to %.3g %% at %llu ADDs, then rises (%.3g %% at %llu)",
				 100.0 * s->cv_floor, (unsigned long long)s->cv_floor_adds,
				 100.0 * pt.cv, (unsigned long long)k);
			return 0;
		}
		/* aim 1 % past the model's boundary so the check there passes */
		k = tmin_next(1.01 * pred, lo, hi, p->max_adds);
	}
	if (!hi)
		snprintf(s->r->note, sizeof(s->r->note),
			 "no t_min below the %.3g-ADD bound (--max-adds): lowest CV %.3g %%, longest "
			 "kernel tried %llu ADDs",
			 (double)p->max_adds, 100.0 * s->cv_floor, (unsigned long long)lo);
answer:
	if (hi) {
		srch_answer(s, TL_SEARCH_TMIN, hi, cv_hi);
		s->r->converged = true;
	}
	return 0;
}

/* Pool of filtered sets, each centred on its mean.
 *
 * A clock of step q reads on a grid, and Algorithm 2 counts A1 readings
 * strictly below max(A0), itself a grid value M0: R1 < M0 exactly when
 * R1 + q u < M0 for any u in [0, 1). So the pooled low quantile is taken
 * over readings spread uniformly inside their grid cell (u from a
 * golden-ratio sequence: deterministic, even), which gives a continuous
 * alpha-quantile that answers the grid question, while the maxima stay the
 * raw grid values M0 that the condition compares against. */
struct tdiff_pool {
	double max_c[FAST_MAX_CHUNKS]; /* max - mean */
	double var[FAST_MAX_CHUNKS];
	size_t size[FAST_MAX_CHUNKS];
	size_t n;
	double *all; /* every centred value */
	size_t nall, capall;
	size_t cut;  /* sets whose top the filter removed */
};

static void pool_add(struct tdiff_pool *pl, const double *x, size_t n, double q, bool cut)
{
	if (n < 2 || pl->n >= FAST_MAX_CHUNKS)
		return;
	pl->cut += cut;
	if (pl->nall + n > pl->capall) {
		pl->capall = 2 * (pl->nall + n);
		pl->all = tl_xrealloc(pl->all, pl->capall, sizeof(*pl->all));
	}
	double mean = gsl_stats_mean(x, 1, n), mx = x[0];

	for (size_t i = 0; i < n; i++) {
		double u = fmod(0.5 + 0.6180339887498949 * (double)(pl->nall + i), 1.0);

		pl->all[pl->nall + i] = x[i] - mean + q * u;
		if (x[i] > mx)
			mx = x[i];
	}
	pl->nall += n;
	pl->max_c[pl->n] = mx - mean;
	pl->var[pl->n] = gsl_stats_variance_m(x, 1, n, mean);
	pl->size[pl->n] = n;
	pl->n++;
}

/* The model's ratio unless the maxima are within their own scatter of it.
 * The maximum of one set of m normal draws is Gumbel-like, its sd
 * (pi/sqrt 6)/sqrt(2 ln m) in units of sd; a clock of step res adds its
 * grid, res/sqrt 12; the median of k set ratios scatters by 1.25 that over
 * sqrt k. Carried out to q n draws that scatter alone moved t_diff by 7 %
 * (sd over sim seeds), twice the paper's own spread, so the normal model
 * stands unless the maxima depart from it by FAST_RATIO_SE times their
 * scatter (a filter's trimming or a heavy tail does). */
static double ratio_or_normal(double ratio, const struct tdiff_pool *pl, double sd, double res)
{
	double m = 0, mm, g, se;

	for (size_t i = 0; i < pl->n; i++)
		m += (double)pl->size[i];
	m /= (double)pl->n;
	mm = normal_max_median(m);
	if (m < 3 || !(sd > 0))
		return ratio;
	g = (M_PI / sqrt(6.0)) / sqrt(2.0 * log(m));
	se = 1.25 * hypot(g, res / sqrt(12.0) / sd) / mm / sqrt((double)pl->n);
	return fabs(ratio - 1.0) <= FAST_RATIO_SE * se ? 1.0 : ratio;
}

/* Most sets lost their top to the filter: a set's maximum is where the
 * filter cut, which more draws do not push out as they push a normal tail
 * (carrying the maxima out to q n draws as one put t_diff at 33-34 ADDs on
 * a continuous sim under iforest where Algorithm 2 finds 30-31). So the
 * largest pooled maximum, brought from its set's size to n as a normal
 * set's would be (a half set's maximum is below its whole set's), stands
 * for max(A0), and the q pairs' worst adds what is known of how a pair
 * varies: the sampling of A1's alpha-quantile, sqrt(alpha (1 - alpha) / n)
 * / phi(z_alpha) sds, at the median of the largest of q. Where the cut
 * itself moves from set to set (one set cannot show it) the prediction is
 * low, and the confirmation pairs walk it up. */
static double trimmed_predict(const struct tdiff_pool *pl, double alpha, double n, double q,
			      double sd, double low)
{
	double top = -INFINITY, spread = 0;

	for (size_t i = 0; i < pl->n; i++) {
		double m = normal_max_median((double)pl->size[i]);
		double c = m > 0 ? pl->max_c[i] * normal_max_median(n) / m : pl->max_c[i];

		top = fmax(top, c);
	}
	if (alpha > 0 && alpha < 1 && n > 0)
		spread = sqrt(alpha * (1 - alpha) / n) / gsl_ran_ugaussian_pdf(gsl_cdf_ugaussian_Pinv(alpha)) *
			 sd;
	return top + normal_max_median(q) * spread - low;
}

/* Predicted delta in ns for q pairs of n-sample sets on a clock of step res
 * (0: continuous). Such a clock reads R = res floor(Y/res), Y the true
 * duration plus a random phase in [0, res): R varies by var(Y) + res^2/12,
 * the dithered pool (see tdiff_pool) follows Y for the low quantile, and a
 * set's largest reading less its mean is max Y - E Y on average. So the
 * normal model is for Y: sd from the readings less the grid's share
 * res^2/12, maxima and the low quantile as they are. */
static double pool_predict(struct tdiff_pool *pl, double alpha, double n, double q, double res)
{
	double var = 0, ratio;

	for (size_t i = 0; i < pl->n; i++)
		var += pl->var[i];
	var /= (double)pl->n;
	if (res > 0)
		var = fmax(var - res * res / 12.0, 0.25 * var);
	double sd = sqrt(var);

	/* how far the observed maxima sit from the normal model at their size
	 * (the median over sets: one lucky maximum must not move it) */
	double ratios[FAST_MAX_CHUNKS];

	for (size_t i = 0; i < pl->n; i++) {
		double m = normal_max_median((double)pl->size[i]);

		ratios[i] = m > 0 && sd > 0 ? pl->max_c[i] / (sd * m) : 1.0;
	}
	ratio = stats_median(ratios, pl->n);
	if (!(ratio > 0))
		ratio = 1.0;
	ratio = ratio_or_normal(ratio, pl, sd, res);
	gsl_sort(pl->all, 1, pl->nall);
	double low = stats_quantile_sorted(pl->all, pl->nall, alpha);

	if (2 * pl->cut > pl->n)
		return trimmed_predict(pl, alpha, n, q, sd, low);
	return ratio * sd * normal_max_median(q * n) - low;
}

/* Shrinks s->cap so `sets` more sets at `adds` fit the time limit; false
 * (with the note) when even FAST_TDIFF_MIN_SET would not. */
static bool tdiff_fits(struct tl_srch *s, uint64_t adds, size_t sets)
{
	size_t fit = srch_affordable(s, adds, sets);

	if (fit >= FAST_TDIFF_MIN_SET) {
		if (fit < s->cap)
			s->cap = fit;
		return true;
	}
	snprintf(s->r->note, sizeof(s->r->note),
		 "out of time (%.2g s for this metric): %zu more sets of %d at %llu ADDs would not fit what "
		 "is left",
		 s->p->time_limit_s, sets, FAST_TDIFF_MIN_SET, (unsigned long long)adds);
	s->r->out_of_time = true;
	return false;
}

/* t_min's set i without the blocks a host burst disturbed (t_min's sets
 * were not measured again), into out; returns the readings left. */
static size_t carried_clean(const struct tl_search_carry *c, size_t i, double step, double *out)
{
	size_t n = c->n[i], k = stats_block_count(n, 2 * TL_TDIFF_LEVEL_BLOCK), m = 0, from, to;
	unsigned char *bad = tl_xcalloc(k, 1);
	size_t hit = stats_disturbed_blocks(c->x[i], n, 1, 2 * TL_TDIFF_LEVEL_BLOCK, step,
					    TL_SEARCH_BURST_FENCE, bad);

	/* over a quarter: the tail is the timer's own (see clean_bursts) */
	if (srch_tail_own(bad, hit, k))
		memset(bad, 0, k);
	for (size_t j = 0; j < k; j++) {
		stats_block_range(j, n, 2 * TL_TDIFF_LEVEL_BLOCK, &from, &to);
		if (!bad[j]) {
			memcpy(out + m, c->x[i] + from, (to - from) * sizeof *out);
			m += to - from;
		}
	}
	free(bad);
	return m;
}

/* Pools the sets t_min left (io->carry) within FAST_CARRY_NEAR of a0;
 * returns how many, *at the one measured at a0 itself (SIZE_MAX: none). */
static size_t pool_carried(struct tdiff_pool *pl, const struct tl_search_carry *c, uint64_t a0,
			   double q, size_t *at, double *buf)
{
	size_t used = 0;

	*at = SIZE_MAX;
	for (size_t i = 0; c && i < c->sets; i++) {
		if (fabs((double)c->adds[i] - (double)a0) >
		    (c->flat ? FAST_CARRY_FLAT : FAST_CARRY_NEAR) * (double)a0)
			continue;
		pool_add(pl, buf, carried_clean(c, i, q, buf), q, c->cut[i]);
		used++;
		if (c->adds[i] == a0)
			*at = i;
	}
	return used;
}

/* The pool before the first prediction: t_min's sets near A0, topped up
 * with fresh sets at A0 to FAST_TDIFF_POOL. Leaves the first pair's A0 in
 * s->kept (*n0 readings): the last fresh set, else t_min's set at A0
 * (unless the carry is stale: then one set is measured fresh).
 * 0 done, 1 stopped, -1 out of time (the note says so). */
static int pool_fill(struct tl_srch *s, struct tdiff_pool *pl, uint64_t a0, double q, size_t *n0)
{
	const struct tl_search_carry *c = s->io->carry;
	size_t at, have = pool_carried(pl, c, a0, q, &at, s->raw2);
	size_t fresh = have >= FAST_TDIFF_POOL ? 0 : FAST_TDIFF_POOL - have;
	struct tl_point pt;

	/* the first pair's A0 is a set at a0 measured just before its A1 */
	if (!fresh && (at == SIZE_MAX || c->stale))
		fresh = 1;
	for (size_t i = 0; i < fresh; i++) {
		/* each set timed re-sizes the rest: on a loaded node a measurement
		 * costs more than the setup's timer and flush costs alone */
		if (!tdiff_fits(s, a0, fresh - i + FAST_CONFIRM_PAIRS))
			return -1;
		if (srch_sample(s, a0, s->cap, false, &pt) != 0)
			return 1;
		pool_add(pl, s->kept, pt.n, q, s->cut[0]);
		*n0 = pt.n;
	}
	if (!fresh) {
		*n0 = carried_clean(c, at, q, s->kept);
		s->cut[0] = c->cut[at];
	}
	return 0;
}

/* Whether t_min's sets near a0 saw the level move (or none is near, or
 * they are stale, so nothing says it holds still now). Sets measured
 * minutes before (t_diff's pass runs after every t_min) say how the level
 * was then: on the KVM guest a paper-order repeat taken on such sets read
 * 12 ADDs at 4xL1 where its interleaved siblings read 71 and 121. */
static bool carry_moved(const struct tl_search_carry *c, uint64_t a0)
{
	size_t near = 0;

	if (c && c->stale)
		return true;
	for (size_t i = 0; c && i < c->sets; i++) {
		if (fabs((double)c->adds[i] - (double)a0) >
		    (c->flat ? FAST_CARRY_FLAT : FAST_CARRY_NEAR) * (double)a0)
			continue;
		if (c->moved[i])
			return true;
		near++;
	}
	return near < FAST_TDIFF_POOL;
}

/* Interleaved: the pool is one pass of A0 against itself, both sets
 * level-aligned (t_min's sets were measured one after the other, and on a
 * wandering clock their spread is the wander's, not the timer's).
 * 0 done, 1 stopped. */
static int pool_fill_mixed(struct tl_srch *s, struct tdiff_pool *pl, uint64_t a0, double q)
{
	double ov;
	size_t n0, n1;

	if (srch_pair_mixed(s, a0, a0, s->cap, &ov, &n0, &n1) != 0)
		return 1;
	pool_add(pl, s->kept, n0, q, s->cut[0]);
	pool_add(pl, s->kept2, n1, q, s->cut[1]);
	return 0;
}

/* One confirmation round at delta d: FAST_CONFIRM_PAIRS pairs, chained
 * from s->kept (paper order) or each a fresh interleaved pass from A0.
 * Adds the new sets to the pool; *pass, *worst as Algorithm 2's pairs.
 * 0, or 1 stopped. */
static int confirm_round(struct tl_srch *s, struct tdiff_pool *pl, uint64_t tmin, uint64_t *base,
			 uint64_t d, double q, size_t *n0, bool *pass, double *worst)
{
	for (unsigned i = 1; i <= FAST_CONFIRM_PAIRS && i <= s->p->q; i++) {
		double ov;
		size_t n1;

		if (s->r->order == TL_TDIFF_PAPER) {
			if (srch_chain(s, *base + (uint64_t)i * d, d, s->cap, n0, &n1, &ov) != 0)
				return 1;
			pool_add(pl, s->kept, n1, q, s->cut[0]);
		} else {
			if (srch_pair_mixed(s, tmin, tmin + d, s->cap, &ov, n0, &n1) != 0)
				return 1;
			pool_add(pl, s->kept, *n0, q, s->cut[0]);
			pool_add(pl, s->kept2, n1, q, s->cut[1]);
		}
		*worst = fmax(*worst, ov);
		if (ov > s->p->alpha)
			*pass = false;
	}
	if (s->r->order == TL_TDIFF_PAPER)
		*base += (uint64_t)FAST_CONFIRM_PAIRS * d;
	return 0;
}

/* The pool the answer was judged on, for the repeats' summary (see
 * tl_search_result): its robust sd and its slowest reading in those sds.
 * The dither (tdiff_pool) lifts the centre by half a step. */
static void pool_describe(struct tdiff_pool *pl, double step, struct tl_search_result *r)
{
	double sd, top = -INFINITY, centre;

	if (pl->nall < FAST_TDIFF_MIN_SET)
		return;
	gsl_sort(pl->all, 1, pl->nall);
	sd = stats_iqr_sd_sorted(pl->all, pl->nall);
	if (!(sd > 0))
		return;
	centre = stats_quantile_sorted(pl->all, pl->nall, 0.5) - 0.5 * step;
	for (size_t i = 0; i < pl->n; i++)
		top = fmax(top, pl->max_c[i]);
	r->a0_sd_ns = sd;
	r->a0_top_sds = (top - centre) / sd;
}

/* The delta after one that failed (lo_fail), from the refitted model's
 * next: at least FAST_TDIFF_WALK above it, and once the model had a delta
 * of its own (modelled) at most FAST_TDIFF_JUMP times it. */
static uint64_t delta_after_fail(uint64_t next, uint64_t lo_fail, bool modelled)
{
	if (next <= lo_fail) {
		uint64_t up = (uint64_t)ceil(FAST_TDIFF_WALK * (double)lo_fail);

		return lo_fail + (up ? up : 1);
	}
	if (modelled && (double)next > FAST_TDIFF_JUMP * (double)lo_fail)
		return (uint64_t)ceil(FAST_TDIFF_JUMP * (double)lo_fail);
	return next;
}

int search_fast_tdiff(struct tl_srch *s, uint64_t tmin)
{
	const struct tl_search_params *p = s->p;
	struct tdiff_pool pool = { .n = 0, .all = NULL };
	double q = p->resolution_ns > 0 ? p->resolution_ns : 0;
	int rc;
	double c = p->ns_per_add;
	uint64_t d = 0, lo_fail = 0, base = tmin;
	size_t n0 = 0;
	/* Interleaving costs a fresh A0 with every A1. Where t_min's sets at
	 * A0 show the level holding still, the paper's chain from them is the
	 * same measurement at half the cost; the result names the order run */
	bool mixed = p->order != TL_TDIFF_PAPER && carry_moved(s->io->carry, tmin);
	/* sets a round measures, and the pool before the first round */
	size_t round_sets = (mixed ? 2 : 1) * FAST_CONFIRM_PAIRS;
	size_t pool_sets = mixed ? 2 : FAST_TDIFF_POOL;

	if (!(c > 0)) {
		snprintf(s->r->note, sizeof(s->r->note),
			 "fast t_diff needs ns_per_add (a linear fit of medians against K)");
		return -1;
	}
	/* The pool and the first round are measured whatever the limit says, so
	 * they are sized to fit it: on a 2 GiB flush they took 60 s against 10. */
	size_t full = s->cap, fit = srch_affordable(s, tmin, pool_sets + round_sets);
	if (fit < FAST_TDIFF_MIN_SET) {
		snprintf(s->r->note, sizeof(s->r->note),
			 "out of time (%.2g s for this metric): %zu sets of %d at %llu ADDs would not fit what is "
			 "left",
			 p->time_limit_s, pool_sets + round_sets, FAST_TDIFF_MIN_SET,
			 (unsigned long long)tmin);
		s->r->out_of_time = true;
		return 0;
	}
	s->cap = fit;
	s->r->order = mixed ? TL_TDIFF_INTERLEAVED : TL_TDIFF_PAPER;
	s->clean = true;
	rc = mixed ? pool_fill_mixed(s, &pool, tmin, q) : pool_fill(s, &pool, tmin, q, &n0);
	if (rc != 0) {
		free(pool.all);
		return rc < 0 ? 0 : 1;
	}
	for (int round = 0; round < FAST_MAX_EVALS; round++) {
		double pred = pool_predict(&pool, p->alpha, (double)p->n, (double)p->q, q);
		double dd = ceil(pred / c);
		uint64_t next = dd < 1 ? 1 : (uint64_t)dd;
		double worst = 0;
		bool pass = true;

		if (round == 0)
			s->r->predicted_adds = dd;
		d = lo_fail ? delta_after_fail(next, lo_fail, s->r->predicted_adds >= 1) : next;
		if (round > 0 && srch_out_of_time_for(s, base + (uint64_t)(1.5 * (double)d),
						      round_sets * s->cap)) {
			s->r->out_of_time = true;
			snprintf(s->r->note, sizeof(s->r->note),
				 "out of time (%.2g s for this metric): t_diff is above %llu ADDs, the largest "
				 "difference tried (the model expected %.0f)", p->time_limit_s,
				 (unsigned long long)lo_fail, s->r->predicted_adds);
			rc = 0;
			goto out;
		}
		if (round == 0 && !tdiff_fits(s, tmin + (uint64_t)(1.5 * (double)d), round_sets)) {
			rc = 0;
			goto out;
		}
		if (base + (uint64_t)p->q * d > p->max_adds) {
			snprintf(s->r->note, sizeof(s->r->note),
				 "no t_diff below the %.3g-ADD bound (--max-adds): %u pairs %llu ADDs apart "
				 "would need longer kernels",
				 (double)p->max_adds, p->q, (unsigned long long)d);
			rc = 0;
			goto out;
		}
		/* Paper order: pairs (A0 + (i-1) delta, A0 + i delta) chained from
		 * the set in s->kept, each new set one pair's A1 and the next pair's
		 * A0, so a round costs FAST_CONFIRM_PAIRS sets and the next goes on
		 * from this one's last A1. Interleaved: each pair is a pass of its
		 * own from A0 (two sets), so the level it saw is taken out of both */
		if (confirm_round(s, &pool, tmin, &base, d, q, &n0, &pass, &worst) != 0) {
			free(pool.all);
			return 1;
		}
		srch_observe(s, TL_SEARCH_TDIFF, d, worst);
		if (pass) {
			srch_answer(s, TL_SEARCH_TDIFF, d, worst);
			s->r->converged = true;
			if (round > 0)
				snprintf(s->r->note, sizeof(s->r->note),
					 "confirmed %d step(s) above the model's %.0f ADDs: the slowest "
					 "readings reach further than a normal spread predicts",
					 round, s->r->predicted_adds);
			rc = 0;
			goto out;
		}
		lo_fail = d;
	}
	snprintf(s->r->note, sizeof(s->r->note), "no t_diff confirmed in %d tries (the last at %llu ADDs)",
		 FAST_MAX_EVALS, (unsigned long long)d);
	rc = 0;
out:
	if (s->blocks_redone) {
		size_t at = strlen(s->r->note);

		snprintf(s->r->note + at, sizeof(s->r->note) - at,
			 "%s%zu of %zu blocks measured again: a host burst put readings over %.0f sds above "
			 "their block's level%s",
			 at ? "; " : "", s->blocks_redone, s->blocks_seen, TL_SEARCH_BURST_FENCE,
			 s->blocks_left ? ", and some stayed" : "");
	}
	if (p->order != TL_TDIFF_PAPER && s->r->order == TL_TDIFF_PAPER) {
		size_t at = strlen(s->r->note);

		snprintf(s->r->note + at, sizeof(s->r->note) - at,
			 "%sthe level held still over t_min's sets at A0: measured in the paper's order",
			 at ? "; " : "");
	}
	if (s->cap < full) {
		size_t at = strlen(s->r->note);

		snprintf(s->r->note + at, sizeof(s->r->note) - at, "%ssets of %zu, not %zu, to fit the time limit",
			 at ? "; " : "", s->cap, full);
	}
	pool_describe(&pool, q, s->r);
	free(pool.all);
	return rc;
}
