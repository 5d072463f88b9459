/* The memory levels a pointer chase sees: where ns per load steps up as the
 * buffer doubles, found from the data alone, then set beside the sizes
 * CPUID/hwloc report. Pure functions, no I/O (tested on recorded ladders).
 *
 * A VM may be told of caches it does not get (the bhyve guest's CPUID says
 * L3 508 MiB; a chase reads memory latency from 8 MiB), so the reported
 * sizes name the levels but never place them. */
#ifndef TL_STATS_LEVELS_H
#define TL_STATS_LEVELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATS_LEVELS_MAX_POINTS 48
#define STATS_LEVELS_MAX_CACHES 4
/* Memory's latency is never below this; no cache's reaches it in the guests
 * and hosts the lab met when quiet (L3 <= 25 ns, memory >= 80 ns; a busy
 * guest's L3 share can read 60 ns): the step into memory is the last rise
 * that lands at or above it and a step above every smaller size. */
#define STATS_LEVELS_MEMORY_NS 50.0
/* The smallest rise between neighbouring points that can be a step. */
#define STATS_LEVELS_MIN_STEP 1.5
/* The cost of one more level, in squared log latency: a level must make the
 * plateaus this much flatter to be counted (a cache holding a buffer half
 * in, half out reads between two levels, and is not a level of its own). */
#define STATS_LEVELS_PENALTY 0.4

struct stats_level {
	size_t first, last;   /* its points */
	double ns;            /* median ns per load over them */
	double lo_bytes;      /* the largest size read at this latency */
	double hi_bytes;      /* the next size chased (slower); 0: none was */
};

struct stats_levels {
	size_t ncaches;       /* cache levels seen, fastest first */
	struct stats_level cache[STATS_LEVELS_MAX_CACHES];
	bool memory_seen;     /* a step into memory latency was seen */
	struct stats_level memory; /* its points; lo/hi_bytes are its first/last size */
};

/* bytes[] ascending, ns[] ns per load there (NaN or <= 0: left out).
 * max_caches: at most this many cache levels (the number CPUID reports;
 * 0: STATS_LEVELS_MAX_CACHES). Returns 0, or -1 when fewer than 2 usable
 * points, more than STATS_LEVELS_MAX_POINTS, or sizes not ascending. */
int stats_levels_find(const double *bytes, const double *ns, size_t n, size_t max_caches,
		      struct stats_levels *out);

/* The measured levels beside the reported ones. reported[0..nrep) are the
 * CPUID/hwloc sizes of L1d, L2, L3 ascending (zeros left out by the
 * caller). match[j] is the measured cache level reported level j is, or -1
 * when the chase saw no step for it; the measured levels keep their order,
 * and with fewer measured than reported the assignment that puts each
 * reported size nearest its measured boundary (in log size) wins. */
void stats_levels_match(const struct stats_levels *lv, const double *reported, size_t nrep,
			int *match);

/* A reported size agrees with a measured level whose boundary lies in
 * [lo, hi] when it is within 2x of it: lo / 2 <= reported <= 2 hi (hi 0:
 * no upper bound seen). */
bool stats_levels_agree(const struct stats_level *l, double reported);

#endif
