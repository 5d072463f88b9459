#include "config.h"

#include "bench/fingerprint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "bench/flush.h"
#include "bench/kernel.h"
#include "bench/levels.h"
#include "bench/search_engine.h"
#include "bench/size.h"

/* Shares of the budget: the run gets most, the search what is left after
 * the fixed probes (host facts, drift: about a second). */
#define RUN_SHARE 0.45
#define SEARCH_SHARE 0.35
#define RUN_N_MIN 500
#define RUN_N_MAX 20000

static void append(char *buf, size_t len, const char *what)
{
	size_t used = strlen(buf);

	snprintf(buf + used, len - used, "%s%s", used ? "; " : "", what);
}

/* Timers that do not open here are left out (said in skipped), so a node
 * without PAPI still fingerprints with the others. */
static void pick_backends(struct tl_fp *fp)
{
	const char *want[TL_FP_MAX_BACKENDS] = {fp->barrier[0] ? fp->barrier : NULL,
						"papi-real-nsec", "clock-gettime"};

	for (size_t i = 0; i < TL_FP_MAX_BACKENDS; i++) {
		struct tl_timer t;
		char why[TL_WHY_MAX], said[TL_WHY_MAX + 64];

		if (!want[i])
			continue;
		if (tl_timer_open(&t, want[i], why, sizeof why) < 0) {
			snprintf(said, sizeof said, "%s: %s", want[i], why);
			append(fp->skipped, sizeof fp->skipped, said);
			continue;
		}
		tl_timer_close(&t);
		fp->backends[fp->nbackends++] = tl_xstrdup(want[i]);
	}
}

/* 0 always; 4xL2 is left out (and said) where the caches are unknown. L2
 * is the measured one where the chase contradicts the reported size, as
 * for `run --flush 4xL2` (the host's memory_levels and
 * cache_multiples_sized_by say which). */
static size_t pick_flushes(struct tl_fp *fp, uint64_t flush[2], double *flush_s)
{
	char why[TL_WHY_MAX], note[512];
	struct tl_topology sized;
	struct tl_flush f;
	size_t n = 0;

	flush[n++] = 0;
	*flush_s = 0;
	if (fp->host.have_topology)
		tl_levels_sizing(&fp->host.levels, &fp->host.topo, &sized, note, sizeof note);
	if (!fp->host.have_topology ||
	    tl_size_parse("4xL2", &sized, &flush[n], why, sizeof why) < 0) {
		append(fp->skipped, sizeof fp->skipped, "flush 4xL2: the L2 size is unknown here");
		return n;
	}
	if (tl_flush_init(&f, flush[n], why, sizeof why) < 0) {
		append(fp->skipped, sizeof fp->skipped, why);
		return n;
	}
	*flush_s = tl_search_engine_flush_seconds(&f);
	tl_flush_free(&f);
	return n + 1;
}

/* Samples per cell so the run fits its share: every cell's sample pays
 * for a flush (when it has one) and roughly a few microseconds besides. */
static size_t run_samples(double share_s, size_t ncells, double flush_s)
{
	double per = (double)ncells * (flush_s / 2 + 3e-6); /* half the cells are at 4xL2 */
	double n = per > 0 ? share_s / per : RUN_N_MAX;

	if (!(n >= RUN_N_MIN))
		return RUN_N_MIN;
	return n > RUN_N_MAX ? RUN_N_MAX : (size_t)n;
}

struct chunk_ctx {
	atomic_bool *stop;
};

static void on_chunk(void *ctx, struct tl_run *run, size_t cell)
{
	struct chunk_ctx *c = ctx;

	(void)cell;
	if (c->stop && atomic_load(c->stop))
		atomic_store(&run->stop, true);
}

static int measure_run(struct tl_fp *fp, atomic_bool *stop, char *why, size_t whylen)
{
	char kernels_text[64];
	uint64_t flush[2];
	double flush_s;
	size_t nflush = pick_flushes(fp, flush, &flush_s);
	struct tl_kernel *kernels = NULL;
	size_t nkernels = 0;
	struct chunk_ctx cc = {stop};
	struct tl_run_config cfg;
	int rc;

	snprintf(kernels_text, sizeof kernels_text, "empty,add:%d", TL_FP_ADDS);
	if (tl_kernel_parse_list(kernels_text, &kernels, &nkernels, why, whylen) < 0)
		return -1;
	memset(&cfg, 0, sizeof cfg);
	cfg.backends = (const char **)fp->backends;
	cfg.nbackends = fp->nbackends;
	cfg.flush_bytes = flush;
	cfg.nflush = nflush;
	cfg.kernels = kernels;
	cfg.nkernels = nkernels;
	cfg.cpu = fp->cfg.cpu;
	cfg.seed = fp->cfg.seed;
	cfg.n = run_samples(RUN_SHARE * fp->cfg.budget_s, fp->nbackends * nflush * nkernels, flush_s);
	rc = tl_run_prepare(&fp->run, &cfg, why, whylen);
	free(kernels);
	if (rc < 0)
		return -1;
	fp->have_run = true;
	return tl_run_execute(&fp->run, on_chunk, &cc, why, whylen);
}

/* The search's own time limits hold per metric and repeat, and a loaded
 * node can take several times its budget there: the battery cuts it at a
 * deadline instead (what was found is kept, the search marked cut). */
struct search_watch {
	atomic_bool *user, cut;
	double deadline;
	bool by_deadline;
};

static void on_point(void *ctx, size_t cell, enum tl_search_kind kind, uint64_t x, double y)
{
	struct search_watch *w = ctx;

	(void)cell, (void)kind, (void)x, (void)y;
	if (w->user && atomic_load(w->user))
		atomic_store(&w->cut, true);
	else if (tl_monotonic_s() > w->deadline && !atomic_load(&w->cut)) {
		w->by_deadline = true;
		atomic_store(&w->cut, true);
	}
}

/* Fewer measurements per candidate on a short budget: the answers get
 * wider intervals, which the fleet shows. */
static int measure_search(struct tl_fp *fp, atomic_bool *stop)
{
	const char *flush_name = "0";
	const uint64_t flush = 0;
	const char *b = fp->barrier;
	double share = SEARCH_SHARE * fp->cfg.budget_s;
	struct search_watch w = {.user = stop, .deadline = tl_monotonic_s() + 2 * share};
	struct tl_search_hooks hooks = {.ctx = &w, .point = on_point, .stop = &w.cut};
	int rc;

	tl_search_plan_default(&fp->plan);
	if (!fp->barrier[0])
		return 0;
	fp->plan.cpu = fp->run.cpu;
	fp->plan.sp.seed = fp->cfg.seed;
	fp->plan.sp.n = fp->cfg.budget_s < 15 ? 1000 : 5000;
	/* the whole search's budget: what its metrics had when the budget was a
	 * metric's over a cell's repeats (share / 2R each, R repeats, 2 metrics) */
	fp->plan.budget_s = fmax(0.2, share / fp->plan.repeats);
	tl_search_plan_set(&fp->plan, &b, 1, &flush_name, &flush, 1);
	fp->cells = tl_search_cells_new(&fp->plan);
	rc = tl_search_run(&fp->plan, fp->cells, &hooks);
	fp->search_cut = w.by_deadline;
	return rc == 1 && w.by_deadline && !(stop && atomic_load(stop)) ? 0 : rc;
}

static void thread_usage(double *cpu_s, long *invol)
{
	struct rusage ru;

	memset(&ru, 0, sizeof ru);
	getrusage(RUSAGE_THREAD, &ru);
	*cpu_s = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec +
		 (double)ru.ru_stime.tv_sec + 1e-6 * (double)ru.ru_stime.tv_usec;
	*invol = ru.ru_nivcsw;
}

int tl_fp_measure(const struct tl_fp_config *cfg, struct tl_fp *fp, atomic_bool *stop, char *why,
		  size_t whylen)
{
	double t0 = tl_monotonic_s(), m0, c0, c1;
	long i0, i1;
	int cpu = cfg->cpu < 0 ? tl_cpu_default() : cfg->cpu, rc, src;

	memset(fp, 0, sizeof *fp);
	fp->cfg = *cfg;
	fp->cfg.cpu = cpu;
	if (tl_cpu_pin(cpu, why, whylen) < 0)
		return -1;
	tl_host_read("/", cpu, &fp->host);
	tl_host_probe_clock(&fp->host);
	tl_host_probe_ladder(&fp->host); /* the levels 4xL2 goes by */
	{
		const char *b = tl_backend_default_barrier(fp->barrier_said, sizeof fp->barrier_said);

		snprintf(fp->barrier, sizeof fp->barrier, "%s", b ? b : "");
	}
	pick_backends(fp);
	if (fp->nbackends == 0) {
		snprintf(why, whylen, "no timer opens here: %s", fp->skipped);
		return -1;
	}
	m0 = tl_monotonic_s();
	thread_usage(&c0, &i0);
	rc = measure_run(fp, stop, why, whylen);
	if (rc < 0)
		return -1;
	src = rc == 0 && !(stop && atomic_load(stop)) ? measure_search(fp, stop) : 1;
	thread_usage(&c1, &i1);
	fp->sched.seconds = tl_monotonic_s() - m0;
	fp->sched.cpu_seconds = c1 - c0;
	fp->sched.involuntary = i1 - i0;
	if (!(stop && atomic_load(stop)))
		fp->have_noise = tl_noise_probe_run(cpu, cfg->budget_s < 10 ? TL_FP_NOISE_S / 2
									  : TL_FP_NOISE_S,
						    &fp->noise, fp->noise_why,
						    sizeof fp->noise_why) == 0;
	fp->seconds = tl_monotonic_s() - t0;
	return rc == 1 || src == 1 ? 1 : 0;
}

void tl_fp_free(struct tl_fp *fp)
{
	for (size_t i = 0; i < fp->nbackends; i++)
		free(fp->backends[i]);
	fp->nbackends = 0;
	if (fp->have_run)
		tl_run_free(&fp->run);
	fp->have_run = false;
	if (fp->cells)
		tl_search_cells_free(fp->cells, fp->plan.nbackends * fp->plan.nflush);
	fp->cells = NULL;
	tl_search_plan_free(&fp->plan);
}
