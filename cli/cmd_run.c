#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "backends/backend.h"
#include "bench/host.h"
#include "bench/kernel.h"
#include "bench/memory.h"
#include "bench/runner.h"
#include "bench/size.h"
#include "bench/topology.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "cli/stop.h"
#include "bench/analysis.h"
#include "io/chains.h"
#include "io/host_json.h"
#include "io/ladder.h"
#include "io/markdown.h"
#include "io/results.h"
#include "io/run_compare.h"
#include "io/table.h"
#include "stats/stats.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab run --backend LIST [--flush LIST] [--kernel LIST] [-n N] [--cpu C]\n"
	"                   [--seed S] [--os-filter iforest|iqr|none] [--json FILE|-]\n"
	"                   [--csv FILE|-] [--markdown FILE|-] [--baseline FILE]\n"
	"                   [--threshold PCT] [--quiet]\n"
	"\n"
	"Takes N samples of every backend x flush x kernel cell, interleaved in a seeded\n"
	"order, and prints each cell's summary in ns after filter_cost and filter_os.\n"
	"\n"
	"  -b, --backend LIST   timer backends, comma-separated (see `ticklab info`);\n"
	"                       sim takes parameters: sim:sd=5,quantum=10\n"
	"  -f, --flush LIST     bytes written before every sample: 0, 32KiB, 27.5MiB, 4M,\n"
	"                       4xL1, 4xL2, 4xL3 (default 0)\n"
	"  -k, --kernel LIST    empty, add:K, add:FROM:TO:STEP, jitter:K,D,P,\n"
	"                       mul:K, fma:K (same ranges), load:SIZE[,K] (K loads\n"
	"                       chasing a random cycle through SIZE, e.g. 16KiB, 4xL3),\n"
	"                       load:LO..HI[,K] (a ladder: sizes across the cache\n"
	"                       levels, e.g. load:4KiB..4xL3), load:SIZE+SIZE+...[,K]\n"
	"                       (default empty,add:500)\n"
	"  -n, --samples N      samples per cell (default 10000)\n"
	"  -c, --cpu C          CPU to sample on (default: the last allowed CPU)\n"
	"  -s, --seed S         seed of the cell order, jitter plans and filters (default 1)\n"
	"      --os-filter M    iforest (the paper's, default), iqr or none\n"
	"      --json FILE      results with raw samples as JSON (- for stdout)\n"
	"      --csv FILE       one row per sample as CSV (- for stdout); a FILE also gets\n"
	"                       a one-row-per-cell summary beside it, FILE.summary.csv\n"
	"      --markdown FILE  the summary (and verdicts) as Markdown tables (- for stdout)\n"
	"      --baseline FILE  compare every cell with the same cell of a saved run\n"
	"                       (as `ticklab compare FILE NEW`): a verdict per cell\n"
	"                       under the table, in the JSON and the Markdown\n"
	"      --threshold PCT  the baseline's band of \"same\", % of its median (default 1)\n"
	"  -q, --quiet          print nothing but errors (no table, progress, warnings)\n"
	"  -h, --help           this help\n"
	"\n"
	"Exit status: 0 done, 1 measurement or write failure (or, with --baseline, a\n"
	"cell differs), 2 bad input, 128 + the signal when stopped by INT (130), TERM\n"
	"(143) or HUP (129): what was measured is still written (the raw samples\n"
	"before the analysis).\n";

enum { OPT_BASELINE = OPT_FIRST_FREE, OPT_THRESHOLD };

static const struct option longopts[] = {
	{"backend", required_argument, NULL, 'b'},
	{"flush", required_argument, NULL, 'f'},
	{"kernel", required_argument, NULL, 'k'},
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
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct run_opts {
	const char *backend_text, *flush_text, *kernel_text;
	char **backends;
	size_t nbackends;
	uint64_t *flush;
	size_t nflush;
	struct tl_kernel *kernels;
	size_t nkernels;
	size_t n;
	int cpu;
	uint64_t seed;
	struct cli_outputs out; /* out.os defaults to the paper's filter */
	bool quiet;
	const char *baseline;   /* --baseline FILE, loaded into base */
	double threshold_pct;
	struct tl_run base;
	struct tl_results_meta base_meta;
	bool have_base;
};

/* ------------------------------------------------------------------ */
/* Execution with Ctrl-C                                                */
/* ------------------------------------------------------------------ */

struct progress {
	bool show;
	struct timespec last;
};

static double seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + 1e-9 * (double)(now.tv_nsec - t->tv_nsec);
}

static void on_chunk(void *ctx, struct tl_run *run, size_t cell)
{
	struct progress *p = ctx;
	size_t done = atomic_load(&run->samples_done);

	(void)cell;
	/* Redraw a few times a second at most: stderr is slow over SSH. */
	if (!p->show || seconds_since(&p->last) < 0.2)
		return;
	clock_gettime(CLOCK_MONOTONIC, &p->last);
	fprintf(stderr, "\rsampling: %3.0f%% (%zu of %zu samples)",
		run->samples_total ? 100.0 * (double)done / (double)run->samples_total : 100.0, done,
		run->samples_total);
}

int cli_run_execute(struct tl_run *run, bool progress, char *why, size_t whylen)
{
	struct progress p = {.show = progress};
	int rc;

	/* The handlers stay armed after sampling (cli/stop.h): the caller
	 * still has files to write. */
	cli_stop_target(&run->stop);
	clock_gettime(CLOCK_MONOTONIC, &p.last);
	rc = tl_run_execute(run, on_chunk, &p, why, whylen);
	cli_stop_target(NULL);
	if (progress)
		fprintf(stderr, "\r%*s\r", 60, "");
	return rc;
}

/* ------------------------------------------------------------------ */
/* Argument checks                                                      */
/* ------------------------------------------------------------------ */

static int check_backends(struct run_opts *o, char *why, size_t whylen)
{
	return opts_parse_backends(o->backend_text, &o->backends, &o->nbackends, why, whylen);
}

static int check_flush(struct run_opts *o, char *why, size_t whylen)
{
	struct tl_topology topo;
	char topo_why[TL_WHY_MAX];
	bool have_topo;
	char **items;
	size_t n;

	have_topo = tl_topology_read_live(o->cpu < 0 ? tl_cpu_default() : o->cpu, &topo,
					  topo_why, sizeof topo_why) == 0;
	if (opts_split_list(o->flush_text, "--flush", &items, &n, why, whylen) < 0)
		return -1;
	o->flush = calloc(n, sizeof *o->flush);
	if (!o->flush) {
		opts_free_list(items, n);
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		if (tl_size_parse(items[i], have_topo ? &topo : NULL, &o->flush[i], why, whylen) < 0)
			goto fail;
		for (size_t j = 0; j < i; j++)
			if (o->flush[j] == o->flush[i]) {
				snprintf(why, whylen, "flush size '%s' is given twice (%llu bytes)",
					 items[i], (unsigned long long)o->flush[i]);
				goto fail;
			}
		o->nflush++;
	}
	opts_free_list(items, n);
	return 0;
fail:
	opts_free_list(items, n);
	return -1;
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

/* Labels seen twice, by an open-addressing hash set of indexes: the pairwise
 * check took minutes on a million kernels. */
static int check_duplicates(const struct tl_kernel *k, size_t n, char *why, size_t whylen)
{
	size_t cap = 16, *slot;
	int rc = 0;

	while (cap < 2 * n)
		cap *= 2;
	slot = malloc(cap * sizeof *slot);
	if (!slot) {
		snprintf(why, whylen, "out of memory checking %zu kernels", n);
		return -1;
	}
	for (size_t i = 0; i < cap; i++)
		slot[i] = SIZE_MAX;
	for (size_t i = 0; i < n && rc == 0; i++) {
		size_t h = (size_t)fnv1a(k[i].label) & (cap - 1);

		for (; slot[h] != SIZE_MAX; h = (h + 1) & (cap - 1))
			if (strcmp(k[slot[h]].label, k[i].label) == 0) {
				snprintf(why, whylen, "kernel '%s' is given twice", k[i].label);
				rc = -1;
				break;
			}
		if (rc == 0)
			slot[h] = i;
	}
	free(slot);
	return rc;
}

static int check_kernels(struct run_opts *o, char *why, size_t whylen)
{
	struct tl_topology topo;
	char topo_why[TL_WHY_MAX];
	/* load:4xL1 needs the caches, as --flush 4xL1 does. */
	bool have_topo = tl_topology_read_live(o->cpu < 0 ? tl_cpu_default() : o->cpu, &topo,
					       topo_why, sizeof topo_why) == 0;

	if (tl_kernel_parse_list_topo(o->kernel_text, have_topo ? &topo : NULL, &o->kernels,
				      &o->nkernels, why, whylen) < 0)
		return -1;
	return check_duplicates(o->kernels, o->nkernels, why, whylen);
}

/* A run holds every cell's samples at once: more cells than this is a
 * typo (100 ranges of 10000) long before it is an experiment. */
#define MAX_CELLS 20000

static int check_cells(const struct run_opts *o, char *why, size_t whylen)
{
	double cells = (double)o->nbackends * (double)o->nflush * (double)o->nkernels;

	if (cells <= MAX_CELLS)
		return 0;
	snprintf(why, whylen, "%zu backends x %zu flush sizes x %zu kernels is %.0f cells, more "
			      "than a run takes (%d)",
		 o->nbackends, o->nflush, o->nkernels, cells, MAX_CELLS);
	return -1;
}

/* Refuses an output path that cannot be written before minutes of sampling. */
static int check_output(const char *opt, const char *path, char *why, size_t whylen)
{
	const char *slash;
	char *dir;
	struct stat st;
	int rc = 0;

	if (!path || strcmp(path, "-") == 0)
		return 0;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s '%s' is a directory (accepted: a file path or -)", opt, path);
		return -1;
	}
	slash = strrchr(path, '/');
	dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
	if (!dir) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		snprintf(why, whylen, "%s '%s': directory '%s' does not exist", opt, path, dir);
		rc = -1;
	}
	free(dir);
	return rc;
}

/* The run's peak memory (bench/memory.c) against what the kernel says is
 * available: a run that cannot fit is refused before anything is
 * measured, rather than swapping or meeting the OOM killer half-way. */
static int check_fits(const struct run_opts *o, char *why, size_t whylen)
{
	struct tl_run_config cfg = {
		.nbackends = o->nbackends, .flush_bytes = o->flush, .nflush = o->nflush,
		.kernels = o->kernels, .nkernels = o->nkernels, .n = o->n,
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
		for (size_t b = 0; b < o->nbackends; b++)
			for (size_t f = 0; f < o->nflush; f++)
				for (size_t k = 0; k < o->nkernels; k++)
					if (strcmp(o->base.timers[c->timer].id, o->backends[b]) == 0 &&
					    o->base.flush_bytes[c->flush] == o->flush[f] &&
					    strcmp(c->kernel.label, o->kernels[k].label) == 0)
						return 0;
	}
	snprintf(why, whylen, "--baseline '%s' has no cell this run measures (a cell matches on "
			      "backend id, flush size and kernel)", o->baseline);
	return -1;
}

static void run_opts_free(struct run_opts *o)
{
	if (o->have_base)
		tl_run_unload(&o->base, &o->base_meta);
	opts_free_list(o->backends, o->nbackends);
	free(o->flush);
	free(o->kernels);
}

/* Returns 0 to run, 1 when --help was printed, -1 with why on bad input. */
static int parse_args(int argc, char **argv, struct run_opts *o, char *why, size_t whylen)
{
	int c;

	memset(o, 0, sizeof *o);
	o->flush_text = "0";
	o->kernel_text = "empty,add:500";
	o->n = TL_DEFAULT_N;
	o->cpu = -1;
	o->seed = 1;
	o->out.os = TL_OS_IFOREST;
	o->threshold_pct = TL_COMPARE_DEFAULT_THRESHOLD_PCT;
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:f:k:n:c:s:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o->backend_text = optarg;
			break;
		case 'f':
			o->flush_text = optarg;
			break;
		case 'k':
			o->kernel_text = optarg;
			break;
		case 'n':
			if (opts_parse_count(optarg, "-n", &o->n, why, whylen) < 0)
				return -1;
			break;
		case 'c':
			if (opts_parse_cpu(optarg, &o->cpu, why, whylen) < 0)
				return -1;
			break;
		case 's':
			if (opts_parse_u64(optarg, "--seed", &o->seed, why, whylen) < 0)
				return -1;
			break;
		case 'q':
			o->quiet = true;
			break;
		case OPT_BASELINE:
			o->baseline = optarg;
			break;
		case OPT_THRESHOLD:
			if (opts_parse_double(optarg, "--threshold", 0, 100, &o->threshold_pct, why,
					      whylen) < 0)
				return -1;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 1;
		default:
			if (cli_outputs_option(&o->out, c, argv, longopts, why, whylen) < 0)
				return -1;
		}
	}
	if (opts_no_operand(argc, argv, "lists are comma-separated: --backend a,b", why, whylen) < 0 ||
	    cli_outputs_check(&o->out, why, whylen) < 0)
		return -1;
	if (check_output("--json", o->out.json, why, whylen) < 0 ||
	    check_output("--csv", o->out.csv, why, whylen) < 0 ||
	    check_output("--markdown", o->out.markdown, why, whylen) < 0 || check_backends(o, why, whylen) < 0 ||
	    check_flush(o, why, whylen) < 0 || check_kernels(o, why, whylen) < 0 ||
	    check_cells(o, why, whylen) < 0 || check_fits(o, why, whylen) < 0 ||
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

int cli_outputs_option(struct cli_outputs *o, int c, char *const *argv,
		       const struct option *accepted, char *why, size_t whylen)
{
	switch (c) {
	case OPT_OS_FILTER:
		o->os = opts_parse_os_filter(optarg, why, whylen);
		return o->os < 0 ? -1 : 0;
	case OPT_JSON:
		o->json = optarg;
		return 0;
	case OPT_CSV:
		o->csv = optarg;
		return 0;
	case OPT_MARKDOWN:
		o->markdown = optarg;
		return 0;
	default:
		opts_usage_error(c, argv, accepted, why, whylen);
		return -1;
	}
}

static int is_stdout(const char *path)
{
	return path && strcmp(path, "-") == 0;
}

int cli_outputs_check(const struct cli_outputs *o, char *why, size_t whylen)
{
	if (is_stdout(o->json) + is_stdout(o->csv) + is_stdout(o->markdown) > 1) {
		snprintf(why, whylen, "only one of --json, --csv and --markdown can be standard "
				      "output (-)");
		return -1;
	}
	return 0;
}

FILE *cli_table_stream(const struct cli_outputs *o)
{
	bool taken = is_stdout(o->json) || is_stdout(o->csv) || is_stdout(o->markdown);

	return taken ? stderr : stdout;
}

int cli_outputs_open(const char *cmd, const struct cli_outputs *o, struct cli_open_outputs *h)
{
	char why[WHY_LEN];

	char *summary = o->csv ? tl_summary_csv_path(o->csv) : NULL;

	memset(h, 0, sizeof *h);
	if ((o->json && !(h->json = tl_out_open(o->json, why, sizeof why))) ||
	    (o->csv && !(h->csv = tl_out_open(o->csv, why, sizeof why))) ||
	    (summary && !(h->csv_summary = tl_out_open(summary, why, sizeof why))) ||
	    (o->markdown && !(h->markdown = tl_out_open(o->markdown, why, sizeof why)))) {
		fprintf(stderr, "ticklab %s: %s\n", cmd, why);
		free(summary);
		cli_outputs_abort(h);
		return TL_EXIT_FAIL;
	}
	free(summary);
	return TL_EXIT_OK;
}

void cli_outputs_abort(struct cli_open_outputs *h)
{
	tl_out_abort(h->json);
	tl_out_abort(h->csv);
	tl_out_abort(h->csv_summary);
	tl_out_abort(h->markdown);
	memset(h, 0, sizeof *h);
}

struct summary_ctx {
	const struct tl_run *run;
	const struct tl_analysis *an;
	enum tl_os_method m;
	uint64_t seed;
	const struct cli_baseline *bl;
};

static int emit_summary_csv(FILE *f, void *ctx)
{
	const struct summary_ctx *s = ctx;

	return tl_run_summary_csv(f, s->run, s->an, s->seed);
}

static int emit_markdown(FILE *f, void *ctx)
{
	const struct summary_ctx *s = ctx;

	return tl_run_markdown(f, s->run, s->an, s->m, s->seed, s->bl ? s->bl->cmp : NULL,
			       s->bl ? s->bl->base : NULL);
}

/* Commits one opened output (taking it from *slot); says a failure. */
static int commit_one(const char *cmd, struct tl_out **slot, int (*emit)(FILE *, void *),
		      void *ctx)
{
	struct tl_out *out = *slot;
	char why[WHY_LEN];

	*slot = NULL;
	if (!out)
		return TL_EXIT_OK;
	if (tl_out_commit(out, emit, ctx, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab %s: %s\n", cmd, why);
		return TL_EXIT_FAIL;
	}
	return TL_EXIT_OK;
}

int cli_outputs_write(const char *cmd, const struct cli_outputs *o, struct cli_open_outputs *h,
		      const struct tl_run *run, const struct tl_analysis *an, enum tl_os_method m,
		      uint64_t seed, bool stopped, json_t *host, const struct cli_baseline *bl)
{
	struct summary_ctx sc = { run, an, m, seed, bl };
	struct cli_open_outputs now;
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	if (!h) {
		if (cli_outputs_open(cmd, o, &now) != TL_EXIT_OK) {
			json_decref(host);
			return TL_EXIT_FAIL;
		}
		h = &now;
	}
	if (!h->json) {
		json_decref(host);
	} else {
		struct tl_run_doc *doc = tl_run_doc_new(run, an, m, seed, stopped, host);
		struct tl_out *jo = h->json;

		h->json = NULL;
		if (doc && bl && bl->cmp &&
		    tl_run_compare_attach(tl_run_doc_json(doc), run, bl->base, bl->cmp, bl->path) < 0) {
			tl_run_doc_free(doc);
			doc = NULL;
		}
		if (!doc) {
			fprintf(stderr, "ticklab %s: out of memory building the JSON\n", cmd);
			tl_out_abort(jo);
			rc = TL_EXIT_FAIL;
		} else if (tl_run_doc_commit(jo, doc, why, sizeof why) < 0) {
			fprintf(stderr, "ticklab %s: %s\n", cmd, why);
			rc = TL_EXIT_FAIL;
		}
		tl_run_doc_free(doc);
	}
	if (h->csv) {
		struct tl_out *co = h->csv;

		h->csv = NULL;
		if (tl_run_commit_csv(co, run, why, sizeof why) < 0) {
			fprintf(stderr, "ticklab %s: %s\n", cmd, why);
			rc = TL_EXIT_FAIL;
		}
	}
	if (commit_one(cmd, &h->csv_summary, emit_summary_csv, &sc) != TL_EXIT_OK)
		rc = TL_EXIT_FAIL;
	if (commit_one(cmd, &h->markdown, emit_markdown, &sc) != TL_EXIT_OK)
		rc = TL_EXIT_FAIL;
	return rc;
}

/* The samples on disk before the long analysis: the CSV (which needs no
 * analysis) and, when --json names a regular file, the JSON without
 * summaries; the final JSON replaces it once the analysis is done. A
 * JSON going to stdout or a device is written once, at the end. */
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

	*stopped = false;
	for (size_t i = 0; an && i < run->ncells; i++) {
		if (cli_stop_count() != seen) {
			*stopped = true;
			free(an);
			return NULL;
		}
		if (tl_cell_analyse(run, i, m, seed, &an[i]) < 0) {
			free(an);
			return NULL;
		}
	}
	return an;
}

static const char exit_analysing[] =
	"\nticklab run: interrupted during the analysis; the samples are saved "
	"(`ticklab report FILE` analyses them)\n";
static const char exit_analysing_nofile[] =
	"\nticklab run: interrupted during the analysis (nothing was to be saved)\n";

/* After sampling: raw samples out, analysis, table, final JSON. */
static int analyse_and_write(const struct run_opts *o, struct tl_run *run,
			     struct cli_open_outputs *files, bool stopped,
			     const struct tl_host *host)
{
	enum tl_os_method m = (enum tl_os_method)o->out.os;
	struct tl_analysis *an;
	struct tl_run_compare cmp;
	struct cli_baseline bl = { o->baseline, &o->base, NULL };
	size_t differ;
	bool late_stop;
	int seen = cli_stop_count(); /* signals that stopped the sampling are not new */
	int rc = write_raw(o, files, run, stopped, host), wrc;

	memset(&cmp, 0, sizeof cmp);

	if (rc != TL_EXIT_OK) {
		cli_outputs_abort(files);
		return rc;
	}
	/* Nothing left that a signal could lose: it may end the process. */
	if (!files->json)
		cli_stop_exiting(o->out.json || o->out.csv ? exit_analysing : exit_analysing_nofile,
				 seen);
	an = analyse(run, m, o->seed, seen, &late_stop);
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
		/* write_raw put the samples on disk before the analysis. */
		const char *kept = o->out.json && !files->json ? o->out.json : o->out.csv;

		if (kept && strcmp(kept, "-") != 0)
			fprintf(stderr, "ticklab run: out of memory during analysis; raw samples kept "
					"in %s\n", kept);
		else
			fprintf(stderr, "ticklab run: out of memory during analysis (no --json or "
					"--csv file: the samples are lost)\n");
		cli_outputs_abort(files);
		return TL_EXIT_FAIL;
	}
	if (!o->quiet) {
		FILE *tf = cli_table_stream(&o->out);

		tl_table_print(tf, run, an, m, o->seed);
		tl_chains_print(tf, run, an);
		tl_ladder_print(tf, run, an, host->have_topology ? &host->topo : NULL);
	}
	if (o->have_base) {
		if (tl_runs_compare(&o->base, run, o->threshold_pct, o->seed, &cmp) < 0) {
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

static int measure_and_report(const struct run_opts *o)
{
	struct tl_run_config cfg = {
		.backends = (const char **)o->backends,
		.nbackends = o->nbackends,
		.flush_bytes = o->flush,
		.nflush = o->nflush,
		.kernels = o->kernels,
		.nkernels = o->nkernels,
		.n = o->n,
		.cpu = o->cpu,
		.seed = o->seed,
	};
	struct tl_run run;
	struct tl_host host;
	struct cli_open_outputs files;
	char why[WHY_LEN];
	int rc;

	if (tl_run_prepare(&run, &cfg, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab run: %s\n", why);
		return TL_EXIT_FAIL;
	}
	if (cli_outputs_open("run", &o->out, &files) != TL_EXIT_OK) {
		tl_run_free(&run);
		return TL_EXIT_FAIL;
	}
	tl_host_read("/", run.cpu, &host);
	if (!o->quiet) {
		fprintf(stderr, "sampling on CPU %d: %zu cells x %zu samples\n", run.cpu,
			run.ncells, run.cfg.n);
		warn_spoilers(&host);
	}
	rc = cli_run_execute(&run, !o->quiet && isatty(STDERR_FILENO), why, sizeof why);
	if (rc < 0) {
		fprintf(stderr, "ticklab run: %s\n", why);
		cli_outputs_abort(&files);
		tl_run_free(&run);
		return TL_EXIT_FAIL;
	}
	rc = analyse_and_write(o, &run, &files, rc == 1, &host);
	tl_run_free(&run);
	return rc;
}

int cli_run_main(int argc, char **argv)
{
	struct run_opts o;
	char why[WHY_LEN];
	int rc = parse_args(argc, argv, &o, why, sizeof why);

	if (rc > 0) {
		run_opts_free(&o);
		return TL_EXIT_OK;
	}
	if (rc < 0) {
		run_opts_free(&o);
		return opts_fail("run", why);
	}
	/* Armed before anything is prepared: a signal from here on keeps what
	 * was measured (cli/stop.h). */
	cli_stop_arm();
	rc = measure_and_report(&o);
	run_opts_free(&o);
	cli_stop_disarm();
	return cli_stop_status(rc);
}
