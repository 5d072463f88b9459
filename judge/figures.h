/* A node's figures, as a fingerprint gives them (io/fingerprint.h reads
 * them from its file), and how the fleet judges each of them. */
#ifndef TL_JUDGE_FIGURES_H
#define TL_JUDGE_FIGURES_H

#include <stdbool.h>
#include <stddef.h>

#include "bench/fingerprint.h"
#include "stats/fleet.h"

/* Who the node is: its short hostname and, inside a Slurm job, the node
 * name and job id ("" when not set). name is the one the fleet keys on:
 * the Slurm node name when there is one (several slurmd may share a host),
 * else the short hostname. */
struct tl_fp_node {
	char name[128], hostname[128], slurm_node[128], slurm_job[64];
};

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

/* A value as every table prints it ("-" for NaN). */
void tl_fig_format(enum tl_fig i, double v, char *buf, size_t len);

#endif
