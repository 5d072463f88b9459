#!/bin/sh
# The jitter shift's interval holds across runs: eight seeded runs of one
# jitter cell on the node's barrier timer, each beside add:0 and add:8000;
# the truth is D x ns per ADD measured as the shift is (the cell's own
# chain, else those cells' slope). The core clock can differ from run to run, and the kernel
# can deliver D short by a fixed part on a given CPU (its plain samples pay
# for the ADDs beside their chain), so each run's shift is read as a share
# of its own truth; a 95 % interval, read the same way, must cover the
# median share of the other seven runs (widened by that median's own
# error) in at least 6 of 8 (all intervals honest at 95 %: 8 of 8 about 2
# run sets in 3, fewer than 6 about 1 in 170). A
# D = 0 cell in the same runs is called detected in at most 2 of 8 (alpha
# 0.05 each: 3 or more about 1 run set in 170). Every expectation comes from
# the runs themselves.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read JSON"
case "$(uname -m)" in x86_64) ;; *) skip_all "barrier-tsc is x86-64 only" ;; esac
"$TL_BIN" run --backend barrier-tsc --kernel add:0 -n 10 >/dev/null 2>&1 ||
	skip_all "barrier-tsc does not run on this node"

seeds="1 2 3 4 5 6 7 8"
for s in $seeds; do
	"$TL_BIN" run --backend barrier-tsc \
		--kernel 'jitter:500,64,0.5,jitter:500,0,0.5,add:0,add:8000' \
		-n 3000 --seed "$s" --json "$tmp/j$s.json" >"$tmp/t$s" 2>&1 ||
		echo "seed $s failed" >>"$tmp/fail"
done
[ ! -e "$tmp/fail" ]; ok $? "8 barrier-tsc runs of jitter:500,64,0.5 and jitter:500,0,0.5 beside add:0, add:8000 exit 0"
grep -Eq "slope of this run's add:K medians|D ADDs on the chain in this cell" "$tmp/t1"
ok $? "the table says where the truth's ns per ADD came from"

"$PY" - "$tmp" $seeds >"$tmp/tap" <<'EOF2'
import json, statistics as st, sys
d = sys.argv[1]
seeds = sys.argv[2:]
def ok(cond, desc):
    print(("ok" if cond else "not ok") + " - " + desc)
runs = []
for s in seeds:
    cells = {c["kernel"]: c for c in json.load(open("%s/j%s.json" % (d, s)))["cells"]}
    runs.append((cells["jitter:500,64,0.5"]["jitter"], cells["jitter:500,0,0.5"]["jitter"]))
ok(all((j["truth"] == "harness" and j["ns_per_add"] == j["ns_per_add_harness"] or
        j["truth"] == "chain" and j["ns_per_add"] == j["ns_per_add_chain"]) and
       abs(j["true_shift_ns"] - 64 * j["ns_per_add"]) < 1e-9 and
       j["ns_per_add_chain"] > 0 and j["ns_per_add_calibrated"] > 0 for j, _ in runs),
   "true shift = 64 x the cell's own chain's ns per ADD (or the add:K slope), both kept with the calibration")
ok(all(j["ci_blocks"] >= 5 and "time blocks" in j["ci_method"] for j, _ in runs),
   "the interval's method names its time blocks")
ok(all((j["covers_truth"] is False) == (j["truth_miss"] is not None and
                                         j["truth_miss"].startswith("measured "))
       for j, _ in runs),
   "a run whose interval misses its truth says 'measured X of Y ns injected', and only then")
share = [j["shift_ns"] / j["true_shift_ns"] for j, _ in runs]
cover = 0
for i, (j, _) in enumerate(runs):
    rest = share[:i] + share[i + 1:]
    others = st.median(rest)
    # The truth's own spread (the chain's) widens the share's interval, and
    # so does the centre's: a median of seven draws has its own error
    # (1.2533 sd / sqrt(7) for a normal), not the interval's to answer for.
    slack = 64 * j["ns_per_add_half"] if j["ns_per_add_half"] else 0
    centre = 1.96 * 1.2533 * st.stdev(rest) / len(rest) ** 0.5
    t = j["true_shift_ns"]
    lo = share[i] - (((j["shift_ns"] - j["ci_lo_ns"] + slack) / t) ** 2 + centre ** 2) ** 0.5
    hi = share[i] + (((j["ci_hi_ns"] - j["shift_ns"] + slack) / t) ** 2 + centre ** 2) ** 0.5
    cover += lo <= others <= hi
    print("# seed %s: shift %.3f [%.3f, %.3f] ns of %.3f ns: share %.4f [%.4f, %.4f], others %.4f"
          % (seeds[i], j["shift_ns"], j["ci_lo_ns"], j["ci_hi_ns"], j["true_shift_ns"],
             share[i], lo, hi, others))
ok(cover >= 6, "%d of 8 intervals cover the other runs' median share of the truth (>= 6)" % cover)
det0 = sum(z["detected"] for _, z in runs)
ok(det0 <= 2, "D = 0 called detected in %d of 8 runs (<= 2)" % det0)
EOF2
tap_from "$tmp/tap"
done_testing
