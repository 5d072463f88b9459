#!/bin/sh
# div:K, the kernel added through the kernel table: its time grows with K,
# on the sim (whose DIV costs 14 ADDs: the medians step by that) and on a
# real timer of this node (barrier-tsc where it opens, else clock-gettime):
# the medians of div:0 < div:200 < div:2000 and the
# step over 1800 divides at least 3 times the one over 200, in every one of
# three runs with different seeds. A run file with
# div cells reads back through report --json with the same kernels, and
# one whose kernel or kind was altered is refused.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
: "${TL_BIN:=./ticklab}"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed to read the run files"
D=$(mktemp -d) || exit 1
trap 'rm -rf "$D"' EXIT

real=clock-gettime
"$TL_BIN" run -b barrier-tsc -k empty -n 10 -q >/dev/null 2>&1 && real=barrier-tsc

# grows FILE: p50 of div:0 < div:200 < div:2000, and the step over 1800
# divides more than 3 times the step over 200 (9 times when linear)
grows() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["kernel"]: x["summary"] for x in d["cells"] if not x.get("hidden")}
a, b, e = (c["div:%d" % k] for k in (0, 200, 2000))
ok = a["p50"] < b["p50"] < e["p50"] and e["p50"] - b["p50"] > 3 * (b["p50"] - a["p50"])
print("%.1f %.1f %.1f" % (a["p50"], b["p50"], e["p50"]))
sys.exit(0 if ok else 1)
PY
}

for seed in 1 2 3; do
	"$TL_BIN" run -b sim -k div:0,div:200,div:2000 -n 300 --seed $seed -q --json "$D/sim$seed.json" >/dev/null 2>"$D/err"
	ok $? "sim run with div cells, seed $seed"
	m=$(grows "$D/sim$seed.json"); ok $? "sim, seed $seed: p50 grows with K ($m ns)"
	"$TL_BIN" run -b "$real" -k div:0,div:200,div:2000 -n 300 --seed $seed -q --json "$D/real$seed.json" >/dev/null 2>"$D/err"
	ok $? "$real run with div cells, seed $seed"
	m=$(grows "$D/real$seed.json"); ok $? "$real, seed $seed: p50 grows with K ($m ns)"
done

# On the sim the slope is the model's: 14 ADDs of ns_per_add (0.3 ns) a divide.
python3 - "$D/sim1.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = {x["kernel"]: x["summary"]["p50"] for x in d["cells"] if not x.get("hidden")}
slope = (c["div:2000"] - c["div:200"]) / 1800
sys.exit(0 if abs(slope - 14 * 0.3) < 0.1 else 1)
PY
ok $? "sim: ns per DIV is the model's 14 x 0.3 ns"

"$TL_BIN" report "$D/real1.json" --json "$D/back.json" >/dev/null 2>"$D/err"
ok $? "report reads the div run back"
python3 - "$D/real1.json" "$D/back.json" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
k = lambda d: [(c["kernel"], c["kind"]) for c in d["cells"]]
sys.exit(0 if k(a) == k(b) and ("div:2000", "div") in k(a) else 1)
PY
ok $? "report --json keeps the div cells (kernel and kind)"

# A saved kernel goes through the command line's parser: a misspelt one is
# refused with status 2 (and the table's kernels), and so is a "kind"
# that is not the kernel's family.
python3 - "$D/real1.json" "$D/typo.json" "$D/kind.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = next(x for x in d["cells"] if x["kernel"] == "div:2000")
c["kernel"] = "dvi:2000"
json.dump(d, open(sys.argv[2], "w"))
c["kernel"], c["kind"] = "div:2000", "add"
json.dump(d, open(sys.argv[3], "w"))
PY
"$TL_BIN" report "$D/typo.json" >/dev/null 2>"$D/err"; st=$?
[ $st -eq 2 ] && grep -q 'cells\[[0-9]*\]\.kernel: unknown kernel "dvi:2000"; accepted: .*div:K' "$D/err"
ok $? "a saved dvi:2000 is refused, status 2 ($st), naming the key and the table's kernels"
"$TL_BIN" report "$D/kind.json" >/dev/null 2>"$D/err"; st=$?
[ $st -eq 2 ] && grep -q "kind: is 'add' but kernel 'div:2000' is of kind 'div'" "$D/err"
ok $? "a saved kind that is not the kernel's is refused, status 2 ($st)"
done_testing
