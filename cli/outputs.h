/* What run and report share: the options --os-filter, --json, --csv and
 * --markdown, the table of an analysed run and its files. */
#ifndef TL_CLI_OUTPUTS_H
#define TL_CLI_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/results.h"

/* A --csv FILE
 * (not -) gets a per-cell summary CSV beside it (tl_summary_csv_path). */
struct cli_outputs {
	int os;                 /* an enum tl_os_method; the caller's default until given */
	const char *json, *csv, *markdown; /* paths, "-" for stdout, or NULL */
};
/* For a command's option(): takes c (with arg) when it is one of those
 * options and returns 0; -1 with why on a bad --os-filter; CLI_NOT_MINE
 * (cli/command.h) for anything else. */
int cli_outputs_option(struct cli_outputs *o, int c, const char *arg, char *why, size_t whylen);
/* -1 with why naming both options when two of paths[0..n) (NULL: not
 * given; "-": stdout, not a file) are one file, existing or not. */
int cli_outputs_distinct(const char *const *paths, const char *const *opts, size_t n, char *why,
			 size_t whylen);
/* -1 with why when two files would go to stdout, or two outputs (the CSV's
 * summary file included) name one path. */
int cli_outputs_check(const struct cli_outputs *o, char *why, size_t whylen);
/* Where the table goes: stderr when a file takes stdout, so the file stays clean. */
FILE *cli_table_stream(const struct cli_outputs *o);
/* The --json and --csv files opened before the work that fills them, so an
 * unwritable path (a missing or read-only directory) is said at once. */
struct cli_open_outputs {
	struct tl_out *json, *csv, *csv_summary, *markdown;
};
/* Opens o's files into h; a failure is said as "ticklab CMD: ..." on stderr
 * (nothing is left open). Returns TL_EXIT_OK or TL_EXIT_FAIL. */
int cli_outputs_open(const char *cmd, const struct cli_outputs *o, struct cli_open_outputs *h);
void cli_outputs_abort(struct cli_open_outputs *h);
/* Writes the JSON (raw samples, and host, which it takes), the CSVs and
 * the Markdown, into h's files when h is not NULL (and closes them), else
 * opening them now; failures are said as "ticklab CMD: ..." on stderr.
 * With cmp (run --baseline; else NULL) each compared cell's JSON gets a
 * "baseline" object and the Markdown a table of verdicts. Returns
 * TL_EXIT_OK or TL_EXIT_FAIL. */
struct tl_run_compare;
struct cli_baseline {
	const char *path;
	const struct tl_run *base;
	const struct tl_run_compare *cmp;
};
int cli_outputs_write(const char *cmd, const struct cli_outputs *o, struct cli_open_outputs *h,
		      const struct tl_run *run, const struct tl_analysis *an, enum tl_os_method m,
		      uint64_t seed, bool stopped, json_t *host, const struct cli_baseline *bl);

#endif
