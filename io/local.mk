# io/: files in and out (run and search JSON/CSV, tables, Markdown, themes,
# checks of saved files) and the cell analysis every face shares
libticklab_a_SOURCES += io/theme.c io/theme.h io/theme_contrast.c io/theme_contrast.h io/reason_words.c io/reason_words.h io/results.h io/atomic.c io/atomic.h io/run_json.c io/run_json.h io/real17.c io/real17.h io/noise_json.c io/noise_json.h io/run_load.c io/run_load.h io/json_read.c io/json_read.h io/json_fast.c io/json_fast.h io/file_kind.c io/file_kind.h io/term_safe.c io/term_safe.h io/file_check.c io/file_check.h io/keys.c io/keys.h io/search_keys.c io/search_keys.h io/detect_json.c io/detect_json.h io/run_keys.c io/run_keys.h io/run_bulk.c io/run_bulk.h io/table.c \
	io/table.h io/host_json.c io/host_json.h io/jitter_out.c io/jitter_out.h \
	io/ladder.c io/ladder.h io/chains.c io/chains.h io/run_compare.c \
	io/run_compare.h io/markdown.c io/markdown.h io/json_build.c io/json_build.h

check_PROGRAMS += tests/test_json_io tests/test_real17 tests/test_json_fast
tests_test_json_fast_SOURCES = tests/test_json_fast.c tests/tap.h
tests_test_json_fast_LDADD = $(TL_LIBS)
tests_test_real17_SOURCES = tests/test_real17.c tests/tap.h
tests_test_real17_LDADD = $(TL_LIBS)
tests_test_json_io_SOURCES = tests/test_json_io.c tests/tap.h
tests_test_json_io_LDADD = $(TL_LIBS)
TESTS += tests/test_json_io tests/test_real17 tests/test_json_fast tests/test_json_run.sh tests/test_report.sh
EXTRA_DIST += tests/test_json_run.sh tests/test_report.sh

check_PROGRAMS += tests/test_analysis_kept tests/test_reason_words
tests_test_reason_words_SOURCES = tests/test_reason_words.c tests/tap.h
tests_test_reason_words_LDADD = $(TL_LIBS)
TESTS += tests/test_reason_words
tests_test_analysis_kept_SOURCES = tests/test_analysis_kept.c tests/tap.h
tests_test_analysis_kept_LDADD = $(TL_LIBS)
TESTS += tests/test_analysis_kept
# the search JSON (one schema for search --json and the TUI export) and its table
libticklab_a_SOURCES += io/search_json.c io/search_json.h io/search_table.c \
	io/search_markdown.c io/search_markdown.h
# the injected variation of jitter cells, end to end on sim
TESTS += tests/test_jitter_run.sh
EXTRA_DIST += tests/test_jitter_run.sh
# `ticklab plot`'s figures (cairo), the theme parser they share with the TUI
libticklab_a_SOURCES += io/plot.h io/screen_shot.h io/screen_text.c
if HAVE_CAIRO
libticklab_a_SOURCES += io/plot.c io/plot_draw.h io/plot_run.c io/plot_search.c io/plot_ladder.c io/plot_noise.c \
	io/screen_svg.c
else
libticklab_a_SOURCES += io/plot_none.c
endif
# the chains and memory ladder under run and report, end to end on sim
TESTS += tests/test_ladder_run.sh
EXTRA_DIST += tests/test_ladder_run.sh
# --markdown and the summary CSV of run, report, compare and search
TESTS += tests/test_markdown.sh
EXTRA_DIST += tests/test_markdown.sh
# the compare engine's verdict and coverage rates over 100 sim seeds
check_PROGRAMS += tests/test_compare_sim
tests_test_compare_sim_SOURCES = tests/test_compare_sim.c tests/tap.h
tests_test_compare_sim_LDADD = $(TL_LIBS)
TESTS += tests/test_compare_sim
# the fingerprint JSON and its figures (one analysis path for
# fingerprint, report and fleet)
libticklab_a_SOURCES += io/fingerprint.c io/fingerprint.h
# many fingerprints judged together
libticklab_a_SOURCES += io/fleet.c io/fleet.h
# Hostile saved files and parameters.
TESTS += tests/test_hostile_files.sh
EXTRA_DIST += tests/test_hostile_files.sh
# the TUI's remembered setup
libticklab_a_SOURCES += io/setup_memory.c io/setup_memory.h
# a run owns its config; one free for sampled and loaded runs;
# the mid-run snapshot against the runner's own finish
check_PROGRAMS += tests/test_run_own
tests_test_run_own_SOURCES = tests/test_run_own.c tests/tap.h
tests_test_run_own_LDADD = $(TL_LIBS)
TESTS += tests/test_run_own
