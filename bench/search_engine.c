#include "config.h"

#include "bench/search_engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "bench/runner.h"
#include "stats/stats.h"

double tl_search_engine_flush_seconds(const struct tl_flush *f)
{
	double t[3];

	if (!f || f->bytes == 0)
		return 0;
	for (int i = 0; i < 3; i++) {
		double t0 = tl_monotonic_s();

		tl_flush_touch(f);
		t[i] = tl_monotonic_s() - t0;
	}
	return stats_median(t, 3);
}

void tl_search_engine_init(struct tl_search_engine *e, struct tl_timer *t,
			   const struct tl_flush *f, atomic_bool *stop)
{
	memset(e, 0, sizeof(*e));
	e->timer = t;
	e->flush = f;
	e->stop = stop;
}

void tl_search_engine_free(struct tl_search_engine *e)
{
	free(e->adds);
	free(e->raw);
	free(e->empty);
	e->empty = NULL;
	e->n_empty = 0;
	e->adds = NULL;
	e->raw = NULL;
	e->cap = 0;
}

/* Checked between chunks, as the stop flag. */
static bool halted(struct tl_search_engine *e)
{
	if (e->stop && atomic_load(e->stop))
		return true;
	if (e->deadline > 0 && tl_monotonic_s() > e->deadline)
		e->past_deadline = true;
	return e->past_deadline;
}

/* n is at most a chunk (1024): small. */
static void grow(struct tl_search_engine *e, size_t n)
{
	if (n <= e->cap)
		return;
	e->adds = tl_xrealloc(e->adds, n, sizeof(*e->adds));
	e->raw = tl_xrealloc(e->raw, n, sizeof(*e->raw));
	e->cap = n;
}

/* About 0.2 s of work between stop checks, so Ctrl-C answers quickly even
 * when one flush writes gigabytes. */
static size_t chunk_size(struct tl_search_engine *e)
{
	if (e->chunk == 0) {
		double fs = tl_search_engine_flush_seconds(e->flush);
		double c = fs > 0 ? 0.2 / fs : 1024;

		e->chunk = c < 1 ? 1 : c > 1024 ? 1024 : (size_t)c;
	}
	return e->chunk;
}

/* Two readings before each chunk, dropped: the first of a chunk comes
 * after the search's own code has run and reads 5 to 20 ns slow on a KVM
 * guest (cold branch and cache state), every 1024 readings, enough to be
 * a pair's max(A0) and move t_diff; after one dropped reading the next
 * was still slow now and then. */
#define WARM_UP 2

static void warm_up(struct tl_search_engine *e, const uint64_t *adds)
{
	double drop[WARM_UP];
	uint64_t k[WARM_UP];

	/* a simulated timer has no cold state, and its draws stay the
	 * sequence the tests' seeds were read from */
	if (e->timer->backend && e->timer->backend->simulated)
		return;
	for (size_t i = 0; i < WARM_UP; i++)
		k[i] = adds ? adds[0] : 0;
	tl_measure(e->timer, e->flush, adds ? k : NULL, WARM_UP, drop);
}

int tl_search_engine_measure(void *ctx, uint64_t adds, bool empty, size_t n, double *out_ns)
{
	struct tl_search_engine *e = ctx;
	size_t chunk = chunk_size(e);

	grow(e, chunk < n ? chunk : n);
	for (size_t i = 0; i < chunk && i < e->cap; i++)
		e->adds[i] = adds;
	for (size_t done = 0; done < n;) {
		size_t len = n - done < chunk ? n - done : chunk;

		if (halted(e))
			return -1;
		warm_up(e, empty ? NULL : e->adds);
		tl_measure(e->timer, e->flush, empty ? NULL : e->adds, len, e->raw);
		for (size_t i = 0; i < len; i++)
			out_ns[done + i] = e->raw[i] * e->timer->ns_per_unit;
		e->measurements += len;
		done += len;
	}
	return 0;
}

int tl_search_engine_measure_mix(void *ctx, const uint64_t *adds, size_t n, double *out_ns)
{
	struct tl_search_engine *e = ctx;
	size_t chunk = chunk_size(e);

	grow(e, chunk < n ? chunk : n);
	for (size_t done = 0; done < n;) {
		size_t len = n - done < chunk ? n - done : chunk;

		if (halted(e))
			return -1;
		memcpy(e->adds, adds + done, len * sizeof *e->adds);
		warm_up(e, e->adds);
		tl_measure(e->timer, e->flush, e->adds, len, e->raw);
		for (size_t i = 0; i < len; i++)
			out_ns[done + i] = e->raw[i] * e->timer->ns_per_unit;
		e->measurements += len;
		done += len;
	}
	return 0;
}

double tl_search_engine_overhead(struct tl_search_engine *e, size_t n)
{
	double *v = tl_xmalloc((n ? n : 1) * sizeof(*v)), med = NAN;

	free(e->empty);
	e->empty = NULL;
	e->n_empty = 0;
	if (tl_search_engine_measure(e, 0, true, n, v) != 0) {
		free(v);
		return med;
	}
	e->empty = v;
	e->n_empty = n;
	return stats_median(v, n);
}

int tl_search_engine_ns_per_add(struct tl_search_engine *e, uint64_t kmax, size_t nk, size_t n,
				double *slope, double *r2)
{
	double *k = tl_xcalloc(nk, sizeof(*k)), *med = tl_xcalloc(nk, sizeof(*med));
	double *v = tl_xmalloc(n * sizeof(*v)), icpt, rr = NAN;
	int rc = -1;

	if (nk < 2)
		goto out;
	for (size_t i = 0; i < nk; i++) {
		uint64_t adds = (uint64_t)llround((double)kmax * (double)i / (double)(nk - 1));

		k[i] = (double)adds;
		if (tl_search_engine_measure(e, adds, false, n, v) != 0)
			goto out;
		med[i] = stats_median(v, n);
	}
	rc = stats_fit_linear(k, med, nk, slope, &icpt, &rr) == 0 && *slope > 0 ? 0 : -1;
	if (r2)
		*r2 = rr;
out:
	free(k);
	free(med);
	free(v);
	return rc;
}
