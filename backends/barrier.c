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
#include "backends/reads.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <sys/prctl.h>
#endif

#if defined(HAVE_LINUX_PERF_EVENT_H) && defined(__linux__)
#include <linux/perf_event.h>
#include <sys/mman.h>
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
#if defined(TL_HAVE_BARRIER_PMU)

static void barrier_pmu_close(struct tl_barrier_pmu *p)
{
	if (p->pc)
		munmap((void *)p->pc, p->maplen);
	if (p->fd >= 0)
		close(p->fd);
	free(p);
}

static struct tl_barrier_pmu *barrier_pmu_open(uint64_t config1, char *why, size_t whylen)
{
	struct perf_event_attr attr;
	struct tl_barrier_pmu *p;
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
	p->width = tl_barrier_pmu_view(p).width;
	return p;
}

int tl_barrier_pmu_rebind(struct tl_timer *t)
{
	char why[TL_WHY_MAX];
	struct tl_barrier_pmu *old = t->state, *p = barrier_pmu_open(old->config1, why, sizeof why);

	if (!p)
		return -1;
	barrier_pmu_close(old);
	t->state = p;
	return 0;
}

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

#if defined(TL_HAVE_BARRIER_PMU) && defined(__x86_64__)

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

static int barrier_pmc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	struct tl_barrier_pmu *p;
	struct tl_barrier_pmu_view v;
	char sysfs[96];
	double ghz = tl_tsc_ghz();

	if (tl_backend_no_params(t->backend, params, why, whylen) < 0)
		return -1;
	p = barrier_pmu_open(0, why, whylen);
	if (!p)
		return -1;
	v = tl_barrier_pmu_view(p);
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
		TL_BARRIER_CNTVCT_READ(a);
		TL_BARRIER_CNTVCT_READ(b);
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

static int barrier_cntvct_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	(void)params;
	return barrier_wrong_arch(t->backend, "Armv8", why, whylen);
}

#endif

#if defined(TL_HAVE_BARRIER_PMU) && defined(__aarch64__)

/* attr.config1 of the arm_pmuv3 PMU: bit 0 "long" (64-bit counter), bit 1
 * "rdpmc" (ask for EL0 access). */
#define BARRIER_ARM_CONFIG1 0x3u

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
	struct tl_barrier_pmu *p;
	struct tl_barrier_pmu_view v;

	if (tl_backend_no_params(t->backend, params, why, whylen) < 0)
		return -1;
	p = barrier_pmu_open(BARRIER_ARM_CONFIG1, why, whylen);
	if (!p)
		return -1;
	if (barrier_perf_user_access(why, whylen) < 0) {
		barrier_pmu_close(p);
		return -1;
	}
	v = tl_barrier_pmu_view(p);
	if (!v.cap || v.index != TL_BARRIER_PMCCNTR_INDEX) {
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
	.timing = TL_TIMING_BARRIER_TSC,
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
	.timing = TL_TIMING_BARRIER_RDTSC,
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
	.timing = TL_TIMING_PLAIN_RDTSC,
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
	.timing = TL_TIMING_BARRIER_PMC,
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
	.timing = TL_TIMING_BARRIER_CNTVCT,
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
	.timing = TL_TIMING_BARRIER_PMCCNTR,
};
