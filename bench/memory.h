/* What a run will hold at its peak, said before it starts. */
#ifndef TL_BENCH_MEMORY_H
#define TL_BENCH_MEMORY_H

#include <stdint.h>

#include "bench/runner.h"

/* Peak bytes of a run of cfg through its analysis (bench/memory.c lists
 * the allocations it counts). */
double tl_run_memory_estimate(const struct tl_run_config *cfg);

/* The kernel's MemAvailable in bytes (/proc/meminfo), 0 when unknown. */
uint64_t tl_mem_available(void);

#endif
