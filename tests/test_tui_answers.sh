#!/bin/sh
# The lab answers during a run whose flush makes each sample
# long. With a 256 MiB flush before every sample a chunk of 100 samples took
# seconds (minutes for larger flushes), and the runner held the timed-window
# flag for the whole chunk: the Live screen stayed at "0% 0/N ETA 0s" and no
# key showed anything until the chunk ended. Now the window is one timed
# call: 2 s after Enter the progress has left 0 with an ETA, `?` shows the
# help within 1.5 s, and q ends the run at once.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
. "${TL_TOP_SRCDIR:-.}/tests/tui_harness.sh"

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# within_ms MS REGEX: polls until REGEX shows; prints the milliseconds taken
# and succeeds when they are at most MS (or fails once 4 x MS have passed).
within_ms() {
	t0=$(now_ms)
	while :; do
		screen >"$W/screen" 2>/dev/null
		if shows "$2"; then
			took=$(( $(now_ms) - t0 ))
			echo "$took"
			[ "$took" -le "$1" ]
			return
		fi
		[ $(( $(now_ms) - t0 )) -gt $(( 4 * $1 )) ] && { echo "more than $(( 4 * $1 ))"; return 1; }
		sleep 0.02
	done
}

start 100 30 "LANG=$UTF8 TERM=xterm-256color" tui -n 200
wait_for 'Flush sizes' 20; ok $? "setup screen"
# the flush list: 0 off, 256MiB added (and selected)
keys Tab
wait_for '\[x\] 0 ' 5 && keys Space && wait_for '\[ \] 0 ' 5
ok $? "flush 0 unselected"
keys a
wait_for '^add: ' 5
keys 256MiB Enter
wait_for 'added flush size 256MiB' 5; ok $? "a 256MiB flush added"
keys Enter
# under a loaded machine the estimate may call the run long: then it asks
poll 30 shows 'ETA|starting|Enter again starts it'
if shows 'Enter again starts it'; then keys Enter; fi
wait_for 'ETA|starting' 30; ok $? "the run starts"
sleep 2
screen >"$W/screen"
shows ' [0-9]+% [1-9][0-9]*/[0-9]+ ETA [0-9]'
ok $? "2 s after Enter the progress has left 0 and shows an ETA"
[ $? -eq 0 ] || show
keys '?'
took=$(within_ms 1500 'Help: Live screen keys')
ok $? "? shows the help within 1.5 s during the run ($took ms)"
keys x
wait_gone 'Help:' 5
poll 5 shows ' [0-9]+% [1-9][0-9]*/[0-9]+ ETA [0-9]'
a=$(sed -n 's/.* \([0-9][0-9]*\)\/[0-9][0-9]* ETA.*/\1/p' "$W/screen" | head -n 1)
sleep 1
poll 5 shows ' [0-9]+% [1-9][0-9]*/[0-9]+ ETA [0-9]'
b=$(sed -n 's/.* \([0-9][0-9]*\)\/[0-9][0-9]* ETA.*/\1/p' "$W/screen" | head -n 1)
[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ]
ok $? "the count keeps moving between frames ($a, then $b a second later)"
keys q
took=$(within_ms 1500 'TL_EXIT=|really|y/n|\(y\)')
ok $? "q answers within 1.5 s ($took ms)"
shows 'TL_EXIT=' || keys y
wait_for 'TL_EXIT=' 10; ok $? "the lab ends"
done_testing
