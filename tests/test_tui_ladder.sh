#!/bin/sh
# Driven in tmux: m on Setup selects the memory ladder (load
# sizes 4KiB..2xL3, flush 0), a ladder run opens on the ladder view (ns per
# load against size, log axes, the cache ends marked), m switches to the
# histograms and back, and a replay of the exported run shows the same view
# with the levels of the file's host. The sim backend under a synthetic hwloc
# topology (HWLOC_SYNTHETIC) makes sizes, levels and latencies the same on
# every node, so the view's body is a golden screen.
# GENERATE=1 rewrites tests/golden/ladder-*.txt.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"

# The view under test: below the progress line, above the prompt (golden
# is tests/tui_harness.sh's).
view() { sed -n "3,$(($(wc -l <"$W/screen") - 2))p" "$W/screen"; }
GOLDEN_WHAT='the ladder view'

SYN='pack:1 l3:1(size=4194304) l2:1(size=524288) l1d:1(size=32768) core:1 pu:1'
start 80 24 "LANG=$UTF8 TERM=xterm-256color HWLOC_SYNTHETIC='$SYN'" tui --cpu 0 -n 200
wait_for 'Flush sizes' 20; ok $? "setup screen"
for id in barrier-tsc papi-real-nsec barrier-cntvct; do
	keys / C-u "^$id " Enter
	wait_for "/\\^$id / shows [01] of" 5 && wait_for "\[[x ]\] $id " 2 &&
		grep -q "\[x\] $id " "$W/screen" && keys Space
done
keys / C-u '^sim ' Enter
wait_for 'shows 1 of' 5 && keys Space && wait_for '\[x\] sim ' 5
keys / C-u Enter
wait_for 'filter cleared' 5
keys m
wait_for 'memory ladder: 13 load sizes \(4KiB\.\.2xL3\), flush 0' 5
ok $? "m selects 13 load sizes from 4KiB to 2xL3 of this topology, flush 0"
wait_for 'Kernels +13 selected' 3 && shows 'Flush sizes +1 selected' &&
	shows '\[x\] load:4KiB,1000' && shows '\[ \] add:100 '
ok $? "only the ladder's kernels and flush 0 stay selected"
keys m
wait_for 'Kernels +13 selected' 5; ok $? "m twice lists no size twice"
keys Enter
wait_for 'done in' 60; ok $? "the ladder run finishes"
wait_for 'Memory ladder: ns per load \(p50 / K\) by buffer size, flush 0' 5
ok $? "a ladder run opens on the ladder view"
shows 'L1d' && shows 'L2 ' && shows 'L3'; ok $? "the L1d, L2 and L3 ends are labelled"
wait_for 'sim +L1d 1.2 +L2 1.2 +L3 1.2 +memory 1.2 ns' 5
ok $? "each level's latency is sim's ns_per_load, 1.2 ns"
shows "no step at L1d's end 32KiB"; ok $? "a ladder without steps is said plainly"
golden ladder-80x24.txt
keys m
wait_for 'CDF' 5 && lacks 'Memory ladder'; ok $? "m shows the histograms"
keys m
wait_for 'Memory ladder' 5; ok $? "m shows the ladder again"
keys e
wait_for 'exported to .*\.json' 10; ok $? "e exports the ladder run"
f=$(ls "$W"/ticklab-run-*.json 2>/dev/null | head -n 1)
if grep -q 'no figure' "$W/screen"; then
	ok 0 "# SKIP the ladder figure: built without cairo"
else
	poll 5 sh -c "tr -s ' \n' '  ' <'$W/screen' | grep -q 'figures: .*-ladder\.svg'"
	ok $? "e writes the ladder figure, not a histogram per size"
	g=${f%.json}-ladder.svg
	[ -s "$g" ] && head -c 200 "$g" | grep -q '<svg' && [ ! -e "${f%.json}.svg" ]
	ok $? "the ladder figure is an SVG, and no histograms were written"
fi

# The replay takes the levels from the file's host: no synthetic topology now.
start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --replay "'$f'"
wait_for 'Memory ladder' 20; ok $? "the replay of a ladder run opens on the ladder view"
keys z # an unbound key: the replay's opening message shrinks to its line
wait_for 'L: log' 5
golden ladder-80x24.txt
start 120 35 "LANG=$UTF8 TERM=xterm-256color" tui --replay "'$f'"
wait_for 'Memory ladder' 20; ok $? "the replay at 120x35"
keys z
wait_for 'L: log' 5
golden ladder-120x35.txt
start 200 50 "LANG=$UTF8 TERM=xterm-256color" tui --replay "'$f'"
wait_for 'Memory ladder' 20 && wait_for 'size +● +level' 5
ok $? "at 200 columns a table of size, ns per load and level stands beside the plot"
keys z
golden ladder-200x50.txt
done_testing
