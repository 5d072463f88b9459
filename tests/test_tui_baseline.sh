#!/bin/sh
# In tmux: ticklab tui --baseline FILE draws the baseline's
# CDF dashed beside each live series and says each cell's verdict against it,
# from the machinery of ticklab compare. Two sim timers replayed against a
# baseline of the same run; the second's samples are shifted by +20 ns in the
# new file (analytic answer: no shift, and different by 20 ns). The first
# timer reads a ~10 ns level on a 10 ns clock (sd 2, 500 samples): its
# interval covers 0 but is far wider than the 1 % band (0.1 ns), so it is
# "unknown, need ~N more samples" (Hodges-Lehmann's point interval
# [0, 0] on the lattice said "same" with a confidence the data lack); it
# may say "same" but never "different". Golden screens at
# 80x24 and 200x50 (CPU masked); a bad baseline is bad input (status 2).
# GENERATE=1 rewrites tests/golden/baseline-*.txt and docs/screens/baseline-*.txt.
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"
[ -n "$PY" ] || skip_all "python3 is needed to read the JSON"

view() { sed -E 's/CPU [0-9]+/CPU N/' "$W/screen"; }
GOLDEN_DOCS=1

BK='sim:sd=2,seed=1,sim:sd=5,quantum=1,seed=2'
"$BIN" run --backend "$BK" --kernel add:100 -n 500 --seed 1 --json "$W/base.json" -q &&
	"$BIN" run --backend "$BK" --kernel add:100 -n 500 --seed 2 --json "$W/new0.json" -q
ok $? "two sim runs"
"$PY" - "$W/new0.json" "$W/new.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cells"]:
    if c["backend"].startswith("sim:sd=5") and c["kernel"] == "add:100":
        c["samples"] = [x + 20 for x in c["samples"]]
        c["samples_ns"] = [x + 20 for x in c["samples_ns"]]
json.dump(d, open(sys.argv[2], "w"))
PY
ok $? "the second timer's samples shifted by +20 ns"
# The TUI seeds its comparison with the replayed run's seed (2), as run
# --baseline does: the same rows as ticklab compare --seed 2.
"$BIN" compare --seed 2 "$W/base.json" "$W/new.json" --json "$W/compare.json" >"$W/compare.txt"
want=$("$PY" - "$W/compare.txt" <<'PY'
import re, sys
for line in open(sys.argv[1]):
    m = re.match(r"sim:sd=5,quantum=1,seed=2 .* add:100 +(\S+) ns \[(\S+), (\S+)\] ns +(\S+) .* different$", line)
    if m:
        sh, lo, hi, by = m.groups()
        # +20 ns put in, against two draws of an sd 5 timer: near 20
        if float(lo) <= 20 + 2 and float(hi) >= 20 - 2:
            text = "base: different %s ns [%s, %s]" % (sh, lo, hi)
            print(re.sub(r"([][+.])", r"\\\1", text))  # as an ERE
PY
)
"$PY" - "$W/compare.json" <<'PY' && [ -n "$want" ]
import json, sys
r = [c for c in json.load(open(sys.argv[1]))["cells"] if c["backend"] == "sim:sd=2,seed=1"][0]
sys.exit(not (r["verdict"] != "different" and r["ci_lo_ns"] <= 0 <= r["ci_hi_ns"]))
PY
ok $? "ticklab compare: not different with 0 inside, and different by about 20 ns ($want)"

for size in "80 24" "200 50"; do
	set -- $size
	start "$1" "$2" "LANG=$UTF8 TERM=xterm-256color" tui --replay new.json --baseline base.json
	wait_for 'vs base.json' 20; ok $? "$1x$2: the title names the baseline"
	wait_for 'compared with the baseline: 2 cells, 1 different' 120
	ok $? "$1x$2: the comparison ends, one cell different"
	wait_for 'base: (same -?[0-9.]+ ns|unknown, need ~[0-9]+ more)' 5
	ok $? "$1x$2: the unshifted timer is same or unknown (never different)"
	wait_for "$want" 5; ok $? "$1x$2: the shifted one differs as ticklab compare says"
	golden "baseline-$1x$2.txt"
done

for bad in "$W/missing.json" "$W" "$W/compare.txt"; do
	"$BIN" tui --baseline "$bad" </dev/null >/dev/null 2>"$W/err"
	st=$?
	[ $st -eq 2 ] && grep -q "$(basename "$bad")" "$W/err"
	ok $? "a bad baseline ($(basename "$bad")) is refused with status 2 (got $st), naming it"
done

# One writer. The TUI's export of a replayed run with its
# baseline is the file `run --json --baseline` wrote, byte for byte: the
# same streamed document, the baseline's verdicts included.
# Both name the baseline as the pane does (cwd $W): the file records it.
ABS=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
(cd "$W" && "$ABS" run --backend "$BK" --kernel add:100 -n 500 --seed 2 --json cli.json \
	--baseline base.json -q >/dev/null)
grep -q '"cells_compared":2' "$W/cli.json"; ok $? "run --baseline writes the verdicts"
rm -f "$W"/ticklab-run-*.json
start 120 35 "LANG=$UTF8 TERM=xterm-256color" tui --replay cli.json --baseline base.json
wait_for 'vs base.json' 20; ok $? "the replay of run --baseline's file opens"
keys e
wait_for 'exported to .*\.json' 20; ok $? "e exports the replayed run"
f=$(ls "$W"/ticklab-run-*.json 2>/dev/null | head -1)
[ -n "$f" ] && cmp "$f" "$W/cli.json" >"$W/cmp" 2>&1
ok $? "the export is byte-equal to run --json --baseline's file ($(cat "$W/cmp"))"

done_testing
