/* The compare engine (io/run_compare.c: filter_cost, the shift and its
 * interval, verdict) end to end on sim runs with known shifts, over 100
 * seeds each: two independent sim streams of one model, the
 * second with ns_per_add raised so add:K moves by a known number of ns.
 *
 * sigma is sim's sd (2 ns; its clock step, 0.05 ns, adds 0.005 % to the
 * variance and keeps the intervals' ends off a coarse lattice). The no-shift
 * runs use compare's default band (1 % of the median); the shifted ones a
 * band of 0, so "different" means the interval excludes 0 (a 1 % band
 * rightly calls these sub-ns shifts "same").
 *
 * What a shift is measured against: the engine compares each side less its
 * own t_e,std, the median of an empty baseline of n samples, so the
 * standard error of the shift is
 *   SE = sigma sqrt((pi/3) (2/n) + 2 (pi/2)/n)
 * (Hodges-Lehmann's variance is pi/3 that of a mean difference on normal
 * data, a median's pi/2 that of a mean). On this 0.05 ns clock ties are
 * common at n = 200, so the engine reads the shift as a difference of
 * means less the baselines' means (the rule for ties), whose SE is smaller: the
 * rates below are then lower bounds, still asserted as they were. The rate asserted at >= 95 % is for
 * 4 SE. The naive 4 sigma/sqrt(n) is 1.75 SE here (~40 % expected at
 * alpha 0.05: it ignores both the factor 2 of two samples and the two
 * subtracted medians); its rate is printed, with a bound that only says the
 * shift is seen at all (>= 20 %). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/runner.h"
#include "io/run_compare.h"
#include "tests/tap.h"

enum { SEEDS = 100, N = 200, K = 1000 };
#define SD 2.0

static int sim_run(unsigned long sim_seed, double ns_per_add, uint64_t seed, struct tl_run *run)
{
	static const uint64_t flush[] = { 0 };
	struct tl_kernel k = { .kind = TL_KERNEL_ADD, .k = K };
	char id[128], why[512];
	const char *ids[] = { id };

	snprintf(k.label, sizeof k.label, "add:%d", K);
	snprintf(id, sizeof id, "sim:sd=%g,quantum=0.05,spike_rate=0,ns_per_add=%.17g,seed=%lu", SD,
		 ns_per_add, sim_seed);
	struct tl_run_config cfg = { .backends = ids, .nbackends = 1, .flush_bytes = flush,
				     .nflush = 1, .kernels = &k, .nkernels = 1, .n = N,
				     .cpu = -1, .seed = seed };
	if (tl_run_prepare(run, &cfg, why, sizeof why) || tl_run_execute(run, NULL, NULL, why,
									 sizeof why) < 0) {
		tap_diag("sim run: %s", why);
		return -1;
	}
	/* One model, two streams: the engine matches cells by id. */
	snprintf(run->timers[0].id, sizeof run->timers[0].id, "sim");
	return 0;
}

struct rates {
	int verdict[3], cover, rows;
};

static void rate(double shift, double band_pct, int s, struct rates *r)
{
	struct tl_run a, b;
	struct tl_run_compare rc;

	if (sim_run(1000 + (unsigned long)s, 0.3, (uint64_t)s, &a) ||
	    sim_run(5000 + (unsigned long)s, 0.3 + shift / K, (uint64_t)s + 77, &b))
		return;
	if (tl_runs_compare(&a, &b, band_pct, (uint64_t)s, true, &rc) == 0 &&
	    rc.nrows == 1) {
		const struct tl_comparison *c = &rc.rows[0].cmp;

		r->rows++;
		r->verdict[c->verdict]++;
		r->cover += c->lo <= shift && shift <= c->hi;
	}
	tl_run_compare_free(&rc);
	tl_run_free(&a);
	tl_run_free(&b);
}

/* Shifts in fixed notation, zero as 0, never "-0.00" (a sign on nothing
 * reads as a shift). */
static void test_shift_text(void)
{
	static const struct {
		double v;
		const char *want;
	} t[] = { { 2.4199, "2.42" }, { -10.02, "-10.02" }, { -2.24e-06, "0" }, { -0.004, "0" },
		  { 0, "0" }, { -0.0, "0" }, { 1234.5, "1234.50" }, { NAN, "-" } };
	char buf[32];

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		tl_shift_text(t[i].v, buf, sizeof buf);
		ok(strcmp(buf, t[i].want) == 0, "shift %g prints as '%s' (got '%s')", t[i].v, t[i].want,
		   buf);
	}
}

int main(void)
{
	const double se = SD * sqrt(M_PI / 3 * 2.0 / N + 2 * M_PI / 2 / N);
	const double shifts[] = { 0, 4 * SD / sqrt(N), 4 * se };
	struct rates r[3];

	test_shift_text();
	memset(r, 0, sizeof r);
	for (int s = 0; s < SEEDS; s++)
		for (int i = 0; i < 3; i++)
			rate(shifts[i], i ? 0 : TL_COMPARE_DEFAULT_THRESHOLD_PCT, s, &r[i]);
	for (int i = 0; i < 3; i++)
		tap_diag("shift %.3f ns (n = %d a side, sigma %g): same %d, different %d, unknown %d; "
			 "interval covers the shift %d of %d",
			 shifts[i], N, SD, r[i].verdict[TL_VERDICT_SAME], r[i].verdict[TL_VERDICT_DIFFERENT],
			 r[i].verdict[TL_VERDICT_UNKNOWN], r[i].cover, r[i].rows);
	ok(r[0].rows == SEEDS && r[1].rows == SEEDS && r[2].rows == SEEDS, "every seed compared");
	ok(r[0].verdict[TL_VERDICT_SAME] >= 95, "no shift: same in >= 95 of 100 seeds (%d)",
	   r[0].verdict[TL_VERDICT_SAME]);
	ok(r[2].verdict[TL_VERDICT_DIFFERENT] >= 95,
	   "shift 4 SE (%.3f ns): different in >= 95 of 100 seeds (%d)", shifts[2],
	   r[2].verdict[TL_VERDICT_DIFFERENT]);
	ok(r[1].verdict[TL_VERDICT_DIFFERENT] >= 20,
	   "shift 4 sigma/sqrt(n) (1.75 SE, ~40 %% expected): different in >= 20 (%d)",
	   r[1].verdict[TL_VERDICT_DIFFERENT]);
	for (int i = 0; i < 3; i++)
		ok(r[i].cover >= 90, "shift %.3f ns: the interval covers it in >= 90 of 100 seeds (%d)",
		   shifts[i], r[i].cover);
	return tap_done();
}
