#include "config.h"

#include "bench/probe.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "bench/kernel.h"
#include "stats/stats.h"

#define COST_BATCHES 21
#define COST_PER_BATCH 50

static double per_call_ns(int use_syscall)
{
	double per[COST_BATCHES];

	for (int b = 0; b < COST_BATCHES; b++) {
		struct timespec ts;
		double t0 = tl_monotonic_s();
		for (int i = 0; i < COST_PER_BATCH; i++) {
			if (use_syscall)
				syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts);
			else
				clock_gettime(CLOCK_MONOTONIC, &ts);
		}
		per[b] = (tl_monotonic_s() - t0) * 1e9 / COST_PER_BATCH;
	}
	return stats_median(per, COST_BATCHES);
}

void tl_syscall_cost_measure(struct tl_syscall_cost *c)
{
	c->vdso_ns = per_call_ns(0);
	c->syscall_ns = per_call_ns(1);
}

/* Durations vary so that their lattice shows: half the timings run a few
 * ADDs (0..127), the rest are empty. The step itself is stats' to find. */
double tl_timer_resolution(struct tl_timer *t, unsigned tries)
{
	const struct tl_backend *b = t->backend;
	double *v, step;

	if (!b || tries == 0)
		return NAN;
	v = tl_xmalloc(tries * sizeof *v);
	for (unsigned i = 0; i < tries; i++)
		v[i] = (i & 1) ? tl_time_adds(t, (uint64_t)((i * 37u) % 128u)) : tl_time_empty(t);
	step = stats_lattice_step(v, tries);
	free(v);
	return step;
}

int tl_vdso_verdict(const struct tl_syscall_cost *c)
{
	if (!c || !(c->vdso_ns > 0) || !(c->syscall_ns > 0))
		return -1;
	return c->vdso_ns < 0.5 * c->syscall_ns ? 1 : 0;
}

bool tl_probe_is_syscall(double overhead_ns, const struct tl_syscall_cost *c)
{
	if (!c || !(c->syscall_ns > 0) || !(c->vdso_ns > 0) || !isfinite(overhead_ns))
		return false;
	/* Where a system call costs little more than a vDSO read, cost cannot
	 * tell them apart: say nothing rather than guess. */
	if (c->syscall_ns < 3 * c->vdso_ns)
		return false;
	return overhead_ns >= 0.5 * c->syscall_ns;
}

void tl_backend_probe(const char *id, const struct tl_syscall_cost *cost, struct tl_probe *p)
{
	struct tl_timer t;
	struct tl_analysis a;
	double *x;

	memset(p, 0, sizeof *p);
	p->backend = tl_backend_find(id);
	p->resolution_ns = NAN;
	p->overhead_ns = NAN;
	p->overhead_sd_ns = NAN;
	if (tl_timer_open(&t, id, p->reason, sizeof p->reason) < 0)
		return;
	p->available = true;
	snprintf(p->reason, sizeof p->reason, "%s", t.note);
	p->resolution_ns = tl_timer_resolution(&t, TL_PROBE_SAMPLES) * t.ns_per_unit;
	x = tl_xmalloc(TL_PROBE_SAMPLES * sizeof *x);
	for (size_t i = 0; i < TL_PROBE_SAMPLES; i++)
		x[i] = tl_time_empty(&t) * t.ns_per_unit;
	p->overhead_ns = stats_median(x, TL_PROBE_SAMPLES);
	/* Tukey's fences need no seed, so the spread is reproducible. */
	if (stats_analyse(x, TL_PROBE_SAMPLES, 0.0, TL_OS_IQR, 1, &a, NULL, NULL) == 0)
		p->overhead_sd_ns = a.summary.sd;
	free(x);
	p->syscall_per_read = tl_probe_is_syscall(p->overhead_ns, cost);
	tl_timer_close(&t);
}

void tl_probe_cost_words(const struct tl_probe *p, const struct tl_syscall_cost *c, char *buf,
			 size_t len)
{
	if (!p->syscall_per_read || !c) {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len, "a syscall per read: %.0f ns here (a bare clock_gettime syscall: %.0f ns)",
		 p->overhead_ns, c->syscall_ns);
}
