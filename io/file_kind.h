/* The one place that tells which kind of ticklab file a document is, and
 * the one way any face (report, plot, the TUI's replay) opens a file of a
 * kind not yet known: a run's sample arrays straight into arrays
 * (io/run_bulk.h), any other kind as a whole tree, every file through
 * io/json_read.h's guards (duplicate keys, FIFOs, size, memory). Each
 * kind then has one loader, shared by the CLI and the TUI:
 * tl_run_from_json_bulk, tl_search_from_json, tl_fp_figures_from_json,
 * tl_detect_from_json. */
#ifndef TL_IO_FILE_KIND_H
#define TL_IO_FILE_KIND_H

#include <jansson.h>
#include <stddef.h>

struct tl_bulk;

enum tl_file_kind {
	TL_FILE_RUN,         /* "command": "run", and anything unmarked: the run
			      * loader says what is wrong with it */
	TL_FILE_SEARCH,      /* "command": "search" */
	TL_FILE_FINGERPRINT, /* "command": "fingerprint" */
	TL_FILE_DETECT,      /* "command": "detect" */
};

/* By the document's "ticklab": {"command"} marker. */
enum tl_file_kind tl_file_kind_of(const json_t *doc);

/* Reads path ("-": standard input) and tells its kind. A run's arrays are
 * in *bulk (NULL otherwise; tl_bulk_free either way). NULL with why as
 * tl_json_load says it. */
json_t *tl_file_load(const char *path, enum tl_file_kind *kind, struct tl_bulk **bulk, char *why,
		     size_t whylen);

#endif
