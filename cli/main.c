#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/opts.h"

static const char usage_text[] =
	"usage: ticklab [COMMAND] [OPTIONS]\n"
	"\n"
	"A terminal lab for comparing CPU timing methods (serialized barrier, PAPI,\n"
	"clock_gettime, perf, plain rdtsc, a simulator). With no command: on a\n"
	"terminal, a short default comparison; without one, the same as a table.\n"
	"\n"
	"commands:\n"
	"  info      the node and every timer backend's availability and reason\n"
	"  run       take samples and print filtered summaries (--json, --csv)\n"
	"  report    re-analyse a saved run and print the same numbers\n"
	"\n"
	"  ticklab COMMAND --help   options of one command\n"
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
	{"report", cli_report_main},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static int unknown(const char *what)
{
	fprintf(stderr,
		"ticklab: unknown %s '%s' (accepted: info, run, report, --help, --version)\n",
		what[0] == '-' ? "option" : "command", what);
	return TL_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return cli_default_table();
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
	return unknown(argv[1]);
}
