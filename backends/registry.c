/* The one list of timer backends, lookup, open/close and the node's
 * default barrier timer. Every backend is compiled on every architecture (each file
 * guards its own instructions), so nothing here depends on the target. */
#include "config.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "backends/backend.h"
#include "base/suggest.h"
#include "backends/internal.h"

const struct tl_backend *const tl_backends[] = {
	&tl_backend_barrier_tsc,
	&tl_backend_barrier_rdtsc,
	&tl_backend_barrier_pmc,
	&tl_backend_barrier_cntvct,
	&tl_backend_barrier_pmccntr,
	&tl_backend_papi_real_nsec,
	&tl_backend_papi_real_cyc,
	&tl_backend_papi_read,
	&tl_backend_clock_gettime,
	&tl_backend_clock_gettime_raw,
	&tl_backend_clock_gettime_realtime,
	&tl_backend_rdtsc,
	&tl_backend_perf_read,
	&tl_backend_perf_task_clock,
	&tl_backend_sim,
	NULL,
};

const struct tl_backend *tl_backend_find(const char *id_with_params)
{
	size_t len;

	if (!id_with_params)
		return NULL;
	len = strcspn(id_with_params, ":");
	for (size_t i = 0; tl_backends[i]; i++) {
		const char *id = tl_backends[i]->id;
		if (strlen(id) == len && strncmp(id, id_with_params, len) == 0)
			return tl_backends[i];
	}
	return NULL;
}

const char *tl_backend_default_barrier(char *said, size_t saidlen)
{
#if defined(__aarch64__)
	static const char *const order[] = {"barrier-cntvct"};
#else
	static const char *const order[] = {"barrier-tsc", "barrier-rdtsc"};
#endif
	char why[TL_WHY_MAX], first_why[TL_WHY_MAX] = "";

	for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
		struct tl_timer t;

		if (tl_timer_open(&t, order[i], why, sizeof why) < 0) {
			if (i == 0)
				snprintf(first_why, sizeof first_why, "%s", why);
			continue;
		}
		tl_timer_close(&t);
		if (i == 0)
			tl_why(said, saidlen, "the barrier timer is %s", order[i]);
		else
			tl_why(said, saidlen, "the barrier timer is %s, since %s does not open: %s",
			       order[i], order[0], first_why);
		return order[i];
	}
	tl_why(said, saidlen, "no barrier timer opens here: %s", first_why);
	return NULL;
}

static char ids_text[512];
static pthread_once_t ids_once = PTHREAD_ONCE_INIT;

static void ids_build(void)
{
	size_t used = 0;

	for (size_t i = 0; tl_backends[i]; i++) {
		int n = snprintf(ids_text + used, sizeof ids_text - used, "%s%s", i ? ", " : "",
				 tl_backends[i]->id);
		if (n < 0 || (size_t)n >= sizeof ids_text - used)
			break;
		used += (size_t)n;
	}
}

const char *tl_backend_ids(void)
{
	pthread_once(&ids_once, ids_build);
	return ids_text;
}

int tl_timer_open(struct tl_timer *t, const char *id_with_params, char *why, size_t whylen)
{
	const struct tl_backend *b = tl_backend_find(id_with_params);
	const char *colon;

	memset(t, 0, sizeof *t);
	if (!b) {
		size_t len = id_with_params ? strcspn(id_with_params, ":") : 0;
		tl_why(why, whylen, "unknown backend '%.*s': known backends are %s",
		       (int)(len > 64 ? 64 : len), id_with_params ? id_with_params : "",
		       tl_backend_ids());
		if (id_with_params)
			tl_suggest_append_head(why, whylen, id_with_params, ':', tl_backend_ids());
		return -1;
	}
	if (strlen(id_with_params) >= sizeof t->id)
		return tl_why(why, whylen, "backend id '%.40s...' is too long (at most %zu characters)",
			      id_with_params, sizeof t->id - 1);
	t->backend = b;
	snprintf(t->id, sizeof t->id, "%s", id_with_params);
	t->ns_per_unit = 1.0;
	colon = strchr(id_with_params, ':');
	if (b->open(t, colon ? colon + 1 : NULL, why, whylen) < 0) {
		t->backend = NULL;
		t->state = NULL;
		return -1;
	}
	return 0;
}

void tl_timer_close(struct tl_timer *t)
{
	if (t->backend && t->backend->close)
		t->backend->close(t);
	t->backend = NULL;
	t->state = NULL;
}

