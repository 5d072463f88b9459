/* Subcommands: each parses its own argv (argv[0] is the subcommand name)
 * and returns the process exit status (0 ok, 1 runtime failure, 2 bad input). */
#ifndef TL_CLI_COMMANDS_H
#define TL_CLI_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>

int cli_info_main(int argc, char **argv);
int cli_run_main(int argc, char **argv);
int cli_search_main(int argc, char **argv);
int cli_report_main(int argc, char **argv);
/* The plain-text default comparison shown when there is no terminal. */
int cli_default_table(void);

struct tl_run;
/* tl_run_execute with SIGINT/SIGTERM setting run->stop (the samples taken
 * so far are kept) and, when progress is set, a progress line on stderr.
 * Returns tl_run_execute's status: 0 done, 1 stopped early, -1 error. */
int cli_run_execute(struct tl_run *run, bool progress, char *why, size_t whylen);

#endif
