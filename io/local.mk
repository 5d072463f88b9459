# io/ files: JSON/CSV of runs and searches, shared cell analysis
libticklab_a_SOURCES += io/analysis.c io/analysis.h io/results.c io/results.h io/table.c \
	io/table.h io/host_json.c io/host_json.h io/jitter.c io/jitter.h

check_PROGRAMS += tests/test_json_io
tests_test_json_io_SOURCES = tests/test_json_io.c tests/tap.h
tests_test_json_io_LDADD = $(TL_LIBS)
TESTS += tests/test_json_io tests/test_json_run.sh tests/test_report.sh
EXTRA_DIST += tests/test_json_run.sh tests/test_report.sh

check_PROGRAMS += tests/test_analysis_kept
tests_test_analysis_kept_SOURCES = tests/test_analysis_kept.c tests/tap.h
tests_test_analysis_kept_LDADD = $(TL_LIBS)
TESTS += tests/test_analysis_kept
# the search JSON (one schema for search --json and the TUI export) and its table
libticklab_a_SOURCES += io/search_json.c io/search_json.h io/search_table.c
# verdicts helper: the injected variation of jitter cells, end to end on sim
TESTS += tests/test_jitter_run.sh
EXTRA_DIST += tests/test_jitter_run.sh
# Hostile saved files and parameters (issue 11 items 5 and 8).
TESTS += tests/test_hostile_files.sh
EXTRA_DIST += tests/test_hostile_files.sh
