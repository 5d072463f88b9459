#!/bin/sh
# `ticklab search --budget B` is the whole search's wall time: on this node,
# with a real timer and a flush that costs real time, the command ends
# within B, plus the stated margin (5 % of B and 1 s: the evaluation
# running when the budget ends finishes its chunk), plus what the command
# costs around the search here (started, the host read, the outputs
# written: measured on this node with a search that measures almost
# nothing). Judged over seeds as a distribution, on a busy machine too:
# most runs within, none far past it.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
bin=${TL_BIN:-./ticklab}

"$bin" search --help >/dev/null 2>&1 || skip_all "ticklab does not dispatch 'search' yet"
b=clock-gettime
"$bin" search -b "$b" -f 0 --max-adds 1 --metric tmin -q 2>/dev/null ||
	skip_all "no $b on this node"
tmp=${TMPDIR:-/tmp}/tl-budget.$$
mkdir -p "$tmp" || exit 1
trap 'rm -rf "$tmp"' EXIT

now() { "$PY" -c 'import time; print(time.monotonic())'; }
secs() { # secs COMMAND...: the wall seconds of one run
	t0=$(now)
	"$@" >/dev/null 2>&1
	t1=$(now)
	"$PY" -c "print($t1 - $t0)"
}

# around the search: the same command with a search that ends at once
fixed=$(for i in 1 2 3; do secs "$bin" search -b "$b" -f 0 --max-adds 1 --metric tmin \
	--repeats 1 -q --json "$tmp/f.json"; done | sort -n | sed -n 2p)
diag "the command around the search costs $fixed s here (median of 3)"

budget=3
within=0 runs=0 worst=0
for seed in 1 2 3 4 5; do
	w=$(secs "$bin" search -b "$b" -f 0,8MiB --budget $budget --seed $seed -q --json "$tmp/s.json")
	lim=$("$PY" -c "print($budget * 1.05 + 1 + $fixed)")
	in=$("$PY" -c "print(1 if $w <= $lim else 0)")
	diag "seed $seed: $w s against --budget $budget (allowed $lim s)"
	within=$((within + in))
	runs=$((runs + 1))
	worst=$("$PY" -c "print(max($worst, $w - $lim))")
done
[ "$within" -ge 4 ]; ok $? "--budget $budget: $within of $runs runs end within the budget and its margin"
"$PY" -c "import sys; sys.exit(0 if $worst <= $budget else 1)"
ok $? "--budget $budget: no run passes it by more than another budget (worst $worst s past)"
"$PY" - "$tmp/s.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["params"]["budget_seconds"] == 3 else 1)
EOF
ok $? "the file records the budget given"

done_testing
