#!/bin/sh
# The lecture hall, driven in tmux: long messages wrap and the log
# keeps them; built-in themes from a build tree; the "too small" screen
# ignores keys; tui --replay of the wrong kind of file.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"

# ---- a message longer than the line wraps; m shows the log --------
start 80 24 "LANG=$UTF8 TERM=xterm-256color" -n 3000
wait_for 'Flush sizes' 20; ok $? "setup screen"
keys Tab a '12QB' Enter
wait_for 'refused: bad size "12QB"' 5; ok $? "a bad size is refused"
poll 5 sh -c "tr -s ' \n' '  ' <'$W/screen' | grep -q 'or a multiple of a cache level (4xL1, 4xL2, 0.5xL3)'"
ok $? "the whole 80-column-wide message shows, wrapped, to its last words"
[ $? -eq 0 ] || show
keys Down
wait_for '\.\.\. \(L: log\)' 5; ok $? "after a key the message is one line pointing at the log"
keys L
wait_for 'Messages \([0-9]+ this session' 5; ok $? "m opens the message log"
poll 5 sh -c "tr -s ' \n' '  ' <'$W/screen' | grep -q '0.5xL3)'"
ok $? "the log holds the whole message"
keys x
wait_gone 'Messages \(' 5; ok $? "any key closes the log"
keys '?'
wait_for 'Help: Setup' 5 && shows 'L +messages of this session'
ok $? "help lists L for the log"
keys x

# ---- every TUI option on plain `ticklab`; built-in themes with no
# theme file anywhere (the build tree's binary, nothing installed, empty XDG)
start 80 24 "LANG=$UTF8 TERM=xterm-256color" --theme light --mouse -n 3000
wait_for 'Flush sizes' 20 && wait_for 'theme light' 5
ok $? "plain ticklab --theme light --mouse opens with the built-in light theme"
lacks 'not found'; ok $? "no 'not found' message for a built-in theme"
keys t
wait_for 'theme [a-z-]+ \(built in\)' 5; ok $? "t cycles through the built-in themes"

# ---- numbers and F-keys switch screens; Esc from a search started
# on Live returns to the live results
start 80 24 "LANG=$UTF8 TERM=xterm-256color" -n 2000
wait_for 'Flush sizes' 20; ok $? "setup screen (navigation)"
keys 2
wait_for 'no run yet' 5; ok $? "2 with no run says there is none"
keys 4
wait_for 'Esc back' 5 && lacks 'Flush sizes'; ok $? "4 opens Info"
keys 1
wait_for 'Flush sizes' 5; ok $? "1 returns to Setup"
keys F5
wait_gone 'Flush sizes' 5; ok $? "F5 opens Info"
keys F2
wait_for 'Flush sizes' 5; ok $? "F2 returns to Setup"
for id in barrier-tsc papi-real-nsec barrier-cntvct; do
	keys / C-u "^$id " Enter
	wait_for "/\\^$id / shows [01] of" 5 && wait_for "\[[x ]\] $id " 2 &&
		grep -q "\[x\] $id " "$W/screen" && keys Space
done
keys / C-u '^sim ' Enter
wait_for 'shows 1 of' 5 && keys Space && wait_for '\[x\] sim ' 5
keys / C-u Enter
wait_for 'filter cleared' 5
keys Enter
wait_for 'done in' 60; ok $? "a sim run finishes on Live"
keys s
wait_for 'search done' 90; ok $? "s from Live searches"
keys Escape
wait_for 'CDF' 5 && wait_for 'done in' 2; ok $? "Esc from the search returns to the live results"
keys 3
wait_for 'search done' 5; ok $? "3 shows the search again"
# e: the JSON, and beside it the figures ticklab plot would draw of it
keys e
wait_for 'exported to' 20
poll 5 shows 'figures:|no figure' >/dev/null
if ! shows 'no figure: built without cairo'; then
	poll 5 sh -c "tr -s ' \n' '  ' <'$W/screen' | grep -q 'figures: .*-cv\.svg'"
	ok $? "the search export says where its figures went"
	[ $? -eq 0 ] || show
	j=$(ls "$W"/ticklab-search-*.json 2>/dev/null | head -1)
	b=${j%.json}
	for f in "$b.svg" "$b-cv.svg" "$b-overlap.svg"; do
		head -c 400 "$f" 2>/dev/null | grep -q '<svg'; ok $? "$(basename "$f") is an SVG beside the JSON"
	done
else
	ok 0 "without cairo the export says there is no figure"
fi
keys F3
wait_for 'CDF' 5; ok $? "F3 shows Live"
keys '?'
wait_for 'Help: Live' 5 && shows '1-4 F2-F5 +Setup, Live, Search, Info screen' && shows 'q F10 +quit'
ok $? "help lists the number and F-keys"
# below the keys, the glossary: every term of Live's table, in order, the
# caused-samples column among them; Down/Space turn the pages
got="" page=""
page_turned() { [ "$(sed -n '2p' "$W/screen")" != "$page" ]; }
for _ in 1 2 3 4 5 6; do
	got="$got $(sed -n 's/^.*│  \([^ ].\{0,11\}\) .*│.*$/\1/p' "$W/screen" | sed 's/ *$//' | tr '\n' '|')"
	shows 'Up: back; any other key closes' && break
	page=$(sed -n '2p' "$W/screen")
	keys Space
	poll 5 page_turned
done
want=$(sed -n 's/^TUI_GLOSS("\([^"]*\)", [^"]*G_LIVE.*/\1/p' "$TL_TOP_SRCDIR/tui/glossary.def")
missing=$(printf '%s\n' "$want" | while IFS= read -r t; do
	printf '%s' "$got" | grep -qF "|$t|" || printf '%s' "$got" | grep -qF " $t|" || printf " '%s'" "$t"
done)
[ -z "$missing" ] && [ -n "$want" ]; ok $? "? on Live pages through every glossary term of Live${missing:+ (missing:$missing)}"
printf '%s' "$want" | grep -q '^caused ^$'; ok $? "the caused-samples column is in Live's glossary"
keys x
wait_gone 'Help:' 5; ok $? "a key other than the page keys closes the help"

# ---- the too-small screen ignores every key but quit and resize;
# tui --replay of the wrong kind of file is bad input (2)
start 40 12 "LANG=$UTF8 TERM=xterm-256color" -n 3000
wait_for 'Terminal too small' 20; ok $? "40x12 shows the too-small screen"
keys Down Down Down Right Tab
X resize-window -t t -x 80 -y 24 >/dev/null 2>&1
wait_for 'Flush sizes' 10; ok $? "after resizing to 80x24 the setup screen shows"
first=$(sed -n 3p "$W/screen" | cut -c1-30)
keys Space
line3_moved() { alive && sed -n 3p "$W/screen" | cut -c1-30 | grep -vqF -- "$first"; }
poll 5 line3_moved
ok $? "Space acts on the first backend: the Down keys at 40x12 moved nothing ($first)"
[ $? -eq 0 ] || show
echo '{"ticklab": {"command": "compare"}, "cells": []}' >"$W/compare.json"
expect_status 2 "tui --replay of a file that is neither run nor search exits 2" \
	env TERM=xterm "$BIN" tui --replay "$W/compare.json"
start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --replay "'$W/compare.json'"
wait_for 'TL_EXIT=' 10 && shows 'TL_EXIT=2'; ok $? "on a terminal too, the wrong file exits 2"
# ---- memory: the last setup (backends, flushes, kernels, N, theme) comes
# back at the next start; a corrupt file is named and ignored; R resets
M="XDG_CONFIG_HOME=$W/mem"
start 80 24 "LANG=$UTF8 TERM=xterm-256color $M" -n 3000
wait_for 'Flush sizes' 20; ok $? "setup screen (memory)"
lacks 'restored'; ok $? "nothing is restored on a first start"
# the preselected backends are on the list's first rows: unselect them
for id in $(sed -n '3,/Flush sizes/p' "$W/screen" | grep -o '\[x\] [a-z0-9-]*' | awk '{print $2}'); do
	keys / C-u "^$id " Enter
	wait_for "\[x\] $id " 5 && keys Space && wait_for "\[ \] $id " 5
done
keys / C-u '^sim ' Enter
wait_for 'shows 1 of' 5 && keys Space && wait_for '\[x\] sim ' 5
keys / C-u Enter
wait_for 'filter cleared' 5
keys Tab a 44KiB Enter
wait_for 'added flush size 44KiB' 5
keys Tab a add:777 Enter
wait_for 'added 1 kernel' 5
keys / C-u '^add:500 ' Enter
wait_for 'shows 1 of' 5 && keys Space && wait_for '\[ \] add:500' 5
keys / C-u Enter
keys n C-u 1234 Enter
wait_for 'N = 1234' 5
keys t
wait_for 'theme [a-z-]+ \(built in\)' 5
theme=$(sed -n 's/.*theme \([a-z-]*\) (built in).*/\1/p' "$W/screen" | head -1)
keys q
wait_for 'TL_EXIT=0' 10; ok $? "quits cleanly"
[ -s "$W/mem/ticklab/setup.json" ]; ok $? "the setup is kept in \$XDG_CONFIG_HOME/ticklab/setup.json"
start 80 24 "LANG=$UTF8 TERM=xterm-256color $M"
wait_for 'last setup restored' 20; ok $? "the next start says the setup was restored"
wait_for "N=1234  theme $theme" 5; ok $? "N and the theme ($theme) come back"
shows 'Backends  1 selected' && lacks '\[x\] (barrier|papi|clock|perf)'
ok $? "one backend comes back selected, none of the default ones"
[ $? -eq 0 ] || show
shows '\[x\] empty' && shows '\[ \] add:500'; ok $? "the kernels' selection comes back"
keys / '^sim ' Enter
wait_for '\[x\] sim ' 5; ok $? "the one selected is sim"
keys / C-u Enter
keys Tab / 44KiB Enter
wait_for '\[x\] 44KiB' 5; ok $? "the added flush size comes back, selected"
keys Tab / 777 Enter
wait_for '\[x\] add:777' 5; ok $? "the added kernel comes back, selected"
keys / C-u Enter Tab
keys R
wait_for 'setup reset to the defaults' 5; ok $? "R resets"
wait_for 'N=3000|N=10000' 5 && lacks '44KiB' && lacks "theme $theme " ; ok $? "R brings back the default N, lists and theme"
[ ! -e "$W/mem/ticklab/setup.json" ]; ok $? "R forgets the file"
keys '?'
wait_for 'R +reset: forget the remembered setup' 5; ok $? "help lists R"
keys x q
wait_for 'TL_EXIT=0' 10
for bad in '{"ticklab_setup": 1, "backends": "sim"' \
	'{"ticklab_setup": 1, "backends": [], "flushes": [], "kernels": [], "n": 1, "theme": "x"}' \
	'{"ticklab_setup": 1, "backends": [7], "flushes": [], "kernels": [], "n": 5, "theme": "x"}' \
	'{"ticklab_setup": 1, "backends": [], "flushes": [], "kernels": [], "n": 5, "theme": "../x"}'; do
	printf '%s' "$bad" >"$W/mem/ticklab/setup.json"
	start 80 24 "LANG=$UTF8 TERM=xterm-256color $M" -n 3000
	wait_for 'Flush sizes' 20 && wait_for 'remembered setup is ignored' 5 && wait_for 'N=3000  theme default' 2
	ok $? "a corrupt memory is named and ignored: $bad"
	[ $? -eq 0 ] || show
	keys q
	wait_for 'TL_EXIT=0' 10; ok $? "and the TUI runs on and quits cleanly"
done
start 80 24 "LANG=$UTF8 TERM=xterm-256color $M" -n 3000
wait_for 'last setup restored' 20; ok $? "quitting after a corrupt file wrote a valid one"
done_testing
