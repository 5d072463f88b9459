/* Benchmark (a): is ticklab's barrier-tsc (barrier-rdtsc) `empty` the same
 * as a bare `lfence; rdtscp; lfence` (`lfence; rdtsc; lfence`) pair written
 * on its own? Prints both medians in ticks and ns and whether they agree
 * within one TSC resolution step. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "bench/runner.h"

#define N 40000
#define BLOCK 1000

#if defined(__x86_64__)
/* Deliberately independent of ticklab: the pair a reader of the paper would
 * write by hand, one timing per iteration, nothing else in between. */
#define BARE_PAIRS(name, read)                                                     \
	static __attribute__((noinline)) void name(double *out, size_t n)          \
	{                                                                          \
		for (size_t i = 0; i < n; i++) {                                   \
			uint32_t lo0, hi0, lo1, hi1, aux = 0;                      \
			__asm__ volatile(read : "=a"(lo0), "=d"(hi0), "+c"(aux) : : "memory"); \
			__asm__ volatile(read : "=a"(lo1), "=d"(hi1), "+c"(aux) : : "memory"); \
			uint64_t t0 = ((uint64_t)hi0 << 32) | lo0;                 \
			uint64_t t1 = ((uint64_t)hi1 << 32) | lo1;                 \
			out[i] = (double)(int64_t)(t1 - t0);                       \
		}                                                                  \
	}
BARE_PAIRS(bare_rdtscp_pairs, "lfence\n\trdtscp\n\tlfence")
BARE_PAIRS(bare_rdtsc_pairs, "lfence\n\trdtsc\n\tlfence")

static double median(double *v, size_t n)
{
	gsl_sort(v, 1, n);
	return gsl_stats_median_from_sorted_data(v, 1, n);
}

/* One tl_run of `empty` on barrier-tsc: the path `ticklab run` takes. */
static double run_median(const char *id, int cpu, double *res_ticks, double *ns_per_tick)
{
	const char *ids[] = { id };
	static const uint64_t flush[] = { 0 };
	struct tl_kernel empty = { .kind = TL_KERNEL_EMPTY, .label = "empty" };
	struct tl_run_config cfg = { .backends = ids, .nbackends = 1, .flush_bytes = flush,
				     .nflush = 1, .kernels = &empty, .nkernels = 1, .n = N,
				     .cpu = cpu, .seed = 1 };
	struct tl_run run;
	char why[512];
	double m;

	if (tl_run_prepare(&run, &cfg, why, sizeof why) ||
	    tl_run_execute(&run, NULL, NULL, why, sizeof why)) {
		fprintf(stderr, "bench_barrier: %s\n", why);
		exit(1);
	}
	*ns_per_tick = run.timers[0].ns_per_unit;
	*res_ticks = run.cells[0].resolution_ns / *ns_per_tick;
	m = median(run.cells[0].raw, N);
	tl_run_free(&run);
	return m;
}

static int compare(const char *id, void (*bare_pairs)(double *, size_t), int cpu)
{
	static double tl[N], bare[N];
	struct tl_timer t;
	double res = 0, nspt = 0, mr, mt, mb;
	char why[256];

	if (tl_timer_open(&t, id, why, sizeof why)) {
		printf("%s: unavailable here: %s\n", id, why);
		return 0;
	}
	mr = run_median(id, cpu, &res, &nspt);
	/* Small blocks in ABBA order so clock drift and load changes on this
	 * node (a shared VM) hit both loops alike. */
	bare_pairs(bare, BLOCK);
	tl_measure(&t, NULL, NULL, BLOCK, tl);
	for (size_t b = 0; b < N / BLOCK; b++) {
		if (b % 2 == 0) {
			tl_measure(&t, NULL, NULL, BLOCK, tl + b * BLOCK);
			bare_pairs(bare + b * BLOCK, BLOCK);
		} else {
			bare_pairs(bare + b * BLOCK, BLOCK);
			tl_measure(&t, NULL, NULL, BLOCK, tl + b * BLOCK);
		}
	}
	tl_timer_close(&t);
	mt = median(tl, N);
	mb = median(bare, N);
	printf("%s empty, CPU %d, %d samples each, interleaved in blocks of %d (ABBA)\n", id,
	       cpu, N, BLOCK);
	printf("  ticklab tl_measure : %7.1f ticks  %7.2f ns\n", mt, mt * nspt);
	printf("  bare asm loop      : %7.1f ticks  %7.2f ns\n", mb, mb * nspt);
	printf("  resolution         : %7.1f ticks  %7.2f ns\n", res, res * nspt);
	printf("  difference         : %7.1f ticks  -> %s one resolution step\n", mt - mb,
	       fabs(mt - mb) <= res ? "within" : "NOT within");
	printf("  ticklab tl_run     : %7.1f ticks  %7.2f ns (one run before the blocks, for "
	       "reference)\n",
	       mr, mr * nspt);
	return 0;
}

int main(void)
{
	int cpu = tl_cpu_default();
	char why[256];

	if (tl_cpu_pin(cpu, why, sizeof why)) {
		fprintf(stderr, "bench_barrier: %s\n", why);
		return 1;
	}
	return compare("barrier-tsc", bare_rdtscp_pairs, cpu) |
	       compare("barrier-rdtsc", bare_rdtsc_pairs, cpu);
}
#else
int main(void)
{
	printf("bench_barrier: barrier-tsc is x86 only; nothing to compare here\n");
	return 0;
}
#endif
