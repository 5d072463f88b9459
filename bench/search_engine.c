#include "config.h"

#include "bench/search_engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backends/backend.h"
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
	e->adds = NULL;
	e->raw = NULL;
	e->cap = 0;
}

static int grow(struct tl_search_engine *e, size_t n)
{
	if (n <= e->cap)
		return 0;
	uint64_t *a = realloc(e->adds, n * sizeof(*a));
	if (!a)
		return -1;
	e->adds = a;
	double *r = realloc(e->raw, n * sizeof(*r));
	if (!r)
		return -1;
	e->raw = r;
	e->cap = n;
	return 0;
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

int tl_search_engine_measure(void *ctx, uint64_t adds, bool empty, size_t n, double *out_ns)
{
	struct tl_search_engine *e = ctx;
	size_t chunk = chunk_size(e);

	if (grow(e, chunk < n ? chunk : n) != 0)
		return -1;
	for (size_t i = 0; i < chunk && i < e->cap; i++)
		e->adds[i] = adds;
	for (size_t done = 0; done < n;) {
		size_t len = n - done < chunk ? n - done : chunk;

		if (e->stop && atomic_load(e->stop))
			return -1;
		tl_measure(e->timer, e->flush, empty ? NULL : e->adds, len, e->raw);
		for (size_t i = 0; i < len; i++)
			out_ns[done + i] = e->raw[i] * e->timer->ns_per_unit;
		e->measurements += len;
		done += len;
	}
	return 0;
}

double tl_search_engine_overhead(struct tl_search_engine *e, size_t n)
{
	double *v = malloc(n * sizeof(*v)), med = NAN;

	if (v && tl_search_engine_measure(e, 0, true, n, v) == 0)
		med = stats_median(v, n);
	free(v);
	return med;
}

int tl_search_engine_ns_per_add(struct tl_search_engine *e, uint64_t kmax, size_t nk, size_t n,
				double *slope, double *r2)
{
	double *k = calloc(nk, sizeof(*k)), *med = calloc(nk, sizeof(*med));
	double *v = malloc(n * sizeof(*v)), icpt, rr = NAN;
	int rc = -1;

	if (!k || !med || !v || nk < 2)
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
