#!/bin/sh
# The memory ladder against an independent pointer chase (issue 14), size by
# size: for each size of load:4KiB..TOP (as bench/ladder_sizes expands it
# here), the lab's `run -k load:SIZE` and bench/chase_ref (which shares no
# code with the lab) on the same CPU, back to back, their order alternating
# between rounds. Pairing matters on a shared host: its L3 and memory are
# shared with other guests, and one chase of the same size moved 2-8x within
# minutes on the development VM, so a whole lab ladder then a whole reference
# ladder compares two different minutes, not two programs.
# Prints per size the median over rounds of each, lab/ref, and the level.
# Numbers only: `make bench` prints them, nothing passes or fails here.
#   TL_BENCH_LADDER_TOP  the ladder's top (2xL3; 4xL3 is the issue's full
#                        ladder, about twice as long again)
#   TL_BENCH_ROUNDS      pairs per size (1)
#   TL_BENCH_N           samples per size (300)
#   TL_BENCH_CONTROL=1   a second reference run per round: its ratio to the
#                        first is the noise floor lab/ref cannot beat
#   TL_BENCH_LADDER_RUN=1  also the lab's own ladder run of the range, with
#                        its level checks
#   TL_BENCH_TIMER       the lab's timer (barrier-tsc where it opens, else
#                        clock-gettime)
bin=${TL_BIN:-./ticklab}
ref=${TL_CHASE_REF:-./bench/chase_ref}
sizes_of=${TL_LADDER_SIZES:-./bench/ladder_sizes}
n=${TL_BENCH_N:-300}
top=${TL_BENCH_LADDER_TOP:-2xL3}
rounds=${TL_BENCH_ROUNDS:-1}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

timer=${TL_BENCH_TIMER:-}
if [ -z "$timer" ]; then
	timer=clock-gettime
	"$bin" run -b barrier-tsc -n 10 -k empty -q 2>/dev/null && timer=barrier-tsc
fi
"$sizes_of" "load:4KiB..$top" >"$tmp/sizes" || exit 1

# lab BYTES: "NS LEVEL" from the ladder table of a one-size run; its CPU to $tmp/cpu.
lab() {
	nice -n 15 "$bin" run -b "$timer" -n "$n" -k "load:$1" >"$tmp/lab" \
		2>"$tmp/err" || { echo "ladder: ticklab run failed:" >&2; cat "$tmp/err" >&2; exit 1; }
	sed -n 's/^sampling on CPU \([0-9]*\).*/\1/p' "$tmp/err" >"$tmp/cpu"
	awk '/^memory ladder/ { f = 1; next } f && /^  [0-9]/ { print $2, $3; exit }' "$tmp/lab"
}
# ref BYTES: ns per load from chase_ref, on the lab's CPU where taskset is here.
ref() {
	pin=
	[ -s "$tmp/cpu" ] && command -v taskset >/dev/null 2>&1 && pin="taskset -c $(cat "$tmp/cpu")"
	nice -n 15 $pin "$ref" -r "$n" "$1" | awk '{ print $2 }'
}

r=1
while [ "$r" -le "$rounds" ]; do
	while read -r b; do
		if [ $((r % 2)) -eq 1 ]; then l=$(lab "$b"); f=$(ref "$b")
		else f=$(ref "$b"); l=$(lab "$b"); fi
		c=-
		[ -n "$TL_BENCH_CONTROL" ] && c=$(ref "$b")
		echo "$b $l $f $c" >>"$tmp/pairs"
	done <"$tmp/sizes"
	r=$((r + 1))
done

echo "memory ladder, $timer, $n samples a size, $rounds round(s) of back-to-back pairs," \
	"vs bench/chase_ref (clock_gettime, own code):"
printf "  %12s %10s %10s %7s %8s  %s\n" bytes "lab ns" "ref ns" "lab/ref" "ref/ref" level
sort -n -s -k1,1 "$tmp/pairs" | awk '
	function med(s,   a, k, i, j, t) { k = split(s, a, " ");
		for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
	function flush() { if (b == "") return; lm = med(L); rm = med(R); q = lm / rm;
		cq = C == "" ? "-" : sprintf("%.3f", med(C) / rm);
		printf "  %12d %10.2f %10.2f %7.3f %8s  %s\n", b, lm, rm, q, cq, lev;
		m++; if (q <= 1.1 && q >= 1 / 1.1) ok++;
		if (C != "") { cm++; cr = med(C) / rm; if (cr <= 1.1 && cr >= 1 / 1.1) cok++ } }
	$1 != b { flush(); b = $1; L = R = C = "" }
	{ L = L " " $2; lev = $3; R = R " " $4; if ($5 != "-") C = C " " $5 }
	END { flush(); printf "  %d of %d sizes agree within 10 %% (lab/ref)\n", ok, m;
		if (cm) printf "  the reference against itself: %d of %d within 10 %% (the host'\''s noise floor)\n", cok, cm }'

if [ -n "$TL_BENCH_LADDER_RUN" ]; then
	nice -n 15 "$bin" run -b "$timer" -n "$n" -k "load:4KiB..$top" 2>/dev/null |
		awk '/^memory ladder/ { f = 1; print; next } f && /^  / { print; next } { f = 0 }'
fi

nice -n 15 "$bin" run -b "$timer" -n 1000 \
	-k 'add:0:20000:2000,mul:0:20000:2000,fma:0:20000:2000' 2>/dev/null |
	sed -n '/^chains/,/^[a-z]/p' | grep -v '^memory'
