/* The sampling runner: pins, warms up, takes interleaved samples per cell. */
#ifndef TL_BENCH_RUNNER_H
#define TL_BENCH_RUNNER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"
#include "bench/flush.h"
#include "bench/kernel.h"
#include "bench/noise.h"

#define TL_DEFAULT_N 10000
#define TL_DEFAULT_CHUNK 100
/* Untimed measurements per timer before sampling starts. */
#define TL_WARMUP 300

struct tl_cell {
	size_t timer;          /* index into run->timers */
	size_t flush;          /* index into run->flush_bytes */
	struct tl_kernel kernel;
	bool hidden;           /* an empty baseline the user did not ask for */
	size_t baseline;       /* index of the empty cell of the same timer and flush */
	size_t n;              /* samples wanted */
	size_t chunk;          /* samples per interleaved chunk: the run's, or for a load
				* cell enough that the chunk's loads cover its buffer */
	_Atomic size_t done;   /* samples taken so far (grows per sample while running) */
	double *raw;           /* n samples in the backend's unit */
	double *ns;            /* the same in ns */
	uint64_t *adds;        /* planned operation count of each sample (ADDs, MULs, ...) */
	void *chase;           /* load: the pointer-chase buffer, laid out before sampling */
	const void *cursor;    /* load: where the next timing's chase starts */
	bool chase_shared;     /* chase is a memfd mapping (TICKLAB_TEST_REFAULT) */
	double overhead_ns;    /* t_e,std: median of the baseline's ns (NAN until known) */
	double resolution_ns;  /* the timer's measured resolution, in ns */
	double d_ns_per_add;   /* jitter with D in ns: the ns per ADD its timer measured
				* before sampling, which turned D into kernel.d ADDs
				* (NAN otherwise) */
	struct tl_cell_noise noise; /* samples with a cause (bench/noise.h); filled as
				     * chunks end, window causes when the run ends */
};

/* What a run was asked for. A run keeps its own deep copy (tl_run_prepare,
 * tl_run_own_config): the caller's arrays may go once prepare returns. */
struct tl_run_config {
	const char **backends; /* ids with parameters */
	size_t nbackends;
	const uint64_t *flush_bytes;
	/* Each flush as the user gave it ("4xL3"), beside its bytes: files key
	 * cells by it and tables show both. NULL, or an entry NULL: none. */
	const char *const *flush_names;
	size_t nflush;
	const struct tl_kernel *kernels;
	size_t nkernels;
	size_t n;              /* samples per cell (default TL_DEFAULT_N) */
	int cpu;               /* -1: the last allowed CPU */
	uint64_t seed;
	size_t chunk;          /* samples per interleaved chunk (0: default) */
	bool no_noise;         /* do not track what interrupts samples (bench/noise.h) */
	/* May be NULL. Set from a signal handler: preparing stops touching
	 * the flush buffers, the estimate stops timing them, and the run
	 * starts stopped (nothing is sampled), so a hang-up while gigabytes
	 * are being laid out ends the process at once. */
	const atomic_bool *cancel;
};

struct tl_run {
	struct tl_run_config cfg;
	struct tl_timer *timers;
	size_t ntimers;
	uint64_t *flush_bytes;
	char **flush_names;             /* parallel to flush_bytes; an entry NULL: none given */
	struct tl_flush *flushes;       /* one buffer per flush size, allocated once */
	size_t nflush;
	struct tl_cell *cells;
	size_t ncells;
	int cpu;                        /* where sampling ran */
	bool timers_open;               /* opened by tl_run_prepare; a loaded run's timers
					 * only describe the backends (never closed) */
	_Atomic size_t samples_done;    /* over all cells, counted per sample */
	size_t samples_total;
	atomic_bool stop;               /* set from anywhere: the run ends after the current sample */
	atomic_bool paused;             /* sampling waits after the current sample */
	atomic_bool in_timed_window;    /* true around each timed call only, never a flush
					 * (drawing waits for it to fall) */
	bool noise_measured;            /* the cells' noise was tracked (or read back) */
	struct tl_noise_info noise;     /* how: the mechanisms and their cost */
};

/* Opens every timer (failing with the probe's reason when one is
 * unavailable, or when a kernel cannot run here, e.g. fma:K without FMA),
 * allocates every cell, lays out load buffers, adds hidden empty baselines. */
int tl_run_prepare(struct tl_run *run, const struct tl_run_config *cfg, char *why, size_t whylen);

/* Pins the calling thread to run->cpu (restoring its affinity on return),
 * warms up, measures each timer's resolution, samples every cell in a
 * seeded shuffled order of chunks. on_chunk (may be NULL) is called after
 * each chunk, outside any timed window. Returns 0, 1 when stopped early
 * (samples taken so far are kept: cell->done), -1 with why on error, -2
 * with why when the input cannot be run as asked (a jitter D given in ns
 * that comes to more ADDs than the kernel delivers whole, found before
 * any sample). */
int tl_run_execute(struct tl_run *run, void (*on_chunk)(void *ctx, struct tl_run *run, size_t cell),
		   void *ctx, char *why, size_t whylen);

/* The flush as a table shows it: "4xL3 (16MiB)" when it was given by a
 * name that is not a plain size, else the size ("16MiB"). */
void tl_run_flush_label(const struct tl_run *run, size_t f, char *buf, size_t len);

/* Whether two flushes are the same cell's: by the names given when both
 * have one (4xL3 is 4xL3 whatever bytes each node's L3 made it), else by
 * bytes. */
bool tl_flush_matches(const char *name_a, uint64_t bytes_a, const char *name_b,
		      uint64_t bytes_b);

/* The name flush f was given by, NULL when none. */
const char *tl_run_flush_name(const struct tl_run *run, size_t f);

/* Frees everything a run holds, whether tl_run_prepare or the loader
 * (io/results.h) built it; the run is left zeroed, so a second call is
 * harmless. */
void tl_run_free(struct tl_run *run);

/* Sets run->cfg to a deep copy of cfg (ids, flush sizes, kernels), owned by
 * the run and freed by tl_run_free. Aborts when out of memory. */
void tl_run_own_config(struct tl_run *run, const struct tl_run_config *cfg);

/* A consistent view of a run that is still sampling: each cell's done is
 * read once (acquire, so the samples below it are complete) and t_e,std
 * is set from the baseline's samples so far, as the runner sets it from
 * all of them when it ends. The snapshot has its own cell array and
 * borrows the rest (config, timers, flushes, sample buffers) from run:
 * free it with tl_run_snapshot_free, before run. */
void tl_run_snapshot(const struct tl_run *run, struct tl_run *snap);
void tl_run_snapshot_free(struct tl_run *snap);

/* ADDs of the ns-per-ADD calibration: at ~0.2-1 ns per ADD, 0.2-1 ms, three
 * orders above a microsecond-step clock's resolution. */
#define TL_CAL_ADDS 1000000
#define TL_CAL_SAMPLES 15

/* The timer's ns per ADD, untimed by the run: the fastest of TL_CAL_SAMPLES
 * timings of TL_CAL_ADDS ADDs less the median of as many empty ones, over
 * TL_CAL_ADDS. The pinned thread's job, before the samples. */
double tl_ns_per_add(struct tl_timer *t);

/* D ADDs for D ns at ns_per_add: the nearest whole count, 0 when
 * ns_per_add is not a positive number. */
uint64_t tl_jitter_adds_for_ns(double d_ns, double ns_per_add);

/* One-off measurement for the searches: n samples of `adds` ADDs (empty when
 * adds == NULL), flushing f before each, raw units into out. */
void tl_measure(struct tl_timer *t, const struct tl_flush *f, const uint64_t *adds, size_t n,
		double *out);

/* The same for a jitter kernel: n samples of kern with the plan's codes
 * (tl_kernel_plan), each in its arm's variant. */
void tl_measure_jitter(struct tl_timer *t, const struct tl_flush *f, const struct tl_kernel *kern,
		       const uint64_t *codes, size_t n, double *out);

/* A seed for stream `index` derived from the run's seed (splitmix64), so
 * cells and searches get independent, reproducible generators. */
uint64_t tl_seed_derive(uint64_t seed, uint64_t index);

/* The last CPU in the affinity mask; pinning helpers. */
int tl_cpu_default(void);
int tl_cpu_pin(int cpu, char *why, size_t whylen);

#endif
