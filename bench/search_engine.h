/* The searches' measurement callback over a real (or sim) timer: every
 * measurement flushes first (tl_measure), readings are converted to ns.
 * Also the caller-side facts a search needs: t_e,std and ns per ADD under
 * the same timer and flush, and what one flush costs. */
#ifndef TL_BENCH_SEARCH_ENGINE_H
#define TL_BENCH_SEARCH_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"
#include "bench/flush.h"

struct tl_search_engine {
	struct tl_timer *timer;
	const struct tl_flush *flush;
	atomic_bool *stop;   /* may be NULL; checked between chunks */
	size_t chunk;        /* measurements between stop checks (0: from the flush cost) */
	size_t measurements; /* every timed measurement taken through this engine */
	double deadline;     /* tl_monotonic_s past which it measures no more (0: none) */
	bool past_deadline;  /* a measurement was refused for it */
	/* the readings the last tl_search_engine_overhead took (n_empty): the
	 * spread of the empty kernel, which fast t_min reads before its first
	 * point (tl_search_io.empty_ns) */
	double *empty;
	size_t n_empty;
	uint64_t *adds;      /* scratch, grown as needed */
	double *raw;
	size_t cap;
};

/* chunk 0 picks about 0.2 s of measurements per stop check. */
void tl_search_engine_init(struct tl_search_engine *e, struct tl_timer *t,
			   const struct tl_flush *f, atomic_bool *stop);
void tl_search_engine_free(struct tl_search_engine *e);

/* tl_measure_fn: n measurements of `adds` ADDs (or the empty kernel), in ns.
 * Returns 0, or -1 when stopped or past the deadline (out_ns then
 * incomplete). */
int tl_search_engine_measure(void *ctx, uint64_t adds, bool empty, size_t n, double *out_ns);

/* The search's measure_mix: n measurements, the i-th of adds[i] ADDs, in
 * that order in one pass (each flushed first, as every measurement). */
int tl_search_engine_measure_mix(void *ctx, const uint64_t *adds, size_t n, double *out_ns);

/* Seconds one flush of f takes (median of a few; 0 for size 0). */
double tl_search_engine_flush_seconds(const struct tl_flush *f);

/* t_e,std: median of n empty measurements in ns, same flush. NAN when
 * stopped. The readings stay in e->empty. */
double tl_search_engine_overhead(struct tl_search_engine *e, size_t n);

/* ns per ADD: least-squares slope of medians (n measurements each) against
 * K over nk values of K spread over [0, kmax]; r2 may be NULL. Returns 0,
 * or -1 when stopped or the fit failed. */
int tl_search_engine_ns_per_add(struct tl_search_engine *e, uint64_t kmax, size_t nk, size_t n,
				double *slope, double *r2);

#endif
