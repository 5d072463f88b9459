#!/bin/sh
# Hostile saved files and parameters (issue 11 items 5 and 8): values no
# timer reads are refused at read time naming the cell and key (report, and
# tui --replay, exit 2), a directory given as a file says so, sim refuses
# values a file could not hold and unknown keys, add:0 shows no CV, and
# huge values do not make huge columns. The TUI replays a file whose
# histogram has no layout without aborting.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to write the hostile files"

"$TL_BIN" run -b sim -k empty,add:10 -n 50 -q --seed 3 --json "$tmp/ok.json" >/dev/null 2>&1
ok $? "a run file to spoil"
"$PY" - "$tmp" <<'PYEOF'
import json, sys
d = sys.argv[1]
base = json.load(open(d + "/ok.json"))
def spoil(name, f):
    doc = json.loads(json.dumps(base))
    f(doc)
    json.dump(doc, open("%s/%s.json" % (d, name), "w"))
def wide(doc):
    c = doc["cells"][1]
    c["samples"] = c["samples_ns"] = [1e308, -1e308] + [1e308] * (c["n"] - 2)
def big(doc):
    for c in doc["cells"]:
        c["samples"] = c["samples_ns"] = [1e17] * c["n"]
def overhead(doc):
    doc["cells"][0]["overhead"] = 1e300
def edge(doc):  # inside the bounds, but 1e-3 ns bins at 1e15 ns have no layout
    for c in doc["cells"]:
        c["samples"] = c["samples_ns"] = [1e15 - (i % 3) for i in range(c["n"])]
        c["resolution_ns"] = 1e-3
spoil("wide", wide); spoil("big", big); spoil("overhead", overhead); spoil("edge", edge)
PYEOF

refused() { # refused FILE KEY DESCRIPTION: report and tui --replay exit 2 naming KEY
	for cmd in report "tui --replay"; do
		"$TL_BIN" $cmd "$tmp/$1" </dev/null >/dev/null 2>"$tmp/err"; st=$?
		[ $st -eq 2 ] && grep -q -- "$2" "$tmp/err"
		ok $? "$cmd: $3: status 2 naming '$2' (status $st: $(tail -n 1 "$tmp/err"))"
	done
}
refused wide.json "cells\[1\].samples: value 0 is 1e+308" "+-1e308 samples"
refused big.json "cells\[0\].samples: value 0 is 1e+17" "1e17 samples"
refused overhead.json "cells\[0\].overhead: is 1e+300" "an overhead of 1e300"
mkdir "$tmp/dir"
refused dir "is a directory" "a directory"
"$TL_BIN" compare "$tmp/dir" "$tmp/ok.json" >/dev/null 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q "is a directory" "$tmp/err"
ok $? "compare: a directory: status 2 saying so (status $st)"

"$TL_BIN" report "$tmp/edge.json" >"$tmp/edge.out" 2>&1; st=$?
ok $st "report of values at the 1e15 bound: status 0 (status $st)"
long=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$tmp/edge.out")
[ "$long" -le 130 ]; ok $? "and its lines stay narrow ($long characters)"

# sim: values beyond what a file may hold and unknown keys are bad input.
for id in sim:overhead=1e308 sim:ns_per_add=1e308 sim:sd=1e13 sim:bogus=1; do
	"$TL_BIN" run -b "$id" -k empty -n 10 -q >/dev/null 2>"$tmp/err"; st=$?
	key=${id#sim:}; key=${key%%=*}
	[ $st -eq 2 ] && grep -q "'$key'\|for $key" "$tmp/err"
	ok $? "run -b $id: status 2 naming $key (status $st)"
done

# add:0: the mean is within noise of 0, so no CV (as for empty).
"$TL_BIN" run -b sim -k add:0,add:100 -n 2000 >"$tmp/add0" 2>/dev/null
# CV counted from the end of the header (a why column may follow drift)
cv() { awk -v k="$1" '/ CV / { for (i = 1; i <= NF; i++) if ($i == "CV") c = NF - i }
	{ for (i = 1; i <= NF; i++) if ($i == k) print $(NF - c) }' "$tmp/add0"; }
[ "$(cv add:0)" = "-" ]; ok $? "add:0 shows no CV ($(cv add:0))"
cv add:100 | grep -q "%"; ok $? "add:100 still shows one ($(cv add:100))"

# The TUI on a terminal: the file at the bound replays (no histogram
# layout, no abort) and a hostile one exits 2.
if command -v tmux >/dev/null 2>&1; then
	# A fresh server (socket) per pane: restarting one under a name races.
	S=tlh$$-0
	trap 'for s in 1 2 3; do tmux -L "tlh$$-$s" kill-server >/dev/null 2>&1; done; rm -rf "$tmp"' EXIT
	npane=0
	tui() { # tui FILE: runs tui --replay FILE in a pane, status in $tmp/pane
		npane=$((npane + 1))
		S=tlh$$-$npane
		tmux -L "$S" -f /dev/null new-session -d -s t -x 120 -y 40 \
			"env TERM=xterm ASAN_OPTIONS=detect_leaks=0 '$TL_BIN' tui --replay '$1' 2>'$tmp/tui.err'; echo TL_EXIT=\$?; exec sleep 60"
	}
	pane_has() { # pane_has REGEX SECONDS
		i=0
		while [ $i -lt $(($2 * 20)) ]; do
			tmux -L "$S" capture-pane -p -t t >"$tmp/pane" 2>/dev/null
			grep -Eq "$1" "$tmp/pane" && return 0
			sleep 0.05; i=$((i + 1))
		done
		return 1
	}
	tui "$tmp/edge.json"
	pane_has "replay" 10; ok $? "tui --replay of the file at the bound opens"
	tmux -L "$S" send-keys -t t q
	pane_has "TL_EXIT=0" 10; ok $? "and quits with status 0 ($(grep TL_EXIT "$tmp/pane"))"
	tui "$tmp/wide.json"
	pane_has "TL_EXIT=" 10
	grep -q "TL_EXIT=2" "$tmp/pane" && grep -q "value 0 is 1e+308" "$tmp/tui.err"
	ok $? "tui --replay on a terminal: +-1e308 exits 2 naming the value ($(grep TL_EXIT "$tmp/pane"))"
	# Issue 11 item 6: a theme that is /dev/zero spun the loader forever,
	# deaf to TERM. Now it is refused, and TERM ends the TUI (143).
	mkdir "$tmp/t" && ln -s /dev/zero "$tmp/t/z.theme"
	npane=$((npane + 1))
	S=tlh$$-$npane
	tmux -L "$S" -f /dev/null new-session -d -s t -x 120 -y 40 \
		"env TERM=xterm ASAN_OPTIONS=detect_leaks=0 '$TL_BIN' tui --themes-dir '$tmp/t' --theme z 2>/dev/null; echo TL_EXIT=\$?; exec sleep 60"
	pane_has "not a regular file" 10; ok $? "--theme z (/dev/zero) is refused with a message"
	pid=$(pgrep -f "themes-dir $tmp/t" | while read -r p; do
		[ "$(cat /proc/$p/comm 2>/dev/null)" = ticklab ] && echo "$p"; done | head -n 1)
	[ -n "$pid" ] && kill -TERM "$pid"
	pane_has "TL_EXIT=" 10
	grep -q "TL_EXIT=143" "$tmp/pane"; ok $? "and TERM ends it with 143 ($(grep TL_EXIT "$tmp/pane"))"
else
	diag "no tmux: the terminal replays are skipped"
fi
done_testing
