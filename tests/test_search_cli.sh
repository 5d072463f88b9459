#!/bin/sh
# `ticklab search`: every bad input exits 2 with one line naming the value,
# and a small search on the sim backend writes the SPEC section 5 keys.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
bin=${TL_BIN:-./ticklab}

"$bin" search --help >/dev/null 2>&1 || skip_all "ticklab does not dispatch 'search' yet"

sim='sim:sd=5,quantum=0,spike_rate=0'
expect_status 2 "no --backend" "$bin" search
expect_status 2 "unknown backend" "$bin" search --backend nope
expect_status 2 "unknown method" "$bin" search --backend sim --method slow
expect_status 2 "eps 0" "$bin" search --backend sim --eps 0
expect_status 2 "alpha 2" "$bin" search --backend sim --alpha 2
expect_status 2 "-n 0" "$bin" search --backend sim -n 0
expect_status 2 "-n 5 (too small for a CV)" "$bin" search --backend sim -n 5
expect_status 2 "--p 0" "$bin" search --backend sim --p 0
expect_status 2 "--q x" "$bin" search --backend sim --q x
expect_status 2 "unknown metric" "$bin" search --backend sim --metric foo
expect_status 2 "max-adds 0" "$bin" search --backend sim --max-adds 0
expect_status 2 "max-adds 1.5" "$bin" search --backend sim --max-adds 1.5
expect_status 2 "tmin-step -1" "$bin" search --backend sim --tmin-step -1
expect_status 2 "reference not in the list" "$bin" search --backend sim --reference rdtsc
expect_status 2 "unknown os filter" "$bin" search --backend sim --os-filter x
expect_status 2 "bad flush" "$bin" search --backend sim --flush bogus
expect_status 2 "unknown option" "$bin" search --backend sim --bogus
expect_status 2 "missing value" "$bin" search --backend sim --p
expect_status 2 "json into a missing directory" "$bin" search --backend sim --json /nonexistent/x.json
expect_status 2 "stray argument" "$bin" search --backend sim extra
expect_status 2 "budget 0" "$bin" search --backend sim --budget 0

# one line on stderr, naming the bad value
"$bin" search --backend sim --eps 7 2>err.$$ >/dev/null
lines=$(wc -l <err.$$)
[ "$lines" -eq 1 ] && grep -q "'7'" err.$$; ok $? "bad --eps: one line naming '7'"
rm -f err.$$

out=search.$$.json
expect_status 0 "small sim search" "$bin" search --backend "$sim,sim:sd=10,quantum=0,spike_rate=0" \
	-n 300 --p 3 --q 4 --reference "$sim" --json "$out"
for key in '"host"' '"results"' '"backend"' '"flush_bytes"' '"tmin"' '"tdiff"' '"adds"' \
	'"ns"' '"method"' '"measurements"' '"seconds"' '"ratio_tmin"' '"ratio_tdiff"'; do
	grep -q "$key" "$out"; ok $? "JSON has $key"
done
grep -Eq '"method": *"fast"' "$out"; ok $? "fast is the default method"
# sd 10 needs twice the K of sd 5 for the same CV: the reference is ~2x more precise
"$bin" search --backend "$sim,sim:sd=10,quantum=0,spike_rate=0" -n 300 --p 3 --q 4 \
	--reference "$sim" --metric tmin >table.$$ 2>&1
grep -Eq 'sim:sd=10,quantum=0,spike_rate=0 @ 0: (1\.[6-9][0-9]*|2(\.[0-4][0-9]*)?)x less precise' table.$$
ok $? "ratio line: sd 10 is about 2x less precise than sd 5"
grep '@ 0:' table.$$ | sed 's/^/# /'
rm -f "$out" table.$$

# Ctrl-C: the search stops, prints and writes what it found, exits 130
"$bin" search --backend "$sim" --method paper -n 100000 --json "$out" >/dev/null 2>err.$$ &
pid=$!
sleep 2
kill -INT $pid
wait $pid
st=$?
[ "$st" -eq 130 ]; ok $? "SIGINT: exit status 130 (got $st)"
grep -Eq '"interrupted": *true' "$out"; ok $? "SIGINT: the JSON is written and says interrupted"
grep -q "interrupted" err.$$; ok $? "SIGINT: says so on stderr"
rm -f "$out" err.$$

done_testing
