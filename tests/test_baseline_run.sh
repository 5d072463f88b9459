#!/bin/sh
# `ticklab run --baseline FILE`: compares every cell with the
# same cell of a saved run, as `ticklab compare FILE NEW` would (same rows),
# puts the verdict under the table, in the cell's JSON and the Markdown,
# and exits as compare: 0 same, 1 different; a bad or unrelated baseline is
# refused (2) before any sampling.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read JSON"

sim='sim:sd=2,quantum=0.5'
run() { "$TL_BIN" run --backend "$sim" --kernel 'empty,add:1000,add:3000' -n 800 --seed 3 "$@"; }
run --json "$tmp/base.json" >/dev/null 2>&1
ok $? "a baseline run"
# The baseline with every sample 20 ns lower: this run is then 20 ns slower.
"$PY" - "$tmp/base.json" "$tmp/low.json" <<'EOF2'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["cells"]:
    if c["kind"] != "empty":
        c["samples"] = [v - 20.0 for v in c["samples"]]
        c["samples_ns"] = [v - 20.0 for v in c["samples_ns"]]
json.dump(doc, open(sys.argv[2], "w"))
EOF2

run --baseline "$tmp/base.json" --json "$tmp/same.json" --markdown "$tmp/same.md" >"$tmp/same.txt" 2>&1
ok $? "the same run against itself: exit 0"
grep -q "^against the baseline $tmp/base.json:" "$tmp/same.txt"; ok $? "the table names the baseline"
run --baseline "$tmp/low.json" --json "$tmp/slow.json" >"$tmp/slow.txt" 2>&1
st=$?
[ $st -eq 1 ]; ok $? "20 ns slower than the baseline: exit 1 (got $st)"
grep -q 'add:1000 .* different' "$tmp/slow.txt"; ok $? "the table says different"
"$TL_BIN" compare "$tmp/low.json" "$tmp/slow.json" --json "$tmp/cmp.json" >/dev/null 2>&1

"$PY" - "$tmp" >"$tmp/tap" <<'EOF2'
import json, sys
d = sys.argv[1]
def ok(cond, desc):
    print(("ok" if cond else "not ok") + " - " + desc)
same = json.load(open(d + "/same.json"))
slow = json.load(open(d + "/slow.json"))
cmp = json.load(open(d + "/cmp.json"))["cells"]
ok(same["baseline"]["cells_compared"] == 3 and same["baseline"]["cells_different"] == 0,
   "the run's baseline object: 3 cells compared, none different")
ok(all(c["baseline"]["verdict"] == "same" for c in same["cells"] if c["kind"] != "empty"),
   "identical samples: every kernel cell same")
rows = {c["kernel"]: c["baseline"] for c in slow["cells"]}
ok(all(rows[k]["verdict"] == "different" and rows[k]["ci_lo_ns"] <= 20 <= rows[k]["ci_hi_ns"]
       for k in ("add:1000", "add:3000")), "20 ns slower: different, the interval covers 20")
ok(all(rows[c["kernel"]] == c for c in cmp),
   "every row equals `ticklab compare BASE this-run`'s (one engine)")
EOF2
tap_from "$tmp/tap"
grep -q '^| sim:sd=2,quantum=0.5 | 0 | add:1000 | .* | same |$' "$tmp/same.md"
ok $? "the Markdown has the baseline verdicts"

expect_status 2 "a missing baseline" run --baseline "$tmp/nope.json"
"$TL_BIN" run --backend "$sim" --kernel add:7 -n 50 --baseline "$tmp/base.json" >"$tmp/o" 2>"$tmp/e"
st=$?
[ $st -eq 2 ] && grep -q 'has no cell this run measures' "$tmp/e" && ! grep -q sampling "$tmp/e"
ok $? "no cell in common: exit 2 before sampling (status $st)"
expect_status 2 "a bad --threshold" run --baseline "$tmp/base.json" --threshold 200

done_testing
