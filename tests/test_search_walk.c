/* Fast t_diff's walk after a failing confirmation pair, over seeds.
 *
 * One pair can fail on a single reading far past the model (on the KVM
 * guest at 4xL1: overlap 0.997 at 138 ADDs, one slow reading in A0), and
 * a model refitted with that set jumped 3-4x (to 506 ADDs, where the
 * sibling repeats passed at 106 and 109). So once the model has predicted
 * a delta, a failing pair moves delta up by at most FAST_TDIFF_JUMP (1.5x)
 * of the delta that failed, and the next fresh pair decides. Checked on
 * every repeat that walked, over sim cases that make the first pair fail:
 * - every step above a failing delta is at most ceil(1.5 x) it (or the
 *   2 % walk when the model sits at or below it);
 * - a repeat that walked says so in its note ("confirmed k step(s)"),
 *   with k the failing points it walked past;
 * - at least one repeat over the cases walked, so the checks are not
 *   empty (printed: how many walked, and the largest step).
 * And where the model has no delta (it predicted 0), the refitted model
 * still leads, so the walk is not a ladder from 1 ADD: such repeats, when
 * any, end within the same number of evaluations. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/search_cell.h"
#include "stats/stats.h"
#include "tests/search_sim.h"
#include "tests/tap.h"

#define SEEDS 20
#define JUMP 1.5
#define WALK 0.02

struct walk_tally {
	unsigned repeats, walked, bad_step, bad_note;
	double largest_step;
};

/* The points of one t_diff repeat: a failing point (overlap > alpha)
 * followed by another must not be more than JUMP above it, once the
 * model predicted a delta of at least one ADD. */
static void check_repeat(const struct tl_search_rep *rep, double alpha, struct walk_tally *t)
{
	const struct tl_search_points *pts = &rep->points[TL_SEARCH_TDIFF];
	unsigned failed = 0;

	if (!rep->done_tdiff || pts->n == 0)
		return;
	t->repeats++;
	for (size_t i = 0; i + 1 < pts->n; i++) {
		double d = pts->xy[i][0], next = pts->xy[i + 1][0];

		if (!(pts->xy[i][1] > alpha))
			continue;
		failed++;
		t->largest_step = fmax(t->largest_step, next / d);
		if (rep->tdiff.predicted_adds >= 1 &&
		    next > fmax(ceil(JUMP * d), d + fmax(ceil(WALK * d), 1)))
			t->bad_step++;
	}
	if (failed) {
		char want[64];

		t->walked++;
		snprintf(want, sizeof want, "confirmed %u step(s) above", failed);
		if (rep->tdiff.converged && !strstr(rep->tdiff.note, want))
			t->bad_note++;
	}
}

static void run_case(const char *sim, enum tl_os_method os, struct walk_tally *t)
{
	for (unsigned seed = 1; seed <= SEEDS; seed++) {
		struct tl_search_plan plan;
		struct tl_search_cell *cells;

		search_sim_plan(&plan, sim, seed, TL_SEARCH_FAST, TL_TDIFF_INTERLEAVED, os, 300, 10, 20);
		cells = tl_search_cells_new(&plan);
		tl_search_run(&plan, cells, NULL);
		for (unsigned r = 0; r < cells[0].nrep; r++)
			check_repeat(&cells[0].rep[r], plan.sp.alpha, t);
		tl_search_cells_free(cells, 1);
		tl_search_plan_free(&plan);
	}
}

int main(void)
{
	static const struct {
		const char *sim;
		enum tl_os_method os;
	} cases[] = {
		/* a coarse clock: pairs fail on the grid */
		{"sim:ns_per_add=1,overhead=60,sd=1,quantum=10,spike_rate=0", TL_OS_NONE},
		/* the filter trims the core, and the model starts low */
		{"sim:ns_per_add=1,overhead=60,sd=8,quantum=0,spike_rate=0", TL_OS_IFOREST},
		/* slow readings in most blocks: the tail is the timer's own and stays */
		{"sim:ns_per_add=1,overhead=60,sd=2,quantum=0,spike_rate=0.01,spike_ns=60", TL_OS_NONE},
	};
	struct walk_tally all = {0};

	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct walk_tally t = {0};

		run_case(cases[c].sim, cases[c].os, &t);
		tap_diag("%s (%s): %u of %u repeats walked, largest step %.2fx", cases[c].sim,
			 stats_os_method_name(cases[c].os), t.walked, t.repeats, t.largest_step);
		all.repeats += t.repeats;
		all.walked += t.walked;
		all.bad_step += t.bad_step;
		all.bad_note += t.bad_note;
		all.largest_step = fmax(all.largest_step, t.largest_step);
	}
	ok(all.walked > 0, "%u of %u t_diff repeats walked past a failing pair", all.walked, all.repeats);
	ok(all.bad_step == 0,
	   "no step after a failing pair is more than %.1fx it once the model predicted a delta (%u "
	   "were; largest step %.2fx)", JUMP, all.bad_step, all.largest_step);
	ok(all.bad_note == 0, "every repeat that walked says how many steps (%u did not)", all.bad_note);
	return tap_done();
}
