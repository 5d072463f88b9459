/* A run out, as JSON (jansson) and CSV, written atomically (io/atomic.h);
 * io/run_load.h reads it back.
 *
 * Shape of a run file (the keys other tools and old files rely on; new keys
 * are only ever added):
 *   {"ticklab": {"version", "command": "run"}, "host": {...}, "seed", "n", "cpu",
 *    "os_filter": "iforest"|"iqr"|"none", "interrupted": bool,
 *    "cells": [cell...],      one per backend x flush x kernel the user asked for
 *    "baselines": [cell...]}  the hidden empty baselines the runner added to
 *                             measure t_e,std (each flagged "baseline": true)
 * cell: {"backend", "family", "clock": "wall"|"cycles", "unit", "ns_per_unit",
 *        "simulated", "kernel", "kind", "k", ("d", "p" for jitter), "flush_bytes",
 *        "flush", "n" (samples kept, = done), "n_planned", "overhead" (t_e,std ns),
 *        "overhead_sd_ns" (its spread: the filtered sd of the baseline cell),
 *        "resolution_ns", "samples" (raw, backend unit), "samples_ns",
 *        "adds" (per-sample ADD counts, jitter cells only), "summary" {n, os_removed,
 *        min, p1, p5, p50, p95, p99, max, mean, sd, cv} (ns after filter_cost and
 *        filter_os), "os_filter" {method, active, beta, lowest_score, removed,
 *        ran ("iforest", "iforest+levels", "fence", "fence+levels", "iqr", "none": what
 *        decided the kept set), levels_kept, note}}
 * Doubles are printed with 17 significant digits (round-trip exact); a NaN
 * (no data) is written as null. */
#ifndef TL_IO_RUN_JSON_H
#define TL_IO_RUN_JSON_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/runner.h"
#include "io/atomic.h"
#include "io/json_build.h"
#include "stats/stats.h"

/* The run document. an[i] is cell i's analysis (from tl_cell_analyse with
 * method m and seed); host is the node description (reference stolen, may
 * be NULL). With an NULL the document has the raw samples only: no
 * "summary", "os_filter", "drift" or "jitter", and "analysed": false (what
 * `run` saves before its analysis; report reads it like any run file). */
json_t *tl_run_to_json(const struct tl_run *run, const struct tl_analysis *an,
		       enum tl_os_method m, uint64_t seed, bool interrupted, json_t *host);

/* The same document for writing: the tree (tl_run_doc_json, which a caller
 * may add keys to) holds stand-ins for the sample arrays, and the commit
 * prints the run's arrays in their place, so a run of any size costs a
 * few kB of tree, not ~60 B per sample. The bytes are those json_dumpf of
 * tl_run_to_json's tree would give. host is stolen. The run must outlive
 * the document. */
struct tl_run_doc;
struct tl_run_doc *tl_run_doc_new(const struct tl_run *run, const struct tl_analysis *an,
				  enum tl_os_method m, uint64_t seed, bool interrupted, json_t *host);
json_t *tl_run_doc_json(struct tl_run_doc *d);
/* Commits into o (which it frees; d stays the caller's). */
int tl_run_doc_commit(struct tl_out *o, struct tl_run_doc *d, char *why, size_t whylen);
/* The document and its newline to f: 0, or -1 on a write error. */
int tl_run_doc_write(FILE *f, struct tl_run_doc *d);
void tl_run_doc_free(struct tl_run_doc *d);

/* What run --baseline (and the TUI's --baseline) adds to a run file: each
 * compared cell's "baseline" verdict and the top "baseline" summary
 * (tl_run_compare_attach). */
struct tl_run_compare;
struct tl_run_json_baseline {
	const char *path;                  /* as the user named it */
	const struct tl_run *base;
	const struct tl_run_compare *cmp;
};

/* The one writer of an analysed run file, for every face (run --json,
 * report --json, the TUI's export): the document of tl_run_doc_new, the
 * baseline's verdicts attached when bl is not NULL, streamed into o (which
 * it frees). host is stolen. 0, or -1 with why. */
int tl_run_json_commit(struct tl_out *o, const struct tl_run *run, const struct tl_analysis *an,
		       enum tl_os_method m, uint64_t seed, bool interrupted, json_t *host,
		       const struct tl_run_json_baseline *bl, char *why, size_t whylen);

/* tl_run_json_commit that gives up soon after *stop (may be NULL) is set,
 * in the noise agreement's analyses and between blocks of samples: -1
 * with why "interrupted", the target untouched (its temporary dropped). */
int tl_run_json_commit_until(struct tl_out *o, const struct tl_run *run,
			     const struct tl_analysis *an, enum tl_os_method m, uint64_t seed,
			     bool interrupted, json_t *host, const struct tl_run_json_baseline *bl,
			     const atomic_bool *stop, char *why, size_t whylen);

/* tl_run_to_json(run, NULL, ...) committed into o (which it frees): the
 * raw form, no analysis and each sample once ("samples", in the backend's
 * unit; no "samples_ns", which the readers make as samples x ns_per_unit),
 * the cheapest file that keeps a run. */
int tl_run_commit_raw(struct tl_out *o, const struct tl_run *run, enum tl_os_method m,
		      uint64_t seed, bool interrupted, json_t *host, char *why, size_t whylen);

/* A finished run's per-sample operation counts where they are all the
 * kernel's own (every cell but jitter's): freed, adds set to NULL, since
 * nothing after sampling needs them (the file writes adds for jitter
 * cells only, the CSV prints tl_cell_adds). 8 B a sample of the peak of
 * run --json, which aims at 40 B a sample; a loaded run has them NULL already. */
void tl_run_drop_constant_adds(struct tl_run *run);
/* Sample i's operation count: adds[i], or the kernel's own when NULL. */
uint64_t tl_cell_adds(const struct tl_cell *c, size_t i);

/* One row per sample of every visible cell:
 * backend,flush_bytes,kernel,k,i,raw,ns (k is the sample's ADD count). */
int tl_run_write_csv(const char *path, const struct tl_run *run, char *why, size_t whylen);
int tl_run_commit_csv(struct tl_out *o, const struct tl_run *run, char *why, size_t whylen);
/* The same, giving up soon after *stop (may be NULL) is set: -1 with why
 * "interrupted", nothing written. */
int tl_run_write_csv_until(const char *path, const struct tl_run *run, const atomic_bool *stop,
			   char *why, size_t whylen);
int tl_run_commit_csv_until(struct tl_out *o, const struct tl_run *run, const atomic_bool *stop,
			    char *why, size_t whylen);


#endif
