/* Timer backends: the registry holds every documented id (README's table), every probe returns
 * (available, or unavailable with a reason), this machine's expected set
 * opens, the ADD chain runs exactly K ADDs, and barrier-tsc measures. */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include <math.h>
#include <signal.h>

#include "backends/backend.h"
#include "backends/internal.h"
#include "backends/timed.h"
#include "bench/kernel.h"
#include "bench/probe.h"
#include "tests/node_caps.h"
#include "tests/tap.h"

#if defined(__aarch64__)
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

/* qemu-user (CI's aarch64 stage) has no perf_event_open at all: ENOSYS,
 * where a kernel says EFAULT for the NULL attr. */
static bool no_perf_syscall(void)
{
	errno = 0;
	return syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0) < 0 && errno == ENOSYS;
}
#endif

static const char *const spec_ids[] = {
	"barrier-tsc",    "barrier-rdtsc", "barrier-pmc", "barrier-cntvct", "barrier-pmccntr",
	"papi-real-nsec", "papi-real-cyc", "papi-read",    "clock-gettime",
	"rdtsc",          "perf-read",   "perf-task-clock", "sim",
};
#define NSPEC (sizeof spec_ids / sizeof spec_ids[0])

static bool dir_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void test_registry(void)
{
	const char *ids = tl_backend_ids();
	size_t n = 0;

	for (size_t i = 0; i < NSPEC; i++) {
		const struct tl_backend *b = tl_backend_find(spec_ids[i]);
		ok(b && strcmp(b->id, spec_ids[i]) == 0, "registry has %s", spec_ids[i]);
		ok(strstr(ids, spec_ids[i]) != NULL, "tl_backend_ids lists %s", spec_ids[i]);
	}
	for (n = 0; tl_backends[n]; n++) {
		const struct tl_backend *b = tl_backends[n];
		ok(b->id && b->family && b->unit && b->how && b->open && *b->how,
		   "%s has id, family, unit, how and open", b->id);
		ok(tl_backend_find(b->id) == b, "%s is found by its id", b->id);
	}
	ok(n >= NSPEC, "registry has %zu backends", n);
	ok(tl_backend_find("sim:sd=1") == tl_backend_find("sim"), "find ignores parameters");
	ok(tl_backend_find("barrier") == NULL, "find needs the whole id ('barrier')");
	ok(tl_backend_find("barrier-tscx") == NULL, "find needs the whole id ('barrier-tscx')");
	ok(tl_backend_find(NULL) == NULL, "find(NULL) is NULL");
	ok(tl_backend_find("sim")->simulated, "sim is labelled simulated");
	ok(!tl_backend_find("barrier-tsc")->simulated, "barrier-tsc is not simulated");
}

static void test_open_errors(void)
{
	struct tl_timer t;
	char why[TL_WHY_MAX] = "";

	ok(tl_timer_open(&t, "nosuch", why, sizeof why) < 0, "unknown backend does not open");
	ok(strstr(why, "unknown backend 'nosuch'") && strstr(why, "barrier-tsc"),
	   "reason names it and the known ids: %s", why);
	why[0] = '\0';
	ok(tl_timer_open(&t, "clock-gettime:fast=1", why, sizeof why) < 0,
	   "parameters on a backend without any are refused");
	ok(strstr(why, "takes no parameters") != NULL, "reason: %s", why);
}

/* Every probe returns; an unavailable one says why. */
static void test_probes(void)
{
	for (size_t i = 0; tl_backends[i]; i++) {
		const struct tl_backend *b = tl_backends[i];
		struct tl_timer t;
		char why[TL_WHY_MAX] = "";
		if (tl_timer_open(&t, b->id, why, sizeof why) == 0) {
			size_t timed = 0, kinds = 0;

			/* an open backend can time every kernel of the table */
			for (; tl_kernel_table[kinds]; kinds++)
				timed += tl_kernel_table[kinds]->timed[b->timing] != NULL;
			ok(t.backend == b && t.ns_per_unit > 0.0 && timed == kinds,
			   "%s available (ns/unit %g), a timed function for %zu of %zu kernels", b->id,
			   t.ns_per_unit, timed, kinds);
			tl_timer_close(&t);
		} else {
			ok(why[0] != '\0', "%s unavailable: %s", b->id, why);
		}
	}
}

static int opens(const char *id, char *why, size_t whylen)
{
	struct tl_timer t;

	if (tl_timer_open(&t, id, why, whylen) < 0)
		return 0;
	tl_timer_close(&t);
	return 1;
}

/* What this project's machines (x86-64 KVM guests without a PMU) offer. */
static void test_this_machine(void)
{
	static const char *const must[] = { "barrier-rdtsc",   "rdtsc",         "clock-gettime",
					     "clock-gettime-raw", "clock-gettime-realtime",
					     "papi-real-nsec",  "papi-real-cyc", "perf-task-clock",
					     "sim" };
	static const char *const pmu[] = { "barrier-pmc", "papi-read", "perf-read" };
	char why[TL_WHY_MAX];

	for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
		bool papi = strncmp(must[i], "papi-", 5) == 0;
		bool x86only = strcmp(must[i], "barrier-rdtsc") == 0 || strcmp(must[i], "rdtsc") == 0;
#if !defined(HAVE_PAPI)
		if (papi) {
			why[0] = '\0';
			ok(!opens(must[i], why, sizeof why) && strstr(why, "PAPI not built"),
			   "%s without PAPI: %s", must[i], why);
			continue;
		}
#endif
#if !defined(__x86_64__)
		if (x86only) {
			ok(!opens(must[i], why, sizeof why) && strstr(why, "x86-64"),
			   "%s off x86: %s", must[i], why);
			continue;
		}
#endif
#if defined(__aarch64__)
		if (strncmp(must[i], "perf-", 5) == 0 && no_perf_syscall()) {
			why[0] = '\0';
			ok(!opens(must[i], why, sizeof why) && strstr(why, "perf_event"),
			   "%s without perf_event_open (qemu-user): %s", must[i], why);
			continue;
		}
#endif
		(void)papi;
		why[0] = '\0';
		if (x86only && !node_rdtsc_runs()) {
			ok(!opens(must[i], why, sizeof why) && why[0],
			   "rdtsc faults here (a test child said so): %s refuses: %s", must[i], why);
			continue;
		}
		ok(opens(must[i], why, sizeof why), "%s opens here%s%s", must[i], *why ? ": " : "",
		   why);
	}
#if defined(__aarch64__)
	if (no_perf_syscall()) {
		for (size_t i = 0; i < sizeof pmu / sizeof pmu[0]; i++) {
			why[0] = '\0';
			ok(!opens(pmu[i], why, sizeof why) && why[0],
			   "no perf_event_open: %s unavailable: %s", pmu[i], why);
		}
	} else
#endif
	if (!dir_exists("/sys/bus/event_source/devices/cpu") &&
	    !dir_exists("/sys/bus/event_source/devices/cpu_core")) {
		for (size_t i = 0; i < sizeof pmu / sizeof pmu[0]; i++) {
			why[0] = '\0';
			int opened = opens(pmu[i], why, sizeof why);
			ok(!opened && (strstr(why, "PMU") || strstr(why, "PAPI not built") ||
				       strstr(why, "x86-64")),
			   "no cpu PMU device: %s unavailable, reason names the PMU: %s", pmu[i], why);
		}
	} else {
		tap_diag("a cpu PMU device exists: not asserting barrier-pmc/papi-read/perf-read");
	}
#if !defined(__aarch64__)
	why[0] = '\0';
	ok(!opens("barrier-cntvct", why, sizeof why) && strstr(why, "needs Armv8 (this is "),
	   "barrier-cntvct: %s", why);
	why[0] = '\0';
	ok(!opens("barrier-pmccntr", why, sizeof why) && strstr(why, "needs Armv8 (this is "),
	   "barrier-pmccntr: %s", why);
#endif
}

/* The chain runs exactly K ADDs for every remainder and block count. */
static void test_add_chain(void)
{
	static const uint64_t ks[] = { 0, 1, 2, 3, 127, 255, 256, 257, 511, 512, 513, 1000, 20000 };
	int good = 1;

	for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++) {
		uint64_t got = tl_timed_add_chain(ks[i]);
		if (got != ks[i]) {
			tap_diag("add chain of %llu ran %llu ADDs", (unsigned long long)ks[i],
				 (unsigned long long)got);
			good = 0;
		}
	}
	for (uint64_t k = 0; k < 1100; k++)
		if (tl_timed_add_chain(k) != k)
			good = 0;
	ok(good, "add chain runs exactly K ADDs (K = 0..1099 and up to 20000)");
}

/* The jitter kernel runs K + D ADDs in both variants, for every remainder
 * and block count of either chain: the variant changes a dependence, not
 * the work. */
static void test_jitter_chain(void)
{
	/* 1100 and 20000: stretches of K at their cap, the rest in its head. */
	static const uint64_t ks[] = { 0, 1, 2, 255, 256, 257, 500, 511, 512, 513, 1000, 1100, 20000 };
	uint64_t slot[TL_JITTER_SLOTS];
	int good = 1;

	for (size_t i = 0; i < sizeof ks / sizeof ks[0]; i++)
		for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++)
			for (unsigned dep = 0; dep < 2; dep++) {
				uint64_t got = tl_timed_jitter_run(
					tl_timed_jitter_prepare(slot, ks[i], ks[j], dep));
				if (got != ks[i] + ks[j]) {
					tap_diag("jitter K %llu D %llu dep %u ran %llu ADDs",
						 (unsigned long long)ks[i], (unsigned long long)ks[j],
						 dep, (unsigned long long)got);
					good = 0;
				}
			}
	ok(good, "jitter kernel runs exactly K + D ADDs, dependent or beside (K, D in 0..20000)");
}

/* The other chains, for every remainder and block count: MUL leaves the
 * factor's K-th power, FMA counts exactly, LOAD ends K steps along the ring. */
static void test_other_chains(void)
{
	uint64_t pow = 1;
	int good_mul = 1, good_fma = 1, good_load = 1;
	const void *ring[3];
	char why[TL_WHY_MAX];
	int fma = tl_fma_supported(why, sizeof why);

	ring[0] = &ring[1];
	ring[1] = &ring[2];
	ring[2] = &ring[0];
	for (uint64_t k = 0; k < 1100; k++) {
		if (tl_timed_mul_run(tl_timed_mul_prepare(k)) != pow)
			good_mul = 0;
		pow *= TL_TIMED_MUL_FACTOR;
		if (tl_timed_load_run(tl_timed_load_prepare(&ring[0], k)) != &ring[k % 3])
			good_load = 0;
		if (fma) {
			uint64_t bits = tl_timed_fma_run(tl_timed_fma_prepare(k));
			double d;
			memcpy(&d, &bits, sizeof d);
			if (d != (double)k)
				good_fma = 0;
		}
	}
	ok(good_mul, "mul chain runs exactly K MULs (K = 0..1099)");
	ok(good_load, "load chain follows exactly K pointers (K = 0..1099)");
	if (fma)
		ok(good_fma, "fma chain runs exactly K FMAs (K = 0..1099)");
	else
		ok(strstr(why, "FMA") != NULL, "no FMA here, said with a reason: %s", why);
}

static double median_of(struct tl_timer *t, uint64_t adds, int empty, size_t n)
{
	double *v = malloc(n * sizeof *v), m;

	for (size_t i = 0; i < n; i++)
		v[i] = empty ? tl_time_empty(t) : tl_time_adds(t, adds);
	gsl_sort(v, 1, n);
	m = gsl_stats_median_from_sorted_data(v, 1, n);
	free(v);
	return m;
}

#if defined(__aarch64__)
/* Armv8: Linux (and qemu-user) lets EL0 read the virtual counter, so
 * barrier-cntvct opens and measures; barrier-pmccntr needs a PMU and
 * perf_user_access=1, so without them (qemu-user) it refuses with a reason. */
static void test_armv8(void)
{
	struct tl_timer t;
	char why[TL_WHY_MAX] = "";
	FILE *f = fopen("/proc/sys/kernel/perf_user_access", "r");
	int el0 = 0;

	if (f) {
		if (fscanf(f, "%d", &el0) != 1)
			el0 = 0;
		fclose(f);
	}
	if (ok(tl_timer_open(&t, "barrier-cntvct", why, sizeof why) == 0, "barrier-cntvct opens%s%s",
	       *why ? ": " : "", why)) {
		double e = median_of(&t, 0, 1, 201), a = median_of(&t, 2000000, 0, 21);
		ok(t.ns_per_unit > 0.0 && e >= 0.0 && a > e,
		   "barrier-cntvct measures: %g ns/tick, empty %g ticks, add:2000000 %g ticks",
		   t.ns_per_unit, e, a);
		tl_timer_close(&t);
	}
	why[0] = '\0';
	if (el0 == 1 && !no_perf_syscall()) {
		tap_diag("perf_user_access=1: barrier-pmccntr %s",
			 opens("barrier-pmccntr", why, sizeof why) ? "opens" : why);
		return;
	}
	ok(!opens("barrier-pmccntr", why, sizeof why) && why[0],
	   "barrier-pmccntr refuses without EL0 PMU access: %s", why);
}
#endif

static void test_barrier_tsc(void)
{
	struct tl_timer t;
	char why[TL_WHY_MAX] = "", how[128] = "";
	double res, e, a0, a1;
	int lf;

	lf = tl_x86_lfence_serializing(how, sizeof how);
	ok(lf >= -1 && lf <= 1 && how[0], "lfence serializing: %d (%s)", lf, how);
#if !defined(__x86_64__)
	ok(tl_tsc_ghz() == 0.0, "no TSC off x86");
	return;
#endif
	ok(tl_tsc_ghz() > 0.1 && tl_tsc_ghz() < 10.0, "TSC calibrated: %.4f GHz", tl_tsc_ghz());
	ok(tl_tsc_ghz() == tl_tsc_ghz(), "TSC rate is cached");
	if (!node_rdtscp_runs()) {
		ok(tl_timer_open(&t, "barrier-tsc", why, sizeof why) < 0 && strstr(why, "RDTSCP"),
		   "RDTSCP faults here (a test child said so): barrier-tsc refuses: %s", why);
		return;
	}
	if (!ok(tl_timer_open(&t, "barrier-tsc", why, sizeof why) == 0,
		"RDTSCP executes here (a test child said so): barrier-tsc opens: %s", why))
		return;
	ok(strstr(t.note, "RDTSCP") != NULL, "barrier-tsc says how it was decided: %s", t.note);
	is_near(t.ns_per_unit, 1.0 / tl_tsc_ghz(), 1e-12, "barrier-tsc ns per tick = 1/GHz");
	res = tl_timer_resolution(&t, 2000);
	ok(res > 0.0, "barrier-tsc resolution %g ticks > 0", res);
	e = median_of(&t, 0, 1, 2001);
	a0 = median_of(&t, 0, 0, 2001);
	a1 = median_of(&t, 20000, 0, 2001);
	ok(e > 0.0, "barrier-tsc empty median %g ticks > 0", e);
	ok(a1 > a0, "barrier-tsc add:20000 median %g > add:0 median %g", a1, a0);
	tl_timer_close(&t);
}

struct thread_arg {
	struct tl_timer *t;
	double v;
};

static void *time_on_thread(void *p)
{
	struct thread_arg *a = p;
	a->v = tl_time_adds(a->t, 200000);
	return NULL;
}

/* The runner opens timers on one thread and samples on another: a
 * thread-bound counter must follow the sampling thread. */
static void test_thread_move(void)
{
	struct tl_timer t;
	struct thread_arg a;
	pthread_t th;
	char why[TL_WHY_MAX] = "";

	if (tl_timer_open(&t, "perf-task-clock", why, sizeof why) < 0) {
		ok(why[0] != '\0', "perf-task-clock unavailable, so no thread test: %s", why);
		return;
	}
	a.t = &t;
	a.v = -1.0;
	ok(pthread_create(&th, NULL, time_on_thread, &a) == 0 && pthread_join(th, NULL) == 0,
	   "timed perf-task-clock on another thread");
	ok(a.v > 0.0 && !isnan(a.v), "it counted that thread's time: %g ns for 200000 ADDs", a.v);
	a.v = tl_time_adds(&t, 200000);
	ok(a.v > 0.0 && !isnan(a.v), "and back on this thread: %g ns", a.v);
	tl_timer_close(&t);
}

static void test_resolution_sim(void)
{
	struct tl_timer t;
	char why[TL_WHY_MAX] = "";

	if (!ok(tl_timer_open(&t, "sim:quantum=10,spike_rate=0", why, sizeof why) == 0,
		"sim opens: %s", why))
		return;
	is_near(tl_timer_resolution(&t, 1000), 10.0, 1e-9, "sim quantum=10: resolution 10 ns");
	ok(isnan(tl_timer_resolution(&t, 0)), "no tries: resolution cannot be measured (NaN)");
	tl_timer_close(&t);
}

static void test_papi_describe(void)
{
	char buf[2048];

	tl_papi_describe(buf, sizeof buf);
	ok(buf[0] != '\0', "PAPI description: %.60s", buf);
#if defined(HAVE_PAPI)
	ok(strstr(buf, "PAPI ") && strstr(buf, "perf_event"), "lists PAPI's perf_event component");
#else
	ok(strstr(buf, "PAPI not built") != NULL, "says PAPI is not built");
#endif
}

/* The decision over every kind of node, from its facts alone. */
static void test_rdtscp_decisions(void)
{
	struct tl_insn_trial runs = {.outcome = TL_INSN_RUNS, .ns_per_exec = 20, .value = 100};
	struct tl_insn_trial trapped = {.outcome = TL_INSN_RUNS, .ns_per_exec = 1100};
	struct tl_insn_trial faults = {.outcome = TL_INSN_FAULTS, .signal = SIGILL};
	struct tl_insn_trial untried = {.outcome = TL_INSN_UNTRIED, .error = "fork: EAGAIN"};
	char how[TL_WHY_MAX];

	ok(tl_rdtscp_decide(true, &untried, how, sizeof how) == 1 && strstr(how, "advertises"),
	   "CPUID advertises RDTSCP: available, no child needed: %s", how);
	/* shared/nodes/amd-zen5-bhyve-guest/cpuid-raw.txt: 0x80000001 edx=0x25d3fbff,
	 * bit 27 (RDTSCP) clear, while bare-loops.txt shows it running at 20 ns. */
	ok(((0x25d3fbffu >> 27) & 1u) == 0, "the Zen 5 guest's captured CPUID hides RDTSCP");
	ok(tl_rdtscp_decide(false, &runs, how, sizeof how) == 1 &&
		   strstr(how, "CPUID hides RDTSCP, but it executes here (20 ns a read"),
	   "hidden but executes (the Zen 5 bhyve guest): available: %s", how);
	ok(tl_rdtscp_decide(false, &trapped, how, sizeof how) == 1 && strstr(how, "emulates") &&
		   strstr(how, "1100 ns"),
	   "hidden and trapped: available, its cost says emulated: %s", how);
	ok(tl_rdtscp_decide(false, &faults, how, sizeof how) == 0 && strstr(how, "faults") &&
		   strstr(how, "barrier-rdtsc"),
	   "hidden and faults: unavailable, points at barrier-rdtsc: %s", how);
	ok(tl_rdtscp_decide(false, &untried, how, sizeof how) == 0 && strstr(how, "EAGAIN"),
	   "hidden and no child could try it: unavailable, says why: %s", how);
}

static void body_runs(struct tl_insn_trial *out)
{
	out->ns_per_exec = 7;
	out->value = 42;
}

static void body_faults(struct tl_insn_trial *out)
{
	(void)out;
	raise(SIGILL);
}

/* The child really runs the body, and a fault there is the child's alone. */
static void test_insn_try(void)
{
	struct tl_insn_trial trial;

	tl_insn_try(body_runs, &trial);
	ok(trial.outcome == TL_INSN_RUNS && trial.ns_per_exec == 7 && trial.value == 42,
	   "a body that returns: runs, its numbers come back");
	tl_insn_try(body_faults, &trial);
	ok(trial.outcome == TL_INSN_FAULTS && trial.signal == SIGILL,
	   "a body that dies of SIGILL: faults with SIGILL, and this process lives on");
}

/* barrier-rdtsc needs only a TSC: it opens wherever rdtsc executes, and its
 * ADD chain shows in its readings. */
static void test_barrier_rdtsc(void)
{
	struct tl_timer t;
	char why[TL_WHY_MAX] = "";
	char said[2 * TL_WHY_MAX];
	const char *barrier;

	if (!node_rdtsc_runs()) {
		ok(tl_timer_open(&t, "barrier-rdtsc", why, sizeof why) < 0 && why[0],
		   "no rdtsc here: barrier-rdtsc refuses: %s", why);
		return;
	}
	if (!ok(tl_timer_open(&t, "barrier-rdtsc", why, sizeof why) == 0,
		"rdtsc executes here: barrier-rdtsc opens: %s", why))
		return;
	ok(median_of(&t, 20000, 0, 201) > median_of(&t, 0, 0, 201),
	   "barrier-rdtsc: add:20000 takes longer than add:0");
	ok(tl_timer_resolution(&t, 2000) > 0, "barrier-rdtsc has a measured step");
	tl_timer_close(&t);
	barrier = tl_backend_default_barrier(said, sizeof said);
	ok(barrier && strcmp(barrier, node_rdtscp_runs() ? "barrier-tsc" : "barrier-rdtsc") == 0,
	   "the default barrier follows what executes here: %s", said);
}

int main(void)
{
	test_registry();
	test_open_errors();
	test_probes();
	test_this_machine();
	test_add_chain();
	test_jitter_chain();
	test_other_chains();
	test_barrier_tsc();
#if defined(__aarch64__)
	test_armv8();
#endif
	test_thread_move();
	test_resolution_sim();
	test_papi_describe();
	test_rdtscp_decisions();
	test_insn_try();
	test_barrier_rdtsc();
	return tap_done();
}
