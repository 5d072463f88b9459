#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/opts.h"
#include "stats/stats.h"

static const char usage_text[] =
	"usage: ticklab [COMMAND] [OPTIONS]\n"
	"\n"
	"A terminal lab for comparing CPU timing methods (serialized barrier, PAPI,\n"
	"clock_gettime, perf, plain rdtsc, a simulator). With no command: on a\n"
	"terminal, the interactive lab; without one, a short default comparison\n"
	"printed as a table.\n"
	"\n"
	"commands:\n"
	"  info      the node and every timer backend's availability and reason\n"
	"  run       take samples and print filtered summaries (--json, --csv)\n"
	"  search    t_min and t_diff (precision, sensitivity) per backend and flush\n"
	"  report    re-analyse a saved run and print the same numbers\n"
	"  compare   two saved runs cell by cell: shift, interval, p-values, verdict\n"
	"  plot      a saved run or search as a figure (SVG, PNG, PDF)\n"
	"  detect    the smallest injected variation each timer shows (t_diff's cousin)\n"
	"  fingerprint  this node's fixed battery, one JSON per node (for fleet)\n"
	"  fleet     fingerprints of many nodes side by side; the odd node flagged\n"
	"  tui       the interactive lab (--replay FILE.json shows a saved run)\n"
	"\n"
	"  ticklab COMMAND --help   options of one command\n"
	"  ticklab [TUI OPTIONS]    the lab with `ticklab tui`'s options (--mouse, ...)\n"
	"  ticklab --version        the version\n"
	"\n"
	"See ticklab(1).\n";

struct command {
	const char *name;
	int (*main)(int argc, char **argv);
};

static const struct command commands[] = {
	{"info", cli_info_main},
	{"run", cli_run_main},
	{"search", cli_search_main},
	{"report", cli_report_main},
	{"compare", cli_compare_main},
	{"plot", cli_plot_main},
	{"detect", cli_detect_main},
	{"fingerprint", cli_fingerprint_main},
	{"fleet", cli_fleet_main},
	{"tui", cli_tui_main},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static int unknown(const char *what)
{
	fprintf(stderr,
		"ticklab: unknown command '%s' (accepted: info, run, search, report, compare, plot, "
		"detect, fingerprint, fleet, tui, --help, "
		"--version, or the options of `ticklab tui`)\n",
		what);
	return TL_EXIT_USAGE;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2)
		return cli_tui_main(argc, argv);
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].main(argc - 1, argv + 1);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		fputs(usage_text, stdout);
		return TL_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("ticklab %s\n", PACKAGE_VERSION);
		return TL_EXIT_OK;
	}
	/* `ticklab --mouse` and every other TUI option work without `tui`. */
	if (argv[1][0] == '-')
		return cli_tui_main(argc, argv);
	return unknown(argv[1]);
}

/* Output that could not be written is a failure, not a status 0: the last
 * buffer is flushed here so `ticklab run ... > /dev/full` says so. */
int main(int argc, char **argv)
{
	int rc;

	stats_init();
	rc = dispatch(argc, argv);

	errno = 0;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "ticklab: cannot write to standard output: %s\n",
			errno ? strerror(errno) : "write error");
		if (rc == TL_EXIT_OK)
			rc = TL_EXIT_FAIL;
	}
	return rc;
}
