#!/bin/sh
# `ticklab compare`: a run against itself is "same" with p = 1,
# a copy with a known offset added to every sample is "different" with the
# offset inside the interval, and bad input exits 2 saying what is accepted.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read JSON"

sim='sim:sd=2,quantum=0.5'
"$TL_BIN" run --backend "$sim" --kernel add:1000,add:3000 -n 800 --seed 3 --json "$tmp/a.json" \
	>/dev/null 2>&1
ok $? "a sim run"
"$TL_BIN" run --backend "$sim" --kernel add:1000,add:3000 -n 800 --seed 3 --json "$tmp/a2.json" \
	>/dev/null 2>&1
# +20 ns (over 1 % of every median) on every sample of the second file (sim reads in ns: raw = ns).
"$PY" - "$tmp/a.json" "$tmp/off.json" <<'EOF2'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["cells"]:
    c["samples"] = [v + 20.0 for v in c["samples"]]
    c["samples_ns"] = [v + 20.0 for v in c["samples_ns"]]
json.dump(doc, open(sys.argv[2], "w"))
EOF2

"$TL_BIN" compare "$tmp/a.json" "$tmp/a2.json" --json "$tmp/same.json" >"$tmp/same.txt" 2>&1
ok $? "the same seed twice: exit 0 (nothing differs)"
"$TL_BIN" compare "$tmp/a.json" "$tmp/off.json" --json "$tmp/off_cmp.json" >"$tmp/off.txt" 2>&1
st=$?
[ $st -eq 1 ]; ok $? "a 20 ns offset: exit 1 (something differs; got $st)"
grep -q 'add:1000 .* different' "$tmp/off.txt"; ok $? "the table says different"

"$PY" - "$tmp/same.json" "$tmp/off_cmp.json" >"$tmp/tap" <<'EOF2'
import json, sys
def ok(cond, desc):
    print(("ok" if cond else "not ok") + " - " + desc)
same = json.load(open(sys.argv[1]))
off = json.load(open(sys.argv[2]))
ok(same["ticklab"]["command"] == "compare" and len(same["cells"]) == 2, "one row per common cell")
ok(all(c["verdict"] == "same" and c["shift_ns"] == 0 and c["mwu_p"] == 1 and c["ks_p"] == 1
       for c in same["cells"]), "same seed: shift 0, p = 1, same")
ok(all(c["verdict"] == "different" and c["ci_lo_ns"] <= 20 <= c["ci_hi_ns"] and c["mwu_p"] < 1e-6
       for c in off["cells"]), "offset 20 ns: different, interval covers 20, MWU p < 1e-6")
ok(all(abs(c["shift_ns"] - 20) < 1e-9 and abs(c["median_diff_ns"] - 20) < 1e-9 for c in off["cells"]),
   "a pure offset gives shift = difference of medians = 20 exactly")
ok(all(abs(c["shift_pct"] - 100 * 20 / c["median_base_ns"]) < 1e-9 for c in off["cells"]),
   "shift in % of BASE's median")
EOF2
tap_from "$tmp/tap"

expect_status 2 "one file only" "$TL_BIN" compare "$tmp/a.json"
expect_status 2 "a missing file" "$TL_BIN" compare "$tmp/a.json" "$tmp/nope.json"
expect_status 2 "a bad --threshold" "$TL_BIN" compare --threshold -1 "$tmp/a.json" "$tmp/a.json"
"$TL_BIN" run --backend "$sim" --kernel add:7 -n 50 --json "$tmp/other.json" >/dev/null 2>&1
"$TL_BIN" compare "$tmp/a.json" "$tmp/other.json" 2>"$tmp/err"; st=$?
[ $st -eq 2 ] && grep -q 'no cell in common.*backend id, flush size and kernel' "$tmp/err"
ok $? "no common cell: exit 2 naming how cells match (status $st)"

done_testing
