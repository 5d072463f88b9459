/* Saved results: a run as JSON (jansson) and CSV, written atomically, and
 * read back into a struct tl_run so `report` and the TUI replay can use it.
 *
 * Shape of a run file (SPEC section 5; extra keys are ours):
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
 *        filter_os), "os_filter" {method, active, beta, lowest_score, removed, note}}
 * Doubles are printed with 17 significant digits (round-trip exact); a NaN
 * (no data) is written as null. */
#ifndef TL_IO_RESULTS_H
#define TL_IO_RESULTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/runner.h"
#include "stats/stats.h"

/* The largest magnitude a saved time may have (ns, or the backend's unit):
 * about 11 days. Larger values are a corrupt or hostile file; refusing them
 * at read time keeps every statistic finite. */
#define TL_RESULTS_MAX_ABS 1e15

/* What a run file says besides the cells. */
struct tl_results_meta {
	uint64_t seed;
	enum tl_os_method os;
	bool interrupted;
	json_t *host; /* the file's "host" object (owned; NULL when absent) */
};

/* Writes through emit() to a temporary file in path's directory, fsyncs and
 * renames it over path, so readers never see a partial file and a failure
 * leaves nothing behind. The temporary is anonymous (O_TMPFILE, linked at
 * the end) where the file system allows, so a kill -9 leaves nothing either;
 * elsewhere it is .NAME.XXXXXX. A symlink is followed (its target is
 * replaced), an existing file keeps its mode, and a target that is not a
 * regular file (/dev/null, a FIFO, /dev/stdout) is written in place; a
 * directory is refused. path "-" writes to stdout. Returns 0, or -1 with
 * why naming the path and the system's reason. */
int tl_write_atomic(const char *path, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
		    size_t whylen);

/* tl_write_atomic in two steps, so an output is opened (its temporary
 * created, a device opened) before the work that fills it: open says at
 * once when path cannot be written. commit writes, fsyncs and renames;
 * abort drops it. Both free the handle. */
struct tl_out;
struct tl_out *tl_out_open(const char *path, char *why, size_t whylen);
int tl_out_commit(struct tl_out *o, int (*emit)(FILE *f, void *ctx), void *ctx, char *why,
		  size_t whylen);
void tl_out_abort(struct tl_out *o);
/* Whether o writes where it is (stdout, a device, a FIFO): such a target
 * is written once, never twice. */
bool tl_out_in_place(const struct tl_out *o);

/* A JSON document to path ("-": stdout), indented, doubles round-trip exact. */
int tl_json_write(const char *path, const json_t *doc, char *why, size_t whylen);
/* The same into an output opened by tl_out_open (which it frees). */
int tl_json_commit(struct tl_out *o, const json_t *doc, char *why, size_t whylen);

/* A JSON number, or null for NaN/inf (jansson refuses non-finite reals). */
json_t *tl_json_real(double v);

/* The run document. an[i] is cell i's analysis (from tl_cell_analyse with
 * method m and seed); host is the node description (reference stolen, may
 * be NULL). With an NULL the document has the raw samples only: no
 * "summary", "os_filter", "drift" or "jitter", and "analysed": false (what
 * `run` saves before its analysis; report reads it like any run file).
 * Returns NULL only when out of memory. */
json_t *tl_run_to_json(const struct tl_run *run, const struct tl_analysis *an,
		       enum tl_os_method m, uint64_t seed, bool interrupted, json_t *host);

/* tl_run_to_json(run, NULL, ...) committed into o (which it frees). */
int tl_run_commit_raw(struct tl_out *o, const struct tl_run *run, enum tl_os_method m,
		      uint64_t seed, bool interrupted, json_t *host, char *why, size_t whylen);

/* One row per sample of every visible cell:
 * backend,flush_bytes,kernel,k,i,raw,ns (k is the sample's ADD count). */
int tl_run_write_csv(const char *path, const struct tl_run *run, char *why, size_t whylen);
int tl_run_commit_csv(struct tl_out *o, const struct tl_run *run, char *why, size_t whylen);

/* One CSV field, RFC 4180-quoted when it holds a comma, quote or newline
 * (sim parameters, jitter kernels). 0, or -1 on a write error. */
int tl_csv_field(FILE *f, const char *s);

/* A JSON file (path "-": standard input), duplicate keys refused; NULL
 * with why = "FILE:line:col: not valid JSON: ..." */
json_t *tl_json_load(const char *path, char *why, size_t whylen);

/* Reads a run file written by tl_run_to_json. Timers are not opened: each
 * keeps its backend, id and ns_per_unit (state NULL). Every key is checked
 * (times beyond +-TL_RESULTS_MAX_ABS, NaN and infinities are refused);
 * a problem gives -1 with why = "FILE: where: what is wrong". The run
 * owns what it holds, as a prepared one does: tl_run_free frees it, and
 * tl_run_unload does that and drops meta's host (meta may be NULL). */
int tl_run_load(const char *path, struct tl_run *run, struct tl_results_meta *meta, char *why,
		size_t whylen);
/* The same from a parsed document; name is used in messages. */
int tl_run_from_json(const json_t *doc, const char *name, struct tl_run *run,
		     struct tl_results_meta *meta, char *why, size_t whylen);
void tl_run_unload(struct tl_run *run, struct tl_results_meta *meta);

#endif
