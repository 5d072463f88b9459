#!/bin/sh
# The small things that make a demo stumble, driven in tmux: the
# ETA while paused, the / filter (incremental, matching what is shown), the
# drift line in its column, the +N> marker and negative times explained.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"

# only_sim: on Setup, unselect the preselected backends (the list's first
# rows) and select sim alone.
only_sim() {
	for id in $(sed -n '3,/Flush sizes/p' "$W/screen" | grep -o '\[x\] [a-z0-9-]*' | awk '{print $2}'); do
		keys / C-u "^$id " Enter
		wait_for "\[x\] $id " 5 && keys Space && wait_for "\[ \] $id " 5
	done
	keys / C-u '^sim ' Enter
	wait_for 'shows 1 of' 5 && keys Space && wait_for '\[x\] sim ' 5
	keys / C-u Enter
	wait_for 'filter cleared' 5
}
eta() { sed -n 's/.*ETA \([0-9][0-9]*\)s.*/\1/p' "$W/screen" | head -1; }

# ---- the filter narrows as you type and matches only what a row shows ----
start 80 24 "LANG=$UTF8 TERM=xterm-256color" -n 3000
wait_for 'Flush sizes' 20; ok $? "setup screen"
keys / s i m
wait_for 'Backends .* /sim/ [0-9]+ of [0-9]+' 5; ok $? "the list narrows while /sim is typed, before Enter"
wait_for '\[[x ]\] sim ' 2 && lacks '\[[x ]\] barrier-tsc '; ok $? "it shows sim and no barrier-tsc yet"
keys Escape
wait_gone '/sim/' 5 && wait_for '\[[x ]\] barrier-tsc ' 2; ok $? "Esc gives back the list as it was"
# sim's row at 80 columns ends before the words "ns_per_add": they are in
# its description, off the screen, and a filter must not find them there
keys / per_add Enter
wait_for 'Backends: /per_add/ shows 0 of' 5; ok $? "/per_add matches nothing shown at 80 columns"
[ $? -eq 0 ] || show
keys / C-u clock Enter
wait_for 'Backends: /clock/ shows' 5
lacks '\[[x ]\] barrier-(tsc|rdtsc|pmc) '; ok $? "/clock lists no barrier backend"
keys q
start 200 50 "LANG=$UTF8 TERM=xterm-256color" -n 3000
wait_for 'Flush sizes' 20
keys / per_add Enter
wait_for 'Backends: /per_add/ shows 1 of' 5 && shows '\[[x ]\] sim '
ok $? "at 200 columns more of sim's row shows, and /per_add finds it"
keys q

# ---- the ETA does not grow while paused -------------------------------
start 80 24 "LANG=$UTF8 TERM=xterm-256color" -n 200000
wait_for 'Flush sizes' 20
only_sim
keys Tab / C-u '^1MiB' Enter
wait_for 'shows 1 of' 5 && keys Space && wait_for '\[x\] 1MiB' 5
keys / C-u Enter
keys Enter
wait_for 'ETA [1-9][0-9]*s' 20; ok $? "a long run shows an ETA"
sleep 1
keys p
wait_for 'ETA [0-9]+s PAUSED' 5; ok $? "p pauses"
e1=$(eta)
sleep 3
poll 2 shows 'PAUSED'
e2=$(eta)
[ -n "$e1" ] && [ -n "$e2" ] && [ "$e2" -le "$e1" ]
ok $? "the ETA does not grow while paused ($e1 s, then $e2 s after 3 s)"
keys p
wait_gone 'PAUSED' 5; ok $? "p resumes"
keys q y
wait_for 'TL_EXIT=' 20

# ---- negative times after filter_cost are explained -------------------
start 80 24 "LANG=$UTF8 TERM=xterm-256color" -n 4000
wait_for 'Flush sizes' 20
for id in $(sed -n '3,/Flush sizes/p' "$W/screen" | grep -o '\[x\] [a-z0-9-]*' | awk '{print $2}'); do
	keys / C-u "^$id " Enter
	wait_for "\[x\] $id " 5 && keys Space && wait_for "\[ \] $id " 5
done
keys / C-u Enter a 'sim:sd=60' Enter
wait_for 'added backend sim:sd=60' 5
keys Enter
wait_for 'done in' 60; ok $? "a sim:sd=60 run ends"
keys Down
wait_for 'kernel ▲ add:100 ▼' 5
# sd 60 ns against a 30 ns kernel: t_e,std taken off leaves negative times
wait_for 'min +-[0-9]' 5 && wait_for 'min < 0' 5; ok $? "min < 0 comes with its note"
[ $? -eq 0 ] || show
keys Up
wait_for 'kernel ▲ empty ▼' 5 && wait_for 'min < 0: centred on 0|min < 0: t_e,std is taken off' 5
ok $? "on empty the note says it is centred on 0"
keys '?'
# the glossary's words (tui/glossary.def), one sentence each, below the
# keys: paged with Down until both have shown
wait_for 'Help: Live' 5
seen_n=1 seen_min=1
for page in 1 2 3 4 5 6; do
	shows '\+N> +N samples lie above p99' && seen_n=0
	shows 'min < 0 +t_e,std was taken off' && seen_min=0
	[ $seen_n -eq 0 ] && [ $seen_min -eq 0 ] && break
	keys Space
	sleep 0.3
	screen >"$W/screen" 2>/dev/null
done
[ $seen_n -eq 0 ] && [ $seen_min -eq 0 ] || show
[ $seen_n -eq 0 ] && [ $seen_min -eq 0 ]
ok $? "Live's help explains +N> and min < 0"
keys Escape
keys x

# ---- the drift line fits its column; +N> has a legend ------------------
if [ -n "$PY" ]; then
	"$BIN" run -b sim,sim:sd=6,sim:sd=7 -k add:100 -n 4000 --json "$W/r.json" >/dev/null 2>&1
	# the level climbs steeply at the end of the cell: drift above 100%
	"$PY" - "$W/r.json" "$W/drift.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cells"]:
    if c["kernel"] != "add:100":
        continue
    n = len(c["samples"])
    for i in range(n):
        c["samples"][i] = round(c["samples"][i] * (1 + 200.0 * (i / n) ** 8))
        c["samples_ns"][i] = c["samples"][i] * c["ns_per_unit"]
json.dump(d, open(sys.argv[2], "w"))
PYEOF
	start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --replay "'$W/drift.json'"
	wait_for 'drift [0-9]{3,}\.[0-9]+%' 20; ok $? "a replay shows drift above 100%"
	[ $? -eq 0 ] || show
	# a cut note leaves its parenthesis open up to the next column or the edge
	lacks 'drift [0-9.]+% \([^)]*(drift|$)'; ok $? "no drift note is cut at its column's edge"
	lacks 'drift [0-9.]+%[^ ]'; ok $? "and none runs into the next column"
	wait_for '\+[0-9]+>' 5 && shows '\+N>.*above p99'; ok $? "the +N> marker has a legend"
else
	diag "python3 missing: the drift and +N> checks are skipped"
fi
# ---- navigation: a page indicator when backends split across pages, all
# of them after widening; with --mouse the tabs and arrows are clickable
"$BIN" run -b sim,sim:sd=6,sim:sd=7,sim:sd=8,sim:sd=9 -k add:100,empty -f 0,32KiB -n 2000 \
	--json "$W/five.json" >/dev/null 2>&1
ok $? "a run of five sim backends is saved"
start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --replay "'$W/five.json'"
wait_for 'page 1/2, Tab' 20; ok $? "five backends at 80 columns: the page indicator shows"
keys Tab
wait_for 'page 2/2, Tab' 5 && wait_for 'sim:sd=9' 2; ok $? "Tab shows page 2/2"
X resize-window -t t -x 200 -y 50 >/dev/null 2>&1
wait_for '● sim .*sim:sd=6.*sim:sd=7.*sim:sd=8.*sim:sd=9' 10 && lacks 'page [0-9]/'
ok $? "widened to 200 columns, all five show at once, without Tab"
[ $? -eq 0 ] || show

# click COL ROW (1-based): an SGR mouse press and release, as xterm sends it
click() { keys -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$1" "$2" "$1" "$2")"; }
# col TEXT [OFFSET]: the column of TEXT on the progress row (the ASCII
# tier, so one byte is one column), plus OFFSET
col() { sed -n 2p "$W/screen" | awk -v t="$1" -v o="${2:-0}" '{ i = index($0, t); print i ? i + o : 0 }'; }
start 80 24 "LANG=C TERM=xterm-256color" tui --mouse --replay "'$W/five.json'"
wait_for 'flush < 0 >' 20; ok $? "replay with --mouse (ASCII arrows)"
click "$(col 'flush <' 6)" 2
wait_for 'flush < 32KiB >' 5; ok $? "a click on > shows the next flush size"
click "$(col 'flush <' 6)" 2
wait_for 'flush < 0 >' 5; ok $? "a click on < the previous one"
click "$(col ' v  CPU' 1)" 2
wait_for 'kernel \^ empty v' 5; ok $? "a click on v the next kernel"
click "$(col 'kernel ^' 7)" 2
wait_for 'kernel \^ add:100 v' 5; ok $? "a click on ^ the previous kernel"
click "$(col 'page 1/2' 2)" 2
wait_for 'page 2/2, Tab' 5; ok $? "a click on the page indicator turns the page"
tab=$(sed -n 1p "$W/screen" | awk '{ print index($0, " Info") + 2 }')
click "$tab" 1
wait_gone 'CDF' 5 && wait_for 'Esc back' 2; ok $? "a click on the Info tab opens Info"
tab=$(sed -n 1p "$W/screen" | awk '{ print index($0, " Live ") + 2 }')
click "$tab" 1
wait_for 'CDF' 5; ok $? "a click on the Live tab comes back"
tab=$(sed -n 1p "$W/screen" | awk '{ print index($0, " Setup ") + 2 }')
click "$tab" 1
wait_for 'Flush sizes' 5; ok $? "a click on the Setup tab opens Setup"
done_testing
