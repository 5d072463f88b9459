/* libFuzzer: the run-file reader (report, compare, tui --replay) on any
 * JSON, then the analysis every reader runs on what it accepted. */
#include "config.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>

#include "bench/analysis.h"
#include "io/results.h"
#include "stats/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t err;
	json_t *doc;
	struct tl_run run;
	struct tl_results_meta meta;
	char why[512];

	stats_init();
	doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &err);
	if (!doc)
		return 0;
	if (tl_run_from_json(doc, "fuzz", &run, &meta, why, sizeof why) == 0) {
		free(tl_run_analyse(&run, meta.os, meta.seed));
		tl_run_unload(&run, &meta);
	}
	json_decref(doc);
	return 0;
}
