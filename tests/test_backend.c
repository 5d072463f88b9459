/* Timer backends: the registry holds every SPEC §2 id, every probe returns
 * (available, or unavailable with a reason), this machine's expected set
 * opens, the ADD chain runs exactly K ADDs, and barrier-tsc measures. */
#include "config.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "backends/backend.h"
#include "backends/timed.h"
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
	"barrier-tsc",    "barrier-pmc", "barrier-cntvct", "barrier-pmccntr",
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
			ok(t.backend == b && t.ns_per_unit > 0.0 && b->time_empty && b->time_adds,
			   "%s available (ns/unit %g)", b->id, t.ns_per_unit);
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
	static const char *const must[] = { "barrier-tsc",     "rdtsc",         "clock-gettime",
					     "clock-gettime-raw", "clock-gettime-realtime",
					     "papi-real-nsec",  "papi-real-cyc", "perf-task-clock",
					     "sim" };
	static const char *const pmu[] = { "barrier-pmc", "papi-read", "perf-read" };
	char why[TL_WHY_MAX];

	for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
		bool papi = strncmp(must[i], "papi-", 5) == 0;
		bool x86only = strcmp(must[i], "barrier-tsc") == 0 || strcmp(must[i], "rdtsc") == 0;
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
		(void)x86only;
		why[0] = '\0';
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

static double median_of(struct tl_timer *t, uint64_t adds, int empty, size_t n)
{
	double *v = malloc(n * sizeof *v), m;

	for (size_t i = 0; i < n; i++)
		v[i] = empty ? t->backend->time_empty(t) : t->backend->time_adds(t, adds);
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
	if (!ok(tl_timer_open(&t, "barrier-tsc", why, sizeof why) == 0, "barrier-tsc opens: %s", why))
		return;
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
	a->v = a->t->backend->time_adds(a->t, 200000);
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
	a.v = t.backend->time_adds(&t, 200000);
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
	ok(tl_timer_resolution(&t, 0) == 0.0, "no tries: resolution 0");
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

int main(void)
{
	test_registry();
	test_open_errors();
	test_probes();
	test_this_machine();
	test_add_chain();
	test_barrier_tsc();
#if defined(__aarch64__)
	test_armv8();
#endif
	test_thread_move();
	test_resolution_sim();
	test_papi_describe();
	return tap_done();
}
