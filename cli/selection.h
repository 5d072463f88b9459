/* What to measure, as every measuring command takes it (run, search,
 * detect, tui): -b/--backend, -f/--flush and -k/--kernel, the option group
 * and its usage; parsed by bench/selection.c (one parser, one topology
 * read and one cache-size decision for the CPU that will sample, the same
 * the TUI's Setup rows go through), into the backend ids, each flush as the
 * name given with the bytes it resolved to and why, the kernels. A command lists
 * CLI_SELECTION_LONGOPTS among its options, passes its option() calls
 * through cli_selection_option, and parses in its check(). */
#ifndef TL_CLI_SELECTION_H
#define TL_CLI_SELECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/runner.h"
#include "bench/selection.h"

struct tl_kernel;

struct cli_selection {
	/* The texts as given (defaults set by the command's init). A command
	 * that takes no kernels leaves kernel_text NULL. */
	const char *backend_text, *flush_text, *kernel_text;
	bool takes_kernels;
	bool needs_backends;    /* no -b is an error (the TUI asks in Setup instead) */
	struct tl_selection got; /* what they parsed to (bench/selection.h) */
};

/* The long options, to put at the head of a command's option table. */
#define CLI_SELECTION_LONGOPTS                                                      \
	{ "backend", required_argument, NULL, 'b' },                                \
	{ "flush", required_argument, NULL, 'f' },                                  \
	{ "kernel", required_argument, NULL, 'k' }
#define CLI_SELECTION_LONGOPTS_NO_KERNEL                                            \
	{ "backend", required_argument, NULL, 'b' },                                \
	{ "flush", required_argument, NULL, 'f' }

/* The usage lines of -b and -f, and of -k, for a command's help text. */
#define CLI_SELECTION_USAGE_BACKEND_FLUSH                                             \
	"  -b, --backend LIST   timer backends, comma-separated (see `ticklab info`);\n"    \
	"                       sim takes parameters: sim:sd=5,quantum=10\n"               \
	"  -f, --flush LIST     bytes written before every sample: 0, 32KiB, 27.5MiB, 4M,\n" \
	"                       4xL1, 4xL2, 4xL3 (the node's measured levels; default 0)\n"
#define CLI_SELECTION_USAGE_KERNEL                                                   \
	"  -k, --kernel LIST    empty, add:K, add:FROM:TO:STEP, jitter:K,D,P,\n"           \
	"                       mul:K, fma:K, div:K (same ranges), load:SIZE[,K] (K\n"    \
	"                       loads chasing a random cycle through SIZE, e.g. 16KiB,\n"  \
	"                       4xL3),\n"                                                  \
	"                       load:LO..HI[,K] (a ladder: sizes across the cache\n"       \
	"                       levels, e.g. load:4KiB..2xL3), load:SIZE+SIZE+...[,K]\n"

/* Takes -b, -f and (when takes_kernels) -k: 0, else CLI_NOT_MINE. */
int cli_selection_option(struct cli_selection *s, int c, const char *arg);

/* Whether any of -b, -f, -k was given a text. */
bool cli_selection_given(const struct cli_selection *s);

/* Parses the texts given (a NULL text is left unparsed) for sampling on
 * cpu (<0: the default CPU): the backends split, checked and probed, the
 * flushes and load sizes by one cache-size decision. -1 with why (the
 * parsers' words, status 2 for the caller). */
int cli_selection_parse(struct cli_selection *s, int cpu, char *why, size_t whylen);

/* The run config's selection fields (backends, flushes with their names,
 * kernels); the rest of cfg is the caller's. */
void cli_selection_config(const struct cli_selection *s, struct tl_run_config *cfg);

void cli_selection_free(struct cli_selection *s);

#endif
