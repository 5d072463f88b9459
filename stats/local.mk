# stats/ files (see Makefile.am)
# summaries, histograms, isolation forest, OS-noise filter
libticklab_a_SOURCES += stats/stats.h stats/summary.c stats/dist.c stats/drift.c stats/level.c stats/lattice.c stats/iforest.c stats/sort.c stats/mt19937.h \
	stats/osfilter.c stats/compare.h stats/compare.c \
	stats/kernels.h stats/kernels.c stats/levels.h stats/levels.c
check_PROGRAMS += tests/test_stats tests/test_stats_iforest
tests_test_stats_SOURCES = tests/test_stats.c tests/tap.h
tests_test_stats_LDADD = $(TL_LIBS)
tests_test_stats_iforest_SOURCES = tests/test_stats_iforest.c tests/tap.h
tests_test_stats_iforest_LDADD = $(TL_LIBS)
TESTS += tests/test_stats tests/test_stats_iforest
EXTRA_DIST += tests/reference/iforest_ref.py tests/reference/stats_ref.py
# t_min and t_diff searches (paper Algorithms 1-2 and fast)
libticklab_a_SOURCES += stats/search.h stats/search_impl.h stats/search.c stats/search_run.c stats/search_paper.c \
	stats/search_fast.c
check_PROGRAMS += tests/test_search
tests_test_search_SOURCES = tests/test_search.c stats/sim_derived.h tests/tap.h
tests_test_search_LDADD = $(TL_LIBS)
TESTS += tests/test_search
TESTS += tests/test_search_cli.sh
EXTRA_DIST += tests/test_search_cli.sh
# two-sample comparisons (shift, interval, MWU, KS, verdict)
check_PROGRAMS += tests/test_compare
tests_test_compare_SOURCES = tests/test_compare.c tests/tap.h
tests_test_compare_LDADD = $(TL_LIBS)
TESTS += tests/test_compare
EXTRA_DIST += tests/reference/compare_ref.py
# the engine's 95 % intervals cover the analytic sim answers (a distribution over seeds)
check_PROGRAMS += tests/test_search_coverage
tests_test_search_coverage_SOURCES = tests/test_search_coverage.c stats/sim_derived.h tests/tap.h tests/search_sim.h
tests_test_search_coverage_LDADD = $(TL_LIBS)
TESTS += tests/test_search_coverage
check_PROGRAMS += tests/test_search_drift
tests_test_search_drift_SOURCES = tests/test_search_drift.c stats/sim_derived.h tests/tap.h tests/search_sim.h
tests_test_search_drift_LDADD = $(TL_LIBS)
TESTS += tests/test_search_drift
# a cell's t_diff repeats from one A0, on the drifting sim
check_PROGRAMS += tests/test_search_a0
tests_test_search_a0_SOURCES = tests/test_search_a0.c stats/sim_derived.h tests/tap.h tests/search_sim.h
tests_test_search_a0_LDADD = $(TL_LIBS)
TESTS += tests/test_search_a0
check_PROGRAMS += tests/test_search_walk
tests_test_search_walk_SOURCES = tests/test_search_walk.c tests/tap.h tests/search_sim.h
tests_test_search_walk_LDADD = $(TL_LIBS)
TESTS += tests/test_search_walk
# the chain fit and the memory ladder's step function
check_PROGRAMS += tests/test_kernels_stats
tests_test_kernels_stats_SOURCES = tests/test_kernels_stats.c tests/tap.h
tests_test_kernels_stats_LDADD = $(TL_LIBS)
TESTS += tests/test_kernels_stats
# robust scores of a node against the rest of its fleet
libticklab_a_SOURCES += stats/fleet.c stats/fleet_hist.c stats/fleet.h
# the fleet's linear statistics equal the direct ones; the scipy check
check_PROGRAMS += tests/test_fleet_stats
tests_test_fleet_stats_SOURCES = tests/test_fleet_stats.c tests/tap.h
tests_test_fleet_stats_LDADD = $(TL_LIBS)
TESTS += tests/test_fleet_stats tests/test_fleet_scipy.sh
EXTRA_DIST += tests/test_fleet_scipy.sh
