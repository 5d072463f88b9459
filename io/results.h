/* Saved results: the atomic writer, a run out as JSON and CSV, and a run
 * file read back. One header for the three, so callers need not know
 * which file holds what. */
#ifndef TL_IO_RESULTS_H
#define TL_IO_RESULTS_H

#include "io/atomic.h"
#include "io/run_json.h"
#include "io/run_bulk.h"
#include "io/run_load.h"

#endif
