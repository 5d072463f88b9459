# cli/ files (see Makefile.am): the subcommands live in the library so the
# program is only the dispatcher in cli/main.c.
libticklab_a_SOURCES += cli/command.c cli/command.h cli/opts.c cli/opts.h cli/outputs.c \
	cli/outputs.h cli/selection.c cli/selection.h cli/cmd_info.c cli/cmd_run.c cli/cmd_report.c cli/default_table.c \
	cli/cmd_tui.c cli/stop.c cli/stop.h
# `ticklab search`
libticklab_a_SOURCES += cli/cmd_search.c
# `ticklab compare`
libticklab_a_SOURCES += cli/cmd_compare.c
TESTS += tests/test_compare_cli.sh
EXTRA_DIST += tests/test_compare_cli.sh

check_PROGRAMS += tests/test_cli_opts
tests_test_cli_opts_SOURCES = tests/test_cli_opts.c tests/tap.h
tests_test_cli_opts_LDADD = $(TL_LIBS)
TESTS += tests/test_cli_opts tests/test_cli.sh
EXTRA_DIST += tests/test_cli.sh
# `ticklab plot`
libticklab_a_SOURCES += cli/cmd_plot.c
TESTS += tests/test_plot.sh
EXTRA_DIST += tests/test_plot.sh
# `ticklab detect`: the smallest injected D each backend shows
libticklab_a_SOURCES += cli/cmd_detect.c
TESTS += tests/test_detect.sh
EXTRA_DIST += tests/test_detect.sh
# `ticklab run --baseline FILE`
TESTS += tests/test_baseline_run.sh
EXTRA_DIST += tests/test_baseline_run.sh
# `ticklab fingerprint` and `ticklab fleet`
libticklab_a_SOURCES += cli/cmd_fingerprint.c cli/cmd_fleet.c
# INT/TERM/HUP at every phase of run and search.
TESTS += tests/test_signals.sh
EXTRA_DIST += tests/test_signals.sh tests/signals.py
