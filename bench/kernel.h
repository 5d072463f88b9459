/* Kernel specs: what runs between the two timestamps. */
#ifndef TL_BENCH_KERNEL_H
#define TL_BENCH_KERNEL_H

#include <stddef.h>
#include <stdint.h>

enum tl_kernel_kind {
	TL_KERNEL_EMPTY,  /* nothing: the timer's own cost */
	TL_KERNEL_ADD,    /* K dependent register ADDs */
	TL_KERNEL_JITTER, /* K ADDs, a seeded share p of measurements run K+d */
};

struct tl_kernel {
	enum tl_kernel_kind kind;
	uint64_t k;    /* ADDs (0 for empty) */
	uint64_t d;    /* extra ADDs for jitter */
	double p;      /* share of jittered measurements, 0..1 */
	char label[64]; /* canonical text: "empty", "add:500", "jitter:500,5,0.1" */
};

/* Bounds: one measurement stays well under a second, one range stays listable. */
#define TL_KERNEL_MAX_K 1000000000ULL
#define TL_KERNEL_MAX_K_TEXT "1000000000"
#define TL_KERNEL_MAX_RANGE 10000
#define TL_KERNEL_MAX_RANGE_TEXT "10000"

/* Parses one comma-free spec or a range "add:0:20000:2000" into one or more
 * kernels appended to *out (realloc'd). Lists are split on ',' only outside
 * "jitter:..." (jitter's own commas bind to it). Returns 0, or -1 with why
 * naming the bad value and what is accepted. */
int tl_kernel_parse_list(const char *text, struct tl_kernel **out, size_t *n, char *why,
			 size_t whylen);

/* Fills adds[0..n) with the ADD count of each measurement (K, or K+d for a
 * seeded share p), decided before any timed region runs. Jitter puts K+d in
 * exactly round(p*n) seeded positions, so the injected share is known. */
void tl_kernel_plan(const struct tl_kernel *kern, uint64_t seed, uint64_t *adds, size_t n);

#endif
