/* The t_min / t_diff searches on sim timers whose tau is known, so the
 * answers can be derived by hand (derivations next to each case), plus the
 * fast method's agreement and cost, the bound, the stop flag, the observer
 * and the engine helpers. Deterministic: sim and filters are seeded.
 *
 * Common to every case: sim:...,ns_per_add=0.3,overhead=20 reads
 * d = 20 + 0.3 K + sigma Z (+ spikes), quantized at a random phase. The
 * searches get overhead_ns = 20 and ns_per_add = 0.3 (the sim's truth; the
 * helpers that measure them are tested separately), so after filter_cost a
 * point at K ADDs has mean 0.3 K and the sd of tau.
 *
 * t_min (Algorithm 1). CV = sd/(0.3 K) < eps = 0.01 gives K0 = sd/0.003.
 * Algorithm 1 only accepts a point after p+1 CVs in a row pass, each from
 * N measurements; a sample sd has relative spread sqrt((kurt-1)/(4N)) =
 * 1/sqrt(2N) for normal tau, and the median of the worst of p+1 draws is
 * z = Phi^-1(0.5^(1/(p+1))) spreads up, so the answer is about
 * K0 (1 + z/sqrt(2N)). N = 500, p = 30: z = 2.01, factor 1.0636. We allow
 * 6 % (two spreads of the sample sd) around it.
 *
 * t_diff (Algorithm 2). A pair passes when at most alpha of A1 lies below
 * max(A0): 0.3 delta >= max(A0) - Q_alpha(tau). All q pairs pass when
 * delta exceeds the largest of q maxima of N, i.e. the maximum of qN
 * draws, whose median is F^-1(0.5^(1/(qN))). So
 * delta = (F^-1(0.5^(1/(qN))) - F^-1(alpha)) / 0.3, with F the cdf of tau
 * (with a quantum q, see tdiff_derived). N = 500, q = 80, alpha = 0.05. */
#include "config.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"
#include "bench/flush.h"
#include "bench/search_engine.h"
#include "stats/search.h"
#include "stats/sim_derived.h"
#include "tests/tap.h"

#define N 500
#define P 30
#define Q 80
#define C 0.3
/* sim seeds each case runs at (each takes about 0.1 s) */
#define SEEDS 10
/* fast's median cost against paper's, per metric: the method's aim */
#define FEWER 100.0

struct rig {
	struct tl_timer t;
	struct tl_flush f;
	struct tl_search_engine e;
	struct tl_search_io io;
	struct tl_search_params p;
	struct tl_search_carry carry; /* fast t_min's sets for fast t_diff, as the engine runs it */
};

static int rig_open(struct rig *r, const char *id, enum tl_os_method os)
{
	char why[TL_WHY_MAX];

	memset(r, 0, sizeof(*r));
	if (tl_timer_open(&r->t, id, why, sizeof(why)) != 0 ||
	    tl_flush_init(&r->f, 0, why, sizeof(why)) != 0) {
		printf("# %s: %s\n", id, why);
		return -1;
	}
	tl_search_engine_init(&r->e, &r->t, &r->f, NULL);
	r->io.measure = tl_search_engine_measure;
	r->io.measure_ctx = &r->e;
	r->io.carry = &r->carry;
	tl_search_params_default(&r->p);
	r->p.os = os;
	r->p.n = N;
	r->p.p = P;
	r->p.q = Q;
	r->p.overhead_ns = 20;
	r->p.ns_per_add = C;
	return 0;
}

static void rig_close(struct rig *r)
{
	tl_search_carry_free(&r->carry);
	tl_search_engine_free(&r->e);
	tl_flush_free(&r->f);
	tl_timer_close(&r->t);
}

static double tdiff_derived(double sigma, double quantum)
{
	return sim_tdiff_derived(sigma, quantum, N, Q, C);
}

static double tmin_derived(double sd)
{
	return sim_tmin_derived(sd, N, P, C);
}

struct pair {
	struct tl_search_result tmin, tdiff;
};

/* empty-kernel readings the CLI's setup takes for t_e,std at most */
#define SETUP_EMPTY_MAX 2001

static void search_both(struct rig *r, enum tl_search_method m, struct pair *out)
{
	r->p.method = m;
	/* fast t_min reads the setup's empty-kernel set, as the CLI's setup
	 * hands it over (min(n, 2001) readings); the rig's t_e,std stays the
	 * sim's truth. Measured after paper ran, so paper's draws are those
	 * it always had */
	if (m == TL_SEARCH_FAST) {
		tl_search_engine_overhead(&r->e, r->p.n < SETUP_EMPTY_MAX ? r->p.n : SETUP_EMPTY_MAX);
		r->io.empty_ns = r->e.empty;
		r->io.n_empty = r->e.n_empty;
	}
	tl_search_tmin(&r->p, &r->io, &out->tmin);
	tl_search_tdiff(&r->p, &r->io, out->tmin.adds, &out->tdiff);
}

/* Fast against paper over seeds, per case: a random quantity each, so
 * tallied and tested as a distribution, never one seed against a bound. */
struct tally {
	unsigned seeds, converged, agree_tmin, agree_tdiff;
	double ratio_tmin[16], ratio_tdiff[16], ratio_both[16];
	double fast_tmin[16], fast_tdiff[16], paper_tmin[16], paper_tdiff[16];
	double res_adds;
};

/* fast within one resolution step (res_adds) or 10 % of paper, and the
 * measurement ratios paper / fast */
static void tally_add(struct tally *t, const struct pair *paper, const struct pair *fast,
		      double res_adds)
{
	double dt = fabs((double)fast->tmin.adds - (double)paper->tmin.adds);
	double dd = fabs((double)fast->tdiff.adds - (double)paper->tdiff.adds);
	size_t i = t->seeds++;

	t->res_adds = res_adds;
	t->fast_tmin[i] = (double)fast->tmin.adds;
	t->fast_tdiff[i] = (double)fast->tdiff.adds;
	t->paper_tmin[i] = (double)paper->tmin.adds;
	t->paper_tdiff[i] = (double)paper->tdiff.adds;
	t->converged += fast->tmin.converged && fast->tdiff.converged;
	t->agree_tmin += dt <= fmax(0.10 * (double)paper->tmin.adds, res_adds);
	t->agree_tdiff += dd <= fmax(0.10 * (double)paper->tdiff.adds, res_adds);
	t->ratio_tmin[i] = (double)paper->tmin.measurements / fmax((double)fast->tmin.measurements, 1);
	t->ratio_tdiff[i] =
		(double)paper->tdiff.measurements / fmax((double)fast->tdiff.measurements, 1);
	/* fast's t_diff model reads t_min's sets (counted in t_min): the sum
	 * shows the cost was saved, not moved */
	t->ratio_both[i] = (double)(paper->tmin.measurements + paper->tdiff.measurements) /
			   fmax((double)(fast->tmin.measurements + fast->tdiff.measurements), 1);
}

/* Over the seeds of one case: fast converged on every seed; the median
 * of its answers is within 10 % or a step of the median of paper's; on at
 * least `share` of the seeds its answer is within that of paper's on the
 * same seed (each answer scatters by a few %, so a 10 % gap on one seed
 * is a tail of their difference, not a rule; at q 20 paper's t_diff alone
 * scatters by about 7 %); and its median cost is at least `fewer` times
 * below paper's for t_min, for t_diff and for both. */
static void tally_check(const char *name, const struct tally *t, double share, double fewer)
{
	unsigned need = (unsigned)ceil(share * t->seeds - 1e-9);
	double ft = stats_median(t->fast_tmin, t->seeds), pt = stats_median(t->paper_tmin, t->seeds);
	double fd = stats_median(t->fast_tdiff, t->seeds), pd = stats_median(t->paper_tdiff, t->seeds);

	ok(t->converged == t->seeds, "%s: fast converged on %u of %u seeds", name, t->converged,
	   t->seeds);
	ok(fabs(ft - pt) <= fmax(0.10 * pt, t->res_adds),
	   "%s: median t_min over %u seeds, fast %.0f, paper %.0f ADDs: within 10 %% or a step", name,
	   t->seeds, ft, pt);
	ok(fabs(fd - pd) <= fmax(0.10 * pd, t->res_adds),
	   "%s: median t_diff over %u seeds, fast %.0f, paper %.0f ADDs: within 10 %% or a step", name,
	   t->seeds, fd, pd);
	ok(t->agree_tmin >= need, "%s: fast t_min within 10 %% or a step of paper on %u of %u seeds "
	   "(>= %u)", name, t->agree_tmin, t->seeds, need);
	ok(t->agree_tdiff >= need, "%s: fast t_diff within 10 %% or a step of paper on %u of %u seeds "
	   "(>= %u)", name, t->agree_tdiff, t->seeds, need);
	ok(stats_median(t->ratio_tmin, t->seeds) >= fewer,
	   "%s: fast t_min takes %.0fx fewer measurements than paper (median of %u seeds, >= %.0f)",
	   name, stats_median(t->ratio_tmin, t->seeds), t->seeds, fewer);
	ok(stats_median(t->ratio_tdiff, t->seeds) >= fewer,
	   "%s: fast t_diff takes %.0fx fewer measurements than paper (median of %u seeds, >= %.0f)",
	   name, stats_median(t->ratio_tdiff, t->seeds), t->seeds, fewer);
	ok(stats_median(t->ratio_both, t->seeds) >= fewer,
	   "%s: t_min + t_diff together %.0fx fewer (median of %u seeds, >= %.0f)", name,
	   stats_median(t->ratio_both, t->seeds), t->seeds, fewer);
}

/* One case at sim seed `seed` (the search's seed too). */
static void sim_case(const char *base, const char *sim, enum tl_os_method os, double sd_tau,
		     double sigma, double quantum, unsigned seed, struct tally *t)
{
	struct rig r;
	struct pair paper, fast;
	double want_tmin = tmin_derived(sd_tau), want_tdiff = tdiff_derived(sigma, quantum);
	/* one clock step in ADDs (0 for a continuous clock) */
	double res_adds = quantum / C;
	char name[96], id[160];

	snprintf(name, sizeof name, "%s, seed %u", base, seed);
	snprintf(id, sizeof id, "%s,seed=%u", sim, seed);
	if (rig_open(&r, id, os) != 0) {
		ok(0, "%s: open %s", name, id);
		return;
	}
	r.p.resolution_ns = quantum;
	r.p.seed = seed;
	search_both(&r, TL_SEARCH_PAPER, &paper);
	ok(paper.tmin.converged && paper.tdiff.converged, "%s: paper converged", name);
	ok(fabs((double)paper.tmin.adds - want_tmin) <= 0.06 * want_tmin,
	   "%s: paper t_min %llu ADDs near derived %.0f", name,
	   (unsigned long long)paper.tmin.adds, want_tmin);
	ok(paper.tmin.stat <= 0.01, "%s: CV at t_min %.4f <= eps", name, paper.tmin.stat);
	ok(fabs((double)paper.tdiff.adds - want_tdiff) <= fmax(0.10 * want_tdiff, res_adds),
	   "%s: paper t_diff %llu ADDs near derived %.1f", name,
	   (unsigned long long)paper.tdiff.adds, want_tdiff);
	ok(paper.tdiff.stat <= 0.05, "%s: overlap at t_diff %.3f <= alpha", name, paper.tdiff.stat);
	is_near(paper.tmin.ns, (double)paper.tmin.adds * C, 1e-9, "%s: ns = adds x ns_per_add", name);
	search_both(&r, TL_SEARCH_FAST, &fast);
	tally_add(t, &paper, &fast, res_adds);
	tap_diag("%s: paper %llu/%llu ADDs (%zu+%zu meas), fast %llu/%llu (%zu+%zu meas)", name,
		 (unsigned long long)paper.tmin.adds, (unsigned long long)paper.tdiff.adds,
		 paper.tmin.measurements, paper.tdiff.measurements,
		 (unsigned long long)fast.tmin.adds, (unsigned long long)fast.tdiff.adds,
		 fast.tmin.measurements, fast.tdiff.measurements);
	rig_close(&r);
}

static void test_defaults(void)
{
	struct tl_search_params p;

	tl_search_params_default(&p);
	ok(p.method == TL_SEARCH_FAST && p.eps == 0.01 && p.alpha == 0.05 && p.n == 10000 &&
		   p.p == 30 && p.q == 80 && p.tmin_step == 10000 && p.tdiff_step == 100 &&
		   p.max_adds == 100000000 && p.os == TL_OS_IFOREST,
	   "defaults are the paper's (eps 0.01, alpha 0.05, N 10000, p 30, q 80, steps 10000/100)");
	is_int(tl_search_method_parse("paper"), TL_SEARCH_PAPER, "parse paper");
	is_int(tl_search_method_parse("fast"), TL_SEARCH_FAST, "parse fast");
	is_int(tl_search_method_parse("slow"), -1, "unknown method refused");
}

/* The engine helpers on a continuous sim: t_e,std is the median of the
 * empty kernel (20 ns: the normal noise is symmetric), and the slope of
 * medians against K is the sim's 0.3 ns per ADD. */
static void test_engine(void)
{
	struct rig r;
	double slope = 0, r2 = 0;

	if (rig_open(&r, "sim:sd=5,quantum=0,spike_rate=0", TL_OS_NONE) != 0) {
		ok(0, "open sim");
		return;
	}
	is_near(tl_search_engine_overhead(&r.e, 2001), 20.0, 0.5, "overhead: median of empty ~ 20 ns");
	ok(tl_search_engine_ns_per_add(&r.e, 20000, 5, 501, &slope, &r2) == 0, "ns_per_add fit runs");
	is_near(slope, 0.3, 0.002, "ns_per_add ~ 0.3");
	ok(r2 > 0.999, "fit R^2 %.5f > 0.999", r2);
	is_int(r.e.measurements, 2001 + 5 * 501, "engine counts every measurement");
	rig_close(&r);
}

static void test_bound_stop_observer(void)
{
	struct rig r;
	struct tl_search_result res;
	atomic_bool stop;

	if (rig_open(&r, "sim:sd=5,quantum=0,spike_rate=0", TL_OS_NONE) != 0) {
		ok(0, "open sim");
		return;
	}
	/* K0 ~ 1667 ADDs, so nothing at or below 500 ADDs passes */
	r.p.max_adds = 500;
	r.p.tmin_step = 100;
	for (int m = 0; m < 2; m++) {
		r.p.method = m == 0 ? TL_SEARCH_PAPER : TL_SEARCH_FAST;
		is_int(tl_search_tmin(&r.p, &r.io, &res), 0, "%s: bounded search returns 0",
		       tl_search_method_name(r.p.method));
		ok(!res.converged && strstr(res.note, "no t_min below the 500-ADD bound (--max-adds): lowest CV"),
		   "%s: says '%s'", tl_search_method_name(r.p.method), res.note);
		is_int(tl_search_tdiff(&r.p, &r.io, 400, &res), 0, "%s: bounded t_diff returns 0",
		       tl_search_method_name(r.p.method));
		ok(!res.converged && strstr(res.note, "no t_diff below the 500-ADD bound"),
		   "%s: t_diff says '%s'", tl_search_method_name(r.p.method), res.note);
	}
	r.p.max_adds = 100000000;
	r.p.tmin_step = 10000;

	atomic_init(&stop, true);
	r.io.stop = &stop;
	r.p.method = TL_SEARCH_PAPER;
	is_int(tl_search_tmin(&r.p, &r.io, &res), 1, "stop flag: returns 1");
	ok(res.stopped && res.measurements == 0, "stop flag: nothing measured after the stop");
	r.io.stop = NULL;
	rig_close(&r);
}

static void count_obs(void *ctx, enum tl_search_kind kind, uint64_t x, double y)
{
	(void)x;
	(void)y;
	((size_t *)ctx)[kind]++;
}

static void test_observer(void)
{
	struct rig r;
	struct tl_search_result a, b;
	size_t seen[2] = { 0, 0 };

	if (rig_open(&r, "sim:sd=5,quantum=0,spike_rate=0", TL_OS_NONE) != 0) {
		ok(0, "open sim");
		return;
	}
	r.p.method = TL_SEARCH_PAPER;
	r.p.n = 200;
	r.p.p = 3;
	r.p.q = 4;
	r.io.observe = count_obs;
	r.io.observe_ctx = seen;
	tl_search_tmin(&r.p, &r.io, &a);
	tl_search_tdiff(&r.p, &r.io, a.adds, &b);
	ok(seen[0] == a.evaluations && seen[0] > 0, "observer saw %zu t_min points (%zu evaluated)",
	   seen[0], a.evaluations);
	ok(seen[1] == b.evaluations && seen[1] > 0, "observer saw %zu t_diff points (%zu evaluated)",
	   seen[1], b.evaluations);
	ok(a.measurements >= (size_t)a.evaluations * 200, "measurements counted");
	rig_close(&r);
}

/* A 10 ns clock over 1 ns of noise: nearly all spread is the clock's
 * (sd^2 = 1 + 100/6), so t_min = 4.2/0.01 = 420 ns sits on the floor
 * (q/sqrt 6)/eps = 408 ns and is flagged. */
static void test_floor(void)
{
	struct rig r;
	struct tl_search_result a;

	if (rig_open(&r, "sim:sd=1,quantum=10,spike_rate=0", TL_OS_NONE) != 0) {
		ok(0, "open sim");
		return;
	}
	r.p.resolution_ns = 10;
	r.p.n = 500;
	tl_search_tmin(&r.p, &r.io, &a);
	ok(a.converged && a.on_floor, "quantum-only clock: t_min %.0f ns on the floor %.0f ns", a.ns,
	   a.floor_ns);
	ok(strstr(a.note, "resolution floor") != NULL, "note says so: '%s'", a.note);
	rig_close(&r);
}

/* A t_min far below the floor (q/sqrt 6)/eps contradicts the q it came
 * from: sd 8 ns gives t_min about 8/0.01 = 800 ns, and a resolution of
 * 60.7 ns (a continuous clock once misread as such) a floor of 2480 ns.
 * No note may put 800 ns "on the timer-resolution floor" of 2480. */
static void test_floor_contradicted(void)
{
	struct rig r;
	struct tl_search_result a;

	if (rig_open(&r, "sim:sd=8,quantum=0,spike_rate=0,seed=3", TL_OS_NONE) != 0) {
		ok(0, "open sim");
		return;
	}
	r.p.resolution_ns = 60.7;
	tl_search_tmin(&r.p, &r.io, &a);
	ok(a.converged && a.ns < 0.65 * a.floor_ns && !a.on_floor && !strstr(a.note, "floor"),
	   "t_min %.0f ns below the floor %.0f ns: no floor note ('%s')", a.ns, a.floor_ns, a.note);
	rig_close(&r);
}

static void test_bad_params(void)
{
	struct rig r;
	struct tl_search_result a;

	if (rig_open(&r, "sim", TL_OS_NONE) != 0) {
		ok(0, "open sim");
		return;
	}
	r.p.eps = 0;
	is_int(tl_search_tmin(&r.p, &r.io, &a), -1, "eps 0 refused");
	ok(strstr(a.note, "eps") != NULL, "note names eps: '%s'", a.note);
	rig_close(&r);
}

/* Ratios are reference / this, only between converged answers, and t_diff
 * ratios only when both t_min were found (A0 = t_min for both). */
static void test_ratios(void)
{
	struct tl_search_result ref_tmin = { .converged = true, .ns = 2563 };
	struct tl_search_result ref_tdiff = { .converged = true, .ns = 124 };
	struct tl_search_result tmin = { .converged = true, .ns = 85 };
	struct tl_search_result tdiff = { .converged = true, .ns = 4 };
	struct tl_search_result lost = { .converged = false, .ns = 50 };
	char buf[64];

	/* The paper's Xeon 6248 L3 figures: 2563/85 = 30.15, 124/4 = 31. */
	is_near(tl_search_ratio(&ref_tmin, &tmin), 2563.0 / 85.0, 1e-12, "t_min ratio 30.2");
	is_near(tl_search_ratio_tdiff(&ref_tmin, &ref_tdiff, &tmin, &tdiff), 31.0, 1e-12,
		"t_diff ratio 31.0");
	ok(isnan(tl_search_ratio(&ref_tmin, &lost)), "no ratio to an answer that did not converge");
	ok(isnan(tl_search_ratio_tdiff(&ref_tmin, &ref_tdiff, &lost, &tdiff)),
	   "no t_diff ratio when this t_min was not found");
	ok(isnan(tl_search_ratio_tdiff(&lost, &ref_tdiff, &tmin, &tdiff)),
	   "no t_diff ratio when the reference's t_min was not found");
	tl_search_ratio_text(buf, sizeof buf, 2563.0 / 85.0, "precise", "x");
	ok(strcmp(buf, "30.2x more precise") == 0, "text: %s", buf);
	tl_search_ratio_text(buf, sizeof buf, 0.5, "sensitive", "x");
	ok(strcmp(buf, "2x less sensitive") == 0, "a ratio below 1 reads as less: %s", buf);
	tl_search_ratio_text(buf, sizeof buf, NAN, "precise", "x");
	ok(buf[0] == '\0', "no text for a missing ratio");
}

/* A node whose core speed steps by 4 % every 100 measurements (what a host
 * moving the clock under a steady TSC does): 0.3 ns per ADD, t_e 20 ns,
 * normal noise sd 2 ns. Half the chunks run at 1.00, half at 1.04, so the
 * chunk medians spread 0.02 / 1.02 = 1.96 % of their median (n-1 lifts it a
 * hair) and CV never falls below about 2 %: no t_min at eps 1 %, and the
 * note must say the level drifts, about 2 %. */
struct drifting {
	uint64_t calls;
	gsl_rng *rng;
};

static int drifting_measure(void *ctx, uint64_t adds, bool empty, size_t n, double *out_ns)
{
	struct drifting *d = ctx;

	for (size_t i = 0; i < n; i++, d->calls++) {
		double speed = (d->calls / 100) % 2 ? 1.04 : 1.0;
		out_ns[i] = 20.0 + (empty ? 0.0 : 0.3 * (double)adds * speed) +
			    gsl_ran_gaussian(d->rng, 2.0);
	}
	return 0;
}

static void test_drift_note(void)
{
	static const enum tl_search_method methods[] = {TL_SEARCH_FAST, TL_SEARCH_PAPER};

	for (size_t m = 0; m < 2; m++) {
		struct drifting d = {0, gsl_rng_alloc(gsl_rng_mt19937)};
		struct tl_search_io io = {drifting_measure, &d, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0};
		struct tl_search_params p;
		struct tl_search_result r;
		const char *name = methods[m] == TL_SEARCH_FAST ? "fast" : "paper";

		gsl_rng_set(d.rng, 1);
		tl_search_params_default(&p);
		p.method = methods[m];
		p.os = TL_OS_NONE;
		p.overhead_ns = 20.0;
		p.ns_per_add = 0.306;
		p.max_adds = 200000;
		p.p = 3;
		tl_search_tmin(&p, &io, &r);
		ok(!r.converged, "drifting node, %s: no t_min (%s)", name, r.note);
		ok(fabs(r.best_drift - 0.0196) < 0.002, "drifting node, %s: drift %.4f at the lowest CV ~ 0.0196",
		   name, r.best_drift);
		ok(strstr(r.note, "drifts") != NULL, "drifting node, %s: the note says the level drifts",
		   name);
		gsl_rng_free(d.rng);
	}
}

/* Measurement counts, not time: at q 20 Algorithm 2 needs few pairs per
 * step, so fast's t_diff must cost little to stay >= 100x cheaper (it once
 * cost a flat 4500 measurements and was only 16-25x cheaper there). Over
 * COST_SEEDS seeds of the two continuous-noise cases, tallied as in main. */
#define COST_SEEDS 5
#define COST_Q 20
static void test_tdiff_cost_small_q(void)
{
	static const struct {
		const char *name, *sim;
		double quantum;
	} cases[] = {
		{"normal sd 5", "sim:sd=5,quantum=0,spike_rate=0", 0.0},
		{"quantized 10 ns", "sim:sd=5,quantum=10,spike_rate=0", 10.0},
	};

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct tally t = {0};
		char name[96];

		for (unsigned seed = 1; seed <= COST_SEEDS; seed++) {
			struct rig r;
			struct pair paper, fast;
			char id[160];

			snprintf(id, sizeof id, "%s,seed=%u", cases[k].sim, seed);
			if (rig_open(&r, id, TL_OS_NONE) != 0) {
				ok(0, "open %s", id);
				continue;
			}
			r.p.q = COST_Q;
			r.p.resolution_ns = cases[k].quantum;
			r.p.seed = seed;
			search_both(&r, TL_SEARCH_PAPER, &paper);
			search_both(&r, TL_SEARCH_FAST, &fast);
			tally_add(&t, &paper, &fast, cases[k].quantum / C);
			tap_diag("q %d, %s, seed %u: paper %llu/%llu ADDs (%zu+%zu meas), fast %llu/%llu "
				 "(%zu+%zu meas)", COST_Q, cases[k].name, seed,
				 (unsigned long long)paper.tmin.adds, (unsigned long long)paper.tdiff.adds,
				 paper.tmin.measurements, paper.tdiff.measurements,
				 (unsigned long long)fast.tmin.adds, (unsigned long long)fast.tdiff.adds,
				 fast.tmin.measurements, fast.tdiff.measurements);
			rig_close(&r);
		}
		snprintf(name, sizeof name, "q %d, %s", COST_Q, cases[k].name);
		tally_check(name, &t, 0.5, FEWER);
	}
}

int main(void)
{
	test_defaults();
	test_engine();
	/* Every case over sim seeds 1..SEEDS: paper's answer is itself a random
	 * variable (its t_diff scatters by about 4 % over seeds), so agreement
	 * at one seed says little about fast's model. */
	struct tally ta = {0}, tb = {0}, tc = {0};

	for (unsigned seed = 1; seed <= SEEDS; seed++) {
		/* (a) normal tau, sd 5 ns, continuous clock, no spikes: sd(tau) = 5 */
		sim_case("normal sd 5", "sim:sd=5,quantum=0,spike_rate=0", TL_OS_NONE, 5.0, 5.0, 0.0,
			 seed, &ta);
		/* (b) the same read by a 10 ns clock at a random phase: the floor
		 * adds q^2 f(1-f) with f uniform, on average q^2/6, so
		 * sd = sqrt(25 + 100/6) */
		sim_case("quantized 10 ns", "sim:sd=5,quantum=10,spike_rate=0", TL_OS_NONE,
			 sqrt(25.0 + 100.0 / 6.0), 5.0, 10.0, seed, &tb);
		/* (c) plus 1 % spikes of 2 us. The IQR filter removes them (they
		 * sit 2000 ns above a core a few tens of ns wide) and nothing of
		 * the core, so (b)'s derivation holds. The paper's isolation
		 * forest is not used here: its beta search sometimes keeps a spike
		 * or trims the core, which no closed form describes. */
		sim_case("quantized + spikes, iqr",
			 "sim:sd=5,quantum=10,spike_rate=0.01,spike_ns=2000", TL_OS_IQR,
			 sqrt(25.0 + 100.0 / 6.0), 5.0, 10.0, seed, &tc);
	}
	tally_check("normal sd 5", &ta, 0.9, FEWER);
	tally_check("quantized 10 ns", &tb, 0.9, FEWER);
	tally_check("quantized + spikes, iqr", &tc, 0.9, FEWER);
	test_tdiff_cost_small_q();
	test_bound_stop_observer();
	test_observer();
	test_floor();
	test_floor_contradicted();
	test_bad_params();
	test_ratios();
	test_drift_note();
	return tap_done();
}
