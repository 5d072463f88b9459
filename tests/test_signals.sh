#!/bin/sh
# INT, TERM and HUP at every phase of run and search keep what was measured
# and exit 128 + the signal; the matrix is tests/signals.py.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to drive the signals"
[ -r /proc/self/status ] || skip_all "no /proc: the phases cannot be observed"
exec "$PY" "$TL_TOP_SRCDIR/tests/signals.py" "$TL_BIN" "$tmp"
