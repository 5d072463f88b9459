#!/bin/sh
# `ticklab report` re-analyses a saved run and prints exactly what the live
# run printed; it refuses files that are not a ticklab run with status 2 and
# one line naming the file and the problem, without crashing.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to edit JSON"

backends=sim:sd=5,quantum=10,spike_rate=0.01,spike_ns=2000,clock-gettime
case $(uname -m) in x86_64 | i?86) backends=barrier-tsc,$backends ;; esac

# --- live run vs report -----------------------------------------------------
"$TL_BIN" run --backend "$backends" --flush 0,32KiB --kernel add:0,add:300,jitter:300,40,0.1 \
	-n 600 --seed 42 --json "$tmp/run.json" >"$tmp/live.txt" 2>/dev/null
ok $? "the live run exits 0"
"$TL_BIN" report "$tmp/run.json" >"$tmp/report.txt" 2>"$tmp/err"
ok $? "report exits 0"
cmp -s "$tmp/live.txt" "$tmp/report.txt"; ok $? "report prints exactly the live run's table"
[ "$(wc -l <"$tmp/report.txt")" -ge 19 ]; ok $? "the table has a row per cell"
"$TL_BIN" report - <"$tmp/run.json" >"$tmp/stdin.txt" 2>/dev/null
cmp -s "$tmp/live.txt" "$tmp/stdin.txt"; ok $? "report - reads the run from standard input"

for m in iqr none; do
	"$TL_BIN" run --backend sim,clock-gettime --kernel add:100 -n 300 --os-filter $m \
		--json "$tmp/$m.json" >"$tmp/live_$m.txt" 2>/dev/null
	"$TL_BIN" report "$tmp/$m.json" >"$tmp/rep_$m.txt" 2>/dev/null
	cmp -s "$tmp/live_$m.txt" "$tmp/rep_$m.txt"; ok $? "report reproduces a run filtered with $m"
done
# A seed above 2^63 goes to JSON as decimal text (jansson integers are signed).
"$TL_BIN" run --backend sim --kernel add:100 -n 300 --seed 18446744073709551615 \
	--json "$tmp/bigseed.json" >"$tmp/live_big.txt" 2>/dev/null
"$TL_BIN" report "$tmp/bigseed.json" >"$tmp/rep_big.txt" 2>/dev/null
cmp -s "$tmp/live_big.txt" "$tmp/rep_big.txt" && grep -q 'seed 18446744073709551615' "$tmp/rep_big.txt"
ok $? "a 64-bit seed survives the file and reproduces the run"
"$TL_BIN" report "$tmp/run.json" --os-filter none >"$tmp/none.txt" 2>/dev/null
grep -q 'filter_os (none' "$tmp/none.txt"; ok $? "--os-filter overrides the file's filter"

"$TL_BIN" report "$tmp/run.json" --json "$tmp/again.json" --csv "$tmp/again.csv" >/dev/null 2>&1
ok $? "report --json --csv exits 0"
"$PY" - "$tmp/run.json" "$tmp/again.json" >"$tmp/tap" <<'EOF'
import json, sys
a, b = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
def ok(cond, desc):
    print(("ok" if cond else "not ok") + " - " + desc)
ok(len(a["cells"]) == len(b["cells"]) and len(a["baselines"]) == len(b["baselines"]),
   "the re-written run has the same cells and baselines")
same = all(x[k] == y[k] for x, y in zip(a["cells"] + a["baselines"], b["cells"] + b["baselines"])
           for k in ("backend", "kernel", "flush_bytes", "n", "overhead", "resolution_ns",
                     "samples", "samples_ns", "summary", "os_filter"))
ok(same, "raw samples, summaries and filter results are bit-identical after a round trip")
ok(a["host"] == b["host"] and a["seed"] == b["seed"], "host and seed carried over")
EOF
tap_from "$tmp/tap"
head -n 1 "$tmp/again.csv" | grep -qx 'backend,flush_bytes,kernel,k,i,raw,ns'; ok $? "report --csv writes the samples"

# --- files that are not a ticklab run -----------------------------------------
# expect_bad DESC PATTERN FILE: status 2, one stderr line with the file name
# and PATTERN.
expect_bad() {
	"$TL_BIN" report "$3" >"$tmp/out" 2>"$tmp/err"; st=$?
	lines=$(wc -l <"$tmp/err")
	if [ $st -eq 2 ] && [ "$lines" -eq 1 ] && grep -qF -- "$3" "$tmp/err" && grep -qF -- "$2" "$tmp/err"; then
		ok 0 "$1: status 2 naming the file and '$2'"
	else
		ok 1 "$1: status 2 naming the file and '$2' (got status $st, $lines lines)"
		sed 's/^/#   /' "$tmp/err" | head -n 3
	fi
}

"$TL_BIN" run --backend sim --kernel add:10 -n 5 --json "$tmp/small.json" >/dev/null 2>&1
expect_bad "missing file" "No such file" "$tmp/missing.json"
printf 'not json at all\n' >"$tmp/garbage.json"
expect_bad "garbage" "not valid JSON" "$tmp/garbage.json"
head -c 300 "$tmp/small.json" >"$tmp/truncated.json"
expect_bad "truncated JSON" "not valid JSON" "$tmp/truncated.json"
: >"$tmp/empty.json"
expect_bad "empty file" "not valid JSON" "$tmp/empty.json"
echo '[1, 2, 3]' >"$tmp/array.json"
expect_bad "an array" "expected a ticklab run" "$tmp/array.json"
dd if=/dev/urandom of="$tmp/random.json" bs=1k count=4 2>/dev/null
"$TL_BIN" report "$tmp/random.json" >/dev/null 2>&1; st=$?
[ $st -eq 2 ]; ok $? "random bytes: status 2 (got $st)"

# mutate NAME PYTHON-STATEMENT: a copy of small.json with d (the document)
# and c (its first cell) edited.
mutate() {
	"$PY" - "$tmp/small.json" "$tmp/$1.json" "$2" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["cells"][0]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
EOF
}
mutate nocells 'del d["cells"]'
expect_bad "no cells key" "cells: missing" "$tmp/nocells.json"
mutate emptycells 'd["cells"] = []'
expect_bad "empty cells" "no cells" "$tmp/emptycells.json"
mutate nosamples 'del c["samples"]'
expect_bad "a cell without samples" "cells[0].samples: missing" "$tmp/nosamples.json"
mutate strsamples 'c["samples"] = "1,2,3"'
expect_bad "samples of the wrong type" "cells[0].samples: expected an array" "$tmp/strsamples.json"
mutate badvalue 'c["samples_ns"][2] = "x"'
expect_bad "a sample that is a string" "value 2" "$tmp/badvalue.json"
mutate negn 'c["n"] = -4'
expect_bad "negative n" "cells[0].n: must be >= 0" "$tmp/negn.json"
mutate shortn 'c["n"] = 3'
expect_bad "n disagreeing with the samples" "has 5 values but n is 3" "$tmp/shortn.json"
mutate backend 'c["backend"] = "sundial"'
expect_bad "unknown backend" "unknown backend 'sundial'" "$tmp/backend.json"
mutate kernel 'c["kernel"] = "add:-1"'
expect_bad "bad kernel" "cells[0].kernel" "$tmp/kernel.json"
mutate kmismatch 'c["k"] = 11'
expect_bad "k disagreeing with the kernel" "cells[0].k" "$tmp/kmismatch.json"
mutate seed 'd["seed"] = "soon"'
expect_bad "bad seed" "seed" "$tmp/seed.json"
mutate noseed 'del d["seed"]'
expect_bad "no seed" "seed: missing" "$tmp/noseed.json"
mutate filter 'd["os_filter"] = "magic"'
expect_bad "unknown filter" "os_filter" "$tmp/filter.json"
mutate nobase 'd["baselines"] = []'
expect_bad "no baseline for a cell" "no empty baseline" "$tmp/nobase.json"
mutate npu 'c["ns_per_unit"] = -1'
expect_bad "negative ns_per_unit" "ns_per_unit" "$tmp/npu.json"
mutate cellnum 'd["cells"][0] = 5'
expect_bad "a cell that is a number" "cells[0]: expected an object" "$tmp/cellnum.json"
mutate huge 'c["n"] = 4000000000; c["n_planned"] = 4000000000'
expect_bad "a cell claiming 4e9 samples" "has 5 values but n is 4000000000" "$tmp/huge.json"
echo '{"host": {}, "results": []}' >"$tmp/search.json"
expect_bad "a search result" "ticklab search" "$tmp/search.json"

# --- the raw form: each sample once ------------------------------------------
# A signal keeps a run raw (analysed: false) with "samples" only, in the
# backend's unit; every reader makes samples_ns as the runner did, samples
# x ns_per_unit. The same file without its samples_ns and analyses must
# read back to the same table and the very same samples_ns.
"$PY" - "$tmp/run.json" "$tmp/raw.json" "$tmp/rawhuge.json" <<'EOF2'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["cells"] + d["baselines"]:
    for k in ("samples_ns", "summary", "os_filter", "drift", "jitter"):
        c.pop(k, None)
d["analysed"] = False
json.dump(d, open(sys.argv[2], "w"))
c = [c for c in d["cells"] if c["backend"] == "clock-gettime"][0]
c["ns_per_unit"] = 1e15 / max(c["samples"]) * 10
json.dump(d, open(sys.argv[3], "w"))
EOF2
"$TL_BIN" report "$tmp/raw.json" >"$tmp/raw.txt" 2>/dev/null
cmp -s "$tmp/live.txt" "$tmp/raw.txt"; ok $? "a raw file without samples_ns reports the live run's table"
"$TL_BIN" report "$tmp/raw.json" --json "$tmp/raw_back.json" >/dev/null 2>&1
"$PY" - "$tmp/run.json" "$tmp/raw_back.json" <<'EOF2'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
same = all(x["samples_ns"] == y["samples_ns"]
           for x, y in zip(a["cells"] + a["baselines"], b["cells"] + b["baselines"]))
sys.exit(0 if same else 1)
EOF2
ok $? "the samples_ns it makes are the runner's, value for value"
expect_status 0 "compare reads a raw file" "$TL_BIN" compare "$tmp/run.json" "$tmp/raw.json"
"$TL_BIN" plot "$tmp/raw.json" -o "$tmp/raw.svg" >/dev/null 2>"$tmp/err"; st=$?
# a build without cairo says so and draws nothing
[ $st -eq 0 ] || grep -q "without cairo" "$tmp/err"; ok $? "plot reads a raw file (status $st)"
expect_bad "samples x ns_per_unit past 1e15 ns" ".samples: value" "$tmp/rawhuge.json"

done_testing
