/* libFuzzer: the one file reader every command shares (io/json_read.c:
 * open, size and string limits, allocation failure) and the loader of each
 * kind behind it (run, search, fingerprint: io/file_check.c's checks), on
 * a regular file holding the input, as report reads it. Whatever a loader
 * says, the message made terminal-safe (io/term_safe.c) must be safe. */
#define _GNU_SOURCE
#include "config.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "io/fingerprint.h"
#include "io/json_read.h"
#include "io/results.h"
#include "io/search_json.h"
#include "io/term_safe.h"
#include "stats/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void load(const json_t *doc, char *why, size_t whylen)
{
	if (tl_search_json_is(doc)) {
		struct tl_search_plan p;
		struct tl_search_cell *cells = NULL;
		bool interrupted;

		memset(&p, 0, sizeof p);
		if (tl_search_from_json(doc, "fuzz", &p, &cells, &interrupted, why, whylen) == 0)
			tl_search_cells_free(cells, p.nbackends * p.nflush);
		tl_search_plan_free(&p);
	} else if (tl_fp_json_is(doc)) {
		struct tl_fp_figures f;

		if (tl_fp_figures_from_json(doc, "fuzz", &f, why, whylen) == 0)
			tl_fp_figures_free(&f);
	} else {
		struct tl_run run;
		struct tl_results_meta meta;

		if (tl_run_from_json(doc, "fuzz", &run, &meta, why, whylen) == 0)
			tl_run_unload(&run, &meta);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64], why[1024] = "", safe[1024];
	json_t *doc;

	stats_init();
	if (fd < 0)
		fd = memfd_create("fuzz_files", 0);
	if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return 0;
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	doc = tl_json_load(path, why, sizeof why);
	if (doc)
		load(doc, why, sizeof why);
	else if (!why[0])
		abort(); /* a refusal always says why */
	if (!tl_term_is_safe(tl_term_safe(why, safe, sizeof safe)))
		abort();
	json_decref(doc);
	return 0;
}
