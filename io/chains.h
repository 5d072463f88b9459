/* The cost of one MUL or FMA in a dependent chain, in ns and in cycles (an
 * ADD's cost in the same run is one cycle), with the linearity check of
 * stats/kernels.c. Printed under the run table by `run` and `report`. */
#ifndef TL_IO_CHAINS_H
#define TL_IO_CHAINS_H

#include <stdio.h>

#include "bench/runner.h"
#include "stats/kernels.h"
#include "stats/stats.h"

/* The fit of every visible cell of kind (ADD, MUL or FMA; jitter is not an
 * ADD chain here) under timer and flush: p50 against K. ns_per_add may be
 * NaN. Returns -1 when there is no such cell with K > 0. */
int tl_chain_collect(const struct tl_run *run, const struct tl_analysis *an, size_t timer,
		     size_t flush, const struct tl_kernel_ops *kind, double ns_per_add,
		     struct tl_chain_fit *fit);

/* One block per timer and flush that has MUL or FMA cells; nothing otherwise. */
void tl_chains_print(FILE *f, const struct tl_run *run, const struct tl_analysis *an);

#endif
