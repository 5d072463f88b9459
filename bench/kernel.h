/* Kernel specs: what runs between the two timestamps. */
#ifndef TL_BENCH_KERNEL_H
#define TL_BENCH_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backends/backend.h"

struct tl_kernel;
struct tl_topology;

/* One timed region of a kernel on one backend: the backend's reads with
 * the kernel's body inlined between them (bench/kernels/kernel_ops.h).
 * n is the sample's count from the plan (tl_kernel_plan: K, or a jitter
 * code); cursor is where a chase goes on from (NULL for the others). */
typedef double (*tl_time_fn)(struct tl_timer *t, const struct tl_kernel *k, uint64_t n,
			     const void **cursor);

/* A kernel family: one file in bench/kernels/, one line in
 * bench/kernels/kernels.def. The rest of the program asks it, never
 * switches on which one it is. */
struct tl_kernel_ops {
	const char *name;    /* the spec's head and the results' "kind": "add" */
	const char *grammar; /* its forms in the accepted list: "add:K, add:START:END:STEP" */
	const char *note;    /* what its numbers may be, for that list (NULL: nothing to add) */
	const char *op;      /* what K counts, in messages: "ADD" (NULL: empty) */
	unsigned commas;     /* commas a list item of it owns (jitter's K,D,P: 2) */
	bool trailing_count; /* load: a ",K" of digits alone after it is its own */
	/* Parses the text after "name:" (args NULL for a bare "name") into
	 * one or more kernels appended to *out (tl_kernel_push). Returns 0, or
	 * -1 with why naming the bad value and what is accepted. */
	int (*parse)(const struct tl_kernel_ops *ops, const char *tok, const char *args, size_t alen,
		     const struct tl_topology *topo, struct tl_kernel **out, size_t *n, char *why,
		     size_t whylen);
	void (*describe)(struct tl_kernel *k); /* fills the canonical label */
	/* Whether it can run here: 0, or -1 with why (NULL: everywhere). */
	int (*runnable)(const struct tl_kernel *k, char *why, size_t whylen);
	/* Each sample's count, before any timed region (NULL: K for all). */
	void (*plan)(const struct tl_kernel *k, uint64_t seed, uint64_t *counts, size_t n,
		     unsigned arms);
	/* Its timed function per reading recipe (enum tl_timing); NULL where
	 * the recipe cannot run in this build. */
	const tl_time_fn *timed;
	/* What the analysis asks of it: times nothing (the overhead
	 * reference), chases a buffer of `bytes`. */
	bool times_nothing;
	bool chases;
};

/* The table, in the order lists and messages give them, NULL-terminated. */
extern const struct tl_kernel_ops *const tl_kernel_table[];

/* The families other code asks about by name (one object each). */
extern const struct tl_kernel_ops tl_kernel_empty, tl_kernel_add, tl_kernel_jitter, tl_kernel_mul,
	tl_kernel_fma, tl_kernel_load;
#define TL_KERNEL_EMPTY (&tl_kernel_empty)   /* nothing: the timer's own cost */
#define TL_KERNEL_ADD (&tl_kernel_add)       /* K dependent register ADDs */
#define TL_KERNEL_JITTER (&tl_kernel_jitter) /* K ADDs, a seeded share p of measurements run K+d */
#define TL_KERNEL_MUL (&tl_kernel_mul)       /* K dependent register integer multiplies */
#define TL_KERNEL_FMA (&tl_kernel_fma)       /* K dependent FMAs (x86: needs FMA) */
#define TL_KERNEL_LOAD (&tl_kernel_load)     /* K dependent loads chasing a cycle through `bytes` */

/* The family named name (the head of a spec, or a results file's "kind"), or NULL. */
const struct tl_kernel_ops *tl_kernel_find(const char *name);

struct tl_kernel {
	const struct tl_kernel_ops *kind; /* its family: never NULL once parsed */
	uint64_t k;    /* operations: ADDs, MULs, FMAs, loads (0 for empty) */
	uint64_t bytes; /* load: the buffer the chase runs through */
	uint64_t d;    /* extra ADDs for jitter (with d_ns: set by the runner) */
	double d_ns;   /* jitter D given in ns (> 0), converted to d ADDs with the
			* ns per ADD the runner measures before sampling; 0 when
			* D was given in ADDs */
	double p;      /* share of jittered measurements, 0..1 */
	char label[64]; /* canonical text: "empty", "add:500", "jitter:500,5,0.1",
			 * "jitter:500,5ns,0.5", "mul:500", "fma:500",
			 * "load:32KiB,1000" */
};

/* D in ns is a few clock ticks to a few microseconds: bounded like K in ADDs. */
#define TL_KERNEL_MAX_D_NS 1e6
#define TL_KERNEL_MAX_D_NS_TEXT "1000000"

/* Bounds: one measurement stays well under a second, one range stays listable. */
#define TL_KERNEL_MAX_K 1000000000ULL
#define TL_KERNEL_MAX_K_TEXT "1000000000"
#define TL_KERNEL_MAX_RANGE 10000
#define TL_KERNEL_MAX_RANGE_TEXT "10000"
/* Kernels one list may name (ranges expanded): far more than a run can
 * sample, few enough that the list and its duplicate check stay cheap. */
#define TL_KERNEL_MAX_LIST 100000
#define TL_KERNEL_MAX_LIST_TEXT "100000"

/* Parses one comma-free spec or a range "add:0:20000:2000" into one or more
 * kernels appended to *out (realloc'd). Lists are split on ',' only outside
 * "jitter:..." (jitter's own commas bind to it). Returns 0, or -1 with why
 * naming the bad value and what is accepted. */
int tl_kernel_parse_list(const char *text, struct tl_kernel **out, size_t *n, char *why,
			 size_t whylen);

/* The same, with the cache sizes load:4xL1 and friends refer to (topo may
 * be NULL: then those are refused with a reason). */
struct tl_topology;
int tl_kernel_parse_list_topo(const char *text, const struct tl_topology *topo,
			      struct tl_kernel **out, size_t *n, char *why, size_t whylen);

/* Loads per load kernel when only the size is given: at ~1 ns per L1 hit
 * this spans >= 1 us, well above every timer's resolution. */
#define TL_KERNEL_LOAD_DEFAULT_K 1000

/* The family name of a chain kernel's operation ("ADD", "MUL", "FMA",
 * "load"), or NULL for empty. */
const char *tl_kernel_op(const struct tl_kernel_ops *kind);

/* The timed function of kernel k on timer t (chosen once, before the
 * samples), and one timing through it: the call is outside the timed
 * region, which holds the reads and the kernel's body alone. */
tl_time_fn tl_kernel_timed(const struct tl_kernel *k, const struct tl_timer *t);
double tl_time_kernel(struct tl_timer *t, const struct tl_kernel *k, uint64_t n,
		      const void **cursor);
/* The timings the calibrations, probes and warm-ups take. */
double tl_time_empty(struct tl_timer *t);
double tl_time_adds(struct tl_timer *t, uint64_t adds);
double tl_time_loads(struct tl_timer *t, const void **cursor, uint64_t loads);

/* Whether the kernel can run on this machine: 0, or -1 with why (fma:K on
 * an x86 CPU without FMA). */
int tl_kernel_runnable(const struct tl_kernel *k, char *why, size_t whylen);

/* A random cyclic permutation (Sattolo, seeded) of the 64-byte lines of a
 * `bytes` buffer: each line's first word points at the next line of the
 * cycle, so a chase visits every line once per lap in an order no
 * prefetcher can guess. The buffer is whole 2 MiB pages hinted for huge
 * pages (MADV_HUGEPAGE), so TLB misses stay out of the ladder's steps.
 * Returns the buffer (give it back with tl_kernel_chase_free and the same
 * bytes), the chase's start, or NULL when the buffer (bytes, usually the
 * user's SIZE) cannot be mapped: the caller names the size. */
void *tl_kernel_chase_layout(uint64_t bytes, uint64_t seed);
void tl_kernel_chase_free(void *buf, uint64_t bytes);

/* Fills adds[0..n) with the operation count of each measurement (K),
 * decided before any timed region runs. A jitter cell's entries are codes
 * (below): its samples are three interleaved arms, sample i in arm i % 3,
 * the cell itself and its two controls: an A/A arm (D = 0, same P: the
 * split alone, which must show nothing) and a P-swapped arm (D at 1 - P:
 * the same shift, which must agree). Each arm puts the dependent path in
 * exactly round(p*n_arm) seeded positions, so the injected share is known. */
void tl_kernel_plan(const struct tl_kernel *kern, uint64_t seed, uint64_t *adds, size_t n);

/* The plan before the arms: one main arm over all n (how files saved then
 * were split; their D = 0 cells are re-split this way). */
void tl_kernel_plan_main_only(const struct tl_kernel *kern, uint64_t seed, uint64_t *adds,
			      size_t n);

/* A jitter sample's code: the ADDs on its dependent chain (K, or K + D on
 * the dependent path) in the low bits, TL_JITTER_DEP when it took the
 * dependent path (the only mark an A/A sample has), its arm above
 * TL_JITTER_ARM_SHIFT. Files saved before the arms hold K or K + D
 * alone: they read as main-arm samples, dependent when the count is not K. */
#define TL_JITTER_DEP (1ULL << 40)
#define TL_JITTER_ARM_SHIFT 41
enum tl_jitter_arm { TL_JITTER_MAIN, TL_JITTER_AA, TL_JITTER_SWAPPED, TL_JITTER_ARMS };

static inline enum tl_jitter_arm tl_jitter_code_arm(uint64_t code)
{
	uint64_t a = code >> TL_JITTER_ARM_SHIFT;
	return a < TL_JITTER_ARMS ? (enum tl_jitter_arm)a : TL_JITTER_MAIN;
}

static inline uint64_t tl_jitter_code_chain(uint64_t code)
{
	return code & (TL_JITTER_DEP - 1);
}

static inline unsigned tl_jitter_code_dep(uint64_t code, uint64_t k)
{
	return (code & TL_JITTER_DEP) || tl_jitter_code_chain(code) != k;
}

/* Whether any code carries the marks (a file from before the arms does not). */
static inline int tl_jitter_codes_tagged(const uint64_t *codes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (codes[i] >= TL_JITTER_DEP)
			return 1;
	return 0;
}

/* A plain sample's D ADDs run beside the K chain in pieces of up to 16,
 * 16 of them (backends/timed.h), so the shift is the whole of D up to
 * 256 ADDs. On the Zen 5 guest (0.28 ns per ADD, 10 ns clock), 20000
 * samples a cell: 0.97 to 1.05 x D (against the calibrated ns per ADD)
 * at D = 8..256, K = 100..2000 and P = 0.1, 0.5 and 0.9 alike; 256 ADDs
 * were read as 9 to 20 ns of 72 when D ran after K in one run. D beyond
 * 256 goes to one piece that overlaps K only in part (D = 512 read 77 ns
 * of 146), so the parser refuses D above it (D in ns: the run, once its
 * ns per ADD is known). */
#define TL_JITTER_OVERLAP_ADDS 256
#define TL_JITTER_MAX_D_TEXT "256"

/* The extra ADDs an arm runs: D, or none in the A/A arm. */
static inline uint64_t tl_jitter_arm_d(const struct tl_kernel *k, enum tl_jitter_arm arm)
{
	return arm == TL_JITTER_AA ? 0 : k->d;
}

#endif
