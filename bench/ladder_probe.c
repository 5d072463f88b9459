/* The memory ladder in brief, for `info`: one short chase per level, so a
 * student sees the levels' latencies on the machine in front of them
 * without asking for a run. */
#include "config.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "bench/host.h"
#include "bench/kernel.h"
#include "bench/runner.h"
#include "bench/topology.h"
#include "stats/stats.h"

#define PROBE_LOADS 2000
#define PROBE_SAMPLES 31

/* The middle of (lo, hi] in log scale (lo 0: from hi / 8), in whole lines. */
static uint64_t middle(uint64_t lo, uint64_t hi)
{
	uint64_t m = (uint64_t)sqrt((double)(lo ? lo : hi / 8) * (double)hi);

	/* Whole KiB where it can be, so info shows 16KiB, not 16.94KiB. */
	m -= m % (m >= 1024 ? 1024 : 64);
	return m < 64 ? 64 : m;
}

static double chase(struct tl_timer *t, uint64_t bytes)
{
	void *buf = tl_kernel_chase_layout(bytes, 1);
	const void *at = buf;
	double s[PROBE_SAMPLES], e[PROBE_SAMPLES], m;

	if (!buf)
		return NAN;
	(void)t->backend->time_loads(t, &at, bytes / 64); /* one warm lap */
	for (int i = 0; i < PROBE_SAMPLES; i++) {
		e[i] = t->backend->time_empty(t);
		s[i] = t->backend->time_loads(t, &at, PROBE_LOADS);
	}
	free(buf);
	m = (stats_median(s, PROBE_SAMPLES) - stats_median(e, PROBE_SAMPLES)) * t->ns_per_unit;
	return m / PROBE_LOADS;
}

static void probe(struct tl_host *h, struct tl_timer *t)
{
	double ends[3];
	const char *names[4];
	size_t nends = tl_topology_ends(&h->topo, ends, names);

	for (size_t j = 0; j <= nends; j++) {
		struct tl_level_latency *l = &h->ladder[h->nladder++];
		uint64_t lo = j ? (uint64_t)ends[j - 1] : 0;

		snprintf(l->level, sizeof l->level, "%s", names[j]);
		l->bytes = j < nends ? middle(lo, (uint64_t)ends[j]) : 2 * lo;
		l->ns = NAN;
		if (l->bytes > TL_LADDER_PROBE_MAX) {
			snprintf(l->note, sizeof l->note, "too large to chase briefly");
			continue;
		}
		l->ns = chase(t, l->bytes);
		/* up to TL_LADDER_PROBE_MAX: large enough to be refused, and said */
		if (isnan(l->ns))
			snprintf(l->note, sizeof l->note, "out of memory for a %llu-byte chase",
				 (unsigned long long)l->bytes);
	}
}

void tl_host_probe_ladder(struct tl_host *h)
{
	char said[2 * TL_WHY_MAX], why[TL_WHY_MAX];
	const char *barrier = tl_backend_default_barrier(said, sizeof said);
	const char *use = barrier ? barrier : "clock-gettime";
	struct tl_timer t;
	cpu_set_t before;

	h->ladder_probed = true;
	h->nladder = 0;
	if (!h->have_topology)
		return;
	CPU_ZERO(&before);
	if (sched_getaffinity(0, sizeof before, &before) || tl_cpu_pin(h->cpu, why, sizeof why) < 0)
		return;
	if (tl_timer_open(&t, use, why, sizeof why) == 0) {
		snprintf(h->ladder_timer, sizeof h->ladder_timer, "%s", use);
		probe(h, &t);
		tl_timer_close(&t);
	}
	(void)sched_setaffinity(0, sizeof before, &before);
}
