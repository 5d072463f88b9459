/* The node's memory levels, measured: a short pointer chase over doubling
 * sizes on the sampling CPU (stats/levels.h finds the steps), set beside
 * what CPUID/hwloc report. What `info`, the flush sizes (4xL3) and the
 * ladder go by, since a VM's CPUID may claim caches the guest never gets.
 *
 * Environment (documented in README):
 *   TL_LEVELS=off        do not chase; the reported sizes stand (tests that
 *                        do not need the levels set it to save ~1 s)
 *   TL_LEVELS_MAX=SIZE   chase no buffer larger than SIZE (default 256MiB)
 *   TL_LEVELS_FROM=FILE  take the chase from a recorded ladder instead
 *                        ("KiB ns_per_load" lines, # comments), as in
 *                        shared/nodes/x/chase-2MiB-pages.txt */
#ifndef TL_BENCH_LEVELS_H
#define TL_BENCH_LEVELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/topology.h"
#include "stats/levels.h"

#define TL_LEVELS_MAX_DEFAULT (256ULL << 20)
#define TL_MEMORY_LEVELS_MAX (STATS_LEVELS_MAX_CACHES + 4)

/* One level as `info` states it: a measured level with the reported size
 * it is, a reported level the chase did not see, or memory. */
struct tl_memory_level {
	char name[16];         /* "L1d", "L2", "L3", "L4" (measured only), "memory" */
	uint64_t cpuid_bytes;  /* 0: not reported */
	uint64_t boundary_bytes; /* the largest size chased at this latency; 0: not seen */
	uint64_t boundary_hi_bytes; /* the next size chased (slower); 0: none */
	double latency_ns;     /* NaN: not seen */
	bool seen;             /* the chase shows a level here */
	bool cpuid_agrees;     /* reported size within 2x of the boundary */
	/* The sizes the boundary surely lies between over every pass of the
	 * chase: a cache ends above range_lo and below range_hi; memory begins
	 * above range_lo and at or below range_hi. 0: not measured. */
	uint64_t range_lo_bytes, range_hi_bytes;
};

struct tl_levels {
	bool measured;         /* a chase ran (or was read from a file) */
	char why[320];         /* why not, when !measured */
	char source[320];
	char reported_by[16];  /* "CPUID", "sysfs" or "hwloc": whose sizes these are */
	char timer[32];        /* the backend that timed the chase ("" when recorded) */      /* "a chase on CPU 1 with barrier-tsc, 2 MiB pages, 0.8 s" */
	size_t npoints;
	double bytes[STATS_LEVELS_MAX_POINTS], ns[STATS_LEVELS_MAX_POINTS];
	struct stats_levels found;
	size_t nlevels;
	struct tl_memory_level level[TL_MEMORY_LEVELS_MAX];
	/* Where the passes put a step more than one doubling apart ("L3
	 * between 2MiB and 16MiB over 7 passes"), and whether the passes
	 * settled at all: busy neighbours move the steps. "" when every step
	 * held within one doubling. */
	char unstable[320];
	unsigned passes;       /* chases of the same sizes whose median the levels are */
	bool settled;          /* the median's steps held over the last passes */
	/* The node's record (bench/levels_store.h): where it is kept, when it
	 * was measured (seconds since the epoch), and whether this process
	 * read it rather than chasing. */
	char kept[320];
	int64_t measured_at;
	bool from_record;
	/* Bytes written per ns by the flush loop over a buffer past the last
	 * level (0: not measured): what a flush of N bytes costs per sample. */
	double write_bytes_per_ns;
};

/* The node's levels: read from the node's record when a fresh one is kept
 * (bench/levels_store.h), else measured on CPU cpu (pinned for the chase,
 * its affinity restored) and kept; then cached in the process: later calls
 * return the same. TL_LEVELS=remeasure or tl_levels_remeasure() chase
 * again and replace the record.
 * topo may be NULL (nothing reported). Never fails: why says what is
 * missing. Not while a run samples on that CPU. */
const struct tl_levels *tl_levels_get(int cpu, const struct tl_topology *topo);

/* The next tl_levels_get chases again and replaces the node's record
 * (`info --remeasure`). Before the first tl_levels_get. */
void tl_levels_remeasure(void);

/* Chases again now (on cpu, pinned, its affinity restored), replaces the
 * node's record and publishes the new levels: later tl_levels_get and
 * tl_levels_cached calls return them, while a pointer taken before stays
 * valid with the old ones. For a face that asks again while it runs (the
 * TUI's Info screen); not while a run samples on that CPU. */
const struct tl_levels *tl_levels_remeasure_now(int cpu, const struct tl_topology *topo);

/* What tl_levels_get measured in this process, NULL when it never ran:
 * for documents that state what sized the run without chasing again. */
const struct tl_levels *tl_levels_cached(void);

/* The same from a given ladder (tests, recorded fixtures): fills lv. */
void tl_levels_from_ladder(const double *bytes, const double *ns, size_t n,
			   const struct tl_topology *topo, struct tl_levels *lv);

/* A recorded ladder file ("KiB ns" per line, # comments, extra columns
 * ignored) into bytes/ns; -1 with why. */
int tl_levels_read_ladder(const char *path, double *bytes, double *ns, size_t *n, char *why,
			  size_t whylen);

/* The named level ("L1d", "L2", "L3") as measured: its boundary, and 0
 * when the chase did not see it. */
uint64_t tl_levels_measured_bytes(const struct tl_levels *lv, int level);

/* The sizes NxLk flushes go by: the reported ones (a copy of reported),
 * except each level the chase contradicts, which takes its measured
 * boundary (a level it does not see at all: the size where memory latency
 * begins, all a cache below it can hold). note says which were replaced
 * and why ("L3 2MiB measured by a chase (CPUID says 508MiB)"), "" when
 * none: lv not measured, or every level agrees. */
void tl_levels_sizing(const struct tl_levels *lv, const struct tl_topology *reported,
		      struct tl_topology *out, char *note, size_t len);

/* The one cache-size decision both faces make: the caches of cpu (<0:
 * the default sampling CPU) read once, and, when chase, NxLk's levels
 * replaced by the node's measured ones where they disagree
 * (tl_levels_sizing; note says which, "" none). -1 with why when no cache
 * is known (then NxLk cannot be given). */
int tl_levels_sizes(int cpu, bool chase, struct tl_topology *out, char *note, size_t notelen,
		    char *why, size_t whylen);

/* One sentence on a reported level the chase contradicts, or "" when all
 * agree: "CPUID says L3 508MiB; a chase sees a step at 4MiB-8MiB and memory
 * latency beyond: the L3 this node gets is about 4MiB". */
void tl_levels_disagreement(const struct tl_levels *lv, char *buf, size_t len);

#endif
