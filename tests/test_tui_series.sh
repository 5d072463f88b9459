#!/bin/sh
# In tmux: one slow timer need not squash the rest. A replayed
# sim run of two fine timers (10 ns and 1 ns steps, around 30 ns) beside a
# 1 us clock with a 2 us scatter: x puts the histograms on one shared x-axis
# (the title says so), b selects a backend, v hides it, o shows it alone,
# a shows all; the CDF and the shared histograms rescale to the shown series.
# Golden screens at 80x24 and 200x50 (CPU number masked).
# GENERATE=1 rewrites tests/golden/series-*.txt.
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"

view() { sed -E 's/CPU [0-9]+/CPU N/' "$W/screen"; }

"$BIN" run --backend 'sim:sd=2,seed=1,sim:sd=3,quantum=1,seed=2,sim:sd=2000,quantum=1000,seed=3' \
	--kernel add:100 -n 2000 --seed 1 --json "$W/wide.json" -q
ok $? "a sim run with one wide timer"

start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --replay wide.json
wait_for 'own axes' 20; ok $? "the title says the histograms have their own axes"
wait_for '^sd .* sd .* sd ' 10
keys x
wait_for 'shared axis' 5; ok $? "x: the title says the axis is shared"
# every histogram's axis ends read the same: lowest min to highest p99
wait_for '^(-?[0-9.]+ [nu]?s) +([0-9.]+ [nu]?s) \1 +\2 \1 +\2$' 5
ok $? "shared: the three histograms span the same range"
golden series-shared-80x24.txt
keys b b v
wait_for 'shared axis, 1 hidden' 5; ok $? "b b v hides the third backend (title counts it)"
wait_for 'hidden: v shows it, a all' 5; ok $? "its column says how to show it again"
wait_for '^([0-9.]+ ns) +([0-9.]+ ns) \1 +\2 *$' 5
ok $? "the shared axis rescales to the two shown series"
lacks 'CDF.*sim:sd=2000'; ok $? "the CDF legend leaves the hidden one out"
golden series-hidden-80x24.txt
keys a
wait_for 'every backend shown' 5 && wait_gone 'hidden: v' 5; ok $? "a shows every backend"
keys '?'
wait_for 'Help: Live' 5 && wait_for 'b v o a +next backend' 2 && wait_for 'x +histograms on one' 2 &&
	wait_for 'q F10 +quit' 2
ok $? "help lists the keys and still fits 80x24"

start 200 50 "LANG=$UTF8 TERM=xterm-256color" tui --replay wide.json
wait_for 'own axes' 20 && wait_for '^sd .* sd .* sd ' 10
keys x b o
wait_for 'sim:sd=3,quantum=1,seed=2 alone' 5; ok $? "b o: the second backend shown alone"
wait_for 'shared axis, 2 hidden' 5; ok $? "the title counts the two hidden"
golden series-solo-200x50.txt

done_testing
