/* One sim cell at flush 0 for the search tests that run the engine over
 * seeds: the plan a test then adjusts (own_a0, ...) before
 * tl_search_cells_new and tl_search_run. The sim id gets the seed, and the
 * search's own seed is the same one. */
#ifndef TL_TESTS_SEARCH_SIM_H
#define TL_TESTS_SEARCH_SIM_H

#include <stdio.h>

#include "bench/search_cell.h"

static inline void search_sim_plan(struct tl_search_plan *plan, const char *sim, unsigned seed,
				   enum tl_search_method method, enum tl_tdiff_order order,
				   enum tl_os_method os, unsigned n, unsigned p, unsigned q)
{
	char id[200];
	const char *ids[1] = {id}, *fl[1] = {"0"};
	uint64_t bytes[1] = {0};

	snprintf(id, sizeof id, "%s,seed=%u", sim, seed);
	tl_search_plan_default(plan);
	plan->sp.method = method;
	plan->sp.order = order;
	plan->sp.os = os;
	plan->sp.n = n;
	plan->sp.p = p;
	plan->sp.q = q;
	plan->sp.seed = seed;
	tl_search_plan_set(plan, ids, 1, fl, bytes, 1);
}

#endif
