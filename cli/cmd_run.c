#include "config.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backends/backend.h"
#include "base/xalloc.h"
#include "bench/estimate.h"
#include "bench/host.h"
#include "bench/levels.h"
#include "bench/kernel.h"
#include "bench/memory.h"
#include "bench/runner.h"
#include "bench/size.h"
#include "bench/topology.h"
#include "cli/command.h"
#include "cli/opts.h"
#include "cli/outputs.h"
#include "cli/selection.h"
#include "cli/stop.h"
#include "bench/analysis.h"
#include "io/chains.h"
#include "io/host_json.h"
#include "io/ladder.h"
#include "judge/lesson.h"
#include "io/results.h"
#include "io/run_compare.h"
#include "io/table.h"
#include "stats/stats.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab run --backend LIST [--flush LIST] [--kernel LIST] [-n N] [--cpu C]\n"
	"                   [--seed S] [--os-filter iforest|iqr|none|cause] [--json FILE|-]\n"
	"                   [--csv FILE|-] [--markdown FILE|-] [--baseline FILE]\n"
	"                   [--threshold PCT] [--quiet] [--yes]\n"
	"\n"
	"Takes N samples of every backend x flush x kernel cell, interleaved in a seeded\n"
	"order, and prints each cell's summary in ns after filter_cost and filter_os.\n"
	"\n"
	CLI_SELECTION_USAGE_BACKEND_FLUSH
	CLI_SELECTION_USAGE_KERNEL
	"                       (default empty,add:500)\n"
	"  -n, --samples N      samples per cell (default 10000)\n"
	"  -c, --cpu C          CPU to sample on (default: the last allowed CPU)\n"
	"  -s, --seed S         seed of the cell order, jitter plans and filters (default 1)\n"
	"      --os-filter M    iforest (the paper's, default), iqr, none, or cause (the\n"
	"                       samples with a measured cause: preempted, page fault...)\n"
	"      --json FILE      results with raw samples as JSON (- for stdout)\n"
	"      --csv FILE       one row per sample as CSV (- for stdout); a FILE also gets\n"
	"                       a one-row-per-cell summary beside it (x.csv: x.summary.csv)\n"
	"      --markdown FILE  the summary (and verdicts) as Markdown tables (- for stdout)\n"
	"      --baseline FILE  compare every cell with the same cell of a saved run\n"
	"                       (as `ticklab compare FILE NEW`): a verdict per cell\n"
	"                       under the table, in the JSON and the Markdown\n"
	"      --threshold PCT  the baseline's band of \"same\", % of its median (default 1)\n"
	"  -q, --quiet          print nothing but errors (no table, progress, warnings)\n"
	"      --yes            run a long run (estimated above 3 min, mostly flushing)\n"
	"                       without warning about it\n"
	"  -h, --help           this help\n"
	"\n"
	"Exit status: 0 done, 1 measurement or write failure (or, with --baseline, a\n"
	"cell differs), 2 bad input, 128 + the signal when stopped by INT (130), TERM\n"
	"(143), HUP (129) or QUIT (131): what was measured is still written (the raw\n"
	"samples before the analysis).\n";

enum { OPT_BASELINE = OPT_FIRST_FREE, OPT_THRESHOLD, OPT_YES };

static const struct option longopts[] = {
	CLI_SELECTION_LONGOPTS,
	{"samples", required_argument, NULL, 'n'},
	{"cpu", required_argument, NULL, 'c'},
	{"seed", required_argument, NULL, 's'},
	{"os-filter", required_argument, NULL, OPT_OS_FILTER},
	{"json", required_argument, NULL, OPT_JSON},
	{"csv", required_argument, NULL, OPT_CSV},
	{"markdown", required_argument, NULL, OPT_MARKDOWN},
	{"baseline", required_argument, NULL, OPT_BASELINE},
	{"threshold", required_argument, NULL, OPT_THRESHOLD},
	{"quiet", no_argument, NULL, 'q'},
	{"yes", no_argument, NULL, OPT_YES},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct run_opts {
	struct cli_selection sel;
	size_t n;
	int cpu;
	uint64_t seed;
	struct cli_outputs out; /* out.os defaults to the paper's filter */
	bool quiet;
	bool yes;               /* no warning about a long run */
	const char *baseline;   /* --baseline FILE, loaded into base */
	double threshold_pct;
	struct tl_run base;
	struct tl_results_meta base_meta;
	bool have_base;
};

/* ------------------------------------------------------------------ */
/* Argument checks                                                      */
/* ------------------------------------------------------------------ */


/* A run holds every cell's samples at once: more cells than this is a
 * typo (100 ranges of 10000) long before it is an experiment. */
#define MAX_CELLS 20000

static int check_cells(const struct run_opts *o, char *why, size_t whylen)
{
	double cells = (double)o->sel.got.nbackends * (double)o->sel.got.nflush * (double)o->sel.got.nkernels;

	if (cells <= MAX_CELLS)
		return 0;
	snprintf(why, whylen, "%zu backends x %zu flush sizes x %zu kernels is %.0f cells, more "
			      "than a run takes (%d)",
		 o->sel.got.nbackends, o->sel.got.nflush, o->sel.got.nkernels, cells, MAX_CELLS);
	return -1;
}

/* The run's peak memory (bench/memory.c) against what the kernel says is
 * available: a run that cannot fit is refused before anything is
 * measured, rather than swapping or meeting the OOM killer half-way. */
static int check_fits(const struct run_opts *o, char *why, size_t whylen)
{
	struct tl_run_config cfg = {
		.nbackends = o->sel.got.nbackends, .flush_bytes = o->sel.got.flush_bytes, .nflush = o->sel.got.nflush,
		.kernels = o->sel.got.kernels, .nkernels = o->sel.got.nkernels, .n = o->n,
	};
	double need = tl_run_memory_estimate(&cfg);
	uint64_t avail = tl_mem_available();
	char a[32], b[32];

	if (avail == 0 || need <= (double)avail)
		return 0;
	tl_size_format(need >= 1.8e19 ? UINT64_MAX : (uint64_t)need, a, sizeof a);
	tl_size_format(avail, b, sizeof b);
	snprintf(why, whylen, "-n %zu: this run would need about %s (its samples and their "
			      "analysis) but %s is available (MemAvailable); use a smaller -n or "
			      "fewer cells", o->n, a, b);
	return -1;
}

/* The baseline is read before sampling, and must share a cell with what
 * this run will measure (backend id, flush size, kernel label), so a wrong
 * file costs no measurement. */
static int check_baseline(struct run_opts *o, char *why, size_t whylen)
{
	if (!o->baseline)
		return 0;
	if (tl_run_load(o->baseline, &o->base, &o->base_meta, why, whylen) < 0)
		return -1;
	o->have_base = true;
	for (size_t i = 0; i < o->base.ncells; i++) {
		const struct tl_cell *c = &o->base.cells[i];

		if (c->hidden)
			continue;
		for (size_t b = 0; b < o->sel.got.nbackends; b++)
			for (size_t f = 0; f < o->sel.got.nflush; f++)
				for (size_t k = 0; k < o->sel.got.nkernels; k++)
					if (strcmp(o->base.timers[c->timer].id, o->sel.got.backends[b]) == 0 &&
					    tl_flush_matches(tl_run_flush_name(&o->base, c->flush),
							     o->base.flush_bytes[c->flush],
							     o->sel.got.flush_names[f], o->sel.got.flush_bytes[f]) &&
					    strcmp(c->kernel.label, o->sel.got.kernels[k].label) == 0)
						return 0;
	}
	snprintf(why, whylen, "--baseline '%s' has no cell this run measures (a cell matches on "
			      "backend id, flush (by the name given, else its size) and kernel)", o->baseline);
	return -1;
}

static void run_release(void *st)
{
	struct run_opts *o = st;

	if (o->have_base)
		tl_run_unload(&o->base, &o->base_meta);
	cli_selection_free(&o->sel);
}

static void run_init(void *st)
{
	struct run_opts *o = st;

	o->sel.takes_kernels = true;
	o->sel.needs_backends = true;
	o->sel.flush_text = "0";
	o->sel.kernel_text = "empty,add:500";
	o->n = TL_DEFAULT_N;
	o->cpu = -1;
	o->seed = 1;
	o->out.os = TL_OS_IFOREST;
	o->threshold_pct = TL_COMPARE_DEFAULT_THRESHOLD_PCT;
}

static int run_option(void *st, int c, const char *arg, char *why, size_t whylen)
{
	struct run_opts *o = st;

	switch (c) {
	case 'n':
		return opts_parse_count(arg, "-n", &o->n, why, whylen);
	case 'c':
		return opts_parse_cpu(arg, &o->cpu, why, whylen);
	case 's':
		return opts_parse_u64(arg, "--seed", &o->seed, why, whylen);
	case 'q':
		o->quiet = true;
		return 0;
	case OPT_YES:
		o->yes = true;
		return 0;
	case OPT_BASELINE:
		o->baseline = arg;
		return 0;
	case OPT_THRESHOLD:
		return opts_parse_double(arg, "--threshold", 0, 100, &o->threshold_pct, why, whylen);
	default:
		if (cli_selection_option(&o->sel, c, arg) == 0)
			return 0;
		return cli_outputs_option(&o->out, c, arg, why, whylen);
	}
}

static int run_check(void *st, int argc, char **argv, char *why, size_t whylen)
{
	struct run_opts *o = st;
	static const char file[] = "a file path or -";

	(void)argc;
	(void)argv;
	if (cli_outputs_check(&o->out, why, whylen) < 0 ||
	    opts_check_output("--json", o->out.json, file, why, whylen) < 0 ||
	    opts_check_output("--csv", o->out.csv, file, why, whylen) < 0 ||
	    opts_check_output("--markdown", o->out.markdown, file, why, whylen) < 0 ||
	    cli_selection_parse(&o->sel, o->cpu, why, whylen) < 0 || check_cells(o, why, whylen) < 0 ||
	    check_fits(o, why, whylen) < 0 ||
	    check_baseline(o, why, whylen) < 0)
		return -1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* The command                                                          */
/* ------------------------------------------------------------------ */

static void warn_spoilers(const struct tl_host *h)
{
	for (size_t i = 0; i < TL_SPOILER_COUNT; i++) {
		const struct tl_spoiler *s = &h->spoilers[i];

		if (s->bad && s->what)
			fprintf(stderr, "warning: %s (%s): %s\n", s->what, s->seen, s->why);
	}
}

/* The samples on disk before the long analysis: the CSV (which needs no
 * analysis) and, when --json names a regular file, the JSON without
 * summaries; the final JSON replaces it once the analysis is done. A
 * JSON going to stdout is written once, at the end. */
static int write_raw(const struct run_opts *o, struct cli_open_outputs *files,
		     const struct tl_run *run, bool stopped, const struct tl_host *host)
{
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	if (files->csv) {
		struct tl_out *co = files->csv;

		files->csv = NULL;
		if (tl_run_commit_csv(co, run, why, sizeof why) < 0) {
			fprintf(stderr, "ticklab run: %s\n", why);
			rc = TL_EXIT_FAIL;
		}
	}
	if (files->json && !tl_out_in_place(files->json)) {
		struct tl_out *jo = files->json;

		files->json = NULL;
		if (tl_run_commit_raw(jo, run, (enum tl_os_method)o->out.os, o->seed, stopped,
				      tl_host_to_json(host), why, sizeof why) < 0) {
			fprintf(stderr, "ticklab run: %s\n", why);
			rc = TL_EXIT_FAIL;
		}
	}
	fflush(stdout);
	return rc;
}

/* tl_run_analyse, stopping between cells when a new signal came (*stopped):
 * only a JSON still to be written in place needs the process alive then. */
static struct tl_analysis *analyse(const struct tl_run *run, enum tl_os_method m, uint64_t seed,
				   int seen, bool *stopped)
{
	struct tl_analysis *an = calloc(run->ncells ? run->ncells : 1, sizeof *an);
	uint64_t *seeds = tl_run_cell_seeds(run, seed);

	*stopped = false;
	for (size_t i = 0; an && i < run->ncells; i++) {
		if (cli_stop_count() != seen)
			*stopped = true;
		if (*stopped || tl_cell_analyse_seeded(run, i, m, seeds[i], &an[i]) < 0) {
			free(an);
			an = NULL;
		}
	}
	free(seeds);
	return an;
}

static const char exit_analysing[] =
	"\nticklab run: interrupted after sampling; the raw samples are saved, not analysed "
	"(`ticklab report FILE` analyses them)\n";
static const char exit_analysing_nofile[] =
	"\nticklab run: interrupted after sampling (nothing was to be saved)\n";

/* What running out of memory after sampling means for the samples, said
 * both by the analysis' own failure and by tl_fail's hook (an allocation
 * failure anywhere in the analysis, the table or the final JSON). Prepared
 * before the analysis: the hook may not allocate. */
static char oom_note[1024];

static void oom_note_prepare(const struct run_opts *o, const struct cli_open_outputs *files)
{
	/* write_raw put the samples on disk before the analysis. */
	const char *kept = o->out.json && !files->json ? o->out.json : o->out.csv;

	if (kept && strcmp(kept, "-") != 0)
		snprintf(oom_note, sizeof oom_note,
			 "ticklab run: out of memory during analysis; raw samples kept in %s\n", kept);
	else
		snprintf(oom_note, sizeof oom_note,
			 "ticklab run: out of memory during analysis (no --json or --csv file: the "
			 "samples are lost)\n");
}

static void oom_note_say(void *arg)
{
	(void)arg;
	if (write(STDERR_FILENO, oom_note, strlen(oom_note)) < 0) {
		/* nothing more can be said */
	}
}

/* Interrupted, with the samples already in a JSON file and nothing asked
 * for that needs the analysis now (Markdown, a baseline verdict, JSON on
 * stdout): the analysis of millions of samples takes seconds that whoever
 * pressed Ctrl-C did not ask for, and `report` does it from the file. */
static bool defer_analysis(const struct run_opts *o, struct cli_open_outputs *files,
			   const struct tl_run *run)
{
	if (!o->out.json || strcmp(o->out.json, "-") == 0 || files->json || o->out.markdown ||
	    o->have_base)
		return false;
	cli_outputs_abort(files); /* the summary CSV, which needs the analysis */
	fprintf(stderr,
		"ticklab run: interrupted: kept %zu of %zu samples in %s; not analysed now "
		"(`ticklab report %s` analyses them)\n",
		atomic_load(&run->samples_done), run->samples_total, o->out.json, o->out.json);
	return true;
}

/* After sampling: raw samples out, analysis, table, final JSON. seen is
 * cli_stop_count() as the sampling ended: a signal counted after it is new
 * and ends the process once the samples are on disk. */
static int analyse_and_write_inner(const struct run_opts *o, struct tl_run *run,
			     struct cli_open_outputs *files, bool stopped,
			     const struct tl_host *host, int seen)
{
	enum tl_os_method m = (enum tl_os_method)o->out.os;
	struct tl_analysis *an;
	struct tl_run_compare cmp;
	struct cli_baseline bl = { o->baseline, &o->base, NULL };
	size_t differ;
	bool late_stop;
	int rc = write_raw(o, files, run, stopped, host), wrc;

	memset(&cmp, 0, sizeof cmp);

	if (rc != TL_EXIT_OK) {
		cli_outputs_abort(files);
		return rc;
	}
	if (stopped && defer_analysis(o, files, run))
		return TL_EXIT_OK;
	/* Nothing left that a signal could lose: it may end the process, in
	 * the analysis, the table or the final write alike (whose temporary
	 * vanishes with it; the raw file stays). */
	if (!files->json)
		cli_stop_exiting(o->out.json || o->out.csv ? exit_analysing : exit_analysing_nofile,
				 seen);
	oom_note_prepare(o, files);
	an = analyse(run, m, o->seed, seen, &late_stop);
	if (files->json)
		cli_stop_stopping();
	if (!an && late_stop) {
		fprintf(stderr, "ticklab run: interrupted during the analysis; writing the samples\n");
		if (files->json) {
			struct tl_out *jo = files->json;
			char why[WHY_LEN];

			files->json = NULL;
			if (tl_run_commit_raw(jo, run, m, o->seed, true, tl_host_to_json(host), why,
					      sizeof why) < 0) {
				fprintf(stderr, "ticklab run: %s\n", why);
				return TL_EXIT_FAIL;
			}
		}
		return TL_EXIT_OK;
	}
	if (!an) {
		oom_note_say(NULL);
		cli_outputs_abort(files);
		return TL_EXIT_FAIL;
	}
	if (!o->quiet) {
		FILE *tf = cli_table_stream(&o->out);

		tl_table_print(tf, run, an, m, o->seed);
		tl_chains_print(tf, run, an);
		tl_ladder_print_levels(tf, run, an, host->have_topology ? &host->topo : NULL,
				       &host->levels);
		char lesson[512];

		tl_lesson_run(run, an, o->seed, "x", lesson, sizeof lesson);
		if (lesson[0])
			fprintf(tf, "In short: %s\n", lesson);
	}
	if (o->have_base) {
		json_t *here = tl_host_to_json(host);
		bool same = tl_hosts_same_node(o->base_meta.host, here);

		json_decref(here);
		if (tl_runs_compare(&o->base, run, o->threshold_pct, o->seed, same, &cmp) < 0) {
			fprintf(stderr, "ticklab run: out of memory comparing with the baseline\n");
			free(an);
			cli_outputs_abort(files);
			return TL_EXIT_FAIL;
		}
		bl.cmp = &cmp;
		if (!o->quiet) {
			fprintf(cli_table_stream(&o->out), "against the baseline %s:\n", o->baseline);
			tl_run_compare_print(cli_table_stream(&o->out), &o->base, &cmp);
		}
	}
	if (stopped)
		fprintf(stderr, "ticklab run: interrupted: kept %zu of %zu samples\n",
			atomic_load(&run->samples_done), run->samples_total);
	fflush(stdout);
	if (o->out.json && !files->json) {
		/* The raw file is replaced by the analysed one; the summary CSV
		 * and the Markdown are still open in files. */
		struct cli_outputs json_only = {.os = o->out.os, .json = o->out.json};
		struct cli_open_outputs jf;

		if (cli_outputs_open("run", &json_only, &jf) != TL_EXIT_OK) {
			cli_outputs_abort(files);
			tl_run_compare_free(&cmp);
			free(an);
			return TL_EXIT_FAIL;
		}
		files->json = jf.json;
	}
	wrc = cli_outputs_write("run", &o->out, files, run, an, m, o->seed, stopped,
				tl_host_to_json(host), o->have_base ? &bl : NULL);
	differ = cmp.differ;
	tl_run_compare_free(&cmp);
	free(an);
	if (wrc != TL_EXIT_OK || stopped)
		return wrc;
	/* As compare: 1 when a cell differs from the baseline. */
	return differ > 0 ? TL_EXIT_FAIL : TL_EXIT_OK;
}

/* tl_fail's hook says where the samples are for as long as an allocation
 * failure could end the process after sampling. */
static int analyse_and_write(const struct run_opts *o, struct tl_run *run,
			     struct cli_open_outputs *files, bool stopped,
			     const struct tl_host *host, int seen)
{
	int rc;

	oom_note[0] = '\0';
	tl_fail_hook_add(oom_note_say, NULL);
	rc = analyse_and_write_inner(o, run, files, stopped, host, seen);
	tl_fail_hook_remove(oom_note_say, NULL);
	return rc;
}

/* Before the first sample: how long the flushes will make it, measured on
 * the run's own buffers, and a warning when that is long. */
static void say_duration(const struct tl_run *run, bool yes)
{
	struct tl_run_estimate e;
	char words[512];

	tl_run_estimate(run, &e);
	tl_run_estimate_words(run, &e, words, sizeof words);
	fprintf(stderr, "expected duration: %s\n", words);
	if (e.seconds > TL_LONG_RUN_S && !yes)
		fprintf(stderr, "warning: a long run (over %.0f min): fewer samples (-n) or a "
			"smaller flush shortens it; --yes runs it without this warning\n",
			TL_LONG_RUN_S / 60);
}

static int run_exec(void *st)
{
	const struct run_opts *o = st;
	struct tl_run_config cfg = {
		.n = o->n,
		.cpu = o->cpu,
		.seed = o->seed,
	};
	struct tl_run run;
	struct tl_host host;
	struct cli_open_outputs files;
	char why[WHY_LEN];
	int rc, seen;
	/* A signal while gigabytes of flush buffers are laid out and timed
	 * (before run.stop exists) cuts that short: the run then starts
	 * stopped and its empty file is written at once. */
	static atomic_bool cancel;

	cli_selection_config(&o->sel, &cfg);
	cli_stop_target(&cancel);
	cfg.cancel = &cancel;
	rc = tl_run_prepare(&run, &cfg, why, sizeof why);
	cli_stop_target(rc < 0 ? NULL : &run.stop);
	if (rc < 0) {
		fprintf(stderr, "ticklab run: %s\n", why);
		return TL_EXIT_FAIL;
	}
	if (cli_outputs_open("run", &o->out, &files) != TL_EXIT_OK) {
		tl_run_free(&run);
		return TL_EXIT_FAIL;
	}
	tl_host_read("/", run.cpu, &host);
	/* A ladder's level column is a node fact: the levels a chase sees here
	 * (0.3 s, before sampling), not only what CPUID claims (a VM's L3 can
	 * be 508 MiB by CPUID and a few MiB by a chase). */
	if (!tl_levels_cached() && tl_run_has_ladder(&run))
		(void)tl_levels_get(run.cpu, host.have_topology ? &host.topo : NULL);
	if (tl_levels_cached()) /* NxLk flushes or the ladder go by them: the JSON says so */
		host.levels = *tl_levels_cached();
	if (!o->quiet) {
		fprintf(stderr, "sampling on CPU %d: %zu cells x %zu samples\n", run.cpu,
			run.ncells, run.cfg.n);
		say_duration(&run, o->yes);
		warn_spoilers(&host);
	}
	seen = cli_stop_count();
	rc = cli_run_execute(&run, !o->quiet && isatty(STDERR_FILENO), why, sizeof why);
	/* The signals that stopped the sampling are not new. When it ran to
	 * the end, one that came after its last look at the stop flag is: it
	 * must not wait for seconds of analysis nobody asked for any more. */
	if (rc == 1)
		seen = cli_stop_count();
	if (rc < 0) {
		fprintf(stderr, "ticklab run: %s\n", why);
		cli_outputs_abort(&files);
		tl_run_free(&run);
		return rc == -2 ? TL_EXIT_USAGE : TL_EXIT_FAIL;
	}
	tl_run_drop_constant_adds(&run); /* nothing after sampling reads them */
	rc = analyse_and_write(o, &run, &files, rc == 1, &host, seen);
	tl_run_free(&run);
	return rc;
}

const struct cli_command cli_cmd_run = {
	.name = "run",
	.summary = "take samples and print filtered summaries (--json, --csv)",
	.usage = usage_text,
	.shortopts = "b:f:k:n:c:s:q",
	.longopts = longopts,
	.no_operand_hint = "lists are comma-separated: --backend a,b",
	.keeps_on_signal = true,
	.size = sizeof(struct run_opts),
	.init = run_init,
	.option = run_option,
	.check = run_check,
	.exec = run_exec,
	.release = run_release,
};
