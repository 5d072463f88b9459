/* The keys of a run file (io/run_json.h shows its shape) in the form
 * io/keys.h describes: `run --json`, the TUI's export and report --json
 * write a cell's and the file's own keys through these tables, and the run
 * loader (io/run_load.c) reads every key through them. The sample arrays
 * and the analysis objects are checked by their own readers (io/run_bulk.c,
 * io/noise_json.c) or recomputed on reading: TL_KEY_OWN here. */
#ifndef TL_IO_RUN_KEYS_H
#define TL_IO_RUN_KEYS_H

#include "io/keys.h"

extern const struct tl_keys tl_run_doc_keys;  /* the whole file */
extern const struct tl_keys tl_run_cell_keys; /* one of "cells" or "baselines" */

#endif
