/* Option helpers shared by the subcommands: list splitting, strict number
 * parsing and the one-line messages for bad input (exit status 2). */
#ifndef TL_CLI_OPTS_H
#define TL_CLI_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/topology.h"

struct tl_kernel;

/* Exit statuses every subcommand uses. */
#define TL_EXIT_OK 0
#define TL_EXIT_FAIL 1
#define TL_EXIT_USAGE 2
/* Stopped early: a caught signal gives 128 + its number (cli_stop_status), as
 * a shell reports it; this is the status when no signal was caught, the
 * number Ctrl-C's SIGINT would give. */
#define TL_EXIT_INTERRUPTED (128 + SIGINT)

/* getopt_long values of options that have no one-letter form (above any
 * character, so messages never offer a short form that does not exist). */
enum {
	OPT_OS_FILTER = 256,
	OPT_JSON,
	OPT_CSV,
	OPT_MARKDOWN,
	OPT_FIRST_FREE, /* commands may number their own long-only options from here */
};

/* Splits a comma-separated list into freshly allocated items.
 * A comma starts a new item unless the text after it looks like "key=value"
 * and the current item already has parameters ("sim:sd=5,quantum=10" stays
 * one item), so backend ids with parameters survive the split.
 * Empty items are refused. Returns 0, or -1 with why naming the problem. */
int opts_split_list(const char *text, const char *what, char ***items, size_t *n, char *why,
		    size_t whylen);
void opts_free_list(char **items, size_t n);

/* Strict parsers: the whole text must be a number (no sign for unsigned,
 * no spaces, no trailing junk, no overflow). what names the option in the
 * message, e.g. "-n", and the message says what is accepted. */
int opts_parse_u64(const char *text, const char *what, uint64_t *out, char *why, size_t whylen);
/* A count >= 1 (for -n). */
int opts_parse_count(const char *text, const char *what, size_t *out, char *why, size_t whylen);
/* A finite double in [lo, hi]. */
int opts_parse_double(const char *text, const char *what, double lo, double hi, double *out,
		      char *why, size_t whylen);
/* A CPU number the process may run on (checked against sched_getaffinity). */
int opts_parse_cpu(const char *text, int *cpu, char *why, size_t whylen);

/* --os-filter's value: the method (an enum tl_os_method), or -1 with why
 * naming the text and the accepted ones. */
int opts_parse_os_filter(const char *text, char *why, size_t whylen);

/* -1 with why "unexpected argument 'X' (hint)" when argv has an operand
 * left at optind; 0 when getopt consumed everything. */
int opts_no_operand(int argc, char *const *argv, const char *hint, char *why, size_t whylen);

/* Message for an unknown option or a missing value after getopt_long
 * returned code '?' or ':' (use opterr = 0 and an optstring starting with
 * ':'). Names the option and lists the accepted ones, with the short
 * form of those in shortopts (getopt's optstring). */
void opts_usage_error(int code, char *const *argv, const char *shortopts,
		      const struct option *longopts, char *why, size_t whylen);

/* An output path refused before minutes of work: -1 with why when it is a
 * directory, a FIFO, a device or a socket (the message lists accepted), or
 * its directory does not exist.
 * NULL and "-" (standard output) pass. opt names the option. */
int opts_check_output(const char *opt, const char *path, const char *accepted, char *why,
		      size_t whylen);

/* Prints "ticklab CMD: why" on stderr and returns TL_EXIT_USAGE. */
int opts_fail(const char *cmd, const char *why);

#endif
