/* Benchmark (c): samples per second through tl_run at flush 0 on
 * the node's barrier timer (barrier-tsc, else barrier-rdtsc), for `empty` and `add:500` (warm-up and resolution included,
 * as a user sees it), and through tl_measure alone. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "backends/backend.h"
#include "bench/runner.h"

#define N 200000

struct clock_marks {
	double first, last;
	size_t first_done, last_done;
};

/* Sampling-only rate: samples between the first and the last chunk's end,
 * leaving out warm-up, the resolution probe and the final medians. */
static void mark(void *ctx, struct tl_run *run, size_t cell)
{
	struct clock_marks *m = ctx;
	size_t done = atomic_load(&run->samples_done);
	(void)cell;
	if (m->first == 0) {
		m->first = tl_monotonic_s();
		m->first_done = done;
	}
	m->last = tl_monotonic_s();
	m->last_done = done;
}

static void rate(const char *spec)
{
	char said[2 * TL_WHY_MAX];
	const char *barrier = tl_backend_default_barrier(said, sizeof said);
	const char *ids[] = { barrier ? barrier : "clock-gettime" };
	static const uint64_t flush[] = { 0 };
	struct tl_kernel *k = NULL;
	size_t nk = 0;
	struct tl_run run;
	char why[512];

	if (tl_kernel_parse_list(spec, &k, &nk, why, sizeof why)) {
		fprintf(stderr, "bench_rate: %s\n", why);
		exit(1);
	}
	struct tl_run_config cfg = { .backends = ids, .nbackends = 1, .flush_bytes = flush,
				     .nflush = 1, .kernels = k, .nkernels = nk, .n = N,
				     .cpu = -1, .seed = 1 };
	if (tl_run_prepare(&run, &cfg, why, sizeof why)) {
		fprintf(stderr, "bench_rate: %s\n", why);
		exit(1);
	}
	struct clock_marks m = { 0 };
	double t0 = tl_monotonic_s();
	if (tl_run_execute(&run, mark, &m, why, sizeof why)) {
		fprintf(stderr, "bench_rate: %s\n", why);
		exit(1);
	}
	double dt = tl_monotonic_s() - t0;
	printf("  tl_run --kernel %-8s: %zu cells, %zu samples in %.3f s = %.2f M samples/s end "
	       "to end, %.2f M samples/s while sampling\n",
	       spec, run.ncells, run.samples_total, dt, (double)run.samples_total / dt / 1e6,
	       (double)(m.last_done - m.first_done) / (m.last - m.first) / 1e6);

	/* The bare per-sample loop, no chunks or schedule: */
	double *out = malloc(N * sizeof *out);
	uint64_t *adds = k[0].kind->times_nothing ? NULL : run.cells[1].adds;
	t0 = tl_monotonic_s();
	tl_measure(&run.timers[0], NULL, adds, N, out);
	dt = tl_monotonic_s() - t0;
	printf("  tl_measure %-13s: %d samples in %.3f s = %.2f M samples/s\n", spec, N, dt,
	       N / dt / 1e6);
	free(out);
	free(k);
	tl_run_free(&run);
}

int main(void)
{
	char said[2 * TL_WHY_MAX];

	tl_backend_default_barrier(said, sizeof said);
	printf("samples per second, flush 0, CPU %d (%s; tl_run adds a hidden empty "
	       "baseline to add:500)\n",
	       tl_cpu_default(), said);
	rate("empty");
	rate("add:500");
	return 0;
}
