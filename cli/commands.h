/* Subcommands: each parses its own argv (argv[0] is the subcommand name)
 * and returns the process exit status (0 ok, 1 runtime failure, 2 bad input). */
#ifndef TL_CLI_COMMANDS_H
#define TL_CLI_COMMANDS_H

int cli_info_main(int argc, char **argv);
int cli_run_main(int argc, char **argv);
int cli_search_main(int argc, char **argv);
int cli_report_main(int argc, char **argv);
/* The plain-text default comparison shown when there is no terminal. */
int cli_default_table(void);

#endif
