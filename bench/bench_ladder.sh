#!/bin/sh
# The memory ladder against an independent pointer chase (issue 14): the
# lab's load:4KiB..4xL3 (size -> ns per load = p50 / K, level) beside
# bench/chase_ref, which shares no code with the lab, over the same sizes,
# and the ratio of the two; then mul/fma slopes in cycles per op with R^2.
# Numbers only: `make bench` prints them, nothing passes or fails here.
# TL_BENCH_TIMER picks the lab's timer (default: barrier-tsc where it
# opens, else clock-gettime); TL_BENCH_N its samples per size (300).
bin=${TL_BIN:-./ticklab}
ref=${TL_CHASE_REF:-./bench/chase_ref}
n=${TL_BENCH_N:-300}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

timer=${TL_BENCH_TIMER:-}
if [ -z "$timer" ]; then
	timer=clock-gettime
	"$bin" run -b barrier-tsc -n 10 -k empty -q 2>/dev/null && timer=barrier-tsc
fi
nice -n 15 "$bin" run -b "$timer" -n "$n" -k 'load:4KiB..4xL3' >"$tmp/lab" 2>"$tmp/err" || {
	echo "ladder: ticklab run failed:"; cat "$tmp/err"; exit 1; }

# Exact bytes from the table's labels (load:SIZE,K), ns per load = p50 / K.
awk '$3 ~ /^load:/ { split(substr($3, 6), a, ","); s = a[1]; m = 1;
	if (s ~ /KiB$/) { m = 1024; sub(/KiB$/, "", s) } else if (s ~ /MiB$/) { m = 1048576; sub(/MiB$/, "", s) }
	printf "%.0f %s\n", s * m, $9 / a[2] }' "$tmp/lab" >"$tmp/labns"
sed -n '/^memory ladder/,/^  levels/p' "$tmp/lab" | awk 'NR > 2 && /^  [0-9]/ { print $3 }' >"$tmp/levels"
nice -n 15 "$ref" -r "$n" $(cut -d' ' -f1 "$tmp/labns") >"$tmp/ref" || exit 1

echo "memory ladder, $timer, $n samples a size, vs bench/chase_ref (clock_gettime, own code):"
printf "  %12s %10s %10s %7s  %s\n" bytes "lab ns" "ref ns" "lab/ref" level
paste -d' ' "$tmp/labns" "$tmp/ref" "$tmp/levels" | awk '
	{ r = $2 / $4; printf "  %12d %10.2f %10.2f %7.3f  %s\n", $1, $2, $4, r, $5;
	  if (r > 1.1 || r < 1 / 1.1) off++ }
	END { printf "  %d of %d sizes differ by more than 10 %%\n", off, NR }'
sed -n '/^  levels/,/^[a-z]/p' "$tmp/lab" | grep '^  '

nice -n 15 "$bin" run -b "$timer" -n 1000 \
	-k 'add:0:20000:2000,mul:0:20000:2000,fma:0:20000:2000' 2>/dev/null |
	sed -n '/^chains/,/^[a-z]/p' | grep -v '^memory'
