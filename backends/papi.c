/* PAPI timers (paper §4, table 3): what most HPC codes use.
 *
 *   papi-real-nsec  PAPI_get_real_nsec()       ns
 *   papi-real-cyc   PAPI_get_real_cyc()        cycles of PAPI's real-time
 *                                              clock (the TSC on x86)
 *   papi-read       PAPI_read() of an event set with PAPI_TOT_CYC
 *
 * Each read is a library call, and the call is part of what PAPI costs, so
 * it stays inside the timed region. PAPI_library_init runs once per process.
 * papi-read's event set counts one thread: the first timing on another
 * thread (the runner's pinned sampler) builds a new event set there before
 * its first read. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "backends/internal.h"
#include "backends/reads.h"

#if defined(HAVE_PAPI)
#include <papi.h>

static int papi_init_rc = PAPI_ENOINIT;
static pthread_once_t papi_once = PTHREAD_ONCE_INIT;

static unsigned long papi_thread_id(void)
{
	return (unsigned long)pthread_self();
}

static void papi_init_once(void)
{
	int rc = PAPI_library_init(PAPI_VER_CURRENT);

	if (rc != PAPI_VER_CURRENT) {
		papi_init_rc = rc < 0 ? rc : PAPI_EMISC;
		return;
	}
	/* Event sets are per thread: the sampling thread is not main. */
	rc = PAPI_thread_init(papi_thread_id);
	papi_init_rc = rc == PAPI_OK ? PAPI_OK : rc;
}

static int papi_ready(char *why, size_t whylen)
{
	pthread_once(&papi_once, papi_init_once);
	if (papi_init_rc != PAPI_OK)
		return tl_why(why, whylen, "PAPI_library_init failed: %s",
			      PAPI_strerror(papi_init_rc));
	return 0;
}

/* Why PAPI_TOT_CYC cannot be added: name the missing PMU when that is it. */
static int papi_cycles_reason(int rc, char *why, size_t whylen)
{
	const PAPI_component_info_t *cpu = PAPI_get_component_info(0);
	int ncntr = cpu ? cpu->num_cntrs : 0;

	if (cpu && cpu->disabled)
		return tl_why(why, whylen, "PAPI component %s is disabled: %s",
			      cpu->name, cpu->disabled_reason);
	if ((rc == PAPI_ENOEVNT || rc == PAPI_ECNFLCT) && !tl_perf_has_cpu_pmu())
		return tl_why(why, whylen,
			      "no PMU: PAPI has no PAPI_TOT_CYC (%s; component %s "
			      "claims %d counters but /sys/bus/event_source/devices/cpu is missing: "
			      "a VM without vPMU?)",
			      PAPI_strerror(rc), cpu ? cpu->name : "?", ncntr);
	if (rc == PAPI_EPERM)
		return tl_why(why, whylen,
			      "PAPI_TOT_CYC refused (%s): perf_event_paranoid=%d; lower "
			      "it or grant CAP_PERFMON",
			      PAPI_strerror(rc), tl_perf_paranoid());
	return tl_why(why, whylen, "PAPI cannot count PAPI_TOT_CYC: %s",
		      PAPI_strerror(rc));
}

/* An event set counting PAPI_TOT_CYC for the calling thread, started. */
static int papi_cycles_eventset(int *es_out, char *why, size_t whylen)
{
	int es = PAPI_NULL, rc;

	rc = PAPI_create_eventset(&es);
	if (rc != PAPI_OK)
		return tl_why(why, whylen, "PAPI_create_eventset: %s", PAPI_strerror(rc));
	rc = PAPI_add_event(es, PAPI_TOT_CYC);
	if (rc == PAPI_OK)
		rc = PAPI_start(es);
	if (rc != PAPI_OK) {
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
		return papi_cycles_reason(rc, why, whylen);
	}
	*es_out = es;
	return 0;
}

/* The old event set belongs to the thread that started it and PAPI will
 * not stop it from here; it stays until PAPI_shutdown (one per thread). */
int tl_papi_rebind(struct tl_papi_state *s)
{
	char why[TL_WHY_MAX];
	int es;

	if (papi_cycles_eventset(&es, why, sizeof why) < 0)
		return -1;
	s->eventset = es;
	s->owner = pthread_self();
	return 0;
}

static int papi_nsec_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	if (tl_backend_no_params(t->backend, params, why, whylen) < 0 || papi_ready(why, whylen) < 0)
		return -1;
	t->ns_per_unit = 1.0;
	return 0;
}

static int papi_cyc_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	const PAPI_hw_info_t *hw;
	double ghz = tl_tsc_ghz();

	if (tl_backend_no_params(t->backend, params, why, whylen) < 0 || papi_ready(why, whylen) < 0)
		return -1;
	/* On x86 PAPI_get_real_cyc reads the TSC, so it may only run when we
	 * could (tl_tsc_ghz checks CPUID and PR_GET_TSC); elsewhere PAPI
	 * scales its clock by the CPU MHz it detected. */
#if defined(__x86_64__) || defined(__i386__)
	if (ghz <= 0.0)
		return tl_why(why, whylen,
			      "PAPI_get_real_cyc reads the TSC, which this process cannot read "
			      "(no TSC, or disabled by prctl PR_SET_TSC)");
#endif
	if (ghz <= 0.0) {
		hw = PAPI_get_hardware_info();
		if (!hw || hw->cpu_max_mhz <= 0)
			return tl_why(why, whylen,
				      "no TSC rate and PAPI reports no CPU MHz to "
				      "convert PAPI_get_real_cyc to ns");
		ghz = hw->cpu_max_mhz / 1000.0;
	}
	t->ns_per_unit = 1.0 / ghz;
	return 0;
}

static int papi_read_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	struct tl_papi_state *s;
	int es;
	double ghz = tl_tsc_ghz();

	if (tl_backend_no_params(t->backend, params, why, whylen) < 0 || papi_ready(why, whylen) < 0 ||
	    papi_cycles_eventset(&es, why, whylen) < 0)
		return -1;
	s = tl_xmalloc(sizeof *s);
	s->eventset = es;
	s->owner = pthread_self();
	t->state = s;
	t->ns_per_unit = ghz > 0.0 ? 1.0 / ghz : 1.0;
	return 0;
}

static void papi_read_close(struct tl_timer *t)
{
	struct tl_papi_state *s = t->state;
	long long v;

	/* Only the owning thread may stop its event set; elsewhere it is
	 * left to PAPI_shutdown. */
	if (s && pthread_equal(pthread_self(), s->owner)) {
		PAPI_stop(s->eventset, &v);
		PAPI_cleanup_eventset(s->eventset);
		PAPI_destroy_eventset(&s->eventset);
	}
	free(s);
	t->state = NULL;
}

static int papi_native_events(int cid)
{
	int code = PAPI_NATIVE_MASK, n = 0;

	if (PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cid) != PAPI_OK)
		return 0;
	do
		n++;
	while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cid) == PAPI_OK && n < 100000);
	return n;
}

static void papi_describe_now(char *buf, size_t len)
{
	char why[TL_WHY_MAX];
	size_t used;
	int n, ver;

	buf[0] = '\0';
	if (papi_ready(why, sizeof why) < 0) {
		snprintf(buf, len, "%s", why);
		return;
	}
	ver = PAPI_get_opt(PAPI_LIB_VERSION, NULL);
	used = (size_t)snprintf(buf, len, "PAPI %d.%d.%d: PAPI_TOT_CYC %s\n", PAPI_VERSION_MAJOR(ver),
				PAPI_VERSION_MINOR(ver), PAPI_VERSION_REVISION(ver),
				PAPI_query_event(PAPI_TOT_CYC) == PAPI_OK ? "available"
									  : "not available");
	n = PAPI_num_components();
	for (int cid = 0; cid < n && used < len; cid++) {
		const PAPI_component_info_t *c = PAPI_get_component_info(cid);
		int w;
		if (!c)
			continue;
		if (c->disabled)
			w = snprintf(buf + used, len - used, "%s: disabled (%s)\n", c->name,
				     c->disabled_reason);
		else
			w = snprintf(buf + used, len - used, "%s: %d counters, %d native events\n",
				     c->name, c->num_cntrs, papi_native_events(cid));
		if (w < 0)
			break;
		used += (size_t)w;
	}
	if (used >= len)
		used = len - 1;
	if (used > 0 && buf[used - 1] == '\n')
		buf[used - 1] = '\0';
}

/* PAPI's component enumeration is not safe off the thread that initialised
 * it (sysdetect crashed when a TUI worker asked): it runs once, and every
 * later call, on any thread, copies that text. */
static char papi_text[2048];
static pthread_once_t papi_text_once = PTHREAD_ONCE_INIT;

static void papi_describe_once(void)
{
	papi_describe_now(papi_text, sizeof papi_text);
}

void tl_papi_describe(char *buf, size_t len)
{
	if (!buf || !len)
		return;
	pthread_once(&papi_text_once, papi_describe_once);
	snprintf(buf, len, "%s", papi_text);
}

#else /* !HAVE_PAPI */

#define papi_read_close NULL

#define PAPI_NOT_BUILT "PAPI not built: install libpapi-dev and reconfigure"

/* Every PAPI backend opens to the same refusal. */
static int papi_not_built_open(struct tl_timer *t, const char *params, char *why, size_t whylen)
{
	(void)t;
	(void)params;
	return tl_why(why, whylen, PAPI_NOT_BUILT);
}
#define papi_nsec_open papi_not_built_open
#define papi_cyc_open papi_not_built_open
#define papi_read_open papi_not_built_open

void tl_papi_describe(char *buf, size_t len)
{
	if (buf && len)
		snprintf(buf, len, PAPI_NOT_BUILT);
}

#endif

const struct tl_backend tl_backend_papi_real_nsec = {
	.id = "papi-real-nsec",
	.family = "papi",
	.clock = TL_CLOCK_WALL,
	.unit = "ns",
	.how = "PAPI_get_real_nsec() (library call)",
	.simulated = false,
	.open = papi_nsec_open,
	.close = NULL,
	.timing = TL_TIMING_PAPI_NSEC,
};

const struct tl_backend tl_backend_papi_real_cyc = {
	.id = "papi-real-cyc",
	.family = "papi",
	.clock = TL_CLOCK_WALL,
	.unit = "ticks",
	.how = "PAPI_get_real_cyc() (library call; the TSC on x86), ns via the TSC rate",
	.simulated = false,
	.open = papi_cyc_open,
	.close = NULL,
	.timing = TL_TIMING_PAPI_CYC,
};

const struct tl_backend tl_backend_papi_read = {
	.id = "papi-read",
	.family = "papi",
	.clock = TL_CLOCK_CYCLES,
	.unit = "cycles",
	.how = "PAPI_read() of an event set with PAPI_TOT_CYC (library call)",
	.simulated = false,
	.open = papi_read_open,
	.close = papi_read_close,
	.timing = TL_TIMING_PAPI_READ,
};
