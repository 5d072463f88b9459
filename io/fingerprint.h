/* A fingerprint as JSON, and the figures read back from one. The figures
 * are computed only here (tl_fp_figures_from_json), from the saved raw
 * samples through bench/analysis.h and the saved search repeats through
 * io/search_json.h, so `ticklab fingerprint`, `ticklab report FILE` and a
 * node's row in `ticklab fleet` print the same numbers.
 *
 *   {"ticklab": {"version", "command": "fingerprint"},
 *    "node": {"name", "hostname", "slurm_node", "slurm_job"},
 *    "host": {...}, "budget_seconds", "seconds", "adds",
 *    "barrier", "barrier_why", "skipped",
 *    "drift": {timer, adds, seconds, lo_ns, hi_ns, rel_sd, drifts},
 *    "sched": {seconds, cpu_seconds, involuntary},
 *    "noise": {seconds, cpu, gap_ns, gaps, counts: {preempted, voluntary,
 *              page_faults, migrations, ticks, irqs, softirqs, unexplained},
 *              top: [{name, n}], sources: [{name, ok, why}]} or null
 *              (then "noise_why"; absent in files older than the probe),
 *    "run": a run document (io/results.h, raw samples included),
 *    "search": a search document (io/search_json.h) or null} */
#ifndef TL_IO_FINGERPRINT_H
#define TL_IO_FINGERPRINT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "bench/fingerprint.h"
#include "judge/figures.h"
#include "stats/fleet.h"

/* Fills n (judge/figures.h) from the environment and the host name. */
void tl_fp_node_read(struct tl_fp_node *n);

/* pattern with %h (short hostname), %n ($SLURMD_NODENAME), %j
 * ($SLURM_JOB_ID) and %% expanded into out. -1 with why for an unknown
 * %-sequence, a %n or %j outside Slurm, or a result too long. */
int tl_fp_expand_path(const char *pattern, const struct tl_fp_node *n, char *out, size_t len,
		      char *why, size_t whylen);

/* NULL only when the run's samples could not be analysed (buffers of
 * their size did not fit in memory). The document holds the run's raw
 * samples; tl_fp_compact makes the small one. */
json_t *tl_fp_to_json(const struct tl_fp *fp, const struct tl_fp_node *node);

/* The small fingerprint of a raw one (or of one already small): the same
 * document with "run" (every raw sample, ~1.3 MB) replaced by "summary"
 * (tl_fp_summary_to_json: the figures read from it and the histogram of
 * the samples the fleet tests, tens of KB). NULL with why when doc is
 * not a fingerprint that reads. */
json_t *tl_fp_compact(const json_t *doc, const char *name, char *why, size_t whylen);

bool tl_fp_json_is(const json_t *doc);

#define TL_FP_EXACT_MAX 512 /* a lattice timer's kept add:2000 samples span far fewer steps */
#define TL_FP_SAMPLES_MAX ((uint64_t)1 << 32) /* a histogram read holds at most this many */

/* The figures with the node's facts and the histogram: what the fleet
 * needs of a node ("summary" of a small fingerprint, a node of a fleet's
 * --partial), and back. Reading fills f whole; -1 with why naming name. */
json_t *tl_fp_summary_to_json(const struct tl_fp_figures *f);
int tl_fp_summary_from_json(const json_t *sum, const char *name, struct tl_fp_figures *f,
			    char *why, size_t whylen);

/* Reads and analyses a fingerprint document. -1 with why = "NAME: what is
 * wrong" (not a fingerprint, a part missing or malformed). */
int tl_fp_figures_from_json(const json_t *doc, const char *name, struct tl_fp_figures *f,
			    char *why, size_t whylen);
void tl_fp_figures_free(struct tl_fp_figures *f);

/* The one-screen table of one node. */
void tl_fp_table_print(FILE *out, const struct tl_fp_figures *f);

#endif
