/* How long a prepared run will take before it starts: the flush before
 * every sample dominates a run with a large flush (4xL3 of a VM's claimed
 * 508 MiB L3 was hours), and it can be measured on the run's own buffers. */
#ifndef TL_BENCH_ESTIMATE_H
#define TL_BENCH_ESTIMATE_H

#include <stddef.h>

#include "bench/runner.h"

/* Runs estimated above this many seconds are said before they start: the
 * CLI warns (unless --yes), the TUI asks. */
#define TL_LONG_RUN_S 180.0

struct tl_run_estimate {
	double seconds;           /* the whole run, flushes and the timers' own cost */
	double flush_seconds;     /* of which the flushes */
	double worst_flush_ns;    /* the largest flush's pass, measured now */
	double write_gb_per_s;    /* its rate: bytes per ns */
	size_t samples;           /* every sample of every cell */
};

/* Times one pass of each of run's flush buffers (at most 64 MiB of each,
 * scaled to its size), and adds each cell's samples x (its flush + a
 * microsecond for the timer and loop). Kernels are not timed: their cost is
 * small beside a flush that needs saying. */
void tl_run_estimate(const struct tl_run *run, struct tl_run_estimate *e);

/* "about 6.4 h: 4 cells x 12000 samples, each after a 1.98GiB flush of
 * 0.48 s (4.1 GB/s measured now)" */
void tl_run_estimate_words(const struct tl_run *run, const struct tl_run_estimate *e, char *buf,
			   size_t len);

/* "45 s", "12 min", "6.4 h" */
void tl_duration_words(double seconds, char *buf, size_t len);

#endif
