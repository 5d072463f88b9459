# Shared test helpers (every module's tests use them).
EXTRA_DIST += tests/tap.h tests/tap.sh tests/summary.sh
# Independent numpy/scikit-learn re-analysis of a run's JSON.
TESTS += tests/test_reference_run.sh
EXTRA_DIST += tests/test_reference_run.sh tests/reference/check_run.py
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
EXTRA_DIST += contrib/fleet.sbatch contrib/check_ticklab_fleet
include tests/fuzz/local.mk
