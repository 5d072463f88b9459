/* The barrier family (paper §2.1, §4): time stamps read inline between
 * fences so the kernel cannot leak across them, plus `rdtsc`, the same
 * counter with no fence at all, as the baseline that shows why the fences
 * are there.
 *
 *   barrier-tsc      x86    lfence; rdtscp; lfence        TSC ticks
 *   barrier-pmc      x86    lfence; rdpmc; lfence         core cycles
 *   barrier-cntvct   Armv8  isb; mrs cntvct_el0; isb      generic-timer ticks
 *   barrier-pmccntr  Armv8  isb; mrs pmccntr_el0; isb     core cycles
 *   rdtsc            x86    rdtsc                         TSC ticks
 *
 * Probes never execute an instruction that may fault before proving it is
 * enabled for user space (CPUID bits, prctl, the perf mmap page). */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "backends/internal.h"
#include "backends/timed.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <sys/prctl.h>
#endif

#if defined(__x86_64__)

/* The two halves of a TSC reading, combined only after the second read. */
struct barrier_tsc {
	uint32_t lo, hi;
};

#define BARRIER_TSC_DIFF(t, e, s)                                                  \
	((double)(int64_t)(((uint64_t)(e).hi << 32 | (e).lo) - ((uint64_t)(s).hi << 32 | (s).lo)))

#define BARRIER_TSC_READ(v)                                                        \
	do {                                                                       \
		uint32_t aux_;                                                     \
		__asm__ volatile("lfence\n\trdtscp\n\tlfence"                      \
				 : "=a"((v).lo), "=d"((v).hi), "=c"(aux_)          \
				 :                                                 \
				 : "memory");                                      \
	} while (0)

#define BARRIER_RDTSC_READ(v)                                                      \
	__asm__ volatile("rdtsc" : "=a"((v).lo), "=d"((v).hi) : : "memory")

TL_TIMED_DEFINE(barrier_tsc, struct barrier_tsc, TL_TIMED_NO_PREP, BARRIER_TSC_READ,
		BARRIER_TSC_DIFF)
TL_TIMED_DEFINE(barrier_rdtsc, struct barrier_tsc, TL_TIMED_NO_PREP, BARRIER_RDTSC_READ,
		BARRIER_TSC_DIFF)
#define BARRIER_TSC_FN(f) barrier_tsc_##f
#define BARRIER_RDTSC_FN(f) barrier_rdtsc_##f

/* rdtsc/rdtscp fault when CR4.TSD is set for this process (prctl
 * PR_SET_TSC): check that before trusting the CPUID bits. */
static int barrier_tsc_usable(const struct tl_backend *b, bool need_rdtscp, char *why,
			      size_t whylen)
{
	unsigned a, bx, c, d;
	int mode = 0;
	double ghz;

	if (!__get_cpuid(1, &a, &bx, &c, &d) || !(d & (1u << 4)))
		return tl_why(why, whylen, "unavailable: CPUID says this CPU has no TSC");
	if (need_rdtscp && (!__get_cpuid(0x80000001, &a, &bx, &c, &d) || !(d & (1u << 27))))
		return tl_why(why, whylen,
			      "unavailable: CPUID 8000_0001h EDX[27] says no RDTSCP "
			      "(a hypervisor may hide it); use rdtsc or clock-gettime");
	if (prctl(PR_GET_TSC, &mode, 0, 0, 0) == 0 && mode != PR_TSC_ENABLE)
		return tl_why(why, whylen,
			      "unavailable: reading the TSC is disabled for this process "
			      "(prctl PR_SET_TSC/seccomp)");
	ghz = tl_tsc_ghz();
	if (!(ghz > 0.0))
		return tl_why(why, whylen,
			      "unavailable: TSC calibration against CLOCK_MONOTONIC_RAW failed");
	(void)b;
	return 0;
}

static int barrier_tsc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	if (tl_backend_no_params(t->backend, params, why, whylen) < 0 ||
	    barrier_tsc_usable(t->backend, true, why, whylen) < 0)
		return -1;
	t->ns_per_unit = 1.0 / tl_tsc_ghz();
	return 0;
}

static int barrier_rdtsc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	if (tl_backend_no_params(t->backend, params, why, whylen) < 0 ||
	    barrier_tsc_usable(t->backend, false, why, whylen) < 0)
		return -1;
	t->ns_per_unit = 1.0 / tl_tsc_ghz();
	return 0;
}

#else /* !__x86_64__ */

#define BARRIER_TSC_FN(f) NULL
#define BARRIER_RDTSC_FN(f) NULL

static int barrier_needs_x86(const struct tl_backend *b, char *why, size_t whylen)
{
	return tl_why(why, whylen, "unavailable: %s needs x86-64 (this is %s)", b->id,
		      tl_backend_arch());
}


static int barrier_tsc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	(void)params;
	return barrier_needs_x86(t->backend, why, whylen);
}

static int barrier_rdtsc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	(void)params;
	return barrier_needs_x86(t->backend, why, whylen);
}

#endif

const struct tl_backend tl_backend_barrier_tsc = {
	.id = "barrier-tsc",
	.family = "barrier",
	.clock = TL_CLOCK_WALL,
	.unit = "ticks",
	.how = "lfence; rdtscp; lfence (inline), ns via the calibrated TSC rate",
	.simulated = false,
	.open = barrier_tsc_open,
	.close = NULL,
	.time_empty = BARRIER_TSC_FN(time_empty),
	.time_adds = BARRIER_TSC_FN(time_adds),
};

const struct tl_backend tl_backend_rdtsc = {
	.id = "rdtsc",
	.family = "barrier",
	.clock = TL_CLOCK_WALL,
	.unit = "ticks",
	.how = "rdtsc (inline, no fences: the kernel can leak across the reads)",
	.simulated = false,
	.open = barrier_rdtsc_open,
	.close = NULL,
	.time_empty = BARRIER_RDTSC_FN(time_empty),
	.time_adds = BARRIER_RDTSC_FN(time_adds),
};
