/* `ticklab fingerprint`: one fixed battery that characterises a node, the
 * same on every node of a fleet so their figures can be set side by side
 * (io/fingerprint.h reads them, `ticklab fleet` compares them).
 *
 * The battery: the node's facts and spoilers with the clock-drift probe
 * (bench/host.h), one interleaved run of the default barrier timer,
 * papi-real-nsec and clock-gettime (those that open) over `empty` and an
 * add:TL_FP_ADDS chain at flush 0 and 4xL2, a fast t_min/t_diff search of
 * the barrier timer at flush 0, and what the scheduler did to the sampling
 * thread meanwhile (its CPU share and involuntary context switches): a
 * busy neighbour on the sampling CPU shows there first. Last, a short noise
 * probe on the sampling CPU (bench/noise.h): what interrupts a loop there,
 * by cause, so a fleet can name what makes a node noisier than its twins. */
#ifndef TL_BENCH_FINGERPRINT_H
#define TL_BENCH_FINGERPRINT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/host.h"
#include "bench/noise.h"
#include "bench/runner.h"
#include "bench/search_cell.h"

#define TL_FP_ADDS 2000       /* the chain every node runs */
#define TL_FP_BUDGET_S 30.0   /* the default battery */
#define TL_FP_QUICK_S 5.0     /* --quick */
#define TL_FP_MAX_BACKENDS 3
#define TL_FP_NOISE_S 1.0     /* the noise probe (half of it on budgets under 10 s) */

struct tl_fp_config {
	double budget_s; /* seconds the battery aims at (fixed costs come on top of small budgets) */
	int cpu;         /* -1: tl_cpu_default() */
	uint64_t seed;
};

/* What the scheduler did to the sampling thread while it measured. */
struct tl_fp_sched {
	double seconds;      /* wall time of the measuring phases */
	double cpu_seconds;  /* the thread's user + system time over them */
	long involuntary;    /* context switches it did not ask for */
};

struct tl_fp {
	struct tl_fp_config cfg;
	char barrier[TL_ID_MAX]; /* the default barrier timer ("" when none opens) */
	char barrier_said[256];  /* which and why */
	char *backends[TL_FP_MAX_BACKENDS];
	size_t nbackends;
	char skipped[512];       /* backends or flushes left out, and why ("" none) */
	struct tl_host host;
	struct tl_run run;
	bool have_run;
	struct tl_search_plan plan;
	struct tl_search_cell *cells; /* NULL when no barrier timer opens */
	bool search_cut;         /* stopped at the battery's deadline (twice its share) */
	struct tl_fp_sched sched;
	struct tl_noise_probe noise;
	bool have_noise;
	char noise_why[256];     /* why the probe did not run ("" when it did) */
	double seconds;          /* the whole battery */
};

/* Runs the battery on cfg->cpu (the calling thread is pinned and its
 * affinity restored). stop (may be NULL) ends it early. Returns 0, 1 when
 * stopped (what was measured is kept), -1 with why when nothing could be
 * measured. Free with tl_fp_free either way. */
int tl_fp_measure(const struct tl_fp_config *cfg, struct tl_fp *fp, atomic_bool *stop, char *why,
		  size_t whylen);
void tl_fp_free(struct tl_fp *fp);

#endif
