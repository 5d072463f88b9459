/* The reading recipes: how each backend reads its clock, as macros the
 * timed-region template (backends/timed.h) takes, listed in one table.
 *
 * The kernels (bench/kernels/) instantiate the template once per recipe
 * with their own body, so each timed function has the recipe's reads and
 * the kernel inlined and nothing else between them: no function pointer,
 * no call but a read that is one (clock_gettime, PAPI). A backend names its
 * recipe (struct tl_backend's timing); a new backend adds a recipe here
 * and fills no slot per kernel.
 *
 * Each recipe is five things:
 *   T            type of one raw reading (an integer, or a struct when
 *                combining a reading's halves would add work between the
 *                reads);
 *   PREP(t)      statements before the first read: load what the read
 *                needs into locals (nothing is loaded from memory between
 *                the reads); may return NaN (a counter that cannot be
 *                trusted); TL_TIMED_NO_PREP when there is nothing;
 *   READ(v)      one reading into v, inline asm or one library call,
 *                using only locals PREP declared;
 *   DIFF(t,e,s)  end - start in raw units, after the second read.
 *
 * TL_READS(X, K) calls X(K, NAME, ROW, T, PREP, READ, DIFF) for every
 * recipe this build can run; ROW is its enum tl_timing. Include config.h
 * first: the rows depend on what configure found. */
#ifndef TL_BACKENDS_READS_H
#define TL_BACKENDS_READS_H

#include <stdint.h>
#include <time.h>

#include "backends/backend.h"
#include "backends/timed.h"

/* ---- the TSC: barrier-tsc, barrier-rdtsc, rdtsc (x86-64) ---- */
#if defined(__x86_64__)
/* The two halves of a TSC reading, combined only after the second read. */
struct tl_tsc_reading {
	uint32_t lo, hi;
};

#define TL_TSC_DIFF(t, e, s)                                                       \
	((double)(int64_t)(((uint64_t)(e).hi << 32 | (e).lo) - ((uint64_t)(s).hi << 32 | (s).lo)))

#define TL_BARRIER_TSC_READ(v)                                                     \
	do {                                                                       \
		uint32_t aux_;                                                     \
		__asm__ volatile("lfence\n\trdtscp\n\tlfence"                      \
				 : "=a"((v).lo), "=d"((v).hi), "=c"(aux_)          \
				 :                                                 \
				 : "memory");                                      \
	} while (0)

/* The Linux kernel's ordered TSC read where RDTSCP is missing: the first
 * LFENCE keeps earlier work from moving past the read, the second keeps
 * later work from starting before it. */
#define TL_BARRIER_RDTSC_READ(v)                                                   \
	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"((v).lo), "=d"((v).hi) : : "memory")

#define TL_PLAIN_RDTSC_READ(v) __asm__ volatile("rdtsc" : "=a"((v).lo), "=d"((v).hi) : : "memory")

#define TL_READS_TSC(X, K)                                                         \
	X(K, barrier_tsc, TL_TIMING_BARRIER_TSC, struct tl_tsc_reading, TL_TIMED_NO_PREP, \
	  TL_BARRIER_TSC_READ, TL_TSC_DIFF)                                        \
	X(K, barrier_rdtsc, TL_TIMING_BARRIER_RDTSC, struct tl_tsc_reading,        \
	  TL_TIMED_NO_PREP, TL_BARRIER_RDTSC_READ, TL_TSC_DIFF)                    \
	X(K, plain_rdtsc, TL_TIMING_PLAIN_RDTSC, struct tl_tsc_reading, TL_TIMED_NO_PREP, \
	  TL_PLAIN_RDTSC_READ, TL_TSC_DIFF)
#else
#define TL_READS_TSC(X, K)
#endif

/* ---- PMU cycle counters read in user space: barrier-pmc, barrier-pmccntr ----
 * The perf mmap-page protocol (backends/barrier.c): the read instruction
 * runs only while the page says cap_user_rdpmc and a counter index,
 * checked before the first read. */
#if defined(HAVE_LINUX_PERF_EVENT_H) && defined(__linux__) &&                     \
	(defined(__x86_64__) || defined(__aarch64__))
#define TL_HAVE_BARRIER_PMU 1
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>

struct tl_barrier_pmu {
	uint64_t config1;
	int fd;
	const volatile struct perf_event_mmap_page *pc;
	size_t maplen;
	pthread_t owner;
	unsigned width;
};

struct tl_barrier_pmu_view {
	uint32_t lock;  /* the page's seqlock when it was read */
	int cap;        /* cap_user_rdpmc */
	uint32_t index; /* counter + 1, 0 = not on a counter now */
	unsigned width; /* counter bits */
};

/* One consistent view of the page (it is a seqlock the kernel updates). */
static inline __attribute__((always_inline)) struct tl_barrier_pmu_view
tl_barrier_pmu_view(const struct tl_barrier_pmu *p)
{
	const volatile struct perf_event_mmap_page *pc = p->pc;
	struct tl_barrier_pmu_view v;
	uint32_t seq;

	do {
		seq = pc->lock;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		v.lock = seq;
		v.cap = pc->cap_bit0_is_deprecated ? (int)pc->cap_user_rdpmc : 0;
		v.index = pc->index;
		v.width = pc->pmc_width;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
	} while (pc->lock != seq);
	return v;
}

/* Replaces t's event by one bound to the calling thread (barrier.c). */
int tl_barrier_pmu_rebind(struct tl_timer *t);

/* The page is re-read after the second counter read (outside the timed
 * region): if the kernel moved the event meanwhile (the seqlock changed),
 * the two reads may be of different counters and the sample is dropped. */
static inline double tl_barrier_pmu_diff(const struct tl_timer *t, uint32_t lock, uint64_t end,
					 uint64_t start)
{
	const struct tl_barrier_pmu *p = t->state;
	uint64_t d = end - start;

	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (p->pc->lock != lock)
		return (double)NAN;

	/* Counters are pmc_width bits wide: the difference wraps there. */
	if (p->width > 0 && p->width < 64)
		d = (d << (64 - p->width)) >> (64 - p->width);
	return (double)d;
}

/* Binds the event to this thread and checks the page before any counter
 * read: NaN instead of a fault. Declares v_ (the page view). */
#define TL_BARRIER_PMU_PREP(t, want_index)                                         \
	if (!pthread_equal(pthread_self(), ((struct tl_barrier_pmu *)(t)->state)->owner) && \
	    tl_barrier_pmu_rebind(t) < 0)                                          \
		return (double)NAN;                                                \
	const struct tl_barrier_pmu *p_ = (t)->state;                              \
	const struct tl_barrier_pmu_view v_ = tl_barrier_pmu_view(p_);             \
	if (!v_.cap || v_.index == 0 || ((want_index) && v_.index != (want_index))) \
		return (double)NAN
#endif

#if defined(TL_HAVE_BARRIER_PMU) && defined(__x86_64__)
#define TL_BARRIER_PMC_PREP(t)                                                     \
	TL_BARRIER_PMU_PREP(t, 0);                                                 \
	const uint32_t ecx_ = v_.index - 1
#define TL_BARRIER_PMC_READ(v)                                                     \
	__asm__ volatile("lfence\n\trdpmc\n\tlfence"                               \
			 : "=a"((v).lo), "=d"((v).hi)                              \
			 : "c"(ecx_)                                               \
			 : "memory")
#define TL_BARRIER_PMC_DIFF(t, e, s)                                               \
	tl_barrier_pmu_diff(t, v_.lock, (uint64_t)(e).hi << 32 | (e).lo,           \
			    (uint64_t)(s).hi << 32 | (s).lo)
#define TL_READS_PMC(X, K)                                                         \
	X(K, barrier_pmc, TL_TIMING_BARRIER_PMC, struct tl_tsc_reading, TL_BARRIER_PMC_PREP, \
	  TL_BARRIER_PMC_READ, TL_BARRIER_PMC_DIFF)
#else
#define TL_READS_PMC(X, K)
#endif

/* ---- Armv8: barrier-cntvct, barrier-pmccntr ---- */
#if defined(__aarch64__) && defined(__linux__)
#define TL_BARRIER_CNTVCT_READ(v)                                                  \
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) : : "memory")
#define TL_READS_CNTVCT(X, K)                                                      \
	X(K, barrier_cntvct, TL_TIMING_BARRIER_CNTVCT, uint64_t, TL_TIMED_NO_PREP,  \
	  TL_BARRIER_CNTVCT_READ, TL_TIMED_DIFF_INT)
#else
#define TL_READS_CNTVCT(X, K)
#endif

#if defined(TL_HAVE_BARRIER_PMU) && defined(__aarch64__)
/* perf reports PMCCNTR_EL0 as user index 32 (event counters are 1..31). */
#define TL_BARRIER_PMCCNTR_INDEX 32u
#define TL_BARRIER_PMCCNTR_PREP(t) TL_BARRIER_PMU_PREP(t, TL_BARRIER_PMCCNTR_INDEX)
#define TL_BARRIER_PMCCNTR_READ(v)                                                 \
	__asm__ volatile("isb\n\tmrs %0, pmccntr_el0\n\tisb" : "=r"(v) : : "memory")
#define TL_BARRIER_PMCCNTR_DIFF(t, e, s) tl_barrier_pmu_diff(t, v_.lock, e, s)
#define TL_READS_PMCCNTR(X, K)                                                     \
	X(K, barrier_pmccntr, TL_TIMING_BARRIER_PMCCNTR, uint64_t, TL_BARRIER_PMCCNTR_PREP, \
	  TL_BARRIER_PMCCNTR_READ, TL_BARRIER_PMCCNTR_DIFF)
#else
#define TL_READS_PMCCNTR(X, K)
#endif

/* ---- PAPI: papi-real-nsec, papi-real-cyc, papi-read ---- */
#if defined(HAVE_PAPI)
#include <math.h>
#include <papi.h>
#include <pthread.h>

struct tl_papi_state {
	int eventset;
	pthread_t owner;
};

/* A new event set for the calling thread (papi.c); its status travels
 * with the value, so a failed read becomes NaN after the region instead
 * of a branch inside it. */
int tl_papi_rebind(struct tl_papi_state *s);

struct tl_papi_reading {
	long long v;
	int rc;
};

#define TL_PAPI_NSEC_READ(v) ((v) = PAPI_get_real_nsec())
#define TL_PAPI_CYC_READ(v) ((v) = PAPI_get_real_cyc())
#define TL_PAPI_READ_PREP(t)                                                       \
	struct tl_papi_state *s_ = (t)->state;                                     \
	if (!pthread_equal(pthread_self(), s_->owner) && tl_papi_rebind(s_) < 0)   \
		return (double)NAN;                                                \
	const int es_ = s_->eventset
#define TL_PAPI_READ_READ(x) ((x).rc = PAPI_read(es_, &(x).v))
#define TL_PAPI_READ_DIFF(t, e, s)                                                 \
	((e).rc == PAPI_OK && (s).rc == PAPI_OK ? (double)((e).v - (s).v) : (double)NAN)
#define TL_READS_PAPI(X, K)                                                        \
	X(K, papi_nsec, TL_TIMING_PAPI_NSEC, long long, TL_TIMED_NO_PREP, TL_PAPI_NSEC_READ, \
	  TL_TIMED_DIFF_INT)                                                       \
	X(K, papi_cyc, TL_TIMING_PAPI_CYC, long long, TL_TIMED_NO_PREP, TL_PAPI_CYC_READ, \
	  TL_TIMED_DIFF_INT)                                                       \
	X(K, papi_read, TL_TIMING_PAPI_READ, struct tl_papi_reading, TL_PAPI_READ_PREP, \
	  TL_PAPI_READ_READ, TL_PAPI_READ_DIFF)
#else
#define TL_READS_PAPI(X, K)
#endif

/* ---- POSIX clocks: clock-gettime, -raw, -realtime ---- */
#define TL_POSIX_DIFF(t, e, s)                                                     \
	((double)((int64_t)((e).tv_sec - (s).tv_sec) * 1000000000 +                \
		  (int64_t)((e).tv_nsec - (s).tv_nsec)))
#define TL_POSIX_READ_MONO(v) clock_gettime(CLOCK_MONOTONIC, &(v))
#define TL_POSIX_READ_RAW(v) clock_gettime(CLOCK_MONOTONIC_RAW, &(v))
#define TL_POSIX_READ_REAL(v) clock_gettime(CLOCK_REALTIME, &(v))
#define TL_READS_POSIX(X, K)                                                       \
	X(K, posix_mono, TL_TIMING_POSIX_MONO, struct timespec, TL_TIMED_NO_PREP,   \
	  TL_POSIX_READ_MONO, TL_POSIX_DIFF)                                       \
	X(K, posix_raw, TL_TIMING_POSIX_RAW, struct timespec, TL_TIMED_NO_PREP,     \
	  TL_POSIX_READ_RAW, TL_POSIX_DIFF)                                        \
	X(K, posix_real, TL_TIMING_POSIX_REAL, struct timespec, TL_TIMED_NO_PREP,   \
	  TL_POSIX_READ_REAL, TL_POSIX_DIFF)

/* ---- perf_event read(): perf-read, perf-task-clock ---- */
#if defined(HAVE_LINUX_PERF_EVENT_H) && defined(__linux__)
#include <linux/perf_event.h>
#include <math.h>
#include <pthread.h>
#include <sys/types.h>
#include <unistd.h>

struct tl_perf_state {
	int fd;
	pthread_t owner;
	struct perf_event_attr attr;
};

/* Moves the event to the calling thread (perf.c). */
int tl_perf_rebind(struct tl_perf_state *s);

/* A reading keeps read()'s result so a failed read becomes NaN, decided
 * after the second read rather than by a branch between them. */
struct tl_perf_reading {
	uint64_t v;
	ssize_t rc;
};

#define TL_PERF_PREP(t)                                                            \
	struct tl_perf_state *s_ = (t)->state;                                     \
	if (!pthread_equal(pthread_self(), s_->owner) && tl_perf_rebind(s_) < 0)   \
		return (double)NAN;                                                \
	const int fd_ = s_->fd
#define TL_PERF_READ(x) ((x).rc = read(fd_, &(x).v, sizeof(x).v))
#define TL_PERF_DIFF(t, e, s)                                                      \
	((e).rc == (ssize_t)sizeof(e).v && (s).rc == (ssize_t)sizeof(s).v            \
		 ? (double)(int64_t)((e).v - (s).v)                                 \
		 : (double)NAN)
#define TL_READS_PERF(X, K)                                                        \
	X(K, perf, TL_TIMING_PERF, struct tl_perf_reading, TL_PERF_PREP, TL_PERF_READ, \
	  TL_PERF_DIFF)
#else
#define TL_READS_PERF(X, K)
#endif

#define TL_READS(X, K)                                                             \
	TL_READS_TSC(X, K)                                                         \
	TL_READS_PMC(X, K)                                                         \
	TL_READS_CNTVCT(X, K)                                                      \
	TL_READS_PMCCNTR(X, K)                                                     \
	TL_READS_PAPI(X, K)                                                        \
	TL_READS_POSIX(X, K)                                                       \
	TL_READS_PERF(X, K)

#endif
