#!/bin/sh
# Prints "N passed, N failed" from automake's test-suite.log (TAP results counted one by one).
log=${1:-test-suite.log}
if [ ! -f "$log" ]; then echo "0 passed, 1 failed"; echo "no $log: the test suite did not run" >&2; exit 1; fi
pass=$(sed -n 's/^# PASS: *\([0-9]*\)/\1/p' "$log" | head -n1)
xfail=$(sed -n 's/^# XFAIL: *\([0-9]*\)/\1/p' "$log" | head -n1)
fail=$(sed -n 's/^# FAIL: *\([0-9]*\)/\1/p' "$log" | head -n1)
xpass=$(sed -n 's/^# XPASS: *\([0-9]*\)/\1/p' "$log" | head -n1)
err=$(sed -n 's/^# ERROR: *\([0-9]*\)/\1/p' "$log" | head -n1)
skip=$(sed -n 's/^# SKIP: *\([0-9]*\)/\1/p' "$log" | head -n1)
p=$(( ${pass:-0} + ${xfail:-0} )); f=$(( ${fail:-0} + ${xpass:-0} + ${err:-0} ))
echo "$p passed, $f failed, ${skip:-0} skipped"
