#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/suggest.h"
#include "cli/command.h"
#include "cli/opts.h"
#include "io/term_safe.h"
#include "stats/stats.h"

static const char usage_head[] =
	"usage: ticklab [COMMAND] [OPTIONS]\n"
	"\n"
	"A terminal lab for comparing CPU timing methods (serialized barrier, PAPI,\n"
	"clock_gettime, perf, plain rdtsc, a simulator). With no command: on a\n"
	"terminal, the interactive lab; without one, a short default comparison\n"
	"printed as a table.\n"
	"\n"
	"commands:\n";
static const char usage_tail[] =
	"\n"
	"  ticklab COMMAND --help   options of one command\n"
	"  ticklab [TUI OPTIONS]    the lab with `ticklab tui`'s options (--mouse, ...)\n"
	"  ticklab --version        the version\n"
	"\n"
	"See ticklab(1).\n";

static void usage(void)
{
	fputs(usage_head, stdout);
	for (size_t i = 0; cli_commands[i]; i++)
		printf("  %-8s  %s\n", cli_commands[i]->name, cli_commands[i]->summary);
	fputs(usage_tail, stdout);
}

static int unknown(const char *what)
{
	char names[256] = "", why[1024];
	size_t used = 0;

	for (size_t i = 0; cli_commands[i] && used < sizeof names; i++)
		used += (size_t)snprintf(names + used, sizeof names - used, "%s, ",
					 cli_commands[i]->name);
	snprintf(why, sizeof why, "unknown command '%s' (accepted: %s--help, --version, or the "
				  "options of `ticklab tui`)",
		 what, names);
	tl_suggest_append(why, sizeof why, what, names);
	/* the word may hold anything a shell passes: escaped, never raw */
	fputs("ticklab: ", stderr);
	tl_term_fputs(why, stderr);
	fputc('\n', stderr);
	return TL_EXIT_USAGE;
}

static int dispatch(int argc, char **argv)
{
	const struct cli_command *tui = cli_command_find("tui");
	const struct cli_command *cmd;

	if (argc < 2)
		return cli_command_main(tui, argc, argv);
	cmd = cli_command_find(argv[1]);
	if (cmd)
		return cli_command_main(cmd, argc - 1, argv + 1);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		usage();
		return TL_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("ticklab %s\n", PACKAGE_VERSION);
		return TL_EXIT_OK;
	}
	/* `ticklab --mouse` and every other TUI option work without `tui`. */
	if (argv[1][0] == '-')
		return cli_command_main(tui, argc, argv);
	return unknown(argv[1]);
}

/* Output that could not be written is a failure, not a status 0: the last
 * buffer is flushed here so `ticklab run ... > /dev/full` says so. */
int main(int argc, char **argv)
{
	int rc;

	stats_init();
	/* A file size limit (ulimit -f) would kill the process mid-write with
	 * no word; ignored, the write fails with EFBIG and the writer says
	 * which file reached the limit (io/atomic.c). */
	signal(SIGXFSZ, SIG_IGN);
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
