/* libFuzzer: the recorded-chase reader (TL_LEVELS_FROM) and the step finder
 * and naming behind it, on a regular file holding the input. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/levels.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	double bytes[STATS_LEVELS_MAX_POINTS], ns[STATS_LEVELS_MAX_POINTS];
	struct tl_topology topo;
	struct tl_levels *lv;
	char why[512], words[1024];
	size_t n;
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof path, "/tmp/tl_fuzz_ladder_%ld.txt", (long)getpid());
	f = fopen(path, "wb");
	if (!f)
		return 0;
	if (size)
		fwrite(data, 1, size, f);
	fclose(f);
	if (tl_levels_read_ladder(path, bytes, ns, &n, why, sizeof why) < 0)
		return 0;
	memset(&topo, 0, sizeof topo);
	topo.l1d = 48 << 10;
	topo.l2 = 1 << 20;
	topo.l3 = 508ULL << 20;
	lv = calloc(1, sizeof *lv);
	if (!lv)
		return 0;
	tl_levels_from_ladder(bytes, ns, n, &topo, lv);
	tl_levels_disagreement(lv, words, sizeof words);
	free(lv);
	return 0;
}
