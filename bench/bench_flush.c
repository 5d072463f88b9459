/* Benchmark (b): throughput of tl_flush_touch over a 4xL3 buffer against
 * memset of the same buffer (the flush stores one byte per 64-byte line;
 * memset writes every byte, so both move every line through the caches). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "backends/backend.h"
#include "bench/flush.h"
#include "bench/runner.h"
#include "bench/size.h"
#include "bench/topology.h"

#define REPS 5

int main(void)
{
	struct tl_topology topo;
	struct tl_flush f;
	char why[512], sz[32], l3[32];
	int cpu = tl_cpu_default(), mult = 4;
	double best_touch = 1e30, best_memset = 1e30;

	if (tl_topology_read_live(cpu, &topo, why, sizeof why) || topo.l3 == 0) {
		fprintf(stderr, "bench_flush: no L3 size (%s); using 32MiB as L3\n", why);
		topo.l3 = 32u << 20;
	}
	tl_size_format(topo.l3, l3, sizeof l3);
	while (mult > 1 && (uint64_t)mult * topo.l3 > tl_flush_max_bytes())
		mult--;
	if (mult < 4)
		printf("note: 4xL3 exceeds half of physical memory; using %dxL3\n", mult);
	if (tl_cpu_pin(cpu, why, sizeof why) ||
	    tl_flush_init(&f, (uint64_t)mult * topo.l3, why, sizeof why)) {
		fprintf(stderr, "bench_flush: %s\n", why);
		return 1;
	}
	tl_size_format(f.bytes, sz, sizeof sz);
	tl_flush_touch(&f);
	for (int r = 0; r < REPS; r++) {
		double t0 = tl_monotonic_s();
		tl_flush_touch(&f);
		double t1 = tl_monotonic_s();
		memset(f.buf, r, f.bytes);
		__asm__ __volatile__("" : : "r"(f.buf) : "memory");
		double t2 = tl_monotonic_s();
		if (t1 - t0 < best_touch)
			best_touch = t1 - t0;
		if (t2 - t1 < best_memset)
			best_memset = t2 - t1;
	}
	printf("flush %dxL3 = %s (L3 %s from sysfs), CPU %d, best of %d\n", mult, sz, l3, cpu, REPS);
	printf("  tl_flush_touch : %7.2f GB/s  (%.1f ms)\n", (double)f.bytes / best_touch / 1e9,
	       best_touch * 1e3);
	printf("  memset         : %7.2f GB/s  (%.1f ms)\n", (double)f.bytes / best_memset / 1e9,
	       best_memset * 1e3);
	printf("  touch/memset time ratio: %.2f (target <= 1.5)\n", best_touch / best_memset);
	tl_flush_free(&f);
	return 0;
}
