/* One subcommand is one table row, in the style of tmux's cmd_entry: what
 * its options mean and what it does. The driver (cli/command.c) owns the
 * frame every command shares: the getopt loop, --help, unknown options and
 * missing values, refused operands, and the exit statuses. A new
 * subcommand is one file defining `const struct cli_command cli_cmd_NAME`
 * and one line in CLI_COMMANDS (cli/command.c).
 *
 * Exit statuses (cli/opts.h): --help prints usage on stdout and exits
 * TL_EXIT_OK; bad input is "ticklab NAME: why" on stderr and TL_EXIT_USAGE;
 * exec returns the status of the work itself. */
#ifndef TL_CLI_COMMAND_H
#define TL_CLI_COMMAND_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cli_command {
	const char *name;
	const char *summary; /* one line of `ticklab --help` */
	const char *usage;   /* `ticklab NAME --help` */
	/* getopt's letters that take or lack a value ("b:f:q"); the driver adds
	 * the leading ':' (missing values are reported, not printed by getopt)
	 * and 'h'. */
	const char *shortopts;
	/* The long options in the order messages list them, --help among them. */
	const struct option *longopts;
	/* Set: an operand is refused as "unexpected argument 'X' (hint)" before
	 * check runs. NULL: the command takes operands in check. */
	const char *no_operand_hint;
	/* Commands that measure (run, search): exec runs under cli/stop.h's
	 * INT/TERM/HUP handling, armed before anything is prepared so a signal
	 * keeps what was measured, and the status is then 128 + the signal. */
	bool keeps_on_signal;
	size_t size; /* of the command's state, zeroed before init */
	/* Defaults (may be NULL). */
	void (*init)(void *st);
	/* One option c with its value arg (NULL for a flag): 0, -1 with why,
	 * or CLI_NOT_MINE for a code this command does not take. */
	int (*option)(void *st, int c, const char *arg, char *why, size_t whylen);
	/* After the options (may be NULL): operands from argv[optind] on, and
	 * checks across options. 0, or -1 with why. */
	int (*check)(void *st, int argc, char **argv, char *why, size_t whylen);
	/* The work: the exit status. */
	int (*exec)(void *st);
	/* Frees what init, option and check took (may be NULL); runs after
	 * --help and bad input too. */
	void (*release)(void *st);
};

/* cli_command's option() answer for a code it does not take. */
#define CLI_NOT_MINE 1

/* The registry, NULL-terminated, in `ticklab --help`'s order. */
extern const struct cli_command *const cli_commands[];
/* The command called name, or NULL. */
const struct cli_command *cli_command_find(const char *name);
/* Runs cmd on argv (argv[0] is the command's name or the program's):
 * parses, executes, releases. Returns the exit status. */
int cli_command_main(const struct cli_command *cmd, int argc, char **argv);

/* The plain-text default comparison shown when there is no terminal
 * (cli/default_table.c): n samples per cell (0: its short default), on
 * CPU cpu (-1: the default) with seed, as the TUI was asked for. */
int cli_default_table(size_t n, int cpu, uint64_t seed);

#endif
