# Shared test helpers (every module's tests use them).
EXTRA_DIST += tests/tap.h tests/tap.sh tests/summary.sh
