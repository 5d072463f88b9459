/* `ticklab search`: t_min and t_diff per backend x flush (paper section
 * 5.4, stats/search.h), with each backend's ratio to a reference.
 *
 * The search itself (setup per repeat, flush budget, time limit, t_diff's
 * start, reference, repeats, intervals, ratios) is bench/search_cell.h,
 * the engine the TUI runs too; its JSON and table are io/search_json.h.
 * This file parses the command line into a plan and prints progress. */
#include "config.h"

#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "backends/backend.h"
#include "base/suggest.h"
#include "bench/flush.h"
#include "bench/host.h"
#include "bench/levels.h"
#include "bench/runner.h"
#include "bench/search_cell.h"
#include "bench/search_params.h"
#include "cli/command.h"
#include "cli/opts.h"
#include "cli/outputs.h"
#include "cli/selection.h"
#include "cli/stop.h"
#include "io/atomic.h"
#include "io/host_json.h"
#include "io/results.h"
#include "io/search_json.h"
#include "io/search_markdown.h"
#include "stats/search.h"
#include "stats/stats.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab search --backend LIST [--flush LIST] [--metric tmin,tdiff]\n"
	"                      [--method fast|paper] [--tdiff-order interleaved|paper]\n"
	"                      [--eps E] [--alpha A] [-n N] [--p P]\n"
	"                      [--q Q] [--tmin-step S] [--tdiff-step S] [--max-adds M]\n"
	"                      [--os-filter iforest|iqr|none] [--reference ID] [--budget SEC]\n"
	"                      [--repeats R] [--cpu C] [--seed S] [--json FILE|-]\n"
	"                      [--markdown FILE|-] [--quiet]\n"
	"\n"
	"Searches each backend x flush for t_min (precision: the shortest kernel whose\n"
	"filtered CV is below eps) and t_diff (sensitivity: the smallest difference two\n"
	"kernels need so that at most alpha of the longer one's samples fall below the\n"
	"shorter one's maximum), in ADDs and ns, and compares every backend with a\n"
	"reference (paper section 5.4, Algorithms 1 and 2).\n"
	"\n"
	CLI_SELECTION_USAGE_BACKEND_FLUSH
	"  -m, --metric LIST    tmin, tdiff or both (default tmin,tdiff; t_diff starts at\n"
	"                       t_min, so t_min is always searched)\n"
	"  -M, --method M       fast (model + confirmation, default) or paper (the\n"
	"                       published algorithms: hours at large flushes)\n"
	"      --tdiff-order O  interleaved (default: A0 and A1 alternate in one pass and\n"
	"                       each block's level is taken out of both, so a clock that\n"
	"                       wanders moves neither) or paper (A0's set, then A1's)\n"
	"      --eps E          CV threshold (default 0.01)\n"
	"      --alpha A        overlap threshold (default 0.05)\n"
	"  -n, --samples N      measurements per candidate (default 10000, the paper's)\n"
	"      --p P            t_min confirmations (default 30)\n"
	"      --q Q            t_diff pairs (default 80)\n"
	"      --tmin-step S    Algorithm 1's first step in ADDs (default 10000)\n"
	"      --tdiff-step S   Algorithm 2's first step in ADDs (default 100)\n"
	"      --max-adds M     give up above M ADDs (default 1e8)\n"
	"      --os-filter F    iforest (the paper's, default), iqr or none\n"
	"      --reference ID   backend the ratios are relative to (default papi-real-nsec\n"
	"                       when listed, else the first backend)\n"
	"      --budget SEC     fast: seconds the whole search may take (default 30 a\n"
	"                       cell); each repeat gets an equal part of what is left,\n"
	"                       fewer measurements per evaluation when a flush is\n"
	"                       expensive; nothing is measured past SEC + 5 % + 1 s\n"
	"  -R, --repeats R      independent repeats of every cell, interleaved in a seeded\n"
	"                       order (default 3): answers are their median with a 95 %\n"
	"                       interval, flagged UNSTABLE when the repeats disagree\n"
	"  -c, --cpu C          CPU to measure on (default: the last allowed CPU)\n"
	"  -s, --seed S         seed of the OS-noise filter (default 1)\n"
	"      --json FILE      results as JSON (- for stdout; the table then goes to stderr)\n"
	"      --markdown FILE  the table as Markdown, for a report or a slide (- for stdout)\n"
	"  -q, --quiet          no table or progress\n"
	"  -h, --help           this help\n"
	"\n"
	"Exit status: 0 done, 1 measurement or write failure, 2 bad input,\n"
	"128 + the signal when stopped by INT (130), TERM (143) or HUP (129): what was\n"
	"found so far is printed and written.\n";

enum {
	OPT_EPS = OPT_FIRST_FREE,
	OPT_ALPHA,
	OPT_P,
	OPT_Q,
	OPT_TMIN_STEP,
	OPT_TDIFF_STEP,
	OPT_MAX_ADDS,
	OPT_REF,
	OPT_BUDGET,
	OPT_TDIFF_ORDER,
};

static const struct option longopts[] = {
	CLI_SELECTION_LONGOPTS_NO_KERNEL,
	{"metric", required_argument, NULL, 'm'},
	{"method", required_argument, NULL, 'M'},
	{"tdiff-order", required_argument, NULL, OPT_TDIFF_ORDER},
	{"eps", required_argument, NULL, OPT_EPS},
	{"alpha", required_argument, NULL, OPT_ALPHA},
	{"samples", required_argument, NULL, 'n'},
	{"p", required_argument, NULL, OPT_P},
	{"q", required_argument, NULL, OPT_Q},
	{"tmin-step", required_argument, NULL, OPT_TMIN_STEP},
	{"tdiff-step", required_argument, NULL, OPT_TDIFF_STEP},
	{"max-adds", required_argument, NULL, OPT_MAX_ADDS},
	{"os-filter", required_argument, NULL, OPT_OS_FILTER},
	{"reference", required_argument, NULL, OPT_REF},
	{"budget", required_argument, NULL, OPT_BUDGET},
	{"repeats", required_argument, NULL, 'R'},
	{"cpu", required_argument, NULL, 'c'},
	{"seed", required_argument, NULL, 's'},
	{"json", required_argument, NULL, OPT_JSON},
	{"markdown", required_argument, NULL, OPT_MARKDOWN},
	{"quiet", no_argument, NULL, 'q'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct search_opts {
	struct cli_selection sel;
	const char *reference, *json, *markdown;
	bool want_tmin, want_tdiff, quiet;
	struct tl_search_plan plan; /* sp, budget, repeats, cpu; lists at the end */
};

static atomic_bool stop_flag;

/* ------------------------------------------------------------------ */
/* Arguments                                                            */
/* ------------------------------------------------------------------ */

static int parse_metric(struct search_opts *o, const char *text, char *why, size_t whylen)
{
	char **items;
	size_t n;

	if (opts_split_list(text, "--metric", &items, &n, why, whylen) < 0)
		return -1;
	o->want_tmin = o->want_tdiff = false;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(items[i], "tmin") == 0) {
			o->want_tmin = true;
		} else if (strcmp(items[i], "tdiff") == 0) {
			o->want_tdiff = true;
		} else {
			snprintf(why, whylen, "--metric '%s' is unknown (accepted: tmin, tdiff)", items[i]);
			tl_suggest_append(why, whylen, items[i], "tmin, tdiff");
			opts_free_list(items, n);
			return -1;
		}
	}
	opts_free_list(items, n);
	return 0;
}


static void search_release(void *st)
{
	struct search_opts *o = st;

	cli_selection_free(&o->sel);
	tl_search_plan_free(&o->plan);
}

static void search_init(void *st)
{
	struct search_opts *o = st;

	tl_search_plan_default(&o->plan);
	o->sel.needs_backends = true;
	o->sel.flush_text = "0";
	o->want_tmin = o->want_tdiff = true;
}

static int search_option(void *st, int c, const char *arg, char *why, size_t whylen)
{
	struct search_opts *o = st;

	/* the search parameters go through the validator the TUI uses too */
	switch (c) {
	case 'm':
		return parse_metric(o, arg, why, whylen);
	case 'M':
		return tl_search_plan_param(&o->plan, "method", "--method", arg, why, whylen);
	case OPT_TDIFF_ORDER:
		return tl_search_plan_param(&o->plan, "tdiff-order", "--tdiff-order", arg, why, whylen);
	case OPT_EPS:
		return tl_search_plan_param(&o->plan, "eps", "--eps", arg, why, whylen);
	case OPT_ALPHA:
		return tl_search_plan_param(&o->plan, "alpha", "--alpha", arg, why, whylen);
	case 'n':
		return tl_search_plan_param(&o->plan, "n", "-n", arg, why, whylen);
	case OPT_P:
		return tl_search_plan_param(&o->plan, "p", "--p", arg, why, whylen);
	case OPT_Q:
		return tl_search_plan_param(&o->plan, "q", "--q", arg, why, whylen);
	case OPT_TMIN_STEP:
		return tl_search_plan_param(&o->plan, "tmin-step", "--tmin-step", arg, why, whylen);
	case OPT_TDIFF_STEP:
		return tl_search_plan_param(&o->plan, "tdiff-step", "--tdiff-step", arg, why, whylen);
	case OPT_MAX_ADDS:
		return tl_search_plan_param(&o->plan, "max-adds", "--max-adds", arg, why, whylen);
	case OPT_OS_FILTER:
		return tl_search_plan_param(&o->plan, "os-filter", "--os-filter", arg, why, whylen);
	case OPT_REF:
		o->reference = arg;
		return 0;
	case OPT_BUDGET:
		return tl_search_plan_param(&o->plan, "budget", "--budget", arg, why, whylen);
	case 'R':
		return tl_search_plan_param(&o->plan, "repeats", "--repeats", arg, why, whylen);
	case 'c':
		return opts_parse_cpu(arg, &o->plan.cpu, why, whylen);
	case 's':
		return tl_search_plan_param(&o->plan, "seed", "--seed", arg, why, whylen);
	case OPT_JSON:
		o->json = arg;
		return 0;
	case OPT_MARKDOWN:
		o->markdown = arg;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	default:
		return cli_selection_option(&o->sel, c, arg);
	}
}

static int search_check(void *st, int argc, char **argv, char *why, size_t whylen)
{
	struct search_opts *o = st;

	(void)argc;
	(void)argv;
	const char *paths[] = {o->json, o->markdown};
	static const char *const names[] = {"--json", "--markdown"};

	if (opts_check_output("--json", o->json, "a file path or -", why, whylen) < 0 ||
	    opts_check_output("--markdown", o->markdown, "a file path or -", why, whylen) < 0 ||
	    cli_outputs_distinct(paths, names, 2, why, whylen) < 0 ||
	    cli_selection_parse(&o->sel, o->plan.cpu, why, whylen) < 0)
		return -1;
	o->plan.want_tdiff = o->want_tdiff;
	/* the plan the TUI's search screen builds from its selection too */
	if (tl_search_plan_build(&o->plan, &o->plan, (const char *const *)o->sel.got.backends,
				 o->sel.got.nbackends, (const char *const *)o->sel.got.flush_names,
				 o->sel.got.flush_bytes, o->sel.got.nflush, o->reference, why, whylen) < 0) {
		tl_suggest_append(why, whylen, o->reference, o->sel.backend_text);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Measuring                                                            */
/* ------------------------------------------------------------------ */

struct progress {
	bool show;
	const struct tl_search_plan *plan;
	const struct tl_search_cell *cells;
	double t0;
	struct tl_search_eta eta;
};

/* The terminal's width, so the line is rewritten in place instead of
 * wrapping onto a new row at every point (80 when it cannot be asked). */
static int stderr_columns(void)
{
	struct winsize ws;

	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

static void on_point(void *ctx, size_t cell, enum tl_search_kind kind, uint64_t x, double y)
{
	struct progress *p = ctx;
	const struct tl_search_cell *c = &p->cells[cell];
	char line[256];
	int width, n;
	double left;

	if (!p->show)
		return;
	left = tl_search_eta_update(&p->eta, p->plan, p->cells, tl_monotonic_s() - p->t0);
	/* a point being tried, never an answer: the line says so */
	n = snprintf(line, sizeof line, "%s %s rep %u/%u trying %s %llu: %s %.3g; ETA %.0f s",
		     p->plan->backends[c->b], p->plan->flush_names[c->f], c->run_rep + 1,
		     p->plan->repeats, kind == TL_SEARCH_TMIN ? "t_min K" : "t_diff d",
		     (unsigned long long)x, kind == TL_SEARCH_TMIN ? "CV" : "alpha", y,
		     isnan(left) ? 0 : left);
	width = stderr_columns() - 1;
	if (width > (int)sizeof line - 1)
		width = (int)sizeof line - 1;
	if (n > width)
		n = width;
	fprintf(stderr, "\r%-*.*s", width, n, line);
}

static int write_json(const struct search_opts *o, struct tl_out *out,
		      const struct tl_search_cell *cells, const struct tl_host *host, bool interrupted)
{
	json_t *doc = tl_search_to_json(&o->plan, cells, tl_host_to_json(host), interrupted);
	char why[WHY_LEN];
	int rc = TL_EXIT_OK;

	if (tl_json_commit(out, doc, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab search: %s\n", why);
		rc = TL_EXIT_FAIL;
	}
	json_decref(doc);
	return rc;
}

/* The outputs are opened before the first measurement, so a path that
 * cannot be written (a missing or read-only directory, a full disk) is
 * said at once instead of after minutes of searching. */
static int open_outputs(const struct search_opts *o, struct tl_out **json, struct tl_out **md)
{
	char why[WHY_LEN];

	*json = *md = NULL;
	if (o->json && !(*json = tl_out_open(o->json, why, sizeof why)))
		goto fail;
	if (o->markdown && !(*md = tl_out_open(o->markdown, why, sizeof why)))
		goto fail;
	return TL_EXIT_OK;
fail:
	fprintf(stderr, "ticklab search: %s\n", why);
	if (*json)
		tl_out_abort(*json);
	*json = NULL;
	return TL_EXIT_FAIL;
}

/* INT, TERM and HUP keep what was found until it is written. */
static int search_exec(void *st)
{
	const struct search_opts *o = st;
	size_t ncells = o->sel.got.nbackends * o->sel.got.nflush;
	struct tl_search_cell *cells = tl_search_cells_new(&o->plan);
	bool stdout_taken = (o->json && strcmp(o->json, "-") == 0) ||
			    (o->markdown && strcmp(o->markdown, "-") == 0);
	struct progress pr = {!o->quiet && isatty(STDERR_FILENO), &o->plan, cells, tl_monotonic_s(),
			      {NAN, 0}};
	struct tl_search_hooks hooks = {.ctx = &pr, .point = on_point, .stop = &stop_flag};
	struct tl_host host;
	char why[WHY_LEN];
	int cpu = o->plan.cpu < 0 ? tl_cpu_default() : o->plan.cpu, rc, wrc;
	struct tl_out *json_out, *md_out;

	if (tl_cpu_pin(cpu, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab search: %s\n", why);
		tl_search_cells_free(cells, ncells);
		return TL_EXIT_FAIL;
	}
	if (open_outputs(o, &json_out, &md_out) != TL_EXIT_OK) {
		tl_search_cells_free(cells, ncells);
		return TL_EXIT_FAIL;
	}
	tl_host_read("/", cpu, &host);
	if (tl_levels_cached()) /* what sized NxLk: the file says which and from where */
		host.levels = *tl_levels_cached();
	atomic_store(&stop_flag, false);
	cli_stop_target(&stop_flag);
	rc = tl_search_run(&o->plan, cells, &hooks);
	cli_stop_target(NULL);
	if (pr.show)
		fprintf(stderr, "\r%*s\r", 110, "");
	if (!o->quiet)
		tl_search_table_print(stdout_taken ? stderr : stdout, &o->plan, cells);
	if (rc == 1)
		fprintf(stderr, "ticklab search: interrupted; kept what was found\n");
	fflush(stdout);
	wrc = json_out ? write_json(o, json_out, cells, &host, rc == 1) : TL_EXIT_OK;
	if (md_out && tl_search_markdown_commit(md_out, &o->plan, cells, why, sizeof why) < 0) {
		fprintf(stderr, "ticklab search: %s\n", why);
		wrc = TL_EXIT_FAIL;
	}
	tl_search_cells_free(cells, ncells);
	if (wrc != TL_EXIT_OK)
		return wrc;
	return rc == 1 ? cli_stop_status(TL_EXIT_INTERRUPTED) : rc < 0 ? TL_EXIT_FAIL : TL_EXIT_OK;
}

const struct cli_command cli_cmd_search = {
	.name = "search",
	.summary = "t_min and t_diff (precision, sensitivity) per backend and flush",
	.usage = usage_text,
	.shortopts = "b:f:m:M:n:R:c:s:q",
	.longopts = longopts,
	.no_operand_hint = "lists are comma-separated: --backend a,b",
	.keeps_on_signal = true,
	.size = sizeof(struct search_opts),
	.init = search_init,
	.option = search_option,
	.check = search_check,
	.exec = search_exec,
	.release = search_release,
};
