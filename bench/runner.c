#include "config.h"

#include "bench/runner.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

#include "base/xalloc.h"
#include "bench/memory.h"
#include "bench/probe.h"
#include "bench/size.h"
#include "stats/stats.h"

#define RESOLUTION_TRIES 2000


uint64_t tl_seed_derive(uint64_t seed, uint64_t index)
{
	uint64_t z = seed + 0x9e3779b97f4a7c15ULL * (index + 1);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* ---- CPUs ---------------------------------------------------------------- */

static void cpu_list(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && used + 1 < len; c++) {
		int e = c;
		if (!CPU_ISSET(c, set))
			continue;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		int w = e > c ? snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "", c, e)
			      : snprintf(buf + used, len - used, "%s%d", used ? "," : "", c);
		if (w < 0 || (size_t)w >= len - used)
			break;
		used += (size_t)w;
		c = e;
	}
}

int tl_cpu_default(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		for (int c = CPU_SETSIZE - 1; c >= 0; c--)
			if (CPU_ISSET(c, &set))
				return c;
	return 0;
}

/* Whether cpu may be used; why names the allowed set when not. */
static int cpu_check(int cpu, char *why, size_t whylen)
{
	cpu_set_t set;
	char list[256];
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof set, &set)) {
		snprintf(why, whylen, "cannot read the CPU affinity mask: %s", strerror(errno));
		return -1;
	}
	if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set))
		return 0;
	cpu_list(&set, list, sizeof list);
	snprintf(why, whylen, "bad CPU %d: this process may run on CPUs %s", cpu, list);
	return -1;
}

int tl_cpu_pin(int cpu, char *why, size_t whylen)
{
	cpu_set_t set;
	if (cpu_check(cpu, why, whylen))
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	/* pid 0 is the calling thread, not the whole process. */
	if (sched_setaffinity(0, sizeof set, &set)) {
		snprintf(why, whylen, "cannot pin to CPU %d: %s", cpu, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- preparing ----------------------------------------------------------- */

static bool wants_empty(const struct tl_run_config *cfg, size_t *which)
{
	for (size_t k = 0; k < cfg->nkernels; k++)
		if (cfg->kernels[k].kind->times_nothing) {
			*which = k;
			return true;
		}
	return false;
}

/* Other cells' chunks run between two chunks of a load cell and evict its
 * buffer, so each chunk starts with an untimed lap that loads it back (a
 * buffer that fits a cache is then in it, as in a chase that never
 * stopped). The chunk grows until its own loads cover a lap, so the lap
 * costs no more than the samples do, however large the buffer. */
static size_t load_chunk(const struct tl_kernel *k, size_t chunk, size_t n)
{
	uint64_t lap = k->bytes / 64, need;

	if (!k->kind->chases || k->k == 0)
		return chunk;
	need = (lap + k->k - 1) / k->k;
	if (need > chunk)
		chunk = need > n ? n : (size_t)need;
	return chunk;
}

/* TICKLAB_TEST_REFAULT=1, for tests only: the chase buffers live in a
 * memfd and lose their page-table entries before every chunk (after its
 * untimed lap), so the timed loads take real minor page faults on pages
 * whose contents stay: the honest way to put faults inside a timed region. */
static bool test_refault(void)
{
	const char *e = getenv("TICKLAB_TEST_REFAULT");
	return e && strcmp(e, "1") == 0;
}

static void *chase_to_memfd(void *chase, uint64_t bytes)
{
	int fd = memfd_create("ticklab-chase", MFD_CLOEXEC);
	void **to, **from = chase;
	size_t words = (size_t)(bytes / 64) * (64 / sizeof(void *));

	if (fd < 0 || ftruncate(fd, (off_t)bytes) < 0)
		tl_fail("TICKLAB_TEST_REFAULT: no memfd: %s", strerror(errno));
	to = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (to == MAP_FAILED)
		tl_fail("TICKLAB_TEST_REFAULT: cannot map the memfd: %s", strerror(errno));
	for (size_t w = 0; w < words; w++)
		to[w] = from[w] ? (void *)(to + ((void **)from[w] - from)) : NULL;
	tl_kernel_chase_free(chase, bytes);
	return to;
}

static void prefault(void *p, size_t bytes)
{
	volatile unsigned char *v = p;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	for (size_t o = 0; o < bytes; o += page)
		v[o] = 0;
	if (bytes)
		v[bytes - 1] = 0;
}

/* -1 when the cell's samples do not fit: said before any sampling, and
 * nothing was measured yet that could be lost. */
static int cell_init(struct tl_run *run, struct tl_cell *c, size_t timer, size_t flush,
		     const struct tl_kernel *k, bool hidden, size_t baseline)
{
	size_t index = (size_t)(c - run->cells);
	c->timer = timer;
	c->flush = flush;
	c->kernel = *k;
	c->hidden = hidden;
	c->baseline = baseline;
	c->n = run->cfg.n;
	c->chunk = load_chunk(k, run->cfg.chunk, c->n);
	atomic_init(&c->done, 0);
	c->raw = calloc(c->n ? c->n : 1, sizeof *c->raw);
	c->ns = calloc(c->n ? c->n : 1, sizeof *c->ns);
	c->adds = calloc(c->n ? c->n : 1, sizeof *c->adds);
	if (!c->raw || !c->ns || !c->adds)
		return -1;
	/* Fault the pages in now: a page fault while storing a sample would be
	 * OS noise injected between measurements. (A memset of zeros after
	 * calloc is folded away by the compiler: the tracker saw a fault every
	 * 512 samples until this wrote through a volatile pointer.) */
	prefault(c->raw, c->n * sizeof *c->raw);
	prefault(c->ns, c->n * sizeof *c->ns);
	c->overhead_ns = NAN;
	c->resolution_ns = NAN;
	c->d_ns_per_add = NAN;
	tl_kernel_plan(k, tl_seed_derive(run->cfg.seed, index), c->adds, c->n);
	if (k->kind->chases) {
		c->chase = tl_kernel_chase_layout(k->bytes, tl_seed_derive(run->cfg.seed, index));
		if (!c->chase) {
			tl_fail("out of memory (a %llu-byte load buffer)", (unsigned long long)k->bytes);
		}
		if (test_refault()) {
			c->chase = chase_to_memfd(c->chase, k->bytes);
			c->chase_shared = true;
		}
		c->cursor = c->chase;
	}
	return 0;
}

/* Cells in a fixed order: timer, then flush, then [hidden baseline] and the
 * user's kernels. The cell index seeds its plan, so the order is part of
 * what makes a run reproducible. */
static int cells_init(struct tl_run *run)
{
	const struct tl_run_config *cfg = &run->cfg;
	size_t user_empty = 0;
	bool have_empty = wants_empty(cfg, &user_empty);
	size_t per = cfg->nkernels + (have_empty ? 0 : 1);
	static const struct tl_kernel empty = { .kind = TL_KERNEL_EMPTY, .label = "empty" };

	run->ncells = run->ntimers * run->nflush * per;
	run->cells = tl_xcalloc(run->ncells, sizeof *run->cells);
	run->samples_total = run->ncells * cfg->n;
	for (size_t t = 0; t < run->ntimers; t++)
		for (size_t f = 0; f < run->nflush; f++) {
			size_t first = (t * run->nflush + f) * per, i = first;
			size_t base = have_empty ? first + user_empty : first;
			if (!have_empty && cell_init(run, &run->cells[i++], t, f, &empty, true, base))
				return -1;
			for (size_t k = 0; k < cfg->nkernels; k++)
				if (cell_init(run, &run->cells[i++], t, f, &cfg->kernels[k], false,
					      base))
					return -1;
		}
	return 0;
}

/* Samples and flush buffers are faulted in up front, so a run that does not
 * fit would be killed by the OOM killer half-way: refuse it here instead. */
static int check_memory(const struct tl_run_config *cfg, char *why, size_t whylen)
{
	size_t unused;
	double cells = (double)cfg->nbackends * (double)cfg->nflush *
		       (double)(cfg->nkernels + (wants_empty(cfg, &unused) ? 0 : 1));
	double need = tl_run_memory_estimate(cfg), limit = (double)tl_flush_max_bytes();
	char a[32], b[32];

	if (need <= limit)
		return 0;
	struct tl_run_config none = *cfg;
	double fixed, per, fit;

	none.n = 0;
	fixed = tl_run_memory_estimate(&none);
	per = cfg->n ? (need - fixed) / (double)cfg->n : 0;
	fit = per > 0 && limit > fixed ? floor((limit - fixed) / per) : 0;
	tl_size_format(need >= 1.8e19 ? UINT64_MAX : (uint64_t)need, a, sizeof a);
	tl_size_format((uint64_t)(2 * limit), b, sizeof b);
	if (fit >= 1)
		snprintf(why, whylen,
			 "%.0f cells x %zu samples (plus flush buffers) needs %s; the limit is half "
			 "of this machine's %s: use fewer cells (backends, flushes, kernels) or "
			 "fewer samples (-n %.0f fits)",
			 cells, cfg->n, a, b, fit);
	else
		snprintf(why, whylen,
			 "%.0f cells x %zu samples (plus flush buffers) needs %s; the limit is half "
			 "of this machine's %s: use a smaller flush or fewer cells (backends, "
			 "flushes, kernels); a smaller -n alone does not fit",
			 cells, cfg->n, a, b);
	return -1;
}

void tl_run_own_config(struct tl_run *run, const struct tl_run_config *cfg)
{
	/* The ids in one block: their pointers, then the strings. */
	size_t bytes = cfg->nbackends * sizeof(char *), used;
	for (size_t i = 0; i < cfg->nbackends; i++)
		bytes += strlen(cfg->backends[i]) + 1;
	char **ids = tl_xcalloc(1, bytes);
	used = cfg->nbackends * sizeof(char *);
	for (size_t i = 0; i < cfg->nbackends; i++) {
		size_t len = strlen(cfg->backends[i]) + 1;
		ids[i] = (char *)ids + used;
		memcpy(ids[i], cfg->backends[i], len);
		used += len;
	}
	uint64_t *flush = tl_xcalloc(cfg->nflush, sizeof *flush);
	struct tl_kernel *kernels = tl_xcalloc(cfg->nkernels, sizeof *kernels);
	char **names = tl_xcalloc(cfg->nflush ? cfg->nflush : 1, sizeof *names);
	if (cfg->nflush)
		memcpy(flush, cfg->flush_bytes, cfg->nflush * sizeof *flush);
	for (size_t i = 0; cfg->flush_names && i < cfg->nflush; i++)
		names[i] = cfg->flush_names[i] ? tl_xstrdup(cfg->flush_names[i]) : NULL;
	if (cfg->nkernels)
		memcpy(kernels, cfg->kernels, cfg->nkernels * sizeof *kernels);
	run->cfg = *cfg;
	run->cfg.backends = (const char **)ids;
	run->cfg.flush_bytes = flush;
	run->cfg.flush_names = (const char *const *)names;
	run->cfg.kernels = kernels;
}

/* Everything but the config, which run already owns (cfg is run->cfg);
 * on failure the caller frees what was built. */
static int prepare(struct tl_run *run, const struct tl_run_config *cfg, char *why, size_t whylen)
{
	if (run->cfg.n == 0)
		run->cfg.n = TL_DEFAULT_N;
	if (run->cfg.chunk == 0)
		run->cfg.chunk = TL_DEFAULT_CHUNK;
	atomic_init(&run->samples_done, 0);
	atomic_init(&run->stop, false);
	atomic_init(&run->paused, false);
	atomic_init(&run->in_timed_window, false);

	if (cfg->nbackends == 0 || cfg->nflush == 0 || cfg->nkernels == 0) {
		snprintf(why, whylen, "nothing to run: give at least one backend, flush size and "
				      "kernel");
		return -1;
	}
	if (check_memory(cfg, why, whylen))
		return -1;
	for (size_t k = 0; k < cfg->nkernels; k++) {
		char reason[TL_WHY_MAX];
		if (tl_kernel_runnable(&cfg->kernels[k], reason, sizeof reason)) {
			snprintf(why, whylen, "kernel %s: %s", cfg->kernels[k].label, reason);
			return -1;
		}
	}
	run->cpu = cfg->cpu < 0 ? tl_cpu_default() : cfg->cpu;
	if (cpu_check(run->cpu, why, whylen))
		return -1;

	run->timers = tl_xcalloc(cfg->nbackends, sizeof *run->timers);
	run->timers_open = true;
	for (size_t i = 0; i < cfg->nbackends; i++) {
		char reason[TL_WHY_MAX];
		if (tl_timer_open(&run->timers[i], cfg->backends[i], reason, sizeof reason)) {
			snprintf(why, whylen, "backend %s: %s", cfg->backends[i], reason);
			return -1;
		}
		run->ntimers++;
	}

	run->flush_bytes = tl_xcalloc(cfg->nflush, sizeof *run->flush_bytes);
	run->flush_names = tl_xcalloc(cfg->nflush, sizeof *run->flush_names);
	run->flushes = tl_xcalloc(cfg->nflush, sizeof *run->flushes);
	for (size_t i = 0; i < cfg->nflush; i++) {
		run->flush_bytes[i] = cfg->flush_bytes[i];
		if (cfg->flush_names && cfg->flush_names[i])
			run->flush_names[i] = tl_xstrdup(cfg->flush_names[i]);
		if (tl_flush_init_until(&run->flushes[i], cfg->flush_bytes[i], cfg->cancel, why,
					 whylen))
			return -1;
		run->nflush++;
	}
	if (cells_init(run) < 0) {
		snprintf(why, whylen, "out of memory: %zu cells x %zu samples do not fit (nothing was "
				      "sampled); use a smaller -n or fewer cells", run->ncells, run->cfg.n);
		tl_run_free(run);
		return -1;
	}
	if (cfg->cancel && atomic_load(cfg->cancel))
		atomic_store(&run->stop, true);
	return 0;
}

int tl_run_prepare(struct tl_run *run, const struct tl_run_config *cfg, char *why, size_t whylen)
{
	memset(run, 0, sizeof *run);
	tl_run_own_config(run, cfg);
	if (prepare(run, &run->cfg, why, whylen) < 0) {
		tl_run_free(run);
		return -1;
	}
	return 0;
}

/* ---- sampling ------------------------------------------------------------ */

/* Untimed: brings code, the timer's state and each flush buffer into the
 * steady state the measurements will see, and lets the clock ramp up. */
static void warm_up(struct tl_run *run)
{
	/* A stopped run samples nothing: its many gigabytes are not touched. */
	for (size_t f = 0; f < run->nflush && !atomic_load(&run->stop); f++) {
		tl_flush_touch(&run->flushes[f]);
		tl_flush_touch(&run->flushes[f]);
	}
	for (size_t t = 0; t < run->ntimers; t++) {
		struct tl_timer *tm = &run->timers[t];
		for (int i = 0; i < TL_WARMUP; i++) {
			(void)tl_time_empty(tm);
			(void)tl_time_adds(tm, 256);
		}
	}
	/* One lap of every chase: a buffer that fits a cache level is then
	 * in it from the first sample on, as it is in the steady state. A
	 * cell sampled in one chunk gets that lap right before its chunk
	 * (run_chunk), so a second one here would only cost time: seconds
	 * per buffer past the last cache. */
	for (size_t i = 0; i < run->ncells; i++) {
		struct tl_cell *c = &run->cells[i];
		if (c->chase && c->chunk < c->n) {
			struct tl_timer *tm = &run->timers[c->timer];
			(void)tl_time_loads(tm, &c->cursor, c->kernel.bytes / 64);
		}
	}
}

double tl_ns_per_add(struct tl_timer *t)
{
	static const struct tl_flush none = { NULL, 0 };
	uint64_t adds[TL_CAL_SAMPLES];
	double full[TL_CAL_SAMPLES], empty[TL_CAL_SAMPLES];

	for (size_t i = 0; i < TL_CAL_SAMPLES; i++)
		adds[i] = TL_CAL_ADDS;
	tl_measure(t, &none, adds, TL_CAL_SAMPLES, full);
	tl_measure(t, &none, NULL, TL_CAL_SAMPLES, empty);
	/* The fastest timing, not the median: a timing this long is often
	 * stretched by the host or a neighbour (on the loaded Zen 5 guest the
	 * median read 0.28 to 0.42 ns per ADD from run to run, the minimum
	 * 0.274 to 0.281), and stretching only ever adds. */
	return (gsl_stats_min(full, 1, TL_CAL_SAMPLES) - stats_median(empty, TL_CAL_SAMPLES)) *
	       t->ns_per_unit / TL_CAL_ADDS;
}

uint64_t tl_jitter_adds_for_ns(double d_ns, double ns_per_add)
{
	double d;

	if (!(ns_per_add > 0) || !(d_ns > 0))
		return 0;
	d = round(d_ns / ns_per_add);
	return d > (double)TL_KERNEL_MAX_K ? TL_KERNEL_MAX_K : (uint64_t)d;
}

/* Jitter cells get the ns per ADD their own timer measures (one
 * calibration per timer), the truth their shift is read against: a real
 * timer's plain samples hold the kernel's switches besides K, so their
 * median over K overstates it (backends/timed.h). Cells with D in ns get
 * their ADDs from it now, and their plan again with the same seed: still
 * decided before any of their samples. */
static int convert_ns_jitter(struct tl_run *run, char *why, size_t whylen)
{
	for (size_t t = 0; t < run->ntimers; t++) {
		double npa = NAN;

		for (size_t i = 0; i < run->ncells; i++) {
			struct tl_cell *c = &run->cells[i];
			bool in_ns = c->kernel.d_ns > 0;

			if (c->timer != t || c->kernel.kind != TL_KERNEL_JITTER ||
			    (!in_ns && run->timers[t].backend->simulated))
				continue;
			if (isnan(npa))
				npa = tl_ns_per_add(&run->timers[t]);
			c->d_ns_per_add = npa;
			if (!in_ns)
				continue;
			c->kernel.d = tl_jitter_adds_for_ns(c->kernel.d_ns, npa);
			/* The parser's limit, which D in ns meets only now. */
			if (c->kernel.d > TL_JITTER_OVERLAP_ADDS) {
				snprintf(why, whylen,
					 "%s: %g ns is %llu ADDs at the %.4g ns per ADD %s measured, "
					 "above the " TL_JITTER_MAX_D_TEXT " the injection delivers "
					 "whole: give D <= %.1f ns here", c->kernel.label,
					 c->kernel.d_ns, (unsigned long long)c->kernel.d, npa,
					 run->timers[t].id, TL_JITTER_OVERLAP_ADDS * npa);
				return -1;
			}
			tl_kernel_plan(&c->kernel, tl_seed_derive(run->cfg.seed, i), c->adds, c->n);
		}
	}
	return 0;
}

/* One entry per chunk of every cell, shuffled (Fisher-Yates) so drift and
 * interference spread over every backend, flush and kernel alike. */
static size_t *schedule(const struct tl_run *run, size_t *count)
{
	size_t n = 0, *order;
	gsl_rng *r;

	for (size_t c = 0; c < run->ncells; c++)
		n += (run->cells[c].n + run->cells[c].chunk - 1) / run->cells[c].chunk;
	order = tl_xcalloc(n, sizeof *order);
	n = 0;
	for (size_t c = 0; c < run->ncells; c++)
		for (size_t j = 0; j < (run->cells[c].n + run->cells[c].chunk - 1) / run->cells[c].chunk;
		     j++)
			order[n++] = c;
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!r)
		tl_fail("out of memory (a random number generator)");
	gsl_rng_set(r, (unsigned long)tl_seed_derive(run->cfg.seed, UINT64_MAX));
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)gsl_rng_uniform_int(r, (unsigned long)i);
		size_t tmp = order[i - 1];
		order[i - 1] = order[j];
		order[j] = tmp;
	}
	gsl_rng_free(r);
	*count = n;
	return order;
}

/* What a sampling loop tells the rest of the process, per sample and
 * outside the timed region: the window flag is up only around the timed
 * call (never around the flush, so a screen may draw during minutes of
 * flushing), and each sample is counted, in ns, as soon as it is taken.
 * Every store is a plain one on x86 (relaxed or release, one writer), and
 * halting is two relaxed loads: the loop stays tight. */
struct publish {
	atomic_bool *window;
	_Atomic size_t *cell_done, *run_done; /* set to *_from + samples taken */
	size_t cell_from, run_from;
	const atomic_bool *stop, *paused;     /* either one cuts the loop short */
	double ns_per_unit;
};

/* No run to tell: searches and calibrations (tl_measure). */
static void publish_none(struct publish *p, atomic_bool *w, _Atomic size_t *d,
			 const atomic_bool *never)
{
	*p = (struct publish){ .window = w, .cell_done = d, .run_done = d,
			       .stop = never, .paused = never, .ns_per_unit = 1 };
}

/* After sample i (raw[i] stored): its ns, then the counts with release, so a
 * reader that sees a count sees the samples below it. True to halt. */
static inline bool publish_sample(const struct publish *p, const double *raw, double *ns,
				  size_t i)
{
	if (ns)
		ns[i] = raw[i] * p->ns_per_unit;
	atomic_store_explicit(p->cell_done, p->cell_from + i + 1, memory_order_release);
	atomic_store_explicit(p->run_done, p->run_from + i + 1, memory_order_release);
	return atomic_load_explicit(p->stop, memory_order_relaxed) ||
	       atomic_load_explicit(p->paused, memory_order_relaxed);
}

/* One sample: flush (untimed), the window flag up, the one call that holds
 * the timed region, the flag down, the sample counted. NOTE runs just
 * before and after the call (the noise marks), never inside it. */
#define SAMPLE(call, before, after)                                            \
	{                                                                      \
		tl_flush_touch(f);                                             \
		before;                                                        \
		atomic_store_explicit(p->window, true, memory_order_relaxed);  \
		double v = (call);                                             \
		atomic_store_explicit(p->window, false, memory_order_release); \
		after;                                                         \
		raw[i] = v; /* a fault storing it is not the sample's */       \
		if (publish_sample(p, raw, ns, i++))                           \
			break;                                                 \
	}

#define PLAIN_LOOP(call) while (i < n) SAMPLE(call, (void)0, (void)0)

/* The same loops for runs and searches: flush (untimed), then one timed
 * region; the backend's time_* is the only thing that reads the clock. The
 * timed function is chosen once, before the samples. Returns the samples
 * taken: n, or fewer when stopped or paused. */
static size_t sample_loop(struct tl_timer *t, const struct tl_flush *f, const struct tl_kernel *kern,
			  const uint64_t *counts, const void **cursor, size_t n, double *raw,
			  double *ns, const struct publish *p)
{
	tl_time_fn time = tl_kernel_timed(kern, t);
	size_t i = 0;

	/* The sample's count goes in as data: a jitter sample's variant is
	 * worked out from it before the first read, so plain and injected
	 * samples run one instruction stream. */
	if (counts)
		PLAIN_LOOP(time(t, kern, counts[i], cursor))
	else
		PLAIN_LOOP(time(t, kern, 0, cursor))
	return i;
}

/* sample_loop with the interference bookkeeping: the ring head and CPU
 * are read before the call that holds the timed region and after it
 * returns, never inside it. */
#define NOTED_LOOP(call)                                                       \
	while (i < n)                                                          \
		SAMPLE(call, struct tl_noise_mark m = tl_noise_before(nz),     \
		       tl_noise_after(nz, m, from + i))

static size_t sample_loop_noted(struct tl_timer *t, const struct tl_flush *f,
				const struct tl_kernel *kern, const uint64_t *counts,
				const void **cursor, size_t n, double *raw, double *ns,
				struct tl_noise *nz, size_t from, const struct publish *p)
{
	tl_time_fn time = tl_kernel_timed(kern, t);
	size_t i = 0;

	if (counts)
		NOTED_LOOP(time(t, kern, counts[i], cursor))
	else
		NOTED_LOOP(time(t, kern, 0, cursor))
	return i;
}

static void measure(struct tl_timer *t, const struct tl_flush *f, const struct tl_kernel *k,
		    const uint64_t *counts, size_t n, double *out)
{
	static const atomic_bool never = false;
	atomic_bool window;
	_Atomic size_t done;
	struct publish p;

	atomic_init(&window, false);
	atomic_init(&done, 0);
	publish_none(&p, &window, &done, &never);
	(void)sample_loop(t, f, k, counts, NULL, n, out, NULL, &p);
}

void tl_measure(struct tl_timer *t, const struct tl_flush *f, const uint64_t *adds, size_t n,
		double *out)
{
	struct tl_kernel k = { .kind = adds ? TL_KERNEL_ADD : TL_KERNEL_EMPTY };

	measure(t, f, &k, adds, n, out);
}

void tl_measure_jitter(struct tl_timer *t, const struct tl_flush *f, const struct tl_kernel *kern,
		       const uint64_t *codes, size_t n, double *out)
{
	measure(t, f, kern, codes, n, out);
}

/* One chunk of a cell, or what of it comes before a stop or a pause (the
 * schedule then runs the rest of the chunk when the pause ends). The
 * untimed chase lap and the refault come before the first sample, and no
 * window is open around them. Returns false when cut short. */
static bool run_chunk(struct tl_run *run, struct tl_cell *c, struct tl_noise *nz)
{
	size_t from = atomic_load_explicit(&c->done, memory_order_relaxed);
	size_t len = c->n - from < c->chunk ? c->n - from : c->chunk, took;
	struct tl_timer *t = &run->timers[c->timer];
	const struct tl_flush *f = &run->flushes[c->flush];
	struct publish p = {
		.window = &run->in_timed_window, .cell_done = &c->done,
		.run_done = &run->samples_done, .cell_from = from,
		.run_from = atomic_load_explicit(&run->samples_done, memory_order_relaxed),
		.stop = &run->stop, .paused = &run->paused, .ns_per_unit = t->ns_per_unit,
	};

	if (len == 0) /* an earlier chunk of the cell, resumed after a pause, took it */
		return true;
	if (c->chase) /* the lap load_chunk sized the chunk for; its time is dropped */
		(void)tl_time_loads(t, &c->cursor, c->kernel.bytes / 64);
	if (c->chase_shared)
		(void)madvise(c->chase, (size_t)(c->kernel.bytes / 64 * 64), MADV_DONTNEED);
	if (nz) {
		tl_noise_chunk_begin(nz, (size_t)(c - run->cells), from);
		took = sample_loop_noted(t, f, &c->kernel, c->adds + from, &c->cursor, len,
					 c->raw + from, c->ns + from, nz, from, &p);
		tl_noise_chunk_end(nz, &c->noise, took);
	} else {
		took = sample_loop(t, f, &c->kernel, c->adds + from, &c->cursor, len,
				   c->raw + from, c->ns + from, &p);
	}
	return took == len;
}

static void wait_while_paused(struct tl_run *run)
{
	const struct timespec tick = { 0, 20 * 1000 * 1000 };
	while (atomic_load(&run->paused) && !atomic_load(&run->stop))
		nanosleep(&tick, NULL);
}

/* t_e,std of each cell: the median of its baseline under the same timer
 * and flush, over the samples the baseline has (all of them unless
 * stopped; a snapshot's so far). */
static void finish(struct tl_run *run)
{
	for (size_t i = 0; i < run->ncells; i++) {
		struct tl_cell *b = &run->cells[run->cells[i].baseline];
		if (run->cells[i].baseline == i)
			b->overhead_ns = stats_median(b->ns, atomic_load(&b->done));
	}
	for (size_t i = 0; i < run->ncells; i++)
		run->cells[i].overhead_ns = run->cells[run->cells[i].baseline].overhead_ns;
}

/* On the pinned thread, before the warm-up: the tracker's own set-up
 * (perf events, the monitor thread) settles before the first sample. */
static struct tl_noise *noise_open(struct tl_run *run)
{
	size_t max_chunk = 1;

	if (run->cfg.no_noise)
		return NULL;
	for (size_t i = 0; i < run->ncells; i++)
		if (run->cells[i].chunk > max_chunk)
			max_chunk = run->cells[i].chunk;
	run->noise_measured = true;
	return tl_noise_open(run->cpu, max_chunk, &run->noise);
}

static void noise_close(struct tl_run *run, struct tl_noise *nz)
{
	struct tl_cell_noise **cn;
	double **ns;
	size_t *done;

	if (!nz)
		return;
	cn = tl_xcalloc(run->ncells, sizeof *cn);
	ns = tl_xcalloc(run->ncells, sizeof *ns);
	done = tl_xcalloc(run->ncells, sizeof *done);
	for (size_t i = 0; i < run->ncells; i++) {
		cn[i] = &run->cells[i].noise;
		ns[i] = run->cells[i].ns;
		done[i] = atomic_load(&run->cells[i].done);
	}
	tl_noise_close(nz, cn, ns, done, run->ncells, &run->noise);
	free(cn);
	free(ns);
	free(done);
}

int tl_run_execute(struct tl_run *run, void (*on_chunk)(void *ctx, struct tl_run *run, size_t cell),
		   void *ctx, char *why, size_t whylen)
{
	size_t nchunks, *order;
	int stopped = 0;
	cpu_set_t before;
	struct tl_noise *nz;

	/* Pin for the run only: the caller's thread gets its affinity back, so
	 * a later run (or tl_cpu_default) still sees every allowed CPU. */
	CPU_ZERO(&before);
	if (sched_getaffinity(0, sizeof before, &before)) {
		snprintf(why, whylen, "cannot read the CPU affinity mask: %s", strerror(errno));
		return -1;
	}
	/* Before pinning: the monitor thread goes to another allowed CPU. */
	nz = noise_open(run);
	if (tl_cpu_pin(run->cpu, why, whylen)) {
		noise_close(run, nz);
		return -1;
	}
	tl_noise_pinned(nz);
	warm_up(run);
	for (size_t t = 0; t < run->ntimers; t++) {
		struct tl_timer *tm = &run->timers[t];
		double res = tl_timer_resolution(tm, RESOLUTION_TRIES) * tm->ns_per_unit;
		for (size_t i = 0; i < run->ncells; i++)
			if (run->cells[i].timer == t)
				run->cells[i].resolution_ns = res;
	}
	if (convert_ns_jitter(run, why, whylen)) {
		noise_close(run, nz);
		(void)sched_setaffinity(0, sizeof before, &before);
		return -2;
	}

	order = schedule(run, &nchunks);
	for (size_t i = 0; i < nchunks;) {
		wait_while_paused(run);
		if (atomic_load(&run->stop)) {
			stopped = 1;
			break;
		}
		size_t cell = order[i];

		/* a chunk cut by a pause is taken up again, not skipped */
		if (run_chunk(run, &run->cells[cell], nz))
			i++;
		if (on_chunk)
			on_chunk(ctx, run, cell);
	}
	free(order);
	noise_close(run, nz);
	finish(run);
	(void)sched_setaffinity(0, sizeof before, &before);
	return stopped;
}

void tl_run_free(struct tl_run *run)
{
	for (size_t i = 0; i < run->ncells; i++) {
		free(run->cells[i].raw);
		free(run->cells[i].ns);
		free(run->cells[i].adds);
		if (run->cells[i].chase_shared)
			munmap(run->cells[i].chase, (size_t)(run->cells[i].kernel.bytes / 64 * 64));
		else
			tl_kernel_chase_free(run->cells[i].chase, run->cells[i].kernel.bytes);
		tl_cell_noise_free(&run->cells[i].noise);
	}
	free(run->cells);
	for (size_t i = 0; run->timers_open && i < run->ntimers; i++)
		tl_timer_close(&run->timers[i]);
	free(run->timers);
	for (size_t i = 0; run->flushes && i < run->nflush; i++)
		tl_flush_free(&run->flushes[i]);
	free(run->flushes);
	for (size_t i = 0; run->flush_names && i < run->nflush; i++)
		free(run->flush_names[i]);
	free(run->flush_names);
	free(run->flush_bytes);
	free((void *)run->cfg.backends);
	for (size_t i = 0; run->cfg.flush_names && i < run->cfg.nflush; i++)
		free((void *)run->cfg.flush_names[i]);
	free((void *)run->cfg.flush_names);
	free((void *)run->cfg.flush_bytes);
	free((void *)run->cfg.kernels);
	memset(run, 0, sizeof *run);
}

/* Copies the fields of a cell that sampling does not move; done is read
 * first, with acquire, and everything after it is at least that current.
 * The chase buffer stays the run's: the sampling thread moves its cursor. */
static void cell_snapshot(const struct tl_cell *c, struct tl_cell *d)
{
	atomic_init(&d->done, atomic_load_explicit(&c->done, memory_order_acquire));
	d->timer = c->timer;
	d->flush = c->flush;
	d->kernel = c->kernel;
	d->hidden = c->hidden;
	d->baseline = c->baseline;
	d->n = c->n;
	d->chunk = c->chunk;
	d->raw = c->raw;
	d->ns = c->ns;
	d->adds = c->adds;
	d->resolution_ns = c->resolution_ns;
	d->d_ns_per_add = c->d_ns_per_add;
}

void tl_run_snapshot(const struct tl_run *run, struct tl_run *snap)
{
	struct tl_cell *cells = tl_xcalloc(run->ncells, sizeof *cells);

	memset(snap, 0, sizeof *snap);
	snap->cfg = run->cfg;
	snap->timers = run->timers;
	snap->ntimers = run->ntimers;
	snap->flush_bytes = run->flush_bytes;
	snap->flush_names = run->flush_names;
	snap->flushes = run->flushes;
	snap->nflush = run->nflush;
	snap->cells = cells;
	snap->ncells = run->ncells;
	snap->cpu = run->cpu;
	snap->samples_total = run->samples_total;
	for (size_t i = 0; i < run->ncells; i++)
		cell_snapshot(&run->cells[i], &cells[i]);
	size_t done = 0;
	for (size_t i = 0; i < run->ncells; i++)
		done += atomic_load(&cells[i].done);
	atomic_init(&snap->samples_done, done);
	finish(snap);
}

void tl_run_snapshot_free(struct tl_run *snap)
{
	free(snap->cells);
	memset(snap, 0, sizeof *snap);
}

const char *tl_run_flush_name(const struct tl_run *run, size_t f)
{
	return run->flush_names && f < run->nflush ? run->flush_names[f] : NULL;
}

void tl_run_flush_label(const struct tl_run *run, size_t f, char *buf, size_t len)
{
	const char *name = tl_run_flush_name(run, f);
	uint64_t literal;
	char size[32], why[128];

	tl_size_format(f < run->nflush ? run->flush_bytes[f] : 0, size, sizeof size);
	/* a plain size says its bytes already; a cache multiple does not */
	if (!name || tl_size_parse(name, NULL, &literal, why, sizeof why) == 0)
		snprintf(buf, len, "%s", size);
	else
		snprintf(buf, len, "%s (%s)", name, size);
}

bool tl_flush_matches(const char *name_a, uint64_t bytes_a, const char *name_b, uint64_t bytes_b)
{
	return name_a && name_b ? strcmp(name_a, name_b) == 0 : bytes_a == bytes_b;
}
