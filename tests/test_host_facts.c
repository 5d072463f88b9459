/* Node facts that are decided from measurements: the vDSO verdict, which
 * backends cost a system call per read, and the clock-read spoiler built
 * from them. Each case is a node's measured costs (the Zen 5 bhyve guest
 * of shared/nodes, a kvm-clock guest without a vDSO path, a node where a
 * syscall is cheap), fed to the pure decisions. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "bench/host.h"
#include "bench/probe.h"
#include "stats/stats.h"
#include "tests/tap.h"

static void test_vdso_verdict(void)
{
	struct tl_syscall_cost zen5 = {.vdso_ns = 20, .syscall_ns = 1100};
	struct tl_syscall_cost no_vdso = {.vdso_ns = 1050, .syscall_ns = 1100};
	struct tl_syscall_cost unknown = {0, 0};

	ok(tl_vdso_verdict(&zen5) == 1, "kvm-clock at 20 ns vs a 1.1 us syscall: a vDSO read");
	ok(tl_vdso_verdict(&no_vdso) == 0, "1050 ns vs 1100 ns: every read is the syscall");
	ok(tl_vdso_verdict(&unknown) == -1, "not measured: unknown");
	ok(tl_vdso_verdict(NULL) == -1, "no costs at all: unknown");
}

static void test_syscall_per_read(void)
{
	struct tl_syscall_cost zen5 = {.vdso_ns = 20, .syscall_ns = 1100};
	struct tl_syscall_cost cheap = {.vdso_ns = 20, .syscall_ns = 45};

	ok(tl_probe_is_syscall(1200, &zen5), "papi-real-nsec at 1.2 us on the Zen 5 guest: a syscall");
	ok(!tl_probe_is_syscall(20, &zen5), "clock-gettime at 20 ns there: not a syscall");
	ok(!tl_probe_is_syscall(1200, &cheap),
	   "where a syscall costs barely more than a vDSO read, cost cannot tell: nothing said");
	ok(!tl_probe_is_syscall(NAN, &zen5), "no overhead measured: nothing said");
	ok(!tl_probe_is_syscall(1200, NULL), "no costs measured: nothing said");
}

static const struct tl_spoiler *clock_reads(struct tl_host *h)
{
	tl_host_diagnose(h, true);
	return &h->spoilers[TL_SPOILER_CLOCKSOURCE];
}

static void test_clock_spoiler(void)
{
	struct tl_host h;
	struct tl_probe probes[2];
	const struct tl_spoiler *s;

	memset(&h, 0, sizeof h);
	strcpy(h.clocksource, "kvm-clock");
	h.cost = (struct tl_syscall_cost){.vdso_ns = 20, .syscall_ns = 1100};
	s = clock_reads(&h);
	ok(!s->bad && strstr(s->why, "vDSO") && strstr(s->why, "20 ns") && strstr(s->why, "1100 ns"),
	   "kvm-clock with a vDSO path: fine, and says what was measured: %s", s->why);

	memset(probes, 0, sizeof probes);
	probes[0].backend = tl_backend_find("papi-real-nsec");
	probes[0].available = true;
	probes[0].overhead_ns = 1180;
	probes[0].syscall_per_read = true;
	probes[1].backend = tl_backend_find("clock-gettime");
	probes[1].available = true;
	probes[1].overhead_ns = 20;
	tl_host_note_syscalls(&h, probes, 2);
	s = &h.spoilers[TL_SPOILER_CLOCKSOURCE];
	ok(strstr(s->why, "a syscall per read: papi-real-nsec 1180 ns") &&
		   !strstr(s->why, "clock-gettime"),
	   "the slow path is named with its cost, the vDSO reader is not: %s", s->why);

	memset(&h, 0, sizeof h);
	strcpy(h.clocksource, "kvm-clock");
	h.cost = (struct tl_syscall_cost){.vdso_ns = 1050, .syscall_ns = 1100};
	s = clock_reads(&h);
	ok(s->bad && strstr(s->why, "enters the kernel"),
	   "kvm-clock without a vDSO path: a spoiler, from its cost: %s", s->why);

	memset(&h, 0, sizeof h);
	strcpy(h.clocksource, "tsc");
	s = clock_reads(&h);
	ok(!s->bad && strstr(s->why, "not measured"),
	   "tsc, but nothing measured: no verdict from the name: %s", s->why);
}

/* Durations as readings of a clock with the given step give it back. */
static void test_lattice(void)
{
	double d[2000], x;
	size_t n = 0;

	for (size_t i = 0; i < 2000; i++)
		d[i] = 21.0 * (double)(2 + i % 6);
	is_near(stats_lattice_step(d, 2000), 21.0, 1e-9, "TSC in 21-tick steps (the Zen 5 guest): 21");

	/* kvm-clock: a 10.02 ns TSC step rounded to whole ns, so durations
	 * cluster at 20/21, 29/30/31, 40/41 and the smallest gap is 1. */
	for (size_t i = 0; i < 2000; i++) {
		double start = 1000.0 + 0.37 * (double)i;
		double a = floor(floor(start / 10.02) * 10.02 + 0.5);
		double b = floor(floor((start + 15 + (double)(i % 40)) / 10.02) * 10.02 + 0.5);
		d[n++] = b - a;
	}
	x = stats_lattice_step(d, n);
	ok(fabs(x - 10.02) < 0.15, "10.02 ns lattice with rounding jitter: step %.3f, not 1", x);

	/* A whole-ns clock over a continuous range: step 1. */
	for (size_t i = 0; i < 2000; i++)
		d[i] = floor(20 + 40 * fmod(0.6180339887 * (double)i, 1.0));
	x = stats_lattice_step(d, 2000);
	ok(fabs(x - 1.0) < 0.01, "whole-ns readings: step %.3f", x);

	/* 96 % of durations one value, the rest one step more. */
	for (size_t i = 0; i < 2000; i++)
		d[i] = i % 25 ? 21.0 : 42.0;
	is_near(stats_lattice_step(d, 2000), 21.0, 1e-9, "one value and a few a step above: 21");

	/* A continuous clock read as tl_timer_resolution reads it (half empty,
	 * half a few odd ADDs, normal noise of sd 8): a period as long as the
	 * whole range is coherent on any data, but the readings do not sit on
	 * its multiples, so no lattice (the smallest gap, far below 1 ns). */
	for (size_t i = 0; i < 2000; i++) {
		double u1 = fmod(0.5 + 0.6180339887 * (double)i, 1.0);
		double u2 = fmod(0.5 + 0.7548776662 * (double)i, 1.0);
		double z = sqrt(-2 * log(u1 + 1e-9)) * cos(2 * M_PI * u2);

		d[i] = 60.0 + ((i & 1) ? (double)((i * 37u) % 128u) : 0.0) + 8.0 * z;
	}
	x = stats_lattice_step(d, 2000);
	ok(x < 0.5, "continuous readings (sd 8 ns): no lattice, step %.3g ns", x);

	for (size_t i = 0; i < 2000; i++)
		d[i] = 20.0;
	ok(isnan(stats_lattice_step(d, 2000)), "readings that never change: no step (NaN), never 0");
	ok(isnan(stats_lattice_step(d, 0)), "no readings: NaN");
}

int main(void)
{
	test_vdso_verdict();
	test_syscall_per_read();
	test_clock_spoiler();
	test_lattice();
	return tap_done();
}
