/* stats/kernels.c: the chain fit and the ladder's step function against
 * values computed with numpy (/usr/bin/python3, numbers quoted beside each
 * check: np.polyfit, log-latency level means, the least-squares single
 * step) and by hand. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "stats/kernels.h"
#include "tests/tap.h"

#define KIB 1024.0
#define MIB (1024.0 * 1024.0)

static void test_chain(void)
{
	const double k[] = { 0, 1000, 2000, 3000, 4000, 5000 };
	const double ns[] = { 21, 3018, 6025, 9012, 12030, 15019 };
	struct tl_chain_fit f;

	ok(stats_chain_fit(k, ns, 6, 0.25, &f) == 0, "chain fit of 6 points");
	/* np.polyfit(k, ns, 1) -> 3.0003714285714276, 19.904761904762548;
	 * R^2 0.9999988039861915; 3.00037 / 0.25 = 12.00148571428571 */
	is_near(f.ns_per_op, 3.0003714285714276, 1e-9, "slope (numpy 3.0003714285714276)");
	is_near(f.intercept, 19.904761904762548, 1e-6, "intercept (numpy 19.9047619)");
	is_near(f.r2, 0.9999988039861915, 1e-12, "R^2 (numpy 0.9999988039861915)");
	is_near(f.cycles, 12.00148571428571, 1e-8, "cycles = slope / ns per ADD");
	ok(f.linear, "R^2 >= 0.999: linear");
	ok(!f.plausible, "12 cycles is outside 2..6: not plausible");

	ok(stats_chain_fit(k, ns, 6, 1.0, &f) == 0 && f.plausible && fabs(f.cycles - 3.0004) < 1e-3,
	   "at 1 ns per ADD the same chain is 3.0 cycles: plausible");
	ok(stats_chain_fit(k, ns, 6, NAN, &f) == 0 && isnan(f.cycles) && f.plausible,
	   "without ADDs: no cycles, nothing to judge");

	ok(stats_chain_fit(k + 3, ns + 3, 1, 1.0, &f) == 0 && fabs(f.ns_per_op - 3.004) < 1e-12 &&
		   isnan(f.r2) && f.linear,
	   "one K: ns per op = median / K = 9012 / 3000, no R^2");
	ok(stats_chain_fit(k + 1, ns + 1, 2, 1.0, &f) == 0 && isnan(f.r2),
	   "two points always fit a line: no R^2");
	{
		const double bent[] = { 0, 1000, 2000, 6000, 4000, 5000 };
		const double kb[] = { 0, 1000, 2000, 3000, 4000, 5000 };
		ok(stats_chain_fit(kb, bent, 6, 0.25, &f) == 0 && !f.linear,
		   "a bent chain is not linear (R^2 %.4f)", f.r2);
	}
	ok(stats_chain_fit(k, ns, 1, 1.0, &f) == -1, "K = 0 alone: nothing to fit");
}

static void test_ladder(void)
{
	const double b[] = { 4 * KIB, 16 * KIB, 32 * KIB, 64 * KIB, 256 * KIB, 1 * MIB,
			     4 * MIB, 16 * MIB, 64 * MIB };
	const double y[] = { 1.1, 1.0, 1.2, 4.0, 4.4, 4.2, 40, 44, 150 };
	const double ends[] = { 48 * KIB, 1 * MIB, 32 * MIB };
	struct tl_ladder_fit f;
	int want_level[] = { 0, 0, 0, 1, 1, 1, 2, 2, 3 }, same = 0;

	ok(stats_ladder_fit(b, y, 9, ends, 3, &f) == 0, "ladder of 9 sizes over L1d/L2/L3/memory");
	for (int i = 0; i < 9; i++)
		same += f.level[i] == want_level[i];
	is_int(same, 9, "levels: a size <= a cache's end is in it (1MiB is L2's)");
	/* numpy: 1 - SS(log y - level mean)/SS(log y - mean) = 0.9990439297110495 */
	is_near(f.r2, 0.9990439297110495, 1e-12, "step R^2 of log latency (numpy 0.99904393)");
	is_near(f.mean_ns[0], 1.0969613104865237, 1e-12, "L1 geometric mean (numpy 1.09696)");
	is_near(f.mean_ns[1], 4.196822994249071, 1e-12, "L2 geometric mean (numpy 4.19682)");
	is_near(f.mean_ns[2], 41.952353926806055, 1e-12, "L3 geometric mean (numpy 41.9524)");
	is_near(f.mean_ns[3], 150, 1e-9, "memory: its one point");
	ok(f.flat && f.monotone && f.worse_level == -1, "flat and non-decreasing");
	is_int(f.nsteps, 3, "three steps");
	ok(f.topo_cut[0] == 3 && f.topo_cut[1] == 6 && f.topo_cut[2] == 8, "topology cuts 3, 6, 8");
	ok(f.cut[0] == 3 && f.cut[1] == 6 && f.cut[2] == 8, "fitted steps where the caches end");
	/* numpy: exp(mean log above - mean log below) at each step */
	is_near(f.step_ratio[0], 3.8258623655447783, 1e-12, "L1->L2 step 3.8259x (numpy)");
	is_near(f.step_ratio[1], 9.996217134793051, 1e-12, "L2->L3 step 9.9962x (numpy)");
	is_near(f.step_ratio[2], 3.5754847096709708, 1e-12, "L3->memory step 3.5755x (numpy)");
}

/* A VM that says L2 ends at 1MiB while the latency steps at 4MiB. */
static void test_misplaced_step(void)
{
	const double b[] = { 16 * KIB, 64 * KIB, 256 * KIB, 1 * MIB, 2 * MIB, 4 * MIB, 8 * MIB };
	const double y[] = { 1, 4, 4, 4, 4, 30, 30 };
	const double ends[] = { 48 * KIB, 1 * MIB };
	struct tl_ladder_fit f;

	ok(stats_ladder_fit(b, y, 7, ends, 2, &f) == 0, "ladder with a late step");
	is_near(f.r2, 0.7007072396367962, 1e-12, "R^2 0.7007 (numpy): not flat");
	ok(!f.flat && f.monotone, "not flat, still non-decreasing");
	ok(f.cut[0] == 1 && f.topo_cut[1] == 4 && f.cut[1] == 5,
	   "L1 step at 64KiB as the topology says; the L2 step at 4MiB (point 5), not 2MiB (4)");
	is_near(f.step_ratio[1], 7.5, 1e-12, "that step is 30 / 4 = 7.5x (by hand)");
}

/* The Zen 5 guest with its measured L3 (4MiB): one big jump between 2 and
 * 4MiB. Placed one at a time, both steps took it (and the L3 one was said
 * to be "not at L3's end 4MiB"); placed together, the L3 step is the small
 * rise into memory, which is under TL_LADDER_MIN_STEP. */
static void test_one_jump_two_steps(void)
{
	const double b[] = { 1 * MIB, 2 * MIB, 4 * MIB, 8 * MIB, 16 * MIB };
	const double y[] = { 29.9, 30.2, 131, 143, 159 };
	const double ends[] = { 1 * MIB, 4 * MIB };
	struct tl_ladder_fit f;

	ok(stats_ladder_fit(b, y, 5, ends, 2, &f) == 0, "ladder with one jump and two cache ends");
	ok(f.topo_cut[0] == 1 && f.topo_cut[1] == 3, "topology cuts 1 (2MiB), 3 (8MiB)");
	/* by hand (python): SSE of log latency over c0 in 1..2, c1 in c0+1..4 is
	 * least at (2, 4), 0.0038909 */
	ok(f.cut[0] == 2 && f.cut[1] == 4, "the steps at 4MiB and 16MiB, never both at one point");
	is_near(f.step_ratio[0], 4.554750591562496, 1e-12, "the jump: sqrt(131*143)/sqrt(29.9*30.2)");
	is_near(f.step_ratio[1], 1.161698578024785, 1e-12, "the rest: 159/sqrt(131*143), no step");
}

static void test_rules(void)
{
	const double b[] = { 16 * KIB, 32 * KIB, 64 * KIB, 128 * KIB };
	const double down[] = { 1, 1, 0.5, 0.5 }, same[] = { 1, 1, 1, 1 };
	const double ends[] = { 48 * KIB };
	const double unsorted[] = { 32 * KIB, 16 * KIB, 64 * KIB, 128 * KIB };
	struct tl_ladder_fit f;

	ok(stats_ladder_fit(b, down, 4, ends, 1, &f) == 0 && !f.monotone && f.worse_level == 1,
	   "a level faster than the one before: not monotone, level 1 named");
	ok(stats_ladder_fit(b, same, 4, ends, 1, &f) == 0 && f.step_ratio[0] == 1.0,
	   "no step: ratio 1");
	ok(stats_ladder_fit(unsorted, same, 4, ends, 1, &f) == -1, "sizes not ascending refused");
	ok(stats_ladder_fit(b, same, 0, ends, 1, &f) == -1, "no points refused");
	is_int(stats_ladder_level(48 * KIB, ends, 1), 0, "a size equal to a cache is in it");
	is_int(stats_ladder_level(48 * KIB + 64, ends, 1), 1, "one line more is beyond it");
	ok(stats_ladder_fit(b, same, 4, NULL, 0, &f) == 0 && f.nlevels == 1 && f.nsteps == 0,
	   "no caches known: one level, no steps");
}

int main(void)
{
	test_chain();
	test_ladder();
	test_one_jump_two_steps();
	test_misplaced_step();
	test_rules();
	return tap_done();
}
