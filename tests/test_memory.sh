#!/bin/sh
# Memory: run --json and report hold at most 40 B per
# sample per cell at their peak (peak RSS of a large run less that of a
# tiny one: a memory bound, not a speed one), a run that cannot fit in
# MemAvailable is refused before sampling (status 2, naming -n and the
# estimate), and running out of memory during the analysis says so and
# keeps the raw samples (status 1). Limits are taken from this node: the
# tiny run's own needs, MemAvailable.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read a child's peak RSS"

# peak ARGS...: the peak RSS (kB) of ticklab ARGS, or -1 when it failed.
peak() {
	"$PY" - "$TL_BIN" "$@" <<'PYEOF'
import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1); os.dup2(fd, 2)
    os.execv(sys.argv[1], sys.argv[1:])
_, st, ru = os.wait4(pid, 0)
print(ru.ru_maxrss if os.WIFEXITED(st) and os.WEXITSTATUS(st) == 0 else -1)
PYEOF
}

# The refusal comes before any allocation, so it holds under ASan too.
avail=$(awk '/^MemAvailable:/ { print $2 * 1024 }' /proc/meminfo)
big=$(awk -v a="$avail" 'BEGIN { printf "%.0f", a / 24 }')
"$TL_BIN" run -q -b sim -k add:10 -n "$big" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q -- "-n $big: this run would need about" "$tmp/err" &&
	grep -q "MemAvailable" "$tmp/err"
ok $? "a run beyond MemAvailable is refused: status 2 naming -n and the estimate (status $st: $(cat "$tmp/err"))"

if ldd "$TL_BIN" 2>/dev/null | grep -q libasan || nm "$TL_BIN" 2>/dev/null | grep -q __asan_init; then
	diag "an ASan build: its shadow memory and quarantine are not ticklab's, and it reserves"
	diag "terabytes of address space, so the RSS bound and the ulimit -v case are skipped"
	done_testing
	exit 0
fi

N=2000000
per_cell() { # per_cell TINY_KB BIG_KB CELLS: bytes per sample per cell
	awk -v a="$1" -v b="$2" -v n=$N -v c="$3" 'BEGIN { printf "%.1f", (b - a) * 1024 / (n * c) }'
}
under() { awk -v x="$1" 'BEGIN { exit !(x <= 40) }'; }
r0=$(peak run -q -b sim -k add:10 -n 1000 --json "$tmp/tiny.json")
r1=$(peak run -q -b sim -k add:10 -n $N --json "$tmp/big.json")
b=$(per_cell "$r0" "$r1" 2)
[ "$r0" -gt 0 ] && [ "$r1" -gt 0 ] && under "$b"
ok $? "run --json, 2 cells x $N samples: $b B per sample per cell (<= 40; peak $r1 kB, tiny run $r0 kB)"
p0=$(peak report "$tmp/tiny.json")
p1=$(peak report "$tmp/big.json")
b=$(per_cell "$p0" "$p1" 2)
[ "$p0" -gt 0 ] && [ "$p1" -gt 0 ] && under "$b"
ok $? "report of it: $b B per sample per cell (<= 40; peak $p1 kB, tiny file $p0 kB)"

# Out of memory during the analysis: an address-space limit that holds the
# tiny run, the samples and the baselines' median, but not the analysis.
fits() { (ulimit -v "$1" && "$TL_BIN" run -q -b sim -k add:10 -n 1000 >/dev/null 2>&1); }
lo=8192 hi=1048576
if ! fits $hi; then diag "a tiny run does not run under ulimit -v $hi kB: the limit case is skipped"; done_testing; exit; fi
while [ $((hi - lo)) -gt 2048 ]; do
	mid=$(((lo + hi) / 2))
	if fits $mid; then hi=$mid; else lo=$mid; fi
done
# One cell (-k empty is its own baseline): sampling holds 24 B a sample;
# the analysis frees the 8 B of the ADD counts and needs about 25 B more
# (filtered copy, keep flags, scores), so the limit of the samples and
# 24 MB holds the sampling (it needed 8-16 MB beyond them here) and not
# the analysis (which failed up to 56 MB beyond them at this M).
M=6000000
limit=$((hi + M * 24 / 1024 + 24576))
(ulimit -v $limit && exec "$TL_BIN" run -q -b sim -k empty -n $M --json "$tmp/oom.json") \
	>/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 1 ] && grep -q "out of memory during analysis; raw samples kept in $tmp/oom.json" "$tmp/err"
ok $? "ulimit -v $limit kB (the tiny run needs $hi): status 1, the message names the kept file (status $st: $(cat "$tmp/err"))"
kept=$(grep -o "\"n\":$M,\"n_planned\":$M" "$tmp/oom.json" 2>/dev/null | wc -l)
grep -q '"analysed":false' "$tmp/oom.json" 2>/dev/null && [ "$kept" -eq 1 ]
ok $? "and the file holds the cell's $M raw samples, unanalysed ($kept cell)"
done_testing
