/* x86 machine facts the probes need and `info` shows: the calibrated TSC
 * rate and whether LFENCE serializes dispatch (the barrier method's premise,
 * paper §2.1). Compiled everywhere; elsewhere the answers are "none". */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "backends/internal.h"

#if defined(__x86_64__)
#include <cpuid.h>

static inline uint64_t x86_tsc_fenced(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return (uint64_t)hi << 32 | lo;
}

static int64_t x86_raw_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* One (ns, tsc) pair: the TSC read bracketed by two clock reads, keeping
 * the tightest bracket of a few tries so an interrupt cannot skew it. */
static void x86_pair(int64_t *ns, uint64_t *tsc)
{
	int64_t best = INT64_MAX;

	for (int i = 0; i < 7; i++) {
		int64_t a = x86_raw_ns();
		uint64_t c = x86_tsc_fenced();
		int64_t b = x86_raw_ns();
		if (b - a < best) {
			best = b - a;
			*ns = a + (b - a) / 2;
			*tsc = c;
		}
	}
}

static double tsc_ghz_value;
static pthread_once_t tsc_once = PTHREAD_ONCE_INIT;

/* 30 ms against CLOCK_MONOTONIC_RAW (not slewed by NTP): with brackets of
 * ~50 ns at both ends the rate is good to a few parts per million. */
static void x86_calibrate(void)
{
	int64_t ns0, ns1;
	uint64_t tsc0, tsc1;
	unsigned a, b, c, d;
	int mode = PR_TSC_ENABLE;

	/* rdtsc faults without a TSC or under prctl PR_SET_TSC: then 0. */
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(d & (1u << 4)))
		return;
	if (prctl(PR_GET_TSC, &mode, 0, 0, 0) == 0 && mode != PR_TSC_ENABLE)
		return;
	x86_pair(&ns0, &tsc0);
	while (x86_raw_ns() - ns0 < 30000000)
		;
	x86_pair(&ns1, &tsc1);
	if (ns1 > ns0 && tsc1 > tsc0)
		tsc_ghz_value = (double)(tsc1 - tsc0) / (double)(ns1 - ns0);
}

double tl_tsc_ghz(void)
{
	pthread_once(&tsc_once, x86_calibrate);
	return tsc_ghz_value;
}

/* Child only: the cost of one fenced RDTSCP, the median of batches so a
 * preemption in one batch does not count. */
#define RDTSCP_BATCHES 15
#define RDTSCP_PER_BATCH 200

static void x86_rdtscp_body(struct tl_insn_trial *out)
{
	double per[RDTSCP_BATCHES];
	uint32_t lo, hi, aux = 0;

	for (int b = 0; b < RDTSCP_BATCHES; b++) {
		int64_t t0 = x86_raw_ns();
		for (int i = 0; i < RDTSCP_PER_BATCH; i++)
			__asm__ volatile("lfence\n\trdtscp\n\tlfence"
					 : "=a"(lo), "=d"(hi), "=c"(aux)
					 :
					 : "memory");
		per[b] = (double)(x86_raw_ns() - t0) / RDTSCP_PER_BATCH;
	}
	(void)lo;
	(void)hi;
	/* Sorted here, not by stats_median: a child forked from a threaded
	 * process must not malloc (another thread may have held its lock). */
	for (int i = 1; i < RDTSCP_BATCHES; i++)
		for (int j = i; j > 0 && per[j] < per[j - 1]; j--) {
			double x = per[j];
			per[j] = per[j - 1];
			per[j - 1] = x;
		}
	out->ns_per_exec = per[RDTSCP_BATCHES / 2];
	out->value = aux;
}

static int rdtscp_usable;
static char rdtscp_how[TL_WHY_MAX];
static pthread_once_t rdtscp_once = PTHREAD_ONCE_INIT;

static void x86_rdtscp_decide_once(void)
{
	unsigned a, b, c, d;
	bool cpuid = __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));
	struct tl_insn_trial trial;

	memset(&trial, 0, sizeof trial);
	if (!cpuid)
		tl_insn_try(x86_rdtscp_body, &trial);
	rdtscp_usable = tl_rdtscp_decide(cpuid, &trial, rdtscp_how, sizeof rdtscp_how);
}

int tl_x86_rdtscp(char *how, size_t howlen)
{
	pthread_once(&rdtscp_once, x86_rdtscp_decide_once);
	if (how && howlen)
		snprintf(how, howlen, "%s", rdtscp_how);
	return rdtscp_usable;
}

static void x86_vendor(char vendor[13])
{
	unsigned a, b, c, d;

	memset(vendor, 0, 13);
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
}

/* DE_CFG (MSR C001_1029) bit 1 is the switch the kernel sets on AMD
 * families 10h-17h to make LFENCE dispatch-serializing. */
static int x86_amd_de_cfg(char *how, size_t howlen)
{
	char path[64];
	uint64_t val;
	int cpu = sched_getcpu(), fd;

	snprintf(path, sizeof path, "/dev/cpu/%d/msr", cpu < 0 ? 0 : cpu);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(how, howlen,
			 "AMD: unknown (no CPUID 8000_0021h EAX[2] and %s unreadable: "
			 "try as root with `modprobe msr`)",
			 path);
		return -1;
	}
	if (pread(fd, &val, sizeof val, 0xC0011029) != (ssize_t)sizeof val) {
		close(fd);
		snprintf(how, howlen, "AMD: unknown (reading DE_CFG MSR C001_1029 failed)");
		return -1;
	}
	close(fd);
	snprintf(how, howlen, "AMD: DE_CFG bit 1 = %d", (int)(val >> 1 & 1));
	return (int)(val >> 1 & 1);
}

int tl_x86_lfence_serializing(char *how, size_t howlen)
{
	char vendor[13];
	unsigned a, b, c, d;
	char dummy[8];

	if (!how || !howlen) {
		how = dummy;
		howlen = sizeof dummy;
	}
	x86_vendor(vendor);
	if (strcmp(vendor, "GenuineIntel") == 0) {
		snprintf(how, howlen, "Intel: always");
		return 1;
	}
	if (strcmp(vendor, "AuthenticAMD") != 0 && strcmp(vendor, "HygonGenuine") != 0) {
		snprintf(how, howlen, "unknown (vendor %s)", vendor[0] ? vendor : "unknown");
		return -1;
	}
	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000021 &&
	    __get_cpuid(0x80000021, &a, &b, &c, &d) && (a & (1u << 2))) {
		snprintf(how, howlen, "AMD: CPUID 8000_0021h EAX[2]");
		return 1;
	}
	return x86_amd_de_cfg(how, howlen);
}

int tl_fma_supported(char *why, size_t whylen)
{
	/* libgcc/compiler-rt set "fma" only when the OS also saves the AVX
	 * state (OSXSAVE and XCR0), so a VM that hides either is refused
	 * here instead of faulting on the first vfmadd. */
	__builtin_cpu_init();
	if (__builtin_cpu_supports("fma"))
		return 1;
	if (why && whylen)
		snprintf(why, whylen, "fma:K needs the x86 FMA extension (vfmadd231sd), which "
				      "CPUID or the OS's saved AVX state does not offer here");
	return 0;
}

#else

int tl_fma_supported(char *why, size_t whylen)
{
	/* Armv8's fmadd is base FP, and the portable chain is plain C. */
	(void)why;
	(void)whylen;
	return 1;
}

double tl_tsc_ghz(void)
{
	return 0.0;
}

int tl_x86_rdtscp(char *how, size_t howlen)
{
	if (how && howlen)
		snprintf(how, howlen, "not x86 (this is %s)", tl_backend_arch());
	return 0;
}

int tl_x86_lfence_serializing(char *how, size_t howlen)
{
	if (how && howlen)
		snprintf(how, howlen, "not x86 (this is %s)", tl_backend_arch());
	return -1;
}

#endif
