/* bench/analysis: the values tl_cell_analyse_kept hands out are exactly the
 * samples behind the summary (the TUI's CDF and histogram draw them), for
 * every OS-noise method, and its summary is tl_cell_analyse's bit for bit.
 * A buffer smaller than the cell analyses the first cap samples, as a
 * snapshot of the run taken at that count would. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>

#include "bench/runner.h"
#include "bench/analysis.h"
#include "stats/stats.h"
#include "tests/tap.h"

#define N 400
#define SEED 7
#define CAP 150

static int make_run(struct tl_run *run)
{
	/* Spikes, quantisation and a jittered kernel: the filters remove
	 * samples at both ends, so kept differs from the raw cell. */
	static const char *ids[] = {"sim:sd=3,quantum=0.5,spike_rate=0.03,spike_ns=900",
				    "sim:sd=8,quantum=10"};
	static const uint64_t flush[] = {0};
	struct tl_kernel *k = NULL;
	size_t nk = 0;
	char why[512];
	int rc;

	if (tl_kernel_parse_list("add:100,jitter:100,7,0.3", &k, &nk, why, sizeof why) < 0)
		return -1;
	struct tl_run_config cfg = {.backends = ids, .nbackends = 2, .flush_bytes = flush,
				    .nflush = 1, .kernels = k, .nkernels = nk, .n = N, .cpu = -1,
				    .seed = SEED};
	memset(run, 0, sizeof *run);
	rc = tl_run_prepare(run, &cfg, why, sizeof why);
	free(k);
	if (rc == 0)
		rc = tl_run_execute(run, NULL, NULL, why, sizeof why);
	if (rc != 0)
		printf("# %s\n", why);
	return rc;
}

static int same_summary(const struct tl_summary *a, const struct tl_summary *b)
{
	return a->n == b->n && a->os_removed == b->os_removed &&
	       memcmp(&a->min, &b->min, sizeof(double) * 10) == 0;
}

/* kept is the cell's ns minus t_e,std with some samples left out, in order. */
static int is_subsequence(const struct tl_cell *c, size_t done, const double *kept, size_t n)
{
	double overhead = isnan(c->overhead_ns) ? 0.0 : c->overhead_ns;
	size_t j = 0;
	for (size_t i = 0; i < done && j < n; i++) {
		double x = c->ns[i];
		x -= overhead;
		if (memcmp(&x, &kept[j], sizeof x) == 0)
			j++;
	}
	return j == n;
}

/* Checks one method over every cell; returns the number of samples removed. */
static size_t check_method(const struct tl_run *run, enum tl_os_method m, double *buf)
{
	const char *name = stats_os_method_name(m);
	size_t bad_n = 0, bad_range = 0, bad_same = 0, bad_order = 0, bad_quant = 0, removed = 0;

	for (size_t i = 0; i < run->ncells; i++) {
		struct tl_analysis a, b;
		size_t nkept = SIZE_MAX;
		size_t done = tl_cell_done(run, i);
		tl_cell_analyse(run, i, m, SEED, &a);
		if (tl_cell_analyse_kept(run, i, m, SEED, &b, buf, N, &nkept) < 0) {
			bad_same++;
			continue;
		}
		removed += b.summary.os_removed;
		bad_same += !same_summary(&a.summary, &b.summary);
		bad_n += nkept != b.summary.n || nkept + b.summary.os_removed != done;
		bad_order += !is_subsequence(&run->cells[i], done, buf, nkept);
		gsl_sort(buf, 1, nkept);
		bad_range += !nkept || buf[0] != b.summary.min || buf[nkept - 1] != b.summary.max;
		bad_quant += stats_quantile_sorted(buf, nkept, 0.5) != b.summary.p50 ||
			     stats_quantile_sorted(buf, nkept, 0.99) != b.summary.p99;
	}
	is_int(bad_n, 0, "%s: kept count = summary n = done - os_removed in every cell", name);
	is_int(bad_range, 0, "%s: min/max of the kept values = the summary's min/max", name);
	is_int(bad_quant, 0, "%s: p50/p99 of the kept values = the summary's", name);
	is_int(bad_same, 0, "%s: the summary is tl_cell_analyse's bit for bit", name);
	is_int(bad_order, 0, "%s: kept values are the cell's ns - t_e,std, in sample order", name);
	return removed;
}

/* A cap below done analyses the first cap samples: the same as a copy of
 * the run whose cells have only cap samples done. */
static void check_cap(const struct tl_run *run, double *buf)
{
	struct tl_cell *cells = calloc(run->ncells, sizeof *cells);
	struct tl_run snap = *run;
	size_t bad = 0, bad_n = 0;

	if (!ok(cells != NULL, "memory for a snapshot of the run"))
		return;
	for (size_t i = 0; i < run->ncells; i++) {
		cells[i] = run->cells[i];
		atomic_init(&cells[i].done, CAP);
	}
	snap.cells = cells;
	for (size_t i = 0; i < run->ncells; i++) {
		struct tl_analysis a, b;
		size_t nkept = 0;
		is_int(tl_cell_done(&snap, i), CAP, "cell %zu of the snapshot has %d samples done", i,
		       CAP);
		tl_cell_analyse(&snap, i, TL_OS_IFOREST, SEED, &a);
		tl_cell_analyse_kept(run, i, TL_OS_IFOREST, SEED, &b, buf, CAP, &nkept);
		bad += !same_summary(&a.summary, &b.summary);
		bad_n += nkept != b.summary.n || nkept > CAP;
	}
	is_int(bad, 0, "a %d-value buffer analyses the first %d samples, as a snapshot does", CAP,
	       CAP);
	is_int(bad_n, 0, "and hands out at most %d kept values, as many as summary n", CAP);
	free(cells);
}

/* tl_cell_summarise_kept: tl_cell_analyse_kept's summary, filter and kept
 * values bit for bit, with every method, only the drift left out. */
static void check_summarise(const struct tl_run *run, double *buf)
{
	static const enum tl_os_method ms[] = {TL_OS_IFOREST, TL_OS_IQR, TL_OS_NONE, TL_OS_CAUSE};
	double *other = malloc(N * sizeof *other);
	size_t bad = 0, drift = 0;

	for (size_t k = 0; other && k < sizeof ms / sizeof *ms; k++)
		for (size_t i = 0; i < run->ncells; i++) {
			struct tl_analysis a, b;
			size_t na = 0, nb = 0;

			tl_cell_analyse_kept(run, i, ms[k], SEED, &a, buf, N, &na);
			tl_cell_summarise_kept(run, i, ms[k], SEED, &b, other, N, &nb);
			bad += !same_summary(&a.summary, &b.summary) || na != nb ||
			       memcmp(buf, other, na * sizeof *buf) != 0 ||
			       a.os.removed != b.os.removed;
			drift += b.drift.nchunks != 0;
		}
	ok(other && bad == 0 && drift == 0, "tl_cell_summarise_kept: tl_cell_analyse_kept's summary "
	   "and kept values with every method (%zu differ), no drift (%zu have one)", bad, drift);
	free(other);
}

int main(void)
{
	struct tl_run run;
	double *buf = malloc(N * sizeof *buf);

	if (!ok(buf && make_run(&run) == 0, "a sim run with spikes, jitter and hidden baselines"))
		return tap_done();
	is_int(tl_cell_done(&run, 0), N, "a finished cell has all its %d samples done", N);
	size_t removed = check_method(&run, TL_OS_IFOREST, buf);
	ok(removed > 0, "iforest removed samples (%zu), so kept is a real subset", removed);
	check_method(&run, TL_OS_IQR, buf);
	is_int(check_method(&run, TL_OS_NONE, buf), 0, "none keeps every sample");
	check_cap(&run, buf);
	check_summarise(&run, buf);

	/* An empty cell: nothing kept, n = 0. */
	struct tl_run snap = run;
	struct tl_cell cell = run.cells[0];
	struct tl_analysis a;
	size_t nkept = 1;
	atomic_init(&cell.done, 0);
	snap.cells = &cell;
	snap.ncells = 1;
	ok(tl_cell_analyse_kept(&snap, 0, TL_OS_IFOREST, SEED, &a, buf, N, &nkept) == 0 &&
		   nkept == 0 && a.summary.n == 0 && isnan(a.summary.min),
	   "a cell with no samples keeps none and has n = 0, NaN min");

	tl_run_free(&run);
	free(buf);
	return tap_done();
}
