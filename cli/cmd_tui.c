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
#include "bench/runner.h"
#include "cli/commands.h"
#include "cli/opts.h"
#include "io/results.h"
#include "tui/tui.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab tui [--replay FILE.json] [--baseline FILE.json] [--theme NAME]\n"
	"                   [--themes-dir DIR] [--mouse] [-n N] [--cpu C] [--seed S]\n"
	"                   [--fleet DIR|FILE.json...]\n"
	"       ticklab [the same options]\n"
	"\n"
	"The terminal lab: pick backends, flush sizes and kernels, watch them run side by\n"
	"side, search t_min and t_diff, read the node's diagnosis. ? shows the keys.\n"
	"\n"
	"  -r, --replay FILE    open a saved run, session or search (ticklab run --json,\n"
	"                       search --json, e, Ctrl-C) and show it without measuring\n"
	"  -F, --fleet DIR      open fingerprints (ticklab fingerprint --json; a DIR gives\n"
	"                       its *.json, more files may follow) on the Fleet screen,\n"
	"                       judged as ticklab fleet judges them\n"
	"  -b, --baseline FILE  a saved run (ticklab run --json, e): its CDFs drawn dashed\n"
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
	"Without a usable terminal (TERM=dumb, unknown TERM, not a tty) it prints the\n"
	"plain-text comparison instead. NO_COLOR=1 turns colours off.\n";

static const struct option longopts[] = {
	{"replay", required_argument, NULL, 'r'},
	{"fleet", required_argument, NULL, 'F'},
	{"baseline", required_argument, NULL, 'b'},
	{"theme", required_argument, NULL, 't'},
	{"themes-dir", required_argument, NULL, 'T'},
	{"mouse", no_argument, NULL, 'm'},
	{"samples", required_argument, NULL, 'n'},
	{"cpu", required_argument, NULL, 'c'},
	{"seed", required_argument, NULL, 's'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* --fleet's paths: every --fleet, then the operands (more files). */
static void fleet_path(struct tui_opts *o, char **paths, char *path)
{
	paths[o->nfleet++] = path;
	o->fleet = paths;
}

/* 0 to go on, -1 after --help, or an exit status for bad input. paths has
 * room for argc pointers. */
static int parse_opts(int argc, char **argv, struct tui_opts *o, char **paths)
{
	char why[WHY_LEN];
	int ch;

	memset(o, 0, sizeof *o);
	o->n = TL_DEFAULT_N;
	o->cpu = -1;
	o->seed = 1;
	opterr = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, ":r:F:b:t:n:c:s:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'r':
			o->replay = optarg;
			break;
		case 'F':
			fleet_path(o, paths, optarg);
			break;
		case 'b':
			o->baseline = optarg;
			break;
		case 't':
			o->theme = optarg;
			break;
		case 'T':
			o->themes_dir = optarg;
			break;
		case 'm':
			o->mouse = true;
			break;
		case 'n':
			o->n_given = true;
			if (opts_parse_count(optarg, "-n", &o->n, why, sizeof why) < 0)
				return opts_fail("tui", why);
			break;
		case 'c':
			if (opts_parse_cpu(optarg, &o->cpu, why, sizeof why) < 0)
				return opts_fail("tui", why);
			break;
		case 's':
			if (opts_parse_u64(optarg, "--seed", &o->seed, why, sizeof why) < 0)
				return opts_fail("tui", why);
			break;
		case 'h':
			fputs(usage_text, stdout);
			return -1;
		default:
			opts_usage_error(ch, argv, longopts, why, sizeof why);
			return opts_fail("tui", why);
		}
	}
	while (o->nfleet && optind < argc)
		fleet_path(o, paths, argv[optind++]);
	if (opts_no_operand(argc, argv, "see ticklab tui --help", why, sizeof why) < 0)
		return opts_fail("tui", why);
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
		char **args = tl_xcalloc(o->nfleet + 2, sizeof *args);

		args[0] = (char *)"fleet";
		memcpy(args + 1, o->fleet, o->nfleet * sizeof *args);
		fprintf(stderr, "ticklab tui: %s: printing the fleet table instead\n", why);
		rc = cli_fleet_main((int)o->nfleet + 1, args);
		free(args);
		return rc;
	}
	rc = baseline_check(o);
	if (rc)
		return rc;
	if (o->replay) {
		char *args[] = {(char *)"report", (char *)o->replay, NULL};

		fprintf(stderr, "ticklab tui: %s: printing the report instead\n", why);
		return cli_report_main(2, args);
	}
	fprintf(stderr, "ticklab: %s: showing the plain-text comparison instead\n", why);
	return cli_default_table();
}

static int tui_main(int argc, char **argv, char **paths)
{
	struct tui_opts o;
	const char *no_term;
	struct stat st;
	char why[WHY_LEN];
	int rc = parse_opts(argc, argv, &o, paths);

	if (rc)
		return rc < 0 ? TL_EXIT_OK : rc;
	if (o.baseline && stat(o.baseline, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, sizeof why, "--baseline '%s' is a directory (accepted: a run's JSON "
					  "file, from ticklab run --json or the TUI's export)",
			 o.baseline);
		return opts_fail("tui", why);
	}
	if (o.replay && stat(o.replay, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(why, sizeof why, "--replay '%s' is a directory (accepted: a JSON file "
					  "written by ticklab run, search or the TUI)",
			 o.replay);
		return opts_fail("tui", why);
	}
	/* Plain `ticklab` with nothing asked prints the table without a word. */
	if (!interactive(&no_term))
		return argc < 2 && strcmp(argv[0], "tui") != 0 ? cli_default_table()
							     : fallback(&o, no_term);
	rc = tui_run(&o, why, sizeof why);
	if (rc == TUI_NO_TERMINAL)
		return fallback(&o, why);
	if (rc == TUI_LOAD_FAILED) /* a file report would refuse too: bad input */
		return opts_fail("tui", why);
	return rc;
}

int cli_tui_main(int argc, char **argv)
{
	char **paths = calloc((size_t)argc + 1, sizeof *paths);
	int rc;

	if (!paths) {
		fprintf(stderr, "ticklab tui: out of memory\n");
		return TL_EXIT_FAIL;
	}
	rc = tui_main(argc, argv, paths);
	free(paths);
	return rc;
}
