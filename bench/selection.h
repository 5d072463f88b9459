/* What to measure, typed once below both faces: the backends (ids with their
 * parameters, each probed available), each flush as the name the user gave,
 * the bytes it resolved to and why, and the kernels. One parser, one
 * topology read and one cache-size decision for the CPU that will sample:
 * the CLI's -b/-f/-k (cli/selection.c) and the TUI's Setup rows
 * (tui/live.c) are both parsed here. */
#ifndef TL_BENCH_SELECTION_H
#define TL_BENCH_SELECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/runner.h"

struct tl_kernel;

/* Why a flush is its bytes. */
enum tl_flush_source {
	TL_FLUSH_LITERAL,  /* a size given as bytes ("0", "32KiB") */
	TL_FLUSH_REPORTED, /* a multiple of a level CPUID/hwloc reports ("4xL2") */
	TL_FLUSH_MEASURED, /* a multiple of a level the chase placed ("4xL3" on a VM) */
};

struct tl_selection {
	char **backends;        /* ids with parameters, each probed available */
	size_t nbackends;
	char **flush_names;     /* as given: "4xL3" keys the cell in every file */
	uint64_t *flush_bytes;  /* what each name resolved to on this node */
	enum tl_flush_source *flush_source;
	size_t nflush;
	struct tl_kernel *kernels;
	size_t nkernels;
	/* which levels the multiples took from the chase ("L3 4MiB measured by a
	 * chase (hwloc says 508MiB)"), "" when none did */
	char sizing_note[512];
};

/* Parses the texts given (NULL: that part left empty) for sampling on cpu
 * (<0: the default CPU). -1 with why: the parsers' words, naming what was
 * wrong and what is accepted; s is then empty. */
int tl_selection_parse(struct tl_selection *s, const char *backends, const char *flushes,
		       const char *kernels, int cpu, char *why, size_t whylen);

/* "measured", "reported" or "literal". */
const char *tl_flush_source_name(enum tl_flush_source src);

/* The run config's selection fields; the rest of cfg is the caller's. */
void tl_selection_config(const struct tl_selection *s, struct tl_run_config *cfg);

void tl_selection_free(struct tl_selection *s);

#endif
