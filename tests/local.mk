# Shared test helpers (every module's tests use them).
EXTRA_DIST += tests/tap.h tests/tap.sh tests/summary.sh
# Independent numpy/scikit-learn re-analysis of a run's JSON.
TESTS += tests/test_reference_run.sh
EXTRA_DIST += tests/test_reference_run.sh tests/reference/check_run.py
# What the output writer replaces and when it fails (issue 11 items 2-3).
TESTS += tests/test_output_targets.sh
EXTRA_DIST += tests/test_output_targets.sh
TESTS += tests/test_output_failures.sh
EXTRA_DIST += tests/test_output_failures.sh
include tests/fuzz/local.mk
