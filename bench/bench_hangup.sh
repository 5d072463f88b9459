#!/bin/sh
# Seconds from a dropped SSH connection to ticklab's exit, per phase, and
# what it kept: tests/hangup_ssh.py (a real sshd on loopback, `ssh -tt`,
# the client killed in the phase), first as the machine is, then beside
# TL_BENCH_HANGUP_LOAD busy loops (the load a shared node has), each
# TL_BENCH_HANGUP_REPEAT times. The loops are this script's children,
# ended by their PIDs. Numbers only: nothing passes or fails here.
#   TL_BENCH_HANGUP_N       samples per cell in the analysis and export
#                           phases (1000000: 4 M in the run)
#   TL_BENCH_HANGUP_PHASES  which phases (rawsave,analysis,export)
#   TL_BENCH_HANGUP_LOAD    busy loops beside it (6; 0: only as it is)
#   TL_BENCH_HANGUP_REPEAT  tries of each (2)
BIN=${TL_BIN:-./ticklab}
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
SRC=${TL_TOP_SRCDIR:-$(dirname "$0")/..}
PY=${TL_PYTHON3:-python3}
N=${TL_BENCH_HANGUP_N:-1000000}
PHASES=${TL_BENCH_HANGUP_PHASES:-rawsave,analysis,export}
LOAD=${TL_BENCH_HANGUP_LOAD:-6}
REPEAT=${TL_BENCH_HANGUP_REPEAT:-2}
SSHD=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$SSHD" ] && command -v ssh >/dev/null || { echo "hang-up: no sshd or ssh here"; exit 0; }
T=$(mktemp -d) || exit 1
pids=
made_run=
stop_load() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	pids=
}
trap 'stop_load; [ -n "$made_run" ] && rmdir /run/sshd 2>/dev/null; rm -rf "$T"' EXIT
if [ "$(id -u)" = 0 ] && [ ! -d /run/sshd ]; then
	mkdir -m 0755 /run/sshd && made_run=1 || { echo "hang-up: cannot create /run/sshd"; exit 0; }
fi

# tries LABEL: REPEAT runs of the driver, its per-phase lines with the load
tries() {
	i=0
	while [ "$i" -lt "$REPEAT" ]; do
		i=$((i + 1))
		rm -rf "$T/run"
		mkdir "$T/run"
		la=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
		TL_HANGUP_N=$N TL_HANGUP_PHASES=$PHASES PYTHONPATH="$SRC/tests" \
			"$PY" "$SRC/tests/hangup_ssh.py" "$BIN" "$T/run" >"$T/out" 2>&1
		la2=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
		grep '^# \(run\|tui\) ' "$T/out" | sed "s/^# /$1 (load $la..$la2) /"
		grep '^not ok' "$T/out" | sed 's/^/  /'
	done
}

echo "samples per cell $N; seconds from the drop to the exit, status, what was kept"
tries "as it is"
[ "$LOAD" -gt 0 ] 2>/dev/null || exit 0
j=0
while [ "$j" -lt "$LOAD" ]; do
	j=$((j + 1))
	sh -c 'while :; do :; done' &
	pids="$pids $!"
done
sleep 20 # the load average catches up
tries "+$LOAD loops"
stop_load
