# tui/: the terminal UI: screens over the runner and search engine (bench/),
# the files in and out (io/) and the statistics (stats/); no layer includes it.
libticklab_a_SOURCES += tui/tui.h tui/curses.h \
	tui/keys.c tui/keys.h tui/wrap.c tui/wrap.h tui/glossary.c tui/glossary.h tui/glossary.def \
	tui/layout.c tui/layout.h \
	tui/theme.h \
	tui/canvas.c tui/canvas.h \
	tui/app.h tui/screen.c tui/screens.def tui/term.c tui/term_bg.c tui/term_bg.h tui/lesson_ui.c tui/lesson_ui.h tui/snapshot.c tui/snapshot.h tui/tui.c tui/setup.c tui/live.c tui/info.c tui/search_ui.c tui/ladder.c \
	tui/fleet.c tui/series.c tui/series.h tui/worker.c tui/export.c \
	tui/noise_view.c tui/noise_view.h

check_PROGRAMS += tests/test_layout tests/test_theme tests/test_theme_contrast
tests_test_layout_SOURCES = tests/test_layout.c
tests_test_layout_LDADD = $(TL_LIBS)
tests_test_theme_SOURCES = tests/test_theme.c
tests_test_theme_LDADD = $(TL_LIBS)
tests_test_theme_contrast_SOURCES = tests/test_theme_contrast.c
tests_test_theme_contrast_LDADD = $(TL_LIBS)
TESTS += tests/test_layout tests/test_theme tests/test_theme_contrast tests/test_tui.sh
EXTRA_DIST += tests/test_tui.sh tests/golden/help-setup-80x24.txt \
	tests/golden/help-live-80x24.txt tests/golden/too-small-40x12.txt

# Measurement isolation benchmark: barrier-tsc with the TUI live against batch runs.
noinst_PROGRAMS += tui/bench_isolation
tui_bench_isolation_SOURCES = tui/bench_isolation.c
tui_bench_isolation_LDADD = $(TL_LIBS)
BENCH_RUN += tui/bench_isolation
# the CLI and the TUI run one search engine: same sim search, same JSON
check_PROGRAMS += tests/test_search_faces
tests_test_search_faces_SOURCES = tests/test_search_faces.c tests/tap.h
tests_test_search_faces_LDADD = $(TL_LIBS)
TESTS += tests/test_search_faces

check_PROGRAMS += tests/test_tui_job
tests_test_tui_job_SOURCES = tests/test_tui_job.c tests/tap.h
tests_test_tui_job_LDADD = $(TL_LIBS)
TESTS += tests/test_tui_job
# messages, navigation, themes and setup memory
TESTS += tests/test_tui_lecture.sh
EXTRA_DIST += tests/test_tui_lecture.sh tests/tui_harness.sh
# the jitter verdicts in the TUI, golden screens at 80x24 and 200x50
TESTS += tests/test_tui_jitter.sh
EXTRA_DIST += tests/test_tui_jitter.sh tests/golden/jitter-80x24.txt tests/golden/jitter-120x35.txt \
	tests/golden/jitter-200x50.txt
# the memory ladder preset and view
TESTS += tests/test_tui_ladder.sh
EXTRA_DIST += tests/test_tui_ladder.sh tests/golden/ladder-80x24.txt tests/golden/ladder-120x35.txt tests/golden/ladder-200x50.txt
# the remembered setup restored and saved
libticklab_a_SOURCES += tui/memory.c
# the small things of a demo
TESTS += tests/test_tui_demo.sh
EXTRA_DIST += tests/test_tui_demo.sh
# the Fleet screen (tui --fleet), golden screens from real fingerprints
TESTS += tests/test_tui_fleet.sh
EXTRA_DIST += tests/test_tui_fleet.sh tests/golden/fleet-80x24.txt tests/golden/fleet-200x50.txt \
	tests/golden/fleet-vt100-80x24.txt tests/fixtures/fleet/n1.json.xz \
	tests/fixtures/fleet/n2.json.xz tests/fixtures/fleet/n3.json.xz \
	tests/fixtures/fleet/n4.json.xz tests/fixtures/fleet/make-fleet-fixtures.sh
# shared x-axis, hidden and solo series on Live
TESTS += tests/test_tui_series.sh
EXTRA_DIST += tests/test_tui_series.sh tests/golden/series-shared-80x24.txt \
	tests/golden/series-hidden-80x24.txt tests/golden/series-solo-200x50.txt
# a baseline's ghost CDFs and verdicts on Live
libticklab_a_SOURCES += tui/baseline.c tui/baseline.h
TESTS += tests/test_tui_baseline.sh
EXTRA_DIST += tests/test_tui_baseline.sh tests/golden/baseline-80x24.txt \
	tests/golden/baseline-200x50.txt
# the Live screen's causes under each column
TESTS += tests/test_tui_noise.sh
EXTRA_DIST += tests/test_tui_noise.sh
# screens keep their own state (Esc from Search back to Live)
TESTS += tests/test_tui_screens.sh
EXTRA_DIST += tests/test_tui_screens.sh
# every draw takes the app through a const pointer; screens come from the table
TESTS += tests/test_tui_draws.sh
EXTRA_DIST += tests/test_tui_draws.sh
