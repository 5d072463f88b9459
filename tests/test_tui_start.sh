#!/bin/sh
# A scripted setup. `ticklab` and `ticklab tui` take run's
# --backend/-b, --flush/-f, --kernel/-k (run's parsers, run's messages, status
# 2) to preselect Setup, and --start runs the selection without a key; the
# TUI's --baseline has only its long form now.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"

# the same words as run for the same bad value, status 2 from both
same_refusal() {
	"$BIN" tui "$@" </dev/null >/dev/null 2>"$W/tui.err"
	st_tui=$?
	"$BIN" run "$@" </dev/null >/dev/null 2>"$W/run.err"
	st_run=$?
	sed 's/^ticklab tui: //' "$W/tui.err" >"$W/tui.msg"
	sed 's/^ticklab run: //' "$W/run.err" >"$W/run.msg"
	[ "$st_tui" -eq 2 ] && [ "$st_run" -eq 2 ] && [ -s "$W/tui.msg" ] && cmp -s "$W/tui.msg" "$W/run.msg"
	ok $? "tui $* is refused as run refuses it (status $st_tui; $(head -c 90 "$W/tui.msg"))"
	[ -z "$st_tui" ] || [ "$st_tui" -eq 2 ] || diff "$W/run.msg" "$W/tui.msg" | sed 's/^/#   /'
}
same_refusal -b no-such-timer
same_refusal -b sim,sim
same_refusal --backend sim -f 12Q
same_refusal -b sim --flush 0,0
same_refusal -b sim -k add:x
same_refusal -b sim --kernel add:5,add:5
"$BIN" tui --start --replay "$W/none.json" </dev/null >/dev/null 2>"$W/err"
[ $? -eq 2 ] && grep -q -- '--replay shows saved data' "$W/err"
ok $? "--start with --replay is refused: $(cat "$W/err")"
"$BIN" tui -b "$W/none.json" </dev/null >/dev/null 2>"$W/err"
[ $? -eq 2 ] && grep -q "unknown backend" "$W/err"
ok $? "-b is --backend now, not --baseline"
"$BIN" tui --help | grep -q -- '^      --baseline FILE'
ok $? "--help lists --baseline by its long form only"

# without a terminal a selection runs as run runs it, in plain text
"$BIN" -b sim -k add:7 -n 50 </dev/null >"$W/out" 2>"$W/err"
st=$?
[ $st -eq 0 ] && grep -Eq '^sim .* add:7 +[0-9]+ ' "$W/out" && grep -q 'running the selection as ticklab run' "$W/err"
ok $? "no terminal: -b sim -k add:7 -n 50 runs that selection (status $st)"
[ $st -eq 0 ] || sed 's/^/#   /' "$W/err" | head -n 5

# a backend that works here: the node's barrier timer, else sim
be=sim
for b in barrier-tsc barrier-rdtsc barrier-cntvct; do
	if "$BIN" run -b $b -k empty -n 10 -q >/dev/null 2>&1; then be=$b; break; fi
done
start 100 30 "LANG=$UTF8 TERM=xterm-256color" -b "$be" -k add:100 -n 200 --start
wait_for 'done in|ETA|starting' 30; ok $? "-b $be -k add:100 -n 200 --start runs without a key"
shows 'Live' && lacks 'Flush sizes'; ok $? "it opens on Live"
wait_for 'done in' 60; ok $? "the run ends"
shows "$be"; ok $? "the column is $be"
keys 1
wait_for 'Flush sizes' 5
wait_for "\[x\] $be " 5 && wait_for '\[x\] add:100 ' 5 && lacks '\[x\] add:500 '
ok $? "Setup shows what the command line selected, and only that kernel"
keys q
wait_for 'TL_EXIT=0' 10; ok $? "q ends it (status 0)"

# without --start the selection waits on Setup; -f picks the flush list
start 100 30 "LANG=$UTF8 TERM=xterm-256color" tui --backend sim --flush 32KiB --kernel empty
wait_for 'selected from the command line' 20; ok $? "Setup says the selection came from the command line"
# sim's row is below the fold at 30 rows: one backend selected and no other
wait_for 'Backends  1 selected' 5 && lacks '\[x\] (barrier|papi|clock|rdtsc)' &&
	wait_for '\[x\] 32KiB' 5 && lacks '\[x\] 0 ' && wait_for '\[x\] empty' 5
ok $? "sim, 32KiB and empty are selected, flush 0 is not"
keys q
wait_for 'TL_EXIT=' 10
done_testing
