#include "config.h"

#include "io/table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/size.h"
#include "bench/analysis.h"
#include "io/jitter_out.h"
#include "io/noise_json.h"

enum { COL_BACKEND, COL_FLUSH, COL_KERNEL, COL_N, COL_OSRM, COL_FILTER, COL_OVERHEAD, COL_RES, COL_MIN,
       COL_P50, COL_P99, COL_MEAN, COL_SD, COL_CV, COL_DRIFT, NCOLS };

_Static_assert(NCOLS == TL_TABLE_NCOLS, "table.h names the column count");

const char *const tl_table_headers[NCOLS] = {
	"backend", "flush", "kernel", "n", "os_rm", "filter", "t_e,std", "res", "min", "p50", "p99",
	"mean", "sd", "CV", "drift",
};

#define CELL_MAX TL_TABLE_CELL_MAX

/* Fixed-point up to 1e9 (a second), then 4 significant digits: a hostile
 * or absurd 1e15 must not make a 20-character column. */
/* One decimal; what rounds to zero prints 0.0, never -0.0 (an empty
 * cell's mean of -0.03 ns is no negative time). */
static void fmt_ns(char *buf, double v)
{
	if (isnan(v))
		snprintf(buf, CELL_MAX, "-");
	else if (fabs(v) < 1e9)
		snprintf(buf, CELL_MAX, "%.1f", fabs(v) < 0.05 ? 0.0 : v);
	else
		snprintf(buf, CELL_MAX, "%.4g", v);
}

static void fmt_percent(char *buf, double share)
{
	double v = 100.0 * share;

	snprintf(buf, CELL_MAX, fabs(v) < 1e6 ? "%.2f%%" : "%.4g%%", v);
}

void tl_table_row(const struct tl_run *run, size_t ci, const struct tl_analysis *a,
		  char (*row)[CELL_MAX])
{
	const struct tl_cell *c = &run->cells[ci];
	const struct tl_timer *t = &run->timers[c->timer];
	const struct tl_summary *s = &a->summary;

	snprintf(row[COL_BACKEND], CELL_MAX, "%s%s", t->id,
		 t->backend && t->backend->simulated ? " *" : "");
	tl_run_flush_label(run, c->flush, row[COL_FLUSH], CELL_MAX);
	snprintf(row[COL_KERNEL], CELL_MAX, "%s", c->kernel.label);
	snprintf(row[COL_N], CELL_MAX, "%zu", s->n);
	snprintf(row[COL_OSRM], CELL_MAX, "%zu", s->os_removed);
	snprintf(row[COL_FILTER], CELL_MAX, "%s", a->os.ran);
	fmt_ns(row[COL_OVERHEAD], c->overhead_ns);
	if (isnan(c->resolution_ns))
		snprintf(row[COL_RES], CELL_MAX, "-");
	else
		snprintf(row[COL_RES], CELL_MAX, "%.2f", c->resolution_ns);
	fmt_ns(row[COL_MIN], s->min);
	fmt_ns(row[COL_P50], s->p50);
	fmt_ns(row[COL_P99], s->p99);
	fmt_ns(row[COL_MEAN], s->mean);
	fmt_ns(row[COL_SD], s->sd);
	if (tl_cell_shows_cv(c, a))
		fmt_percent(row[COL_CV], s->cv);
	else
		snprintf(row[COL_CV], CELL_MAX, "-");
	if (tl_cell_shows_drift(c, a))
		fmt_percent(row[COL_DRIFT], a->drift.rel_sd);
	else
		snprintf(row[COL_DRIFT], CELL_MAX, "-");
}

/* why (NULL when the run tracked no noise) is the last column, after drift. */
static void print_row(FILE *f, char (*row)[CELL_MAX], const int *width, const char *why)
{
	for (int k = 0; k < NCOLS; k++) {
		/* Names read left-aligned, numbers right-aligned. */
		if (k <= COL_KERNEL || k == COL_FILTER)
			fprintf(f, "%-*s", width[k], row[k]);
		else
			fprintf(f, "%*s", width[k], row[k]);
		fputs(k + 1 < NCOLS || why ? "  " : "\n", f);
	}
	if (why)
		fprintf(f, "%s\n", why);
}

/* Per cell, how the filter and the measured causes agree: the lecture
 * point no duration-only tool can make. */
static void print_agreement(FILE *f, const struct tl_run *run, const struct tl_noise_agree *ag,
			    char (*rows)[NCOLS][CELL_MAX], enum tl_os_method m)
{
	size_t r = 0;

	fprintf(f, "why: the top cause of the samples the %s filter removed (cells[].noise in "
		   "--json; window-level causes are inferred)\n", stats_os_method_name(m));
	for (size_t i = 0; i < run->ncells; i++) {
		if (run->cells[i].hidden)
			continue;
		if (ag[i].skipped) {
			fprintf(f, "  %s %s %s: not computed (over %zu samples)\n", rows[r][COL_BACKEND],
				rows[r][COL_FLUSH], rows[r][COL_KERNEL], TL_NOISE_AGREE_MAX);
			r++;
			continue;
		}
		fprintf(f, "  %s %s %s: removed %zu (%zu with a cause, %zu without), kept %zu with a "
			   "cause\n", rows[r][COL_BACKEND], rows[r][COL_FLUSH], rows[r][COL_KERNEL],
			ag[i].removed, ag[i].removed_with_cause, ag[i].removed_without_cause,
			ag[i].kept_with_cause);
		r++;
	}
}

static void print_notes(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
			char (*rows)[NCOLS][CELL_MAX])
{
	bool simulated = false, empty = false, drift = false;
	size_t r = 0;

	for (size_t i = 0; i < run->ncells; i++) {
		const struct tl_cell *c = &run->cells[i];

		if (c->hidden)
			continue;
		if (run->timers[c->timer].backend && run->timers[c->timer].backend->simulated)
			simulated = true;
		if (c->kernel.kind == TL_KERNEL_EMPTY)
			empty = true;
		unsigned caveats = tl_cell_caveats(c, &an[i]);

		if (caveats & TL_CAVEAT_DRIFT)
			drift = true;
		if (stats_os_said(&an[i].os))
			fprintf(f, "note: %s %s %s: %s\n", run->timers[c->timer].id, rows[r][COL_FLUSH],
				c->kernel.label, an[i].os.note);
		if (caveats & TL_CAVEAT_NOISY_OVERHEAD)
			fprintf(f,
				"note: %s %s %s: t_e,std %.0f ns is %.0fx this kernel's p50: "
				"subtracting a noisy overhead moves p50 and min from run to run\n",
				run->timers[c->timer].id, rows[r][COL_FLUSH], c->kernel.label,
				c->overhead_ns, c->overhead_ns / an[i].summary.p50);
		r++;
	}
	if (empty)
		fprintf(f, "empty rows: the timer's own cost is t_e,std; what is left is centred on 0, "
			   "so no CV\n");
	if (drift)
		fprintf(f, "drift: sd of the medians of consecutive %d-sample chunks over the median, "
			   "where it is over 3x what\n"
			   "  independent noise gives: the level moved during the run (on a VM or "
			   "under a governor other than\n"
			   "  performance, the core clock changing under a steady TSC; `ticklab info` "
			   "probes it), and CV cannot\n"
			   "  fall much below it\n",
			TL_DRIFT_CHUNK);
	if (simulated)
		fprintf(f, "* simulated timer: not a measurement of this machine\n");
}

/* The point of a jitter cell is whether the injected ADDs show: one line
 * each under the table, so the lecture's answer is read, not worked out. */
static void print_jitter(FILE *f, const struct tl_run *run, const uint64_t *seeds)
{
	bool header = false;

	for (size_t i = 0; i < run->ncells; i++) {
		struct tl_jitter j;

		if (run->cells[i].hidden || run->cells[i].kernel.kind != TL_KERNEL_JITTER)
			continue;
		if (!header)
			fprintf(f, "injected variation: each jitter cell's injected samples against its "
				   "A/A arm's (D = 0), ns\n");
		header = true;
		tl_jitter_analyse_seeded(run, i, seeds[i], &j);
		tl_jitter_print(f, run, i, &j);
	}
}

void tl_table_print(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
		    enum tl_os_method m, uint64_t seed)
{
	int width[NCOLS];
	char(*rows)[NCOLS][CELL_MAX] = tl_xcalloc(run->ncells, sizeof *rows);
	char(*why)[CELL_MAX] = tl_xcalloc(run->ncells, sizeof *why);
	struct tl_noise_agree *ag = tl_xcalloc(run->ncells, sizeof *ag);
	bool noise = run->noise_measured;
	uint64_t *seeds = tl_run_cell_seeds(run, seed);
	size_t nrows = 0;

	for (int k = 0; k < NCOLS; k++)
		width[k] = (int)strlen(tl_table_headers[k]);
	for (size_t i = 0; i < run->ncells; i++) {
		if (run->cells[i].hidden)
			continue;
		tl_table_row(run, i, &an[i], rows[nrows]);
		if (noise) {
			if (tl_cell_noise_agree_seeded(run, i, m, seeds[i], &ag[i]) < 0)
				tl_fail("out of memory (the noise agreement of a cell)");
			tl_noise_why(&ag[i], why[nrows], CELL_MAX);
		}
		for (int k = 0; k < NCOLS; k++)
			if ((int)strlen(rows[nrows][k]) > width[k])
				width[k] = (int)strlen(rows[nrows][k]);
		nrows++;
	}
	fprintf(f, "ns after filter_cost (minus t_e,std) and filter_os (%s, seed %llu); "
		   "CV = sd/mean\n",
		stats_os_method_name(m), (unsigned long long)seed);
	{
		char hdr[NCOLS][CELL_MAX];

		for (int k = 0; k < NCOLS; k++)
			snprintf(hdr[k], CELL_MAX, "%s", tl_table_headers[k]);
		print_row(f, hdr, width, noise ? "why" : NULL);
	}
	for (size_t r = 0; r < nrows; r++)
		print_row(f, rows[r], width, noise ? why[r] : NULL);
	print_notes(f, run, an, rows);
	if (noise)
		print_agreement(f, run, ag, rows, m);
	free(rows);
	free(why);
	free(ag);
	print_jitter(f, run, seeds);
	free(seeds);
}
