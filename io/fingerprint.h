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
#include "stats/fleet.h"

/* Who the node is: its short hostname and, inside a Slurm job, the node
 * name and job id ("" when not set). name is the one the fleet keys on:
 * the Slurm node name when there is one (several slurmd may share a host),
 * else the short hostname. */
struct tl_fp_node {
	char name[128], hostname[128], slurm_node[128], slurm_job[64];
};
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

enum tl_fig {
	TL_FIG_NS_PER_ADD,
	TL_FIG_CV,
	TL_FIG_OS,
	TL_FIG_TAIL,
	TL_FIG_OVERHEAD,
	TL_FIG_FLUSH,
	TL_FIG_PAPI,
	TL_FIG_CGT,
	TL_FIG_DRIFT,
	TL_FIG_CPU,
	TL_FIG_PREEMPT,
	TL_FIG_TMIN,
	TL_FIG_TDIFF,
	/* The noise probe's rates on the sampling CPU, per second (bench/noise.h) */
	TL_FIG_NZ_PREEMPT,
	TL_FIG_NZ_FAULTS,
	TL_FIG_NZ_MIGRATIONS,
	TL_FIG_NZ_TICKS,
	TL_FIG_NZ_IRQS,
	TL_FIG_NZ_SOFTIRQS,
	TL_FIG_NZ_UNEXPLAINED,
	TL_FIG_COUNT
};
#define TL_FIG_NZ_FIRST TL_FIG_NZ_PREEMPT

/* How the fleet judges a figure. bad: +1 a high value is bad, -1 a low
 * one, 0 either way, 2 shown but never flagged (too noisy to accuse a node
 * with). floor_abs and floor_rel (of the fleet median) bound the spread
 * below, so a fleet of near-identical nodes does not turn a hair of
 * difference into a large score. */
struct tl_fig_info {
	const char *key;   /* JSON key */
	const char *label; /* table column */
	const char *unit;  /* after a value in words: "%", " ns", "/s" */
	const char *fmt;   /* printf format of a value */
	int bad;
	double floor_abs, floor_rel;
	/* A noise rate's plural noun ("preemptions"): a fleet says an odd one
	 * as a multiple of the fleet's ("40x the fleet's preemptions") and
	 * gives it no column of its table. NULL for the other figures. */
	const char *noun;
};
extern const struct tl_fig_info tl_fig_info[TL_FIG_COUNT];

struct tl_fp_figures {
	struct tl_fp_node node;
	char version[32], model[128], barrier[TL_ID_MAX], spoiled[256];
	double tsc_ghz;
	int cpu;
	double seconds;
	double v[TL_FIG_COUNT];      /* NaN: not measured on this node */
	double lo[TL_FIG_COUNT], hi[TL_FIG_COUNT]; /* intervals (t_min, t_diff), else NaN */
	char from[TL_FIG_COUNT][128]; /* where the figure comes from */
	/* The noise probe's busiest interrupt sources but the tick, with their
	 * rates ("irq 27:nvme0q1 850/s, softirq NET_RX 12/s"); "" when the
	 * fingerprint has no probe (older files) or it saw none. */
	char noise_top[160];
	/* The add:TL_FP_ADDS samples of the barrier timer at flush 0 that its
	 * summary kept (ns, after filter_cost and filter_os), for two-sample
	 * tests: their exact histogram (distinct values and counts: on a
	 * lattice timer, the lattice's steps), or, past TL_FP_EXACT_MAX
	 * distinct values, log-linear buckets (hist_exact false; each value
	 * within TL_HIST_REL_ERR of itself). nsamples = hist.total. */
	struct tl_hist hist;
	bool hist_exact;
	size_t nsamples;
};

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

/* A value as every table prints it ("-" for NaN). */
void tl_fig_format(enum tl_fig i, double v, char *buf, size_t len);

/* The one-screen table of one node. */
void tl_fp_table_print(FILE *out, const struct tl_fp_figures *f);

#endif
