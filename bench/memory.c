/* The pre-flight estimate of a run's peak memory, from what it allocates
 * (measured against /usr/bin/time's peak RSS in tests/test_memory.sh):
 *  - every cell, for the whole run: raw, ns and the operation count of
 *    each sample (bench/runner.c cell_init): 3 x 8 B;
 *  - the one cell analysed at a time (bench/analysis.c -> stats_analyse):
 *    the filtered copy (8 B), the iforest scores (8 B) and keep flags
 *    (1 B), and before the scores the sorted copy of the values (8 B):
 *    about 24 B at its peak; a jitter cell splits its samples into plain
 *    and injected sets and compares them: 48 B;
 *  - the flush buffers and load buffers, as allocated;
 *  - the process itself (code, libraries, the node's topology): a few MB.
 * The JSON costs nothing per sample: run writes and report reads the
 * sample arrays without a JSON tree (io/run_json.c, io/run_bulk.c). */
#include "config.h"

#include "bench/memory.h"

#include <stdio.h>
#include <string.h>

#define PER_SAMPLE_HELD 24.0
#define PER_SAMPLE_ANALYSED 24.0
#define PER_SAMPLE_JITTER 48.0
#define PROCESS_BYTES (12.0 * 1024 * 1024)

double tl_run_memory_estimate(const struct tl_run_config *cfg)
{
	double cells = 0, load = 0, flush = 0, analysed = PER_SAMPLE_ANALYSED;
	bool have_empty = false;

	for (size_t k = 0; k < cfg->nkernels; k++) {
		have_empty |= cfg->kernels[k].kind->times_nothing;
		if (cfg->kernels[k].kind == TL_KERNEL_JITTER)
			analysed = PER_SAMPLE_JITTER;
		if (cfg->kernels[k].kind->chases)
			load += (double)cfg->kernels[k].bytes;
	}
	for (size_t i = 0; i < cfg->nflush; i++)
		flush += (double)cfg->flush_bytes[i];
	cells = (double)cfg->nbackends * (double)cfg->nflush *
		(double)(cfg->nkernels + (have_empty ? 0 : 1));
	return cells * (double)cfg->n * PER_SAMPLE_HELD + (double)cfg->n * analysed + flush +
	       load * (double)cfg->nbackends * (double)cfg->nflush + PROCESS_BYTES;
}

uint64_t tl_mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024;
}
