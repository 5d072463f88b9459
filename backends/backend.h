/* Timer backends: one small interface, one registry (backends/registry.c).
 *
 * A backend is a constant struct; an opened backend is a struct tl_timer.
 * Each backend file instantiates the timed-region template of
 * backends/timed.h with its own inline read sequence, so the only things
 * between the two timestamps are the reads and the kernel. */
#ifndef TL_BACKENDS_BACKEND_H
#define TL_BACKENDS_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TL_ID_MAX 160
#define TL_WHY_MAX 256

enum tl_clock {
	TL_CLOCK_WALL,   /* real time: ns, TSC ticks, CNTVCT ticks */
	TL_CLOCK_CYCLES, /* core clock cycles from a PMU */
};

struct tl_timer;

/* The reading recipes, one per way of reading a clock (several backends
 * may share one: perf-read and perf-task-clock read() their fd alike).
 * Every row exists on every architecture; a kernel's function for a row
 * that cannot run here is NULL, and that backend's open always fails. */
enum tl_timing {
	TL_TIMING_BARRIER_TSC,
	TL_TIMING_BARRIER_RDTSC,
	TL_TIMING_PLAIN_RDTSC,
	TL_TIMING_BARRIER_PMC,
	TL_TIMING_BARRIER_CNTVCT,
	TL_TIMING_BARRIER_PMCCNTR,
	TL_TIMING_PAPI_NSEC,
	TL_TIMING_PAPI_CYC,
	TL_TIMING_PAPI_READ,
	TL_TIMING_POSIX_MONO,
	TL_TIMING_POSIX_RAW,
	TL_TIMING_POSIX_REAL,
	TL_TIMING_PERF,
	TL_TIMING_SIM, /* a model, not a clock: the kernel states its cost (backends/sim.h) */
	TL_TIMINGS
};

struct tl_backend {
	const char *id;     /* stable id, e.g. "barrier-tsc" */
	const char *family; /* file it lives in: "barrier", "papi", "posix", "perf", "sim" */
	enum tl_clock clock;
	const char *unit;   /* unit of raw readings: "ticks", "ns", "cycles" */
	const char *how;    /* one line: the read sequence, e.g. "lfence; rdtscp; lfence" */
	bool simulated;     /* never a real measurement: always labelled simulated */

	/* Probes and opens. params is the text after "id:" (NULL when none).
	 * Returns 0, or -1 with why filled with a reason a user can act on.
	 * Must never execute an instruction that can fault before it has proved
	 * the instruction is enabled for user space. Sets t->ns_per_unit. */
	int (*open)(struct tl_timer *t, const char *params, char *why, size_t whylen);
	void (*close)(struct tl_timer *t);

	/* How it reads the clock, as a row of the reading recipes
	 * (backends/reads.h): each kernel of the kernel table (bench/kernels/)
	 * instantiates the timed-region template once per row, so the
	 * backend carries no function per kernel and the kernel's body is
	 * inlined between the two reads. Backends that count one thread
	 * (perf-*, papi-read, barrier-pmc/pmccntr) may be opened on one
	 * thread and timed on another: the first timing on a new thread moves
	 * the counter there before its first read. NaN means the reading
	 * failed (e.g. that move failed); no counter was trusted. */
	enum tl_timing timing;
};

struct tl_timer {
	const struct tl_backend *backend;
	char id[TL_ID_MAX];  /* the full id the user gave, with parameters */
	double ns_per_unit;  /* raw unit -> ns (for cycles: at the nominal TSC rate) */
	char note[TL_WHY_MAX]; /* once open: how availability was decided, or "" */
	void *state;         /* backend-private */
};

/* NULL-terminated list of every backend, on every architecture. */
extern const struct tl_backend *const tl_backends[];

/* The backend whose id matches text up to an optional ':' (NULL if none). */
const struct tl_backend *tl_backend_find(const char *id_with_params);

/* The serialized barrier timer this node can run, for default comparisons:
 * barrier-tsc where it opens, else barrier-rdtsc (x86); barrier-cntvct
 * (Armv8). NULL when none opens. said gets one line saying which and why. */
const char *tl_backend_default_barrier(char *said, size_t saidlen);

/* Every known id, ", "-separated, for error messages ("barrier-tsc, rdtsc, ..."). */
const char *tl_backend_ids(void);

/* Looks up and opens; on failure why says "unknown backend ..." or the probe's reason. */
int tl_timer_open(struct tl_timer *t, const char *id_with_params, char *why, size_t whylen);
void tl_timer_close(struct tl_timer *t);

/* Wall seconds on CLOCK_MONOTONIC: for progress, time limits and benchmarks,
 * never between a timed region's two reads. */
double tl_monotonic_s(void);

/* --- machine facts the probes need and `info` shows (backends/x86.c etc.) --- */

/* Calibrated TSC frequency in GHz (0 when there is no usable TSC). Cached. */
double tl_tsc_ghz(void);

/* Whether LFENCE is dispatch-serializing on this CPU; how says how we know
 * ("Intel: always", "AMD: CPUID 8000_0021h EAX[2]", "AMD: DE_CFG bit 1",
 * "unknown"). Returns 1 yes, 0 no, -1 unknown or not x86. */
int tl_x86_lfence_serializing(char *how, size_t howlen);

/* Whether the FMA chain (fma:K) can run here: 1, or 0 with why saying
 * what is missing (x86 without FMA or without OS support for AVX state). */
int tl_fma_supported(char *why, size_t whylen);

/* PAPI components and their hardware counter counts, one per line, or why
 * PAPI is unavailable. */
void tl_papi_describe(char *buf, size_t len);

#endif
