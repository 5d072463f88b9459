/* What a search's answer may claim, from repeats written
 * by hand so every case is known: tl_search_stat_status decides, and the
 * texts every face prints follow it. A 95 % interval only when every
 * planned repeat found the answer and they agree; "found in k of n", a
 * bound, "unstable" or "so far" otherwise; a ratio names the bound it rests
 * on; the notes' words follow the numbers. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench/search_cell.h"
#include "tests/tap.h"

static const char *const ids[] = {"sim:sd=5", "sim:sd=20"};
static const char *const fl_names[] = {"0"};
static const uint64_t fl[] = {0};

/* repeat r of backend b: t_min found at adds (0: none below bound, its
 * lowest CV cv) */
static void put(struct tl_search_cell *c, unsigned r, uint64_t adds, uint64_t bound, double cv)
{
	struct tl_search_rep *rep = &c->rep[r];

	memset(rep, 0, sizeof *rep);
	rep->ran = rep->done_tmin = true;
	rep->ns_per_add = 1;
	rep->resolution_ns = 0.001;
	rep->tmin.converged = adds > 0;
	rep->tmin.adds = adds;
	rep->tmin.ns = (double)adds;
	rep->tmin.bound_adds = adds ? 0 : bound;
	rep->tmin.best_cv = cv;
	rep->tmin.best_drift = NAN;
}

static struct tl_search_cell *cells_for(struct tl_search_plan *p)
{
	tl_search_plan_default(p);
	p->want_tdiff = false;
	tl_search_plan_set(p, ids, 2, fl_names, fl, 1);
	p->ref = 1;
	return tl_search_cells_new(p);
}

static void done(struct tl_search_cell *cells, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		cells[i].state = TL_CELL_DONE;
		cells[i].reps_done = 3;
	}
}

/* Three t_diff repeats that all said 32 ADDs (the CLI's fast search on
 * sim sd 8, n 2000, q 20): a 95 % interval, never the point
 * [31.9999, 32.0001] it was. The floor on the log-sd (search_summary.c),
 * by hand with Python's statistics.NormalDist: whole ADDs round by
 * 1/(sqrt 12 x 32) = 0.009021; fast's pool of 2 x 1000 readings (t_min's
 * evaluation of 2000 in halves) adds
 * hypot(z_m/sqrt(4000), sqrt(0.05 x 0.95/2000)/phi(z_a))/(z_m - z_a) =
 * 0.013956 (z_m = Phi^-1(0.5^(1/40000)) = 4.1405, z_a = -1.6449), in all
 * 0.016618. With t(0.975, 2) = 4.3027 over sqrt 3 and the clock's step
 * (0.001 ADD) on each side: fast [30.7049, 33.3496], paper (rounding
 * only) [31.2899, 32.7262]. */
static void tdiff_agreeing(void)
{
	for (int m = 0; m < 2; m++) {
		struct tl_search_plan p;
		struct tl_search_cell *c = cells_for(&p);
		double lo = m ? 31.2899 : 30.7049, hi = m ? 32.7262 : 33.3496;

		p.want_tdiff = true;
		p.sp.method = m ? TL_SEARCH_PAPER : TL_SEARCH_FAST;
		p.sp.n = 2000;
		p.sp.q = 20;
		for (unsigned r = 0; r < 3; r++) {
			put(&c[0], r, 800, 0, 0.009);
			put(&c[1], r, 800, 0, 0.009);
			c[0].rep[r].done_tdiff = true;
			c[0].rep[r].tdiff.converged = true;
			c[0].rep[r].tdiff.adds = 32;
			c[0].rep[r].tdiff.ns = 32;
		}
		done(c, 2);
		tl_search_summarise(&p, c);
		ok(c[0].tdiff.status == TL_STATUS_INTERVAL && fabs(c[0].tdiff.lo - lo) < 1e-3 &&
			   fabs(c[0].tdiff.hi - hi) < 1e-3,
		   "%s t_diff 32, 32, 32: interval [%.4f, %.4f], by hand [%.4f, %.4f]",
		   tl_search_method_name(p.sp.method), c[0].tdiff.lo, c[0].tdiff.hi, lo, hi);
		tl_search_cells_free(c, 2);
		tl_search_plan_free(&p);
	}
}

/* Three t_diff repeats that disagree, each with what it judged on (its
 * pool's robust sd and slowest kept reading, in sds): the reason names
 * the one that moved, with the numbers, the spread first; neither known
 * (a file from before, or paper's method): the general reason. The
 * cases are the KVM guest's: barrier-tsc at 4xL2 (spread 113, 538, 500
 * ns) and at 4xL1 (tops 14, 13, 38 sds on a steady spread). */
static void tdiff_why(void)
{
	static const struct {
		double sd[3], top[3];
		const char *says;
	} cases[] = {
		{{113, 538, 500}, {12.8, 10.5, 11.7}, "the spread at A0 moved 113..538 ns between repeats (4.8x): "},
		{{403, 47.9, 290}, {1.7, 6.7, 4.4}, "moved 47.9..403 ns between repeats (8.4x) and its slowest kept reading 2..7 sds"},
		{{0.93, 0.95, 1.05}, {14.3, 13.0, 38.0}, "the slowest reading kept at A0 lay 13..38 sds"},
		{{0.93, 0.95, 1.05}, {14.3, 13.0, 15.0}, "rests on the slowest of q x n readings"},
		{{1.37, 1.36, 1.31}, {3.6, 2.2, 4.7}, "rests on the slowest of q x n readings"},
		{{0, 0, 0}, {0, 0, 0}, "rests on the slowest of q x n readings"},
	};
	static const uint64_t adds[3] = {45, 41, 127};

	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct tl_search_plan p;
		struct tl_search_cell *c = cells_for(&p);

		p.want_tdiff = true;
		for (unsigned r = 0; r < 3; r++) {
			struct tl_search_result *t = &c[0].rep[r].tdiff;

			put(&c[0], r, 800, 0, 0.009);
			put(&c[1], r, 800, 0, 0.009);
			c[0].rep[r].done_tdiff = true;
			t->converged = true;
			t->adds = adds[r];
			t->ns = (double)adds[r];
			t->order = TL_TDIFF_INTERLEAVED;
			t->a0_sd_ns = cases[k].sd[r];
			t->a0_top_sds = cases[k].top[r];
		}
		done(c, 2);
		tl_search_summarise(&p, c);
		ok(c[0].tdiff.unstable && strstr(c[0].tdiff.why, cases[k].says) != NULL,
		   "t_diff 45, 41, 127 with spreads %g/%g/%g ns, tops %g/%g/%g sds: says '%s' ('%s')",
		   cases[k].sd[0], cases[k].sd[1], cases[k].sd[2], cases[k].top[0], cases[k].top[1],
		   cases[k].top[2], cases[k].says, c[0].tdiff.why);
		tl_search_cells_free(c, 2);
		tl_search_plan_free(&p);
	}
}

int main(void)
{
	struct tl_search_plan p;
	struct tl_search_cell *c = cells_for(&p);
	char text[400];

	ok(p.repeats == 3, "3 repeats planned (the default)");
	/* backend 0: three agreeing answers; backend 1 (the reference): found
	 * in 1 of 3, the other two saw nothing below 45776 ADDs */
	put(&c[0], 0, 2861, 0, 0.009);
	put(&c[0], 1, 2900, 0, 0.009);
	put(&c[0], 2, 2830, 0, 0.009);
	put(&c[1], 0, 12791, 0, 0.009);
	put(&c[1], 1, 0, 45776, 0.48);
	put(&c[1], 2, 0, 46000, 0.50);
	done(c, 2);
	tl_search_summarise(&p, c);

	ok(c[0].tmin.status == TL_STATUS_INTERVAL, "3 of 3 found, within 10 %%: a 95 %% interval");
	tl_search_stat_text(text, sizeof text, &c[0].tmin);
	ok(c[0].tmin.lo <= 2830 && c[0].tmin.hi >= 2900 && c[0].tmin.hi < 1.2 * 2900,
	   "agreeing repeats: an interval as narrow as their spread ('%s')", text);
	ok(c[1].tmin.status == TL_STATUS_PARTIAL, "1 of 3 found: no interval (%s)",
	   tl_search_status_name(c[1].tmin.status));
	tl_search_stat_text(text, sizeof text, &c[1].tmin);
	ok(strcmp(text, "found in 1 of 3") == 0, "its text: '%s'", text);
	tl_search_stat_brief(text, sizeof text, &c[1].tmin);
	ok(strcmp(text, "1 of 3 found") == 0, "its brief text: '%s'", text);

	/* the ratio: the reference has a bound, and says which */
	ok(c[0].ratio_tmin.rel == '>' && fabs(c[0].ratio_tmin.value - 45776.0 / 2861) < 1e-9,
	   "ratio is a bound: >= %.3g", c[0].ratio_tmin.value);
	tl_search_ratio_short(text, sizeof text, &c[0].ratio_tmin);
	ok(strstr(text, ">=16") && strstr(text, "ref > 4.58e+04 ns"), "column shows the bound: '%s'",
	   text);
	tl_search_ratio_describe(text, sizeof text, &c[0].ratio_tmin, "precise", "x");
	ok(strstr(text, "none below 45776 ADDs") && strstr(text, "2 of 3 repeats") &&
		   strstr(text, "1 found 12791"),
	   "the sentence names the bound and what it rests on: '%s'", text);

	/* the note's words follow the number: 48 % is not close to 1 % */
	ok(c[1].tmin.unstable && !strstr(c[1].tmin.why, "close to eps") &&
		   strstr(c[1].tmin.why, "48 %"),
	   "a CV floor of 48 %% is not 'close to eps': '%s'", c[1].tmin.why);

	/* disagreeing repeats: unstable, their span, no interval */
	put(&c[0], 2, 4000, 0, 0.009);
	tl_search_summarise(&p, c);
	tl_search_stat_text(text, sizeof text, &c[0].tmin);
	ok(c[0].tmin.status == TL_STATUS_UNSTABLE && strcmp(text, "unstable: 2861..4000") == 0,
	   "2861..4000: unstable, '%s'", text);

	/* while repeats are to come: provisional, never an interval */
	put(&c[0], 2, 2830, 0, 0.009);
	c[0].rep[2].ran = false;
	c[0].state = TL_CELL_WAITING;
	c[0].reps_done = 2;
	tl_search_summarise(&p, c);
	tl_search_stat_text(text, sizeof text, &c[0].tmin);
	ok(c[0].tmin.provisional && c[0].tmin.status != TL_STATUS_INTERVAL &&
		   strcmp(text, "so far, 2 of 3 ran") == 0,
	   "2 of 3 repeats done: provisional, '%s'", text);
	ok(!c[0].ratio_tmin.interval, "and the ratio has no interval either");

	tl_search_cells_free(c, 2);
	tl_search_plan_free(&p);
	tdiff_agreeing();
	tdiff_why();
	return tap_done();
}
