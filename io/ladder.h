/* What the chain and load kernels show, under the run table: the memory
 * ladder (ns per load per size, the cache level each size falls in, and
 * whether the steps sit where the topology says the levels end) and the
 * cost of a MUL or FMA beside an ADD's. `ticklab run` and `report` print
 * it; the checks themselves are stats/kernels.c. */
#ifndef TL_IO_LADDER_H
#define TL_IO_LADDER_H

#include <stdio.h>

#include "bench/runner.h"
#include "bench/topology.h"
#include "stats/kernels.h"
#include "stats/stats.h"

/* One ladder: the load cells of one timer and flush, by size. */
struct tl_ladder {
	size_t timer, flush;
	size_t n;
	size_t cell[TL_LADDER_MAX_POINTS];
	double bytes[TL_LADDER_MAX_POINTS], ns[TL_LADDER_MAX_POINTS]; /* ns per load (p50 / K) */
	struct tl_ladder_fit fit;
	bool fitted;
};

/* The ladder of timer and flush from the analysed cells (the first cell of
 * each size; at most TL_LADDER_MAX_POINTS sizes). Returns its point count. */
size_t tl_ladder_collect(const struct tl_run *run, const struct tl_analysis *an, size_t timer,
			 size_t flush, const double *ends, size_t nends, struct tl_ladder *l);
/* tl_ladder_collect over cells[0..ncells) only (NULL: every cell): a
 * group of tl_cell_groups, so a loop over every timer and flush reads each
 * cell once. */
size_t tl_ladder_collect_in(const struct tl_run *run, const struct tl_analysis *an, size_t timer,
			    size_t flush, const size_t *cells, size_t ncells, const double *ends,
			    size_t nends, struct tl_ladder *l);

/* Whether the run will print a ladder: some timer and flush chase two or
 * more sizes (what tl_ladder_collect gathers, before any sample). */
bool tl_run_has_ladder(const struct tl_run *run);

/* Whether any cell is one a ladder gathers (a load kernel with K > 0): a
 * ladder figure of a run without one is a request the run cannot meet. */
bool tl_run_has_load_cells(const struct tl_run *run);

/* The ladders and chain costs of the run, with their checks said plainly;
 * nothing when the run has no load, mul or fma cells. topo may be NULL. */
void tl_ladder_print(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
		     const struct tl_topology *topo);

/* The same with the level ends taken from the node's measured levels
 * where they contradict topo's reported sizes (tl_levels_sizing: what NxLk
 * flushes go by), and a line saying which; lv NULL or not measured: topo's. */
struct tl_levels;
void tl_ladder_print_levels(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
			    const struct tl_topology *topo, const struct tl_levels *lv);

#endif
