#!/bin/sh
# Issue 21 item 4, driven in tmux: a replayed search in which the reference's
# t_min was found in 1 of 3 repeats (tests/fixtures/search-tmin-1of3.json:
# the other two saw CV fall to 1.1 % and rise again). The search screen must
# not show that one answer with a 95 % interval: it says "1 of 3 found", and
# the ratio beside the other backend says which bound it rests on. Only
# agreeing repeats that all found an answer get "[lo-hi]". The fixture is a
# sim search, so the whole screen is a golden one at 80x24 and 200x50.
# GENERATE=1 rewrites tests/golden/search-1of3-*.txt.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"

view() { cat "$W/screen"; }
GOLDEN_WHAT='the search screen of a t_min found in 1 of 3'
cp "$SRC/tests/fixtures/search-tmin-1of3.json" "$W/s.json"

start 80 24 "LANG=$UTF8 TERM=xterm-256color" tui --replay s.json
wait_for 'replay: s.json' 20; ok $? "--replay of a search opens the search screen"
wait_for 'sim:sd=20,qu \* 0 +6355 1 of 3 found' 5
ok $? "80x24: the t_min found in 1 of 3 says so"
lacks '6355 +\[' ; ok $? "80x24: and has no 95 % interval"
shows '1565 \[1335-1756\]'; ok $? "80x24: three agreeing repeats keep theirs"
golden search-1of3-80x24.txt

start 200 50 "LANG=$UTF8 TERM=xterm-256color" tui --replay s.json
wait_for 'replay: s.json' 20
wait_for '6355 found in 1 of 3' 5; ok $? "200x50: found in 1 of 3"
shows '>=7.7 \(ref > 3.6e\+03 ns\)'; ok $? "200x50: the ratio is a bound and shows the bound"
shows 'at least 7.67× more precise \(the reference found none below 12000 ADDs'
ok $? "200x50: the sentence names the bound and how many repeats it rests on"
golden search-1of3-200x50.txt

done_testing
