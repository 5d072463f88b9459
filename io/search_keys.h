/* The keys of a search file (io/search_json.h shows its shape), object by
 * object, in the form io/keys.h describes: `search --json`, the TUI's
 * export and report --json write through these tables, and every reader
 * checks and reads through them. */
#ifndef TL_IO_SEARCH_KEYS_H
#define TL_IO_SEARCH_KEYS_H

#include "io/keys.h"

extern const struct tl_keys tl_search_doc_keys;     /* the whole file */
extern const struct tl_keys tl_search_params_keys;  /* "params" */
extern const struct tl_keys tl_search_cell_keys;    /* one of "results" */
extern const struct tl_keys tl_search_metric_keys;  /* a cell's "tmin", "tdiff" */
extern const struct tl_keys tl_search_result_keys;  /* one repeat's search of a metric */
extern const struct tl_keys tl_search_rep_keys;     /* one of a cell's "repeats" */
extern const struct tl_keys tl_search_relaxed_keys; /* a cell's "t_min_relaxed" */
extern const struct tl_keys tl_search_side_keys;    /* its "value" and "reference" */

#endif
