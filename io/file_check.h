/* Checks every reader of a saved file shares: the file's
 * "ticklab" marker and version, and strings safe to print. The loaders of
 * each kind (io/run_load.c, io/search_json.c, io/fingerprint.c) call them
 * before they read a value, so the CLI and the TUI refuse the same files
 * with the same words. */
#ifndef TL_IO_FILE_CHECK_H
#define TL_IO_FILE_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* doc's "ticklab": {"version": "X.Y.Z", "command": command}. Refused: no
 * marker, another command (the kind that was given is named), a version
 * that is not X.Y.Z or is newer than this ticklab's (named). -1 with why =
 * "NAME: ticklab...: what is wrong". */
int tl_file_marker_check(const json_t *doc, const char *name, const char *command, char *why,
			 size_t whylen);

/* Whether s is a host name Slurm would take as a node name: 1 to 63
 * letters, digits, '-', '_' and '.', beginning with a letter or digit. */
bool tl_file_hostname_ok(const char *s);

/* The plausible rate of a TSC in GHz, one rule for every file kind that
 * records one (a run's or a search's host, a fingerprint). */
#define TL_TSC_GHZ_MIN 0.1
#define TL_TSC_GHZ_MAX 10.0

/* doc's "host", when there: an object whose "tsc_ghz" is null (unknown) or
 * a plausible rate. -1 with why naming the key, the value and the rule. */
int tl_file_host_check(const json_t *doc, const char *name, char *why, size_t whylen);

/* A search file's numbers and strings, key by key as io/search_keys.c
 * describes them (times finite, >= 0 and below TL_RESULTS_MAX_ABS, counts
 * whole and >= 0, ratios finite and >= 0, printed strings free of control
 * characters), each backend x flush once. Keys it does not know are left
 * alone (newer files may add some). */
int tl_search_json_check(const json_t *doc, const char *name, char *why, size_t whylen);

#endif
