/* libFuzzer: the run-file reader (report, compare, tui --replay) on any
 * JSON, then the analysis every reader runs on what it accepted. The same
 * bytes also go through the file reader that takes the sample arrays out
 * of the tree (io/run_bulk.c), which must agree with the tree reader: the
 * same verdict, the same message, the same samples bit for bit. */
#define _GNU_SOURCE
#include "config.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/analysis.h"
#include "io/results.h"
#include "stats/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool same_cells(const struct tl_run *a, const struct tl_run *b)
{
	if (a->ncells != b->ncells)
		return false;
	for (size_t i = 0; i < a->ncells; i++) {
		size_t n = a->cells[i].n;

		if (n != b->cells[i].n)
			return false;
		if (n == 0)
			continue;
		/* a loaded run holds no ADD counts but jitter's (tl_cell_adds reads
		 * either): both have them or neither */
		if (!a->cells[i].adds != !b->cells[i].adds)
			return false;
		if (memcmp(a->cells[i].raw, b->cells[i].raw, n * 8) ||
		    memcmp(a->cells[i].ns, b->cells[i].ns, n * 8) ||
		    (a->cells[i].adds &&
		     memcmp(a->cells[i].adds, b->cells[i].adds, n * sizeof *a->cells[i].adds)))
			return false;
	}
	return true;
}

/* The bytes through a file, as report reads them; its verdict must be the
 * tree's (rc1, why1, run1). */
static void check_bulk(const uint8_t *data, size_t size, int rc1, const char *why1,
		       const struct tl_run *run1)
{
	static int fd = -1;
	char path[64], why[512];
	struct tl_bulk *bulk;
	struct tl_run run;
	struct tl_results_meta meta;
	json_t *doc;
	int rc;

	if (fd < 0)
		fd = memfd_create("fuzz_results", 0);
	if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		return;
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	doc = tl_json_load_bulk(path, &bulk, why, sizeof why);
	if (!doc) {
		if (rc1 != -2)
			abort(); /* jansson took the bytes from memory but not from the file */
		return;
	}
	if (rc1 == -2)
		abort();
	rc = tl_run_from_json_bulk(doc, bulk, "fuzz", &run, &meta, why, sizeof why);
	if (rc != rc1 || (rc != 0 && strcmp(why, why1) != 0) || (rc == 0 && !same_cells(&run, run1)))
		abort();
	if (rc == 0)
		tl_run_unload(&run, &meta);
	json_decref(doc);
	tl_bulk_free(bulk);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t err;
	json_t *doc;
	struct tl_run run;
	struct tl_results_meta meta;
	char why[512] = "";
	int rc = -2;

	stats_init();
	doc = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &err);
	if (doc)
		rc = tl_run_from_json(doc, "fuzz", &run, &meta, why, sizeof why);
	check_bulk(data, size, rc, why, &run);
	if (rc == 0) {
		free(tl_run_analyse(&run, meta.os, meta.seed));
		tl_run_unload(&run, &meta);
	}
	json_decref(doc);
	return 0;
}
