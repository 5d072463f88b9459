/* A run owns what it holds: tl_run_prepare keeps a deep copy of its
 * configuration, so the caller's arrays may go at once, and a sampled run
 * and a run loaded from a file are both freed by tl_run_free (the ASan
 * build of the suite checks that nothing leaks or is freed twice).
 * tl_run_snapshot gives, mid-run, t_e,std as the median of each baseline's
 * samples so far (computed here by hand), and on a finished run the very
 * numbers the runner's own finish set. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/runner.h"
#include "bench/analysis.h"
#include "io/results.h"
#include "tests/tap.h"

#define N 300
#define SEED 41

static const char *const IDS[] = {"sim:sd=3,quantum=0.5,spike_rate=0.02,spike_ns=900",
				  "sim:sd=8,quantum=10"};
static const char *const KERNELS = "add:100,jitter:100,7,0.3";

/* The config's arrays on the heap, scribbled over and freed once prepare
 * returns: a run that still pointed at them would read garbage (or, under
 * ASan, freed memory). */
static int prepare_owned(struct tl_run *run, size_t chunk, char *why, size_t whylen)
{
	const char **ids = calloc(2, sizeof *ids);
	char *id0 = strdup(IDS[0]), *id1 = strdup(IDS[1]);
	uint64_t *flush = calloc(2, sizeof *flush);
	struct tl_kernel *k = NULL;
	size_t nk = 0;
	int rc = -1;

	if (!ids || !id0 || !id1 || !flush ||
	    tl_kernel_parse_list(KERNELS, &k, &nk, why, whylen) < 0)
		goto out;
	ids[0] = id0;
	ids[1] = id1;
	flush[0] = 0;
	flush[1] = 4096;
	struct tl_run_config cfg = {.backends = ids, .nbackends = 2, .flush_bytes = flush,
				    .nflush = 2, .kernels = k, .nkernels = nk, .n = N, .cpu = -1,
				    .seed = SEED, .chunk = chunk};
	rc = tl_run_prepare(run, &cfg, why, whylen);
	memset(id0, 'x', strlen(id0));
	memset(id1, 'x', strlen(id1));
	memset(flush, 0xff, 2 * sizeof *flush);
	memset(k, 0, nk * sizeof *k);
out:
	free(ids);
	free(id0);
	free(id1);
	free(flush);
	free(k);
	return rc;
}

/* The configuration a run holds is the one it was given. */
static bool config_is_given(const struct tl_run_config *cfg)
{
	return cfg->nbackends == 2 && strcmp(cfg->backends[0], IDS[0]) == 0 &&
	       strcmp(cfg->backends[1], IDS[1]) == 0 && cfg->nflush == 2 &&
	       cfg->flush_bytes[0] == 0 && cfg->flush_bytes[1] == 4096 && cfg->nkernels == 2 &&
	       strcmp(cfg->kernels[0].label, "add:100") == 0 &&
	       strcmp(cfg->kernels[1].label, "jitter:100,7,0.3") == 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median by hand: the middle of a sorted copy, or the mean of the two
 * middles. */
static double median(const double *x, size_t n)
{
	if (n == 0)
		return NAN;
	double *s = malloc(n * sizeof *s);
	if (!s)
		return NAN;
	memcpy(s, x, n * sizeof *s);
	qsort(s, n, sizeof *s, cmp_double);
	double m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

static void test_live_and_loaded(void)
{
	struct tl_run live, loaded;
	struct tl_results_meta meta;
	char why[512], path[] = "/tmp/ticklab-run-own-XXXXXX";

	if (!ok(prepare_owned(&live, 0, why, sizeof why) == 0, "a sim run prepares") ||
	    !ok(tl_run_execute(&live, NULL, NULL, why, sizeof why) == 0, "and samples")) {
		tl_run_free(&live);
		return;
	}
	ok(config_is_given(&live.cfg), "the run's config is its own copy: intact after the "
				       "caller's arrays were overwritten and freed");
	ok(live.cfg.flush_bytes != live.flush_bytes, "cfg.flush_bytes is not run->flush_bytes");

	int fd = mkstemp(path);
	json_t *doc = tl_run_to_json(&live, NULL, TL_OS_IFOREST, SEED, false, NULL);
	ok(fd >= 0 && doc && tl_json_write(path, doc, why, sizeof why) == 0, "the run saved");
	json_decref(doc);
	if (fd >= 0)
		close(fd);
	if (ok(tl_run_load(path, &loaded, &meta, why, sizeof why) == 0, "and loaded")) {
		ok(config_is_given(&loaded.cfg), "a loaded run's config has the same shape");
		ok(loaded.cfg.flush_bytes != loaded.flush_bytes && !loaded.timers_open &&
			   live.timers_open,
		   "and is its own copy; its timers were never opened");
		tl_run_free(&loaded); /* the same free as a sampled run's */
		json_decref(meta.host);
		ok(loaded.cells == NULL && loaded.cfg.backends == NULL && loaded.ncells == 0,
		   "tl_run_free leaves a loaded run zeroed");
		tl_run_free(&loaded);
		ok(1, "a second tl_run_free is harmless");
	}
	unlink(path);
	tl_run_free(&live);
	ok(live.cells == NULL && live.cfg.kernels == NULL, "tl_run_free leaves a sampled run "
							   "zeroed");

	/* A prepare that fails frees what it built (ASan would see a leak). */
	const char *bad[] = {"sim", "no-such-timer"};
	uint64_t flush = 0;
	struct tl_kernel k = {.kind = TL_KERNEL_EMPTY, .label = "empty"};
	struct tl_run_config cfg = {.backends = bad, .nbackends = 2, .flush_bytes = &flush,
				    .nflush = 1, .kernels = &k, .nkernels = 1, .n = 10, .cpu = -1};
	ok(tl_run_prepare(&live, &cfg, why, sizeof why) < 0 && live.cells == NULL &&
		   live.cfg.backends == NULL,
	   "a failed prepare leaves nothing behind (%s)", why);
}

struct mid {
	size_t chunks, at;
	bool taken;
	size_t cells, bad_done, bad_overhead, nan_overhead, partial;
};

/* Halfway through the run, on the sampling thread between two chunks (so
 * nothing moves while the snapshot is checked). */
static void on_chunk(void *ctx, struct tl_run *run, size_t cell)
{
	struct mid *m = ctx;
	struct tl_run snap;

	(void)cell;
	if (++m->chunks != m->at)
		return;
	tl_run_snapshot(run, &snap);
	m->taken = true;
	m->cells = snap.ncells;
	for (size_t i = 0; i < snap.ncells; i++) {
		const struct tl_cell *b = &run->cells[run->cells[i].baseline];
		size_t bdone = atomic_load(&b->done), done = atomic_load(&snap.cells[i].done);
		double want = median(b->ns, bdone);

		m->bad_done += done != atomic_load(&run->cells[i].done);
		m->partial += done > 0 && done < snap.cells[i].n;
		if (isnan(want))
			m->nan_overhead += !isnan(snap.cells[i].overhead_ns);
		else if (!(fabs(snap.cells[i].overhead_ns - want) <= 1e-9 * fabs(want) + 1e-12))
			m->bad_overhead++;
	}
	tl_run_snapshot_free(&snap);
}

static bool same_summary(const struct tl_summary *a, const struct tl_summary *b)
{
	return a->n == b->n && a->os_removed == b->os_removed &&
	       memcmp(&a->min, &b->min, sizeof(double) * 10) == 0;
}

static void test_snapshot(void)
{
	struct tl_run run, snap;
	char why[512];
	/* 12 cells of N samples in chunks of 30: 120 chunks. */
	struct mid m = {.at = 60};

	if (!ok(prepare_owned(&run, 30, why, sizeof why) == 0, "a run in chunks of 30 prepares") ||
	    !ok(tl_run_execute(&run, on_chunk, &m, why, sizeof why) == 0, "and samples")) {
		tl_run_free(&run);
		return;
	}
	ok(m.taken && m.cells == run.ncells, "a snapshot taken after chunk %zu of %zu", m.at,
	   m.chunks);
	ok(m.partial > 0, "with cells part-way (%zu)", m.partial);
	is_int(m.bad_done, 0, "each cell's done is the run's at that moment");
	is_int(m.bad_overhead, 0, "t_e,std = the median of the baseline's samples so far (by hand)");
	is_int(m.nan_overhead, 0, "(and NaN where the baseline has no samples yet)");

	tl_run_snapshot(&run, &snap);
	size_t bad_oh = 0, bad_sum = 0;
	for (size_t i = 0; i < run.ncells; i++) {
		struct tl_analysis a, b;
		bad_oh += memcmp(&snap.cells[i].overhead_ns, &run.cells[i].overhead_ns,
				 sizeof(double)) != 0;
		tl_cell_analyse(&run, i, TL_OS_IFOREST, SEED, &a);
		tl_cell_analyse(&snap, i, TL_OS_IFOREST, SEED, &b);
		bad_sum += !same_summary(&a.summary, &b.summary);
	}
	is_int(bad_oh, 0, "its t_e,std is the runner's own finish, bit for bit, in all %zu cells",
	       run.ncells);
	is_int(bad_sum, 0, "and every cell analyses to the same summary");
	is_int(atomic_load(&snap.samples_done), atomic_load(&run.samples_done),
	       "samples_done agrees");
	tl_run_snapshot_free(&snap);
	ok(snap.cells == NULL, "tl_run_snapshot_free frees the snapshot's cells only");
	tl_run_free(&run);
}

int main(void)
{
	test_live_and_loaded();
	test_snapshot();
	return tap_done();
}
