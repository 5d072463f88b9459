/* A cell's t_diff repeats start from one A0: the median of where each
 * would start on its own (its t_min here), as distributions over seeds.
 *
 * On the sim with drift (backends/sim.c: the level wanders by 4 % between
 * stretches of 300 readings) and t_diff in the paper's order, each
 * repeat's t_min sees the level at another moment, so the repeats' t_min
 * differ; A0 and A1 are measured one after the other, so t_diff grows
 * with A0 (the two sets sit about r t apart). Started from its own t_min,
 * each repeat's t_diff inherits the scatter of the t_min; from one A0 it
 * keeps only its own. Over SEEDS seeds, three repeats each, this checks:
 * - every t_diff repeat's note names the same A0, and that A0 is the
 *   median of the cell's three t_min (read off the repeats here);
 * - the t_diff repeats' spread (largest / smallest) is smaller from one
 *   A0 than from each repeat's own t_min: its median over seeds, and the
 *   seeds within 2x are at least as many;
 * - on a steady sim the one A0 costs no coverage: the t_diff interval
 *   covers the closed form (stats/sim_derived.h) in at least 80 % of
 *   seeds, as the drift test asks of it.
 * The t_diff measurements of both ways are printed (from one A0 the
 * repeats whose t_min is not the median measure a set at A0 anew). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/search_cell.h"
#include "stats/sim_derived.h"
#include "stats/stats.h"
#include "tests/search_sim.h"
#include "tests/tap.h"

#define N 300
#define P 10
#define Q 20
#define SD 8.0
#define SEEDS 12

struct tally {
	double spread[SEEDS];  /* largest / smallest t_diff repeat (inf: one missing) */
	double meas[SEEDS];    /* t_diff measurements, all repeats */
	unsigned within2x, same_a0, covered, runs;
};

static double median3(double a, double b, double c)
{
	return fmax(fmin(a, b), fmin(fmax(a, b), c));
}

static void one_seed(const char *sim, enum tl_tdiff_order order, bool own, unsigned seed,
		     struct tally *t)
{
	struct tl_search_plan plan;
	struct tl_search_cell *cells;
	double lo = INFINITY, hi = 0, tmin[3];
	unsigned found = 0, tmins = 0, named = 0;
	double want = sim_tdiff_derived(SD, 0, N, Q, 1.0);

	search_sim_plan(&plan, sim, seed, TL_SEARCH_FAST, order, TL_OS_NONE, N, P, Q);
	plan.own_a0 = own;
	cells = tl_search_cells_new(&plan);
	tl_search_run(&plan, cells, NULL);
	for (unsigned r = 0; r < cells[0].nrep && r < 3; r++) {
		const struct tl_search_rep *rep = &cells[0].rep[r];

		if (rep->tmin.converged)
			tmin[tmins++] = (double)rep->tmin.adds;
		if (rep->tdiff.converged) {
			lo = fmin(lo, (double)rep->tdiff.adds);
			hi = fmax(hi, (double)rep->tdiff.adds);
			found++;
		}
		t->meas[t->runs] += (double)rep->tdiff.measurements;
	}
	/* the notes name one A0, and in the paper's order it is the median t_min */
	const char *a = strstr(cells[0].rep[0].tdiff.note, "A0 = median of 3 repeats'");
	char first[96] = "";

	if (a)
		snprintf(first, sizeof first, "%.*s", (int)strcspn(a, ";"), a);
	for (unsigned r = 0; r < 3 && first[0]; r++)
		named += strstr(cells[0].rep[r].tdiff.note, first) != NULL;
	if (order == TL_TDIFF_PAPER && tmins == 3) {
		char want_note[96];

		snprintf(want_note, sizeof want_note, "A0 = median of 3 repeats' t_min, %.0f ADDs",
			 median3(tmin[0], tmin[1], tmin[2]));
		named = strcmp(first, want_note) == 0 ? named : 0;
	}
	t->same_a0 += named == 3;
	t->spread[t->runs] = found == 3 && lo > 0 ? hi / lo : INFINITY;
	t->within2x += found == 3 && hi <= 2 * lo;
	t->covered += cells[0].tdiff.found >= 2 && cells[0].tdiff.lo <= want && want <= cells[0].tdiff.hi;
	if (getenv("TL_A0_VERBOSE"))
		tap_diag("%s %s seed %u: t_min %.0f/%.0f/%.0f, t_diff %.0f..%.0f (%u found), %.0f "
			 "measurements; note: %s",
			 own ? "own A0" : "one A0", tl_tdiff_order_name(order), seed, tmins > 0 ? tmin[0] : NAN,
			 tmins > 1 ? tmin[1] : NAN, tmins > 2 ? tmin[2] : NAN, lo, hi, found,
			 t->meas[t->runs], cells[0].rep[0].tdiff.note);
	t->runs++;
	tl_search_cells_free(cells, 1);
	tl_search_plan_free(&plan);
}

static void run(const char *sim, enum tl_tdiff_order order, bool own, struct tally *t)
{
	memset(t, 0, sizeof *t);
	for (unsigned seed = 1; seed <= SEEDS; seed++)
		one_seed(sim, order, own, seed, t);
}

int main(void)
{
	static const char drifting[] =
		"sim:ns_per_add=1,overhead=60,sd=8,quantum=0,spike_rate=0,drift=0.04,drift_every=300";
	static const char steady[] = "sim:ns_per_add=1,overhead=60,sd=8,quantum=0,spike_rate=0";
	struct tally one, own, st;

	run(drifting, TL_TDIFF_PAPER, false, &one);
	run(drifting, TL_TDIFF_PAPER, true, &own);
	double s1 = stats_median(one.spread, SEEDS), s0 = stats_median(own.spread, SEEDS);

	ok(one.same_a0 == SEEDS,
	   "drift 4 %%: in %u of %d seeds every t_diff repeat names one A0, the median of the cell's "
	   "3 t_min", one.same_a0, SEEDS);
	ok(s1 < s0 && one.within2x >= own.within2x,
	   "drift 4 %%, paper's order: the t_diff repeats' spread is smaller from one A0 (median "
	   "%.2fx, within 2x in %u of %d seeds) than from each repeat's own t_min (%.2fx, %u)",
	   s1, one.within2x, SEEDS, s0, own.within2x);
	tap_diag("t_diff measurements, median over seeds: %.0f from one A0, %.0f from each own t_min",
		 stats_median(one.meas, SEEDS), stats_median(own.meas, SEEDS));

	run(steady, TL_TDIFF_INTERLEAVED, false, &st);
	ok(st.covered >= 0.8 * SEEDS,
	   "drift 0: from one A0 t_diff's interval covers the analytic answer in %u of %d seeds",
	   st.covered, SEEDS);
	ok(st.same_a0 == SEEDS, "drift 0: every t_diff repeat names the one A0 in %u of %d seeds",
	   st.same_a0, SEEDS);
	return tap_done();
}
