/* The barrier family (paper §2.1, §4): time stamps read inline between
 * fences so the kernel cannot leak across them, plus `rdtsc`, the same
 * counter with no fence at all, as the baseline that shows why the fences
 * are there.
 *
 *   barrier-tsc      x86    lfence; rdtscp; lfence        TSC ticks
 *   barrier-rdtsc    x86    lfence; rdtsc; lfence         TSC ticks
 *   barrier-pmc      x86    lfence; rdpmc; lfence         core cycles
 *   barrier-cntvct   Armv8  isb; mrs cntvct_el0; isb      generic-timer ticks
 *   barrier-pmccntr  Armv8  isb; mrs pmccntr_el0; isb     core cycles
 *   rdtsc            x86    rdtsc                         TSC ticks
 *
 * Probes never execute an instruction that may fault before proving it is
 * enabled for user space (CPUID bits, prctl, the perf mmap page) or having
 * seen a throwaway child execute it (backends/probe.c). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "backends/internal.h"
#include "backends/timed.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <sys/prctl.h>
#endif

#if defined(HAVE_LINUX_PERF_EVENT_H) && defined(__linux__)
#include <linux/perf_event.h>
#include <sys/mman.h>
#define BARRIER_HAVE_PERF 1
#endif

#if defined(__aarch64__) && defined(__linux__)
#include <signal.h>
#include <sys/wait.h>
#endif

static int barrier_wrong_arch(const struct tl_backend *b, const char *need, char *why,
			      size_t whylen)
{
	return tl_why(why, whylen, "%s needs %s (this is %s)", b->id, need,
		      tl_backend_arch());
}

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

/* The Linux kernel's ordered TSC read where RDTSCP is missing: the first
 * LFENCE keeps earlier work from moving past the read, the second keeps
 * later work from starting before it. */
#define BARRIER_RDTSC_READ(v)                                                      \
	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"((v).lo), "=d"((v).hi) : : "memory")

#define PLAIN_RDTSC_READ(v)                                                        \
	__asm__ volatile("rdtsc" : "=a"((v).lo), "=d"((v).hi) : : "memory")

TL_TIMED_DEFINE(barrier_tsc, struct barrier_tsc, TL_TIMED_NO_PREP, BARRIER_TSC_READ,
		BARRIER_TSC_DIFF)
TL_TIMED_DEFINE(barrier_rdtsc, struct barrier_tsc, TL_TIMED_NO_PREP, BARRIER_RDTSC_READ,
		BARRIER_TSC_DIFF)
TL_TIMED_DEFINE(plain_rdtsc, struct barrier_tsc, TL_TIMED_NO_PREP, PLAIN_RDTSC_READ,
		BARRIER_TSC_DIFF)
#define BARRIER_TSC_FN(f) barrier_tsc_##f
#define BARRIER_RDTSC_FN(f) barrier_rdtsc_##f
#define PLAIN_RDTSC_FN(f) plain_rdtsc_##f

/* rdtsc/rdtscp fault when CR4.TSD is set for this process (prctl
 * PR_SET_TSC): check that first. RDTSCP is then trusted only as
 * tl_x86_rdtscp decided it (CPUID, or a child that executed it). */
static int barrier_tsc_usable(struct tl_timer *t, bool need_rdtscp, char *why, size_t whylen)
{
	unsigned a, bx, c, d;
	int mode = 0;
	double ghz;

	if (!__get_cpuid(1, &a, &bx, &c, &d) || !(d & (1u << 4)))
		return tl_why(why, whylen, "CPUID says this CPU has no TSC");
	if (prctl(PR_GET_TSC, &mode, 0, 0, 0) == 0 && mode != PR_TSC_ENABLE)
		return tl_why(why, whylen,
			      "reading the TSC is disabled for this process "
			      "(prctl PR_SET_TSC/seccomp)");
	if (need_rdtscp && !tl_x86_rdtscp(why, whylen))
		return -1;
	ghz = tl_tsc_ghz();
	if (!(ghz > 0.0))
		return tl_why(why, whylen,
			      "TSC calibration against CLOCK_MONOTONIC_RAW failed");
	if (need_rdtscp)
		tl_x86_rdtscp(t->note, sizeof t->note);
	else
		tl_why(t->note, sizeof t->note, "CPUID 1 EDX[4] says there is a TSC; %.4f GHz",
		       ghz);
	t->ns_per_unit = 1.0 / ghz;
	return 0;
}

static int barrier_tsc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	if (tl_backend_no_params(t->backend, params, why, whylen) < 0)
		return -1;
	return barrier_tsc_usable(t, true, why, whylen);
}

static int barrier_rdtsc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	if (tl_backend_no_params(t->backend, params, why, whylen) < 0)
		return -1;
	return barrier_tsc_usable(t, false, why, whylen);
}

#else /* !__x86_64__ */

#define BARRIER_TSC_FN(f) NULL
#define BARRIER_RDTSC_FN(f) NULL
#define PLAIN_RDTSC_FN(f) NULL

static int barrier_tsc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	(void)params;
	return barrier_wrong_arch(t->backend, "x86-64", why, whylen);
}

static int barrier_rdtsc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	(void)params;
	return barrier_wrong_arch(t->backend, "x86-64", why, whylen);
}

#endif

/* ---- PMU cycle counters read in user space (barrier-pmc, barrier-pmccntr) ----
 *
 * Both follow the perf mmap-page protocol: open a cycles event for this
 * thread, map its first page, and only execute the read instruction while
 * the page says cap_user_rdpmc and a non-zero counter index (checked before
 * every timing, outside the timed region). The event counts one thread: the
 * first timing on another thread (the runner's pinned sampler) reopens it
 * there first, since on that thread the instruction could fault (Armv8) or
 * read another event's counter (x86). If that fails the timing is NaN and
 * no counter is read. */
#if defined(BARRIER_HAVE_PERF) && (defined(__x86_64__) || defined(__aarch64__))
#define BARRIER_PMU 1

struct barrier_pmu {
	uint64_t config1;
	int fd;
	const volatile struct perf_event_mmap_page *pc;
	size_t maplen;
	pthread_t owner;
	unsigned width;
};

struct barrier_pmu_view {
	uint32_t lock;  /* the page's seqlock when it was read */
	int cap;        /* cap_user_rdpmc */
	uint32_t index; /* counter + 1, 0 = not on a counter now */
	unsigned width; /* counter bits */
};

/* One consistent view of the page (it is a seqlock the kernel updates). */
static inline __attribute__((always_inline)) struct barrier_pmu_view
barrier_pmu_view(const struct barrier_pmu *p)
{
	const volatile struct perf_event_mmap_page *pc = p->pc;
	struct barrier_pmu_view v;
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

static void barrier_pmu_close(struct barrier_pmu *p)
{
	if (p->pc)
		munmap((void *)p->pc, p->maplen);
	if (p->fd >= 0)
		close(p->fd);
	free(p);
}

static struct barrier_pmu *barrier_pmu_open(uint64_t config1, char *why, size_t whylen)
{
	struct perf_event_attr attr;
	struct barrier_pmu *p;
	void *page;

	memset(&attr, 0, sizeof attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.config1 = config1;
	p = tl_xcalloc(1, sizeof *p);
	p->fd = tl_perf_open(&attr, "cpu-cycles", why, whylen);
	if (p->fd < 0) {
		barrier_pmu_close(p);
		return NULL;
	}
	p->maplen = (size_t)sysconf(_SC_PAGESIZE);
	page = mmap(NULL, p->maplen, PROT_READ, MAP_SHARED, p->fd, 0);
	if (page == MAP_FAILED) {
		tl_why(why, whylen, "mmap of the perf_event page failed: %s",
		       strerror(errno));
		barrier_pmu_close(p);
		return NULL;
	}
	p->pc = page;
	p->config1 = config1;
	p->owner = pthread_self();
	p->width = barrier_pmu_view(p).width;
	return p;
}

/* Replaces t's event by one bound to the calling thread. */
static int barrier_pmu_rebind(struct tl_timer *t)
{
	char why[TL_WHY_MAX];
	struct barrier_pmu *old = t->state, *p = barrier_pmu_open(old->config1, why, sizeof why);

	if (!p)
		return -1;
	barrier_pmu_close(old);
	t->state = p;
	return 0;
}

/* The page is re-read after the second counter read (outside the timed
 * region): if the kernel moved the event meanwhile (the seqlock changed),
 * the two reads may be of different counters and the sample is dropped. */
static inline double barrier_pmu_diff(const struct tl_timer *t, uint32_t lock, uint64_t end,
				      uint64_t start)
{
	const struct barrier_pmu *p = t->state;
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
#define BARRIER_PMU_PREP(t, want_index)                                            \
	if (!pthread_equal(pthread_self(), ((struct barrier_pmu *)(t)->state)->owner) && \
	    barrier_pmu_rebind(t) < 0)                                             \
		return (double)NAN;                                                \
	const struct barrier_pmu *p_ = (t)->state;                                 \
	const struct barrier_pmu_view v_ = barrier_pmu_view(p_);                   \
	if (!v_.cap || v_.index == 0 || ((want_index) && v_.index != (want_index))) \
		return (double)NAN

/* barrier-pmc's and barrier-pmccntr's close: the counter's fd and page. */
static void barrier_pmu_timer_close(struct tl_timer *t)
{
	if (t->state)
		barrier_pmu_close(t->state);
	t->state = NULL;
}
#define BARRIER_PMU_CLOSE barrier_pmu_timer_close
#else
#define BARRIER_PMU_CLOSE NULL
#endif

#if defined(BARRIER_PMU) && defined(__x86_64__)

/* /sys/bus/event_source/devices/cpu/rdpmc: 0 off, 1 while an event is
 * mmapped, 2 always; part of the reason when the page refuses rdpmc. */
static void barrier_rdpmc_sysfs(char *buf, size_t len)
{
	static const char *const paths[] = {
		"/sys/bus/event_source/devices/cpu/rdpmc",
		"/sys/bus/event_source/devices/cpu_core/rdpmc",
	};

	snprintf(buf, len, "unreadable");
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		FILE *f = fopen(paths[i], "r");
		int v;
		if (!f)
			continue;
		if (fscanf(f, "%d", &v) == 1)
			snprintf(buf, len, "%s = %d", paths[i], v);
		fclose(f);
		return;
	}
}

#define BARRIER_PMC_PREP(t)                                                        \
	BARRIER_PMU_PREP(t, 0);                                                    \
	const uint32_t ecx_ = v_.index - 1
#define BARRIER_PMC_READ(v)                                                        \
	__asm__ volatile("lfence\n\trdpmc\n\tlfence"                               \
			 : "=a"((v).lo), "=d"((v).hi)                              \
			 : "c"(ecx_)                                               \
			 : "memory")
#define BARRIER_PMC_DIFF(t, e, s)                                                  \
	barrier_pmu_diff(t, v_.lock, (uint64_t)(e).hi << 32 | (e).lo,              \
			 (uint64_t)(s).hi << 32 | (s).lo)

TL_TIMED_DEFINE(barrier_pmc, struct barrier_tsc, BARRIER_PMC_PREP, BARRIER_PMC_READ,
		BARRIER_PMC_DIFF)
#define BARRIER_PMC_FN(f) barrier_pmc_##f

static int barrier_pmc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	struct barrier_pmu *p;
	struct barrier_pmu_view v;
	char sysfs[96];
	double ghz = tl_tsc_ghz();

	if (tl_backend_no_params(t->backend, params, why, whylen) < 0)
		return -1;
	p = barrier_pmu_open(0, why, whylen);
	if (!p)
		return -1;
	v = barrier_pmu_view(p);
	if (!v.cap) {
		barrier_rdpmc_sysfs(sysfs, sizeof sysfs);
		barrier_pmu_close(p);
		return tl_why(why, whylen,
			      "rdpmc disabled for user space (perf page "
			      "cap_user_rdpmc=0; %s; write 1 there as root to allow it)",
			      sysfs);
	}
	if (v.index == 0) {
		barrier_pmu_close(p);
		return tl_why(why, whylen,
			      "the cycles event is not on a hardware counter "
			      "(perf page index 0: counters busy or multiplexed)");
	}
	t->state = p;
	t->ns_per_unit = ghz > 0.0 ? 1.0 / ghz : 1.0;
	return 0;
}

#else

#define BARRIER_PMC_FN(f) NULL

static int barrier_pmc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	(void)params;
#if defined(__x86_64__)
	return tl_why(why, whylen, "%s needs linux/perf_event.h", t->backend->id);
#else
	return barrier_wrong_arch(t->backend, "x86-64", why, whylen);
#endif
}

#endif

/* ---- Armv8 ---- */
#if defined(__aarch64__) && defined(__linux__)

#define BARRIER_CNTVCT_READ(v) __asm__ volatile("isb\n\tmrs %0, cntvct_el0\n\tisb" : "=r"(v) : : "memory")
TL_TIMED_DEFINE(barrier_cntvct, uint64_t, TL_TIMED_NO_PREP, BARRIER_CNTVCT_READ,
		TL_TIMED_DIFF_INT)
#define BARRIER_CNTVCT_FN(f) barrier_cntvct_##f

static uint64_t barrier_cntfrq(void)
{
	uint64_t f;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(f));
	return f;
}

/* Linux lets EL0 read the virtual counter (or traps and emulates it on
 * parts with timer errata), so this cannot fault; a forked child runs the
 * reads first anyway, so a kernel that disagrees costs a child, not us. */
static int barrier_cntvct_child(char *why, size_t whylen)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return tl_why(why, whylen, "fork for the CNTVCT test failed: %s",
			      strerror(errno));
	if (pid == 0) {
		uint64_t a, b;
		BARRIER_CNTVCT_READ(a);
		BARRIER_CNTVCT_READ(b);
		_exit(barrier_cntfrq() > 0 && b >= a ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return tl_why(why, whylen, "waitpid: %s", strerror(errno));
	if (WIFSIGNALED(status))
		return tl_why(why, whylen,
			      "a test child died with signal %d reading cntvct_el0: "
			      "the kernel denies EL0 access to the generic timer",
			      WTERMSIG(status));
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return tl_why(why, whylen,
			      "cntfrq_el0 reads 0 or cntvct_el0 went backwards");
	return 0;
}

static int barrier_cntvct_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	uint64_t freq;

	if (tl_backend_no_params(t->backend, params, why, whylen) < 0 ||
	    barrier_cntvct_child(why, whylen) < 0)
		return -1;
	freq = barrier_cntfrq();
	if (freq == 0)
		return tl_why(why, whylen, "cntfrq_el0 is 0 (firmware did not set it)");
	t->ns_per_unit = 1e9 / (double)freq;
	return 0;
}

#else

#define BARRIER_CNTVCT_FN(f) NULL

static int barrier_cntvct_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	(void)params;
	return barrier_wrong_arch(t->backend, "Armv8", why, whylen);
}

#endif

#if defined(BARRIER_PMU) && defined(__aarch64__)

/* perf reports PMCCNTR_EL0 as user index 32 (event counters are 1..31). */
#define BARRIER_PMCCNTR_INDEX 32u
/* attr.config1 of the arm_pmuv3 PMU: bit 0 "long" (64-bit counter), bit 1
 * "rdpmc" (ask for EL0 access). */
#define BARRIER_ARM_CONFIG1 0x3u

#define BARRIER_PMCCNTR_PREP(t) BARRIER_PMU_PREP(t, BARRIER_PMCCNTR_INDEX)
#define BARRIER_PMCCNTR_READ(v)                                                    \
	__asm__ volatile("isb\n\tmrs %0, pmccntr_el0\n\tisb" : "=r"(v) : : "memory")
#define BARRIER_PMCCNTR_DIFF(t, e, s) barrier_pmu_diff(t, v_.lock, e, s)
TL_TIMED_DEFINE(barrier_pmccntr, uint64_t, BARRIER_PMCCNTR_PREP, BARRIER_PMCCNTR_READ,
		BARRIER_PMCCNTR_DIFF)
#define BARRIER_PMCCNTR_FN(f) barrier_pmccntr_##f

/* Armv8 has no TSC: cycles are shown in ns at the CPU's highest cpufreq
 * rate (1 ns per cycle when the kernel does not say). */
static double barrier_nominal_ns_per_cycle(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
	double khz = 0.0;

	if (f) {
		if (fscanf(f, "%lf", &khz) != 1)
			khz = 0.0;
		fclose(f);
	}
	return khz > 0.0 ? 1e6 / khz : 1.0;
}

static int barrier_perf_user_access(char *why, size_t whylen)
{
	FILE *f = fopen("/proc/sys/kernel/perf_user_access", "r");
	int v = -1;

	if (!f)
		return tl_why(why, whylen,
			      "no /proc/sys/kernel/perf_user_access: this kernel "
			      "(before 5.17) gives user space no PMU counter access");
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	if (v != 1)
		return tl_why(why, whylen,
			      "EL0 PMU access is off: perf_user_access=%d "
			      "(sysctl kernel.perf_user_access=1 as root)",
			      v);
	return 0;
}

static int barrier_pmccntr_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	struct barrier_pmu *p;
	struct barrier_pmu_view v;

	if (tl_backend_no_params(t->backend, params, why, whylen) < 0)
		return -1;
	p = barrier_pmu_open(BARRIER_ARM_CONFIG1, why, whylen);
	if (!p)
		return -1;
	if (barrier_perf_user_access(why, whylen) < 0) {
		barrier_pmu_close(p);
		return -1;
	}
	v = barrier_pmu_view(p);
	if (!v.cap || v.index != BARRIER_PMCCNTR_INDEX) {
		barrier_pmu_close(p);
		if (!v.cap)
			return tl_why(why, whylen,
				      "the perf page refuses EL0 reads "
				      "(cap_user_rdpmc=0)");
		return tl_why(why, whylen,
			      "the cycles event sits on perf index %u, not "
			      "PMCCNTR_EL0 (index 32)",
			      (unsigned)v.index);
	}
	t->state = p;
	t->ns_per_unit = barrier_nominal_ns_per_cycle();
	return 0;
}

#else

#define BARRIER_PMCCNTR_FN(f) NULL

static int barrier_pmccntr_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	(void)params;
#if defined(__aarch64__)
	return tl_why(why, whylen, "%s needs Linux perf_event", t->backend->id);
#else
	return barrier_wrong_arch(t->backend, "Armv8", why, whylen);
#endif
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
	.time_muls = BARRIER_TSC_FN(time_muls),
	.time_fmas = BARRIER_TSC_FN(time_fmas),
	.time_loads = BARRIER_TSC_FN(time_loads),
	.time_jitter = BARRIER_TSC_FN(time_jitter),
};

const struct tl_backend tl_backend_barrier_rdtsc = {
	.id = "barrier-rdtsc",
	.family = "barrier",
	.clock = TL_CLOCK_WALL,
	.unit = "ticks",
	.how = "lfence; rdtsc; lfence (inline, needs no RDTSCP), ns via the calibrated TSC rate",
	.simulated = false,
	.open = barrier_rdtsc_open,
	.close = NULL,
	.time_empty = BARRIER_RDTSC_FN(time_empty),
	.time_adds = BARRIER_RDTSC_FN(time_adds),
	.time_muls = BARRIER_RDTSC_FN(time_muls),
	.time_fmas = BARRIER_RDTSC_FN(time_fmas),
	.time_loads = BARRIER_RDTSC_FN(time_loads),
	.time_jitter = BARRIER_RDTSC_FN(time_jitter),
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
	.time_empty = PLAIN_RDTSC_FN(time_empty),
	.time_adds = PLAIN_RDTSC_FN(time_adds),
	.time_muls = PLAIN_RDTSC_FN(time_muls),
	.time_fmas = PLAIN_RDTSC_FN(time_fmas),
	.time_loads = PLAIN_RDTSC_FN(time_loads),
	.time_jitter = PLAIN_RDTSC_FN(time_jitter),
};

const struct tl_backend tl_backend_barrier_pmc = {
	.id = "barrier-pmc",
	.family = "barrier",
	.clock = TL_CLOCK_CYCLES,
	.unit = "cycles",
	.how = "lfence; rdpmc; lfence (inline) on the perf cycles counter (mmap page index)",
	.simulated = false,
	.open = barrier_pmc_open,
	.close = BARRIER_PMU_CLOSE,
	.time_empty = BARRIER_PMC_FN(time_empty),
	.time_adds = BARRIER_PMC_FN(time_adds),
	.time_muls = BARRIER_PMC_FN(time_muls),
	.time_fmas = BARRIER_PMC_FN(time_fmas),
	.time_loads = BARRIER_PMC_FN(time_loads),
	.time_jitter = BARRIER_PMC_FN(time_jitter),
};

const struct tl_backend tl_backend_barrier_cntvct = {
	.id = "barrier-cntvct",
	.family = "barrier",
	.clock = TL_CLOCK_WALL,
	.unit = "ticks",
	.how = "isb; mrs cntvct_el0; isb (inline), ns via cntfrq_el0",
	.simulated = false,
	.open = barrier_cntvct_open,
	.close = NULL,
	.time_empty = BARRIER_CNTVCT_FN(time_empty),
	.time_adds = BARRIER_CNTVCT_FN(time_adds),
	.time_muls = BARRIER_CNTVCT_FN(time_muls),
	.time_fmas = BARRIER_CNTVCT_FN(time_fmas),
	.time_loads = BARRIER_CNTVCT_FN(time_loads),
	.time_jitter = BARRIER_CNTVCT_FN(time_jitter),
};

const struct tl_backend tl_backend_barrier_pmccntr = {
	.id = "barrier-pmccntr",
	.family = "barrier",
	.clock = TL_CLOCK_CYCLES,
	.unit = "cycles",
	.how = "isb; mrs pmccntr_el0; isb (inline), needs perf_user_access=1",
	.simulated = false,
	.open = barrier_pmccntr_open,
	.close = BARRIER_PMU_CLOSE,
	.time_empty = BARRIER_PMCCNTR_FN(time_empty),
	.time_adds = BARRIER_PMCCNTR_FN(time_adds),
	.time_muls = BARRIER_PMCCNTR_FN(time_muls),
	.time_fmas = BARRIER_PMCCNTR_FN(time_fmas),
	.time_loads = BARRIER_PMCCNTR_FN(time_loads),
	.time_jitter = BARRIER_PMCCNTR_FN(time_jitter),
};
