#include "config.h"

#include "judge/lesson.h"
#include "io/markdown.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "bench/size.h"
#include "bench/analysis.h"
#include "io/jitter_out.h"
#include "io/results.h"
#include "io/table.h"
#include "io/term_safe.h"

/* "| a | b |" with each cell escaped. */
static int md_row(FILE *f, const char *const *cells, int n)
{
	for (int k = 0; k < n; k++)
		if (fputs("| ", f) == EOF || tl_md_fputs(cells[k], f) < 0 || fputc(' ', f) == EOF)
			return -1;
	return fputs("|\n", f) == EOF ? -1 : 0;
}

/* The rule under the header: names left, numbers right. */
static int md_rule(FILE *f, int n, int names)
{
	for (int k = 0; k < n; k++)
		if (fputs(k < names ? "|:---" : "|---:", f) == EOF)
			return -1;
	return fputs("|\n", f) == EOF ? -1 : 0;
}

static int md_summary(FILE *f, const struct tl_run *run, const struct tl_analysis *an)
{
	char row[TL_TABLE_NCOLS][TL_TABLE_CELL_MAX];
	const char *cells[TL_TABLE_NCOLS];

	if (md_row(f, tl_table_headers, TL_TABLE_NCOLS) < 0 ||
	    md_rule(f, TL_TABLE_NCOLS, TL_TABLE_NAME_COLS) < 0)
		return -1;
	for (size_t i = 0; i < run->ncells; i++) {
		if (run->cells[i].hidden)
			continue;
		tl_table_row(run, i, &an[i], row);
		for (int k = 0; k < TL_TABLE_NCOLS; k++)
			cells[k] = row[k];
		if (md_row(f, cells, TL_TABLE_NCOLS) < 0)
			return -1;
	}
	return 0;
}

static void cell_names(const struct tl_run *run, size_t i, char *flush, size_t flen)
{
	tl_run_flush_label(run, run->cells[i].flush, flush, flen);
}

static int md_jitter(FILE *f, const struct tl_run *run, const uint64_t *seeds)
{
	static const char *const head[] = { "backend", "flush", "kernel", "injected", "true shift ns",
					    "shift ns", "95 % interval", "MWU p", "verdict" };
	bool any = false;

	for (size_t i = 0; i < run->ncells; i++) {
		const struct tl_cell *c = &run->cells[i];
		char flush[32], inj[64], truth[32], shift[32], iv[80], p[32], verdict[600];
		struct tl_jitter j;

		if (c->hidden || c->kernel.kind != TL_KERNEL_JITTER)
			continue;
		if (!any && (fputs("\nInjected variation (injected samples against the A/A arm's, D = 0; shift by the "
				   "difference of means where ties are common, else Hodges-Lehmann, "
				   "95 % interval widened to the spread of up to 20 time blocks' "
				   "shifts, true shift = D x ns per ADD as measured in the run: its "
				   "add:K slope, else the calibration, Mann-Whitney U at alpha = "
				   "0.05):\n\n",
				   f) == EOF ||
			     md_row(f, head, 9) < 0 ||
			     fputs("|:---|:---|:---|---:|---:|---:|---:|---:|:---|\n", f) == EOF))
			return -1;
		any = true;
		tl_jitter_analyse_seeded(run, i, seeds[i], &j);
		cell_names(run, i, flush, sizeof flush);
		if (c->kernel.d_ns > 0)
			snprintf(inj, sizeof inj, "+%llu ADDs (%g ns)", (unsigned long long)c->kernel.d,
				 c->kernel.d_ns);
		else
			snprintf(inj, sizeof inj, "+%llu ADDs", (unsigned long long)c->kernel.d);
		snprintf(truth, sizeof truth, "%.2f", j.true_shift_ns);
		snprintf(shift, sizeof shift, "-");
		snprintf(iv, sizeof iv, "-");
		snprintf(p, sizeof p, "-");
		if (j.ok) {
			char lo[32], hi[32];

			tl_shift_text(j.cmp.shift, shift, sizeof shift);
			tl_shift_text(j.cmp.lo, lo, sizeof lo);
			tl_shift_text(j.cmp.hi, hi, sizeof hi);
			snprintf(iv, sizeof iv, "[%s, %s]", lo, hi);
			snprintf(p, sizeof p, "%.2g", j.cmp.mwu_p);
		}
		if (!j.ok)
			snprintf(verdict, sizeof verdict, "%s", j.note);
		else if (j.unreliable)
			snprintf(verdict, sizeof verdict, "unreliable here: %.100s", j.reason);
		else
			snprintf(verdict, sizeof verdict, "%s", j.detected ? "**detected**" : "not detected");
		if (j.checked && !j.covers) {
			size_t at = strlen(verdict);

			snprintf(verdict + at, sizeof verdict - at, "; %s", j.miss);
		}
		const char *cells[] = { run->timers[c->timer].id, flush, c->kernel.label, inj, truth,
					shift, iv, p, verdict };
		if (md_row(f, cells, 9) < 0)
			return -1;
	}
	return 0;
}

static int md_baseline(FILE *f, const struct tl_run *base, const struct tl_run_compare *rc)
{
	if (fprintf(f, "\nAgainst the baseline (this run - baseline, ns after filter_cost; same = "
		       "interval inside +-%g %% of the baseline's median):\n\n",
		    rc->threshold_pct) < 0)
		return -1;
	return tl_run_compare_markdown(f, base, rc, NULL, NULL);
}

int tl_run_markdown(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
		    enum tl_os_method m, uint64_t seed, const struct tl_run_compare *rc,
		    const struct tl_run *base)
{
	bool sim = false;

	for (size_t i = 0; i < run->ntimers; i++)
		sim |= run->timers[i].backend && run->timers[i].backend->simulated;
	char lesson[512];

	tl_lesson_run(run, an, seed, "\u00d7", lesson, sizeof lesson);
	if (lesson[0] && (fputs("**In short:** ", f) == EOF || tl_md_fputs(lesson, f) < 0 ||
			  fputs("\n\n", f) == EOF))
		return -1;
	if (fprintf(f, "ns after filter_cost (minus t_e,std) and filter_os (%s, seed %llu); "
		       "CV = sd/mean\n\n",
		    stats_os_method_name(m), (unsigned long long)seed) < 0 ||
	    md_summary(f, run, an) < 0)
		return -1;
	if (sim && fputs("\n\\* simulated timer: not a measurement of this machine\n", f) == EOF)
		return -1;
	uint64_t *seeds = tl_run_cell_seeds(run, seed);
	int bad = md_jitter(f, run, seeds);

	free(seeds);
	if (bad < 0)
		return -1;
	if (rc && base && md_baseline(f, base, rc) < 0)
		return -1;
	return 0;
}

/* A number at full precision, or nothing when it does not apply. */
static int csv_num(FILE *f, double v)
{
	return (isfinite(v) ? fprintf(f, ",%.17g", v) : fprintf(f, ",")) < 0 ? -1 : 0;
}

static int csv_cell(FILE *f, const struct tl_run *run, size_t i, const struct tl_analysis *a,
		    uint64_t cseed)
{
	const struct tl_cell *c = &run->cells[i];
	const struct tl_summary *s = &a->summary;
	struct tl_jitter j;
	bool jit = c->kernel.kind == TL_KERNEL_JITTER;

	if (jit)
		tl_jitter_analyse_seeded(run, i, cseed, &j);
	jit = jit && j.ok;
	if (tl_csv_fputs(run->timers[c->timer].id, f) < 0 ||
	    fprintf(f, ",%llu,", (unsigned long long)run->flush_bytes[c->flush]) < 0 ||
	    tl_csv_fputs(c->kernel.label, f) < 0 || fprintf(f, ",%zu,%zu", s->n, s->os_removed) < 0)
		return -1;
	double v[] = { c->overhead_ns, c->resolution_ns, s->min, s->p50, s->p99, s->mean, s->sd,
		       tl_cell_shows_cv(c, a) ? s->cv : NAN, jit ? j.cmp.shift : NAN,
		       jit ? j.cmp.lo : NAN, jit ? j.cmp.hi : NAN, jit ? j.cmp.mwu_p : NAN };
	for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
		if (csv_num(f, v[k]) < 0)
			return -1;
	return fprintf(f, ",%s\n", jit ? (j.detected ? "true" : "false") : "") < 0 ? -1 : 0;
}

int tl_run_summary_csv(FILE *f, const struct tl_run *run, const struct tl_analysis *an,
		       uint64_t seed)
{
	if (fputs("backend,flush_bytes,kernel,n,os_removed,overhead_ns,resolution_ns,min_ns,p50_ns,"
		  "p99_ns,mean_ns,sd_ns,cv,jitter_shift_ns,jitter_ci_lo_ns,jitter_ci_hi_ns,"
		  "jitter_mwu_p,jitter_detected\n",
		  f) == EOF)
		return -1;
	uint64_t *seeds = tl_run_cell_seeds(run, seed);
	int rc = 0;

	for (size_t i = 0; i < run->ncells && rc == 0; i++)
		if (!run->cells[i].hidden && csv_cell(f, run, i, &an[i], seeds[i]) < 0)
			rc = -1;
	free(seeds);
	return rc;
}

char *tl_summary_csv_path(const char *csv_path)
{
	size_t n = strlen(csv_path);
	char *out;

	if (strcmp(csv_path, "-") == 0)
		return NULL;
	out = tl_xmalloc(n + sizeof ".summary.csv");
	if (n > 4 && strcmp(csv_path + n - 4, ".csv") == 0)
		n -= 4;
	memcpy(out, csv_path, n);
	strcpy(out + n, ".summary.csv");
	return out;
}
