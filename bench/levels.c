/* The levels probe: doubling buffers chased from below L1 until memory
 * latency has held for a few sizes (or past the largest reported level),
 * about a second; then the flush loop's write rate past the last level. */
#include "config.h"

#include "bench/levels.h"
#include "bench/levels_store.h"

#include "base/file_guard.h"
#include "base/xalloc.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "bench/flush.h"
#include "bench/kernel.h"
#include "bench/runner.h"
#include "bench/size.h"
#include "stats/stats.h"

#define FIRST_BYTES (4u << 10)   /* below every L1d the lab has met */
#define LOADS 2048               /* per timing: 2 us at 1 ns, far above a 10 ns step */
#define SAMPLES 15
#define WARM_MAX (1u << 17)      /* a lap warms a cache; memory needs none */
#define MEMORY_POINTS 3          /* memory latency held this many sizes: stop */
#define BUDGET_S 3.0
#define WRITE_MIN_BYTES (64ULL << 20)

static double chase_ns(struct tl_timer *t, uint64_t bytes)
{
	void *buf = tl_kernel_chase_layout(bytes, 1);
	const void *at = buf;
	uint64_t lines = bytes / 64;
	double s[SAMPLES], e[SAMPLES], m;

	if (!buf)
		return NAN;
	(void)tl_time_loads(t, &at, lines < WARM_MAX ? lines : WARM_MAX);
	for (int i = 0; i < SAMPLES; i++) {
		e[i] = tl_time_empty(t);
		s[i] = tl_time_loads(t, &at, LOADS);
	}
	tl_kernel_chase_free(buf, bytes);
	m = (stats_median(s, SAMPLES) - stats_median(e, SAMPLES)) * t->ns_per_unit;
	return m / LOADS;
}

static uint64_t largest_reported(const struct tl_topology *topo)
{
	double ends[3];
	const char *names[4];
	size_t n = tl_topology_ends(topo, ends, names);

	return n ? (uint64_t)ends[n - 1] : 0;
}

static uint64_t size_limit(void)
{
	const char *env = getenv("TL_LEVELS_MAX");
	uint64_t max = TL_LEVELS_MAX_DEFAULT, mem = tl_flush_max_bytes() / 4;
	char why[256];

	if (env && env[0] && tl_size_parse(env, NULL, &max, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab: TL_LEVELS_MAX ignored: %s\n", why);
		max = TL_LEVELS_MAX_DEFAULT;
	}
	return max < mem ? max : mem;
}

/* How many of the last sizes all read memory's latency: one busy moment
 * can lift a single L3 size past it (2MiB read 58 ns, then 4MiB 48 ns). */
static size_t held_memory(const double *ns, size_t n)
{
	size_t k = 0;

	while (k < n && ns[n - 1 - k] >= STATS_LEVELS_MEMORY_NS)
		k++;
	return k;
}

/* Done when memory latency has held for MEMORY_POINTS sizes, or the chase
 * is past twice the largest reported level with no memory step yet to wait
 * for beyond the limit. */
static bool enough(const double *bytes, const double *ns, size_t n, uint64_t reported)
{
	struct stats_levels lv;

	if (stats_levels_find(bytes, ns, n, 0, &lv) < 0)
		return false;
	if (lv.memory_seen && n - lv.memory.first >= MEMORY_POINTS &&
	    held_memory(ns, n) >= MEMORY_POINTS)
		return true;
	return !lv.memory_seen && reported && bytes[n - 1] >= 2.0 * (double)reported &&
	       bytes[n - 1] >= (double)(8u << 20);
}

static void chase_ladder(struct tl_timer *t, const struct tl_topology *topo, struct tl_levels *lv)
{
	uint64_t max = size_limit(), reported = largest_reported(topo);
	double t0 = tl_monotonic_s();

	lv->npoints = 0;
	for (uint64_t b = FIRST_BYTES; b <= max && lv->npoints < STATS_LEVELS_MAX_POINTS; b *= 2) {
		double ns = chase_ns(t, b);

		if (isnan(ns))
			break;
		lv->bytes[lv->npoints] = (double)b;
		lv->ns[lv->npoints++] = ns;
		if (enough(lv->bytes, lv->ns, lv->npoints, reported) ||
		    tl_monotonic_s() - t0 > BUDGET_S)
			break;
	}
}

/* The flush loop's own rate over a buffer past every level: a flush of N
 * bytes before each sample costs about N / rate. */
static double write_rate(const struct tl_levels *lv)
{
	uint64_t bytes = WRITE_MIN_BYTES;
	struct tl_flush f;
	double best = INFINITY;
	char why[256];

	if (lv->found.memory_seen && 2 * (uint64_t)lv->found.memory.lo_bytes > bytes)
		bytes = 2 * (uint64_t)lv->found.memory.lo_bytes;
	if (bytes > tl_flush_max_bytes() / 4 || tl_flush_init(&f, bytes, why, sizeof why) < 0)
		return 0;
	for (int i = 0; i < 3; i++) {
		double t0 = tl_monotonic_s();

		tl_flush_touch(&f);
		t0 = tl_monotonic_s() - t0;
		if (t0 < best)
			best = t0;
	}
	tl_flush_free(&f);
	return best > 0 && isfinite(best) ? (double)bytes / (best * 1e9) : 0;
}

/* Passes: the chase of the sizes up to memory, repeated until the median
 * ladder's steps hold. One pass is a moment: on the Intel guest three
 * single chases in a row put L3's end at 16, 32 and 8 MiB while the
 * latency the lab flushes by had not moved. */
#define PASSES_MIN 3
#define PASSES_MAX 9
#define PASSES_BUDGET_S 5.0

struct passes {
	size_t n, upto;      /* passes held; sizes [0, upto) are chased again */
	size_t nrep;         /* caches reported: at most as many levels per pass */
	double ns[PASSES_MAX][STATS_LEVELS_MAX_POINTS];
	struct stats_levels found[PASSES_MAX];
};

/* The steps a finding places, as one comparable list: each cache's last
 * size at its latency, then where memory begins (0: none). */
static size_t steps_of(const struct stats_levels *f, double *sig)
{
	size_t n = 0;

	for (size_t j = 0; j < f->ncaches; j++)
		sig[n++] = f->cache[j].lo_bytes;
	sig[n++] = f->memory_seen ? f->memory.lo_bytes : 0;
	return n;
}

static bool same_steps(const struct stats_levels *a, const struct stats_levels *b)
{
	double x[STATS_LEVELS_MAX_CACHES + 1], y[STATS_LEVELS_MAX_CACHES + 1];
	size_t n = steps_of(a, x);

	return n == steps_of(b, y) && !memcmp(x, y, n * sizeof *x);
}

/* The per-size median over the passes: what the levels are found on. */
static void median_ladder(const struct passes *ps, const struct tl_levels *lv, double *ns)
{
	double v[PASSES_MAX];

	for (size_t i = 0; i < lv->npoints; i++) {
		for (size_t p = 0; p < ps->n; p++)
			v[p] = ps->ns[p][i];
		ns[i] = stats_median(v, ps->n);
	}
}

static void chase_pass(struct tl_timer *t, const struct tl_levels *lv, struct passes *ps)
{
	double *ns = ps->ns[ps->n];

	for (size_t i = 0; i < lv->npoints; i++)
		ns[i] = i < ps->upto ? chase_ns(t, (uint64_t)lv->bytes[i]) : ps->ns[0][i];
	(void)stats_levels_find(lv->bytes, ns, lv->npoints, ps->nrep, &ps->found[ps->n]);
	ps->n++;
}

/* The sizes worth chasing again: up to the first two at memory latency
 * (past them only memory's creep with the TLB, which places no step). */
static size_t chase_upto(const struct tl_levels *lv)
{
	size_t held = held_memory(lv->ns, lv->npoints);
	size_t upto = held ? lv->npoints - held + 2 : lv->npoints;

	return upto < lv->npoints ? upto : lv->npoints;
}

/* Repeats the chase until the median ladder's steps are the same after
 * each of the last two passes (at least PASSES_MIN), or the budget ends;
 * lv's ladder becomes that median. */
static void settle(struct tl_timer *t, const struct tl_topology *topo, struct tl_levels *lv,
		   struct passes *ps)
{
	double ends[3], med[STATS_LEVELS_MAX_POINTS], t0 = tl_monotonic_s();
	const char *names[4];
	size_t nrep = tl_topology_ends(topo, ends, names);
	struct stats_levels prev = lv->found, now;
	unsigned held = 0;

	ps->upto = chase_upto(lv);
	ps->nrep = nrep;
	memcpy(ps->ns[0], lv->ns, lv->npoints * sizeof *lv->ns);
	(void)stats_levels_find(lv->bytes, lv->ns, lv->npoints, nrep, &ps->found[0]);
	ps->n = 1;
	while (ps->n < PASSES_MAX) {
		chase_pass(t, lv, ps);
		median_ladder(ps, lv, med);
		if (stats_levels_find(lv->bytes, med, lv->npoints, nrep, &now) < 0)
			break;
		held = same_steps(&now, &prev) ? held + 1 : 0;
		prev = now;
		if (ps->n >= PASSES_MIN && held >= 2)
			break;
		if (tl_monotonic_s() - t0 > PASSES_BUDGET_S)
			break;
	}
	median_ladder(ps, lv, med);
	memcpy(lv->ns, med, lv->npoints * sizeof *med);
	lv->passes = (unsigned)ps->n;
	lv->settled = ps->n >= PASSES_MIN && held >= 2;
}

static double log_gap(double a, double b)
{
	return fabs(log(a / b));
}

/* The pass's cache level nearest (in log size) to a boundary at lo. */
static const struct stats_level *nearest(const struct stats_levels *f, double lo)
{
	const struct stats_level *best = NULL;

	for (size_t j = 0; j < f->ncaches; j++)
		if (!best || log_gap(f->cache[j].lo_bytes, lo) < log_gap(best->lo_bytes, lo))
			best = &f->cache[j];
	return best;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The boundary range the passes are sure of: the median ladder's own step,
 * widened to where the middle half of the passes put it (the outer quarter
 * on each side is a moment a neighbour filled the cache, not the node). */
static void trimmed_range(uint64_t *lo, size_t nlo, uint64_t *hi, size_t nhi,
			  struct tl_memory_level *l, uint64_t own_lo, uint64_t own_hi)
{
	size_t cut_lo = nlo / 4, cut_hi = nhi / 4;

	qsort(lo, nlo, sizeof *lo, cmp_u64);
	qsort(hi, nhi, sizeof *hi, cmp_u64);
	l->range_lo_bytes = nlo && lo[cut_lo] < own_lo ? lo[cut_lo] : own_lo;
	l->range_hi_bytes = nhi && hi[nhi - 1 - cut_hi] > own_hi ? hi[nhi - 1 - cut_hi] : own_hi;
}

/* Each level's boundary as the range the passes agree it lies in. */
static void set_ranges(struct tl_levels *lv, const struct passes *ps)
{
	for (size_t i = 0; i < lv->nlevels; i++) {
		struct tl_memory_level *l = &lv->level[i];
		bool memory = !strcmp(l->name, "memory");
		uint64_t lo[PASSES_MAX], hi[PASSES_MAX];
		size_t nlo = 0, nhi = 0;

		if (!l->seen || (!memory && !l->boundary_hi_bytes))
			continue;
		for (size_t p = 0; p < ps->n; p++) {
			const struct stats_levels *f = &ps->found[p];
			const struct stats_level *near = nearest(f, (double)l->boundary_bytes);

			if (memory && f->memory_seen && f->memory.first > 0) {
				lo[nlo++] = (uint64_t)lv->bytes[f->memory.first - 1];
				hi[nhi++] = (uint64_t)f->memory.lo_bytes;
			} else if (!memory && near) {
				lo[nlo++] = (uint64_t)near->lo_bytes;
				if (near->hi_bytes > 0)
					hi[nhi++] = (uint64_t)near->hi_bytes;
			}
		}
		if (memory)
			trimmed_range(lo, nlo, hi, nhi, l, l->boundary_bytes / 2, l->boundary_bytes);
		else
			trimmed_range(lo, nlo, hi, nhi, l, l->boundary_bytes, l->boundary_hi_bytes);
	}
}

/* A step the passes placed more than one doubling apart is said, with
 * where; so is a chase that never settled. */
static void say_unstable(struct tl_levels *lv)
{
	size_t used = 0;

	lv->unstable[0] = '\0';
	if (!lv->settled)
		used += (size_t)snprintf(lv->unstable, sizeof lv->unstable,
					 "the steps did not settle in %u passes", lv->passes);
	for (size_t i = 0; i < lv->nlevels && used < sizeof lv->unstable; i++) {
		const struct tl_memory_level *l = &lv->level[i];
		char a[32], b[32];

		if (!l->seen || !l->range_lo_bytes || l->range_hi_bytes <= 2 * l->range_lo_bytes)
			continue;
		tl_size_format(l->range_lo_bytes, a, sizeof a);
		tl_size_format(l->range_hi_bytes, b, sizeof b);
		used += (size_t)snprintf(lv->unstable + used, sizeof lv->unstable - used,
					 "%s%s between %s and %s over %u passes", used ? "; " : "",
					 l->name, a, b, lv->passes);
	}
}

static void probe(int cpu, const struct tl_topology *topo, struct tl_levels *lv)
{
	char said[2 * TL_WHY_MAX], why[TL_WHY_MAX];
	const char *barrier = tl_backend_default_barrier(said, sizeof said);
	const char *use = barrier ? barrier : "clock-gettime";
	struct tl_timer t;
	double t0 = tl_monotonic_s();

	if (tl_timer_open(&t, use, why, sizeof why) < 0) {
		snprintf(lv->why, sizeof lv->why, "no timer for the chase: %s", why);
		return;
	}
	snprintf(lv->timer, sizeof lv->timer, "%s", use);
	chase_ladder(&t, topo, lv);
	tl_levels_from_ladder(lv->bytes, lv->ns, lv->npoints, topo, lv);
	if (lv->measured) {
		struct passes *ps = calloc(1, sizeof *ps);

		if (ps) {
			settle(&t, topo, lv, ps);
			tl_levels_from_ladder(lv->bytes, lv->ns, lv->npoints, topo, lv);
			set_ranges(lv, ps);
			say_unstable(lv);
			free(ps);
		}
	}
	tl_timer_close(&t);
	if (!lv->measured)
		return;
	lv->write_bytes_per_ns = write_rate(lv);
	lv->measured_at = (int64_t)time(NULL);
	snprintf(lv->source, sizeof lv->source,
		 "a chase on CPU %d with %s, 2MiB pages where granted, median of %u passes, %.1f s",
		 cpu, use, lv->passes, tl_monotonic_s() - t0);
}

static void from_file(const char *path, const struct tl_topology *topo, struct tl_levels *lv)
{
	double bytes[STATS_LEVELS_MAX_POINTS], ns[STATS_LEVELS_MAX_POINTS];
	size_t n;

	if (tl_levels_read_ladder(path, bytes, ns, &n, lv->why, sizeof lv->why) < 0)
		return;
	tl_levels_from_ladder(bytes, ns, n, topo, lv);
	if (lv->measured)
		snprintf(lv->source, sizeof lv->source, "a recorded chase in %s (TL_LEVELS_FROM)",
			 path);
}

/* The process's levels: published once measured and never freed, so a
 * pointer a reader took stays whole when tl_levels_remeasure_now publishes
 * new ones (a few KiB each time the user asks). */
static const struct tl_levels *current;
static bool remeasure_asked;
static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;

void tl_levels_remeasure(void)
{
	remeasure_asked = true;
}

static bool remeasure_wanted(void)
{
	const char *env = getenv("TL_LEVELS");

	return remeasure_asked || (env && !strcmp(env, "remeasure"));
}

/* The node's record, when a fresh one is kept: the same levels in every
 * run on this node until it goes stale. */
static bool from_record(const struct tl_topology *topo, bool fresh, struct tl_levels *lv)
{
	char why[TL_WHY_MAX];

	if (fresh || remeasure_wanted())
		return false;
	return tl_levels_store_load(topo, lv, why, sizeof why) == 0;
}

static void keep(int cpu, struct tl_levels *lv)
{
	char why[TL_WHY_MAX];

	if (lv->measured && tl_levels_store_save(cpu, lv, why, sizeof why) < 0)
		snprintf(lv->kept, sizeof lv->kept, "not kept: %s", why);
}

static void measure(int cpu, const struct tl_topology *topo, bool fresh, struct tl_levels *lv)
{
	const char *off = getenv("TL_LEVELS"), *from = getenv("TL_LEVELS_FROM");
	cpu_set_t before;
	char why[TL_WHY_MAX];

	memset(lv, 0, sizeof *lv);
	if (from && from[0]) {
		from_file(from, topo, lv);
		return;
	}
	if (off && !strcmp(off, "off")) {
		snprintf(lv->why, sizeof lv->why, "not measured (TL_LEVELS=off)");
		tl_levels_from_ladder(NULL, NULL, 0, topo, lv);
		return;
	}
	if (from_record(topo, fresh, lv))
		return;
	memset(lv, 0, sizeof *lv);
	CPU_ZERO(&before);
	if (sched_getaffinity(0, sizeof before, &before) || tl_cpu_pin(cpu, why, sizeof why) < 0) {
		snprintf(lv->why, sizeof lv->why, "not measured: %s", why);
		return;
	}
	probe(cpu, topo, lv);
	(void)sched_setaffinity(0, sizeof before, &before);
	keep(cpu, lv);
}

const struct tl_levels *tl_levels_get(int cpu, const struct tl_topology *topo)
{
	const struct tl_levels *lv;

	pthread_mutex_lock(&cache_lock);
	if (!current) {
		struct tl_levels *now = tl_xmalloc(sizeof *now);

		measure(cpu, topo, false, now);
		current = now;
	}
	lv = current;
	pthread_mutex_unlock(&cache_lock);
	return lv;
}

const struct tl_levels *tl_levels_remeasure_now(int cpu, const struct tl_topology *topo)
{
	struct tl_levels *now = tl_xmalloc(sizeof *now);

	/* Chased outside the lock: the seconds it takes must not hold up a
	 * reader of the levels already published. */
	measure(cpu, topo, true, now);
	pthread_mutex_lock(&cache_lock);
	current = now;
	pthread_mutex_unlock(&cache_lock);
	return now;
}

const struct tl_levels *tl_levels_cached(void)
{
	const struct tl_levels *lv;

	pthread_mutex_lock(&cache_lock);
	lv = current;
	pthread_mutex_unlock(&cache_lock);
	return lv;
}

static const char *unnamed(size_t j)
{
	static const char *const names[] = { "L1d", "L2", "L3", "L4", "L5" };

	return j < 5 ? names[j] : "L?";
}

static void add(struct tl_levels *lv, const char *name, uint64_t cpuid,
		const struct stats_level *m)
{
	struct tl_memory_level *l = &lv->level[lv->nlevels++];

	snprintf(l->name, sizeof l->name, "%s", name);
	l->cpuid_bytes = cpuid;
	l->seen = m != NULL;
	l->latency_ns = m ? m->ns : NAN;
	l->boundary_bytes = m ? (uint64_t)m->lo_bytes : 0;
	l->boundary_hi_bytes = m ? (uint64_t)m->hi_bytes : 0;
	l->cpuid_agrees = m && cpuid && stats_levels_agree(m, (double)cpuid);
	l->range_lo_bytes = l->range_hi_bytes = 0;
}

void tl_levels_from_ladder(const double *bytes, const double *ns, size_t n,
			   const struct tl_topology *topo, struct tl_levels *lv)
{
	double ends[3];
	const char *names[4];
	size_t nrep = tl_topology_ends(topo, ends, names), j;
	int match[3];
	bool taken[STATS_LEVELS_MAX_CACHES] = { false };

	lv->nlevels = 0;
	snprintf(lv->reported_by, sizeof lv->reported_by, "%s",
		 !topo ? "hwloc" : strstr(topo->source, "CPUID") ? "CPUID"
			 : strstr(topo->source, "sysfs") ? "sysfs" : "hwloc");
	lv->measured = n && stats_levels_find(bytes, ns, n, nrep, &lv->found) == 0;
	if (!lv->measured) {
		if (!lv->why[0])
			snprintf(lv->why, sizeof lv->why, "a chase of %zu sizes shows no levels", n);
		memset(&lv->found, 0, sizeof lv->found);
		for (size_t r = 0; r < nrep; r++)
			add(lv, names[r], (uint64_t)ends[r], NULL);
		return;
	}
	if (bytes != lv->bytes) {
		lv->npoints = n;
		memcpy(lv->bytes, bytes, n * sizeof *bytes);
		memcpy(lv->ns, ns, n * sizeof *ns);
	}
	stats_levels_match(&lv->found, ends, nrep, match);
	for (size_t r = 0; r < nrep; r++) {
		const struct stats_level *m = match[r] >= 0 ? &lv->found.cache[match[r]] : NULL;

		if (match[r] >= 0)
			taken[match[r]] = true;
		add(lv, names[r], (uint64_t)ends[r], m);
	}
	for (j = 0; j < lv->found.ncaches; j++)
		if (!taken[j])
			add(lv, unnamed(j), 0, &lv->found.cache[j]);
	if (lv->found.memory_seen) {
		add(lv, "memory", 0, &lv->found.memory);
		/* memory has no end in sight: its boundary is where it begins */
		lv->level[lv->nlevels - 1].boundary_bytes = (uint64_t)lv->found.memory.lo_bytes;
		lv->level[lv->nlevels - 1].boundary_hi_bytes = 0;
	}
}

uint64_t tl_levels_measured_bytes(const struct tl_levels *lv, int level)
{
	char want[8];

	snprintf(want, sizeof want, level == 1 ? "L1d" : "L%d", level);
	for (size_t i = 0; lv && lv->measured && i < lv->nlevels; i++)
		if (!strcmp(lv->level[i].name, want))
			return lv->level[i].seen ? lv->level[i].boundary_bytes : 0;
	return 0;
}

void tl_levels_disagreement(const struct tl_levels *lv, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; lv->measured && i < lv->nlevels && used < len; i++) {
		const struct tl_memory_level *l = &lv->level[i];
		char rep[32], lo[32], hi[32], mem[32], top[32];

		if (!l->cpuid_bytes || l->cpuid_agrees)
			continue;
		tl_size_format(l->cpuid_bytes, rep, sizeof rep);
		tl_size_format(l->boundary_bytes, lo, sizeof lo);
		tl_size_format(l->boundary_hi_bytes, hi, sizeof hi);
		tl_size_format((uint64_t)lv->found.memory.lo_bytes, mem, sizeof mem);
		tl_size_format((uint64_t)lv->bytes[lv->npoints - 1], top, sizeof top);
		if (l->seen)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s says %s %s; a chase sees its step at %s-%s%s: "
						 "the %s this node gets is about %s",
						 used ? "; " : "", lv->reported_by, l->name, rep, lo, hi,
						 lv->found.memory_seen ? " and memory latency beyond" : "",
						 l->name, lo);
		else
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s says %s %s; a chase up to %s sees no step for it%s%s",
						 used ? "; " : "", lv->reported_by, l->name, rep, top,
						 lv->found.memory_seen ? ", memory latency from " : "",
						 lv->found.memory_seen ? mem : "");
	}
}

/* A recorded ladder is a few dozen short lines; the cap keeps a wrong
 * path (a log, an image) from being read to its end. */
#define LADDER_MAX_BYTES (1u << 20)

static FILE *open_ladder(const char *path, char *why, size_t whylen)
{
	uint64_t size;
	const char *kind;
	int fd = tl_file_open_regular(path, LADDER_MAX_BYTES, &size, &kind);
	FILE *f;

	if (fd < 0) {
		if (kind)
			snprintf(why, whylen, "recorded chase %s: is %s, not a regular file "
					      "(accepted: a text file of \"KiB ns_per_load\" lines)",
				 path, kind);
		else if (errno == EFBIG)
			snprintf(why, whylen, "recorded chase %s: %llu bytes, more than a ladder's "
					      "%u (accepted: a text file of \"KiB ns_per_load\" lines)",
				 path, (unsigned long long)size, LADDER_MAX_BYTES);
		else
			snprintf(why, whylen, "cannot open recorded chase %s: %s", path,
				 strerror(errno));
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		snprintf(why, whylen, "cannot open recorded chase %s: %s", path, strerror(errno));
		close(fd);
	}
	return f;
}

int tl_levels_read_ladder(const char *path, double *bytes, double *ns, size_t *n, char *why,
			  size_t whylen)
{
	char line[512];
	unsigned lineno = 0;
	FILE *f = open_ladder(path, why, whylen);

	*n = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		double kib, v;
		char *end;

		lineno++;
		if (line[strspn(line, " \t\r\n")] == '\0' || line[strspn(line, " \t")] == '#')
			continue;
		kib = strtod(line, &end);
		v = strtod(end, &end);
		if (!(kib > 0 && kib < 1e12) || !(v > 0 && v < 1e9) || *n >= STATS_LEVELS_MAX_POINTS ||
		    (*n && kib * 1024 <= bytes[*n - 1])) {
			snprintf(why, whylen,
				 "recorded chase %s line %u: expected \"KiB ns_per_load\" with sizes "
				 "ascending (at most %d lines)",
				 path, lineno, STATS_LEVELS_MAX_POINTS);
			fclose(f);
			return -1;
		}
		bytes[*n] = kib * 1024;
		ns[(*n)++] = v;
	}
	fclose(f);
	if (*n < 2) {
		snprintf(why, whylen, "recorded chase %s has %zu sizes; at least 2 are needed", path,
			 *n);
		return -1;
	}
	return 0;
}

static const struct tl_memory_level *named(const struct tl_levels *lv, const char *name)
{
	for (size_t i = 0; i < lv->nlevels; i++)
		if (!strcmp(lv->level[i].name, name))
			return &lv->level[i];
	return NULL;
}

/* The first size chased above bytes: past every level that ends there. */
static uint64_t chased_above(const struct tl_levels *lv, uint64_t bytes)
{
	for (size_t i = 0; i < lv->npoints; i++)
		if (lv->bytes[i] > (double)bytes)
			return (uint64_t)lv->bytes[i];
	return 0;
}

/* A level that comes out at or below the one under it is not a level of
 * its own there: it takes the first size chased past its step, or past
 * the level below when the chase saw no step for it (all the chase says
 * it holds is below that), or none when nothing larger was chased (on
 * the Intel guest a busy moment read L3's step at 2MiB, equal to L2's
 * reported 2MiB, and a ladder lost its L3 rung). */
static void keep_increasing(const struct tl_levels *lv, uint64_t *const *size, char *note,
			    size_t len, size_t *used)
{
	static const char *const names[] = { "L1d", "L2", "L3" };

	for (int j = 1; j < 3 && *used < len; j++) {
		const struct tl_memory_level *l = named(lv, names[j]);
		uint64_t below = *size[j - 1];
		uint64_t up = l && l->seen ? l->boundary_hi_bytes : chased_above(lv, below);
		char a[32], b[32];

		if (!*size[j] || !below || *size[j] > below)
			continue;
		tl_size_format(below, b, sizeof b);
		if (up <= below)
			up = chased_above(lv, below);
		*size[j] = up;
		tl_size_format(*size[j], a, sizeof a);
		*used += (size_t)snprintf(note + *used, len - *used,
					  *size[j] ? "%s%s %s, past its step (the step is not above "
						     "%s's %s)"
						   : "%s%s none apart from %s (its step is not above "
						     "%s's %s)",
					  *used ? "; " : "", names[j], *size[j] ? a : names[j - 1],
					  names[j - 1], b);
	}
}

void tl_levels_sizing(const struct tl_levels *lv, const struct tl_topology *reported,
		      struct tl_topology *out, char *note, size_t len)
{
	static const char *const names[] = { "L1d", "L2", "L3" };
	uint64_t *size[] = { &out->l1d, &out->l2, &out->l3 };
	size_t used = 0;

	*out = *reported;
	note[0] = '\0';
	for (int j = 0; lv->measured && j < 3 && used < len; j++) {
		const struct tl_memory_level *l = named(lv, names[j]);
		uint64_t by;
		char a[32], b[32];

		if (!l || !*size[j] || l->cpuid_agrees)
			continue;
		by = l->seen ? l->boundary_bytes
			     : lv->found.memory_seen ? (uint64_t)lv->found.memory.lo_bytes : 0;
		if (!by)
			continue;
		tl_size_format(by, a, sizeof a);
		tl_size_format(*size[j], b, sizeof b);
		used += (size_t)snprintf(note + used, len - used, "%s%s %s %s (%s says %s)",
					 used ? "; " : "", names[j], a,
					 l->seen ? "measured by a chase"
						 : "where a chase reads memory latency",
					 lv->reported_by, b);
		*size[j] = by;
	}
	if (lv->measured)
		keep_increasing(lv, size, note, len, &used);
}

int tl_levels_sizes(int cpu, bool chase, struct tl_topology *out, char *note, size_t notelen,
		    char *why, size_t whylen)
{
	struct tl_topology reported;

	note[0] = '\0';
	if (cpu < 0)
		cpu = tl_cpu_default();
	if (tl_topology_read_live(cpu, &reported, why, whylen) < 0)
		return -1;
	*out = reported;
	if (chase)
		tl_levels_sizing(tl_levels_get(cpu, &reported), &reported, out, note, notelen);
	return 0;
}
