/* Does the core clock hold still? A VM's host (or a governor other than
 * performance) can move the core between clock steps while the TSC keeps
 * its rate: a fixed ADD chain then takes a few per cent more or less from
 * one millisecond to the next, and no kernel length brings CV below that.
 * Files cannot show it; only a measurement can. */
#include "config.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "bench/flush.h"
#include "bench/host.h"
#include "bench/runner.h"
#include "bench/search_engine.h"
#include "stats/stats.h"

#define PROBE_ADDS 20000
#define PROBE_SAMPLES 20000
/* A drift this large matters at the paper's eps (1 %): it is a third of it. */
#define PROBE_BAD_DRIFT 0.003

/* The node's barrier timer where one opens, else clock-gettime. */
static int open_first(struct tl_timer *t, char *id, size_t idlen)
{
	char said[2 * TL_WHY_MAX], why[TL_WHY_MAX];
	const char *barrier = tl_backend_default_barrier(said, sizeof said);
	const char *use = barrier ? barrier : "clock-gettime";

	if (tl_timer_open(t, use, why, sizeof why) < 0)
		return -1;
	snprintf(id, idlen, "%s", use);
	return 0;
}

/* The chain's samples in ns, in time order; 0 or -1. */
static int measure(struct tl_host *h, double *ns)
{
	struct tl_timer t;
	struct tl_flush f;
	struct tl_search_engine e;
	char why[TL_WHY_MAX];
	int rc = -1;

	if (open_first(&t, h->clock_timer, sizeof h->clock_timer) < 0)
		return -1;
	if (tl_flush_init(&f, 0, why, sizeof why) == 0) {
		tl_search_engine_init(&e, &t, &f, NULL);
		double t0 = tl_monotonic_s();
		rc = tl_search_engine_measure(&e, PROBE_ADDS, false, PROBE_SAMPLES, ns);
		h->clock_seconds = tl_monotonic_s() - t0;
		tl_search_engine_free(&e);
		tl_flush_free(&f);
	}
	tl_timer_close(&t);
	return rc;
}

/* What is known of why the level moved. Only settings are read, never
 * the clock itself (no APERF/MPERF here), so a cause is named as one that
 * can, never as the one that did. */
static const char *cause_words(const struct tl_host *h, char *buf, size_t len)
{
	if (strncmp(h->governor, "none", 4) && strcmp(h->governor, "performance"))
		snprintf(buf, len, "not measured; the %.40s governor can move the core clock",
			 h->governor);
	else if (h->turbo_on == 1)
		snprintf(buf, len, "not measured; turbo is on and can move the core clock");
	else
		snprintf(buf, len, "not measured%s", h->vm ? " (a VM's host sets the core clock)" : "");
	return buf;
}

static void describe(struct tl_host *h, const struct tl_drift *d)
{
	struct tl_spoiler *s = &h->spoilers[TL_SPOILER_CLOCK];
	char cause[96];

	h->clock_adds = PROBE_ADDS;
	h->clock_lo_ns = d->lo;
	h->clock_hi_ns = d->hi;
	h->clock_drift = d->rel_sd;
	h->clock_drifts = d->drifts;
	s->bad = d->drifts && d->rel_sd >= PROBE_BAD_DRIFT;
	/* drift is an sd (the run table's drift column, of this chain); the
	 * medians' range is another, larger figure and is named as one */
	if (s->bad)
		snprintf(s->seen, sizeof s->seen, "drift %.2f %%", 100.0 * d->rel_sd);
	else
		snprintf(s->seen, sizeof s->seen, "steady");
	if (s->bad)
		snprintf(s->why, sizeof s->why,
			 "the sd of a %d-ADD chain's 100-sample medians over their median, "
			 "%.1fx noise alone (%s, %.2f s); the medians span %.0f..%.0f ns (%.1f %%). "
			 "CV stays above the drift. Cause %s",
			 PROBE_ADDS, d->rel_sd / d->noise_rel_sd, h->clock_timer, h->clock_seconds,
			 d->lo, d->hi, 100.0 * (d->hi - d->lo) / d->median,
			 cause_words(h, cause, sizeof cause));
	else
		snprintf(s->why, sizeof s->why,
			 "drift %.2f %% (the sd of a %d-ADD chain's 100-sample medians over their "
			 "median), noise alone %.2f %%; the medians span %.0f..%.0f ns over %.2f s "
			 "(%s): the level held still",
			 100.0 * d->rel_sd, PROBE_ADDS, 100.0 * d->noise_rel_sd, d->lo, d->hi,
			 h->clock_seconds, h->clock_timer);
}

void tl_host_probe_clock(struct tl_host *h)
{
	struct tl_spoiler *s = &h->spoilers[TL_SPOILER_CLOCK];
	cpu_set_t saved;
	char why[TL_WHY_MAX];
	double *ns = tl_xmalloc(PROBE_SAMPLES * sizeof *ns);
	bool restore = sched_getaffinity(0, sizeof saved, &saved) == 0;

	h->clock_probed = true; /* tried: a caller redrawing must not probe again */
	if (tl_cpu_pin(h->cpu, why, sizeof why) < 0 || measure(h, ns) < 0) {
		snprintf(s->seen, sizeof s->seen, "not measured");
		snprintf(s->why, sizeof s->why,
			 "the clock probe could not run: no timer opened or the CPU could not be pinned");
	} else {
		struct tl_drift d;
		stats_drift(ns, PROBE_SAMPLES, TL_DRIFT_CHUNK, &d);
		describe(h, &d);
	}
	if (restore)
		sched_setaffinity(0, sizeof saved, &saved);
	free(ns);
}
