# cli/ files (see Makefile.am): the subcommands live in the library so the
# program is only the dispatcher in cli/main.c.
libticklab_a_SOURCES += cli/commands.h cli/opts.c cli/opts.h cli/cmd_info.c cli/cmd_run.c \
	cli/cmd_report.c cli/default_table.c
