#!/bin/sh
# The noise a fingerprint records and how a fleet names a noisy node by
# its cause. A real fingerprint (--budget 1) on this
# node: its noise block is the probe's counts over its seconds, and
# `report` prints each rate as count / seconds. Then the fixture fleet
# tests/fixtures/fleet-noise (five quiet twins and n7, all n1's measured
# figures, only their noise blocks differ): fleet flags n7 and no other,
# says its preemptions as the multiple of the others' median that Python
# computes from the fixtures' counts, and names its busiest source. An
# older fingerprint without a noise block still loads among them.
. "${TL_TOP_SRCDIR:-.}/tests/tap.sh"
cli_test_init "python3 is needed to read the JSON"

"$TL_BIN" fingerprint --budget 1 -q --json "$tmp/fp.json" 2>"$tmp/fp.err"
ok $? "fingerprint --budget 1 writes its file"
"$TL_BIN" report "$tmp/fp.json" >"$tmp/report.txt" 2>&1
"$PY" - "$tmp/fp.json" "$tmp/report.txt" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
nz = d.get("noise")
if not nz:  # the probe may not run here: then the file says why
    print("no probe: %s" % d.get("noise_why")); sys.exit(0 if d.get("noise_why") else 1)
c, s = nz["counts"], nz["seconds"]
assert s > 0 and all(isinstance(v, int) and v >= 0 for v in c.values()), nz
assert {"preempted", "page_faults", "migrations", "ticks", "irqs", "softirqs",
        "unexplained"} <= set(c), c
rows = {l[:10].strip(): l[11:23].strip() for l in open(sys.argv[2]) if l.startswith("nz ")}
want = {"nz pre/s": ("preempted", "%.1f"), "nz flt/s": ("page_faults", "%.1f"),
        "nz mig/s": ("migrations", "%.1f"), "nz tick/s": ("ticks", "%.0f"),
        "nz irq/s": ("irqs", "%.0f"), "nz sirq/s": ("softirqs", "%.0f"),
        "nz unex/s": ("unexplained", "%.1f")}
bad = [(k, rows.get(k), f % (c[n] / s)) for k, (n, f) in want.items() if rows.get(k) != f % (c[n] / s)]
print(bad or "every rate is its count over %.2f s" % s)
sys.exit(1 if bad else 0)
PY
ok $? "the noise block holds the probe's counts; report prints each as count / seconds"

mkdir "$tmp/fleet"
for f in "$TL_TOP_SRCDIR"/tests/fixtures/fleet-noise/*.json.xz; do
	xz -dc "$f" >"$tmp/fleet/$(basename "$f" .xz)" || { ok 1 "fixtures unpacked"; done_testing; exit 1; }
done
"$TL_BIN" fleet "$tmp/fleet" --json "$tmp/fleet.json" >"$tmp/fleet.txt" 2>&1
rc=$?
[ $rc -eq 1 ]; ok $? "the fleet with n7 flags something: status 1 (status $rc)"
"$PY" - "$tmp/fleet" "$tmp/fleet.json" "$tmp/fleet.txt" <<'PY'
import json, os, statistics as st, sys
fix = {f[:-5]: json.load(open(os.path.join(sys.argv[1], f))) for f in os.listdir(sys.argv[1])}
rate = {n: d["noise"]["counts"]["preempted"] / d["noise"]["seconds"] for n, d in fix.items()}
others = [v for n, v in rate.items() if n != "n7"]
ratio = rate["n7"] / st.median(others)
top = max(fix["n7"]["noise"]["top"], key=lambda t: t["n"])["name"]
out = json.load(open(sys.argv[2]))
flagged = [n["name"] for n in out["nodes"] if n["flagged"]]
reason = next(n["reason"] for n in out["nodes"] if n["name"] == "n7")
text = open(sys.argv[3]).read()
want = "%.0fx the fleet's preemptions" % ratio
print("flagged %s; n7: %s" % (flagged, reason))
ok = flagged == ["n7"] and want in reason and ("top: " + top) in reason and \
     ("n7: " + want) in text and "noise_preempted_per_s" in out["nodes"][0]["figures"]
sys.exit(0 if ok else 1)
PY
ok $? "fleet flags n7 alone, with '$(grep -o '[0-9]*x the fleet.s preemptions' "$tmp/fleet.txt" | head -1)' and its top source"
grep '^n7' "$tmp/fleet.txt" | tail -1 | sed 's/^/#   /'

# An older fingerprint, without a noise block, loads beside them: its
# rates are unknown (null), never zero, and never flag it.
xz -dc "$TL_TOP_SRCDIR/tests/fixtures/fleet/n2.json.xz" >"$tmp/fleet/n2.json"
"$TL_BIN" fleet "$tmp/fleet" --json "$tmp/fleet2.json" >/dev/null 2>"$tmp/fleet2.err"
"$PY" - "$tmp/fleet2.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n2 = next(n for n in d["nodes"] if n["name"] == "n2")
ok = not d.get("skipped") and n2["figures"]["noise_preempted_per_s"] is None and \
     "the fleet's" not in n2["reason"] and "n7" in [n["name"] for n in d["nodes"] if n["flagged"]]
sys.exit(0 if ok else 1)
PY
ok $? "an older fingerprint without noise rates loads beside them, its rates null, not flagged for noise"
done_testing
