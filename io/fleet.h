/* A fleet in and out: fingerprints of many nodes loaded (their figures
 * from tl_fp_figures_from_json, so a node's row is what `ticklab report`
 * prints for its file), judged by judge/fleet.h, and the verdicts printed
 * as a table, Markdown, CSV and JSON. */
#ifndef TL_IO_FLEET_H
#define TL_IO_FLEET_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "io/fingerprint.h"
#include "judge/fleet.h"

/* Loads every fingerprint named in paths: files, or directories whose
 * *.json files are all read (dot files skipped); a fleet --partial file
 * gives all its nodes. One file at a time: its raw samples become the
 * node's histogram and are let go before the next file is read. A file
 * that cannot be read or is not a fingerprint is skipped and listed in
 * fl->bad (strict: refused instead). Refused, with why naming the files:
 * a version differing from the first file's, a node seen twice, no
 * fingerprint at all. progress may be NULL. Returns 0 or -1. */
int tl_fleet_load(char *const *paths, size_t npaths, bool strict,
		  const struct tl_fleet_progress *progress, struct tl_fleet *fl, char *why,
		  size_t whylen);

void tl_fleet_free(struct tl_fleet *fl);

/* The loaded nodes as one mergeable document: `fleet --partial`. Reading
 * it back (tl_fleet_load) gives the same nodes, so judging partials merged
 * equals judging their files in one step. Never NULL. */
json_t *tl_fleet_partial_to_json(const struct tl_fleet *fl);

void tl_fleet_table_print(FILE *out, const struct tl_fleet *fl);
void tl_fleet_markdown_print(FILE *out, const struct tl_fleet *fl);
/* One row per node: node, group, model, tsc_ghz, every figure by its JSON
 * key at full precision, ks_d, flagged, reasons; strings from the files
 * through tl_csv_fputs. 0, or -1 on a write error. */
int tl_fleet_csv_print(FILE *out, const struct tl_fleet *fl);

/* "NAME<sep>REASONS" on one line, both escaped: what `fleet -q` prints
 * per flagged node, so a name from a file cannot forge a line. */
void tl_fleet_reason_line(FILE *out, const struct tl_fleet_node *nd, const char *sep);

/* Never NULL. */
json_t *tl_fleet_to_json(const struct tl_fleet *fl);

#endif
