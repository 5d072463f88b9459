/* The ETA a search shows (tl_search_eta_update) on a simulated session:
 * two backends at four flushes, three repeats, each repeat of a cell
 * taking 20000 measurements (scattered by a log-normal factor of sd 0.3)
 * of its flush's cost plus 20 us (scattered by sd 0.2): 0.4 s at flush 0
 * up to 12 s at the largest, or the share of the budget the engine gives
 * it, whichever is less, visited in the engine's seeded order. After the first tenth of the work the end it
 * predicts (elapsed + ETA) must stay within 30 % of when the session
 * really ends, on most seeds; the old ETA (elapsed / repeats done x
 * repeats left) is measured beside it and only printed. Also: the ETA
 * never promises more than the budget leaves. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench/search_cell.h"
#include "tests/tap.h"

#define NB 2
#define NF 4
#define SEEDS 20
#define TICK_S 0.25

static double uniform(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return ((double)(*s >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(uint64_t *s)
{
	return sqrt(-2 * log(uniform(s))) * cos(2 * M_PI * uniform(s));
}

struct worst {
	double now, old;  /* largest |predicted end - real end| / real end */
	double over_cap;  /* largest ETA past what the budget leaves */
};

/* One session; returns when it ended (simulated seconds). */
static double session(const struct tl_search_plan *p, uint64_t seed, struct worst *w, double *end_pred,
		      double *end_old, size_t *nticks, size_t cap)
{
	/* one flush, s; a measurement's own cost beside it, s */
	static const double flush_s[NF] = {0, 10e-6, 150e-6, 600e-6};
	const double other_s = 20e-6;
	size_t n = p->nbackends * p->nflush, order[NB * NF], units_left = n * p->repeats, done = 0;
	struct tl_search_cell *cells = tl_search_cells_new(p);
	struct tl_search_eta eta;
	uint64_t rng = seed * 0x9e3779b97f4a7c15ULL + 1;
	double t = 0, total = (double)(n * p->repeats), budget = tl_search_plan_budget(p);
	size_t k = 0;
	double frac_at[4096];

	tl_search_eta_init(&eta);
	for (size_t i = 0; i < n; i++)
		cells[i].flush_cost_s = flush_s[cells[i].f];
	for (unsigned r = 0; r < p->repeats; r++) {
		tl_search_order(seed, r, order, n);
		for (size_t i = 0; i < n; i++) {
			struct tl_search_cell *c = &cells[order[i]];
			double share = fmax(budget - t, 0) / (double)units_left--;
			/* measurements a repeat takes, and what each costs, scatter */
			double m = 20000 * exp(0.3 * gauss(&rng));
			double cost = m * (flush_s[c->f] + other_s) * exp(0.2 * gauss(&rng));
			double dur = fmin(cost, share), t1 = t + dur;

			c->state = TL_CELL_RUNNING;
			c->run_started = t;
			c->run_share = share;
			for (; t < t1; t += TICK_S) {
				double left = tl_search_eta_update(&eta, p, cells, t);

				w->over_cap = fmax(w->over_cap, left - fmax(budget - t, 0));
				if (k < cap) {
					end_pred[k] = t + left;
					end_old[k] = done ? t / (double)done * (total - (double)done) + t : NAN;
					frac_at[k++] = (double)done / total;
				}
			}
			t = t1;
			c->spent += dur;
			/* a repeat cut by its share measured that much less */
			c->rep[r].ran = true;
			c->rep[r].tmin.measurements = (size_t)(m * dur / cost);
			c->reps_done++;
			c->state = c->reps_done >= p->repeats ? TL_CELL_DONE : TL_CELL_WAITING;
			done++;
		}
	}
	for (size_t i = 0; i < k; i++) {
		if (frac_at[i] < 0.1)
			continue;
		if (isfinite(end_pred[i]))
			w->now = fmax(w->now, fabs(end_pred[i] - t) / t);
		if (isfinite(end_old[i]))
			w->old = fmax(w->old, fabs(end_old[i] - t) / t);
	}
	*nticks = k;
	tl_search_cells_free(cells, n);
	return t;
}

int main(void)
{
	const char *ids[NB] = {"sim:sd=5", "sim:sd=8"};
	const char *names[NF] = {"0", "128KiB", "8MiB", "32MiB"};
	const uint64_t bytes[NF] = {0, 131072, 8388608, 33554432};
	static double end_pred[4096], end_old[4096];
	struct tl_search_plan params, p;
	unsigned steady = 0, steady_old = 0;
	double worst_cap = 0;
	char why[256];

	tl_search_plan_default(&params);
	tl_search_plan_default(&p);
	ok(tl_search_plan_build(&p, &params, ids, NB, names, bytes, NF, NULL, why, sizeof why) == 0,
	   "a plan is built");
	is_near(tl_search_plan_budget(&p), TL_SEARCH_BUDGET_S * NB * NF, 1e-9,
		"without a budget the plan gets %g s a cell", TL_SEARCH_BUDGET_S);
	for (unsigned s = 0; s < SEEDS; s++) {
		struct worst w = {0, 0, 0};
		size_t nt;
		double end = session(&p, 101 + s, &w, end_pred, end_old, &nt, 4096);

		worst_cap = fmax(worst_cap, w.over_cap);
		steady += w.now <= 0.30;
		steady_old += w.old <= 0.30;
		tap_diag("seed %u: ends at %.1f s (budget %.0f s); after the first tenth the predicted end "
			 "is off by at most %.0f %% (the old ETA: %.0f %%)",
			 101 + s, end, tl_search_plan_budget(&p), 100 * w.now, 100 * w.old);
	}
	ok(steady >= SEEDS - 2,
	   "after the first tenth of the work the predicted end stays within 30 %% of the real one in "
	   "%u of %d sessions (the old ETA: %u)",
	   steady, SEEDS, steady_old);
	ok(worst_cap <= 1e-9, "the ETA never passes what the budget leaves (worst %.3g s over)", worst_cap);

	/* a budget given is the plan's, whatever the number of cells */
	params.budget_s = 15;
	ok(tl_search_plan_build(&p, &params, ids, NB, names, bytes, NF, "sim:sd=8", why, sizeof why) == 0 &&
		   p.budget_s == 15 && p.ref == 1,
	   "--budget 15 is the whole search's 15 s, the reference named is used");
	ok(tl_search_plan_build(&p, &params, ids, NB, names, bytes, NF, "rdtsc", why, sizeof why) < 0 &&
		   strstr(why, "'rdtsc' is not one of the --backend list (accepted: sim:sd=5,sim:sd=8)") &&
		   p.budget_s == 15,
	   "a reference not in the list is refused, the plan unchanged ('%s')", why);
	tl_search_plan_free(&p);
	tl_search_plan_free(&params);
	return tap_done();
}
