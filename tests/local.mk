# Shared test helpers (every module's tests use them).
EXTRA_DIST += tests/tap.h tests/tap.sh tests/summary.sh
# Independent numpy/scikit-learn re-analysis of a run's JSON.
TESTS += tests/test_reference_run.sh
EXTRA_DIST += tests/test_reference_run.sh tests/reference/check_run.py
# What the output writer replaces and when it fails (issue 11 items 2-3).
TESTS += tests/test_output_targets.sh tests/test_layers.sh
EXTRA_DIST += tests/test_output_targets.sh tests/test_layers.sh
TESTS += tests/test_output_failures.sh
EXTRA_DIST += tests/test_output_failures.sh
# fleet helper: fingerprint and fleet on the command line; a private
# three-node Slurm cluster with a real noisy neighbour on one node
TESTS += tests/test_fleet_cli.sh tests/test_slurm_fleet.sh
EXTRA_DIST += tests/test_fleet_cli.sh tests/test_slurm_fleet.sh
EXTRA_DIST += contrib/fleet.sbatch contrib/check_ticklab_fleet
include tests/fuzz/local.mk
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
