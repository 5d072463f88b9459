#!/bin/sh
# The fleet flags a node's add:2000 samples by effect, not by p-value alone,
# and no node's sample count weighs on the others. Fleets are written from
# the fixture n1 (`--compact`ed; every figure n1's but the samples, the CV
# and the drift), with samples drawn with fixed seeds on the timer's
# 10.02 ns lattice, and the verdicts recomputed in Python from the files:
# each node's grouped median, the median and MAD of the other nodes'
# medians, the allowance max(2 %, own drift, own CV, 5 x 1.4826 MAD /
# median with 4 others or more); the KS test (checked against scipy by
# test_fleet_scipy) is taken from fleet's JSON. Cases: the three nodes of
# a Slurm run where one is 3.5 % slower within its own 4.9 % drift (a note,
# no flag); twenty tight nodes where one 10 % slower holds 32x the samples
# (it alone flagged); twenty where a healthy node holds 32x (none).
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to write and read the JSON"

xz -dc "$TL_TOP_SRCDIR/tests/fixtures/fleet/n1.json.xz" >"$tmp/n1raw.json" &&
	"$TL_BIN" fingerprint --compact "$tmp/n1raw.json" --json "$tmp/n1.json" -q
ok $? "the fixture n1 compacted as the template"

# make CASE DIR: writes the case's fleet, prints the planted odd node or "-"
make_case() {
	"$PY" - "$tmp/n1.json" "$1" "$2" <<'PY'
import json, math, os, random, sys
tmpl, case, out = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
STEP = 10.0190
os.makedirs(out)
def node(name, median, drift, n, rng):
    d = json.loads(tmpl)
    d["node"]["name"] = d["node"]["slurm_node"] = d["node"]["hostname"] = name
    s = d["summary"]
    s["facts"]["name"] = s["facts"]["slurm_node"] = s["facts"]["hostname"] = name
    c = {}
    for _ in range(n):
        k = round(median * math.exp(rng.gauss(0, 0.03)) / STEP)
        c[k] = c.get(k, 0) + 1
    ks = sorted(c)
    xs = [k * STEP for k in ks for _ in range(c[k])]
    mean = sum(xs) / n
    s["samples"] = {"kind": "exact", "n": n, "rel_error": 0, "values": [k * STEP for k in ks],
                    "counts": [c[k] for k in ks]}
    s["figures"]["cv_percent"] = 100 * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) / mean
    d["drift"]["rel_sd"] = drift
    json.dump(d, open("%s/%s.json" % (out, name), "w"))
rng = random.Random(37)
if case == "slurm":  # a real Slurm fleet's run: n1 3.5 % slower, drifts 4.90, 4.18, 5.18 %
    for name, m, dr in (("n1", 551 * 1.035, 0.049), ("n2", 551, 0.0418), ("n3", 551, 0.0518)):
        node(name, m, dr, 2000, rng)
    print("-")
else:
    for i in range(20):
        slow = case == "heavy-slow" and i == 7
        node("n%02d" % i, 551 * (1 + rng.gauss(0, 0.005)) * (1.10 if slow else 1), 0.005,
             620 * (32 if i == 7 else 1), rng)
    print("n07" if case == "heavy-slow" else "-")
PY
}

# check DIR JSON ODD: Python's verdicts from the files against fleet's
check() {
	"$PY" - "$1" "$2" "$3" <<'PY'
import json, os, statistics as st, sys
d, out, odd = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
def gmed(v, c):
    n, half, run, k = sum(c), sum(c) / 2, 0, 0
    while k + 1 < len(v) and run + c[k] < half:
        run += c[k]; k += 1
    below = v[k - 1] if k else 2 * v[0] - v[1]
    above = v[k + 1] if k + 1 < len(v) else 2 * v[k] - v[k - 1]
    lo, hi = (below + v[k]) / 2, (v[k] + above) / 2
    return lo + (hi - lo) * (half - run) / c[k]
files = {f[:-5]: json.load(open(os.path.join(d, f))) for f in os.listdir(d)}
med = {n: gmed(f["summary"]["samples"]["values"], f["summary"]["samples"]["counts"])
       for n, f in files.items()}
got = {n["name"]: n for n in out["nodes"]}
bad, want = 0, set()
for n, f in files.items():
    o = [m for k, m in med.items() if k != n]
    om = st.median(o); mad = st.median([abs(x - om) for x in o])
    allow = max(0.02, f["drift"]["rel_sd"], f["summary"]["figures"]["cv_percent"] / 100,
                5 * 1.4826 * mad / om if len(o) >= 4 else 0)
    e = med[n] / om - 1
    t = got[n]["samples_test"]
    apart = t["ks_d"] > 0.25 and t["ks_p"] < 1e-3
    if apart and abs(e) > allow:
        want.add(n)
    se = got[n]["samples_effect"]
    if abs(se["effect_percent"] - 100 * e) > 1e-9 or abs(se["allowed_percent"] - 100 * allow) > 1e-9:
        print("%s: effect %r vs %r, allowed %r vs %r" % (n, se["effect_percent"], 100 * e,
              se["allowed_percent"], 100 * allow)); bad += 1
flagged = {n for n, x in got.items() if x["flagged"]}
print("flagged %s, Python's rule %s, planted %s" % (sorted(flagged), sorted(want), odd))
sys.exit(1 if bad or flagged != want or want != ({odd} if odd != "-" else set()) else 0)
PY
}

odd=$(make_case slurm "$tmp/slurm")
"$TL_BIN" fleet "$tmp/slurm" --json "$tmp/slurm.json" >"$tmp/slurm.txt" 2>&1
rc=$?
check "$tmp/slurm" "$tmp/slurm.json" "$odd" >"$tmp/out"
ok $? "3 nodes, n1 3.5 % slower within its own 4.9 % drift: $(head -1 "$tmp/out") (status $rc)"
"$PY" - "$tmp/slurm.json" "$tmp/slurm.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read()
n1 = next(n for n in d["nodes"] if n["name"] == "n1")
e = n1["samples_effect"]
want = "%.1f %% slower than the other nodes'" % e["effect_percent"]
ok = n1["samples_effect"]["told_apart"] and not n1["flagged"] and want in n1["note"] and \
     n1["note"].endswith("within its own 4.9 % drift: not flagged") and ("n1: " + n1["note"]) in text
print(n1["note"]); sys.exit(0 if ok else 1)
PY
ok $? "and it is said as a note, in the table too: '$(grep '^n1: add' "$tmp/slurm.txt" | cut -c1-60)...'"
grep -q "^rule: .*than the largest of 2 %, the node's own drift, its own CV and 5 robust sd" "$tmp/slurm.txt"
ok $? "the table ends with the rule"
"$PY" -c 'import json,sys; r=json.load(open(sys.argv[1]))["rules"]; sys.exit(0 if r["ks_d"] == 0.25 and r["ks_p"] == 1e-3 and r["shift_rel"] == 0.02 and r["robust_z"] == 5 and "5 robust sd" in r["text"] and "KS D > 0.25, p < 0.001" in r["text"] else 1)' "$tmp/slurm.json"
ok $? "the JSON's rule text says the numbers the JSON's rules hold"

odd=$(make_case heavy-slow "$tmp/hs")
"$TL_BIN" fleet "$tmp/hs" --json "$tmp/hs.json" >/dev/null 2>&1
check "$tmp/hs" "$tmp/hs.json" "$odd" >"$tmp/out"
ok $? "20 nodes, the one 10 % slower holding 32x the samples: $(head -1 "$tmp/out")"
odd=$(make_case heavy-healthy "$tmp/hh")
"$TL_BIN" fleet "$tmp/hh" --json "$tmp/hh.json" >/dev/null 2>&1
rc=$?
check "$tmp/hh" "$tmp/hh.json" "$odd" >"$tmp/out"
[ $? -eq 0 ] && [ $rc -eq 0 ]
ok $? "20 nodes, a healthy one holding 32x the samples: $(head -1 "$tmp/out") (status $rc)"
done_testing
