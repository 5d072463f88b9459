/* The subcommand registry and the one driver every subcommand runs through
 * (cli/command.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/command.h"
#include "cli/opts.h"
#include "cli/stop.h"

#define WHY_LEN 2048

/* One line a subcommand, in `ticklab --help`'s order. */
#define CLI_COMMANDS(X) \
	X(info)         \
	X(run)          \
	X(search)       \
	X(report)       \
	X(compare)      \
	X(plot)         \
	X(detect)       \
	X(fingerprint)  \
	X(fleet)        \
	X(tui)

#define DECLARE(name) extern const struct cli_command cli_cmd_##name;
#define ENTRY(name) &cli_cmd_##name,
CLI_COMMANDS(DECLARE)
const struct cli_command *const cli_commands[] = {CLI_COMMANDS(ENTRY) NULL};

const struct cli_command *cli_command_find(const char *name)
{
	for (size_t i = 0; cli_commands[i]; i++)
		if (strcmp(cli_commands[i]->name, name) == 0)
			return cli_commands[i];
	return NULL;
}

/* 0 to execute, 1 after --help, -1 with why on bad input. Options are
 * taken in order and the first bad one is the one said. */
static int parse(const struct cli_command *cmd, void *st, int argc, char **argv, char *why,
		 size_t whylen)
{
	char optstring[64];
	int c;

	snprintf(optstring, sizeof optstring, ":%sh", cmd->shortopts ? cmd->shortopts : "");
	optind = 0; /* 0, not 1: glibc then forgets a previous command's scan */
	opterr = 0;
	while ((c = getopt_long(argc, argv, optstring, cmd->longopts, NULL)) != -1) {
		int rc;

		if (c == 'h') {
			fputs(cmd->usage, stdout);
			return 1;
		}
		rc = c == '?' || c == ':' ? CLI_NOT_MINE : cmd->option(st, c, optarg, why, whylen);
		if (rc == CLI_NOT_MINE)
			opts_usage_error(c, argv, optstring, cmd->longopts, why, whylen);
		if (rc != 0)
			return -1;
	}
	if (cmd->no_operand_hint &&
	    opts_no_operand(argc, argv, cmd->no_operand_hint, why, whylen) < 0)
		return -1;
	return cmd->check ? cmd->check(st, argc, argv, why, whylen) : 0;
}

int cli_command_main(const struct cli_command *cmd, int argc, char **argv)
{
	char why[WHY_LEN];
	void *st = calloc(1, cmd->size ? cmd->size : 1);
	int rc;

	if (!st) {
		fprintf(stderr, "ticklab %s: out of memory\n", cmd->name);
		return TL_EXIT_FAIL;
	}
	if (cmd->init)
		cmd->init(st);
	rc = parse(cmd, st, argc, argv, why, sizeof why);
	if (rc > 0)
		rc = TL_EXIT_OK;
	else if (rc < 0)
		rc = opts_fail(cmd->name, why);
	else if (!cmd->keeps_on_signal)
		rc = cmd->exec(st);
	else {
		cli_stop_arm();
		rc = cmd->exec(st);
		cli_stop_disarm();
		rc = cli_stop_status(rc);
	}
	if (cmd->release)
		cmd->release(st);
	free(st);
	return rc;
}
