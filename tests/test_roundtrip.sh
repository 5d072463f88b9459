#!/bin/sh
# Every file the lab writes reads back. On the node the test runs on, from
# its real timers (barrier-tsc, papi-real-nsec, clock-gettime: each that
# opens here; one that does not is named and left out) and from sim, it
# writes every kind of file: run (jitter and ladder cells, CSV and
# Markdown beside it), search, detect, fingerprint (small and --raw, and
# --compact of the raw one), fleet --json and --partial, and the TUI's
# exports (run JSON and CSV, search JSON; in tmux). Each is read by every
# reader that takes it: report (and report --json), plot of each kind that
# applies, compare, run --baseline, tui --replay (in tmux, and without a
# terminal), fleet. A reader must say status 0 (fleet and run --baseline:
# 0 or 1, which are verdicts) and the numbers it reads back must be the
# numbers written: report --json against the file, fleet of a partial
# against fleet of its fingerprints, a file compared with itself shifting
# by 0. The expectations are the files themselves, never a stored answer.
# A table of writer x reader (status, numbers) is printed at the end.
: "${TL_TOP_SRCDIR:=.}"
if command -v tmux >/dev/null 2>&1; then
	. "$TL_TOP_SRCDIR/tests/tui_harness.sh"
	HAVE_TMUX=1
	D=$W
else
	. "$TL_TOP_SRCDIR/tests/tap.sh"
	HAVE_TMUX=
fi
: "${TL_TOP_BUILDDIR:=.}" "${TL_BIN:=./ticklab}"
[ -n "$PY" ] || skip_all "python3 is needed to compare the numbers"
if [ -z "$HAVE_TMUX" ]; then
	D=$(mktemp -d) || exit 1
	trap 'rm -rf "$D"' EXIT
fi
T=$(cd "$(dirname "$TL_BIN")" && pwd)/$(basename "$TL_BIN")
BIN=$T
SRC=$TL_TOP_SRCDIR
# a build configured --without-cairo draws no figures, and says so
has_cairo() { [ "$CAIRO" = yes ]; }

# The real timers that open here.
REAL=
for b in barrier-tsc papi-real-nsec clock-gettime; do
	if "$T" run -b "$b" -k empty -n 10 -q >/dev/null 2>"$D/probe"; then
		REAL=${REAL:+$REAL,}$b
	else
		diag "$b left out: $(head -n 1 "$D/probe")"
	fi
done
diag "real timers on this node: ${REAL:-none}"
ALL=${REAL:+$REAL,}sim

# ---- the writers ------------------------------------------------------
printf '%s\n' "writer reader status numbers" >"$D/table"
row() { printf '%s %s %s %s\n' "$1" "$2" "$3" "$4" >>"$D/table"; }
write() { # write NAME CMD...: runs a writer, status 0 expected
	name=$1; shift
	"$@" >"$D/w.out" 2>"$D/w.err"; st=$?
	ok $st "writes $name (status $st)"
	[ $st -eq 0 ] || sed 's/^/#   /' "$D/w.err" | head -n 5
	row "$name" "(write)" "$st" -
}
KERN=empty,add:100,div:50,jitter:100,20,0.5,load:4KiB..64KiB
write run-real "$T" run -b "$ALL" -f 0 -k "$KERN" -n 400 --seed 3 -q \
	--json "$D/run-real.json" --csv "$D/run-real.csv" --markdown "$D/run-real.md"
write run-sim "$T" run -b sim -f 0,4KiB -k "$KERN" -n 400 --seed 3 -q --json "$D/run-sim.json"
if [ -n "$REAL" ]; then
	# eps 0.001 is below what a real timer's CV reaches in 1000 samples:
	# the file then holds t_min at a relaxed eps, interpolated ADDs
	write search-real "$T" search -b "$REAL" -f 0 -n 1000 --budget 3 --repeats 2 \
		--eps 0.001 -q --json "$D/search-real.json"
fi
write search-sim "$T" search -b sim,sim:sd=20 -f 0 -n 1000 --repeats 2 -q \
	--json "$D/search-sim.json"
write detect "$T" detect -b "$ALL" -n 1000 --max-d 200 --json "$D/detect.json"
write fp-small "$T" fingerprint --quick -q --json "$D/fp-small.json"
write fp-raw "$T" fingerprint --quick --raw -q --json "$D/fp-raw.json"
write fp-compact "$T" fingerprint --compact "$D/fp-raw.json" --json "$D/fp-compact.json"
mkdir "$D/fleet"
"$PY" - "$SRC/tests/fixtures/fleet" "$D/fleet" <<'PY'
import glob, lzma, os, sys
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*.json.xz")))[:3]:
    open(os.path.join(sys.argv[2], os.path.basename(f)[:-3]), "wb").write(lzma.open(f).read())
PY
cp "$D/fp-small.json" "$D/fleet/here.json"
# fleet's status 1 is a verdict (a node stands out), not a failure
"$T" fleet -q "$D/fleet" --json "$D/fleet.json" >/dev/null 2>"$D/w.err"; st=$?
[ $st -le 1 ] && [ -s "$D/fleet.json" ]; ok $? "writes fleet --json (status $st)"
row fleet-json "(write)" "$st" -
write fleet-partial "$T" fleet --partial "$D/fleet-partial.json" "$D/fleet"

# ---- the TUI's exports, in tmux ---------------------------------------
if [ -n "$HAVE_TMUX" ]; then
	start 100 30 "TERM=xterm-256color" tui -b "$ALL" -f 0 -k empty,add:100 -n 400 --start
	wait_for 'done in' 60; ok $? "tui: the run finishes"
	keys e
	wait_for 'exported to .*\.json' 10; ok $? "tui: e exports the run"
	keys E
	wait_for 'exported to .*\.csv' 10; ok $? "tui: E exports its CSV"
	keys Escape
	wait_for 'Backends' 5
	keys o C-u 'n=1000 repeats=2 budget=3 eps=0.001' Enter
	wait_for 'the next search \(s\)' 5
	keys s
	wait_for 'search done' 90; ok $? "tui: the search runs to the end"
	keys e
	wait_for 'exported to .*search.*\.json' 10; ok $? "tui: e exports the search"
	keys q
	wait_for 'TL_EXIT=0' 10; ok $? "tui: quits with status 0"
	f=$(ls "$W"/ticklab-run-*.json 2>/dev/null | head -n 1)
	[ -n "$f" ] && mv "$f" "$D/tui-run.json"
	f=$(ls "$W"/ticklab-run-*.csv 2>/dev/null | head -n 1)
	[ -n "$f" ] && mv "$f" "$D/tui-run.csv"
	f=$(ls "$W"/ticklab-search-*.json 2>/dev/null | head -n 1)
	[ -n "$f" ] && mv "$f" "$D/tui-search.json"
	for k in tui-run tui-search; do
		[ -s "$D/$k.json" ]; ok $? "the TUI wrote $k.json"
		row "$k" "(write)" "$?" -
	done
else
	diag "tmux is not installed: the TUI's exports and its replay are not tried"
fi

# ---- the readers ------------------------------------------------------
CAIRO=yes
"$T" plot "$D/run-sim.json" -o "$D/probe.svg" >/dev/null 2>"$D/probe"
grep -q "without cairo" "$D/probe" && { CAIRO=no; diag "built without cairo: no plot is tried"; }
# same WRITTEN READBACK: every number of WRITTEN found at the same place in
# READBACK is equal (to 1e-12 relative: JSON reals are printed exactly);
# prints "N numbers, M differ" and the first few that do.
same() {
	"$PY" - "$1" "$2" <<'PY'
import json, math, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
n, bad = 0, []
def walk(x, y, at):
    global n
    if isinstance(x, dict) and isinstance(y, dict):
        for k in x:
            if k in y:
                walk(x[k], y[k], at + "." + k)
    elif isinstance(x, list) and isinstance(y, list):
        if len(x) != len(y):
            bad.append((at, "%d entries" % len(x), "%d entries" % len(y)))
        for i, (u, v) in enumerate(zip(x, y)):
            walk(u, v, "%s[%d]" % (at, i))
    elif isinstance(x, bool) or isinstance(y, bool) or x is None or y is None:
        if x != y:
            bad.append((at, x, y))
    elif isinstance(x, (int, float)) and isinstance(y, (int, float)):
        n += 1
        if not (x == y or abs(x - y) <= 1e-12 * max(abs(x), abs(y))):
            bad.append((at, x, y))
walk(a, b, "")
print("%d numbers, %d differ" % (n, len(bad)))
for at, x, y in bad[:5]:
    print("#   %s: written %s, read back %s" % (at, x, y))
sys.exit(1 if bad or n == 0 else 0)
PY
}
# read WRITER READER WANT CMD...: a reader over a written file; WANT is
# the statuses that mean read ("0" or "0|1")
read_st() {
	w=$1 r=$2 want=$3; shift 3
	"$@" </dev/null >"$D/r.out" 2>"$D/r.err"; st=$?
	echo "$st" | grep -Eqx "$want"; res=$?
	ok $res "$r reads $w (status $st)"
	[ $res -eq 0 ] || sed 's/^/#   /' "$D/r.err" | head -n 3
	return $st
}
# numbers WRITER READER WRITTEN BACK: read_st then same, in one table row
numbers() {
	w=$1 r=$2 a=$3 b=$4
	if [ "$st" -le 1 ] && [ -s "$b" ]; then
		same "$a" "$b" >"$D/same"; m=$?
		ok $m "$r: the numbers of $w read back as written ($(head -n 1 "$D/same"))"
		sed -n '2,$p' "$D/same"
		row "$w" "$r" "$st" "$([ $m -eq 0 ] && echo equal || echo DIFFER)"
	else
		row "$w" "$r" "$st" -
	fi
}
plain() { row "$1" "$2" "$st" -; }
# the TUI's replay in tmux: the file opens and q quits with status 0
replay_tty() {
	[ -n "$HAVE_TMUX" ] || return 0
	: >"$W/stderr"
	start 100 30 "TERM=xterm-256color" tui --replay "'$2'"
	wait_for 'replay|TL_EXIT=' 20
	if grep -q 'TL_EXIT=' "$W/screen"; then
		ok 1 "tui --replay opens $1 ($(head -n 1 "$W/stderr"))"
		row "$1" tui-replay-tty "$(sed -n 's/.*TL_EXIT=\([0-9]*\).*/\1/p' "$W/screen")" -
		return
	fi
	keys q
	wait_for 'TL_EXIT=0' 10; st=$?
	ok $st "tui --replay opens $1 and quits with status 0"
	row "$1" tui-replay-tty "$([ $st -eq 0 ] && echo 0 || echo "?")" -
}
plots() { # plots WRITER FILE KIND...
	w=$1 f=$2; shift 2
	has_cairo || return 0
	for k in "$@"; do
		read_st "$w" "plot-$k" 0 "$T" plot "$f" --kind "$k" -o "$D/fig-$k.svg"
		[ $st -eq 0 ] && { head -c 300 "$D/fig-$k.svg" | grep -q '<svg'; ok $? "plot --kind $k of $w is an SVG"; }
		plain "$w" "plot-$k"
	done
}

run_readers() { # run_readers WRITER FILE SELECTION...: every reader of a run
	w=$1 f=$2; shift 2
	read_st "$w" report 0 "$T" report "$f"; plain "$w" report
	read_st "$w" report-json 0 "$T" report "$f" --json "$D/back.json"
	numbers "$w" report-json "$f" "$D/back.json"
	read_st "$w" compare-self 0 "$T" compare "$f" "$f" --json "$D/cmp.json"
	if [ "$st" -eq 0 ]; then
		"$PY" - "$D/cmp.json" >"$D/same" <<'PY'
import json, sys
# the same samples on both sides: no shift, an interval about 0, and never
# "different" ("unknown" is right where n is too small to say "same")
rows = json.load(open(sys.argv[1]))["cells"]
bad = [r for r in rows if r["shift_ns"] != 0 or r["median_diff_ns"] != 0 or
       not r["ci_lo_ns"] <= 0 <= r["ci_hi_ns"] or r["verdict"] == "different"]
print("%d cells, %d not a shift of 0 within its interval" % (len(rows), len(bad)))
sys.exit(1 if bad or not rows else 0)
PY
		m=$?; ok $m "compare $w with itself: $(cat "$D/same")"
		row "$w" compare-self "$st" "$([ $m -eq 0 ] && echo equal || echo DIFFER)"
	else
		plain "$w" compare-self
	fi
	# a new run of the same selection against the file: every cell matched
	read_st "$w" run-baseline "0|1" "$T" run "$@" -n 400 --seed 3 -q --baseline "$f" \
		--json "$D/bl.json"
	if [ "$st" -le 1 ]; then
		"$PY" - "$f" "$D/bl.json" >"$D/same" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
got = b["baseline"]["cells_compared"]
print("%d cells written, %d compared with the file" % (len(a["cells"]), got))
sys.exit(0 if got == len(a["cells"]) else 1)
PY
		m=$?; ok $m "run --baseline $w: $(cat "$D/same")"
		row "$w" run-baseline "$st" "$([ $m -eq 0 ] && echo matched || echo MISSING)"
	else
		plain "$w" run-baseline
	fi
	plots "$w" "$f" hist cdf
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if any(c["kernel"].startswith("load:") for c in d["cells"]) else 1)' "$f" &&
		plots "$w" "$f" ladder
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if any("noise" in c for c in d["cells"]) else 1)' "$f" &&
		plots "$w" "$f" noise
	read_st "$w" tui-replay-notty 0 "$T" tui --replay "$f"; plain "$w" tui-replay-notty
	replay_tty "$w" "$f"
}

search_readers() { # search_readers WRITER FILE
	w=$1 f=$2
	read_st "$w" report 0 "$T" report "$f"; plain "$w" report
	read_st "$w" report-json 0 "$T" report "$f" --json "$D/back.json"
	numbers "$w" report-json "$f" "$D/back.json"
	plots "$w" "$f" search cv overlap
	read_st "$w" tui-replay-notty 0 "$T" tui --replay "$f"; plain "$w" tui-replay-notty
	replay_tty "$w" "$f"
}

fp_readers() { # fp_readers WRITER FILE [SUMMARY]: SUMMARY, the file whose
	# "summary" holds the figures (a raw fingerprint has none: its compact
	# form, made from it, does)
	w=$1 f=$2 sf=${3:-$2}
	read_st "$w" report 0 "$T" report "$f"; plain "$w" report
	read_st "$w" fleet "0|1" "$T" fleet "$f" --json "$D/back.json"
	if [ "$st" -le 1 ]; then
		# the node's figures and intervals in fleet's answer are the file's
		"$PY" - "$sf" "$D/back.json" "$D/fig-w.json" "$D/fig-r.json" <<'PY'
import json, sys
fp, fl = (json.load(open(p)) for p in sys.argv[1:3])
s = fp.get("summary", {})
node = fl["nodes"][0] if len(fl.get("nodes", [])) == 1 else {}
for path, d in ((sys.argv[3], s), (sys.argv[4], node)):
    json.dump({k: d.get(k) for k in ("figures", "intervals")}, open(path, "w"))
PY
		same "$D/fig-w.json" "$D/fig-r.json" >"$D/same"
		m=$?; ok $m "fleet: the figures of $w read back as written ($(head -n 1 "$D/same"))"
		row "$w" fleet "$st" "$([ $m -eq 0 ] && echo equal || echo DIFFER)"
	else
		plain "$w" fleet
	fi
}

# csv_same WRITER JSON CSV: no ticklab reader takes a CSV, but its samples
# are the JSON's, value for value (raw and ns), cell by cell
csv_same() {
	"$PY" - "$2" "$3" >"$D/same" <<'PY'
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
n = bad = 0
for c in d["cells"]:
    mine = [r for r in rows if (r["backend"], int(r["flush_bytes"]), r["kernel"]) ==
            (c["backend"], c["flush_bytes"], c["kernel"])]
    if len(mine) != len(c["samples"]):
        bad += 1
        continue
    for r, raw, ns in zip(mine, c["samples"], c["samples_ns"]):
        n += 2
        bad += float(r["raw"]) != raw or float(r["ns"]) != ns
print("%d numbers, %d differ" % (n, bad))
sys.exit(1 if bad or n == 0 else 0)
PY
	m=$?; ok $m "the CSV of $1 holds the JSON's samples ($(cat "$D/same"))"
	row "$1-csv" python-csv - "$([ $m -eq 0 ] && echo equal || echo DIFFER)"
}
csv_same run-real "$D/run-real.json" "$D/run-real.csv"
run_readers run-real "$D/run-real.json" -b "$ALL" -f 0 -k "$KERN"
run_readers run-sim "$D/run-sim.json" -b sim -f 0,4KiB -k "$KERN"
if [ -n "$REAL" ]; then
	"$PY" - "$D/search-real.json" >"$D/relaxed" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print("%d of %d cells hold t_min at a relaxed eps" %
      (sum(c.get("t_min_relaxed") is not None for c in r), len(r)))
PY
	diag "search-real: $(cat "$D/relaxed")"
	search_readers search-real "$D/search-real.json"
fi
search_readers search-sim "$D/search-sim.json"
# A search made on the Intel guest whose t_min at a relaxed eps sits
# between kernels (adds 252.187...): read here whatever timers this node
# has, so a node without real timers still reads one.
cp "$SRC/tests/fuzz/corpus/files/search-relaxed-real-adds" "$D/search-relaxed.json"
search_readers search-relaxed "$D/search-relaxed.json"
read_st detect report 0 "$T" report "$D/detect.json"; plain detect report
read_st detect report-json 0 "$T" report "$D/detect.json" --json "$D/back.json"
numbers detect report-json "$D/detect.json" "$D/back.json"
fp_readers fp-small "$D/fp-small.json"
fp_readers fp-raw "$D/fp-raw.json" "$D/fp-compact.json"
fp_readers fp-compact "$D/fp-compact.json"
# fleet of the partial: the same answer as fleet of the fingerprints
read_st fleet-partial fleet "0|1" "$T" fleet "$D/fleet-partial.json" --json "$D/back.json"
numbers fleet-partial fleet "$D/fleet.json" "$D/back.json"
if [ -n "$HAVE_TMUX" ]; then
	[ -s "$D/tui-run.json" ] && run_readers tui-run "$D/tui-run.json" -b "$ALL" -f 0 -k empty,add:100
	[ -s "$D/tui-run.csv" ] && csv_same tui-run "$D/tui-run.json" "$D/tui-run.csv"
	[ -s "$D/tui-search.json" ] && search_readers tui-search "$D/tui-search.json"
fi

column -t "$D/table" 2>/dev/null | sed 's/^/# /' || sed 's/^/# /' "$D/table"
done_testing
