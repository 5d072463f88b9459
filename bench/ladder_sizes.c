/* The buffer sizes a load range expands to on this node, one byte count a
 * line: bench_ladder.sh pairs the lab and bench/chase_ref size by size, and
 * learning the sizes from a lab run would lay out every buffer once more.
 *
 *   ladder_sizes 'load:4KiB..2xL3'   ->  "4096\n8192\n..."
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench/kernel.h"
#include "bench/runner.h"
#include "bench/topology.h"

int main(int argc, char **argv)
{
	struct tl_topology topo;
	struct tl_kernel *k = NULL;
	size_t n = 0;
	char why[1024];
	bool have;

	if (argc != 2) {
		fprintf(stderr, "usage: ladder_sizes LOAD-RANGE (load:4KiB..2xL3)\n");
		return 2;
	}
	have = tl_topology_read_live(tl_cpu_default(), &topo, why, sizeof why) == 0;
	if (tl_kernel_parse_list_topo(argv[1], have ? &topo : NULL, &k, &n, why, sizeof why) < 0) {
		fprintf(stderr, "ladder_sizes: %s\n", why);
		return 2;
	}
	for (size_t i = 0; i < n; i++)
		if (k[i].kind == TL_KERNEL_LOAD)
			printf("%llu\n", (unsigned long long)k[i].bytes);
	free(k);
	return 0;
}
