/* A run file (io/run_json.h) read back into a struct tl_run, so `report`,
 * `compare`, `plot` and the TUI replay can use it. */
#ifndef TL_IO_RUN_LOAD_H
#define TL_IO_RUN_LOAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "bench/runner.h"
#include "stats/stats.h"

/* The largest magnitude a saved time may have (ns, or the backend's unit):
 * about 11 days. Larger values are a corrupt or hostile file; refusing them
 * at read time keeps every statistic finite. */
#define TL_RESULTS_MAX_ABS 1e15

/* What a run file says besides the cells. */
struct tl_results_meta {
	uint64_t seed;
	enum tl_os_method os;
	bool interrupted;
	json_t *host; /* the file's "host" object (owned; NULL when absent) */
};

/* tl_json_load: every JSON file is read through io/json_read.h. */
#include "io/json_read.h"

/* Reads a run file written by tl_run_to_json. Timers are not opened: each
 * keeps its backend, id and ns_per_unit (state NULL). Every key is checked
 * (times beyond +-TL_RESULTS_MAX_ABS, NaN and infinities are refused);
 * a problem gives -1 with why = "FILE: where: what is wrong". The run
 * owns what it holds, as a prepared one does: tl_run_free frees it, and
 * tl_run_unload does that and drops meta's host (meta may be NULL). */
int tl_run_load(const char *path, struct tl_run *run, struct tl_results_meta *meta, char *why,
		size_t whylen);
/* The same from a parsed document; name is used in messages. */
int tl_run_from_json(const json_t *doc, const char *name, struct tl_run *run,
		     struct tl_results_meta *meta, char *why, size_t whylen);
/* The same over a document read by tl_json_load_bulk (io/run_bulk.h): its
 * sample arrays are taken from bulk (which still needs tl_bulk_free). */
struct tl_bulk;
int tl_run_from_json_bulk(const json_t *doc, struct tl_bulk *bulk, const char *name,
			  struct tl_run *run, struct tl_results_meta *meta, char *why,
			  size_t whylen);
void tl_run_unload(struct tl_run *run, struct tl_results_meta *meta);

#endif
