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

#include "bench/runner.h"
#include "cli/command.h"
#include "cli/opts.h"
#include "tui/tui.h"

#define WHY_LEN 1024

static const char usage_text[] =
	"usage: ticklab tui [--replay FILE.json] [--theme NAME] [--themes-dir DIR] [--mouse]\n"
	"                   [-n N] [--cpu C] [--seed S]\n"
	"       ticklab [the same options]\n"
	"\n"
	"The terminal lab: pick backends, flush sizes and kernels, watch them run side by\n"
	"side, search t_min and t_diff, read the node's diagnosis. ? shows the keys.\n"
	"\n"
	"  -r, --replay FILE    open a saved run, session or search (ticklab run --json,\n"
	"                       search --json, e, Ctrl-C) and show it without measuring\n"
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
	bool plain; /* `ticklab` with nothing asked */
};

static void tui_init(void *st)
{
	struct tui_opts *o = &((struct tui_cmd *)st)->o;

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

static int tui_check(void *st, int argc, char **argv, char *why, size_t whylen)
{
	struct tui_cmd *t = st;
	struct stat sb;

	t->plain = argc < 2 && strcmp(argv[0], "tui") != 0;
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

static int fallback(const struct tui_opts *o, const char *why)
{
	if (o->replay) {
		char *args[] = {(char *)"report", (char *)o->replay, NULL};

		fprintf(stderr, "ticklab tui: %s: printing the report instead\n", why);
		return cli_command_main(cli_command_find("report"), 2, args);
	}
	fprintf(stderr, "ticklab: %s: showing the plain-text comparison instead\n", why);
	return cli_default_table();
}

static int tui_exec(void *st)
{
	const struct tui_cmd *t = st;
	const char *no_term;
	char why[WHY_LEN];
	int rc;

	/* Plain `ticklab` with nothing asked prints the table without a word. */
	if (!interactive(&no_term))
		return t->plain ? cli_default_table() : fallback(&t->o, no_term);
	rc = tui_run(&t->o, why, sizeof why);
	if (rc == TUI_NO_TERMINAL)
		return fallback(&t->o, why);
	if (rc == TUI_LOAD_FAILED) /* a file report would refuse too: bad input */
		return opts_fail("tui", why);
	return rc;
}

const struct cli_command cli_cmd_tui = {
	.name = "tui",
	.summary = "the interactive lab (--replay FILE.json shows a saved run)",
	.usage = usage_text,
	.shortopts = "r:t:n:c:s:",
	.longopts = longopts,
	.no_operand_hint = "see ticklab tui --help",
	.size = sizeof(struct tui_cmd),
	.init = tui_init,
	.option = tui_option,
	.check = tui_check,
	.exec = tui_exec,
};
