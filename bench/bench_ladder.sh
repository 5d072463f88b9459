#!/bin/sh
# The memory ladder against an independent pointer chase:
# bench/bench_ladder lays each size of load:4KiB..TOP out once in the lab
# (its own layout and timed loop) and in bench/chase_ref processes (which
# share no code with the lab), with the same method (huge-page buffers, a
# Sattolo visiting order, K = 1000, median less the empty median, the same
# warm-up), and measures them in rounds, the arms' order rotating, all on
# one CPU, so the shared host's drift hits both alike: on the development
# VM one 4MiB chase moved 25-202 ns within minutes, so a whole lab ladder
# then a whole reference ladder compares two different minutes, not two
# programs. lab/ref is the median over rounds of each round's ratio.
# Numbers only: `make bench` prints them, nothing passes or fails here.
#   TL_BENCH_LADDER_TOP  the ladder's top (2xL3, as the TUI's preset and the docs: one
#                        doubling past L3 is memory already, and each doubling
#                        doubles the largest buffer and its chase time)
#   TL_BENCH_ROUNDS      rounds per size (7)
#   TL_BENCH_N           timings per measurement (201)
#   TL_BENCH_CONTROL=1   a second reference process in the rotation: ref2/ref
#                        is the noise floor lab/ref cannot beat (half as long again)
#   TL_BENCH_LADDER_RUN=1  also the lab's own ladder run of the range, with
#                        its level checks
#   TL_BENCH_TIMER       the lab's timer (barrier-tsc where it opens, else
#                        clock-gettime)
bin=${TL_BIN:-./ticklab}
ref=${TL_CHASE_REF:-./bench/chase_ref}
ladder=${TL_BENCH_LADDER:-./bench/bench_ladder}
n=${TL_BENCH_N:-201}
top=${TL_BENCH_LADDER_TOP:-2xL3}
rounds=${TL_BENCH_ROUNDS:-7}

timer=${TL_BENCH_TIMER:-}
if [ -z "$timer" ]; then
	timer=clock-gettime
	"$bin" run -b barrier-tsc -n 10 -k empty -q 2>/dev/null && timer=barrier-tsc
fi
control=
[ -n "$TL_BENCH_CONTROL" ] && control=-c
nice -n 15 "$ladder" -b "$timer" -n "$n" -r "$rounds" $control "$ref" "load:4KiB..$top" || exit 1

if [ -n "$TL_BENCH_LADDER_RUN" ]; then
	nice -n 15 "$bin" run -b "$timer" -n "$n" -k "load:4KiB..$top" 2>/dev/null |
		awk '/^memory ladder/ { f = 1; print; next } f && /^  / { print; next } { f = 0 }'
fi

nice -n 15 "$bin" run -b "$timer" -n 1000 \
	-k 'add:0:20000:2000,mul:0:20000:2000,fma:0:20000:2000' 2>/dev/null |
	sed -n '/^chains/,/^[a-z]/p' | grep -v '^memory'
