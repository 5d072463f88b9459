# Shared test helpers (every module's tests use them).
EXTRA_DIST += tests/tap.h tests/tap.sh tests/summary.sh
# Independent numpy/scikit-learn re-analysis of a run's JSON.
TESTS += tests/test_reference_run.sh
EXTRA_DIST += tests/test_reference_run.sh tests/reference/check_run.py
# The OS-noise filter over six seeds on a real timer (issue 21 item 3).
TESTS += tests/test_filter_seeds.sh
EXTRA_DIST += tests/test_filter_seeds.sh
# What the output writer replaces and when it fails (issue 11 items 2-3).
TESTS += tests/test_output_targets.sh tests/test_layers.sh
EXTRA_DIST += tests/test_output_targets.sh tests/test_layers.sh
TESTS += tests/test_output_failures.sh
# issue 23: what interrupted each sample (perf records, /proc deltas)
TESTS += tests/test_noise.sh
EXTRA_DIST += tests/test_noise.sh
EXTRA_DIST += tests/test_output_failures.sh
# fleet helper: fingerprint and fleet on the command line; a private
# three-node Slurm cluster with a real noisy neighbour on one node
TESTS += tests/test_fleet_cli.sh tests/test_slurm_fleet.sh
EXTRA_DIST += tests/test_fleet_cli.sh tests/test_slurm_fleet.sh
EXTRA_DIST += contrib/fleet.sbatch contrib/check_ticklab_fleet contrib/fleet-array.sbatch \
	contrib/fleet-at-scale.md
include tests/fuzz/local.mk
# Issue 21 item 2: the shift on a lattice clock (sim pair 2 ns apart over
# seeds, p-values against scipy) and one clock on one node compared in ticks
TESTS += tests/test_compare_lattice.sh
EXTRA_DIST += tests/test_compare_lattice.sh
# issue 21 item 4: a search whose reference found t_min in 1 of 3 repeats, replayed
TESTS += tests/test_tui_search.sh
EXTRA_DIST += tests/test_tui_search.sh tests/fixtures/search-tmin-1of3.json \
	tests/golden/search-1of3-80x24.txt tests/golden/search-1of3-200x50.txt
check_PROGRAMS += tests/test_search_status
tests_test_search_status_SOURCES = tests/test_search_status.c tests/tap.h
tests_test_search_status_LDADD = $(TL_LIBS)
TESTS += tests/test_search_status

check_PROGRAMS += tests/test_search_relaxed
tests_test_search_relaxed_SOURCES = tests/test_search_relaxed.c tests/tap.h
tests_test_search_relaxed_LDADD = $(TL_LIBS)
TESTS += tests/test_search_relaxed
# The memory levels a chase sees (issue 22): the step finder and the naming
# beside the reported sizes, on the chases recorded on the nodes the lab met.
check_PROGRAMS += tests/test_levels
tests_test_levels_SOURCES = tests/test_levels.c tests/tap.h
tests_test_levels_LDADD = $(TL_LIBS)
TESTS += tests/test_levels
EXTRA_DIST += tests/fixtures/hwloc-amd-zen3-kvm-guest.xml tests/fixtures/chase/amd-zen3-kvm-guest.txt \
	tests/fixtures/chase/amd-zen5-bhyve-guest.txt tests/fixtures/chase/amd-zen5-bhyve-guest-busy.txt
# Issue 22 in the TUI: NxLk sized by the measured levels, the long-run ask.
TESTS += tests/test_tui_levels.sh
EXTRA_DIST += tests/test_tui_levels.sh tests/golden/long-run-80x24.txt
