/* `ticklab tui` and plain `ticklab` on a terminal: the TUI's options, and
 * the one place that decides whether there is a terminal to use; without
 * one, the plain-text comparison (or a replay's report) stands in. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/xalloc.h"
#include "backends/backend.h"
#include "bench/runner.h"
#include "cli/command.h"
#include "cli/opts.h"
#include "cli/selection.h"
#include "io/results.h"
#include "io/theme.h"
#include "tui/tui.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab tui [-b LIST] [-f LIST] [-k LIST] [-n N] [--start] [--cpu C]\n"
	"                   [--seed S] [--baseline FILE.json] [--theme NAME]\n"
	"                   [--themes-dir DIR] [--mouse]\n"
	"       ticklab tui --replay FILE.json | --fleet DIR|FILE.json...\n"
	"       ticklab [the same options]\n"
	"\n"
	"The terminal lab: pick backends, flush sizes and kernels, watch them run side by\n"
	"side, search t_min and t_diff, read the node's diagnosis. ? shows the keys.\n"
	"\n"
	"  -b, --backend LIST   backends selected on Setup, as ticklab run reads them\n"
	"                       (comma-separated; `ticklab info` shows which work here)\n"
	"  -f, --flush LIST     flush sizes selected on Setup (0, 32KiB, 4xL2, ...)\n"
	"  -k, --kernel LIST    kernels selected on Setup (empty, add:K, jitter:K,D,P, ...)\n"
	"      --start          run the selection at once, as Enter on Setup does\n"
	"                       (a run estimated above 3 min still asks first)\n"
	"  -r, --replay FILE    open a saved run, session or search (ticklab run --json,\n"
	"                       search --json, e, Ctrl-C) and show it without measuring\n"
	"  -F, --fleet DIR      open fingerprints (ticklab fingerprint --json; a DIR gives\n"
	"                       its *.json, more files may follow) on the Fleet screen,\n"
	"                       judged as ticklab fleet judges them\n"
	"      --baseline FILE  a saved run (ticklab run --json, e): its CDFs drawn dashed\n"
	"                       beside the live ones, each cell's verdict against it\n"
	"                       (as ticklab compare) once the run is done\n"
	"  -t, --theme NAME     colour theme (default, light, high-contrast, mono, ...)\n"
	"      --themes-dir DIR look for NAME.theme here first, then\n"
	"                       $XDG_CONFIG_HOME/ticklab/themes, then " TL_DATADIR "/themes\n"
	"      --mouse          enable the mouse (off by default)\n"
	"  -n, --samples N      samples per cell (default 10000)\n"
	"  -c, --cpu C          CPU to sample on (default: the last allowed CPU)\n"
	"  -s, --seed S         seed of cell order, jitter plans and filters (default 1)\n"
	"  -h, --help           this help\n"
	"\n"
	"A lecture in one command: ticklab -b barrier-tsc,clock-gettime -f 0,4xL2\n"
	"-k add:100,add:500 -n 2000 --start\n"
	"\n"
	"Without a usable terminal (TERM=dumb, unknown TERM, not a tty) it prints the\n"
	"plain-text comparison instead, or with -b/-f/-k runs that selection as\n"
	"ticklab run does. NO_COLOR=1 turns colours off.\n";

enum { OPT_BASELINE = OPT_FIRST_FREE, OPT_START };

static const struct option longopts[] = {
	{"replay", required_argument, NULL, 'r'},
	{"fleet", required_argument, NULL, 'F'},
	{"baseline", required_argument, NULL, OPT_BASELINE},
	{"backend", required_argument, NULL, 'b'},
	{"flush", required_argument, NULL, 'f'},
	{"kernel", required_argument, NULL, 'k'},
	{"start", no_argument, NULL, OPT_START},
	{"theme", required_argument, NULL, 't'},
	{"themes-dir", required_argument, NULL, 'T'},
	{"mouse", no_argument, NULL, 'm'},
	{"samples", required_argument, NULL, 'n'},
	{"cpu", required_argument, NULL, 'c'},
	{"seed", required_argument, NULL, 's'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

struct tui_cmd {
	struct tui_opts o;
	bool plain;   /* `ticklab` with nothing asked */
	char **fleet; /* --fleet's paths, then the operands after it (owned array) */
	/* --backend, --flush, --kernel as given, read in check (after --cpu)
	 * by the parsers run uses: the Setup preselection */
	struct cli_selection sel;
	char **kernel_labels; /* owned array of the kernels' labels */
};

static void fleet_path(struct tui_cmd *t, char *path)
{
	t->fleet = tl_xrealloc(t->fleet, t->o.nfleet + 1, sizeof *t->fleet);
	t->fleet[t->o.nfleet++] = path;
	t->o.fleet = t->fleet;
}

static void tui_init(void *st)
{
	struct tui_opts *o = &((struct tui_cmd *)st)->o;

	((struct tui_cmd *)st)->sel.takes_kernels = true;
	o->n = TL_DEFAULT_N;
	o->cpu = -1;
	o->seed = 1;
}

static int tui_option(void *st, int c, const char *arg, char *why, size_t whylen)
{
	struct tui_opts *o = &((struct tui_cmd *)st)->o;

	switch (c) {
	case 'r':
		o->replay = arg;
		return 0;
	case 'F':
		fleet_path(st, (char *)arg);
		return 0;
	case OPT_BASELINE:
		o->baseline = arg;
		return 0;
	case 'b':
	case 'f':
	case 'k':
		return cli_selection_option(&((struct tui_cmd *)st)->sel, c, arg);
	case OPT_START:
		o->start = true;
		return 0;
	case 't':
		o->theme = arg;
		return 0;
	case 'T':
		o->themes_dir = arg;
		return 0;
	case 'm':
		o->mouse = true;
		return 0;
	case 'n':
		o->n_given = true;
		return opts_parse_count(arg, "-n", &o->n, why, whylen);
	case 'c':
		return opts_parse_cpu(arg, &o->cpu, why, whylen);
	case 's':
		return opts_parse_u64(arg, "--seed", &o->seed, why, whylen);
	default:
		return CLI_NOT_MINE;
	}
}

/* --backend, --flush and --kernel by run's own parsers, so a value run
 * refuses is refused here with the same words (status 2). */
static int check_selection(struct tui_cmd *t, char *why, size_t whylen)
{
	struct tui_opts *o = &t->o;
	struct cli_selection *s = &t->sel;

	if ((cli_selection_given(s) || o->start) && (o->replay || o->nfleet)) {
		snprintf(why, whylen, "--backend, --flush, --kernel and --start set up a new run; "
				      "%s shows saved data (use one or the other)",
			 o->replay ? "--replay" : "--fleet");
		return -1;
	}
	if (cli_selection_parse(s, o->cpu, why, whylen) < 0)
		return -1;
	/* Setup sizes each flush name again, from the same levels (the node's
	 * record), so its rows and the CLI's agree */
	if (s->kernel_text) { /* none given: Setup's own preselection stands */
		t->kernel_labels = tl_xcalloc(s->got.nkernels ? s->got.nkernels : 1, sizeof *t->kernel_labels);
		for (size_t i = 0; i < s->got.nkernels; i++)
			t->kernel_labels[i] = s->got.kernels[i].label;
	}
	o->nbackends = s->got.nbackends;
	o->nflushes = s->got.nflush;
	o->nkernels = s->got.nkernels;
	o->backends = s->got.backends;
	o->flushes = s->got.flush_names;
	o->kernels = t->kernel_labels;
	return 0;
}

/* --theme and --themes-dir are checked here, before the terminal is looked
 * at: without one the plain text would ignore them, and with one a bad name
 * would only be a message on the screen. Either way it is bad input. */
static int check_theme(const struct tui_opts *o, char *why, size_t whylen)
{
	struct tui_theme theme;
	struct stat sb;

	if (o->themes_dir && (stat(o->themes_dir, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
		snprintf(why, whylen, "--themes-dir '%s' is not a directory (accepted: a directory "
				      "of NAME.theme files)",
			 o->themes_dir);
		return -1;
	}
	return o->theme ? tui_theme_load_named(o->themes_dir, o->theme, &theme, why, whylen) : 0;
}

static int tui_check(void *st, int argc, char **argv, char *why, size_t whylen)
{
	struct tui_cmd *t = st;
	struct stat sb;

	t->plain = argc < 2 && strcmp(argv[0], "tui") != 0;
	/* More fingerprints may follow --fleet as operands; nothing else may. */
	while (t->o.nfleet && optind < argc)
		fleet_path(t, argv[optind++]);
	if (opts_no_operand(argc, argv, "see ticklab tui --help", why, whylen) < 0 ||
	    check_selection(t, why, whylen) < 0 || check_theme(&t->o, why, whylen) < 0)
		return -1;
	if (t->o.baseline && stat(t->o.baseline, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(why, whylen, "--baseline '%s' is a directory (accepted: a run's JSON "
				      "file, from ticklab run --json or the TUI's export)",
			 t->o.baseline);
		return -1;
	}
	if (t->o.replay && stat(t->o.replay, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(why, whylen, "--replay '%s' is a directory (accepted: a JSON file "
				      "written by ticklab run, search or the TUI)",
			 t->o.replay);
		return -1;
	}
	return 0;
}

/* The TUI needs a terminal both ways and a TERM curses can use; anything
 * else (a pipe, CI, TERM=dumb) gets the plain text, so the README's run
 * command works everywhere. */
static bool interactive(const char **why)
{
	const char *term = getenv("TERM");

	*why = !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) ? "not a terminal"
	       : !term || !*term				    ? "TERM is not set"
	       : strcmp(term, "dumb") == 0			    ? "TERM=dumb"
								    : NULL;
	return *why == NULL;
}

/* Without a terminal the baseline is still checked: a bad file is bad
 * input either way. */
static int baseline_check(const struct tui_opts *o)
{
	struct tl_run run;
	struct tl_results_meta meta;
	char why[WHY_LEN];

	if (!o->baseline)
		return 0;
	memset(&run, 0, sizeof run);
	memset(&meta, 0, sizeof meta);
	if (tl_run_load(o->baseline, &run, &meta, why, sizeof why) < 0)
		return opts_fail("tui", why);
	tl_run_unload(&run, &meta);
	return 0;
}

static int fallback(const struct tui_opts *o, const char *why)
{
	int rc;

	if (o->nfleet) {
		char **args = tl_xcalloc(o->nfleet + 3, sizeof *args);

		/* strict as the Fleet screen: a bad file is refused, not skipped */
		args[0] = (char *)"fleet";
		args[1] = (char *)"--strict";
		memcpy(args + 2, o->fleet, o->nfleet * sizeof *args);
		fprintf(stderr, "ticklab tui: %s: printing the fleet table instead\n", why);
		rc = cli_command_main(cli_command_find("fleet"), (int)o->nfleet + 2, args);
		free(args);
		return rc;
	}
	rc = baseline_check(o);
	if (rc)
		return rc;
	if (o->replay) {
		char *args[] = {(char *)"report", (char *)o->replay, NULL};

		fprintf(stderr, "ticklab tui: %s: printing the report instead\n", why);
		return cli_command_main(cli_command_find("report"), 2, args);
	}
	fprintf(stderr, "ticklab: %s: showing the plain-text comparison instead\n", why);
	return cli_default_table(o->n_given ? o->n : 0, o->cpu, o->seed);
}

/* A selection without a terminal is run as `run` would run it: what was
 * asked for, in plain text, not the default comparison. A list not given
 * takes run's default; the backend, the node's barrier timer as Setup does. */
static int run_selection(const struct tui_cmd *t, const char *no_term)
{
	char said[2 * TL_WHY_MAX], n[32], cpu[32], seed[32];
	const char *barrier = tl_backend_default_barrier(said, sizeof said);
	char *args[16];
	int argc = 0;

	snprintf(n, sizeof n, "%zu", t->o.n);
	snprintf(cpu, sizeof cpu, "%d", t->o.cpu);
	snprintf(seed, sizeof seed, "%llu", (unsigned long long)t->o.seed);
	args[argc++] = (char *)"run";
	args[argc++] = (char *)"--backend";
	args[argc++] = (char *)(t->sel.backend_text ? t->sel.backend_text : barrier ? barrier : "clock-gettime");
	if (t->sel.flush_text) {
		args[argc++] = (char *)"--flush";
		args[argc++] = (char *)t->sel.flush_text;
	}
	if (t->sel.kernel_text) {
		args[argc++] = (char *)"--kernel";
		args[argc++] = (char *)t->sel.kernel_text;
	}
	args[argc++] = (char *)"-n";
	args[argc++] = n;
	if (t->o.cpu >= 0) {
		args[argc++] = (char *)"--cpu";
		args[argc++] = cpu;
	}
	args[argc++] = (char *)"--seed";
	args[argc++] = seed;
	if (t->o.baseline) {
		args[argc++] = (char *)"--baseline";
		args[argc++] = (char *)t->o.baseline;
	}
	args[argc] = NULL;
	fprintf(stderr, "ticklab: %s: running the selection as ticklab run instead\n", no_term);
	return cli_command_main(cli_command_find("run"), argc, args);
}

static int tui_exec(void *st)
{
	const struct tui_cmd *t = st;
	const char *no_term;
	char why[WHY_LEN];
	int rc;

	/* Plain `ticklab` with nothing asked prints the table without a word. */
	if (!interactive(&no_term) && (t->sel.backend_text || t->sel.flush_text || t->sel.kernel_text))
		return run_selection(t, no_term);
	if (!interactive(&no_term))
		return t->plain ? cli_default_table(0, -1, 1) : fallback(&t->o, no_term);
	rc = tui_run(&t->o, why, sizeof why);
	if (rc == TUI_NO_TERMINAL)
		return fallback(&t->o, why);
	if (rc == TUI_LOAD_FAILED) /* a file report would refuse too: bad input */
		return opts_fail("tui", why);
	return rc;
}

static void tui_release(void *st)
{
	struct tui_cmd *t = st;

	free(t->fleet);
	cli_selection_free(&t->sel);
	free(t->kernel_labels);
}

const struct cli_command cli_cmd_tui = {
	.name = "tui",
	.summary = "the interactive lab (--replay FILE.json shows a saved run)",
	.usage = usage_text,
	.shortopts = "r:F:b:f:k:t:n:c:s:",
	.longopts = longopts,
	.size = sizeof(struct tui_cmd),
	.init = tui_init,
	.option = tui_option,
	.check = tui_check,
	.exec = tui_exec,
	.release = tui_release,
};
