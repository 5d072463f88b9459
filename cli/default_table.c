#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "backends/backend.h"
#include "bench/kernel.h"
#include "bench/runner.h"
#include "cli/command.h"
#include "cli/opts.h"
#include "cli/stop.h"
#include "bench/analysis.h"
#include "io/table.h"
#include "stats/stats.h"

/* Small enough to finish in a few seconds (CI runs it on every build),
 * large enough for the isolation forest and p99 to mean something. */
#define DEFAULT_N 2000

/* The comparison the paper makes (the node's barrier timer first), plus the
 * no-fence baseline and the simulator; whichever of them this node can run. */
static const char *const candidates[] = {
	"clock-gettime", "papi-real-nsec", "rdtsc", "sim",
};
#define NCANDIDATES (sizeof candidates / sizeof candidates[0] + 1)

static size_t pick_backends(const char **ids)
{
	char said[2 * TL_WHY_MAX];
	const char *barrier = tl_backend_default_barrier(said, sizeof said);
	size_t n = 0;

	printf("(%s)\n", said);
	if (barrier)
		ids[n++] = barrier;
	for (size_t i = 0; i + 1 < NCANDIDATES; i++) {
		struct tl_timer t;
		char why[TL_WHY_MAX];

		if (tl_timer_open(&t, candidates[i], why, sizeof why) < 0) {
			printf("(%s left out: %s)\n", candidates[i], why);
			continue;
		}
		tl_timer_close(&t);
		ids[n++] = candidates[i];
	}
	return n;
}

int cli_default_table(size_t n, int cpu, uint64_t seed)
{
	static const uint64_t flush[] = {0};
	const char *ids[NCANDIDATES];
	struct tl_kernel *kernels = NULL;
	size_t nkernels = 0;
	struct tl_run run;
	struct tl_analysis *an;
	char why[1024];
	int rc;
	struct tl_run_config cfg = {
		.backends = ids,
		.flush_bytes = flush,
		.nflush = 1,
		.n = n ? n : DEFAULT_N,
		.cpu = cpu,
		.seed = seed,
	};

	printf("ticklab %s: no usable terminal, so a short default comparison (flush 0, n = %zu).\n"
	       "`ticklab run --help` runs your own; `ticklab info` describes this node.\n\n",
	       PACKAGE_VERSION, cfg.n);
	cfg.nbackends = pick_backends(ids);
	if (tl_kernel_parse_list("empty,add:500", &kernels, &nkernels, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab: %s\n", why);
		free(kernels);
		return TL_EXIT_FAIL;
	}
	cfg.kernels = kernels;
	cfg.nkernels = nkernels;
	/* The short demo fits a 30-line screen: no why column and its lines. */
	cfg.no_noise = true;
	if (tl_run_prepare(&run, &cfg, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab: %s\n", why);
		free(kernels);
		return TL_EXIT_FAIL;
	}
	cli_stop_arm();
	rc = cli_run_execute(&run, false, why, sizeof why);
	cli_stop_disarm();
	if (rc < 0) {
		fprintf(stderr, "ticklab: %s\n", why);
		tl_run_free(&run);
		free(kernels);
		return TL_EXIT_FAIL;
	}
	an = tl_run_analyse(&run, TL_OS_IFOREST, seed);
	if (an)
		tl_table_print(stdout, &run, an, TL_OS_IFOREST, seed);
	else
		fprintf(stderr, "ticklab: out of memory analysing the samples\n");
	free(an);
	tl_run_free(&run);
	free(kernels);
	if (!an)
		return TL_EXIT_FAIL;
	return rc == 1 ? cli_stop_status(TL_EXIT_INTERRUPTED) : TL_EXIT_OK;
}
