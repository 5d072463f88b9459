#!/bin/sh
# The injected variation measured: `ticklab run` on the sim
# backend reports, per jitter cell, the shift of the injected samples with
# its interval beside the true D x ns per ADD, and says detected for a
# large D and not detected for D = 0 (a rate over seeds: at alpha = 0.05
# about one seed in twenty is a false alarm by design).
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read JSON"

sim='sim:sd=2,quantum=0.5'
seeds="1 2 3 4 5 6 7 8 9 10 11 12"
for s in $seeds; do
	"$TL_BIN" run --backend "$sim" --kernel 'jitter:200,40,0.3,jitter:200,0,0.3' -n 1000 \
		--seed "$s" --json "$tmp/j$s.json" >"$tmp/t$s" 2>&1 || echo "seed $s failed" >>"$tmp/fail"
done
[ ! -e "$tmp/fail" ]; ok $? "12 sim runs with jitter cells exit 0"
grep -q '^injected variation' "$tmp/t1"; ok $? "the table has the injected-variation section"
grep -q 'jitter:200,40,0.3: +40 ADDs = .* ns; shift .* \[.*\].*: detected at alpha = 0.05' "$tmp/t1"
ok $? "a line per jitter cell: true shift, estimate, interval, verdict"

"$PY" - "$tmp" $seeds >"$tmp/tap" <<'EOF2'
import json, sys
d = sys.argv[1]
seeds = sys.argv[2:]
def ok(cond, desc):
    print(("ok" if cond else "not ok") + " - " + desc)
big, null = [], []
for s in seeds:
    doc = json.load(open("%s/j%s.json" % (d, s)))
    for c in doc["cells"]:
        (big if c["d"] == 40 else null).append(c)
keys = ("d", "ns_per_add", "true_shift_ns", "n_plain", "n_injected", "shift_ns", "median_diff_ns",
        "ci_lo_ns", "ci_hi_ns", "mwu_p", "ks_p", "alpha", "detected", "null_split", "verdict",
        "unreliable", "controls", "note")
ok(all(all(k in c["jitter"] for k in keys) for c in big + null), "every jitter object has every key")
# adds holds each sample's code (bench/kernel.h): the ADDs on its chain, bit
# 40 for the dependent path, the arm from bit 41 (sample i in arm i % 3).
def arm(a): return a >> 41
def dep(a, k): return bool(a >> 40 & 1) or (a & ((1 << 40) - 1)) != k
c = big[0]
adds = c["adds"]
ok(all(arm(a) == i % 3 for i, a in enumerate(adds)), "sample i is in arm i % 3")
mp = sum(arm(a) == 0 and not dep(a, 200) for a in adds)
mi = sum(arm(a) == 0 and dep(a, 200) and (a & 0xffffffffff) == 240 for a in adds)
na = sum(arm(a) == 1 for a in adds)
ok(c["jitter"]["n_plain"] == mp and c["jitter"]["n_injected"] == mi and
   c["jitter"]["baseline"] == "aa" and c["jitter"]["n_baseline"] == na,
   "plain, injected and baseline (the whole A/A arm) counts follow the codes (%d, %d, %d)"
   % (mp, mi, na))
ctl = c["jitter"]["controls"]
ap = sum(arm(a) == 1 and not dep(a, 200) for a in adds)
ai = sum(arm(a) == 1 and dep(a, 200) and (a & 0xffffffffff) == 200 for a in adds)
sp = sum(arm(a) == 2 and not dep(a, 200) for a in adds)
si = sum(arm(a) == 2 and dep(a, 200) and (a & 0xffffffffff) == 240 for a in adds)
ok((ctl["aa"]["n_plain"], ctl["aa"]["n_injected"], ctl["aa"]["d"]) == (ap, ai, 0) and
   (ctl["swapped"]["n_plain"], ctl["swapped"]["n_injected"], ctl["swapped"]["d"]) == (sp, si, 40)
   and ctl["swapped"]["n_baseline"] == na and ctl["aa"]["n_baseline"] == ap
   and abs(ctl["swapped"]["p"] - 0.7) < 1e-12 and abs(ctl["aa"]["p"] - 0.3) < 1e-12,
   "controls: A/A (D = 0, P = 0.3) %d/%d and P-swapped (P = 0.7) %d/%d samples" % (ap, ai, sp, si))
# sim's true ADD cost is 0.3 ns (backends/sim.c): measured from the plain samples.
ok(all(abs(c["jitter"]["ns_per_add"] - 0.3) < 0.02 for c in big),
   "ns per ADD measured near sim's 0.3 ns in every seed")
ok(all(abs(c["jitter"]["true_shift_ns"] - 40 * c["jitter"]["ns_per_add"]) < 1e-9 for c in big),
   "true shift = D x ns per ADD")
ok(all(c["jitter"]["verdict"] in ("detected", "not detected", "unreliable here") for c in big + null)
   and all((c["jitter"]["verdict"] == "unreliable here") == (c["jitter"]["unreliable"] is not None)
           and not (c["jitter"]["unreliable"] and c["jitter"]["detected"]) for c in big + null),
   "an unreliable cell says why and is never detected")
det = sum(c["jitter"]["detected"] for c in big)
# Each control is a test at alpha = 0.05 (the A/A arm) or an interval
# check: together they overrule a sound cell now and then, by design.
ok(det >= 10, "D = 40 ADDs (12 ns, 6 sd) detected in >= 10 of 12 seeds (%d/%d)" % (det, len(big)))
cover = sum(c["jitter"]["ci_lo_ns"] - 0.5 <= c["jitter"]["true_shift_ns"] <= c["jitter"]["ci_hi_ns"] + 0.5
            for c in big)
ok(cover >= 11, "the interval (widened by one 0.5 ns step) covers the true shift in >= 90%% (%d/%d)"
   % (cover, len(big)))
agree = sum(c["jitter"]["controls"]["swapped"]["ci_lo_ns"] - 0.5 <= c["jitter"]["true_shift_ns"]
            <= c["jitter"]["controls"]["swapped"]["ci_hi_ns"] + 0.5 for c in big)
ok(agree >= 10, "the P-swapped arm's interval covers it too in >= 10 of 12 (%d)" % agree)
fa = sum(c["jitter"]["detected"] for c in null)
ok(not any(c["jitter"]["null_split"] for c in null),
   "D = 0 cells split their samples by the path they really took (no stand-in split)")
ok(fa <= 2, "D = 0 detected in at most 2 of 12 seeds (%d): a 5 %% false-alarm rate" % fa)
print("# D = 40: detected %d/%d, covered %d/%d; D = 0: detected %d/%d" % (det, len(big), cover, len(big), fa, len(null)))
EOF2
tap_from "$tmp/tap"

# report re-analyses a saved run into the same lines.
"$TL_BIN" report "$tmp/j1.json" >"$tmp/r1" 2>&1
grep '^sim' "$tmp/t1" | grep 'jitter:' | grep 'ADDs' >"$tmp/l1"
grep '^sim' "$tmp/r1" | grep 'jitter:' | grep 'ADDs' >"$tmp/l2"
[ -s "$tmp/l1" ] && cmp -s "$tmp/l1" "$tmp/l2"; ok $? "report prints the same jitter lines as the run"

# A cell whose A/A arm moved (here: its dependent samples pushed up by
# 20 ns in a saved file) is "unreliable here" with the reason, never
# detected: in the table, the markdown and the JSON report writes.
"$PY" - "$tmp/j1.json" "$tmp/aa.json" <<'EOF2'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["cells"]:
    if c["d"] == 40:
        for i, a in enumerate(c["adds"]):
            if a >> 41 == 1 and a >> 40 & 1:
                c["samples"][i] += 20
                c["samples_ns"][i] += 20
json.dump(doc, open(sys.argv[2], "w"))
EOF2
"$TL_BIN" report "$tmp/aa.json" --json "$tmp/aa2.json" --markdown "$tmp/aa.md" >"$tmp/aa.txt" 2>&1
grep -q 'jitter:200,40,0.3: +40 ADDs.*: unreliable here: the A/A control (D = 0, the split alone) shows a shift' "$tmp/aa.txt"
ok $? "a moved A/A arm: the table says unreliable here, with the reason"
grep -q 'unreliable here: the A/A control' "$tmp/aa.md"; ok $? "and so does the markdown"
"$PY" - "$tmp/aa2.json" <<'EOF2'
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["cells"] if c["d"] == 40][0]["jitter"]
sys.exit(not (c["verdict"] == "unreliable here" and c["detected"] is False
              and c["unreliable"].startswith("the A/A control") and c["controls"]["aa"]["mwu_p"] < 0.05))
EOF2
ok $? "and the JSON: verdict, reason, detected false, the A/A p"

# D in ns: converted with the ns per ADD the timer measured (sim: 0.3), said
# in the table, kept in the JSON (label with ns, d with the ADDs), and read
# back by report.
"$TL_BIN" run --backend "$sim" --kernel 'jitter:200,6ns,0.3' -n 1000 --seed 1 \
	--json "$tmp/ns.json" >"$tmp/ns.txt" 2>&1
ok $? "a run with D in ns"
grep -q 'jitter:200,6ns,0.3: +20 ADDs = ' "$tmp/ns.txt" &&
	grep -q 'D given as 6 ns: 20 ADDs at 0.3.* ns per ADD, which this timer measured' "$tmp/ns.txt"
ok $? "6 ns = 20 ADDs at sim's 0.3 ns per ADD, and the table says so"
"$PY" - "$tmp/ns.json" <<'EOF2'
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["cells"] if c["kind"] == "jitter"][0]
sys.exit(not (c["kernel"] == "jitter:200,6ns,0.3" and c["d"] == 20 and c["d_ns"] == 6
              and abs(c["d_ns_per_add"] - 0.3) < 0.003
              and sum(a == ((1 << 40) | 220) for a in c["adds"]) == 100))
EOF2
ok $? "JSON: label with ns, d = 20, d_ns = 6, d_ns_per_add near 0.3, 100 main-arm samples of 220 ADDs"
"$TL_BIN" report "$tmp/ns.json" >"$tmp/nsr.txt" 2>&1 &&
	grep -q 'jitter:200,6ns,0.3: +20 ADDs' "$tmp/nsr.txt" && grep -q 'D given as 6 ns: 20 ADDs' "$tmp/nsr.txt"
ok $? "report reads the converted D back"

done_testing
