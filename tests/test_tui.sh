#!/bin/sh
# The TUI, driven for real: the ticklab binary runs in a private tmux server
# and the test types keys and polls the pane's text (never a fixed sleep).
# GENERATE=1 rewrites the golden screens under tests/golden/.
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"
# golden NAME FILE: compares with tests/golden/NAME (or writes it with GENERATE=1).
golden() {
	if [ -n "$GENERATE" ]; then cp "$2" "$GOLDEN/$1"; ok 0 "golden $1 written"; return; fi
	diff -u "$GOLDEN/$1" "$2" >"$W/diff" 2>&1
	st=$?
	ok $st "screen matches tests/golden/$1"
	[ $st -eq 0 ] || sed 's/^/#   /' "$W/diff" | head -n 30
}
# golden_screen NAME VIEW...: polls until VIEW (a command that prints the
# part of $W/screen under test) matches the golden file; diffs when the time
# is up (with GENERATE=1, writes the last view).
view_is_golden() {
	alive || return 1
	"$@" >"$W/view"
	[ -z "$GENERATE" ] && cmp -s "$GOLDEN/$name" "$W/view"
}
golden_screen() {
	name=$1; shift
	poll 5 view_is_golden "$@" || { alive || { why_dead; : >"$W/view"; }; }
	golden "$name" "$W/view"
}
whole_screen() { cat "$W/screen"; }
# show: the last screen, for a failed check.
show() { sed 's/^/#   | /' "$W/screen"; }
save() { [ -n "$TL_SCREENS" ] && cp "$W/screen" "$TL_SCREENS/$1"; return 0; }
help_box() { sed -n 's/^[^|]*|\(.*\)|.*$/\1/p; s/^[^│]*│\(.*\)│.*$/\1/p' "$W/screen"; }

# ---- the main flow at 80x24: setup, run, export, search, info, help, resize, quit
start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui -n 3000 --themes-dir "'$SRC/themes'"
wait_for 'Backends +[0-9]+ selected' 20; ok $? "setup screen shows the backend list"
wait_for 'Flush sizes' 1 && wait_for 'Kernels' 1; ok $? "setup shows the flush and kernel lists"
save setup-80x24.txt
keys / 'a(b' Enter
wait_for 'regex error at offset 3: missing closing parenthesis' 5
ok $? "a bad regex shows PCRE2's message and offset"
keys / C-u '^sim ' Enter
wait_for 'shows 1 of' 5; ok $? "the regex filter narrows the backends to sim"
keys Space
wait_for '\[x\] sim ' 5; ok $? "Space selects sim"
keys / C-u Enter
wait_for 'filter cleared' 5; ok $? "an empty pattern clears the filter"
keys Tab a '12XB' Enter
wait_for 'refused: .*12XB' 5; ok $? "a bad custom flush size is refused in place"
keys Tab a 'add:0:200:100' Enter
wait_for 'added 3 kernels' 5; ok $? "a custom K sweep adds three kernels"
keys Tab Enter
wait_for 'done in' 60; ok $? "the run finishes on the live screen"
wait_for 'sim \(simulated\)' 3; ok $? "live shows the sim column, labelled simulated"
wait_for 'barrier-tsc|clock-gettime|papi' 3; ok $? "live shows a real backend beside it"
wait_for '^p50 +-?[0-9]' 3 && wait_for 'CDF' 3
ok $? "live shows the summary and the CDF"
wait_for 'kernel . empty ' 3 && wait_for 'CV +-( |$)' 3 && lacks 'CV +-[0-9]'
ok $? "an empty cell shows no CV: it is centred on 0 after filter_cost"
save live-80x24.txt
keys '?'
wait_for 'Help: Live screen keys' 5; ok $? "? on the live screen shows its own keys"
golden_screen help-live-80x24.txt help_box
keys x
wait_gone 'Help:' 5
keys e
wait_for 'exported to .*\.json' 10; ok $? "e exports JSON"
f=$(ls "$W"/ticklab-run-*.json 2>/dev/null | head -n 1)
[ -n "$f" ] && grep -q '"samples_ns"' "$f"; ok $? "the export has raw samples"
# and beside the JSON the figures `ticklab plot` draws of a run, named in the message
poll 5 shows 'figures:|no figure' >/dev/null
if shows 'no figure: built without cairo'; then
	ok 0 "without cairo the run export says there is no figure"
else
	b=${f%.json}
	poll 5 sh -c "tr -s ' \n' '  ' <'$W/screen' |
		grep -q 'exported to .*$(basename "$b").json; figures: .*$(basename "$b").svg, .*-cdf\.svg'"
	ok $? "the message names the JSON and both figures"
	for g in "$b.svg" "$b-cdf.svg"; do
		if [ -n "$PY" ]; then
			"$PY" - "$g" >"$W/py" 2>&1 <<'PYEOF'
import re, sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == '{http://www.w3.org/2000/svg}svg', root.tag
size = [float(re.match(r'[\d.]+', root.get(k)).group()) for k in ('width', 'height')]
assert size == [800, 600], size
PYEOF
		else
			head -c 400 "$g" | grep -q '<svg' >"$W/py" 2>&1
		fi
		ok $? "$(basename "$g") beside the JSON is an 800x600 SVG"
		[ -s "$W/py" ] && sed 's/^/#   /' "$W/py"
	done
fi
keys E
wait_for 'exported to .*\.csv' 10; ok $? "E exports CSV"
# Search only the simulated timers so the test is quick on any machine.
keys Escape
wait_for 'Backends' 5
for id in barrier-tsc papi-real-nsec barrier-cntvct; do
	keys / C-u "^$id " Enter
	wait_for "/\\^$id / shows [01] of" 5 && wait_for "\[[x ]\] $id " 2 &&
		grep -q "\[x\] $id " "$W/screen" && keys Space
done
keys / C-u Enter a 'sim:sd=1,spike_rate=0' Enter
wait_for 'added backend sim:sd=1' 5; ok $? "a custom backend id is probed and added"
keys o C-u 'n=5' Enter
wait_for "refused: n '5' is not accepted \(accepted: a whole number from 10" 5
ok $? "o refuses a bad search parameter, naming what is accepted"
keys o C-u 'eps=0.02 repeats=2' Enter
wait_for 'the next search \(s\): method fast, eps 0.02' 5; ok $? "o sets the next search's parameters"
keys s
wait_for 'search done' 60; ok $? "the search runs to the end"
wait_for 'eps 0.02, .*' 3 && wait_for '2 repeats \(t95' 3
ok $? "the search screen shows the parameters it used, wrapped to the width"
wait_for 'sim \* +0 +[0-9]+ ' 3; st=$?; ok $st "search shows t_min for sim, marked simulated"
[ $st -eq 0 ] || show
# the selected row's reasons, under the table: Down selects the second row
joined_shows() { joined | grep -Eq -- "$1"; }
keys Down
poll 3 joined_shows ' sim:sd=1,spike_rate=0 @ 0: [0-9.]+× more precise .*more sensitive'
ok $? "search states the ratios to the reference (the first backend, as the CLI picks)"
save search-80x24.txt
keys r Up
wait_for 'reference: sim:sd=1' 5 && poll 5 joined_shows ' sim @ 0: [0-9.]+× less precise .*less sensitive'
ok $? "r makes another backend the reference and the ratios follow"
keys e
wait_for 'exported to .*search.*\.json' 10; ok $? "e exports the search results"
keys i
wait_for 'What can spoil timing here' 10; ok $? "the info screen shows the spoilers"
wait_for '(✗|✓) (vm|pmu) ' 3; ok $? "spoilers are marked one per line"
save info-80x24.txt
keys Escape
wait_for 'CV against t' 5
keys Escape
wait_for 'Backends' 5
keys '?'
wait_for 'Help: Setup screen keys' 5; ok $? "? opens the help overlay"
golden_screen help-setup-80x24.txt help_box
keys x
wait_gone 'Help:' 5; ok $? "any key closes the help"

X resize-window -t t -x 200 -y 50
wait_for 'Backends .*Flush sizes .*Kernels' 10; ok $? "200x50: the three lists sit side by side"
save setup-200x50.txt
X resize-window -t t -x 40 -y 12
wait_for 'Terminal too small' 10; ok $? "40x12: a too-small message"
golden_screen too-small-40x12.txt whole_screen
X resize-window -t t -x 80 -y 24
wait_for 'Backends +[0-9]+ selected' 10; ok $? "back at 80x24 the setup returns"
keys q
wait_for 'TL_EXIT=0' 10; ok $? "q quits with status 0"

# ---- ASCII tier: TERM=vt100 in the C locale
start 80 24 "LANG=C TERM=vt100" tui -n 2000
wait_for 'Backends' 20; ok $? "vt100/C: the setup screen appears"
keys Enter
wait_for 'done in' 60; ok $? "vt100/C: a run finishes"
alive && ! LC_ALL=C grep -q '[^ -~]' "$W/screen"; ok $? "vt100/C: every glyph is ASCII"
wait_for '#' 3; ok $? "vt100/C: histograms use # bars"
save live-vt100-80x24.txt
keys q
wait_for 'TL_EXIT=0' 10; ok $? "vt100/C: q quits"

# ---- colours: 256 colours on xterm-256color, none with NO_COLOR
sgr_colours() { X capture-pane -e -p -t t | grep -oE "$(printf '\033')\\[[0-9;]*m" |
	tr -d '\033[m' | tr ';' '\n' | grep -cE '^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$'; }
start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --themes-dir "'$SRC/themes'"
wait_for 'Backends' 20
[ "$(sgr_colours)" -gt 0 ]; ok $? "xterm-256color: the screen has colours"
keys t
wait_for 'theme high-contrast' 5; ok $? "t switches to the next theme"
keys q; wait_for 'TL_EXIT=0' 10
start 80 24 "LANG=$UTF8 TERM=xterm-256color NO_COLOR=1" tui --themes-dir "'$SRC/themes'"
wait_for 'Backends' 20
[ "$(sgr_colours)" -eq 0 ]; ok $? "NO_COLOR=1: no colour at all"
keys q; wait_for 'TL_EXIT=0' 10

sgr_256() { X capture-pane -e -p -t t | grep -cE "$(printf '\033')\\[[0-9;]*38;5;"; }
start 80 24 "LANG=$UTF8 TERM=xterm" tui --themes-dir "'$SRC/themes'"
wait_for 'Backends' 20
[ "$(sgr_colours)" -gt 0 ] && [ "$(sgr_256)" -eq 0 ]; ok $? "TERM=xterm: eight colours, no 256-colour codes"
keys q; wait_for 'TL_EXIT=0' 10

# ---- a bad theme given as --theme is bad input, with a terminal or without:
# status 2 before the screen opens, naming file:line and the problem
mkdir -p "$W/themes"
printf '# test\ntheme[main_fg]="#12345"\n' >"$W/themes/bad.theme"
: >"$W/stderr"
start 160 24 "LANG=$UTF8 TERM=xterm-256color" tui --themes-dir "'$W/themes'" --theme bad
wait_for 'TL_EXIT=2' 20; ok $? "--theme with a bad file on a terminal: status 2"
grep -q 'bad\.theme:2: bad colour "#12345"' "$W/stderr"; ok $? "naming file:line and the problem"
"$BIN" tui --themes-dir "$W/themes" --theme bad </dev/null >/dev/null 2>"$W/plain.err"; st=$?
[ $st -eq 2 ] && grep -q 'bad\.theme:2: bad colour "#12345"' "$W/plain.err"
ok $? "and without a terminal the same (status $st)"
"$BIN" tui --theme ligth </dev/null >/dev/null 2>"$W/plain.err"; st=$?
[ $st -eq 2 ] && grep -q "theme 'ligth' not found" "$W/plain.err"
ok $? "tui --theme ligth without a terminal: status 2 naming it, not the plain table (status $st)"

# ---- the mouse: off unless --mouse; with it a left click toggles the row under it
# click COL ROW: an SGR (1006) press and release, 1-based, as xterm sends them.
click() { keys -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$1" "$2" "$1" "$2")"; }
row_of() { grep -n -- "$1" "$W/screen" | head -n 1 | cut -d: -f1; }
start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui
wait_for '^\[ \] clock-gettime ' 20
click 5 "$(row_of '^\[ \] clock-gettime ')"
keys '?'
wait_for 'Help:' 5 && keys x && wait_gone 'Help:' 5 && wait_for '^\[ \] clock-gettime ' 3
ok $? "without --mouse a click changes nothing"
keys q; wait_for 'TL_EXIT=0' 10
start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --mouse
wait_for '^\[ \] clock-gettime ' 20
click 5 "$(row_of '^\[ \] clock-gettime ')"
wait_for '^\[x\] clock-gettime ' 5; ok $? "with --mouse a click selects the backend under it"
wait_for '^\[ \] 32KiB ' 3
click 5 "$(row_of '^\[ \] 32KiB ')"
wait_for '^\[x\] 32KiB ' 5; ok $? "a click in the flush list selects that size"
keys q; wait_for 'TL_EXIT=0' 10

# ---- Ctrl-C mid-run: the terminal is restored and the session saved
start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui -n 400000
wait_for 'Backends' 20
keys Tab / C-u '^1MiB' Enter Space
keys Enter
# on a busy machine the estimate calls the run long: then it asks first
poll 20 shows 'ETA|Enter again starts it'
if shows 'Enter again starts it'; then keys Enter; fi
wait_for 'ETA' 20; ok $? "a long run is going"
keys Right
wait_for 'flush . 1MiB .' 5; ok $? "Right flips the live columns to the next flush size"
keys p
wait_for 'PAUSED' 5; ok $? "p pauses sampling"
keys p
wait_for 'resumed' 5; ok $? "p resumes it"
keys q
wait_for 'stop it and quit\? \(y/n\)' 5; ok $? "q asks first while a run is going"
keys n
wait_for 'still running' 5; ok $? "n keeps the run going"
keys C-c
wait_for 'TL_END' 20
grep -q 'TL_EXIT=130' "$W/screen"; ok $? "Ctrl-C ends the TUI with status 130"
grep -q 'session saved to' "$W/screen"; ok $? "the session path is printed after the terminal is restored"
grep -Eq '(^| )icanon ' "$W/screen" && grep -Eq '(^| )echo ' "$W/screen"
ok $? "stty shows canonical mode and echo again"
f=$(ls "$W"/ticklab-session-*.json 2>/dev/null | head -n 1)
[ -n "$f" ] && grep -Eq '"interrupted": *true' "$f"; ok $? "the session file is marked interrupted"

# ---- signals: stop/continue redraws; SIGTERM, SIGHUP and a crash restore the terminal
tl_pid() { pgrep -P "$(X display -p -t t '#{pane_pid}')" | head -n 1; }
# Ctrl-Z and fg from an interactive shell, as a user would.
X kill-server >/dev/null 2>&1
nserv=$((nserv + 1))
S=tl$$-$nserv
X new-session -d -s t -x 80 -y 24 "cd '$W' && env -i PATH='$PATH' HOME='$W' TZ=UTC LANG=$UTF8 TL_LEVELS=off \
	TERM=xterm-256color ASAN_OPTIONS=detect_leaks=0 PS1='sh$ ' bash --norc --noprofile -i"
wait_for 'sh\$' 10
keys "'$BIN' tui" Enter
wait_for 'Backends' 20
keys C-z
wait_for 'Stopped' 5; ok $? "Ctrl-Z stops the lab and gives the shell back"
keys 'stty -a; echo TL_''END' Enter
wait_for '^TL_END' 5 && grep -Eq '(^| )icanon ' "$W/screen" && grep -Eq '(^| )echo ' "$W/screen"; ok $? "the stopped lab left the terminal sane"
keys fg Enter
wait_for 'Backends +[0-9]+ selected' 10; ok $? "fg draws the lab again"
keys q
wait_for 'sh\$ *$' 10; ok $? "and q returns to the shell"
for sig in TERM HUP SEGV; do
	case $sig in TERM) want=143 ;; HUP) want=129 ;; SEGV) want=139 ;; esac
	start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui
	wait_for 'Backends' 20
	kill -$sig "$(tl_pid)"
	wait_for 'TL_END' 10
	grep -q "TL_EXIT=$want" "$W/screen" && grep -Eq '(^| )icanon ' "$W/screen" &&
		grep -Eq '(^| )echo ' "$W/screen"
	ok $? "SIG$sig: status $want and the terminal restored"
done

# ---- replay shows the numbers `ticklab report` prints
"$BIN" run --backend 'sim:sd=3.7' --kernel empty,add:400 -n 2000 --json "$W/r.json" -q
"$BIN" report "$W/r.json" >"$W/report"
row=$(grep 'add:400' "$W/report")
set -f
set -- $row
set +f
[ "$2" = "*" ] && shift
n=$4 rm=$5 mean=${12} sd=${13} cv=${14}
expect_status 2 "--replay of a missing file is refused as bad input" "$BIN" tui --replay "$W/none.json"
grep -q 'none.json' /tmp/tl_tap_err.$$; ok $? "the message names the file"
expect_status 2 "an unknown option is refused" "$BIN" tui --no-such-option
start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --replay "'$W/r.json'"
wait_for 'replay' 20; ok $? "--replay opens the live screen"
keys j
wait_for "kernel . add:400" 5
wait_for "^n $n +os_rm $rm" 5; ok $? "replay shows n $n and os_rm $rm as report does"
wait_for "mean +$mean( |$)" 3 && wait_for "sd +$sd " 3 && wait_for "CV +$cv" 3
ok $? "replay shows mean $mean, sd $sd, CV $cv as report does"
keys q; wait_for 'TL_EXIT=0' 10

# ---- no usable terminal: the plain-text comparison with a one-line note
start 80 24 "LANG=$UTF8 TERM=dumb" tui
wait_for 'TL_END' 60
grep -q 'TL_EXIT=0' "$W/screen" && grep -q 'plain-text comparison' "$W/stderr"
ok $? "TERM=dumb falls back to the plain-text comparison with a note"

# Sanitizer builds report into the panes' stderr; nothing may be there.
! grep -Eq 'ERROR: AddressSanitizer|runtime error:' "$W/stderr"
ok $? "no sanitizer report from any pane"

start 80 24 "LANG=$UTF8 TERM=no-such-terminal" tui
wait_for 'TL_END' 60
grep -q 'TL_EXIT=0' "$W/screen" && grep -q 'no-such-terminal' "$W/stderr"
ok $? "an unknown TERM falls back to the plain-text comparison and names the TERM"

done_testing
